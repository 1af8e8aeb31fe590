// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* out_json.c - the JSON contract (docs/JSON.md). Keys carry their unit. */
#include <errno.h>
#include <stdlib.h>

#include "js_audit.h"
#include "js_event_names.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_output.h"
#include "js_report.h"
#include "js_story.h"

/* thr_auto - params.threshold_auto: how --threshold auto chose threshold_ns; null without */
static void thr_auto(struct js_json *j, const struct js_run_cfg *p)
{
	const struct js_thr_auto *t = &p->thr_auto;

	if (!p->threshold_auto) {
		json_null(j, "threshold_auto");
		return;
	}
	json_obj_begin(j, "threshold_auto");
	json_str(j, "rule", JS_THR_AUTO_RULE);
	json_u64(j, "cpu", (uint64_t)t->cpu);
	json_dbl(j, "loop_min_ns", t->loop_min_ns);
	json_u64(j, "floor_ns", t->floor_ns);
	json_u64(j, "chosen_ns", t->chosen_ns);
	json_dbl(j, "gaps_per_s_at_floor", t->rate_at_floor);
	json_dbl(j, "gaps_per_s_at_chosen", t->rate_at_chosen);
	json_dbl(j, "gaps_per_s_max", t->max_rate);
	if (t->raised_because[0])
		json_str(j, "raised_because", t->raised_because);
	else
		json_null(j, "raised_because");
	json_obj_end(j);
}

static void params(struct js_json *j, const struct js_run_cfg *p)
{
	json_obj_begin(j, "params");
	json_arr_begin(j, "cpus");
	for (size_t i = 0; i < p->ncpus; i++)
		json_u64(j, NULL, (uint64_t)p->cpus[i]);
	json_arr_end(j);
	json_arr_begin(j, "house_keeping");
	for (size_t i = 0; i < p->nhk; i++)
		json_u64(j, NULL, (uint64_t)p->hk[i]);
	json_arr_end(j);
	json_u64(j, "duration_ns", p->duration_ns);
	json_u64(j, "threshold_ns", p->threshold_ns);
	thr_auto(j, p);
	json_u64(j, "warmup_ns", p->warmup_ns);
	json_str(j, "policy", sampler_policy_name(p->policy));
	json_u64(j, "priority", (uint64_t)p->priority);
	json_bool(j, "probes_requested", !p->no_probes);
	json_str(j, "probe_set", p->no_probes ? NULL : probe_set_name(p->probes_lean));
	json_str(j, "probe_set_leaves_out",
		 p->no_probes ? NULL : probe_set_leaves_out(p->probes_lean));
	json_str(j, "tsc_read", tsc_read_name(p->tsc_read));
	json_str(j, "clock", tsc_clock_name(p->clock));
	json_u64(j, "top", p->top);
	json_arr_begin(j, "arrival_intervals_ns");
	for (size_t i = 0; i < p->narrivals; i++)
		json_u64(j, NULL, p->arrival_ns[i]);
	json_arr_end(j);
	json_u64(j, "burst", p->burst);
	if (p->nevents) /* --event, as given (absent without one) */
		json_arr_begin(j, "events");
	for (size_t i = 0; i < p->nevents; i++) {
		char spec[2 * JS_USER_EVENT_LEN];

		snprintf(spec, sizeof(spec), "%s%s%s", p->events[i].open,
			 p->events[i].close[0] ? "," : "", p->events[i].close);
		json_str(j, NULL, spec);
	}
	if (p->nevents)
		json_arr_end(j);
	if (p->idle_limit)
		json_u64(j, "deepest_idle_state", (uint64_t)p->deepest_idle_state);
	else
		json_null(j, "deepest_idle_state");
	json_obj_end(j);
}

static void clock_read(struct js_json *j, const struct js_clock_read *c)
{
	json_obj_begin(j, c->name);
	json_u64(j, "samples", c->samples);
	json_dbl(j, "median_ns", c->median_ns);
	json_dbl(j, "p99_ns", c->p99_ns);
	json_dbl(j, "min_ns", c->min_ns);
	json_obj_end(j);
}

/* probe_cost - the probes' own run time from kernel bpf_stats (every CPU, filtered runs
 * included): null when it could not be collected */
