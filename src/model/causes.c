// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * causes.c - the class table (each cause class's name, colour, role, track: js_model.h), the
 * cause table of a run and the cause-annotated gap histogram (js_causes.h). Pure: no I/O.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_causes.h"
#include "js_cgroup.h"
#include "js_entry.h"
#include "js_util.h"

/*
 * The class table: one row per cause class, the only place its properties are set.
 * Tracks are the trace's order (irq first after "gaps"); entry kinds the order of the
 * entry/exit tables (enum entry_kind).
 */
static const struct js_cause_info class_table[JS_CAUSE_MAX] = {
	[JS_CAUSE_UNEXPLAINED] = { "unexplained", "#9e9e9e", '.', JS_ROLE_ACCOUNT },
	[JS_CAUSE_TASK] = { "task", "#1f77b4", 't', JS_ROLE_OFFCPU, .track = 8 },
	[JS_CAUSE_IDLE] = { "idle", "#aec7e8", 'z', JS_ROLE_OFFCPU, .track = 9 },
	[JS_CAUSE_IRQ] = { "irq", "#d62728", 'i', JS_ROLE_INTERRUPT, ENTRY_IRQ, .track = 1 },
	[JS_CAUSE_TIMER] = { "timer", "#ff7f0e", 'T', JS_ROLE_INTERRUPT, ENTRY_TIMER, .track = 2 },
	[JS_CAUSE_IPI] = { "ipi", "#9467bd", 'p', JS_ROLE_INTERRUPT, ENTRY_IPI, .track = 3 },
	[JS_CAUSE_VECTOR] = { "vector", "#c5b0d5", 'v', JS_ROLE_INTERRUPT, ENTRY_VECTOR,
			      .track = 4 },
	[JS_CAUSE_SOFTIRQ] = { "softirq", "#2ca02c", 's', JS_ROLE_NESTED, .track = 5 },
	[JS_CAUSE_HRTIMER] = { "hrtimer", "#e6b422", 'h', JS_ROLE_NESTED, .track = 6 },
	[JS_CAUSE_NMI] = { "nmi", "#8c564b", 'n', JS_ROLE_INTERRUPT, ENTRY_NMI, .track = 7 },
	[JS_CAUSE_FAULT] = { "fault", "#e377c2", 'f', JS_ROLE_CONTEXT, .track = 11 },
	[JS_CAUSE_WORK] = { "work", "#17becf", 'w', JS_ROLE_CONTEXT, .track = 10 },
	[JS_CAUSE_THP] = { "thp", "#bcbd22", 'H', JS_ROLE_CONTEXT, .track = 13,
			   .track_shared = true },
	[JS_CAUSE_TLB] = { "tlb", "#f7b6d2", 'l', JS_ROLE_NESTED, .track = 12 },
	[JS_CAUSE_MM] = { "mm", "#98df8a", 'm', JS_ROLE_CONTEXT, .track = 13 },
	[JS_CAUSE_EVENT] = { "event", "#ff9896", 'e', JS_ROLE_NESTED, .track = 14 },
	[JS_CAUSE_STEAL] = { "steal", "#393b79", 'S', JS_ROLE_ACCOUNT },
	[JS_CAUSE_HOST_RELOAD] = { "host-reload", "#5254a3", 'R', JS_ROLE_ACCOUNT },
	[JS_CAUSE_HOST_CLOCK] = { "host-clock", "#6b6ecf", 'K', JS_ROLE_ACCOUNT },
	[JS_CAUSE_HOST_PERIODIC] = { "host-periodic", "#9c9ede", 'P', JS_ROLE_ACCOUNT },
	[JS_CAUSE_SMI] = { "smi", "#000000", 'M', JS_ROLE_ACCOUNT },
};

/* js_cause_info - the row of class c; an unknown class gets unexplained's */
const struct js_cause_info *js_cause_info(uint32_t c)
{
	return &class_table[c < JS_CAUSE_MAX ? c : JS_CAUSE_UNEXPLAINED];
}

/* js_cause_name - "task", "irq", ... for enum js_cause; "?" if unknown */
const char *js_cause_name(enum js_cause c)
{
	return (unsigned)c < JS_CAUSE_MAX ? class_table[c].name : "?";
}

