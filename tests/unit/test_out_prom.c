// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_out_prom.c - the --prom output and its writer (prom.c) on a synthetic run: exact bucket
 * counts with Prometheus's "le" (at most) semantics at the boundaries, sums, counts per CPU
 * and cause, the other metrics, HELP/TYPE per family, the FILE.tmp + rename protocol, the
 * bounded source labels (no pid), the top-N sources whose counters never go back across
 * expositions, audit verdicts, budget violations and label escaping.
 */
#include <errno.h>
#include <math.h>
#include <linux/types.h>
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
#include "js_budget.h"
#include "js_output.h"
#include "js_params.h"
#include "js_prom.h"
#include "js_result.h"

struct fx {
	struct js_run run;
	struct js_cpu_result cpus[2];
	char path[96], tmp[128];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || fx_run(&f->run, f->cpus, 2, 1000000000, 5000000000))
		return -1;
	f->run.probe_lost = 7;
	f->run.wall_ns = 4000000123ull;
	f->run.start_epoch_s = 1700000000.0;
	f->run.cfg.threshold_ns = 1500;
	f->run.machine.hypervisor = true;
	snprintf(f->run.machine.kernel, sizeof(f->run.machine.kernel), "6.1.0-test");
	snprintf(f->run.machine.cpu_model, sizeof(f->run.machine.cpu_model), "Test CPU");
	for (int i = 0; i < 2; i++) {
		if (result_cpu_init(&f->cpus[i], i ? 3 : 1, 4))
			return -1;
		f->cpus[i].start_ns = 1000000000;
		f->cpus[i].end_ns = 5000000000;
	}
	f->cpus[0].smi = 3;
	f->cpus[0].dropped = 2;
	snprintf(f->path, sizeof(f->path), "/tmp/test_out_prom.%d.prom", (int)getpid());
	snprintf(f->tmp, sizeof(f->tmp), "%s.tmp", f->path);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	for (int i = 0; i < 2; i++)
		result_cpu_free(&f->cpus[i]);
	unlink(f->path);
	unlink(f->tmp);
	free(f);
	return 0;
}

/* gap_src - one gap on CPU index c, its one event part named detail; o (the --prom output)
 * or m (the writer's state) sees it */
static void gap_src(struct fx *f, struct js_output *o, struct js_prom *m, int c, uint64_t dur,
		    uint32_t cause, uint64_t steal, const char *detail)
{
	static uint64_t t = 2000000000;
	struct js_gap_rec g;

	fx_rec(&g, (uint32_t)f->cpus[c].cpu, t, dur);
	g.gap.res = (uint32_t)c; /* its result: the index in run.cpus */
	g.attr.steal_ns = steal;
	if (cause != JS_CAUSE_UNEXPLAINED && cause != JS_CAUSE_STEAL)
		fx_part(&g, cause, detail, 1, dur - steal);
	fx_primary(&g, cause, detail);
	result_add_gap(&f->cpus[c], &g);
	if (o)
		o->on_gap(o->ctx, &g, NULL, 0);
	if (m)
		prom_add_gap(m, &g);
	t += dur + 1000;
}

static void gap(struct fx *f, struct js_output *o, int c, uint64_t dur, uint32_t cause,
		uint64_t steal)
{
	gap_src(f, o, NULL, c, dur, cause, steal, "src");
}

static bool exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(fp);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* has_line - the exposition holds exactly this line */
static void has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
		p++;
	}
	fail_msg("missing line '%s'", line);
}

