// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_json.c - the audit and the counter deltas in a saved run's JSON: each object's
 * writer beside its reader (js_audit.h), so that a key is added in one place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_json.h"
#include "js_jsonfield.h"
#include "js_jsonread.h"
#include "js_run_cfg.h"
#include "js_util.h"

/* the keys both a writer and a reader below name, each spelled once */
#define K_AFFINITY_CHANGES "affinity_changes"
#define K_AFTER "after"
#define K_BEFORE "before"
#define K_CHECKS "checks"
#define K_CMDLINE "cmdline"
#define K_COUNT "count"
#define K_CPU "cpu"
#define K_CPUS "cpus"
#define K_DEFAULT_IRQ_AFFINITY "default_irq_affinity"
#define K_DELTA "delta"
#define K_EFFECTIVE "effective"
#define K_ELAPSED_NS "elapsed_ns"
#define K_FACTS "facts"
#define K_HZ "hz"
#define K_ID "id"
#define K_IRQ "irq"
#define K_IRQS "irqs"
#define K_ISOLATED "isolated"
#define K_KEY "key"
#define K_KIND "kind"
#define K_NAME "name"
#define K_NOHZ_FULL "nohz_full"
#define K_NOHZ_FULL_CAPABLE "nohz_full_capable"
#define K_ONLINE "online"
#define K_PREEMPT "preempt"
#define K_RCU_NOCBS "rcu_nocbs"
#define K_REQUESTED "requested"
#define K_ROWS "rows"
#define K_SCHED_RT_RUNTIME_US "sched_rt_runtime_us"
#define K_SECONDS "seconds"
#define K_SEVERITY "severity"
#define K_STAT_INTERVAL "stat_interval"
#define K_SYSROOT "sysroot"
#define K_TOUCHES_MEASURED_CPU "touches_measured_cpu"
#define K_UNBOUND_WORKQUEUE_CPUMASK "unbound_workqueue_cpumask"
#define K_VERDICT "verdict"

static void json_set(struct js_json *j, const char *key, const struct js_cpuset *s)
{
	char buf[512];

	cpulist_format(s, buf, sizeof(buf));
	json_str(j, key, buf);
}

