// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * result.c - a CPU's result from start to end (bounded memory): result_cpu_init, then
 * result_cpu_start when its sampler starts measuring (the per-second, arrival and burst
 * models), result_add_gap per attributed gap (totals, histograms, worst list, models),
 * result_cpu_finish when it is done.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_host.h"
#include "js_ksyms.h"
#include "js_result.h"
#include "js_stacks.h"
#include "js_util.h"

const uint64_t js_burst_sizes_ns[JS_BURST_SIZES] = { 10000, 100000, 1000000, 10000000 };

const struct js_pct js_pcts[] = {
	{ 50.0, "p50_ns", "p50" },    { 90.0, "p90_ns", "p90" },       { 99.0, "p99_ns", "p99" },
	{ 99.9, "p999_ns", "p99.9" }, { 99.99, "p9999_ns", "p99.99" },
};
const size_t js_npcts = ARRAY_SIZE(js_pcts);

static const char *const source_names[JS_SRC_MAX] = {
	[JS_SRC_SAMPLER] = "sampler",
	[JS_SRC_THREAD] = "thread",
	[JS_SRC_MARK] = "mark",
};

const char *const js_result_array[JS_SRC_MAX] = {
	[JS_SRC_SAMPLER] = "cpus",
	[JS_SRC_THREAD] = "threads",
	[JS_SRC_MARK] = "marks",
};

const char *js_source_name(enum js_source s)
{
	return (unsigned)s < JS_SRC_MAX ? source_names[s] : "?";
}

int js_source_from_name(const char *name)
{
	return js_name_index(source_names, JS_SRC_MAX, name);
}

static const char *const gap_kind_names[JS_GAP_KIND_MAX] = {
	[JS_GAP_NONE] = "",
	[JS_GAP_PREEMPTED] = "preempted",
	[JS_GAP_INTERRUPTED] = "interrupted",
	[JS_GAP_BLOCKED] = "blocked",
};

const char *js_gap_kind_name(enum js_gap_kind k)
{
	return (unsigned)k < JS_GAP_KIND_MAX ? gap_kind_names[k] : "";
}

int js_gap_kind_from_name(const char *name)
{
	return name && *name ? js_name_index(gap_kind_names, JS_GAP_KIND_MAX, name) : -1;
}

static const char *const end_names[JS_END_MAX] = {
	[JS_END_DURATION] = "duration", [JS_END_EXIT] = "exit",		[JS_END_SIGNAL] = "signal",
	[JS_END_OUTPUT] = "output",	[JS_END_ON_SPIKE] = "on-spike",
};

const char *js_end_name(enum js_end e)
{
	return (unsigned)e < JS_END_MAX ? end_names[e] : NULL;
}

int js_end_from_name(const char *name)
{
	return name && *name ? js_name_index(end_names, JS_END_MAX, name) : -1;
}

const char *result_label(const struct js_cpu_result *r, char *buf, size_t len)
{
	switch (r->source) {
	case JS_SRC_THREAD:
		snprintf(buf, len, "thread %s", r->name);
		break;
	case JS_SRC_MARK:
		snprintf(buf, len, "marks on CPU %d", r->cpu);
		break;
	default:
		snprintf(buf, len, "CPU %d", r->cpu);
	}
	return buf;
}

const char *result_key(const struct js_cpu_result *r, char *buf, size_t len)
{
	switch (r->source) {
	case JS_SRC_THREAD:
		snprintf(buf, len, "tid%u", r->tid);
		break;
	case JS_SRC_MARK:
		snprintf(buf, len, "mark%d", r->cpu);
		break;
	default:
		snprintf(buf, len, "cpu%d", r->cpu);
	}
	return buf;
}

