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
#include "js_jsonfield.h"
#include "js_jsonread.h"
#include "js_report.h"
#include "js_story.h"
#include "js_util.h"

/* the keys both a writer and a reader below name, each spelled once */
#define K_ARRIVAL_INTERVALS_NS "arrival_intervals_ns"
#define K_BURST "burst"
#define K_CLOCK "clock"
#define K_CLOCK_READ_COST "clock_read_cost"
#define K_COMM "comm"
#define K_COST "cost"
#define K_COUNTABLE "countable"
#define K_COUNTER "counter"
#define K_CPU "cpu"
#define K_CPUS "cpus"
#define K_DEEPEST "deepest"
#define K_DEEPEST_IDLE_STATE "deepest_idle_state"
#define K_DISABLED "disabled"
#define K_DURATION_NS "duration_ns"
#define K_ENABLED "enabled"
#define K_EVENTS "events"
#define K_EVENTS_BY_KIND "events_by_kind"
#define K_EVICTED "evicted"
#define K_EXIT_NS "exit_ns"
#define K_EXIT_STATUS "exit_status"
#define K_EXITED "exited"
#define K_FIT_PAIRS "fit_pairs"
#define K_HOUSE_KEEPING "house_keeping"
#define K_LINE "line"
#define K_LINES "lines"
#define K_LOST "lost"
#define K_UNSEEN_SWITCHES "unseen_switches"
#define K_MALFORMED_LINES "malformed_lines"
#define K_MODE "mode"
#define K_NAME "name"
#define K_ON_SPIKE "on_spike"
#define K_ONLINE_CPUS "online_cpus"
#define K_PATH "path"
#define K_PID "pid"
#define K_POLICY "policy"
#define K_PRIORITY "priority"
#define K_PROBE_SET "probe_set"
#define K_PROBES_REQUESTED "probes_requested"
#define K_PROGRAMS "programs"
#define K_REPLACED "replaced"
#define K_RESTORED "restored"
#define K_SHED "shed"
#define K_SIGNAL "signal"
#define K_SKIPPED "skipped"
#define K_STACKS "stacks"
#define K_START_NS "start_ns"
#define K_STATE "state"
#define K_STEAL_REPORTED "steal_reported"
#define K_THRESHOLD_AUTO "threshold_auto"
#define K_THRESHOLD_NS "threshold_ns"
#define K_TIDS "tids"
#define K_TOOL "tool"
#define K_TOP "top"
#define K_TSC_HZ "tsc_hz"
#define K_TSC_READ "tsc_read"
#define K_TYPE "type"
#define K_WAKER "waker"
#define K_WARMUP_NS "warmup_ns"
#define K_WHY "why"
#define K_WHY_DISABLED "why_disabled"
#define K_WHY_NOT "why_not"
#define K_WRITE_NS_MAX "write_ns_max"
#define K_AUDIT "audit" /* its row's, and a `check` document's */

/* header - what wrote the document, and its schema (key: "schema_version") */
static void header(struct js_json *j, const char *key, const struct js_run *run)
{
	(void)run;
	json_u64(j, key, JS_SCHEMA_VERSION);
	json_str(j, K_TOOL, "jitterscope");
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
	tool = jsonp_get(root, K_TOOL);
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
	if (!l->rc && !jsonp_get(root, js_result_array[JS_SRC_SAMPLER]) && jsonp_get(root, K_AUDIT))
		jr_fail(l, NULL, NULL, "written by `jitterscope check` (an audit, no measurement)");
}

/* the run's scalars: whether it was interrupted, why it stopped (null: it did not stop
 * early), what ended it, its wall time */
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

/* how --threshold auto chose, after its rule and CPU */
static const struct json_field thr_auto_fields[] = {
	JSON_FIELD(struct js_thr_auto, loop_min_ns, DBL, JF_REQ),
	JSON_FIELD(struct js_thr_auto, floor_ns, U64, JF_REQ),
	JSON_FIELD(struct js_thr_auto, chosen_ns, U64, JF_REQ),
	JSON_FIELD_KEY("gaps_per_s_at_floor", struct js_thr_auto, rate_at_floor, DBL, JF_REQ),
	JSON_FIELD_KEY("gaps_per_s_at_chosen", struct js_thr_auto, rate_at_chosen, DBL, JF_REQ),
	JSON_FIELD_KEY("gaps_per_s_max", struct js_thr_auto, max_rate, DBL, JF_REQ),
	JSON_FIELD(struct js_thr_auto, raised_because, STR, JF_REQ | JF_NUL | JF_NULL0),
};

