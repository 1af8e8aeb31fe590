/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_correlate.h - pure correlation of sampler gaps with probe events (no I/O).
 *
 * All times are CLOCK_MONOTONIC. Per gap, corr_attribute() names the parts (net time per
 * cause and detail, nested intervals counted once, at most JS_PARTS_MAX) and the primary
 * cause from the events on the gap's CPU; steal and SMIs are then allocated to the gaps of
 * a window and corr_finish() settles unexplained_ns (less the interruptions' entry/exit,
 * given after steal by js_entry.h). Rules: docs/DESIGN.md, correlate.
 */
#ifndef JS_CORRELATE_H
#define JS_CORRELATE_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "js_model.h"
#include "js_run_cfg.h"

#define CORR_IPI_WINDOW_NS 1000000ull /* default: IPI send .. vector entry */

/* kernel symbol for an address, or NULL */
typedef const char *(*js_symfn)(void *ctx, uint64_t addr);
/* the short name of a cgroup v2 id (js_cgroup.h), or NULL */
typedef const char *(*js_cgfn)(void *ctx, uint64_t id);

struct corr_opts {
	js_symfn sym; /* may be NULL: addresses print as 0x... */
	void *sym_ctx;
	uint64_t edge_slack_ns; /* tolerance at gap edges (default 0) */
	uint64_t ipi_window_ns; /* how long before a vector entry an IPI_SEND may be;
	                           * 0 = CORR_IPI_WINDOW_NS. Pass the sends from that far
	                           * before the gap too. */
	js_cgfn cgname;		/* may be NULL: details name no cgroup */
	void *cg_ctx;
	uint64_t self_cgroup; /* the samplers' cgroup v2 id (their faults'), 0: unknown */
	uint32_t self_pid;    /* jitterscope's pid: its main thread, which keeps the process's
	                       * name (pidof, killall), is named JS_THREAD_DRAIN; 0: no such */
	bool app;	      /* the probes' JS_F_SAMPLER events hit the application's
	                           * threads they follow (--pid/--tid): "(app)" in details,
	                           * not "(sampler)" */
	const struct js_user_event *events; /* --event: a JS_EV_USER record's id is its index
	                                     * here (its detail is events[id].open) */
	size_t nevents;
	bool marked; /* the gaps are intervals the application measured itself
	                           * (--marks): a task or idle interval running across a gap's
	                           * start or end is the application's own, or that of a CPU it
	                           * was not on (it read the clock at both), not a cause */
};

/* corr_event_cause - the enum js_cause of an event (its class's row: js_cause_info()), or -1
 * for a kind that is no time on the CPU (an IPI send) */
int corr_event_cause(const struct js_event *e);

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
 * A window: corr_attribute_recs() in pieces, the events sorted once. corr_window_new() takes
 * the events of ev that can matter to a gap inside [lo_ns, hi_ns] (o is kept: it must live
 * as long as the window); corr_window_attribute() attributes gaps inside that span, in any
 * order (start order is the fast one), a few at a time if the caller likes, as
 * corr_attribute_recs() would, and returns 0 or -errno (a window that could not be made,
 * NULL included, gives all-unexplained attributions and -ENOMEM); corr_window_free().
 */
struct corr_window;
/*
 * corr_window_floor - the earliest end an event may have and still matter to a gap at or
 * after lo_ns (less the edge slack and the IPI window); corr_event_end - an event's end as
 * the attribution reads it (an open interval's: UINT64_MAX). A caller that keeps seconds of
 * events may pass corr_window_new() only those from the first whose running maximum of
 * corr_event_end() reaches the floor: the window is the same (drain.c does)
 */
uint64_t corr_window_floor(uint64_t lo_ns, const struct corr_opts *o);
uint64_t corr_event_end(const struct js_event *e);
struct corr_window *corr_window_new(const struct js_event *ev, size_t nev, uint64_t lo_ns,
				    uint64_t hi_ns, const struct corr_opts *o);
int corr_window_attribute(struct corr_window *w, struct js_gap_rec *recs, size_t n);
void corr_window_free(struct corr_window *w);

/*
 * corr_finish - recompute unexplained_ns and the steal/SMI primary of a gap.
 * unexplained = dur - covered - steal - entry (>= 0). A gap with any event-based part
 * keeps its event primary. A gap with no event gets JS_CAUSE_SMI if an SMI was
 * allocated to it, else JS_CAUSE_STEAL if steal is at least half of the gap,
 * else JS_CAUSE_UNEXPLAINED (detail "smi", "steal" or "").
 */
