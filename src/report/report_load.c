// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_load.c - a saved --json run back into a struct js_run (see js_report_load.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_audit.h"
#include "js_event_names.h"
#include "js_idle_states.h"
#include "js_json_gap.h"
#include "js_jsonread.h"
#include "js_report.h"
#include "js_report_load.h"
#include "js_util.h"
#include "js_waker.h"

/* load_ended_by - what ended the run (since issue 41: optional, null when unknown) */
static void load_ended_by(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *v = jr_get(l, root, "ended_by", JSONP_STR, JR_NUL);
	int x = v ? js_end_from_name(v->str.s) : 0;

	if (x < 0)
		jr_fail(l, v, "ended_by", "unknown value \"%.40s\"", v->str.s);
	else
		run->ended_by = (enum js_end)x;
}

/* cause_of - a cause class by name (member key or value) */
static int cause_of(struct jr *l, const struct jsonp_val *at, const char *name)
{
	int c = js_cause_from_name(name);

	if (c < 0)
		jr_fail(l, at, NULL, "unknown cause class \"%.40s\"", name);
	return c;
}

/*
 * v1_detail - a schema 1 detail in today's spelling. Schema 1 named four APIC vectors and
 * a tlb flush reason its own way ("thermal", "remote_ipi_send") and ids without a name
 * "reason:N" (tlb) and "mm:N"; the detail's first word is that name (CHANGELOG.md).
 */
static void v1_detail(uint32_t cause, char *d, size_t len)
{
	static const struct {
		uint32_t cause, kind, id;
		const char *name;
	} renamed[] = {
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_THERMAL, "thermal" },
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_PLATFORM_IPI, "platform_ipi" },
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_ERROR, "error" },
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_SPURIOUS, "spurious" },
		{ JS_CAUSE_TLB, JS_EV_TLB, JS_TLB_REMOTE_SEND_IPI, "remote_ipi_send" },
	};
	char name[JS_DETAIL_LEN], rest[JS_DETAIL_LEN];
	int w = (int)strcspn(d, " "), n = -1;
	unsigned int id;

	name[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(renamed); i++)
		if (cause == renamed[i].cause && (int)strlen(renamed[i].name) == w &&
		    !strncmp(d, renamed[i].name, (size_t)w))
			js_ev_id_label(renamed[i].kind, renamed[i].id, name, sizeof(name));
	if (cause == JS_CAUSE_TLB && sscanf(d, "reason:%u%n", &id, &n) == 1 && n == w)
		js_ev_id_label(JS_EV_TLB, id, name, sizeof(name));
	if (cause == JS_CAUSE_MM && sscanf(d, "mm:%u%n", &id, &n) == 1 && n == w)
		js_ev_id_label(JS_EV_MIGRATE, id, name, sizeof(name));
	if (!name[0])
		return;
	js_scpy(rest, sizeof(rest), d + w);
	snprintf(d, len, "%s%s", name, rest);
}

/* detail_at - the detail of a part or source of class cause, in today's spelling */
static void detail_at(struct jr *l, const struct jsonp_val *o, uint32_t cause, char *dst,
		      size_t len)
{
	jr_str(l, o, "detail", JR_REQ, dst, len);
	if (l->schema == 1)
		v1_detail(cause, dst, len);
}

/* decode_hist - a HISTF... histogram into h */
static void decode_hist(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags,
			struct js_hist *h)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_STR, flags);
	int err;

	if (!v)
		return;
	err = hist_decode_compressed_b64(v->str.s, h);
	if (err)
		jr_fail(l, v, key, "not a valid HdrHistogram (%s)", strerror(-err));
}

/* check_pcts - the saved percentiles and max must be the histogram's */
static void check_pcts(struct jr *l, const struct jsonp_val *o, const struct js_hist *h)
{
	for (size_t i = 0; i <= js_npcts && !l->rc; i++) {
		const char *key = i < js_npcts ? js_pcts[i].key : "max_ns";
		int64_t want = i < js_npcts ? hist_value_at_percentile(h, js_pcts[i].p) :
					      hist_max(h),
			got = want;

		jr_i64(l, o, key, JR_REQ, &got);
		if (!l->rc && got != want)
			jr_fail(l, jsonp_get(o, key), key,
				"%lld, but the histogram says %lld: the file was altered",
				(long long)got, (long long)want);
	}
}

/* ---- params, machine, top level ---- */

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

