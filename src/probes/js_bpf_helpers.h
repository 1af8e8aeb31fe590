/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_bpf_helpers.h - what both loaders of bpf/ (probes.c, follow.c) say of their programs:
 * a program's tracepoint, the pairs of tracepoints that open and close an interval (the
 * closing half attached first, detached last), a loaded program's run counts. The kernel's
 * types and the build that loads (tp_btf or raw_tp) are js_kbtf.h's.
 */
#ifndef JS_BPF_HELPERS_H
#define JS_BPF_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bpf_program;

/* bpfh_prog_tp - the tracepoint of a "tp_btf/NAME" or "raw_tp/NAME" program */
const char *bpfh_prog_tp(const struct bpf_program *prog);
/* bpfh_has_suffix - does s end with suf */
bool bpfh_has_suffix(const char *s, const char *suf);
/* bpfh_partner - the i-th candidate other half of an *_entry/_exit, *_start/_end,
 * *_begin/_end tracepoint (from the i-th pair on) into buf; false when i is past the
 * candidates. bpfh_partner(tp, 0, ...) of "X_entry" is "X_exit". */
bool bpfh_partner(const char *tp, size_t i, char *buf, size_t len);
/* bpfh_partner_suffix - the suffix the i-th pair opens with, NULL past the last */
const char *bpfh_partner_suffix(size_t i);
/* bpfh_is_exit - a closing half (*_exit, *_end): attached before, detached after the
 * opening ones, so that no interval opens that its exit would not close */
bool bpfh_is_exit(const char *tp);
/* bpfh_prog_run - a loaded program's kernel id and run counts (kernel.bpf_stats_enabled);
 * 0, or -1 when it has no fd or the kernel does not say */
int bpfh_prog_run(const struct bpf_program *prog, uint32_t *id, uint64_t *run_cnt,
		  uint64_t *run_time_ns, uint64_t *recursion_misses);

#endif /* JS_BPF_HELPERS_H */