static void test_prom_file(void **state)
{
	struct fx *f = *state;
	struct js_output o;
	char *t;

	memset(&o, 0, sizeof(o));
	assert_int_equal(out_prom_new(&o, f->path, NULL), 0);
	/* opened before measuring: FILE.tmp exists, FILE not yet */
	assert_true(exists(f->tmp));
	assert_false(exists(f->path));
	o.run_start(o.ctx, &f->run);
	/* CPU 1: boundaries are "at most": 1000 ns is in le=1e-06, 1001 ns is not */
	gap(f, &o, 0, 1000, JS_CAUSE_UNEXPLAINED, 0);
	gap(f, &o, 0, 1001, JS_CAUSE_UNEXPLAINED, 0);
	gap(f, &o, 0, 2000, JS_CAUSE_IRQ, 0);
	gap(f, &o, 0, 50000, JS_CAUSE_TASK, 0);
	gap(f, &o, 0, 50001, JS_CAUSE_TASK, 1);
	gap(f, &o, 0, 20000000000ull, JS_CAUSE_TASK, 0); /* 20 s: only +Inf */
	/* CPU 3: one 99 ns gap (below the first boundary's 100 ns) */
	gap(f, &o, 1, 99, JS_CAUSE_STEAL, 99);
	assert_int_equal(o.finish(o.ctx, &f->run), 0);
	o.destroy(o.ctx);
	assert_true(exists(f->path));
	assert_false(exists(f->tmp));
	t = slurp(f->path);

	has_line(t, "# HELP jitterscope_gap_duration_seconds Durations of the gaps (the measured "
		    "CPU taken away from the sampler) since the run started, per measured CPU.");
	has_line(t, "# TYPE jitterscope_gap_duration_seconds histogram");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"5e-07\"} 0");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"1e-06\"} 1");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"2e-06\"} 3");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"5e-05\"} 4");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"0.0001\"} 5");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"10\"} 5");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"+Inf\"} 6");
	has_line(t, "jitterscope_gap_duration_seconds_sum{cpu=\"1\"} 20.000104002");
	has_line(t, "jitterscope_gap_duration_seconds_count{cpu=\"1\"} 6");
	has_line(t, "jitterscope_gap_duration_seconds_bucket{cpu=\"3\",le=\"1e-07\"} 1");
	has_line(t, "jitterscope_gap_duration_seconds_sum{cpu=\"3\"} 0.000000099");
	/* per primary cause; causes without gaps are left out */
	has_line(t, "# TYPE jitterscope_gap_duration_by_cause_seconds histogram");
	has_line(t, "jitterscope_gap_duration_by_cause_seconds_bucket{cpu=\"1\",cause=\"task\","
		    "le=\"5e-05\"} 1");
	has_line(t, "jitterscope_gap_duration_by_cause_seconds_count{cpu=\"1\",cause=\"task\"} 3");
	has_line(t, "jitterscope_gap_duration_by_cause_seconds_count{cpu=\"1\",cause=\"irq\"} 1");
	has_line(t, "jitterscope_gap_duration_by_cause_seconds_count{cpu=\"1\","
		    "cause=\"unexplained\"} 2");
	has_line(t, "jitterscope_gap_duration_by_cause_seconds_count{cpu=\"3\",cause=\"steal\"} 1");
	assert_null(strstr(t, "by_cause_seconds_count{cpu=\"1\",cause=\"timer\"}"));
	/* counters: every class, zeros included */
	has_line(t, "# TYPE jitterscope_gaps_total counter");
	has_line(t, "jitterscope_gaps_total{cpu=\"1\",cause=\"task\"} 3");
	has_line(t, "jitterscope_gaps_total{cpu=\"1\",cause=\"timer\"} 0");
	has_line(t, "jitterscope_lost_seconds_total{cpu=\"1\",cause=\"irq\"} 0.000002000");
	has_line(t, "jitterscope_lost_seconds_total{cpu=\"1\",cause=\"task\"} 20.000100000");
	has_line(t, "jitterscope_lost_seconds_total{cpu=\"1\",cause=\"steal\"} 0.000000001");
	has_line(t, "jitterscope_lost_seconds_total{cpu=\"1\",cause=\"unexplained\"} 0.000002001");
	has_line(t, "jitterscope_lost_seconds_total{cpu=\"3\",cause=\"steal\"} 0.000000099");
	has_line(t, "jitterscope_steal_seconds_total{cpu=\"1\"} 0.000000001");
	has_line(t, "jitterscope_smi_total{cpu=\"1\"} 3");
	has_line(t, "jitterscope_gaps_dropped_total{cpu=\"1\"} 2");
	has_line(t, "# TYPE jitterscope_measured_seconds_total counter");
	has_line(t, "jitterscope_measured_seconds_total{cpu=\"3\"} 4.000000000");
	has_line(t, "jitterscope_probe_events_lost_total 7");
	has_line(t, "jitterscope_probe_events_total 0");
	has_line(t, "jitterscope_probe_events_evicted_total 0");
	has_line(t, "jitterscope_probe_events_shed_total 0");
	has_line(t, "jitterscope_probes_enabled 1");
	has_line(t, "jitterscope_run_duration_seconds 4.000000123");
	has_line(t, "jitterscope_run_start_timestamp_seconds 1700000000.000");
	has_line(t, "jitterscope_gap_threshold_seconds 0.000001500");
	has_line(t, "jitterscope_node_info{version=\"" JS_VERSION "\",kernel=\"6.1.0-test\","
		    "cpu_model=\"Test CPU\",hypervisor=\"true\",invariant_tsc=\"false\"} 1");
	/* not audited, no budget: no audit or budget family */
	assert_null(strstr(t, "jitterscope_audit_"));
	assert_null(strstr(t, "jitterscope_budget_"));
	free(t);
}

