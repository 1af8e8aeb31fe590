/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_spike.h - the flight recorder (--spike-threshold TIME --spike-dir DIR): each gap at or
 * above the threshold becomes one JSON file and one Chrome trace in DIR (out_spike.c;
 * docs/OUTPUTS.md, docs/JSON.md). Here: what the reports read of it (struct js_spike_stats
 * in struct js_run) and the three bounded parts it is made of, pure and unit-tested:
 *
 *   spike_ring   the last cap probe events of one CPU, overwritten oldest first
 *   spike_rate   at most max spikes whose gaps start within any 60 s (--spike-max N/min)
 *   spike_keep   the same bound, choosing which: new sources first, then the longest; at
 *                most per_source of one source (--spike-per-source N)
 *   spike_cap    the files in DIR stay within a total size (--spike-dir-max SIZE)
 */
#ifndef JS_SPIKE_H
#define JS_SPIKE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "js_model.h"

#define JS_SPIKE_WINDOW_NS 100000000ull /* events kept before and after a spike: 100 ms */
#define JS_SPIKE_RING_EVENTS \
	16384				/* per measured CPU: 1.4 MiB (88 B an event),
                                             * and once more for one window's copy */
#define JS_SPIKE_RATE_NS 60000000000ull /* --spike-max counts per 60 s */
#define JS_DEFAULT_SPIKE_MAX 10		/* spikes per minute */
#define JS_SPIKE_MAX_MAX 1000
#define JS_DEFAULT_SPIKE_PER_SOURCE 3		      /* spikes per minute of one source */
#define JS_DEFAULT_SPIKE_DIR_MAX (100ull << 20)	      /* 100 MiB */
#define JS_DEFAULT_ON_SPIKE_TIMEOUT_NS 10000000000ull /* --on-spike-timeout: 10 s */
#define JS_DEFAULT_ON_END_TIMEOUT_NS 60000000000ull   /* --on-end-timeout: 60 s */
#define JS_ON_SPIKE_END_STATUS 99 /* an --on-spike command's exit status that ends the run */

/* Why a spike was not written (its counter's reason label). */
enum js_spike_skip {
	JS_SPIKE_SKIP_RATE = 0, /* over --spike-max */
	JS_SPIKE_SKIP_SIZE,	/* its files would take DIR over --spike-dir-max */
	JS_SPIKE_SKIP_BACKLOG,	/* too many spikes waiting for the events after them */
	JS_SPIKE_SKIP_ERROR,	/* a write failed: the recorder stopped */
	JS_SPIKE_SKIP_MAX
};

/* js_spike_skip_name - "rate", "size", "backlog", "error"; "?" if unknown */
const char *js_spike_skip_name(unsigned reason);

/* What the flight recorder did: the text report, the JSON run file and the Prometheus
 * exposition read it. written + the skipped counts = seen, once the run has ended. */
struct js_spike_stats {
	bool on; /* --spike-dir was given */
	char dir[256];
	uint64_t threshold_ns;
	unsigned max_per_min;
	unsigned max_per_source; /* --spike-per-source, at most max_per_min */
	uint64_t dir_max_bytes;
	uint64_t seen;	   /* gaps at or above the threshold */
	uint64_t written;  /* spikes written (a JSON file and its trace each) */
	uint64_t bytes;	   /* the size of those still in DIR */
	uint64_t replaced; /* written, then removed for a better spike (spike_keep):
	                    * written - replaced of them are in DIR */
	uint64_t skipped[JS_SPIKE_SKIP_MAX];
	uint64_t write_ns_max; /* the longest write of one spike (both files) */
	struct js_spike_cmd_stats {
		bool on;	       /* --on-spike was given */
		char cmd[256];	       /* its command (cut to fit) */
		uint64_t timeout_ns;   /* --on-spike-timeout */
		uint64_t runs;	       /* commands started */
		uint64_t failed;       /* exited non-zero (not JS_ON_SPIKE_END_STATUS), killed by
		                        * a signal, or not started */
		uint64_t timeouts;     /* killed at the timeout */
		uint64_t skipped_busy; /* spikes written while a command ran: none run */
		uint64_t run_ns;       /* their total time, start to reaped */
	} cmd;
};

/* js_spike_skipped - the skipped spikes, every reason */
uint64_t js_spike_skipped(const struct js_spike_stats *s);

/* One CPU's recent probe events: a ring of cap, the oldest overwritten first. */
struct spike_ring {
	struct js_event *v;
	size_t cap, head, n;  /* next slot, events held */
	uint64_t lost_end_ns; /* the latest end of an overwritten event (0: none) */
};

/* spike_ring_init - room for cap events, touched now (no page fault later); 0 or -ENOMEM */
int spike_ring_init(struct spike_ring *r, size_t cap);
void spike_ring_free(struct spike_ring *r);
/* spike_ring_push - keep ev, overwriting the oldest event when full */
void spike_ring_push(struct spike_ring *r, const struct js_event *ev);
/* spike_ring_window - the events that overlap [lo, hi] into out (room for r->cap), in
 * start order; returns how many */
size_t spike_ring_window(const struct spike_ring *r, uint64_t lo, uint64_t hi,
			 struct js_event *out);
