// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * json_run.c - a saved run's sections but its results (js_json_run.h): each section's
 * writer beside its reader, and the table of sections out_json.c writes and report_load.c
 * reads, in the document's order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_audit.h"
#include "js_event_names.h"
#include "js_idle_states.h"
#include "js_json.h"
#include "js_json_run.h"
#include "js_jsonread.h"
#include "js_report.h"
#include "js_story.h"
#include "js_util.h"

/* header - what wrote the document, and its schema (key: "schema_version") */
static void header(struct js_json *j, const char *key, const struct js_run *run)
{
	(void)run;
	json_u64(j, key, JS_SCHEMA_VERSION);
	json_str(j, "tool", "jitterscope");
	json_str(j, "version", JS_VERSION);
}

/* check_header - a jitterscope run of a schema we read */
static void check_header(struct jr *l, const struct jsonp_val *root, const char *key,
			 struct js_run *run)
{
	const struct jsonp_val *tool, *kind;
	uint64_t ver = 0;

	(void)run;
	if (!jsonp_is(root, JSONP_OBJ)) {
		jr_fail(l, root, NULL,
			"not a jitterscope run: the document is %s %s, not an object",
			jr_a_type(root->type), jsonp_type_name(root->type));
		return;
	}
	tool = jsonp_get(root, "tool");
	if (!jsonp_get(root, key) || !jsonp_str(tool) || strcmp(jsonp_str(tool), "jitterscope")) {
		jr_fail(l, NULL, NULL,
			"not a jitterscope run (no \"schema_version\" and \"tool\": "
			"\"jitterscope\")");
		return;
	}
	jr_u64(l, root, key, JR_REQ, &ver);
	if (!l->rc && (ver < JS_SCHEMA_VERSION_MIN || ver > JS_SCHEMA_VERSION))
		jr_fail(l, jsonp_get(root, key), key,
			"%llu is not supported (this jitterscope reads %d to %d)",
			(unsigned long long)ver, JS_SCHEMA_VERSION_MIN, JS_SCHEMA_VERSION);
	l->schema = ver;
	kind = jsonp_get(root, "kind");
	if (!l->rc && jsonp_str(kind))
		jr_fail(l, kind, NULL, "a jitterscope %.20s document, not a run", jsonp_str(kind));
	if (!l->rc && !jsonp_get(root, "cpus") && jsonp_get(root, "audit"))
		jr_fail(l, NULL, NULL, "written by `jitterscope check` (an audit, no measurement)");
}

static void interrupted(struct js_json *j, const char *key, const struct js_run *run)
{
	json_bool(j, key, run->interrupted);
}

static void load_interrupted(struct jr *l, const struct jsonp_val *root, const char *key,
			     struct js_run *run)
{
	jr_bool(l, root, key, JR_REQ, &run->interrupted);
}

static void stop_reason(struct js_json *j, const char *key, const struct js_run *run)
{
	json_str(j, key, run->stop_why[0] ? run->stop_why : NULL);
}

static void load_stop_reason(struct jr *l, const struct jsonp_val *root, const char *key,
			     struct js_run *run)
{
	jr_str(l, root, key, JR_NUL, run->stop_why, sizeof(run->stop_why));
}

static void ended_by(struct js_json *j, const char *key, const struct js_run *run)
{
	json_str(j, key, js_end_name(run->ended_by));
}

/* load_ended_by - what ended the run (since issue 41: optional, null when unknown) */
static void load_ended_by(struct jr *l, const struct jsonp_val *root, const char *key,
			  struct js_run *run)
{
	const struct jsonp_val *v = jr_get(l, root, key, JSONP_STR, JR_NUL);
	int x = v ? js_end_from_name(v->str.s) : 0;

	if (x < 0)
		jr_fail(l, v, key, "unknown value \"%.40s\"", v->str.s);
	else
		run->ended_by = (enum js_end)x;
}

static void wall(struct js_json *j, const char *key, const struct js_run *run)
{
	json_u64(j, key, run->wall_ns);
}

static void load_wall(struct jr *l, const struct jsonp_val *root, const char *key,
		      struct js_run *run)
{
	jr_u64(l, root, key, JR_REQ, &run->wall_ns);
}

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

