// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_idle_states.c - --deepest-idle-state on a scratch sysroot: which states are disabled,
 * given back, the state file written, parsed, and a dead run's undone. */
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

#include "fixtures.h"
#include "js_idle_states.h"
#include "js_sysfs.h"

#define CPUIDLE "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s"

static void put_state(int cpu, int k, const char *name, int disable)
{
	char path[256], v[8];

	snprintf(path, sizeof(path), CPUIDLE, cpu, k, "name");
	scratch_puts(path, name);
	snprintf(path, sizeof(path), CPUIDLE, cpu, k, "disable");
	snprintf(v, sizeof(v), "%d\n", disable);
	scratch_puts(path, v);
}

static int disabled(int cpu, int k)
{
	char path[256];
	int v = -1;

	snprintf(path, sizeof(path), CPUIDLE, cpu, k, "disable");
	assert_int_equal(sysfs_read_int(path, &v), 0);
	return v;
}

/* CPUs 0 and 1: POLL, C1, C2, C3 (CPU 1's C2 disabled by an administrator); CPU 2: none */
static int setup(void **state)
{
	if (scratch_setup(state))
		return -1;
	for (int cpu = 0; cpu < 2; cpu++) {
		put_state(cpu, 0, "POLL\n", 0);
		put_state(cpu, 1, "C1\n", 0);
		put_state(cpu, 2, "C2\n", cpu == 1);
		put_state(cpu, 3, "C3\n", 0);
	}
	scratch_puts("/sys/devices/system/cpu/cpu2/online", "1\n");
	return sysfs_set_root(scratch_dir);
}