/* js_cause_from_name - the enum js_cause named name; -1 if none */
int js_cause_from_name(const char *name)
{
	for (int c = 0; name && c < JS_CAUSE_MAX; c++)
		if (!strcmp(class_table[c].name, name))
			return c;
	return -1;
}

/*
 * The thread table: the kernel threads whose runs are the interrupt work they carry. On
 * PREEMPT_RT every hard IRQ handler but a few runs in its irq/N thread and the timer and
 * other softirqs in ktimers/N and ksoftirqd/N; without RT, threadirqs and the softirqs
 * deferred to ksoftirqd do the same. rcuc/N runs RCU's core work, which the RCU softirq runs
 * where there is no rcuc thread (rcutree.use_softirq): softirq, "RCU". backlog_napi/N runs
 * the CPU's backlog NAPI (RPS and non-NAPI drivers' packets), which the NET_RX softirq runs
 * where there is no such thread (Linux 6.10: always on PREEMPT_RT, else
 * thread_backlog_napi): softirq, "NET_RX".
 */
static const struct js_thread_class thread_table[] = {
	{ "irq/", JS_CAUSE_IRQ, "IRQ thread", NULL, false },
	{ "ktimers/", JS_CAUSE_TIMER, "timer thread", NULL, true },
	{ "ksoftirqd/", JS_CAUSE_SOFTIRQ, "softirq thread", NULL, true },
	{ "rcuc/", JS_CAUSE_SOFTIRQ, "softirq thread", "RCU", false },
	{ "backlog_napi/", JS_CAUSE_SOFTIRQ, "softirq thread", "NET_RX", false },
};

/* js_thread_class - the row of the kernel thread named name, NULL if none */
const struct js_thread_class *js_thread_class(const char *name)
{
	/* asked for every part of every gap: most names start with none of the prefixes'
	 * letters (irq/, ktimers/, ksoftirqd/, rcuc/, backlog_napi/) */
	if (!name || (name[0] != 'i' && name[0] != 'k' && name[0] != 'r' && name[0] != 'b'))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(thread_table); i++) {
		size_t n = strlen(thread_table[i].prefix);

		if (!strncmp(name, thread_table[i].prefix, n) && name[n] >= '0' && name[n] <= '9')
			return &thread_table[i];
	}
	return NULL;
}

/* js_part_thread - the row of the kernel thread a part names, when its runs are the part's
 * class */
const struct js_thread_class *js_part_thread(uint32_t cause, const char *detail)
{
	const struct js_thread_class *t;

	/* the table's classes alone: no name to read for the others */
	if (cause != JS_CAUSE_IRQ && cause != JS_CAUSE_TIMER && cause != JS_CAUSE_SOFTIRQ)
		return NULL;
	t = js_thread_class(detail);

	return t && t->cause == cause ? t : NULL;
}

/* js_part_role - the part's class's role, a kernel thread's run off CPU */
uint8_t js_part_role(uint32_t cause, const char *detail)
{
	return js_part_thread(cause, detail) ? JS_ROLE_OFFCPU : js_cause_info(cause)->role;
}

/* js_source_key - strip the pids: ":digits" followed by a space, ')' or the end (an IRQ's
 * ":36" is its number, an IRQ thread's ":123" its tid) */
void js_source_key(uint32_t cause, const char *detail, char *key, size_t len)
{
	bool pids = cause != JS_CAUSE_IRQ || js_part_thread(cause, detail);
	size_t o = 0;

	for (const char *s = detail; *s && o + 1 < len; s++) {
		if (pids && *s == ':' && isdigit((unsigned char)s[1])) {
			const char *e = s + 1;

			while (isdigit((unsigned char)*e))
				e++;
			if (!*e || *e == ' ' || *e == ')') {
				s = e - 1;
				continue;
			}
		}
		key[o++] = *s;
	}
	key[o] = '\0';
}

/* causes_init - an empty table */
void causes_init(struct js_causes *c)
{
	memset(c, 0, sizeof(*c));
}