/* load_thr_auto - params.threshold_auto (newer; absent or null: a -T TIME run) */
static void load_thr_auto(struct jr *l, const struct jsonp_val *o, struct js_run_cfg *p)
{
	const struct jsonp_val *v = jr_get(l, o, "threshold_auto", JSONP_OBJ, JR_NUL);
	struct js_thr_auto *t = &p->thr_auto;
	uint64_t cpu = 0;
	size_t mark;

	if (!v)
		return;
	mark = jr_push(l, ".threshold_auto");
	p->threshold_auto = true;
	jr_u64(l, v, "cpu", JR_REQ, &cpu);
	t->cpu = (int)JS_MIN(cpu, (uint64_t)JS_CPUS_MAX);
	jr_dbl(l, v, "loop_min_ns", JR_REQ, &t->loop_min_ns);
	jr_u64(l, v, "floor_ns", JR_REQ, &t->floor_ns);
	jr_u64(l, v, "chosen_ns", JR_REQ, &t->chosen_ns);
	jr_dbl(l, v, "gaps_per_s_at_floor", JR_REQ, &t->rate_at_floor);
	jr_dbl(l, v, "gaps_per_s_at_chosen", JR_REQ, &t->rate_at_chosen);
	jr_dbl(l, v, "gaps_per_s_max", JR_REQ, &t->max_rate);
	jr_str(l, v, "raised_because", JR_REQ | JR_NUL, t->raised_because,
	       sizeof(t->raised_because));
	jr_pop(l, mark);
}

static void params(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_run_cfg *p = &run->cfg;

	json_obj_begin(j, key);
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

static void load_params(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ), *a;
	size_t mark = jr_push(l, ".%s", key);
	struct js_run_cfg *p = &run->cfg;
	uint64_t top = 0;
	bool probes = true;

	jr_cpus(l, o, "cpus", p->cpus, &p->ncpus, JS_CPUS_MAX);
	jr_cpus(l, o, "house_keeping", p->hk, &p->nhk, JS_CPUS_MAX);
	jr_u64(l, o, "duration_ns", JR_REQ, &p->duration_ns);
	jr_u64(l, o, "threshold_ns", JR_REQ, &p->threshold_ns);
	load_thr_auto(l, o, p);
	jr_u64(l, o, "warmup_ns", JR_REQ, &p->warmup_ns);
	p->policy = jr_name(l, o, "policy", sampler_policy_from_name);
	jr_int(l, o, "priority", JR_REQ, 0, 99, &p->priority);
	jr_bool(l, o, "probes_requested", JR_REQ, &probes);
	p->no_probes = !probes;
	/* newer than probes_requested: before it, every run was full */
	p->probes_lean = jr_get(l, o, "probe_set", JSONP_STR, JR_NUL) &&
			 jr_name(l, o, "probe_set", probe_set_from_name) == 1;
	switch (jr_name(l, o, "tsc_read", tsc_read_from_name)) {
	case TSC_READ_LFENCE_RDTSC:
		p->tsc_read = TSC_READ_LFENCE_RDTSC;
		break;
	case TSC_READ_CNTVCT:
		p->tsc_read = TSC_READ_CNTVCT;
		break;
	default:
		p->tsc_read = TSC_READ_RDTSCP;
	}
	/* newer than tsc_read: before it, lfence;rdtsc was only ever asked for (--lfence) */
	if (jr_get(l, o, "clock", JSONP_STR, 0))
		p->clock = (enum tsc_clock)jr_name(l, o, "clock", tsc_clock_from_name);
	else
		p->clock = p->tsc_read == TSC_READ_LFENCE_RDTSC ? TSC_CLOCK_LFENCE : TSC_CLOCK_AUTO;
	jr_u64(l, o, "top", JR_REQ, &top);
	p->top = (unsigned)JS_MIN(top, 1000000u);
	a = jr_get(l, o, "arrival_intervals_ns", JSONP_ARR, 0);
	for (size_t i = 0; a && i < a->arr.n && i < JS_MAX_ARRIVALS && !l->rc; i++)
		if (jsonp_u64(&a->arr.v[i], &p->arrival_ns[p->narrivals++]))
			jr_fail(l, &a->arr.v[i], "arrival_intervals_ns", "not an interval in ns");
	jr_u64(l, o, "burst", 0, &p->burst);
	a = jr_get(l, o, "events", JSONP_ARR, 0); /* --event: runs older than it lack it */
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		char why[96];

		if (a->arr.v[i].type != JSONP_STR || p->nevents == JS_USER_EVENTS_MAX ||
		    user_event_parse(a->arr.v[i].str.s, &p->events[p->nevents++], why, sizeof(why)))
			jr_fail(l, &a->arr.v[i], "events", "not an --event of at most %d",
				JS_USER_EVENTS_MAX);
	}
	/* since issue 41: null or absent without --deepest-idle-state */
	if (jr_get(l, o, "deepest_idle_state", JSONP_NUM, JR_NUL)) {
		p->idle_limit = true;
		jr_int(l, o, "deepest_idle_state", 0, 0, INT32_MAX, &p->deepest_idle_state);
	}
	jr_pop(l, mark);
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

