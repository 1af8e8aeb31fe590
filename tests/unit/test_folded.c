// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_folded.c - --folded (folded.c): recorded gaps of a sampler and of a followed thread
 * folded into lines, each class's weights adding up to its time lost in the cause table, the
 * worst gaps' kernel stacks (the preempting task's, else its waker's) taken out of their
 * source's line, and ';' and blanks in names made ':' and '_'.
 */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_causes.h"
#include "js_folded.h"
#include "js_result.h"
#include "js_stacks.h"

struct fx {
	struct js_run run;
	struct js_cpu_result cpus[2];
};

/* stack_of - a table entry of frames (innermost first, NULL-terminated); its ref */
static uint32_t stack_of(struct js_run *run, const char *const *frames)
{
	struct js_stack st = { 0 };

	for (; *frames; frames++)
		snprintf(st.frame[st.n++], JS_FRAME_LEN, "%s", *frames);
	return js_stacks_add(&run->stacks, &st);
}

static int setup(void **state)
{
	static const char *const sleeper[] = { "schedule+0x3a", "do_nanosleep+0x10",
					       "hrtimer_nanosleep+0x99", NULL };
	static const char *const writer[] = { "try_to_wake_up+0x1f", "pipe_write+0x3a1",
					      "vfs_write+0x8", NULL };
	struct fx *f = calloc(1, sizeof(*f));
	struct js_cpu_result *t;
	struct js_gap_rec g;

	if (!f || fx_run(&f->run, f->cpus, 2, 1000000000, 5000000000))
		return -1;
	/* CPU 1: a preemption with an IRQ inside it (its entry/exit too) and unexplained time */
	fx_rec(&g, 1, 2000000000, 10000);
	fx_part(&g, JS_CAUSE_TASK, "jsinject:812", 1, 8000);
	fx_part(&g, JS_CAUSE_IRQ, "virtio1-req.0:36", 1, 1000);
	g.attr.parts[1].entry_ns = 400;
	g.attr.entry_ns = 400;
	fx_primary(&g, JS_CAUSE_TASK, "jsinject:812");
	result_add_gap(&f->cpus[0], &g);
	/* ... the same task again, with its stack where it left the CPU, and steal */
	fx_rec(&g, 1, 2100000000, 20000);
	fx_part(&g, JS_CAUSE_TASK, "jsinject:812", 1, 15000);
	g.attr.steal_ns = 5000;
	g.attr.stack = stack_of(&f->run, sleeper);
	fx_primary(&g, JS_CAUSE_TASK, "jsinject:812");
	result_add_gap(&f->cpus[0], &g);
	/* ... a task named with ';' and a blank, with only its waker's stack */
	fx_rec(&g, 1, 2200000000, 6000);
	fx_part(&g, JS_CAUSE_TASK, "my;task:77", 1, 6000);
	g.attr.waker.ctx = JS_WAKE_TASK;
	g.attr.waker.pid = 811;
	snprintf(g.attr.waker.comm, sizeof(g.attr.waker.comm), "jswriter");
	g.attr.waker.stack = stack_of(&f->run, writer);
	fx_primary(&g, JS_CAUSE_TASK, "my;task:77");
	result_add_gap(&f->cpus[0], &g);
	/* ... and a gap no event explains */
	fx_rec(&g, 1, 2300000000, 3000);
	fx_primary(&g, JS_CAUSE_UNEXPLAINED, "");
	result_add_gap(&f->cpus[0], &g);
	/* a followed thread whose name has a blank and a ';', interrupted */
	t = &f->cpus[1];
	t->source = JS_SRC_THREAD;
	t->tid = 42;
	snprintf(t->name, sizeof(t->name), "my app;x:42");
	fx_rec(&g, 3, 2400000000, 2500);
	g.gap.source = JS_SRC_THREAD;
	fx_part(&g, JS_CAUSE_IRQ, "virtio1-req.0:36", 1, 2500);
	fx_primary(&g, JS_CAUSE_IRQ, "virtio1-req.0:36");
	result_add_gap(t, &g);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	for (int i = 0; i < 2; i++)
		result_cpu_free(&f->cpus[i]);
	js_stacks_free(&f->run.stacks);
	free(f);
	return 0;
}

/* folded - the run's file, in a buffer to free */
static char *folded(const struct js_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(folded_write(fp, run), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void test_lines(void **state)
{
	struct fx *f = *state;
	char *txt = folded(&f->run);

	assert_string_equal(
		txt,
		"cpu1;irq;virtio1-req.0:36 1400\n"
		"cpu1;steal;paravirt_steal_clock 5000\n"
		"cpu1;task;jsinject:812 8000\n"
		"cpu1;task;jsinject:812;hrtimer_nanosleep;do_nanosleep;schedule 15000\n"
		"cpu1;task;my:task:77;[woken_by_jswriter:811];vfs_write;pipe_write;try_to_wake_up "
		"6000\n"
		"cpu1;unexplained;no_guest_event 3000\n"
		"cpu1;unexplained;outside_event_windows 600\n"
		"my_app:x/42;irq;virtio1-req.0:36 2500\n");
	free(txt);
}

/* test_class_sums - each result's lines of a class add up to the class's time lost */
static void test_class_sums(void **state)
{
	struct fx *f = *state;
	char *txt = folded(&f->run), *save = NULL;
	uint64_t sum[2][JS_CAUSE_MAX] = { { 0 } };

	for (char *ln = strtok_r(txt, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
		char *cls = strchr(ln, ';') + 1, *end = strchr(cls, ';');
		int r = strncmp(ln, "cpu1;", 5) ? 1 : 0, c;

		*end = '\0';
		c = js_cause_from_name(cls);
		assert_true(c >= 0);
		sum[r][c] += strtoull(strrchr(end + 1, ' ') + 1, NULL, 10);
	}
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			assert_int_equal(sum[r][c], f->cpus[r].causes.cls[c].total_ns);
	assert_int_equal(sum[0][JS_CAUSE_TASK], 29000);
	free(txt);
}

/* test_no_stacks - without --stacks' table every source is one line of all its time */
static void test_no_stacks(void **state)
{
	struct fx *f = *state;
	struct js_stacks keep = f->run.stacks;
	char *txt;

	memset(&f->run.stacks, 0, sizeof(f->run.stacks));
	txt = folded(&f->run);
	f->run.stacks = keep;
	assert_non_null(strstr(txt, "\ncpu1;task;jsinject:812 23000\n"));
	assert_non_null(strstr(txt, "\ncpu1;task;my:task:77 6000\n"));
	assert_null(strstr(txt, "schedule"));
	free(txt);
}

static void test_frame(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(folded_frame(buf, sizeof(buf), "a;b c\td\n;"), 9);
	assert_string_equal(buf, "a:b_c_d_:");
	assert_int_equal(folded_frame(buf, 4, "kworker/1:2"), 11);
	assert_string_equal(buf, "kwo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_class_sums, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_stacks, setup, teardown),
		cmocka_unit_test(test_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