static void load_params(struct jr *l, const struct jsonp_val *root, struct js_run_cfg *p)
{
	const struct jsonp_val *o = jr_get(l, root, "params", JSONP_OBJ, JR_REQ), *a;
	size_t mark = jr_push(l, ".params");
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

static void load_machine(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, "machine", JSONP_OBJ, JR_REQ), *c;
	struct js_machine *m = &run->machine;
	size_t mark = jr_push(l, ".machine");

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

static void load_time_base(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, "time_base", JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".time_base");
	uint64_t pairs = 0;

	jr_u64(l, o, "fit_pairs", JR_REQ, &pairs);
	run->fit.npairs = (size_t)pairs;
	jr_dbl(l, o, "fit_residual_max_ns", JR_REQ, &run->fit.residual_max_ns);
	jr_dbl(l, o, "fit_residual_rms_ns", JR_REQ, &run->fit.residual_rms_ns);
	jr_u64(l, o, "start_mono_ns", JR_REQ, &run->start_mono_ns);
	jr_dbl(l, o, "start_epoch_s", JR_REQ, &run->start_epoch_s);
	jr_pop(l, mark);
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

/* load_spikes - the flight recorder's counts, when it was on (o: "spikes", or NULL) */
static void load_spikes(struct jr *l, const struct jsonp_val *o, struct js_spike_stats *s)
{
	const struct jsonp_val *k;
	size_t mark;
	uint64_t v = 0;

	if (!o)
		return;
	mark = jr_push(l, ".spikes");
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

static void load_probes_smi(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, "probes", JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".probes");

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
	load_spikes(l, jr_get(l, root, "spikes", JSONP_OBJ, 0), &run->spikes);
	o = jr_get(l, root, "smi", JSONP_OBJ, JR_REQ);
	mark = jr_push(l, ".smi");
	jr_bool(l, o, "countable", JR_REQ, &run->smi_countable);
	jr_str(l, o, "why_not", JR_REQ | JR_NUL, run->smi_why, sizeof(run->smi_why));
	jr_pop(l, mark);
}

/* ---- per CPU ---- */

static void load_by_primary(struct jr *l, const struct jsonp_val *o, struct js_causes *c)
{
	const struct jsonp_val *bp = jr_get(l, o, "by_primary_cause", JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".by_primary_cause");

	for (size_t i = 0; i < jsonp_len(bp) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(bp, i);
		int k = cause_of(l, &m->val, m->key);

		size_t m2;

		if (k < 0 || !jr_get(l, bp, m->key, JSONP_OBJ, JR_REQ))
			break;
		m2 = jr_push(l, ".%s", m->key);
		jr_u64(l, &m->val, "gaps", JR_REQ, &c->by_primary[k]);
		jr_u64(l, &m->val, "ns", JR_REQ, &c->ns_by_primary[k]);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_classes(struct jr *l, const struct jsonp_val *o, struct js_causes *c)
{
	const struct jsonp_val *bc = jr_get(l, o, "by_class", JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".by_class");

	for (size_t i = 0; i < jsonp_len(bc) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(bc, i);
		int k = cause_of(l, &m->val, m->key);
		size_t m2;

		if (k < 0 || !jr_get(l, bc, m->key, JSONP_OBJ, JR_REQ))
			break;
		m2 = jr_push(l, ".%s", m->key);
		jr_u64(l, &m->val, "gaps", JR_REQ, &c->cls[k].gaps);
		jr_u64(l, &m->val, "events", JR_REQ, &c->cls[k].events);
		jr_u64(l, &m->val, "total_ns", JR_REQ, &c->cls[k].total_ns);
		jr_u64(l, &m->val, "entry_ns", 0, &c->cls[k].entry_ns);
		jr_u64(l, &m->val, "max_ns", JR_REQ, &c->cls[k].max_ns);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/*
 * load_sources - a cause table's sources (name: "sources", keyed by "detail"; or
 * "sources_by_cgroup", keyed by "cgroup", absent before jitterscope named cgroups), filled
 * directly (the struct is public)
 */
static void load_sources(struct jr *l, const struct jsonp_val *o, const char *name,
			 struct js_causes *c)
{
	bool by_cg = strcmp(name, "sources");
	const struct jsonp_val *a = jr_get(l, o, name, JSONP_ARR, by_cg ? 0 : JR_REQ);
	size_t mark = jr_push(l, ".%s", name);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct js_cause_src *s = &c->src[c->nsrc];
		size_t m2 = jr_push(l, "[%zu]", i);
		int k;

		if (c->nsrc >= JS_CAUSES_SRC_MAX) {
			jr_fail(l, v, NULL, "more than %d sources", JS_CAUSES_SRC_MAX);
			break;
		}
		if (!jsonp_is(v, JSONP_OBJ)) {
			jr_fail(l, v, NULL, "expected an object");
			break;
		}
		memset(s, 0, sizeof(*s));
		k = jr_name(l, v, "cause", js_cause_from_name);
		s->cause = k < 0 ? 0 : (uint32_t)k;
		if (by_cg)
			jr_str(l, v, "cgroup", JR_REQ, s->detail, sizeof(s->detail));
		else
			detail_at(l, v, s->cause, s->detail, sizeof(s->detail));
		jr_u64(l, v, "gaps", JR_REQ, &s->gaps);
		jr_u64(l, v, "events", JR_REQ, &s->events);
		jr_u64(l, v, "total_ns", JR_REQ, &s->total_ns);
		jr_u64(l, v, "entry_ns", 0, &s->entry_ns);
		jr_u64(l, v, "max_ns", JR_REQ, &s->max_ns);
		s->other = !strcmp(s->detail, "(other)");
		if (s->other && k >= 0)
			c->other[k] = (uint16_t)(c->nsrc + 1);
		c->nsrc++;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_cbuckets(struct jr *l, const struct jsonp_val *o, struct js_cause_buckets *b)
{
	const struct jsonp_val *a = jr_get(l, o, "histogram_by_cause", JSONP_ARR, 0);
	size_t mark = jr_push(l, ".histogram_by_cause");

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i], *bc, *nc;
		size_t m2 = jr_push(l, "[%zu]", i);
		uint64_t lo = 0;
		int bi;

		jr_u64(l, v, "lo_ns", JR_REQ, &lo);
		bi = cbuckets_index(lo);
		if (!l->rc && cbuckets_lo(bi) != lo)
			jr_fail(l, v, "lo_ns", "%llu is not a bucket boundary",
				(unsigned long long)lo);
		jr_u64(l, v, "total", JR_REQ, &b->total[bi]);
		bc = jr_get(l, v, "by_cause", JSONP_OBJ, JR_REQ);
		nc = jr_get(l, v, "ns_by_cause", JSONP_OBJ, 0);
		for (size_t k = 0; k < jsonp_len(bc) && !l->rc; k++) {
			const struct jsonp_member *m = jsonp_member_at(bc, k);
			int c = cause_of(l, &m->val, m->key);

			if (c < 0)
				break;
			jr_u64(l, bc, m->key, JR_REQ, &b->count[bi][c]);
			jr_u64(l, nc, m->key, 0, &b->ns[bi][c]);
		}
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* load_verdict - one detector's saved verdict: {periodic, period_ns, strength, gaps,
 * phase_ns}; phase_ns is absent from files written before it (then -1: unknown) */
static void load_verdict(struct jr *l, const struct jsonp_val *v, struct js_period *p)
{
	struct js_period_result r = { .phase_ns = -1 };

	jr_bool(l, v, "periodic", JR_REQ, &r.periodic);
	jr_u64(l, v, "period_ns", JR_REQ, &r.period_ns);
	jr_dbl(l, v, "strength", JR_REQ, &r.strength);
	jr_u64(l, v, "gaps", JR_REQ, &r.n);
	jr_dbl(l, v, "phase_ns", 0, &r.phase_ns);
	period_saved(p, &r);
}

/*
 * load_period - the periodicity verdicts: the headline class (min_ns, 0 in files written
 * before the classes: every unexplained gap), "all", the bands; the classes' gap counts
 * follow from the bands', so the headline is chosen again as it was
 */
static void load_period(struct jr *l, const struct jsonp_val *o, struct js_period_classes *pc)
{
	const struct jsonp_val *v = jr_get(l, o, "unexplained_periodicity", JSONP_OBJ, JR_REQ), *a;
	size_t mark = jr_push(l, ".unexplained_periodicity");
	uint64_t min = 0;
	int h = 0;

	period_classes_init(pc, 0, 0);
	a = jr_get(l, v, "bands", JSONP_ARR, 0);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, ".bands[%zu]", i);
		int b = 0;

		jr_u64(l, &a->arr.v[i], "min_ns", JR_REQ, &min);
		while (b < JS_PERIOD_BANDS && js_period_band_ns[b] != min)
			b++;
		if (b == JS_PERIOD_BANDS)
			jr_fail(l, &a->arr.v[i], "min_ns", "%llu is not a band's bound",
				(unsigned long long)min);
		else
			load_verdict(l, &a->arr.v[i], &pc->band[b]);
		for (int k = 0; k <= b && k < JS_PERIOD_BANDS && !l->rc; k++)
			pc->ge[k].n += pc->band[b].n;
		jr_pop(l, m2);
	}
	if (jr_get(l, v, "all", JSONP_OBJ, 0)) {
		size_t m2 = jr_push(l, ".all");

		load_verdict(l, jsonp_get(v, "all"), &pc->ge[0]);
		jr_pop(l, m2);
	}
	min = 0;
	jr_u64(l, v, "min_ns", 0, &min);
	while (h < JS_PERIOD_BANDS && js_period_band_ns[h] != min)
		h++;
	if (h == JS_PERIOD_BANDS)
		jr_fail(l, jsonp_get(v, "min_ns"), "min_ns", "%llu is not a band's bound",
			(unsigned long long)min);
	else
		load_verdict(l, v, &pc->ge[h]);
	jr_pop(l, mark);
}

/* load_vm_exit - one VM exit's cost (absent before it was measured, null on bare metal) */
static void load_vm_exit(struct jr *l, const struct jsonp_val *o, struct js_exit_cost *x)
{
	const struct jsonp_val *v = jr_get(l, o, "vm_exit", JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, ".vm_exit");
	uint64_t n = 0;

	jr_u64(l, v, "samples", JR_REQ, &n);
	x->samples = (uint32_t)JS_MIN(n, UINT32_MAX);
	jr_dbl(l, v, "min_ns", JR_REQ, &x->min_ns);
	jr_dbl(l, v, "median_ns", JR_REQ, &x->median_ns);
	jr_dbl(l, v, "p90_ns", JR_REQ, &x->p90_ns);
	jr_pop(l, mark);
}

/* load_host - the host's readings (absent before they were recorded, null: none read) */
static void load_host(struct jr *l, const struct jsonp_val *o, struct js_host_moves *m)
{
	const struct jsonp_val *v = jr_get(l, o, "host_readings", JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, ".host_readings");

	memset(m, 0, sizeof(*m));
	if (v) {
		jr_u64(l, v, "readings", JR_REQ, &m->readings);
		if (jr_get(l, v, "reloads_without_steal", JSONP_NUM, JR_NUL))
			m->has |= STEAL_HAS_ST_VERSION;
		if (jr_get(l, v, "clock_updates", JSONP_NUM, JR_NUL))
			m->has |= STEAL_HAS_CLK_VERSION;
		jr_u64(l, v, "reloads_without_steal", JR_NUL, &m->reloads);
		jr_u64(l, v, "clock_updates", JR_NUL, &m->clocks);
	}
	jr_pop(l, mark);
}

/* load_entry - the entry/exit rule's figures per interruption kind (absent before it) */
static void load_entry(struct jr *l, const struct jsonp_val *o, struct js_entry *m)
{
	const struct jsonp_val *v = jr_get(l, o, "entry_exit", JSONP_OBJ, 0), *kinds;
	size_t mark = jr_push(l, ".entry_exit");

	memset(m, 0, sizeof(*m));
	jr_u64(l, v, "prior_ns", JR_REQ, &m->prior_ns);
	m->cap_ns = UINT64_MAX; /* no cap before it */
	jr_u64(l, v, "cap_ns", 0, &m->cap_ns);
	kinds = jr_get(l, v, "kinds", JSONP_OBJ, JR_REQ);
	for (size_t i = 0; i < jsonp_len(kinds) && !l->rc; i++) {
		const struct jsonp_member *mb = jsonp_member_at(kinds, i);
		int k = entry_kind_from_name(mb->key);
		struct js_entry_kind *e;
		size_t m2 = jr_push(l, ".kinds.%s", mb->key);

		if (k < 0 || !jsonp_is(&mb->val, JSONP_OBJ)) {
			jr_fail(l, &mb->val, NULL,
				k < 0 ? "not an interruption kind" : "expected an object");
			break;
		}
		e = &m->k[k];
		jr_u64(l, &mb->val, "lone_gaps", JR_REQ, &e->lone);
		jr_u64(l, &mb->val, "median_ns", JR_REQ, &e->median_ns);
		jr_u64(l, &mb->val, "bound_ns", JR_REQ, &e->bound_ns);
		jr_u64(l, &mb->val, "floor_ns", 0, &e->floor_ns);
		jr_u64(l, &mb->val, "learned_ns", 0, &e->bound_ns); /* before the cap, if said */
		jr_u64(l, &mb->val, "gaps", JR_REQ, &e->gaps);
		jr_u64(l, &mb->val, "interruptions", JR_REQ, &e->entries);
		jr_u64(l, &mb->val, "entry_ns", JR_REQ, &e->entry_ns);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* load_interval_worst - an interval's worst gap (absent before it, null: none) */
static void load_interval_worst(struct jr *l, const struct jsonp_val *e,
				struct js_interval_worst *w)
{
	const struct jsonp_val *v = jr_get(l, e, "worst", JSONP_OBJ, JR_NUL);
	size_t mark;
	int k;

	if (!v)
		return;
	mark = jr_push(l, ".worst");
	jr_u64(l, v, "start_ns", JR_REQ, &w->start_ns);
	jr_u64(l, v, "duration_ns", JR_REQ, &w->dur_ns);
	k = jr_name(l, v, "cause", js_cause_from_name);
	w->cause = k < 0 ? 0 : (uint32_t)k;
	detail_at(l, v, w->cause, w->detail, sizeof(w->detail));
	jr_pop(l, mark);
}

static void load_intervals(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r)
{
	const struct jsonp_val *v = jr_get(l, o, "intervals", JSONP_OBJ, JR_REQ), *a;
	struct js_intervals *iv = &r->intervals;
	size_t mark = jr_push(l, ".intervals");

	jr_u64(l, v, "length_ns", JR_REQ, &iv->len_ns);
	iv->base_len_ns = iv->len_ns;
	iv->start_ns = r->start_ns;
	iv->end_ns = r->end_ns;
	iv->finished = 1;
	a = jr_get(l, v, "list", JSONP_ARR, JR_REQ);
	if (a && a->arr.n) {
		iv->v = calloc(a->arr.n, sizeof(*iv->v));
		if (!iv->v)
			l->rc = -ENOMEM;
		iv->alloc = iv->cap = a->arr.n;
	}
	for (size_t i = 0; iv->v && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *e = &a->arr.v[i];
		struct js_interval_stats *s = &iv->v[iv->n++];
		size_t m2 = jr_push(l, ".list[%zu]", i);
		uint64_t off = 0;

		jr_u64(l, e, "offset_ns", JR_REQ, &off);
		s->start_ns = r->start_ns + off;
		jr_u64(l, e, "gaps", JR_REQ, &s->gaps);
		jr_u64(l, e, "lost_ns", JR_REQ, &s->lost_ns);
		jr_i64(l, e, "max_ns", JR_REQ, &s->max_ns);
		jr_i64(l, e, "p999_ns", JR_REQ, &s->p999_ns);
		load_interval_worst(l, e, &s->worst);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_delayed_by(struct jr *l, const struct jsonp_val *v, struct js_arrival *a)
{
	const struct jsonp_val *d = jr_get(l, v, "delayed_by_cause", JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, ".delayed_by_cause");

	for (size_t k = 0; k < jsonp_len(d) && !l->rc; k++) {
		const struct jsonp_member *m = jsonp_member_at(d, k);
		int c = cause_of(l, &m->val, m->key);

		size_t m2;

		if (c < 0 || !jr_get(l, d, m->key, JSONP_OBJ, JR_REQ))
			break;
		m2 = jr_push(l, ".%s", m->key);
		jr_u64(l, &m->val, "arrivals", JR_REQ, &a->delayed_by_cause[c]);
		jr_u64(l, &m->val, "delay_ns", JR_REQ, &a->delay_ns_by_cause[c]);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* load_bursts - burst exposure of arrival i; the saved burst size if params lack it */
static void load_bursts(struct jr *l, const struct jsonp_val *v, struct js_cpu_result *r, size_t i,
			struct js_run_cfg *p)
{
	const struct jsonp_val *b = jr_get(l, v, "burst", JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, ".burst");

	for (size_t k = 0; b && k < b->arr.n && !l->rc; k++) {
		const struct jsonp_val *e = &b->arr.v[k];
		size_t m2 = jr_push(l, "[%zu]", k);
		uint64_t size = 0, n = 0;
		int s;

		jr_u64(l, e, "gap_size_ns", JR_REQ, &size);
		jr_u64(l, e, "arrivals", JR_REQ, &n);
		for (s = 0; s < JS_BURST_SIZES && js_burst_sizes_ns[s] != size; s++)
			;
		if (s < JS_BURST_SIZES)
			jr_dbl(l, e, "probability_observed", JR_REQ, &r->burst_p[i][s]);
		else
			jr_fail(l, e, "gap_size_ns", "%llu is not a burst gap size",
				(unsigned long long)size);
		if (!p->burst)
			p->burst = n;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_arrival(struct jr *l, const struct jsonp_val *v, struct js_cpu_result *r,
			 struct js_run_cfg *p)
{
	struct js_arrival *a = &r->arrivals[r->narrivals];

	memset(a, 0, sizeof(*a));
	a->start_ns = r->start_ns;
	a->end_ns = r->end_ns;
	a->finished = true;
	jr_u64(l, v, "interval_ns", JR_REQ, &a->interval_ns);
	jr_u64(l, v, "arrivals", JR_REQ, &a->arrivals);
	jr_u64(l, v, "delayed", JR_REQ, &a->delayed);
	jr_u64(l, v, "delay_ns_total", JR_REQ, &a->delay_ns_total);
	load_delayed_by(l, v, a);
	if (!jsonp_get(v, "delay_hdr_b64")) {
		js_warn("%s: no delay_hdr_b64 (an older jitterscope wrote it): the arrivals at "
			"%llu ns are left out",
			l->path + 1, (unsigned long long)a->interval_ns);
		return;
	}
	decode_hist(l, v, "delay_hdr_b64", JR_REQ, &a->delay);
	if (l->rc)
		return;
	r->narrivals++; /* from here the result owns the histogram */
	if (a->delay.total != a->arrivals)
		jr_fail(l, jsonp_get(v, "delay_hdr_b64"), "delay_hdr_b64",
			"holds %llu arrivals, arrivals says %llu",
			(unsigned long long)a->delay.total, (unsigned long long)a->arrivals);
	check_pcts(l, v, &a->delay);
	load_bursts(l, v, r, r->narrivals - 1, p);
}

static void load_arrivals(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r,
			  struct js_run_cfg *p)
{
	const struct jsonp_val *a = jr_get(l, o, "arrivals", JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, ".arrivals");

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "[%zu]", i);

		if (i >= JS_MAX_ARRIVALS || !jsonp_is(&a->arr.v[i], JSONP_OBJ))
			jr_fail(l, &a->arr.v[i], NULL,
				i >= JS_MAX_ARRIVALS ? "too many arrival intervals" :
						       "expected an object");
		else
			load_arrival(l, &a->arr.v[i], r, p);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* load_part_cgroup - the cgroup of the task a part names (absent before jitterscope named
 * cgroups), its path into the run's table */
static void load_part_cgroup(struct jr *l, const struct jsonp_val *v, struct js_part *part)
{
	const struct jsonp_val *path = jr_get(l, v, JG_CGROUP, JSONP_STR, JR_NUL);
	struct js_cgroups *cg = ((struct js_run *)l->ctx)->cgroups; /* the run's table */

	jr_u64(l, v, JG_CGROUP_ID, JR_NUL, &part->cgroup);
	if (part->cgroup && path && !cgroups_get(cg, part->cgroup) &&
	    cgroups_add(cg, part->cgroup, path->str.s))
		jr_fail(l, path, JG_CGROUP, "out of memory");
}

/* load_nums - the numbers of a struct listed in n[nn] (js_json_gap.h) into base */
static void load_nums(struct jr *l, const struct jsonp_val *v, const struct js_json_num *n,
		      size_t nn, void *base)
{
	for (size_t i = 0; i < nn; i++) {
		uint64_t x = 0;

		jr_u64(l, v, n[i].key, n[i].required ? JR_REQ : 0, &x);
		js_json_num_set(&n[i], base, x);
	}
}

static void load_part(struct jr *l, const struct jsonp_val *v, struct js_part *part)
{
	int k = jr_name(l, v, JG_CAUSE, js_cause_from_name);

	part->cause = k < 0 ? 0 : (uint32_t)k;
	detail_at(l, v, part->cause, part->detail, sizeof(part->detail));
	load_nums(l, v, js_part_nums, js_part_nnums, part);
	load_part_cgroup(l, v, part);
}

/* load_gap_source - where a gap comes from (absent before the other sources: the sampler) */
static void load_gap_source(struct jr *l, const struct jsonp_val *v, const struct js_cpu_result *r,
			    struct js_gap_rec *g)
{
	int64_t cpu_in = -1;
	uint64_t line = 0;
	int k;

	g->gap.source = (uint8_t)r->source;
	if (r->source == JS_SRC_THREAD) {
		g->gap.id = r->tid;
		jr_str(l, v, JG_THREAD, 0, g->label, sizeof(g->label));
		k = jsonp_get(v, JG_KIND) ? jr_name(l, v, JG_KIND, js_gap_kind_from_name) : 0;
		g->gap.kind = (uint8_t)(k < 0 ? 0 : k);
		jr_i64(l, v, JG_RESUMED_ON_CPU, JR_NUL, &cpu_in);
		if (cpu_in >= 0 && cpu_in < JS_CPUS_MAX)
			g->gap.cpu_in = (uint16_t)(cpu_in + 1);
	} else if (r->source == JS_SRC_MARK) {
		jr_u64(l, v, JG_LINE, 0, &line);
		g->gap.id = (uint32_t)JS_MIN(line, UINT32_MAX);
		jr_str(l, v, JG_LABEL, 0, g->label, sizeof(g->label));
	}
}

/* load_stack - --stacks: the stack under JG_STACK (absent: none) into the run's table; its
 * ref, 0: none */
static uint32_t load_stack(struct jr *l, const struct jsonp_val *o)
{
	const struct jsonp_val *a = jr_get(l, o, JG_STACK, JSONP_ARR, 0);
	size_t mark = jr_push(l, "." JG_STACK);
	struct js_stack st = { 0 };

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		if (i >= JS_STACK_FRAMES || !jsonp_is(&a->arr.v[i], JSONP_STR))
			jr_fail(l, &a->arr.v[i], NULL, "expected a string (at most %d)",
				JS_STACK_FRAMES);
		else
			js_scpy(st.frame[st.n++], JS_FRAME_LEN, a->arr.v[i].str.s);
	}
	jr_pop(l, mark);
	return a && !l->rc ? js_stacks_intern(&((struct js_run *)l->ctx)->stacks, &st) : 0;
}

/* load_waker - who woke the primary part's task (absent before it was tracked, null: none) */
static void load_waker(struct jr *l, const struct jsonp_val *v, struct js_waker *w)
{
	const struct jsonp_val *o = jr_get(l, v, JG_WAKER, JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, "." JG_WAKER);
	uint64_t pid = 0, cpu = 0, nr = 0;
	int k;

	memset(w, 0, sizeof(*w));
	w->syscall = -1;
	if (!o) {
		jr_pop(l, mark);
		return;
	}
	k = jr_name(l, o, JG_WAKER_CONTEXT, js_wake_ctx_from_name);
	jr_str(l, o, JG_WAKER_COMM, 0, w->comm, sizeof(w->comm));
	jr_u64(l, o, JG_WAKER_PID, 0, &pid);
	jr_u64(l, o, JG_WAKER_CPU, 0, &cpu);
	if (jr_get(l, o, JG_WAKER_SYSCALL_NR, JSONP_NUM, JR_NUL)) {
		jr_u64(l, o, JG_WAKER_SYSCALL_NR, 0, &nr);
		w->syscall = (int32_t)JS_MIN(nr, (uint64_t)INT32_MAX);
	}
	jr_i64(l, o, JG_WAKER_AT, 0, &w->at_ns);
	w->pid = (uint32_t)JS_MIN(pid, UINT32_MAX);
	w->cpu = (uint16_t)JS_MIN(cpu, UINT16_MAX);
	w->ctx = k < 0 ? 0 : (uint8_t)k;
	w->stack = load_stack(l, o);
	jr_pop(l, mark);
}

static void load_gap(struct jr *l, const struct jsonp_val *v, const struct js_cpu_result *r,
		     uint32_t res, struct js_gap_rec *g)
{
	struct js_attr *a = &g->attr;
	const struct jsonp_val *parts;
	uint64_t ev = 0;
	int k;

	memset(g, 0, sizeof(*g));
	g->gap.cpu = (uint32_t)r->cpu;
	g->gap.res = res;
	load_gap_source(l, v, r, g);
	jr_u64(l, v, "start_ns", JR_REQ, &g->gap.start_ns);
	jr_u64(l, v, "duration_ns", JR_REQ, &g->gap.dur_ns);
	jr_u64(l, v, "events", 0, &ev);
	a->nevents = (uint32_t)JS_MIN(ev, UINT32_MAX);
	k = jr_name(l, v, JG_CAUSE, js_cause_from_name);
	a->primary = k < 0 ? 0 : (uint32_t)k;
	detail_at(l, v, a->primary, a->detail, sizeof(a->detail));
	load_nums(l, v, js_attr_nums, js_attr_nnums, a);
	parts = jr_get(l, v, JG_CAUSES, JSONP_ARR, JR_REQ);
	for (size_t i = 0; parts && i < parts->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, ".causes[%zu]", i);

		if (i >= JS_PARTS_MAX || !jsonp_is(&parts->arr.v[i], JSONP_OBJ))
			jr_fail(l, &parts->arr.v[i], NULL, "expected an object (at most %d)",
				JS_PARTS_MAX);
		else
			load_part(l, &parts->arr.v[i], &a->parts[a->nparts++]);
		jr_pop(l, m2);
	}
	load_waker(l, v, &a->waker);
	a->stack = load_stack(l, v);
}

/* load_top - the worst gaps; kept as a valid min-heap (ascending), ties in file order, so
 * result_top_sorted() lists them exactly as the file does */
static void load_top(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r, uint32_t res)
{
	const struct jsonp_val *a = jr_get(l, o, "top", JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, ".top");
	struct js_topn *t = &r->top;
	struct js_gap_rec *recs;

	if (!a)
		goto out;
	if (result_top_init(t, a->arr.n)) {
		l->rc = -ENOMEM;
		goto out;
	}
	recs = t->v;
	for (size_t i = 0; i < a->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "[%zu]", i);
		struct js_gap_rec g;
		size_t j;

		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ))
			jr_fail(l, &a->arr.v[i], NULL, "expected an object");
		load_gap(l, &a->arr.v[i], r, res, &g);
		for (j = t->n; j > 0 && recs[j - 1].gap.dur_ns > g.gap.dur_ns; j--)
			;
		memmove(&recs[j + 1], &recs[j], (t->n - j) * sizeof(g));
		recs[j] = g;
		t->n++;
		jr_pop(l, m2);
	}
out:
	jr_pop(l, mark);
}

static void load_cpu_counts(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r,
			    const struct js_run *run)
{
	const struct jsonp_val *smi;

	jr_int(l, o, "cpu", JR_REQ, 0, JS_CPUS_MAX - 1, &r->cpu);
	jr_int(l, o, "node", JR_REQ, -1, INT32_MAX, &r->node);
	jr_u64(l, o, "start_ns", JR_REQ, &r->start_ns);
	jr_u64(l, o, "end_ns", JR_REQ, &r->end_ns);
	if (!l->rc && r->end_ns < r->start_ns)
		jr_fail(l, jsonp_get(o, "end_ns"), "end_ns", "before start_ns");
	jr_u64(l, o, "iterations", JR_REQ, &r->iterations);
	jr_dbl(l, o, "loop_ns_min", JR_REQ, &r->loop_ns_min);
	jr_dbl(l, o, "loop_ns_median", JR_REQ, &r->loop_ns_median);
	jr_dbl(l, o, "loop_ns_mean", JR_REQ, &r->loop_ns_mean);
	jr_u64(l, o, "gap_count", JR_REQ, &r->gap_count);
	jr_u64(l, o, "lost_ns", JR_REQ, &r->lost_ns);
	jr_u64(l, o, "dropped", JR_REQ, &r->dropped);
	jr_u64(l, o, "events", 0, &r->events);
	jr_u64(l, o, "steal_ns", JR_REQ, &r->steal_ns);
	smi = jr_get(l, o, "smi", JSONP_NUM, JR_REQ | JR_NUL);
	if (smi && run->smi_countable)
		jr_u64(l, o, "smi", JR_REQ, &r->smi);
}

/* load_thread - a followed thread's name and own figures */
static void load_thread(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r)
{
	const struct jsonp_val *t, *a;
	struct js_thread_stats *s = &r->ts;
	uint64_t tid = 0;
	size_t mark;

	jr_u64(l, o, "tid", JR_REQ, &tid);
	r->tid = (uint32_t)JS_MIN(tid, UINT32_MAX);
	jr_str(l, o, "thread", JR_REQ, r->name, sizeof(r->name));
	t = jr_get(l, o, "thread_stats", JSONP_OBJ, JR_REQ);
	mark = jr_push(l, ".thread_stats");
	jr_u64(l, t, "syscalls", JR_REQ, &s->syscalls);
	jr_u64(l, t, "syscall_ns", JR_REQ, &s->syscall_ns);
	jr_u64(l, t, "sleeps", JR_REQ, &s->sleeps);
	jr_u64(l, t, "sleep_ns", JR_REQ, &s->sleep_ns);
	jr_u64(l, t, "yields", JR_REQ, &s->yields);
	jr_u64(l, t, "preempted", JR_REQ, &s->preempted);
	jr_u64(l, t, "preempted_ns", JR_REQ, &s->preempted_ns);
	jr_u64(l, t, "interrupted", JR_REQ, &s->interrupted);
	jr_u64(l, t, "interrupted_ns", JR_REQ, &s->interrupted_ns);
	jr_u64(l, t, "own_bh", 0, &s->own_bh);
	jr_u64(l, t, "own_bh_ns", 0, &s->own_bh_ns);
	s->syscalls_traced = true; /* files from before the option counted them always */
	jr_bool(l, t, "syscalls_traced", 0, &s->syscalls_traced);
	jr_u64(l, t, "blocked", JR_REQ, &s->blocked);
	jr_u64(l, t, "blocked_ns", JR_REQ, &s->blocked_ns);
	jr_u64(l, t, "faults", JR_REQ, &s->faults);
	jr_u64(l, t, "migrations", JR_REQ, &s->migrations);
	jr_u64(l, t, "short_gaps", JR_REQ, &s->short_gaps);
	jr_u64(l, t, "short_ns", JR_REQ, &s->short_ns);
	jr_bool(l, t, "exited", JR_REQ, &s->exited);
	a = jr_get(l, t, "ran_on", JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		int64_t c = -1;

		if (jsonp_i64(&a->arr.v[i], &c) || c < 0 || c >= 64)
			jr_fail(l, &a->arr.v[i], "ran_on", "element %zu is not a CPU below 64", i);
		else
			s->cpus_mask |= 1ull << c;
	}
	jr_pop(l, mark);
}

/* load_ties - the findings its causes tie to (absent: a file written before them, none) */
static void load_ties(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r, bool *tied)
{
	const struct jsonp_val *a = jr_get(l, o, "explained_by_checks", JSONP_ARR, 0);
	size_t mark = jr_push(l, ".explained_by_checks");

	*tied |= a != NULL;
	for (size_t i = 0; a && i < a->arr.n && r->nties < AUDIT_TIES_MAX && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i], *c;
		struct audit_tie *t = &r->ties[r->nties++];
		size_t m2 = jr_push(l, "[%zu]", i);

		if (!jsonp_is(v, JSONP_OBJ)) {
			jr_fail(l, v, NULL, "expected an object");
			break;
		}
		jr_str(l, v, "check", JR_REQ, t->check, sizeof(t->check));
		jr_u64(l, v, "ns", JR_REQ, &t->ns);
		c = jr_get(l, v, "causes", JSONP_ARR, JR_REQ);
		for (size_t k = 0; c && k < c->arr.n; k++) {
			int x = jsonp_is(&c->arr.v[k], JSONP_STR) ?
					js_cause_from_name(c->arr.v[k].str.s) :
					-1;

			if (x >= 0 && x < 32)
				t->causes |= 1u << x;
		}
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_cpu(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r, uint32_t res,
		     struct js_run *run, struct js_run_cfg *p)
{
	int src;

	causes_init(&r->causes);
	cbuckets_init(&r->cb);
	load_cpu_counts(l, o, r, run);
	/* its array says where its gaps come from; "source", when there, must agree */
	src = jsonp_get(o, "source") ? jr_name(l, o, "source", js_source_from_name) :
				       (int)r->source;
	if (!l->rc && src != (int)r->source)
		jr_fail(l, jsonp_get(o, "source"), "source", "%s in the array of %s results",
			js_source_name(src), js_source_name(r->source));
	if (r->source == JS_SRC_THREAD)
		load_thread(l, o, r);
	r->causes.cpu = (uint32_t)r->cpu;
	r->causes.ngaps = r->gap_count;
	r->causes.lost_ns = r->lost_ns;
	decode_hist(l, o, "hist_hdr_b64", JR_REQ, &r->hist);
	if (!l->rc && r->hist.total != r->gap_count)
		jr_fail(l, jsonp_get(o, "hist_hdr_b64"), "hist_hdr_b64",
			"holds %llu gaps, gap_count says %llu", (unsigned long long)r->hist.total,
			(unsigned long long)r->gap_count);
	check_pcts(l, o, &r->hist);
	load_by_primary(l, o, &r->causes);
	load_classes(l, o, &r->causes);
	load_sources(l, o, "sources", &r->causes);
	causes_init(&r->by_cgroup);
	r->by_cgroup.cpu = r->causes.cpu;
	r->by_cgroup.ngaps = r->gap_count;
	r->by_cgroup.lost_ns = r->lost_ns;
	load_sources(l, o, "sources_by_cgroup", &r->by_cgroup);
	load_ties(l, o, r, &run->tied);
	r->cgroups = run->cgroups;
	if (!jsonp_get(o, "histogram_by_cause") && r->gap_count && !l->rc)
		js_warn("%s: no histogram_by_cause (an older jitterscope wrote it): the "
			"histogram is left out",
			l->path + 1);
	load_cbuckets(l, o, &r->cb);
	load_period(l, o, &r->period);
	load_vm_exit(l, o, &r->vm_exit);
	load_host(l, o, &r->host);
	load_entry(l, o, &r->entry);
	load_intervals(l, o, r);
	load_arrivals(l, o, r, p);
	load_top(l, o, r, res);
}

/* load_results - the results of source src (its array: "cpus", "threads", "marks") after
 * those already loaded */
static void load_results(struct jr *l, const struct jsonp_val *a, enum js_source src,
			 struct js_run *run, struct js_run_cfg *p)
{
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t mark = jr_push(l, ".%s[%zu]", js_result_array[src], i);
		struct js_cpu_result *r = &run->cpus[run->ncpus];

		run->ncpus++; /* counted first: report_load_free frees a partial one */
		r->source = src;
		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ))
			jr_fail(l, &a->arr.v[i], NULL, "expected an object");
		else
			load_cpu(l, &a->arr.v[i], r, (uint32_t)(run->ncpus - 1), run, p);
		jr_pop(l, mark);
	}
}

/* load_cpus - every result: "cpus" (the samplers'), then "threads" and "marks" (absent in
 * files written before them); at least one in all */
static void load_cpus(struct jr *l, const struct jsonp_val *root, struct js_run *run,
		      struct js_run_cfg *p)
{
	const struct jsonp_val *a[JS_SRC_MAX];
	size_t n = 0;

	for (int src = 0; src < JS_SRC_MAX; src++) {
		a[src] = jr_get(l, root, js_result_array[src], JSONP_ARR, src ? 0 : JR_REQ);
		n += a[src] ? a[src]->arr.n : 0;
	}
	if (l->rc)
		return;
	if (!n || n > JS_CPUS_MAX) {
		jr_fail(l, a[0], "cpus",
			"%zu results (expected 1 to %d in cpus, threads and marks)", n,
			JS_CPUS_MAX);
		return;
	}
	run->cpus = calloc(n, sizeof(*run->cpus));
	if (!run->cpus) {
		l->rc = -ENOMEM;
		return;
	}
	run->cap = n;
	for (int src = 0; src < JS_SRC_MAX; src++)
		load_results(l, a[src], (enum js_source)src, run, p);
}

/* ---- audit, counter deltas, cross-check ---- */

static void load_xcheck(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *a = jr_get(l, root, "explained_by_settings", JSONP_ARR, JR_REQ);

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
			jr_fail(l, v, "explained_by_settings", "element %zu is not a string", i);
		else
			jr_latin1(run->xcheck[run->nxcheck++], AUDIT_LINE_LEN, v->str.s,
				  v->str.len);
	}
}

/* load_extras - what a run has beyond its CPUs: the audit and its companions */
/* load_follow - --pid/--tid: what was followed (absent or null: nothing) */
static void load_follow(struct jr *l, const struct jsonp_val *root, struct js_follow_info *f)
{
	const struct jsonp_val *o = jr_get(l, root, "follow", JSONP_OBJ, JR_NUL), *a;
	size_t mark = jr_push(l, ".follow");
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

/* load_command - -- CMD: what ran and how it ended (absent or null: none) */
static void load_command(struct jr *l, const struct jsonp_val *root, struct js_cmd_info *c)
{
	const struct jsonp_val *o = jr_get(l, root, "command", JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, ".command");
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

/* load_idle_states - --deepest-idle-state: the states disabled (absent or null: not asked) */
static void load_idle_states(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = jr_get(l, root, "idle_states", JSONP_OBJ, JR_NUL), *a;
	size_t mark = jr_push(l, ".idle_states");

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

/* load_marks_file - --marks: what was read (absent or null: no marks) */
static void load_marks_file(struct jr *l, const struct jsonp_val *root, struct js_marks_info *m)
{
	const struct jsonp_val *o = jr_get(l, root, "marks_file", JSONP_OBJ, JR_NUL), *a;
	size_t mark = jr_push(l, ".marks_file");
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

static void load_extras(struct jr *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *v = jr_get(l, root, "audit", JSONP_OBJ, 0);
	size_t mark;

	if (v) {
		mark = jr_push(l, ".audit");
		run->audited = true;
		audit_read_json(l, v, &run->audit);
		jr_pop(l, mark);
	}
	v = jr_get(l, root, "counter_deltas", JSONP_OBJ, 0);
	if (v) {
		mark = jr_push(l, ".counter_deltas");
		run->have_deltas = true;
		audit_deltas_read_json(l, v, &run->deltas);
		jr_pop(l, mark);
	}
	load_xcheck(l, root, run);
}

/* check_header - a jitterscope run of a schema we read */
static void check_header(struct jr *l, const struct jsonp_val *root)
{
	const struct jsonp_val *tool, *kind;
	uint64_t ver = 0;

	if (!jsonp_is(root, JSONP_OBJ)) {
		jr_fail(l, root, NULL,
			"not a jitterscope run: the document is %s %s, not an object",
			jr_a_type(root->type), jsonp_type_name(root->type));
		return;
	}
	tool = jsonp_get(root, "tool");
	if (!jsonp_get(root, "schema_version") || !jsonp_str(tool) ||
	    strcmp(jsonp_str(tool), "jitterscope")) {
		jr_fail(l, NULL, NULL,
			"not a jitterscope run (no \"schema_version\" and \"tool\": "
			"\"jitterscope\")");
		return;
	}
	jr_u64(l, root, "schema_version", JR_REQ, &ver);
	if (!l->rc && (ver < JS_SCHEMA_VERSION_MIN || ver > JS_SCHEMA_VERSION))
		jr_fail(l, jsonp_get(root, "schema_version"), "schema_version",
			"%llu is not supported (this jitterscope reads %d to %d)",
			(unsigned long long)ver, JS_SCHEMA_VERSION_MIN, JS_SCHEMA_VERSION);
	l->schema = ver;
	kind = jsonp_get(root, "kind");
	if (!l->rc && jsonp_str(kind))
		jr_fail(l, kind, NULL, "a jitterscope %.20s document, not a run", jsonp_str(kind));
	if (!l->rc && !jsonp_get(root, "cpus") && jsonp_get(root, "audit"))
		jr_fail(l, NULL, NULL, "written by `jitterscope check` (an audit, no measurement)");
}

/* report_load_doc - a parsed document into run */
int report_load_doc(const struct jsonp_val *root, struct js_run *run, char *err, size_t errlen)
{
	struct jr l = { .err = err, .errlen = errlen, .ctx = run };
	struct js_run_cfg *p = &run->cfg;

	memset(run, 0, sizeof(*run));
	if (err && errlen)
		err[0] = '\0';
	run->cgroups = cgroups_new();
	if (!run->cgroups) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	check_header(&l, root);
	jr_bool(&l, root, "interrupted", JR_REQ, &run->interrupted);
	jr_str(&l, root, "stop_reason", JR_NUL, run->stop_why, sizeof(run->stop_why));
	load_ended_by(&l, root, run);
	jr_u64(&l, root, "wall_ns", JR_REQ, &run->wall_ns);
	load_params(&l, root, p);
	load_machine(&l, root, run);
	load_time_base(&l, root, run);
	load_probes_smi(&l, root, run);
	load_follow(&l, root, &run->follow);
	load_marks_file(&l, root, &run->marks);
	load_command(&l, root, &run->command);
	load_idle_states(&l, root, run);
	load_cpus(&l, root, run, p);
	load_extras(&l, root, run);
	if (l.rc == -ENOMEM && err && errlen)
		snprintf(err, errlen, "out of memory");
	if (l.rc)
		report_load_free(run);
	return l.rc;
}

/* report_load_buf - parse, then load */
int report_load_buf(const char *buf, size_t len, struct js_run *run, char *err, size_t errlen)
{
	struct jsonp_doc d;
	char e[256];
	int rc;

	memset(run, 0, sizeof(*run));
	rc = jsonp_parse(buf, len, &d, e, sizeof(e));
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "not JSON: %s", e);
		return rc;
	}
	rc = report_load_doc(d.root, run, err, errlen);
	jsonp_free(&d);
	return rc;
}

/* read_all - the whole file ("-": standard input), malloc'd */
static int read_all(const char *path, char **out, size_t *len)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int rc = 0;

	if (!fp)
		return -errno;
	for (;;) {
		if (n == cap) {
			char *nb;

			cap = cap ? cap * 2 : 1 << 16;
			nb = cap <= RUN_LOAD_MAX_BYTES ? realloc(buf, cap) : NULL;
			if (!nb) {
				rc = cap > RUN_LOAD_MAX_BYTES ? -EFBIG : -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		n += fread(buf + n, 1, cap - n, fp);
		if (n < cap)
			break;
	}
	if (ferror(fp))
		rc = errno ? -errno : -EIO;
out:
	if (fp != stdin)
		fclose(fp);
	if (rc)
		free(buf);
	else
		*out = buf, *len = n;
	return rc;
}

/* report_load_file - read path, then load */
int report_load_file(const char *path, struct js_run *run, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	memset(run, 0, sizeof(*run));
	rc = read_all(path, &buf, &len);
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read: %s", strerror(-rc));
		return rc;
	}
	rc = report_load_buf(buf, len, run, err, errlen);
	free(buf);
	return rc;
}

/* report_load_free - everything a load allocated */
void report_load_free(struct js_run *run)
{
	run_free(run);
}
