// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_budget.c - --budget parsing (every malformed spec rejected), checks on a synthetic run. */
#include <errno.h>
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_budget.h"
#include "js_result.h"

static void test_parse_ok(void **state)
{
	struct js_budget b;
	char err[256] = "";

	(void)state;
	assert_int_equal(budget_parse("max=50us,p99.9=5us,p99=2us,smi=0,irq=0,lost=0.1%,"
				      "gaps=100,timer=2ms,unexplained=3",
				      &b, err, sizeof(err)),
			 0);
	assert_int_equal(b.n, 9);
	assert_int_equal(b.v[0].kind, JS_BUDGET_MAX_NS);
	assert_int_equal(b.v[0].limit, 50000);
	assert_string_equal(b.v[0].text, "max=50us");
	assert_int_equal(b.v[1].kind, JS_BUDGET_PCTL_NS);
	assert_true(b.v[1].pct == 99.9);
	assert_int_equal(b.v[1].limit, 5000);
	assert_true(b.v[2].pct == 99.0);
	assert_int_equal(b.v[3].kind, JS_BUDGET_SMI);
	assert_int_equal(b.v[3].limit, 0);
	assert_int_equal(b.v[4].kind, JS_BUDGET_CLASS_GAPS);
	assert_int_equal(b.v[4].cause, JS_CAUSE_IRQ);
	assert_int_equal(b.v[5].kind, JS_BUDGET_LOST_PCT);
	assert_true(b.v[5].pct == 0.1);
	assert_int_equal(b.v[6].kind, JS_BUDGET_GAPS);
	assert_int_equal(b.v[6].limit, 100);
	assert_int_equal(b.v[7].kind, JS_BUDGET_CLASS_NS);
	assert_int_equal(b.v[7].cause, JS_CAUSE_TIMER);
	assert_int_equal(b.v[7].limit, 2000000);
	assert_int_equal(b.v[8].kind, JS_BUDGET_CLASS_GAPS);
	assert_int_equal(b.v[8].cause, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(b.v[8].limit, 3);
}

static void test_parse_units(void **state)
{
	static const struct {
		const char *spec;
		uint64_t ns;
	} t[] = {
		{ "max=500ns", 500 },
		{ "max=5us", 5000 },
		{ "max=5\xc2\xb5s", 5000 },
		{ "max=5\xce\xbcs", 5000 },
		{ "max=1.5ms", 1500000 },
		{ "max=2s", 2000000000 },
		{ "max=0.000000001s", 1 },
		{ "max=0ns", 0 },
		{ "lost=5ms", 5000000 },
		{ "  max=7us  ", 7000 },
		{ "steal=1.25us", 1250 },
		{ "max=3600s", 3600000000000 },
		/* the shared TIME grammar (js_units.h): m/h/d, a bare '.', sub-ns digits round */
		{ "max=5m", 300000000000 },
		{ "max=1h", 3600000000000 },
		{ "lost=1d", 86400000000000 },
		{ "max=.5us", 500 },
		{ "max=5.us", 5000 },
		{ "max=0.5ns", 1 },
		{ "max=1.0000000001s", 1000000000 },
		{ "max=1.0000000005s", 1000000001 },
	};
	struct js_budget b;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		err[0] = '\0';
		assert_int_equal(budget_parse(t[i].spec, &b, err, sizeof(err)), 0);
		assert_int_equal(b.n, 1);
		assert_int_equal(b.v[0].limit, t[i].ns);
	}
	assert_int_equal(budget_parse("lost=100%, p100=1s ,p0.001=1us", &b, err, sizeof(err)), 0);
	assert_int_equal(b.n, 3);
	assert_true(b.v[0].pct == 100.0);
	assert_string_equal(b.v[1].text, "p100=1s");
	assert_true(b.v[2].pct == 0.001);
}

