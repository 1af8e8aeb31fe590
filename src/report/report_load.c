// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_load.c - a saved --json run back into a struct js_run (see js_report_load.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_event_names.h"
#include "js_idle_states.h"
#include "js_json_gap.h"
#include "js_report.h"
#include "js_report_load.h"
#include "js_util.h"
#include "js_waker.h"

#define REQ 1u /* the key must be present */
#define NUL 2u /* null is accepted (and leaves the default) */

/* the loader's state: where in the document we are, the first error */
struct ld {
	char path[256];
	size_t plen;
	char *err;
	size_t errlen;
	int rc;
	uint64_t schema;	  /* the document's schema_version */
	struct js_cgroups *cg;	  /* the run's cgroup table, filled from the gaps' causes */
	struct js_stacks *stacks; /* the run's stacks (--stacks), filled from the gaps' */
};

static size_t __attribute__((format(printf, 2, 3))) push(struct ld *l, const char *fmt, ...)
{
	size_t mark = l->plen;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->path + l->plen, sizeof(l->path) - l->plen, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->plen = JS_MIN(l->plen + (size_t)n, sizeof(l->path) - 1);
	return mark;
}

static void pop(struct ld *l, size_t mark)
{
	l->plen = mark;
	l->path[mark] = '\0';
}

/* lfail - "PATH.key: what (line L, column C)"; the first error wins; returns -EINVAL */
static int __attribute__((format(printf, 4, 5)))
lfail(struct ld *l, const struct jsonp_val *at, const char *key, const char *fmt, ...)
{
	char msg[256], where[64] = "", pos[48];
	const char *path = l->path[0] == '.' ? l->path + 1 : l->path;
	va_list ap;

	if (l->rc)
		return l->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at)
		snprintf(where, sizeof(where), " (%s)", jsonp_pos(at, pos, sizeof(pos)));
	l->rc = js_errf(l->err, l->errlen, "%s%s%s%s%s%s", path, key && path[0] ? "." : "",
			key ? key : "", path[0] || key ? ": " : "", msg, where);
	return l->rc;
}

static const char *a_type(enum jsonp_type t)
{
	return t == JSONP_ARR || t == JSONP_OBJ ? "an" : "a";
}

/* get - member key of o with type t; NULL when absent (error if REQ) or null (error unless NUL) */
static const struct jsonp_val *get(struct ld *l, const struct jsonp_val *o, const char *key,
				   enum jsonp_type t, unsigned flags)
{
	const struct jsonp_val *v;

	if (l->rc || !o)
		return NULL;
	v = jsonp_get(o, key);
	if (!v) {
		if (flags & REQ)
			lfail(l, NULL, key, "missing");
		return NULL;
	}
	if (v->type == JSONP_NULL && (flags & NUL))
		return NULL;
	if (v->type != t) {
		lfail(l, v, key, "expected %s %s, found %s %s", a_type(t), jsonp_type_name(t),
		      a_type(v->type), jsonp_type_name(v->type));
		return NULL;
	}
	return v;
}

static void u64_at(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
		   uint64_t *out)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_NUM, flags);

	if (v && jsonp_u64(v, out))
		lfail(l, v, key, "expected an unsigned integer, found %.15g", v->num.d);
}

static void i64_at(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
		   int64_t *out)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_NUM, flags);

	if (v && jsonp_i64(v, out))
		lfail(l, v, key, "expected an integer, found %.15g", v->num.d);
}

/* int_at - an integer in [lo, hi] */
static void int_at(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
		   int64_t lo, int64_t hi, int *out)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_NUM, flags);
	int64_t x = 0;

	if (!v)
		return;
	if (jsonp_i64(v, &x))
		lfail(l, v, key, "expected an integer, found %.15g", v->num.d);
	else if (x < lo || x > hi)
		lfail(l, v, key, "%lld is out of range [%lld, %lld]", (long long)x, (long long)lo,
		      (long long)hi);
	else
		*out = (int)x;
}

/* dbl_at - a number; null (a NaN or infinity when written) always leaves the default */
static void dbl_at(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
		   double *out)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_NUM, flags | NUL);

	if (v)
		*out = v->num.d;
}

static void bool_at(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
		    bool *out)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_BOOL, flags);

	if (v)
		*out = v->b;
}

/* latin1 - decoded UTF-8 whose code points are all <= U+00FF back to the bytes the writer
 * escaped as \u00XX (js_json.h writes every byte >= 0x80 so); else the UTF-8 as it is */
static void latin1(char *dst, size_t len, const char *s, size_t slen)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + slen;
	size_t o = 0;

	for (const unsigned char *q = p; q < end; q++)
		if (*q >= 0xc4 && *q < 0xf8) { /* a code point above U+00FF */
			snprintf(dst, len, "%.*s", (int)JS_MIN(slen, len - 1), s);
			return;
		}
	while (p < end && o + 1 < len) {
		if (*p >= 0xc2 && *p <= 0xc3 && p + 1 < end) {
			dst[o++] = (char)(((*p & 0x03) << 6) | (p[1] & 0x3f));
			p += 2;
		} else {
			dst[o++] = (char)*p++;
		}
	}
	dst[o] = '\0';
}

/* str_at - a string into dst[len] (truncated); null leaves dst as it is when NUL */
static void str_at(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
		   char *dst, size_t len)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_STR, flags);

	if (v)
		latin1(dst, len, v->str.s, v->str.len);
}

/* name_at - a string from() knows (an enum's name -> value lookup): its value, or -1 */
static int name_at(struct ld *l, const struct jsonp_val *o, const char *key,
		   int (*from)(const char *name))
{
	const struct jsonp_val *v = get(l, o, key, JSONP_STR, REQ);
	int x;

	if (!v)
		return -1;
	x = from(v->str.s);
	if (x < 0)
		lfail(l, v, key, "unknown value \"%.40s\"", v->str.s);
	return x;
}

/* load_ended_by - what ended the run (since issue 41: optional, null when unknown) */
static void load_ended_by(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *v = get(l, root, "ended_by", JSONP_STR, NUL);
	int x = v ? js_end_from_name(v->str.s) : 0;

	if (x < 0)
		lfail(l, v, "ended_by", "unknown value \"%.40s\"", v->str.s);
	else
		run->ended_by = (enum js_end)x;
}

/* cause_of - a cause class by name (member key or value) */
static int cause_of(struct ld *l, const struct jsonp_val *at, const char *name)
{
	int c = js_cause_from_name(name);

	if (c < 0)
		lfail(l, at, NULL, "unknown cause class \"%.40s\"", name);
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
static void detail_at(struct ld *l, const struct jsonp_val *o, uint32_t cause, char *dst,
		      size_t len)
{
	str_at(l, o, "detail", REQ, dst, len);
	if (l->schema == 1)
		v1_detail(cause, dst, len);
}

/* decode_hist - a HISTF... histogram into h */
static void decode_hist(struct ld *l, const struct jsonp_val *o, const char *key, unsigned flags,
			struct js_hist *h)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_STR, flags);
	int err;

	if (!v)
		return;
	err = hist_decode_compressed_b64(v->str.s, h);
	if (err)
		lfail(l, v, key, "not a valid HdrHistogram (%s)", strerror(-err));
}

/* check_pcts - the saved percentiles and max must be the histogram's */
static void check_pcts(struct ld *l, const struct jsonp_val *o, const struct js_hist *h)
{
	for (size_t i = 0; i <= js_npcts && !l->rc; i++) {
		const char *key = i < js_npcts ? js_pcts[i].key : "max_ns";
		int64_t want = i < js_npcts ? hist_value_at_percentile(h, js_pcts[i].p) :
					      hist_max(h),
			got = want;

		i64_at(l, o, key, REQ, &got);
		if (!l->rc && got != want)
			lfail(l, jsonp_get(o, key), key,
			      "%lld, but the histogram says %lld: the file was altered",
			      (long long)got, (long long)want);
	}
}

/* ---- params, machine, top level ---- */

static void cpu_list(struct ld *l, const struct jsonp_val *o, const char *key, int *out, size_t *n)
{
	const struct jsonp_val *a = get(l, o, key, JSONP_ARR, REQ);
	size_t mark = push(l, ".%s", key);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		int64_t c = 0;

		if (i >= JS_CPUS_MAX || jsonp_i64(&a->arr.v[i], &c) || c < 0 || c >= JS_CPUS_MAX)
			lfail(l, &a->arr.v[i], NULL, "element %zu is not a CPU number", i);
		else
			out[(*n)++] = (int)c;
	}
	pop(l, mark);
}

/* load_thr_auto - params.threshold_auto (newer; absent or null: a -T TIME run) */
static void load_thr_auto(struct ld *l, const struct jsonp_val *o, struct js_run_cfg *p)
{
	const struct jsonp_val *v = get(l, o, "threshold_auto", JSONP_OBJ, NUL);
	struct js_thr_auto *t = &p->thr_auto;
	uint64_t cpu = 0;
	size_t mark;

	if (!v)
		return;
	mark = push(l, ".threshold_auto");
	p->threshold_auto = true;
	u64_at(l, v, "cpu", REQ, &cpu);
	t->cpu = (int)JS_MIN(cpu, (uint64_t)JS_CPUS_MAX);
	dbl_at(l, v, "loop_min_ns", REQ, &t->loop_min_ns);
	u64_at(l, v, "floor_ns", REQ, &t->floor_ns);
	u64_at(l, v, "chosen_ns", REQ, &t->chosen_ns);
	dbl_at(l, v, "gaps_per_s_at_floor", REQ, &t->rate_at_floor);
	dbl_at(l, v, "gaps_per_s_at_chosen", REQ, &t->rate_at_chosen);
	dbl_at(l, v, "gaps_per_s_max", REQ, &t->max_rate);
	str_at(l, v, "raised_because", REQ | NUL, t->raised_because, sizeof(t->raised_because));
	pop(l, mark);
}

