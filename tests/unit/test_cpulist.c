// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_cpulist.c - cpulist / cpumask parsing and formatting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_cpulist.h"

static char fmt_buf[4096];

static const char *fmt(const struct js_cpuset *s)
{
	assert_true(cpulist_format(s, fmt_buf, sizeof(fmt_buf)) >= 0);
	return fmt_buf;
}

/* parse then format: the canonical form */
static const char *roundtrip(const char *in)
{
	struct js_cpuset s;
	char err[128] = "";

	if (cpulist_parse(in, &s, err, sizeof(err)))
		fail_msg("parse \"%s\": %s", in, err);
	return fmt(&s);
}

static int parse_err(const char *in, char *err, size_t len)
{
	struct js_cpuset s;

	err[0] = '\0';
	return cpulist_parse(in, &s, err, len);
}

/** Valid lists parse and format back to the canonical kernel form. */
static void test_parse_valid(void **state)
{
	(void)state;
	assert_string_equal(roundtrip("1"), "1");
	assert_string_equal(roundtrip("0"), "0");
	assert_string_equal(roundtrip("1,3-5"), "1,3-5");
	assert_string_equal(roundtrip("5,4,3,1"), "1,3-5");
	assert_string_equal(roundtrip("0-3,2-6"), "0-6");
	assert_string_equal(roundtrip("1023"), "1023");
	assert_string_equal(roundtrip("0-1023"), "0-1023");
	assert_string_equal(roundtrip("1\n"), "1");
	assert_string_equal(roundtrip("  2-3 "), "2-3");
	assert_string_equal(roundtrip("7-7"), "7");
	assert_string_equal(roundtrip("62-66"), "62-66");
	/* kernel stride syntax: 0-15 in groups of 4, use the first 2 */
	assert_string_equal(roundtrip("0-15:2/4"), "0-1,4-5,8-9,12-13");
	assert_string_equal(roundtrip("1-9:1/2"), "1,3,5,7,9");
}

/** Malformed input is rejected with a message, never accepted partially. */
static void test_parse_invalid(void **state)
{
	static const char *const bad[] = {
		"",	   " ",	     "\n",	",",
		"1,",	   ",1",     "1,,2",	"a",
		"1a",	   "1-",     "-1",	"3-1",
		"1-3-5",   "1024",   "0-1024",	"99999999999999999999",
		"1 2",	   "1, 2",   "0x3",	"1-2:",
		"1-2:1",   "1-2:1/", "1-4:3/2", "1-4:0/2",
		"1-4:1/0", "N",	     "1-N",	"+1",
		"1.5",
	};
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse_err(bad[i], err, sizeof(err));

		if (rc != -EINVAL)
			fail_msg("\"%s\" accepted (rc %d)", bad[i], rc);
		if (!err[0])
			fail_msg("\"%s\": no message", bad[i]);
	}
	assert_int_equal(cpulist_parse(NULL, &(struct js_cpuset){ 0 }, NULL, 0), -EINVAL);
}

/** Messages name the problem. */
static void test_parse_messages(void **state)
{
	char err[128];

	(void)state;
	parse_err("3-1", err, sizeof(err));
	assert_non_null(strstr(err, "reversed"));
	parse_err("1024", err, sizeof(err));
	assert_non_null(strstr(err, "out of range"));
	parse_err("", err, sizeof(err));
	assert_non_null(strstr(err, "empty"));
	parse_err("1x", err, sizeof(err));
	assert_non_null(strstr(err, "x"));
}

/** A failed parse leaves the output untouched. */
static void test_parse_no_partial(void **state)
{
	struct js_cpuset s;

	(void)state;
	cpuset_zero(&s);
	cpuset_set(&s, 7);
	assert_int_equal(cpulist_parse("1,2,x", &s, NULL, 0), -EINVAL);
	assert_true(cpuset_isset(&s, 7));
	assert_false(cpuset_isset(&s, 1));
}

/** "N" (last CPU) and empty lists where the kernel uses them. */
static void test_parse_n_and_empty(void **state)
{
	struct js_cpuset s;

	(void)state;
	assert_int_equal(cpulist_parse_n("1-N", &s, 7, false, NULL, 0), 0);
	assert_string_equal(fmt(&s), "1-7");
	assert_int_equal(cpulist_parse_n("N", &s, 3, false, NULL, 0), 0);
	assert_string_equal(fmt(&s), "3");
	assert_int_equal(cpulist_parse_n("1-N", &s, -1, false, NULL, 0), -EINVAL);
	assert_int_equal(cpulist_parse_n("\n", &s, -1, true, NULL, 0), 0);
	assert_true(cpuset_empty(&s));
	assert_int_equal(cpulist_parse_n("", &s, -1, false, NULL, 0), -EINVAL);
}

static const char *mask_roundtrip(const char *in)
{
	struct js_cpuset s;
	char err[128] = "";

	if (cpumask_parse(in, &s, err, sizeof(err)))
		fail_msg("mask \"%s\": %s", in, err);
	return fmt(&s);
}

/** Hex masks: groups of 32 bits, most significant first. */
static void test_mask_valid(void **state)
{
	(void)state;
	assert_string_equal(mask_roundtrip("3"), "0-1");
	assert_string_equal(mask_roundtrip("2\n"), "1");
	assert_string_equal(mask_roundtrip("0"), "");
	assert_string_equal(mask_roundtrip("00000000"), "");
	assert_string_equal(mask_roundtrip("ff,00000001"), "0,32-39");
	assert_string_equal(mask_roundtrip("1,00000000,00000000"), "64");
	assert_string_equal(mask_roundtrip("0xfe"), "1-7");
	assert_string_equal(mask_roundtrip("FFFFFFFFFF"), "0-39");
	assert_string_equal(mask_roundtrip("80000000,00000000"), "63");
}

