// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* story.c - the causal story of one gap (see js_story.h). Pure: no I/O. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "js_causes.h"
#include "js_event_names.h"
#include "js_story.h"
#include "js_util.h"
#include "js_waker.h"

/* a bounded appender that still counts what did not fit (snprintf semantics) */
struct sb {
	char *buf;
	size_t len;
	size_t pos;
};

static void __attribute__((format(printf, 2, 3))) sb_printf(struct sb *b, const char *fmt, ...)
{
	size_t room = b->pos < b->len ? b->len - b->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->buf + b->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n;
}

static const char *fmt_ns(char *buf, uint64_t ns)
{
	return js_fmt_ns(buf, 32, ns);
}

/* label_folded - "N other sources" for "(other: N sources)"; "other CLASS" if N is unreadable */
static int label_folded(char *buf, size_t len, uint32_t cause, const char *d)
{
	unsigned n;

	if (sscanf(d, "(other: %u sources)", &n) == 1)
		return snprintf(buf, len, "%u other source%s", n, n == 1 ? "" : "s");
	return snprintf(buf, len, "other %s", js_cause_name(cause));
}

/* story_part_label - a part's human name */
int story_part_label(char *buf, size_t len, uint32_t cause, const char *detail)
{
	const char *d = detail ? detail : "";
	const struct js_thread_class *t = js_part_thread(cause, d);

	if (!buf && len)
		return -EINVAL;
	if (js_detail_folded(d))
		return label_folded(buf, len, cause, d);
	if (t) /* a kernel thread's run: "IRQ thread irq/36-virtio1-:123" */
		return snprintf(buf, len, "%s %s", t->label, d);
	switch (cause) {
	case JS_CAUSE_IDLE:
		return snprintf(buf, len, "sampler off CPU, CPU idle");
	case JS_CAUSE_IRQ:
		return snprintf(buf, len, "IRQ %s", d);
	case JS_CAUSE_TIMER:
		if (!strcmp(d, js_ev_id_name(JS_EV_VECTOR, JS_VEC_LOCAL_TIMER)))
			return snprintf(buf, len, "local timer IRQ");
		return snprintf(buf, len, "%s timer", d);
	case JS_CAUSE_IPI:
		return snprintf(buf, len, "IPI %s", d);
	case JS_CAUSE_VECTOR:
		return snprintf(buf, len, "%s vector", d);
	case JS_CAUSE_SOFTIRQ:
		return snprintf(buf, len, "%s softirq", d);
	case JS_CAUSE_NMI:
		return snprintf(buf, len, "NMI%s", !strncmp(d, "nmi", 3) ? d + 3 : d);
	case JS_CAUSE_WORK:
		return snprintf(buf, len, "work %s", d);
	case JS_CAUSE_TLB:
		return snprintf(buf, len, "TLB flush %s", d);
	case JS_CAUSE_STEAL:
		return snprintf(buf, len, "hypervisor steal");
	case JS_CAUSE_HOST_RELOAD:
	case JS_CAUSE_HOST_CLOCK:
		return snprintf(buf, len, "host: %s", d);
	case JS_CAUSE_HOST_PERIODIC:
		return snprintf(buf, len, "host: periodic %s", d);
	case JS_CAUSE_SMI:
		return snprintf(buf, len, "SMI");
	case JS_CAUSE_UNEXPLAINED:
		return js_scpy(buf, len, js_cause_name(cause));
	default: /* task, hrtimer, fault, thp, mm: the detail says it all */
		return js_scpy(buf, len, d);
	}
}

/* work_suffix - what a run's detail ends with: a kworker's work function ("comm:pid fn"),
 * a softirq thread's softirq ("ksoftirqd/1:22 NET_RX"); NULL if nothing */
static const char *work_suffix(const char *detail)
{
	const char *sp = strrchr(detail, ' ');

	return sp && sp[1] ? sp + 1 : NULL;
}

/* preempted - " preempted by " before a part that is a task's or a kernel thread's run */
static const char *preempted(uint32_t cause, const char *detail)
{
	return cause == JS_CAUSE_TASK || js_part_thread(cause, detail) ? "preempted by " : "";
}

/* folded - is part i what the primary run is named after, shown inside its time: a
 * kworker's work item, a softirq thread's softirq */
static bool folded(const struct js_attr *a, uint32_t i)
{
	uint32_t inside = a->primary == JS_CAUSE_TASK ? JS_CAUSE_WORK : JS_CAUSE_SOFTIRQ;
	const char *fn;

	if (a->parts[i].cause != inside ||
	    (a->primary != JS_CAUSE_TASK && !js_part_thread(a->primary, a->detail)))
		return false;
	fn = work_suffix(a->detail);
	return fn && !strcmp(fn, a->parts[i].detail);
}