/* every one of these is malformed: -EINVAL and a message */
static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"",
		" ",
		",",
		"max=50us,",
		",max=50us",
		"max=50us,,p99=1us",
		"max=50us, ,gaps=1",
		"max",
		"max50us",
		"=5us",
		"max=",
		"max=50",
		"max=50xs",
		"max=50 us",
		"max=-5us",
		"max=5us=",
		"max=+5us",
		"max=5e3ns",
		"max=0.4ns",
		"max=1e99s",
		"max=5 us",
		"max=99999999999999999999us",
		"max=18446744073709551615s",
		"max=106752d",
		"MAX=5us",
		"foo=1",
		"p=5us",
		"p0=5us",
		"p101=5us",
		"p100.001=5us",
		"p99.=5us",
		"p99x=5us",
		"p-1=5us",
		"pabc=1us",
		"p99=5",
		"p99=1%",
		"lost=0.1",
		"lost=101%",
		"lost=100.5%",
		"lost=-1%",
		"lost=5",
		"lost=abc%",
		"lost=%",
		"lost=1%%",
		"gaps=1.5",
		"gaps=-1",
		"gaps=5us",
		"gaps=1%",
		"gaps=99999999999999999999",
		"gaps=",
		"smi=1us",
		"smi=-1",
		"irq=1.5",
		"irq=5xs",
		"irq=-1",
		"irq=1%",
		"max=50us,max=60us",
		"p99.9=1us,p99.90=2us",
		"lost=1%,lost=5ms",
		"irq=1,irq=5us",
		"gaps=1,gaps=1",
		"smi=0,smi=0",
		"max=1us;p99=1us",
	};
	struct js_budget b;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (budget_parse(bad[i], &b, err, sizeof(err)) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
		if (!err[0])
			fail_msg("no message for '%s'", bad[i]);
	}
	/* and the messages say what is wrong */
	budget_parse("max=50", &b, err, sizeof(err));
	assert_non_null(strstr(err, "'max=50'"));
	assert_non_null(strstr(err, "unit"));
	budget_parse("foo=1", &b, err, sizeof(err));
	assert_non_null(strstr(err, "unknown key 'foo'"));
	budget_parse("max=1us,p99=2us,max=3us", &b, err, sizeof(err));
	assert_non_null(strstr(err, "same key"));
	budget_parse("lost=101%", &b, err, sizeof(err));
	assert_non_null(strstr(err, "100"));
	budget_parse("gaps=-1", &b, err, sizeof(err));
	assert_non_null(strstr(err, "negative"));
	budget_parse("", &b, err, sizeof(err));
	assert_non_null(strstr(err, "empty"));
}