/** Deeper than N, enabled now, the measured CPUs only; none at all is -ENOENT. */
static void test_plan(void **st)
{
	struct idle_states s = { 0 };
	int one = 1, cpus[] = { 1, 2 }, two = 2;
	char buf[256];

	(void)st;
	assert_int_equal(idle_plan(&one, 1, 0, &s), 0);
	/* C2 is left alone: disabled before us, never re-enabled by us */
	assert_int_equal(s.n, 2);
	assert_int_equal(s.v[0].cpu, 1);
	assert_int_equal(s.v[0].state, 1);
	assert_string_equal(s.v[0].name, "C1");
	assert_int_equal(s.v[1].state, 3);
	assert_string_equal(idle_states_str(&s, buf, sizeof(buf)),
			    "CPU 1: state1 (C1), state3 (C3)");
	assert_int_equal(idle_plan(&one, 1, 2, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].state, 3);
	/* N at or past the deepest: nothing to do, but states exist */
	assert_int_equal(idle_plan(cpus, 2, 3, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(idle_plan(&two, 1, 0, &s), -ENOENT);
	idle_states_free(&s);
}

/** Disabled on CPU 1 alone with a state file first; given back and the file gone after. */
static void test_disable_restore(void **st)
{
	struct idle_states s = { 0 }, f = { 0 };
	char path[128], *text;
	size_t len;
	int one = 1;

	(void)st;
	assert_int_equal(idle_plan(&one, 1, 0, &s), 0);
	assert_int_equal(idle_disable(&s, JS_IDLE_RUN_DIR), 0);
	assert_int_equal(disabled(1, 0), 0);
	assert_int_equal(disabled(1, 1), 1);
	assert_int_equal(disabled(1, 2), 1);
	assert_int_equal(disabled(1, 3), 1);
	for (int k = 0; k < 4; k++)
		assert_int_equal(disabled(0, k), 0); /* CPU 0 untouched */
	snprintf(path, sizeof(path), JS_IDLE_RUN_DIR "/idle-states.%d", (int)getpid());
	assert_int_equal(sysfs_read_file(path, &text, &len), 0);
	assert_int_equal(idle_file_parse(text, &f), 0);
	free(text);
	assert_int_equal(f.pid, getpid());
	assert_int_equal(f.n, 2);
	assert_int_equal(f.v[1].cpu, 1);
	assert_int_equal(f.v[1].state, 3);
	assert_int_equal(f.v[1].orig, 0);
	assert_int_equal(idle_restore(&s, JS_IDLE_RUN_DIR), 0);
	assert_true(s.restored);
	assert_int_equal(disabled(1, 1), 0);
	assert_int_equal(disabled(1, 2), 1); /* the administrator's */
	assert_int_equal(disabled(1, 3), 0);
	assert_false(sysfs_exists(path));
	assert_int_equal(idle_restore(&s, JS_IDLE_RUN_DIR), 0); /* again: harmless */
	idle_states_free(&s);
	idle_states_free(&f);
}

/** The state file: the written one parses back; anything else is -EINVAL. */
static void test_file_parse(void **st)
{
	struct idle_states s = { 0 }, t = { 0 };
	char buf[256];
	static const char *const bad[] = {
		"",
		"jitterscope idle-states 2\npid 1 start 2\ndeepest 0\n",
		"jitterscope idle-states 1\npid 1 start 2\ndeepest 0\n1 1", /* cut short */
		"jitterscope idle-states 1\npid 0 start 2\ndeepest 0\n",
		"jitterscope idle-states 1\npid 1 start 2\n",
		"jitterscope idle-states 1\npid 1 start 2\ndeepest 0\n1 -1 0\n",
		"jitterscope idle-states 1\npid 1 start 2\ndeepest 0\n1 1 0 x\n",
		"jitterscope idle-states 1\npid 1 start 2\ndeepest x\n",
	};

	(void)st;
	idle_states_add(&s, 1, 2, 0, "C2");
	idle_states_add(&s, 3, 1, 0, "C1");
	s.deepest = 1;
	assert_int_equal(idle_file_format(&s, 42, 777, buf, 20), -ENOSPC);
	assert_true(idle_file_format(&s, 42, 777, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "jitterscope idle-states 1\npid 42 start 777\ndeepest 1\n"
				 "1 2 0\n3 1 0\n");
	assert_int_equal(idle_file_parse(buf, &t), 0);
	assert_int_equal(t.pid, 42);
	assert_int_equal(t.start, 777);
	assert_int_equal(t.deepest, 1);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.v[1].cpu, 3);
	assert_int_equal(t.v[1].state, 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(idle_file_parse(bad[i], &t), -EINVAL);
	idle_states_free(&s);
	idle_states_free(&t);
}

/* a /proc/PID/stat of a process started at start (field 22; its name has a space) */
static void put_proc(int pid, uint64_t start)
{
	char path[64], text[256];
	int n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	n = snprintf(text, sizeof(text), "%d (a) b) S", pid);
	for (int field = 4; field < 22; field++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, " %d", field);
	snprintf(text + n, sizeof(text) - (size_t)n, " %llu 0 0\n", (unsigned long long)start);
	scratch_puts(path, text);
}

/** A gone run's states are given back and its file removed; a live one's are left. */
static void test_recover(void **st)
{
	struct idle_states done = { 0 };
	char buf[256];

	(void)st;
	/* run 4242 (gone: no /proc/4242) disabled CPU 0's C1 and C3 */
	put_state(0, 1, "C1\n", 1);
	put_state(0, 3, "C3\n", 1);
	scratch_puts(JS_IDLE_RUN_DIR "/idle-states.4242",
		     "jitterscope idle-states 1\npid 4242 start 9\ndeepest 0\n0 1 0\n0 3 0\n");
	/* run 4343 still measures (same start time); 4444's pid is another process now */
	put_state(1, 3, "C3\n", 1);
	put_proc(4343, 100);
	scratch_puts(JS_IDLE_RUN_DIR "/idle-states.4343",
		     "jitterscope idle-states 1\npid 4343 start 100\ndeepest 0\n1 3 0\n");
	put_proc(4444, 200);
	put_state(1, 1, "C1\n", 1);
	scratch_puts(JS_IDLE_RUN_DIR "/idle-states.4444",
		     "jitterscope idle-states 1\npid 4444 start 150\ndeepest 0\n1 1 0\n");
	scratch_puts(JS_IDLE_RUN_DIR "/idle-states.4545", "garbage\n");
	scratch_puts(JS_IDLE_RUN_DIR "/other", "not a state file\n");
	assert_int_equal(idle_recover(JS_IDLE_RUN_DIR, &done), 2);
	assert_int_equal(done.n, 3);
	assert_string_equal(idle_states_str(&done, buf, sizeof(buf)),
			    "CPU 0: state1, state3; CPU 1: state1");
	assert_int_equal(disabled(0, 1), 0);
	assert_int_equal(disabled(0, 3), 0);
	assert_int_equal(disabled(1, 1), 0);
	assert_int_equal(disabled(1, 3), 1); /* 4343's, still measuring */
	assert_false(sysfs_exists(JS_IDLE_RUN_DIR "/idle-states.4242"));
	assert_false(sysfs_exists(JS_IDLE_RUN_DIR "/idle-states.4444"));
	assert_false(sysfs_exists(JS_IDLE_RUN_DIR "/idle-states.4545"));
	assert_true(sysfs_exists(JS_IDLE_RUN_DIR "/idle-states.4343"));
	assert_true(sysfs_exists(JS_IDLE_RUN_DIR "/other"));
	/* the next start finds nothing more to do */
	assert_int_equal(idle_recover(JS_IDLE_RUN_DIR, &done), 0);
	assert_int_equal(done.n, 0);
	idle_states_free(&done);
}

/** No state directory at all: nothing to recover. */
static void test_recover_none(void **st)
{
	struct idle_states done = { 0 };

	(void)st;
	assert_int_equal(idle_recover("/run/nothing-here", &done), 0);
	assert_int_equal(done.n, 0);
	idle_states_free(&done);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plan, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_disable_restore, setup, scratch_teardown),
		cmocka_unit_test(test_file_parse),
		cmocka_unit_test_setup_teardown(test_recover, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_recover_none, setup, scratch_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
