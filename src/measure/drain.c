// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * drain.c - the drain (js_drain.h): the events' windows, the lanes of gaps awaiting
 * attribution, the marks filed on their best CPU, and the attribution of what ended, in
 * the order docs/DESIGN.md gives (window, steal, finish, entry/exit, result, outputs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "js_drain.h"
#include "js_mirror.h"
#include "js_probes.h"
#include "js_stacks.h"
#include "js_source.h"
#include "js_util.h"

/* shard_alloc - shard sh's scratch (nrecs records, 0: none yet); 0 or -ENOMEM */
static int shard_alloc(struct js_drain *d, struct drain_shard *sh, size_t nrecs)
{
	sh->d = d;
	sh->raw = malloc(DRAIN_BATCH * sizeof(*sh->raw));
	/* only outputs that draw the events (--trace) need a copy of a gap's events */
	if (d->outs_want_events)
		sh->evscratch = malloc(d->evcap * sizeof(*sh->evscratch));
	if (nrecs) {
		sh->recs = malloc(nrecs * sizeof(*sh->recs));
		sh->nrecs = nrecs;
	}
	if (!sh->raw || (d->outs_want_events && !sh->evscratch) || (nrecs && !sh->recs))
		return -ENOMEM;
	return 0;
}

static void shard_free(struct drain_shard *sh)
{
	free(sh->raw);
	free(sh->recs);
	free(sh->evscratch);
}

int drain_setup(struct js_drain *d, const int *cpus, size_t n, size_t evcap)
{
	for (int i = 0; i < JS_CPUS_MAX; i++)
		d->cpu_index[i] = -1;
	d->n = n;
	d->evcap = evcap;
	d->mark_keep_ns = DRAIN_MARK_KEEP0_NS;
	d->cp = calloc(n, sizeof(*d->cp));
	d->sh = calloc(1, sizeof(*d->sh));
	outputs_wants(d->outs, &d->outs_want_events, &d->outs_watch_events);
	if (!d->cp || !d->sh)
		return -ENOMEM;
	d->nsh = 1;
	d->sh[0].n = n;
	if (shard_alloc(d, &d->sh[0], 0))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct cpu_pipe *c = &d->cp[i];

		c->cpu = cpus[i];
		c->res = c->mark_res = -1;
		c->evcap = evcap;
		c->sh = &d->sh[0];
		d->cpu_index[c->cpu] = (int)i;
	}
	return 0;
}

/* shard_opts - sh's correlation options: the drain's, named through its own cache, a
 * cgroup's name looked up under d->shared when shards run at once */
static const char *shard_cgname(void *ctx, uint64_t id);

static void shard_opts(struct js_drain *d, struct drain_shard *sh)
{
	sh->copts = d->copts;
	sh->mopts = d->mopts;
	if (d->copts.sym == drain_sym)
		sh->copts.sym_ctx = sh->mopts.sym_ctx = sh;
	if (d->shared && d->copts.cgname) {
		sh->copts.cgname = sh->mopts.cgname = shard_cgname;
		sh->copts.cg_ctx = sh->mopts.cg_ctx = sh;
	}
}

static const char *shard_cgname(void *ctx, uint64_t id)
{
	struct drain_shard *sh = ctx;
	const char *name;

	pthread_rwlock_wrlock(sh->d->shared);
	name = sh->d->copts.cgname(sh->d->copts.cg_ctx, id);
	pthread_rwlock_unlock(sh->d->shared);
	return name;
}

const char *drain_sym(void *ctx, uint64_t addr)
{
	struct drain_shard *sh = ctx;
	struct drain_sym *sl = &sh->sym[(addr >> 4) % DRAIN_SYM_SLOTS];

	if (!sh->d->run->ksyms)
		return NULL;
	if (sl->addr != addr) { /* address 0 has no name: a zeroed slot is right */
		sl->addr = addr;
		sl->name = run_sym(sh->d->run, addr);
	}
	return sl->name;
}

int drain_shard(struct js_drain *d, const size_t *count, size_t t)
{
	pthread_rwlockattr_t attr;
	struct drain_shard *sh;
	size_t next = 0;

	if (t <= 1)
		return 0;
	sh = calloc(t, sizeof(*sh));
	d->shared = malloc(sizeof(*d->shared));
	/* a gap handed to the outputs waits for no stream of results' readers */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	if (!sh || !d->shared || pthread_rwlock_init(d->shared, &attr)) {
		pthread_rwlockattr_destroy(&attr);
		free(sh);
		free(d->shared);
		d->shared = NULL;
		return -ENOMEM;
	}
	pthread_rwlockattr_destroy(&attr);
	/* thread 0's scratch is the one drain_setup* made; every CPU to its thread's shard */
	sh[0] = d->sh[0];
	sh[0].gaps = 0;
	for (size_t k = 0; k < t; k++) {
		size_t i = (k + 1) % t; /* threads 1 .. t - 1, then 0 */

		if (i && shard_alloc(d, &sh[i], d->sh[0].nrecs)) {
			for (size_t j = 1; j < t; j++)
				shard_free(&sh[j]);
			free(sh);
			pthread_rwlock_destroy(d->shared);
			free(d->shared);
			d->shared = NULL;
			return -ENOMEM;
		}
		sh[i].first = next;
		sh[i].n = count[i];
		next += count[i];
	}
	free(d->sh);
	d->sh = sh;
	d->nsh = t;
	for (size_t k = 0; k < t; k++) {
		shard_opts(d, &sh[k]);
		for (size_t i = sh[k].first; i < sh[k].first + sh[k].n && i < d->n; i++)
			d->cp[i].sh = &sh[k];
	}
	return 0;
}

