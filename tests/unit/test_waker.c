// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_waker.c - who woke a preempting task: taken from its run, attributed to the gap,
 * named and told (js_waker.h), in the story, the CSV and the JSON. */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_correlate.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_out_gaps.h"
#include "js_story.h"
#include "js_waker.h"

#define CPU 1
#define T0 1000000000ull

/* task_run - a run of pid on CPU over [s, e], woken lead ns before s by who (NULL: none) */
static struct js_event task_run(uint64_t s, uint64_t e, uint32_t pid, const char *comm,
				const char *who, uint32_t who_pid, uint8_t ctx, uint32_t lead)
{
	struct js_event ev = fx_event(JS_EV_TASK, s, e, CPU, pid, comm);

	if (!who)
		return ev;
	ev.flags |= JS_F_WAKE;
	snprintf(ev.wake.comm, sizeof(ev.wake.comm), "%s", who);
	ev.wake.pid = who_pid;
	ev.wake.cpu = 0;
	ev.wake.ctx = ctx;
	ev.wake.lead_ns = lead;
	ev.wake.syscall = ctx == JS_WAKE_TASK ? SYS_write : JS_WAKE_NOSYS;
	return ev;
}

/** The waker of a run: its time against the gap, its syscall; none without JS_F_WAKE. */
static void test_from_event(void **state)
{
	struct js_event e =
		task_run(T0 + 500, T0 + 4000, 812, "reader", "writer", 811, JS_WAKE_TASK, 3000);
	struct js_waker w;

	(void)state;
	assert_true(js_waker_from_event(&e, T0, &w));
	assert_int_equal(w.at_ns, -2500); /* woken at T0 - 2500: before the gap */
	assert_int_equal(w.pid, 811);
	assert_int_equal(w.cpu, 0);
	assert_int_equal(w.ctx, JS_WAKE_TASK);
	assert_int_equal(w.syscall, SYS_write);
	assert_string_equal(w.comm, "writer");
	assert_true(js_waker_from_event(&e, T0 - 3000, &w));
	assert_int_equal(w.at_ns, 500); /* after the gap began */
	e.wake.syscall = JS_WAKE_NOSYS;
	assert_true(js_waker_from_event(&e, T0, &w));
	assert_int_equal(w.syscall, -1);
	/* a lead longer than the clock saturates at the clock's start */
	e.wake.lead_ns = JS_WAKE_LEAD_MAX;
	e.start_ns = 100;
	assert_true(js_waker_from_event(&e, 100, &w));
	assert_int_equal(w.at_ns, -100);
	e.flags &= ~JS_F_WAKE;
	assert_false(js_waker_from_event(&e, T0, &w));
	assert_int_equal(w.ctx, JS_WAKE_NONE);
	e = task_run(T0, T0 + 1, 7, "x", "y", 8, JS_WAKE_TASK, 1);
	e.kind = JS_EV_IDLE;
	assert_false(js_waker_from_event(&e, T0, &w));
}

/** The waker told: a task with its syscall, an unnamed syscall, interrupt contexts. */
static void test_format(void **state)
{
	struct js_waker w = { .at_ns = -3000,
			      .pid = 811,
			      .syscall = SYS_write,
			      .cpu = 0,
			      .ctx = JS_WAKE_TASK,
			      .comm = "writer" };
	char buf[128];

	(void)state;
	assert_int_equal(js_waker_format(buf, sizeof(buf), &w), 43);
	assert_string_equal(buf, "writer:811 on CPU 0 via write 3.0 us before");
	w.syscall = 4000;
	js_waker_format(buf, sizeof(buf), &w);
	assert_string_equal(buf, "writer:811 on CPU 0 via syscall 4000 3.0 us before");
	w.syscall = -1;
	js_waker_format(buf, sizeof(buf), &w);
	assert_string_equal(buf, "writer:811 on CPU 0 3.0 us before");
	w.ctx = JS_WAKE_TIMER;
	w.cpu = 1;
	w.at_ns = 2100;
	w.syscall = SYS_write; /* an interrupt's: never told */
	js_waker_format(buf, sizeof(buf), &w);
	assert_string_equal(buf, "timer on CPU 1 2.1 us into the gap");
	w.ctx = JS_WAKE_HARDIRQ;
	js_waker_who(buf, sizeof(buf), &w);
	assert_string_equal(buf, "hard IRQ");
	w.ctx = JS_WAKE_UNKNOWN;
	js_waker_who(buf, sizeof(buf), &w);
	assert_string_equal(buf, "writer:811");
	w.ctx = JS_WAKE_NONE;
	assert_int_equal(js_waker_format(buf, sizeof(buf), &w), 0);
	assert_string_equal(buf, "");
}

/** Every context's name reads back; unknown names and NONE do not. */
static void test_names(void **state)
{
	(void)state;
	for (int c = JS_WAKE_NONE + 1; c < JS_WAKE_CTX_MAX; c++)
		assert_int_equal(js_wake_ctx_from_name(js_wake_ctx_name((uint32_t)c)), c);
	assert_string_equal(js_wake_ctx_name(JS_WAKE_TIMER), "timer");
	assert_string_equal(js_wake_ctx_name(JS_WAKE_NONE), "");
	assert_string_equal(js_wake_ctx_name(99), "");
	assert_int_equal(js_wake_ctx_from_name(""), -1);
	assert_int_equal(js_wake_ctx_from_name("bogus"), -1);
	assert_string_equal(js_syscall_name(SYS_futex), "futex");
	assert_int_equal(js_syscall_from_name("write"), SYS_write);
	assert_null(js_syscall_name(-1));
	assert_int_equal(js_syscall_from_name("no_such_call"), -1);
}

