// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_marks.c - the application's marks: a line's rules (js_marks.h), the reader that
 * follows a regular file or a FIFO as it grows, and the round trip from the header-only
 * writer (include/jitterscope/mark.h) to the parser.
 */
#include <linux/types.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "jitterscope/mark.h"
#include "js_marks.h"

static int parse(const char *line, struct js_mark *m, char *why)
{
	return marks_parse_line(line, strlen(line), m, why, 80);
}

/** Well-formed lines: numbers exact to 2^64 - 1, spaces around them, the label's rules. */
static void test_parse_good(void **state)
{
	struct js_mark m;
	char why[80];

	(void)state;
	assert_int_equal(parse("100,250", &m, why), 0);
	assert_int_equal(m.start_ns, 100);
	assert_int_equal(m.end_ns, 250);
	assert_string_equal(m.label, "");
	assert_int_equal(parse(" 7 ,\t7 ,order book, L2\r", &m, why), 0);
	assert_int_equal(m.start_ns, 7);
	assert_int_equal(m.end_ns, 7);
	assert_string_equal(m.label, "order book, L2"); /* commas kept, CR dropped */
	assert_int_equal(parse("0,18446744073709551615,", &m, why), 0);
	assert_true(m.end_ns == UINT64_MAX);
	assert_string_equal(m.label, "");
	assert_int_equal(parse("1,2,a\tb\x7f", &m, why), 0);
	assert_string_equal(m.label, "a?b?"); /* control characters shown */
	/* a label cut to JS_LABEL_LEN - 1 bytes */
	assert_int_equal(
		parse("1,2,0123456789012345678901234567890123456789012345678901234", &m, why), 0);
	assert_int_equal(strlen(m.label), JS_LABEL_LEN - 1);
}

/** Lines that are not marks: blank, comments, a header. Malformed ones say why. */
static void test_parse_bad(void **state)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "x,2", "start_ns is not" },
		{ "-1,2", "start_ns is not" },
		{ "1;2", "no comma" },
		{ "1", "no comma" },
		{ "1,", "end_ns is not" },
		{ "1,x", "end_ns is not" },
		{ "5,4", "before start_ns" },
		{ "1,2 3", "followed by something" },
		{ "18446744073709551616,1", "start_ns is not" },
		{ "1,18446744073709551616", "end_ns is not" },
		{ "1.5,2", "no comma" },
		{ "+1,2", "start_ns is not" },
	};
	struct js_mark m;
	char why[80];

	(void)state;
	assert_int_equal(parse("", &m, why), 1);
	assert_int_equal(parse("  \t\r", &m, why), 1);
	assert_int_equal(parse("# start of run", &m, why), 1);
	assert_int_equal(parse("start_ns,end_ns,label", &m, why), 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(parse(bad[i].line, &m, why), -EINVAL);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': '%s', expected '%s'", bad[i].line, why, bad[i].why);
	}
}

struct got {
	uint64_t n[64];
	char line[64][160];
	size_t count;
	size_t longest;
};

static void collect(void *ctx, uint64_t number, const char *line, size_t len)
{
	struct got *g = ctx;

	if (len > g->longest)
		g->longest = len;
	if (g->count < 64) {
		g->n[g->count] = number;
		snprintf(g->line[g->count], sizeof(g->line[0]), "%.*s",
			 (int)(len < 159 ? len : 159), line);
	}
	g->count++;
}

static void append(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
	close(fd);
}

/** A regular file: from its end at open (a partial line skipped), line by line as it grows,
 *  from its start again when it shrinks; a last line without its newline at the end. */
static void test_reader_file(void **state)
{
	char path[] = "/tmp/test_marks.XXXXXX", why[80], *big;
	struct marks_reader r;
	struct got g = { 0 };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1,2,old\n3,4,par", 15), 15);
	close(fd);
	assert_int_equal(marks_reader_open(&r, path, why, sizeof(why)), 0);
	assert_false(r.fifo);
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 0);
	append(path, "tial\n5,6,new\n7,8");
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 1);
	assert_string_equal(g.line[0], "5,6,new");
	assert_int_equal(g.n[0], 1);
	append(path, ",half\n");
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 1);
	assert_string_equal(g.line[1], "7,8,half");
	assert_int_equal(g.n[1], 2);
	/* truncated, then written again: read from the start */
	assert_int_equal(truncate(path, 0), 0);
	append(path, "9,10\n11,12");
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, true, collect, &g), 2);
	assert_int_equal(r.truncated, 1);
	assert_string_equal(g.line[2], "9,10");
	assert_string_equal(g.line[3], "11,12"); /* at the end: no newline needed */
	/* an overlong line: delivered cut once, its rest dropped, the next line read */
	big = malloc(3 * MARKS_LINE_MAX + 8);
	assert_non_null(big);
	memset(big, '7', 3 * MARKS_LINE_MAX);
	strcpy(big + 3 * MARKS_LINE_MAX, "\n1,2\n");
	append(path, big);
	free(big);
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 2);
	assert_int_equal(g.longest, MARKS_LINE_MAX);
	assert_string_equal(g.line[5], "1,2");
	marks_reader_close(&r);
	unlink(path);
	/* neither a file nor a FIFO */
	assert_int_equal(marks_reader_open(&r, "/tmp", why, sizeof(why)), -EINVAL);
	assert_int_equal(marks_reader_open(&r, "/nonexistent/marks", why, sizeof(why)), -ENOENT);
}