/*
 * A source's window (no spinner) holds seconds of events: it is a mirrored ring
 * (js_mirror.h), with its running maximum beside it, so that it moves on by an index
 * (window_advance) where a copy of seconds of events was a 1.2-1.4 ms stall of the
 * housekeeping CPU every 0.5 s on redis with --marks. No thread of ours runs on a measured
 * CPU then, so a mapping's TLB shootdown reaches no sampler.
 */
static void rings_unmap(struct js_event *ev, uint64_t *mx, size_t cap)
{
	mirror_unmap(ev, cap * sizeof(*ev));
	mirror_unmap(mx, cap * sizeof(*mx));
}

/* window_map - c's window in new rings of cap events, the nev it holds copied to their
 * start (none at first); c keeps its old rings on -ENOMEM */
static int window_map(struct cpu_pipe *c, size_t cap)
{
	struct js_event *ev = mirror_map(cap * sizeof(*ev));
	uint64_t *mx = ev ? mirror_map(cap * sizeof(*mx)) : NULL;

	if (!mx) {
		mirror_unmap(ev, cap * sizeof(*ev));
		return -ENOMEM;
	}
	if (c->nev) {
		memcpy(ev, c->ev, c->nev * sizeof(*ev));
		memcpy(mx, c->evmax, c->nev * sizeof(*mx));
	}
	rings_unmap(c->ev_ring, c->evmax_ring, c->evcap);
	c->ev = c->ev_ring = ev;
	c->evmax = c->evmax_ring = mx;
	c->evcap = cap;
	c->head = 0;
	return 0;
}

static void window_unmap(struct cpu_pipe *c)
{
	rings_unmap(c->ev_ring, c->evmax_ring, c->evcap);
	c->ev_ring = NULL;
	c->evmax_ring = NULL;
}

/* window_advance - drop the window's first k events: its start moves k on in the rings.
 * The running maxima after them stay upper bounds of the ends before them (window_from
 * may start a little early; no event that can matter is skipped) */
static void window_advance(struct cpu_pipe *c, size_t k)
{
	c->head = (c->head + k) % c->evcap;
	c->ev = c->ev_ring + c->head;
	c->evmax = c->evmax_ring + c->head;
	c->nev -= k;
}

int drain_setup_buffers(struct js_drain *d)
{
	size_t nrecs = 0;

	for (size_t i = 0; i < d->n; i++) {
		struct cpu_pipe *c = &d->cp[i];

		if (d->spinner)
			c->ev = malloc(c->evcap * sizeof(*c->ev));
		else if (window_map(c, mirror_round(c->evcap, sizeof(*c->ev))))
			return -ENOMEM;
		if (!c->ev)
			return -ENOMEM;
		for (int k = 0; k < JS_SRC_MAX; k++) {
			struct drain_lane *l = &c->lane[k];

			if (!l->on)
				continue;
			l->cap = k == JS_SRC_SAMPLER ? DRAIN_PEND_CAP : DRAIN_LANE_CAP;
			l->pend = malloc(l->cap * sizeof(*l->pend));
			/* one batch (the sampler's: one chunk) at a time, of any lane */
			nrecs = JS_MAX(nrecs, k == JS_SRC_SAMPLER ? (size_t)DRAIN_SAMPLER_CHUNK :
								    (size_t)DRAIN_BATCH);
			if (k != JS_SRC_SAMPLER)
				l->label = malloc(l->cap * sizeof(*l->label));
			if (!l->pend || (k != JS_SRC_SAMPLER && !l->label) ||
			    steal_log_init(&l->steal, DRAIN_READINGS_CAP))
				return -ENOMEM;
		}
	}
	/* one scratch for every CPU's lanes: it stays in the cache from one CPU to the next
	 * (a CPU's own went cold between two drains when many CPUs are measured) */
	d->sh[0].nrecs = JS_MAX(nrecs, (size_t)1);
	d->sh[0].recs = malloc(d->sh[0].nrecs * sizeof(*d->sh[0].recs));
	if (!d->sh[0].recs)
		return -ENOMEM;
	shard_opts(d, &d->sh[0]);
	if (d->spinner)
		return 0;
	d->unfiled = malloc(DRAIN_LANE_CAP * sizeof(*d->unfiled));
	d->unfiled_label = malloc(DRAIN_LANE_CAP * sizeof(*d->unfiled_label));
	d->filing = malloc(DRAIN_BATCH * sizeof(*d->filing));
	d->covered = malloc(DRAIN_BATCH * sizeof(*d->covered));
	if (!d->unfiled || !d->unfiled_label || !d->filing || !d->covered)
		return -ENOMEM;
	return 0;
}

