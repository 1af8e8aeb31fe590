// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_stacks.c - --stacks: a frame named, a stack symbolised without the probe's own frames,
 * the run's table, which gaps get their stacks, the stack a gap's attribution takes, and
 * the story and JSON that print them (js_stacks.h, js_story.h, js_json_gap.h). */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_correlate.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_ksyms.h"
#include "js_result.h"
#include "js_stacks.h"
#include "js_story.h"

#define CPU 1
#define T0 1000000000ull

/* ksyms_of - a symbol table from kallsyms-format text */
static struct js_ksyms *ksyms_of(const char *text)
{
	char path[] = "/tmp/test_stacks_XXXXXX";
	struct js_ksyms *ks = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(ksyms_load_file(&ks, path), 0);
	unlink(path);
	return ks;
}

static const char *const KALLSYMS = "ffffffff81000000 T bpf_trace_run2\n"
				    "ffffffff81000100 T __bpf_trace_sched_waking\n"
				    "ffffffff81000200 T try_to_wake_up\n"
				    "ffffffff81000400 T __wake_up_common\n"
				    "ffffffff81000600 T pipe_write\n"
				    "ffffffff81000800 T bpf_map_lookup\n"
				    "ffffffff81000a00 T vfs_write\n";

/** A frame is "symbol+0xoff"; an address no symbol covers is hex. */
static void test_frame(void **state)
{
	struct js_ksyms *ks = ksyms_of(KALLSYMS);
	char buf[JS_FRAME_LEN];

	(void)state;
	js_stack_frame(buf, sizeof(buf), ks, 0xffffffff810006a1ull);
	assert_string_equal(buf, "pipe_write+0xa1");
	js_stack_frame(buf, sizeof(buf), ks, 0xffffffff81000200ull);
	assert_string_equal(buf, "try_to_wake_up+0x0");
	js_stack_frame(buf, sizeof(buf), ks, 0x1000);
	assert_string_equal(buf, "0x1000");
	js_stack_frame(buf, sizeof(buf), NULL, 0xffffffff81000200ull);
	assert_string_equal(buf, "0xffffffff81000200");
	ksyms_free(ks);
}

/** The probe's own frames at the top are left out; the same names lower down are kept. */
static void test_symbolise(void **state)
{
	struct js_ksyms *ks = ksyms_of(KALLSYMS);
	const uint64_t ips[] = { 0xffffffff81000010ull, 0xffffffff81000110ull,
				 0xffffffff810002b6ull, 0xffffffff81000472ull,
				 0xffffffff810006a1ull, 0xffffffff81000810ull,
				 0xffffffff81000a30ull };
	uint64_t many[JS_STACK_FRAMES + 8];
	struct js_stack st;

	(void)state;
	js_stack_symbolise(&st, ks, ips, 7);
	assert_int_equal(st.n, 5);
	assert_string_equal(st.frame[0], "try_to_wake_up+0xb6");
	assert_string_equal(st.frame[1], "__wake_up_common+0x72");
	assert_string_equal(st.frame[2], "pipe_write+0xa1");
	assert_string_equal(st.frame[3], "bpf_map_lookup+0x10"); /* not at the top: kept */
	assert_string_equal(st.frame[4], "vfs_write+0x30");
	/* only the probe's frames: none left */
	js_stack_symbolise(&st, ks, ips, 2);
	assert_int_equal(st.n, 0);
	/* at most JS_STACK_FRAMES, the innermost */
	for (size_t i = 0; i < JS_STACK_FRAMES + 8; i++)
		many[i] = 0xffffffff81000600ull + i;
	js_stack_symbolise(&st, ks, many, JS_STACK_FRAMES + 8);
	assert_int_equal(st.n, JS_STACK_FRAMES);
	assert_string_equal(st.frame[0], "pipe_write+0x0");
	assert_string_equal(st.frame[JS_STACK_FRAMES - 1], "pipe_write+0x1f");
	ksyms_free(ks);
}