/** A FIFO: read-write, so a writer can open it and closing it is no end of file. */
static void test_reader_fifo(void **state)
{
	char path[64], why[80];
	struct marks_reader r;
	struct got g = { 0 };
	int w;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_marks.fifo.%d", (int)getpid());
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(marks_reader_open(&r, path, why, sizeof(why)), 0);
	assert_true(r.fifo);
	w = open(path, O_WRONLY | O_NONBLOCK); /* no ENXIO: the reader holds it */
	assert_true(w >= 0);
	assert_int_equal(write(w, "1,2,a\n3,", 8), 8);
	close(w);
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 1);
	w = open(path, O_WRONLY | O_NONBLOCK);
	assert_int_equal(write(w, "4\n", 2), 2);
	close(w);
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 1);
	assert_string_equal(g.line[1], "3,4");
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, false, collect, &g), 0);
	marks_reader_close(&r);
	unlink(path);
}

/** mark.h's lines are the parser's marks, exactly: numbers, labels (cut, newlines as
 *  spaces), one write each; slow iterations only; a closed marker counts drops. */
static void test_mark_h_round_trip(void **state)
{
	static const char *labels[] = {
		"poll", NULL, "", "a,b\nc",
		"a label longer than forty seven bytes, cut at forty-seven"
	};
	char path[] = "/tmp/test_mark_h.XXXXXX", why[80];
	struct js_marker mk;
	struct marks_reader r;
	struct got g = { 0 };
	struct js_mark m;
	uint64_t t0 = js_mark_now();
	int fd = mkstemp(path);

	(void)state;
	close(fd);
	assert_int_equal(marks_reader_open(&r, path, why, sizeof(why)), 0);
	assert_int_equal(js_marker_open(&mk, path, 1000), 0);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(js_mark(&mk, t0 + i, t0 + 1000 * i + 5, labels[i]), 0);
	assert_int_equal(js_mark(&mk, 0, UINT64_MAX, "edges"), 0);
	assert_int_equal(js_mark_slow(&mk, 10, 1009, "fast"), 0); /* 999 ns: not slow */
	assert_int_equal(js_mark_slow(&mk, 10, 1010, "slow"), 1);
	assert_int_equal(mk.written, 7);
	assert_int_equal(mk.dropped, 0);
	js_marker_close(&mk);
	assert_int_equal(js_mark(&mk, 1, 2, NULL), -EBADF);
	assert_int_equal(mk.dropped, 1);
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, true, collect, &g), 7);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(parse(g.line[i], &m, why), 0);
		assert_true(m.start_ns == t0 + i && m.end_ns == t0 + 1000 * i + 5);
	}
	assert_int_equal(parse(g.line[0], &m, why), 0);
	assert_string_equal(m.label, "poll");
	assert_int_equal(parse(g.line[3], &m, why), 0);
	assert_string_equal(m.label, "a,b c");
	assert_int_equal(parse(g.line[4], &m, why), 0);
	assert_int_equal(strlen(m.label), JS_MARK_LABEL_MAX);
	assert_int_equal(parse(g.line[5], &m, why), 0);
	assert_true(m.start_ns == 0 && m.end_ns == UINT64_MAX);
	assert_int_equal(parse(g.line[6], &m, why), 0);
	assert_true(m.start_ns == 10 && m.end_ns == 1010);
	assert_string_equal(m.label, "slow");
	marks_reader_close(&r);
	unlink(path);
	/* a FIFO without a reader cannot be opened: the marker says so and drops */
	snprintf(path, sizeof(path), "/tmp/tmh.%d", (int)getpid());
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(js_marker_open(&mk, path, 1), -ENXIO);
	assert_int_equal(js_mark(&mk, 1, 2, NULL), -EBADF);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),	  cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_reader_file),	  cmocka_unit_test(test_reader_fifo),
		cmocka_unit_test(test_mark_h_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
