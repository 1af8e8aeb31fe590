/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_period.h - is a set of event times periodic ("periodic at 10 ms")? Pure, bounded memory.
 *
 * Fed incrementally with the start times of (e.g.) unexplained gaps, in time order.
 * For each candidate period P (1, 2, 4, 5, 10, 20, 25, 50, 100 ms and the tick 1/HZ)
 * every time t is a phase 2*pi*(t mod P)/P (in steps of P/65536); periodic times pile up at
 * one phase.
 * The sums of cos/sin are kept per block of block_ns (so a slow drift between the
 * source's clock and ours does not smear the phase over a long run) and give:
 *   strength  the phase concentration (mean resultant length) 0..1, debiased:
 *             sqrt(sum_b(|S_b|^2 - n_b) / sum_b n_b(n_b - 1)); ~0 for random times,
 *             1 for exactly periodic ones, exp(-(2 pi sd / P)^2 / 2) with jitter sd;
 *   z         the Rayleigh statistic sum_b |S_b|^2 / n_b; for random times its
 *             mean is the number of blocks B (z_expected) and its sd about sqrt(B).
 * A candidate is periodic when n >= min_samples, strength >= min_strength and
 * z >= B + sig_sd * (sqrt(B) + 1). The reported period is the longest periodic
 * candidate whose strength is at least 0.8 x the best strength: times periodic
 * at 10 ms are also concentrated modulo 5, 2 and 1 ms, but not modulo 20 ms.
 *
 * By duration class (struct js_period_classes): one detector per band of gap durations
 * (bounds js_period_band_ns: 0, 2, 5, 10, 20, 50, 100 us, 1 ms) and one per "at least
 * this long" class. A periodic source among the long gaps (a 100 Hz host source leaving
 * 20-50 us gaps) is drowned, in one detector over every gap, by thousands of short random
 * ones; in its own class it stands out. The headline class is the longest tenth: gaps at
 * least as long as the highest bound that still leaves a tenth of the gaps above it.
 */
#ifndef JS_PERIOD_H
#define JS_PERIOD_H

#include <stdbool.h>
#include <stdint.h>

#define JS_PERIOD_CANDS 10	       /* 9 fixed periods + the tick */
#define PERIOD_BLOCK_NS 10000000000ull /* default block: 10 s */

struct js_period_cand {
	uint64_t num, den;  /* period = num / den ns (den > 1 for 1e9 / HZ) */
	double phase_scale; /* 65536 / num: the phase in 1/65536 of the period */
	double c, s;	    /* current block sums */
	double conc;	    /* sum over folded blocks of |S_b|^2 - n_b */
	double z;	    /* sum over folded blocks of |S_b|^2 / n_b */
	double gc, gs;	    /* whole-run sums (the mean phase) */
};

struct js_period_result {
	uint64_t period_ns; /* rounded to ns */
	double strength;    /* 0..1 */
	double z;
	double z_expected; /* z for random times (= blocks) */
	double phase_ns;   /* mean offset within the period (whole run) */
	uint64_t n;
	bool periodic;
};

struct js_period {
	/* settings (period_init sets defaults; the caller may change them before adding) */
	uint64_t block_ns;
	uint32_t min_samples; /* default 20 */
	double min_strength;  /* default 0.3 */
	double sig_sd;	      /* default 6 */
	/* state */
	uint32_t ncand;
	uint32_t blocks; /* folded blocks with >= 2 times */
	uint64_t n;	 /* times added */
	uint64_t block_start, block_n;
	double pairs; /* sum over folded blocks of n_b (n_b - 1) */
	struct js_period_cand cand[JS_PERIOD_CANDS];
	bool saved; /* a verdict loaded from a file (report_load): result */
	struct js_period_result result;
};

#define JS_PERIOD_BANDS 8
/* lower bounds of the duration bands, ns: 0, 2, 5, 10, 20, 50, 100 us, 1 ms */
extern const uint64_t js_period_band_ns[JS_PERIOD_BANDS];

struct js_period_classes {
	struct js_period band[JS_PERIOD_BANDS]; /* band_ns[i] <= dur < band_ns[i + 1] */
	struct js_period ge[JS_PERIOD_BANDS];	/* dur >= band_ns[i]: ge[0] holds every time */
};

/* period_init - candidates 1..100 ms plus 1e9/hz (hz 0: none); block_ns 0 = default */
void period_init(struct js_period *p, uint32_t hz, uint64_t block_ns);

/* period_add - one event time (CLOCK_MONOTONIC ns, non-decreasing); O(candidates) */
void period_add(struct js_period *p, uint64_t t_ns);

/* period_result - the best period (or the saved verdict); returns out->periodic */
bool period_result(const struct js_period *p, struct js_period_result *out);

/* period_saved - a detector that gives back the verdict r (a run loaded from a file) */
void period_saved(struct js_period *p, const struct js_period_result *r);

/* period_classes_init - every class's detector, as period_init */
void period_classes_init(struct js_period_classes *pc, uint32_t hz, uint64_t block_ns);

/* period_classes_add - a time of a gap of dur_ns into its band and the classes it is in */
void period_classes_add(struct js_period_classes *pc, uint64_t t_ns, uint64_t dur_ns);

/*
 * period_classes_headline - the headline class ge[h]: the highest h whose class holds at
 * least a tenth of the times (rounded up); 0 (every time) when there are none
 */
int period_classes_headline(const struct js_period_classes *pc);

/* period_band - the duration band a gap of dur_ns is in (band_ns[i] <= dur < band_hi(i)) */
int period_band(uint64_t dur_ns);

/* period_band_hi - exclusive upper bound of band i (UINT64_MAX for the last) */
uint64_t period_band_hi(int i);

/* period_candidate - statistics of candidate i (< p->ncand); -1 if out of range */
int period_candidate(const struct js_period *p, unsigned int i, struct js_period_result *out);

#endif /* JS_PERIOD_H */