static void load_params(struct ld *l, const struct jsonp_val *root, struct js_run_cfg *p)
{
	const struct jsonp_val *o = get(l, root, "params", JSONP_OBJ, REQ), *a;
	size_t mark = push(l, ".params");
	uint64_t top = 0;
	bool probes = true;

	cpu_list(l, o, "cpus", p->cpus, &p->ncpus);
	cpu_list(l, o, "house_keeping", p->hk, &p->nhk);
	u64_at(l, o, "duration_ns", REQ, &p->duration_ns);
	u64_at(l, o, "threshold_ns", REQ, &p->threshold_ns);
	load_thr_auto(l, o, p);
	u64_at(l, o, "warmup_ns", REQ, &p->warmup_ns);
	p->policy = name_at(l, o, "policy", sampler_policy_from_name);
	int_at(l, o, "priority", REQ, 0, 99, &p->priority);
	bool_at(l, o, "probes_requested", REQ, &probes);
	p->no_probes = !probes;
	/* newer than probes_requested: before it, every run was full */
	p->probes_lean = get(l, o, "probe_set", JSONP_STR, NUL) &&
			 name_at(l, o, "probe_set", probe_set_from_name) == 1;
	switch (name_at(l, o, "tsc_read", tsc_read_from_name)) {
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
	if (get(l, o, "clock", JSONP_STR, 0))
		p->clock = (enum tsc_clock)name_at(l, o, "clock", tsc_clock_from_name);
	else
		p->clock = p->tsc_read == TSC_READ_LFENCE_RDTSC ? TSC_CLOCK_LFENCE : TSC_CLOCK_AUTO;
	u64_at(l, o, "top", REQ, &top);
	p->top = (unsigned)JS_MIN(top, 1000000u);
	a = get(l, o, "arrival_intervals_ns", JSONP_ARR, 0);
	for (size_t i = 0; a && i < a->arr.n && i < JS_MAX_ARRIVALS && !l->rc; i++)
		if (jsonp_u64(&a->arr.v[i], &p->arrival_ns[p->narrivals++]))
			lfail(l, &a->arr.v[i], "arrival_intervals_ns", "not an interval in ns");
	u64_at(l, o, "burst", 0, &p->burst);
	a = get(l, o, "events", JSONP_ARR, 0); /* --event: runs older than it lack it */
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		char why[96];

		if (a->arr.v[i].type != JSONP_STR || p->nevents == JS_USER_EVENTS_MAX ||
		    user_event_parse(a->arr.v[i].str.s, &p->events[p->nevents++], why, sizeof(why)))
			lfail(l, &a->arr.v[i], "events", "not an --event of at most %d",
			      JS_USER_EVENTS_MAX);
	}
	/* since issue 41: null or absent without --deepest-idle-state */
	if (get(l, o, "deepest_idle_state", JSONP_NUM, NUL)) {
		p->idle_limit = true;
		int_at(l, o, "deepest_idle_state", 0, 0, INT32_MAX, &p->deepest_idle_state);
	}
	pop(l, mark);
}

static void load_clock(struct ld *l, const struct jsonp_val *o, const char *name,
		       struct js_clock_read *c)
{
	const struct jsonp_val *v = get(l, o, name, JSONP_OBJ, 0);
	size_t mark = push(l, ".%s", name);

	c->name = name;
	if (v) {
		c->samples = 1; /* present: it was measured (samples is newer) */
		u64_at(l, v, "samples", 0, &c->samples);
		dbl_at(l, v, "median_ns", REQ, &c->median_ns);
		dbl_at(l, v, "p99_ns", REQ, &c->p99_ns);
		dbl_at(l, v, "min_ns", REQ, &c->min_ns);
	}
	pop(l, mark);
}

/* steal_at - machine.steal_reported (since issue 39; null or absent: not known) */
static void steal_at(struct ld *l, const struct jsonp_val *o, struct js_machine *m)
{
	const struct jsonp_val *v = get(l, o, "steal_reported", JSONP_BOOL, NUL);

	m->steal = !v ? JS_STEAL_UNKNOWN : v->b ? JS_STEAL_COUNTED : JS_STEAL_NONE;
}

static void load_machine(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = get(l, root, "machine", JSONP_OBJ, REQ), *c;
	struct js_machine *m = &run->machine;
	size_t mark = push(l, ".machine");

	str_at(l, o, "kernel", REQ, m->kernel, sizeof(m->kernel));
	str_at(l, o, "hostname", REQ, m->hostname, sizeof(m->hostname));
	str_at(l, o, "cpu_model", REQ, m->cpu_model, sizeof(m->cpu_model));
	int_at(l, o, "online_cpus", REQ, 0, INT32_MAX, &m->online_cpus);
	bool_at(l, o, "vm", REQ, &m->hypervisor);
	bool_at(l, o, "invariant_tsc", REQ, &m->invariant_tsc);
	steal_at(l, o, m);
	dbl_at(l, o, "tsc_hz", REQ, &m->tsc_hz);
	run->fit.hz = m->tsc_hz;
	run->fit.ns_per_cycle = m->tsc_hz > 0 ? 1e9 / m->tsc_hz : 0;
	run->clock.tsc_hz = m->tsc_hz;
	c = get(l, o, "counter", JSONP_OBJ, 0); /* arm64 runs */
	if (c) {
		size_t cm = push(l, ".counter");

		str_at(l, c, "name", REQ, m->counter_name, sizeof(m->counter_name));
		dbl_at(l, c, "nominal_hz", REQ, &m->counter_nominal_hz);
		u64_at(l, c, "step", REQ, &m->counter_step);
		pop(l, cm);
	}
	c = get(l, o, "clock_read_cost", JSONP_OBJ, 0);
	push(l, ".clock_read_cost");
	load_clock(l, c, "rdtscp", &run->clock.rdtscp);
	load_clock(l, c, "lfence_rdtsc", &run->clock.lfence_rdtsc);
	if (c && get(l, c, "isb_cntvct", JSONP_OBJ, 0))
		load_clock(l, c, "isb_cntvct", &run->clock.isb_cntvct);
	load_clock(l, c, "clock_gettime_monotonic", &run->clock.monotonic);
	pop(l, mark);
}

static void load_time_base(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = get(l, root, "time_base", JSONP_OBJ, REQ);
	size_t mark = push(l, ".time_base");
	uint64_t pairs = 0;

	u64_at(l, o, "fit_pairs", REQ, &pairs);
	run->fit.npairs = (size_t)pairs;
	dbl_at(l, o, "fit_residual_max_ns", REQ, &run->fit.residual_max_ns);
	dbl_at(l, o, "fit_residual_rms_ns", REQ, &run->fit.residual_rms_ns);
	u64_at(l, o, "start_mono_ns", REQ, &run->start_mono_ns);
	dbl_at(l, o, "start_epoch_s", REQ, &run->start_epoch_s);
	pop(l, mark);
}

/* load_probe_cost - probes.cost: the programs' kernel run-time statistics, or null */
static void load_probe_cost(struct ld *l, const struct jsonp_val *o, struct js_run *run)
{
	const struct jsonp_val *a;
	size_t mark;

	if (!o)
		return;
	mark = push(l, ".cost");
	run->probe_cost_known = true;
	u64_at(l, o, "attached_ns", REQ, &run->probe_attached_ns);
	u64_at(l, o, "runs", REQ, &run->probe_runs);
	u64_at(l, o, "run_ns", REQ, &run->probe_run_ns);
	a = get(l, o, "programs", JSONP_ARR, REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct js_probe_prog *pp = &run->probe_progs[run->nprobe_progs];
		size_t m2 = push(l, ".programs[%zu]", i);

		if (run->nprobe_progs >= JS_PROBE_PROGS_MAX) {
			lfail(l, v, NULL, "more than %d programs", JS_PROBE_PROGS_MAX);
			break;
		}
		if (!jsonp_is(v, JSONP_OBJ)) {
			lfail(l, v, NULL, "expected an object");
			break;
		}
		str_at(l, v, "name", REQ, pp->name, sizeof(pp->name));
		u64_at(l, v, "runs", REQ, &pp->runs);
		u64_at(l, v, "run_ns", REQ, &pp->run_ns);
		run->nprobe_progs++;
		pop(l, m2);
	}
	pop(l, mark);
}

