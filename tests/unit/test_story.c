// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_story.c - exact causal-story strings. */
#include <linux/types.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_correlate.h"
#include "js_host.h"
#include "js_story.h"
#include "fixtures.h"

#define RUN0 1000000000000ull /* run start on CLOCK_MONOTONIC */

/* rec_init - a gap of dur at RUN0 + at on CPU 1 */
static void rec_init(struct js_gap_rec *r, uint64_t at, uint64_t dur)
{
	fx_rec(r, 1, RUN0 + at, dur);
}

/* ev_mk - an event on CPU 1 over [RUN0 + s, RUN0 + e] */
static struct js_event ev_mk(uint32_t kind, uint64_t s, uint64_t e, uint32_t id, const char *name)
{
	return fx_event(kind, RUN0 + s, RUN0 + e, 1, id, name);
}

/* the brief's example, end to end from events */
static void test_preempted(void **state)
{
	uint64_t at = 12310000000ull;
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, at + 2000, at + 46100, 77, "kworker/3:1"),
		ev_mk(JS_EV_VECTOR, at + 30000, at + 33100, JS_VEC_LOCAL_TIMER, NULL),
	};
	struct js_gap_rec r;
	char buf[256];
	int n;

	(void)state;
	rec_init(&r, at, 48200);
	assert_int_equal(corr_attribute(&r.gap, ev, 2, NULL, &r.attr), 0);
	n = story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "48.2 us at 12.31 s: preempted by kworker/3:1:77 (41.0 us) "
				 "+ local timer IRQ (3.1 us) + 4.1 us unexplained");
	assert_int_equal(n, (int)strlen(buf));
}

/* a kworker's own work item is shown inside its time */
static void test_kworker_folded(void **state)
{
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	rec_init(&r, 2500000000ull, 50000);
	fx_part(&r, JS_CAUSE_WORK, "vmstat_update", 1, 40000);
	fx_part(&r, JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update", 1, 1000);
	fx_part(&r, JS_CAUSE_IRQ, "virtio1-req.0:36", 2, 4000);
	fx_primary(&r, JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update");
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "50.0 us at 2.50 s: preempted by kworker/1:2:123 vmstat_update "
				 "(41.0 us) + IRQ virtio1-req.0:36 x2 (4.0 us) "
				 "+ 5.0 us unexplained");
}

/* no guest event: unexplained first, steal beside it, nothing folded */
static void test_unexplained_steal(void **state)
{
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	rec_init(&r, 1000000000ull, 40000);
	r.attr.steal_ns = 10000;
	corr_finish(&r.attr, r.gap.dur_ns);
	assert_int_equal(r.attr.primary, JS_CAUSE_UNEXPLAINED);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "40.0 us at 1.00 s: 30.0 us unexplained (no guest event) "
				 "+ hypervisor steal (10.0 us)");
	r.attr.steal_ns = 0;
	corr_finish(&r.attr, r.gap.dur_ns);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "40.0 us at 1.00 s: 40.0 us unexplained (no guest event)");
	/* mostly steal */
	r.attr.steal_ns = 35000;
	corr_finish(&r.attr, r.gap.dur_ns);
	assert_int_equal(r.attr.primary, JS_CAUSE_STEAL);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "40.0 us at 1.00 s: hypervisor steal (35.0 us) "
				 "+ 5.0 us unexplained");
}

/* the host's classes: the gap's remainder given to them, told as the host */
static void test_host_classes(void **state)
{
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	rec_init(&r, 1000000000ull, 40000);
	r.attr.host_reloads = 2;
	corr_finish(&r.attr, r.gap.dur_ns);
	host_name(&r, NULL, false);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf,
			    "40.0 us at 1.00 s: host: vCPU reloaded without steal x2 (40.0 us)");
	rec_init(&r, 1000000000ull, 40000);
	r.attr.host_clock = 1;
	corr_finish(&r.attr, r.gap.dur_ns);
	host_name(&r, NULL, false);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "40.0 us at 1.00 s: host: clock update (40.0 us)");
	/* beside steal, the remainder is the host's */
	rec_init(&r, 1000000000ull, 40000);
	r.attr.steal_ns = 10000;
	r.attr.host_reloads = 1;
	corr_finish(&r.attr, r.gap.dur_ns);
	host_name(&r, NULL, false);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "40.0 us at 1.00 s: host: vCPU reloaded without steal (30.0 us) "
				 "+ hypervisor steal (10.0 us)");
}

/* a gap the host took most of: steal first, then the events seen meanwhile, each kept; less
 * than half: the tick's gap, the steal beside it */