static void probe_cost(struct js_json *j, const struct js_run *run)
{
	if (!run->probes_on || !run->probe_cost_known) {
		json_null(j, "cost");
		return;
	}
	json_obj_begin(j, "cost");
	json_u64(j, "attached_ns", run->probe_attached_ns);
	json_u64(j, "runs", run->probe_runs);
	json_u64(j, "run_ns", run->probe_run_ns);
	json_arr_begin(j, "programs");
	for (size_t i = 0; i < run->nprobe_progs; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "name", run->probe_progs[i].name);
		json_u64(j, "runs", run->probe_progs[i].runs);
		json_u64(j, "run_ns", run->probe_progs[i].run_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* spikes - the flight recorder's counts (--spike-dir) */
static void spikes(struct js_json *j, const struct js_spike_stats *s)
{
	json_obj_begin(j, "spikes");
	json_str(j, "dir", s->dir);
	json_u64(j, "threshold_ns", s->threshold_ns);
	json_u64(j, "max_per_min", s->max_per_min);
	if (s->max_per_source) /* a run saved before issue 39 does not say */
		json_u64(j, "max_per_source", s->max_per_source);
	else
		json_null(j, "max_per_source");
	json_u64(j, "dir_max_bytes", s->dir_max_bytes);
	json_u64(j, "seen", s->seen);
	json_u64(j, "written", s->written);
	json_u64(j, "bytes", s->bytes);
	json_obj_begin(j, "skipped");
	for (unsigned i = 0; i < JS_SPIKE_SKIP_MAX; i++)
		json_u64(j, js_spike_skip_name(i), s->skipped[i]);
	json_obj_end(j);
	json_u64(j, "replaced", s->replaced);
	json_u64(j, "write_ns_max", s->write_ns_max);
	if (s->cmd.on) {
		json_obj_begin(j, "on_spike");
		json_str(j, "command", s->cmd.cmd);
		json_u64(j, "timeout_ns", s->cmd.timeout_ns);
		json_u64(j, "runs", s->cmd.runs);
		json_u64(j, "failed", s->cmd.failed);
		json_u64(j, "timeouts", s->cmd.timeouts);
		json_u64(j, "skipped_busy", s->cmd.skipped_busy);
		json_u64(j, "run_ns", s->cmd.run_ns);
		json_obj_end(j);
	} else {
		json_null(j, "on_spike");
	}
	json_obj_end(j);
}

static void machine(struct js_json *j, const struct js_run *run)
{
	const struct js_machine *m = &run->machine;

	json_obj_begin(j, "machine");
	json_str(j, "kernel", m->kernel);
	json_str(j, "hostname", m->hostname);
	json_str(j, "cpu_model", m->cpu_model);
	json_u64(j, "online_cpus", (uint64_t)m->online_cpus);
	json_bool(j, "vm", m->hypervisor);
	json_bool(j, "invariant_tsc", m->invariant_tsc);
	if (m->steal == JS_STEAL_UNKNOWN)
		json_null(j, "steal_reported");
	else
		json_bool(j, "steal_reported", m->steal == JS_STEAL_COUNTED);
	json_dbl(j, "tsc_hz", run->fit.hz);
	if (m->counter_step) { /* arm64: cntvct_el0's stated frequency and measured step */
		json_obj_begin(j, "counter");
		json_str(j, "name", m->counter_name);
		json_dbl(j, "nominal_hz", m->counter_nominal_hz);
		json_u64(j, "step", m->counter_step);
		json_dbl(j, "step_ns", m->counter_step * (run->fit.hz > 0 ? 1e9 / run->fit.hz : 0));
		json_obj_end(j);
	}
	json_obj_begin(j, "clock_read_cost");
	clock_read(j, &run->clock.rdtscp);
	clock_read(j, &run->clock.lfence_rdtsc);
	if (run->clock.isb_cntvct.samples) /* arm64 */
		clock_read(j, &run->clock.isb_cntvct);
	clock_read(j, &run->clock.monotonic);
	json_obj_end(j);
	json_obj_end(j);
	json_obj_begin(j, "time_base");
	json_str(j, "clock", "CLOCK_MONOTONIC");
	json_u64(j, "fit_pairs", run->fit.npairs);
	json_dbl(j, "fit_residual_max_ns", run->fit.residual_max_ns);
	json_dbl(j, "fit_residual_rms_ns", run->fit.residual_rms_ns);
	json_u64(j, "start_mono_ns", run->start_mono_ns);
	json_dbl(j, "start_epoch_s", run->start_epoch_s);
	json_obj_end(j);
}

static void hist_pcts(struct js_json *j, const struct js_hist *h)
{
	for (size_t i = 0; i < js_npcts; i++)
		json_i64(j, js_pcts[i].key, hist_value_at_percentile(h, js_pcts[i].p));
	json_i64(j, "max_ns", hist_max(h));
}

/* hist_b64 - a whole histogram, HdrHistogram V2 compressed + base64 */
static void hist_b64(struct js_json *j, const char *key, const struct js_hist *h)
{
	char *b64 = NULL;

	if (hist_encode_compressed_b64(h, 9, &b64) == 0)
		json_str(j, key, b64);
	free(b64);
}

static void arrivals(struct js_json *j, const struct js_run *run, const struct js_cpu_result *r)
{
	json_arr_begin(j, "arrivals");
	for (size_t i = 0; i < r->narrivals; i++) {
		const struct js_arrival *a = &r->arrivals[i];

		json_obj_begin(j, NULL);
		json_u64(j, "interval_ns", a->interval_ns);
		json_u64(j, "arrivals", a->arrivals);
		json_u64(j, "delayed", a->delayed);
		json_dbl(j, "delayed_pct", a->arrivals ? 100.0 * a->delayed / a->arrivals : 0.0);
		json_u64(j, "delay_ns_total", a->delay_ns_total);
		hist_pcts(j, &a->delay);
		hist_b64(j, "delay_hdr_b64", &a->delay);
		json_obj_begin(j, "delayed_by_cause");
		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			if (!a->delayed_by_cause[c])
				continue;
			json_obj_begin(j, js_cause_name(c));
			json_u64(j, "arrivals", a->delayed_by_cause[c]);
			json_u64(j, "delay_ns", a->delay_ns_by_cause[c]);
			json_obj_end(j);
		}
		json_obj_end(j);
		json_arr_begin(j, "burst");
		for (int k = 0; k < JS_BURST_SIZES && run->cfg.burst; k++) {
			json_obj_begin(j, NULL);
			json_u64(j, "arrivals", run->cfg.burst);
			json_u64(j, "gap_size_ns", js_burst_sizes_ns[k]);
			json_dbl(j, "probability_observed", r->burst_p[i][k]);
			json_dbl(j, "probability_poisson",
				 arrival_burst_probability(&r->hist, r->end_ns - r->start_ns,
							   a->interval_ns, run->cfg.burst,
							   js_burst_sizes_ns[k]));
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* interval_worst - an interval's worst gap and its story, null when it had none */
static void interval_worst(struct js_json *j, const struct js_interval_worst *w,
			   uint64_t run_start_ns)
{
	char story[256];

	if (!w->dur_ns) {
		json_null(j, "worst");
		return;
	}
	story_format_brief(story, sizeof(story), w->start_ns, w->dur_ns, w->cause, w->detail,
			   run_start_ns);
	json_obj_begin(j, "worst");
	json_u64(j, "start_ns", w->start_ns);
	json_u64(j, "offset_ns", w->start_ns > run_start_ns ? w->start_ns - run_start_ns : 0);
	json_u64(j, "duration_ns", w->dur_ns);
	json_str(j, "cause", js_cause_name(w->cause));
	json_str(j, "detail", w->detail);
	json_str(j, "story", story);
	json_obj_end(j);
}

static void intervals(struct js_json *j, const struct js_cpu_result *r, uint64_t run_start_ns)
{
	const struct js_intervals *iv = &r->intervals;

	json_obj_begin(j, "intervals");
	json_u64(j, "length_ns", iv->len_ns);
	json_arr_begin(j, "list");
	for (size_t i = 0; i < iv->n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "offset_ns", iv->v[i].start_ns - r->start_ns);
		json_u64(j, "gaps", iv->v[i].gaps);
		json_u64(j, "lost_ns", iv->v[i].lost_ns);
		json_i64(j, "max_ns", iv->v[i].max_ns);
		json_i64(j, "p999_ns", iv->v[i].p999_ns);
		interval_worst(j, &iv->v[i].worst, run_start_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* cause_buckets - the 1-2-5 histogram split by primary cause, non-empty buckets only */
static void cause_buckets(struct js_json *j, const struct js_cause_buckets *b)
{
	json_arr_begin(j, "histogram_by_cause");
	for (int i = 0; i < JS_CB_BUCKETS; i++) {
		if (!b->total[i])
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, "lo_ns", cbuckets_lo(i));
		if (i == JS_CB_BUCKETS - 1)
			json_null(j, "hi_ns");
		else
			json_u64(j, "hi_ns", cbuckets_hi(i));
		json_u64(j, "total", b->total[i]);
		json_obj_begin(j, "by_cause");
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (b->count[i][c])
				json_u64(j, js_cause_name(c), b->count[i][c]);
		json_obj_end(j);
		json_obj_begin(j, "ns_by_cause");
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (b->count[i][c])
				json_u64(j, js_cause_name(c), b->ns[i][c]);
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* sources - a cause table's sources, largest first: [{cause, KEY, gaps, ...}] */
static void sources(struct js_json *j, const char *name, const char *key, const struct js_causes *c)
{
	const struct js_cause_src *src[JS_CAUSES_SRC_MAX];
	size_t n = causes_sorted(c, src, JS_CAUSES_SRC_MAX);

	json_arr_begin(j, name);
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "cause", js_cause_name(src[i]->cause));
		json_str(j, key, src[i]->detail);
		json_u64(j, "gaps", src[i]->gaps);
		json_u64(j, "events", src[i]->events);
		json_u64(j, "total_ns", src[i]->total_ns);
		json_u64(j, "entry_ns", src[i]->entry_ns);
		json_dbl(j, "share_pct", 100.0 * causes_share(c, src[i]->total_ns));
		json_u64(j, "max_ns", src[i]->max_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* the cause table: per class, then per source (class + detail) */
static void cause_table(struct js_json *j, const struct js_causes *c)
{
	json_obj_begin(j, "by_class");
	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		const struct js_cause_class *cl = causes_class(c, (uint32_t)k);

		if (!cl || !cl->gaps)
			continue;
		json_obj_begin(j, js_cause_name(k));
		json_u64(j, "gaps", cl->gaps);
		json_u64(j, "events", cl->events);
		json_u64(j, "total_ns", cl->total_ns);
		json_u64(j, "entry_ns", cl->entry_ns);
		json_dbl(j, "share_pct", 100.0 * causes_share(c, cl->total_ns));
		json_u64(j, "max_ns", cl->max_ns);
		json_obj_end(j);
	}
	json_obj_end(j);
	sources(j, "sources", "detail", c);
}

/* period_fields - one detector's verdict: period_ns 0 when not periodic */
static void period_fields(struct js_json *j, const struct js_period *p)
{
	struct js_period_result pr;
	bool periodic = period_result(p, &pr);

	json_bool(j, "periodic", periodic);
	json_u64(j, "period_ns", periodic ? pr.period_ns : 0);
	json_dbl(j, "strength", pr.strength);
	if (pr.phase_ns < 0)
		json_null(j, "phase_ns"); /* loaded from a file without it */
	else
		json_dbl(j, "phase_ns", periodic ? pr.phase_ns : 0);
	json_u64(j, "gaps", pr.n);
}

/* periodicity - the unexplained gaps' periodicity: the headline class (the longest tenth,
 * at least min_ns long), every gap, and each non-empty duration band */
static void periodicity(struct js_json *j, const struct js_period_classes *pc)
{
	int h = period_classes_headline(pc);

	json_obj_begin(j, "unexplained_periodicity");
	period_fields(j, &pc->ge[h]);
	json_u64(j, "min_ns", js_period_band_ns[h]);
	json_obj_begin(j, "all");
	period_fields(j, &pc->ge[0]);
	json_obj_end(j);
	json_arr_begin(j, "bands");
	for (int i = 0; i < JS_PERIOD_BANDS; i++) {
		if (!pc->band[i].n)
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, "min_ns", js_period_band_ns[i]);
		if (i == JS_PERIOD_BANDS - 1)
			json_null(j, "max_ns");
		else
			json_u64(j, "max_ns", period_band_hi(i));
		period_fields(j, &pc->band[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* vm_exit - one VM exit's cost on the CPU, null on bare metal (js_vmexit.h) */
static void vm_exit(struct js_json *j, const struct js_exit_cost *x)
{
	if (!x->samples) {
		json_null(j, "vm_exit");
		return;
	}
	json_obj_begin(j, "vm_exit");
	json_u64(j, "samples", x->samples);
	json_dbl(j, "min_ns", x->min_ns);
	json_dbl(j, "median_ns", x->median_ns);
	json_dbl(j, "p90_ns", x->p90_ns);
	json_obj_end(j);
}

/* host_readings - the host's readings of the CPU and their version moves (js_model.h,
 * struct js_host_moves); null when none held a version */
static void host_readings(struct js_json *j, const struct js_host_moves *m)
{
	if (!m->has) {
		json_null(j, "host_readings");
		return;
	}
	json_obj_begin(j, "host_readings");
	json_u64(j, "readings", m->readings);
	if (m->has & STEAL_HAS_ST_VERSION)
		json_u64(j, "reloads_without_steal", m->reloads);
	else
		json_null(j, "reloads_without_steal");
	if (m->has & STEAL_HAS_CLK_VERSION)
		json_u64(j, "clock_updates", m->clocks);
	else
		json_null(j, "clock_updates");
	json_obj_end(j);
}

/* entry_exit - the entry/exit rule's bounds per interruption kind (js_entry.h) */
static void entry_exit(struct js_json *j, const struct js_entry *m)
{
	json_obj_begin(j, "entry_exit");
	json_u64(j, "prior_ns", m->prior_ns);
	json_u64(j, "cap_ns", m->cap_ns);
	json_obj_begin(j, "kinds");
	for (int k = 0; k < ENTRY_KINDS; k++) {
		const struct js_entry_kind *e = &m->k[k];

		if (!e->lone && !e->gaps)
			continue;
		json_obj_begin(j, entry_kind_name(k));
		json_u64(j, "lone_gaps", e->lone);
		json_u64(j, "median_ns", e->median_ns);
		json_u64(j, "floor_ns", e->floor_ns);
		json_u64(j, "learned_ns", e->bound_ns);
		json_u64(j, "cap_ns", entry_cap(m, k));
		json_u64(j, "bound_ns", entry_bound(m, k));
		json_u64(j, "gaps", e->gaps);
		json_u64(j, "interruptions", e->entries);
		json_u64(j, "entry_ns", e->entry_ns);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
}

/* thread - a followed thread's own figures (js_thread_stats) */
static void thread(struct js_json *j, const struct js_cpu_result *r)
{
	const struct js_thread_stats *t = &r->ts;

	json_u64(j, "tid", r->tid);
	json_str(j, "thread", r->name);
	json_obj_begin(j, "thread_stats");
	json_u64(j, "syscalls", t->syscalls);
	json_u64(j, "syscall_ns", t->syscall_ns);
	json_u64(j, "sleeps", t->sleeps);
	json_u64(j, "sleep_ns", t->sleep_ns);
	json_u64(j, "yields", t->yields);
	json_u64(j, "preempted", t->preempted);
	json_u64(j, "preempted_ns", t->preempted_ns);
	json_u64(j, "interrupted", t->interrupted);
	json_u64(j, "interrupted_ns", t->interrupted_ns);
	json_u64(j, "own_bh", t->own_bh);
	json_u64(j, "own_bh_ns", t->own_bh_ns);
	json_bool(j, "syscalls_traced", t->syscalls_traced);
	json_u64(j, "blocked", t->blocked);
	json_u64(j, "blocked_ns", t->blocked_ns);
	json_u64(j, "faults", t->faults);
	json_u64(j, "migrations", t->migrations);
	json_u64(j, "short_gaps", t->short_gaps);
	json_u64(j, "short_ns", t->short_ns);
	json_arr_begin(j, "ran_on");
	for (int c = 0; c < 64; c++)
		if (t->cpus_mask >> c & 1)
			json_u64(j, NULL, (uint64_t)c);
	json_arr_end(j);
	json_bool(j, "exited", t->exited);
	json_obj_end(j);
}

/* ties - the audit's findings r's causes tie to (audit_ties): what fixing each recovers */
static void ties(struct js_json *j, const struct js_cpu_result *r)
{
	json_arr_begin(j, "explained_by_checks");
	for (size_t i = 0; i < r->nties; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "check", r->ties[i].check);
		json_u64(j, "ns", r->ties[i].ns);
		json_arr_begin(j, "causes");
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (r->ties[i].causes & (1u << c))
				json_str(j, NULL, js_cause_name(c));
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void cpu(struct js_json *j, const struct js_run *run, const struct js_cpu_result *r)
{
	struct js_gap_rec *recs = calloc(r->top.n ? r->top.n : 1, sizeof(*recs));
	unsigned n = recs ? result_top_sorted(r, recs) : 0;

	json_obj_begin(j, NULL);
	json_u64(j, "cpu", (uint64_t)r->cpu);
	json_str(j, "source", js_source_name(r->source));
	if (r->source == JS_SRC_THREAD)
		thread(j, r);
	json_i64(j, "node", r->node);
	json_u64(j, "start_ns", r->start_ns);
	json_u64(j, "end_ns", r->end_ns);
	json_u64(j, "duration_ns", r->end_ns - r->start_ns);
	json_u64(j, "iterations", r->iterations);
	json_dbl(j, "loop_ns_min", r->loop_ns_min);
	json_dbl(j, "loop_ns_median", r->loop_ns_median);
	json_dbl(j, "loop_ns_mean", r->loop_ns_mean);
	json_u64(j, "gap_count", r->gap_count);
	json_u64(j, "lost_ns", r->lost_ns);
	json_dbl(j, "lost_pct", result_lost_pct(r));
	json_u64(j, "dropped", r->dropped);
	json_u64(j, "events", r->events);
	hist_pcts(j, &r->hist);
	json_i64(j, "min_ns", hist_min(&r->hist));
	json_dbl(j, "mean_ns", hist_mean(&r->hist));
	json_u64(j, "steal_ns", r->steal_ns);
	if (run->smi_countable)
		json_u64(j, "smi", r->smi);
	else
		json_null(j, "smi");
	json_obj_begin(j, "by_primary_cause");
	for (int c = 0; c < JS_CAUSE_MAX; c++) {
		if (!r->causes.by_primary[c])
			continue;
		json_obj_begin(j, js_cause_name(c));
		json_u64(j, "gaps", r->causes.by_primary[c]);
		json_u64(j, "ns", r->causes.ns_by_primary[c]);
		json_obj_end(j);
	}
	json_obj_end(j);
	cause_table(j, &r->causes);
	sources(j, "sources_by_cgroup", "cgroup", &r->by_cgroup);
	if (run->tied)
		ties(j, r);
	vm_exit(j, &r->vm_exit);
	host_readings(j, &r->host);
	entry_exit(j, &r->entry);
	periodicity(j, &r->period);
	hist_b64(j, "hist_hdr_b64", &r->hist);
	cause_buckets(j, &r->cb);
	intervals(j, r, run->start_mono_ns);
	arrivals(j, run, r);
	json_arr_begin(j, "top");
	for (unsigned i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "start_ns", recs[i].gap.start_ns);
		json_u64(j, "offset_ns", recs[i].gap.start_ns - run->start_mono_ns);
		json_u64(j, "duration_ns", recs[i].gap.dur_ns);
		json_u64(j, "events", recs[i].attr.nevents);
		js_gap_write_json(j, &recs[i]);
		js_attr_write_json_stacks(j, &recs[i].attr, run->cgroups, &run->stacks);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	free(recs);
}

/* follow - --pid/--tid: what was followed; null when not */
static void follow(struct js_json *j, const struct js_follow_info *f)
{
	if (!f->on) {
		json_null(j, "follow");
		return;
	}
	json_obj_begin(j, "follow");
	if (f->pid)
		json_u64(j, "pid", (uint64_t)f->pid);
	else
		json_null(j, "pid");
	json_arr_begin(j, "tids");
	for (size_t i = 0; i < f->ntids; i++)
		json_u64(j, NULL, (uint64_t)f->tids[i]);
	json_arr_end(j);
	json_str(j, "comm", f->comm);
	json_bool(j, "exited", f->exited);
	if (f->exited)
		json_u64(j, "exit_ns", f->exit_ns);
	else
		json_null(j, "exit_ns");
	json_u64(j, "threads_seen", f->threads_seen);
	json_u64(j, "threads_over", f->threads_over);
	json_u64(j, "unwatched_gaps", f->unwatched_gaps);
	json_u64(j, "lost", f->lost);
	json_obj_end(j);
}

/* command - -- CMD: what ran and how it ended; null when the run started none */
static void command(struct js_json *j, const struct js_cmd_info *c)
{
	if (!c->on) {
		json_null(j, "command");
		return;
	}
	json_obj_begin(j, "command");
	json_str(j, "line", c->line);
	json_u64(j, "pid", (uint64_t)c->pid);
	json_str(j, "mode", c->followed ? "follow" : "cpus");
	json_bool(j, "exited", c->exited);
	if (c->exit_status >= 0)
		json_u64(j, "exit_status", (uint64_t)c->exit_status);
	else
		json_null(j, "exit_status");
	if (c->signal)
		json_u64(j, "signal", (uint64_t)c->signal);
	else
		json_null(j, "signal");
	json_u64(j, "start_ns", c->start_ns);
	if (c->exit_ns)
		json_u64(j, "exit_ns", c->exit_ns);
	else
		json_null(j, "exit_ns");
	json_obj_end(j);
}

/* marks_file - --marks: what was read; null when not */
/* idle_states - --deepest-idle-state: the states disabled on the measured CPUs, whether
 * they were given back, why none could be; null without the option */
static void idle_states(struct js_json *j, const struct js_run *run)
{
	if (!run->cfg.idle_limit) {
		json_null(j, "idle_states");
		return;
	}
	json_obj_begin(j, "idle_states");
	json_u64(j, "deepest", (uint64_t)run->cfg.deepest_idle_state);
	json_arr_begin(j, "disabled");
	for (size_t i = 0; i < run->idle.n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "cpu", (uint64_t)run->idle.v[i].cpu);
		json_u64(j, "state", (uint64_t)run->idle.v[i].state);
		json_str(j, "name", run->idle.v[i].name);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_bool(j, "restored", run->idle.restored);
	json_str(j, "why_not", run->idle_why[0] ? run->idle_why : NULL);
	json_obj_end(j);
}

static void marks_file(struct js_json *j, const struct js_marks_info *m)
{
	if (!m->on) {
		json_null(j, "marks_file");
		return;
	}
	json_obj_begin(j, "marks_file");
	json_str(j, "path", m->path);
	json_str(j, "type", m->fifo ? "fifo" : "file");
	json_u64(j, "lines", m->lines);
	json_u64(j, "marks", m->marks);
	json_u64(j, "malformed", m->malformed);
	json_u64(j, "late", m->late);
	json_u64(j, "early", m->early);
	json_u64(j, "truncated", m->truncated);
	json_arr_begin(j, "malformed_lines");
	for (size_t i = 0; i < m->nbad; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "line", m->bad[i].line);
		json_str(j, "why", m->bad[i].why);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* answer - the report's answer (answer.c): its figures, its fix first, and its lines */
static void answer(struct js_json *j, const struct js_run *run)
{
	char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];
	struct js_answer a;

	report_answer(run, &a);
	report_answer_lines(run, &a, lines);
	json_obj_begin(j, "answer");
	json_str(j, "of", a.of_marks ? "marks" : "measured");
	json_u64(j, "lost_ns", a.of_marks ? a.marks_ns : a.lost_ns);
	json_u64(j, "of_ns", a.of_marks ? a.window_ns : a.measured_ns);
	json_bool(j, "outside_first", a.outside_first);
	if (a.fix) {
		json_obj_begin(j, "fix_first");
		json_str(j, "check", a.fix->id);
		if (a.fix->cpu >= 0)
			json_i64(j, "cpu", a.fix->cpu);
		else
			json_null(j, "cpu");
		json_str(j, "hint", a.fix->hint);
		json_u64(j, "recovers_ns", a.fix_ns);
		json_arr_begin(j, "causes");
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (a.fix_causes & (1u << c))
				json_str(j, NULL, js_cause_name(c));
		json_arr_end(j);
		json_obj_end(j);
	} else {
		json_null(j, "fix_first");
	}
	json_obj_begin(j, "lines");
	for (int i = 0; i < JS_ANSWER_LINES; i++) {
		char key[24];
		size_t k = 0;

		for (const char *c = report_answer_label(i); *c && k + 1 < sizeof(key); c++)
			key[k++] = *c == ' ' ? '_' : *c;
		key[k] = '\0';
		json_str(j, key, lines[i][0] ? lines[i] : NULL);
	}
	json_obj_end(j);
	json_obj_end(j);
}

void out_json_write(FILE *fp, const struct js_run *run)
{
	struct js_json j;

	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	json_u64(&j, "schema_version", JS_SCHEMA_VERSION);
	json_str(&j, "tool", "jitterscope");
	json_str(&j, "version", JS_VERSION);
	json_bool(&j, "interrupted", run->interrupted);
	json_str(&j, "stop_reason", run->stop_why[0] ? run->stop_why : NULL);
	json_str(&j, "ended_by", js_end_name(run->ended_by));
	json_u64(&j, "wall_ns", run->wall_ns);
	params(&j, &run->cfg);
	machine(&j, run);
	json_obj_begin(&j, "probes");
	json_bool(&j, "enabled", run->probes_on);
	json_str(&j, "why_disabled", run->probes_on ? NULL : run->probes_why);
	json_u64(&j, "events", run->probe_events);
	json_obj_begin(&j, "events_by_kind"); /* the kinds sent, by name */
	for (unsigned int k = 0; k < JS_EV_KIND_MAX; k++)
		if (run->probe_events_kind[k] && js_ev_kind_name(k))
			json_u64(&j, js_ev_kind_name(k), run->probe_events_kind[k]);
	json_obj_end(&j);
	json_u64(&j, "lost", run->probe_lost);
	json_u64(&j, "evicted", run->probe_evicted);
	json_bool(&j, "waker", run->probes_waker);
	if (run->probes_stacks) { /* --stacks: what the map and the table lost */
		json_obj_begin(&j, "stacks");
		json_u64(&j, "map_buckets", JS_STACKS_MAX);
		json_u64(&j, "depth", JS_STACK_DEPTH);
		json_u64(&j, "full", run->stack_full);
		json_u64(&j, "failed", run->stack_fail);
		json_u64(&j, "dropped", run->stacks.dropped);
		json_obj_end(&j);
	} else {
		json_null(&j, "stacks");
	}
	probe_cost(&j, run);
	json_obj_end(&j);
	if (run->cfg.test_hook != SAMPLER_HOOK_NONE) {
		json_obj_begin(&j, "test_hook");
		json_str(&j, "mode", sampler_hook_name(run->cfg.test_hook));
		json_u64(&j, "actions", run->hook_actions);
		if (run->cfg.test_hook == SAMPLER_HOOK_THP) {
			json_u64(&j, "huge_kb_at_arm", run->hook_huge_kb_arm);
			json_u64(&j, "huge_kb_at_end", run->hook_huge_kb_end);
		}
		json_obj_end(&j);
	}
	if (run->spikes.on)
		spikes(&j, &run->spikes);
	json_obj_begin(&j, "smi");
	json_bool(&j, "countable", run->smi_countable);
	json_str(&j, "why_not", run->smi_countable ? NULL : run->smi_why);
	json_obj_end(&j);
	follow(&j, &run->follow);
	marks_file(&j, &run->marks);
	command(&j, &run->command);
	idle_states(&j, run);
	/* a file whose "cpus" are the samplers' alone, as before the other sources: a reader
	 * that knows only "cpus" never takes a thread's or the marks' result for a CPU's */
	for (int src = 0; src < JS_SRC_MAX; src++) {
		json_arr_begin(&j, js_result_array[src]);
		for (size_t i = 0; i < run->ncpus; i++)
			if (run->cpus[i].source == (enum js_source)src)
				cpu(&j, run, &run->cpus[i]);
		json_arr_end(&j);
	}
	if (run->audited)
		audit_write_json(&j, "audit", &run->audit);
	if (run->have_deltas)
		audit_deltas_write_json(&j, "counter_deltas", &run->deltas);
	json_arr_begin(&j, "explained_by_settings");
	for (size_t i = 0; i < run->nxcheck; i++)
		json_str(&j, NULL, run->xcheck[i]);
	json_arr_end(&j);
	answer(&j, run);
	json_obj_end(&j);
}

/* the --json output: written once, from the final result */
static int json_finish(void *ctx, const struct js_run *run)
{
	out_json_write(ctx, run);
	return output_file_flush(ctx);
}

static void json_destroy(void *ctx)
{
	output_file_close(ctx);
}

int out_json_new(struct js_output *out, const char *path, const struct js_params *params)
{
	FILE *fp = output_file_open(path, "json");

	(void)params; /* no settings */
	if (!fp)
		return -EIO;
	out->name = "JSON";
	out->ctx = fp;
	out->file = fp;
	out->finish = json_finish;
	out->destroy = json_destroy;
	return 0;
}
