// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_out_gaps.c - the --gaps CSV row, byte for byte (docs/JSON.md, "The gaps CSV"). */
#include <linux/types.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_out_gaps.h"
#include "js_model.h"

/* row_of - csv_write_gap's output as a string (caller frees) */
static char *row_of(const struct js_gap_rec *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	csv_write_gap(fp, g);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/** A gap with causes: fields in order, causes joined, numbers exact. */
static void test_row(void **state)
{
	struct js_gap_rec g;
	char *row;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.gap = (struct js_gap){ .start_ns = 18446744073709551615ull, .dur_ns = 48213, .cpu = 3 };
	g.attr.primary = JS_CAUSE_TASK;
	snprintf(g.attr.detail, sizeof(g.attr.detail), "kworker/3:2:123 vmstat_update");
	fx_part(&g, JS_CAUSE_TASK, "kworker/3:2:123 vmstat_update", 1, 41012);
	fx_part(&g, JS_CAUSE_TIMER, "local_timer", 1, 3105);
	fx_part(&g, JS_CAUSE_FAULT, "fault user jitterscope:42 @0x7f0000000000 (sampler)", 1, 0);
	g.attr.steal_ns = 7;
	g.attr.unexplained_ns = 4096;
	row = row_of(&g);
	assert_string_equal(row,
			    "3,18446744073709551615,48213,task,kworker/3:2:123 vmstat_update,"
			    "task:kworker/3:2:123 vmstat_update=41012;timer:local_timer=3105;"
			    "fault:fault user jitterscope:42 @0x7f0000000000 (sampler)=0,7,4096,0,,"
			    "sampler,,,,,\n");
	free(row);
}

/** The header: its bytes, its length, and one name per column of a row. */
static void test_header(void **state)
{
	static const char want[] = "cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,"
				   "unexplained_ns,entry_ns,entry_causes,source,name,kind,"
				   "own_bh,own_bh_ns,waker\n";
	struct js_gap_rec g;
	char *buf = NULL, *row;
	size_t len = 0, n;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	n = csv_write_header(fp);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, want);
	assert_int_equal(n, sizeof(want) - 1);
	memset(&g, 0, sizeof(g));
	row = row_of(&g);
	n = 0;
	for (const char *c = row; *c; c++)
		n += *c == ',';
	for (const char *c = buf; *c; c++)
		n -= *c == ',';
	assert_int_equal(n, 0);
	free(row);
	free(buf);
}

/** No cause: empty detail and causes; quoting only where a field needs it. */
static void test_empty_and_quoting(void **state)
{
	struct js_gap_rec g;
	char *row;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.gap = (struct js_gap){ .start_ns = 1, .dur_ns = 2, .cpu = 0 };
	g.attr.unexplained_ns = 2;
	row = row_of(&g);
	assert_string_equal(row, "0,1,2,unexplained,,,0,2,0,,sampler,,,,,\n");
	free(row);
	/* a comm with a comma and a quote (task names are the tasks' own) */
	g.attr.primary = JS_CAUSE_TASK;
	snprintf(g.attr.detail, sizeof(g.attr.detail), "my,\"app\":7");
	fx_part(&g, JS_CAUSE_TASK, "my,\"app\":7", 1, 2);
	row = row_of(&g);
	assert_string_equal(row,
			    "0,1,2,task,\"my,\"\"app\"\":7\",\"task:my,\"\"app\"\":7=2\",0,2,0,"
			    ",sampler,,,,,\n");
	free(row);
}

/** The interruptions' entry/exit: the gap's total, then each one's, in causes' order. */
static void test_entry(void **state)
{
	struct js_gap_rec g;
	char *row;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.gap = (struct js_gap){ .start_ns = 100, .dur_ns = 40000, .cpu = 1 };
	g.attr.primary = JS_CAUSE_TIMER;
	snprintf(g.attr.detail, sizeof(g.attr.detail), "local_timer");
	fx_part(&g, JS_CAUSE_TIMER, "local_timer", 1, 5000);
	fx_part(&g, JS_CAUSE_SOFTIRQ, "RCU", 1, 3000);
	fx_part(&g, JS_CAUSE_IPI, "reschedule from a,b:7", 1, 1000);
	g.attr.parts[0].entry_ns = 9000;
	g.attr.parts[2].entry_ns = 6000;
	g.attr.entry_ns = 15000;
	g.attr.unexplained_ns = 16000;
	row = row_of(&g);
	assert_string_equal(
		row, "1,100,40000,timer,local_timer,\"timer:local_timer=5000;"
		     "softirq:RCU=3000;ipi:reschedule from a,b:7=1000\",0,16000,15000,"
		     "\"timer:local_timer=9000;ipi:reschedule from a,b:7=6000\",sampler,,,,,\n");
	free(row);
}

