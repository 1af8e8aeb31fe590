// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_example.c - examples/marked_loop, built as an application would be (the installed
 * header only), writes marks that jitterscope's reader takes back exactly: as many as the
 * program says it wrote, each a well-formed mark at least as slow as asked, back to back in
 * time, labelled. JS_EXAMPLES points at another build's examples (default build/examples).
 */
#include <linux/types.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_marks.h"
#include "js_test.h"

struct seen {
	uint64_t marks, bad, last_end;
	uint64_t slow_ns;
	bool ordered, labelled, slow;
};

static void check(void *ctx, uint64_t number, const char *line, size_t len)
{
	struct seen *s = ctx;
	struct js_mark m;
	char why[80];

	(void)number;
	if (marks_parse_line(line, len, &m, why, sizeof(why))) {
		s->bad++;
		return;
	}
	s->marks++;
	s->ordered &= m.start_ns >= s->last_end;
	s->labelled &= !strcmp(m.label, "iteration");
	s->slow &= m.end_ns - m.start_ns >= s->slow_ns;
	s->last_end = m.end_ns;
}

/** marked_loop's marks, read back: every one, exactly, nothing else. */
static void test_round_trip(void **state)
{
	const char *dir = getenv("JS_EXAMPLES") ? getenv("JS_EXAMPLES") : "build/examples";
	char path[] = "/tmp/test_example.XXXXXX", cmd[512], out[256] = "";
	struct seen s = { .slow_ns = 100000, .ordered = true, .labelled = true, .slow = true };
	unsigned long long iters = 0, marks = 0, dropped = 1;
	struct marks_reader r;
	int fd = mkstemp(path);
	FILE *p;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s/marked_loop", dir);
	if (access(cmd, X_OK))
		fail_msg("%s not built (make all)", cmd);
	assert_int_equal(marks_reader_open(&r, path, out, sizeof(out)), 0);
	/* 0.3 s, a 200 us stall every 200 iterations: slow iterations at 100 us */
	snprintf(cmd, sizeof(cmd), "%s/marked_loop %s 100 0.3 200", dir, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof(out), p));
	assert_int_equal(pclose(p), 0);
	assert_int_equal(sscanf(out, "iterations=%llu marks=%llu dropped=%llu", &iters, &marks,
				&dropped),
			 3);
	assert_true(marks >= iters / 200); /* every stall at least */
	assert_int_equal(dropped, 0);
	assert_int_equal(marks_reader_poll(&r, SIZE_MAX, true, check, &s), (int)marks);
	assert_int_equal(s.marks, marks);
	assert_int_equal(s.bad, 0);
	assert_true(s.ordered && s.labelled && s.slow);
	marks_reader_close(&r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