static void load_clock(struct jr *l, const struct jsonp_val *o, const char *name,
		       struct js_clock_read *c)
{
	const struct jsonp_val *v = jr_get(l, o, name, JSONP_OBJ, 0);
	size_t mark = jr_push(l, ".%s", name);

	c->name = name;
	if (v) {
		c->samples = 1; /* present: it was measured (samples is newer) */
		jr_u64(l, v, "samples", 0, &c->samples);
		jr_dbl(l, v, "median_ns", JR_REQ, &c->median_ns);
		jr_dbl(l, v, "p99_ns", JR_REQ, &c->p99_ns);
		jr_dbl(l, v, "min_ns", JR_REQ, &c->min_ns);
	}
	jr_pop(l, mark);
}

/* steal_at - machine.steal_reported (since issue 39; null or absent: not known) */
static void steal_at(struct jr *l, const struct jsonp_val *o, struct js_machine *m)
{
	const struct jsonp_val *v = jr_get(l, o, "steal_reported", JSONP_BOOL, JR_NUL);

	m->steal = !v ? JS_STEAL_UNKNOWN : v->b ? JS_STEAL_COUNTED : JS_STEAL_NONE;
}

static void machine(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_machine *m = &run->machine;

	json_obj_begin(j, key);
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
}

static void load_machine(struct jr *l, const struct jsonp_val *root, const char *key,
			 struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ), *c;
	struct js_machine *m = &run->machine;
	size_t mark = jr_push(l, ".%s", key);

	jr_str(l, o, "kernel", JR_REQ, m->kernel, sizeof(m->kernel));
	jr_str(l, o, "hostname", JR_REQ, m->hostname, sizeof(m->hostname));
	jr_str(l, o, "cpu_model", JR_REQ, m->cpu_model, sizeof(m->cpu_model));
	jr_int(l, o, "online_cpus", JR_REQ, 0, INT32_MAX, &m->online_cpus);
	jr_bool(l, o, "vm", JR_REQ, &m->hypervisor);
	jr_bool(l, o, "invariant_tsc", JR_REQ, &m->invariant_tsc);
	steal_at(l, o, m);
	jr_dbl(l, o, "tsc_hz", JR_REQ, &m->tsc_hz);
	run->fit.hz = m->tsc_hz;
	run->fit.ns_per_cycle = m->tsc_hz > 0 ? 1e9 / m->tsc_hz : 0;
	run->clock.tsc_hz = m->tsc_hz;
	c = jr_get(l, o, "counter", JSONP_OBJ, 0); /* arm64 runs */
	if (c) {
		size_t cm = jr_push(l, ".counter");

		jr_str(l, c, "name", JR_REQ, m->counter_name, sizeof(m->counter_name));
		jr_dbl(l, c, "nominal_hz", JR_REQ, &m->counter_nominal_hz);
		jr_u64(l, c, "step", JR_REQ, &m->counter_step);
		jr_pop(l, cm);
	}
	c = jr_get(l, o, "clock_read_cost", JSONP_OBJ, 0);
	jr_push(l, ".clock_read_cost");
	load_clock(l, c, "rdtscp", &run->clock.rdtscp);
	load_clock(l, c, "lfence_rdtsc", &run->clock.lfence_rdtsc);
	if (c && jr_get(l, c, "isb_cntvct", JSONP_OBJ, 0))
		load_clock(l, c, "isb_cntvct", &run->clock.isb_cntvct);
	load_clock(l, c, "clock_gettime_monotonic", &run->clock.monotonic);
	jr_pop(l, mark);
}

