// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_cli_value.c - the option table's generic value reader (cli_value_set): each kind
 * into its field, the edges of its range taken, one past them refused with the message the
 * user sees, the field untouched and the "given" flag unset on a refusal. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_cli_value.h"
#include "js_units.h"

/* any struct will do: the reader knows only offsets and sizes */
struct fields {
	int first; /* offset 0: never a "given" flag */
	bool flag, given;
	int i;
	unsigned u;
	size_t z;
	uint64_t t;
	double d;
	const char *s;
	int cpus[8];
	size_t ncpus;
};

#define F(f) .off = offsetof(struct fields, f), .size = sizeof(((struct fields *)0)->f)

static struct fields x;
static char msg[512];

/* set - cli_value_set of arg for the option --opt (argp argument words) into x */
static int set(const struct cli_value *v, const char *words, const char *arg)
{
	msg[0] = '\0';
	return cli_value_set(v, "opt", words, arg, &x, msg, sizeof(msg));
}

/* refused - arg refused with exactly want, the field untouched */
#define refused(v, words, arg, want)                           \
	do {                                                   \
		struct fields before;                          \
		memcpy(&before, &x, sizeof(x));                \
		assert_int_equal(set(v, words, arg), -EINVAL); \
		assert_string_equal(msg, want);                \
		assert_memory_equal(&before, &x, sizeof(x));   \
	} while (0)

/* taken - arg taken, the field then want */
#define taken(v, words, arg, field, want)                \
	do {                                             \
		assert_int_equal(set(v, words, arg), 0); \
		assert_true(x.field == (want));          \
	} while (0)

/** No argument: a flag set, a value set, a count counted. */
static void test_flags(void **st)
{
	const struct cli_value flag = { .kind = CLI_FLAG, F(flag) };
	const struct cli_value to3 = { .kind = CLI_SET, F(i), .u = { 0, 3, 3, NULL } };
	const struct cli_value inc = { .kind = CLI_INC, F(i) };

	(void)st;
	memset(&x, 0, sizeof(x));
	assert_int_equal(set(&flag, NULL, NULL), 0);
	assert_true(x.flag);
	assert_int_equal(set(&to3, NULL, NULL), 0);
	assert_int_equal(x.i, 3);
	assert_int_equal(set(&inc, NULL, NULL), 0);
	assert_int_equal(set(&inc, NULL, NULL), 0);
	assert_int_equal(x.i, 5);
}

/** TIME and SIZE: js_units.h's spellings and the row's range, both edges. */
static void test_time_size(void **st)
{
	const struct cli_value t = { .kind = CLI_TIME, F(t), .u = { JS_SEC, 100 * JS_MS, JS_DAY } };
	const struct cli_value bare = {
		.kind = CLI_TIME, F(t), .u = { JS_US, 1, JS_TIME_MAX }, .bare_name = true
	};
	const struct cli_value z = { .kind = CLI_SIZE, F(t), .u = { 1, 64 * JS_KIB, JS_TIB } };

	(void)st;
	memset(&x, 0, sizeof(x));
	taken(&t, NULL, "100ms", t, 100 * JS_MS);
	taken(&t, NULL, "1d", t, JS_DAY);
	taken(&t, NULL, "2", t, 2 * JS_SEC); /* bare: seconds */
	refused(&t, NULL, "99ms", "invalid --opt '99ms': out of range: at least 100ms");
	refused(&t, NULL, "25h", "invalid --opt '25h': out of range: at most 1d");
	refused(&bare, NULL, "0", "invalid opt '0': must be > 0");
	taken(&bare, NULL, "1ns", t, 1);
	taken(&z, NULL, "64KiB", t, 64 * JS_KIB);
	taken(&z, NULL, "1T", t, JS_TIB);
	refused(&z, NULL, "65535", "invalid --opt '65535': out of range: at least 64KiB");
	assert_int_equal(set(&z, NULL, "5q"), -EINVAL);
	assert_non_null(strstr(msg, "invalid --opt '5q': "));
}

/** A count: digits only, [min, max] as the hint says, into a field of its width. */
static void test_uint(void **st)
{
	const struct cli_value u = { .kind = CLI_UINT, F(u), .u = { 0, 100, 1000 }, .hint = "~" };
	const struct cli_value i = { .kind = CLI_UINT,
				     F(i),
				     .u = { 0, 0, INT32_MAX },
				     .hint = "microseconds, ~",
				     .given = offsetof(struct fields, given) };
	const struct cli_value pid = {
		.kind = CLI_UINT, F(i), .u = { 0, 1, INT32_MAX }, .hint = "a process id"
	};

	(void)st;
	memset(&x, 0, sizeof(x));
	taken(&u, NULL, "100", u, 100);
	taken(&u, NULL, "1000", u, 1000);
	refused(&u, NULL, "99", "invalid --opt '99' (100..1000)");
	refused(&u, NULL, "1001", "invalid --opt '1001' (100..1000)");
	refused(&u, NULL, "-1", "invalid --opt '-1' (100..1000)");
	refused(&u, NULL, "+5", "invalid --opt '+5' (100..1000)");
	refused(&u, NULL, " 500", "invalid --opt ' 500' (100..1000)");
	refused(&u, NULL, "500x", "invalid --opt '500x' (100..1000)");
	refused(&u, NULL, "", "invalid --opt '' (100..1000)");
	refused(&i, NULL, "2147483648", "invalid --opt '2147483648' (microseconds, 0..2147483647)");
	assert_false(x.given);
	taken(&i, NULL, "2147483647", i, INT32_MAX);
	assert_true(x.given);
	refused(&pid, NULL, "0", "invalid --opt '0' (a process id)");
	taken(&pid, NULL, "1", i, 1);
}

