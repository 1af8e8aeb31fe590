// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_threshold.c - the rule of --threshold auto: the candidates, the housekeeping rate,
 * the floor kept when its gap rate fits, raised to the first candidate that fits (with the
 * reason), the last candidate when none fits, and how the reports describe it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_threshold.h"

static void test_candidates(void **st)
{
	(void)st;
	assert_true(thr_auto_candidate(168, 0) == 168);
	assert_true(thr_auto_candidate(168, 1) == 168 * 181 / 128); /* 237, x sqrt(2) */
	assert_true(thr_auto_candidate(168, 2) == 336);
	assert_true(thr_auto_candidate(168, 3) == 336 * 181 / 128);
	assert_true(thr_auto_candidate(168, 20) == 168u << 10);
	assert_true(thr_auto_candidate(0, 0) == 1); /* an empty calibration: 1, not 0 */
	for (unsigned k = 1; k < JS_THR_AUTO_STEPS; k++)
		assert_true(thr_auto_candidate(160, k) > thr_auto_candidate(160, k - 1));
	assert_true(thr_auto_candidate(1, 200) == UINT64_MAX);
}

static void test_max_rate(void **st)
{
	(void)st;
	/* 2 % of a core at 1 us per gap: 20000/s for one CPU, 10000/s each for two */
	assert_float_equal(thr_auto_max_rate(1, 1u << 16, 10000000), 20000.0, 1e-6);
	assert_float_equal(thr_auto_max_rate(2, 1u << 16, 10000000), 10000.0, 1e-6);
	/* a small ring binds first: 1024/4 per 10 ms = 25600/s; 256/4 per 10 ms = 6400/s */
	assert_float_equal(thr_auto_max_rate(1, 256, 10000000), 6400.0, 1e-6);
	assert_float_equal(thr_auto_max_rate(0, 1u << 16, 10000000), 20000.0, 1e-6);
}

static void cands(uint64_t *c, uint64_t floor)
{
	for (unsigned k = 0; k < JS_THR_AUTO_STEPS; k++)
		c[k] = thr_auto_candidate(floor, k);
}

static void test_floor_kept(void **st)
{
	uint64_t c[JS_THR_AUTO_STEPS], n[JS_THR_AUTO_STEPS] = { 0 };
	struct js_thr_auto a;

	(void)st;
	cands(c, 168);
	n[0] = 1000; /* 5000 gaps/s over 0.2 s: within 20000/s */
	n[1] = 400;
	memset(&a, 0x55, sizeof(a));
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 0.2, 20000, &a) == 168);
	assert_true(a.floor_ns == 168 && a.chosen_ns == 168);
	assert_float_equal(a.rate_at_floor, 5000, 1e-6);
	assert_float_equal(a.rate_at_chosen, 5000, 1e-6);
	assert_string_equal(a.raised_because, "");
	/* exactly at the limit still fits */
	n[0] = 4000;
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 0.2, 20000, &a) == 168);
}

static void test_raised(void **st)
{
	uint64_t c[JS_THR_AUTO_STEPS], n[JS_THR_AUTO_STEPS] = { 0 };
	struct js_thr_auto a;

	(void)st;
	cands(c, 168);
	n[0] = 9000; /* 45000/s */
	n[1] = 6000; /* 30000/s */
	n[2] = 3000; /* 15000/s: within 20000/s, but not within half of it */
	n[3] = 2000; /* 10000/s: the first within 20000 / JS_THR_AUTO_HEADROOM */
	n[4] = 100;
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 0.2, 20000, &a) == c[3]);
	assert_true(a.floor_ns == 168 && a.chosen_ns == c[3]);
	assert_float_equal(a.rate_at_floor, 45000, 1e-6);
	assert_float_equal(a.rate_at_chosen, 10000, 1e-6);
	assert_non_null(strstr(a.raised_because, "45000 gaps/s above 168 ns"));
	assert_non_null(strstr(a.raised_because, "20000/s"));
	assert_non_null(strstr(a.raised_because, "raised to 1/2 of that"));
	assert_null(strstr(a.raised_because, "still"));
	/* a floor within the maximum is kept, however close to it (no headroom asked) */
	n[0] = 3900;
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 0.2, 20000, &a) == 168);
	/* CI's trial of a timer every 33 us: most gaps just under c[4], 9085/s above it. c[4]
	 * is within half the maximum, but c[3] is over it: gaps 1.4 x as long (the run's, the
	 * host slowed) would be too many at c[4] (29102/s were): c[5] */
	n[0] = 5964; /* 29818/s */
	n[1] = n[2] = 5900;
	n[3] = 5800; /* 29000/s */
	n[4] = 1817; /* 9085/s */
	n[5] = 100;
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 0.2, 20000, &a) == c[5]);
	assert_float_equal(a.rate_at_chosen, 500, 1e-6);
	assert_non_null(strstr(a.raised_because, "within it for gaps 1.4 x as long"));
}

static void test_none_fits(void **st)
{
	uint64_t c[JS_THR_AUTO_STEPS], n[JS_THR_AUTO_STEPS];
	struct js_thr_auto a;

	(void)st;
	cands(c, 100);
	for (unsigned k = 0; k < JS_THR_AUTO_STEPS; k++)
		n[k] = 100000;
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 1.0, 20000, &a) ==
		    c[JS_THR_AUTO_STEPS - 1]);
	assert_non_null(strstr(a.raised_because, "still too many"));
	/* no trial: nothing chosen */
	assert_true(thr_auto_choose(c, n, JS_THR_AUTO_STEPS, 0.0, 20000, &a) == 0);
	assert_true(thr_auto_choose(c, n, 0, 1.0, 20000, &a) == 0);
}

static void test_describe(void **st)
{
	struct js_thr_auto a = { .loop_min_ns = 21.04, .floor_ns = 168, .chosen_ns = 168 };
	char b[320];

	(void)st;
	assert_string_equal(thr_describe(b, sizeof(b), 1000, false, &a), "1.0 us");
	assert_string_equal(thr_describe(b, sizeof(b), 168, true, &a),
			    "168 ns (auto: 8 x loop min 21.0 ns)");
	snprintf(a.raised_because, sizeof(a.raised_because), "too many");
	assert_string_equal(thr_describe(b, sizeof(b), 336, true, &a),
			    "336 ns (auto: raised from 168 ns: too many)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidates), cmocka_unit_test(test_max_rate),
		cmocka_unit_test(test_floor_kept), cmocka_unit_test(test_raised),
		cmocka_unit_test(test_none_fits),  cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