size_t drain_cpu_bytes(size_t evcap)
{
	return sizeof(struct cpu_pipe) + evcap * sizeof(struct js_event) +
	       DRAIN_PEND_CAP * sizeof(struct js_gap) +
	       DRAIN_READINGS_CAP * sizeof(struct steal_reading);
}

void drain_free(struct js_drain *d)
{
	for (size_t i = 0; d->cp && i < d->n; i++) {
		struct cpu_pipe *c = &d->cp[i];

		if (!d->spinner)
			window_unmap(c);
		else
			free(c->ev);
		for (int k = 0; k < JS_SRC_MAX; k++) {
			free(c->lane[k].pend);
			free(c->lane[k].label);
			steal_log_free(&c->lane[k].steal);
		}
	}
	free(d->cp);
	for (size_t k = 0; d->sh && k < d->nsh; k++)
		shard_free(&d->sh[k]);
	free(d->sh);
	d->sh = NULL;
	if (d->shared) {
		pthread_rwlock_destroy(d->shared);
		free(d->shared);
		d->shared = NULL;
	}
	free(d->unfiled);
	free(d->unfiled_label);
	free(d->filing);
	free(d->covered);
	d->cp = NULL;
}

/* grow - twice the room for CPU c's events, when a source's gaps come late (their events
 * are kept DRAIN_KEEP_NS: the window follows the rate it sees, up to DRAIN_GROW_CAP): rings
 * twice as large, the window copied to their start (a doubling: a few times a run at
 * most); false: none */
static bool grow(struct js_drain *d, struct cpu_pipe *c)
{
	size_t cap = c->evcap * 2;

	if (d->spinner || cap > DRAIN_GROW_CAP)
		return false;
	if (d->outs_want_events) {
		/* one gap's events are copied there: as many as a CPU keeps */
		struct js_event *v = realloc(c->sh->evscratch, cap * sizeof(*v));

		if (!v)
			return false;
		c->sh->evscratch = v;
	}
	return window_map(c, cap) == 0;
}

/* evmax_from - c->evmax from index i on (the events from i were appended or moved) */
static void evmax_from(struct cpu_pipe *c, size_t i)
{
	uint64_t m;

	if (!c->evmax)
		return;
	for (m = i ? c->evmax[i - 1] : 0; i < c->nev; i++) {
		m = JS_MAX(m, corr_event_end(&c->ev[i]));
		c->evmax[i] = m;
	}
}

/* window_from - the first event of c that can end at or after floor: none before it does */
static size_t window_from(const struct cpu_pipe *c, uint64_t floor)
{
	size_t lo = 0, hi = c->nev;

	if (!c->evmax)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->evmax[mid] >= floor)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* loss_add - [from, until] into c's loss intervals (in order of arrival, nearly of time);
 * when they are full the two closest merge: a gap between them is then counted as lost,
 * never the other way round */
static void loss_add(struct cpu_pipe *c, uint64_t from, uint64_t until)
{
	size_t best = 0;

	if (c->nloss && from <= c->loss[c->nloss - 1].until + 1) {
		c->loss[c->nloss - 1].from = JS_MIN(c->loss[c->nloss - 1].from, from);
		c->loss[c->nloss - 1].until = JS_MAX(c->loss[c->nloss - 1].until, until);
		return;
	}
	if (c->nloss == DRAIN_LOSS_MAX) {
		for (size_t i = 1; i + 1 < c->nloss; i++)
			if (c->loss[i + 1].from - c->loss[i].until <
			    c->loss[best + 1].from - c->loss[best].until)
				best = i;
		c->loss[best].from = JS_MIN(c->loss[best].from, c->loss[best + 1].from);
		c->loss[best].until = JS_MAX(c->loss[best].until, c->loss[best + 1].until);
		memmove(c->loss + best + 1, c->loss + best + 2,
			(c->nloss - best - 2) * sizeof(*c->loss));
		c->nloss--;
	}
	c->loss[c->nloss].from = from;
	c->loss[c->nloss].until = until;
	c->nloss++;
}

/* loss_of - the loss interval of the k events from ev (their earliest start, latest end)
 * into c's */
static void loss_of(struct cpu_pipe *c, const struct js_event *ev, size_t k)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < k; i++) {
		lo = JS_MIN(lo, ev[i].start_ns);
		hi = JS_MAX(hi, ev[i].end_ns);
	}
	if (k)
		loss_add(c, lo, hi);
}

/* lost_over - events that may have held time in [s, e] were lost or evicted */
static bool lost_over(const struct cpu_pipe *c, uint64_t s, uint64_t e)
{
	for (size_t i = 0; i < c->nloss; i++)
		if (c->loss[i].from <= e && c->loss[i].until >= s)
			return true;
	return false;
}

void drain_lost(struct js_drain *d, size_t i, uint64_t lost, uint64_t from, uint64_t until)
{
	if (i >= d->n || lost <= d->cp[i].klost)
		return;
	d->cp[i].klost = lost;
	loss_add(&d->cp[i], from, until);
}

/* shed_points - room in a spinner's full window without losing time: the oldest half's page
 * faults of other tasks go (points: their task's run in the gap holds the time; a storm of
 * them filled 16384 slots in 0.2 s and pushed that run out, leaving a 0.95 s gap
 * unexplained); the sampler's own stay (its fault starts its gap's tail). How many went */