/* time_base - how the run's TSC maps to CLOCK_MONOTONIC and the wall clock */
static void time_base(struct js_json *j, const char *key, const struct js_run *run)
{
	json_obj_begin(j, key);
	json_str(j, "clock", "CLOCK_MONOTONIC");
	json_u64(j, "fit_pairs", run->fit.npairs);
	json_dbl(j, "fit_residual_max_ns", run->fit.residual_max_ns);
	json_dbl(j, "fit_residual_rms_ns", run->fit.residual_rms_ns);
	json_u64(j, "start_mono_ns", run->start_mono_ns);
	json_dbl(j, "start_epoch_s", run->start_epoch_s);
	json_obj_end(j);
}

static void load_time_base(struct jr *l, const struct jsonp_val *root, const char *key,
			   struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);
	uint64_t pairs = 0;

	jr_u64(l, o, "fit_pairs", JR_REQ, &pairs);
	run->fit.npairs = (size_t)pairs;
	jr_dbl(l, o, "fit_residual_max_ns", JR_REQ, &run->fit.residual_max_ns);
	jr_dbl(l, o, "fit_residual_rms_ns", JR_REQ, &run->fit.residual_rms_ns);
	jr_u64(l, o, "start_mono_ns", JR_REQ, &run->start_mono_ns);
	jr_dbl(l, o, "start_epoch_s", JR_REQ, &run->start_epoch_s);
	jr_pop(l, mark);
}

/* stacks_info - --stacks: what the map and the table lost (null without) */
static void stacks_info(struct js_json *j, const struct js_run *run)
{
	if (!run->probes_stacks) {
		json_null(j, "stacks");
		return;
	}
	json_obj_begin(j, "stacks");
	json_u64(j, "map_buckets", JS_STACKS_MAX);
	json_u64(j, "depth", JS_STACK_DEPTH);
	json_u64(j, "full", run->stack_full);
	json_u64(j, "failed", run->stack_fail);
	json_u64(j, "dropped", run->stacks.dropped);
	json_obj_end(j);
}