/* load_spikes - the flight recorder's counts, when it was on (o: "spikes", or NULL) */
static void load_spikes(struct ld *l, const struct jsonp_val *o, struct js_spike_stats *s)
{
	const struct jsonp_val *k;
	size_t mark;
	uint64_t v = 0;

	if (!o)
		return;
	mark = push(l, ".spikes");
	s->on = true;
	str_at(l, o, "dir", REQ, s->dir, sizeof(s->dir));
	u64_at(l, o, "threshold_ns", REQ, &s->threshold_ns);
	u64_at(l, o, "max_per_min", REQ, &v);
	s->max_per_min = (unsigned)JS_MIN(v, (uint64_t)UINT32_MAX);
	v = 0;
	u64_at(l, o, "max_per_source", 0, &v); /* since issue 39; 0: not said */
	s->max_per_source = (unsigned)JS_MIN(v, (uint64_t)UINT32_MAX);
	u64_at(l, o, "dir_max_bytes", REQ, &s->dir_max_bytes);
	u64_at(l, o, "seen", REQ, &s->seen);
	u64_at(l, o, "written", REQ, &s->written);
	u64_at(l, o, "bytes", REQ, &s->bytes);
	u64_at(l, o, "write_ns_max", REQ, &s->write_ns_max);
	u64_at(l, o, "replaced", 0, &s->replaced); /* since issue 28 */
	k = get(l, o, "on_spike", JSONP_OBJ, NUL); /* since issue 28: optional, null if off */
	if (k) {
		s->cmd.on = true;
		str_at(l, k, "command", REQ, s->cmd.cmd, sizeof(s->cmd.cmd));
		u64_at(l, k, "timeout_ns", REQ, &s->cmd.timeout_ns);
		u64_at(l, k, "runs", REQ, &s->cmd.runs);
		u64_at(l, k, "failed", REQ, &s->cmd.failed);
		u64_at(l, k, "timeouts", REQ, &s->cmd.timeouts);
		u64_at(l, k, "skipped_busy", REQ, &s->cmd.skipped_busy);
		u64_at(l, k, "run_ns", REQ, &s->cmd.run_ns);
	}
	k = get(l, o, "skipped", JSONP_OBJ, REQ);
	for (unsigned i = 0; k && i < JS_SPIKE_SKIP_MAX; i++)
		u64_at(l, k, js_spike_skip_name(i), REQ, &s->skipped[i]);
	pop(l, mark);
}

/* load_stacks_info - probes.stacks (--stacks; absent or null: off) */
static void load_stacks_info(struct ld *l, const struct jsonp_val *o, struct js_run *run)
{
	size_t mark = push(l, ".stacks");

	run->probes_stacks = o != NULL;
	if (o) {
		u64_at(l, o, "full", 0, &run->stack_full);
		u64_at(l, o, "failed", 0, &run->stack_fail);
		u64_at(l, o, "dropped", 0, &run->stacks.dropped);
	}
	pop(l, mark);
}

/* load_events_by_kind - probes.events_by_kind (optional: added later), kinds by name; a
 * kind this version does not know is left out */
static void load_events_by_kind(struct ld *l, const struct jsonp_val *o, struct js_run *run)
{
	size_t mark = push(l, ".events_by_kind");

	for (size_t i = 0; o && i < jsonp_len(o) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(o, i);
		int k = js_ev_kind_from_name(m->key);

		if (k > 0 && k < JS_EV_KIND_MAX)
			u64_at(l, o, m->key, REQ, &run->probe_events_kind[k]);
	}
	pop(l, mark);
}

static void load_probes_smi(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = get(l, root, "probes", JSONP_OBJ, REQ);
	size_t mark = push(l, ".probes");

	bool_at(l, o, "enabled", REQ, &run->probes_on);
	str_at(l, o, "why_disabled", REQ | NUL, run->probes_why, sizeof(run->probes_why));
	u64_at(l, o, "events", REQ, &run->probe_events);
	load_events_by_kind(l, get(l, o, "events_by_kind", JSONP_OBJ, 0), run);
	u64_at(l, o, "lost", REQ, &run->probe_lost);
	u64_at(l, o, "evicted", 0, &run->probe_evicted);	       /* added later: optional */
	bool_at(l, o, "waker", 0, &run->probes_waker);		       /* optional too */
	load_stacks_info(l, get(l, o, "stacks", JSONP_OBJ, NUL), run); /* optional too */
	load_probe_cost(l, get(l, o, "cost", JSONP_OBJ, NUL), run);    /* optional too */
	pop(l, mark);
	load_spikes(l, get(l, root, "spikes", JSONP_OBJ, 0), &run->spikes);
	o = get(l, root, "smi", JSONP_OBJ, REQ);
	mark = push(l, ".smi");
	bool_at(l, o, "countable", REQ, &run->smi_countable);
	str_at(l, o, "why_not", REQ | NUL, run->smi_why, sizeof(run->smi_why));
	pop(l, mark);
}

/* ---- per CPU ---- */

static void load_by_primary(struct ld *l, const struct jsonp_val *o, struct js_causes *c)
{
	const struct jsonp_val *bp = get(l, o, "by_primary_cause", JSONP_OBJ, REQ);
	size_t mark = push(l, ".by_primary_cause");

	for (size_t i = 0; i < jsonp_len(bp) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(bp, i);
		int k = cause_of(l, &m->val, m->key);

		size_t m2;

		if (k < 0 || !get(l, bp, m->key, JSONP_OBJ, REQ))
			break;
		m2 = push(l, ".%s", m->key);
		u64_at(l, &m->val, "gaps", REQ, &c->by_primary[k]);
		u64_at(l, &m->val, "ns", REQ, &c->ns_by_primary[k]);
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_classes(struct ld *l, const struct jsonp_val *o, struct js_causes *c)
{
	const struct jsonp_val *bc = get(l, o, "by_class", JSONP_OBJ, REQ);
	size_t mark = push(l, ".by_class");

	for (size_t i = 0; i < jsonp_len(bc) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(bc, i);
		int k = cause_of(l, &m->val, m->key);
		size_t m2;

		if (k < 0 || !get(l, bc, m->key, JSONP_OBJ, REQ))
			break;
		m2 = push(l, ".%s", m->key);
		u64_at(l, &m->val, "gaps", REQ, &c->cls[k].gaps);
		u64_at(l, &m->val, "events", REQ, &c->cls[k].events);
		u64_at(l, &m->val, "total_ns", REQ, &c->cls[k].total_ns);
		u64_at(l, &m->val, "entry_ns", 0, &c->cls[k].entry_ns);
		u64_at(l, &m->val, "max_ns", REQ, &c->cls[k].max_ns);
		pop(l, m2);
	}
	pop(l, mark);
}

/*
 * load_sources - a cause table's sources (name: "sources", keyed by "detail"; or
 * "sources_by_cgroup", keyed by "cgroup", absent before jitterscope named cgroups), filled
 * directly (the struct is public)
 */
static void load_sources(struct ld *l, const struct jsonp_val *o, const char *name,
			 struct js_causes *c)
{
	bool by_cg = strcmp(name, "sources");
	const struct jsonp_val *a = get(l, o, name, JSONP_ARR, by_cg ? 0 : REQ);
	size_t mark = push(l, ".%s", name);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct js_cause_src *s = &c->src[c->nsrc];
		size_t m2 = push(l, "[%zu]", i);
		int k;

		if (c->nsrc >= JS_CAUSES_SRC_MAX) {
			lfail(l, v, NULL, "more than %d sources", JS_CAUSES_SRC_MAX);
			break;
		}
		if (!jsonp_is(v, JSONP_OBJ)) {
			lfail(l, v, NULL, "expected an object");
			break;
		}
		memset(s, 0, sizeof(*s));
		k = name_at(l, v, "cause", js_cause_from_name);
		s->cause = k < 0 ? 0 : (uint32_t)k;
		if (by_cg)
			str_at(l, v, "cgroup", REQ, s->detail, sizeof(s->detail));
		else
			detail_at(l, v, s->cause, s->detail, sizeof(s->detail));
		u64_at(l, v, "gaps", REQ, &s->gaps);
		u64_at(l, v, "events", REQ, &s->events);
		u64_at(l, v, "total_ns", REQ, &s->total_ns);
		u64_at(l, v, "entry_ns", 0, &s->entry_ns);
		u64_at(l, v, "max_ns", REQ, &s->max_ns);
		s->other = !strcmp(s->detail, "(other)");
		if (s->other && k >= 0)
			c->other[k] = (uint16_t)(c->nsrc + 1);
		c->nsrc++;
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_cbuckets(struct ld *l, const struct jsonp_val *o, struct js_cause_buckets *b)
{
	const struct jsonp_val *a = get(l, o, "histogram_by_cause", JSONP_ARR, 0);
	size_t mark = push(l, ".histogram_by_cause");

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i], *bc, *nc;
		size_t m2 = push(l, "[%zu]", i);
		uint64_t lo = 0;
		int bi;

		u64_at(l, v, "lo_ns", REQ, &lo);
		bi = cbuckets_index(lo);
		if (!l->rc && cbuckets_lo(bi) != lo)
			lfail(l, v, "lo_ns", "%llu is not a bucket boundary",
			      (unsigned long long)lo);
		u64_at(l, v, "total", REQ, &b->total[bi]);
		bc = get(l, v, "by_cause", JSONP_OBJ, REQ);
		nc = get(l, v, "ns_by_cause", JSONP_OBJ, 0);
		for (size_t k = 0; k < jsonp_len(bc) && !l->rc; k++) {
			const struct jsonp_member *m = jsonp_member_at(bc, k);
			int c = cause_of(l, &m->val, m->key);

			if (c < 0)
				break;
			u64_at(l, bc, m->key, REQ, &b->count[bi][c]);
			u64_at(l, nc, m->key, 0, &b->ns[bi][c]);
		}
		pop(l, m2);
	}
	pop(l, mark);
}

/* load_verdict - one detector's saved verdict: {periodic, period_ns, strength, gaps,
 * phase_ns}; phase_ns is absent from files written before it (then -1: unknown) */
static void load_verdict(struct ld *l, const struct jsonp_val *v, struct js_period *p)
{
	struct js_period_result r = { .phase_ns = -1 };

	bool_at(l, v, "periodic", REQ, &r.periodic);
	u64_at(l, v, "period_ns", REQ, &r.period_ns);
	dbl_at(l, v, "strength", REQ, &r.strength);
	u64_at(l, v, "gaps", REQ, &r.n);
	dbl_at(l, v, "phase_ns", 0, &r.phase_ns);
	period_saved(p, &r);
}

/*
 * load_period - the periodicity verdicts: the headline class (min_ns, 0 in files written
 * before the classes: every unexplained gap), "all", the bands; the classes' gap counts
 * follow from the bands', so the headline is chosen again as it was
 */
static void load_period(struct ld *l, const struct jsonp_val *o, struct js_period_classes *pc)
{
	const struct jsonp_val *v = get(l, o, "unexplained_periodicity", JSONP_OBJ, REQ), *a;
	size_t mark = push(l, ".unexplained_periodicity");
	uint64_t min = 0;
	int h = 0;

	period_classes_init(pc, 0, 0);
	a = get(l, v, "bands", JSONP_ARR, 0);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t m2 = push(l, ".bands[%zu]", i);
		int b = 0;

		u64_at(l, &a->arr.v[i], "min_ns", REQ, &min);
		while (b < JS_PERIOD_BANDS && js_period_band_ns[b] != min)
			b++;
		if (b == JS_PERIOD_BANDS)
			lfail(l, &a->arr.v[i], "min_ns", "%llu is not a band's bound",
			      (unsigned long long)min);
		else
			load_verdict(l, &a->arr.v[i], &pc->band[b]);
		for (int k = 0; k <= b && k < JS_PERIOD_BANDS && !l->rc; k++)
			pc->ge[k].n += pc->band[b].n;
		pop(l, m2);
	}
	if (get(l, v, "all", JSONP_OBJ, 0)) {
		size_t m2 = push(l, ".all");

		load_verdict(l, jsonp_get(v, "all"), &pc->ge[0]);
		pop(l, m2);
	}
	min = 0;
	u64_at(l, v, "min_ns", 0, &min);
	while (h < JS_PERIOD_BANDS && js_period_band_ns[h] != min)
		h++;
	if (h == JS_PERIOD_BANDS)
		lfail(l, jsonp_get(v, "min_ns"), "min_ns", "%llu is not a band's bound",
		      (unsigned long long)min);
	else
		load_verdict(l, v, &pc->ge[h]);
	pop(l, mark);
}