static size_t shed_points(struct cpu_pipe *c)
{
	size_t half = c->nev / 2, k = 0;

	for (size_t i = 0; i < half; i++)
		if (c->ev[i].kind != JS_EV_FAULT || (c->ev[i].flags & JS_F_SAMPLER))
			c->ev[k++] = c->ev[i];
	if (k == half)
		return 0;
	memmove(c->ev + k, c->ev + half, (c->nev - half) * sizeof(*c->ev));
	c->nev -= half - k;
	return half - k;
}

int drain_event(void *ctx, const struct js_event *ev)
{
	struct js_drain *d = ctx;
	int idx = ev->cpu < JS_CPUS_MAX ? d->cpu_index[ev->cpu] : -1;
	struct cpu_pipe *c;

	d->run->probe_events++;
	if (ev->kind < JS_EV_KIND_MAX)
		d->run->probe_events_kind[ev->kind]++;
	if (idx < 0)
		return 0;
	c = &d->cp[idx];
	if (d->outs_watch_events)
		outputs_event(d->outs, ev);
	for (int k = 0; k < JS_SRC_MAX; k++)
		if (c->lane[k].on)
			steal_log_add(&c->lane[k].steal, ev);
	if (ev->kind != JS_EV_IPI_SEND && ev->end_ns < c->floor_ns)
		return 0; /* before every gap still to come: cannot overlap one */
	if (c->nev == c->evcap && !grow(d, c)) {
		/* full: drop the oldest quarter at once (one memmove, not one per event; a
		 * source's ring moves its start), unless shedding other tasks' faults made an
		 * eighth of the room */
		size_t drop = c->evcap / 4, shed = c->ev_ring ? 0 : shed_points(c);

		c->ev_shed += shed;
		if (c->ev_ring) {
			loss_of(c, c->ev, drop);
			window_advance(c, drop);
		} else if (shed < c->evcap / 8) {
			loss_of(c, c->ev, drop);
			memmove(c->ev, c->ev + drop, (c->nev - drop) * sizeof(*c->ev));
			c->nev -= drop;
		} else {
			drop = 0;
		}
		c->ev_evicted += drop + shed;
	}
	c->ev[c->nev++] = *ev;
	evmax_from(c, c->nev - 1);
	return 0;
}

/* feed_outputs - hand a gap (and, if wanted, the events inside it) to the outputs */
static void feed_outputs(struct js_drain *d, struct cpu_pipe *c, const struct js_gap_rec *g)
{
	uint64_t s = g->gap.start_ns, e = g->gap.start_ns + g->gap.dur_ns;
	struct js_event *evs = c->sh->evscratch;
	size_t k = 0;

	if (!d->outs || !d->outs->n)
		return;
	if (d->outs_want_events) {
		/* the overlapping events, compacted into the scratch array; one seen at its
		 * exit alone (--probes lean) is the gap's only if it holds the exit, and began
		 * in it (correlate's rule) */
		for (size_t i = 0; i < c->nev; i++) {
			const struct js_event *x = &c->ev[i];
			bool lean = x->flags & JS_F_LEAN;

			if (x->start_ns > e || x->end_ns < s || x->kind == JS_EV_IPI_SEND ||
			    (lean && x->end_ns > e))
				continue;
			evs[k] = *x;
			if (lean && x->start_ns < s)
				evs[k].start_ns = s;
			k++;
		}
	}
	/* one run's outputs, whichever drain thread attributed the gap */
	if (d->shared)
		pthread_rwlock_wrlock(d->shared);
	outputs_gap(d->outs, g, evs, k);
	if (d->shared)
		pthread_rwlock_unlock(d->shared);
}

/*
 * prune - the events no gap still to come can overlap: those that ended before the last
 * gap of the sampler (its gaps come in order), and with a source's lane, before its keep
 * (its gaps arrive after they end: the marks' mark_floor_ns, the threads' below); IPI sends
 * are kept DRAIN_IPI_KEEP_NS longer, to name the sender of a vector that comes after them
 */
static void prune(struct js_drain *d, struct cpu_pipe *c)
{
	uint64_t floor = c->lane[JS_SRC_SAMPLER].on ? c->lane[JS_SRC_SAMPLER].last_end_ns :
						      UINT64_MAX;
	size_t k = 0;

	if (c->lane[JS_SRC_MARK].on)
		floor = JS_MIN(floor, d->mark_floor_ns);
	else if (c->lane[JS_SRC_THREAD].on) {
		/* the threads' gaps come at their end, drained every period: the events of a
		 * gap still open (since hold_ns) or pending, else DRAIN_THREAD_KEEP_NS of them;
		 * not seconds of a busy CPU's events, scanned at every drain */
		floor = JS_MIN(floor, JS_MIN(d->hold_ns, d->now > DRAIN_THREAD_KEEP_NS ?
								 d->now - DRAIN_THREAD_KEEP_NS :
								 0));
		for (size_t i = 0; i < c->lane[JS_SRC_THREAD].npend; i++)
			floor = JS_MIN(floor, c->lane[JS_SRC_THREAD].pend[i].start_ns);
	}
	if (floor == UINT64_MAX || floor <= c->floor_ns)
		return;
	c->floor_ns = floor;
	while (c->nloss && c->loss[0].until < floor) {
		memmove(c->loss, c->loss + 1, (c->nloss - 1) * sizeof(*c->loss));
		c->nloss--;
	}
	if (c->ev_ring) {
		/* a source's window (seconds of events for the marks): its start moves past
		 * those before the first that can end after the floor, less an IPI's keep (a
		 * few events that can no longer matter stay a while) */
		window_advance(c, window_from(c, floor > DRAIN_IPI_KEEP_NS ?
							 floor - DRAIN_IPI_KEEP_NS :
							 0));
		return;
	}
	for (size_t i = 0; i < c->nev; i++)
		if (c->ev[i].end_ns >= floor || (c->ev[i].kind == JS_EV_IPI_SEND &&
						 c->ev[i].end_ns + DRAIN_IPI_KEEP_NS >= floor))
			c->ev[k++] = c->ev[i];
	c->nev = k;
}