/* stack_of - a stack of n frames "fN+0x1" */
static struct js_stack stack_of(uint32_t key, uint32_t n, int tag)
{
	struct js_stack st = { .key = key, .n = n };

	for (uint32_t i = 0; i < n; i++)
		snprintf(st.frame[i], JS_FRAME_LEN, "f%d_%u+0x1", tag, i);
	return st;
}

/** The table: refs are index + 1, found by the probes' id, interned by frames, bounded. */
static void test_table(void **state)
{
	struct js_stacks t = { 0 };
	struct js_stack a = stack_of(7, 3, 1), b = stack_of(9, 3, 2), c;

	(void)state;
	assert_null(js_stacks_get(&t, 1));
	assert_int_equal(js_stacks_find(&t, 7), 0);
	assert_int_equal(js_stacks_add(&t, &a), 1);
	assert_int_equal(js_stacks_add(&t, &b), 2);
	assert_int_equal(js_stacks_find(&t, 9), 2);
	assert_int_equal(js_stacks_find(&t, 7), 1);
	assert_int_equal(js_stacks_find(&t, 0), 0); /* 0: no stack, never found */
	assert_string_equal(js_stacks_get(&t, 2)->frame[0], "f2_0+0x1");
	assert_null(js_stacks_get(&t, 0));
	assert_null(js_stacks_get(&t, 3));
	/* interned: the same frames (a saved run's key 0) give the same ref */
	c = stack_of(0, 3, 2);
	assert_int_equal(js_stacks_intern(&t, &c), 2);
	c.n = 2; /* a prefix is another stack */
	assert_int_equal(js_stacks_intern(&t, &c), 3);
	/* bounded: past JS_STACKS_KEPT, not kept, counted */
	while (t.n < JS_STACKS_KEPT)
		assert_int_not_equal(js_stacks_add(&t, &a), 0);
	assert_int_equal(js_stacks_add(&t, &a), 0);
	assert_int_equal(t.dropped, 1);
	js_stacks_free(&t);
	assert_int_equal(t.n, 0);
	js_stacks_free(NULL);
}

/** Which gaps get their stacks: while the worst list has room, those longer than its
 * shortest once full (not an equal one: topn_offer's rule), and every spike. */
static void test_wanted(void **state)
{
	struct js_topn top;
	struct js_gap_rec g;

	(void)state;
	assert_int_equal(result_top_init(&top, 2), 0);
	fx_rec(&g, CPU, T0, 1000);
	assert_true(js_stacks_wanted(&top, &g, 0));
	topn_offer(&top, &g);
	fx_rec(&g, CPU, T0, 3000);
	assert_true(js_stacks_wanted(&top, &g, 0));
	topn_offer(&top, &g); /* full: 1000, 3000 */
	fx_rec(&g, CPU, T0, 1000);
	assert_false(js_stacks_wanted(&top, &g, 0));	/* equal to the shortest */
	assert_false(js_stacks_wanted(&top, &g, 2000)); /* below the spike threshold */
	assert_true(js_stacks_wanted(&top, &g, 1000));	/* a spike: at the threshold */
	fx_rec(&g, CPU, T0, 1001);
	assert_true(js_stacks_wanted(&top, &g, 0));
	assert_false(js_stacks_wanted(NULL, &g, 0));
	assert_true(js_stacks_wanted(NULL, &g, 500));
	topn_free(&top);
}

/** The attribution takes the stack of the primary task's longest run that has one, and the
 * waker's from the run that carries the waker. */