/* primary_index - the part the primary cause names, or -1 */
static int primary_index(const struct js_attr *a)
{
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++)
		if (a->parts[i].cause == a->primary && !strcmp(a->parts[i].detail, a->detail))
			return (int)i;
	return -1;
}

/* term - " + " (unless first), label, " xN" when repeated, " (net)" when it took time,
 * " (net + E entry/exit)" when an interruption was given its entry/exit (js_entry.h) */
static void term(struct sb *b, bool first, uint32_t cause, const char *detail, uint32_t count,
		 uint64_t net, uint64_t entry, const char *prefix)
{
	char label[JS_DETAIL_LEN + 48], t[32], e[32];

	story_part_label(label, sizeof(label), cause, detail);
	sb_printf(b, "%s%s%s", first ? "" : " + ", prefix, label);
	if (count > 1)
		sb_printf(b, " x%u", count);
	if (entry)
		sb_printf(b, " (%s + %s entry/exit)", fmt_ns(t, net), fmt_ns(e, entry));
	else if (net)
		sb_printf(b, " (%s)", fmt_ns(t, net));
}

/* sources_of - how many sources a part stands for: N for "(other: N sources)", else 1 */
static uint32_t sources_of(const struct js_part *p)
{
	unsigned n;

	if (js_detail_folded(p->detail) && sscanf(p->detail, "(other: %u sources)", &n) == 1 && n)
		return n;
	return 1;
}

/* event_terms - the primary part (first: the story's first term), then the others by net,
 * at most STORY_TERMS */
static void event_terms(struct sb *b, const struct js_attr *a, int prim, bool first)
{
	const struct js_part *p = &a->parts[prim];
	uint64_t net = p->net_ns, more_ns = 0;
	uint32_t shown = 1, more = 0;
	char t[32];

	for (uint32_t i = 0; i < a->nparts; i++)
		if (folded(a, i))
			net += a->parts[i].net_ns;
	term(b, first, p->cause, p->detail, p->count, net, p->entry_ns,
	     preempted(p->cause, p->detail));
	if (a->waker.ctx) {
		char w[128];

		js_waker_format(w, sizeof(w), &a->waker);
		sb_printf(b, ", woken by %s", w);
	}
	for (uint32_t i = 0; i < a->nparts; i++) {
		if ((int)i == prim || folded(a, i))
			continue;
		if (shown < STORY_TERMS) {
			p = &a->parts[i];
			term(b, false, p->cause, p->detail, p->count, p->net_ns, p->entry_ns, "");
			shown++;
		} else {
			more += sources_of(&a->parts[i]);
			more_ns += a->parts[i].net_ns + a->parts[i].entry_ns;
		}
	}
	if (more)
		sb_printf(b, " + %u more (%s)", more, fmt_ns(t, more_ns));
}

/* tail_terms - steal (unless told it was said first), SMI and the unexplained remainder
 * after the event causes */
static void tail_terms(struct sb *b, const struct js_attr *a, bool first, bool steal)
{
	char t[32];

	if (steal && a->steal_ns) {
		term(b, first, JS_CAUSE_STEAL, "", 0, a->steal_ns, 0, "");
		first = false;
	}
	if (a->smi) {
		sb_printf(b, "%sSMI x%" PRIu64, first ? "" : " + ", a->smi);
		first = false;
	}
	if (a->unexplained_ns)
		sb_printf(b, "%s%s unexplained", first ? "" : " + ", fmt_ns(t, a->unexplained_ns));
}

