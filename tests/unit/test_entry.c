// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_entry.c - entry/exit given to the interruptions: the rule, its learning, its bounds,
 * and what the cause table and corr_finish() make of it; expected values derived by hand. */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_causes.h"
#include "js_correlate.h"
#include "js_entry.h"
#include "fixtures.h"

#define EXIT_NS 4000.0 /* one VM exit: the guest prior is 3 x 4000 = 12000 ns */

/* gap - a gap of dur with its parts added by the caller, then finished: R = dur - covered */
static void gap(struct js_gap_rec *r, uint64_t dur)
{
	fx_rec(r, 1, 1000000, dur);
}

/* done - the first part is the primary */
static void done(struct js_gap_rec *r)
{
	fx_primary(r, r->attr.parts[0].cause, r->attr.parts[0].detail);
}

/* lone_ipi - account a gap holding one IPI (1000 ns net) and remainder rem */
static void lone_ipi(struct js_entry *m, uint64_t rem, struct js_gap_rec *r)
{
	gap(r, 1000 + rem);
	fx_part(r, JS_CAUSE_IPI, "call_function_single", 1, 1000);
	done(r);
	entry_account(m, r);
}

/** The prior: 3 exits in a guest, 1 us on bare metal; kinds and their names. */
static void test_prior_and_kinds(void **state)
{
	struct js_entry m;

	(void)state;
	entry_init(&m, EXIT_NS);
	assert_int_equal(m.prior_ns, 12000);
	assert_int_equal(entry_bound(&m, ENTRY_TIMER), 12000);
	entry_init(&m, 0);
	assert_int_equal(m.prior_ns, 1000);
	assert_int_equal(entry_kind_of(JS_CAUSE_TIMER), ENTRY_TIMER);
	assert_int_equal(entry_kind_of(JS_CAUSE_IPI), ENTRY_IPI);
	assert_int_equal(entry_kind_of(JS_CAUSE_IRQ), ENTRY_IRQ);
	assert_int_equal(entry_kind_of(JS_CAUSE_VECTOR), ENTRY_VECTOR);
	assert_int_equal(entry_kind_of(JS_CAUSE_NMI), ENTRY_NMI);
	assert_int_equal(entry_kind_of(JS_CAUSE_SOFTIRQ), -1);
	assert_int_equal(entry_kind_of(JS_CAUSE_TASK), -1);
	assert_int_equal(entry_kind_of(JS_CAUSE_HRTIMER), -1);
	assert_string_equal(entry_kind_name(ENTRY_IPI), "ipi");
	assert_null(entry_kind_name(ENTRY_KINDS));
	assert_int_equal(entry_kind_from_name("nmi"), ENTRY_NMI);
	assert_int_equal(entry_kind_from_name("softirq"), -1);
	assert_int_equal(entry_kind_from_name("nope"), -1);
	assert_int_equal(entry_bound(&m, -1), 0);
}

/** Before learning, the prior bounds it: 20 us of remainder around a tick gives 12 us. */
static void test_prior_bounds(void **state)
{
	struct js_entry m;
	struct js_gap_rec r;

	(void)state;
	entry_init(&m, EXIT_NS);
	gap(&r, 30000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 7000);
	fx_part(&r, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler", 1, 3000);
	done(&r);
	assert_int_equal(r.attr.unexplained_ns, 20000);
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 12000);
	assert_int_equal(r.attr.parts[0].entry_ns, 12000);
	assert_int_equal(r.attr.parts[1].entry_ns, 0); /* hrtimer: inside the vector */
	assert_int_equal(r.attr.unexplained_ns, 8000);
	assert_int_equal(m.k[ENTRY_TIMER].lone, 1); /* a lone gap: learned */
	assert_int_equal(m.k[ENTRY_TIMER].entries, 1);
	assert_int_equal(m.k[ENTRY_TIMER].entry_ns, 12000);
	/* corr_finish() again (SMI allocation does) keeps the split */
	corr_finish(&r.attr, r.gap.dur_ns);
	assert_int_equal(r.attr.unexplained_ns, 8000);
	/* accounted once: a second call changes nothing */
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 12000);
	assert_int_equal(m.k[ENTRY_TIMER].lone, 1);
	/* a remainder below the bound is given whole */
	gap(&r, 15000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 7000);
	done(&r);
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 8000);
	assert_int_equal(r.attr.unexplained_ns, 0);
}