/* the families: HELP then TYPE, each family's samples together, names unique */
static void test_prom_families(void **state)
{
	struct fx *f = *state;
	struct js_output o;
	char *t, *line, *save = NULL, fam[128] = "", seen[64][128];
	size_t nseen = 0;

	memset(&o, 0, sizeof(o));
	assert_int_equal(out_prom_new(&o, f->path, NULL), 0);
	o.run_start(o.ctx, &f->run);
	gap(f, &o, 0, 3000, JS_CAUSE_TIMER, 0);
	f->run.smi_countable = false;
	assert_int_equal(o.finish(o.ctx, &f->run), 0);
	o.destroy(o.ctx);
	t = slurp(f->path);
	assert_null(strstr(t, "jitterscope_smi_total")); /* not countable: absent */
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];

		if (!strncmp(line, "# HELP ", 7)) {
			assert_int_equal(sscanf(line + 7, "%127s", fam), 1);
			for (size_t i = 0; i < nseen; i++)
				assert_string_not_equal(seen[i], fam);
			assert_true(nseen < 64);
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", fam);
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			assert_int_equal(sscanf(line + 7, "%127s", name), 1);
			assert_string_equal(name, fam);
			continue;
		}
		assert_true(fam[0]);
		assert_int_equal(sscanf(line, "%127[^{ ]", name), 1);
		/* a sample belongs to the family just declared (or its _bucket/_sum/_count) */
		assert_int_equal(strncmp(name, fam, strlen(fam)), 0);
		if (strlen(name) > strlen(fam)) {
			const char *sfx = name + strlen(fam);

			assert_true(!strcmp(sfx, "_bucket") || !strcmp(sfx, "_sum") ||
				    !strcmp(sfx, "_count"));
		}
	}
	assert_int_equal(nseen, 20); /* no smi, audit or budget */
	free(t);
}

/* a run that fails before finish leaves neither FILE nor FILE.tmp; a bad path fails at once */
static void test_prom_abort(void **state)
{
	struct fx *f = *state;
	struct js_output o;

	memset(&o, 0, sizeof(o));
	assert_int_equal(out_prom_new(&o, f->path, NULL), 0);
	assert_true(exists(f->tmp));
	o.destroy(o.ctx);
	assert_false(exists(f->tmp));
	assert_false(exists(f->path));
	memset(&o, 0, sizeof(o));
	assert_int_equal(out_prom_new(&o, "/nonexistent-dir/x.prom", NULL), -EIO);
}