/* thr_auto - params.threshold_auto: how --threshold auto chose threshold_ns; null without */
static void thr_auto(struct js_json *j, const struct js_run_cfg *p)
{
	const struct js_thr_auto *t = &p->thr_auto;

	if (!p->threshold_auto) {
		json_null(j, K_THRESHOLD_AUTO);
		return;
	}
	json_obj_begin(j, K_THRESHOLD_AUTO);
	json_str(j, "rule", JS_THR_AUTO_RULE);
	json_u64(j, K_CPU, (uint64_t)t->cpu);
	json_fields_write(j, thr_auto_fields, ARRAY_SIZE(thr_auto_fields), t);
	json_obj_end(j);
}

/* load_thr_auto - params.threshold_auto (newer; absent or null: a -T TIME run) */
static void load_thr_auto(struct jr *l, const struct jsonp_val *o, struct js_run_cfg *p)
{
	const struct jsonp_val *v = jr_get(l, o, K_THRESHOLD_AUTO, JSONP_OBJ, JR_NUL);
	struct js_thr_auto *t = &p->thr_auto;
	uint64_t cpu = 0;
	size_t mark;

	if (!v)
		return;
	mark = jr_push(l, "." K_THRESHOLD_AUTO);
	p->threshold_auto = true;
	jr_u64(l, v, K_CPU, JR_REQ, &cpu);
	t->cpu = (int)JS_MIN(cpu, (uint64_t)JS_CPUS_MAX);
	jr_fields(l, v, thr_auto_fields, ARRAY_SIZE(thr_auto_fields), t);
	jr_pop(l, mark);
}

static void params(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_run_cfg *p = &run->cfg;

	json_obj_begin(j, key);
	json_arr_begin(j, K_CPUS);
	for (size_t i = 0; i < p->ncpus; i++)
		json_u64(j, NULL, (uint64_t)p->cpus[i]);
	json_arr_end(j);
	json_arr_begin(j, K_HOUSE_KEEPING);
	for (size_t i = 0; i < p->nhk; i++)
		json_u64(j, NULL, (uint64_t)p->hk[i]);
	json_arr_end(j);
	json_u64(j, K_DURATION_NS, p->duration_ns);
	json_u64(j, K_THRESHOLD_NS, p->threshold_ns);
	thr_auto(j, p);
	json_u64(j, K_WARMUP_NS, p->warmup_ns);
	json_str(j, K_POLICY, sampler_policy_name(p->policy));
	json_u64(j, K_PRIORITY, (uint64_t)p->priority);
	json_bool(j, K_PROBES_REQUESTED, !p->no_probes);
	json_str(j, K_PROBE_SET, p->no_probes ? NULL : probe_set_name(p->probes_lean));
	json_str(j, "probe_set_leaves_out",
		 p->no_probes ? NULL : probe_set_leaves_out(p->probes_lean));
	json_str(j, K_TSC_READ, tsc_read_name(p->tsc_read));
	json_str(j, K_CLOCK, tsc_clock_name(p->clock));
	json_u64(j, K_TOP, p->top);
	json_arr_begin(j, K_ARRIVAL_INTERVALS_NS);
	for (size_t i = 0; i < p->narrivals; i++)
		json_u64(j, NULL, p->arrival_ns[i]);
	json_arr_end(j);
	json_u64(j, K_BURST, p->burst);
	if (p->nevents) /* --event, as given (absent without one) */
		json_arr_begin(j, K_EVENTS);
	for (size_t i = 0; i < p->nevents; i++) {
		char spec[2 * JS_USER_EVENT_LEN];

		snprintf(spec, sizeof(spec), "%s%s%s", p->events[i].open,
			 p->events[i].close[0] ? "," : "", p->events[i].close);
		json_str(j, NULL, spec);
	}
	if (p->nevents)
		json_arr_end(j);
	if (p->idle_limit)
		json_u64(j, K_DEEPEST_IDLE_STATE, (uint64_t)p->deepest_idle_state);
	else
		json_null(j, K_DEEPEST_IDLE_STATE);
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

	jr_cpus(l, o, K_CPUS, p->cpus, &p->ncpus, JS_CPUS_MAX);
	jr_cpus(l, o, K_HOUSE_KEEPING, p->hk, &p->nhk, JS_CPUS_MAX);
	jr_u64(l, o, K_DURATION_NS, JR_REQ, &p->duration_ns);
	jr_u64(l, o, K_THRESHOLD_NS, JR_REQ, &p->threshold_ns);
	load_thr_auto(l, o, p);
	jr_u64(l, o, K_WARMUP_NS, JR_REQ, &p->warmup_ns);
	p->policy = jr_name(l, o, K_POLICY, sampler_policy_from_name);
	jr_int(l, o, K_PRIORITY, JR_REQ, 0, 99, &p->priority);
	jr_bool(l, o, K_PROBES_REQUESTED, JR_REQ, &probes);
	p->no_probes = !probes;
	/* newer than probes_requested: before it, every run was full */
	p->probes_lean = jr_get(l, o, K_PROBE_SET, JSONP_STR, JR_NUL) &&
			 jr_name(l, o, K_PROBE_SET, probe_set_from_name) == 1;
	switch (jr_name(l, o, K_TSC_READ, tsc_read_from_name)) {
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
	if (jr_get(l, o, K_CLOCK, JSONP_STR, 0))
		p->clock = (enum tsc_clock)jr_name(l, o, K_CLOCK, tsc_clock_from_name);
	else
		p->clock = p->tsc_read == TSC_READ_LFENCE_RDTSC ? TSC_CLOCK_LFENCE : TSC_CLOCK_AUTO;
	jr_u64(l, o, K_TOP, JR_REQ, &top);
	p->top = (unsigned)JS_MIN(top, 1000000u);
	a = jr_get(l, o, K_ARRIVAL_INTERVALS_NS, JSONP_ARR, 0);
	for (size_t i = 0; a && i < a->arr.n && i < JS_MAX_ARRIVALS && !l->rc; i++)
		if (jsonp_u64(&a->arr.v[i], &p->arrival_ns[p->narrivals++]))
			jr_fail(l, &a->arr.v[i], K_ARRIVAL_INTERVALS_NS, "not an interval in ns");
	jr_u64(l, o, K_BURST, 0, &p->burst);
	a = jr_get(l, o, K_EVENTS, JSONP_ARR, 0); /* --event: runs older than it lack it */
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		char why[96];

		if (a->arr.v[i].type != JSONP_STR || p->nevents == JS_USER_EVENTS_MAX ||
		    user_event_parse(a->arr.v[i].str.s, &p->events[p->nevents++], why, sizeof(why)))
			jr_fail(l, &a->arr.v[i], K_EVENTS, "not an --event of at most %d",
				JS_USER_EVENTS_MAX);
	}
	/* since issue 41: null or absent without --deepest-idle-state */
	if (jr_get(l, o, K_DEEPEST_IDLE_STATE, JSONP_NUM, JR_NUL)) {
		p->idle_limit = true;
		jr_int(l, o, K_DEEPEST_IDLE_STATE, 0, 0, INT32_MAX, &p->deepest_idle_state);
	}
	jr_pop(l, mark);
}