_Static_assert(JS_STACK_FRAMES == JS_STACK_DEPTH, "a stack as the probes take it");

/* keep_stack - the ref of the probes' stack id1 in the run's table, copied from the probes'
 * map and symbolised the first time (an id names one stack for the whole run); 0: none */
static uint32_t keep_stack(struct js_drain *d, uint32_t id1)
{
	uint64_t ips[JS_STACK_FRAMES];
	struct js_stack st;
	uint32_t ref;
	int n;

	if (!id1)
		return 0;
	ref = js_stacks_find(&d->run->stacks, id1);
	if (ref)
		return ref;
	n = probes_stack(*d->probes, id1, ips, JS_STACK_FRAMES);
	if (n <= 0)
		return 0;
	js_stack_symbolise(&st, d->run->ksyms, ips, (size_t)n);
	st.key = id1;
	return js_stacks_add(&d->run->stacks, &st);
}

/* gap_stacks - a gap's stack ids (the probes') become refs into the run's table when it
 * gets them (js_stacks_wanted, before it is offered to the worst list), else none */
static void gap_stacks(struct js_drain *d, const struct js_cpu_result *r, struct js_gap_rec *g)
{
	bool want = d->stacks && *d->probes && js_stacks_wanted(&r->top, g, d->stack_spike_ns);

	if (want && d->shared)
		pthread_rwlock_wrlock(d->shared); /* the run's table */
	g->attr.stack = want ? keep_stack(d, g->attr.stack) : 0;
	g->attr.waker.stack = want ? keep_stack(d, g->attr.waker.stack) : 0;
	if (want && d->shared)
		pthread_rwlock_unlock(d->shared);
}

static int gap_start_cmp(const void *pa, const void *pb)
{
	const struct js_gap_rec *a = pa, *b = pb;

	if (a->gap.start_ns != b->gap.start_ns)
		return a->gap.start_ns < b->gap.start_ns ? -1 : 1;
	return 0;
}

/* attribute_chunk - attribute n gaps of lane l of CPU c (pend, their labels: NULL, none),
 * account them in their results and hand them to the outputs */
static void attribute_chunk(struct js_drain *d, struct cpu_pipe *c, enum js_source src,
			    struct corr_window *w, const struct js_gap *pend,
			    const char (*label)[JS_LABEL_LEN], size_t n)
{
	struct drain_lane *l = &c->lane[src];
	struct js_gap_rec *recs = c->sh->recs;
	/* the cgroups' table is read while accounting: another shard may add to it */
	bool rd = d->shared && d->run->cgroups;

	for (size_t i = 0; i < n; i++) {
		recs[i].gap = pend[i]; /* the attribution fills (and zeroes) attr */
		if (label)
			memcpy(recs[i].label, label[i], JS_LABEL_LEN);
		else
			recs[i].label[0] = '\0';
	}
	/* a source's gaps come as they end: in start order for steal and the models */
	if (src != JS_SRC_SAMPLER)
		qsort(recs, n, sizeof(*recs), gap_start_cmp);
	/* their histograms' slots, cold when many CPUs share the drain, are on their way while
	 * the chunk is attributed */
	for (size_t i = 0; i < n; i++)
		result_prefetch_gap(&d->run->cpus[recs[i].gap.res], recs[i].gap.dur_ns);
	corr_window_attribute(w, recs, n);
	if (*d->probes)
		steal_log_allocate(&l->steal, recs, n);
	for (size_t i = 0; i < n; i++) {
		struct js_cpu_result *r = &d->run->cpus[recs[i].gap.res];

		r->host = l->steal.moves; /* the CPU's readings so far (this lane's) */

		corr_finish(&recs[i].attr, recs[i].gap.dur_ns);
		/* the interruptions' entry/exit is learned from the sampler's lone gaps: a
		 * thread's gap ends at its tracepoints, a mark holds the application's work */
		if (src == JS_SRC_SAMPLER)
			entry_account(&r->entry, &recs[i]);
		/* its time all shared: the primary every result and output shows */
		corr_settle(&recs[i]);
		recs[i].attr.evidence_lost = recs[i].attr.unexplained_ns &&
					     lost_over(c, recs[i].gap.start_ns,
						       recs[i].gap.start_ns + recs[i].gap.dur_ns);
		gap_stacks(d, r, &recs[i]);
		/* a guest tick would have been seen */
		r->host_periodic = *d->probes != NULL && d->probes_steady;
		if (rd)
			pthread_rwlock_rdlock(d->shared);
		result_add_gap(r, &recs[i]);
		if (rd)
			pthread_rwlock_unlock(d->shared);
		feed_outputs(d, c, &recs[i]);
		l->last_end_ns = JS_MAX(l->last_end_ns, recs[i].gap.start_ns + recs[i].gap.dur_ns);
	}
	c->sh->gaps += n;
}

