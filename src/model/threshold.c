// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * threshold.c - the rule of `--threshold auto` (js_threshold.h); the trial spin that feeds
 * it is the sampler's (sampler.c), the choice across CPUs the pipeline's.
 */
#include <inttypes.h>
#include <stdio.h>

#include "js_threshold.h"
#include "js_util.h"

/* thr_auto_candidate - candidate k above floor: floor x 2^(k/2), rounded down, at least 1 */
uint64_t thr_auto_candidate(uint64_t floor, unsigned k)
{
	uint64_t v = floor ? floor : 1;

	if (k / 2 >= 40)
		return UINT64_MAX;
	v <<= k / 2;
	if (k % 2)
		v = v * 181 / 128; /* sqrt(2) within 0.03 % */
	return v ? v : 1;
}

/* thr_auto_max_rate - gaps/s per measured CPU within housekeeping's share and the ring */
double thr_auto_max_rate(size_t ncpus, size_t ring_entries, uint64_t drain_ns)
{
	double hk = JS_HK_SHARE_PCT / 100.0 * 1e9 / JS_HK_GAP_NS / (ncpus ? ncpus : 1);
	double ring = drain_ns ? ring_entries / 4.0 / (drain_ns / 1e9) : hk;

	return hk < ring ? hk : ring;
}

/* thr_auto_choose - the first candidate within max_rate, else the last (js_threshold.h) */
uint64_t thr_auto_choose(const uint64_t *cand_ns, const uint64_t *counts, size_t n, double trial_s,
			 double max_rate, struct js_thr_auto *a)
{
	size_t k = 0;

	if (!n || trial_s <= 0)
		return 0;
	/* a floor over the maximum is raised clear of the population of gaps it sits in: to
	 * a rate of at most 1 / JS_THR_AUTO_HEADROOM of the maximum in the trial, and of at
	 * most the maximum one half-octave lower (gaps 1.4 x as long as the trial's) */
	if (counts[0] / trial_s > max_rate)
		while (k + 1 < n && (counts[k] / trial_s > max_rate / JS_THR_AUTO_HEADROOM ||
				     (k && counts[k - 1] / trial_s > max_rate)))
			k++;
	a->floor_ns = cand_ns[0];
	a->chosen_ns = cand_ns[k];
	a->rate_at_floor = counts[0] / trial_s;
	a->rate_at_chosen = counts[k] / trial_s;
	a->max_rate = max_rate;
	a->raised_because[0] = '\0';
	if (k)
		snprintf(a->raised_because, sizeof(a->raised_because),
			 "%.0f gaps/s above %" PRIu64 " ns%s: housekeeping drains at most "
			 "%.0f/s per CPU (%d %% of a core at %d ns per gap); raised to 1/%d of "
			 "that, and within it for gaps 1.4 x as long",
			 a->rate_at_floor, cand_ns[0],
			 a->rate_at_chosen > max_rate / JS_THR_AUTO_HEADROOM ?
				 ", still too many at the largest candidate" :
				 "",
			 max_rate, JS_HK_SHARE_PCT, JS_HK_GAP_NS, JS_THR_AUTO_HEADROOM);
	return a->chosen_ns;
}

/* thr_describe - the threshold as every report shows it (js_threshold.h) */
const char *thr_describe(char *buf, size_t len, uint64_t threshold_ns, bool is_auto,
			 const struct js_thr_auto *a)
{
	char t[32], f[32];

	js_fmt_ns(t, sizeof(t), threshold_ns);
	if (!is_auto)
		js_scpy(buf, len, t);
	else if (a->raised_because[0])
		snprintf(buf, len, "%s (auto: raised from %s: %s)", t,
			 js_fmt_ns(f, sizeof(f), a->floor_ns), a->raised_because);
	else
		snprintf(buf, len, "%s (auto: %d x loop min %.1f ns)", t, JS_THR_AUTO_MULT,
			 a->loop_min_ns);
	return buf;
}