static void test_parse_too_many(void **state)
{
	char spec[2048] = "", err[256];
	struct js_budget b;
	size_t off = 0;

	(void)state;
	for (int i = 1; i <= JS_BUDGET_MAX; i++)
		off += (size_t)snprintf(spec + off, sizeof(spec) - off, "%sp%d=1us",
					i > 1 ? "," : "", i);
	assert_int_equal(budget_parse(spec, &b, err, sizeof(err)), 0);
	assert_int_equal(b.n, JS_BUDGET_MAX);
	snprintf(spec + off, sizeof(spec) - off, ",max=1s");
	assert_int_equal(budget_parse(spec, &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more than"));
}

/* a synthetic run: CPU 1 and CPU 3, window 1 s each */
struct fixture {
	struct js_run run;
	struct js_cpu_result cpus[2];
	/* a run without end's (iv_start) */
	struct js_budget b;
	struct js_budget_iv iv;
	uint64_t viol[JS_BUDGET_MAX];
};

static void gap(struct js_cpu_result *r, uint64_t *t, uint64_t dur, uint32_t cause)
{
	struct js_gap_rec g;

	fx_rec(&g, (uint32_t)r->cpu, *t, dur);
	if (cause != JS_CAUSE_UNEXPLAINED) {
		fx_part(&g, cause, "x", 1, dur);
		g.attr.nevents = 1;
	}
	fx_primary(&g, cause, cause != JS_CAUSE_UNEXPLAINED ? "x" : "");
	result_add_gap(r, &g);
	*t += 1000000;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	uint64_t t = 1000000000;

	if (!f || fx_run(&f->run, f->cpus, 2, 1000000000, 2000000000))
		return -1;
	/* CPU 1: 97 x 1 us unexplained, irq 20 us, timer 40 us, task 100 us; 2 SMIs */
	for (int i = 0; i < 97; i++)
		gap(&f->cpus[0], &t, 1000, JS_CAUSE_UNEXPLAINED);
	gap(&f->cpus[0], &t, 20000, JS_CAUSE_IRQ);
	gap(&f->cpus[0], &t, 40000, JS_CAUSE_TIMER);
	gap(&f->cpus[0], &t, 100000, JS_CAUSE_TASK);
	f->cpus[0].smi = 2;
	/* CPU 3: 10 x 1.5 us unexplained */
	t = 1000000000;
	for (int i = 0; i < 10; i++)
		gap(&f->cpus[1], &t, 1500, JS_CAUSE_UNEXPLAINED);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < 2; i++)
		result_cpu_free(&f->cpus[i]);
	budget_iv_free(&f->iv);
	free(f);
	return 0;
}

/* check - parse spec, check it against the fixture; the report text in out */
static int check(struct fixture *f, const char *spec, char *out, size_t len)
{
	struct js_budget b;
	char err[256] = "", *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	int v;

	assert_non_null(fp);
	if (budget_parse(spec, &b, err, sizeof(err)))
		fail_msg("'%s' rejected: %s", spec, err);
	v = budget_check(&b, &f->run, fp);
	fclose(fp);
	snprintf(out, len, "%s", buf);
	free(buf);
	return v;
}

/* line_has - the report line for item on cpu ends with verdict */
static void line_has(const char *out, const char *item, int cpu, const char *verdict)
{
	char head[128];
	const char *l, *e;

	snprintf(head, sizeof(head), "budget %s on CPU %d: ", item, cpu);
	l = strstr(out, head);
	if (!l)
		fail_msg("no line '%s' in:\n%s", head, out);
	e = strchr(l, '\n');
	assert_non_null(e);
	if ((size_t)(e - l) < strlen(verdict) + 2 || strncmp(e - strlen(verdict) - 2, "  ", 2) ||
	    strncmp(e - strlen(verdict), verdict, strlen(verdict)))
		fail_msg("line '%.*s' does not end with '%s'", (int)(e - l), l, verdict);
}

static void test_check_limits(void **state)
{
	struct fixture *f = *state;
	char out[8192];

	/* max: 100 us is recorded as its HdrHistogram slot's highest value (100.031 us) */
	assert_int_equal(check(f, "max=101us", out, sizeof(out)), 0);
	assert_string_equal(out, "budget max=101us on CPU 1: 100.0 us  ok\n"
				 "budget max=101us on CPU 3: 1.5 us  ok\n");
	assert_int_equal(check(f, "max=100us", out, sizeof(out)), 1);
	assert_string_equal(out, "budget max=100us on CPU 1: 100.0 us (100031 ns)  EXCEEDED\n"
				 "budget max=100us on CPU 3: 1.5 us  ok\n");
	/* p99 of CPU 1 is the 99th of 100 gaps: 40 us (slot top 40.031 us) */
	assert_int_equal(check(f, "p99=41us,p50=1us,p99.9=101us", out, sizeof(out)), 1);
	line_has(out, "p99=41us", 1, "ok");
	line_has(out, "p50=1us", 1, "ok");
	line_has(out, "p50=1us", 3, "EXCEEDED"); /* 1.5 us */
	line_has(out, "p99.9=101us", 1, "ok");
	assert_int_equal(check(f, "p99=39us,p50=999ns", out, sizeof(out)), 3);
	/* gaps */
	assert_int_equal(check(f, "gaps=100", out, sizeof(out)), 0);
	line_has(out, "gaps=100", 1, "ok");
	assert_non_null(strstr(out, "budget gaps=100 on CPU 1: 100 gaps  ok\n"));
	assert_int_equal(check(f, "gaps=99", out, sizeof(out)), 1);
	line_has(out, "gaps=99", 1, "EXCEEDED");
	line_has(out, "gaps=99", 3, "ok");
	/* lost: CPU 1 lost 257 us of 1 s = 0.0257 %; CPU 3 15 us */
	assert_int_equal(check(f, "lost=0.03%", out, sizeof(out)), 0);
	assert_int_equal(check(f, "lost=0.02%", out, sizeof(out)), 1);
	line_has(out, "lost=0.02%", 1, "EXCEEDED");
	assert_non_null(strstr(out, "0.0257 %"));
	assert_int_equal(check(f, "lost=257us", out, sizeof(out)), 0);
	assert_int_equal(check(f, "lost=256999ns", out, sizeof(out)), 1);
	assert_int_equal(check(f, "lost=15us", out, sizeof(out)), 1); /* CPU 1 only */
	line_has(out, "lost=15us", 3, "ok");
}

static void test_check_causes(void **state)
{
	struct fixture *f = *state;
	char out[8192];

	/* counts: gaps whose primary cause is the class */
	assert_int_equal(
		check(f, "irq=1,timer=1,task=1,softirq=0,unexplained=97", out, sizeof(out)), 0);
	assert_int_equal(check(f, "irq=0", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "budget irq=0 on CPU 1: 1 gaps  EXCEEDED\n"));
	assert_non_null(strstr(out, "budget irq=0 on CPU 3: 0 gaps  ok\n"));
	assert_int_equal(check(f, "unexplained=9", out, sizeof(out)), 2); /* 97 and 10 */
	/* times: the class's net time */
	assert_int_equal(check(f, "irq=20us,timer=40us,unexplained=97us", out, sizeof(out)), 0);
	assert_int_equal(check(f, "irq=19999ns", out, sizeof(out)), 1);
	line_has(out, "irq=19999ns", 1, "EXCEEDED");
	assert_int_equal(check(f, "unexplained=14999ns", out, sizeof(out)), 2);
	/* SMIs: 2 on CPU 1 */
	assert_int_equal(check(f, "smi=2", out, sizeof(out)), 0);
	assert_int_equal(check(f, "smi=1", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "budget smi=1 on CPU 1: 2 SMIs  EXCEEDED\n"));
}

/* what cannot be checked is a violation, not a pass */
static void test_check_unverifiable(void **state)
{
	struct fixture *f = *state;
	char out[8192];

	f->run.smi_countable = false;
	snprintf(f->run.smi_why, sizeof(f->run.smi_why), "no MSR access");
	assert_int_equal(check(f, "smi=100", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "budget smi=100 on CPU 1: SMIs not countable (no MSR access)"
				    "  NOT CHECKED\n"));
	f->run.smi_countable = true;
	f->run.probes_on = false;
	snprintf(f->run.probes_why, sizeof(f->run.probes_why), "--no-probes");
	assert_int_equal(check(f, "irq=100,task=1s", out, sizeof(out)), 4);
	line_has(out, "irq=100", 1, "NOT CHECKED");
	assert_non_null(strstr(out, "probes off (--no-probes)"));
	/* unexplained stays checkable (every gap is unexplained without probes) */
	assert_int_equal(check(f, "unexplained=1000,max=1s", out, sizeof(out)), 0);
	f->run.probes_on = true;
	/* no report file: same count, nothing printed */
	{
		struct js_budget b;
		char err[64];

		assert_int_equal(budget_parse("gaps=0,max=1ns", &b, err, sizeof(err)), 0);
		assert_int_equal(budget_check(&b, &f->run, NULL), 4);
	}
}

/*
 * A run without end (budget_iv_*): the CPUs of an empty fixture, measuring from 1 s, whose
 * gaps are accounted up to done_ns as the run goes (end_ns 0 until it ends).
 */
#define T0 1000000000ull
#define SEC 1000000000ull

static int iv_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || fx_run(&f->run, f->cpus, 2, T0, 0))
		return -1;
	*state = f;
	return 0;
}