/* load_vm_exit - one VM exit's cost (absent before it was measured, null on bare metal) */
static void load_vm_exit(struct ld *l, const struct jsonp_val *o, struct js_exit_cost *x)
{
	const struct jsonp_val *v = get(l, o, "vm_exit", JSONP_OBJ, NUL);
	size_t mark = push(l, ".vm_exit");
	uint64_t n = 0;

	u64_at(l, v, "samples", REQ, &n);
	x->samples = (uint32_t)JS_MIN(n, UINT32_MAX);
	dbl_at(l, v, "min_ns", REQ, &x->min_ns);
	dbl_at(l, v, "median_ns", REQ, &x->median_ns);
	dbl_at(l, v, "p90_ns", REQ, &x->p90_ns);
	pop(l, mark);
}

/* load_host - the host's readings (absent before they were recorded, null: none read) */
static void load_host(struct ld *l, const struct jsonp_val *o, struct js_host_moves *m)
{
	const struct jsonp_val *v = get(l, o, "host_readings", JSONP_OBJ, NUL);
	size_t mark = push(l, ".host_readings");

	memset(m, 0, sizeof(*m));
	if (v) {
		u64_at(l, v, "readings", REQ, &m->readings);
		if (get(l, v, "reloads_without_steal", JSONP_NUM, NUL))
			m->has |= STEAL_HAS_ST_VERSION;
		if (get(l, v, "clock_updates", JSONP_NUM, NUL))
			m->has |= STEAL_HAS_CLK_VERSION;
		u64_at(l, v, "reloads_without_steal", NUL, &m->reloads);
		u64_at(l, v, "clock_updates", NUL, &m->clocks);
	}
	pop(l, mark);
}

/* load_entry - the entry/exit rule's figures per interruption kind (absent before it) */
static void load_entry(struct ld *l, const struct jsonp_val *o, struct js_entry *m)
{
	const struct jsonp_val *v = get(l, o, "entry_exit", JSONP_OBJ, 0), *kinds;
	size_t mark = push(l, ".entry_exit");

	memset(m, 0, sizeof(*m));
	u64_at(l, v, "prior_ns", REQ, &m->prior_ns);
	m->cap_ns = UINT64_MAX; /* no cap before it */
	u64_at(l, v, "cap_ns", 0, &m->cap_ns);
	kinds = get(l, v, "kinds", JSONP_OBJ, REQ);
	for (size_t i = 0; i < jsonp_len(kinds) && !l->rc; i++) {
		const struct jsonp_member *mb = jsonp_member_at(kinds, i);
		int k = entry_kind_from_name(mb->key);
		struct js_entry_kind *e;
		size_t m2 = push(l, ".kinds.%s", mb->key);

		if (k < 0 || !jsonp_is(&mb->val, JSONP_OBJ)) {
			lfail(l, &mb->val, NULL,
			      k < 0 ? "not an interruption kind" : "expected an object");
			break;
		}
		e = &m->k[k];
		u64_at(l, &mb->val, "lone_gaps", REQ, &e->lone);
		u64_at(l, &mb->val, "median_ns", REQ, &e->median_ns);
		u64_at(l, &mb->val, "bound_ns", REQ, &e->bound_ns);
		u64_at(l, &mb->val, "floor_ns", 0, &e->floor_ns);
		u64_at(l, &mb->val, "learned_ns", 0, &e->bound_ns); /* before the cap, if said */
		u64_at(l, &mb->val, "gaps", REQ, &e->gaps);
		u64_at(l, &mb->val, "interruptions", REQ, &e->entries);
		u64_at(l, &mb->val, "entry_ns", REQ, &e->entry_ns);
		pop(l, m2);
	}
	pop(l, mark);
}

/* load_interval_worst - an interval's worst gap (absent before it, null: none) */
static void load_interval_worst(struct ld *l, const struct jsonp_val *e,
				struct js_interval_worst *w)
{
	const struct jsonp_val *v = get(l, e, "worst", JSONP_OBJ, NUL);
	size_t mark;
	int k;

	if (!v)
		return;
	mark = push(l, ".worst");
	u64_at(l, v, "start_ns", REQ, &w->start_ns);
	u64_at(l, v, "duration_ns", REQ, &w->dur_ns);
	k = name_at(l, v, "cause", js_cause_from_name);
	w->cause = k < 0 ? 0 : (uint32_t)k;
	detail_at(l, v, w->cause, w->detail, sizeof(w->detail));
	pop(l, mark);
}