/* load_stacks_info - probes.stacks (--stacks; absent or null: off) */
static void load_stacks_info(struct jr *l, const struct jsonp_val *o, struct js_run *run)
{
	size_t mark = jr_push(l, ".stacks");

	run->probes_stacks = o != NULL;
	if (o) {
		jr_u64(l, o, "full", 0, &run->stack_full);
		jr_u64(l, o, "failed", 0, &run->stack_fail);
		jr_u64(l, o, "dropped", 0, &run->stacks.dropped);
	}
	jr_pop(l, mark);
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

/* load_probe_cost - probes.cost: the programs' kernel run-time statistics, or null */
static void load_probe_cost(struct jr *l, const struct jsonp_val *o, struct js_run *run)
{
	const struct jsonp_val *a;
	size_t mark;

	if (!o)
		return;
	mark = jr_push(l, ".cost");
	run->probe_cost_known = true;
	jr_u64(l, o, "attached_ns", JR_REQ, &run->probe_attached_ns);
	jr_u64(l, o, "runs", JR_REQ, &run->probe_runs);
	jr_u64(l, o, "run_ns", JR_REQ, &run->probe_run_ns);
	a = jr_get(l, o, "programs", JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct js_probe_prog *pp = &run->probe_progs[run->nprobe_progs];
		size_t m2 = jr_push(l, ".programs[%zu]", i);

		if (run->nprobe_progs >= JS_PROBE_PROGS_MAX) {
			jr_fail(l, v, NULL, "more than %d programs", JS_PROBE_PROGS_MAX);
			break;
		}
		if (!jsonp_is(v, JSONP_OBJ)) {
			jr_fail(l, v, NULL, "expected an object");
			break;
		}
		jr_str(l, v, "name", JR_REQ, pp->name, sizeof(pp->name));
		jr_u64(l, v, "runs", JR_REQ, &pp->runs);
		jr_u64(l, v, "run_ns", JR_REQ, &pp->run_ns);
		run->nprobe_progs++;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* events_by_kind - the kinds of events sent, by name */
static void events_by_kind(struct js_json *j, const struct js_run *run)
{
	json_obj_begin(j, "events_by_kind");
	for (unsigned int k = 0; k < JS_EV_KIND_MAX; k++)
		if (run->probe_events_kind[k] && js_ev_kind_name(k))
			json_u64(j, js_ev_kind_name(k), run->probe_events_kind[k]);
	json_obj_end(j);
}

/* load_events_by_kind - probes.events_by_kind (optional: added later), kinds by name; a
 * kind this version does not know is left out */
static void load_events_by_kind(struct jr *l, const struct jsonp_val *o, struct js_run *run)
{
	size_t mark = jr_push(l, ".events_by_kind");

	for (size_t i = 0; o && i < jsonp_len(o) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(o, i);
		int k = js_ev_kind_from_name(m->key);

		if (k > 0 && k < JS_EV_KIND_MAX)
			jr_u64(l, o, m->key, JR_REQ, &run->probe_events_kind[k]);
	}
	jr_pop(l, mark);
}

/* probes - what the kernel probes did */
static void probes(struct js_json *j, const char *key, const struct js_run *run)
{
	json_obj_begin(j, key);
	json_bool(j, "enabled", run->probes_on);
	json_str(j, "why_disabled", run->probes_on ? NULL : run->probes_why);
	json_u64(j, "events", run->probe_events);
	events_by_kind(j, run);
	json_u64(j, "lost", run->probe_lost);
	json_u64(j, "evicted", run->probe_evicted);
	json_bool(j, "waker", run->probes_waker);
	stacks_info(j, run);
	probe_cost(j, run);
	json_obj_end(j);
}

static void load_probes(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);

	jr_bool(l, o, "enabled", JR_REQ, &run->probes_on);
	jr_str(l, o, "why_disabled", JR_REQ | JR_NUL, run->probes_why, sizeof(run->probes_why));
	jr_u64(l, o, "events", JR_REQ, &run->probe_events);
	load_events_by_kind(l, jr_get(l, o, "events_by_kind", JSONP_OBJ, 0), run);
	jr_u64(l, o, "lost", JR_REQ, &run->probe_lost);
	jr_u64(l, o, "evicted", 0, &run->probe_evicted); /* added later: optional */
	jr_bool(l, o, "waker", 0, &run->probes_waker);	 /* optional too */
	load_stacks_info(l, jr_get(l, o, "stacks", JSONP_OBJ, JR_NUL), run); /* optional too */
	load_probe_cost(l, jr_get(l, o, "cost", JSONP_OBJ, JR_NUL), run);    /* optional too */
	jr_pop(l, mark);
}

/* test_hook - the sampler's test hook (tests only; absent without) */
static void test_hook(struct js_json *j, const char *key, const struct js_run *run)
{
	if (run->cfg.test_hook == SAMPLER_HOOK_NONE)
		return;
	json_obj_begin(j, key);
	json_str(j, "mode", sampler_hook_name(run->cfg.test_hook));
	json_u64(j, "actions", run->hook_actions);
	if (run->cfg.test_hook == SAMPLER_HOOK_THP) {
		json_u64(j, "huge_kb_at_arm", run->hook_huge_kb_arm);
		json_u64(j, "huge_kb_at_end", run->hook_huge_kb_end);
	}
	json_obj_end(j);
}

/* spikes - the flight recorder's counts (--spike-dir; absent without) */
static void spikes(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_spike_stats *s = &run->spikes;

	if (!s->on)
		return;
	json_obj_begin(j, key);
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

/* load_spikes - the flight recorder's counts, when it was on (absent: off) */
static void load_spikes(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, 0), *k;
	struct js_spike_stats *s = &run->spikes;
	size_t mark;
	uint64_t v = 0;

	if (!o)
		return;
	mark = jr_push(l, ".%s", key);
	s->on = true;
	jr_str(l, o, "dir", JR_REQ, s->dir, sizeof(s->dir));
	jr_u64(l, o, "threshold_ns", JR_REQ, &s->threshold_ns);
	jr_u64(l, o, "max_per_min", JR_REQ, &v);
	s->max_per_min = (unsigned)JS_MIN(v, (uint64_t)UINT32_MAX);
	v = 0;
	jr_u64(l, o, "max_per_source", 0, &v); /* since issue 39; 0: not said */
	s->max_per_source = (unsigned)JS_MIN(v, (uint64_t)UINT32_MAX);
	jr_u64(l, o, "dir_max_bytes", JR_REQ, &s->dir_max_bytes);
	jr_u64(l, o, "seen", JR_REQ, &s->seen);
	jr_u64(l, o, "written", JR_REQ, &s->written);
	jr_u64(l, o, "bytes", JR_REQ, &s->bytes);
	jr_u64(l, o, "write_ns_max", JR_REQ, &s->write_ns_max);
	jr_u64(l, o, "replaced", 0, &s->replaced);	 /* since issue 28 */
	k = jr_get(l, o, "on_spike", JSONP_OBJ, JR_NUL); /* since issue 28: optional, null if off */
	if (k) {
		s->cmd.on = true;
		jr_str(l, k, "command", JR_REQ, s->cmd.cmd, sizeof(s->cmd.cmd));
		jr_u64(l, k, "timeout_ns", JR_REQ, &s->cmd.timeout_ns);
		jr_u64(l, k, "runs", JR_REQ, &s->cmd.runs);
		jr_u64(l, k, "failed", JR_REQ, &s->cmd.failed);
		jr_u64(l, k, "timeouts", JR_REQ, &s->cmd.timeouts);
		jr_u64(l, k, "skipped_busy", JR_REQ, &s->cmd.skipped_busy);
		jr_u64(l, k, "run_ns", JR_REQ, &s->cmd.run_ns);
	}
	k = jr_get(l, o, "skipped", JSONP_OBJ, JR_REQ);
	for (unsigned i = 0; k && i < JS_SPIKE_SKIP_MAX; i++)
		jr_u64(l, k, js_spike_skip_name(i), JR_REQ, &s->skipped[i]);
	jr_pop(l, mark);
}

/* smi - whether SMIs were countable, and why not */
static void smi(struct js_json *j, const char *key, const struct js_run *run)
{
	json_obj_begin(j, key);
	json_bool(j, "countable", run->smi_countable);
	json_str(j, "why_not", run->smi_countable ? NULL : run->smi_why);
	json_obj_end(j);
}

static void load_smi(struct jr *l, const struct jsonp_val *root, const char *key,
		     struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);

	jr_bool(l, o, "countable", JR_REQ, &run->smi_countable);
	jr_str(l, o, "why_not", JR_REQ | JR_NUL, run->smi_why, sizeof(run->smi_why));
	jr_pop(l, mark);
}

/* follow - --pid/--tid: what was followed; null when not */
static void follow(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_follow_info *f = &run->follow;

	if (!f->on) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
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

/* load_follow - --pid/--tid: what was followed (absent or null: nothing) */
static void load_follow(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	struct js_follow_info *f = &run->follow;
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_NUL), *a;
	size_t mark = jr_push(l, ".%s", key);
	int64_t pid = 0;

	if (!o)
		goto out;
	f->on = true;
	jr_i64(l, o, "pid", JR_REQ | JR_NUL, &pid);
	f->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
	a = jr_get(l, o, "tids", JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && i < JS_FOLLOW_TIDS_MAX && !l->rc; i++) {
		int64_t t = 0;

		if (jsonp_i64(&a->arr.v[i], &t) || t <= 0 || t > INT32_MAX)
			jr_fail(l, &a->arr.v[i], "tids", "element %zu is not a thread id", i);
		else
			f->tids[f->ntids++] = (int)t;
	}
	jr_str(l, o, "comm", JR_REQ, f->comm, sizeof(f->comm));
	jr_bool(l, o, "exited", JR_REQ, &f->exited);
	jr_u64(l, o, "exit_ns", JR_NUL, &f->exit_ns);
	jr_u64(l, o, "threads_seen", JR_REQ, &f->threads_seen);
	jr_u64(l, o, "threads_over", JR_REQ, &f->threads_over);
	jr_u64(l, o, "unwatched_gaps", JR_REQ, &f->unwatched_gaps);
	jr_u64(l, o, "lost", JR_REQ, &f->lost);
out:
	jr_pop(l, mark);
}

static void marks_file(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_marks_info *m = &run->marks;

	if (!m->on) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
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

/* load_marks_file - --marks: what was read (absent or null: no marks) */
static void load_marks_file(struct jr *l, const struct jsonp_val *root, const char *key,
			    struct js_run *run)
{
	struct js_marks_info *m = &run->marks;
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_NUL), *a;
	size_t mark = jr_push(l, ".%s", key);
	char type[8] = "";

	if (!o)
		goto out;
	m->on = true;
	jr_str(l, o, "path", JR_REQ, m->path, sizeof(m->path));
	jr_str(l, o, "type", JR_REQ, type, sizeof(type));
	m->fifo = !strcmp(type, "fifo");
	jr_u64(l, o, "lines", JR_REQ, &m->lines);
	jr_u64(l, o, "marks", JR_REQ, &m->marks);
	jr_u64(l, o, "malformed", JR_REQ, &m->malformed);
	jr_u64(l, o, "late", JR_REQ, &m->late);
	jr_u64(l, o, "early", JR_REQ, &m->early);
	jr_u64(l, o, "truncated", JR_REQ, &m->truncated);
	a = jr_objs(l, o, "malformed_lines", JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && i < JS_MARKS_BAD_MAX && !l->rc; i++) {
		jr_u64(l, &a->arr.v[i], "line", JR_REQ, &m->bad[i].line);
		jr_str(l, &a->arr.v[i], "why", JR_REQ, m->bad[i].why, sizeof(m->bad[i].why));
		m->nbad++;
	}
out:
	jr_pop(l, mark);
}

/* command - -- CMD: what ran and how it ended; null when the run started none */
static void command(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_cmd_info *c = &run->command;

	if (!c->on) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
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

/* load_command - -- CMD: what ran and how it ended (absent or null: none) */
static void load_command(struct jr *l, const struct jsonp_val *root, const char *key,
			 struct js_run *run)
{
	struct js_cmd_info *c = &run->command;
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, ".%s", key);
	char mode[8] = "";
	int64_t pid = 0, status = -1, sig = 0;

	if (!o)
		goto out;
	c->on = true;
	jr_str(l, o, "line", JR_REQ, c->line, sizeof(c->line));
	jr_i64(l, o, "pid", JR_REQ, &pid);
	c->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
	jr_str(l, o, "mode", JR_REQ, mode, sizeof(mode));
	c->followed = !strcmp(mode, "follow");
	jr_bool(l, o, "exited", JR_REQ, &c->exited);
	jr_i64(l, o, "exit_status", JR_REQ | JR_NUL, &status);
	c->exit_status = status >= 0 && status <= 255 ? (int)status : -1;
	jr_i64(l, o, "signal", JR_REQ | JR_NUL, &sig);
	c->signal = sig > 0 && sig < 128 ? (int)sig : 0;
	jr_u64(l, o, "start_ns", JR_REQ, &c->start_ns);
	jr_u64(l, o, "exit_ns", JR_REQ | JR_NUL, &c->exit_ns);
out:
	jr_pop(l, mark);
}

/* idle_states - --deepest-idle-state: the states disabled on the measured CPUs, whether
 * they were given back, why none could be; null without the option */
static void idle_states(struct js_json *j, const char *key, const struct js_run *run)
{
	if (!run->cfg.idle_limit) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
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

/* load_idle_states - --deepest-idle-state: the states disabled (absent or null: not asked) */
static void load_idle_states(struct jr *l, const struct jsonp_val *root, const char *key,
			     struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_NUL), *a;
	size_t mark = jr_push(l, ".%s", key);

	if (!o)
		goto out;
	run->cfg.idle_limit = true;
	jr_int(l, o, "deepest", JR_REQ, 0, INT32_MAX, &run->cfg.deepest_idle_state);
	a = jr_get(l, o, "disabled", JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		char name[JS_IDLE_NAME_LEN] = "";
		int cpu = 0, state = 0;

		jr_int(l, v, "cpu", JR_REQ, 0, JS_CPUS_MAX - 1, &cpu);
		jr_int(l, v, "state", JR_REQ, 0, INT32_MAX, &state);
		jr_str(l, v, "name", JR_REQ, name, sizeof(name));
		if (!l->rc && idle_states_add(&run->idle, cpu, state, 0, name))
			jr_fail(l, v, "disabled", "out of memory");
	}
	jr_bool(l, o, "restored", JR_REQ, &run->idle.restored);
	jr_str(l, o, "why_not", JR_REQ | JR_NUL, run->idle_why, sizeof(run->idle_why));
out:
	jr_pop(l, mark);
}

/* audit - the isolation audit of the measured CPUs (absent without; audit_json.c) */
static void audit(struct js_json *j, const char *key, const struct js_run *run)
{
	if (run->audited)
		audit_write_json(j, key, &run->audit);
}

static void load_audit(struct jr *l, const struct jsonp_val *root, const char *key,
		       struct js_run *run)
{
	const struct jsonp_val *v = jr_get(l, root, key, JSONP_OBJ, 0);
	size_t mark;

	if (!v)
		return;
	mark = jr_push(l, ".%s", key);
	run->audited = true;
	audit_read_json(l, v, &run->audit);
	jr_pop(l, mark);
}

/* deltas - the interrupt counters' moves during the run (absent without; audit_json.c) */
static void deltas(struct js_json *j, const char *key, const struct js_run *run)
{
	if (run->have_deltas)
		audit_deltas_write_json(j, key, &run->deltas);
}

static void load_deltas(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	const struct jsonp_val *v = jr_get(l, root, key, JSONP_OBJ, 0);
	size_t mark;

	if (!v)
		return;
	mark = jr_push(l, ".%s", key);
	run->have_deltas = true;
	audit_deltas_read_json(l, v, &run->deltas);
	jr_pop(l, mark);
}

/* xcheck - the settings that explain what was measured (audit_xcheck), one line each */
static void xcheck(struct js_json *j, const char *key, const struct js_run *run)
{
	json_arr_begin(j, key);
	for (size_t i = 0; i < run->nxcheck; i++)
		json_str(j, NULL, run->xcheck[i]);
	json_arr_end(j);
}

static void load_xcheck(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	const struct jsonp_val *a = jr_get(l, root, key, JSONP_ARR, JR_REQ);

	if (!a || !a->arr.n)
		return;
	run->xcheck = calloc(a->arr.n, sizeof(*run->xcheck));
	if (!run->xcheck) {
		l->rc = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];

		if (!jsonp_is(v, JSONP_STR))
			jr_fail(l, v, key, "element %zu is not a string", i);
		else
			jr_latin1(run->xcheck[run->nxcheck++], AUDIT_LINE_LEN, v->str.s,
				  v->str.len);
	}
}

