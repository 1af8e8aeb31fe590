// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_on_end.c - --on-end CMD (issue 41): the variables built from the run's facts, the
 * exit status a measurement has (what JS_RUN_EXIT_STATUS says), the names of what ended a
 * run, and the command run for a synthetic run: its environment, JS_RUN_JSON (the --json
 * file, or a temporary copy removed after), a CPU that is not measured, a hanging command
 * killed at its timeout. No root needed.
 */
#include <linux/types.h>
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
#include "js_jsonparse.h"
#include "js_on_end.h"
#include "js_params.h"
#include "js_report.h"
#include "js_result.h"
#include "js_util.h"

#define MS 1000000ull
#define SEC 1000000000ull
#define T0 (5 * SEC)

/* every variable, in order, from the facts */
static void test_vars(void **state)
{
	char v[ON_END_VARS][ON_END_VAR_LEN];
	struct on_end_facts f = {
		.json = "/var/tmp/run.json",
		.status = 3,
		.ended_by = JS_END_ON_SPIKE,
		.lost_ns = 12345,
		.measured_ns = 10 * SEC,
		.verdict = "noisy",
	};
	static const char *const want[ON_END_VARS] = {
		"JS_RUN_JSON=/var/tmp/run.json",  "JS_RUN_EXIT_STATUS=3",
		"JS_RUN_ENDED_BY=on-spike",	  "JS_RUN_LOST_NS=12345",
		"JS_RUN_MEASURED_NS=10000000000", "JS_RUN_LOST_PCT=0.0001",
		"JS_RUN_VERDICT=noisy",
	};

	(void)state;
	assert_int_equal(on_end_vars(&f, v), ON_END_VARS);
	for (size_t i = 0; i < ON_END_VARS; i++)
		assert_string_equal(v[i], want[i]);
	/* nothing measured, no JSON, not known what ended it: empty, never a division by 0 */
	f = (struct on_end_facts){ .json = "", .verdict = "unjudged" };
	on_end_vars(&f, v);
	assert_string_equal(v[0], "JS_RUN_JSON=");
	assert_string_equal(v[2], "JS_RUN_ENDED_BY=");
	assert_string_equal(v[5], "JS_RUN_LOST_PCT=0.0000");
}

/* the exit status table (README.md): 1 over 2 over 3 over 0; the verdict word */
static void test_exit_status(void **state)
{
	struct js_budget none = { .n = 0 }, one = { .n = 1 };

	(void)state;
	assert_int_equal(report_exit_status(false, -1, JS_END_DURATION), 0);
	assert_int_equal(report_exit_status(false, 0, JS_END_SIGNAL), 0);
	assert_int_equal(report_exit_status(false, 0, JS_END_ON_SPIKE), JS_EXIT_ENDED);
	assert_int_equal(JS_EXIT_ENDED, 3);
	assert_int_equal(report_exit_status(false, 2, JS_END_ON_SPIKE), JS_EXIT_VIOLATION);
	assert_int_equal(report_exit_status(true, 2, JS_END_ON_SPIKE), JS_EXIT_ERROR);
	assert_int_equal(report_exit_status(true, -1, JS_END_OUTPUT), JS_EXIT_ERROR);
	assert_int_equal(report_exit_status(false, 1, JS_END_EXIT), JS_EXIT_VIOLATION);
	assert_string_equal(report_verdict_word(&none, 0), "unjudged");
	assert_string_equal(report_verdict_word(&one, -1), "unjudged");
	assert_string_equal(report_verdict_word(&one, 0), "clean");
	assert_string_equal(report_verdict_word(&one, 3), "noisy");
}

/* what ended a run: names and back */
static void test_end_names(void **state)
{
	(void)state;
	assert_null(js_end_name(JS_END_UNKNOWN));
	assert_string_equal(js_end_name(JS_END_ON_SPIKE), "on-spike");
	for (int e = JS_END_DURATION; e < JS_END_MAX; e++)
		assert_int_equal(js_end_from_name(js_end_name(e)), e);
	assert_int_equal(js_end_from_name("moon"), -1);
	assert_int_equal(js_end_from_name(""), -1);
	assert_null(js_end_name(JS_END_MAX));
}

/* var - the value of NAME in the `env` output text, into out ("" if absent) */
static void var(const char *text, const char *name, char *out, size_t len)
{
	char key[64];
	const char *p;
	size_t n;

	snprintf(key, sizeof(key), "\n%s=", name);
	p = strstr(text, key);
	out[0] = 0;
	if (!p)
		return;
	p += strlen(key);
	n = strcspn(p, "\n");
	snprintf(out, len, "%.*s", (int)JS_MIN(n, len - 1), p);
}

struct fx {
	struct js_params p;
	struct js_cpu_result cpus[1];
	struct js_run run;
	char out[128];
	char cmd[1024];
};

/* fx_new - a synthetic run of CPU 1 ended by its --on-spike command, and an --on-end
 * command that records its environment, its CPUs and a copy of $JS_RUN_JSON in out.* */
static void fx_new(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(fx_run(&f->run, f->cpus, 1, T0, T0 + 10 * SEC), 0);
	f->run.start_mono_ns = T0;
	f->run.wall_ns = 10 * SEC;
	f->run.interrupted = true;
	f->run.ended_by = JS_END_ON_SPIKE;
	f->run.clock.rdtscp.name = "rdtscp"; /* as a measurement names them */
	f->run.clock.lfence_rdtsc.name = "lfence_rdtsc";
	f->run.clock.monotonic.name = "clock_gettime_monotonic";
	f->p.cfg.cpus[0] = 1;
	f->p.cfg.ncpus = 1;
	f->p.on_end_timeout_ns = 5 * SEC;
	snprintf(f->out, sizeof(f->out), "/tmp/test_on_end.%d", (int)getpid());
	snprintf(f->cmd, sizeof(f->cmd),
		 "{ echo; env | grep ^JS_RUN_ | sort; grep ^Cpus_allowed_list /proc/$$/status; } "
		 ">%s.env; cp \"$JS_RUN_JSON\" %s.json",
		 f->out, f->out);
	f->p.on_end = f->cmd;
}

