// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_prom.c - the --prom output: Prometheus text exposition format (version 0.0.4) for
 * node_exporter's textfile collector. The file describes the last run: it is written to
 * FILE.tmp and renamed over FILE at the end, so the collector never reads half a file
 * (a FIFO or a device is written in place: renaming over it would replace it).
 *
 * Gap histograms count every gap exactly (le is "at most", as Prometheus defines it): the
 * output keeps its own bucket counts per CPU and primary cause as gaps arrive, with fixed
 * 1-2-5 boundaries from 100 ns to 10 s, so histograms from many machines add up in
 * Prometheus. Metric names and labels are listed in docs/OUTPUTS.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "js_output.h"
#include "js_result.h"
#include "js_util.h"

#define PROM_NB 25              /* finite buckets; +1 for +Inf */

/* le boundaries in ns: 1-2-5 from 100 ns to 10 s */
static const uint64_t prom_le_ns[PROM_NB] = {
	100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
	100000, 200000, 500000, 1000000, 2000000, 5000000,
	10000000, 20000000, 50000000, 100000000, 200000000, 500000000,
	1000000000, 2000000000, 5000000000, 10000000000,
};

struct prom_cpu {
	uint64_t count[JS_CAUSE_MAX][PROM_NB + 1];      /* per bucket, not cumulative */
	uint64_t sum_ns[JS_CAUSE_MAX];
	uint64_t gaps[JS_CAUSE_MAX];
};

struct prom_out {
	FILE *fp;
	char *path, *tmp;       /* tmp NULL for stdout, a FIFO or a device */
	struct prom_cpu *c;     /* per result, in run->cpus' order */
	size_t nc;
	const struct js_run *run;
	bool renamed;
	int err;
};

