// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_arrival.c - fixed-interval arrival delays, burst exposure, per-interval stats, parsers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixtures.h"
#include "js_arrival.h"
#include "js_intervals.h"
#include "js_util.h"

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL
#define T0 1000000000000ULL /* an arbitrary CLOCK_MONOTONIC start */
#define GAP(s, d)                              \
	{                                      \
		.start_ns = (s), .dur_ns = (d) \
	}

static const double pcts[] = { 0, 1, 10, 50, 90, 99, 99.5, 99.9, 99.99, 99.999, 100 };

/* Check that the fast path and the brute force agree on everything they report. */
static void assert_same(const struct js_arrival *f, const struct js_arrival *b)
{
	size_t i;

	assert_int_equal(f->arrivals, b->arrivals);
	assert_int_equal(f->delayed, b->delayed);
	assert_int_equal(f->end_ns, b->end_ns);
	assert_int_equal(f->delay_ns_total, b->delay_ns_total);
	assert_int_equal(f->delay.total, b->delay.total);
	assert_int_equal(f->delay.total, f->arrivals);
	assert_int_equal(f->delay.overflow, b->delay.overflow);
	for (i = 0; i < JS_CAUSE_MAX; i++) {
		assert_int_equal(f->delayed_by_cause[i], b->delayed_by_cause[i]);
		assert_int_equal(f->delay_ns_by_cause[i], b->delay_ns_by_cause[i]);
	}
	assert_memory_equal(f->delay.counts, b->delay.counts,
			    (size_t)f->delay.counts_len * sizeof(uint64_t));
	for (i = 0; i < ARRAY_SIZE(pcts); i++)
		assert_int_equal(hist_value_at_percentile(&f->delay, pcts[i]),
				 hist_value_at_percentile(&b->delay, pcts[i]));
	assert_int_equal(hist_max(&f->delay), hist_max(&b->delay));
	assert_int_equal(hist_min(&f->delay), hist_min(&b->delay));
	assert_int_equal(f->delay.max, b->delay.max); /* raw max kept exact too */
	assert_true(fabs(hist_mean(&f->delay) - hist_mean(&b->delay)) <
		    1e-6 * (1 + hist_mean(&b->delay)));
}

/* Run one gap list through both paths and compare. */
static void check_both(uint64_t interval, uint64_t phase, uint64_t floor_ns, uint64_t start,
		       const struct js_gap *g, const int *causes, size_t n, uint64_t end,
		       struct js_arrival *fast_out)
{
	struct js_arrival f, b;
	size_t i;

	assert_int_equal(arrival_init(&f, interval, start, floor_ns), 0);
	assert_int_equal(arrival_init(&b, interval, start, floor_ns), 0);
	f.phase_ns = b.phase_ns = phase;
	for (i = 0; i < n; i++)
		arrival_add_gap(&f, g[i].start_ns, g[i].dur_ns, causes ? causes[i] : 0);
	arrival_finish(&f, end);
	arrival_bruteforce(&b, g, causes, n, end);
	assert_same(&f, &b);
	arrival_free(&b);
	if (fast_out)
		*fast_out = f;
	else
		arrival_free(&f);
}

