/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_probes_arch.h - what of the probes is the arch's. bpf/ builds every program for both
 * arches from one source; the programs of the other arch's tracepoints are not loaded
 * (bpf_program__set_autoload false): x86's APIC vectors (local_timer_entry ...) and
 * exceptions (page_fault_user/kernel) on arm64, arm64's ipi:ipi_entry/ipi_exit/ipi_raise on
 * x86. One file per arch: probes_x86.c, probes_arm64.c.
 */
#ifndef JS_PROBES_ARCH_H
#define JS_PROBES_ARCH_H

#include <stdbool.h>

struct btf;

/* probes_arch_skip - the program of tracepoint @tp is not loaded here: another arch's, or
 * one whose events another program of this kernel (@btf) records already */
bool probes_arch_skip(const struct btf *btf, const char *tp);
/* probes_arch_kvm_steal - a KVM guest whose paravirt steal clock the probes can read */
bool probes_arch_kvm_steal(void);
/* probes_arch_kvmclock - a guest whose kvmclock pages the probes can read (x86: the kernel
 * registered kvm-clock, js_hv.h) */
bool probes_arch_kvmclock(void);

#endif /* JS_PROBES_ARCH_H */
