// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * correlate.c - attribute sampler gaps to probe events (see js_correlate.h). Pure: no I/O.
 *
 * corr_attribute() works in four steps on the events of one gap:
 *  1. filter (CPU, overlap with the gap +- slack) and clip to the gap;
 *  2. sweep: every instant of the gap goes to the innermost interval covering it
 *     (latest original start; ties by nesting level), which gives osnoise-style
 *     net times and the covered union;
 *  3. name each event (detail) and merge per (cause, detail);
 *  4. sort, choose the primary, fold beyond JS_PARTS_MAX (fill_parts()).
 * A batch of gaps shares one sorted window of events (corr_window.c); steal and SMIs, which
 * no probe sees, are given to the gaps afterwards (account.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corr_priv.h"
#include "js_correlate.h"
#include "js_event_names.h"
#include "js_util.h"
#include "js_waker.h"

/* Nesting levels: an interval of a higher level runs inside one of a lower level. */
enum corr_level {
	LV_OFFCPU = 0, /* task, idle */
	LV_CTX,	       /* work item, THP collapse, compaction: inside a task */
	LV_FAULT,
	LV_SOFTIRQ,
	LV_HARDIRQ, /* device IRQ, APIC vector, tlb flush */
	LV_HRTIMER, /* callback inside the local timer vector */
	LV_NMI,
	LV_USER, /* an --event pair: what it runs inside gives it its time */
};

static bool vec_is_ipi(uint32_t vec)
{
	return vec == JS_VEC_RESCHEDULE || vec == JS_VEC_CALL_FUNCTION ||
	       vec == JS_VEC_CALL_FUNCTION_SINGLE || vec == JS_VEC_IRQ_WORK;
}

/*
 * task_cause - the class of a task's run: a kernel thread that runs interrupt work has the
 * class of that work (js_thread_class(): irq/36-virtio1-req.0 is irq), every other task is
 * task. Only kernel threads: a user task may call itself anything.
 */
static uint32_t task_cause(const struct js_event *e)
{
	const struct js_thread_class *t;

	if (!(e->flags & JS_F_KTHREAD))
		return JS_CAUSE_TASK;
	t = js_thread_class(e->name); /* reads the prefix and one byte: no NUL needed */
	return t ? t->cause : JS_CAUSE_TASK;
}

/* ev_class - cause and nesting level of an event; false if it is not a CPU interval */
static bool ev_class(const struct js_event *e, uint32_t *cause, uint32_t *level)
{
	switch (e->kind) {
	case JS_EV_TASK:
		*cause = task_cause(e);
		*level = LV_OFFCPU;
		return true;
	case JS_EV_IDLE:
		*cause = JS_CAUSE_IDLE;
		*level = LV_OFFCPU;
		return true;
	case JS_EV_WORK:
		*cause = JS_CAUSE_WORK;
		*level = LV_CTX;
		return true;
	case JS_EV_THP:
		*cause = JS_CAUSE_THP;
		*level = LV_CTX;
		return true;
	case JS_EV_MIGRATE:
		*cause = JS_CAUSE_MM;
		*level = LV_CTX;
		return true;
	case JS_EV_FAULT:
		*cause = JS_CAUSE_FAULT;
		*level = LV_FAULT;
		return true;
	case JS_EV_SOFTIRQ:
		*cause = JS_CAUSE_SOFTIRQ;
		*level = LV_SOFTIRQ;
		return true;
	case JS_EV_IRQ:
		*cause = JS_CAUSE_IRQ;
		*level = LV_HARDIRQ;
		return true;
	case JS_EV_TLB:
		*cause = JS_CAUSE_TLB;
		*level = LV_HARDIRQ;
		return true;
	case JS_EV_HRTIMER:
		*cause = JS_CAUSE_HRTIMER;
		*level = LV_HRTIMER;
		return true;
	case JS_EV_NMI:
		*cause = JS_CAUSE_NMI;
		*level = LV_NMI;
		return true;
	case JS_EV_USER:
		*cause = JS_CAUSE_EVENT;
		*level = LV_USER;
		return true;
	case JS_EV_VECTOR:
		*level = LV_HARDIRQ;
		if (e->id == JS_VEC_LOCAL_TIMER)
			*cause = JS_CAUSE_TIMER;
		else if (vec_is_ipi(e->id))
			*cause = JS_CAUSE_IPI;
		else
			*cause = JS_CAUSE_VECTOR;
		return true;
	default:
		return false;
	}
}

/* corr_event_cause - the cause class of an event, -1 if it is not a CPU interval */
int corr_event_cause(const struct js_event *e)
{
	uint32_t cause, level;

	return ev_class(e, &cause, &level) ? (int)cause : -1;
}

/* ev_overlaps - does the event touch [lo, hi] (points inclusive, intervals must overlap) */
static bool ev_overlaps(const struct js_event *e, uint64_t lo, uint64_t hi)
{
	uint64_t end = corr_ev_end(e);

	if (end == e->start_ns)
		return e->start_ns >= lo && e->start_ns <= hi;
	return e->start_ns < hi && end > lo;
}

/* item_init - fill one item from a matching event, clipped to [gs, ge] */
static void item_init(struct item *it, const struct js_event *e, size_t idx, uint64_t gs,
		      uint64_t ge)
{
	uint64_t end = corr_ev_end(e);

	memset(it, 0, sizeof(*it));
	it->ev = e;
	it->idx = (uint32_t)idx;
	ev_class(e, &it->cause, &it->level);
	it->os = e->start_ns;
	it->odur = end - e->start_ns;
	it->s = JS_MIN(JS_MAX(e->start_ns, gs), ge);
	it->e = JS_MAX(JS_MIN(end, ge), it->s);
	if (e->flags & JS_F_LEAN) { /* seen at its exit: it began in the gap (js_events.h) */
		it->os = it->s;
		it->odur = end - it->s;
	}
}

/* across - does the interval e run across instant gs or ge (begin before it, end after) */
static bool across(const struct js_event *e, uint64_t gs, uint64_t ge)
{
	uint64_t end = corr_ev_end(e);

	return (e->start_ns < gs && end > gs) || (e->start_ns < ge && end > ge);
}

/* collect - the matching items and IPI sends (room for nev of each is reserved) */
static void collect(struct corr_scratch *sc, const struct js_gap *g, const struct js_event *ev,
		    size_t nev, const struct corr_opts *o)
{
	uint64_t slack = o ? o->edge_slack_ns : 0;
	uint64_t win = o && o->ipi_window_ns ? o->ipi_window_ns : CORR_IPI_WINDOW_NS;
	uint64_t gs = g->start_ns, ge = g->start_ns + g->dur_ns;
	uint64_t lo = corr_sat_sub(gs, slack), hi = ge + slack;
	uint32_t cause, level;

	sc->n = sc->nsend = 0;
	for (size_t i = 0; i < nev; i++) {
		const struct js_event *e = &ev[i];

		if (e->cpu != g->cpu)
			continue;
		if (e->kind == JS_EV_IPI_SEND) {
			if (e->start_ns < corr_sat_sub(gs, win) || e->start_ns > hi)
				continue;
			sc->send[sc->nsend++] = e;
			continue;
		}
		if (!ev_class(e, &cause, &level) || !ev_overlaps(e, lo, hi))
			continue;
		/* seen at its exit alone (--probes lean): only the gap holding its exit has it */
		if ((e->flags & JS_F_LEAN) && (e->end_ns < lo || e->end_ns > hi))
			continue;
		/* (an interval whose switch was not traced has no known edge: it stays) */
		if (o && o->marked && level == LV_OFFCPU && across(e, gs, ge) &&
		    !(e->flags & (JS_F_NOSTART | JS_F_NOEND)))
			continue;
		item_init(&sc->it[sc->n++], e, i, gs, ge);
	}
}

/*
 * work_on_cpu - a work item counts only where its worker ran: clipped to the span of its
 * worker's task intervals (TASK, id = the worker's tid) in the gap, dropped without one. A
 * worker's switches are traced, so a gap in which it ran holds its TASK interval; a work
 * interval without one is the worker's time off this CPU (an item that slept, or one begun
 * on another CPU and ended here: the probes bound it, this is the second line).
 */
static void work_on_cpu(struct corr_scratch *sc)
{
	for (size_t i = 0; i < sc->n;) {
		struct item *w = &sc->it[i];
		uint64_t lo = UINT64_MAX, hi = 0, os = UINT64_MAX;

		if (w->ev->kind != JS_EV_WORK) {
			i++;
			continue;
		}
		for (size_t k = 0; k < sc->n; k++) {
			const struct item *t = &sc->it[k];

			if (t->ev->kind == JS_EV_TASK && t->ev->id == w->ev->id) {
				lo = JS_MIN(lo, t->s);
				hi = JS_MAX(hi, t->e);
				os = JS_MIN(os, t->os);
			}
		}
		if (lo > hi || (w->s == w->e ? w->s < lo || w->s > hi : w->s >= hi || w->e <= lo)) {
			sc->it[i] = sc->it[--sc->n];
			continue;
		}
		w->s = JS_MAX(w->s, lo);
		w->e = JS_MAX(JS_MIN(w->e, hi), w->s);
		w->os = JS_MAX(w->os, os); /* nested inside its worker's run */
		i++;
	}
}

static int item_cmp(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->os != b->os)
		return a->os < b->os ? -1 : 1;
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

/* inner - is a nested inside b (a began later, or at the same time at a deeper level) */
static bool inner(const struct item *a, const struct item *b)
{
	if (a->os != b->os)
		return a->os > b->os;
	if (a->level != b->level)
		return a->level > b->level;
	if (a->odur != b->odur)
		return a->odur < b->odur;
	return a->idx > b->idx;
}

static void heap_push(const struct item *it, uint32_t *h, size_t *n, uint32_t x)
{
	size_t i = (*n)++;

	while (i && inner(&it[x], &it[h[(i - 1) / 2]])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static void heap_pop(const struct item *it, uint32_t *h, size_t *n)
{
	uint32_t x = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && inner(&it[h[c + 1]], &it[h[c]]))
			c++;
		if (!inner(&it[h[c]], &it[x]))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = x;
}

/* sweep - give each instant to the innermost interval covering it; returns the union */
static uint64_t sweep(struct item *it, size_t n, uint32_t *heap)
{
	uint64_t cur = 0, covered = 0, next;
	size_t i = 0, hn = 0;

	while (i < n || hn) {
		if (!hn && cur < it[i].s)
			cur = it[i].s;
		for (; i < n && it[i].s <= cur; i++)
			if (it[i].e > it[i].s)
				heap_push(it, heap, &hn, (uint32_t)i);
		while (hn && it[heap[0]].e <= cur)
			heap_pop(it, heap, &hn);
		if (!hn)
			continue;
		next = it[heap[0]].e;
		if (i < n && it[i].s < next)
			next = it[i].s;
		it[heap[0]].net += next - cur;
		covered += next - cur;
		cur = next;
	}
	return covered;
}

/* send_fits - could send s have raised vector vec? A reschedule IPI carries no function; a
 * call-function IPI names the function queued for the target (js_events.h) */
static bool send_fits(const struct js_event *s, uint32_t vec)
{
	if (vec == JS_VEC_RESCHEDULE)
		return !s->callback;
	return s->callback != 0;
}

/*
 * match_senders - give each IPI vector the latest unused IPI_SEND of its type before its
 * entry: a reschedule sent meanwhile by someone else is not the call-function IPI's sender.
 * The send may be up to the window before the entry, or before the gap's start: while the
 * CPU was away (a vCPU descheduled by the host) an IPI waits however long the gap lasts.
 */
static void match_senders(struct corr_scratch *sc, const struct js_gap *g,
			  const struct corr_opts *o)
{
	uint64_t win = o && o->ipi_window_ns ? o->ipi_window_ns : CORR_IPI_WINDOW_NS;

	for (size_t i = 0; i < sc->n; i++) {
		struct item *it = &sc->it[i];
		size_t best = SIZE_MAX;
		uint64_t latest;

		if (it->ev->kind != JS_EV_VECTOR || it->ev->id == JS_VEC_IRQ_WORK ||
		    it->cause != JS_CAUSE_IPI)
			continue;
		/* seen at its exit alone (--probes lean): its entry is somewhere before its exit */
		latest = it->ev->flags & JS_F_LEAN ? it->e : it->os;
		for (size_t k = 0; k < sc->nsend; k++) {
			const struct js_event *s = sc->send[k];

			if (sc->used[k] || s->start_ns > latest ||
			    s->start_ns + win < JS_MIN(it->os, g->start_ns) ||
			    !send_fits(s, it->ev->id))
				continue;
			if (best == SIZE_MAX || s->start_ns > sc->send[best]->start_ns)
				best = k;
		}
		if (best != SIZE_MAX) {
			sc->used[best] = true;
			it->send = sc->send[best];
		}
	}
}

/* ev_name - the event's name field as a C string */
static const char *ev_name(const struct js_event *e, char *buf)
{
	memcpy(buf, e->name, JS_NAME_LEN);
	buf[JS_NAME_LEN] = '\0';
	return buf;
}

/* fn_name - a function's symbol, else the event's name, else its address */
static const char *fn_name(const struct corr_opts *o, const struct js_event *e, char *buf,
			   size_t len)
{
	return js_ev_fn(e, o && o->sym ? o->sym(o->sym_ctx, e->addr) : NULL, buf, len);
}

/* work_of - the work function with the largest net run within this task's interval (work
 * items are clipped to their worker's runs: work_on_cpu()) */
static const struct item *work_of(const struct corr_scratch *sc, const struct item *task)
{
	const struct item *best = NULL;

	for (size_t i = 0; i < sc->n; i++) {
		const struct item *w = &sc->it[i];

		if (w->ev->kind != JS_EV_WORK || w->s > task->e || w->e < task->s)
			continue;
		if (w->ev->id && w->ev->id != task->ev->id)
			continue;
		if (!best || w->net > best->net)
			best = w;
	}
	return best;
}

/*
 * thread_softirq - the softirq a kernel thread's run names after it (js_thread_class()):
 * the one its thread always runs, or the softirq with the largest net time within the run
 * (in its context, or in the exit of an interrupt meanwhile); NULL for none or another task
 */
static const char *thread_softirq(const struct corr_scratch *sc, const struct item *task, char *buf,
				  size_t len)
{
	const struct js_thread_class *t = NULL;
	const struct item *best = NULL;
	char comm[JS_NAME_LEN + 1];

	if (task->cause != JS_CAUSE_TASK)
		t = js_thread_class(ev_name(task->ev, comm));
	if (!t || t->softirq)
		return t ? t->softirq : NULL;
	for (size_t i = 0; t->vectors && i < sc->n; i++) {
		const struct item *v = &sc->it[i];

		if (v->ev->kind != JS_EV_SOFTIRQ || v->s >= task->e || v->e <= task->s)
			continue;
		if (!best || v->net > best->net)
			best = v;
	}
	if (!best)
		return NULL;
	js_ev_id_label(JS_EV_SOFTIRQ, best->ev->id, buf, len);
	return buf;
}

/* cg_name - the short name of a task's cgroup to show, NULL for none: unknown, or the root
 * (on a hybrid system nearly every task is there: "/" would say nothing) */
static const char *cg_name(const struct corr_opts *o, uint64_t id)
{
	const char *s = id && o && o->cgname ? o->cgname(o->cg_ctx, id) : NULL;

	return s && *s && strcmp(s, "/") ? s : NULL;
}

/* cg_append - " [name]" after the text in d, name shortened so that all fits cap bytes */
static void cg_append(char *d, size_t cap, const char *name)
{
	size_t n = strnlen(d, cap);
	int room = (int)cap - (int)n - 4; /* " [", "]" and the NUL */

	if (name && room > 0)
		snprintf(d + n, cap - n, " [%.*s]", room, name);
}

/* detail_task - "comm:pid[ work_function| softirq][ [cgroup]]": a kworker's work, the
 * softirq a softirq thread ran (thread_softirq()) */
static void detail_task(const struct corr_scratch *sc, const struct item *it,
			const struct corr_opts *o, char *d)
{
	const struct item *w = work_of(sc, it);
	char comm[JS_NAME_LEN + 1], fn[JS_NAME_LEN + 24];
	const char *what;
	int n;

	ev_name(it->ev, comm);
	if (o && o->self_pid && it->ev->id == o->self_pid && !strcmp(comm, JS_THREAD_PROCESS))
		snprintf(comm, sizeof(comm), "%s", JS_THREAD_DRAIN); /* the drain, not the tool */
	what = w ? fn_name(o, w->ev, fn, sizeof(fn)) : thread_softirq(sc, it, fn, sizeof(fn));
	n = snprintf(d, JS_DETAIL_LEN, "%s:%u", comm, it->ev->id);
	if (what && n > 0 && n < JS_DETAIL_LEN)
		snprintf(d + n, JS_DETAIL_LEN - n, " %s", what);
	cg_append(d, JS_DETAIL_LEN, cg_name(o, it->cgroup));
}

/* detail_vector - "call_function_single remote_function from comm:pid [cgroup]": the
 * function is shortened first when it does not fit, then the sender's cgroup, the sender
 * never */
static void detail_vector(const struct item *it, const struct corr_opts *o, char *d)
{
	char comm[JS_NAME_LEN + 1], from[JS_DETAIL_LEN + JS_NAME_LEN + 24] = "";
	const char *fn = NULL;
	int n, room;

	js_ev_id_label(JS_EV_VECTOR, it->ev->id, d, JS_DETAIL_LEN);
	n = (int)strlen(d);
	if (!it->send || n <= 0 || n >= JS_DETAIL_LEN)
		return;
	snprintf(from, sizeof(from), " from %s:%u", ev_name(it->send, comm), it->send->id);
	cg_append(from, JS_DETAIL_LEN - n, cg_name(o, it->cgroup));
	if (it->send->callback && o && o->sym)
		fn = o->sym(o->sym_ctx, it->send->callback);
	room = JS_DETAIL_LEN - 1 - n - (int)strlen(from) - 1;
	if (fn && *fn && room > 0)
		n += snprintf(d + n, JS_DETAIL_LEN - n, " %.*s", room, fn);
	if (n < JS_DETAIL_LEN)
		js_scpy(d + n, JS_DETAIL_LEN - n, from);
}

/* own - " (sampler)" (" (app)" when the probes follow an application) for an event that hit
 * what is measured (JS_F_SAMPLER), else "" */
static const char *own(const struct corr_opts *o, const struct js_event *e)
{
	if (!(e->flags & JS_F_SAMPLER))
		return "";
	return o && o->app ? " (app)" : " (sampler)";
}

/*
 * detail_fault - "fault user|kernel comm:pid[ [cgroup]][ @0xaddr][ (sampler)]": the address
 * only where it fits whole, so that the detail less its address (the cause table's key,
 * causes.c) is the same with or without it
 */
static void detail_fault(const struct js_event *e, const struct corr_opts *o, const char *cg,
			 bool with_addr, char *d)
{
	const char *who = own(o, e);
	char comm[JS_NAME_LEN + 1], addr[24] = "";
	size_t n;

	if (with_addr)
		snprintf(addr, sizeof(addr), " @0x%" PRIx64, (uint64_t)e->addr);
	snprintf(d, JS_DETAIL_LEN, "fault %s %s:%u", e->flags & JS_F_KERNEL ? "kernel" : "user",
		 ev_name(e, comm), e->id);
	cg_append(d, JS_DETAIL_LEN - strlen(who), cg);
	n = strlen(d);
	if (n + strlen(addr) + strlen(who) >= JS_DETAIL_LEN)
		addr[0] = '\0';
	snprintf(d + n, JS_DETAIL_LEN - n, "%s%s", addr, who);
}

#define THP_SCAN_SUCCEED 1 /* the kernel's SCAN_SUCCEED (mm/khugepaged.c enum scan_result) */

/*
 * detail_thp - "THP collapse [failed:N ][(sampler) ][comm]": a collapse carries its
 * result in addr (SCAN_SUCCEED or a failure) and the collapsing task's comm in name;
 * "(sampler)": of the samplers' memory (possibly from another CPU)
 */
static void detail_thp(const struct js_event *e, const struct corr_opts *o, char *d)
{
	const char *who = own(o, e);
	char comm[JS_NAME_LEN + 1], what[JS_DETAIL_LEN];
	int n;

	js_ev_id_label(JS_EV_THP, e->id, what, sizeof(what));
	if (e->id == JS_THP_COLLAPSE && e->addr != THP_SCAN_SUCCEED)
		n = snprintf(d, JS_DETAIL_LEN, "%s failed:%u%s", what, (uint32_t)e->addr, who);
	else
		n = snprintf(d, JS_DETAIL_LEN, "%s%s", what, who);
	if (e->name[0] && n > 0 && n < JS_DETAIL_LEN)
		snprintf(d + n, JS_DETAIL_LEN - n, " %s", ev_name(e, comm));
}

/* detail_mm - THP steps; compaction, migration; a tlb flush's reason [(sampler)] */
static void detail_mm(const struct js_event *e, const struct corr_opts *o, char *d)
{
	char what[32]; /* the longest name is 20 bytes */

	switch (e->kind) {
	case JS_EV_THP:
		detail_thp(e, o, d);
		break;
	case JS_EV_MIGRATE:
		js_ev_id_label(e->kind, e->id, d, JS_DETAIL_LEN);
		break;
	default: /* JS_EV_TLB */
		js_ev_id_label(e->kind, e->id, what, sizeof(what));
		snprintf(d, JS_DETAIL_LEN, "%s%s", what, own(o, e));
	}
}

/* item_detail - the source name of one item (faults without their address) */
static void item_detail(const struct corr_scratch *sc, const struct item *it,
			const struct corr_opts *o, char *d)
{
	const struct js_event *e = it->ev;
	char name[JS_NAME_LEN + 24];
	const char *s;

	switch (e->kind) {
	case JS_EV_TASK:
		detail_task(sc, it, o, d);
		break;
	case JS_EV_IDLE:
		js_scpy(d, JS_DETAIL_LEN, js_ev_kind_name(e->kind));
		break;
	case JS_EV_VECTOR:
		detail_vector(it, o, d);
		break;
	case JS_EV_FAULT:
		detail_fault(e, o, cg_name(o, it->cgroup), false, d);
		break;
	case JS_EV_WORK:
		js_scpy(d, JS_DETAIL_LEN, fn_name(o, e, name, sizeof(name)));
		break;
	case JS_EV_HRTIMER: /* one a tick: copied, not formatted */
		js_scpy(d, JS_DETAIL_LEN, "hrtimer ");
		js_scpy(d + 8, JS_DETAIL_LEN - 8, fn_name(o, e, name, sizeof(name)));
		break;
	case JS_EV_IRQ:
		snprintf(d, JS_DETAIL_LEN, "%s:%u", e->name[0] ? ev_name(e, name) : "irq", e->id);
		break;
	case JS_EV_SOFTIRQ:
		js_ev_id_label(e->kind, e->id, d, JS_DETAIL_LEN);
		break;
	case JS_EV_NMI:
		s = o && o->sym ? o->sym(o->sym_ctx, e->addr) : NULL;
		if (!(s && *s) && e->name[0])
			s = ev_name(e, name);
		snprintf(d, JS_DETAIL_LEN, "nmi%s%s", s && *s ? " " : "", s && *s ? s : "");
		break;
	case JS_EV_USER: /* "SUBSYS:NAME", as the user named it */
		if (o && e->id < o->nevents)
			js_scpy(d, JS_DETAIL_LEN, o->events[e->id].open);
		else
			js_ev_id_label(e->kind, e->id, d, JS_DETAIL_LEN);
		break;
	default:
		detail_mm(e, o, d);
	}
}

/*
 * item_cgroup - the cgroup of the task an item names: a task's own (the probes read it at
 * its switch in), an IPI's sender's, a fault's task's (the sampler's is ours; another
 * task's, its task interval's in the gap); 0 for the rest
 */
static uint64_t item_cgroup(const struct corr_scratch *sc, const struct item *it,
			    const struct corr_opts *o)
{
	const struct js_event *e = it->ev;

	if (e->kind == JS_EV_TASK)
		return js_ev_cgroup(e);
	if (e->kind == JS_EV_VECTOR)
		return it->send ? js_ev_cgroup(it->send) : 0;
	if (e->kind != JS_EV_FAULT)
		return 0;
	if (e->flags & JS_F_SAMPLER)
		return o ? o->self_cgroup : 0;
	for (size_t k = 0; k < sc->n; k++)
		if (sc->it[k].ev->kind == JS_EV_TASK && sc->it[k].ev->id == e->id &&
		    js_ev_cgroup(sc->it[k].ev))
			return js_ev_cgroup(sc->it[k].ev);
	return 0;
}

/* merge - name every item and merge per (cause, detail) into sc->src */
static void merge(struct corr_scratch *sc, const struct corr_opts *o)
{
	char d[JS_DETAIL_LEN];

	sc->nsrc = 0;
	for (size_t i = 0; i < sc->n; i++) {
		struct item *it = &sc->it[i];
		struct src *s = NULL;

		it->cgroup = item_cgroup(sc, it, o);
		item_detail(sc, it, o, d);
		for (size_t k = 0; k < sc->nsrc && !s; k++)
			if (sc->src[k].cause == it->cause && !strcmp(sc->src[k].detail, d))
				s = &sc->src[k];
		if (!s) {
			/* every member set: the scratch is reused gap after gap */
			s = &sc->src[sc->nsrc];
			s->id = (uint32_t)sc->nsrc++;
			s->cause = it->cause;
			s->count = 0;
			s->net = s->incl = 0;
			s->first = it->ev;
			s->cgroup = it->cgroup;
			s->tier = 0;
			s->keep = false;
			memcpy(s->detail, d, sizeof(d));
		}
		it->src = s->id;
		s->count++;
		s->net += it->net;
		/* a task whose switch in or out was not traced (JS_F_NOSTART/NOEND) ran for
		 * an unknown part of its interval: only its net time is sure */
		s->incl += it->ev->flags & (JS_F_NOSTART | JS_F_NOEND) ? it->net : it->e - it->s;
	}
	/* a single fault keeps its address */
	for (size_t k = 0; k < sc->nsrc; k++)
		if (sc->src[k].cause == JS_CAUSE_FAULT && sc->src[k].count == 1)
			detail_fault(sc->src[k].first, o, cg_name(o, sc->src[k].cgroup), true,
				     sc->src[k].detail);
}

static int src_cmp(const void *pa, const void *pb)
{
	const struct src *a = pa, *b = pb;

	if (a->net != b->net)
		return a->net > b->net ? -1 : 1;
	/* among equal times (zero-time points), TLB flushes (one per context switch) are the
	 * least telling: they go last, so a cap of JS_PARTS_MAX folds them before a fault */
	if ((a->cause == JS_CAUSE_TLB) != (b->cause == JS_CAUSE_TLB))
		return a->cause == JS_CAUSE_TLB ? 1 : -1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->cause != b->cause)
		return a->cause < b->cause ? -1 : 1;
	return strcmp(a->detail, b->detail);
}

/* sampler_collapse - a THP collapse of the samplers' memory (here, or remote: JS_F_REMOTE) */
static bool sampler_collapse(const struct src *s)
{
	const struct js_event *e = s->first;

	return s->cause == JS_CAUSE_THP && e && e->kind == JS_EV_THP && e->id == JS_THP_COLLAPSE &&
	       (e->flags & JS_F_SAMPLER);
}

/* sampler_fault - a page fault taken by the sampler itself */
static bool sampler_fault(const struct src *s)
{
	return s->cause == JS_CAUSE_FAULT && s->first && (s->first->flags & JS_F_SAMPLER);
}

/*
 * blocked_on_collapse - the largest THP collapse of the samplers' memory when the sampler
 * also faulted in the gap: it touched the region whose PMD khugepaged had cleared and
 * waited (off CPU: idle, or another task ran) until the collapse ended. SIZE_MAX if not.
 */
static size_t blocked_on_collapse(const struct corr_scratch *sc)
{
	size_t c = SIZE_MAX;
	bool fault = false;

	for (size_t k = 0; k < sc->nsrc; k++) {
		if (sampler_fault(&sc->src[k]))
			fault = true;
		else if (c == SIZE_MAX && sampler_collapse(&sc->src[k]))
			c = k;
	}
	return fault ? c : SIZE_MAX;
}

/* src_ran - a source of tasks' runs (a task, or a kernel thread named by the work it ran:
 * task_cause()) */
static bool src_ran(const struct src *s)
{
	return s->first && s->first->kind == JS_EV_TASK;
}

/* net_outside - the net time of source a's items that lie outside every item of source r:
 * what of a does not already count in r's inclusive time */
static uint64_t net_outside(const struct corr_scratch *sc, const struct src *a, const struct src *r)
{
	uint64_t net = 0;

	for (size_t i = 0; i < sc->n; i++) {
		const struct item *it = &sc->it[i];
		bool in = false;

		if (it->src != a->id)
			continue;
		/* inside a run seen whole (one seen half is ranked by its net alone) */
		for (size_t j = 0; j < sc->n && !in; j++)
			in = sc->it[j].src == r->id &&
			     !(sc->it[j].ev->flags & (JS_F_NOSTART | JS_F_NOEND)) &&
			     sc->it[j].s <= it->s && it->e <= sc->it[j].e;
		net += in ? 0 : it->net;
	}
	return net;
}

/*
 * pick_primary - index of the primary source in the net-sorted sc->src: a THP collapse
 * the sampler blocked on (blocked_on_collapse()); else the run of a task (or thread) or the
 * idle interval with the largest inclusive time, a run before idle, unless another source
 * has a larger net outside that run (a ksoftirqd run's NET_RX merged with an interrupt's
 * NET_RX of the same gap is larger than the run, which holds part of it); else the largest
 * net
 */
static size_t pick_primary(const struct corr_scratch *sc)
{
	size_t t = blocked_on_collapse(sc);

	if (t != SIZE_MAX)
		return t;

	for (size_t k = 0; k < sc->nsrc; k++) {
		const struct src *s = &sc->src[k];

		if (!src_ran(s) && s->cause != JS_CAUSE_IDLE)
			continue;
		if (t == SIZE_MAX || s->incl > sc->src[t].incl ||
		    (s->incl == sc->src[t].incl && src_ran(s) && !src_ran(&sc->src[t])))
			t = k;
	}
	if (t != SIZE_MAX && (sc->src[t].incl >= sc->src[0].net ||
			      sc->src[t].incl >= net_outside(sc, &sc->src[0], &sc->src[t])))
		return t;
	return 0;
}

static void part_set(struct js_part *p, const struct src *s)
{
	p->cause = s->cause;
	p->count = s->count;
	p->net_ns = s->net;
	p->entry_ns = 0;
	p->cgroup = s->cgroup;
	memcpy(p->detail, s->detail, JS_DETAIL_LEN);
}

/* fold tiers: which sources a gap with more than JS_PARTS_MAX keeps first */
enum fold_tier {
	FOLD_NEVER = 0, /* the primary */
	FOLD_EVIDENCE,	/* what a user looks for first: sampler faults, THP, mm, NMI, --event */
	FOLD_FIRST,	/* the largest source of a class not yet named */
	FOLD_REPEAT,	/* another source of a class already named */
	FOLD_TLB,	/* TLB flushes: one per context switch, least telling */
	FOLD_TIERS
};

/* evidence - a source kept before any other but the primary */
static bool evidence(const struct src *s)
{
	switch (s->cause) {
	case JS_CAUSE_FAULT:
		return s->first && (s->first->flags & JS_F_SAMPLER);
	case JS_CAUSE_THP:
	case JS_CAUSE_MM:
	case JS_CAUSE_NMI:
	case JS_CAUSE_SMI:
	case JS_CAUSE_EVENT: /* what the user asked to see (--event: at most 8) */
		return true;
	default:
		return false;
	}
}

/* fold_tiers - the tier of every source in the net-sorted sc->src */
static void fold_tiers(const struct corr_scratch *sc, size_t prim)
{
	bool named[JS_CAUSE_MAX] = { false };
	struct src *s;
	size_t k;

	for (k = 0; k < sc->nsrc; k++) {
		s = &sc->src[k];
		s->tier = FOLD_REPEAT;
		if (k == prim)
			s->tier = FOLD_NEVER;
		else if (evidence(s))
			s->tier = FOLD_EVIDENCE;
		else if (s->cause == JS_CAUSE_TLB)
			s->tier = FOLD_TLB;
		if (s->tier < FOLD_REPEAT && s->cause < JS_CAUSE_MAX)
			named[s->cause] = true;
	}
	for (k = 0; k < sc->nsrc; k++) {
		s = &sc->src[k];
		if (s->tier == FOLD_REPEAT && s->cause < JS_CAUSE_MAX && !named[s->cause]) {
			s->tier = FOLD_FIRST;
			named[s->cause] = true;
		}
	}
}

/* fold_mark - mark the sources kept: all of them, or JS_PARTS_MAX - 1 by tier and net */
static void fold_mark(const struct corr_scratch *sc, size_t prim)
{
	size_t kept = 0;

	for (size_t k = 0; k < sc->nsrc; k++)
		sc->src[k].keep = sc->nsrc <= JS_PARTS_MAX;
	if (sc->nsrc <= JS_PARTS_MAX)
		return;
	fold_tiers(sc, prim);
	for (int t = FOLD_NEVER; t < FOLD_TIERS; t++)
		for (size_t k = 0; k < sc->nsrc && kept < JS_PARTS_MAX - 1; k++)
			if (sc->src[k].tier == t) {
				sc->src[k].keep = true;
				kept++;
			}
}

/*
 * fill_parts - copy the net-sorted sources into out->parts. A gap with more than
 * JS_PARTS_MAX sources keeps JS_PARTS_MAX - 1 of them, chosen by fold tier (the
 * primary; sampler faults, THP, mm, NMI; the largest source of each class; other
 * sources; TLB flushes last), each tier largest net first, and sums the rest into
 * one "(other: N sources)" part (class of the largest of them). The parts stay
 * sorted by net and add up to covered_ns.
 */
static void fill_parts(const struct corr_scratch *sc, size_t prim, struct js_attr *out)
{
	struct js_part fold;
	size_t n = 0, nfold = 0, k;

	out->primary = sc->src[prim].cause;
	memcpy(out->detail, sc->src[prim].detail, JS_DETAIL_LEN);
	fold_mark(sc, prim);
	for (k = 0; k < sc->nsrc; k++) {
		const struct src *s = &sc->src[k];

		if (s->keep) {
			/* the sampler's first fault part: where fault_tail()'s time goes */
			if (!out->tail_part && sampler_fault(s))
				out->tail_part = (uint32_t)n + 1;
			part_set(&out->parts[n++], s);
		} else if (!nfold++) {
			part_set(&fold, s);
		} else {
			fold.count += s->count;
			fold.net_ns += s->net;
		}
	}
	out->nparts = (uint32_t)n;
	if (!nfold)
		return;
	snprintf(fold.detail, JS_DETAIL_LEN, JS_FOLDED_FMT, nfold);
	/* the folded part goes after every kept part with at least its net */
	for (k = n; k > 0 && out->parts[k - 1].net_ns < fold.net_ns; k--)
		out->parts[k] = out->parts[k - 1];
	out->parts[k] = fold;
	out->nparts++;
	if (out->tail_part > k)
		out->tail_part++; /* moved down one by the insertion */
}

/* attr_waker - who woke the primary source's task: the waker its longest run in the gap
 * carries (a task woken once, preempted and switched back in carries none the second time);
 * with --stacks, the stack of its longest run that has one (where it left the CPU) */
static void attr_waker(const struct corr_scratch *sc, size_t prim, const struct js_gap *g,
		       struct js_attr *out)
{
	const struct src *s = &sc->src[prim];
	const struct item *best = NULL, *bstack = NULL;

	if (!src_ran(s))
		return;
	for (size_t i = 0; i < sc->n; i++) {
		const struct item *it = &sc->it[i];

		if (it->ev->kind != JS_EV_TASK || it->ev->id != s->first->id ||
		    it->cause != s->cause)
			continue;
		if (it->ev->task.stack && (!bstack || it->e - it->s > bstack->e - bstack->s))
			bstack = it;
		if (!(it->ev->flags & JS_F_WAKE))
			continue;
		if (!best || it->e - it->s > best->e - best->s)
			best = it;
	}
	if (best)
		js_waker_from_event(best->ev, g->start_ns, &out->waker);
	if (bstack)
		out->stack = bstack->ev->task.stack;
}

/* attr_empty - nothing explains the gap; the parts past nparts are left as they were (every
 * reader stops at nparts: zeroing all JS_PARTS_MAX was a memset of 1.6 KB for every gap) */
void corr_attr_empty(struct js_attr *a, uint64_t dur)
{
	memset(a, 0, offsetof(struct js_attr, parts));
	_Static_assert(offsetof(struct js_attr, covered_ns) ==
			       offsetof(struct js_attr, parts) + sizeof(a->parts),
		       "the members after the parts start at covered_ns");
	memset(&a->covered_ns, 0, sizeof(*a) - offsetof(struct js_attr, covered_ns));
	a->primary = JS_CAUSE_UNEXPLAINED;
	a->unexplained_ns = dur;
}

/* grow - *p to at least n elements of size sz; false when out of memory (*p kept) */
static bool grow(void **p, size_t n, size_t sz)
{
	void *q = realloc(*p, n * sz);

	if (!q)
		return false;
	*p = q;
	return true;
}

/* scratch_reserve - room for n items and n sends (grown only: one scratch serves a whole
 * batch of gaps, no allocation per gap) */
static int scratch_reserve(struct corr_scratch *sc, size_t n)
{
	n = JS_MAX(n, (size_t)1);
	if (n > sc->cap) {
		n = JS_MAX(n, 2 * sc->cap);
		if (!grow((void **)&sc->it, n, sizeof(*sc->it)) ||
		    !grow((void **)&sc->heap, n, sizeof(*sc->heap)) ||
		    !grow((void **)&sc->src, n, sizeof(*sc->src)) ||
		    !grow((void **)&sc->send, n, sizeof(*sc->send)) ||
		    !grow((void **)&sc->used, n, sizeof(*sc->used)))
			return -ENOMEM;
		sc->cap = n;
	}
	return 0;
}

void corr_scratch_free(struct corr_scratch *sc)
{
	free(sc->it);
	free(sc->heap);
	free(sc->src);
	free(sc->send);
	free(sc->used);
}

static void finish(struct js_attr *a, uint64_t dur_ns);

/*
 * fault_tail - the sampler's own page faults are points (the kernel traces their entry
 * only), but the sampler is in the fault until it is back in its loop: the gap's end. What
 * no event covers between its first fault and that end is the fault's handling (given to
 * its part, attr.tail_part from fill_parts(), by corr_finish()).
 */
static uint64_t fault_tail(const struct corr_scratch *sc, uint64_t ge)
{
	uint64_t f = UINT64_MAX, cur, covered = 0;

	for (size_t i = 0; i < sc->n; i++)
		if (sc->it[i].ev->kind == JS_EV_FAULT && (sc->it[i].ev->flags & JS_F_SAMPLER))
			f = JS_MIN(f, sc->it[i].s);
	if (f >= ge)
		return 0;
	/* the union of the items after f (they are sorted by clipped start) */
	cur = f;
	for (size_t i = 0; i < sc->n; i++) {
		uint64_t s = JS_MAX(sc->it[i].s, cur), e = sc->it[i].e;

		if (e > s) {
			covered += e - s;
			cur = e;
		}
	}
	return ge - f - covered;
}

/*
 * unsteal - take the hypervisor's steal out of the events' net times: an interval that
 * carries the steal clock at both ends (JS_F_STEAL) lost that much to the host, not to its
 * own work (a 911 us "local timer" with 900 us of steal is an 11 us tick). Where in the
 * interval the steal fell is unknown: its net part gets its share. The steal itself is
 * allocated to the gap from the same readings (steal_allocate). Returns the time removed.
 */
static uint64_t unsteal(struct corr_scratch *sc)
{
	uint64_t removed = 0;

	for (size_t i = 0; i < sc->n; i++) {
		struct item *it = &sc->it[i];
		const struct js_event *e = it->ev;
		uint64_t st, share;

		st = (e->flags & JS_F_STEAL) ? js_host_steal_delta(e->steal_start, e->steal_end) :
					       0;
		if (!st || !it->net || !it->odur)
			continue;
		st = JS_MIN(st, it->odur);
		share = (uint64_t)((double)st * ((double)it->net / (double)it->odur));
		share = JS_MIN(share, it->net);
		it->net -= share;
		removed += share;
	}
	return removed;
}

/*
 * few_sort - sort a gap's few items or sources: an insertion sort (stable, like glibc's
 * qsort), which at n = 2-4 costs a tenth of qsort's merge sort; qsort beyond 16
 */
static void few_sort(void *base, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
	_Alignas(16) unsigned char x[512];
	unsigned char *v = base;

	if (n > 16 || sz > sizeof(x)) {
		qsort(base, n, sz, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (cmp(v + (i - 1) * sz, v + i * sz) <= 0)
			continue;
		memcpy(x, v + i * sz, sz);
		for (; j && cmp(v + (j - 1) * sz, x) > 0; j--)
			memcpy(v + j * sz, v + (j - 1) * sz, sz);
		memcpy(v + j * sz, x, sz);
	}
}

/* corr_attribute_gap - one gap, with the caller's scratch (corr_priv.h) */
int corr_attribute_gap(struct corr_scratch *sc, const struct js_gap *g, const struct js_event *ev,
		       size_t nev, const struct corr_opts *o, struct js_attr *out)
{
	size_t prim;
	int err;

	corr_attr_empty(out, g->dur_ns);
	/* the slice bounds both items and sends: one pass */
	err = scratch_reserve(sc, nev);
	if (err)
		return err;
	collect(sc, g, ev, nev, o);
	work_on_cpu(sc);
	if (!sc->n)
		return 0;
	memset(sc->used, 0, sc->nsend * sizeof(*sc->used));
	few_sort(sc->it, sc->n, sizeof(*sc->it), item_cmp);
	out->covered_ns = sweep(sc->it, sc->n, sc->heap);
	out->covered_ns -= unsteal(sc);
	out->nevents = (uint32_t)sc->n;
	match_senders(sc, g, o);
	merge(sc, o);
	few_sort(sc->src, sc->nsrc, sizeof(*sc->src), src_cmp);
	prim = pick_primary(sc);
	fill_parts(sc, prim, out);
	attr_waker(sc, prim, g, out);
	/* a marked interval holds the application's own work too: what no event covers after
	 * its fault is not known to be the fault's */
	if (out->tail_part && !(o && o->marked))
		out->tail_ns = fault_tail(sc, g->start_ns + g->dur_ns);
	if (!out->tail_ns)
		out->tail_part = 0;
	finish(out, g->dur_ns);
	return 0;
}

/* corr_attribute - attribute one gap from the events overlapping it */
int corr_attribute(const struct js_gap *g, const struct js_event *ev, size_t nev,
		   const struct corr_opts *o, struct js_attr *out)
{
	struct corr_scratch sc = { 0 };
	int err;

	if (!g || !out || (nev && !ev))
		return -EINVAL;
	err = corr_attribute_gap(&sc, g, ev, nev, o, out);
	corr_scratch_free(&sc);
	return err;
}

/*
 * finish - unexplained_ns, and the steal/SMI primary: of a gap without event parts, and of
 * one the host took at least half of (its events are kept as parts, each smaller than the
 * steal: a 324 us gap with 267 us of steal is the host's, not its 11 us tick's). A THP
 * collapse stays: the sampler waited on another CPU's work, which this CPU's steal did not
 * lengthen.
 */
static void finish(struct js_attr *a, uint64_t dur_ns)
{
	a->unexplained_ns = corr_left(a, dur_ns);
	if (a->nparts) {
		if (a->primary != JS_CAUSE_THP && corr_mostly_steal(a, dur_ns)) {
			a->primary = JS_CAUSE_STEAL;
			js_scpy(a->detail, JS_DETAIL_LEN, js_cause_name(JS_CAUSE_STEAL));
			memset(&a->waker, 0,
			       sizeof(a->waker)); /* the task's waker: not the host's */
			a->stack = 0;
		}
		return;
	}
	memset(a->detail, 0, sizeof(a->detail));
	memset(&a->waker, 0, sizeof(a->waker));
	a->stack = 0;
	if (a->smi) {
		a->primary = JS_CAUSE_SMI;
		js_scpy(a->detail, JS_DETAIL_LEN, js_cause_name(JS_CAUSE_SMI));
	} else if (corr_mostly_steal(a, dur_ns)) {
		a->primary = JS_CAUSE_STEAL;
		js_scpy(a->detail, JS_DETAIL_LEN, js_cause_name(JS_CAUSE_STEAL));
	} else {
		a->primary = JS_CAUSE_UNEXPLAINED;
	}
}

/*
 * give_tail - the sampler fault's handling (attr.tail_ns) goes to its part, up to what
 * steal left uncovered; the parts stay sorted by net, and a primary picked as the largest
 * net (not a task's or thread's run, idle or a THP collapse it waited on) is picked again
 */
static void give_tail(struct js_attr *a, uint64_t dur_ns)
{
	uint64_t give = JS_MIN(a->tail_ns, corr_left(a, dur_ns));
	uint32_t k = a->tail_part;

	a->tail_ns = 0;
	a->tail_part = 0;
	if (!give || !k || k > a->nparts)
		return;
	a->parts[--k].net_ns += give;
	a->covered_ns += give;
	for (; k > 0 && a->parts[k].net_ns > a->parts[k - 1].net_ns; k--) {
		struct js_part tmp = a->parts[k];

		a->parts[k] = a->parts[k - 1];
		a->parts[k - 1] = tmp;
	}
	if (a->primary == JS_CAUSE_TASK || a->primary == JS_CAUSE_IDLE ||
	    a->primary == JS_CAUSE_THP || js_part_thread(a->primary, a->detail))
		return;
	for (k = 0; k < a->nparts; k++) {
		if (js_detail_folded(a->parts[k].detail))
			continue;
		a->primary = a->parts[k].cause;
		memcpy(a->detail, a->parts[k].detail, JS_DETAIL_LEN);
		break;
	}
}

/* corr_finish - once steal and SMIs are allocated: the sampler fault's handling, then
 * unexplained_ns and the steal/SMI primary of a gap */
void corr_finish(struct js_attr *a, uint64_t dur_ns)
{
	if (a->tail_ns)
		give_tail(a, dur_ns);
	finish(a, dur_ns);
}
