// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* stats.c - binomial tails, the exact test of two Poisson rates, quantile intervals
 * (see js_stats.h). Written from the formulas: the incomplete beta function's continued
 * fraction (DLMF 8.17.22) evaluated by the modified Lentz method. */
#include <math.h>

#include "js_stats.h"

#define CF_EPS 1e-15
#define CF_TINY 1e-300
#define CF_ITERS 1000000 /* converges in about sqrt(min(a, b)) steps */

static double not_tiny(double v)
{
	return fabs(v) < CF_TINY ? CF_TINY : v;
}

/* beta_cf - the continued fraction of I_x(a, b), converging fast for x < (a+1)/(a+b+2) */
static double beta_cf(double x, double a, double b)
{
	double c = 1, d = 1 / not_tiny(1 - (a + b) * x / (a + 1)), h = d;

	for (int m = 1; m < CF_ITERS; m++) {
		double num, del;

		/* the even step d_2m, then the odd step d_2m+1 */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 / not_tiny(1 + num * d);
		c = not_tiny(1 + num / c);
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 / not_tiny(1 + num * d);
		c = not_tiny(1 + num / c);
		del = d * c;
		h *= del;
		if (fabs(del - 1) < CF_EPS)
			break;
	}
	return h;
}

/* stats_ibeta - I_x(a, b): the small side directly (no cancellation), the other as 1 - it */
double stats_ibeta(double x, double a, double b)
{
	double front;

	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(x, a, b) / a;
	return 1 - front * beta_cf(1 - x, b, a) / b;
}

/* stats_binom_cdf - P(X <= k) = I_{1-p}(n - k, k + 1) */
double stats_binom_cdf(uint64_t k, uint64_t n, double p)
{
	if (k >= n || !(p > 0))
		return 1;
	if (p >= 1)
		return 0;
	return stats_ibeta(1 - p, (double)(n - k), (double)k + 1);
}

/* stats_binom_sf - P(X >= k) = I_p(k, n - k + 1) */
double stats_binom_sf(uint64_t k, uint64_t n, double p)
{
	if (!k)
		return 1;
	if (k > n || !(p > 0))
		return 0;
	if (p >= 1)
		return 1;
	return stats_ibeta(p, (double)k, (double)(n - k) + 1);
}

/* stats_rate_test - conditional binomial test, two-sided: twice the smaller tail */
double stats_rate_test(uint64_t a, double ta, uint64_t b, double tb)
{
	uint64_t n = a + b;
	double p0, lo, hi;

	if (!n || !(ta > 0) || !(tb > 0))
		return 1;
	p0 = ta / (ta + tb);
	lo = stats_binom_cdf(a, n, p0);
	hi = stats_binom_sf(a, n, p0);
	return fmin(1, 2 * fmin(lo, hi));
}

/* stats_normal_p - P(|Z| >= |z|) */
double stats_normal_p(double z)
{
	return erfc(fabs(z) / M_SQRT2);
}

/* stats_t_p - P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
double stats_t_p(double t, double df)
{
	if (!(df < 1e7))
		return stats_normal_p(t);
	return stats_ibeta(df / (df + t * t), df / 2, 0.5);
}

/* stats_quantile_ranks - binary searches on the binomial tails (monotone in the rank) */
void stats_quantile_ranks(uint64_t n, double q, double alpha, uint64_t *l, uint64_t *u)
{
	uint64_t lo, hi;

	/* l: the largest rank in [1, n] with P(X <= l - 1) <= alpha / 2, else 0 */
	if (!n || stats_binom_cdf(0, n, q) > alpha / 2) {
		*l = 0;
	} else {
		for (lo = 1, hi = n; lo < hi;) {
			uint64_t mid = lo + (hi - lo + 1) / 2;

			if (stats_binom_cdf(mid - 1, n, q) <= alpha / 2)
				lo = mid;
			else
				hi = mid - 1;
		}
		*l = lo;
	}
	/* u: the smallest rank in [1, n] with P(X >= u) <= alpha / 2, else n + 1 */
	if (!n || stats_binom_sf(n, n, q) > alpha / 2) {
		*u = n + 1;
	} else {
		for (lo = 1, hi = n; lo < hi;) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (stats_binom_sf(mid, n, q) <= alpha / 2)
				hi = mid;
			else
				lo = mid + 1;
		}
		*u = lo;
	}
}
