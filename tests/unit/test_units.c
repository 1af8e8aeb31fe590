// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_units.c - the one TIME/SIZE parser: every spelling accepted or refused, exact
 * values and the rounding rule, the range ends, the messages; and the same spellings
 * through every TIME option of the command line, accepted or refused alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_budget.h"
#include "js_params.h"
#include "js_units.h"
#include "js_util.h"

#define MU_B5 "\xc2\xb5"  /* MICRO SIGN U+00B5 */
#define MU_3BC "\xce\xbc" /* GREEK SMALL LETTER MU U+03BC */
#define BAD_FORM (-EINVAL)
#define BAD_RANGE (-ERANGE)

struct row {
	const char *s;
	int ret;    /* 0, BAD_FORM or BAD_RANGE */
	uint64_t v; /* the value when ret is 0 */
};

/* check_rows - every row through parse with spec: the result, the value, a message */
static void check_rows(int (*parse)(const char *, const struct js_unit_spec *, uint64_t *, char *,
				    size_t),
		       const struct js_unit_spec *spec, const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 12345;
		char err[256] = "";
		int ret = parse(rows[i].s, spec, &v, err, sizeof(err));

		if (ret != rows[i].ret)
			fail_msg("'%s': returned %d, want %d (%s)", rows[i].s, ret, rows[i].ret,
				 err);
		if (!ret && v != rows[i].v)
			fail_msg("'%s': %llu, want %llu", rows[i].s, (unsigned long long)v,
				 (unsigned long long)rows[i].v);
		if (ret && (v != 12345 || !err[0] || strchr(err, '\n')))
			fail_msg("'%s': refused, but the value changed or no one-line message",
				 rows[i].s);
	}
}

/** TIME: every unit and spelling, with microseconds for a bare number. */
static void test_time_spellings(void **st)
{
	static const struct js_unit_spec spec = { JS_US, 0, JS_TIME_MAX, NULL };
	static const struct row rows[] = {
		{ "500ns", 0, 500 },
		{ "1us", 0, 1000 },
		{ "1" MU_B5 "s", 0, 1000 },
		{ "1" MU_3BC "s", 0, 1000 },
		{ "2ms", 0, 2000000 },
		{ "1s", 0, JS_SEC },
		{ "5m", 0, 300 * JS_SEC },
		{ "1h", 0, 3600 * JS_SEC },
		{ "2d", 0, 2 * JS_DAY },
		{ "5", 0, 5000 },
		{ "0", 0, 0 },
		{ "0.000", 0, 0 },
		{ "0ns", 0, 0 },
		{ "1.5us", 0, 1500 },
		{ "1.5ms", 0, 1500000 },
		{ "0.0000005s", 0, 500 },
		{ "0.5", 0, 500 },
		{ ".5", 0, 500 },
		{ "5.", 0, 5000 },
		{ ".5ms", 0, 500000 },
		{ "1500ms", 0, 1500000000 },
		{ "0.25h", 0, 900 * JS_SEC },
		{ "0.01d", 0, 864 * JS_SEC },
		{ "007us", 0, 7000 },
		{ "1.000000000000000000000000000000s", 0, JS_SEC }, /* trailing zeros */
		/* not a TIME */
		{ "", BAD_FORM, 0 },
		{ "-5us", BAD_FORM, 0 },
		{ "-0", BAD_FORM, 0 },
		{ "+5us", BAD_FORM, 0 },
		{ "abc", BAD_FORM, 0 },
		{ "5xs", BAD_FORM, 0 },
		{ "1e99s", BAD_FORM, 0 },
		{ "1e3", BAD_FORM, 0 },
		{ "1E3ns", BAD_FORM, 0 },
		{ "1e-3s", BAD_FORM, 0 },
		{ "5 us", BAD_FORM, 0 },
		{ " 5us", BAD_FORM, 0 },
		{ "5us ", BAD_FORM, 0 },
		{ "5\tus", BAD_FORM, 0 },
		{ "5US", BAD_FORM, 0 },
		{ "5Ms", BAD_FORM, 0 },
		{ "5S", BAD_FORM, 0 },
		{ ".", BAD_FORM, 0 },
		{ ".us", BAD_FORM, 0 },
		{ "us", BAD_FORM, 0 },
		{ "1..5", BAD_FORM, 0 },
		{ "1.5.", BAD_FORM, 0 },
		{ "1.5.3us", BAD_FORM, 0 },
		{ "5usx", BAD_FORM, 0 },
		{ "5u", BAD_FORM, 0 },
		{ "5" MU_B5, BAD_FORM, 0 },
		{ "5\xc2s", BAD_FORM, 0 },
		{ "0x10", BAD_FORM, 0 },
		{ "5s5", BAD_FORM, 0 },
		{ "1,5ms", BAD_FORM, 0 },
		{ "5_000ns", BAD_FORM, 0 },
		{ "nan", BAD_FORM, 0 },
		{ "inf", BAD_FORM, 0 },
		{ "5min", BAD_FORM, 0 },
		{ "5sec", BAD_FORM, 0 },
		{ "1K", BAD_FORM, 0 },
		{ "0.0000000000000000000000001s", BAD_FORM, 0 }, /* 25 decimals */
	};

	(void)st;
	check_rows(js_parse_time, &spec, rows, ARRAY_SIZE(rows));
}