static void test_steal_with_events(void **state)
{
	uint64_t at = 2000000000ull;
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, at + 100000, at + 110800, JS_VEC_LOCAL_TIMER, NULL),
	};
	static const struct {
		uint64_t steal;
		uint32_t primary;
		const char *story;
	} cases[] = {
		{ 267000, JS_CAUSE_STEAL,
		  "324.0 us at 2.00 s: hypervisor steal (267.0 us) + local timer IRQ (10.8 us) "
		  "+ 46.2 us unexplained" },
		{ 100000, JS_CAUSE_TIMER,
		  "324.0 us at 2.00 s: local timer IRQ (10.8 us) + hypervisor steal (100.0 us) "
		  "+ 213.2 us unexplained" },
	};
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rec_init(&r, at, 324000);
		assert_int_equal(corr_attribute(&r.gap, ev, 1, NULL, &r.attr), 0);
		r.attr.steal_ns = cases[i].steal;
		corr_finish(&r.attr, r.gap.dur_ns);
		assert_int_equal(r.attr.primary, cases[i].primary);
		story_format(buf, sizeof(buf), &r, RUN0);
		assert_string_equal(buf, cases[i].story);
	}
}

/* an SMI-attributed gap */
static void test_smi(void **state)
{
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	rec_init(&r, 500000000ull, 30000);
	corr_finish(&r.attr, r.gap.dur_ns);
	assert_int_equal(corr_smi_allocate(&r, 1, 1), 0);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "30.0 us at 500.0 ms: SMI x1 (30.0 us, no guest event)");
}

/* many parts: primary + 3 named, the rest summed; steal and SMI after the events */
static void test_many_parts(void **state)
{
	struct js_gap_rec r;
	char buf[512];

	(void)state;
	rec_init(&r, 61000000000ull, 100000);
	fx_part(&r, JS_CAUSE_IRQ, "virtio1-req.0:36", 1, 30000);
	fx_part(&r, JS_CAUSE_SOFTIRQ, "NET_RX", 1, 20000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 10000);
	fx_part(&r, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler", 1, 5000);
	fx_part(&r, JS_CAUSE_IPI, "call_function_single from perf:88", 1, 3000);
	fx_part(&r, JS_CAUSE_NMI, "nmi perf_event_nmi_handler", 1, 1000);
	fx_part(&r, JS_CAUSE_TLB, "remote_shootdown (sampler)", 3, 0);
	r.attr.steal_ns = 2000;
	r.attr.smi = 1;
	fx_primary(&r, JS_CAUSE_IRQ, "virtio1-req.0:36");
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "100.0 us at 61.00 s: IRQ virtio1-req.0:36 (30.0 us) "
				 "+ NET_RX softirq (20.0 us) + local timer IRQ (10.0 us) "
				 "+ hrtimer tick_nohz_handler "
				 "(5.0 us) + 3 more (4.0 us) + hypervisor steal (2.0 us) + SMI x1 "
				 "+ 29.0 us unexplained");
}

/* a folded part counts for its sources in "N more", or reads "N other sources" when shown */
static void test_folded_part(void **state)
{
	struct js_gap_rec r;
	char buf[512];

	(void)state;
	rec_init(&r, 2000000000ull, 100000);
	fx_part(&r, JS_CAUSE_TASK, "head:500", 1, 60000);
	fx_part(&r, JS_CAUSE_IRQ, "virtio1-req.0:36", 1, 20000);
	fx_part(&r, JS_CAUSE_SOFTIRQ, "NET_RX", 1, 10000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 5000);
	fx_part(&r, JS_CAUSE_IRQ, "(other: 6 sources)", 9, 4000);
	fx_part(&r, JS_CAUSE_FAULT, "fault user jitterscope:42 @0x1000 (sampler)", 1, 0);
	fx_primary(&r, JS_CAUSE_TASK, "head:500");
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "100.0 us at 2.00 s: preempted by head:500 (60.0 us) "
				 "+ IRQ virtio1-req.0:36 (20.0 us) + NET_RX softirq (10.0 us) "
				 "+ local timer IRQ (5.0 us) + 7 more (4.0 us) "
				 "+ 1.0 us unexplained");
	r.attr.nparts = 3; /* the fold among the terms shown */
	fx_part(&r, JS_CAUSE_IRQ, "(other: 6 sources)", 9, 4000);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_non_null(strstr(buf, " + 6 other sources x9 (4.0 us) + "));
}

