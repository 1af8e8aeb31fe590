// SPDX-License-Identifier: GPL-2.0
/*
 * probes_raw.bpf.c - probes.bpf.c built as raw_tp programs (tp.h): for a kernel whose own
 * BTF the tp_btf build cannot use (src/probes/kbtf.c). The same programs, maps and sections, so
 * that probes.c opens either object through the one skeleton.
 */
#define JS_RAW_TP 1
#include "probes.bpf.c"
