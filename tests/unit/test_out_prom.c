// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_out_prom.c - the --prom output on a synthetic run: exact bucket counts with Prometheus's
 * "le" (at most) semantics at the boundaries, sums, counts per CPU and cause, the other
 * metrics, HELP/TYPE per family, and the FILE.tmp + rename protocol.
 */
#include <errno.h>
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

#include "js_output.h"
#include "js_result.h"

struct fx {
	struct js_run run;
	struct js_cpu_result cpus[2];
	char path[96], tmp[128];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->run.cpus = f->cpus;
	f->run.ncpus = 2;
	f->run.probes_on = true;
	f->run.smi_countable = true;
	f->run.probe_lost = 7;
	f->run.wall_ns = 4000000123ull;
	f->run.start_epoch_s = 1700000000.0;
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

static void gap(struct fx *f, struct js_output *o, int c, uint64_t dur, uint32_t cause,
		uint64_t steal)
{
	static uint64_t t = 2000000000;
	struct js_gap_rec g;

	memset(&g, 0, sizeof(g));
	g.gap.start_ns = t;
	g.gap.dur_ns = dur;
	g.gap.cpu = (uint32_t)f->cpus[c].cpu;
	g.gap.res = (uint32_t)c;       /* its result: the index in run.cpus */
	g.attr.primary = cause;
	g.attr.steal_ns = steal;
	if (cause != JS_CAUSE_UNEXPLAINED && cause != JS_CAUSE_STEAL) {
		g.attr.nparts = 1;
		g.attr.parts[0].cause = cause;
		g.attr.parts[0].count = 1;
		g.attr.parts[0].net_ns = dur - steal;
		g.attr.covered_ns = dur - steal;
	} else if (cause == JS_CAUSE_UNEXPLAINED) {
		g.attr.unexplained_ns = dur;
	}
	result_add_gap(&f->cpus[c], &g);
	o->on_gap(o->ctx, &g, NULL, 0);
	t += dur + 1000;
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
	gap(f, &o, 0, 20000000000ull, JS_CAUSE_TASK, 0);        /* 20 s: only +Inf */
	/* CPU 3: one 99 ns gap (below the first boundary's 100 ns) */
	gap(f, &o, 1, 99, JS_CAUSE_STEAL, 99);
	assert_int_equal(o.finish(o.ctx, &f->run), 0);
	o.destroy(o.ctx);
	assert_true(exists(f->path));
	assert_false(exists(f->tmp));
	t = slurp(f->path);

	has_line(t, "# HELP jitterscope_gap_duration_seconds Durations of the gaps (the measured "
		 "CPU taken away from the sampler) in the last run, per measured CPU.");
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
	has_line(t, "jitterscope_measured_seconds{cpu=\"3\"} 4.000000000");
	has_line(t, "jitterscope_probe_events_lost_total 7");
	has_line(t, "jitterscope_probes_enabled 1");
	has_line(t, "jitterscope_run_duration_seconds 4.000000123");
	has_line(t, "jitterscope_last_run_timestamp_seconds 1700000004.000");
	/* not audited: no audit family */
	assert_null(strstr(t, "jitterscope_audit_checks"));
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
	assert_null(strstr(t, "jitterscope_smi_total"));        /* not countable: absent */
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
	assert_int_equal(nseen, 13);   /* no smi, no audit */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_prom_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_abort, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