/** The gap's waker is its primary task's: the longest of its runs that carries one. */
static void test_attributed(void **state)
{
	struct js_event ev[] = {
		/* the reader's first run, woken by the writer 3 us before the gap */
		task_run(T0, T0 + 1000, 812, "reader", "writer", 811, JS_WAKE_TASK, 3000),
		/* another task, woken by a timer */
		task_run(T0 + 1000, T0 + 1500, 900, "other", "swapper/1", 0, JS_WAKE_TIMER, 100),
		/* the reader again, longer, woken by a softirq */
		task_run(T0 + 1500, T0 + 4000, 812, "reader", "ksoftirqd/0", 15, JS_WAKE_SOFTIRQ,
			 200),
		/* the reader once more, longest, switched back in without a wake-up */
		task_run(T0 + 4000, T0 + 9000, 812, "reader", NULL, 0, 0, 0),
	};
	struct js_gap g = { .start_ns = T0, .dur_ns = 9000, .cpu = CPU };
	struct js_attr a;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 4, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "reader:812");
	assert_int_equal(a.waker.ctx, JS_WAKE_SOFTIRQ);
	assert_string_equal(a.waker.comm, "ksoftirqd/0");
	assert_int_equal(a.waker.at_ns, 1300); /* woken at T0 + 1300 */
	/* without the softirq's run, the writer's */
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_int_equal(a.waker.ctx, JS_WAKE_TASK);
	assert_int_equal(a.waker.pid, 811);
	assert_int_equal(a.waker.at_ns, -3000);
	/* a gap whose primary is not a task has no waker, even when a task in it has one */
	ev[0].end_ns = T0 + 10;
	ev[1] = fx_event(JS_EV_IRQ, T0 + 10, T0 + 900, CPU, 36, "virtio1-req.0");
	g.dur_ns = 900;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_IRQ);
	assert_int_equal(a.waker.ctx, JS_WAKE_NONE);
	/* no event at all */
	assert_int_equal(corr_attribute(&g, ev, 0, NULL, &a), 0);
	assert_int_equal(a.waker.ctx, JS_WAKE_NONE);
}

/* waker_rec - a gap preempted by reader:812, woken by writer:811 3 us before */
static void waker_rec(struct js_gap_rec *r)
{
	fx_rec(r, CPU, T0, 4000000);
	fx_part(r, JS_CAUSE_TASK, "reader:812", 1, 4000000);
	r->attr.primary = JS_CAUSE_TASK;
	snprintf(r->attr.detail, sizeof(r->attr.detail), "reader:812");
	r->attr.waker = (struct js_waker){ .at_ns = -3000,
					   .pid = 811,
					   .syscall = SYS_write,
					   .cpu = 0,
					   .ctx = JS_WAKE_TASK,
					   .comm = "writer" };
}

/* attr_json - the attribution's JSON object, one line (to free) */
static char *attr_json(const struct js_attr *a)
{
	struct js_json j;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	assert_non_null(fp);
	json_init(&j, fp);
	j.pretty = false;
	json_obj_begin(&j, NULL);
	js_attr_write_json(&j, a, NULL);
	json_obj_end(&j);
	fclose(fp);
	return out;
}

/** The story, the CSV row and the JSON carry it. */
static void test_outputs(void **state)
{
	struct js_gap_rec r;
	char buf[512], *out = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	waker_rec(&r);
	story_format(buf, sizeof(buf), &r, T0);
	assert_string_equal(buf, "4.0 ms at 0 ns: preempted by reader:812 (4.0 ms), woken by "
				 "writer:811 on CPU 0 via write 3.0 us before");
	fp = open_memstream(&out, &len);
	assert_non_null(fp);
	csv_write_gap(fp, &r);
	fclose(fp);
	assert_non_null(strstr(out, ",sampler,,,,,writer:811 on CPU 0 via write 3.0 us before\n"));
	free(out);
	out = attr_json(&r.attr);
	assert_non_null(strstr(out, "\"waker\""));
	assert_non_null(strstr(out, "\"context\":\"task\""));
	assert_non_null(strstr(out, "\"syscall\":\"write\""));
	assert_non_null(strstr(out, "\"at_ns\":-3000"));
	free(out);
	/* none: null, an empty CSV field, no words in the story */
	memset(&r.attr.waker, 0, sizeof(r.attr.waker));
	story_format(buf, sizeof(buf), &r, T0);
	assert_null(strstr(buf, "woken"));
	out = attr_json(&r.attr);
	assert_non_null(strstr(out, "\"waker\":null"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_event), cmocka_unit_test(test_format),
		cmocka_unit_test(test_names),	   cmocka_unit_test(test_attributed),
		cmocka_unit_test(test_outputs),
	};

	return cmocka_run_group_tests_name("waker", tests, NULL, NULL);
}
