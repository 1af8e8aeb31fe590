// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_primary.c - a gap's primary is unexplained when its remainder is its largest part
 * (corr_settle, docs/ATTRIBUTION.md "The primary cause"). */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_correlate.h"
#include "js_entry.h"
#include "js_story.h"

#define CPU 1
#define US 1000ull

/* attributed - the gap [start, start + dur) from its events as the drain does it: events,
 * steal/SMI (none here), the entry/exit of a bare-metal model, then corr_settle() */
static void attributed(struct js_gap_rec *r, uint64_t start, uint64_t dur,
		       const struct js_event *ev, size_t nev)
{
	struct js_entry m;

	fx_rec(r, CPU, start, dur);
	assert_int_equal(corr_attribute(&r->gap, ev, nev, NULL, &r->attr), 0);
	corr_finish(&r->attr, dur);
	entry_init(&m, 0);
	entry_account(&m, r);
	corr_settle(r);
}

/* the gap: 2.5 ms of which a 100 us tick (with its entry/exit) explains a little */
static void test_mostly_unexplained(void **state)
{
	struct js_event ev =
		fx_event(JS_EV_VECTOR, 10 * US, 110 * US, CPU, JS_VEC_LOCAL_TIMER, NULL);
	struct js_gap_rec r;
	const struct js_part *p;
	char story[512];

	(void)state;
	attributed(&r, 0, 2500 * US, &ev, 1);
	assert_int_equal(r.attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_string_equal(r.attr.detail, "");
	/* the tick stays among its causes, with its entry/exit */
	assert_int_equal(r.attr.nparts, 1);
	p = &r.attr.parts[0];
	assert_int_equal(p->cause, JS_CAUSE_TIMER);
	assert_int_equal(p->net_ns, 100 * US);
	assert_true(p->entry_ns > 0);
	assert_int_equal(r.attr.unexplained_ns, 2400 * US - p->entry_ns);
	/* the headline names the remainder first, then the tick */
	story_format(story, sizeof(story), &r, 0);
	assert_string_equal(story, "2.5 ms at 0 ns: 2.4 ms unexplained + local timer IRQ "
				   "(100.0 us + 1.0 us entry/exit)");
}

/* an IRQ that covers most of its gap stays its primary */
static void test_irq_covers_most(void **state)
{
	struct js_event ev = fx_event(JS_EV_IRQ, 5 * US, 95 * US, CPU, 36, "virtio1-req.0");
	struct js_gap_rec r;

	(void)state;
	attributed(&r, 0, 100 * US, &ev, 1);
	assert_int_equal(r.attr.primary, JS_CAUSE_IRQ);
	assert_non_null(strstr(r.attr.detail, "virtio1-req.0"));
	assert_true(r.attr.unexplained_ns < r.attr.parts[0].net_ns);
}

/* settled - a hand-made gap of dur whose one part (cause, net, entry) is its primary,
 * corr_settle()d; its primary */
static uint32_t settled(uint64_t dur, uint32_t cause, uint64_t net, uint64_t entry, uint64_t steal)
{
	struct js_gap_rec r;

	fx_rec(&r, CPU, 1000, dur);
	fx_part(&r, cause, "x", 1, net);
	r.attr.parts[0].entry_ns = entry;
	r.attr.entry_ns = entry;
	r.attr.steal_ns = steal;
	fx_primary(&r, cause, "x");
	corr_settle(&r);
	return r.attr.primary;
}

/* a share is net + entry/exit; a tie keeps the named cause, one ns more does not */
static void test_ties_and_entry(void **state)
{
	(void)state;
	/* 50 net vs 50 unexplained: a tie, the IPI stays */
	assert_int_equal(settled(100, JS_CAUSE_IPI, 50, 0, 0), JS_CAUSE_IPI);
	/* 49 net vs 51: unexplained */
	assert_int_equal(settled(100, JS_CAUSE_IPI, 49, 0, 0), JS_CAUSE_UNEXPLAINED);
	/* 30 net + 20 entry/exit vs 50: a tie again */
	assert_int_equal(settled(100, JS_CAUSE_IPI, 30, 20, 0), JS_CAUSE_IPI);
	/* 30 net + 19 entry/exit vs 51 */
	assert_int_equal(settled(100, JS_CAUSE_IPI, 30, 19, 0), JS_CAUSE_UNEXPLAINED);
	/* steal is a share too: 10 net, 46 steal vs 44 unexplained */
	assert_int_equal(settled(100, JS_CAUSE_IPI, 10, 0, 46), JS_CAUSE_IPI);
	/* 10 net, 40 steal vs 50 unexplained */
	assert_int_equal(settled(100, JS_CAUSE_IPI, 10, 0, 40), JS_CAUSE_UNEXPLAINED);
	/* a task preempting the sampler is judged the same way */
	assert_int_equal(settled(100, JS_CAUSE_TASK, 20, 0, 0), JS_CAUSE_UNEXPLAINED);
}

/* what corr_settle() leaves alone: a mark (its remainder is the application's work), an
 * SMI, a page fault, a gap with nothing named; and it clears the waker of a task it no longer names */
static void test_kept(void **state)
{
	struct js_gap_rec r;

	(void)state;
	fx_rec(&r, CPU, 1000, 100);
	r.gap.source = JS_SRC_MARK;
	fx_part(&r, JS_CAUSE_IPI, "x", 1, 10);
	fx_primary(&r, JS_CAUSE_IPI, "x");
	corr_settle(&r);
	assert_int_equal(r.attr.primary, JS_CAUSE_IPI);

	fx_rec(&r, CPU, 1000, 100);
	r.attr.smi = 1;
	fx_primary(&r, JS_CAUSE_UNEXPLAINED, "");
	assert_int_equal(r.attr.primary, JS_CAUSE_SMI);
	corr_settle(&r);
	assert_int_equal(r.attr.primary, JS_CAUSE_SMI);

	/* a page fault: a point at its entry, 1 ns of 100 named, the rest its own */
	fx_rec(&r, CPU, 1000, 100);
	fx_part(&r, JS_CAUSE_FAULT, "sampler fault", 1, 1);
	fx_primary(&r, JS_CAUSE_FAULT, "sampler fault");
	corr_settle(&r);
	assert_int_equal(r.attr.primary, JS_CAUSE_FAULT);

	fx_rec(&r, CPU, 1000, 100);
	fx_part(&r, JS_CAUSE_TASK, "kworker/1:2:123", 1, 10);
	r.attr.waker.ctx = 1;
	r.attr.stack = 7;
	fx_primary(&r, JS_CAUSE_TASK, "kworker/1:2:123");
	corr_settle(&r);
	assert_int_equal(r.attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(r.attr.waker.ctx, 0);
	assert_int_equal(r.attr.stack, 0);
	assert_int_equal(r.attr.nparts, 1);
	/* settling twice changes nothing */
	corr_settle(&r);
	assert_int_equal(r.attr.primary, JS_CAUSE_UNEXPLAINED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mostly_unexplained),
		cmocka_unit_test(test_irq_covers_most),
		cmocka_unit_test(test_ties_and_entry),
		cmocka_unit_test(test_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
