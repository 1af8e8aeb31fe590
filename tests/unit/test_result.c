// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_result.c - a CPU's result from init through start, gaps and finish (result.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "js_correlate.h"
#include "js_result.h"

#define S 1000000000ull /* one second */
#define T0 (100 * S)	/* the sampler's start, CLOCK_MONOTONIC */

static struct js_gap_rec gap(uint64_t start, uint64_t dur, enum js_cause primary)
{
	return (struct js_gap_rec){
		.gap = { .start_ns = start, .dur_ns = dur, .cpu = 3 },
		.attr = { .primary = primary,
			  .unexplained_ns = primary == JS_CAUSE_UNEXPLAINED ? dur : 0 },
	};
}

/* the models are set up at start, fed by every gap, and closed at finish */
static void test_lifecycle(void **state)
{
	struct js_run_cfg cfg = { .narrivals = 2, .arrival_ns = { 1000, 1000000 }, .burst = 4 };
	struct js_cpu_end end = { .end_ns = T0 + 3 * S, .iterations = 1000, .dropped = 2 };
	struct js_cpu_result r;
	struct js_gap_rec g;

	(void)state;
	assert_int_equal(result_cpu_init(&r, 3, 4), 0);
	assert_false(r.started);
	assert_int_equal(result_cpu_start(&r, T0, &cfg), 0);
	assert_true(r.started);
	assert_int_equal(r.narrivals, 2);
	assert_true(r.start_ns == T0);
	assert_true(r.bursts[1][0].span_ns == 4 * 1000000ull);
	g = gap(T0 + S / 2, 50000, JS_CAUSE_IRQ);
	result_add_gap(&r, &g);
	g = gap(T0 + 2 * S + 10, 20000, JS_CAUSE_TASK);
	result_add_gap(&r, &g);
	assert_int_equal(r.gap_count, 2);
	assert_true(r.lost_ns == 70000);
	/* 50 + 20 arrivals of the 1 us stream fell in a gap */
	assert_true(r.arrivals[0].delayed == 70);
	assert_true(r.arrivals[0].delayed_by_cause[JS_CAUSE_IRQ] == 50);
	result_cpu_finish(&r, &end);
	assert_true(r.end_ns == T0 + 3 * S);
	assert_int_equal(r.iterations, 1000);
	assert_int_equal(r.dropped, 2);
	assert_true(r.loop_ns_mean == (double)(3 * S - 70000) / 1000.0);
	/* seconds 0, 1, 2: the empty one included */
	assert_int_equal(r.intervals.n, 3);
	assert_int_equal(r.intervals.v[1].gaps, 0);
	assert_int_equal(r.intervals.v[2].gaps, 1);
	assert_true(r.arrivals[0].finished);
	assert_true(r.burst_p[0][0] >= 0.0);
	result_cpu_free(&r);
}

/* gaps before the start feed the totals only; the end never comes before the start */
static void test_before_start(void **state)
{
	struct js_run_cfg cfg = { .narrivals = 1, .arrival_ns = { 1000 } };
	struct js_cpu_end end = { .end_ns = T0 - 1 };
	struct js_cpu_result r;
	struct js_gap_rec g = gap(T0 - 5000, 2000, JS_CAUSE_IRQ);

	(void)state;
	assert_int_equal(result_cpu_init(&r, 3, 4), 0);
	result_add_gap(&r, &g);
	assert_int_equal(r.gap_count, 1);
	assert_int_equal(r.narrivals, 0);
	assert_int_equal(result_cpu_start(&r, T0, &cfg), 0);
	result_cpu_finish(&r, &end);
	assert_true(r.end_ns == T0);
	assert_true(r.arrivals[0].delayed == 0);
	result_cpu_free(&r);
}

/* the SMI delta goes to the worst gaps no event explains */
static void test_smi(void **state)
{
	struct js_run_cfg cfg = { 0 };
	struct js_cpu_end end = { .end_ns = T0 + S, .smi = 1 };
	struct js_cpu_result r;
	struct js_gap_rec g[3] = {
		gap(T0 + 100, 90000, JS_CAUSE_IRQ),
		gap(T0 + 200000, 40000, JS_CAUSE_UNEXPLAINED),
		gap(T0 + 400000, 30000, JS_CAUSE_UNEXPLAINED),
	};
	struct js_gap_rec out[3];

	(void)state;
	g[0].attr.nparts = 1;
	g[0].attr.parts[0].cause = JS_CAUSE_IRQ;
	g[0].attr.parts[0].net_ns = 90000;
	g[0].attr.covered_ns = 90000;
	assert_int_equal(result_cpu_init(&r, 3, 4), 0);
	assert_int_equal(result_cpu_start(&r, T0, &cfg), 0);
	for (int i = 0; i < 3; i++)
		result_add_gap(&r, &g[i]);
	result_cpu_finish(&r, &end);
	assert_int_equal(r.smi, 1);
	/* the pipeline's finish_results: attribution allocates the count */
	assert_int_equal(corr_smi_allocate(r.top.v, r.top.n, r.smi), 0);
	assert_int_equal(result_top_sorted(&r, out), 3);
	assert_int_equal(out[0].attr.smi, 0);
	assert_int_equal(out[1].attr.smi, 1);
	assert_int_equal(out[1].attr.primary, JS_CAUSE_SMI);
	assert_int_equal(out[2].attr.smi, 0);
	result_cpu_free(&r);
}

/* the CPUs the followed threads ran on join the set; samplers' and marks' results do not */
static void test_ran_on(void **state)
{
	struct js_cpu_result r[3] = { 0 };
	struct js_run run = { .cpus = r, .ncpus = 3 };
	struct js_cpuset set;

	(void)state;
	r[0].source = JS_SRC_SAMPLER;
	r[0].ts.cpus_mask = 1ull << 5;
	r[1].source = JS_SRC_THREAD;
	r[1].ts.cpus_mask = 1ull << 1 | 1ull << 63;
	r[2].source = JS_SRC_THREAD;
	r[2].ts.cpus_mask = 1ull << 0 | 1ull << 1;
	cpuset_zero(&set);
	cpuset_set(&set, 1);
	assert_int_equal(run_ran_on(&run, &set), 2);
	assert_int_equal(cpuset_count(&set), 3);
	assert_true(cpuset_isset(&set, 0) && cpuset_isset(&set, 63));
	assert_false(cpuset_isset(&set, 5));
	/* nothing new the second time */
	assert_int_equal(run_ran_on(&run, &set), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lifecycle),
		cmocka_unit_test(test_before_start),
		cmocka_unit_test(test_smi),
		cmocka_unit_test(test_ran_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