/*
 * Learning: remainders 100, 200 ... 10000 ns (bins 1..100 of 100 ns). The learned bound is
 * the upper edge of the bin of the 90th percentile, recomputed at the 32nd lone gap and
 * every 16 after: at the 96th, ceil(0.9 x 96) = 87th value, 8700 -> bin 87 -> 8800; at the
 * end (entry_finish) of all 100, the 90th value 9000 -> 9100; the median 5000 -> 5100. The
 * floor (p10) is the 10th value at the 96th and the 100th: 1000 -> 1100, and the bound
 * given is at most 3 floors, 3300 (a spread this wide is not one constant cost); at the
 * 32nd, the 4th value 400 -> 500, 1500.
 */
static void test_learned_bound(void **state)
{
	struct js_entry m;
	struct js_gap_rec r;

	(void)state;
	entry_init(&m, EXIT_NS);
	for (uint64_t i = 1; i <= 31; i++)
		lone_ipi(&m, 100 * i, &r);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 12000); /* 31: still the prior */
	lone_ipi(&m, 3200, &r);
	/* the 32nd: ceil(0.9 x 32) = 29th value 2900 -> 3000; the floor 500 caps it at 1500 */
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, 3000);
	assert_int_equal(m.k[ENTRY_IPI].floor_ns, 500);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 1500);
	for (uint64_t i = 33; i <= 100; i++)
		lone_ipi(&m, 100 * i, &r);
	assert_int_equal(m.k[ENTRY_IPI].lone, 100);
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, 8800);
	assert_int_equal(entry_cap(&m, ENTRY_IPI), 3300);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 3300);
	/* the last gap (10000 ns) got the bound then: 3300, 6700 left unexplained */
	assert_int_equal(r.attr.entry_ns, 3300);
	assert_int_equal(r.attr.unexplained_ns, 6700);
	entry_finish(&m);
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, 9100);
	assert_int_equal(m.k[ENTRY_IPI].median_ns, 5100);
	assert_int_equal(m.k[ENTRY_IPI].floor_ns, 1100);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 3300);
	/* the timer learned nothing: its prior stands */
	assert_int_equal(entry_bound(&m, ENTRY_TIMER), 12000);
	/* a host event of 40 us next to an IPI: 3.3 us absorbed at most, the rest unexplained */
	lone_ipi(&m, 40000, &r);
	assert_int_equal(r.attr.entry_ns, 3300);
	assert_int_equal(r.attr.unexplained_ns, 36700);
}

/*
 * The caps: the bound never exceeds 20 VM exits (2 us on bare metal), nor 3 floors. Host
 * noise in many lone gaps moves the 90th percentile, not the 10th.
 */
static void test_caps(void **state)
{
	struct js_entry m;
	struct js_gap_rec r;

	(void)state;
	entry_init(&m, EXIT_NS);
	assert_int_equal(m.cap_ns, 80000);
	assert_int_equal(entry_cap(&m, ENTRY_IPI), 80000); /* nothing learned: the exits' */
	entry_init(&m, 0);
	assert_int_equal(m.cap_ns, ENTRY_CAP_BARE_NS);
	assert_int_equal(entry_cap(&m, -1), 0);
	/* a 100 us stall no tracepoint sees in every lone gap: learned 100 us, given 20 exits */
	entry_init(&m, EXIT_NS);
	for (int i = 0; i < 64; i++)
		lone_ipi(&m, 100000, &r);
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, 100100);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 80000);
	assert_int_equal(r.attr.entry_ns, 80000);
	assert_int_equal(r.attr.unexplained_ns, 20000);
	/* a 10 us exit (cap 200 us): 80 lone IPIs at 6 us, 20 with 30 us of host noise: the
	 * 90th percentile is the noise (30.1 us), the floor 6.1 us: given 18.3 us */
	entry_init(&m, 10000.0);
	for (int i = 0; i < 100; i++)
		lone_ipi(&m, i % 5 == 4 ? 30000 : 6000, &r);
	entry_finish(&m);
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, 30100);
	assert_int_equal(m.k[ENTRY_IPI].floor_ns, 6100);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 18300);
	/* where the costs are one constant the caps do not bind */
	entry_init(&m, EXIT_NS);
	for (int i = 0; i < 100; i++)
		lone_ipi(&m, 6000 + (uint64_t)(i % 10) * 100, &r);
	entry_finish(&m);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), m.k[ENTRY_IPI].bound_ns);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 6900);
}

