// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_report_diff.c - the diff's verdicts (histogram slot, Poisson noise, per-second
 * normalisation), its rows, and its text and JSON renderings of two synthetic runs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_diff.h"
#include "js_jsonparse.h"

#define T0 1000000000000ull


/** Counts: the same rate within 3 sigma is "same"; windows of different length compare
 * per second. */
static void test_count_verdict(void **state)
{
	(void)state;
	assert_int_equal(diff_count_verdict(0, 1, 0, 1), DIFF_SAME);
	assert_int_equal(diff_count_verdict(1000, 1, 1000, 1), DIFF_SAME);
	/* sigma = sqrt(1000 + 1090) = 45.7: 90 is within 3 sigma, 150 is not */
	assert_int_equal(diff_count_verdict(1000, 1, 1090, 1), DIFF_SAME);
	assert_int_equal(diff_count_verdict(1000, 1, 1150, 1), DIFF_WORSE);
	assert_int_equal(diff_count_verdict(1000, 1, 850, 1), DIFF_BETTER);
	/* the same rate over twice the window */
	assert_int_equal(diff_count_verdict(1000, 10, 2000, 20), DIFF_SAME);
	assert_int_equal(diff_count_verdict(1000, 10, 1000, 20), DIFF_BETTER);
	/* 0 -> 5 events is noise, 0 -> 50 is not */
	assert_int_equal(diff_count_verdict(0, 1, 5, 1), DIFF_SAME);
	assert_int_equal(diff_count_verdict(0, 1, 50, 1), DIFF_WORSE);
	/* a zero-length window does not divide by zero */
	assert_int_equal(diff_count_verdict(10, 0, 10, 0), DIFF_SAME);
}

/** Times: noise grows with the squared durations. */
static void test_time_verdict(void **state)
{
	(void)state;
	/* 100 gaps of 10 us: 1 ms, Q = 100 * 1e8 = 1e10, sigma(diff) = sqrt(2e10) = 141 us */
	assert_int_equal(diff_time_verdict(1e6, 1e10, 1, 1.3e6, 1e10, 1), DIFF_SAME);
	assert_int_equal(diff_time_verdict(1e6, 1e10, 1, 1.5e6, 1e10, 1), DIFF_WORSE);
	assert_int_equal(diff_time_verdict(1e6, 1e10, 1, 0.5e6, 1e10, 1), DIFF_BETTER);
	/* one 1 ms gap more or less is noise when gaps are ms long */
	assert_int_equal(diff_time_verdict(10e6, 10 * 1e12, 1, 11e6, 11 * 1e12, 1), DIFF_SAME);
}

/** Histogram values: one slot apart is the same, two slots apart is not. */
static void test_hist_verdict(void **state)
{
	struct js_hist h;
	int64_t v = 1000000, w;

	(void)state;
	assert_int_equal(hist_init(&h, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG), 0);
	w = hist_size_equivalent(&h, v);
	assert_true(w > 1);
	assert_int_equal(diff_hist_verdict(&h, v, v), DIFF_SAME);
	assert_int_equal(diff_hist_verdict(&h, v, v + w), DIFF_SAME);
	assert_int_equal(diff_hist_verdict(&h, v, v + 3 * w), DIFF_WORSE);
	assert_int_equal(diff_hist_verdict(&h, v + 3 * w, v), DIFF_BETTER);
	assert_int_equal(diff_hist_verdict(&h, 0, 0), DIFF_SAME);
	assert_int_equal(diff_hist_verdict(&h, 0, 5), DIFF_WORSE);
	/* sum of squares: 3 x 1000 ns (exact slots below 2048) = 3e6 */
	hist_record_n(&h, 1000, 3);
	assert_true(fabs(diff_sum_squares(&h) - 3e6) < 1);
	hist_free(&h);
}

