// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_cpus.c - the default measured CPUs (README: "the isolated CPUs, else the last online
 * one"), on the fixture sysroots and on scratch trees: isolated CPUs that are online and
 * allowed, else the last online allowed CPU, never CPU 0 alone.
 */
#include <errno.h>
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

#include "fixtures.h"
#include "js_cpus.h"
#include "js_sysfs.h"

/* scratch - the scratch tree with these online/isolated files (NULL: no such file) */
static void scratch(const char *online, const char *isolated)
{
	const char *name[2] = { "online", "isolated" }, *val[2] = { online, isolated };
	char rel[64], path[160];

	for (int i = 0; i < 2; i++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/%s", name[i]);
		snprintf(path, sizeof(path), "%s%s", scratch_dir, rel);
		unlink(path);
		if (val[i])
			scratch_put(rel, val[i], strlen(val[i]));
	}
	assert_int_equal(sysfs_set_root(scratch_dir), 0);
}

static void set_of(struct js_cpuset *s, const char *list)
{
	assert_int_equal(cpulist_parse(list, s, NULL, 0), 0);
}

/* pick - the default under the current root with @allowed ("": the online CPUs); the
 * chosen CPUs as a list into out, or "error" */
static const char *pick(const char *allowed, char *out, size_t len)
{
	struct js_cpuset online, al, got;
	int cpus[JS_MAX_CPUS];
	size_t n = 7;

	assert_int_equal(cpus_online(&online), 0);
	if (allowed[0])
		set_of(&al, allowed);
	else
		al = online;
	if (cpus_default(&online, &al, cpus, &n)) {
		assert_int_equal(n, 0);
		snprintf(out, len, "error");
		return out;
	}
	cpuset_zero(&got);
	for (size_t i = 0; i < n; i++)
		cpuset_set(&got, cpus[i]);
	assert_int_equal((size_t)cpuset_count(&got), n); /* each CPU once */
	cpulist_format(&got, out, len);
	return out;
}

/** The fixture trees: isolated 2-7 on the tuned box, none on the badly tuned one. */
static void test_fixtures(void **state)
{
	char b[64];
	struct js_cpuset online;

	(void)state;
	assert_int_equal(sysfs_set_root("tests/data/sysroot/tuned"), 0);
	assert_string_equal(pick("", b, sizeof(b)), "2-7");
	assert_string_equal(pick("0-3", b, sizeof(b)), "2-3"); /* a cpuset: the allowed ones */
	assert_string_equal(pick("0-1", b, sizeof(b)), "1");   /* none allowed: the last */
	assert_int_equal(sysfs_set_root("tests/data/sysroot/badly-tuned"), 0);
	assert_string_equal(pick("", b, sizeof(b)), "7");
	assert_string_equal(pick("0-4", b, sizeof(b)), "4");
	assert_string_equal(pick("0", b, sizeof(b)), "error"); /* CPU 0 alone: refused */
	/* an unreadable online list is the caller's error */
	assert_int_equal(sysfs_set_root("tests/data/sysroot/malformed"), 0);
	assert_int_equal(cpus_online(&online), -EINVAL);
}

/** Scratch trees: offline isolated CPUs, a gap in the online list, no isolated file,
 * an unparseable isolated file, "(null)". */
static void test_scratch(void **state)
{
	char b[64];

	(void)state;
	scratch("0-2\n", "2-3\n"); /* 3 is isolated but offline */
	assert_string_equal(pick("", b, sizeof(b)), "2");
	scratch("0-3,5\n", "\n"); /* none isolated: the last online */
	assert_string_equal(pick("", b, sizeof(b)), "5");
	assert_string_equal(pick("0-4", b, sizeof(b)), "3");
	scratch("0-3\n", NULL); /* an older kernel without the file */
	assert_string_equal(pick("", b, sizeof(b)), "3");
	scratch("0-3\n", "garbage\n"); /* unreadable: as if none were isolated */
	assert_string_equal(pick("", b, sizeof(b)), "3");
	scratch("0-3\n", "(null)\n");
	assert_string_equal(pick("", b, sizeof(b)), "3");
	scratch("0\n", "\n"); /* a 1-CPU machine */
	assert_string_equal(pick("", b, sizeof(b)), "error");
	scratch("0-7\n", "1,3,5\n");
	assert_string_equal(pick("", b, sizeof(b)), "1,3,5");
	assert_string_equal(pick("0,3-7", b, sizeof(b)), "3,5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_scratch),
	};

	return cmocka_run_group_tests_name("cpus", tests, scratch_setup, scratch_teardown);
}