/*
 * own_bh_in - the marks' events: the followed threads' own softirqs on c that overlap
 * [lo, hi] (logged by the probes, not sent: js_follow_bh.h) appended to c's window, for a
 * batch of marks; returns the window's length before them, to which the caller cuts it
 * back once the batch is attributed. One the window has no room for is counted evicted.
 */
static size_t own_bh_in(struct js_drain *d, struct cpu_pipe *c, uint64_t lo, uint64_t hi)
{
	uint64_t slack = d->mopts.edge_slack_ns;
	size_t n0 = c->nev, got, room;

	if (!*d->probes)
		return n0;
	lo = lo > slack ? lo - slack : 0;
	hi = hi > UINT64_MAX - slack ? UINT64_MAX : hi + slack;
	for (;;) {
		room = c->evcap - c->nev;
		got = probes_own_bh(*d->probes, c->cpu, lo, hi, c->ev + c->nev, room);
		if (got < room || !grow(d, c))
			break;
	}
	if (got && got == room) {
		c->ev_evicted++; /* perhaps more: the window is at its cap */
		loss_add(c, lo, hi);
	}
	c->nev += got;
	evmax_from(c, n0);
	return n0;
}

/* attribute_batch - attribute the first n gaps of lane l of CPU c: the sampler's (in start
 * order already) a chunk at a time, a source's all at once (sorted by start together) */
static void attribute_batch(struct js_drain *d, struct cpu_pipe *c, enum js_source src, size_t n)
{
	struct drain_lane *l = &c->lane[src];
	size_t chunk = src == JS_SRC_SAMPLER ? DRAIN_SAMPLER_CHUNK : n, nev, from;
	uint64_t lo = UINT64_MAX, hi = 0;
	const struct corr_opts *opts;
	struct corr_window *w;

	for (size_t i = 0; i < n; i++) {
		uint64_t end = l->pend[i].start_ns + l->pend[i].dur_ns;

		lo = JS_MIN(lo, l->pend[i].start_ns);
		hi = JS_MAX(hi, end < l->pend[i].start_ns ? UINT64_MAX : end);
	}
	/* marks: with the followed threads' own softirqs they overlap (until the batch is done) */
	nev = src == JS_SRC_MARK ? own_bh_in(d, c, lo, hi) : c->nev;
	/* the events the batch can touch are sorted once for all its chunks: from the first
	 * that can end inside its window (not a pass over seconds of a source's events) */
	opts = src == JS_SRC_MARK ? &c->sh->mopts : &c->sh->copts;
	from = window_from(c, corr_window_floor(lo, opts));
	w = corr_window_new(*d->probes ? c->ev + from : NULL, *d->probes ? c->nev - from : 0, lo,
			    hi, opts);
	for (size_t i = 0; i < n; i += chunk)
		attribute_chunk(d, c, src, w, l->pend + i, l->label ? l->label + i : NULL,
				JS_MIN(chunk, n - i));
	corr_window_free(w);
	c->nev = nev;
	memmove(l->pend, l->pend + n, (l->npend - n) * sizeof(*l->pend));
	if (l->label)
		memmove(l->label, l->label + n, (l->npend - n) * sizeof(*l->label));
	l->npend -= n;
	prune(d, c);
}

void drain_start_result(struct js_drain *d, struct cpu_pipe *c)
{
	uint64_t start_ns = tsc_to_ns(d->fit, c->s.start_tsc);

	if (result_cpu_start(&d->run->cpus[c->res], start_ns, &d->run->cfg))
		js_warn("CPU %d: cannot allocate the per-second and arrival models", c->cpu);
}

/* pop_rings - the sampler's gaps, converted, into its lane */
static void pop_rings(struct js_drain *d, struct cpu_pipe *c)
{
	struct drain_lane *l = &c->lane[JS_SRC_SAMPLER];
	size_t got, all = 0;

	/* the sampler publishes start_tsc before its first gap (ring release) */
	if (!d->run->cpus[c->res].started && c->s.start_tsc)
		drain_start_result(d, c);
	do {
		size_t room = l->cap - l->npend;

		got = ring_pop(&c->s.ring, c->sh->raw, JS_MIN(room, (size_t)DRAIN_BATCH));
		all += got;
		for (size_t k = 0; k < got; k++) {
			struct js_gap *g = &l->pend[l->npend++];

			memset(g, 0, sizeof(*g));
			g->cpu = (uint32_t)c->cpu;
			g->res = (uint32_t)c->res;
			g->start_ns = tsc_to_ns(d->fit, c->sh->raw[k].start_tsc);
			g->dur_ns = tsc_cycles_to_ns(d->fit, c->sh->raw[k].end_tsc -
								     c->sh->raw[k].start_tsc);
		}
		while (l->npend == l->cap) {
			/* no room: attribute what we hold now rather than stall the ring */
			attribute_batch(d, c, JS_SRC_SAMPLER, DRAIN_BATCH);
		}
	} while (got);
	c->sh->popped = JS_MAX(c->sh->popped, all);
}