/* expose - prom_write of the fixture's run into a string (free it) */
static char *expose(struct fx *f, struct js_prom *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(prom_write(fp, m, &f->run), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* value - the value of the sample whose series (name{labels}) is exactly series; -1 if none */
static double value(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *p = strstr(text, series); p; p = strstr(p + 1, series))
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	return -1;
}

/* count_lines - lines of text starting with prefix */
static int count_lines(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
	return n;
}

/** prom_source_label: pids, senders and instances never reach a label; cgroups do. */
static void test_prom_labels(void **state)
{
	static const struct {
		uint32_t cause;
		const char *detail, *src, *cg;
	} v[] = {
		{ JS_CAUSE_TASK, "jsinject:1234", "jsinject", "" },
		{ JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update", "kworker", "" },
		{ JS_CAUSE_TASK, "kworker/u8:4:6169", "kworker", "" },
		{ JS_CAUSE_TASK, "kworker/0:1H:77 flush_to_ldisc", "kworker", "" },
		{ JS_CAUSE_TASK, "ksoftirqd/1:22", "ksoftirqd", "" },
		{ JS_CAUSE_TASK, "irq/36-virtio1:300", "irq/36-virtio1", "" },
		{ JS_CAUSE_TASK, "memfd:sealed-91:23422", "memfd:sealed-91", "" },
		{ JS_CAUSE_TASK, "kdamond.0:77", "kdamond.0", "" },
		{ JS_CAUSE_TASK, "Web Content:4242", "Web Content", "" },
		{ JS_CAUSE_TASK, "a:1 b:5", "a:1 b", "" },
		{ JS_CAUSE_TASK, "nginx:812 [nginx.service]", "nginx", "nginx.service" },
		{ JS_CAUSE_TASK, "php:9 run_fn [pod:0123-abcd]", "php", "pod:0123-abcd" },
		{ JS_CAUSE_FAULT, "fault user bash:27773 (sampler)", "fault user bash (sampler)",
		  "" },
		{ JS_CAUSE_FAULT, "fault kernel kworker/1:0:12 [x.scope] (sampler)",
		  "fault kernel kworker (sampler)", "x.scope" },
		{ JS_CAUSE_IPI, "reschedule from test_run_load:28456", "reschedule", "" },
		{ JS_CAUSE_IPI, "call_function flush_tlb_func from sh:7 [docker:0123456789ab]",
		  "call_function flush_tlb_func", "docker:0123456789ab" },
		{ JS_CAUSE_IRQ, "virtio1-req.0:36", "virtio1-req.0:36", "" },
		/* kernel threads named by their interrupt work: the name, as a task's */
		{ JS_CAUSE_IRQ, "irq/36-virtio1-:123", "irq/36-virtio1-", "" },
		{ JS_CAUSE_SOFTIRQ, "ksoftirqd/1:22 NET_RX", "ksoftirqd", "" },
		{ JS_CAUSE_TIMER, "ktimers/1:20 TIMER", "ktimers", "" },
		{ JS_CAUSE_SOFTIRQ, "rcuc/1:19 RCU", "rcuc", "" },
		{ JS_CAUSE_SOFTIRQ, "NET_RX", "NET_RX", "" },
		{ JS_CAUSE_UNEXPLAINED, "no guest event", "no guest event", "" },
		{ JS_CAUSE_THP, "THP collapse failed:3 (sampler) khugepaged",
		  "THP collapse failed:3 (sampler) khugepaged", "" },
		{ JS_CAUSE_HRTIMER, "hrtimer 0xffffffff814332e0", "hrtimer 0x?", "" },
		{ JS_CAUSE_WORK, "0xffffffff81cf16d0", "0x?", "" },
		{ JS_CAUSE_IPI, "call_function 0xffffffff8218e160 from a:1", "call_function 0x?",
		  "" },
		{ JS_CAUSE_IRQ, "eth0x1234:5", "eth0x1234:5", "" },
		{ JS_CAUSE_TASK, "(other)", "other", "" },
		{ JS_CAUSE_FAULT, "(other: 5 sources)", "other", "" },
		{ JS_CAUSE_TASK, "", "other", "" },
	};
	char src[JS_DETAIL_LEN], cg[JS_DETAIL_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		prom_source_label(v[i].cause, v[i].detail, src, sizeof(src), cg, sizeof(cg));
		if (strcmp(src, v[i].src) || strcmp(cg, v[i].cg))
			fail_msg("'%s' -> '%s' [%s], want '%s' [%s]", v[i].detail, src, cg,
				 v[i].src, v[i].cg);
	}
}

/* class_sum - the cause table's time of class cause on CPU index c, in s */
static double class_sum(const struct fx *f, int c, uint32_t cause)
{
	const struct js_causes *t = &f->cpus[c].causes;
	uint64_t ns = 0;

	for (uint32_t i = 0; i < t->nsrc; i++)
		if (t->src[i].cause == cause)
			ns += t->src[i].total_ns;
	return (double)ns / 1e9;
}

/* source_sum - the source series of class cause on cpu in text, in s */
static double source_sum(const char *text, int cpu, const char *cause)
{
	char pre[96];
	double sum = 0;

	snprintf(pre, sizeof(pre), "jitterscope_source_lost_seconds_total{cpu=\"%d\",cause=\"%s\",",
		 cpu, cause);
	for (const char *p = strstr(text, pre); p; p = strstr(p + 1, pre))
		sum += strtod(strchr(p, '}') + 2, NULL);
	return sum;
}

/** The largest labels get series (kworkers merged, no pid), the rest is "other"; across
 * expositions no source series and no "other" ever goes back, and they add up. */
/* a followed thread's result, appearing after the exposition began, and the marks' get series
 * of their own, told apart by gap_source (a thread's name escaped) */
static void test_prom_gap_sources(void **state)
{
	struct fx *f = *state;
	struct js_prom *m = prom_new();
	char *t;

	assert_non_null(m);
	f->run.ncpus = 1;
	assert_int_equal(prom_start(m, &f->run), 0);
	gap_src(f, NULL, m, 0, 3000, JS_CAUSE_TIMER, 0, "local_timer");
	f->run.ncpus = 2; /* a thread starts: its result is added */
	f->cpus[1].source = JS_SRC_THREAD;
	f->cpus[1].tid = 42;
	snprintf(f->cpus[1].name, sizeof(f->cpus[1].name), "a\"pp:42");
	gap_src(f, NULL, m, 1, 500000, JS_CAUSE_TASK, 0, "jsinject:7");
	t = expose(f, m);
	has_line(t, "jitterscope_gaps_total{cpu=\"1\",cause=\"timer\"} 1");
	has_line(t, "jitterscope_gaps_total{cpu=\"3\",gap_source=\"thread\",thread=\"a\\\"pp:42\","
		    "cause=\"task\"} 1");
	has_line(t, "jitterscope_gap_duration_seconds_count{cpu=\"3\",gap_source=\"thread\","
		    "thread=\"a\\\"pp:42\"} 1");
	has_line(t, "jitterscope_source_gaps_total{cpu=\"3\",gap_source=\"thread\","
		    "thread=\"a\\\"pp:42\",cause=\"task\",source=\"jsinject\"} 1");
	free(t);
	f->cpus[1].source = JS_SRC_MARK;
	t = expose(f, m);
	has_line(t, "jitterscope_gaps_total{cpu=\"3\",gap_source=\"mark\",cause=\"task\"} 1");
	free(t);
	prom_free(m);
}

static void test_prom_sources(void **state)
{
	struct fx *f = *state;
	struct js_prom *m = prom_new();
	char *t1, *t2, *t3, name[32];

	assert_non_null(m);
	assert_int_equal(prom_start(m, &f->run), 0);
	/* 12 tasks of 1..12 us, two kworkers of one label (30 us together), an odd comm */
	for (int i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "t%d:%d", i, 100 + i);
		gap_src(f, NULL, m, 0, (uint64_t)(i + 1) * 1000, JS_CAUSE_TASK, 0, name);
	}
	gap_src(f, NULL, m, 0, 20000, JS_CAUSE_TASK, 0, "kworker/1:2:5 vmstat_update");
	gap_src(f, NULL, m, 0, 10000, JS_CAUSE_TASK, 0, "kworker/1:3:6");
	gap_src(f, NULL, m, 0, 40000, JS_CAUSE_TASK, 0, "q\"b\\\xc3:5");
	gap_src(f, NULL, m, 0, 5500, JS_CAUSE_SOFTIRQ, 0, "TIMER");
	t1 = expose(f, m);
	/* 10 picked (q"b\?, kworker, softirq TIMER and t11..t5), other per class seen */
	assert_int_equal(count_lines(t1, "jitterscope_source_lost_seconds_total{"), 10 + 2);
	assert_int_equal(count_lines(t1, "jitterscope_source_gaps_total{"), 10 + 2);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"kworker\"}") == 30e-6);
	assert_true(value(t1, "jitterscope_source_gaps_total{cpu=\"1\",cause=\"task\","
			      "source=\"kworker\"}") == 2);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"q\\\"b\\\\?\"}") == 40e-6);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"t5\"}") == 6e-6);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"t4\"}") < 0);
	/* t0..t4: 1+2+3+4+5 us */
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"other\"}") == 15e-6);
	assert_true(value(t1, "jitterscope_source_gaps_total{cpu=\"1\",cause=\"task\","
			      "source=\"other\"}") == 5);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"softirq\","
			      "source=\"other\"}") == 0);
	assert_null(strstr(t1, ":10")); /* no pid anywhere */
	assert_null(strstr(t1, "vmstat_update"));
	assert_true(source_sum(t1, 1, "task") - class_sum(f, 0, JS_CAUSE_TASK) < 1e-12);
	assert_true(class_sum(f, 0, JS_CAUSE_TASK) - source_sum(t1, 1, "task") < 1e-12);

	/* more of a shown one, a hidden one and a new large one: the new one's recent time is
	 * over twice the least shown one's (softirq TIMER, 5.5 us), it takes its place: its
	 * series starts at 0 (what it lost so far went to "other"), TIMER's stops */
	gap_src(f, NULL, m, 0, 7000, JS_CAUSE_TASK, 0, "t11:111");
	gap_src(f, NULL, m, 0, 1000, JS_CAUSE_TASK, 0, "t0:100");
	gap_src(f, NULL, m, 0, 900000, JS_CAUSE_TASK, 0, "big:999");
	t2 = expose(f, m);
	assert_true(value(t2, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"t11\"}") == 19e-6);
	assert_true(value(t2, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"big\"}") == 0);
	assert_true(value(t2, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"softirq\","
			      "source=\"TIMER\"}") < 0);
	assert_int_equal(count_lines(t2, "jitterscope_source_lost_seconds_total{"), 10 + 2);
	assert_true(fabs(value(t2, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause="
				   "\"task\",source=\"other\"}") -
			 916e-6) < 1e-12);
	assert_true(fabs(source_sum(t2, 1, "task") - class_sum(f, 0, JS_CAUSE_TASK)) < 1e-12);
	/* from then on its time is its own */
	gap_src(f, NULL, m, 0, 3000, JS_CAUSE_TASK, 0, "big:1000");
	t3 = expose(f, m);
	assert_true(value(t3, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"task\","
			      "source=\"big\"}") == 3e-6);
	assert_true(fabs(value(t3, "jitterscope_source_lost_seconds_total{cpu=\"1\",cause="
				   "\"task\",source=\"other\"}") -
			 916e-6) < 1e-12);
	free(t3);
	/* every series of the first exposition still shown is there, none smaller */
	/* every series of the first exposition is there, none smaller */
	for (char *p = t1; *p; p = strchr(p, '\n') + 1) {
		char series[256];

		if (sscanf(p, "jitterscope_source_%255[^ ]", series) == 1) {
			char full[300];

			snprintf(full, sizeof(full), "jitterscope_source_%s", series);
			assert_true(value(t2, full) >= value(t1, full) || strstr(full, "TIMER"));
		}
	}
	free(t1);
	free(t2);
	prom_free(m);

	/* room left: a source picked after the first exposition counts from its pick */
	m = prom_new();
	assert_non_null(m);
	assert_int_equal(prom_start(m, &f->run), 0);
	gap_src(f, NULL, m, 1, 2000, JS_CAUSE_IRQ, 0, "eth0:40");
	t1 = expose(f, m);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"3\",cause=\"irq\","
			      "source=\"eth0:40\"}") == 2e-6);
	assert_true(value(t1, "jitterscope_source_lost_seconds_total{cpu=\"3\",cause=\"irq\","
			      "source=\"other\"}") == 0);
	gap_src(f, NULL, m, 1, 5000, JS_CAUSE_IRQ, 0, "nvme0q1:41");
	t2 = expose(f, m);
	assert_true(value(t2, "jitterscope_source_lost_seconds_total{cpu=\"3\",cause=\"irq\","
			      "source=\"nvme0q1:41\"}") == 0);
	assert_true(value(t2, "jitterscope_source_lost_seconds_total{cpu=\"3\",cause=\"irq\","
			      "source=\"other\"}") == 5e-6);
	gap_src(f, NULL, m, 1, 3000, JS_CAUSE_IRQ, 0, "nvme0q1:41");
	t3 = expose(f, m);
	assert_true(value(t3, "jitterscope_source_lost_seconds_total{cpu=\"3\",cause=\"irq\","
			      "source=\"nvme0q1:41\"}") == 3e-6);
	assert_true(value(t3, "jitterscope_source_lost_seconds_total{cpu=\"3\",cause=\"irq\","
			      "source=\"other\"}") == 5e-6);
	assert_true(value(t3, "jitterscope_source_gaps_total{cpu=\"3\",cause=\"irq\","
			      "source=\"nvme0q1:41\"}") == 1);
	free(t1);
	free(t2);
	free(t3);
	prom_free(m);
}