/* prom_bucket - the first bucket whose le holds dur_ns (PROM_NB: +Inf) */
static int prom_bucket(uint64_t dur_ns)
{
	int lo = 0, hi = PROM_NB;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (dur_ns <= prom_le_ns[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* grow - counters for the results that appeared since (threads, marks); false when out of
 * memory (the output has failed) */
static bool grow(struct prom_out *p)
{
	struct prom_cpu *v;

	if (p->err || !p->run)
		return false;
	if (p->nc >= p->run->ncpus)
		return true;
	v = realloc(p->c, p->run->ncpus * sizeof(*v));
	if (!v) {
		p->err = -ENOMEM;
		return false;
	}
	memset(v + p->nc, 0, (p->run->ncpus - p->nc) * sizeof(*v));
	p->c = v;
	p->nc = p->run->ncpus;
	return true;
}

/* labels - the series' labels of result r: `cpu="1"` for a measured CPU; a thread's and the
 * marks' add their source (and the thread) */
static const char *labels(char *buf, size_t len, const struct js_cpu_result *r)
{
	char name[2 * JS_LABEL_LEN];
	size_t k = 0;

	switch (r->source) {
	case JS_SRC_THREAD:
		/* a label value escapes \, " and newline (the exposition format) */
		for (const char *s = r->name; *s && k + 2 < sizeof(name); s++) {
			if (*s == '\\' || *s == '"' || *s == '\n')
				name[k++] = '\\';
			name[k++] = *s == '\n' ? 'n' : *s;
		}
		name[k] = '\0';
		snprintf(buf, len, "cpu=\"%d\",source=\"thread\",thread=\"%s\"", r->cpu, name);
		break;
	case JS_SRC_MARK:
		snprintf(buf, len, "cpu=\"%d\",source=\"mark\"", r->cpu);
		break;
	default:
		snprintf(buf, len, "cpu=\"%d\"", r->cpu);
	}
	return buf;
}

static void prom_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			size_t nev)
{
	struct prom_out *p = ctx;
	struct prom_cpu *c;
	uint32_t cause = g->attr.primary < JS_CAUSE_MAX ? g->attr.primary : JS_CAUSE_UNEXPLAINED;

	(void)ev;
	(void)nev;
	if (!grow(p) || g->gap.res >= p->nc)
		return;
	c = &p->c[g->gap.res];
	c->count[cause][prom_bucket(g->gap.dur_ns)]++;
	c->sum_ns[cause] += g->gap.dur_ns;
	c->gaps[cause]++;
}

static void prom_run_start(void *ctx, const struct js_run *run)
{
	struct prom_out *p = ctx;

	p->run = run;
	grow(p);
}

/* sec - ns as exact decimal seconds */
static const char *sec(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	return buf;
}

static void family(FILE *fp, const char *name, const char *type, const char *help)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* histogram - _bucket/_sum/_count lines of one series; labels like `cpu="1"` */
static void histogram(FILE *fp, const char *name, const char *labels, const uint64_t *count,
		      uint64_t sum_ns)
{
	uint64_t cum = 0;
	char b[32];

	for (int i = 0; i <= PROM_NB; i++) {
		cum += count[i];
		if (i < PROM_NB)
			fprintf(fp, "%s_bucket{%s,le=\"%.9g\"} %" PRIu64 "\n", name, labels,
				(double)prom_le_ns[i] / 1e9, cum);
		else
			fprintf(fp, "%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", name, labels, cum);
	}
	fprintf(fp, "%s_sum{%s} %s\n", name, labels, sec(b, sizeof(b), sum_ns));
	fprintf(fp, "%s_count{%s} %" PRIu64 "\n", name, labels, cum);
}

static void gap_histograms(FILE *fp, const struct prom_out *p, const struct js_run *run)
{
	const char *n = "jitterscope_gap_duration_seconds";
	char lb[160], lbc[192];

	family(fp, n, "histogram", "Durations of the gaps (the measured CPU taken away from "
	       "the sampler) in the last run, per measured CPU.");
	for (size_t i = 0; i < p->nc; i++) {
		uint64_t all[PROM_NB + 1] = { 0 }, sum = 0;

		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			for (int b = 0; b <= PROM_NB; b++)
				all[b] += p->c[i].count[c][b];
			sum += p->c[i].sum_ns[c];
		}
		histogram(fp, n, labels(lb, sizeof(lb), &run->cpus[i]), all, sum);
	}
	n = "jitterscope_gap_duration_by_cause_seconds";
	family(fp, n, "histogram", "Durations of the gaps in the last run, per measured CPU "
	       "and primary cause (causes without gaps omitted).");
	for (size_t i = 0; i < p->nc; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			if (!p->c[i].gaps[c])
				continue;
			snprintf(lbc, sizeof(lbc), "%s,cause=\"%s\"",
				 labels(lb, sizeof(lb), &run->cpus[i]), js_cause_name(c));
			histogram(fp, n, lbc, p->c[i].count[c], p->c[i].sum_ns[c]);
		}
}

static void cause_counters(FILE *fp, const struct prom_out *p, const struct js_run *run)
{
	char b[32], lb[160];

	family(fp, "jitterscope_gaps_total", "counter", "Gaps in the last run, per measured "
	       "CPU and primary cause.");
	for (size_t i = 0; i < p->nc; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			fprintf(fp, "jitterscope_gaps_total{%s,cause=\"%s\"} %" PRIu64 "\n",
				labels(lb, sizeof(lb), &run->cpus[i]), js_cause_name(c),
				p->c[i].gaps[c]);
	family(fp, "jitterscope_lost_seconds_total", "counter", "Time lost to each cause "
	       "class in the last run (net: nested causes counted once; an interruption's "
	       "entry/exit included; the classes add up to the gap time).");
	for (size_t i = 0; i < run->ncpus; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			fprintf(fp, "jitterscope_lost_seconds_total{%s,cause=\"%s\"} %s\n",
				labels(lb, sizeof(lb), &run->cpus[i]), js_cause_name(c),
				sec(b, sizeof(b), run->cpus[i].causes.cls[c].total_ns));
}

static void cpu_metrics(FILE *fp, const struct js_run *run)
{
	char b[32], lb[160];

	family(fp, "jitterscope_gap_max_seconds", "gauge", "Longest gap of the last run per "
	       "measured CPU (HdrHistogram, 3 significant digits).");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_gap_max_seconds{%s} %s\n",
			labels(lb, sizeof(lb), &run->cpus[i]),
			sec(b, sizeof(b), (uint64_t)hist_max(&run->cpus[i].hist)));
	family(fp, "jitterscope_measured_seconds", "gauge", "Length of the measured window "
	       "of the last run per measured CPU.");
	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		fprintf(fp, "jitterscope_measured_seconds{%s} %s\n", labels(lb, sizeof(lb), r),
			sec(b, sizeof(b), r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0));
	}
	family(fp, "jitterscope_gaps_dropped_total", "counter", "Gaps the sampler could not "
	       "hand over (full ring) in the last run; 0 in a healthy run.");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_gaps_dropped_total{%s} %" PRIu64 "\n",
			labels(lb, sizeof(lb), &run->cpus[i]), run->cpus[i].dropped);
	family(fp, "jitterscope_steal_seconds_total", "counter", "Hypervisor steal time "
	       "inside the gaps of the last run.");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_steal_seconds_total{%s} %s\n",
			labels(lb, sizeof(lb), &run->cpus[i]), sec(b, sizeof(b), run->cpus[i].steal_ns));
	if (!run->smi_countable)
		return;
	family(fp, "jitterscope_smi_total", "counter", "System management interrupts "
	       "counted on the measured CPU during the last run.");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_smi_total{%s} %" PRIu64 "\n",
			labels(lb, sizeof(lb), &run->cpus[i]), run->cpus[i].smi);
}

