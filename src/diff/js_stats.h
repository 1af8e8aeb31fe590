/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_stats.h - the tests of chance `jitterscope diff` rests on (pure functions, libm only).
 *
 *   p = stats_rate_test(a, ta, b, tb);      exact: a events in ta s vs b in tb s
 *   p = stats_normal_p(z);                  two-sided normal tail (compound sums of times)
 *   p = stats_t_p(t, df);                   two-sided Student t tail (Welch's test)
 *   stats_quantile_ranks(n, q, alpha, &l, &u);   distribution-free interval of a quantile
 *
 * stats_rate_test is the conditional binomial test of two Poisson rates: given n = a + b
 * events, under equal rates a ~ Binomial(n, ta / (ta + tb)); the two-sided p-value is twice
 * the smaller tail, at most 1. stats_quantile_ranks gives the order statistics X(l) <= X(u)
 * that cover the q-quantile of a continuous distribution with probability >= 1 - alpha:
 * l the largest rank with P(Binomial(n, q) <= l - 1) <= alpha / 2, u the smallest with
 * P(Binomial(n, q) >= u) <= alpha / 2; l = 0 (no lower bound) or u = n + 1 (no upper
 * bound) when n is too small: the quantile rests on too few samples to be bounded.
 */
#ifndef JS_STATS_H
#define JS_STATS_H

#include <stdint.h>

/* stats_ibeta - the regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1 */
double stats_ibeta(double x, double a, double b);
/* stats_binom_cdf - P(X <= k), X ~ Binomial(n, p) */
double stats_binom_cdf(uint64_t k, uint64_t n, double p);
/* stats_binom_sf - P(X >= k), X ~ Binomial(n, p) */
double stats_binom_sf(uint64_t k, uint64_t n, double p);
/* stats_rate_test - two-sided p-value that a events in ta and b events in tb (> 0) come
 * from one Poisson rate; 1 when a = b = 0 */
double stats_rate_test(uint64_t a, double ta, uint64_t b, double tb);
/* stats_normal_p - two-sided p-value of a standard normal statistic z */
double stats_normal_p(double z);
/* stats_t_p - two-sided p-value of Student's t with df degrees of freedom (df infinite:
 * the normal) */
double stats_t_p(double t, double df);
/* stats_quantile_ranks - order-statistic ranks [*l, *u] (1-based) covering the q-quantile
 * (0 < q < 1) of n samples with confidence >= 1 - alpha; *l = 0, *u = n + 1: unbounded */
void stats_quantile_ranks(uint64_t n, double q, double alpha, uint64_t *l, uint64_t *u);

#endif /* JS_STATS_H */