/* point events show a count and no time; a task that is not primary reads as itself */
static void test_points(void **state)
{
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	rec_init(&r, 3000, 200000);
	fx_part(&r, JS_CAUSE_TASK, "jsinject:77", 1, 150000);
	fx_part(&r, JS_CAUSE_FAULT, "fault user jsinject:77", 64, 0);
	fx_part(&r, JS_CAUSE_TLB, "remote_shootdown (sampler)", 1, 0);
	fx_primary(&r, JS_CAUSE_TASK, "jsinject:77");
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "200.0 us at 3.0 us: preempted by jsinject:77 (150.0 us) "
				 "+ fault user jsinject:77 x64 "
				 "+ TLB flush remote_shootdown (sampler) + 50.0 us unexplained");
	/* fully explained: no unexplained term */
	rec_init(&r, 0, 14000000);
	fx_part(&r, JS_CAUSE_IDLE, "idle", 1, 14000000);
	fx_primary(&r, JS_CAUSE_IDLE, "idle");
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "14.0 ms at 0 ns: sampler off CPU, CPU idle (14.0 ms)");
}

/* truncation follows snprintf: the full length is returned, the text is cut and terminated */
static void test_truncation(void **state)
{
	struct js_gap_rec r;
	char buf[16], full[256];
	int n;

	(void)state;
	rec_init(&r, 1000000000ull, 40000);
	corr_finish(&r.attr, r.gap.dur_ns);
	n = story_format(full, sizeof(full), &r, RUN0);
	assert_int_equal(story_format(buf, sizeof(buf), &r, RUN0), n);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	assert_memory_equal(buf, full, sizeof(buf) - 1);
	assert_int_equal(story_format(NULL, 0, &r, RUN0), n);
	assert_int_equal(story_format(buf, sizeof(buf), NULL, RUN0), -EINVAL);
	assert_int_equal(story_format(NULL, 5, &r, RUN0), -EINVAL);
}

/* the multi-line breakdown */
static void test_detail(void **state)
{
	struct js_gap_rec r;
	char buf[2048];
	int n;

	(void)state;
	rec_init(&r, 12310456789ull, 48200);
	fx_part(&r, JS_CAUSE_TASK, "kworker/3:1:77", 1, 41000);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 3100);
	r.attr.steal_ns = 1000;
	r.attr.smi = 1;
	r.attr.nevents = 2;
	fx_primary(&r, JS_CAUSE_TASK, "kworker/3:1:77");
	n = story_format_detail(buf, sizeof(buf), &r, RUN0, "    ");
	assert_string_equal(
		buf,
		"    gap of 48.2 us at t+12.310456789 s on CPU 1: primary task kworker/3:1:77, "
		"2 events, covered 44.1 us (91.5 %)\n      task        "
		"kworker/3:1:77                                   x1    41.0 us  85.1 %\n"
		"      timer       "
		"local_timer                                      x1     3.1 us   6.4 %\n"
		"      steal       "
		"paravirt steal clock                                    1.0 us   2.1 %\n"
		"      smi         SMI counter +1 during this gap\n      unexplained "
		"outside event windows                                   3.1 us   6.4 %\n");
	assert_int_equal(n, (int)strlen(buf));
}

/* an interruption's entry/exit (js_entry.h): beside its net time, and a line of its own */
static void test_entry(void **state)
{
	struct js_gap_rec r;
	char buf[2048];

	(void)state;
	rec_init(&r, 2000000000ull, 30000);
	fx_part(&r, JS_CAUSE_IPI, "call_function_single", 1, 1500);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 5000);
	fx_part(&r, JS_CAUSE_SOFTIRQ, "RCU", 1, 2000);
	r.attr.parts[0].entry_ns = 6200;
	r.attr.parts[1].entry_ns = 9000;
	r.attr.entry_ns = 15200;
	fx_primary(&r, JS_CAUSE_IPI, "call_function_single");
	assert_int_equal(r.attr.unexplained_ns, 30000 - 8500 - 15200);
	story_format(buf, sizeof(buf), &r, RUN0);
	assert_string_equal(buf, "30.0 us at 2.00 s: IPI call_function_single (1.5 us + 6.2 us "
				 "entry/exit) + local timer IRQ (5.0 us + 9.0 us entry/exit) + RCU "
				 "softirq (2.0 us) + 6.3 us unexplained");
	r.attr.nevents = 3;
	story_format_detail(buf, sizeof(buf), &r, RUN0, NULL);
	assert_string_equal(
		buf,
		"gap of 30.0 us at t+2.000000000 s on CPU 1: primary ipi call_function_single, "
		"3 events, covered 8.5 us (28.3 %)\n"
		"  ipi         call_function_single                             x1     1.5 us   5.0 %\n"
		"  ipi         call_function_single entry/exit                         6.2 us  20.7 %\n"
		"  timer       local_timer                                      x1     5.0 us  16.7 %\n"
		"  timer       local_timer entry/exit                                  9.0 us  30.0 %\n"
		"  softirq     RCU                                              x1     2.0 us   6.7 %\n"
		"  unexplained outside event windows                                   6.3 us  21.0 %\n");
}

