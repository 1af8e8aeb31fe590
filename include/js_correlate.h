/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_correlate.h - pure correlation of sampler gaps with probe events (no I/O).
 *
 * Everything is on the CLOCK_MONOTONIC time base (bpf_ktime_get_ns and the mapped
 * sampler gaps). Typical use, per measured CPU:
 *
 *   for each gap: corr_attribute(&gap, events, nev, &opts, &rec.attr);
 *   steal_allocate(recs, n, readings, nr);      // readings from steal_readings()
 *   smi_allocate(recs_in_window, k, smi_delta); // per SMI counter reading window
 *
 * Attribution rules (see correlate.c for the details):
 *  - only events on the gap's CPU count (IPI_SEND: cpu = its target);
 *  - intervals are clipped to the gap; an event matches when it overlaps
 *    [start - edge_slack, end + edge_slack], its time is still clipped to the gap;
 *  - nested intervals are counted once, osnoise style: each instant of the gap
 *    belongs to the innermost interval covering it (the one that began last;
 *    ties: NMI > hrtimer > irq/vector/tlb > softirq > fault > work/thp/mm >
 *    task/idle), so a task's net time excludes the softirqs and IRQs inside it;
 *  - point events (start == end) add a count and no time;
 *  - parts are merged per (cause, detail), sorted by net desc; beyond
 *    JS_PARTS_MAX the least telling are folded into one "(other: N sources)" part
 *    (never the primary, sampler faults, THP/mm or NMIs; TLB flushes and class
 *    repeats first: see fill_parts()), so the parts' nets still add up to covered_ns;
 *  - covered_ns is the union of the clipped intervals (= the sum of the nets);
 *    unexplained_ns = dur - covered - steal, never negative, never folded;
 *  - primary: a THP collapse of the samplers' memory (JS_F_SAMPLER, local or
 *    JS_F_REMOTE) in a gap where the sampler faulted (JS_F_SAMPLER fault: it
 *    waited on its own memory while it was collapsed); else an off-CPU interval
 *    (TASK, or IDLE) outranks whatever ran inside
 *    it: the task/idle source with the largest inclusive time is primary unless
 *    some other source has a larger net (it then ran outside it); otherwise the
 *    largest net. See corr_finish() for steal and SMI.
 */
#ifndef JS_CORRELATE_H
#define JS_CORRELATE_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "js_model.h"

#define CORR_IPI_WINDOW_NS 1000000ull   /* default: IPI send .. vector entry */

/* kernel symbol for an address, or NULL */
typedef const char *(*js_symfn)(void *ctx, uint64_t addr);
/* the short name of a cgroup v2 id (js_cgroup.h), or NULL */
typedef const char *(*js_cgfn)(void *ctx, uint64_t id);

struct corr_opts {
	js_symfn sym;             /* may be NULL: addresses print as 0x... */
	void *sym_ctx;
	uint64_t edge_slack_ns;   /* tolerance at gap edges (default 0) */
	uint64_t ipi_window_ns;   /* how long before a vector entry an IPI_SEND may be;
	                           * 0 = CORR_IPI_WINDOW_NS. Pass the sends from that far
	                           * before the gap too. */
	js_cgfn cgname;           /* may be NULL: details name no cgroup */
	void *cg_ctx;
	uint64_t self_cgroup;     /* the samplers' cgroup v2 id (their faults'), 0: unknown */
};

/*
 * corr_attribute - attribute one gap from the events overlapping it.
 * The caller may pass any superset of the events (any order, any CPU); they are
 * filtered and clipped here. steal_ns and smi start at 0. Returns 0, -EINVAL or
 * -ENOMEM (out then holds an all-unexplained attribution).
 */
int corr_attribute(const struct js_gap *g, const struct js_event *ev, size_t nev,
		   const struct corr_opts *o, struct js_attr *out);

/*
 * corr_attribute_recs - corr_attribute() for every recs[i].gap into recs[i].attr,
 * from one event window shared by all: the events are sorted once and each gap
 * only looks at the slice that can overlap it (O(log nev + k) per gap instead of
 * O(nev)). Same results as calling corr_attribute() per gap. Returns 0 or -errno.
 */
int corr_attribute_recs(struct js_gap_rec *recs, size_t n, const struct js_event *ev, size_t nev,
			const struct corr_opts *o);

/*
 * corr_finish - recompute unexplained_ns and the steal/SMI primary of a gap.
 * unexplained = dur - covered - steal (>= 0). A gap with any event-based part
 * keeps its event primary. A gap with no event gets JS_CAUSE_SMI if an SMI was
 * allocated to it, else JS_CAUSE_STEAL if steal is at least half of the gap,
 * else JS_CAUSE_UNEXPLAINED (detail "smi", "steal" or "").
 */
void corr_finish(struct js_attr *a, uint64_t dur_ns);

/* One reading of the paravirt steal clock of the measured CPU. */
struct steal_reading {
	uint64_t t_ns;        /* CLOCK_MONOTONIC */
	uint64_t steal_ns;    /* steal_time.steal */
};

/*
 * steal_readings - collect the steal readings carried by events (JS_F_STEAL:
 * steal_start at start_ns, steal_end at end_ns) of one CPU, sorted by time.
 * Writes at most max readings; returns how many were found (may exceed max).
 */
size_t steal_readings(const struct js_event *ev, size_t nev, uint32_t cpu,
		      struct steal_reading *out, size_t max);

/*
 * steal_allocate - distribute each steal increment between consecutive readings
 * to the gaps overlapping that window, largest unexplained first, each capped at
 * its unexplained time and at its overlap with the window. gaps must be sorted by
 * start and not overlap; readings sorted by time. Calls corr_finish() on the gaps.
 * Returns the steal not matched to any gap (ns).
 */
uint64_t steal_allocate(struct js_gap_rec *gaps, size_t ngaps, const struct steal_reading *r,
			size_t nr);

/*
 * smi_allocate - the SMI counter moved by smi_delta while these gaps happened:
 * mark the largest still unexplained gaps (no event part, not mostly steal, no SMI
 * yet) with one SMI each, largest unexplained time first. Returns the SMIs left
 * over (more SMIs than such gaps).
 */
uint64_t smi_allocate(struct js_gap_rec *gaps, size_t n, uint64_t smi_delta);

#endif /* JS_CORRELATE_H */
