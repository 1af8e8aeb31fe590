/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_clockcost.h - the read costs of the clocks that bound every figure: rdtscp,
 * lfence;rdtsc and clock_gettime(CLOCK_MONOTONIC), median and p99, measured at start on the
 * calling (housekeeping) thread in about 10 ms.
 *
 * Method: for each clock, many pairs of back-to-back reads; the cost of one read is the
 * difference of the pair (in TSC cycles for the TSC reads, converted with tsc_hz; in ns for
 * clock_gettime, whose own resolution therefore bounds it from below). That difference is
 * what a loop made of nothing but reads of that clock would see between two reads: the
 * floor of any interval measured with it. rdtscp is measured only where the CPU may run it
 * (tsc_rdtscp_usable); elsewhere its samples are 0 and it is reported as absent. On arm64
 * the one counter read, isb;cntvct_el0, takes lfence;rdtsc's place; a pair that falls
 * within one step of the counter reads 0.
 */
#ifndef JS_CLOCKCOST_H
#define JS_CLOCKCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLOCKCOST_SAMPLES 100000       /* pairs per clock (fewer if the time budget ends) */
#define CLOCKCOST_BUDGET_NS 3000000ULL /* per clock */

/* One clock's read cost. */
struct js_clock_read {
	const char *name; /* "rdtscp", "lfence_rdtsc", "isb_cntvct", "clock_gettime_monotonic" */
	uint64_t samples;
	double min_ns, median_ns, p99_ns, max_ns;
	uint64_t median_raw, p99_raw; /* in the clock's unit: cycles (TSC) or ns */
};

struct js_clockcost {
	double tsc_hz;	      /* used for the conversion (given, or estimated if 0) */
	int tsc_hz_estimated; /* 1 if tsc_hz was estimated here against CLOCK_MONOTONIC */
	char clocksource[32]; /* current_clocksource ("tsc": clock_gettime via the vDSO) */
	/* x86-64: rdtscp and lfence_rdtsc; arm64: isb_cntvct (the other two have 0 samples) */
	struct js_clock_read rdtscp, lfence_rdtsc, isb_cntvct, monotonic;
};

/* clockcost_measure - measure the clocks on the calling thread (rdtscp only if
 * @rdtscp_usable); tsc_hz 0 = estimate it (roughly, over the measurement). 0 or -ENOMEM */
int clockcost_measure(struct js_clockcost *out, double tsc_hz, bool rdtscp_usable);
/* clockcost_summarise - sort v[n] (raw units) and fill min/median/p99/max (nearest rank),
 * ns = raw * ns_per_unit; n == 0 leaves zeros */
void clockcost_summarise(struct js_clock_read *r, uint64_t *v, size_t n, double ns_per_unit);

#endif /* JS_CLOCKCOST_H */