/** Audit verdicts: one series per check (a repeated id and CPU once), escaped ids. */
static void test_prom_audit(void **state)
{
	struct fx *f = *state;
	struct audit_check c[4];
	struct js_prom *m = prom_new();
	char *t;

	assert_non_null(m);
	memset(c, 0, sizeof(c));
	snprintf(c[0].id, sizeof(c[0].id), "isolcpus");
	c[0].verdict = AUDIT_FAIL;
	c[0].severity = SEV_HIGH;
	c[0].cpu = 1;
	c[1] = c[0];
	snprintf(c[2].id, sizeof(c[2].id), "thp.enabled");
	c[2].verdict = AUDIT_WARN;
	c[2].severity = SEV_LOW;
	c[2].cpu = -1;
	snprintf(c[3].id, sizeof(c[3].id), "we\"ird");
	c[3].cpu = -1;
	f->run.audited = true;
	f->run.audit.checks = c;
	f->run.audit.n = 4;
	t = expose(f, m);
	f->run.audit.checks = NULL;
	f->run.audit.n = 0;
	has_line(t, "# TYPE jitterscope_audit_verdict gauge");
	has_line(t, "jitterscope_audit_checks{verdict=\"fail\"} 2");
	has_line(t, "jitterscope_audit_checks{verdict=\"pass\"} 1");
	has_line(t, "jitterscope_audit_verdict{check=\"isolcpus\",cpu=\"1\",severity=\"high\","
		    "verdict=\"fail\"} 1");
	has_line(t, "jitterscope_audit_verdict{check=\"thp.enabled\",severity=\"low\","
		    "verdict=\"warn\"} 1");
	has_line(t, "jitterscope_audit_verdict{check=\"we\\\"ird\",severity=\"info\","
		    "verdict=\"pass\"} 1");
	assert_int_equal(count_lines(t, "jitterscope_audit_verdict{"), 3);
	free(t);
	prom_free(m);
}

