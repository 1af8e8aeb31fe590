/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_vmexit.h - what one VM exit costs on the calling CPU, in a guest.
 *
 * Method: timed round trips of `cpuid` (leaf 0), between two TSC reads made as the run
 * makes them (js_tsc.h), on the measured CPU (the sampler thread, during its calibration,
 * before it measures: never in its loop).
 * Every x86 hypervisor intercepts cpuid (Intel VMX exits on it unconditionally), so one
 * round trip is one exit to the hypervisor and back, plus the hypervisor's cpuid emulation
 * (a few dozen ns). On bare metal cpuid does not exit (100-300 cycles): nothing is measured
 * there and nothing is said about exits. The median is the figure (a tick or a host
 * interrupt during a few round trips inflates them, not the median).
 */
#ifndef JS_VMEXIT_H
#define JS_VMEXIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_tsc.h"

#define VMEXIT_SAMPLES 512		/* round trips (fewer if the budget ends) */
#define VMEXIT_BUDGET_CYCLES 100000000u /* about 40 ms at 2.3 GHz, even when nested */

struct js_vmexit {
	uint32_t samples; /* 0: not a guest, or not measured */
	uint32_t min_cycles, median_cycles, p90_cycles;
};

/* vmexit_guest - does the CPU say it runs under a hypervisor (cpuid 1, ecx bit 31) */
bool vmexit_guest(void);

/*
 * vmexit_measure - on the calling thread: in a guest, up to VMEXIT_SAMPLES cpuid round
 * trips (within VMEXIT_BUDGET_CYCLES), summarised into *out; elsewhere out->samples = 0.
 * Uses a buffer of its own on the stack; no allocation, no syscall.
 */
void vmexit_measure(struct js_vmexit *out, enum tsc_read rd);

/* vmexit_summarise - sort c[n] (cycles) and fill out (nearest rank); n 0: all zero. Pure */
void vmexit_summarise(struct js_vmexit *out, uint32_t *c, size_t n);

#endif /* JS_VMEXIT_H */