/* a clock read's cost (js_clockcost.h) */
static const struct json_field clock_fields[] = {
	JSON_FIELD(struct js_clock_read, samples, U64, 0),
	JSON_FIELD(struct js_clock_read, median_ns, DBL, JF_REQ),
	JSON_FIELD(struct js_clock_read, p99_ns, DBL, JF_REQ),
	JSON_FIELD(struct js_clock_read, min_ns, DBL, JF_REQ),
};

static void clock_read(struct js_json *j, const struct js_clock_read *c)
{
	json_obj_begin(j, c->name);
	json_fields_write(j, clock_fields, ARRAY_SIZE(clock_fields), c);
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
		jr_fields(l, v, clock_fields, ARRAY_SIZE(clock_fields), c);
	}
	jr_pop(l, mark);
}

/* steal_at - machine.steal_reported (since issue 39; null or absent: not known) */
static void steal_at(struct jr *l, const struct jsonp_val *o, struct js_machine *m)
{
	const struct jsonp_val *v = jr_get(l, o, K_STEAL_REPORTED, JSONP_BOOL, JR_NUL);

	m->steal = !v ? JS_STEAL_UNKNOWN : v->b ? JS_STEAL_COUNTED : JS_STEAL_NONE;
}

/* the machine: its names, then (after online_cpus) two flags (js_machine) */
static const struct json_field machine_names[] = {
	JSON_FIELD(struct js_machine, kernel, STR, JF_REQ),
	JSON_FIELD(struct js_machine, hostname, STR, JF_REQ),
	JSON_FIELD(struct js_machine, cpu_model, STR, JF_REQ),
};
static const struct json_field machine_flags[] = {
	JSON_FIELD_KEY("vm", struct js_machine, hypervisor, BOOL, JF_REQ),
	JSON_FIELD(struct js_machine, invariant_tsc, BOOL, JF_REQ),
};
/* arm64: cntvct_el0's stated frequency and measured step, before step_ns (derived) */
static const struct json_field counter_fields[] = {
	JSON_FIELD_KEY("name", struct js_machine, counter_name, STR, JF_REQ),
	JSON_FIELD_KEY("nominal_hz", struct js_machine, counter_nominal_hz, DBL, JF_REQ),
	JSON_FIELD_KEY("step", struct js_machine, counter_step, U64, JF_REQ),
};