/* attribute_ready - the gaps of every lane of c that ended before cutoff */
static void attribute_ready(struct js_drain *d, struct cpu_pipe *c, uint64_t cutoff)
{
	for (int src = 0; src < JS_SRC_MAX; src++) {
		struct drain_lane *l = &c->lane[src];
		size_t ready = 0;

		if (!l->on)
			continue;
		while (ready < l->npend &&
		       l->pend[ready].start_ns + l->pend[ready].dur_ns <= cutoff)
			ready++;
		/* a thread's gaps wait until the oldest is DRAIN_THREAD_BATCH_NS old: one pass
		 * over the window for all of them, not one at every drain */
		if (src == JS_SRC_THREAD && cutoff != UINT64_MAX && ready && ready < DRAIN_BATCH &&
		    l->pend[0].start_ns + l->pend[0].dur_ns + DRAIN_THREAD_BATCH_NS > cutoff)
			ready = 0;
		while (ready) {
			size_t b = JS_MIN(ready, (size_t)DRAIN_BATCH);

			attribute_batch(d, c, (enum js_source)src, b);
			ready -= b;
		}
	}
	prune(d, c);
}

/* mark_result - the result of the marks filed on CPU c (made with the first); -1: none */
static int mark_result(struct js_drain *d, struct cpu_pipe *c)
{
	if (c->mark_res < 0)
		c->mark_res = drain_result(d, JS_SRC_MARK, c->cpu);
	return c->mark_res;
}

/* lane_put - gap g (label: NULL, none) at the end of lane l of c: a gap that overlaps the
 * last pending one of the same source and id is merged into it; a full lane is attributed
 * first */
static void lane_put(struct js_drain *d, struct cpu_pipe *c, const struct js_gap *g,
		     const char *label)
{
	struct drain_lane *l = &c->lane[g->source];
	uint64_t end = g->start_ns + g->dur_ns;

	for (size_t i = l->npend; i-- > 0 && i + 8 >= l->npend;) {
		struct js_gap *p = &l->pend[i];
		uint64_t pend = p->start_ns + p->dur_ns;

		if (p->id != g->id || g->start_ns > pend || end < p->start_ns)
			continue;
		p->start_ns = JS_MIN(p->start_ns, g->start_ns);
		p->dur_ns = JS_MAX(pend, end) - p->start_ns;
		/* what took the thread's CPU away names the merged gap */
		if (g->kind == JS_GAP_PREEMPTED || g->kind == JS_GAP_BLOCKED)
			p->kind = g->kind;
		p->cpu_in = JS_MAX(p->cpu_in, g->cpu_in);
		return;
	}
	while (l->npend == l->cap)
		attribute_batch(d, c, g->source, JS_MIN(l->npend, (size_t)DRAIN_BATCH));
	l->pend[l->npend] = *g;
	js_scpy(l->label[l->npend], JS_LABEL_LEN, label);
	l->npend++;
}

/*
 * file_marks - the marks that ended before cutoff and whose CPU is not chosen yet (several
 * CPUs are watched): each is attributed on every watched CPU and filed on the one whose
 * events explain most of it (the first listed when none does)
 */
static void file_marks(struct js_drain *d, uint64_t cutoff)
{
	size_t ready = 0, k = 0;
	uint8_t *best = NULL;
	uint64_t lo = UINT64_MAX, hi = 0;

	while (ready < d->nunfiled && ready < DRAIN_BATCH &&
	       d->unfiled[ready].start_ns + d->unfiled[ready].dur_ns <= cutoff) {
		lo = JS_MIN(lo, d->unfiled[ready].start_ns);
		hi = JS_MAX(hi, d->unfiled[ready].start_ns + d->unfiled[ready].dur_ns);
		ready++;
	}
	if (!ready)
		return;
	best = calloc(ready, sizeof(*best));
	for (size_t i = 0; i < ready; i++)
		d->covered[i] = 0;
	for (size_t ci = 0; best && *d->probes && ci < d->n; ci++) {
		struct cpu_pipe *c = &d->cp[ci];

		for (size_t i = 0; i < ready; i++) {
			d->filing[i].gap = d->unfiled[i];
			d->filing[i].gap.cpu = (uint32_t)c->cpu;
		}
		size_t nev = own_bh_in(d, c, lo, hi);
		size_t from = window_from(c, corr_window_floor(lo, &d->sh[0].mopts));

		corr_attribute_recs(d->filing, ready, c->ev + from, c->nev - from, &d->sh[0].mopts);
		c->nev = nev;
		for (size_t i = 0; i < ready; i++)
			if (d->filing[i].attr.covered_ns > d->covered[i]) {
				d->covered[i] = d->filing[i].attr.covered_ns;
				best[i] = (uint8_t)ci;
			}
	}
	for (size_t i = 0; i < ready; i++) {
		struct cpu_pipe *c = &d->cp[best ? best[i] : 0];
		struct js_gap g = d->unfiled[i];
		int res = mark_result(d, c);

		if (res < 0)
			continue;
		g.cpu = (uint32_t)c->cpu;
		g.res = (uint32_t)res;
		lane_put(d, c, &g, d->unfiled_label[i]);
		k++;
	}
	free(best);
	memmove(d->unfiled, d->unfiled + ready, (d->nunfiled - ready) * sizeof(*d->unfiled));
	memmove(d->unfiled_label, d->unfiled_label + ready,
		(d->nunfiled - ready) * sizeof(*d->unfiled_label));
	d->nunfiled -= ready;
}