/** TIME: digits below 1 ns round to the nearest ns, halves up; non-zero never becomes 0. */
static void test_time_rounding(void **st)
{
	static const struct js_unit_spec spec = { JS_SEC, 0, JS_TIME_MAX, NULL };
	static const struct row rows[] = {
		{ "0.5ns", 0, 1 },
		{ "1.5ns", 0, 2 },
		{ "2.5ns", 0, 3 },
		{ "1.49999ns", 0, 1 },
		{ "1.0004us", 0, 1000 },
		{ "1.0005us", 0, 1001 },
		{ "1.00049999us", 0, 1000 },
		{ "0.0000000015", 0, 2 },
		{ "1.0000000004", 0, JS_SEC },
		{ "1.0000000005", 0, JS_SEC + 1 },
		{ "0.000000000000000000000001d", BAD_RANGE, 0 },
		{ "0.4ns", BAD_RANGE, 0 },
		{ "0.0000000001", BAD_RANGE, 0 },
		{ "0.000000000499999999999999s", BAD_RANGE, 0 },
		{ "0.000000000500000000000000s", 0, 1 },
		{ "0.000000000000000000000001m", BAD_RANGE, 0 }, /* 24 decimals: exact */
		{ "0.0000000000083333333333333m", BAD_FORM, 0 }, /* 25 decimals */
	};

	(void)st;
	check_rows(js_parse_time, &spec, rows, ARRAY_SIZE(rows));
}

/** TIME: the largest value (INT64_MAX ns, 292 years) fits, one more is out of range. */
static void test_time_limits(void **st)
{
	static const struct js_unit_spec spec = { JS_SEC, 0, JS_TIME_MAX, NULL };
	static const struct row rows[] = {
		{ "9223372036854775807ns", 0, JS_TIME_MAX },
		{ "9223372036.854775807s", 0, JS_TIME_MAX },
		{ "9223372036.8547758074", 0, JS_TIME_MAX },
		{ "106751d", 0, 106751 * JS_DAY },
		{ "9223372036854775808ns", BAD_RANGE, 0 },
		{ "9223372036.8547758075", BAD_RANGE, 0 }, /* rounds past the end */
		{ "106752d", BAD_RANGE, 0 },
		{ "18446744073709551616ns", BAD_RANGE, 0 },
		{ "99999999999999999999999999999999999999999d", BAD_RANGE, 0 },
		{ "99999999999999999999999999999999999999999xs", BAD_FORM, 0 },
	};

	(void)st;
	check_rows(js_parse_time, &spec, rows, ARRAY_SIZE(rows));
}

/** TIME: the per-option default unit, a required unit, and an option's own range. */
static void test_time_specs(void **st)
{
	static const struct js_unit_spec none = { 0, 0, JS_TIME_MAX, NULL };
	static const struct js_unit_spec pos = { JS_NS, 1, 3600 * JS_SEC, NULL };
	static const struct js_unit_spec ms = { JS_SEC, JS_MS, JS_TIME_MAX, NULL };
	static const struct row r_none[] = {
		{ "5", BAD_FORM, 0 },
		{ "0", BAD_FORM, 0 },
		{ "5us", 0, 5000 },
		{ "0ns", 0, 0 },
	};
	static const struct row r_pos[] = {
		{ "5", 0, 5 },
		{ "0", BAD_RANGE, 0 },
		{ "0us", BAD_RANGE, 0 },
		{ "1", 0, 1 },
		{ "1h", 0, 3600 * JS_SEC },
		{ "60m", 0, 3600 * JS_SEC },
		{ "3600.000000001s", BAD_RANGE, 0 },
		{ "61m", BAD_RANGE, 0 },
		{ "3600.0000000004s", 0, 3600 * JS_SEC },
	};
	static const struct row r_ms[] = {
		{ "1ms", 0, JS_MS },   { "0.001", 0, JS_MS }, { "999us", BAD_RANGE, 0 },
		{ "0", BAD_RANGE, 0 }, { "1", 0, JS_SEC },
	};

	(void)st;
	check_rows(js_parse_time, &none, r_none, ARRAY_SIZE(r_none));
	check_rows(js_parse_time, &pos, r_pos, ARRAY_SIZE(r_pos));
	check_rows(js_parse_time, &ms, r_ms, ARRAY_SIZE(r_ms));
}