/** The articles' example: a 1 s stall at a 10 ms interval over 10 s. */
static void test_articles_example(void **state)
{
	struct js_gap g = { .start_ns = T0 + 5 * SEC, .dur_ns = SEC };
	int cause = JS_CAUSE_SMI;
	struct js_arrival a;
	struct js_hist naive;

	(void)state;
	check_both(10 * MS, 0, 0, T0, &g, &cause, 1, T0 + 10 * SEC, &a);
	assert_int_equal(a.arrivals, 1000);
	assert_int_equal(a.delayed, 100); /* 5.00 s .. 5.99 s; 6.00 s is at the gap end */
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_SMI], 100);
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_TASK], 0);
	/* delays 1.00, 0.99, ..., 0.01 s: sum 50.5 s */
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_SMI], 50500 * MS);
	assert_int_equal(a.delay_ns_total, 50500 * MS);
	assert_true(fabs(arrival_delayed_share(&a) - 0.1) < 1e-12);
	/* spread uniformly: 50 of them in (0, 0.5 s], 50 in (0.5 s, 1 s] */
	assert_int_equal(hist_count_between(&a.delay, 1, 500 * MS + 1), 50);
	assert_int_equal(hist_count_between(&a.delay, 500 * MS + 1, SEC + 1), 50);
	/* 900 zeros; p99 = 990th of 1000 = 90th delayed = 0.90 s; p99.9 = 0.99 s; max 1 s */
	assert_int_equal(hist_value_at_percentile(&a.delay, 50), 0);
	assert_int_equal(hist_value_at_percentile(&a.delay, 90), 0);
	assert_int_equal(hist_value_at_percentile(&a.delay, 99),
			 hist_highest_equivalent(&a.delay, 900 * MS));
	assert_int_equal(hist_value_at_percentile(&a.delay, 99.9),
			 hist_highest_equivalent(&a.delay, 990 * MS));
	assert_int_equal(hist_max(&a.delay), hist_highest_equivalent(&a.delay, SEC));
	assert_int_equal(a.delay.max, SEC);

	/* the naive loop: one slow sample of 1 s among 1000 -> p99 is the fast value */
	assert_int_equal(hist_init(&naive, 1, JS_HIST_HIGHEST_NS, 3), 0);
	hist_record_n(&naive, 0, 999);
	hist_record(&naive, SEC);
	assert_int_equal(hist_value_at_percentile(&naive, 99), 0);
	assert_true(hist_value_at_percentile(&a.delay, 99) > (int64_t)(800 * MS));
	hist_free(&naive);
	arrival_free(&a);
}

/** Edges: at the gap start waits the whole gap; at the gap end waits nothing. */
static void test_edges(void **state)
{
	struct js_gap g[] = {
		GAP(T0 + 3 * US, 2 * US),  /* between arrivals 0 and 10 us: nobody */
		GAP(T0 + 10 * US, 2 * US), /* starts on the 10 us arrival: waits 2 us */
		GAP(T0 + 15 * US, 5 * US), /* ends on the 20 us arrival: nobody */
		GAP(T0 + 30 * US, 1),	   /* 1 ns on the 30 us arrival */
	};
	int causes[] = { JS_CAUSE_IRQ, JS_CAUSE_TASK, JS_CAUSE_TIMER, JS_CAUSE_FAULT };
	struct js_arrival a;

	(void)state;
	check_both(10 * US, 0, 0, T0, g, causes, ARRAY_SIZE(g), T0 + 100 * US, &a);
	assert_int_equal(a.arrivals, 10);
	assert_int_equal(a.delayed, 2);
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_IRQ], 0);
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_TASK], 1);
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_TASK], 2 * US);
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_TIMER], 0);
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_FAULT], 1);
	assert_int_equal(hist_max(&a.delay), 2 * US);
	assert_int_equal(hist_value_at_percentile(&a.delay, 80), 0);
	assert_int_equal(hist_value_at_percentile(&a.delay, 90), 1);
	arrival_free(&a);
}

/** Back-to-back gaps: each arrival waits only for the end of its own gap. */
static void test_back_to_back(void **state)
{
	struct js_gap g[] = { GAP(T0 + 10, 15), GAP(T0 + 25, 15) };
	int causes[] = { JS_CAUSE_IRQ, JS_CAUSE_SOFTIRQ };
	struct js_arrival a;

	(void)state;
	check_both(5, 0, 0, T0, g, causes, 2, T0 + 50, &a);
	assert_int_equal(a.arrivals, 10);
	assert_int_equal(a.delayed, 6); /* 10,15,20 -> 15,10,5; 25,30,35 -> 15,10,5 */
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_IRQ], 3);
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_SOFTIRQ], 3);
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_IRQ], 30);
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_SOFTIRQ], 30);
	assert_int_equal(a.delay.max, 15);
	assert_int_equal(hist_count_between(&a.delay, 15, 16), 2);
	arrival_free(&a);
}