/** Bad masks are rejected. */
static void test_mask_invalid(void **state)
{
	static const char *const bad[] = {
		"",
		"0x",
		",",
		"3,",
		",3",
		"g",
		"12 34",
		"1,123456789",
		"ff,,1",
		"-1",
		/* bit 1024 */
		"1,00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,"
		"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,"
		"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000,"
		"00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000000",
	};
	struct js_cpuset s;
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (cpumask_parse(bad[i], &s, err, sizeof(err)) != -EINVAL)
			fail_msg("mask \"%s\" accepted", bad[i]);
		assert_true(err[0] != '\0');
	}
}

/** Masks format like the kernel prints them. */
static void test_mask_format(void **state)
{
	struct js_cpuset s;
	char buf[64];

	(void)state;
	cpuset_zero(&s);
	cpuset_set(&s, 0);
	cpuset_set(&s, 1);
	assert_int_equal(cpumask_format(&s, 2, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "3");
	assert_int_equal(cpumask_format(&s, 8, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "03");
	cpuset_set(&s, 32);
	assert_true(cpumask_format(&s, 0, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "1,00000003");
	assert_true(cpumask_format(&s, 64, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "00000001,00000003");
	assert_int_equal(cpumask_format(&s, 64, buf, 5), -ENOSPC);
	cpuset_zero(&s);
	assert_int_equal(cpumask_format(&s, 0, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "0");
}

/** Formatting into a small buffer reports -ENOSPC and stays terminated. */
static void test_list_format_small(void **state)
{
	struct js_cpuset s;
	char buf[8];

	(void)state;
	assert_int_equal(cpulist_parse("0,2,4,6,8,10,12", &s, NULL, 0), 0);
	assert_int_equal(cpulist_format(&s, buf, sizeof(buf)), -ENOSPC);
	assert_true(strlen(buf) < sizeof(buf));
	assert_non_null(strstr(buf, "..."));
	cpuset_zero(&s);
	assert_int_equal(cpulist_format(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

/** Set operations. */
static void test_set_ops(void **state)
{
	struct js_cpuset a, b, c;

	(void)state;
	cpulist_parse("0-3", &a, NULL, 0);
	cpulist_parse("2-5", &b, NULL, 0);
	assert_int_equal(cpuset_count(&a), 4);
	assert_true(cpuset_intersects(&a, &b));
	assert_false(cpuset_subset(&a, &b));
	c = a;
	cpuset_and(&c, &b);
	assert_string_equal(fmt(&c), "2-3");
	assert_true(cpuset_subset(&c, &a));
	c = a;
	cpuset_or(&c, &b);
	assert_string_equal(fmt(&c), "0-5");
	c = a;
	cpuset_andnot(&c, &b);
	assert_string_equal(fmt(&c), "0-1");
	assert_false(cpuset_equal(&a, &b));
	cpuset_clear(&c, 0);
	cpuset_clear(&c, 1);
	assert_true(cpuset_empty(&c));
	cpuset_set(&c, 5000);
	assert_true(cpuset_empty(&c));
	assert_false(cpuset_isset(&c, -1));
	cpuset_set(&c, 1023);
	cpuset_set(&c, 64);
	assert_int_equal(cpuset_next(&c, 0), 64);
	assert_int_equal(cpuset_next(&c, 65), 1023);
	assert_int_equal(cpuset_next(&c, 1024), -1);
}

/** Random sets survive format -> parse for lists and masks; random junk never crashes. */
static void test_random(void **state)
{
	static const char alpha[] = "0123456789,-:/Nx \nabcdef";
	char buf[8192], junk[24];
	struct js_cpuset s, t;

	(void)state;
	srand(12345);
	for (int iter = 0; iter < 2000; iter++) {
		cpuset_zero(&s);
		for (int k = rand() % 40; k > 0; k--) {
			int a = rand() % JS_MAX_CPUS, n = rand() % 8;

			for (int c = a; c < a + n && c < JS_MAX_CPUS; c++)
				cpuset_set(&s, c);
		}
		assert_true(cpulist_format(&s, buf, sizeof(buf)) >= 0);
		if (cpuset_empty(&s)) {
			assert_int_equal(cpulist_parse(buf, &t, NULL, 0), -EINVAL);
		} else {
			assert_int_equal(cpulist_parse(buf, &t, NULL, 0), 0);
			assert_true(cpuset_equal(&s, &t));
		}
		assert_true(cpumask_format(&s, JS_MAX_CPUS, buf, sizeof(buf)) > 0);
		assert_int_equal(cpumask_parse(buf, &t, NULL, 0), 0);
		assert_true(cpuset_equal(&s, &t));
		for (size_t k = 0; k < sizeof(junk) - 1; k++)
			junk[k] = alpha[rand() % (sizeof(alpha) - 1)];
		junk[rand() % sizeof(junk)] = '\0';
		junk[sizeof(junk) - 1] = '\0';
		cpulist_parse_n(junk, &t, 7, rand() % 2, buf, 64);
		cpumask_parse(junk, &t, buf, 64);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_valid),
		cmocka_unit_test(test_parse_invalid),
		cmocka_unit_test(test_parse_messages),
		cmocka_unit_test(test_parse_no_partial),
		cmocka_unit_test(test_parse_n_and_empty),
		cmocka_unit_test(test_mask_valid),
		cmocka_unit_test(test_mask_invalid),
		cmocka_unit_test(test_mask_format),
		cmocka_unit_test(test_list_format_small),
		cmocka_unit_test(test_set_ops),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests_name("cpulist", tests, NULL, NULL);
}