/* json_int_or_null - -1 (unknown) as null */
static void json_int_or_null(struct js_json *j, const char *key, long long v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

/* the facts the JSON carries, in two runs around the numbers and sets said by hand */
static const struct json_field facts_kernel[] = {
	JSON_FIELD_KEY("kernel_release", struct audit_facts, release, STR, JF_REQ),
	JSON_FIELD_KEY("kernel_version", struct audit_facts, version, STR, 0),
	JSON_FIELD(struct audit_facts, hypervisor, BOOL, 0),
};
static const struct json_field facts_clock_thp[] = {
	JSON_FIELD(struct audit_facts, irqbalance_running, BOOL, 0),
	JSON_FIELD(struct audit_facts, clocksource, STR, 0),
	JSON_FIELD(struct audit_facts, invariant_tsc, BOOL, 0),
	JSON_FIELD(struct audit_facts, thp_enabled, STR, 0),
	JSON_FIELD(struct audit_facts, thp_defrag, STR, 0),
};

static void write_facts(struct js_json *j, const struct js_audit *a)
{
	const struct audit_facts *f = &a->f;

	json_obj_begin(j, K_FACTS);
	json_fields_write(j, facts_kernel, ARRAY_SIZE(facts_kernel), f);
	json_int_or_null(j, K_HZ, f->hz ? f->hz : -1);
	json_str(j, K_PREEMPT, f->preempt);
	json_int_or_null(j, K_NOHZ_FULL_CAPABLE, f->nohz_full_capable);
	if (f->rt_runtime_us == INT64_MIN)
		json_null(j, K_SCHED_RT_RUNTIME_US);
	else
		json_i64(j, K_SCHED_RT_RUNTIME_US, f->rt_runtime_us);
	json_int_or_null(j, K_STAT_INTERVAL, f->stat_interval);
	json_fields_write(j, facts_clock_thp, ARRAY_SIZE(facts_clock_thp), f);
	json_set(j, K_ONLINE, &f->online);
	json_set(j, K_ISOLATED, &f->isolated);
	json_set(j, K_NOHZ_FULL, &f->nohz_full);
	json_set(j, K_RCU_NOCBS, &f->rcu_nocbs);
	json_set(j, K_DEFAULT_IRQ_AFFINITY, &f->default_irq_affinity);
	json_set(j, K_UNBOUND_WORKQUEUE_CPUMASK, &f->unbound_wq);
	json_str(j, K_CMDLINE, f->cmdline);
	json_obj_end(j);
}

/* a check's texts, after its id, verdict, severity and CPU */
static const struct json_field check_texts[] = {
	JSON_FIELD(struct audit_check, observed, STR, JF_REQ),
	JSON_FIELD(struct audit_check, expected, STR, JF_REQ),
	JSON_FIELD(struct audit_check, source, STR, JF_REQ),
	JSON_FIELD(struct audit_check, hint, STR, JF_REQ),
};

static void write_check(struct js_json *j, const struct audit_check *c)
{
	json_obj_begin(j, NULL);
	json_str(j, K_ID, c->id);
	json_str(j, K_VERDICT, audit_verdict_name(c->verdict));
	json_str(j, K_SEVERITY, audit_severity_name(c->severity));
	if (c->cpu >= 0)
		json_i64(j, K_CPU, c->cpu);
	else
		json_null(j, K_CPU);
	json_fields_write(j, check_texts, ARRAY_SIZE(check_texts), c);
	json_bool(j, "waived", c->waived);
	json_obj_end(j);
}

static void write_irqs(struct js_json *j, const struct js_audit *a)
{
	json_arr_begin(j, K_IRQS);
	for (size_t k = 0; k < a->nirqs; k++) {
		const struct audit_irq *q = &a->irqs[k];
		bool on = false;

		for (size_t i = 0; i < a->ncpus; i++)
			on |= cpuset_isset(&q->effective, a->cpus[i]);
		if (!on)
			continue;
		json_obj_begin(j, NULL);
		json_i64(j, K_IRQ, q->irq);
		json_str(j, K_NAME, q->name);
		json_set(j, K_EFFECTIVE, &q->effective);
		json_set(j, K_REQUESTED, &q->requested);
		json_obj_begin(j, K_COUNT);
		for (size_t i = 0; i < a->ncpus; i++) {
			char key[16];

			snprintf(key, sizeof(key), "cpu%d", a->cpus[i]);
			json_u64(j, key, q->count[i]);
		}
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* audit_write_json - the audit as a JSON object under key (NULL inside an array) */
void audit_write_json(struct js_json *j, const char *key, const struct js_audit *a)
{
	json_obj_begin(j, key);
	json_arr_begin(j, K_CPUS);
	for (size_t i = 0; i < a->ncpus; i++)
		json_i64(j, NULL, a->cpus[i]);
	json_arr_end(j);
	if (a->sysroot[0])
		json_str(j, K_SYSROOT, a->sysroot);
	else
		json_null(j, K_SYSROOT);
	json_u64(j, K_ELAPSED_NS, a->elapsed_ns);
	json_obj_begin(j, "summary");
	for (int v = 0; v < AUDIT_NVERDICTS; v++)
		json_u64(j, audit_verdict_name(v), audit_count(a, v));
	json_u64(j, "waived", audit_count_waived(a));
	json_obj_end(j);
	write_facts(j, a);
	json_arr_begin(j, K_CHECKS);
	for (size_t i = 0; i < a->n; i++)
		write_check(j, &a->checks[i]);
	json_arr_end(j);
	write_irqs(j, a);
	json_obj_end(j);
}

/* audit_deltas_write_json - the deltas as a JSON object under key */
void audit_deltas_write_json(struct js_json *j, const char *key, const struct audit_deltas *d)
{
	char a[256];

	json_obj_begin(j, key);
	json_dbl(j, K_SECONDS, d->seconds);
	json_arr_begin(j, K_CPUS);
	for (size_t k = 0; k < d->ncpus; k++) {
		json_obj_begin(j, NULL);
		json_i64(j, K_CPU, d->cpus[k]);
		json_arr_begin(j, K_ROWS);
		for (size_t i = 0; i < d->nrows; i++) {
			const struct audit_delta_row *r = &d->rows[i];

			if (!r->delta[k])
				continue;
			json_obj_begin(j, NULL);
			json_str(j, K_KEY, r->key);
			json_str(j, K_NAME, r->name);
			json_str(j, K_KIND, audit_row_kind_name(r->kind));
			if (r->irq >= 0)
				json_i64(j, K_IRQ, r->irq);
			json_u64(j, K_DELTA, r->delta[k]);
			json_dbl(j, "per_s", d->seconds > 0 ? r->delta[k] / d->seconds : 0);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, K_AFFINITY_CHANGES);
	for (size_t i = 0; i < d->nchanges; i++) {
		const struct audit_aff_change *c = &d->changes[i];

		json_obj_begin(j, NULL);
		json_i64(j, K_IRQ, c->irq);
		json_str(j, K_NAME, c->name);
		cpulist_format(&c->before, a, sizeof(a));
		json_str(j, K_BEFORE, a);
		cpulist_format(&c->after, a, sizeof(a));
		json_str(j, K_AFTER, a);
		json_bool(j, K_TOUCHES_MEASURED_CPU, c->touches);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* ---- the readers ---- */

static void cpuset_at(struct jr *l, const struct jsonp_val *o, const char *key, struct js_cpuset *s)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_STR, 0);
	char e[96];

	cpuset_zero(s);
	if (v && cpulist_parse_n(v->str.s, s, -1, true, e, sizeof(e)))
		jr_fail(l, v, key, "not a CPU list: %s", e);
}

static void load_facts(struct jr *l, const struct jsonp_val *a, struct audit_facts *f)
{
	const struct jsonp_val *o = jr_get(l, a, K_FACTS, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, "." K_FACTS);
	int64_t rt = INT64_MIN;

	memset(f, 0, sizeof(*f));
	/* what the JSON does not carry stays unknown */
	f->nohz_full_capable = f->rcu_nocb_capable = f->stat_interval = -1;
	f->timer_migration = f->nmi_watchdog = f->watchdog = f->soft_watchdog = -1;
	f->numa_balancing = f->ksm_run = f->khugepaged_defrag = -1;
	f->swap_devices = f->swappiness = -1;
	jr_fields(l, o, facts_kernel, ARRAY_SIZE(facts_kernel), f);
	jr_int(l, o, K_HZ, JR_NUL, 0, 100000, &f->hz);
	jr_str(l, o, K_PREEMPT, 0, f->preempt, sizeof(f->preempt));
	jr_int(l, o, K_NOHZ_FULL_CAPABLE, JR_NUL, -1, 1, &f->nohz_full_capable);
	jr_i64(l, o, K_SCHED_RT_RUNTIME_US, JR_NUL, &rt);
	f->rt_runtime_us = rt;
	f->rt_period_us = INT64_MIN;
	jr_int(l, o, K_STAT_INTERVAL, JR_NUL, -1, INT32_MAX, &f->stat_interval);
	jr_fields(l, o, facts_clock_thp, ARRAY_SIZE(facts_clock_thp), f);
	cpuset_at(l, o, K_ONLINE, &f->online);
	cpuset_at(l, o, K_ISOLATED, &f->isolated);
	cpuset_at(l, o, K_NOHZ_FULL, &f->nohz_full);
	cpuset_at(l, o, K_RCU_NOCBS, &f->rcu_nocbs);
	cpuset_at(l, o, K_DEFAULT_IRQ_AFFINITY, &f->default_irq_affinity);
	cpuset_at(l, o, K_UNBOUND_WORKQUEUE_CPUMASK, &f->unbound_wq);
	jr_str(l, o, K_CMDLINE, 0, f->cmdline, sizeof(f->cmdline));
	jr_pop(l, mark);
}

static void load_check(struct jr *l, const struct jsonp_val *v, struct audit_check *c)
{
	int x;

	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	jr_str(l, v, K_ID, JR_REQ, c->id, sizeof(c->id));
	x = jr_name(l, v, K_VERDICT, audit_verdict_from_name);
	c->verdict = x < 0 ? AUDIT_SKIP : (enum audit_verdict)x;
	x = jr_name(l, v, K_SEVERITY, audit_severity_from_name);
	c->severity = x < 0 ? SEV_INFO : (enum audit_severity)x;
	jr_int(l, v, K_CPU, JR_REQ | JR_NUL, 0, JS_CPUS_MAX - 1, &c->cpu);
	jr_fields(l, v, check_texts, ARRAY_SIZE(check_texts), c);
}

static void load_checks(struct jr *l, const struct jsonp_val *o, struct js_audit *a)
{
	const struct jsonp_val *c = jr_objs(l, o, K_CHECKS, JR_REQ);
	size_t mark = jr_push(l, "." K_CHECKS);

	if (c && c->arr.n) {
		a->checks = calloc(c->arr.n, sizeof(*a->checks));
		if (!a->checks)
			l->rc = -ENOMEM;
		a->cap = c->arr.n;
	}
	for (size_t i = 0; a->checks && i < c->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "[%zu]", i);

		load_check(l, &c->arr.v[i], &a->checks[a->n++]);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_irq(struct jr *l, const struct jsonp_val *v, const struct js_audit *a,
		     struct audit_irq *q)
{
	const struct jsonp_val *cnt;

	jr_int(l, v, K_IRQ, JR_REQ, 0, INT32_MAX, &q->irq);
	jr_str(l, v, K_NAME, JR_REQ, q->name, sizeof(q->name));
	cpuset_at(l, v, K_EFFECTIVE, &q->effective);
	cpuset_at(l, v, K_REQUESTED, &q->requested);
	q->has_effective = true;
	q->count = calloc(a->ncpus ? a->ncpus : 1, sizeof(*q->count));
	if (!q->count) {
		l->rc = -ENOMEM;
		return;
	}
	cnt = jr_get(l, v, K_COUNT, JSONP_OBJ, JR_REQ);
	for (size_t i = 0; cnt && i < a->ncpus; i++) {
		char key[16];

		snprintf(key, sizeof(key), "cpu%d", a->cpus[i]);
		jr_u64(l, cnt, key, 0, &q->count[i]);
	}
}

static void load_irqs(struct jr *l, const struct jsonp_val *o, struct js_audit *a)
{
	const struct jsonp_val *q = jr_objs(l, o, K_IRQS, 0);
	size_t mark = jr_push(l, "." K_IRQS);

	if (q && q->arr.n) {
		a->irqs = calloc(q->arr.n, sizeof(*a->irqs));
		if (!a->irqs)
			l->rc = -ENOMEM;
	}
	for (size_t i = 0; a->irqs && i < q->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "[%zu]", i);

		load_irq(l, &q->arr.v[i], a, &a->irqs[a->nirqs++]);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* audit_read_json - the audit object o into a (js_audit.h) */
void audit_read_json(struct jr *l, const struct jsonp_val *o, struct js_audit *a)
{
	int cpus[JS_CPUS_MAX];
	size_t n = 0;
	uint64_t el = 0;

	memset(a, 0, sizeof(*a));
	jr_cpus(l, o, K_CPUS, cpus, &n, JS_CPUS_MAX);
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
	jr_str(l, o, K_SYSROOT, JR_REQ | JR_NUL, a->sysroot, sizeof(a->sysroot));
	jr_u64(l, o, K_ELAPSED_NS, 0, &el);
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
static void load_delta_rows(struct jr *l, const struct jsonp_val *rows, struct audit_deltas *d,
			    size_t k, size_t *cap)
{
	size_t prev = 0, mark = jr_push(l, "." K_ROWS);

	for (size_t i = 0; rows && i < rows->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &rows->arr.v[i];
		struct audit_delta_row *r;
		size_t m2 = jr_push(l, "[%zu]", i);
		char key[16] = "";
		uint64_t delta = 0;
		int kind;

		jr_str(l, v, K_KEY, JR_REQ, key, sizeof(key));
		kind = jr_name(l, v, K_KIND, audit_row_kind_from_name);
		jr_u64(l, v, K_DELTA, JR_REQ, &delta);
		if (l->rc)
			break;
		r = delta_row(d, cap, key, kind, &prev);
		if (!r) {
			l->rc = -ENOMEM;
			break;
		}
		jr_str(l, v, K_NAME, JR_REQ, r->name, sizeof(r->name));
		jr_int(l, v, K_IRQ, 0, -1, INT32_MAX, &r->irq);
		r->delta[k] = delta;
		r->total += delta;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_aff_changes(struct jr *l, const struct jsonp_val *o, struct audit_deltas *d)
{
	const struct jsonp_val *a = jr_objs(l, o, K_AFFINITY_CHANGES, JR_REQ);
	size_t mark = jr_push(l, "." K_AFFINITY_CHANGES);

	if (a && a->arr.n) {
		d->changes = calloc(a->arr.n, sizeof(*d->changes));
		if (!d->changes)
			l->rc = -ENOMEM;
	}
	for (size_t i = 0; d->changes && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct audit_aff_change *c = &d->changes[d->nchanges++];
		size_t m2 = jr_push(l, "[%zu]", i);

		jr_int(l, v, K_IRQ, JR_REQ, 0, INT32_MAX, &c->irq);
		jr_str(l, v, K_NAME, JR_REQ, c->name, sizeof(c->name));
		cpuset_at(l, v, K_BEFORE, &c->before);
		cpuset_at(l, v, K_AFTER, &c->after);
		jr_bool(l, v, K_TOUCHES_MEASURED_CPU, JR_REQ, &c->touches);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* audit_deltas_read_json - the counter deltas object o into d (js_audit.h) */
void audit_deltas_read_json(struct jr *l, const struct jsonp_val *o, struct audit_deltas *d)
{
	const struct jsonp_val *cpus = jr_objs(l, o, K_CPUS, JR_REQ);
	size_t cap = 0, mark = jr_push(l, "." K_CPUS);

	memset(d, 0, sizeof(*d));
	jr_dbl(l, o, K_SECONDS, JR_REQ, &d->seconds);
	if (!cpus)
		goto out;
	d->cpus = calloc(cpus->arr.n ? cpus->arr.n : 1, sizeof(*d->cpus));
	if (!d->cpus) {
		l->rc = -ENOMEM;
		goto out;
	}
	d->ncpus = cpus->arr.n;
	for (size_t k = 0; k < cpus->arr.n && !l->rc; k++) {
		size_t m2 = jr_push(l, "[%zu]", k);

		jr_int(l, &cpus->arr.v[k], K_CPU, JR_REQ, 0, JS_CPUS_MAX - 1, &d->cpus[k]);
		load_delta_rows(l, jr_objs(l, &cpus->arr.v[k], K_ROWS, JR_REQ), d, k, &cap);
		jr_pop(l, m2);
	}
out:
	jr_pop(l, mark);
	load_aff_changes(l, o, d);
}