/** The floor: arrivals outside gaps wait floor_ns, the rest their exact delay. */
static void test_floor_and_phase(void **state)
{
	struct js_gap g = GAP(T0 + 1000, 250);
	struct js_arrival a;

	(void)state;
	/* interval 100, phase 30: arrivals at 30, 130, ... 1030..1230 are in [1000, 1250) */
	check_both(100, 30, 40, T0, &g, NULL, 1, T0 + 2000, &a);
	assert_int_equal(a.arrivals, 20); /* 30 .. 1930 */
	assert_int_equal(a.delayed, 3);	  /* 1030, 1130, 1230 -> 220, 120, 20 */
	assert_int_equal(a.delay_ns_total, 360);
	assert_int_equal(a.delayed_by_cause[JS_CAUSE_UNEXPLAINED], 3);
	assert_int_equal(hist_count_between(&a.delay, 40, 41), 17);
	assert_int_equal(hist_min(&a.delay), 20);
	assert_int_equal(hist_value_at_percentile(&a.delay, 50), 40);
	arrival_free(&a);
}

/** Overlapping, backwards and before-start gaps are clipped, never counted twice. */
static void test_clipping(void **state)
{
	struct js_gap g[] = {
		GAP(T0 - 50, 100), /* starts before the window: [T0, T0 + 50) */
		GAP(T0 + 100, 100), GAP(T0 + 150, 100), /* overlaps: only [T0 + 200, T0 + 250) */
		GAP(T0 + 120, 10),			/* inside what was taken: nothing */
	};
	int causes[] = { 1, 2, 3, 4 };
	struct js_arrival a;

	(void)state;
	check_both(10, 0, 0, T0, g, causes, ARRAY_SIZE(g), T0 + 100, &a);
	assert_int_equal(a.clipped, 3);
	assert_int_equal(a.end_ns, T0 + 250); /* raised to the last gap's end */
	assert_int_equal(a.arrivals, 25);
	assert_int_equal(a.delayed_by_cause[1], 5);
	assert_int_equal(a.delayed_by_cause[2], 10);
	assert_int_equal(a.delayed_by_cause[3], 5);
	assert_int_equal(a.delayed_by_cause[4], 0);
	assert_int_equal(a.delay_ns_by_cause[3], 50 + 40 + 30 + 20 + 10);
	arrival_free(&a);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random duration, log-uniform-ish over [1, 10^maxexp). */
static uint64_t rnd_dur(uint64_t *s, int maxexp)
{
	uint64_t scale = 1;
	int e = (int)(rnd(s) % (uint64_t)maxexp);

	while (e--)
		scale *= 10;
	return 1 + rnd(s) % (scale * 10);
}

/** Agreement with the per-arrival brute force on random gap lists. */
static void test_random_vs_bruteforce(void **state)
{
	struct js_gap g[200];
	int causes[200];
	uint64_t seed = 0x9e3779b97f4a7c15ULL, t, interval, end, fl;
	size_t n, i;
	int round;

	(void)state;
	for (round = 0; round < (int)fx_heavy(300); round++) {
		interval = rnd_dur(&seed, 5); /* 1 ns .. 1 ms */
		n = rnd(&seed) % ARRAY_SIZE(g);
		t = T0 + rnd(&seed) % (2 * interval + 1);
		for (i = 0; i < n; i++) {
			if (rnd(&seed) % 8) /* sometimes back to back */
				t += rnd_dur(&seed, 6);
			g[i].start_ns = t;
			g[i].dur_ns = rnd_dur(&seed, 6);
			t += g[i].dur_ns;
			causes[i] = (int)(rnd(&seed) % JS_CAUSE_MAX);
		}
		end = t + rnd(&seed) % (3 * interval + 1);
		/* keep the brute force affordable */
		if ((end - T0) / interval > 4000000)
			interval = (end - T0) / 4000000 + 1;
		fl = rnd(&seed) % 3 ? 0 : rnd(&seed) % 200;
		check_both(interval, rnd(&seed) % (interval + 1), fl, T0, g, causes, n, end, NULL);
	}
}

/** Long gaps at a tiny interval: huge arrival counts, exact sums, no per-arrival work. */
static void test_large_counts(void **state)
{
	struct js_arrival a;
	uint64_t i;

	(void)state;
	/* 60 s at 1 us = 60 M arrivals; 1000 gaps of 1 ms: 1 M delayed */
	assert_int_equal(arrival_init(&a, US, T0, 0), 0);
	for (i = 0; i < 1000; i++)
		arrival_add_gap(&a, T0 + i * 60 * MS + 7, MS, JS_CAUSE_TASK);
	arrival_finish(&a, T0 + 60 * SEC);
	assert_int_equal(a.arrivals, 60000000);
	assert_int_equal(a.delayed, 1000000);
	assert_int_equal(a.delay.total, 60000000);
	/* per gap [s, s + 1 ms + 7): arrivals at s + j us, j = 1..1000, wait 1000007 - 1000 j */
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_TASK],
			 1000ULL * (1000ULL * 1000007 - 1000ULL * 1000 * 1001 / 2));
	assert_int_equal(a.delay.max, 999007);
	arrival_free(&a);

	/* a 10 s gap at 1 ns: 10^10 arrivals, the series sum needs 128 bits inside */
	assert_int_equal(arrival_init(&a, 1, T0, 0), 0);
	arrival_add_gap(&a, T0, 10 * SEC, JS_CAUSE_IDLE);
	arrival_finish(&a, T0 + 10 * SEC);
	assert_int_equal(a.arrivals, 10 * SEC);
	assert_int_equal(a.delayed, 10 * SEC);
	/* sum 1..10^10 = 10^10 (10^10 + 1) / 2 = 5.00000000005e19 > UINT64_MAX: saturates */
	assert_int_equal(a.delay_ns_by_cause[JS_CAUSE_IDLE], UINT64_MAX);
	assert_int_equal(hist_value_at_percentile(&a.delay, 50),
			 hist_highest_equivalent(&a.delay, 5 * SEC));
	arrival_free(&a);
}