/* fill - a CPU with n gaps of dur ns, all of cause c, over a window of win ns */
static void fill(struct js_cpu_result *r, int cpu, uint64_t n, uint64_t dur, uint32_t c,
		 uint64_t win)
{
	assert_int_equal(result_cpu_init(r, cpu, 5), 0);
	r->start_ns = T0;
	r->end_ns = T0 + win;
	for (uint64_t i = 0; i < n; i++) {
		struct js_gap_rec g;

		memset(&g, 0, sizeof(g));
		g.gap.start_ns = T0 + i * (win / (n + 1));
		g.gap.dur_ns = dur;
		g.attr.primary = c;
		g.attr.nparts = 1;
		g.attr.parts[0].cause = c;
		g.attr.parts[0].count = 1;
		g.attr.parts[0].net_ns = dur;
		snprintf(g.attr.parts[0].detail, JS_DETAIL_LEN, "src");
		g.attr.covered_ns = dur;
		result_add_gap(r, &g);
	}
}

static const struct js_diff_row *find(const struct js_diff_row *rows, size_t n, const char *m)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].metric, m))
			return &rows[i];
	fail_msg("no row %s", m);
	return NULL;
}

/** Rows: order, values, verdicts; cause rows for every class seen in either run. */
static void test_rows(void **state)
{
	struct js_cpu_result a, b;
	struct js_diff_row rows[JS_DIFF_ROWS_MAX];
	size_t n;

	(void)state;
	fill(&a, 1, 2000, 50000, JS_CAUSE_TIMER, 2000000000ull);
	fill(&b, 1, 1000, 20000, JS_CAUSE_IRQ, 2000000000ull);
	n = diff_cpu(&a, &b, true, rows);
	assert_int_equal(n, 10 + 4);
	assert_string_equal(rows[0].metric, "gap_count");
	assert_string_equal(rows[9].metric, "max_ns");
	assert_true(rows[0].a == 2000 && rows[0].b == 1000);
	assert_int_equal(rows[0].verdict, DIFF_BETTER);
	assert_true(find(rows, n, "gaps_per_s")->a == 1000.0);
	assert_true(find(rows, n, "lost_ns")->a == 100e6);
	assert_true(fabs(find(rows, n, "lost_pct")->a - 5.0) < 1e-9);
	assert_int_equal(find(rows, n, "p99_ns")->verdict, DIFF_BETTER);
	assert_true(find(rows, n, "max_ns")->a == (double)hist_max(&a.hist));
	assert_true(find(rows, n, "irq.gaps")->a == 0 && find(rows, n, "irq.gaps")->b == 1000);
	assert_int_equal(find(rows, n, "irq.gaps")->verdict, DIFF_WORSE);
	assert_int_equal(find(rows, n, "timer.total_ns")->verdict, DIFF_BETTER);
	assert_int_equal(diff_cpu(&a, &b, false, rows), 10);
	/* a run against itself: no change */
	n = diff_cpu(&a, &a, true, rows);
	for (size_t i = 0; i < n; i++) {
		assert_true(rows[i].a == rows[i].b);
		assert_int_equal(rows[i].verdict, DIFF_SAME);
	}
	result_cpu_free(&a);
	result_cpu_free(&b);
}

static void make_run(struct js_run *r, const int *cpus, size_t n,
		     uint64_t gaps, uint64_t thr)
{
	memset(r, 0, sizeof(*r));
	r->cfg.threshold_ns = thr;
	r->probes_on = true;
	snprintf(r->machine.kernel, sizeof(r->machine.kernel), "6.18");
	snprintf(r->machine.hostname, sizeof(r->machine.hostname), "box");
	r->cpus = calloc(n, sizeof(*r->cpus));
	r->ncpus = n;
	for (size_t i = 0; i < n; i++)
		fill(&r->cpus[i], cpus[i], gaps, 30000, JS_CAUSE_TASK, 1000000000ull);
	r->audited = true;
	r->audit.checks = calloc(2, sizeof(*r->audit.checks));
	r->audit.n = 2;
	snprintf(r->audit.checks[0].id, AUDIT_ID_LEN, "nohz_full");
	r->audit.checks[0].cpu = 1;
	snprintf(r->audit.checks[0].observed, 256, "observed %zu", n);
	snprintf(r->audit.checks[1].id, AUDIT_ID_LEN, "only.%d", cpus[n - 1]);
	r->audit.checks[1].cpu = -1;
}

