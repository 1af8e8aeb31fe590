// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_stats.c - the diff's tests of chance against values computed another way
 * (tests/unit/gen_stats_cases.py: exact rational sums, log-space sums, closed forms), and
 * their edge cases: zero counts, equal runs, tiny runs, huge counts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "js_stats.h"
#include "stats_cases.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* close - relative agreement (1e-8: lgamma of 1e6 carries about 1e-9 of error) */
static void close_to(double got, double want, const char *what, size_t i)
{
	double tol = 1e-8 * fabs(want) + 1e-300;

	if (!(fabs(got - want) <= tol))
		fail_msg("%s case %zu: got %.17g, want %.17g", what, i, got, want);
}

/** Binomial tails, small n (exact) to n = 1e6 (log-space sums), both sides. */
static void test_binom(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(binom_cases); i++) {
		const struct binom_case *c = &binom_cases[i];

		close_to(stats_binom_cdf(c->k, c->n, c->p), c->cdf, "cdf", i);
		close_to(stats_binom_sf(c->k, c->n, c->p), c->sf, "sf", i);
	}
	/* the edges: k beyond n, p at 0 or 1 */
	assert_true(stats_binom_cdf(5, 5, 0.3) == 1 && stats_binom_sf(0, 5, 0.3) == 1);
	assert_true(stats_binom_sf(6, 5, 0.3) == 0);
	assert_true(stats_binom_cdf(2, 5, 0) == 1 && stats_binom_sf(1, 5, 0) == 0);
	assert_true(stats_binom_cdf(4, 5, 1) == 0 && stats_binom_sf(5, 5, 1) == 1);
}

/** The incomplete beta function at a = b = 1/2 (not a binomial: the fraction itself). */
static void test_ibeta(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(ibeta_half_cases); i++)
		close_to(stats_ibeta(ibeta_half_cases[i].x, 0.5, 0.5), ibeta_half_cases[i].want,
			 "ibeta", i);
	assert_true(stats_ibeta(0, 2, 3) == 0 && stats_ibeta(1, 2, 3) == 1);
	/* I_x(1, 1) = x; I_x(a, 1) = x^a */
	close_to(stats_ibeta(0.3, 1, 1), 0.3, "uniform", 0);
	close_to(stats_ibeta(0.3, 4, 1), pow(0.3, 4), "power", 0);
}

/** Two Poisson counts: equal rates give 1, zero counts, windows of other lengths. */
static void test_rate(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(rate_cases); i++) {
		const struct rate_case *c = &rate_cases[i];

		close_to(stats_rate_test(c->a, c->ta, c->b, c->tb), c->p, "rate", i);
		/* the test does not depend on which run is called A */
		close_to(stats_rate_test(c->b, c->tb, c->a, c->ta), c->p, "rate swapped", i);
	}
	/* a zero-length window tests nothing */
	assert_true(stats_rate_test(5, 0, 10, 1) == 1);
	/* a single run against itself */
	assert_true(stats_rate_test(123456, 7.5, 123456, 7.5) == 1);
}

/** The normal tail at textbook points. */
static void test_normal(void **state)
{
	(void)state;
	close_to(stats_normal_p(0), 1, "z=0", 0);
	assert_true(fabs(stats_normal_p(1.959963984540054) - 0.05) < 1e-12);
	assert_true(fabs(stats_normal_p(-2.5758293035489004) - 0.01) < 1e-12);
}

/** Student t: closed forms for 1 and 2 degrees of freedom, textbook quantiles for 4, the
 * normal for infinite df. */
static void test_t(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(t_cases); i++)
		close_to(stats_t_p(t_cases[i].t, t_cases[i].df), t_cases[i].p, "t", i);
	/* t(4): 2.776 leaves 5 %, 4.604 leaves 1 % (two-sided) */
	assert_true(fabs(stats_t_p(2.7764451051977987, 4) - 0.05) < 1e-9);
	assert_true(fabs(stats_t_p(-4.604094871415897, 4) - 0.01) < 1e-9);
	assert_true(stats_t_p(1.96, INFINITY) == stats_normal_p(1.96));
	/* more degrees of freedom, thinner tails */
	assert_true(stats_t_p(3, 3) > stats_t_p(3, 30) && stats_t_p(3, 30) > stats_normal_p(3));
}

/** Quantile ranks: the textbook median interval of 20 (X(6), X(15)), the tails that
 * cannot be bounded with a few samples. */
static void test_ranks(void **state)
{
	uint64_t l, u;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(rank_cases); i++) {
		const struct rank_case *c = &rank_cases[i];

		stats_quantile_ranks(c->n, c->q, c->alpha, &l, &u);
		if (l != c->l || u != c->u)
			fail_msg(
				"ranks case %zu (n %llu q %g): got [%llu, %llu], want [%llu, %llu]",
				i, c->n, c->q, (unsigned long long)l, (unsigned long long)u, c->l,
				c->u);
	}
	stats_quantile_ranks(0, 0.5, 0.01, &l, &u);
	assert_true(l == 0 && u == 1);
	/* a million samples bound p99.99 on both sides, around rank 999900 */
	stats_quantile_ranks(1000000, 0.9999, 0.01, &l, &u);
	assert_true(l > 999850 && l < 999900 && u > 999900 && u < 999950);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binom), cmocka_unit_test(test_ibeta),
		cmocka_unit_test(test_rate),  cmocka_unit_test(test_normal),
		cmocka_unit_test(test_t),     cmocka_unit_test(test_ranks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