/* a kernel thread that runs interrupt work, from its recorded events: preempted by the
 * thread, told as the work it carries, its softirq's time inside its own */
static void test_interrupt_threads(void **state)
{
	struct js_event ev[8];
	struct js_gap_rec r;
	char buf[256];

	(void)state;
	for (size_t i = 0; i < fx_nthread_seqs; i++) {
		const struct fx_thread_seq *q = &fx_thread_seqs[i];
		size_t n = fx_thread_events(q, RUN0 + 1000000000ull, 1, ev);

		print_message("%s\n", q->what);
		rec_init(&r, 1000000000ull, q->gap_ns);
		assert_int_equal(corr_attribute(&r.gap, ev, n, NULL, &r.attr), 0);
		story_format(buf, sizeof(buf), &r, RUN0);
		assert_string_equal(buf, q->story);
	}
	story_format_brief(buf, sizeof(buf), RUN0 + 5000, 30000, JS_CAUSE_IRQ,
			   "irq/36-virtio1-:123", RUN0);
	assert_string_equal(buf, "30.0 us at 5.0 us: preempted by IRQ thread irq/36-virtio1-:123");
}

/* every class has a readable label */
static void test_labels(void **state)
{
	char b[128];

	(void)state;
	story_part_label(b, sizeof(b), JS_CAUSE_SOFTIRQ, "NET_RX");
	assert_string_equal(b, "NET_RX softirq");
	story_part_label(b, sizeof(b), JS_CAUSE_IPI, "reschedule from bash:12");
	assert_string_equal(b, "IPI reschedule from bash:12");
	story_part_label(b, sizeof(b), JS_CAUSE_VECTOR, "thermal_apic");
	assert_string_equal(b, "thermal_apic vector");
	story_part_label(b, sizeof(b), JS_CAUSE_NMI, "nmi perf_event_nmi_handler");
	assert_string_equal(b, "NMI perf_event_nmi_handler");
	story_part_label(b, sizeof(b), JS_CAUSE_NMI, "nmi");
	assert_string_equal(b, "NMI");
	story_part_label(b, sizeof(b), JS_CAUSE_WORK, "vmstat_update");
	assert_string_equal(b, "work vmstat_update");
	story_part_label(b, sizeof(b), JS_CAUSE_THP, "THP collapse");
	assert_string_equal(b, "THP collapse");
	story_part_label(b, sizeof(b), JS_CAUSE_MM, "compaction");
	assert_string_equal(b, "compaction");
	story_part_label(b, sizeof(b), JS_CAUSE_TLB, "(other: 5 sources)");
	assert_string_equal(b, "5 other sources");
	story_part_label(b, sizeof(b), JS_CAUSE_IRQ, "(other: 1 sources)");
	assert_string_equal(b, "1 other source");
	story_part_label(b, sizeof(b), JS_CAUSE_IRQ, "(others)"); /* not a fold */
	assert_string_equal(b, "IRQ (others)");
	story_part_label(b, sizeof(b), JS_CAUSE_IRQ, "(other)"); /* the cause table's row */
	assert_string_equal(b, "IRQ (other)");
	story_part_label(b, sizeof(b), JS_CAUSE_IRQ, "(other: many sources)");
	assert_string_equal(b, "other irq");
	/* kernel threads that run interrupt work; a task of that name stays a task */
	story_part_label(b, sizeof(b), JS_CAUSE_IRQ, "irq/36-virtio1-:123");
	assert_string_equal(b, "IRQ thread irq/36-virtio1-:123");
	story_part_label(b, sizeof(b), JS_CAUSE_TIMER, "ktimers/1:20");
	assert_string_equal(b, "timer thread ktimers/1:20");
	story_part_label(b, sizeof(b), JS_CAUSE_SOFTIRQ, "rcuc/1:19 RCU");
	assert_string_equal(b, "softirq thread rcuc/1:19 RCU");
	story_part_label(b, sizeof(b), JS_CAUSE_TASK, "ksoftirqd/1:22");
	assert_string_equal(b, "ksoftirqd/1:22");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preempted),
		cmocka_unit_test(test_kworker_folded),
		cmocka_unit_test(test_folded_part),
		cmocka_unit_test(test_unexplained_steal),
		cmocka_unit_test(test_steal_with_events),
		cmocka_unit_test(test_smi),
		cmocka_unit_test(test_host_classes),
		cmocka_unit_test(test_many_parts),
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_detail),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_interrupt_threads),
	};

	return cmocka_run_group_tests_name("story", tests, NULL, NULL);
}