/* iv_start - f->b parsed from spec, the intervals started, no violation yet */
static void iv_start(struct fixture *f, const char *spec)
{
	char err[256];

	if (budget_parse(spec, &f->b, err, sizeof(err)))
		fail_msg("'%s' rejected: %s", spec, err);
	budget_iv_free(&f->iv);
	assert_int_equal(budget_iv_init(&f->iv, &f->run), 0);
	memset(f->viol, 0, sizeof(f->viol));
}

/* iv_close - every CPU's gaps accounted up to done (end: the run ended there), the
 * interval closed */
static void iv_close(struct fixture *f, uint64_t done, bool end)
{
	for (size_t c = 0; c < f->run.ncpus; c++)
		if (end)
			f->cpus[c].end_ns = done;
		else
			f->cpus[c].done_ns = done;
	budget_iv_close(&f->iv, &f->b, &f->run, f->viol);
}

/* one spike over max= in the first interval, none in the second: counted once */
static void test_iv_max(void **state)
{
	struct fixture *f = *state;
	uint64_t whole[JS_BUDGET_MAX] = { 0 }, t = T0;

	iv_start(f, "max=50us");
	gap(&f->cpus[0], &t, 2000, JS_CAUSE_UNEXPLAINED);
	gap(&f->cpus[0], &t, 80000, JS_CAUSE_IRQ); /* the spike, CPU 1 */
	gap(&f->cpus[1], &t, 2000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + SEC, false);
	assert_int_equal(f->viol[0], 1);
	t = T0 + SEC;
	for (int i = 0; i < 20; i++) {
		gap(&f->cpus[0], &t, 3000, JS_CAUSE_UNEXPLAINED);
		gap(&f->cpus[1], &t, 3000, JS_CAUSE_UNEXPLAINED);
	}
	iv_close(f, T0 + 2 * SEC, false);
	assert_int_equal(f->viol[0], 1);
	/* the whole run is still over it: that is what the per-second checks counted */
	budget_count(&f->b, &f->run, whole);
	assert_int_equal(whole[0], 1);
	/* the run ends: the last, partial interval has no spike either */
	iv_close(f, T0 + 2 * SEC + SEC / 2, true);
	assert_int_equal(f->viol[0], 1);
	/* a spike on both CPUs in one interval: one violation each */
	t = T0 + 3 * SEC;
	gap(&f->cpus[0], &t, 60000, JS_CAUSE_UNEXPLAINED);
	gap(&f->cpus[1], &t, 60000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 4 * SEC, true);
	assert_int_equal(f->viol[0], 3);
}