void corr_finish(struct js_attr *a, uint64_t dur_ns);

/*
 * corr_settle - the gap's final primary, once its time is all shared (after corr_finish(),
 * steal, SMI and the entry/exit, js_entry.h), before anything counts or shows it: when its
 * unexplained_ns is larger than every share (each part's net_ns + entry_ns, a folded part
 * as one, and steal_ns), the primary becomes JS_CAUSE_UNEXPLAINED (detail "", no waker, no
 * stack); its parts stay. A tie keeps the named cause. An SMI's gap keeps it (the SMI is
 * its unexplained time), and a mark keeps its named cause (its remainder holds the
 * application's own work). The one place this is decided: every output reads attr.primary.
 */
void corr_settle(struct js_gap_rec *g);

/*
 * One reading of the paravirt steal clock of the measured CPU, and of the host's version
 * counters beside it where they were read (has: STEAL_HAS_*): the one input of the host
 * classes host-reload and host-clock (js_host.h). Each counter moves by 2 per update (odd
 * while the host writes): steal_time.version on every vCPU load by the host
 * (kvm_arch_vcpu_load(): each sched-in and each KVM_RUN re-entry), the kvmclock page's
 * pvclock_vcpu_time_info.version on each KVM_REQ_CLOCK_UPDATE. The probes carry the low
 * byte of each (js_events.h, JS_HOST_*): moves are counted modulo 256, and the steal modulo
 * 2^48 (js_host_steal_delta()).
 */
struct steal_reading {
	uint64_t t_ns;	     /* CLOCK_MONOTONIC */
	uint64_t steal_ns;   /* steal_time.steal (modulo 2^48) */
	uint8_t st_version;  /* steal_time.version's low byte, if has & STEAL_HAS_ST_VERSION */
	uint8_t clk_version; /* kvmclock version's low byte, if has & STEAL_HAS_CLK_VERSION */
	uint8_t has;
};

/* has: STEAL_HAS_ST_VERSION, STEAL_HAS_CLK_VERSION (js_model.h) */

/* One CPU's steal clock readings awaiting their gaps: sorted by time, at most cap; and
 * what they showed so far (moves: up to the last window given to gaps). */
struct steal_log {
	struct steal_reading *v;
	size_t n, cap;
	struct js_host_moves moves;
};

/* steal_log_init - an empty log of at most cap readings; 0 or -ENOMEM */
int steal_log_init(struct steal_log *l, size_t cap);
/* steal_log_free - release it (accepts a zeroed or freed log) */
void steal_log_free(struct steal_log *l);
/* steal_log_add - the two readings a JS_F_STEAL event carries (steal_start at start_ns,
 * steal_end at end_ns, with the versions its JS_F_HOST_* say), kept in time order; a full
 * log first drops every other reading */
void steal_log_add(struct steal_log *l, const struct js_event *e);
/* steal_log_allocate - steal_allocate() the readings up to the end of the last of recs
 * (n attributed gaps, sorted) to them, their version moves counted in l->moves; the last
 * reading used stays, as the start of the next window */
void steal_log_allocate(struct steal_log *l, struct js_gap_rec *recs, size_t n);

/*
 * steal_allocate - distribute each steal increment between consecutive readings
 * to the gaps overlapping that window, largest unexplained first, each capped at
 * its unexplained time and at its overlap with the window. gaps must be sorted by
 * start and not overlap; readings sorted by time. Calls corr_finish() on the gaps.
 * The host's version moves of a window (both readings having the counter) go, all of
 * them, to its gap with the most unexplained time left in it: a steal_time.version move
 * where the steal did not move to attr.host_reloads, a kvmclock move to attr.host_clock.
 * Returns the steal not matched to any gap (ns).
 */
uint64_t steal_allocate(struct js_gap_rec *gaps, size_t ngaps, const struct steal_reading *r,
			size_t nr);

/*
 * corr_smi_allocate - the SMI counter moved by smi_delta while these gaps happened:
 * mark the largest still unexplained gaps (no event part, not mostly steal, no SMI
 * yet) with one SMI each, largest unexplained time first. Returns the SMIs left
 * over (more SMIs than such gaps).
 */
uint64_t corr_smi_allocate(struct js_gap_rec *gaps, size_t n, uint64_t smi_delta);

#endif /* JS_CORRELATE_H */