/** SIZE: B and powers of 1024, the same number grammar and rounding, up to UINT64_MAX. */
static void test_sizes(void **st)
{
	static const struct js_unit_spec spec = { 1, 0, UINT64_MAX, NULL };
	static const struct js_unit_spec kib = { JS_KIB, 1, 64 * JS_MIB, NULL };
	static const struct row rows[] = {
		{ "0", 0, 0 },
		{ "512", 0, 512 },
		{ "512B", 0, 512 },
		{ "1K", 0, 1024 },
		{ "1KiB", 0, 1024 },
		{ "1.5M", 0, 1572864 },
		{ "1MiB", 0, JS_MIB },
		{ "2G", 0, 2 * JS_GIB },
		{ "1GiB", 0, JS_GIB },
		{ "1T", 0, JS_TIB },
		{ "1TiB", 0, JS_TIB },
		{ "0.5K", 0, 512 },
		{ ".25K", 0, 256 },
		{ "1.0001K", 0, 1024 },
		{ "0.5B", 0, 1 },
		{ "0.3B", BAD_RANGE, 0 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", BAD_RANGE, 0 },
		{ "16777216T", BAD_RANGE, 0 },
		{ "16777215.999999999999T", 0, UINT64_MAX },
		{ "", BAD_FORM, 0 },
		{ "-1K", BAD_FORM, 0 },
		{ "1KB", BAD_FORM, 0 },
		{ "1kB", BAD_FORM, 0 },
		{ "1k", BAD_FORM, 0 },
		{ "1Ki", BAD_FORM, 0 },
		{ "1Kib", BAD_FORM, 0 },
		{ "1 K", BAD_FORM, 0 },
		{ "1e3K", BAD_FORM, 0 },
		{ "1ms", BAD_FORM, 0 },
		{ "1s", BAD_FORM, 0 },
		{ "1b", BAD_FORM, 0 },
		{ "1P", BAD_FORM, 0 },
		{ "abc", BAD_FORM, 0 },
	};
	static const struct row r_kib[] = {
		{ "4", 0, 4096 },	   { "4K", 0, 4096 },	  { "4096B", 0, 4096 },
		{ "64M", 0, 64 * JS_MIB }, { "0", BAD_RANGE, 0 }, { "65537K", BAD_RANGE, 0 },
		{ "1G", BAD_RANGE, 0 },
	};

	(void)st;
	check_rows(js_parse_size, &spec, rows, ARRAY_SIZE(rows));
	check_rows(js_parse_size, &kib, r_kib, ARRAY_SIZE(r_kib));
}

/** Messages: the reason, the accepted spellings, the default unit, the broken bound. */
static void test_messages(void **st)
{
	static const struct js_unit_spec dur = { JS_SEC, 0, JS_TIME_MAX, "0 = until Ctrl-C" };
	static const struct js_unit_spec req = { 0, 1, 3600 * JS_SEC, NULL };
	static const struct js_unit_spec ms = { JS_SEC, JS_MS, JS_TIME_MAX, NULL };
	static const struct js_unit_spec kib = { JS_KIB, 0, UINT64_MAX, NULL };
	static const struct js_unit_spec gib = { 1, 0, JS_GIB, NULL };
	static const struct {
		const struct js_unit_spec *spec;
		const char *s, *want;
	} t[] = {
		{ &dur, "5xs",
		  "unknown unit 'xs' (a number and a unit: ns, us, ms, s, m, h or d; "
		  "a bare number is s; 0 = until Ctrl-C)" },
		{ &dur, "-5us", "negative (" },
		{ &dur, "5\nx", "unknown unit '?x' (" }, /* one line, whatever the input */
		{ &dur, "abc", "not a number (" },
		{ &dur, "1e99s", "no exponents (" },
		{ &dur, "5 us", "a space in the value (" },
		{ &dur, "", "empty (" },
		{ &dur, "99999999999999999999", "out of range: at most 9223372036854775807ns" },
		{ &dur, "0.1ns", "out of range: below 1ns" },
		{ &req, "5", "no unit (a number and a unit: ns, us, ms, s, m, h or d)" },
		{ &req, "2h", "out of range: at most 1h" },
		{ &req, "0s", "must be > 0" },
		{ &ms, "10us", "out of range: at least 1ms" },
	};
	char err[256];
	uint64_t v;

	(void)st;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		assert_int_not_equal(js_parse_time(t[i].s, t[i].spec, &v, err, sizeof(err)), 0);
		if (strncmp(err, t[i].want, strlen(t[i].want)))
			fail_msg("'%s': \"%s\", want \"%s...\"", t[i].s, err, t[i].want);
	}
	assert_int_equal(js_parse_size("1KB", &kib, &v, err, sizeof(err)), BAD_FORM);
	assert_string_equal(err, "unknown unit 'KB' (a number and a unit: B, KiB, MiB, GiB or "
				 "TiB; a bare number is KiB)");
	assert_int_equal(js_parse_size("1T", &gib, &v, err, sizeof(err)), BAD_RANGE);
	assert_string_equal(err, "out of range: at most 1GiB");
	/* no buffer, a one-byte buffer: refused all the same */
	assert_int_equal(js_parse_time("x", &dur, &v, NULL, 0), BAD_FORM);
	err[0] = 'x';
	assert_int_equal(js_parse_time("x", &dur, &v, err, 1), BAD_FORM);
	assert_int_equal(err[0], '\0');
	assert_int_equal(js_parse_time(NULL, &dur, &v, err, sizeof(err)), BAD_FORM);
}

