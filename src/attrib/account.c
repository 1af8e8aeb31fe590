// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * account.c - what no probe sees, given to the gaps after the events (js_correlate.h): the
 * host's steal clock, from the readings the probes' events carry (steal_log_*,
 * steal_allocate), and the SMI counter's delta (corr_smi_allocate). Both end with
 * corr_finish, which names a gap the host took at least half of steal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "corr_priv.h"
#include "js_util.h"

/* steal_log_init - an empty log of at most cap readings */
int steal_log_init(struct steal_log *l, size_t cap)
{
	l->n = 0;
	l->cap = cap;
	memset(&l->moves, 0, sizeof(l->moves));
	l->v = malloc((cap + 1) * sizeof(*l->v));
	return l->v ? 0 : -ENOMEM;
}

/* steal_log_free - release it (a zeroed log is fine) */
void steal_log_free(struct steal_log *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* log_add - one host reading (js_events.h, JS_HOST_*) with the versions has says it holds,
 * in time order: events arrive in end order, starts may be older */
static void log_add(struct steal_log *l, uint64_t t, uint64_t word, uint8_t has)
{
	size_t i;

	if (l->n == l->cap) { /* thin: keep every other reading */
		size_t k = 0;

		for (size_t j = 0; j < l->n; j += 2)
			l->v[k++] = l->v[j];
		l->n = k;
	}
	i = l->n;
	while (i > 0 && l->v[i - 1].t_ns > t) {
		l->v[i] = l->v[i - 1];
		i--;
	}
	l->v[i] = (struct steal_reading){
		.t_ns = t,
		.steal_ns = word & JS_HOST_STEAL_MASK,
		.st_version = (has & STEAL_HAS_ST_VERSION) ? (uint8_t)(word >> JS_HOST_ST_SHIFT) :
							     0,
		.clk_version =
			(has & STEAL_HAS_CLK_VERSION) ? (uint8_t)(word >> JS_HOST_CLK_SHIFT) : 0,
		.has = has,
	};
	l->n++;
	if (has) {
		l->moves.readings++;
		l->moves.has |= has;
	}
}

/* steal_log_add - the two readings a steal-carrying event holds */
void steal_log_add(struct steal_log *l, const struct js_event *e)
{
	uint8_t has = ((e->flags & JS_F_HOST_ST) ? STEAL_HAS_ST_VERSION : 0) |
		      ((e->flags & JS_F_HOST_CLK) ? STEAL_HAS_CLK_VERSION : 0);

	if (!(e->flags & JS_F_STEAL))
		return;
	log_add(l, e->start_ns, e->steal_start, has);
	log_add(l, e->end_ns, e->steal_end, has);
}

static uint64_t allocate(struct js_gap_rec *gaps, size_t ngaps, const struct steal_reading *r,
			 size_t nr, struct js_host_moves *seen);

/* steal_log_allocate - the steal up to the last gap's end to the gaps, one reading kept */
void steal_log_allocate(struct steal_log *l, struct js_gap_rec *recs, size_t n)
{
	uint64_t until;
	size_t m = 0;

	if (!n)
		return;
	until = recs[n - 1].gap.start_ns + recs[n - 1].gap.dur_ns;
	while (m < l->n && l->v[m].t_ns <= until)
		m++;
	if (m > 1) {
		allocate(recs, n, l->v, m, &l->moves);
		memmove(l->v, l->v + m - 1, (l->n - m + 1) * sizeof(*l->v));
		l->n -= m - 1;
	}
}

/* steal_room - steal gap r can still take from the window [t0, t1] */
static uint64_t steal_room(const struct js_gap_rec *r, uint64_t t0, uint64_t t1)
{
	uint64_t gs = r->gap.start_ns, ge = gs + r->gap.dur_ns;
	uint64_t lo = JS_MAX(gs, t0), hi = JS_MIN(ge, t1);
	uint64_t un = corr_left(&r->attr, r->gap.dur_ns);

	return hi > lo ? JS_MIN(un, hi - lo) : 0;
}

/* rooms_above - total room of the gaps whose room exceeds v */
static uint64_t rooms_above(const struct js_gap_rec *g, size_t a, size_t b, uint64_t t0,
			    uint64_t t1, uint64_t v)
{
	uint64_t sum = 0, room;

	for (size_t i = a; i < b; i++) {
		room = steal_room(&g[i], t0, t1);
		if (room > v)
			sum += room;
	}
	return sum;
}

/*
 * steal_fill - give amount to gaps [a, b) largest room first: find the smallest
 * level v whose rooms above it fit, fill those, share the rest among rooms == v.
 */
static uint64_t steal_fill(struct js_gap_rec *g, size_t a, size_t b, uint64_t t0, uint64_t t1,
			   uint64_t amount)
{
	uint64_t lo = 0, hi = 0, v, rest, room, give;

	for (size_t i = a; i < b; i++)
		hi = JS_MAX(hi, steal_room(&g[i], t0, t1));
	if (rooms_above(g, a, b, t0, t1, 0) <= amount)
		hi = 0;
	while (lo < hi) {
		v = lo + (hi - lo) / 2;
		if (rooms_above(g, a, b, t0, t1, v) <= amount)
			hi = v;
		else
			lo = v + 1;
	}
	v = lo;
	rest = amount - rooms_above(g, a, b, t0, t1, v);
	for (size_t i = a; i < b; i++) {
		room = steal_room(&g[i], t0, t1);
		give = room > v ? room : (room == v && v ? JS_MIN(v, rest) : 0);
		if (room <= v)
			rest -= give;
		g[i].attr.steal_ns += give;
	}
	return rest;
}

/* version_moves - the updates a version counter of both readings made between them (2 a
 * move, odd while one is written; its low byte: modulo 256) */
static uint32_t version_moves(const struct steal_reading *a, const struct steal_reading *b,
			      uint8_t has, bool clk)
{
	uint8_t v0 = clk ? a->clk_version : a->st_version;
	uint8_t v1 = clk ? b->clk_version : b->st_version;

	return (a->has & b->has & has) ? (uint8_t)(v1 - v0 + 1u) / 2u : 0;
}

/* host_mark - the window's moves to the gap of [a, b) with the most unexplained time left
 * inside it (none when no gap has any) */
static void host_mark(struct js_gap_rec *g, size_t a, size_t b, uint64_t t0, uint64_t t1,
		      uint32_t reloads, uint32_t clocks)
{
	uint64_t best_room = 0, room;
	size_t best = b;

	for (size_t i = a; i < b; i++) {
		room = steal_room(&g[i], t0, t1);
		if (room > best_room) {
			best_room = room;
			best = i;
		}
	}
	if (best == b)
		return;
	g[best].attr.host_reloads = (uint16_t)JS_MIN(g[best].attr.host_reloads + reloads, 0xffffu);
	g[best].attr.host_clock = (uint16_t)JS_MIN(g[best].attr.host_clock + clocks, 0xffffu);
}

/* allocate - steal_allocate(), the moves of its windows counted in *seen (NULL: not) */
static uint64_t allocate(struct js_gap_rec *gaps, size_t ngaps, const struct steal_reading *r,
			 size_t nr, struct js_host_moves *seen)
{
	uint64_t left = 0, t0, t1, delta;
	uint32_t reloads, clocks;
	size_t first = 0, end;

	for (size_t k = 0; k + 1 < nr; k++) {
		t0 = r[k].t_ns;
		t1 = r[k + 1].t_ns;
		delta = js_host_steal_delta(r[k].steal_ns, r[k + 1].steal_ns);
		/* a reload with steal is the run-queue's: the steal names it */
		reloads = delta ? 0 : version_moves(&r[k], &r[k + 1], STEAL_HAS_ST_VERSION, false);
		clocks = version_moves(&r[k], &r[k + 1], STEAL_HAS_CLK_VERSION, true);
		if (seen) {
			seen->reloads += reloads;
			seen->clocks += clocks;
		}
		if (!delta && !reloads && !clocks)
			continue;
		while (first < ngaps && gaps[first].gap.start_ns + gaps[first].gap.dur_ns <= t0)
			first++;
		for (end = first; end < ngaps && gaps[end].gap.start_ns < t1; end++)
			;
		if (delta)
			left += steal_fill(gaps, first, end, t0, t1, delta);
		if (reloads || clocks)
			host_mark(gaps, first, end, t0, t1, reloads, clocks);
	}
	for (size_t i = 0; i < ngaps; i++)
		corr_finish(&gaps[i].attr, gaps[i].gap.dur_ns);
	return left;
}

/* steal_allocate - distribute steal increments, and the host's version moves, to the gaps
 * of their windows */
uint64_t steal_allocate(struct js_gap_rec *gaps, size_t ngaps, const struct steal_reading *r,
			size_t nr)
{
	return allocate(gaps, ngaps, r, nr, NULL);
}

static bool smi_candidate(const struct js_gap_rec *g)
{
	return !g->attr.nparts && !g->attr.smi && g->attr.unexplained_ns &&
	       !corr_mostly_steal(&g->attr, g->gap.dur_ns);
}

/* corr_smi_allocate - mark the largest unexplained gaps with one SMI each */
uint64_t corr_smi_allocate(struct js_gap_rec *gaps, size_t n, uint64_t smi_delta)
{
	size_t best, ncand = 0;
	bool all;

	for (size_t i = 0; i < n; i++) {
		corr_finish(&gaps[i].attr, gaps[i].gap.dur_ns);
		ncand += smi_candidate(&gaps[i]);
	}
	all = smi_delta >= ncand; /* every candidate gets one: no need to rank */
	for (size_t i = 0; i < n && all; i++) {
		if (!smi_candidate(&gaps[i]))
			continue;
		gaps[i].attr.smi = 1;
		corr_finish(&gaps[i].attr, gaps[i].gap.dur_ns);
		smi_delta--;
	}
	while (smi_delta) {
		best = SIZE_MAX;
		for (size_t i = 0; i < n; i++)
			if (smi_candidate(&gaps[i]) &&
			    (best == SIZE_MAX ||
			     gaps[i].attr.unexplained_ns > gaps[best].attr.unexplained_ns))
				best = i;
		if (best == SIZE_MAX)
			break;
		gaps[best].attr.smi = 1;
		corr_finish(&gaps[best].attr, gaps[best].gap.dur_ns);
		smi_delta--;
	}
	return smi_delta;
}