/* results that appear during the run (a thread started, the first mark on a CPU) are checked
 * from the interval they appeared in, all their gaps in it; none at the start is no less a
 * run with intervals (--cpu LIST --marks) */
static void test_iv_appear(void **state)
{
	struct fixture *f = *state;
	uint64_t t = T0;

	f->run.ncpus = 0;
	iv_start(f, "max=50us");
	assert_true(f->iv.on);
	f->run.ncpus = 1; /* the first result appears: its spike in the first interval */
	gap(&f->cpus[0], &t, 80000, JS_CAUSE_IRQ);
	iv_close(f, T0 + SEC, false);
	assert_int_equal(f->viol[0], 1);
	t = T0 + SEC;
	gap(&f->cpus[0], &t, 2000, JS_CAUSE_UNEXPLAINED);
	f->run.ncpus = 2; /* the second one, in the second interval */
	gap(&f->cpus[1], &t, 70000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 2 * SEC, false);
	assert_int_equal(f->viol[0], 2);
	/* neither result over the limit in the third */
	t = T0 + 2 * SEC;
	gap(&f->cpus[0], &t, 2000, JS_CAUSE_UNEXPLAINED);
	gap(&f->cpus[1], &t, 2000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 3 * SEC, true);
	assert_int_equal(f->viol[0], 2);
}

/* the counts and times are the interval's: gaps=, CLASS=COUNT, CLASS=TIME, lost=TIME */
static void test_iv_counts(void **state)
{
	struct fixture *f = *state;
	uint64_t t = T0;

	iv_start(f, "gaps=3,irq=1,unexplained=5us,lost=40us");
	/* intervals 1 and 2: 3 gaps, one irq, 4 us unexplained, 24 us lost each: every limit
	 * kept, while the run so far (6 gaps, 2 irq, 8 us, 48 us) is over every one */
	assert_int_equal(f->b.n, 4);
	for (uint64_t k = 0; k < 2; k++) {
		t = T0 + k * SEC;
		gap(&f->cpus[0], &t, 2000, JS_CAUSE_UNEXPLAINED);
		gap(&f->cpus[0], &t, 2000, JS_CAUSE_UNEXPLAINED);
		gap(&f->cpus[0], &t, 20000, JS_CAUSE_IRQ);
		iv_close(f, T0 + (k + 1) * SEC, false);
		for (size_t i = 0; i < f->b.n; i++)
			assert_int_equal(f->viol[i], 0);
	}
	/* interval 3: 4 gaps, two irq, 6 us unexplained, 46 us lost: every limit broken */
	t = T0 + 2 * SEC;
	gap(&f->cpus[0], &t, 1000, JS_CAUSE_UNEXPLAINED);
	gap(&f->cpus[0], &t, 20000, JS_CAUSE_IRQ);
	gap(&f->cpus[0], &t, 20000, JS_CAUSE_IRQ);
	gap(&f->cpus[0], &t, 5000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 3 * SEC, false);
	for (size_t i = 0; i < f->b.n; i++)
		assert_int_equal(f->viol[i], 1);
}