static void load_intervals(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r)
{
	const struct jsonp_val *v = get(l, o, "intervals", JSONP_OBJ, REQ), *a;
	struct js_intervals *iv = &r->intervals;
	size_t mark = push(l, ".intervals");

	u64_at(l, v, "length_ns", REQ, &iv->len_ns);
	iv->base_len_ns = iv->len_ns;
	iv->start_ns = r->start_ns;
	iv->end_ns = r->end_ns;
	iv->finished = 1;
	a = get(l, v, "list", JSONP_ARR, REQ);
	if (a && a->arr.n) {
		iv->v = calloc(a->arr.n, sizeof(*iv->v));
		if (!iv->v)
			l->rc = -ENOMEM;
		iv->alloc = iv->cap = a->arr.n;
	}
	for (size_t i = 0; iv->v && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *e = &a->arr.v[i];
		struct js_interval_stats *s = &iv->v[iv->n++];
		size_t m2 = push(l, ".list[%zu]", i);
		uint64_t off = 0;

		u64_at(l, e, "offset_ns", REQ, &off);
		s->start_ns = r->start_ns + off;
		u64_at(l, e, "gaps", REQ, &s->gaps);
		u64_at(l, e, "lost_ns", REQ, &s->lost_ns);
		i64_at(l, e, "max_ns", REQ, &s->max_ns);
		i64_at(l, e, "p999_ns", REQ, &s->p999_ns);
		load_interval_worst(l, e, &s->worst);
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_delayed_by(struct ld *l, const struct jsonp_val *v, struct js_arrival *a)
{
	const struct jsonp_val *d = get(l, v, "delayed_by_cause", JSONP_OBJ, REQ);
	size_t mark = push(l, ".delayed_by_cause");

	for (size_t k = 0; k < jsonp_len(d) && !l->rc; k++) {
		const struct jsonp_member *m = jsonp_member_at(d, k);
		int c = cause_of(l, &m->val, m->key);

		size_t m2;

		if (c < 0 || !get(l, d, m->key, JSONP_OBJ, REQ))
			break;
		m2 = push(l, ".%s", m->key);
		u64_at(l, &m->val, "arrivals", REQ, &a->delayed_by_cause[c]);
		u64_at(l, &m->val, "delay_ns", REQ, &a->delay_ns_by_cause[c]);
		pop(l, m2);
	}
	pop(l, mark);
}

/* load_bursts - burst exposure of arrival i; the saved burst size if params lack it */
static void load_bursts(struct ld *l, const struct jsonp_val *v, struct js_cpu_result *r, size_t i,
			struct js_run_cfg *p)
{
	const struct jsonp_val *b = get(l, v, "burst", JSONP_ARR, REQ);
	size_t mark = push(l, ".burst");

	for (size_t k = 0; b && k < b->arr.n && !l->rc; k++) {
		const struct jsonp_val *e = &b->arr.v[k];
		size_t m2 = push(l, "[%zu]", k);
		uint64_t size = 0, n = 0;
		int s;

		u64_at(l, e, "gap_size_ns", REQ, &size);
		u64_at(l, e, "arrivals", REQ, &n);
		for (s = 0; s < JS_BURST_SIZES && js_burst_sizes_ns[s] != size; s++)
			;
		if (s < JS_BURST_SIZES)
			dbl_at(l, e, "probability_observed", REQ, &r->burst_p[i][s]);
		else
			lfail(l, e, "gap_size_ns", "%llu is not a burst gap size",
			      (unsigned long long)size);
		if (!p->burst)
			p->burst = n;
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_arrival(struct ld *l, const struct jsonp_val *v, struct js_cpu_result *r,
			 struct js_run_cfg *p)
{
	struct js_arrival *a = &r->arrivals[r->narrivals];

	memset(a, 0, sizeof(*a));
	a->start_ns = r->start_ns;
	a->end_ns = r->end_ns;
	a->finished = true;
	u64_at(l, v, "interval_ns", REQ, &a->interval_ns);
	u64_at(l, v, "arrivals", REQ, &a->arrivals);
	u64_at(l, v, "delayed", REQ, &a->delayed);
	u64_at(l, v, "delay_ns_total", REQ, &a->delay_ns_total);
	load_delayed_by(l, v, a);
	if (!jsonp_get(v, "delay_hdr_b64")) {
		js_warn("%s: no delay_hdr_b64 (an older jitterscope wrote it): the arrivals at "
			"%llu ns are left out",
			l->path + 1, (unsigned long long)a->interval_ns);
		return;
	}
	decode_hist(l, v, "delay_hdr_b64", REQ, &a->delay);
	if (l->rc)
		return;
	r->narrivals++; /* from here the result owns the histogram */
	if (a->delay.total != a->arrivals)
		lfail(l, jsonp_get(v, "delay_hdr_b64"), "delay_hdr_b64",
		      "holds %llu arrivals, arrivals says %llu", (unsigned long long)a->delay.total,
		      (unsigned long long)a->arrivals);
	check_pcts(l, v, &a->delay);
	load_bursts(l, v, r, r->narrivals - 1, p);
}

static void load_arrivals(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r,
			  struct js_run_cfg *p)
{
	const struct jsonp_val *a = get(l, o, "arrivals", JSONP_ARR, REQ);
	size_t mark = push(l, ".arrivals");

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t m2 = push(l, "[%zu]", i);

		if (i >= JS_MAX_ARRIVALS || !jsonp_is(&a->arr.v[i], JSONP_OBJ))
			lfail(l, &a->arr.v[i], NULL,
			      i >= JS_MAX_ARRIVALS ? "too many arrival intervals" :
						     "expected an object");
		else
			load_arrival(l, &a->arr.v[i], r, p);
		pop(l, m2);
	}
	pop(l, mark);
}

/* load_part_cgroup - the cgroup of the task a part names (absent before jitterscope named
 * cgroups), its path into the run's table */
static void load_part_cgroup(struct ld *l, const struct jsonp_val *v, struct js_part *part)
{
	const struct jsonp_val *path = get(l, v, JG_CGROUP, JSONP_STR, NUL);

	u64_at(l, v, JG_CGROUP_ID, NUL, &part->cgroup);
	if (part->cgroup && path && !cgroups_get(l->cg, part->cgroup) &&
	    cgroups_add(l->cg, part->cgroup, path->str.s))
		lfail(l, path, JG_CGROUP, "out of memory");
}

/* load_nums - the numbers of a struct listed in n[nn] (js_json_gap.h) into base */
static void load_nums(struct ld *l, const struct jsonp_val *v, const struct js_json_num *n,
		      size_t nn, void *base)
{
	for (size_t i = 0; i < nn; i++) {
		uint64_t x = 0;

		u64_at(l, v, n[i].key, n[i].required ? REQ : 0, &x);
		js_json_num_set(&n[i], base, x);
	}
}

static void load_part(struct ld *l, const struct jsonp_val *v, struct js_part *part)
{
	int k = name_at(l, v, JG_CAUSE, js_cause_from_name);

	part->cause = k < 0 ? 0 : (uint32_t)k;
	detail_at(l, v, part->cause, part->detail, sizeof(part->detail));
	load_nums(l, v, js_part_nums, js_part_nnums, part);
	load_part_cgroup(l, v, part);
}

/* load_gap_source - where a gap comes from (absent before the other sources: the sampler) */
static void load_gap_source(struct ld *l, const struct jsonp_val *v, const struct js_cpu_result *r,
			    struct js_gap_rec *g)
{
	int64_t cpu_in = -1;
	uint64_t line = 0;
	int k;

	g->gap.source = (uint8_t)r->source;
	if (r->source == JS_SRC_THREAD) {
		g->gap.id = r->tid;
		str_at(l, v, JG_THREAD, 0, g->label, sizeof(g->label));
		k = jsonp_get(v, JG_KIND) ? name_at(l, v, JG_KIND, js_gap_kind_from_name) : 0;
		g->gap.kind = (uint8_t)(k < 0 ? 0 : k);
		i64_at(l, v, JG_RESUMED_ON_CPU, NUL, &cpu_in);
		if (cpu_in >= 0 && cpu_in < JS_CPUS_MAX)
			g->gap.cpu_in = (uint16_t)(cpu_in + 1);
	} else if (r->source == JS_SRC_MARK) {
		u64_at(l, v, JG_LINE, 0, &line);
		g->gap.id = (uint32_t)JS_MIN(line, UINT32_MAX);
		str_at(l, v, JG_LABEL, 0, g->label, sizeof(g->label));
	}
}

/* load_stack - --stacks: the stack under JG_STACK (absent: none) into the run's table; its
 * ref, 0: none */
static uint32_t load_stack(struct ld *l, const struct jsonp_val *o)
{
	const struct jsonp_val *a = get(l, o, JG_STACK, JSONP_ARR, 0);
	size_t mark = push(l, "." JG_STACK);
	struct js_stack st = { 0 };

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		if (i >= JS_STACK_FRAMES || !jsonp_is(&a->arr.v[i], JSONP_STR))
			lfail(l, &a->arr.v[i], NULL, "expected a string (at most %d)",
			      JS_STACK_FRAMES);
		else
			js_scpy(st.frame[st.n++], JS_FRAME_LEN, a->arr.v[i].str.s);
	}
	pop(l, mark);
	return a && !l->rc && l->stacks ? js_stacks_intern(l->stacks, &st) : 0;
}

/* load_waker - who woke the primary part's task (absent before it was tracked, null: none) */
static void load_waker(struct ld *l, const struct jsonp_val *v, struct js_waker *w)
{
	const struct jsonp_val *o = get(l, v, JG_WAKER, JSONP_OBJ, NUL);
	size_t mark = push(l, "." JG_WAKER);
	uint64_t pid = 0, cpu = 0, nr = 0;
	int k;

	memset(w, 0, sizeof(*w));
	w->syscall = -1;
	if (!o) {
		pop(l, mark);
		return;
	}
	k = name_at(l, o, JG_WAKER_CONTEXT, js_wake_ctx_from_name);
	str_at(l, o, JG_WAKER_COMM, 0, w->comm, sizeof(w->comm));
	u64_at(l, o, JG_WAKER_PID, 0, &pid);
	u64_at(l, o, JG_WAKER_CPU, 0, &cpu);
	if (get(l, o, JG_WAKER_SYSCALL_NR, JSONP_NUM, NUL)) {
		u64_at(l, o, JG_WAKER_SYSCALL_NR, 0, &nr);
		w->syscall = (int32_t)JS_MIN(nr, (uint64_t)INT32_MAX);
	}
	i64_at(l, o, JG_WAKER_AT, 0, &w->at_ns);
	w->pid = (uint32_t)JS_MIN(pid, UINT32_MAX);
	w->cpu = (uint16_t)JS_MIN(cpu, UINT16_MAX);
	w->ctx = k < 0 ? 0 : (uint8_t)k;
	w->stack = load_stack(l, o);
	pop(l, mark);
}

static void load_gap(struct ld *l, const struct jsonp_val *v, const struct js_cpu_result *r,
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
	u64_at(l, v, "start_ns", REQ, &g->gap.start_ns);
	u64_at(l, v, "duration_ns", REQ, &g->gap.dur_ns);
	u64_at(l, v, "events", 0, &ev);
	a->nevents = (uint32_t)JS_MIN(ev, UINT32_MAX);
	k = name_at(l, v, JG_CAUSE, js_cause_from_name);
	a->primary = k < 0 ? 0 : (uint32_t)k;
	detail_at(l, v, a->primary, a->detail, sizeof(a->detail));
	load_nums(l, v, js_attr_nums, js_attr_nnums, a);
	parts = get(l, v, JG_CAUSES, JSONP_ARR, REQ);
	for (size_t i = 0; parts && i < parts->arr.n && !l->rc; i++) {
		size_t m2 = push(l, ".causes[%zu]", i);

		if (i >= JS_PARTS_MAX || !jsonp_is(&parts->arr.v[i], JSONP_OBJ))
			lfail(l, &parts->arr.v[i], NULL, "expected an object (at most %d)",
			      JS_PARTS_MAX);
		else
			load_part(l, &parts->arr.v[i], &a->parts[a->nparts++]);
		pop(l, m2);
	}
	load_waker(l, v, &a->waker);
	a->stack = load_stack(l, v);
}

/* load_top - the worst gaps; kept as a valid min-heap (ascending), ties in file order, so
 * result_top_sorted() lists them exactly as the file does */
static void load_top(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r, uint32_t res)
{
	const struct jsonp_val *a = get(l, o, "top", JSONP_ARR, REQ);
	size_t mark = push(l, ".top");
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
		size_t m2 = push(l, "[%zu]", i);
		struct js_gap_rec g;
		size_t j;

		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ))
			lfail(l, &a->arr.v[i], NULL, "expected an object");
		load_gap(l, &a->arr.v[i], r, res, &g);
		for (j = t->n; j > 0 && recs[j - 1].gap.dur_ns > g.gap.dur_ns; j--)
			;
		memmove(&recs[j + 1], &recs[j], (t->n - j) * sizeof(g));
		recs[j] = g;
		t->n++;
		pop(l, m2);
	}