/*
 * Several interruptions share E = min(R, sum count x B) by count x B: two IPIs (bound 9100
 * each: remainders 8200 ... 9100 ns, ten of each) and a tick (prior 12000): want 30200; R 30000 -> the IPIs 30000 x 18200 / 30200 =
 * 18079 (floored), the tick (the last) the rest, 11921. Not lone: nothing learned.
 */
static void test_shared(void **state)
{
	struct js_entry m;
	struct js_gap_rec r;

	(void)state;
	entry_init(&m, EXIT_NS);
	for (uint64_t i = 0; i < 100; i++)
		lone_ipi(&m, 8200 + (i % 10) * 100, &r);
	entry_finish(&m);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 9100);
	gap(&r, 42000);
	fx_part(&r, JS_CAUSE_IPI, "call_function_single", 2, 7000);
	fx_part(&r, JS_CAUSE_SOFTIRQ, "RCU", 1, 3000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 2000);
	done(&r);
	assert_int_equal(r.attr.unexplained_ns, 30000);
	entry_account(&m, &r);
	assert_int_equal(r.attr.parts[0].entry_ns, 18079);
	assert_int_equal(r.attr.parts[2].entry_ns, 11921);
	assert_int_equal(r.attr.parts[1].entry_ns, 0);
	assert_int_equal(r.attr.entry_ns, 30000);
	assert_int_equal(r.attr.unexplained_ns, 0);
	assert_int_equal(m.k[ENTRY_IPI].lone, 100);
	assert_int_equal(m.k[ENTRY_TIMER].lone, 0);
	assert_int_equal(m.k[ENTRY_IPI].entries, 102);
	assert_int_equal(m.k[ENTRY_TIMER].gaps, 1);
}

/** What is not learned: steal, a task, a folded part; what gets nothing: no interruption. */
static void test_not_lone(void **state)
{
	struct js_entry m;
	struct js_gap_rec r;

	(void)state;
	entry_init(&m, EXIT_NS);
	/* steal: split (the bound is evidence enough) but not learned */
	gap(&r, 30000);
	fx_part(&r, JS_CAUSE_IPI, "reschedule", 1, 1000);
	r.attr.steal_ns = 4000;
	done(&r);
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 12000);
	assert_int_equal(r.attr.unexplained_ns, 30000 - 1000 - 4000 - 12000);
	assert_int_equal(m.k[ENTRY_IPI].lone, 0);
	/* a preemption: the tick that woke the task gets its entry/exit, nothing is learned */
	gap(&r, 100000);
	fx_part(&r, JS_CAUSE_TASK, "jsinject:7", 1, 80000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 5000);
	done(&r);
	entry_account(&m, &r);
	assert_int_equal(r.attr.parts[1].entry_ns, 12000);
	assert_int_equal(r.attr.unexplained_ns, 3000);
	assert_int_equal(m.k[ENTRY_TIMER].lone, 0);
	/* a folded part is no interruption, and makes the gap not lone */
	gap(&r, 30000);
	fx_part(&r, JS_CAUSE_IPI, "(other: 3 sources)", 3, 1000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 5000);
	done(&r);
	entry_account(&m, &r);
	assert_int_equal(r.attr.parts[0].entry_ns, 0);
	assert_int_equal(r.attr.parts[1].entry_ns, 12000);
	assert_int_equal(m.k[ENTRY_TIMER].lone, 0);
	/* no interruption: a softirq alone, and a gap with no event, stay unexplained */
	gap(&r, 30000);
	fx_part(&r, JS_CAUSE_SOFTIRQ, "NET_RX", 1, 5000);
	done(&r);
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 0);
	assert_int_equal(r.attr.unexplained_ns, 25000);
	gap(&r, 30000);
	corr_finish(&r.attr, r.gap.dur_ns);
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 0);
	assert_int_equal(r.attr.unexplained_ns, 30000);
	assert_int_equal(r.attr.primary, JS_CAUSE_UNEXPLAINED);
	/* a lone gap with no remainder is learned (0 is evidence) and given nothing */
	gap(&r, 2000);
	fx_part(&r, JS_CAUSE_NMI, "nmi", 1, 2000);
	done(&r);
	entry_account(&m, &r);
	assert_int_equal(r.attr.entry_ns, 0);
	assert_int_equal(m.k[ENTRY_NMI].lone, 1);
	assert_int_equal(m.k[ENTRY_NMI].bins[0], 1);
}