static void free_run(struct js_run *r)
{
	for (size_t i = 0; i < r->ncpus; i++)
		result_cpu_free(&r->cpus[i]);
	free(r->cpus);
	free(r->audit.checks);
}

static char *render(const struct js_run *a, const struct js_run *b, bool json, size_t *ncmp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*ncmp = json ? report_diff_json(fp, a, "a.json", b, "b.json") :
		       report_diff_text(fp, a, "a.json", b, "b.json");
	fclose(fp);
	return buf;
}

/** Text and JSON of two runs: common CPUs compared, the rest listed, notes, audit changes. */
static void test_render(void **state)
{
	static const int ca[] = { 1, 2 }, cb[] = { 1, 3 };
	struct js_run a, b;
	struct jsonp_doc d;
	const struct jsonp_val *cpus, *rows, *ch;
	char err[128], *t;
	size_t ncmp;

	(void)state;
	make_run(&a, ca, 2, 300, 1000);
	make_run(&b, cb, 2, 100, 500);
	b.audit.checks[0].verdict = AUDIT_FAIL;
	t = render(&a, &b, false, &ncmp);
	assert_int_equal(ncmp, 1);
	assert_non_null(strstr(t, "note: thresholds differ (A 1.0 us, B 500 ns)"));
	assert_non_null(strstr(t, "\nCPU 1: A measured 1.00 s, B 1.00 s\n"));
	assert_null(strstr(t, "\nCPU 2:"));
	assert_non_null(strstr(t, "CPUs measured in A only: 2\n"));
	assert_non_null(strstr(t, "CPUs measured in B only: 3\n"));
	assert_non_null(strstr(t, "  gaps                              300          100"
				  "         -200    -66.7%  better\n"));
	assert_non_null(strstr(t, "  task: gaps "));
	assert_non_null(strstr(t, "  nohz_full                    pass -> fail  cpu1: observed 2"));
	assert_non_null(strstr(t, "  only.2                       pass -> -     "));
	free(t);
	t = render(&a, &b, true, &ncmp);
	assert_int_equal(ncmp, 1);
	if (jsonp_parse(t, strlen(t), &d, err, sizeof(err)))
		fail_msg("diff JSON: %s\n%s", err, t);
	assert_string_equal(jsonp_str(jsonp_get(d.root, "kind")), "diff");
	cpus = jsonp_get(d.root, "cpus");
	assert_int_equal(jsonp_len(cpus), 1);
	rows = jsonp_get(jsonp_at(cpus, 0), "rows");
	assert_string_equal(jsonp_str(jsonp_get(jsonp_at(rows, 0), "metric")), "gap_count");
	assert_int_equal(jsonp_get(jsonp_at(rows, 0), "change")->num.i, -200);
	assert_string_equal(jsonp_str(jsonp_get(jsonp_at(rows, 0), "verdict")), "better");
	assert_int_equal(jsonp_len(jsonp_get(d.root, "notes")), 1);
	assert_int_equal(jsonp_get(d.root, "only_in_a")->arr.v[0].num.u, 2);
	assert_int_equal(jsonp_get(d.root, "only_in_b")->arr.v[0].num.u, 3);
	ch = jsonp_get(d.root, "audit_changes");
	assert_int_equal(jsonp_len(ch), 3);         /* nohz_full, only.2 gone, only.3 new */
	assert_string_equal(jsonp_str(jsonp_get(jsonp_at(ch, 0), "b")), "fail");
	assert_true(jsonp_is(jsonp_get(jsonp_at(ch, 1), "b"), JSONP_NULL));
	assert_true(jsonp_is(jsonp_get(jsonp_at(ch, 2), "a"), JSONP_NULL));
	jsonp_free(&d);
	free(t);
	free_run(&a);
	free_run(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_verdict),
		cmocka_unit_test(test_time_verdict),
		cmocka_unit_test(test_hist_verdict),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