/* answer - the report's answer (answer.c): its figures, its fix first, and its lines */
static void answer(struct js_json *j, const char *key, const struct js_run *run)
{
	char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];
	struct js_answer a;

	report_answer(run, &a);
	report_answer_lines(run, &a, lines);
	json_obj_begin(j, key);
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

/* the document's sections, in its order: each written, then read, by its row */
const struct js_json_section js_json_sections[] = {
	{ "schema_version", header, check_header },
	{ "interrupted", interrupted, load_interrupted },
	{ "stop_reason", stop_reason, load_stop_reason },
	{ "ended_by", ended_by, load_ended_by },
	{ "wall_ns", wall, load_wall },
	{ "params", params, load_params },
	{ "machine", machine, load_machine },
	{ "time_base", time_base, load_time_base },
	{ "probes", probes, load_probes },
	{ "test_hook", test_hook, NULL },
	{ "spikes", spikes, load_spikes },
	{ "smi", smi, load_smi },
	{ "follow", follow, load_follow },
	{ "marks_file", marks_file, load_marks_file },
	{ "command", command, load_command },
	{ "idle_states", idle_states, load_idle_states },
	{ NULL, json_results_write, json_results_read }, /* "cpus", "threads", "marks" */
	{ "audit", audit, load_audit },
	{ "counter_deltas", deltas, load_deltas },
	{ "explained_by_settings", xcheck, load_xcheck },
	{ "answer", answer, NULL },
};
const size_t js_json_nsections = ARRAY_SIZE(js_json_sections);
