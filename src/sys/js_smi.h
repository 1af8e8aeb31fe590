/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_smi.h - System Management Interrupt counter of one CPU.
 *
 * Sources, in order: the perf `msr` PMU's `smi` event (MSR_SMI_COUNT, 0x34) bound to the
 * CPU, then /dev/cpu/N/msr. Reading a CPU-bound counter from another CPU sends an IPI to
 * the counted CPU (perf reads it there; rdmsr on a remote CPU likewise), so read it only
 * before sampling starts and after it stops, never during the run. Inside a KVM guest the
 * MSR is emulated and host SMIs are invisible: the count stays 0.
 */
#ifndef JS_SMI_H
#define JS_SMI_H

#include <stdint.h>
#include <stddef.h>

enum js_smi_src {
	JS_SMI_NONE = 0,
	JS_SMI_PERF, /* perf_event_open on the msr PMU, event smi */
	JS_SMI_MSR,  /* pread of MSR 0x34 on /dev/cpu/N/msr */
};

struct js_smi {
	int fd;
	int cpu;
	enum js_smi_src src;
};

/* smi_open - open the SMI counter of cpu; 0, or negative errno with a human reason in why */
int smi_open(int cpu, struct js_smi *s, char *why, size_t len);
/* smi_read - current SMI count (IPIs the counted CPU: read at start and end only) */
int smi_read(struct js_smi *s, uint64_t *count);
/* smi_close - close the counter; accepts a closed/zeroed struct */
void smi_close(struct js_smi *s);
/* smi_src_name - "perf msr/smi", "/dev/cpu/N/msr" or "none" */
const char *smi_src_name(enum js_smi_src src);
/* smi_parse_event - parse a PMU event string ("event=0x04") into a perf config */
int smi_parse_event(const char *str, uint64_t *config);

#endif /* JS_SMI_H */