/** A power of two, and "N" or "N/min", each in its range. */
static void test_pow2_per_min(void **st)
{
	const struct cli_value p2 = {
		.kind = CLI_POW2, F(z), .u = { 0, 1024, 1ull << 26 }, .hint = "a power of two, ~"
	};
	const struct cli_value pm = {
		.kind = CLI_PER_MIN, F(u), .u = { 0, 1, 1000 }, .hint = "~ a minute, e.g. 10/min"
	};

	(void)st;
	memset(&x, 0, sizeof(x));
	taken(&p2, NULL, "1024", z, 1024);
	taken(&p2, NULL, "67108864", z, 1ull << 26);
	refused(&p2, NULL, "512", "invalid --opt '512' (a power of two, 1024..67108864)");
	refused(&p2, NULL, "1536", "invalid --opt '1536' (a power of two, 1024..67108864)");
	refused(&p2, NULL, "134217728",
		"invalid --opt '134217728' (a power of two, 1024..67108864)");
	taken(&pm, NULL, "1", u, 1);
	taken(&pm, NULL, "1000/min", u, 1000);
	refused(&pm, NULL, "0", "invalid --opt '0' (1..1000 a minute, e.g. 10/min)");
	refused(&pm, NULL, "1001", "invalid --opt '1001' (1..1000 a minute, e.g. 10/min)");
	refused(&pm, NULL, "10/h", "invalid --opt '10/h' (1..1000 a minute, e.g. 10/min)");
	refused(&pm, NULL, "10/min/", "invalid --opt '10/min/' (1..1000 a minute, e.g. 10/min)");
}

/** A percentage: "10" or "10%", in [min, max]. */
static void test_pct(void **st)
{
	const struct cli_value pct = {
		.kind = CLI_PCT, F(d), .u = { 0, 0, 1000 }, .hint = "a percentage, ~, e.g. 10%"
	};

	(void)st;
	memset(&x, 0, sizeof(x));
	taken(&pct, NULL, "0", d, 0);
	taken(&pct, NULL, "1000%", d, 1000);
	taken(&pct, NULL, "2.5", d, 2.5);
	refused(&pct, NULL, "1000.5", "invalid --opt '1000.5' (a percentage, 0..1000, e.g. 10%)");
	refused(&pct, NULL, "-1", "invalid --opt '-1' (a percentage, 0..1000, e.g. 10%)");
	refused(&pct, NULL, "10%%", "invalid --opt '10%%' (a percentage, 0..1000, e.g. 10%)");
	refused(&pct, NULL, "", "invalid --opt '' (a percentage, 0..1000, e.g. 10%)");
}

static int two_names(const char *s)
{
	return !strcmp(s, "one") ? 1 : !strcmp(s, "two") ? 2 : !strcmp(s, "none") ? 0 : -1;
}

/** A word of the argument "a|b|c": its index, or the enum's own lookup, at least min. */
static void test_enum(void **st)
{
	const struct cli_value words = { .kind = CLI_ENUM, F(i) };
	const struct cli_value lookup = {
		.kind = CLI_ENUM, F(flag), .from_name = two_names, .u = { 0, 1, 0 }
	};

	(void)st;
	memset(&x, 0, sizeof(x));
	taken(&words, "source|cgroup|pod", "pod", i, 2);
	taken(&words, "source|cgroup|pod", "source", i, 0);
	refused(&words, "source|cgroup|pod", "sourc",
		"invalid --opt 'sourc' (source, cgroup or pod)");
	refused(&words, "source|cgroup", "", "invalid --opt '' (source or cgroup)");
	assert_int_equal(set(&lookup, "one|two", "one"), 0); /* a bool field */
	assert_true(x.flag);
	refused(&lookup, "one|two", "none", "invalid --opt 'none' (one or two)"); /* below min */
	refused(&lookup, "one|two", "three", "invalid --opt 'three' (one or two)");
}

/** A path must not be empty, a string may; a CPU list fills the array and its count. */
static void test_path_cpus(void **st)
{
	const struct cli_value path = { .kind = CLI_PATH, F(s), .hint = "a file or FIFO" };
	const struct cli_value str = { .kind = CLI_STR, F(s) };
	const struct cli_value cpus = { .kind = CLI_CPUS,
					F(cpus),
					.count = offsetof(struct fields, ncpus) };

	(void)st;
	memset(&x, 0, sizeof(x));
	refused(&path, NULL, "", "invalid --opt '' (a file or FIFO)");
	assert_int_equal(set(&path, NULL, "m.csv"), 0);
	assert_string_equal(x.s, "m.csv");
	assert_int_equal(set(&str, NULL, ""), 0);
	assert_string_equal(x.s, "");
	taken(&cpus, NULL, "1,3-4", ncpus, 3);
	assert_int_equal(x.cpus[0], 1);
	assert_int_equal(x.cpus[1], 3);
	assert_int_equal(x.cpus[2], 4);
	refused(&cpus, NULL, "3-1", "invalid CPU list '3-1' for --opt: reversed range \"3-1\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags),	  cmocka_unit_test(test_time_size),
		cmocka_unit_test(test_uint),	  cmocka_unit_test(test_pow2_per_min),
		cmocka_unit_test(test_pct),	  cmocka_unit_test(test_enum),
		cmocka_unit_test(test_path_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