/** A thread's row names the thread, what kept it and its own softirqs since its previous
 * gap (own work, not a gap); a mark's keeps its own start, duration and label. */
static void test_sources(void **state)
{
	struct js_gap_rec g;
	char *row;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.gap = (struct js_gap){ .start_ns = 5000,
				 .dur_ns = 300000,
				 .cpu = 1,
				 .source = JS_SRC_THREAD,
				 .kind = JS_GAP_INTERRUPTED,
				 .id = 4242,
				 .own_bh = 12,
				 .own_bh_ns = 34567 };
	g.attr.primary = JS_CAUSE_TASK;
	snprintf(g.attr.detail, sizeof(g.attr.detail), "jsinject:77");
	fx_part(&g, JS_CAUSE_TASK, "jsinject:77", 1, 300000);
	snprintf(g.label, sizeof(g.label), "engine:4242");
	row = row_of(&g);
	assert_string_equal(row, "1,5000,300000,task,jsinject:77,task:jsinject:77=300000,0,0,0,,"
				 "thread,engine:4242,interrupted,12,34567,\n");
	free(row);
	memset(&g, 0, sizeof(g));
	g.gap = (struct js_gap){ .start_ns = 123456789012345ull,
				 .dur_ns = 987654321,
				 .cpu = 2,
				 .source = JS_SRC_MARK,
				 .id = 17 };
	g.attr.unexplained_ns = 987654321;
	snprintf(g.label, sizeof(g.label), "order,book \"L2\"");
	row = row_of(&g);
	assert_string_equal(row, "2,123456789012345,987654321,unexplained,,,0,987654321,0,,mark,"
				 "\"order,book \"\"L2\"\"\",,,,\n");
	free(row);
}

/** Numbers around the powers of ten (0 to UINT64_MAX), against printf's. */
static void test_numbers(void **state)
{
	static const uint64_t v[] = { 0,
				      9,
				      10,
				      99,
				      100,
				      12345,
				      99999999,
				      100000000,
				      100000001,
				      1234567890123ull,
				      9999999999999999ull,
				      10000000000000000ull,
				      10000000000000001ull,
				      18446744073709551615ull };
	struct js_gap_rec g;
	char want[128], *row;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		memset(&g, 0, sizeof(g));
		g.gap = (struct js_gap){ .start_ns = v[i], .dur_ns = v[i], .cpu = 1 };
		g.attr.unexplained_ns = v[i];
		row = row_of(&g);
		snprintf(want, sizeof(want),
			 "1,%" PRIu64 ",%" PRIu64 ",unexplained,,,0,%" PRIu64 ",0,,sampler,,,,,\n",
			 v[i], v[i], v[i]);
		assert_string_equal(row, want);
		free(row);
	}
}

/** JS_PARTS_MAX causes with the longest details fit whole. */
static void test_longest(void **state)
{
	struct js_gap_rec g;
	char detail[JS_DETAIL_LEN], *row, *c;
	size_t n = 0;

	(void)state;
	memset(&g, 0, sizeof(g));
	memset(detail, 'x', sizeof(detail) - 1);
	detail[sizeof(detail) - 1] = '\0';
	memset(g.label, '"', sizeof(g.label) - 1); /* the longest quoted label */
	for (int i = 0; i < JS_PARTS_MAX; i++) {
		fx_part(&g, JS_CAUSE_SOFTIRQ, detail, 1, UINT64_MAX);
		g.attr.parts[i].entry_ns = UINT64_MAX;
	}
	row = row_of(&g);
	for (c = row; (c = strstr(c, "=18446744073709551615")); c++)
		n++;
	assert_int_equal(n, 2 * JS_PARTS_MAX); /* net in causes, entry in entry_causes */
	assert_int_equal(row[strlen(row) - 1], '\n');
	free(row);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_row),
		cmocka_unit_test(test_empty_and_quoting),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_longest),
		cmocka_unit_test(test_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