/* pN over the interval's histogram, not the run's */
static void test_iv_percentile(void **state)
{
	struct fixture *f = *state;
	uint64_t whole[JS_BUDGET_MAX] = { 0 }, t = T0;

	iv_start(f, "p50=5us");
	for (int i = 0; i < 100; i++)
		gap(&f->cpus[0], &t, 1000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + SEC, false);
	assert_int_equal(f->viol[0], 0);
	/* 10 gaps of 10 us: the interval's median is 10 us, the run's still 1 us */
	t = T0 + SEC;
	for (int i = 0; i < 10; i++)
		gap(&f->cpus[0], &t, 10000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 2 * SEC, false);
	assert_int_equal(f->viol[0], 1);
	budget_count(&f->b, &f->run, whole);
	assert_int_equal(whole[0], 0);
	/* and back under: 100 gaps of 1 us again */
	t = T0 + 2 * SEC;
	for (int i = 0; i < 100; i++)
		gap(&f->cpus[0], &t, 1000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 3 * SEC, false);
	assert_int_equal(f->viol[0], 1);
}

/* lost=PCT over the interval's window */
static void test_iv_lost_pct(void **state)
{
	struct fixture *f = *state;
	uint64_t whole[JS_BUDGET_MAX] = { 0 }, t = T0;

	iv_start(f, "lost=1%");
	gap(&f->cpus[0], &t, 5000000, JS_CAUSE_UNEXPLAINED); /* 0.5 % of 1 s */
	iv_close(f, T0 + SEC, false);
	assert_int_equal(f->viol[0], 0);
	t = T0 + SEC;
	for (int i = 0; i < 3; i++)
		gap(&f->cpus[0], &t, 5000000, JS_CAUSE_UNEXPLAINED); /* 1.5 % of 1 s */
	iv_close(f, T0 + 2 * SEC, false);
	assert_int_equal(f->viol[0], 1);
	/* the run so far: 20 ms of 2 s, 1 %, within the limit */
	budget_count(&f->b, &f->run, whole);
	assert_int_equal(whole[0], 0);
	/* the last interval is 5 ms long: 0.1 ms lost in it is 2 % */
	t = T0 + 2 * SEC;
	gap(&f->cpus[0], &t, 100000, JS_CAUSE_UNEXPLAINED);
	iv_close(f, T0 + 2 * SEC + 5000000, true);
	assert_int_equal(f->viol[0], 2);
}

/* NOT CHECKED counts as after a finite run: once per CPU and interval; SMIs are read at the
 * end only, so smi= sees them in the last interval */
static void test_iv_unchecked(void **state)
{
	struct fixture *f = *state;

	f->run.smi_countable = false;
	f->run.probes_on = false;
	iv_start(f, "smi=100,irq=100,unexplained=100,max=1s");
	iv_close(f, T0 + SEC, false);
	iv_close(f, T0 + 2 * SEC, false);
	iv_close(f, T0 + 2 * SEC + 1, true);
	assert_int_equal(f->viol[0], 6); /* 2 CPUs x 3 intervals */
	assert_int_equal(f->viol[1], 6);
	assert_int_equal(f->viol[2], 0); /* unexplained needs no probes */
	assert_int_equal(f->viol[3], 0);

	f->run.smi_countable = true;
	f->run.probes_on = true;
	iv_start(f, "smi=1");
	iv_close(f, T0 + SEC, false);
	assert_int_equal(f->viol[0], 0);
	f->cpus[0].smi = 2; /* read as sampling stopped */
	iv_close(f, T0 + SEC + SEC / 2, true);
	assert_int_equal(f->viol[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_units),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_too_many),
		cmocka_unit_test_setup_teardown(test_check_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_causes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_unverifiable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iv_max, iv_setup, teardown),
		cmocka_unit_test_setup_teardown(test_iv_counts, iv_setup, teardown),
		cmocka_unit_test_setup_teardown(test_iv_appear, iv_setup, teardown),
		cmocka_unit_test_setup_teardown(test_iv_percentile, iv_setup, teardown),
		cmocka_unit_test_setup_teardown(test_iv_lost_pct, iv_setup, teardown),
		cmocka_unit_test_setup_teardown(test_iv_unchecked, iv_setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
