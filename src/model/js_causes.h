/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_causes.h - the cause table and the cause-annotated gap histogram (pure, bounded memory).
 *
 * One struct js_causes per measured CPU (the caller sets .cpu after causes_init).
 * Every attributed gap is added once; the table then holds, per source (cause
 * class + detail, e.g. softirq "NET_RX", task "kworker/1:2:123 vmstat_update",
 * work "vmstat_update", irq "virtio1-req.0:36", hrtimer "hrtimer tick_nohz_handler"):
 * gaps it appeared in, events, total time lost (net time plus the entry/exit given to an
 * interruption, js_entry.h; entry_ns alone beside it), largest such time in one gap.
 * Besides the event sources the table has the gap time no event explains:
 *   steal       "paravirt steal clock"    steal_ns allocated to the gaps
 *   smi         "smi"                     the unexplained time of SMI-primary gaps
 *                                         (events = SMIs counted)
 *   unexplained "no guest event"          gaps without any event part
 *   unexplained "outside event windows"   the remainder of gaps with event parts, less
 *                                         the entry/exit given to their interruptions
 * so the totals of all sources add up to lost_ns. Fault sources are keyed without
 * their address (a single fault's detail carries "@0x..."): one source per
 * faulting task. Memory is fixed: at most JS_CAUSES_SRC_MAX sources; once full, a
 * new source is counted in its class's "(other)" source.
 */
#ifndef JS_CAUSES_H
#define JS_CAUSES_H

#include <stddef.h>
#include <stdint.h>

#include "js_model.h"

#define JS_CAUSES_SRC_MAX 512
#define JS_CAUSES_HASH 1024 /* open-addressing index, > 1.5 x JS_CAUSES_SRC_MAX */

#define CAUSES_STEAL_DETAIL "paravirt steal clock"
#define CAUSES_NOEVENT_DETAIL "no guest event"
#define CAUSES_RESIDUAL_DETAIL "outside event windows"
#define CAUSES_UNKNOWN_DETAIL "events lost or evicted"

/* One source: a (cause class, detail) pair. */
struct js_cause_src {
	uint32_t cause;	   /* enum js_cause */
	uint32_t other;	   /* 1: the class's overflow "(other)" source */
	uint64_t gaps;	   /* gaps it appeared in */
	uint64_t events;   /* events (sum of part counts; SMIs for "smi") */
	uint64_t total_ns; /* time lost: net + entry/exit */
	uint64_t entry_ns; /* of which entry/exit (interruptions only) */
	uint64_t max_ns;   /* largest time lost in one gap */
	uint64_t last_gap; /* internal: serial of the last gap that touched it */
	uint64_t cur_ns;   /* internal: its net time in that gap */
	char detail[JS_DETAIL_LEN];
};

/* Per cause class totals (all its sources). */
struct js_cause_class {
	uint64_t gaps, events, total_ns, max_ns;
	uint64_t entry_ns;	   /* of total_ns: entry/exit */
	uint64_t last_gap, cur_ns; /* internal */
};

struct js_causes {
	uint32_t cpu; /* set by the caller; not used here */
	uint32_t nsrc;
	uint64_t ngaps;
	uint64_t lost_ns;		   /* sum of gap durations */
	uint64_t overflowed;		   /* part additions that went into an "(other)" source */
	uint64_t by_primary[JS_CAUSE_MAX]; /* gaps per primary cause */
	uint64_t ns_by_primary[JS_CAUSE_MAX]; /* gap time per primary cause */
	struct js_cause_class cls[JS_CAUSE_MAX];
	struct js_cause_src src[JS_CAUSES_SRC_MAX];
	uint16_t hash[JS_CAUSES_HASH]; /* src index + 1; 0 = empty */
	uint16_t other[JS_CAUSE_MAX];  /* "(other)" src index + 1 per class */
	uint16_t last[JS_CAUSE_MAX];   /* the class's source found last, index + 1: a gap is
	                                * mostly like the one before it */
};

/* causes_init - an empty table */
void causes_init(struct js_causes *c);

/* causes_unexplained_detail - the detail a gap's unexplained time goes under: "events lost
 * or evicted" when events that may have held it were (attr.evidence_lost), else "no guest
 * event" when no event overlapped the gap, else "outside event windows" */
const char *causes_unexplained_detail(const struct js_attr *a);
/* causes_add_gap - account one attributed gap (after corr_finish / steal / SMI allocation) */
void causes_add_gap(struct js_causes *c, const struct js_gap_rec *g);

struct js_cgroups;

/*
 * causes_add_cgroups - account one attributed gap in a table by cgroup (--by cgroup): every
 * part that names a task (js_part.cgroup: a task, an IPI's sender, a fault's task) counts
 * under (its class, its cgroup's short name from cg: "nginx.service", "/"; "cgroup id N"
 * when cg does not know it); the other parts, steal and the unexplained time do not (the
 * class table says those). The gap counts in ngaps and lost_ns, so shares are of all the
 * time lost.
 */
void causes_add_cgroups(struct js_causes *c, const struct js_gap_rec *g,
			const struct js_cgroups *cg);

/*
 * causes_sorted - pointers to the sources by total_ns desc (then gaps desc, class,
 * detail); writes at most max, returns how many were written.
 */
size_t causes_sorted(const struct js_causes *c, const struct js_cause_src **out, size_t max);

/*
 * causes_source - the source of c a part of class cause with this detail was counted in:
 * its own (a fault's without its address), else, the table full then or the part a gap's
 * folded one, the class's "(other)"; NULL when c has neither. A linear search (a saved
 * run's table has no index): for the outputs, not per gap during the run.
 */
const struct js_cause_src *causes_source(const struct js_causes *c, uint32_t cause,
					 const char *detail);

/* causes_class - totals of one cause class (NULL if out of range) */
const struct js_cause_class *causes_class(const struct js_causes *c, uint32_t cause);

/* causes_by_primary - gaps whose primary cause is cause */
uint64_t causes_by_primary(const struct js_causes *c, uint32_t cause);

/* causes_share - ns as a fraction (0..1) of the table's lost time */
double causes_share(const struct js_causes *c, uint64_t ns);

/* causes_merge - add table src into dst (e.g. all CPUs); max is the max of both */
void causes_merge(struct js_causes *dst, const struct js_causes *src);

/*
 * Cause-annotated histogram of gap durations: 1-2-5 log buckets from 100 ns to
 * 100 s, plus one below 100 ns and one from 100 s up; per bucket the gaps and
 * their time split by primary cause.
 */
#define JS_CB_BUCKETS 29

struct js_cause_buckets {
	uint64_t count[JS_CB_BUCKETS][JS_CAUSE_MAX];
	uint64_t ns[JS_CB_BUCKETS][JS_CAUSE_MAX];
	uint64_t total[JS_CB_BUCKETS];
};

/* cbuckets_init - empty histogram */
void cbuckets_init(struct js_cause_buckets *b);

/* cbuckets_add - one gap of dur_ns with its primary cause */
void cbuckets_add(struct js_cause_buckets *b, uint64_t dur_ns, uint32_t primary);

/* cbuckets_index - the bucket of a duration */
int cbuckets_index(uint64_t dur_ns);

/* cbuckets_lo - inclusive lower bound of bucket i (0 for bucket 0) */
uint64_t cbuckets_lo(int i);

/* cbuckets_hi - exclusive upper bound of bucket i (UINT64_MAX for the last) */
uint64_t cbuckets_hi(int i);

#endif /* JS_CAUSES_H */