/* key_of - a part's source key: fault details lose their " @0x..." address */
static void key_of(uint32_t cause, const char *detail, char *key)
{
	size_t n = strnlen(detail, JS_DETAIL_LEN - 1); /* detail may be a short literal */
	char *at;

	memcpy(key, detail, n);
	key[n] = '\0';
	if (cause != JS_CAUSE_FAULT)
		return;
	at = strstr(key, " @0x");
	if (at) {
		char *end = at + 4;

		end += strspn(end, "0123456789abcdefABCDEF");
		memmove(at, end, strlen(end) + 1);
	}
}

static uint32_t hash_of(uint32_t cause, const char *key)
{
	uint32_t h = 2166136261u ^ cause;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

static struct js_cause_src *src_new(struct js_causes *c, uint32_t cause, const char *key)
{
	struct js_cause_src *s = &c->src[c->nsrc++];

	memset(s, 0, sizeof(*s));
	s->cause = cause;
	js_scpy(s->detail, JS_DETAIL_LEN, key);
	return s;
}

/* src_other - the class's "(other)" source, made from a reserved slot on first use */
static struct js_cause_src *src_other(struct js_causes *c, uint32_t cause)
{
	struct js_cause_src *s;

	if (!c->other[cause]) {
		s = src_new(c, cause, "(other)");
		s->other = 1;
		c->other[cause] = (uint16_t)c->nsrc;
	}
	return &c->src[c->other[cause] - 1];
}

/*
 * src_find - the source of (cause, key), created if there is room. One slot per
 * class stays reserved for the "(other)" sources, so the table never overflows.
 */
static struct js_cause_src *src_find(struct js_causes *c, uint32_t cause, const char *key)
{
	uint32_t h = hash_of(cause, key) % JS_CAUSES_HASH;
	struct js_cause_src *s;

	for (;; h = (h + 1) % JS_CAUSES_HASH) {
		if (!c->hash[h])
			break;
		s = &c->src[c->hash[h] - 1];
		if (s->cause == cause && !s->other && !strcmp(s->detail, key))
			return s;
	}
	if (c->nsrc >= JS_CAUSES_SRC_MAX - JS_CAUSE_MAX) {
		c->overflowed++;
		return src_other(c, cause);
	}
	s = src_new(c, cause, key);
	c->hash[h] = (uint16_t)c->nsrc;
	return s;
}

/* count_in - add ns/events of the current gap (serial) to a source's or class's counters */
static void count_in(uint64_t serial, uint64_t events, uint64_t ns, uint64_t *gaps, uint64_t *ev,
		     uint64_t *total, uint64_t *max, uint64_t *last, uint64_t *cur)
{
	if (*last != serial) {
		*last = serial;
		*cur = 0;
		(*gaps)++;
	}
	*cur += ns;
	*ev += events;
	*total += ns;
	if (*cur > *max)
		*max = *cur;
}

/* add_src - ns of a source in the current gap, of which entry is its entry/exit */
static void add_src(struct js_causes *c, uint32_t cause, const char *detail, uint64_t events,
		    uint64_t ns, uint64_t entry)
{
	struct js_cause_class *k;
	struct js_cause_src *s;
	char key[JS_DETAIL_LEN];

	if (cause >= JS_CAUSE_MAX)
		cause = JS_CAUSE_UNEXPLAINED;
	s = c->last[cause] ? &c->src[c->last[cause] - 1] : NULL;
	if (!s || cause == JS_CAUSE_FAULT || strncmp(s->detail, detail, JS_DETAIL_LEN - 1)) {
		key_of(cause, detail, key);
		/* a gap's own folded part ("(other: N sources)") joins the class's "(other)" */
		s = js_detail_folded(key) ? src_other(c, cause) : src_find(c, cause, key);
		if (!s->other)
			c->last[cause] = (uint16_t)(s - c->src + 1);
	}
	count_in(c->ngaps, events, ns, &s->gaps, &s->events, &s->total_ns, &s->max_ns, &s->last_gap,
		 &s->cur_ns);
	s->entry_ns += entry;
	k = &c->cls[cause];
	count_in(c->ngaps, events, ns, &k->gaps, &k->events, &k->total_ns, &k->max_ns, &k->last_gap,
		 &k->cur_ns);
	k->entry_ns += entry;
}

/* gap_in - count a gap in the table's totals; returns its primary cause */
static uint32_t gap_in(struct js_causes *c, const struct js_gap_rec *g)
{
	uint32_t prim = g->attr.primary < JS_CAUSE_MAX ? g->attr.primary : JS_CAUSE_UNEXPLAINED;

	c->ngaps++;
	c->lost_ns += g->gap.dur_ns;
	c->by_primary[prim]++;
	c->ns_by_primary[prim] += g->gap.dur_ns;
	return prim;
}

const char *causes_unexplained_detail(const struct js_attr *a)
{
	if (a->evidence_lost)
		return CAUSES_UNKNOWN_DETAIL;
	return a->nparts ? CAUSES_RESIDUAL_DETAIL : CAUSES_NOEVENT_DETAIL;
}

/* causes_add_gap - account one attributed gap */
void causes_add_gap(struct js_causes *c, const struct js_gap_rec *g)
{
	const struct js_attr *a = &g->attr;
	uint32_t prim = gap_in(c, g);

	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++)
		add_src(c, a->parts[i].cause, a->parts[i].detail, a->parts[i].count,
			a->parts[i].net_ns + a->parts[i].entry_ns, a->parts[i].entry_ns);
	if (a->steal_ns)
		add_src(c, JS_CAUSE_STEAL, CAUSES_STEAL_DETAIL, 0, a->steal_ns, 0);
	if (prim == JS_CAUSE_SMI) {
		add_src(c, JS_CAUSE_SMI, js_cause_name(JS_CAUSE_SMI), a->smi, a->unexplained_ns, 0);
		return;
	}
	if (a->smi)
		add_src(c, JS_CAUSE_SMI, js_cause_name(JS_CAUSE_SMI), a->smi, 0, 0);
	if (a->unexplained_ns)
		add_src(c, JS_CAUSE_UNEXPLAINED, causes_unexplained_detail(a), 0, a->unexplained_ns,
			0);
}