static void run_metrics(FILE *fp, const struct js_run *run)
{
	char b[32];

	family(fp, "jitterscope_probes_enabled", "gauge", "1 if the eBPF probes attributed "
	       "the gaps of the last run to causes, else 0 (every gap is unexplained).");
	fprintf(fp, "jitterscope_probes_enabled %d\n", run->probes_on ? 1 : 0);
	family(fp, "jitterscope_probe_events_lost_total", "counter", "Probe events lost "
	       "(full ring buffer) in the last run.");
	fprintf(fp, "jitterscope_probe_events_lost_total %" PRIu64 "\n", run->probe_lost);
	if (run->audited) {
		family(fp, "jitterscope_audit_checks", "gauge", "Isolation audit checks of the "
		       "last run by verdict.");
		for (int v = 0; v < AUDIT_NVERDICTS; v++)
			fprintf(fp, "jitterscope_audit_checks{verdict=\"%s\"} %zu\n",
				audit_verdict_name(v), audit_count(&run->audit, v));
	}
	family(fp, "jitterscope_run_interrupted", "gauge", "1 if Ctrl-C, SIGTERM or a failed "
	       "output ended the last run early.");
	fprintf(fp, "jitterscope_run_interrupted %d\n", run->interrupted ? 1 : 0);
	family(fp, "jitterscope_run_duration_seconds", "gauge", "Length of the last run.");
	fprintf(fp, "jitterscope_run_duration_seconds %s\n", sec(b, sizeof(b), run->wall_ns));
	family(fp, "jitterscope_last_run_timestamp_seconds", "gauge", "When the last run "
	       "ended, seconds since the epoch.");
	fprintf(fp, "jitterscope_last_run_timestamp_seconds %.3f\n",
		run->start_epoch_s + (double)run->wall_ns / 1e9);
}

/* prom_write - the whole exposition of one run */
static void prom_write(FILE *fp, const struct prom_out *p, const struct js_run *run)
{
	gap_histograms(fp, p, run);
	cause_counters(fp, p, run);
	cpu_metrics(fp, run);
	run_metrics(fp, run);
}

static int prom_finish(void *ctx, const struct js_run *run)
{
	struct prom_out *p = ctx;
	int err = p->err;

	if (!p->run)
		prom_run_start(p, run);         /* no run_start: no gap was seen */
	grow(p);
	err = p->err;
	if (err || !p->fp)
		goto out;
	prom_write(p->fp, p, run);
	err = output_file_close(p->fp);
	p->fp = NULL;
	if (!err && p->tmp && rename(p->tmp, p->path))
		err = -errno;   /* outputs_finish names the file */
	if (!err)
		p->renamed = true;
out:
	return err;
}

static void prom_destroy(void *ctx)
{
	struct prom_out *p = ctx;

	if (!p)
		return;
	output_file_close(p->fp);
	if (p->tmp && !p->renamed)
		unlink(p->tmp);
	free(p->c);
	free(p->path);
	free(p->tmp);
	free(p);
}

/* out_prom_new - the --prom output (see the top of this file) */
int out_prom_new(struct js_output *out, const char *path,
		    const struct js_params *params)
{
	struct prom_out *p = calloc(1, sizeof(*p));
	int err = -ENOMEM;

	(void)params;  /* no settings */
	if (!p)
		goto out;
	p->path = strdup(path);
	if (!p->path)
		goto out;
	/* a regular file is replaced whole; a FIFO or device (/dev/null) is written in place */
	if (strcmp(path, "-") && !output_path_special(path) &&
	    asprintf(&p->tmp, "%s.tmp", path) < 0) {
		p->tmp = NULL;
		goto out;
	}
	err = -EIO;
	p->fp = output_file_open(p->tmp ? p->tmp : path, "prom");
	if (!p->fp)
		goto out;
	out->name = "Prometheus";
	out->ctx = p;
	out->run_start = prom_run_start;
	out->on_gap = prom_on_gap;
	out->finish = prom_finish;
	out->destroy = prom_destroy;
	return 0;
out:
	if (err == -ENOMEM)
		js_err("out of memory opening the Prometheus output");
	if (p) {
		free(p->path);
		free(p->tmp);
		free(p);
	}
	return err;
}