/** Budget violations per limit: the run's counts (budget_count, each time the limits are
 * checked), through the writer and through the --prom output's parameters. */
static void test_prom_budget(void **state)
{
	struct fx *f = *state;
	struct js_params *p = calloc(1, sizeof(*p));
	struct js_prom *m = prom_new();
	struct js_output o;
	char err[128], *t;

	assert_non_null(p);
	assert_non_null(m);
	assert_int_equal(budget_parse("max=1us,gaps=100,smi=0", &p->budget, err, sizeof(err)), 0);
	f->run.smi_countable = false;		/* smi=0 NOT CHECKED: a violation on each CPU */
	gap(f, NULL, 0, 5000, JS_CAUSE_IRQ, 0); /* over max on CPU 1 only */
	gap(f, NULL, 1, 500, JS_CAUSE_IRQ, 0);
	prom_set_budget(m, &p->budget);
	budget_count(&p->budget, &f->run, f->run.budget_viol);
	budget_count(&p->budget, &f->run, f->run.budget_viol);
	t = expose(f, m);
	has_line(t, "# TYPE jitterscope_budget_violations_total counter");
	has_line(t, "jitterscope_budget_violations_total{limit=\"max=1us\"} 2");
	has_line(t, "jitterscope_budget_violations_total{limit=\"gaps=100\"} 0");
	has_line(t, "jitterscope_budget_violations_total{limit=\"smi=0\"} 4");
	free(t);
	prom_free(m);

	memset(&o, 0, sizeof(o));
	memset(f->run.budget_viol, 0, sizeof(f->run.budget_viol));
	budget_count(&p->budget, &f->run, f->run.budget_viol); /* the check after the run */
	assert_int_equal(out_prom_new(&o, f->path, p), 0);
	o.run_start(o.ctx, &f->run);
	assert_int_equal(o.finish(o.ctx, &f->run), 0);
	o.destroy(o.ctx);
	t = slurp(f->path);
	has_line(t, "jitterscope_budget_violations_total{limit=\"max=1us\"} 1");
	has_line(t, "jitterscope_budget_violations_total{limit=\"smi=0\"} 2");
	free(t);
	free(p);
}