int run_add_result(struct js_run *run, enum js_source src, int cpu, unsigned top)
{
	int err;

	if (run->ncpus == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 4;
		struct js_cpu_result *v = realloc(run->cpus, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		run->cpus = v;
		run->cap = cap;
	}
	err = result_cpu_init(&run->cpus[run->ncpus], cpu, top);
	if (err)
		return err;
	run->cpus[run->ncpus].source = src;
	return (int)run->ncpus++;
}

size_t run_count(const struct js_run *run, enum js_source src)
{
	size_t n = 0;

	for (size_t i = 0; i < run->ncpus; i++)
		n += run->cpus[i].source == src;
	return n;
}

int run_ran_on(const struct js_run *run, struct js_cpuset *set)
{
	int added = 0;

	for (size_t i = 0; i < run->ncpus; i++)
		for (int c = 0; run->cpus[i].source == JS_SRC_THREAD && c < 64; c++)
			if (run->cpus[i].ts.cpus_mask >> c & 1 && !cpuset_isset(set, c)) {
				cpuset_set(set, c);
				added++;
			}
	return added;
}

int result_cpu_init(struct js_cpu_result *r, int cpu, unsigned top)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	r->node = -1;
	causes_init(&r->causes);
	r->causes.cpu = (uint32_t)cpu;
	causes_init(&r->by_cgroup);
	r->by_cgroup.cpu = (uint32_t)cpu;
	cbuckets_init(&r->cb);
	period_classes_init(&r->period, 0, 0);
	entry_init(&r->entry, 0);
	err = hist_init(&r->hist, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);
	if (err)
		return err;
	err = result_top_init(&r->top, top);
	if (err)
		hist_free(&r->hist);
	return err;
}

void result_cpu_free(struct js_cpu_result *r)
{
	hist_free(&r->hist);
	topn_free(&r->top);
	for (size_t i = 0; i < r->narrivals; i++)
		arrival_free(&r->arrivals[i]);
	intervals_free(&r->intervals);
	r->narrivals = 0;
}

/* rec_shorter - the worst list's order: by duration (ties keep their place) */
static bool rec_shorter(const void *a, const void *b)
{
	const struct js_gap_rec *x = a, *y = b;

	return x->gap.dur_ns < y->gap.dur_ns;
}

int result_top_init(struct js_topn *t, size_t cap)
{
	return topn_init(t, cap, sizeof(struct js_gap_rec), rec_shorter);
}

int result_cpu_start(struct js_cpu_result *r, uint64_t start_ns, const struct js_run_cfg *cfg)
{
	int err;

	r->started = true;
	r->start_ns = start_ns;
	/* a run without end gets fewer entries, all allocated now: memory stays flat */
	err = intervals_init(&r->intervals, start_ns, 1000000000ull,
			     cfg->duration_ns ? 0 : INTERVALS_CAP_ENDLESS);
	if (!err && !cfg->duration_ns)
		err = intervals_reserve(&r->intervals);
	for (size_t a = 0; !err && a < cfg->narrivals; a++) {
		/* arrivals outside gaps wait 0: the loop period is reported beside */
		err = arrival_init(&r->arrivals[a], cfg->arrival_ns[a], start_ns, 0);
		if (err)
			break;
		r->narrivals++;
		for (int k = 0; k < JS_BURST_SIZES && cfg->burst; k++)
			burst_init(&r->bursts[a][k], start_ns, cfg->arrival_ns[a], cfg->burst,
				   js_burst_sizes_ns[k]);
	}
	return err;
}

/* models_add_gap - the per-gap models beside the totals (once started) */
static void models_add_gap(struct js_cpu_result *r, const struct js_gap_rec *g)
{
	if (!r->started)
		return;
	intervals_add_gap(&r->intervals, g->gap.start_ns, g->gap.dur_ns, g->attr.primary,
			  g->attr.detail);
	for (size_t a = 0; a < r->narrivals; a++) {
		arrival_add_gap(&r->arrivals[a], g->gap.start_ns, g->gap.dur_ns,
				(int)g->attr.primary);
		for (int k = 0; k < JS_BURST_SIZES && r->bursts[a][k].span_ns; k++)
			burst_add_gap(&r->bursts[a][k], g->gap.start_ns, g->gap.dur_ns);
	}
}

void result_prefetch_gap(const struct js_cpu_result *r, uint64_t dur_ns)
{
	hist_prefetch(&r->hist, (int64_t)JS_MIN(dur_ns, (uint64_t)INT64_MAX));
	if (r->started)
		intervals_prefetch(&r->intervals, dur_ns);
}

