// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_period.c - periodic vs random event times. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "js_period.h"

#define T0 123456789012345ull /* an arbitrary CLOCK_MONOTONIC origin */
#define MS 1000000ull

static uint64_t rng = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* uniform in [0, n) */
static uint64_t urand(uint64_t n)
{
	return xorshift() % n;
}

/*
 * feed - times at k * period_ns (+ offset) for k < periods, each kept with
 * probability keep_pct, with uniform jitter of +- jitter_ns
 */
static void feed(struct js_period *p, double period_ns, uint64_t periods, unsigned int keep_pct,
		 uint64_t jitter_ns)
{
	for (uint64_t k = 0; k < periods; k++) {
		uint64_t t = T0 + 3210987 + (uint64_t)llround(k * period_ns);

		if (urand(100) >= keep_pct)
			continue;
		if (jitter_ns)
			t = t - jitter_ns + urand(2 * jitter_ns + 1);
		period_add(p, t);
	}
}

/* a 100 Hz host source seen in a random third of its periods, with 50 us jitter */
static void test_periodic_10ms(void **state)
{
	struct js_period p;
	struct js_period_result r;

	(void)state;
	period_init(&p, 250, 0);
	feed(&p, 10 * MS, 3000, 33, 50000);
	assert_true(period_result(&p, &r));
	assert_int_equal(r.period_ns, 10 * MS);
	assert_true(r.strength > 0.95);
	assert_true(r.z > 100 * r.z_expected);
	assert_true(r.n > 900 && r.n < 1100);
	/* the divisors (1, 2, 5 ms) are concentrated too, the others (4, 20 ... ms) are not */
	for (unsigned int i = 0; i < p.ncand; i++) {
		period_candidate(&p, i, &r);
		if ((10 * MS) % r.period_ns == 0) {
			assert_true(r.periodic);
		} else {
			assert_false(r.periodic);
			assert_true(r.strength < 0.2);
		}
	}
}

/* the tick at HZ = 250 with small jitter */
static void test_tick(void **state)
{
	struct js_period p;
	struct js_period_result r;

	(void)state;
	period_init(&p, 250, 0);
	assert_int_equal(p.ncand, 9); /* 4 ms is already a candidate */
	feed(&p, 4 * MS, 2500, 100, 20000);
	assert_true(period_result(&p, &r));
	assert_int_equal(r.period_ns, 4 * MS);
	assert_true(r.phase_ns > 0.22e6 && r.phase_ns < 0.2265e6); /* T0 + 3210987 mod 4 ms */
}

/* a tick that is not a whole number of ns: HZ = 300 */
static void test_tick_fractional(void **state)
{
	struct js_period p;
	struct js_period_result r;

	(void)state;
	period_init(&p, 300, 0);
	assert_int_equal(p.ncand, 10);
	feed(&p, 1e9 / 300, 3000, 50, 10000);
	assert_true(period_result(&p, &r));
	assert_int_equal(r.period_ns, 3333333);
}

/* random start times are not periodic at any candidate */
static void test_random(void **state)
{
	struct js_period p;
	struct js_period_result r;
	uint64_t t = T0;

	(void)state;
	period_init(&p, 250, 0);
	for (int i = 0; i < 5000; i++) {
		t += 1 + urand(20 * MS); /* ~100/s, memoryless enough */
		period_add(&p, t);
	}
	assert_false(period_result(&p, &r));
	assert_int_equal(r.n, 5000);
	for (unsigned int i = 0; i < p.ncand; i++) {
		period_candidate(&p, i, &r);
		assert_false(r.periodic);
		assert_true(r.strength < 0.1);
		assert_true(r.z < r.z_expected + 6 * (sqrt(r.z_expected) + 1));
	}
}

/* half periodic at 20 ms, half random: still found, with about half the strength */
static void test_mixture(void **state)
{
	struct js_period p;
	struct js_period_result r;

	(void)state;
	period_init(&p, 1000, 0);
	for (uint64_t k = 0; k < 2000; k++) {
		uint64_t base = T0 + k * 20 * MS;

		period_add(&p, base + 1000 + urand(2000));
		period_add(&p, base + urand(20 * MS));
	}
	assert_true(period_result(&p, &r));
	assert_int_equal(r.period_ns, 20 * MS);
	assert_true(r.strength > 0.4 && r.strength < 0.6);
}

/* few samples are never called periodic, however regular */
static void test_few_samples(void **state)
{
	struct js_period p;
	struct js_period_result r;

	(void)state;
	period_init(&p, 0, 0);
	feed(&p, 10 * MS, 15, 100, 0);
	assert_false(period_result(&p, &r));
	assert_int_equal(r.n, 15);
	period_candidate(&p, 4, &r);
	assert_int_equal(r.period_ns, 10 * MS);
	assert_true(r.strength > 0.99);
	assert_int_equal(period_candidate(&p, p.ncand, &r), -1);
	/* empty */
	period_init(&p, 0, 0);
	assert_false(period_result(&p, &r));
	assert_int_equal(r.n, 0);
}

/* a source 50 ppm off our clock over 2000 s: blocks keep the phase, one global sum would not */
static void test_drift(void **state)
{
	struct js_period p, g;
	struct js_period_result r;

	(void)state;
	period_init(&p, 0, 1000000000ull);	/* 1 s blocks */
	period_init(&g, 0, 100000000000000ull); /* one block */
	for (uint64_t k = 0; k < 200000; k++) {
		uint64_t t = T0 + (uint64_t)llround(k * 10.0005e6);

		period_add(&p, t);
		period_add(&g, t);
	}
	assert_true(period_result(&p, &r));
	assert_int_equal(r.period_ns, 10 * MS);
	assert_true(r.strength > 0.99);
	period_candidate(&g, 4, &r);
	assert_true(r.strength < 0.1);
}

