// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_clockcost.c - clock read costs: the summary by hand, the measurement for sanity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "js_clockcost.h"
#include "js_tsc.h"
#include "js_util.h"

/** Nearest-rank median and p99 of a shuffled 1..100, and tiny inputs. */
static void test_summarise(void **state)
{
	struct js_clock_read r;
	uint64_t v[100], one = 42;
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++)
		v[i] = (i * 37) % 100 + 1; /* a permutation of 1..100 */
	memset(&r, 0, sizeof(r));
	clockcost_summarise(&r, v, 100, 0.5);
	assert_int_equal(r.samples, 100);
	assert_int_equal(r.median_raw, 50);
	assert_int_equal(r.p99_raw, 99);
	assert_true(r.min_ns == 0.5);
	assert_true(r.median_ns == 25.0);
	assert_true(r.p99_ns == 49.5);
	assert_true(r.max_ns == 50.0);

	memset(&r, 0, sizeof(r));
	clockcost_summarise(&r, &one, 1, 1.0);
	assert_int_equal(r.median_raw, 42);
	assert_int_equal(r.p99_raw, 42);

	memset(&r, 0, sizeof(r));
	clockcost_summarise(&r, v, 0, 1.0);
	assert_int_equal(r.samples, 0);
	assert_true(r.median_ns == 0.0);
}

static void check_read(const struct js_clock_read *r, const char *name)
{
	assert_string_equal(r->name, name);
	assert_true(r->samples >= 256);
	assert_true(r->min_ns <= r->median_ns);
	assert_true(r->median_ns <= r->p99_ns);
	assert_true(r->p99_ns <= r->max_ns);
	assert_true(r->median_ns < 100000.0); /* no clock read takes 100 us at the median */
}

/** A real measurement: ordered and plausible; rdtscp only where it
 * may run (told false, it is not measured on any CPU). */
static void test_measure(void **state)
{
	struct js_clockcost c, g, n;
	bool rdtscp = tsc_rdtscp_usable();

	(void)state;
	assert_int_equal(clockcost_measure(&n, 0, false), 0);
	assert_int_equal(n.rdtscp.samples, 0);
	assert_true(n.TSC_FENCED_COST.samples > 0);
	/* its time budget (3 x 3 ms) is not judged here: a unit test's wall time on a shared,
	 * noisy machine (or in make check's lane, at SCHED_IDLE) says nothing; make bench
	 * measures the start-up against its baseline */
	assert_int_equal(clockcost_measure(&c, 0, rdtscp), 0);
	assert_true(c.tsc_hz_estimated);
#if defined(__aarch64__)
	assert_true(c.tsc_hz > 1e6 && c.tsc_hz < 1.1e9);
#else
	assert_true(c.tsc_hz > 1e8 && c.tsc_hz < 1e10);
#endif
	if (rdtscp) {
		check_read(&c.rdtscp, "rdtscp");
		assert_true(c.rdtscp.median_raw > 0); /* two rdtscp are never the same cycle */
	} else {
		assert_int_equal(c.rdtscp.samples, 0);
	}
#if defined(__aarch64__) /* a pair within one step of cntvct_el0 reads 0 */
	check_read(&c.isb_cntvct, "isb_cntvct");
	assert_int_equal(c.lfence_rdtsc.samples, 0);
#else
	check_read(&c.lfence_rdtsc, "lfence_rdtsc");
	assert_true(c.lfence_rdtsc.median_raw > 0);
#endif
	check_read(&c.monotonic, "clock_gettime_monotonic");

	/* a given tsc_hz is used as is: at 1 GHz, ns == cycles */
	assert_int_equal(clockcost_measure(&g, 1e9, rdtscp), 0);
	assert_false(g.tsc_hz_estimated);
	assert_true(g.tsc_hz == 1e9);
	assert_true(g.rdtscp.median_ns == (double)g.rdtscp.median_raw);
	assert_true(g.lfence_rdtsc.p99_ns == (double)g.lfence_rdtsc.p99_raw);
	print_message("clock costs (median/p99 ns, tsc %.0f Hz, clocksource %s): rdtscp %.1f/%.1f, "
		      "lfence;rdtsc %.1f/%.1f, clock_gettime %.1f/%.1f\n",
		      c.tsc_hz, c.clocksource, c.rdtscp.median_ns, c.rdtscp.p99_ns,
		      c.lfence_rdtsc.median_ns, c.lfence_rdtsc.p99_ns, c.monotonic.median_ns,
		      c.monotonic.p99_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarise),
		cmocka_unit_test(test_measure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
