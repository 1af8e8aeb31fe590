// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_nap.c - the housekeeping thread's sleep between drains: doubled from 10 ms to at most
 * 40 ms while the rings stay under a 32nd full, back to 10 ms when one is fuller (the
 * sampler's, the probes' or --pid's records), and 10 ms whenever the marks are read or a
 * test hook acts once a drain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "js_nap.h"

#define MS 1000000ull
#define RING (1u << 16)	  /* gaps: the default --ring-size */
#define EVRING (2u << 20) /* bytes: the probes' ring */

static void test_quiet_doubles_to_the_cap(void **st)
{
	struct js_nap_fill f = {
		.gaps = 5, .ring_entries = RING, .ev_bytes = 1000, .ev_ring_bytes = EVRING
	};
	uint64_t nap = JS_NAP_BASE_NS;

	(void)st;
	nap = js_nap_next(nap, &f);
	assert_int_equal(nap, 20 * MS);
	nap = js_nap_next(nap, &f);
	assert_int_equal(nap, 40 * MS);
	nap = js_nap_next(nap, &f);
	assert_int_equal(nap, 40 * MS);
	/* a sleep shorter than the base (none is) starts again from the base */
	assert_int_equal(js_nap_next(1 * MS, &f), 10 * MS);
}

static void test_a_fuller_ring_returns_to_the_base(void **st)
{
	struct js_nap_fill f = { .gaps = RING / 32 - 1,
				 .ring_entries = RING,
				 .ev_bytes = EVRING / 32 - 1,
				 .ev_ring_bytes = EVRING };

	(void)st;
	assert_int_equal(js_nap_next(40 * MS, &f), 40 * MS); /* just under: still quiet */
	f.gaps = RING / 32;
	assert_int_equal(js_nap_next(40 * MS, &f), 10 * MS);
	f.gaps = 0;
	f.ev_bytes = EVRING / 32;
	assert_int_equal(js_nap_next(40 * MS, &f), 10 * MS);
	/* a small --ring-size binds sooner: 8 gaps of 256 */
	f = (struct js_nap_fill){ .gaps = 8, .ring_entries = 256 };
	assert_int_equal(js_nap_next(20 * MS, &f), 10 * MS);
	f.gaps = 7;
	assert_int_equal(js_nap_next(20 * MS, &f), 40 * MS);
}

static void test_sources_and_no_probes(void **st)
{
	struct js_nap_fill f = { .src_base = true };

	(void)st;
	/* an application's marks come through a pipe it must never find full */
	assert_int_equal(js_nap_next(10 * MS, &f), 10 * MS);
	assert_int_equal(js_nap_next(40 * MS, &f), 10 * MS);
	/* --pid's records: a quiet ring lets it sleep longer, a fuller one brings the base */
	f = (struct js_nap_fill){ .src_bytes = EVRING / 32 - 1, .src_ring_bytes = EVRING };
	assert_int_equal(js_nap_next(10 * MS, &f), 20 * MS);
	assert_int_equal(js_nap_next(40 * MS, &f), 40 * MS);
	f.src_bytes = EVRING / 32;
	assert_int_equal(js_nap_next(40 * MS, &f), 10 * MS);
	/* -- CMD alone reads no ring */
	f = (struct js_nap_fill){ 0 };
	assert_int_equal(js_nap_next(10 * MS, &f), 20 * MS);
	/* a --test-hook zaps a page once a drain: its rhythm is the base's */
	f = (struct js_nap_fill){ .hook = true };
	assert_int_equal(js_nap_next(10 * MS, &f), 10 * MS);
	/* --no-probes: no event ring, nothing in it */
	f = (struct js_nap_fill){ .gaps = 3, .ring_entries = RING };
	assert_int_equal(js_nap_next(10 * MS, &f), 20 * MS);
}

/* a sleep that ends half a second or more after it should have is said once (pipeline.c) */
static void test_late(void **st)
{
	(void)st;
	assert_int_equal(js_nap_late(10 * MS, 11 * MS), 0);
	assert_int_equal(js_nap_late(10 * MS, 509 * MS), 0);
	assert_int_equal(js_nap_late(10 * MS, 510 * MS), 500 * MS);
	assert_int_equal(js_nap_late(40 * MS, 2040 * MS), 2000 * MS);
	assert_int_equal(js_nap_late(40 * MS, 0), 0); /* a clock read before the sleep's */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_doubles_to_the_cap),
		cmocka_unit_test(test_a_fuller_ring_returns_to_the_base),
		cmocka_unit_test(test_sources_and_no_probes),
		cmocka_unit_test(test_late),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
