// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* entry.c - entry and exit belong to the interruption (see js_entry.h). Pure: no I/O. */
#include <string.h>

#include "js_entry.h"
#include "js_util.h"

/* entry_init - an empty model with its prior */
void entry_init(struct js_entry *m, double exit_ns)
{
	memset(m, 0, sizeof(*m));
	m->prior_ns = exit_ns > 0 ? (uint64_t)(ENTRY_PRIOR_EXITS * exit_ns + 0.5) :
				    ENTRY_PRIOR_BARE_NS;
	m->cap_ns = exit_ns > 0 ? (uint64_t)(ENTRY_CAP_EXITS * exit_ns + 0.5) : ENTRY_CAP_BARE_NS;
}

/* entry_kind_of - the interruption kind of a cause class (its row's entry_kind) */
int entry_kind_of(uint32_t cause)
{
	const struct js_cause_info *ci = js_cause_info(cause);

	return ci->role == JS_ROLE_INTERRUPT ? ci->entry_kind : -1;
}

/* entry_kind_name - the name of the class of that kind */
const char *entry_kind_name(int kind)
{
	for (uint32_t c = 0; kind >= 0 && c < JS_CAUSE_MAX; c++)
		if (entry_kind_of(c) == kind)
			return js_cause_name(c);
	return NULL;
}

/* entry_kind_from_name - the kind of a cause class name */
int entry_kind_from_name(const char *name)
{
	int c = js_cause_from_name(name);

	return c < 0 ? -1 : entry_kind_of((uint32_t)c);
}

/* entry_cap - cap_ns, and ENTRY_FLOOR_MULT floors once the kind has learned */
uint64_t entry_cap(const struct js_entry *m, int k)
{
	const struct js_entry_kind *e;

	if (k < 0 || k >= ENTRY_KINDS)
		return 0;
	e = &m->k[k];
	if (e->lone >= ENTRY_MIN_LONE && e->floor_ns)
		return JS_MIN(m->cap_ns, ENTRY_FLOOR_MULT * e->floor_ns);
	return m->cap_ns;
}

/* entry_bound - learned once the kind has enough lone gaps, else the prior; capped */
uint64_t entry_bound(const struct js_entry *m, int k)
{
	uint64_t b;

	if (k < 0 || k >= ENTRY_KINDS)
		return 0;
	b = m->k[k].lone >= ENTRY_MIN_LONE ? m->k[k].bound_ns : m->prior_ns;
	return JS_MIN(b, entry_cap(m, k));
}

/* rank_ns - upper edge of the bin holding the pct-th percentile of the histogram */
static uint64_t rank_ns(const struct js_entry_kind *k, unsigned int pct)
{
	uint64_t want = ((uint64_t)k->n * pct + 99) / 100, acc = 0;

	for (int i = 0; i < ENTRY_BINS; i++) {
		acc += k->bins[i];
		if (acc >= want && acc)
			return (uint64_t)(i + 1) * ENTRY_BIN_NS;
	}
	return 0;
}

static void refresh(struct js_entry_kind *k)
{
	k->bound_ns = rank_ns(k, ENTRY_PCT);
	k->median_ns = rank_ns(k, 50);
	k->floor_ns = rank_ns(k, ENTRY_FLOOR_PCT);
	k->since = 0;
}

/* learn - one lone remainder of kind k */
static void learn(struct js_entry_kind *k, uint64_t r)
{
	uint64_t bin = r / ENTRY_BIN_NS;

	if (k->n >= ENTRY_WINDOW) {
		k->n = 0;
		for (int i = 0; i < ENTRY_BINS; i++) {
			k->bins[i] /= 2;
			k->n += k->bins[i];
		}
	}
	k->bins[JS_MIN(bin, (uint64_t)ENTRY_BINS - 1)]++;
	k->n++;
	k->lone++;
	if (++k->since >= ENTRY_REFRESH || k->lone == ENTRY_MIN_LONE)
		refresh(k);
}

/* blocks_lone - does a part add more than an interruption's entry/exit (a kernel thread's
 * run does, whatever its class: js_part_role()) */
static bool blocks_lone(const struct js_part *p)
{
	uint8_t role = js_part_role(p->cause, p->detail);

	return role == JS_ROLE_CONTEXT || role == JS_ROLE_OFFCPU;
}

/* part_kind - the interruption kind of a part, -1 if it is none (a folded part is not, nor
 * a kernel thread's run: its class is an interruption's, it is not one) */
static int part_kind(const struct js_part *p)
{
	if (js_detail_folded(p->detail) || js_part_role(p->cause, p->detail) != JS_ROLE_INTERRUPT)
		return -1;
	return entry_kind_of(p->cause);
}

/* entry_account - learn from a gap, then give its interruptions their entry/exit */
void entry_account(struct js_entry *m, struct js_gap_rec *g)
{
	struct js_attr *a = &g->attr;
	uint64_t r = a->unexplained_ns, want = 0, given = 0, n = 0, e;
	uint32_t last = 0;
	bool seen[ENTRY_KINDS] = { false };
	int kind = -1;
	bool lone = !a->steal_ns && !a->smi;

	if (a->entry_ns)
		return; /* accounted already */
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		const struct js_part *p = &a->parts[i];
		int k = part_kind(p);

		if (blocks_lone(p) || js_detail_folded(p->detail))
			lone = false;
		if (k < 0)
			continue;
		n += p->count;
		kind = k;
	}
	if (!n)
		return; /* no interruption: the remainder stays unexplained */
	if (lone && n == 1)
		learn(&m->k[kind], r);
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		int k = part_kind(&a->parts[i]);

		if (k >= 0) {
			want += a->parts[i].count * entry_bound(m, k);
			last = i;
		}
	}
	e = JS_MIN(r, want);
	if (!e)
		return;
	/* each interruption's share of e by its bound; the last one takes the rounding */
	for (uint32_t i = 0; i <= last; i++) {
		struct js_part *p = &a->parts[i];
		int k = part_kind(p);
		uint64_t share;

		if (k < 0)
			continue;
		share = i == last ? e - given :
				    (uint64_t)((double)e * (double)(p->count * entry_bound(m, k)) /
					       (double)want);
		p->entry_ns = share;
		given += share;
		m->k[k].gaps += !seen[k];
		seen[k] = true;
		m->k[k].entries += p->count;
		m->k[k].entry_ns += share;
	}
	a->entry_ns = e;
	a->unexplained_ns = r - e;
}

/* entry_finish - final bound and median of every kind that learned */
void entry_finish(struct js_entry *m)
{
	for (int k = 0; k < ENTRY_KINDS; k++)
		if (m->k[k].n)
			refresh(&m->k[k]);
}