out:
	pop(l, mark);
}

static void load_cpu_counts(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r,
			    const struct js_run *run)
{
	const struct jsonp_val *smi;

	int_at(l, o, "cpu", REQ, 0, JS_CPUS_MAX - 1, &r->cpu);
	int_at(l, o, "node", REQ, -1, INT32_MAX, &r->node);
	u64_at(l, o, "start_ns", REQ, &r->start_ns);
	u64_at(l, o, "end_ns", REQ, &r->end_ns);
	if (!l->rc && r->end_ns < r->start_ns)
		lfail(l, jsonp_get(o, "end_ns"), "end_ns", "before start_ns");
	u64_at(l, o, "iterations", REQ, &r->iterations);
	dbl_at(l, o, "loop_ns_min", REQ, &r->loop_ns_min);
	dbl_at(l, o, "loop_ns_median", REQ, &r->loop_ns_median);
	dbl_at(l, o, "loop_ns_mean", REQ, &r->loop_ns_mean);
	u64_at(l, o, "gap_count", REQ, &r->gap_count);
	u64_at(l, o, "lost_ns", REQ, &r->lost_ns);
	u64_at(l, o, "dropped", REQ, &r->dropped);
	u64_at(l, o, "events", 0, &r->events);
	u64_at(l, o, "steal_ns", REQ, &r->steal_ns);
	smi = get(l, o, "smi", JSONP_NUM, REQ | NUL);
	if (smi && run->smi_countable)
		u64_at(l, o, "smi", REQ, &r->smi);
}

/* load_thread - a followed thread's name and own figures */
static void load_thread(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r)
{
	const struct jsonp_val *t, *a;
	struct js_thread_stats *s = &r->ts;
	uint64_t tid = 0;
	size_t mark;

	u64_at(l, o, "tid", REQ, &tid);
	r->tid = (uint32_t)JS_MIN(tid, UINT32_MAX);
	str_at(l, o, "thread", REQ, r->name, sizeof(r->name));
	t = get(l, o, "thread_stats", JSONP_OBJ, REQ);
	mark = push(l, ".thread_stats");
	u64_at(l, t, "syscalls", REQ, &s->syscalls);
	u64_at(l, t, "syscall_ns", REQ, &s->syscall_ns);
	u64_at(l, t, "sleeps", REQ, &s->sleeps);
	u64_at(l, t, "sleep_ns", REQ, &s->sleep_ns);
	u64_at(l, t, "yields", REQ, &s->yields);
	u64_at(l, t, "preempted", REQ, &s->preempted);
	u64_at(l, t, "preempted_ns", REQ, &s->preempted_ns);
	u64_at(l, t, "interrupted", REQ, &s->interrupted);
	u64_at(l, t, "interrupted_ns", REQ, &s->interrupted_ns);
	u64_at(l, t, "own_bh", 0, &s->own_bh);
	u64_at(l, t, "own_bh_ns", 0, &s->own_bh_ns);
	s->syscalls_traced = true; /* files from before the option counted them always */
	bool_at(l, t, "syscalls_traced", 0, &s->syscalls_traced);
	u64_at(l, t, "blocked", REQ, &s->blocked);
	u64_at(l, t, "blocked_ns", REQ, &s->blocked_ns);
	u64_at(l, t, "faults", REQ, &s->faults);
	u64_at(l, t, "migrations", REQ, &s->migrations);
	u64_at(l, t, "short_gaps", REQ, &s->short_gaps);
	u64_at(l, t, "short_ns", REQ, &s->short_ns);
	bool_at(l, t, "exited", REQ, &s->exited);
	a = get(l, t, "ran_on", JSONP_ARR, REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		int64_t c = -1;

		if (jsonp_i64(&a->arr.v[i], &c) || c < 0 || c >= 64)
			lfail(l, &a->arr.v[i], "ran_on", "element %zu is not a CPU below 64", i);
		else
			s->cpus_mask |= 1ull << c;
	}
	pop(l, mark);
}

/* load_ties - the findings its causes tie to (absent: a file written before them, none) */
static void load_ties(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r, bool *tied)
{
	const struct jsonp_val *a = get(l, o, "explained_by_checks", JSONP_ARR, 0);
	size_t mark = push(l, ".explained_by_checks");

	*tied |= a != NULL;
	for (size_t i = 0; a && i < a->arr.n && r->nties < AUDIT_TIES_MAX && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i], *c;
		struct audit_tie *t = &r->ties[r->nties++];
		size_t m2 = push(l, "[%zu]", i);

		if (!jsonp_is(v, JSONP_OBJ)) {
			lfail(l, v, NULL, "expected an object");
			break;
		}
		str_at(l, v, "check", REQ, t->check, sizeof(t->check));
		u64_at(l, v, "ns", REQ, &t->ns);
		c = get(l, v, "causes", JSONP_ARR, REQ);
		for (size_t k = 0; c && k < c->arr.n; k++) {
			int x = jsonp_is(&c->arr.v[k], JSONP_STR) ?
					js_cause_from_name(c->arr.v[k].str.s) :
					-1;

			if (x >= 0 && x < 32)
				t->causes |= 1u << x;
		}
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_cpu(struct ld *l, const struct jsonp_val *o, struct js_cpu_result *r, uint32_t res,
		     struct js_run *run, struct js_run_cfg *p)
{
	int src;

	causes_init(&r->causes);
	cbuckets_init(&r->cb);
	load_cpu_counts(l, o, r, run);
	/* its array says where its gaps come from; "source", when there, must agree */
	src = jsonp_get(o, "source") ? name_at(l, o, "source", js_source_from_name) :
				       (int)r->source;
	if (!l->rc && src != (int)r->source)
		lfail(l, jsonp_get(o, "source"), "source", "%s in the array of %s results",
		      js_source_name(src), js_source_name(r->source));
	if (r->source == JS_SRC_THREAD)
		load_thread(l, o, r);
	r->causes.cpu = (uint32_t)r->cpu;
	r->causes.ngaps = r->gap_count;
	r->causes.lost_ns = r->lost_ns;
	decode_hist(l, o, "hist_hdr_b64", REQ, &r->hist);
	if (!l->rc && r->hist.total != r->gap_count)
		lfail(l, jsonp_get(o, "hist_hdr_b64"), "hist_hdr_b64",
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
static void load_results(struct ld *l, const struct jsonp_val *a, enum js_source src,
			 struct js_run *run, struct js_run_cfg *p)
{
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t mark = push(l, ".%s[%zu]", js_result_array[src], i);
		struct js_cpu_result *r = &run->cpus[run->ncpus];

		run->ncpus++; /* counted first: report_load_free frees a partial one */
		r->source = src;
		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ))
			lfail(l, &a->arr.v[i], NULL, "expected an object");
		else
			load_cpu(l, &a->arr.v[i], r, (uint32_t)(run->ncpus - 1), run, p);
		pop(l, mark);
	}
}

/* load_cpus - every result: "cpus" (the samplers'), then "threads" and "marks" (absent in
 * files written before them); at least one in all */
static void load_cpus(struct ld *l, const struct jsonp_val *root, struct js_run *run,
		      struct js_run_cfg *p)
{
	const struct jsonp_val *a[JS_SRC_MAX];
	size_t n = 0;