void drain_shard_run(struct drain_shard *sh, uint64_t cutoff)
{
	struct js_drain *d = sh->d;

	sh->popped = 0;
	for (size_t i = sh->first; d->spinner && i < sh->first + sh->n; i++)
		pop_rings(d, &d->cp[i]);
	for (size_t i = sh->first; i < sh->first + sh->n; i++)
		attribute_ready(d, &d->cp[i], cutoff);
}

void drain_run(struct js_drain *d, uint64_t cutoff)
{
	/* the marks' window as this drain lets it go (mark_keep: only the main thread moves
	 * it, between drains) */
	d->mark_floor_ns =
		JS_MAX(d->mark_floor_ns, d->now > d->mark_keep_ns ? d->now - d->mark_keep_ns : 0);
	/* the marks (no sampler: one shard) are filed first, their CPUs' events all in */
	while (d->nunfiled && d->unfiled[0].start_ns + d->unfiled[0].dur_ns <= cutoff) {
		size_t before = d->nunfiled;

		file_marks(d, cutoff);
		if (d->nunfiled == before)
			break;
	}
	drain_threads_run(d, cutoff);
	d->popped = 0;
	for (size_t k = 0; k < d->nsh; k++)
		d->popped = JS_MAX(d->popped, d->sh[k].popped);
	if (cutoff == UINT64_MAX)
		return;
	d->run->done_ns = cutoff;
	for (size_t i = 0; i < d->run->ncpus; i++) {
		struct js_cpu_result *r = &d->run->cpus[i];

		if (r->started)
			r->done_ns = JS_MAX(r->done_ns, cutoff);
	}
}

/*
 * mark_keep - mark g read now: late if the marks' window had let its start go (the events
 * it ran beside are gone, its causes may be too); the window grown to twice its lateness
 * (up to DRAIN_KEEP_NS), so that the marks after it, if as late, find theirs. An application
 * that writes its marks as they end keeps a window of DRAIN_MARK_KEEP0_NS; one that writes
 * them a second late, of 2 s. Why: docs/OBSERVER.md, "The marks' window".
 */
static void mark_keep(struct js_drain *d, const struct js_gap *g)
{
	uint64_t late;

	if (g->start_ns < d->window_start || d->now <= g->start_ns)
		return; /* before the probes were attached (counted early), or from the future */
	late = d->now - g->start_ns;
	if (g->start_ns < d->mark_floor_ns)
		d->run->marks.late++;
	d->mark_keep_ns = JS_MAX(d->mark_keep_ns, JS_MIN(late, DRAIN_KEEP_NS / 2) * 2);
}

bool drain_push(struct js_drain *d, const struct js_gap *g, const char *label)
{
	int idx = g->cpu < JS_CPUS_MAX ? d->cpu_index[g->cpu] : -1;

	if (g->source == JS_SRC_MARK)
		mark_keep(d, g);

	if (g->source == JS_SRC_MARK && g->cpu == JS_CPU_ANY && d->n > 1) {
		if (d->nunfiled == DRAIN_LANE_CAP)
			file_marks(d, UINT64_MAX); /* full: file the oldest now */
		d->unfiled[d->nunfiled] = *g;
		js_scpy(d->unfiled_label[d->nunfiled], JS_LABEL_LEN, label);
		d->nunfiled++;
		return true;
	}
	if (g->source == JS_SRC_MARK && g->cpu == JS_CPU_ANY) {
		struct js_gap m = *g;
		int res = mark_result(d, &d->cp[0]);

		if (res < 0)
			return false;
		m.cpu = (uint32_t)d->cp[0].cpu;
		m.res = (uint32_t)res;
		lane_put(d, &d->cp[0], &m, label);
		return true;
	}
	if (idx < 0 || g->source == JS_SRC_SAMPLER || !d->cp[idx].lane[g->source].on)
		return false;
	lane_put(d, &d->cp[idx], g, label);
	return true;
}

int drain_result(struct js_drain *d, enum js_source src, int cpu)
{
	int i = run_add_result(d->run, src, cpu, d->top);
	struct js_cpu_result *r;

	if (i < 0)
		return i;
	r = &d->run->cpus[i];
	r->cgroups = d->run->cgroups;
	if (d->window_start && result_cpu_start(r, d->window_start, &d->run->cfg))
		js_warn("%s: cannot allocate the per-second and arrival models",
			js_source_name(src));
	return i;
}