static void machine(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_machine *m = &run->machine;

	json_obj_begin(j, key);
	json_fields_write(j, machine_names, ARRAY_SIZE(machine_names), m);
	json_u64(j, K_ONLINE_CPUS, (uint64_t)m->online_cpus);
	json_fields_write(j, machine_flags, ARRAY_SIZE(machine_flags), m);
	if (m->steal == JS_STEAL_UNKNOWN)
		json_null(j, K_STEAL_REPORTED);
	else
		json_bool(j, K_STEAL_REPORTED, m->steal == JS_STEAL_COUNTED);
	json_dbl(j, K_TSC_HZ, run->fit.hz);
	if (m->counter_step) { /* arm64: cntvct_el0's stated frequency and measured step */
		json_obj_begin(j, K_COUNTER);
		json_fields_write(j, counter_fields, ARRAY_SIZE(counter_fields), m);
		json_dbl(j, "step_ns", m->counter_step * (run->fit.hz > 0 ? 1e9 / run->fit.hz : 0));
		json_obj_end(j);
	}
	json_obj_begin(j, K_CLOCK_READ_COST);
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

	jr_fields(l, o, machine_names, ARRAY_SIZE(machine_names), m);
	jr_int(l, o, K_ONLINE_CPUS, JR_REQ, 0, INT32_MAX, &m->online_cpus);
	jr_fields(l, o, machine_flags, ARRAY_SIZE(machine_flags), m);
	steal_at(l, o, m);
	jr_dbl(l, o, K_TSC_HZ, JR_REQ, &m->tsc_hz);
	run->fit.hz = m->tsc_hz;
	run->fit.ns_per_cycle = m->tsc_hz > 0 ? 1e9 / m->tsc_hz : 0;
	run->clock.tsc_hz = m->tsc_hz;
	c = jr_get(l, o, K_COUNTER, JSONP_OBJ, 0); /* arm64 runs */
	if (c) {
		size_t cm = jr_push(l, "." K_COUNTER);

		jr_fields(l, c, counter_fields, ARRAY_SIZE(counter_fields), m);
		jr_pop(l, cm);
	}
	c = jr_get(l, o, K_CLOCK_READ_COST, JSONP_OBJ, 0);
	jr_push(l, "." K_CLOCK_READ_COST);
	load_clock(l, c, "rdtscp", &run->clock.rdtscp);
	load_clock(l, c, "lfence_rdtsc", &run->clock.lfence_rdtsc);
	if (c && jr_get(l, c, "isb_cntvct", JSONP_OBJ, 0))
		load_clock(l, c, "isb_cntvct", &run->clock.isb_cntvct);
	load_clock(l, c, "clock_gettime_monotonic", &run->clock.monotonic);
	jr_pop(l, mark);
}

/* the time base, after fit_pairs */
static const struct json_field time_base_fields[] = {
	JSON_FIELD_KEY("fit_residual_max_ns", struct js_run, fit.residual_max_ns, DBL, JF_REQ),
	JSON_FIELD_KEY("fit_residual_rms_ns", struct js_run, fit.residual_rms_ns, DBL, JF_REQ),
	JSON_FIELD(struct js_run, start_mono_ns, U64, JF_REQ),
	JSON_FIELD(struct js_run, start_epoch_s, DBL, JF_REQ),
};

/* time_base - how the run's TSC maps to CLOCK_MONOTONIC and the wall clock */
static void time_base(struct js_json *j, const char *key, const struct js_run *run)
{
	json_obj_begin(j, key);
	json_str(j, K_CLOCK, "CLOCK_MONOTONIC");
	json_u64(j, K_FIT_PAIRS, run->fit.npairs);
	json_fields_write(j, time_base_fields, ARRAY_SIZE(time_base_fields), run);
	json_obj_end(j);
}

static void load_time_base(struct jr *l, const struct jsonp_val *root, const char *key,
			   struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);
	uint64_t pairs = 0;

	jr_u64(l, o, K_FIT_PAIRS, JR_REQ, &pairs);
	run->fit.npairs = (size_t)pairs;
	jr_fields(l, o, time_base_fields, ARRAY_SIZE(time_base_fields), run);
	jr_pop(l, mark);
}

/* --stacks: what the map and the table lost, after their sizes */
static const struct json_field stacks_fields[] = {
	JSON_FIELD_KEY("full", struct js_run, stack_full, U64, 0),
	JSON_FIELD_KEY("failed", struct js_run, stack_fail, U64, 0),
	JSON_FIELD_KEY("dropped", struct js_run, stacks.dropped, U64, 0),
};

/* stacks_info - --stacks: what the map and the table lost (null without) */
static void stacks_info(struct js_json *j, const struct js_run *run)
{
	if (!run->probes_stacks) {
		json_null(j, K_STACKS);
		return;
	}
	json_obj_begin(j, K_STACKS);
	json_u64(j, "map_buckets", JS_STACKS_MAX);
	json_u64(j, "depth", JS_STACK_DEPTH);
	json_fields_write(j, stacks_fields, ARRAY_SIZE(stacks_fields), run);
	json_obj_end(j);
}

/* load_stacks_info - probes.stacks (--stacks; absent or null: off) */
static void load_stacks_info(struct jr *l, const struct jsonp_val *o, struct js_run *run)
{
	size_t mark = jr_push(l, "." K_STACKS);

	run->probes_stacks = o != NULL;
	if (o) {
		jr_fields(l, o, stacks_fields, ARRAY_SIZE(stacks_fields), run);
	}
	jr_pop(l, mark);
}

