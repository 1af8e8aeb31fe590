// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_robust.c - robustness rules that need no root (docs/ROBUSTNESS.md): every command
 * line error is one line on stderr, values that would overflow or silently mean something
 * else are refused, TSC invariance from either source, and the edge cases the sanitizers
 * found (empty event windows, -n 0, short cause details). Run it under `make asan` and
 * `make valgrind` for the memory half of the checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_causes.h"
#include "js_correlate.h"
#include "js_params.h"
#include "js_result.h"
#include "js_tsc.h"

static struct js_params p;

/* stderr_lines - run cli_parse on argv (NULL-terminated, without argv[0]) with stderr
 * captured; returns the number of lines it printed, *ret the parse result */
static int stderr_lines(int *ret, char **args)
{
	static char store[32][256];
	char *argv[33], buf[4096];
	int argc = 0, saved, lines = 0;
	FILE *tmp = tmpfile();
	size_t n;

	assert_non_null(tmp);
	argv[argc++] = "jitterscope";
	for (; *args && argc < 32; args++, argc++) {
		snprintf(store[argc], sizeof(store[0]), "%s", *args);
		argv[argc] = store[argc];
	}
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	*ret = cli_parse(argc, argv, &p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	for (size_t i = 0; i < n; i++)
		lines += buf[i] == '\n';
	if ((*ret && lines != 1) || (lines && strncmp(buf, "jitterscope", 11)))
		print_message("  stderr for '%s': %s", argv[1] ? argv[1] : "", buf);
	return lines;
}

/** Every usage error, whoever reports it (argp, getopt, our checks), is exactly one line. */
static void test_one_line_errors(void **st)
{
	static char *bad[][6] = {
		{ "--bogus" },
		{ "--cpu" },
		{ "stray" },
		{ "-d", "5x" },
		{ "-d", "-1" },
		{ "--cpu", "4096" },
		{ "--cpu", "" },
		{ "-T", "0" },
		{ "-d", "1", "-T", "2s" },
		{ "--json", "a", "--gaps", "a" },
		{ "--burst", "5" },
		{ "-c", "1", "-H", "1" },
		{ "check", "--cpu", "x" },
		{ "report" },
		{ "diff", "a" },
		{ "-P", "f:0" },
		{ "--ring-size", "3" },
		{ "--budget", "max=" },
		{ "--hlog-interval", "1us" },
		{ "--sysroot", "/tmp" },
	};
	int ret;

	(void)st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(stderr_lines(&ret, bad[i]), 1);
		assert_int_not_equal(ret, 0);
	}
}

/** --version and --help: no error, p.help set (main exits 0 before doing anything). */
static void test_version(void **st)
{
	static char *v[] = { "--version", NULL }, *s[] = { "-V", NULL };
	int ret;

	int out = dup(1), null = open("/dev/null", O_WRONLY);

	(void)st;
	fflush(stdout);
	dup2(null, 1); /* the version goes to stdout */
	assert_int_equal(stderr_lines(&ret, v), 0);
	assert_int_equal(ret, 0);
	assert_true(p.help);
	assert_int_equal(stderr_lines(&ret, s), 0);
	assert_true(p.help);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	close(null);
}

/* parse_one - cli_parse of "OPT VALUE" (stderr captured); its result */
static int parse_one(const char *opt, const char *value)
{
	char *args[] = { (char *)opt, (char *)value, NULL };
	int ret;

	stderr_lines(&ret, args);
	return ret;
}

/** Durations: a non-zero value below 1 ns is not 0 (= until Ctrl-C); 292 years at most. */
static void test_duration_edges(void **st)
{
	(void)st;
	assert_int_equal(parse_one("-d", "0"), 0);
	assert_true(p.cfg.duration_ns == 0);
	assert_int_equal(parse_one("-d", "0.000"), 0);
	assert_true(p.cfg.duration_ns == 0);
	assert_int_not_equal(parse_one("-d", "0.0000000001"), 0);
	assert_int_not_equal(parse_one("-T", "0.0001"), 0); /* 0.1 ns */
	assert_int_equal(parse_one("-T", "0.5ns"), 0);	    /* rounds to 1 */
	assert_true(p.cfg.threshold_ns == 1);
	assert_int_equal(parse_one("-d", "106751d"), 0); /* 292 years */
	assert_true(p.cfg.duration_ns == 106751ull * 86400000000000ull);
	assert_int_not_equal(parse_one("-d", "106752d"), 0); /* > INT64_MAX ns */
	assert_int_not_equal(parse_one("-d", "99999999999999999999"), 0);
}

/** TSC invariance: cpuinfo flags or CPUID; neither -> not invariant (preflight warns). */
static void test_tsc_invariance(void **st)
{
	struct tsc_caps c;

	(void)st;
	memset(&c, 0, sizeof(c));
	assert_false(tsc_caps_invariant(&c));
	c.constant_tsc = true;
	assert_false(tsc_caps_invariant(&c));
	c.nonstop_tsc = true;
	assert_true(tsc_caps_invariant(&c));
	memset(&c, 0, sizeof(c));
	c.invariant_cpuid = true;
	assert_true(tsc_caps_invariant(&c));
}

/** An empty event window (ev NULL), gaps with short literal details, and -n 0. */
static void test_sanitizer_edges(void **st)
{
	struct js_gap_rec recs[3];
	struct js_cpu_result r;
	struct js_causes c;

	(void)st;
	memset(recs, 0, sizeof(recs));
	for (int i = 0; i < 3; i++) {
		recs[i].gap.start_ns = 1000000ull * (i + 1);
		recs[i].gap.dur_ns = 5000;
	}
	assert_int_equal(corr_attribute_recs(recs, 3, NULL, 0, NULL), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(recs[i].attr.primary, JS_CAUSE_UNEXPLAINED);
	/* a window that could not be made (out of memory): all unexplained, said so */
	recs[1].attr.primary = JS_CAUSE_TASK;
	assert_int_equal(corr_window_attribute(NULL, recs, 3), -ENOMEM);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(recs[i].attr.primary, JS_CAUSE_UNEXPLAINED);
		assert_int_equal(recs[i].attr.unexplained_ns, 5000);
	}
	causes_init(&c);
	recs[0].attr.steal_ns = 100; /* a steal part: detail is a short literal */
	causes_add_gap(&c, &recs[0]);
	assert_true(c.ngaps == 1);
	memset(&r, 0, sizeof(r));
	assert_int_equal(result_cpu_init(&r, 1, 0), 0);
	for (int i = 0; i < 3; i++)
		result_add_gap(&r, &recs[i]);
	assert_int_equal(result_top_sorted(&r, NULL), 0);
	assert_true(r.gap_count == 3);
	result_cpu_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_line_errors), cmocka_unit_test(test_version),
		cmocka_unit_test(test_duration_edges),	cmocka_unit_test(test_tsc_invariance),
		cmocka_unit_test(test_sanitizer_edges),
	};

	return cmocka_run_group_tests_name("robust", tests, NULL, NULL);
}
