// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_diff_report.c - the diff's verdicts (practical minimum, tests of chance, per-second
 * rates, dispersion, percentile intervals, mixed and uncertain cases), source matching, and
 * the text, JSON and HTML renderings of two synthetic runs. */
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

#include "fixtures.h"
#include "js_diff.h"
#include "js_params.h"
#include "js_jsonparse.h"
#include "js_stats.h"
#include "js_util.h"

#define T0 1000000000000ull
#define SEC 1000000000ull

static const struct js_diff_opts opts = { 0.01, 0.10 };
static struct js_params pa, pb;

#define assert_why(r, s)                                                \
	do {                                                            \
		if (!strstr((r)->why, (s)))                             \
			fail_msg("why '%s' lacks '%s'", (r)->why, (s)); \
	} while (0)

/** Gap rates: no change and small changes are "same", a practical change needs p < alpha,
 * windows of other lengths compare per second, A->B and B->A agree. */
static void test_rate_row(void **state)
{
	struct js_diff_row r;

	(void)state;
	diff_rate_row(&r, &opts, 0, 1, 0, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_why(&r, "no change");
	diff_rate_row(&r, &opts, 1000, 1, 1050, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_why(&r, "change below 10 %");
	/* 1000 -> 1200 in 1 s: p = 2e-5 (exact test), worse; back the other way, better */
	diff_rate_row(&r, &opts, 1000, 1, 1200, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_WORSE);
	assert_int_equal(r.test, DIFF_TEST_POISSON);
	assert_true(fabs(r.p - stats_rate_test(1000, 1, 1200, 1)) < 1e-15 && r.p < 1e-4);
	assert_why(&r, "p = ");
	diff_rate_row(&r, &opts, 1200, 1, 1000, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_BETTER);
	/* --min-change is of A, as the change is shown: exactly 10 % either way is practical,
	 * 110000 -> 100000 (-9.1 %) is not, though 110000 is 10 % more than 100000 */
	diff_rate_row(&r, &opts, 100000, 1, 110000, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_WORSE);
	diff_rate_row(&r, &opts, 110000, 1, 99000, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_BETTER);
	diff_rate_row(&r, &opts, 110000, 1, 100000, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_why(&r, "change below 10 %");
	/* the review's case: -9.5 % gets no verdict */
	diff_rate_row(&r, &opts, 100000, 1, 90500, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	{
		char ch[32];

		assert_string_equal(diff_fmt_change(ch, sizeof(ch), r.a, r.b), "-9.5 %");
	}
	/* the same rate over twice the window; half the rate */
	diff_rate_row(&r, &opts, 1000, 10, 2000, 20, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_true(r.a == 100 && r.b == 100);
	diff_rate_row(&r, &opts, 1000, 10, 1000, 20, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_BETTER);
	/* tiny runs: 0 -> 2 gaps is chance, 0 -> 1 gap in 20 s is below the floor */
	diff_rate_row(&r, &opts, 0, 5, 2, 5, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_why(&r, "could be chance");
	diff_rate_row(&r, &opts, 0, 20, 1, 20, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_why(&r, "change below 0.10/s");
	/* 0 -> 10 gaps in 1 s: p = 0.002 */
	diff_rate_row(&r, &opts, 0, 1, 10, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_WORSE);
	/* a zero-length window does not divide by zero */
	diff_rate_row(&r, &opts, 10, 0, 10, 0, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
}

/** Noisy runs: the totals' variance is scaled by each run's dispersion, Welch's test. */
static void test_rate_dispersion(void **state)
{
	const struct js_diff_disp noisy = { 5, 100, 100, false };
	const struct js_diff_disp calm = { 5, 0.8, 0.8, false };
	const struct js_diff_disp few = { 2, 100, 100, false };
	struct js_diff_row r;
	double v = 100.0 * 1000;

	(void)state;
	/* 1000 -> 1200 in 1 s each with 100x the Poisson variance: va = 1e5, vb = 1.2e5,
	 * df = (va + vb)^2 / (va^2 / 4 + vb^2 / 4) */
	diff_rate_row(&r, &opts, 1000, 1, 1200, 1, &noisy, &noisy);
	assert_int_equal(r.test, DIFF_TEST_WELCH);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_why(&r, "noise 100x Poisson");
	assert_true(fabs(r.p - stats_t_p(200 / sqrt(v + 1.2 * v),
					 pow(2.2 * v, 2) / (v * v / 4 + 1.44 * v * v / 4))) <
		    1e-12);
	/* a dispersion at or below 1, or from fewer than 3 intervals, changes nothing */
	diff_rate_row(&r, &opts, 1000, 1, 1200, 1, &calm, &few);
	assert_int_equal(r.test, DIFF_TEST_POISSON);
	assert_int_equal(r.verdict, DIFF_WORSE);
	/* a change large enough still shows through the noise */
	diff_rate_row(&r, &opts, 1000, 1, 100000, 1, &noisy, &noisy);
	assert_int_equal(r.verdict, DIFF_WORSE);
}

/** Times: compound Poisson noise grows with the squared durations; few gaps are uncertain;
 * shares are the same test in percent of the window. */
static void test_time_row(void **state)
{
	struct js_diff_row r;

	(void)state;
	/* 100 gaps of 10 us: 1 ms, Q = 1e10; sigma of the difference sqrt(2e10) = 141 us:
	 * +300 us is z = 2.1 (p = 0.034), +500 us z = 3.5 (p = 4e-4) */
	diff_time_row(&r, &opts, false, 1e6, 1e10, 100, 1, 1.3e6, 1e10, 130, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_true(fabs(r.p - stats_normal_p(0.3e6 / sqrt(2e10))) < 1e-15);
	diff_time_row(&r, &opts, false, 1e6, 1e10, 100, 1, 1.5e6, 1e10, 150, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_WORSE);
	assert_int_equal(r.unit, DIFF_NS_PER_S);
	diff_time_row(&r, &opts, false, 1e6, 1e10, 100, 1, 0.5e6, 1e10, 50, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_BETTER);
	/* one 5 ms gap against none: rests on 1 gap */
	diff_time_row(&r, &opts, false, 0, 0, 0, 1, 5e6, 25e12, 1, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_why(&r, "rests on 1 gap");
	/* below the floor of 1 us/s */
	diff_time_row(&r, &opts, false, 100, 1e4, 50, 1, 600, 1e5, 50, 1, NULL, NULL);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_why(&r, "change below 1.0 us/s");
	/* as shares: 10 ms in 1 s = 1 % */
	diff_time_row(&r, &opts, true, 1e7, 1e11, 1000, 1, 2e7, 2e11, 2000, 1, NULL, NULL);
	assert_int_equal(r.unit, DIFF_PCT);
	assert_true(fabs(r.a - 1.0) < 1e-12 && fabs(r.b - 2.0) < 1e-12);
	assert_int_equal(r.verdict, DIFF_WORSE);
}

static void hist_new(struct js_hist *h)
{
	assert_int_equal(hist_init(h, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG), 0);
}

/* spread - n values evenly from lo to hi ns */
static void spread(struct js_hist *h, uint64_t n, double lo, double hi)
{
	for (uint64_t i = 0; i < n; i++)
		hist_record(h, (int64_t)(lo + (hi - lo) * (double)i / (double)n));
}

/** Percentiles: intervals that do not overlap and a rate of long gaps that moved the same
 * way make a verdict; a tail on a handful of gaps is uncertain; a median pulled down by
 * extra short gaps is not "better". */
static void test_pct_row(void **state)
{
	struct js_hist a, b, c;
	struct js_diff_row r;

	(void)state;
	hist_new(&a);
	hist_new(&b);
	hist_new(&c);
	spread(&a, 10000, 1000, 10000); /* 1..10 us */
	spread(&b, 10000, 3000, 30000); /* every gap 3x longer */
	diff_pct_row(&r, &opts, 50, &a, 10, &a, 10);
	assert_int_equal(r.verdict, DIFF_SAME);
	assert_why(&r, "no change");
	diff_pct_row(&r, &opts, 50, &a, 10, &b, 10);
	assert_int_equal(r.verdict, DIFF_WORSE);
	assert_int_equal(r.test, DIFF_TEST_QUANTILE);
	assert_true(r.a_lo <= r.a && r.a <= r.a_hi && r.b_lo <= r.b && r.b <= r.b_hi);
	assert_true(r.b_lo > r.a_hi);
	assert_why(&r, "intervals A ");
	diff_pct_row(&r, &opts, 50, &b, 10, &a, 10);
	assert_int_equal(r.verdict, DIFF_BETTER);
	/* p99.99 of 10000 gaps: 1 gap beyond it, unbounded */
	diff_pct_row(&r, &opts, 99.99, &a, 10, &b, 10);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_true(isinf(r.a_hi) && fabs(r.a_beyond - 1) < 1e-9);
	assert_why(&r, "too few gaps to bound it: A 10000, B 10000 gaps in all");
	assert_null(strstr(r.why, ".")); /* no fraction of a gap */
	/* 9000 more gaps of 1.5 us, the long ones as they were: the median falls, yet gaps of
	 * the old median's length are as frequent: uncertain, not better */
	spread(&c, 10000, 1000, 10000);
	hist_record_n(&c, 1500, 9000);
	diff_pct_row(&r, &opts, 50, &a, 10, &c, 10);
	assert_true(r.b < r.a);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_why(&r, "shorter, but gaps >= ");
	/* ... and when the long gaps are more frequent too: mixed */
	hist_record_n(&c, 8000, 6000);
	diff_pct_row(&r, &opts, 50, &a, 10, &c, 10);
	assert_true(r.b < r.a);
	assert_int_equal(r.verdict, DIFF_MIXED);
	/* overlapping intervals with a practical change: uncertain */
	hist_reset(&c);
	spread(&c, 40, 1000, 10000);
	hist_reset(&b);
	spread(&b, 40, 1500, 15000);
	diff_pct_row(&r, &opts, 50, &c, 1, &b, 1);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_why(&r, "intervals overlap");
	/* an empty run has nothing to bound */
	hist_reset(&c);
	diff_pct_row(&r, &opts, 50, &c, 1, &a, 1);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	hist_free(&a);
	hist_free(&b);
	hist_free(&c);
}

/** The maximum: through the rate of gaps at least as long as the smaller maximum. */
static void test_max_row(void **state)
{
	struct js_hist a, b;
	struct js_diff_row r;

	(void)state;
	hist_new(&a);
	hist_new(&b);
	spread(&a, 1000, 1000, 2000);
	hist_record(&a, 400000);
	spread(&b, 1000, 1000, 2000);
	hist_record_n(&b, 1800000, 2);
	diff_max_row(&r, &opts, &a, 5, &b, 5);
	assert_int_equal(r.test, DIFF_TEST_EXCEED);
	assert_true(r.a_exceed == 1 && r.b_exceed == 2);
	assert_int_equal(r.verdict, DIFF_UNCERTAIN);
	assert_why(&r, "gaps >= 400.");
	hist_record_n(&b, 500000, 68);
	diff_max_row(&r, &opts, &a, 5, &b, 5);
	assert_int_equal(r.verdict, DIFF_WORSE);
	diff_max_row(&r, &opts, &b, 5, &a, 5);
	assert_int_equal(r.verdict, DIFF_BETTER);
	diff_max_row(&r, &opts, &a, 5, &a, 50);
	assert_int_equal(r.verdict, DIFF_SAME);
	hist_free(&a);
	hist_free(&b);
}

/** Source names without their pids. */
static void test_src_key(void **state)
{
	static const struct {
		uint32_t cause;
		const char *detail, *key;
	} cases[] = {
		{ JS_CAUSE_TASK, "jsinject:6494", "jsinject" },
		{ JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update", "kworker/1:2 vmstat_update" },
		{ JS_CAUSE_IPI, "call_function_single fn from bash:12",
		  "call_function_single fn from bash" },
		{ JS_CAUSE_FAULT, "fault user git:99 (sampler)", "fault user git (sampler)" },
		{ JS_CAUSE_IRQ, "virtio1-req.0:36", "virtio1-req.0:36" },
		{ JS_CAUSE_SOFTIRQ, "NET_RX", "NET_RX" },
		{ JS_CAUSE_TASK, "a:b:1x", "a:b:1x" },
		/* a task's cgroup after it stays (a container id is not a pid) */
		{ JS_CAUSE_TASK, "nginx:812 [nginx.service]", "nginx [nginx.service]" },
		{ JS_CAUSE_IPI, "call_function_single fn from perf:88 [docker:012345678901]",
		  "call_function_single fn from perf [docker:012345678901]" },
	};
	char k[JS_DETAIL_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		js_source_key(cases[i].cause, cases[i].detail, k, sizeof(k));
		assert_string_equal(k, cases[i].key);
	}
}

/* add - n gaps of dur ns at even spacing over the CPU's window, one source each */
static void add(struct js_cpu_result *r, uint64_t n, uint64_t dur, uint32_t c, const char *det)
{
	uint64_t win = r->end_ns - r->start_ns;

	for (uint64_t i = 0; i < n; i++) {
		struct js_gap_rec g;

		fx_rec(&g, 0, r->start_ns + (i * win) / n + (uint64_t)(det[0] % 7) * 1000, dur);
		fx_part(&g, c, det, 1, dur);
		fx_primary(&g, c, det);
		result_add_gap(r, &g);
		intervals_add_gap(&r->intervals, g.gap.start_ns, dur, g.attr.primary,
				  g.attr.detail);
	}
}

/* One add() call, for in_order */
struct spec {
	uint64_t n, dur;
	uint32_t c;
	const char *det;
};

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* in_order - r's intervals again, from the gaps of the add() calls s[n] in start order:
 * intervals count gaps in start order, and add() gives each call's gaps in turn, so a later
 * call's early gaps all went to the interval in progress (a burst no run had) */
static void in_order(struct js_cpu_result *r, const struct spec *s, size_t n)
{
	uint64_t win = r->end_ns - r->start_ns, *at, k = 0, total = 0;

	for (size_t j = 0; j < n; j++)
		total += s[j].n;
	at = calloc(total, 2 * sizeof(*at));
	assert_non_null(at);
	for (size_t j = 0; j < n; j++)
		for (uint64_t i = 0; i < s[j].n; i++, k++) {
			at[2 * k] = r->start_ns + (i * win) / s[j].n +
				    (uint64_t)(s[j].det[0] % 7) * 1000;
			at[2 * k + 1] = s[j].dur;
		}
	qsort(at, total, 2 * sizeof(*at), cmp_u64);
	intervals_free(&r->intervals);
	assert_int_equal(intervals_init(&r->intervals, r->start_ns, SEC, 0), 0);
	for (k = 0; k < total; k++)
		intervals_add_gap(&r->intervals, at[2 * k], at[2 * k + 1], JS_CAUSE_TIMER, "");
	free(at);
}

static void cpu_init(struct js_cpu_result *r, int cpu, uint64_t win)
{
	assert_int_equal(result_cpu_init(r, cpu, 5), 0);
	r->start_ns = T0;
	r->end_ns = T0 + win;
	assert_int_equal(intervals_init(&r->intervals, T0, SEC, 0), 0);
}

/** Dispersion from the full intervals: even gaps vary less than Poisson; a burst more. */
static void test_dispersion(void **state)
{
	struct js_cpu_result r;
	struct js_diff_disp d;

	(void)state;
	cpu_init(&r, 1, 5 * SEC + SEC / 2);
	add(&r, 5500, 2000, JS_CAUSE_TIMER, "t");
	intervals_finish(&r.intervals, r.end_ns);
	diff_dispersion(&r, &d);
	assert_int_equal(d.k, 5); /* the half interval at the end is left out */
	assert_true(d.gaps < 0.01 && d.lost < 0.01);
	result_cpu_free(&r);
	cpu_init(&r, 1, 5 * SEC);
	add(&r, 5000, 2000, JS_CAUSE_TIMER, "t");
	/* 1000 more gaps, all in the first second */
	for (int i = 0; i < 1000; i++) {
		struct js_gap_rec g = { .gap = { T0 + (uint64_t)i * 1000, 2000, 1, 0 } };

		result_add_gap(&r, &g);
		intervals_add_gap(&r.intervals, g.gap.start_ns, 2000, g.attr.primary,
				  g.attr.detail);
	}
	intervals_finish(&r.intervals, r.end_ns);
	diff_dispersion(&r, &d);
	/* counts 2000, 1000 x 4: variance 200000 / mean 1200 */
	assert_true(fabs(d.gaps - 200000.0 / 1200) < 1e-6);
	assert_true(d.lost > 100);
	result_cpu_free(&r);
	/* too short to say */
	cpu_init(&r, 1, 2 * SEC);
	add(&r, 100, 2000, JS_CAUSE_TIMER, "t");
	intervals_finish(&r.intervals, r.end_ns);
	diff_dispersion(&r, &d);
	assert_true(d.k == 2 && d.gaps == 1 && d.lost == 1);
	result_cpu_free(&r);
}

static void make_run(struct js_run *r, struct js_params *p, const int *cpus, size_t n, uint64_t win,
		     uint64_t thr)
{
	memset(r, 0, sizeof(*r));
	memset(p, 0, sizeof(*p));
	p->cfg.threshold_ns = thr;
	r->cfg = p->cfg;
	r->probes_on = true;
	r->wall_ns = win;
	snprintf(r->machine.kernel, sizeof(r->machine.kernel), "6.18");
	snprintf(r->machine.hostname, sizeof(r->machine.hostname), "box");
	snprintf(r->machine.cpu_model, sizeof(r->machine.cpu_model), "cpu");
	r->cpus = calloc(n, sizeof(*r->cpus));
	r->ncpus = n;
	for (size_t i = 0; i < n; i++) {
		cpu_init(&r->cpus[i], cpus[i], win);
		add(&r->cpus[i], 250 * win / SEC, 15000, JS_CAUSE_TIMER, "local_timer");
	}
	r->audited = true;
	r->audit.checks = calloc(2, sizeof(*r->audit.checks));
	r->audit.n = 2;
	snprintf(r->audit.checks[0].id, AUDIT_ID_LEN, "nohz_full");
	r->audit.checks[0].cpu = 1;
	snprintf(r->audit.checks[0].observed, 256, "observed %zu", n);
	snprintf(r->audit.checks[1].id, AUDIT_ID_LEN, "only.%d", cpus[n - 1]);
	r->audit.checks[1].cpu = -1;
}

static void finish_run(struct js_run *r)
{
	for (size_t i = 0; i < r->ncpus; i++)
		intervals_finish(&r->cpus[i].intervals, r->cpus[i].end_ns);
}

static void free_run(struct js_run *r)
{
	for (size_t i = 0; i < r->ncpus; i++)
		result_cpu_free(&r->cpus[i]);
	free(r->cpus);
	free(r->audit.checks);
}

static char *render(const struct js_diff *d, void (*fn)(FILE *, const struct js_diff *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	fn(fp, d);
	fclose(fp);
	return buf;
}

static const struct js_diff_src *src_of(const struct js_diff_cpu *c, const char *b_detail,
					const char *a_detail)
{
	for (size_t i = 0; i < c->nsrc; i++)
		if (!strcmp(c->src[i].b_detail, b_detail) && !strcmp(c->src[i].a_detail, a_detail))
			return &c->src[i];
	fail_msg("no source %s / %s", a_detail, b_detail);
	return NULL;
}

/** A quiet run against one with an injected task, 4 s against 2 s: rates, new and gone
 * sources, a pid that changed, warnings, the first worse change; text, JSON, HTML. */
static void test_compare(void **state)
{
	static const int ca[] = { 1, 2 }, cb[] = { 1, 3 };
	struct js_run a, b;
	struct js_diff d;
	const struct js_diff_cpu *c;
	const struct js_diff_src *s;
	struct jsonp_doc doc;
	const struct jsonp_val *cpus, *rows, *ch, *iv;
	char err[128], want[128], *t;

	(void)state;
	make_run(&a, &pa, ca, 2, 4 * SEC, 1000);
	make_run(&b, &pb, cb, 2, 2 * SEC, 500);
	add(&a.cpus[0], 8, 900000, JS_CAUSE_IRQ, "virtio1-req.0:36");
	add(&a.cpus[0], 40, 30000, JS_CAUSE_TASK, "bash:100");
	add(&b.cpus[0], 200, 200000, JS_CAUSE_TASK, "jsinject:1234");
	add(&b.cpus[0], 20, 30000, JS_CAUSE_TASK, "bash:200");
	{
		const struct spec sa[] = { { 1000, 15000, JS_CAUSE_TIMER, "local_timer" },
					   { 8, 900000, JS_CAUSE_IRQ, "virtio1-req.0:36" },
					   { 40, 30000, JS_CAUSE_TASK, "bash:100" } };
		const struct spec sb[] = { { 500, 15000, JS_CAUSE_TIMER, "local_timer" },
					   { 200, 200000, JS_CAUSE_TASK, "jsinject:1234" },
					   { 20, 30000, JS_CAUSE_TASK, "bash:200" } };

		in_order(&a.cpus[0], sa, ARRAY_SIZE(sa));
		in_order(&b.cpus[0], sb, ARRAY_SIZE(sb));
	}
	finish_run(&a);
	finish_run(&b);
	b.audit.checks[0].verdict = AUDIT_FAIL;
	snprintf(b.machine.kernel, sizeof(b.machine.kernel), "6.19");
	assert_int_equal(diff_compute(&d, &a, "a.json", &b, "b.json", &opts), 0);
	assert_int_equal(d.ncpus, 1);
	c = &d.cpus[0];
	assert_true(c->ta_s == 4 && c->tb_s == 2);
	assert_string_equal(c->rows[0].metric, "gaps_per_s");
	assert_true(c->rows[0].a == (1000 + 8 + 40) / 4.0 && c->rows[0].b == (500 + 220) / 2.0);
	assert_string_equal(c->rows[1].metric, "lost_pct");
	assert_string_equal(c->rows[7].metric, "max_ns");
	assert_string_equal(c->rows[8].metric, "task.gaps_per_s");
	assert_string_equal(c->rows[9].metric, "task.lost_ns_per_s");
	assert_int_equal(c->rows[9].verdict, DIFF_WORSE);
	/* the injected task is new, the IRQ gone, bash matched without its pid */
	s = src_of(c, "jsinject:1234", "");
	assert_string_equal(s->status, "new");
	assert_int_equal(s->row.verdict, DIFF_WORSE);
	s = src_of(c, "", "virtio1-req.0:36");
	assert_string_equal(s->status, "gone");
	assert_string_equal(s->row.label, "IRQ 36 virtio1-req.0");
	{
		struct js_diff_src h = { .cause = JS_CAUSE_HRTIMER };
		char lb[80];

		/* the class is not said twice */
		snprintf(h.a_detail, sizeof(h.a_detail), "hrtimer tick_nohz_handler");
		assert_string_equal(diff_src_label(lb, sizeof(lb), &h),
				    "hrtimer tick_nohz_handler");
		h.cause = JS_CAUSE_SOFTIRQ;
		snprintf(h.a_detail, sizeof(h.a_detail), "TIMER");
		assert_string_equal(diff_src_label(lb, sizeof(lb), &h), "softirq TIMER");
	}
	s = src_of(c, "bash:200", "bash:100");
	assert_true(s->pid_changed);
	assert_string_equal(s->row.label, "task bash:100 -> bash:200");
	assert_true(s->a_gaps == 40 && s->b_gaps == 20);
	assert_int_equal(s->row.verdict, DIFF_SAME); /* 300 us/s both */
	assert_string_equal(c->src[0].status, "new");
	/* the first worse change, in table order */
	assert_non_null(strstr(d.first_worse, "CPU 1: "));
	assert_true(d.count[DIFF_WORSE] > 0);
	assert_non_null(d.lengths[0] ? strstr(d.lengths, "A 4.00 s, B 2.00 s") : NULL);
	/* the verdict: worse, by the class whose time grew most, and the new source */
	assert_int_equal(d.verdict, DIFF_WORSE);
	if (!strstr(d.verdict_line, "worse: biggest change CPU 1: task: time lost/s 300.0 us/s -> "
				    "20.3 ms/s (+6666.7 %)") ||
	    !strstr(d.verdict_line, "; CPU 1 time lost ") ||
	    !strstr(d.verdict_line, "; new sources: task jsinject:1234 (20.0 ms/s)"))
		fail_msg("verdict line: %s", d.verdict_line);

	t = render(&d, report_diff_text);
	assert_true(!strncmp(t, "verdict: worse: biggest change CPU 1: ", 38));
	assert_non_null(strstr(t, "\njitterscope diff\n"));
	assert_non_null(strstr(t, "warning: kernels differ: A 6.18, B 6.19\n"));
	assert_non_null(strstr(t, "warning: thresholds differ (A 1.0 us, B 500 ns)"));
	assert_non_null(strstr(t, "warning: the runs measured different CPUs (A 1,2, B 1,3): "
				  "only CPUs of both are compared\n"));
	assert_non_null(strstr(t, "note: the runs' lengths differ (A 4.00 s, B 2.00 s)"));
	assert_non_null(strstr(t, "\nCPU 1: A 4.00 s, 1048 gaps, "));
	assert_null(strstr(t, "\nCPU 2"));
	assert_non_null(strstr(t, "\nCPUs measured in A only: 2\n"));
	assert_non_null(strstr(t, "\nCPUs measured in B only: 3\n"));
	snprintf(want, sizeof(want), "  %-26s %12s %12s ", "gaps per second", "262.0/s", "360.0/s");
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "  new: task jsinject:1234 20.0 ms/s (200 gaps): worse, p "));
	assert_non_null(strstr(t, "  gone: IRQ 36 virtio1-req.0 1.8 ms/s (8 gaps): uncertain, "
				  "rests on 8 gaps\n"));
	assert_non_null(strstr(t, "  same: task bash:100 -> bash:200 300.0 us/s -> 300.0 us/s"));
	assert_non_null(strstr(t, "  nohz_full                    pass -> fail  cpu1: observed 2"));
	assert_non_null(strstr(t, "  only.2                       pass -> -     "));
	assert_non_null(strstr(t, "\nsummary: "));
	free(t);

	t = render(&d, report_diff_json);
	if (jsonp_parse(t, strlen(t), &doc, err, sizeof(err)))
		fail_msg("diff JSON: %s\n%s", err, t);
	assert_string_equal(jsonp_str(jsonp_get(doc.root, "kind")), "diff");
	assert_true(jsonp_get(jsonp_get(doc.root, "settings"), "alpha")->num.d == 0.01);
	cpus = jsonp_get(doc.root, "cpus");
	assert_int_equal(jsonp_len(cpus), 1);
	rows = jsonp_get(jsonp_at(cpus, 0), "rows");
	assert_string_equal(jsonp_str(jsonp_get(jsonp_at(rows, 0), "metric")), "gaps_per_s");
	assert_string_equal(jsonp_str(jsonp_get(jsonp_at(rows, 0), "unit")), "per_s");
	assert_int_equal(jsonp_get(jsonp_at(cpus, 0), "a_gaps")->num.u, 1048);
	/* p99.99 of 1048 gaps: its interval has no upper bound */
	iv = jsonp_get(jsonp_at(rows, 6), "a_interval_ns");
	assert_true(jsonp_is(jsonp_at(iv, 1), JSONP_NULL));
	assert_string_equal(
		jsonp_str(
			jsonp_get(jsonp_at(jsonp_get(jsonp_at(cpus, 0), "sources"), 0), "status")),
		"new");
	assert_int_equal(jsonp_len(jsonp_get(doc.root, "warnings")), 3);
	assert_int_equal(jsonp_get(doc.root, "only_in_a")->arr.v[0].num.u, 2);
	assert_int_equal(jsonp_get(doc.root, "only_in_b")->arr.v[0].num.u, 3);
	ch = jsonp_get(doc.root, "audit_changes");
	assert_int_equal(jsonp_len(ch), 3); /* nohz_full, only.2 gone, only.3 new */
	assert_string_equal(jsonp_str(jsonp_get(jsonp_at(ch, 0), "b")), "fail");
	assert_true(jsonp_is(jsonp_get(jsonp_at(ch, 1), "b"), JSONP_NULL));
	assert_true(jsonp_get(jsonp_get(doc.root, "summary"), "worse")->num.u ==
		    d.count[DIFF_WORSE]);
	assert_string_equal(jsonp_str(jsonp_get(jsonp_get(doc.root, "summary"), "verdict")),
			    "worse");
	assert_string_equal(jsonp_str(jsonp_get(jsonp_get(doc.root, "summary"), "verdict_line")),
			    d.verdict_line);
	jsonp_free(&doc);
	free(t);

	t = render(&d, report_diff_html);
	assert_non_null(strstr(t, "<title>jitterscope diff: a.json vs b.json</title>"));
	assert_non_null(strstr(t, "<p id=\"verdict\" class=\"d-worse\">verdict: worse: "));
	assert_non_null(strstr(t, "class=\"c-task ser-b\""));
	assert_non_null(strstr(t, "class=\"c-timer ser-a\""));
	assert_non_null(strstr(t, "<td class=\"d-worse\">worse</td>"));
	assert_non_null(strstr(t, "<td>task jsinject:1234</td>"));
	assert_non_null(strstr(t, "data-rendered"));
	free(t);
	diff_free(&d);
	free_run(&a);
	free_run(&b);
}

/* row_of - the row of c with this metric */
static const struct js_diff_row *row_of(const struct js_diff_cpu *c, const char *metric)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].metric, metric))
			return &c->rows[i];
	fail_msg("no row %s", metric);
	return NULL;
}

/* add_burst - n gaps of dur of class c in the first 10 ms of second sec: a burst */
static void add_burst(struct js_cpu_result *r, uint64_t sec, uint64_t n, uint64_t dur, uint32_t c,
		      const char *det, uint32_t extra)
{
	for (uint64_t i = 0; i < n; i++) {
		struct js_gap_rec g;

		fx_rec(&g, 0, r->start_ns + sec * SEC + i * 10000, dur);
		fx_part(&g, c, det, 1, dur);
		if (extra != JS_CAUSE_MAX)
			fx_part(&g, extra, "task_switch", 1, 0); /* inside, taking no time */
		fx_primary(&g, c, det);
		result_add_gap(r, &g);
		intervals_add_gap(&r->intervals, g.gap.start_ns, dur, g.attr.primary,
				  g.attr.detail);
	}
}

/** UX-REVIEW 8: the same series gets one verdict wherever it is shown (a class that holds
 * every gap, in bursts, against "gaps per second"), and a class that took no time in either
 * run (tlb, inside the others' gaps) is never worse however often it was counted. */
static void test_same_numbers(void **state)
{
	static const int c1[] = { 1 };
	struct js_run a, b;
	struct js_diff d;
	const struct js_diff_cpu *c;
	const struct js_diff_row *tot, *cls, *tlb;
	char *t;

	(void)state;
	/* 8 s each; every gap unexplained, in bursts of uneven size: A 500 per second give or
	 * take 400, B 10 % more; the tlb class counted in B's gaps only */
	make_run(&a, &pa, c1, 1, 8 * SEC, 1000);
	make_run(&b, &pb, c1, 1, 8 * SEC, 1000);
	for (size_t i = 0; i < 2; i++) {
		struct js_cpu_result *r = i ? &b.cpus[0] : &a.cpus[0];

		result_cpu_free(r);
		cpu_init(r, 1, 8 * SEC);
	}
	for (uint64_t sec = 0; sec < 8; sec++) {
		uint64_t n = sec % 2 ? 900 : 100;

		add_burst(&a.cpus[0], sec, n, 5000, JS_CAUSE_UNEXPLAINED, "no guest event",
			  JS_CAUSE_MAX);
		add_burst(&b.cpus[0], sec, n + n / 10, 5000, JS_CAUSE_UNEXPLAINED, "no guest event",
			  JS_CAUSE_TLB);
	}
	finish_run(&a);
	finish_run(&b);
	assert_int_equal(diff_compute(&d, &a, "a.json", &b, "b.json", &opts), 0);
	c = &d.cpus[0];
	assert_true(c->da.gaps > 1 && c->db.gaps > 1); /* bursty: the totals are scaled */
	tot = row_of(c, "gaps_per_s");
	cls = row_of(c, "unexplained.gaps_per_s");
	assert_true(tot->a == cls->a && tot->b == cls->b);
	assert_int_equal(tot->test, DIFF_TEST_WELCH);
	assert_int_equal(cls->test, tot->test);
	assert_int_equal(cls->verdict, tot->verdict);
	assert_true(cls->p == tot->p);
	assert_int_equal(tot->verdict, DIFF_UNCERTAIN);
	/* tlb: 0 -> 4400 gaps, 0 ns both: counted more often, no worse */
	tlb = row_of(c, "tlb.gaps_per_s");
	assert_true(tlb->a == 0 && tlb->b > 500);
	assert_int_equal(tlb->verdict, DIFF_SAME);
	assert_why(tlb, "no time lost in either run");
	assert_int_equal(row_of(c, "tlb.lost_ns_per_s")->verdict, DIFF_SAME);
	t = render(&d, report_diff_text);
	assert_int_equal(d.count[DIFF_WORSE], 0);
	assert_non_null(strstr(t, "summary: 0 worse, "));
	free(t);
	diff_free(&d);
	free_run(&a);
	free_run(&b);
}

/** A run against itself: no change anywhere; runs of other CPUs pair in order. */
static void test_self_and_order(void **state)
{
	static const int c1[] = { 1 }, c2[] = { 2 };
	struct js_run a, b;
	struct js_diff d;

	(void)state;
	make_run(&a, &pa, c1, 1, 3 * SEC, 1000);
	add(&a.cpus[0], 30, 200000, JS_CAUSE_TASK, "x:1");
	finish_run(&a);
	assert_int_equal(diff_compute(&d, &a, "a", &a, "a", &opts), 0);
	for (size_t i = 0; i < d.cpus[0].nrows; i++)
		assert_int_equal(d.cpus[0].rows[i].verdict, DIFF_SAME);
	for (size_t i = 0; i < d.cpus[0].nsrc; i++)
		assert_string_equal(d.cpus[0].src[i].status, "same");
	assert_true(d.nwarn == 0 && !d.lengths[0] && !d.first_worse[0]);
	assert_int_equal(d.verdict, DIFF_SAME);
	assert_string_equal(d.verdict_line,
			    "same: no change is worse or better (0 uncertain, 0 mixed); CPU 1 "
			    "time lost 0.575 % -> 0.575 %; no new source");
	diff_free(&d);
	make_run(&b, &pb, c2, 1, 3 * SEC, 1000);
	finish_run(&b);
	assert_int_equal(diff_compute(&d, &a, "a", &b, "b", &opts), 0);
	assert_true(d.in_order && d.ncpus == 1 && d.cpus[0].b->cpu == 2);
	assert_non_null(strstr(d.warn[0], "compared in the order measured"));
	diff_free(&d);
	/* a 2 s run takes the dispersion of a 3 s one */
	free_run(&b);
	make_run(&b, &pb, c1, 1, 2 * SEC, 1000);
	finish_run(&b);
	assert_int_equal(diff_compute(&d, &a, "a", &b, "b", &opts), 0);
	assert_true(d.cpus[0].db.borrowed && d.cpus[0].db.k == 3 && !d.cpus[0].da.borrowed);
	assert_true(d.cpus[0].db.gaps == d.cpus[0].da.gaps);
	diff_free(&d);
	free_run(&a);
	free_run(&b);
}

/** A spinner's CPU against a followed thread (--pid): nothing is paired, the diff says why in
 * one line (the command refuses it, exit 64); a thread against a thread is compared. */
static void test_unlike(void **state)
{
	static const int c1[] = { 1 };
	struct js_run a, b;
	struct js_diff d;

	(void)state;
	make_run(&a, &pa, c1, 1, 2 * SEC, 1000);
	make_run(&b, &pb, c1, 1, 2 * SEC, 1000);
	b.cpus[0].source = JS_SRC_THREAD;
	b.cpus[0].tid = 812;
	snprintf(b.cpus[0].name, sizeof(b.cpus[0].name), "app:812");
	finish_run(&a);
	finish_run(&b);
	assert_int_equal(diff_compute(&d, &a, "spin.json", &b, "pid.json", &opts), 0);
	assert_true(d.unlike && d.ncpus == 0);
	assert_string_equal(
		d.unlike_why,
		"spin.json measured CPU 1 with the spinner, pid.json followed thread "
		"app:812 (--pid/--tid): a spinner's gaps are all the time its CPU lost, "
		"a thread's only the time it was kept from running; not compared");
	diff_free(&d);
	/* a thread of another tid: paired by kind, in the order measured */
	a.cpus[0].source = JS_SRC_THREAD;
	a.cpus[0].tid = 700;
	snprintf(a.cpus[0].name, sizeof(a.cpus[0].name), "other:700");
	assert_int_equal(diff_compute(&d, &a, "a", &b, "b", &opts), 0);
	assert_true(!d.unlike && d.ncpus == 1 && d.in_order);
	diff_free(&d);
	free_run(&a);
	free_run(&b);
}

/* add_woken - n gaps of dur, one task source det each, woken by who (comm:pid, or "" with an
 * interrupt context ctx), spaced 10 ms from the window's start + off */
static void add_woken(struct js_cpu_result *r, uint64_t n, uint64_t dur, uint64_t off,
		      const char *det, const char *who, uint32_t pid, uint8_t ctx)
{
	for (uint64_t i = 0; i < n; i++) {
		struct js_gap_rec g;

		fx_rec(&g, 0, r->start_ns + off + i * 10000000, dur);
		fx_part(&g, JS_CAUSE_TASK, det, 1, dur);
		fx_primary(&g, JS_CAUSE_TASK, det);
		g.attr.waker.ctx = ctx;
		g.attr.waker.pid = pid;
		g.attr.waker.cpu = 0;
		g.attr.waker.syscall = -1;
		js_scpy(g.attr.waker.comm, sizeof(g.attr.waker.comm), who);
		result_add_gap(r, &g);
		intervals_add_gap(&r->intervals, g.gap.start_ns, dur, g.attr.primary,
				  g.attr.detail);
	}
}

/** Issue 28: who woke a source, from the listed worst gaps it is the primary of: the most
 * frequent waker without its pid (ties: more time), an interrupt context by its label; none
 * when no listed gap names one. */
static void test_src_waker(void **state)
{
	struct js_cpu_result r;
	char k[DIFF_WAKER_LEN];
	uint32_t n, of;

	(void)state;
	assert_int_equal(result_cpu_init(&r, 1, 16), 0);
	r.start_ns = T0;
	r.end_ns = T0 + SEC;
	assert_int_equal(intervals_init(&r.intervals, T0, SEC, 0), 0);
	assert_false(diff_src_waker(&r, JS_CAUSE_TASK, "kworker/1:2:77", k, &n, &of));
	assert_true(!k[0] && !n && !of);
	/* jswriter (two pids) 3 gaps, the timer 2 longer ones, one without a waker; another
	 * source's gaps are not its */
	add_woken(&r, 2, 200000, 0, "kworker/1:2:77", "jswriter", 500, JS_WAKE_TASK);
	add_woken(&r, 1, 200000, 1000, "kworker/1:2:77", "jswriter", 501, JS_WAKE_TASK);
	add_woken(&r, 2, 900000, 2000, "kworker/1:2:77", "", 0, JS_WAKE_TIMER);
	add_woken(&r, 1, 200000, 3000, "kworker/1:2:77", "", 0, JS_WAKE_NONE);
	add_woken(&r, 5, 300000, 4000, "bash:9", "sshd", 8, JS_WAKE_TASK);
	assert_true(diff_src_waker(&r, JS_CAUSE_TASK, "kworker/1:2:77", k, &n, &of));
	assert_string_equal(k, "jswriter");
	assert_true(n == 3 && of == 6);
	/* a tie (3 and 3): the one with more time */
	add_woken(&r, 1, 900000, 5000, "kworker/1:2:77", "", 0, JS_WAKE_TIMER);
	assert_true(diff_src_waker(&r, JS_CAUSE_TASK, "kworker/1:2:77", k, &n, &of));
	assert_string_equal(k, "timer");
	assert_true(n == 3 && of == 7);
	assert_false(diff_src_waker(&r, JS_CAUSE_IRQ, "kworker/1:2:77", k, &n, &of));
	result_cpu_free(&r);
}

/** Issue 28: a source preempting in both runs, woken by a task in A and by the timer in B:
 * the diff says so (text line, JSON keys, HTML label); a source woken by the same task in
 * both says nothing more. */
static void test_compare_wakers(void **state)
{
	static const int c1[] = { 1 };
	struct js_run a, b;
	struct js_diff d;
	const struct js_diff_src *s;
	struct jsonp_doc doc;
	const struct jsonp_val *src = NULL, *all;
	char err[128], *t;

	(void)state;
	make_run(&a, &pa, c1, 1, 2 * SEC, 1000);
	make_run(&b, &pb, c1, 1, 2 * SEC, 1000);
	add_woken(&a.cpus[0], 10, 300000, 0, "kworker/1:2:77", "jswriter", 500, JS_WAKE_TASK);
	add_woken(&b.cpus[0], 10, 300000, 0, "kworker/1:2:77", "", 0, JS_WAKE_TIMER);
	add_woken(&a.cpus[0], 10, 50000, 3000, "app:12", "client", 40, JS_WAKE_TASK);
	add_woken(&b.cpus[0], 10, 50000, 3000, "app:13", "client", 41, JS_WAKE_TASK);
	finish_run(&a);
	finish_run(&b);
	assert_int_equal(diff_compute(&d, &a, "a.json", &b, "b.json", &opts), 0);
	s = src_of(&d.cpus[0], "kworker/1:2:77", "kworker/1:2:77");
	assert_true(s->waker_changed);
	assert_string_equal(s->a_waker, "jswriter");
	assert_string_equal(s->b_waker, "timer");
	/* the top list holds 5 gaps, all of it */
	assert_true(s->a_woken == 5 && s->a_listed == 5 && s->b_woken == 5 && s->b_listed == 5);
	s = src_of(&d.cpus[0], "app:13", "app:12");
	assert_false(s->waker_changed); /* not listed (smaller), or the same waker */

	t = render(&d, report_diff_text);
	assert_non_null(strstr(t, "same: task kworker/1:2:77 1.5 ms/s -> 1.5 ms/s"));
	assert_non_null(strstr(t, "\n    woken by jswriter in A (5 of 5 listed gaps), by timer in "
				  "B (5 of 5)\n"));
	assert_null(strstr(t, "woken by client"));
	free(t);

	t = render(&d, report_diff_json);
	if (jsonp_parse(t, strlen(t), &doc, err, sizeof(err)))
		fail_msg("diff JSON: %s\n%s", err, t);
	all = jsonp_get(jsonp_at(jsonp_get(doc.root, "cpus"), 0), "sources");
	for (size_t i = 0; i < jsonp_len(all); i++)
		if (!strcmp(jsonp_str(jsonp_get(jsonp_at(all, i), "b_detail")), "kworker/1:2:77"))
			src = jsonp_at(all, i);
	assert_non_null(src);
	assert_string_equal(jsonp_str(jsonp_get(src, "a_waker")), "jswriter");
	assert_string_equal(jsonp_str(jsonp_get(src, "b_waker")), "timer");
	assert_int_equal(jsonp_get(src, "a_woken")->num.u, 5);
	assert_true(jsonp_get(src, "waker_changed")->b);
	jsonp_free(&doc);
	free(t);

	t = render(&d, report_diff_html);
	assert_non_null(strstr(t, "<td>task kworker/1:2:77, woken by jswriter -&gt; timer</td>"));
	free(t);
	diff_free(&d);
	free_run(&a);
	free_run(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_row),       cmocka_unit_test(test_rate_dispersion),
		cmocka_unit_test(test_time_row),       cmocka_unit_test(test_pct_row),
		cmocka_unit_test(test_max_row),	       cmocka_unit_test(test_src_key),
		cmocka_unit_test(test_dispersion),     cmocka_unit_test(test_compare),
		cmocka_unit_test(test_self_and_order), cmocka_unit_test(test_same_numbers),
		cmocka_unit_test(test_src_waker),      cmocka_unit_test(test_compare_wakers),
		cmocka_unit_test(test_unlike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
