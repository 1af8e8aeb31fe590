/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_threshold.h - `--threshold auto`: the smallest gap recorded, calibrated on each measured
 * CPU before the window opens. The floor is JS_THR_AUTO_MULT times the loop's shortest
 * period (hiccups' rule). A trial spin then counts the gaps above the floor and above each
 * larger candidate (half-octave steps); when the gap rate at the floor would exceed what
 * housekeeping drains within its budget (JS_HK_SHARE_PCT of a core at JS_HK_GAP_NS per gap,
 * shared by the measured CPUs) or what the sampler ring holds between two drains, the floor
 * is raised to the smallest candidate at 1 / JS_THR_AUTO_HEADROOM of that whose next lower
 * candidate is within the maximum (gaps 1.4 x as long as the trial's still are), and the
 * reason is kept: a floor over the maximum sits in a population of gaps, and a threshold
 * raised just past the maximum's edge of it saw twice the trial's rate in the run when the
 * host slowed, one inside it (30 % of the injected gaps above it in the trial) 3.2 times
 * (docs/USAGE.md, "--threshold auto").
 */
#ifndef JS_THRESHOLD_H
#define JS_THRESHOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_THR_AUTO_MULT 8		  /* floor = 8 x the loop's minimum period */
#define JS_THR_AUTO_STEPS 24		  /* candidates floor x 2^(k/2), k < 24: up to 2896 x */
#define JS_THR_AUTO_TRIAL_NS 200000000ull /* the trial spin, per CPU */
#define JS_HK_GAP_NS 1000		  /* housekeeping's budget per gap */
#define JS_HK_SHARE_PCT 2		  /* ... and per run, in % of a core */
#define JS_THR_AUTO_HEADROOM 2		  /* a raised floor: at most max rate / this */
#define JS_THR_AUTO_RULE                                              \
	"8 x the loop's minimum period, raised in half-octave steps " \
	"while the gap rate exceeds what housekeeping drains"

/* js_thr_auto - what `--threshold auto` chose and why (JSON params.threshold_auto) */
struct js_thr_auto {
	int cpu;		  /* the CPU whose calibration set the run's threshold */
	double loop_min_ns;	  /* its loop's minimum period */
	uint64_t floor_ns;	  /* JS_THR_AUTO_MULT x loop_min_ns */
	uint64_t chosen_ns;	  /* the threshold used: floor_ns or a raised candidate */
	double rate_at_floor;	  /* gaps/s above floor_ns in the trial */
	double rate_at_chosen;	  /* gaps/s above chosen_ns in the trial */
	double max_rate;	  /* gaps/s per CPU within the budget */
	char raised_because[200]; /* "" when the floor was kept */
};

/* thr_auto_candidate - candidate k above floor: floor x 2^(k/2), rounded down, at least 1 */
uint64_t thr_auto_candidate(uint64_t floor, unsigned k);

/* thr_auto_max_rate - gaps/s one of ncpus measured CPUs may produce: housekeeping's share
 * (JS_HK_SHARE_PCT of a core at JS_HK_GAP_NS per gap) split between them, and at most a
 * quarter of a ring of ring_entries per drain period drain_ns */
double thr_auto_max_rate(size_t ncpus, size_t ring_entries, uint64_t drain_ns);

/*
 * thr_auto_choose - the threshold of one CPU from its trial: counts[k] gaps above
 * cand_ns[k] (k < n, ascending, cand_ns[0] the floor) over trial_s seconds. The floor when
 * its rate is within max_rate, else the first candidate within max_rate /
 * JS_THR_AUTO_HEADROOM whose next lower one is within max_rate, else the last;
 * a->floor_ns, chosen_ns, the rates and raised_because are set (loop_min_ns and cpu are
 * the caller's). Returns chosen_ns.
 */
uint64_t thr_auto_choose(const uint64_t *cand_ns, const uint64_t *counts, size_t n, double trial_s,
			 double max_rate, struct js_thr_auto *a);

/*
 * thr_describe - the threshold as every report shows it, into buf[len]: "1.00 us", or with
 * --threshold auto "168 ns (auto: 8 x loop min 21.0 ns)" or "1.19 us (auto: raised from
 * 168 ns: <raised_because>)"; returns buf
 */
const char *thr_describe(char *buf, size_t len, uint64_t threshold_ns, bool is_auto,
			 const struct js_thr_auto *a);

#endif /* JS_THRESHOLD_H */