/* causes_add_cgroups - account one attributed gap by cgroup */
void causes_add_cgroups(struct js_causes *c, const struct js_gap_rec *g,
			const struct js_cgroups *cg)
{
	const struct js_attr *a = &g->attr;

	gap_in(c, g);
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		const struct js_part *p = &a->parts[i];
		const char *name = cgroups_name(cg, p->cgroup);
		char key[JS_DETAIL_LEN];

		if (!p->cgroup)
			continue;
		if (name)
			js_scpy(key, sizeof(key), name);
		else
			snprintf(key, sizeof(key), "cgroup id %llu", (unsigned long long)p->cgroup);
		add_src(c, p->cause, key, p->count, p->net_ns + p->entry_ns, p->entry_ns);
	}
}

/* causes_source - the source a part (cause, detail) was counted in (js_causes.h) */
const struct js_cause_src *causes_source(const struct js_causes *c, uint32_t cause,
					 const char *detail)
{
	const struct js_cause_src *other = NULL;
	char key[JS_DETAIL_LEN];

	key_of(cause, detail, key);
	for (uint32_t i = 0; i < c->nsrc; i++) {
		const struct js_cause_src *s = &c->src[i];

		if (s->cause != cause)
			continue;
		if (s->other)
			other = s;
		else if (!js_detail_folded(key) && !strcmp(s->detail, key))
			return s;
	}
	return other;
}

static int src_cmp(const void *pa, const void *pb)
{
	const struct js_cause_src *a = *(const struct js_cause_src *const *)pa;
	const struct js_cause_src *b = *(const struct js_cause_src *const *)pb;

	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	if (a->gaps != b->gaps)
		return a->gaps > b->gaps ? -1 : 1;
	if (a->cause != b->cause)
		return a->cause < b->cause ? -1 : 1;
	return strcmp(a->detail, b->detail);
}