	for (int src = 0; src < JS_SRC_MAX; src++) {
		a[src] = get(l, root, js_result_array[src], JSONP_ARR, src ? 0 : REQ);
		n += a[src] ? a[src]->arr.n : 0;
	}
	if (l->rc)
		return;
	if (!n || n > JS_CPUS_MAX) {
		lfail(l, a[0], "cpus", "%zu results (expected 1 to %d in cpus, threads and marks)",
		      n, JS_CPUS_MAX);
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

static void cpuset_at(struct ld *l, const struct jsonp_val *o, const char *key, struct js_cpuset *s)
{
	const struct jsonp_val *v = get(l, o, key, JSONP_STR, 0);
	char e[96];

	cpuset_zero(s);
	if (v && cpulist_parse_n(v->str.s, s, -1, true, e, sizeof(e)))
		lfail(l, v, key, "not a CPU list: %s", e);
}

static void load_facts(struct ld *l, const struct jsonp_val *a, struct audit_facts *f)
{
	const struct jsonp_val *o = get(l, a, "facts", JSONP_OBJ, REQ);
	size_t mark = push(l, ".facts");
	int64_t rt = INT64_MIN;

	memset(f, 0, sizeof(*f));
	/* what the JSON does not carry stays unknown */
	f->nohz_full_capable = f->rcu_nocb_capable = f->stat_interval = -1;
	f->timer_migration = f->nmi_watchdog = f->watchdog = f->soft_watchdog = -1;
	f->numa_balancing = f->ksm_run = f->khugepaged_defrag = -1;
	f->swap_devices = f->swappiness = -1;
	str_at(l, o, "kernel_release", REQ, f->release, sizeof(f->release));
	str_at(l, o, "kernel_version", 0, f->version, sizeof(f->version));
	bool_at(l, o, "hypervisor", 0, &f->hypervisor);
	int_at(l, o, "hz", NUL, 0, 100000, &f->hz);
	str_at(l, o, "preempt", 0, f->preempt, sizeof(f->preempt));
	int_at(l, o, "nohz_full_capable", NUL, -1, 1, &f->nohz_full_capable);
	i64_at(l, o, "sched_rt_runtime_us", NUL, &rt);
	f->rt_runtime_us = rt;
	f->rt_period_us = INT64_MIN;
	int_at(l, o, "stat_interval", NUL, -1, INT32_MAX, &f->stat_interval);
	bool_at(l, o, "irqbalance_running", 0, &f->irqbalance_running);
	str_at(l, o, "clocksource", 0, f->clocksource, sizeof(f->clocksource));
	bool_at(l, o, "invariant_tsc", 0, &f->invariant_tsc);
	str_at(l, o, "thp_enabled", 0, f->thp_enabled, sizeof(f->thp_enabled));
	str_at(l, o, "thp_defrag", 0, f->thp_defrag, sizeof(f->thp_defrag));
	cpuset_at(l, o, "online", &f->online);
	cpuset_at(l, o, "isolated", &f->isolated);
	cpuset_at(l, o, "nohz_full", &f->nohz_full);
	cpuset_at(l, o, "rcu_nocbs", &f->rcu_nocbs);
	cpuset_at(l, o, "default_irq_affinity", &f->default_irq_affinity);
	cpuset_at(l, o, "unbound_workqueue_cpumask", &f->unbound_wq);
	str_at(l, o, "cmdline", 0, f->cmdline, sizeof(f->cmdline));
	pop(l, mark);
}

static void load_check(struct ld *l, const struct jsonp_val *v, struct audit_check *c)
{
	int x;

	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	str_at(l, v, "id", REQ, c->id, sizeof(c->id));
	x = name_at(l, v, "verdict", audit_verdict_from_name);
	c->verdict = x < 0 ? AUDIT_SKIP : (enum audit_verdict)x;
	x = name_at(l, v, "severity", audit_severity_from_name);
	c->severity = x < 0 ? SEV_INFO : (enum audit_severity)x;
	int_at(l, v, "cpu", REQ | NUL, 0, JS_CPUS_MAX - 1, &c->cpu);
	str_at(l, v, "observed", REQ, c->observed, sizeof(c->observed));
	str_at(l, v, "expected", REQ, c->expected, sizeof(c->expected));
	str_at(l, v, "source", REQ, c->source, sizeof(c->source));
	str_at(l, v, "hint", REQ, c->hint, sizeof(c->hint));
}

/* objs - the array key of o, each element checked to be an object; NULL if absent */
static const struct jsonp_val *objs(struct ld *l, const struct jsonp_val *o, const char *key,
				    unsigned flags)
{
	const struct jsonp_val *a = get(l, o, key, JSONP_ARR, flags);

	for (size_t i = 0; a && i < a->arr.n; i++)
		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ)) {
			lfail(l, &a->arr.v[i], key, "element %zu is not an object", i);
			return NULL;
		}
	return a;
}

