// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_probe_toggle.c - --probe-toggle's schedule and log: each state lasts 0.3-0.7 s at
 * random, the first change detaches, changes alternate and each is one CSV row (the state
 * after it, CLOCK_MONOTONIC around it); a change that fails, or a row that cannot be
 * written, ends the toggling with the probes attached again; a log that cannot be created
 * is refused at open.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_probe_toggle.h"

#define S 1000000000ull

struct fake {
	bool attached;
	int calls;
	int fail_at; /* 1-based call that fails; 0 = none */
};

static int fake_set(void *ctx, bool on)
{
	struct fake *f = ctx;

	f->calls++;
	if (f->fail_at && f->calls == f->fail_at)
		return -EBUSY;
	assert_true(f->attached != on); /* never asked for the state it is in */
	f->attached = on;
	return 0;
}

static void test_delay_range(void **state)
{
	uint64_t rnd = 42, lo = UINT64_MAX, hi = 0, d;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		d = probe_toggle_delay(&rnd);
		assert_true(d >= PROBE_TOGGLE_MIN_NS &&
			    d < PROBE_TOGGLE_MIN_NS + PROBE_TOGGLE_SPAN_NS);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	/* spread over the span, not stuck */
	assert_true(lo < PROBE_TOGGLE_MIN_NS + PROBE_TOGGLE_SPAN_NS / 10);
	assert_true(hi > PROBE_TOGGLE_MIN_NS + PROBE_TOGGLE_SPAN_NS * 9 / 10);
	rnd = 0; /* a zero state still moves */
	assert_true(probe_toggle_delay(&rnd) >= PROBE_TOGGLE_MIN_NS && rnd != 0);
}

static char *read_all(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_alternates_and_logs(void **state)
{
	char path[] = "/tmp/test_probe_toggle.XXXXXX";
	struct fake f = { .attached = true };
	struct probe_toggle t;
	uint64_t now = 100 * S;
	int fd = mkstemp(path), rows = 0, want = 1;
	char *p, *line;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(probe_toggle_open(&t, path, 7), 0);
	assert_false(probe_toggle_tick(&t, fake_set, &f, now)); /* schedules the first change */
	assert_int_equal(f.calls, 0);
	assert_false(probe_toggle_tick(&t, fake_set, &f, now + PROBE_TOGGLE_MIN_NS - 1));
	for (int i = 0; i < 6; i++) {
		now = t.next;
		assert_true(probe_toggle_tick(&t, fake_set, &f, now));
		assert_int_equal(f.attached, i % 2);
		assert_int_equal(t.off, !f.attached);
		/* the next change is a state's length away, counted from the end of this one */
		assert_true(t.next >= now + PROBE_TOGGLE_MIN_NS);
	}
	assert_int_equal(f.calls, 6);
	assert_int_equal(probe_toggle_close(&t), 0);
	p = read_all(path);
	line = strtok(p, "\n");
	assert_string_equal(line, "attached,start_ns,end_ns");
	while ((line = strtok(NULL, "\n"))) {
		int a;
		unsigned long long t0, t1;

		assert_int_equal(sscanf(line, "%d,%llu,%llu", &a, &t0, &t1), 3);
		want = !want;
		assert_int_equal(a, want); /* 0, 1, 0, ... */
		assert_true(t0 <= t1 && t0 > 0);
		rows++;
	}
	assert_int_equal(rows, 6);
	unlink(path);
}

static void test_failed_change_stops_attached(void **state)
{
	char path[] = "/tmp/test_probe_toggle.XXXXXX";
	struct fake f = { .attached = true, .fail_at = 2 };
	struct probe_toggle t;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(probe_toggle_open(&t, path, 3), 0);
	probe_toggle_tick(&t, fake_set, &f, 1 * S);
	assert_true(probe_toggle_tick(&t, fake_set, &f, t.next)); /* detached */
	assert_false(f.attached);
	/* attaching fails: said, stopped, and the stop attaches once more (call 3) */
	assert_false(probe_toggle_tick(&t, fake_set, &f, t.next));
	assert_true(t.done);
	assert_true(f.attached);
	assert_int_equal(f.calls, 3);
	assert_false(probe_toggle_tick(&t, fake_set, &f, t.next + 10 * S));
	assert_int_equal(f.calls, 3);
	assert_int_equal(probe_toggle_close(&t), 0);
	unlink(path);
}

static void test_write_error_stops_attached(void **state)
{
	struct fake f = { .attached = true };
	struct probe_toggle t;

	(void)state;
	if (access("/dev/full", W_OK)) {
		skip();
		return;
	}
	/* the header fits in stdio's buffer, but its flush fails */
	assert_int_equal(probe_toggle_open(&t, "/dev/full", 1), -ENOSPC);
	/* a log whose rows cannot be written: open on a writable file, then point it at
	 * /dev/full */
	assert_int_equal(probe_toggle_open(&t, "/dev/null", 1), 0);
	assert_non_null(freopen("/dev/full", "w", t.f));
	probe_toggle_tick(&t, fake_set, &f, 1 * S);
	assert_true(probe_toggle_tick(&t, fake_set, &f, t.next)); /* detached, row lost */
	assert_true(t.done);
	assert_true(f.attached); /* attached again */
	assert_int_equal(probe_toggle_close(&t), -ENOSPC);
}

static void test_open_refused(void **state)
{
	struct probe_toggle t;

	(void)state;
	assert_int_equal(probe_toggle_open(&t, "/nonexistent/dir/x", 1), -ENOENT);
	assert_null(t.f);
	assert_false(probe_toggle_tick(&t, fake_set, NULL, 10 * S)); /* nothing to do */
	assert_int_equal(probe_toggle_close(&t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_range),
		cmocka_unit_test(test_alternates_and_logs),
		cmocka_unit_test(test_failed_change_stops_attached),
		cmocka_unit_test(test_write_error_stops_attached),
		cmocka_unit_test(test_open_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
