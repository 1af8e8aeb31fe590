// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * corr_window.c - the batch window (js_correlate.h, corr_window_*): the events that can
 * matter to a batch of gaps, copied and sorted once, IPI sends apart, with their prefix
 * maxima of ends; each gap's slice found by searches that resume where the last one ended.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "corr_priv.h"
#include "js_util.h"

/*
 * A search over ascending keys that resumes where the last one ended: the gaps of a batch
 * come in start order, so each of a slice's bounds moves forward by a few events from one
 * gap to the next (four binary searches a gap were a third of the correlator's time). A
 * bound that moves back is searched afresh.
 */
struct seek {
	uint64_t t; /* the last key searched for */
	size_t i;   /* its answer; SIZE_MAX: none yet */
};

struct keys {
	const char *base; /* the first key */
	size_t stride, n;
};

static inline uint64_t key_at(const struct keys *k, size_t i)
{
	return *(const uint64_t *)(const void *)(k->base + i * k->stride);
}

/* first_ge - the first index whose key is >= t (n when none): from the last answer by
 * doubling steps when t has not moved back, then by halving */
static size_t first_ge(const struct keys *k, uint64_t t, struct seek *c)
{
	size_t lo = 0, hi = k->n, step = 1;

	if (c->i != SIZE_MAX && t >= c->t) {
		/* the keys before c->i are < c->t <= t */
		for (lo = hi = c->i; hi < k->n && key_at(k, hi) < t; step *= 2) {
			lo = hi + 1;
			hi += step;
		}
		hi = JS_MIN(hi, k->n);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_at(k, mid) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	c->t = t;
	c->i = lo;
	return lo;
}

/*
 * The window sorted by start, and the running max of the ends of its closed intervals, so
 * that a gap's events are a slice. Two kinds are kept aside: IPI sends, looked for up to
 * CORR_IPI_WINDOW_NS before a gap (in the one array they would widen every gap's slice to
 * that window: 100 events a gap at 50k gaps/s), and open intervals (the sampler's own task,
 * running since the start), which would hold the running max at infinity from their index on.
 */
struct sorted {
	struct js_event *ev;  /* the window's intervals and points, sorted by start ... */
	struct js_event *snd; /* ... then its IPI sends, sorted by start (ev + n) */
	uint64_t *maxend;     /* maxend[i] = max end of the closed intervals of ev[0..i] */
	size_t *open;	      /* indices in ev of the open intervals, ascending */
	struct js_event *tmp; /* a gap's events when some are kept aside (grown to fit) */
	size_t n, nsnd, nopen, ntmp;
	struct seek seek[4]; /* slice()'s four bounds, resumed gap after gap */
};

static int ev_start_cmp(const void *pa, const void *pb)
{
	const struct js_event *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return 0;
}

/*
 * sort_by_start - the window by start, stably. It arrives nearly sorted (the probes write
 * a record when its interval ends, so only an interval enclosing others is out of place):
 * an insertion sort orders it in about one pass, where qsort paid n log n comparisons per
 * batch; a window that would move too much goes to qsort after all.
 */
static void sort_by_start(struct js_event *v, size_t n)
{
	size_t moved = 0, limit = 8 * n + 64;

	for (size_t i = 1; i < n; i++) {
		struct js_event x;
		size_t j = i;

		if (v[i - 1].start_ns <= v[i].start_ns)
			continue;
		x = v[i];
		for (; j && v[j - 1].start_ns > x.start_ns; j--)
			v[j] = v[j - 1];
		v[j] = x;
		moved += i - j;
		if (moved > limit) {
			qsort(v, n, sizeof(*v), ev_start_cmp);
			return;
		}
	}
}

/* by_start - the start times of v[0..n) as keys */
static struct keys by_start(const struct js_event *v, size_t n)
{
	return (struct keys){ (const char *)&v[0].start_ns, sizeof(*v), n };
}

/* slice - the events of s that may matter to gap g: s->ev[*a, *b) and s->snd[*sa, *sb) */
static void slice(struct sorted *s, const struct js_gap *g, const struct corr_opts *o, size_t *a,
		  size_t *b, size_t *sa, size_t *sb)
{
	uint64_t slack = o ? o->edge_slack_ns : 0;
	uint64_t win = o && o->ipi_window_ns ? o->ipi_window_ns : CORR_IPI_WINDOW_NS;
	uint64_t gs = g->start_ns, hi = gs + g->dur_ns + slack, lo = corr_sat_sub(gs, slack);
	struct keys ends = { (const char *)s->maxend, sizeof(*s->maxend), s->n };
	struct keys ev = by_start(s->ev, s->n), snd = by_start(s->snd, s->nsnd);

	/* intervals ending after gs - slack (all before end <= it), points from there; IPI
	 * sends from gs - win */
	*a = lo == UINT64_MAX ? s->n : first_ge(&ends, lo + 1, &s->seek[0]);
	*b = hi == UINT64_MAX ? s->n : first_ge(&ev, hi + 1, &s->seek[1]);
	*b = JS_MAX(*a, *b);
	*sa = first_ge(&snd, corr_sat_sub(gs, JS_MAX(slack, win)), &s->seek[2]);
	*sb = hi == UINT64_MAX ? s->nsnd : first_ge(&snd, hi + 1, &s->seek[3]);
	*sb = JS_MAX(*sa, *sb);
}

/* in_batch - can e matter to a gap inside [lo, hi] (lo already less the IPI window) */
static bool in_batch(const struct js_event *e, uint64_t lo, uint64_t hi)
{
	return e->start_ns <= hi && corr_ev_end(e) >= lo;
}

/*
 * sorted_init - sort a copy of the events of the window that can matter to a gap inside
 * [lo, hi], IPI sends apart (the same array: the window costs what it did in one); -ENOMEM.
 * The caller keeps more than a batch needs (for the sampler, the events of the 20 ms after
 * it; for a source, seconds of them): copying and sorting them all for every batch was a
 * fifth of the housekeeping at 16k gaps/s.
 */
static int sorted_init(struct sorted *s, const struct js_event *ev, size_t nev, uint64_t lo,
		       uint64_t hi)
{
	size_t m, k = 0, all = 0;

	for (size_t i = 0; i < nev; i++) {
		if (!in_batch(&ev[i], lo, hi))
			continue;
		all++;
		if (ev[i].kind == JS_EV_IPI_SEND)
			s->nsnd++;
		else if (corr_ev_end(&ev[i]) == UINT64_MAX)
			s->nopen++;
	}
	m = all ? all : 1;
	s->n = all - s->nsnd;
	for (size_t i = 0; i < ARRAY_SIZE(s->seek); i++)
		s->seek[i].i = SIZE_MAX;
	s->ev = malloc(m * sizeof(*s->ev));
	s->maxend = malloc(m * sizeof(*s->maxend));
	s->open = malloc((s->nopen ? s->nopen : 1) * sizeof(*s->open));
	if (!s->ev || !s->maxend || !s->open)
		return -ENOMEM;
	s->snd = s->ev + s->n;
	for (size_t i = 0, j = 0; i < nev; i++) {
		if (!in_batch(&ev[i], lo, hi))
			continue;
		if (ev[i].kind == JS_EV_IPI_SEND)
			s->snd[j++] = ev[i];
		else
			s->ev[k++] = ev[i];
	}
	sort_by_start(s->ev, s->n);
	sort_by_start(s->snd, s->nsnd);
	k = 0;
	for (size_t i = 0; i < s->n; i++) {
		uint64_t end = corr_ev_end(&s->ev[i]);

		if (end == UINT64_MAX) {
			s->open[k++] = i;
			end = s->ev[i].start_ns;
		}
		s->maxend[i] = JS_MAX(end, i ? s->maxend[i - 1] : 0);
	}
	return 0;
}

static void sorted_free(struct sorted *s)
{
	free(s->ev);
	free(s->tmp);
	free(s->maxend);
	free(s->open);
}

/*
 * gap_events - gap g's events: the slice of s->ev itself when nothing kept aside applies,
 * else the open intervals before the slice, the slice and the IPI sends, in s->tmp; NULL
 * when s->tmp cannot grow
 */
static const struct js_event *gap_events(struct sorted *s, const struct js_gap *g,
					 const struct corr_opts *o, size_t *n)
{
	size_t a, b, sa, sb, pre = 0;

	slice(s, g, o, &a, &b, &sa, &sb);
	while (pre < s->nopen && s->open[pre] < a)
		pre++;
	*n = pre + (b - a) + (sb - sa);
	if (!pre && sa == sb)
		return s->ev + a;
	if (*n > s->ntmp) {
		size_t want = JS_MAX(*n, 2 * s->ntmp);
		struct js_event *t = realloc(s->tmp, want * sizeof(*t));

		if (!t)
			return NULL;
		s->tmp = t;
		s->ntmp = want;
	}
	for (size_t k = 0; k < pre; k++)
		s->tmp[k] = s->ev[s->open[k]];
	memcpy(s->tmp + pre, s->ev + a, (b - a) * sizeof(*s->tmp));
	memcpy(s->tmp + pre + (b - a), s->snd + sa, (sb - sa) * sizeof(*s->tmp));
	return s->tmp;
}

struct corr_window {
	struct sorted s;
	struct corr_scratch sc;
	const struct corr_opts *o;
	int err; /* sorted_init()'s */
};

uint64_t corr_window_floor(uint64_t lo_ns, const struct corr_opts *o)
{
	uint64_t slack = o ? o->edge_slack_ns : 0;
	uint64_t win = o && o->ipi_window_ns ? o->ipi_window_ns : CORR_IPI_WINDOW_NS;

	return corr_sat_sub(lo_ns, JS_MAX(slack, win));
}

uint64_t corr_event_end(const struct js_event *e)
{
	return corr_ev_end(e);
}

struct corr_window *corr_window_new(const struct js_event *ev, size_t nev, uint64_t lo_ns,
				    uint64_t hi_ns, const struct corr_opts *o)
{
	uint64_t slack = o ? o->edge_slack_ns : 0;
	struct corr_window *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->o = o;
	if (nev && !ev) {
		w->err = -EINVAL;
		return w;
	}
	lo_ns = corr_window_floor(lo_ns, o);
	hi_ns = hi_ns > UINT64_MAX - slack ? UINT64_MAX : hi_ns + slack;
	w->err = sorted_init(&w->s, ev, nev, lo_ns, hi_ns);
	return w;
}

int corr_window_attribute(struct corr_window *w, struct js_gap_rec *recs, size_t n)
{
	int err = w ? w->err : -ENOMEM, e;

	if (n && !recs)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		const struct js_event *ev = NULL;
		size_t k;

		if (w && !w->err) /* a gap's own failure leaves the next ones attributed */
			ev = gap_events(&w->s, &recs[i].gap, w->o, &k);
		if (ev) {
			e = corr_attribute_gap(&w->sc, &recs[i].gap, ev, k, w->o, &recs[i].attr);
		} else {
			corr_attr_empty(&recs[i].attr, recs[i].gap.dur_ns);
			e = err ? err : -ENOMEM;
		}
		if (e && !err)
			err = e;
	}
	return err;
}

void corr_window_free(struct corr_window *w)
{
	if (!w)
		return;
	corr_scratch_free(&w->sc);
	sorted_free(&w->s);
	free(w);
}

/* corr_attribute_recs - attribute a batch of gaps from one shared event window */
int corr_attribute_recs(struct js_gap_rec *recs, size_t n, const struct js_event *ev, size_t nev,
			const struct corr_opts *o)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	struct corr_window *w;
	int err;

	if ((n && !recs) || (nev && !ev))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		uint64_t end = recs[i].gap.start_ns + recs[i].gap.dur_ns;

		lo = JS_MIN(lo, recs[i].gap.start_ns);
		hi = JS_MAX(hi, end < recs[i].gap.start_ns ? UINT64_MAX : end);
	}
	w = corr_window_new(ev, nev, lo, hi, o);
	err = corr_window_attribute(w, recs, n);
	corr_window_free(w);
	return err;
}
