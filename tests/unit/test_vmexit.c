// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_vmexit.c - a VM exit's cost: the summary (nearest rank), and the measurement here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "js_vmexit.h"

/** min, median and p90 by nearest rank: ceil(n x p / 100)-th smallest. */
static void test_summarise(void **state)
{
	uint32_t five[] = { 50, 10, 40, 20, 30 };
	uint32_t ten[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	struct js_vmexit x;

	(void)state;
	vmexit_summarise(&x, five, 5);
	assert_int_equal(x.samples, 5);
	assert_int_equal(x.min_cycles, 10);
	assert_int_equal(x.median_cycles, 30); /* ceil(2.5) = 3rd */
	assert_int_equal(x.p90_cycles, 50);    /* ceil(4.5) = 5th */
	vmexit_summarise(&x, ten, 10);
	assert_int_equal(x.min_cycles, 1);
	assert_int_equal(x.median_cycles, 5); /* 5th */
	assert_int_equal(x.p90_cycles, 9);    /* 9th */
	memset(&x, 0xff, sizeof(x));
	vmexit_summarise(&x, ten, 0);
	assert_int_equal(x.samples, 0);
	assert_int_equal(x.median_cycles, 0);
}

/** In a guest the round trips are measured and ordered; on bare metal nothing is said. */
static void test_measure(void **state)
{
	struct js_vmexit x;

	(void)state;
	vmexit_measure(&x, TSC_READ_LFENCE_RDTSC);
	if (!vmexit_guest()) {
		assert_int_equal(x.samples, 0);
		return;
	}
	assert_true(x.samples > 0 && x.samples <= VMEXIT_SAMPLES);
	assert_true(x.min_cycles > 0);
	assert_true(x.min_cycles <= x.median_cycles && x.median_cycles <= x.p90_cycles);
	/* an exit is at least a few hundred cycles on any hypervisor (a native cpuid is not) */
	assert_true(x.min_cycles > 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarise),
		cmocka_unit_test(test_measure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