static void test_attributed(void **state)
{
	struct js_event ev[3] = {
		fx_event(JS_EV_TASK, T0, T0 + 1000, CPU, 812, "reader"),
		fx_event(JS_EV_TASK, T0 + 1000, T0 + 1500, CPU, 900, "other"),
		fx_event(JS_EV_TASK, T0 + 1500, T0 + 5000, CPU, 812, "reader"),
	};
	struct js_gap g = { .start_ns = T0, .dur_ns = 5000, .cpu = CPU };
	struct js_attr a;

	(void)state;
	ev[0].task.stack = 5;
	ev[0].flags |= JS_F_WAKE;
	ev[0].wake.ctx = JS_WAKE_TASK;
	ev[0].wake.pid = 811;
	ev[0].wake.stack = 9;
	snprintf(ev[0].wake.comm, sizeof(ev[0].wake.comm), "writer");
	ev[1].task.stack = 6;
	ev[2].task.stack = 7; /* the longest run: its stack */
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	assert_string_equal(a.detail, "reader:812");
	assert_int_equal(a.stack, 7);
	assert_int_equal(a.waker.stack, 9);
	ev[2].task.stack = 0; /* the longest has none: the other run's */
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	assert_int_equal(a.stack, 5);
	ev[0].task.stack = 0; /* none of the reader's: not the other task's */
	ev[0].wake.stack = 0;
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	assert_int_equal(a.stack, 0);
	assert_int_equal(a.waker.stack, 0);
}

/** The story prints them under a heading each, the JSON as arrays; none: nothing. */
static void test_outputs(void **state)
{
	struct js_stacks t = { 0 };
	struct js_stack pre = stack_of(3, 2, 1), wk = stack_of(4, 1, 2);
	char buf[STORY_STACKS_LEN], *out = NULL;
	struct js_gap_rec r;
	struct js_json j;
	size_t len = 0;
	FILE *fp;

	(void)state;
	fx_rec(&r, CPU, T0, 4000000);
	fx_part(&r, JS_CAUSE_TASK, "reader:812", 1, 4000000);
	r.attr.primary = JS_CAUSE_TASK;
	snprintf(r.attr.detail, sizeof(r.attr.detail), "reader:812");
	r.attr.waker = (struct js_waker){
		.pid = 811, .syscall = -1, .ctx = JS_WAKE_TASK, .comm = "writer"
	};
	r.attr.stack = js_stacks_add(&t, &pre);
	r.attr.waker.stack = js_stacks_add(&t, &wk);
	assert_true(story_format_stacks(buf, sizeof(buf), &r, &t, "  ") > 0);
	assert_string_equal(buf, "  stack of reader:812 where it left the CPU:\n"
				 "    f1_0+0x1\n"
				 "    f1_1+0x1\n"
				 "  stack of its waker writer:811 at the wake-up:\n"
				 "    f2_0+0x1\n");
	fp = open_memstream(&out, &len);
	assert_non_null(fp);
	json_init(&j, fp);
	j.pretty = false;
	json_obj_begin(&j, NULL);
	js_attr_write_json_stacks(&j, &r.attr, NULL, &t);
	json_obj_end(&j);
	fclose(fp);
	assert_non_null(strstr(out, "\"text\":\"writer:811 on CPU 0 0 ns into the gap\","
				    "\"stack\":[\"f2_0+0x1\"]}"));
	assert_non_null(strstr(out, "},\"stack\":[\"f1_0+0x1\",\"f1_1+0x1\"]}"));
	free(out);
	/* without a table (js_attr_write_json) or without refs: no "stack" key, no lines */
	out = NULL;
	fp = open_memstream(&out, &len);
	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	js_attr_write_json(&j, &r.attr, NULL);
	json_obj_end(&j);
	fclose(fp);
	assert_null(strstr(out, "\"stack\""));
	free(out);
	r.attr.stack = r.attr.waker.stack = 0;
	assert_int_equal(story_format_stacks(buf, sizeof(buf), &r, &t, NULL), 0);
	assert_string_equal(buf, "");
	js_stacks_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame),	   cmocka_unit_test(test_symbolise),
		cmocka_unit_test(test_table),	   cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_attributed), cmocka_unit_test(test_outputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
