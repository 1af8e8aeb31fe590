// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* clockcost.c - read costs of rdtscp, lfence;rdtsc and clock_gettime (see js_clockcost.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_clockcost.h"
#include "js_sysfs.h"
#include "js_tsc.h"
#include "js_util.h"

#define CLOCKCOST_WARMUP 1000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least p% of the samples at or below it. */
static uint64_t rank(const uint64_t *v, size_t n, double p)
{
	size_t k = (size_t)(p / 100.0 * (double)n + 0.999999999);

	if (k < 1)
		k = 1;
	return v[JS_MIN(k, n) - 1];
}

/* clockcost_summarise - sort v[n] and fill min/median/p99/max (nearest rank) */
void clockcost_summarise(struct js_clock_read *r, uint64_t *v, size_t n, double ns_per_unit)
{
	r->samples = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	r->median_raw = rank(v, n, 50);
	r->p99_raw = rank(v, n, 99);
	r->min_ns = (double)v[0] * ns_per_unit;
	r->median_ns = (double)r->median_raw * ns_per_unit;
	r->p99_ns = (double)r->p99_raw * ns_per_unit;
	r->max_ns = (double)v[n - 1] * ns_per_unit;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * One sampler per clock, so each read is inlined (an indirect call would be measured too):
 * pairs of back-to-back reads until n pairs or the time budget; returns the pairs taken.
 */
#define DEFINE_PAIRS(fn, read)                                      \
	static size_t fn(uint64_t *v, size_t n, uint64_t budget_ns) \
	{                                                           \
		uint64_t a, b, end = mono_ns() + budget_ns;         \
		size_t i;                                           \
                                                                    \
		for (i = 0; i < CLOCKCOST_WARMUP; i++)              \
			(void)read();                               \
		for (i = 0; i < n; i++) {                           \
			a = read();                                 \
			b = read();                                 \
			v[i] = b - a;                               \
			if ((i & 255) == 255 && mono_ns() > end)    \
				return i + 1;                       \
		}                                                   \
		return n;                                           \
	}

#if !defined(__aarch64__)
DEFINE_PAIRS(pairs_rdtscp, js_rdtscp)
#endif
DEFINE_PAIRS(pairs_fenced, js_counter_fenced)
DEFINE_PAIRS(pairs_monotonic, mono_ns)

/* Cycles -> ns for a TSC-based result. */
static void to_ns(struct js_clock_read *r, double tsc_hz)
{
	double k = 1e9 / tsc_hz;

	r->min_ns *= k;
	r->median_ns *= k;
	r->p99_ns *= k;
	r->max_ns *= k;
}

/* clockcost_measure - measure the three clocks on the calling thread (~10 ms); rdtscp only
 * where it may run */
int clockcost_measure(struct js_clockcost *out, double tsc_hz, bool rdtscp_usable)
{
	uint64_t *v, t0, c0, t1, c1;
	size_t n;
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->rdtscp.name = "rdtscp";
	out->lfence_rdtsc.name = "lfence_rdtsc";
	out->isb_cntvct.name = "isb_cntvct";
	out->monotonic.name = "clock_gettime_monotonic";
	if (sysfs_read_str("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			   out->clocksource, sizeof(out->clocksource)) < 0)
		out->clocksource[0] = 0;
	v = malloc(CLOCKCOST_SAMPLES * sizeof(*v));
	if (!v) {
		err = -ENOMEM;
		goto out;
	}
	t0 = mono_ns();
	c0 = js_counter_fenced();
#if !defined(__aarch64__)
	if (rdtscp_usable) {
		n = pairs_rdtscp(v, CLOCKCOST_SAMPLES, CLOCKCOST_BUDGET_NS);
		clockcost_summarise(&out->rdtscp, v, n, 1.0); /* cycles until tsc_hz is known */
	}
#else
	(void)rdtscp_usable;
#endif
	n = pairs_fenced(v, CLOCKCOST_SAMPLES, CLOCKCOST_BUDGET_NS);
	clockcost_summarise(&out->TSC_FENCED_COST, v, n, 1.0);
	n = pairs_monotonic(v, CLOCKCOST_SAMPLES, CLOCKCOST_BUDGET_NS);
	clockcost_summarise(&out->monotonic, v, n, 1.0);
	c1 = js_counter_fenced();
	t1 = mono_ns();
	if (tsc_hz <= 0 && t1 > t0) {
		tsc_hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
		out->tsc_hz_estimated = 1;
	}
	out->tsc_hz = tsc_hz;
	if (tsc_hz > 0) {
		to_ns(&out->rdtscp, tsc_hz);
		to_ns(&out->lfence_rdtsc, tsc_hz);
		to_ns(&out->isb_cntvct, tsc_hz);
	}
	free(v);
out:
	return err;
}