static void load_checks(struct ld *l, const struct jsonp_val *o, struct js_audit *a)
{
	const struct jsonp_val *c = objs(l, o, "checks", REQ);
	size_t mark = push(l, ".checks");

	if (c && c->arr.n) {
		a->checks = calloc(c->arr.n, sizeof(*a->checks));
		if (!a->checks)
			l->rc = -ENOMEM;
		a->cap = c->arr.n;
	}
	for (size_t i = 0; a->checks && i < c->arr.n && !l->rc; i++) {
		size_t m2 = push(l, "[%zu]", i);

		load_check(l, &c->arr.v[i], &a->checks[a->n++]);
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_irq(struct ld *l, const struct jsonp_val *v, const struct js_audit *a,
		     struct audit_irq *q)
{
	const struct jsonp_val *cnt;

	int_at(l, v, "irq", REQ, 0, INT32_MAX, &q->irq);
	str_at(l, v, "name", REQ, q->name, sizeof(q->name));
	cpuset_at(l, v, "effective", &q->effective);
	cpuset_at(l, v, "requested", &q->requested);
	q->has_effective = true;
	q->count = calloc(a->ncpus ? a->ncpus : 1, sizeof(*q->count));
	if (!q->count) {
		l->rc = -ENOMEM;
		return;
	}
	cnt = get(l, v, "count", JSONP_OBJ, REQ);
	for (size_t i = 0; cnt && i < a->ncpus; i++) {
		char key[16];

		snprintf(key, sizeof(key), "cpu%d", a->cpus[i]);
		u64_at(l, cnt, key, 0, &q->count[i]);
	}
}

static void load_irqs(struct ld *l, const struct jsonp_val *o, struct js_audit *a)
{
	const struct jsonp_val *q = objs(l, o, "irqs", 0);
	size_t mark = push(l, ".irqs");

	if (q && q->arr.n) {
		a->irqs = calloc(q->arr.n, sizeof(*a->irqs));
		if (!a->irqs)
			l->rc = -ENOMEM;
	}
	for (size_t i = 0; a->irqs && i < q->arr.n && !l->rc; i++) {
		size_t m2 = push(l, "[%zu]", i);

		load_irq(l, &q->arr.v[i], a, &a->irqs[a->nirqs++]);
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_audit(struct ld *l, const struct jsonp_val *o, struct js_audit *a)
{
	int cpus[JS_CPUS_MAX];
	size_t n = 0;
	uint64_t el = 0;

	memset(a, 0, sizeof(*a));
	cpu_list(l, o, "cpus", cpus, &n);
	a->cpus = calloc(n ? n : 1, sizeof(*a->cpus));
	a->cpu = calloc(n ? n : 1, sizeof(*a->cpu));
	if (!a->cpus || !a->cpu) {
		l->rc = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		a->cpus[i] = a->cpu[i].cpu = cpus[i];
		a->cpu[i].node = -1;
		a->cpu[i].deepest_cstate_us = -1;
	}
	a->ncpus = n;
	str_at(l, o, "sysroot", REQ | NUL, a->sysroot, sizeof(a->sysroot));
	u64_at(l, o, "elapsed_ns", 0, &el);
	a->elapsed_ns = el;
	load_facts(l, o, &a->f);
	load_checks(l, o, a);
	load_irqs(l, o, a);
}

/* delta_row - the merged row for (key, kind), inserted after row *prev if new */
static struct audit_delta_row *delta_row(struct audit_deltas *d, size_t *cap, const char *key,
					 int kind, size_t *prev)
{
	struct audit_delta_row *r;
	size_t at;

	for (size_t i = 0; i < d->nrows; i++)
		if ((int)d->rows[i].kind == kind && !strcmp(d->rows[i].key, key)) {
			*prev = i + 1;
			return &d->rows[i];
		}
	if (d->nrows == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		void *nr = realloc(d->rows, nc * sizeof(*d->rows));

		if (!nr)
			return NULL;
		d->rows = nr;
		*cap = nc;
	}
	at = *prev;
	memmove(&d->rows[at + 1], &d->rows[at], (d->nrows - at) * sizeof(*r));
	r = &d->rows[at];
	memset(r, 0, sizeof(*r));
	d->nrows++;
	*prev = at + 1;
	r->delta = calloc(d->ncpus ? d->ncpus : 1, sizeof(*r->delta));
	js_scpy(r->key, sizeof(r->key), key);
	r->kind = (enum audit_row_kind)kind;
	r->irq = -1;
	return r->delta ? r : NULL;
}

/* load_delta_rows - CPU k's rows, merged into one row list that keeps every CPU's order */
static void load_delta_rows(struct ld *l, const struct jsonp_val *rows, struct audit_deltas *d,
			    size_t k, size_t *cap)
{
	size_t prev = 0, mark = push(l, ".rows");

	for (size_t i = 0; rows && i < rows->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &rows->arr.v[i];
		struct audit_delta_row *r;
		size_t m2 = push(l, "[%zu]", i);
		char key[16] = "";
		uint64_t delta = 0;
		int kind;

		str_at(l, v, "key", REQ, key, sizeof(key));
		kind = name_at(l, v, "kind", audit_row_kind_from_name);
		u64_at(l, v, "delta", REQ, &delta);
		if (l->rc)
			break;
		r = delta_row(d, cap, key, kind, &prev);
		if (!r) {
			l->rc = -ENOMEM;
			break;
		}
		str_at(l, v, "name", REQ, r->name, sizeof(r->name));
		int_at(l, v, "irq", 0, -1, INT32_MAX, &r->irq);
		r->delta[k] = delta;
		r->total += delta;
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_aff_changes(struct ld *l, const struct jsonp_val *o, struct audit_deltas *d)
{
	const struct jsonp_val *a = objs(l, o, "affinity_changes", REQ);
	size_t mark = push(l, ".affinity_changes");

	if (a && a->arr.n) {
		d->changes = calloc(a->arr.n, sizeof(*d->changes));
		if (!d->changes)
			l->rc = -ENOMEM;
	}
	for (size_t i = 0; d->changes && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct audit_aff_change *c = &d->changes[d->nchanges++];
		size_t m2 = push(l, "[%zu]", i);

		int_at(l, v, "irq", REQ, 0, INT32_MAX, &c->irq);
		str_at(l, v, "name", REQ, c->name, sizeof(c->name));
		cpuset_at(l, v, "before", &c->before);
		cpuset_at(l, v, "after", &c->after);
		bool_at(l, v, "touches_measured_cpu", REQ, &c->touches);
		pop(l, m2);
	}
	pop(l, mark);
}

static void load_deltas(struct ld *l, const struct jsonp_val *o, struct audit_deltas *d)
{
	const struct jsonp_val *cpus = objs(l, o, "cpus", REQ);
	size_t cap = 0, mark = push(l, ".cpus");

	memset(d, 0, sizeof(*d));
	dbl_at(l, o, "seconds", REQ, &d->seconds);
	if (!cpus)
		goto out;
	d->cpus = calloc(cpus->arr.n ? cpus->arr.n : 1, sizeof(*d->cpus));
	if (!d->cpus) {
		l->rc = -ENOMEM;
		goto out;
	}
	d->ncpus = cpus->arr.n;
	for (size_t k = 0; k < cpus->arr.n && !l->rc; k++) {
		size_t m2 = push(l, "[%zu]", k);

		int_at(l, &cpus->arr.v[k], "cpu", REQ, 0, JS_CPUS_MAX - 1, &d->cpus[k]);
		load_delta_rows(l, objs(l, &cpus->arr.v[k], "rows", REQ), d, k, &cap);
		pop(l, m2);
	}
out:
	pop(l, mark);
	load_aff_changes(l, o, d);
}

static void load_xcheck(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *a = get(l, root, "explained_by_settings", JSONP_ARR, REQ);

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
			lfail(l, v, "explained_by_settings", "element %zu is not a string", i);
		else
			latin1(run->xcheck[run->nxcheck++], AUDIT_LINE_LEN, v->str.s, v->str.len);
	}
}

/* load_extras - what a run has beyond its CPUs: the audit and its companions */
/* load_follow - --pid/--tid: what was followed (absent or null: nothing) */
static void load_follow(struct ld *l, const struct jsonp_val *root, struct js_follow_info *f)
{
	const struct jsonp_val *o = get(l, root, "follow", JSONP_OBJ, NUL), *a;
	size_t mark = push(l, ".follow");
	int64_t pid = 0;

	if (!o)
		goto out;
	f->on = true;
	i64_at(l, o, "pid", REQ | NUL, &pid);
	f->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
	a = get(l, o, "tids", JSONP_ARR, REQ);
	for (size_t i = 0; a && i < a->arr.n && i < JS_FOLLOW_TIDS_MAX && !l->rc; i++) {
		int64_t t = 0;

		if (jsonp_i64(&a->arr.v[i], &t) || t <= 0 || t > INT32_MAX)
			lfail(l, &a->arr.v[i], "tids", "element %zu is not a thread id", i);
		else
			f->tids[f->ntids++] = (int)t;
	}
	str_at(l, o, "comm", REQ, f->comm, sizeof(f->comm));
	bool_at(l, o, "exited", REQ, &f->exited);
	u64_at(l, o, "exit_ns", NUL, &f->exit_ns);
	u64_at(l, o, "threads_seen", REQ, &f->threads_seen);
	u64_at(l, o, "threads_over", REQ, &f->threads_over);
	u64_at(l, o, "unwatched_gaps", REQ, &f->unwatched_gaps);
	u64_at(l, o, "lost", REQ, &f->lost);
out:
	pop(l, mark);
}

/* load_command - -- CMD: what ran and how it ended (absent or null: none) */
static void load_command(struct ld *l, const struct jsonp_val *root, struct js_cmd_info *c)
{
	const struct jsonp_val *o = get(l, root, "command", JSONP_OBJ, NUL);
	size_t mark = push(l, ".command");
	char mode[8] = "";
	int64_t pid = 0, status = -1, sig = 0;

	if (!o)
		goto out;
	c->on = true;
	str_at(l, o, "line", REQ, c->line, sizeof(c->line));
	i64_at(l, o, "pid", REQ, &pid);
	c->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
	str_at(l, o, "mode", REQ, mode, sizeof(mode));
	c->followed = !strcmp(mode, "follow");
	bool_at(l, o, "exited", REQ, &c->exited);
	i64_at(l, o, "exit_status", REQ | NUL, &status);
	c->exit_status = status >= 0 && status <= 255 ? (int)status : -1;
	i64_at(l, o, "signal", REQ | NUL, &sig);
	c->signal = sig > 0 && sig < 128 ? (int)sig : 0;
	u64_at(l, o, "start_ns", REQ, &c->start_ns);
	u64_at(l, o, "exit_ns", REQ | NUL, &c->exit_ns);
out:
	pop(l, mark);
}

/* load_idle_states - --deepest-idle-state: the states disabled (absent or null: not asked) */
static void load_idle_states(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *o = get(l, root, "idle_states", JSONP_OBJ, NUL), *a;
	size_t mark = push(l, ".idle_states");

	if (!o)
		goto out;
	run->cfg.idle_limit = true;
	int_at(l, o, "deepest", REQ, 0, INT32_MAX, &run->cfg.deepest_idle_state);
	a = get(l, o, "disabled", JSONP_ARR, REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		char name[JS_IDLE_NAME_LEN] = "";
		int cpu = 0, state = 0;

		int_at(l, v, "cpu", REQ, 0, JS_CPUS_MAX - 1, &cpu);
		int_at(l, v, "state", REQ, 0, INT32_MAX, &state);
		str_at(l, v, "name", REQ, name, sizeof(name));
		if (!l->rc && idle_states_add(&run->idle, cpu, state, 0, name))
			lfail(l, v, "disabled", "out of memory");
	}
	bool_at(l, o, "restored", REQ, &run->idle.restored);
	str_at(l, o, "why_not", REQ | NUL, run->idle_why, sizeof(run->idle_why));
out:
	pop(l, mark);
}

/* load_marks_file - --marks: what was read (absent or null: no marks) */
static void load_marks_file(struct ld *l, const struct jsonp_val *root, struct js_marks_info *m)
{
	const struct jsonp_val *o = get(l, root, "marks_file", JSONP_OBJ, NUL), *a;
	size_t mark = push(l, ".marks_file");
	char type[8] = "";

	if (!o)
		goto out;
	m->on = true;
	str_at(l, o, "path", REQ, m->path, sizeof(m->path));
	str_at(l, o, "type", REQ, type, sizeof(type));
	m->fifo = !strcmp(type, "fifo");
	u64_at(l, o, "lines", REQ, &m->lines);
	u64_at(l, o, "marks", REQ, &m->marks);
	u64_at(l, o, "malformed", REQ, &m->malformed);
	u64_at(l, o, "late", REQ, &m->late);
	u64_at(l, o, "early", REQ, &m->early);
	u64_at(l, o, "truncated", REQ, &m->truncated);
	a = objs(l, o, "malformed_lines", REQ);
	for (size_t i = 0; a && i < a->arr.n && i < JS_MARKS_BAD_MAX && !l->rc; i++) {
		u64_at(l, &a->arr.v[i], "line", REQ, &m->bad[i].line);
		str_at(l, &a->arr.v[i], "why", REQ, m->bad[i].why, sizeof(m->bad[i].why));
		m->nbad++;
	}
out:
	pop(l, mark);
}

static void load_extras(struct ld *l, const struct jsonp_val *root, struct js_run *run)
{
	const struct jsonp_val *v = get(l, root, "audit", JSONP_OBJ, 0);
	size_t mark;

	if (v) {
		mark = push(l, ".audit");
		run->audited = true;
		load_audit(l, v, &run->audit);
		pop(l, mark);
	}
	v = get(l, root, "counter_deltas", JSONP_OBJ, 0);
	if (v) {
		mark = push(l, ".counter_deltas");
		run->have_deltas = true;
		load_deltas(l, v, &run->deltas);
		pop(l, mark);
	}
	load_xcheck(l, root, run);
}

/* check_header - a jitterscope run of a schema we read */
static void check_header(struct ld *l, const struct jsonp_val *root)
{
	const struct jsonp_val *tool, *kind;
	uint64_t ver = 0;

	if (!jsonp_is(root, JSONP_OBJ)) {
		lfail(l, root, NULL, "not a jitterscope run: the document is %s %s, not an object",
		      a_type(root->type), jsonp_type_name(root->type));
		return;
	}
	tool = jsonp_get(root, "tool");
	if (!jsonp_get(root, "schema_version") || !jsonp_str(tool) ||
	    strcmp(jsonp_str(tool), "jitterscope")) {
		lfail(l, NULL, NULL,
		      "not a jitterscope run (no \"schema_version\" and \"tool\": "
		      "\"jitterscope\")");
		return;
	}
	u64_at(l, root, "schema_version", REQ, &ver);
	if (!l->rc && (ver < JS_SCHEMA_VERSION_MIN || ver > JS_SCHEMA_VERSION))
		lfail(l, jsonp_get(root, "schema_version"), "schema_version",
		      "%llu is not supported (this jitterscope reads %d to %d)",
		      (unsigned long long)ver, JS_SCHEMA_VERSION_MIN, JS_SCHEMA_VERSION);
	l->schema = ver;
	kind = jsonp_get(root, "kind");
	if (!l->rc && jsonp_str(kind))
		lfail(l, kind, NULL, "a jitterscope %.20s document, not a run", jsonp_str(kind));
	if (!l->rc && !jsonp_get(root, "cpus") && jsonp_get(root, "audit"))
		lfail(l, NULL, NULL, "written by `jitterscope check` (an audit, no measurement)");
}

/* report_load_doc - a parsed document into run */
int report_load_doc(const struct jsonp_val *root, struct js_run *run, char *err, size_t errlen)
{
	struct ld l = { .err = err, .errlen = errlen };
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
	l.cg = run->cgroups;
	l.stacks = &run->stacks;
	check_header(&l, root);
	bool_at(&l, root, "interrupted", REQ, &run->interrupted);
	str_at(&l, root, "stop_reason", NUL, run->stop_why, sizeof(run->stop_why));
	load_ended_by(&l, root, run);
	u64_at(&l, root, "wall_ns", REQ, &run->wall_ns);
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
