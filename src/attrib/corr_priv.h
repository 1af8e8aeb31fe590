/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * corr_priv.h - what the attribution's three files share and nothing else sees: the
 * per-gap algorithm (correlate.c), the batch window of sorted events (corr_window.c) and the
 * accounting of what no probe sees, steal and SMIs (account.c). Their API is js_correlate.h.
 */
#ifndef JS_CORR_PRIV_H
#define JS_CORR_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_correlate.h"

struct item {
	const struct js_event *ev;
	const struct js_event *send; /* matched IPI_SEND, or NULL */
	uint64_t s, e;		     /* clipped to the gap */
	uint64_t os, odur;	     /* original start and duration (nesting order) */
	uint64_t net;
	uint32_t level;
	uint32_t idx;
	uint32_t cause;
	uint32_t src;	 /* its merged source's id (struct src's, kept through the sort) */
	uint64_t cgroup; /* the cgroup v2 id of the task it names, 0: none */
};

struct src {
	uint32_t cause;
	uint32_t id; /* its index when merged: its items' src */
	uint32_t count;
	uint64_t net;
	uint64_t incl; /* clipped inclusive time (task/idle rank) */
	const struct js_event *first;
	uint64_t cgroup; /* its items' cgroup v2 id (they share the detail) */
	uint8_t tier;	 /* enum fold_tier, set by fill_parts() */
	bool keep;	 /* kept as a part of its own by fill_parts() */
	char detail[JS_DETAIL_LEN];
};

struct corr_scratch {
	struct item *it;
	uint32_t *heap;
	struct src *src;
	const struct js_event **send;
	bool *used;
	size_t n, nsrc, nsend;
	size_t cap; /* allocated entries: kept across the gaps of a batch */
};

/* corr_ev_end - end of an event; open intervals run to the end of time, bad ones are points */
static inline uint64_t corr_ev_end(const struct js_event *e)
{
	if (e->end_ns >= e->start_ns)
		return e->end_ns;
	return (e->flags & JS_F_OPEN) ? UINT64_MAX : e->start_ns;
}

static inline uint64_t corr_sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* corr_mostly_steal - the host took at least half of a gap of dur ns */
static inline bool corr_mostly_steal(const struct js_attr *a, uint64_t dur)
{
	return a->steal_ns && a->steal_ns >= dur - dur / 2;
}

/* corr_left - what no event, no steal and no entry/exit (js_entry.h) explains */
static inline uint64_t corr_left(const struct js_attr *a, uint64_t dur_ns)
{
	return corr_sat_sub(dur_ns, a->covered_ns + a->steal_ns + a->entry_ns);
}

/* corr_attribute_gap - one gap's attribution from its events ev[nev], with sc's buffers
 * (grown, kept across the gaps of a batch); 0 or -ENOMEM */
int corr_attribute_gap(struct corr_scratch *sc, const struct js_gap *g, const struct js_event *ev,
		       size_t nev, const struct corr_opts *o, struct js_attr *out);
/* corr_scratch_free - sc's buffers */
void corr_scratch_free(struct corr_scratch *sc);
/* corr_attr_empty - nothing explains the gap of dur ns */
void corr_attr_empty(struct js_attr *a, uint64_t dur);

#endif /* JS_CORR_PRIV_H */
