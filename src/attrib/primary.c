// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * primary.c - a gap's primary cause once all of its time is shared (js_correlate.h,
 * corr_settle): the unexplained remainder names the gap when it is its largest part.
 * Pure. The rule and why: docs/ATTRIBUTION.md, "The primary cause".
 */
#include <string.h>

#include "js_correlate.h"

/* largest_share - the largest share a cause was given: a part's net time with its
 * entry/exit (a folded "(other: N sources)" part counts as one), or the steal */
static uint64_t largest_share(const struct js_attr *a)
{
	uint64_t m = a->steal_ns;

	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		uint64_t s = a->parts[i].net_ns + a->parts[i].entry_ns;

		if (s > m)
			m = s;
	}
	return m;
}

/* corr_settle - the primary is unexplained when the remainder outweighs every share */
void corr_settle(struct js_gap_rec *g)
{
	struct js_attr *a = &g->attr;

	/* kept: a mark (its remainder is the application's work), an SMI (its time is all
	 * unexplained), a page fault (traced at its entry only: its handling, and in a VM the
	 * host's filling of the page before it, is the remainder beside it) */
	if (g->gap.source == JS_SRC_MARK || a->primary == JS_CAUSE_UNEXPLAINED ||
	    a->primary == JS_CAUSE_SMI || a->primary == JS_CAUSE_FAULT ||
	    a->unexplained_ns <= largest_share(a))
		return;
	a->primary = JS_CAUSE_UNEXPLAINED;
	memset(a->detail, 0, sizeof(a->detail));
	memset(&a->waker, 0, sizeof(a->waker)); /* who woke a task that no longer names it */
	a->stack = 0;
}