/** js_errf: formats, truncates, tolerates no buffer, and returns -EINVAL. */
static void test_errf(void **st)
{
	char err[8];

	(void)st;
	assert_int_equal(js_errf(err, sizeof(err), "%s %d", "abc", 42), -EINVAL);
	assert_string_equal(err, "abc 42");
	assert_int_equal(js_errf(err, sizeof(err), "%s", "0123456789"), -EINVAL);
	assert_string_equal(err, "0123456");
	assert_int_equal(js_errf(NULL, 0, "%s", "x"), -EINVAL);
}

/* --- the same spellings through every TIME option of the command line --- */

static struct js_params p;

/* cli - cli_parse of the NULL-terminated arguments, its one-line errors thrown away */
static int cli(const char *first, ...)
{
	static char store[8][160];
	char *argv[9];
	int argc = 0, ret, saved, null;
	va_list ap;

	argv[argc++] = "jitterscope";
	va_start(ap, first);
	for (const char *a = first; a && argc < 8; a = va_arg(ap, const char *), argc++) {
		snprintf(store[argc], sizeof(store[0]), "%s", a);
		argv[argc] = store[argc];
	}
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	ret = cli_parse(argc, argv, &p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	return ret;
}

enum { OPT_T, OPT_D, OPT_WARMUP, OPT_HLOG, OPT_BUDGET, OPT_ARRIVAL, NOPTS };
static const char *const opt_name[NOPTS] = {
	"-T", "-d", "--warm-up", "--hlog-interval", "--budget max=", "--arrival-interval",
};

/* through - value through option o; 0 and *ns, or cli_parse's refusal */
static int through(int o, const char *value, uint64_t *ns)
{
	char item[160];
	int ret;

	switch (o) {
	case OPT_T: /* until Ctrl-C: any threshold is shorter than the run */
		ret = cli("-d", "0", "-T", value, NULL);
		*ns = p.cfg.threshold_ns;
		return ret;
	case OPT_D:
		ret = cli("-d", value, NULL);
		*ns = p.cfg.duration_ns;
		return ret;
	case OPT_WARMUP:
		ret = cli("--warm-up", value, NULL);
		*ns = p.cfg.warmup_ns;
		return ret;
	case OPT_HLOG:
		ret = cli("--hlog-interval", value, NULL);
		*ns = p.hlog_interval_ns;
		return ret;
	case OPT_BUDGET:
		snprintf(item, sizeof(item), "max=%s", value);
		ret = cli("--budget", item, NULL);
		if (!ret) {
			assert_int_equal(p.budget.n, 1);
			*ns = p.budget.v[0].limit;
		}
		return ret;
	default:
		ret = cli("--arrival-interval", value, NULL);
		*ns = p.cfg.narrivals == 1 ? p.cfg.arrival_ns[0] : 0;
		return ret;
	}
}

/** Every TIME option accepts the same spellings with the same value, and refuses the same
 * nonsense (values from 1 ms to 1 h: inside every option's range). A trailing space is not
 * here: --budget trims the items of its list, as documented. */
static void test_every_option(void **st)
{
	static const struct row rows[] = {
		{ "1ms", 0, JS_MS },
		{ "1.5ms", 0, 1500000 },
		{ "1500us", 0, 1500000 },
		{ "1500" MU_B5 "s", 0, 1500000 },
		{ "1500" MU_3BC "s", 0, 1500000 },
		{ "1500000ns", 0, 1500000 },
		{ "0.0015s", 0, 1500000 },
		{ "2s", 0, 2 * JS_SEC },
		{ ".5s", 0, JS_SEC / 2 },
		{ "5.s", 0, 5 * JS_SEC },
		{ "5m", 0, 300 * JS_SEC },
		{ "0.5h", 0, 1800 * JS_SEC },
		{ "1h", 0, 3600 * JS_SEC },
		{ "0.01d", 0, 864 * JS_SEC },
		{ "1.0000000005s", 0, JS_SEC + 1 },
		{ "1.0000000004s", 0, JS_SEC },
		{ "1500ms", 0, 1500000000 },
		{ "5xs", BAD_FORM, 0 },
		{ "-5us", BAD_FORM, 0 },
		{ "abc", BAD_FORM, 0 },
		{ "1e99s", BAD_FORM, 0 },
		{ "", BAD_FORM, 0 },
		{ "5 us", BAD_FORM, 0 },
		{ "+5ms", BAD_FORM, 0 },
		{ " 5ms", BAD_FORM, 0 },
		{ "1e3ms", BAD_FORM, 0 },
		{ "5MS", BAD_FORM, 0 },
		{ "1..5ms", BAD_FORM, 0 },
		{ "0x5ms", BAD_FORM, 0 },
		{ "ms", BAD_FORM, 0 },
		{ "5" MU_B5, BAD_FORM, 0 },
		{ "1,5ms", BAD_FORM, 0 },
		{ "nan", BAD_FORM, 0 },
		{ "5min", BAD_FORM, 0 },
		{ "99999999999999999999999s", BAD_RANGE, 0 },
		{ "0.0000000000000000000000001s", BAD_FORM, 0 },
	};

	(void)st;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		for (int o = 0; o < NOPTS; o++) {
			uint64_t ns = 0;
			int ret = through(o, rows[i].s, &ns);

			if (!ret != !rows[i].ret)
				fail_msg("%s '%s': %s", opt_name[o], rows[i].s,
					 ret ? "refused" : "accepted");
			if (!ret && ns != rows[i].v)
				fail_msg("%s '%s': %llu ns, want %llu", opt_name[o], rows[i].s,
					 (unsigned long long)ns, (unsigned long long)rows[i].v);
		}
}

/** A bare number: each option's default unit (-T us; -d, --warm-up, --hlog-interval s);
 * --budget and --arrival-interval need the unit (a bare budget value is a count). */
static void test_bare_numbers(void **st)
{
	static const uint64_t unit[NOPTS] = { JS_US, JS_SEC, JS_SEC, JS_SEC, 0, 0 };

	(void)st;
	for (int o = 0; o < NOPTS; o++) {
		uint64_t ns = 0;
		int ret = through(o, "2", &ns);

		if (!ret != !!unit[o])
			fail_msg("%s '2': %s", opt_name[o], ret ? "refused" : "accepted");
		if (!ret && ns != 2 * unit[o])
			fail_msg("%s '2': %llu ns", opt_name[o], (unsigned long long)ns);
		ret = through(o, "2.5", &ns);
		if (!ret && ns != 5 * unit[o] / 2)
			fail_msg("%s '2.5': %llu ns", opt_name[o], (unsigned long long)ns);
	}
	/* the ranges that differ: 0 is a duration (until Ctrl-C) and a warm-up, not a
	 * threshold, an hlog interval or an arrival interval */
	assert_int_equal(cli("-d", "0", NULL), 0);
	assert_int_equal(cli("--warm-up", "0", NULL), 0);
	assert_int_not_equal(cli("-T", "0", NULL), 0);
	assert_int_not_equal(cli("--hlog-interval", "0", NULL), 0);
	assert_int_not_equal(cli("--hlog-interval", "999us", NULL), 0);
	assert_int_not_equal(cli("--arrival-interval", "0ns", NULL), 0);
	assert_int_not_equal(cli("--arrival-interval", "3601s", NULL), 0);
	assert_int_equal(cli("--budget", "max=0ns", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_spellings), cmocka_unit_test(test_time_rounding),
		cmocka_unit_test(test_time_limits),    cmocka_unit_test(test_time_specs),
		cmocka_unit_test(test_sizes),	       cmocka_unit_test(test_messages),
		cmocka_unit_test(test_errf),	       cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_bare_numbers),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