/* spike_ring_complete - no event that may overlap [lo, ...] was overwritten */
bool spike_ring_complete(const struct spike_ring *r, uint64_t lo);

/* At most max admitted in any JS_SPIKE_RATE_NS: the admission times of the last max. */
struct spike_rate {
	uint64_t *t;
	unsigned max, head, n;
};

/* spike_rate_init - a limiter of max (0 is taken as 1) per JS_SPIKE_RATE_NS; 0 or -ENOMEM */
int spike_rate_init(struct spike_rate *r, unsigned max);
void spike_rate_free(struct spike_rate *r);
/* spike_rate_admit - may a spike at t_ns (not before the previous one's) be written:
 * fewer than max were admitted in (t_ns - JS_SPIKE_RATE_NS, t_ns]; counts it if so */
bool spike_rate_admit(struct spike_rate *r, uint64_t t_ns);

/*
 * A spike's source, what spike_keep counts as one: never a pid (a shell loop's short-lived
 * tasks are one source, issue 39). A task: its name (comm, a kworker's work, a thread's
 * softirq) and cgroup; an IRQ, a softirq, a timer, an IPI ...: the class and the detail less
 * its pids (js_source_key()); steal, SMI, unexplained: the class.
 */
struct spike_src {
	uint32_t cause;		  /* the primary cause class (enum js_cause) */
	uint64_t cgroup;	  /* the primary part's cgroup v2 id, 0: none */
	char name[JS_DETAIL_LEN]; /* its detail less pids and the cgroup's " [name]" */
};

/* spike_source - the source of a gap's attribution a (its primary part's) */
void spike_source(const struct js_attr *a, struct spike_src *src);
/* spike_same_source - one source: the same class, cgroup and name */
bool spike_same_source(const struct spike_src *a, const struct spike_src *b);

/*
 * Which spikes a rate window keeps (--spike-max N/min, --spike-per-source P): the spikes
 * recorded in the last JS_SPIKE_RATE_NS, at most max, at most per_source of one source
 * (struct spike_src). A spike offered:
 *   - when its source has per_source in the window: if it is longer than each of them, it
 *     replaces the shortest of them, else it is skipped;
 *   - else, while the window is not full: kept;
 *   - else, from a source the window has not recorded yet: replaces the shortest spike
 *     among the window's repeats (sources recorded twice or more); with no repeat, it is
 *     treated as below;
 *   - else, if it is longer than every spike of the window: replaces the shortest repeat,
 *     else the shortest spike of its own source, else (a new source) the shortest of all;
 *   - else it is skipped.
 * A handed spike (spike_keep_hand) is never replaced: a rule that would take it takes
 * the next shortest it allows, or skips. Never more than max spikes whose starts lie within
 * any JS_SPIKE_RATE_NS, never more than per_source of one source.
 */
#define SPIKE_NAME_LEN 96

struct spike_keep_rec {
	uint64_t id, t_ns, dur_ns;
	struct spike_src src;
	char name[SPIKE_NAME_LEN]; /* the caller's: its files' name, "" while not written */
	uint64_t bytes;		   /* the caller's: their size */
	bool handed;		   /* spike_keep_hand: never replaced */
};

struct spike_keep {
	struct spike_keep_rec *v;
	unsigned max, per_source, n;
};

enum spike_keep_verdict { SPIKE_KEEP_ADD, SPIKE_KEEP_REPLACE, SPIKE_KEEP_SKIP };

/* spike_keep_init - a window of max (0 is taken as 1), at most per_source of one source (0
 * or above max: max); 0 or -ENOMEM */
int spike_keep_init(struct spike_keep *k, unsigned max, unsigned per_source);
void spike_keep_free(struct spike_keep *k);
/* spike_keep_offer - a spike (id, start t_ns not before the window's latest minus
 * JS_SPIKE_RATE_NS, dur_ns, its source): ADD (kept), REPLACE (kept; the record of the spike
 * it replaces copied into *victim and dropped) or SKIP (not kept) */
enum spike_keep_verdict spike_keep_offer(struct spike_keep *k, uint64_t id, uint64_t t_ns,
					 uint64_t dur_ns, const struct spike_src *src,
					 struct spike_keep_rec *victim);
/* spike_keep_hand - id's record is never replaced: its files were handed to an --on-spike
 * command, which (or what it leaves running) may read them at any time later */
void spike_keep_hand(struct spike_keep *k, uint64_t id);
/* spike_keep_find - the kept record of id, NULL if none */
struct spike_keep_rec *spike_keep_find(struct spike_keep *k, uint64_t id);
/* spike_keep_forget - drop id's record (its files could not be written) */
void spike_keep_forget(struct spike_keep *k, uint64_t id);

/* The files' total size in DIR against its cap. */
struct spike_cap {
	uint64_t max, used;
};

/* spike_cap_take - bytes more fit under max: counted, true; else false (nothing counted) */
bool spike_cap_take(struct spike_cap *c, uint64_t bytes);
/* spike_cap_give - bytes of removed files no longer counted */
void spike_cap_give(struct spike_cap *c, uint64_t bytes);

#endif /* JS_SPIKE_H */