/* causes_sorted - the sources by total desc */
size_t causes_sorted(const struct js_causes *c, const struct js_cause_src **out, size_t max)
{
	const struct js_cause_src *all[JS_CAUSES_SRC_MAX];
	size_t n = c->nsrc;

	for (size_t i = 0; i < n; i++)
		all[i] = &c->src[i];
	qsort(all, n, sizeof(all[0]), src_cmp);
	n = JS_MIN(n, max);
	memcpy(out, all, n * sizeof(all[0]));
	return n;
}

/* causes_class - totals of one cause class */
const struct js_cause_class *causes_class(const struct js_causes *c, uint32_t cause)
{
	return cause < JS_CAUSE_MAX ? &c->cls[cause] : NULL;
}

/* causes_by_primary - gaps whose primary cause is cause */
uint64_t causes_by_primary(const struct js_causes *c, uint32_t cause)
{
	return cause < JS_CAUSE_MAX ? c->by_primary[cause] : 0;
}

/* causes_share - ns as a fraction of the lost time */
double causes_share(const struct js_causes *c, uint64_t ns)
{
	return c->lost_ns ? (double)ns / (double)c->lost_ns : 0.0;
}

static void merge_counts(struct js_cause_src *d, const struct js_cause_src *s)
{
	d->gaps += s->gaps;
	d->events += s->events;
	d->total_ns += s->total_ns;
	d->entry_ns += s->entry_ns;
	d->max_ns = JS_MAX(d->max_ns, s->max_ns);
}

/* causes_merge - add table src into dst */
void causes_merge(struct js_causes *dst, const struct js_causes *src)
{
	struct js_cause_src *d;

	dst->ngaps += src->ngaps;
	dst->lost_ns += src->lost_ns;
	dst->overflowed += src->overflowed;
	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		dst->by_primary[k] += src->by_primary[k];
		dst->ns_by_primary[k] += src->ns_by_primary[k];
		dst->cls[k].gaps += src->cls[k].gaps;
		dst->cls[k].events += src->cls[k].events;
		dst->cls[k].total_ns += src->cls[k].total_ns;
		dst->cls[k].entry_ns += src->cls[k].entry_ns;
		dst->cls[k].max_ns = JS_MAX(dst->cls[k].max_ns, src->cls[k].max_ns);
		dst->cls[k].last_gap = 0;
	}
	for (uint32_t i = 0; i < src->nsrc; i++) {
		const struct js_cause_src *s = &src->src[i];

		d = s->other ? src_other(dst, s->cause) : src_find(dst, s->cause, s->detail);
		merge_counts(d, s);
		d->last_gap = 0;
	}
}

/* ---- cause-annotated histogram ---- */

/* cbuckets_lo - inclusive lower bound of bucket i */
uint64_t cbuckets_lo(int i)
{
	static const uint64_t mant[3] = { 1, 2, 5 };
	uint64_t v;
	int j;

	if (i <= 0)
		return 0;
	if (i >= JS_CB_BUCKETS)
		return UINT64_MAX;
	j = i - 1;
	v = 100 * mant[j % 3];
	for (int d = 0; d < j / 3; d++)
		v *= 10;
	return v;
}

/* cbuckets_hi - exclusive upper bound of bucket i */
uint64_t cbuckets_hi(int i)
{
	return i >= JS_CB_BUCKETS - 1 ? UINT64_MAX : cbuckets_lo(i + 1);
}

/* cbuckets_index - the bucket of a duration */
int cbuckets_index(uint64_t dur_ns)
{
	int i = 0;

	while (i < JS_CB_BUCKETS - 1 && dur_ns >= cbuckets_lo(i + 1))
		i++;
	return i;
}

/* cbuckets_init - empty histogram */
void cbuckets_init(struct js_cause_buckets *b)
{
	memset(b, 0, sizeof(*b));
}

/* cbuckets_add - one gap of dur_ns with its primary cause */
void cbuckets_add(struct js_cause_buckets *b, uint64_t dur_ns, uint32_t primary)
{
	int i = cbuckets_index(dur_ns);

	if (primary >= JS_CAUSE_MAX)
		primary = JS_CAUSE_UNEXPLAINED;
	b->count[i][primary]++;
	b->ns[i][primary] += dur_ns;
	b->total[i]++;
}