/*
 * By duration: 900 random short gaps (1-2 us) and 100 gaps of 30 us on a 10 ms grid. Over
 * every gap the periodic tenth is drowned (strength about 0.1 < 0.3); in its own class,
 * >= 20 us, the headline (100 of 1000 is the longest tenth; >= 50 us holds none), it is
 * found, and so in its band 20-50 us; the band < 2 us is not periodic.
 */
static void test_classes(void **state)
{
	static struct js_period_classes pc;
	struct js_period_result r;
	uint64_t t = T0;

	(void)state;
	period_classes_init(&pc, 250, 0);
	for (int k = 0; k < 100; k++) {
		for (int i = 0; i < 9; i++) {
			t += 1 + urand(2 * MS);
			period_classes_add(&pc, t, 1000 + urand(1000));
		}
		period_classes_add(&pc, T0 + 3210987 + k * 10 * MS + urand(20000), 30000);
	}
	assert_int_equal(pc.ge[0].n, 1000);
	assert_int_equal(pc.band[0].n, 900);
	assert_int_equal(pc.band[4].n, 100);
	assert_int_equal(pc.ge[4].n, 100);
	assert_int_equal(pc.ge[1].n, 100); /* >= 2 us: the 30 us ones */
	assert_int_equal(pc.ge[5].n, 0);
	assert_int_equal(period_classes_headline(&pc), 4);
	assert_false(period_result(&pc.ge[0], &r));
	assert_true(period_result(&pc.ge[4], &r));
	assert_int_equal(r.period_ns, 10 * MS);
	assert_true(r.strength > 0.95);
	/* (T0 + 3210987) mod 10 ms = (9012345 + 3210987) mod 10 ms = 2223332, + [0, 20 us) */
	assert_true(r.phase_ns > 2223332 && r.phase_ns < 2243332);
	assert_true(period_result(&pc.band[4], &r));
	assert_false(period_result(&pc.band[0], &r));
	/* one detector fed the same times agrees with the class (same phases, same blocks) */
	{
		static struct js_period one;
		struct js_period_result a;

		period_init(&one, 250, 0);
		for (int k = 0; k < 100; k++)
			period_add(&one, T0 + k * 10 * MS);
		period_classes_init(&pc, 250, 0);
		for (int k = 0; k < 100; k++)
			period_classes_add(&pc, T0 + k * 10 * MS, 60000);
		assert_true(period_result(&one, &a));
		for (int i = 0; i < 2; i++) {
			assert_true(period_result(i ? &pc.band[5] : &pc.ge[5], &r));
			assert_int_equal(r.period_ns, a.period_ns);
			assert_true(r.strength == a.strength && r.z == a.z);
			assert_true(r.phase_ns == a.phase_ns && r.n == a.n);
		}
	}
}

/* Band edges, the tenth rounded up, an empty set, a saved verdict. */
static void test_class_edges(void **state)
{
	static struct js_period_classes pc;
	struct js_period_result r, saved = {
		.period_ns = 20 * MS, .strength = 0.5, .phase_ns = 1234.5, .n = 77, .periodic = true
	};

	(void)state;
	period_classes_init(&pc, 0, 0);
	assert_int_equal(period_classes_headline(&pc), 0);
	period_classes_add(&pc, T0, 1999);
	period_classes_add(&pc, T0 + 1, 2000);
	period_classes_add(&pc, T0 + 2, 999999);
	period_classes_add(&pc, T0 + 3, 1000000);
	period_classes_add(&pc, T0 + 4, UINT64_MAX);
	assert_int_equal(pc.band[0].n, 1);
	assert_int_equal(pc.band[1].n, 1);
	assert_int_equal(pc.band[6].n, 1);
	assert_int_equal(pc.band[7].n, 2);
	assert_int_equal(period_band_hi(0), 2000);
	assert_int_equal(period_band_hi(6), 1000000);
	assert_true(period_band_hi(7) == UINT64_MAX);
	/* 9 gaps of 1 us and one of 60 us: a tenth is 1 gap, the headline >= 50 us */
	period_classes_init(&pc, 0, 0);
	for (int i = 0; i < 9; i++)
		period_classes_add(&pc, T0 + i, 1000);
	period_classes_add(&pc, T0 + 9, 60000);
	assert_int_equal(period_classes_headline(&pc), 5);
	/* an eleventh short one: a tenth is 2 gaps (rounded up), only every gap holds 2 */
	period_classes_add(&pc, T0 + 10, 1000);
	assert_int_equal(period_classes_headline(&pc), 0);
	/* a saved verdict comes back as it was */
	period_saved(&pc.ge[3], &saved);
	assert_true(period_result(&pc.ge[3], &r));
	assert_int_equal(r.period_ns, 20 * MS);
	assert_true(r.strength == 0.5 && r.phase_ns == 1234.5 && r.n == 77);
	assert_int_equal(pc.ge[3].n, 77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic_10ms),	cmocka_unit_test(test_tick),
		cmocka_unit_test(test_tick_fractional), cmocka_unit_test(test_random),
		cmocka_unit_test(test_mixture),		cmocka_unit_test(test_few_samples),
		cmocka_unit_test(test_drift),		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_class_edges),
	};

	return cmocka_run_group_tests_name("period", tests, NULL, NULL);
}