static void fx_free(struct fx *f)
{
	char path[160];

	snprintf(path, sizeof(path), "%s.env", f->out);
	unlink(path);
	snprintf(path, sizeof(path), "%s.json", f->out);
	unlink(path);
	result_cpu_free(&f->cpus[0]); /* run.cpus is f->cpus */
}

/* no --json: JS_RUN_JSON names a temporary copy of the run's document, there while the
 * command runs, removed after; the facts; the command never on the measured CPU */
static void test_run_temp_json(void **state)
{
	char env[4096], v[512], path[160];
	struct jsonp_doc doc;
	struct fx f;
	const struct jsonp_val *by;

	(void)state;
	fx_new(&f);
	setenv("JS_RUN_VERDICT", "inherited", 1); /* ours replace an inherited one */
	on_end_run(&f.p, &f.run, true, 3, -1);
	unsetenv("JS_RUN_VERDICT");
	snprintf(path, sizeof(path), "%s.env", f.out);
	fx_read_text(path, env, sizeof(env));
	var(env, "JS_RUN_JSON", v, sizeof(v));
	assert_true(v[0] == '/' && strstr(v, "/jitterscope-run-"));
	assert_int_equal(access(v, F_OK), -1); /* removed once the command ended */
	var(env, "JS_RUN_EXIT_STATUS", v, sizeof(v));
	assert_string_equal(v, "3");
	var(env, "JS_RUN_ENDED_BY", v, sizeof(v));
	assert_string_equal(v, "on-spike");
	var(env, "JS_RUN_VERDICT", v, sizeof(v));
	assert_string_equal(v, "unjudged");
	var(env, "JS_RUN_MEASURED_NS", v, sizeof(v));
	assert_true(strtoull(v, NULL, 10) > 0);
	assert_non_null(strstr(env, "\nJS_RUN_LOST_NS="));
	assert_non_null(strstr(env, "\nJS_RUN_LOST_PCT="));
	assert_non_null(strstr(env, "Cpus_allowed_list:"));
	assert_null(strstr(env, "Cpus_allowed_list:\t1\n"));
	/* the copy the command made is the run's document */
	snprintf(path, sizeof(path), "%s.json", f.out);
	fx_json_file(path, &doc);
	by = jsonp_get(doc.root, "ended_by");
	assert_non_null(by);
	assert_string_equal(by->str.s, "on-spike");
	jsonp_free(&doc);
	fx_free(&f);
}

/* --json FILE: JS_RUN_JSON is that file (absolute), left in place; a failed --json output
 * gets the temporary copy */
static void test_run_json_file(void **state)
{
	char env[4096], v[512], path[160], json[160], abs[4096];
	struct fx f;
	FILE *fp;

	(void)state;
	fx_new(&f);
	snprintf(json, sizeof(json), "%s.run.json", f.out);
	fp = fopen(json, "w");
	assert_non_null(fp);
	out_json_write(fp, &f.run);
	fclose(fp);
	f.p.json_path = json;
	on_end_run(&f.p, &f.run, true, 0, 0);
	snprintf(path, sizeof(path), "%s.env", f.out);
	fx_read_text(path, env, sizeof(env));
	var(env, "JS_RUN_JSON", v, sizeof(v));
	assert_non_null(realpath(json, abs));
	assert_string_equal(v, abs);
	assert_int_equal(access(json, F_OK), 0);
	on_end_run(&f.p, &f.run, false, 1, -1); /* its write failed */
	fx_read_text(path, env, sizeof(env));
	var(env, "JS_RUN_JSON", v, sizeof(v));
	assert_non_null(strstr(v, "/jitterscope-run-"));
	var(env, "JS_RUN_EXIT_STATUS", v, sizeof(v));
	assert_string_equal(v, "1");
	unlink(json);
	fx_free(&f);
}

/* a command that hangs is killed at its timeout; one that fails returns at once, long
 * before its timeout. The bounds stand between the two outcomes (a command not killed runs
 * 30 s; one waited for, 20 s), not on how fast a loaded machine starts a shell: a suite run
 * took over a second to run "exit 7" */
static void test_run_timeout(void **state)
{
	struct fx f;
	uint64_t t0;

	(void)state;
	fx_new(&f);
	f.p.on_end = "sleep 30";
	f.p.on_end_timeout_ns = 300 * MS;
	t0 = js_mono_ns();
	on_end_run(&f.p, &f.run, true, 0, -1);
	assert_true(js_mono_ns() - t0 >= 300 * MS && js_mono_ns() - t0 < 10000 * MS);
	f.p.on_end = "exit 7";
	f.p.on_end_timeout_ns = 20000 * MS;
	t0 = js_mono_ns();
	on_end_run(&f.p, &f.run, true, 0, -1);
	assert_true(js_mono_ns() - t0 < 10000 * MS);
	f.p.on_end = NULL; /* none: nothing */
	on_end_run(&f.p, &f.run, true, 0, -1);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vars),	      cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_end_names),     cmocka_unit_test(test_run_temp_json),
		cmocka_unit_test(test_run_json_file), cmocka_unit_test(test_run_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
