// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * prom_pick.c - the source labels with a series of their own, re-picked at each exposition
 * as the sources change (js_prom_pick.h; why: docs/OUTPUTS.md, "Labels are bounded").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "js_prom.h"
#include "js_prom_pick.h"
#include "js_util.h"

int prom_key_cmp(const void *pa, const void *pb)
{
	const struct prom_key *a = pa, *b = pb;
	int r;

	if (a->cause != b->cause)
		return a->cause < b->cause ? -1 : 1;
	r = strcmp(a->src, b->src);
	return r ? r : strcmp(a->cg, b->cg);
}

/* label_of - the record of key, NULL if none */
static struct prom_label *label_of(const struct prom_pick *p, const struct prom_key *key)
{
	return bsearch(key, p->v, p->n, sizeof(*p->v), prom_key_cmp);
}

/* add_labels - a record (zero so far) for each label of a not seen before; -ENOMEM */
static int add_labels(struct prom_pick *p, const struct prom_agg *a, size_t n)
{
	size_t add = 0, k = p->n;
	struct prom_label *v;

	for (size_t i = 0; i < n; i++)
		add += strcmp(a[i].k.src, JS_PROM_OTHER) && !label_of(p, &a[i].k);
	if (!add)
		return 0;
	v = realloc(p->v, (p->n + add) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v = v;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(a[i].k.src, JS_PROM_OTHER) || label_of(p, &a[i].k))
			continue;
		memset(&v[k], 0, sizeof(v[k]));
		v[k++].k = a[i].k;
	}
	/* label_of searches the first p->n only: the new ones are found in a[] alone */
	p->n = k;
	qsort(p->v, p->n, sizeof(*p->v), prom_key_cmp);
	return 0;
}

/* extreme - the hidden label of most recent time (hidden), or the shown label of least
 * (!hidden); ties to the first by key. -1 if none (a hidden one needs some recent time) */
static long extreme(const struct prom_pick *p, bool hidden)
{
	long best = -1;

	for (size_t i = 0; i < p->n; i++) {
		const struct prom_label *l = &p->v[i];

		if (l->shown == hidden || (hidden && !(l->recent_ns > 0)))
			continue;
		if (best < 0 || (hidden ? l->recent_ns > p->v[best].recent_ns :
					  l->recent_ns < p->v[best].recent_ns))
			best = (long)i;
	}
	return best;
}

/* repick - free places first, then a hidden label far above the least shown one takes its
 * place; each swap raises the shown labels' recent time, so it ends */
static void repick(struct prom_pick *p, unsigned max)
{
	size_t shown = 0;

	for (size_t i = 0; i < p->n; i++)
		shown += p->v[i].shown;
	for (long h; shown < max && (h = extreme(p, true)) >= 0; shown++)
		p->v[h].shown = true;
	for (size_t k = 0; k < p->n; k++) {
		long h = extreme(p, true), s = extreme(p, false);

		if (h < 0 || s < 0 || !(p->v[h].recent_ns > PROM_PICK_MARGIN * p->v[s].recent_ns))
			break;
		p->v[h].shown = true;
		p->v[s].shown = false;
	}
}

int prom_pick_update(struct prom_pick *p, const struct prom_agg *a, size_t n, uint64_t now_ns,
		     unsigned max)
{
	double decay = 1.0;
	bool *was;
	int err = add_labels(p, a, n);

	if (err)
		return err;
	was = calloc(p->n ? p->n : 1, sizeof(*was));
	if (!was)
		return -ENOMEM;
	if (p->started && now_ns > p->last_ns)
		decay = exp2(-(double)(now_ns - p->last_ns) / (double)PROM_PICK_HALF_NS);
	/* the increase since the last exposition, into each label's recent time */
	for (size_t i = 0; i < p->n; i++) {
		struct prom_label *l = &p->v[i];
		const struct prom_agg *t = bsearch(&l->k, a, n, sizeof(*a), prom_key_cmp);
		uint64_t ns = t ? t->ns : l->prev_ns;

		l->recent_ns =
			l->recent_ns * decay + (double)(ns > l->prev_ns ? ns - l->prev_ns : 0);
		was[i] = l->shown || !p->started; /* the first exposition counts from the start */
	}
	repick(p, max);
	/* a series grows between two expositions that show it; the rest goes to "other" */
	memset(p->other_ns, 0, sizeof(p->other_ns));
	memset(p->other_gaps, 0, sizeof(p->other_gaps));
	memset(p->seen, 0, sizeof(p->seen));
	for (size_t i = 0; i < n; i++)
		if (a[i].k.cause < JS_CAUSE_MAX) {
			p->other_ns[a[i].k.cause] += a[i].ns;
			p->other_gaps[a[i].k.cause] += a[i].gaps;
			p->seen[a[i].k.cause] = true;
		}
	for (size_t i = 0; i < p->n; i++) {
		struct prom_label *l = &p->v[i];
		const struct prom_agg *t = bsearch(&l->k, a, n, sizeof(*a), prom_key_cmp);
		uint64_t ns = t ? t->ns : l->prev_ns, gaps = t ? t->gaps : l->prev_gaps;

		if (l->shown && was[i]) {
			l->val_ns += ns > l->prev_ns ? ns - l->prev_ns : 0;
			l->val_gaps += gaps > l->prev_gaps ? gaps - l->prev_gaps : 0;
		}
		l->prev_ns = ns;
		l->prev_gaps = gaps;
		if (l->k.cause < JS_CAUSE_MAX) {
			p->other_ns[l->k.cause] -= JS_MIN(p->other_ns[l->k.cause], l->val_ns);
			p->other_gaps[l->k.cause] -= JS_MIN(p->other_gaps[l->k.cause], l->val_gaps);
		}
	}
	free(was);
	p->last_ns = now_ns;
	p->started = true;
	return 0;
}

void prom_pick_free(struct prom_pick *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