/* story_format - the one-line story of a gap */
int story_format(char *buf, size_t len, const struct js_gap_rec *r, uint64_t run_start_ns)
{
	const struct js_attr *a = r ? &r->attr : NULL;
	struct sb b = { buf, len, 0 };
	uint64_t at;
	char d[32], t[32], u[32];
	int prim;

	if (!r || (!buf && len))
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	at = r->gap.start_ns > run_start_ns ? r->gap.start_ns - run_start_ns : 0;
	sb_printf(&b, "%s at %s: ", fmt_ns(d, r->gap.dur_ns), fmt_ns(t, at));
	prim = primary_index(a);
	if (a->primary == JS_CAUSE_STEAL && a->nparts) {
		/* mostly the host's: its steal first, then what the guest saw meanwhile */
		term(&b, true, JS_CAUSE_STEAL, "", 0, a->steal_ns, 0, "");
		event_terms(&b, a, 0, false);
		tail_terms(&b, a, false, false);
		return (int)b.pos;
	}
	if (a->primary == JS_CAUSE_UNEXPLAINED && a->nparts) {
		/* larger than any cause's share (corr_settle): the remainder first */
		sb_printf(&b, "%s unexplained", fmt_ns(u, a->unexplained_ns));
		event_terms(&b, a, 0, false);
		if (a->steal_ns)
			term(&b, false, JS_CAUSE_STEAL, "", 0, a->steal_ns, 0, "");
		return (int)b.pos;
	}
	if (prim < 0 && a->nparts)
		prim = 0; /* primary not among the parts (hand-made attr): largest first */
	if (prim >= 0) {
		event_terms(&b, a, prim, true);
		tail_terms(&b, a, false, true);
	} else if (a->primary == JS_CAUSE_SMI) {
		/* the SMI's own duration is not measured: it is the time no guest event explains */
		sb_printf(&b, "SMI x%" PRIu64 " (%s, no guest event)", a->smi ? a->smi : 1,
			  fmt_ns(u, a->unexplained_ns));
		if (a->steal_ns)
			term(&b, false, JS_CAUSE_STEAL, "", 0, a->steal_ns, 0, "");
	} else if (a->primary == JS_CAUSE_STEAL) {
		tail_terms(&b, a, true, true);
	} else {
		sb_printf(&b, "%s unexplained (no guest event)", fmt_ns(u, a->unexplained_ns));
		if (a->steal_ns)
			term(&b, false, JS_CAUSE_STEAL, "", 0, a->steal_ns, 0, "");
	}
	return (int)b.pos;
}

/* seg - one stretch, if it took time */
static void seg(struct story_seg *out, size_t *n, uint32_t cause, const char *detail, uint64_t ns,
		bool entry)
{
	if (ns && *n < STORY_SEGS_MAX)
		out[(*n)++] = (struct story_seg){ cause, detail ? detail : "", ns, entry };
}

/* part_segs - the parts as event_terms tells them: the primary (with what is folded into
 * it) and its entry/exit, then the others */
static void part_segs(const struct js_attr *a, int prim, struct story_seg *out, size_t *n)
{
	const struct js_part *p = &a->parts[prim];
	uint64_t net = p->net_ns;

	for (uint32_t i = 0; i < a->nparts; i++)
		if (folded(a, i))
			net += a->parts[i].net_ns;
	seg(out, n, p->cause, p->detail, net, false);
	seg(out, n, p->cause, p->detail, p->entry_ns, true);
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		if ((int)i == prim || folded(a, i))
			continue;
		seg(out, n, a->parts[i].cause, a->parts[i].detail, a->parts[i].net_ns, false);
		seg(out, n, a->parts[i].cause, a->parts[i].detail, a->parts[i].entry_ns, true);
	}
}

/* story_segments - the gap's time in the story's order (the branches of story_format) */
size_t story_segments(const struct js_gap_rec *r, struct story_seg *out)
{
	const struct js_attr *a = &r->attr;
	int prim = primary_index(a);
	bool steal = a->primary == JS_CAUSE_STEAL;
	/* the remainder first: the primary, or all there is (an SMI's time: no guest event) */
	bool lead = a->primary == JS_CAUSE_UNEXPLAINED || (!a->nparts && !steal);
	size_t n = 0;

	if (lead)
		seg(out, &n, a->primary == JS_CAUSE_SMI ? JS_CAUSE_SMI : JS_CAUSE_UNEXPLAINED, "",
		    a->unexplained_ns, false);
	if (steal)
		seg(out, &n, JS_CAUSE_STEAL, "", a->steal_ns, false);
	if (a->nparts)
		part_segs(a, steal || a->primary == JS_CAUSE_UNEXPLAINED || prim < 0 ? 0 : prim,
			  out, &n);
	if (!steal)
		seg(out, &n, JS_CAUSE_STEAL, "", a->steal_ns, false);
	if (!lead)
		seg(out, &n, JS_CAUSE_UNEXPLAINED, "", a->unexplained_ns, false);
	return n;
}

