// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_ksyms.c - kallsyms parsing and nearest-symbol lookup on fixture files. */
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

#include "js_ksyms.h"

/* deliberately unsorted, with data symbols, aliases, a module and junk lines */
static const char fixture[] = "ffffffff81000000 T _stext\nffffffff81200000 t tick_nohz_handler\n"
			      "ffffffff81100000 T vmstat_update\n"
			      "ffffffff81100000 T vmstat_update_alias\n"
			      "ffffffff81300000 D some_data\nffffffff81180000 W weak_fn\n"
			      "0000000000000000 A fixed_percpu_data\ngarbage line\n\n"
			      "ffffffffc0001000 t virtnet_poll\t[virtio_net]\n";

static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 T vmstat_update\n";

static char *write_fixture(const char *text)
{
	char *path = strdup("/tmp/test_ksyms.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static struct js_ksyms *load(const char *text, int *err)
{
	struct js_ksyms *ks = NULL;
	char *path = write_fixture(text);

	*err = ksyms_load_file(&ks, path);
	unlink(path);
	free(path);
	return ks;
}

/** Check that only code symbols are kept and exact addresses resolve to their symbol. */
static void test_exact(void **state)
{
	struct js_ksyms *ks;
	uint64_t off = 99;
	int err;

	(void)state;
	ks = load(fixture, &err);
	assert_int_equal(err, 0);
	assert_int_equal(ksyms_count(ks), 6);
	assert_string_equal(ksyms_lookup(ks, 0xffffffff81200000ull, &off), "tick_nohz_handler");
	assert_int_equal(off, 0);
	assert_string_equal(ksyms_name(ks, 0xffffffff81180000ull), "weak_fn");
	assert_string_equal(ksyms_name(ks, 0xffffffffc0001000ull), "virtnet_poll");
	ksyms_free(ks);
}

/** Check that an address inside a function resolves to the nearest symbol below it. */
static void test_nearest(void **state)
{
	struct js_ksyms *ks;
	uint64_t off = 0;
	int err;

	(void)state;
	ks = load(fixture, &err);
	assert_int_equal(err, 0);
	assert_string_equal(ksyms_lookup(ks, 0xffffffff81000123ull, &off), "_stext");
	assert_int_equal(off, 0x123);
	assert_string_equal(ksyms_lookup(ks, 0xffffffff8117ffffull, &off), "vmstat_update");
	assert_int_equal(off, 0x7ffff);
	/* data symbol at 0x...81300000 was dropped: nearest code symbol wins */
	assert_string_equal(ksyms_name(ks, 0xffffffff81300010ull), "tick_nohz_handler");
	assert_string_equal(ksyms_name(ks, 0xffffffffc0002000ull), "virtnet_poll");
	ksyms_free(ks);
}

/** Check that aliases at one address resolve to the first one listed. */
static void test_alias(void **state)
{
	struct js_ksyms *ks;
	int err;

	(void)state;
	ks = load(fixture, &err);
	assert_int_equal(err, 0);
	assert_string_equal(ksyms_name(ks, 0xffffffff81100000ull), "vmstat_update");
	assert_string_equal(ksyms_name(ks, 0xffffffff81100008ull), "vmstat_update");
	assert_int_equal(ksyms_addr(ks, "vmstat_update_alias"), 0xffffffff81100000ull);
	assert_int_equal(ksyms_addr(ks, "nope"), 0);
	ksyms_free(ks);
}

/** Check addresses below the first symbol, zero and NULL tables. */
static void test_out_of_range(void **state)
{
	struct js_ksyms *ks;
	int err;

	(void)state;
	ks = load(fixture, &err);
	assert_int_equal(err, 0);
	assert_null(ksyms_name(ks, 0xffffffff80ffffffull));
	assert_null(ksyms_name(ks, 0));
	assert_null(ksyms_name(NULL, 0xffffffff81000000ull));
	assert_int_equal(ksyms_count(NULL), 0);
	ksyms_free(ks);
	ksyms_free(NULL);
}

/** Check that a table with hidden (zero) addresses, an empty file and a missing file fail. */
static void test_errors(void **state)
{
	struct js_ksyms *ks;
	int err;

	(void)state;
	ks = load(hidden, &err);
	assert_int_equal(err, -EPERM);
	assert_null(ks);
	ks = load("junk\n", &err);
	assert_int_equal(err, -ENOENT);
	assert_null(ks);
	assert_int_equal(ksyms_load_file(&ks, "/nonexistent/kallsyms"), -ENOENT);
	assert_null(ks);
}

/** Check a large sorted-by-construction table against a linear reference. */
static void test_many(void **state)
{
	char *text = malloc(2000 * 40), *p = text;
	struct js_ksyms *ks;
	uint64_t a, off;
	char want[32];
	int i, err;

	(void)state;
	for (i = 1999; i >= 0; i--) /* reverse order: the loader must sort */
		p += sprintf(p, "%016llx t f%d\n", 0xffffffff81000000ull + (uint64_t)i * 64, i);
	ks = load(text, &err);
	assert_int_equal(err, 0);
	assert_int_equal(ksyms_count(ks), 2000);
	for (a = 0xffffffff81000000ull; a < 0xffffffff81000000ull + 2000 * 64; a += 37) {
		snprintf(want, sizeof(want), "f%d", (int)((a - 0xffffffff81000000ull) / 64));
		assert_string_equal(ksyms_lookup(ks, a, &off), want);
		assert_int_equal(off, (a - 0xffffffff81000000ull) % 64);
	}
	ksyms_free(ks);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),  cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_alias),  cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_errors), cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests_name("ksyms", tests, NULL, NULL);
}