void result_add_gap(struct js_cpu_result *r, struct js_gap_rec *g)
{
	/* the detector sees every gap no event explains, the host's periodic ones too */
	if (g->attr.primary == JS_CAUSE_UNEXPLAINED)
		period_classes_add(&r->period, g->gap.start_ns, g->gap.dur_ns);
	host_name(g, &r->period, r->host_periodic);
	r->gap_count++;
	r->lost_ns += g->gap.dur_ns;
	r->steal_ns += g->attr.steal_ns;
	r->events += g->attr.nevents;
	causes_add_gap(&r->causes, g);
	causes_add_cgroups(&r->by_cgroup, g, r->cgroups);
	cbuckets_add(&r->cb, g->gap.dur_ns, g->attr.primary);
	hist_record(&r->hist, (int64_t)g->gap.dur_ns);
	topn_offer(&r->top, g);
	models_add_gap(r, g);
}

void result_cpu_finish(struct js_cpu_result *r, const struct js_cpu_end *e)
{
	/* start_ns came from an earlier TSC fit: a run stopped before it sampled ends
	 * where it started, which the final fit may put 1 ns before it */
	r->end_ns = JS_MAX(e->end_ns, r->start_ns);
	r->iterations = e->iterations;
	r->dropped = e->dropped;
	if (r->iterations)
		r->loop_ns_mean =
			(double)(r->end_ns - r->start_ns - r->lost_ns) / (double)r->iterations;
	intervals_finish(&r->intervals, r->end_ns);
	entry_finish(&r->entry);
	for (size_t a = 0; a < r->narrivals; a++) {
		arrival_finish(&r->arrivals[a], r->end_ns);
		for (int k = 0; k < JS_BURST_SIZES && r->bursts[a][k].span_ns; k++)
			r->burst_p[a][k] = burst_finish(&r->bursts[a][k], r->end_ns);
	}
	r->smi = e->smi;
}

static int cmp_dur_desc(const void *a, const void *b)
{
	const struct js_gap_rec *x = a, *y = b;

	return x->gap.dur_ns < y->gap.dur_ns ? 1 : x->gap.dur_ns > y->gap.dur_ns ? -1 : 0;
}

unsigned result_top_sorted(const struct js_cpu_result *r, struct js_gap_rec *out)
{
	if (!r->top.n)
		return 0; /* -n 0: v (and out) may be NULL */
	memcpy(out, r->top.v, r->top.n * sizeof(*out));
	qsort(out, r->top.n, sizeof(*out), cmp_dur_desc);
	return (unsigned)r->top.n;
}

uint64_t result_window_ns(const struct js_cpu_result *r)
{
	uint64_t end = r->end_ns ? r->end_ns : r->done_ns;

	return end > r->start_ns ? end - r->start_ns : 0;
}

double lost_pct(uint64_t lost_ns, uint64_t window_ns)
{
	return window_ns ? 100.0 * (double)lost_ns / (double)window_ns : 0.0;
}

const char *result_no_steal(const struct js_run *run, const struct js_cpu_result *r)
{
	if (r->steal_ns || run->machine.steal != JS_STEAL_NONE)
		return NULL;
	return run->machine.hypervisor ? JS_STEAL_NOT_REPORTED : JS_STEAL_NOT_VM;
}

double result_lost_pct(const struct js_cpu_result *r)
{
	return lost_pct(r->lost_ns, result_window_ns(r));
}

const char *run_sym(const struct js_run *run, uint64_t addr)
{
	return run->ksyms ? ksyms_name(run->ksyms, addr) : NULL;
}

void run_free(struct js_run *run)
{
	for (size_t i = 0; run->cpus && i < run->ncpus; i++)
		result_cpu_free(&run->cpus[i]);
	free(run->cpus);
	if (run->audited)
		audit_free(&run->audit);
	if (run->have_deltas)
		audit_deltas_free(&run->deltas);
	free(run->xcheck);
	ksyms_free(run->ksyms);
	js_stacks_free(&run->stacks);
	cgroups_free(run->cgroups);
	idle_states_free(&run->idle);
	memset(run, 0, sizeof(*run));
}