/** Bad init arguments are refused. */
static void test_init_errors(void **state)
{
	struct js_arrival a;

	(void)state;
	assert_int_equal(arrival_init(&a, 0, T0, 0), -EINVAL);
	assert_int_equal(arrival_init(&a, ARRIVAL_INTERVAL_MAX_NS + 1, T0, 0), -EINVAL);
	arrival_free(&a); /* a zeroed struct */
}

/** Poisson burst exposure from a gap histogram, by hand. */
static void test_burst_poisson(void **state)
{
	struct js_hist h;
	double p, want, med;

	(void)state;
	assert_int_equal(hist_init(&h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	hist_record_n(&h, 2 * US, 100000); /* small gaps: below the size */
	hist_record_n(&h, MS, 10);	   /* 10 gaps of 1 ms in 10 s */
	med = (double)hist_median_equivalent(&h, MS);
	/* N = 500 at 10 us: span 5 ms; expected hits = 10 * (5 ms + ~1 ms) / 10 s */
	p = arrival_burst_probability(&h, 10 * SEC, 10 * US, 500, 100 * US);
	want = 1 - exp(-10 * (5e6 + med) / 1e10);
	assert_true(fabs(p - want) < 1e-12);
	assert_true(fabs(p - 0.006) < 0.0001);
	/* the small gaps count once the size is at or below them (2 us is an exact slot) */
	p = arrival_burst_probability(&h, 10 * SEC, 10 * US, 1, 2 * US);
	want = 1 - exp(-(100000.0 * (10e3 + 2e3) + 10 * (10e3 + med)) / 1e10);
	assert_true(fabs(p - want) < 1e-12);
	/* nothing is that large */
	assert_true(arrival_burst_probability(&h, 10 * SEC, 10 * US, 500, 2 * MS) == 0.0);
	assert_true(arrival_burst_probability(&h, 0, 10 * US, 500, MS) < 0);
	hist_free(&h);
}

/** Empirical burst exposure: the union of burst-start windows, by hand. */
static void test_burst_empirical(void **state)
{
	struct js_burst b;
	double p;
	int i;

	(void)state;
	/* a 1 ms gap every second for 10 s, bursts of 500 at 10 us (5 ms): each gap is met by
	 * bursts starting in (s - 5 ms, s + 1 ms): 6 ms - 1 ns of starts */
	burst_init(&b, T0, 10 * US, 500, 100 * US);
	for (i = 0; i < 10; i++) {
		burst_add_gap(&b, T0 + i * SEC + 500 * MS, MS);
		burst_add_gap(&b, T0 + i * SEC + 700 * MS, 50 * US); /* below the size */
	}
	p = burst_finish(&b, T0 + 10 * SEC);
	assert_int_equal(b.gaps, 10);
	assert_int_equal(b.covered_ns, 10 * (6 * MS - 1));
	assert_true(fabs(p - 10.0 * (6 * MS - 1) / (10 * SEC - 5 * MS + 1)) < 1e-15);

	/* overlapping windows merge; clipped at the window start and at the last valid start */
	burst_init(&b, T0, 1, 100, 1);	 /* span 100 ns */
	burst_add_gap(&b, T0 + 20, 10);	 /* starts (T0 - 80, T0 + 30) -> [T0, T0 + 30) */
	burst_add_gap(&b, T0 + 110, 5);	 /* [T0 + 11, T0 + 115): merges -> [T0, T0+115) */
	burst_add_gap(&b, T0 + 400, 10); /* [T0 + 301, T0 + 410) */
	p = burst_finish(&b, T0 + 410);	 /* valid starts [T0, T0 + 310] */
	assert_int_equal(b.covered_ns, 115 + 10);
	assert_true(fabs(p - 125.0 / 311) < 1e-15);

	/* a window not longer than a burst has no answer */
	burst_init(&b, T0, 10, 10, 1);
	assert_true(burst_finish(&b, T0 + 100) < 0);
	/* no gaps: 0 */
	burst_init(&b, T0, 10, 10, 1);
	assert_true(burst_finish(&b, T0 + 1000) == 0.0);
}

/** Poisson and empirical agree on random (Poisson-like) gap starts. */
static void test_burst_estimates_agree(void **state)
{
	struct js_burst b;
	struct js_hist h;
	uint64_t seed = 12345, t = T0, d;
	double pe, pp;

	(void)state;
	assert_int_equal(hist_init(&h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	burst_init(&b, T0, US, 1000, 10 * US); /* span 1 ms */
	for (;;) {
		/* exponential inter-gap times, mean 20 ms */
		t += (uint64_t)(-log((rnd(&seed) % 1000000 + 1) / 1e6) * 20 * MS);
		if (t > T0 + 100 * SEC)
			break;
		d = 10 * US + rnd(&seed) % (90 * US);
		hist_record(&h, (int64_t)d);
		burst_add_gap(&b, t, d);
		t += d;
	}
	pe = burst_finish(&b, T0 + 100 * SEC);
	pp = arrival_burst_probability(&h, 100 * SEC, US, 1000, 10 * US);
	/* expected ~ 1 - exp(-1.055 / 20) = 0.051 */
	assert_true(pe > 0.04 && pe < 0.06);
	assert_true(fabs(pe - pp) < 0.005);
	hist_free(&h);
}

/** --arrival-interval LIST */
static void test_parse_list(void **state)
{
	static const char *const bad[] = {
		"",
		",",
		"1us,",
		",1us",
		"1us,,2us",
		"10",
		"10xs",
		"us",
		"-1us",
		"1.us.",
		"0us",
		"0.4ns",
		"1.0001us,1us",
		"3601s",
		"1.5",
		"1us,1000ns",
		"1 us",
		"1e3ns",
		"1us,2us,3us,4us,5us",
		"99999999999999999999999999999ns",
	};
	uint64_t v[4];
	char err[128];
	size_t n, i;

	(void)state;
	assert_int_equal(arrival_parse_list("1us,10us,100us", v, 4, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 1000);
	assert_int_equal(v[1], 10000);
	assert_int_equal(v[2], 100000);
	assert_int_equal(arrival_parse_list("250ns,1.5us,2ms,1s", v, 4, &n, err, 128), 0);
	assert_int_equal(n, 4);
	assert_int_equal(v[0], 250);
	assert_int_equal(v[1], 1500);
	assert_int_equal(v[2], 2 * MS);
	assert_int_equal(v[3], SEC);
	assert_int_equal(arrival_parse_list("10\xc2\xb5s,3600s,0.000001ms", v, 4, &n, err, 128), 0);
	assert_int_equal(v[0], 10 * US);
	assert_int_equal(v[1], 3600 * SEC);
	assert_int_equal(v[2], 1);
	/* sub-ns digits round to the nearest ns, halves up (js_units.h) */
	assert_int_equal(arrival_parse_list("0.5ns,1.0004us,1.0005us,1h", v, 4, &n, err, 128), 0);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[1], 1000);
	assert_int_equal(v[2], 1001);
	assert_int_equal(v[3], 3600 * SEC);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		n = 99;
		assert_int_equal(arrival_parse_list(bad[i], v, 4, &n, err, sizeof(err)), -EINVAL);
		assert_int_equal(n, 0);
		assert_true(strlen(err) > 0);
	}
	assert_int_equal(arrival_parse_list(NULL, v, 4, &n, err, sizeof(err)), -EINVAL);
}

/** --burst N */
static void test_parse_burst(void **state)
{
	static const char *const bad[] = { "",	 "0",	       "-1",
					   "5k", "1e3",	       " 5",
					   "5 ", "1000000001", "99999999999999999999999" };
	uint64_t v = 7;
	char err[128];
	size_t i;

	(void)state;
	assert_int_equal(arrival_parse_burst("500", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 500);
	assert_int_equal(arrival_parse_burst("1000000000", &v, err, sizeof(err)), 0);
	assert_int_equal(v, ARRIVAL_BURST_MAX);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		v = 7;
		assert_int_equal(arrival_parse_burst(bad[i], &v, err, sizeof(err)), -EINVAL);
		assert_int_equal(v, 7);
		assert_true(strlen(err) > 0);
	}
}

/** Per-interval stats: entries per second, empty seconds included, gaps by start. */
static void test_intervals_basic(void **state)
{
	struct js_intervals iv;

	(void)state;
	assert_int_equal(intervals_init(&iv, T0, SEC, 0), 0);
	assert_int_equal(intervals_add_gap(&iv, T0 + 500 * MS, 100, 0, NULL), 0);
	assert_int_equal(intervals_add_gap(&iv, T0 + 2500 * MS, 300, 0, NULL), 0);
	assert_int_equal(intervals_add_gap(&iv, T0 + 2700 * MS, 50, 0, NULL), 0);
	assert_int_equal(intervals_add_gap(&iv, T0 + 3 * SEC - 10, 2 * SEC, 0, NULL),
			 0); /* crosses */
	assert_int_equal(intervals_finish(&iv, T0 + 4500 * MS), 0);
	assert_int_equal(iv.n, 5); /* 0..4 s, the last one partial */
	assert_int_equal(iv.len_ns, SEC);
	assert_int_equal(iv.v[0].start_ns, T0);
	assert_int_equal(iv.v[0].gaps, 1);
	assert_int_equal(iv.v[0].lost_ns, 100);
	assert_int_equal(iv.v[0].max_ns, 100);
	assert_int_equal(iv.v[0].p999_ns, 100);
	assert_int_equal(iv.v[1].gaps, 0);
	assert_int_equal(iv.v[1].max_ns, 0);
	assert_int_equal(iv.v[2].start_ns, T0 + 2 * SEC);
	assert_int_equal(iv.v[2].gaps, 3);
	assert_int_equal(iv.v[2].lost_ns, 2 * SEC + 350);
	assert_int_equal(iv.v[2].max_ns, hist_highest_equivalent(&iv.cur, 2 * SEC));
	assert_int_equal(iv.v[3].gaps, 0);
	assert_int_equal(iv.v[4].start_ns, T0 + 4 * SEC);
	assert_int_equal(iv.end_ns, T0 + 4500 * MS);
	intervals_free(&iv);

	/* a window ending on a boundary has no empty trailing entry */
	assert_int_equal(intervals_init(&iv, T0, SEC, 0), 0);
	assert_int_equal(intervals_finish(&iv, T0 + 2 * SEC), 0);
	assert_int_equal(iv.n, 2);
	intervals_free(&iv);
	assert_int_equal(intervals_init(&iv, T0, 0, 0), -EINVAL);
	assert_int_equal(intervals_init(&iv, T0, SEC, 3), -EINVAL);
}

/** p99.9 inside an interval, and halving when the array is full. */
static void test_intervals_halving(void **state)
{
	struct js_intervals iv;
	int i, j;

	(void)state;
	assert_int_equal(intervals_init(&iv, 0, 100, 4), 0);
	/* interval i (0..9) gets 1000 gaps: 998 of 10 ns, one of 1000 + i, one of 5000 + i */
	for (i = 0; i < 10; i++) {
		for (j = 0; j < 998; j++)
			assert_int_equal(intervals_add_gap(&iv, (uint64_t)i * 100 + 1, 10, 0, NULL),
					 0);
		assert_int_equal(intervals_add_gap(&iv, (uint64_t)i * 100 + 2, 1000 + i, 0, NULL),
				 0);
		assert_int_equal(intervals_add_gap(&iv, (uint64_t)i * 100 + 3, 5000 + i, 0, NULL),
				 0);
	}
	assert_int_equal(intervals_finish(&iv, 1000), 0);
	/* 10 entries of 100 with cap 4: halved at 4 (len 200: 2 entries), at 4 again (len 400:
	 * 2 entries) -> [0,400) [400,800) then [800,1000) as a third, partial entry */
	assert_int_equal(iv.merges, 2);
	assert_int_equal(iv.len_ns, 400);
	assert_int_equal(iv.n, 3);
	assert_int_equal(iv.v[0].start_ns, 0);
	assert_int_equal(iv.v[1].start_ns, 400);
	assert_int_equal(iv.v[2].start_ns, 800);
	assert_int_equal(iv.v[0].gaps, 4000);
	assert_int_equal(iv.v[2].gaps, 2000);
	assert_int_equal(iv.v[0].lost_ns, 4 * (998 * 10 + 6000) + 0 + 1 + 2 + 3 + 0 + 1 + 2 + 3);
	/* p99.9 of 1000 gaps = 999th = the 1000 + i one; merged: the largest */
	assert_int_equal(iv.v[0].p999_ns, 1003);
	assert_int_equal(iv.v[1].p999_ns, 1007);
	assert_int_equal(iv.v[2].p999_ns, 1009);
	assert_int_equal(iv.v[1].max_ns, hist_highest_equivalent(&iv.cur, 5007));
	intervals_free(&iv);
}

/** Each interval keeps its worst gap (the first of the longest): start, length, cause, detail. */
static void test_intervals_worst(void **state)
{
	struct js_intervals iv;

	(void)state;
	assert_int_equal(intervals_init(&iv, T0, SEC, 0), 0);
	assert_int_equal(intervals_add_gap(&iv, T0 + 100 * MS, 3000, JS_CAUSE_TIMER, "local_timer"),
			 0);
	assert_int_equal(
		intervals_add_gap(&iv, T0 + 200 * MS, 2000123, JS_CAUSE_TASK, "jsinject:812"), 0);
	/* as long: the first one stays */
	assert_int_equal(intervals_add_gap(&iv, T0 + 300 * MS, 2000123, JS_CAUSE_IRQ, "x:36"), 0);
	assert_int_equal(intervals_add_gap(&iv, T0 + 400 * MS, 5000, JS_CAUSE_IRQ, "x:36"), 0);
	/* the next interval starts over, and a NULL detail is "" */
	assert_int_equal(intervals_add_gap(&iv, T0 + 1100 * MS, 700, JS_CAUSE_UNEXPLAINED, NULL),
			 0);
	assert_int_equal(intervals_finish(&iv, T0 + 3 * SEC), 0);
	assert_int_equal(iv.n, 3);
	assert_int_equal(iv.v[0].worst.start_ns, T0 + 200 * MS);
	assert_int_equal(iv.v[0].worst.dur_ns, 2000123); /* exact, max_ns is the histogram's */
	assert_true(iv.v[0].max_ns >= 2000123);
	assert_int_equal(iv.v[0].worst.cause, JS_CAUSE_TASK);
	assert_string_equal(iv.v[0].worst.detail, "jsinject:812");
	assert_int_equal(iv.v[1].worst.start_ns, T0 + 1100 * MS);
	assert_int_equal(iv.v[1].worst.dur_ns, 700);
	assert_int_equal(iv.v[1].worst.cause, JS_CAUSE_UNEXPLAINED);
	assert_string_equal(iv.v[1].worst.detail, "");
	assert_int_equal(iv.v[2].worst.dur_ns, 0); /* no gap */
	intervals_free(&iv);
}

/** Halving merges pairs: the worse of the two worst gaps is kept, wherever it is. */
static void test_intervals_worst_halving(void **state)
{
	static const uint64_t dur[5] = { 900, 4000, 7000, 2000, 100 };
	char detail[16];
	struct js_intervals iv;

	(void)state;
	assert_int_equal(intervals_init(&iv, 0, 100, 4), 0);
	assert_int_equal(intervals_reserve(&iv), 0);
	for (int i = 0; i < 5; i++) {
		snprintf(detail, sizeof(detail), "gap%d", i);
		assert_int_equal(intervals_add_gap(&iv, (uint64_t)i * 100 + 5, dur[i],
						   (uint32_t)(JS_CAUSE_IRQ + i % 2), detail),
				 0);
		assert_int_equal(intervals_add_gap(&iv, (uint64_t)i * 100 + 50, 10, JS_CAUSE_TIMER,
						   "local_timer"),
				 0);
	}
	assert_int_equal(intervals_finish(&iv, 500), 0);
	/* [0,200) [200,400) merged at the 4th close, then [400,500) */
	assert_int_equal(iv.merges, 1);
	assert_int_equal(iv.n, 3);
	assert_int_equal(iv.v[0].worst.dur_ns, 4000); /* the second of the pair */
	assert_int_equal(iv.v[0].worst.start_ns, 105);
	assert_int_equal(iv.v[0].worst.cause, JS_CAUSE_IRQ + 1);
	assert_string_equal(iv.v[0].worst.detail, "gap1");
	assert_int_equal(iv.v[1].worst.dur_ns, 7000); /* the first of the pair */
	assert_int_equal(iv.v[1].worst.start_ns, 205);
	assert_string_equal(iv.v[1].worst.detail, "gap2");
	assert_int_equal(iv.v[2].worst.dur_ns, 100);
	assert_string_equal(iv.v[2].worst.detail, "gap4");
	intervals_free(&iv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_articles_example),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_floor_and_phase),
		cmocka_unit_test(test_clipping),
		cmocka_unit_test(test_random_vs_bruteforce),
		cmocka_unit_test(test_large_counts),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_burst_poisson),
		cmocka_unit_test(test_burst_empirical),
		cmocka_unit_test(test_burst_estimates_agree),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_burst),
		cmocka_unit_test(test_intervals_basic),
		cmocka_unit_test(test_intervals_halving),
		cmocka_unit_test(test_intervals_worst),
		cmocka_unit_test(test_intervals_worst_halving),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
