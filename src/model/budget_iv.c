// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * budget_iv.c - --budget in a run without end: the limits per --budget-interval (see
 * js_budget.h). An interval's numbers are the run's now minus the run's when it started:
 * the counters' differences and the histograms' (hist_sub).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "js_budget.h"
#include "js_hist.h"
#include "js_result.h"

/* since - a - b, 0 if b is above (a window that ended before the last check's cutoff) */
static uint64_t since(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* grow - a mark for every result the run has now: one that appeared since the last (a
 * thread started, the first mark filed on a CPU) starts from zero, all its numbers in the
 * current interval; 0 or -ENOMEM (the results without a mark then wait for the next call) */
static int grow(struct js_budget_iv *iv, const struct js_run *run)
{
	struct js_budget_vals *mark;
	struct js_hist *mh, *h0;

	if (run->ncpus <= iv->n)
		return 0;
	h0 = &run->cpus[0].hist;
	if (!iv->diff) {
		iv->diff = calloc(1, sizeof(*iv->diff));
		if (!iv->diff || hist_init(iv->diff, h0->lowest, h0->highest, h0->sig)) {
			free(iv->diff);
			iv->diff = NULL;
			return -ENOMEM;
		}
	}
	mark = realloc(iv->mark, run->ncpus * sizeof(*mark));
	if (!mark)
		return -ENOMEM;
	iv->mark = mark;
	mh = realloc(iv->mark_hist, run->ncpus * sizeof(*mh));
	if (!mh)
		return -ENOMEM;
	iv->mark_hist = mh;
	for (; iv->n < run->ncpus; iv->n++) {
		const struct js_hist *h = &run->cpus[iv->n].hist;

		memset(&mark[iv->n], 0, sizeof(*mark));
		if (hist_init(&mh[iv->n], h->lowest, h->highest, h->sig))
			break;
	}
	/* the marks' histograms may have moved */
	for (size_t c = 0; c < iv->n; c++)
		mark[c].hist = &mh[c];
	return iv->n < run->ncpus ? -ENOMEM : 0;
}

/* budget_iv_init - every mark zero; the marks' histograms configured as the results' */
int budget_iv_init(struct js_budget_iv *iv, const struct js_run *run)
{
	memset(iv, 0, sizeof(*iv));
	iv->on = true;
	if (grow(iv, run)) {
		budget_iv_free(iv);
		return -ENOMEM;
	}
	return 0;
}

/* interval - cpu c's numbers since its mark into v (v->hist is iv->diff), then the mark
 * moves to now */
static void interval(struct js_budget_iv *iv, size_t c, const struct js_cpu_result *r,
		     struct js_budget_vals *v)
{
	struct js_budget_vals now, *m = &iv->mark[c];

	budget_vals_of(r, &now);
	/* the mark is an earlier copy of the same histogram: cannot fail */
	hist_sub(iv->diff, now.hist, m->hist);
	v->hist = iv->diff;
	v->window_ns = since(now.window_ns, m->window_ns);
	v->lost_ns = since(now.lost_ns, m->lost_ns);
	v->gaps = since(now.gaps, m->gaps);
	v->smi = since(now.smi, m->smi);
	for (size_t k = 0; k < JS_CAUSE_MAX; k++) {
		v->class_gaps[k] = since(now.class_gaps[k], m->class_gaps[k]);
		v->class_ns[k] = since(now.class_ns[k], m->class_ns[k]);
	}
	hist_reset(&iv->mark_hist[c]);
	hist_add(&iv->mark_hist[c], now.hist);
	now.hist = &iv->mark_hist[c];
	*m = now;
}

/* budget_iv_close - check the interval that ends now, start the next */
void budget_iv_close(struct js_budget_iv *iv, const struct js_budget *b, const struct js_run *run,
		     uint64_t *viol)
{
	struct js_budget_vals v;

	/* out of memory: the results without a mark are checked from a later interval */
	grow(iv, run);
	for (size_t c = 0; c < iv->n && c < run->ncpus; c++) {
		interval(iv, c, &run->cpus[c], &v);
		budget_count_vals(b, run, &v, viol);
	}
}

/* budget_iv_free - release it */
void budget_iv_free(struct js_budget_iv *iv)
{
	for (size_t c = 0; iv->mark_hist && c < iv->n; c++)
		hist_free(&iv->mark_hist[c]);
	if (iv->diff)
		hist_free(iv->diff);
	free(iv->mark);
	free(iv->mark_hist);
	free(iv->diff);
	memset(iv, 0, sizeof(*iv));
}