/* story_format_brief - the one-line story of a gap known by its primary cause only */
int story_format_brief(char *buf, size_t len, uint64_t start_ns, uint64_t dur_ns, uint32_t cause,
		       const char *detail, uint64_t run_start_ns)
{
	const char *d = detail ? detail : "";
	struct sb b = { buf, len, 0 };
	char t[32], at[32];

	if (!buf && len)
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	sb_printf(&b, "%s at %s: ", fmt_ns(t, dur_ns),
		  fmt_ns(at, start_ns > run_start_ns ? start_ns - run_start_ns : 0));
	term(&b, true, cause, d, 0, 0, 0, preempted(cause, d));
	if (cause == JS_CAUSE_UNEXPLAINED && d[0])
		sb_printf(&b, " (%s)", d);
	return (int)b.pos;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void detail_line(struct sb *b, const char *ind, const char *cls, const char *src,
			uint64_t count, uint64_t ns, uint64_t dur)
{
	char n[24] = "", t[32];

	if (count)
		snprintf(n, sizeof(n), "x%" PRIu64, count);
	sb_printf(b, "%s  %-11s %-44s %6s %10s %5.1f %%\n", ind, cls, src, n, fmt_ns(t, ns),
		  pct(ns, dur));
}

/* story_format_detail - multi-line breakdown of a gap */
int story_format_detail(char *buf, size_t len, const struct js_gap_rec *r, uint64_t run_start_ns,
			const char *indent)
{
	const char *ind = indent ? indent : "";
	struct sb b = { buf, len, 0 };
	const struct js_attr *a;
	uint64_t at, dur;
	char d[32], c[32];

	if (!r || (!buf && len))
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	a = &r->attr;
	dur = r->gap.dur_ns;
	at = r->gap.start_ns > run_start_ns ? r->gap.start_ns - run_start_ns : 0;
	sb_printf(&b,
		  "%sgap of %s at t+%" PRIu64 ".%09" PRIu64 " s on CPU %u: primary %s%s%s, "
		  "%u events, covered %s (%.1f %%)\n",
		  ind, fmt_ns(d, dur), at / 1000000000u, at % 1000000000u, r->gap.cpu,
		  js_cause_name(a->primary), a->detail[0] ? " " : "", a->detail, a->nevents,
		  fmt_ns(c, a->covered_ns), pct(a->covered_ns, dur));
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		const struct js_part *p = &a->parts[i];
		char src[JS_DETAIL_LEN + 16];

		detail_line(&b, ind, js_cause_name(p->cause), p->detail, p->count, p->net_ns, dur);
		if (!p->entry_ns)
			continue;
		snprintf(src, sizeof(src), "%s entry/exit", p->detail);
		detail_line(&b, ind, js_cause_name(p->cause), src, 0, p->entry_ns, dur);
	}
	if (a->steal_ns)
		detail_line(&b, ind, js_cause_name(JS_CAUSE_STEAL), CAUSES_STEAL_DETAIL, 0,
			    a->steal_ns, dur);
	if (a->smi)
		sb_printf(&b, "%s  %-11s SMI counter +%" PRIu64 " during this gap\n", ind,
			  js_cause_name(JS_CAUSE_SMI), a->smi);
	detail_line(&b, ind, js_cause_name(JS_CAUSE_UNEXPLAINED), causes_unexplained_detail(a), 0,
		    a->unexplained_ns, dur);
	return (int)b.pos;
}

/* stack_lines - a heading line, then one frame a line (innermost first) */
static void stack_lines(struct sb *b, const char *ind, const char *head, const struct js_stack *st)
{
	sb_printf(b, "%s%s\n", ind, head);
	for (uint32_t i = 0; i < st->n && i < JS_STACK_FRAMES; i++)
		sb_printf(b, "%s  %s\n", ind, st->frame[i]);
	if (!st->n)
		sb_printf(b, "%s  (only the probe's own frames)\n", ind);
}

int story_format_stacks(char *buf, size_t len, const struct js_gap_rec *r,
			const struct js_stacks *t, const char *indent)
{
	const char *ind = indent ? indent : "";
	struct sb b = { buf, len, 0 };
	const struct js_stack *st;
	char head[JS_DETAIL_LEN + 64], who[64];

	if (!r || (!buf && len))
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	st = js_stacks_get(t, r->attr.stack);
	if (st) {
		snprintf(head, sizeof(head), "stack of %s where it left the CPU:",
			 r->attr.detail[0] ? r->attr.detail : "the preempting task");
		stack_lines(&b, ind, head, st);
	}
	st = r->attr.waker.ctx ? js_stacks_get(t, r->attr.waker.stack) : NULL;
	if (st) {
		js_waker_who(who, sizeof(who), &r->attr.waker);
		snprintf(head, sizeof(head), "stack of its waker %s at the wake-up:", who);
		stack_lines(&b, ind, head, st);
	}
	return (int)b.pos;
}
