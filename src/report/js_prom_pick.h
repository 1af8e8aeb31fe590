/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_prom_pick.h - which source labels of one result (a measured CPU, a followed thread)
 * get a Prometheus series of their own, and what each series and each class's "other"
 * count (prom.c; the rule in docs/OUTPUTS.md, "Labels are bounded"). Pure, unit-tested.
 *
 * At each exposition, from the result's totals per label (struct prom_agg, cumulative):
 *   - recent time: a label's time lost, decayed with a half-life of PROM_PICK_HALF_NS;
 *   - at most max labels are shown: a free place goes to the hidden label of most recent
 *     time; a hidden label whose recent time is over PROM_PICK_MARGIN times the smallest
 *     shown one's takes that one's place (it stops: no series);
 *   - a label's value grows by its increase between two expositions that both show it (at
 *     the result's first exposition: its whole total), else it stays: a label shown again
 *     resumes where it stopped, every series only grows;
 *   - "other" of a class is the class's total less its labels' values: every increase not
 *     shown under a label, so it only grows, and at each exposition the increases of the
 *     shown labels and "other" add up to the class's.
 * Memory: one record per label ever seen, at most the cause table's rows.
 */
#ifndef JS_PROM_PICK_H
#define JS_PROM_PICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_model.h"

#define PROM_PICK_HALF_NS 60000000000ull /* recent time: halved every 60 s */
#define PROM_PICK_MARGIN 2.0		 /* a hidden label takes a place over this many times */

/* A label: class, source, cgroup ("" if none). */
struct prom_key {
	uint32_t cause;
	char src[JS_DETAIL_LEN], cg[JS_DETAIL_LEN];
};

/* A label's totals since the run started (the cause table's rows merged by label). */
struct prom_agg {
	struct prom_key k; /* first: prom_key_cmp compares either */
	uint64_t ns, gaps;
};

/* One label seen: its series' value, whether it is shown. */
struct prom_label {
	struct prom_key k;	     /* first */
	uint64_t prev_ns, prev_gaps; /* its totals at the last exposition */
	uint64_t val_ns, val_gaps;   /* its series' value: what it lost while shown */
	double recent_ns;	     /* its time lost, decayed */
	bool shown;		     /* it has a series (at the last exposition) */
};

struct prom_pick {
	struct prom_label *v; /* sorted by prom_key_cmp */
	size_t n;
	uint64_t last_ns; /* the last exposition's time */
	bool started;	  /* an exposition was made */
	uint64_t other_ns[JS_CAUSE_MAX], other_gaps[JS_CAUSE_MAX];
	bool seen[JS_CAUSE_MAX]; /* the class has a row: its "other" is exported */
};

/* prom_key_cmp - qsort/bsearch order of labels (a struct prom_key, or a struct starting
 * with one): class, source, cgroup */
int prom_key_cmp(const void *a, const void *b);
/*
 * prom_pick_update - one exposition at now_ns: a[n] the totals per label, sorted by
 * prom_key_cmp, one entry a label (source "other": the class's overflow, never shown);
 * at most max shown. Updates what is shown, the values and "other". 0 or -ENOMEM (nothing
 * changed).
 */
int prom_pick_update(struct prom_pick *p, const struct prom_agg *a, size_t n, uint64_t now_ns,
		     unsigned max);
/* prom_pick_free - release it; accepts a zeroed struct */
void prom_pick_free(struct prom_pick *p);

#endif /* JS_PROM_PICK_H */