/* the probes' own run time, in all and per program */
static const struct json_field cost_fields[] = {
	JSON_FIELD_KEY("attached_ns", struct js_run, probe_attached_ns, U64, JF_REQ),
	JSON_FIELD_KEY("runs", struct js_run, probe_runs, U64, JF_REQ),
	JSON_FIELD_KEY("run_ns", struct js_run, probe_run_ns, U64, JF_REQ),
};
static const struct json_field prog_fields[] = {
	JSON_FIELD(struct js_probe_prog, name, STR, JF_REQ),
	JSON_FIELD(struct js_probe_prog, runs, U64, JF_REQ),
	JSON_FIELD(struct js_probe_prog, run_ns, U64, JF_REQ),
};

/* probe_cost - the probes' own run time from kernel bpf_stats (every CPU, filtered runs
 * included): null when it could not be collected */
static void probe_cost(struct js_json *j, const struct js_run *run)
{
	if (!run->probes_on || !run->probe_cost_known) {
		json_null(j, K_COST);
		return;
	}
	json_obj_begin(j, K_COST);
	json_fields_write(j, cost_fields, ARRAY_SIZE(cost_fields), run);
	json_arr_begin(j, K_PROGRAMS);
	for (size_t i = 0; i < run->nprobe_progs; i++) {
		json_obj_begin(j, NULL);
		json_fields_write(j, prog_fields, ARRAY_SIZE(prog_fields), &run->probe_progs[i]);
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
	mark = jr_push(l, "." K_COST);
	run->probe_cost_known = true;
	jr_fields(l, o, cost_fields, ARRAY_SIZE(cost_fields), run);
	a = jr_get(l, o, K_PROGRAMS, JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct js_probe_prog *pp = &run->probe_progs[run->nprobe_progs];
		size_t m2 = jr_push(l, "." K_PROGRAMS "[%zu]", i);

		if (run->nprobe_progs >= JS_PROBE_PROGS_MAX) {
			jr_fail(l, v, NULL, "more than %d programs", JS_PROBE_PROGS_MAX);
			break;
		}
		if (!jsonp_is(v, JSONP_OBJ)) {
			jr_fail(l, v, NULL, "expected an object");
			break;
		}
		jr_fields(l, v, prog_fields, ARRAY_SIZE(prog_fields), pp);
		run->nprobe_progs++;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* events_by_kind - the kinds of events sent, by name */
static void events_by_kind(struct js_json *j, const struct js_run *run)
{
	json_obj_begin(j, K_EVENTS_BY_KIND);
	for (unsigned int k = 0; k < JS_EV_KIND_MAX; k++)
		if (run->probe_events_kind[k] && js_ev_kind_name(k))
			json_u64(j, js_ev_kind_name(k), run->probe_events_kind[k]);
	json_obj_end(j);
}

/* load_events_by_kind - probes.events_by_kind (optional: added later), kinds by name; a
 * kind this version does not know is left out */
static void load_events_by_kind(struct jr *l, const struct jsonp_val *o, struct js_run *run)
{
	size_t mark = jr_push(l, "." K_EVENTS_BY_KIND);

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
	json_bool(j, K_ENABLED, run->probes_on);
	json_str(j, K_WHY_DISABLED, run->probes_on ? NULL : run->probes_why);
	json_u64(j, K_EVENTS, run->probe_events);
	events_by_kind(j, run);
	json_u64(j, K_LOST, run->probe_lost);
	json_u64(j, K_EVICTED, run->probe_evicted);
	json_u64(j, K_SHED, run->probe_shed);
	json_u64(j, K_UNSEEN_SWITCHES, run->probe_unseen);
	json_bool(j, K_WAKER, run->probes_waker);
	stacks_info(j, run);
	probe_cost(j, run);
	json_obj_end(j);
}

static void load_probes(struct jr *l, const struct jsonp_val *root, const char *key,
			struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);

	jr_bool(l, o, K_ENABLED, JR_REQ, &run->probes_on);
	jr_str(l, o, K_WHY_DISABLED, JR_REQ | JR_NUL, run->probes_why, sizeof(run->probes_why));
	jr_u64(l, o, K_EVENTS, JR_REQ, &run->probe_events);
	load_events_by_kind(l, jr_get(l, o, K_EVENTS_BY_KIND, JSONP_OBJ, 0), run);
	jr_u64(l, o, K_LOST, JR_REQ, &run->probe_lost);
	jr_u64(l, o, K_EVICTED, 0, &run->probe_evicted);	/* added later: optional */
	jr_u64(l, o, K_SHED, 0, &run->probe_shed);		/* optional too */
	jr_u64(l, o, K_UNSEEN_SWITCHES, 0, &run->probe_unseen); /* optional too */
	jr_bool(l, o, K_WAKER, 0, &run->probes_waker);		/* optional too */
	load_stacks_info(l, jr_get(l, o, K_STACKS, JSONP_OBJ, JR_NUL), run); /* optional too */
	load_probe_cost(l, jr_get(l, o, K_COST, JSONP_OBJ, JR_NUL), run);    /* optional too */
	jr_pop(l, mark);
}

/* test_hook - the sampler's test hook (tests only; absent without) */
static void test_hook(struct js_json *j, const char *key, const struct js_run *run)
{
	if (run->cfg.test_hook == SAMPLER_HOOK_NONE)
		return;
	json_obj_begin(j, key);
	json_str(j, K_MODE, sampler_hook_name(run->cfg.test_hook));
	json_u64(j, "actions", run->hook_actions);
	if (run->cfg.test_hook == SAMPLER_HOOK_THP) {
		json_u64(j, "huge_kb_at_arm", run->hook_huge_kb_arm);
		json_u64(j, "huge_kb_at_end", run->hook_huge_kb_end);
	}
	json_obj_end(j);
}

/* the flight recorder's settings and counts, before its skips; max_per_source is null in a
 * run saved before issue 39 (0: not said) */
static const struct json_field spike_fields[] = {
	JSON_FIELD(struct js_spike_stats, dir, STR, JF_REQ),
	JSON_FIELD(struct js_spike_stats, threshold_ns, U64, JF_REQ),
	JSON_FIELD(struct js_spike_stats, max_per_min, U32, JF_REQ),
	JSON_FIELD(struct js_spike_stats, max_per_source, U32, JF_NULL0),
	JSON_FIELD(struct js_spike_stats, dir_max_bytes, U64, JF_REQ),
	JSON_FIELD(struct js_spike_stats, seen, U64, JF_REQ),
	JSON_FIELD(struct js_spike_stats, written, U64, JF_REQ),
	JSON_FIELD(struct js_spike_stats, bytes, U64, JF_REQ),
};
/* --on-spike: its command and how its runs went (since issue 28) */
static const struct json_field on_spike_fields[] = {
	JSON_FIELD_KEY("command", struct js_spike_cmd_stats, cmd, STR, JF_REQ),
	JSON_FIELD(struct js_spike_cmd_stats, timeout_ns, U64, JF_REQ),
	JSON_FIELD(struct js_spike_cmd_stats, runs, U64, JF_REQ),
	JSON_FIELD(struct js_spike_cmd_stats, failed, U64, JF_REQ),
	JSON_FIELD(struct js_spike_cmd_stats, timeouts, U64, JF_REQ),
	JSON_FIELD(struct js_spike_cmd_stats, skipped_busy, U64, JF_REQ),
	JSON_FIELD(struct js_spike_cmd_stats, run_ns, U64, JF_REQ),
};

/* spikes - the flight recorder's counts (--spike-dir; absent without) */
static void spikes(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_spike_stats *s = &run->spikes;

	if (!s->on)
		return;
	json_obj_begin(j, key);
	json_fields_write(j, spike_fields, ARRAY_SIZE(spike_fields), s);
	json_obj_begin(j, K_SKIPPED);
	for (unsigned i = 0; i < JS_SPIKE_SKIP_MAX; i++)
		json_u64(j, js_spike_skip_name(i), s->skipped[i]);
	json_obj_end(j);
	json_u64(j, K_REPLACED, s->replaced);
	json_u64(j, K_WRITE_NS_MAX, s->write_ns_max);
	if (s->cmd.on) {
		json_obj_begin(j, K_ON_SPIKE);
		json_fields_write(j, on_spike_fields, ARRAY_SIZE(on_spike_fields), &s->cmd);
		json_obj_end(j);
	} else {
		json_null(j, K_ON_SPIKE);
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

	if (!o)
		return;
	mark = jr_push(l, ".%s", key);
	s->on = true;
	jr_fields(l, o, spike_fields, ARRAY_SIZE(spike_fields), s);
	jr_u64(l, o, K_WRITE_NS_MAX, JR_REQ, &s->write_ns_max);
	jr_u64(l, o, K_REPLACED, 0, &s->replaced);	 /* since issue 28 */
	k = jr_get(l, o, K_ON_SPIKE, JSONP_OBJ, JR_NUL); /* since issue 28: optional, null if off */
	if (k) {
		s->cmd.on = true;
		jr_fields(l, k, on_spike_fields, ARRAY_SIZE(on_spike_fields), &s->cmd);
	}
	k = jr_get(l, o, K_SKIPPED, JSONP_OBJ, JR_REQ);
	for (unsigned i = 0; k && i < JS_SPIKE_SKIP_MAX; i++)
		jr_u64(l, k, js_spike_skip_name(i), JR_REQ, &s->skipped[i]);
	jr_pop(l, mark);
}

/* smi - whether SMIs were countable, and why not */
static void smi(struct js_json *j, const char *key, const struct js_run *run)
{
	json_obj_begin(j, key);
	json_bool(j, K_COUNTABLE, run->smi_countable);
	json_str(j, K_WHY_NOT, run->smi_countable ? NULL : run->smi_why);
	json_obj_end(j);
}

static void load_smi(struct jr *l, const struct jsonp_val *root, const char *key,
		     struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, key, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);

	jr_bool(l, o, K_COUNTABLE, JR_REQ, &run->smi_countable);
	jr_str(l, o, K_WHY_NOT, JR_REQ | JR_NUL, run->smi_why, sizeof(run->smi_why));
	jr_pop(l, mark);
}

/* --pid/--tid: its counts, after its exit */
static const struct json_field follow_fields[] = {
	JSON_FIELD(struct js_follow_info, threads_seen, U64, JF_REQ),
	JSON_FIELD(struct js_follow_info, threads_over, U64, JF_REQ),
	JSON_FIELD(struct js_follow_info, unwatched_gaps, U64, JF_REQ),
	JSON_FIELD(struct js_follow_info, lost, U64, JF_REQ),
};

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
		json_u64(j, K_PID, (uint64_t)f->pid);
	else
		json_null(j, K_PID);
	json_arr_begin(j, K_TIDS);
	for (size_t i = 0; i < f->ntids; i++)
		json_u64(j, NULL, (uint64_t)f->tids[i]);
	json_arr_end(j);
	json_str(j, K_COMM, f->comm);
	json_bool(j, K_EXITED, f->exited);
	if (f->exited)
		json_u64(j, K_EXIT_NS, f->exit_ns);
	else
		json_null(j, K_EXIT_NS);
	json_fields_write(j, follow_fields, ARRAY_SIZE(follow_fields), f);
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
	jr_i64(l, o, K_PID, JR_REQ | JR_NUL, &pid);
	f->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
	a = jr_get(l, o, K_TIDS, JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && i < JS_FOLLOW_TIDS_MAX && !l->rc; i++) {
		int64_t t = 0;

		if (jsonp_i64(&a->arr.v[i], &t) || t <= 0 || t > INT32_MAX)
			jr_fail(l, &a->arr.v[i], K_TIDS, "element %zu is not a thread id", i);
		else
			f->tids[f->ntids++] = (int)t;
	}
	jr_str(l, o, K_COMM, JR_REQ, f->comm, sizeof(f->comm));
	jr_bool(l, o, K_EXITED, JR_REQ, &f->exited);
	jr_u64(l, o, K_EXIT_NS, JR_NUL, &f->exit_ns);
	jr_fields(l, o, follow_fields, ARRAY_SIZE(follow_fields), f);
out:
	jr_pop(l, mark);
}

/* --marks: its counts, after the file's path and type */
static const struct json_field marks_fields[] = {
	JSON_FIELD(struct js_marks_info, lines, U64, JF_REQ),
	JSON_FIELD(struct js_marks_info, marks, U64, JF_REQ),
	JSON_FIELD(struct js_marks_info, malformed, U64, JF_REQ),
	JSON_FIELD(struct js_marks_info, late, U64, JF_REQ),
	JSON_FIELD(struct js_marks_info, early, U64, JF_REQ),
	JSON_FIELD(struct js_marks_info, truncated, U64, JF_REQ),
};

/* marks_file - --marks: what was read; null when not */
static void marks_file(struct js_json *j, const char *key, const struct js_run *run)
{
	const struct js_marks_info *m = &run->marks;

	if (!m->on) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
	json_str(j, K_PATH, m->path);
	json_str(j, K_TYPE, m->fifo ? "fifo" : "file");
	json_fields_write(j, marks_fields, ARRAY_SIZE(marks_fields), m);
	json_arr_begin(j, K_MALFORMED_LINES);
	for (size_t i = 0; i < m->nbad; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, K_LINE, m->bad[i].line);
		json_str(j, K_WHY, m->bad[i].why);
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
	jr_str(l, o, K_PATH, JR_REQ, m->path, sizeof(m->path));
	jr_str(l, o, K_TYPE, JR_REQ, type, sizeof(type));
	m->fifo = !strcmp(type, "fifo");
	jr_fields(l, o, marks_fields, ARRAY_SIZE(marks_fields), m);
	a = jr_objs(l, o, K_MALFORMED_LINES, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && i < JS_MARKS_BAD_MAX && !l->rc; i++) {
		jr_u64(l, &a->arr.v[i], K_LINE, JR_REQ, &m->bad[i].line);
		jr_str(l, &a->arr.v[i], K_WHY, JR_REQ, m->bad[i].why, sizeof(m->bad[i].why));
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
	json_str(j, K_LINE, c->line);
	json_u64(j, K_PID, (uint64_t)c->pid);
	json_str(j, K_MODE, c->followed ? "follow" : "cpus");
	json_bool(j, K_EXITED, c->exited);
	if (c->exit_status >= 0)
		json_u64(j, K_EXIT_STATUS, (uint64_t)c->exit_status);
	else
		json_null(j, K_EXIT_STATUS);
	if (c->signal)
		json_u64(j, K_SIGNAL, (uint64_t)c->signal);
	else
		json_null(j, K_SIGNAL);
	json_u64(j, K_START_NS, c->start_ns);
	if (c->exit_ns)
		json_u64(j, K_EXIT_NS, c->exit_ns);
	else
		json_null(j, K_EXIT_NS);
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
	jr_str(l, o, K_LINE, JR_REQ, c->line, sizeof(c->line));
	jr_i64(l, o, K_PID, JR_REQ, &pid);
	c->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
	jr_str(l, o, K_MODE, JR_REQ, mode, sizeof(mode));
	c->followed = !strcmp(mode, "follow");
	jr_bool(l, o, K_EXITED, JR_REQ, &c->exited);
	jr_i64(l, o, K_EXIT_STATUS, JR_REQ | JR_NUL, &status);
	c->exit_status = status >= 0 && status <= 255 ? (int)status : -1;
	jr_i64(l, o, K_SIGNAL, JR_REQ | JR_NUL, &sig);
	c->signal = sig > 0 && sig < 128 ? (int)sig : 0;
	jr_u64(l, o, K_START_NS, JR_REQ, &c->start_ns);
	jr_u64(l, o, K_EXIT_NS, JR_REQ | JR_NUL, &c->exit_ns);
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
	json_u64(j, K_DEEPEST, (uint64_t)run->cfg.deepest_idle_state);
	json_arr_begin(j, K_DISABLED);
	for (size_t i = 0; i < run->idle.n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, K_CPU, (uint64_t)run->idle.v[i].cpu);
		json_u64(j, K_STATE, (uint64_t)run->idle.v[i].state);
		json_str(j, K_NAME, run->idle.v[i].name);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_bool(j, K_RESTORED, run->idle.restored);
	json_str(j, K_WHY_NOT, run->idle_why[0] ? run->idle_why : NULL);
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
	jr_int(l, o, K_DEEPEST, JR_REQ, 0, INT32_MAX, &run->cfg.deepest_idle_state);
	a = jr_get(l, o, K_DISABLED, JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		char name[JS_IDLE_NAME_LEN] = "";
		int cpu = 0, state = 0;

		jr_int(l, v, K_CPU, JR_REQ, 0, JS_CPUS_MAX - 1, &cpu);
		jr_int(l, v, K_STATE, JR_REQ, 0, INT32_MAX, &state);
		jr_str(l, v, K_NAME, JR_REQ, name, sizeof(name));
		if (!l->rc && idle_states_add(&run->idle, cpu, state, 0, name))
			jr_fail(l, v, K_DISABLED, "out of memory");
	}
	jr_bool(l, o, K_RESTORED, JR_REQ, &run->idle.restored);
	jr_str(l, o, K_WHY_NOT, JR_REQ | JR_NUL, run->idle_why, sizeof(run->idle_why));
out:
	jr_pop(l, mark);
}

/* audit - the isolation audit of the measured CPUs (absent without; audit_json.c) */
static void audit(struct js_json *j, const char *key, const struct js_run *run)
{
	if (run->audited)
		audit_write_json(j, key, &run->audit);
}

/* opt_obj - the optional object key of root: NULL when absent; else *on is set and the
 * path pushed (*mark for jr_pop) */
static const struct jsonp_val *opt_obj(struct jr *l, const struct jsonp_val *root, const char *key,
				       bool *on, size_t *mark)
{
	const struct jsonp_val *v = jr_get(l, root, key, JSONP_OBJ, 0);

	if (v) {
		*on = true;
		*mark = jr_push(l, ".%s", key);
	}
	return v;
}

static void load_audit(struct jr *l, const struct jsonp_val *root, const char *key,
		       struct js_run *run)
{
	size_t mark = 0;
	const struct jsonp_val *v = opt_obj(l, root, key, &run->audited, &mark);

	if (v) {
		audit_read_json(l, v, &run->audit);
		jr_pop(l, mark);
	}
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
	size_t mark = 0;
	const struct jsonp_val *v = opt_obj(l, root, key, &run->have_deltas, &mark);

	if (v) {
		audit_deltas_read_json(l, v, &run->deltas);
		jr_pop(l, mark);
	}
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
			json_i64(j, K_CPU, a.fix->cpu);
		else
			json_null(j, K_CPU);
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
	json_obj_begin(j, K_LINES);
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
	{ K_AUDIT, audit, load_audit },
	{ "counter_deltas", deltas, load_deltas },
	{ "explained_by_settings", xcheck, load_xcheck },
	{ "answer", answer, NULL },
};
const size_t js_json_nsections = ARRAY_SIZE(js_json_sections);