/* The window: at ENTRY_WINDOW gaps a kind's histogram is halved (memory and old news). */
static void test_window(void **state)
{
	struct js_entry m;
	struct js_gap_rec r;

	(void)state;
	entry_init(&m, EXIT_NS);
	for (int i = 0; i < ENTRY_WINDOW; i++)
		lone_ipi(&m, 1000, &r);
	assert_int_equal(m.k[ENTRY_IPI].n, ENTRY_WINDOW);
	assert_int_equal(m.k[ENTRY_IPI].bins[10], ENTRY_WINDOW);
	/* 20 us remainders from now on: the old ones halve away, the bound follows */
	lone_ipi(&m, 20000, &r);
	assert_int_equal(m.k[ENTRY_IPI].n, ENTRY_WINDOW / 2 + 1);
	assert_int_equal(m.k[ENTRY_IPI].bins[10], ENTRY_WINDOW / 2);
	for (int i = 0; i < 3 * ENTRY_WINDOW; i++)
		lone_ipi(&m, 20000, &r);
	entry_finish(&m);
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, 20100);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 20100); /* under 20 exits and 3 floors */
	assert_int_equal(m.k[ENTRY_IPI].lone, 4 * ENTRY_WINDOW + 1);
	/* a remainder past the histogram's end lands in its last bin */
	entry_init(&m, EXIT_NS);
	for (int i = 0; i < ENTRY_MIN_LONE; i++)
		lone_ipi(&m, 10000000, &r);
	assert_int_equal(m.k[ENTRY_IPI].bins[ENTRY_BINS - 1], ENTRY_MIN_LONE);
	assert_int_equal(m.k[ENTRY_IPI].bound_ns, ENTRY_BINS * ENTRY_BIN_NS);
	assert_int_equal(entry_bound(&m, ENTRY_IPI), 80000);
}

/*
 * The cause table: an interruption's time lost is its net plus its entry/exit (entry_ns
 * beside), the residual source holds only what is left; the totals still add up.
 */
static void test_causes(void **state)
{
	struct js_entry m;
	struct js_causes c;
	struct js_gap_rec r;
	uint64_t sum = 0;

	(void)state;
	entry_init(&m, EXIT_NS);
	causes_init(&c);
	gap(&r, 30000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 7000);
	fx_part(&r, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler", 1, 3000);
	done(&r);
	entry_account(&m, &r);
	causes_add_gap(&c, &r);
	assert_int_equal(c.cls[JS_CAUSE_TIMER].total_ns, 7000 + 12000);
	assert_int_equal(c.cls[JS_CAUSE_TIMER].entry_ns, 12000);
	assert_int_equal(c.cls[JS_CAUSE_TIMER].max_ns, 19000);
	assert_int_equal(c.cls[JS_CAUSE_HRTIMER].total_ns, 3000);
	assert_int_equal(c.cls[JS_CAUSE_HRTIMER].entry_ns, 0);
	assert_int_equal(c.cls[JS_CAUSE_UNEXPLAINED].total_ns, 8000);
	for (uint32_t i = 0; i < c.nsrc; i++) {
		sum += c.src[i].total_ns;
		if (c.src[i].cause == JS_CAUSE_TIMER)
			assert_int_equal(c.src[i].entry_ns, 12000);
	}
	assert_int_equal(sum, c.lost_ns);
	/* merged tables keep it */
	{
		static struct js_causes all;

		causes_init(&all);
		causes_merge(&all, &c);
		causes_merge(&all, &c);
		assert_int_equal(all.cls[JS_CAUSE_TIMER].entry_ns, 24000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prior_and_kinds), cmocka_unit_test(test_prior_bounds),
		cmocka_unit_test(test_learned_bound),	cmocka_unit_test(test_caps),
		cmocka_unit_test(test_shared),		cmocka_unit_test(test_not_lone),
		cmocka_unit_test(test_window),		cmocka_unit_test(test_causes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