/* hist_lines - the gap histogram lines of an exposition (jitterscope_gap_duration_*), malloc'd */
static char *hist_lines(const char *text)
{
	char *out = calloc(1, strlen(text) + 1), *o = out;

	assert_non_null(out);
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) + 1 : strlen(l);

		if (!strncmp(l, "jitterscope_gap_duration_seconds", 32)) {
			memcpy(o, l, n);
			o += n;
		}
		l += n;
	}
	return out;
}

/** A saved run (report --prom): the histograms from each result's histogram by cause are
 * those the gaps gave as they came, but for a gap of exactly a bound (one bucket higher). */
static void test_prom_replay(void **state)
{
	static const uint64_t durs[] = { 99,	1001,	1999,	       2001,
					 50001, 777777, 3000000001ull, 20000000000ull };
	struct fx *f = *state;
	struct js_output live, saved;
	char path2[128];
	char *a, *b, *ha, *hb;

	snprintf(path2, sizeof(path2), "%s.saved", f->path);
	memset(&live, 0, sizeof(live));
	memset(&saved, 0, sizeof(saved));
	assert_int_equal(out_prom_new(&live, f->path, NULL), 0);
	assert_int_equal(out_prom_new(&saved, path2, NULL), 0);
	assert_non_null(saved.replay);
	live.run_start(live.ctx, &f->run);
	for (size_t i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
		gap(f, &live, 0, durs[i], i % 2 ? JS_CAUSE_TASK : JS_CAUSE_UNEXPLAINED, 0);
		gap(f, &live, 1, durs[i] + 7, JS_CAUSE_IRQ, 0);
	}
	saved.run_start(saved.ctx, &f->run);
	saved.replay(saved.ctx, &f->run); /* from f->cpus[].cb, which result_add_gap filled */
	assert_int_equal(live.finish(live.ctx, &f->run), 0);
	assert_int_equal(saved.finish(saved.ctx, &f->run), 0);
	live.destroy(live.ctx);
	saved.destroy(saved.ctx);
	a = slurp(f->path);
	b = slurp(path2);
	ha = hist_lines(a);
	hb = hist_lines(b);
	assert_true(strlen(ha) > 500);
	assert_string_equal(ha, hb);
	free(a);
	free(b);
	free(ha);
	free(hb);

	/* a gap of exactly 1000 ns: le="1e-06" as it came, le="2e-06" from the saved run */
	for (int i = 0; i < 2; i++)
		result_cpu_free(&f->cpus[i]);
	for (int i = 0; i < 2; i++)
		assert_int_equal(result_cpu_init(&f->cpus[i], i ? 3 : 1, 4), 0);
	memset(&saved, 0, sizeof(saved));
	gap(f, NULL, 0, 1000, JS_CAUSE_UNEXPLAINED, 0);
	assert_int_equal(out_prom_new(&saved, path2, NULL), 0);
	saved.run_start(saved.ctx, &f->run);
	saved.replay(saved.ctx, &f->run);
	assert_int_equal(saved.finish(saved.ctx, &f->run), 0);
	saved.destroy(saved.ctx);
	b = slurp(path2);
	has_line(b, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"1e-06\"} 0");
	has_line(b, "jitterscope_gap_duration_seconds_bucket{cpu=\"1\",le=\"2e-06\"} 1");
	has_line(b, "jitterscope_gap_duration_seconds_count{cpu=\"1\"} 1");
	free(b);
	unlink(path2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_prom_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_abort, setup, teardown),
		cmocka_unit_test(test_prom_labels),
		cmocka_unit_test_setup_teardown(test_prom_sources, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_gap_sources, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_audit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_replay, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
