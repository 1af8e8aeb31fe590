// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* result.c - accumulate attributed gaps into a CPU's result (bounded memory). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "js_result.h"

const uint64_t js_burst_sizes_ns[JS_BURST_SIZES] = { 10000, 100000, 1000000, 10000000 };

int result_cpu_init(struct js_cpu_result *r, int cpu, unsigned top)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	r->node = -1;
	causes_init(&r->causes);
	r->causes.cpu = (uint32_t)cpu;
	cbuckets_init(&r->cb);
	period_classes_init(&r->period, 0, 0);
	entry_init(&r->entry, 0);
	err = hist_init(&r->hist, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);
	if (err)
		return err;
	r->top.cap = top;
	if (top) {
		r->top.recs = calloc(top, sizeof(*r->top.recs));
		if (!r->top.recs) {
			hist_free(&r->hist);
			return -ENOMEM;
		}
	}
	return 0;
}

void result_cpu_free(struct js_cpu_result *r)
{
	hist_free(&r->hist);
	free(r->top.recs);
	r->top.recs = NULL;
	for (size_t i = 0; i < r->narrivals; i++)
		arrival_free(&r->arrivals[i]);
	intervals_free(&r->intervals);
	r->narrivals = 0;
}

static void heap_down(struct js_top *t, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, m = i;

		if (l < t->n && t->recs[l].gap.dur_ns < t->recs[m].gap.dur_ns)
			m = l;
		if (l + 1 < t->n && t->recs[l + 1].gap.dur_ns < t->recs[m].gap.dur_ns)
			m = l + 1;
		if (m == i)
			return;
		struct js_gap_rec tmp = t->recs[i];
		t->recs[i] = t->recs[m];
		t->recs[m] = tmp;
		i = m;
	}
}

static void heap_up(struct js_top *t, unsigned i)
{
	while (i > 0) {
		unsigned p = (i - 1) / 2;

		if (t->recs[p].gap.dur_ns <= t->recs[i].gap.dur_ns)
			return;
		struct js_gap_rec tmp = t->recs[i];
		t->recs[i] = t->recs[p];
		t->recs[p] = tmp;
		i = p;
	}
}

static void top_add(struct js_top *t, const struct js_gap_rec *g)
{
	if (!t->cap)
		return;
	if (t->n < t->cap) {
		t->recs[t->n] = *g;
		heap_up(t, t->n++);
	} else if (g->gap.dur_ns > t->recs[0].gap.dur_ns) {
		t->recs[0] = *g;
		heap_down(t, 0);
	}
}

void result_add_gap(struct js_cpu_result *r, const struct js_gap_rec *g)
{
	r->gap_count++;
	r->lost_ns += g->gap.dur_ns;
	r->steal_ns += g->attr.steal_ns;
	r->events += g->attr.nevents;
	causes_add_gap(&r->causes, g);
	cbuckets_add(&r->cb, g->gap.dur_ns, g->attr.primary);
	if (g->attr.primary == JS_CAUSE_UNEXPLAINED)
		period_classes_add(&r->period, g->gap.start_ns, g->gap.dur_ns);
	hist_record(&r->hist, (int64_t)g->gap.dur_ns);
	top_add(&r->top, g);
}

static int cmp_dur_desc(const void *a, const void *b)
{
	const struct js_gap_rec *x = a, *y = b;

	return x->gap.dur_ns < y->gap.dur_ns ? 1 : x->gap.dur_ns > y->gap.dur_ns ? -1 : 0;
}

unsigned result_top_sorted(const struct js_cpu_result *r, struct js_gap_rec *out)
{
	if (!r->top.n)
		return 0;	/* -n 0: recs (and out) may be NULL */
	memcpy(out, r->top.recs, r->top.n * sizeof(*out));
	qsort(out, r->top.n, sizeof(*out), cmp_dur_desc);
	return r->top.n;
}

double result_lost_pct(const struct js_cpu_result *r)
{
	uint64_t win = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;

	return win ? 100.0 * (double)r->lost_ns / (double)win : 0.0;
}
