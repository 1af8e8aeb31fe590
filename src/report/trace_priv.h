/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * trace_priv.h - what the --trace output's two halves share: out_trace.c keeps the worst gaps
 * and their events under the budget while the run goes; trace.c writes what was kept as a
 * Chrome Trace Event file (docs/OUTPUTS_TRACE_HTML.md). Nothing else includes it.
 */
#ifndef JS_TRACE_PRIV_H
#define JS_TRACE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "js_correlate.h"
#include "js_result.h"
#include "js_topn.h"

#define TR_META_PER_CPU 32     /* process name + sort, thread name + sort per track */
#define TR_CTX_MIN_NS 10000ull /* events are clipped to the gap +- max(dur, ctx_ns): this */
#define TR_EV_PER_GAP_MAX 4096
#define TR_BIN_NS 1000000000ull /* counter bin width to start with */
#define TR_TID_STRIDE 10000

/* tracks: "gaps", then the class table's tracks (js_cause_info.track) */
#define TR_GAPS 0
#define TR_NTRACKS (1 + JS_TRACKS_MAX)

_Static_assert(TR_META_PER_CPU >= 2 + 2 * TR_NTRACKS, "metadata reserve covers every track");

/* A kept gap: its rendered name and args, and the events kept with it. */
struct tr_gap {
	uint64_t start_ns, dur_ns;
	uint32_t nev;
	uint32_t truncated; /* events of the gap left out (per-gap cap or no room) */
	struct js_event *ev;
	char *json; /* "name":"...","args":{...} */
};

/* One slice or instant to write (built at finish). */
struct tr_slice {
	uint64_t s, e;	 /* clipped, CLOCK_MONOTONIC */
	uint64_t lo, hi; /* clip window (union of the kept gaps' windows) */
	const struct js_event *ev;
	uint8_t track;
	bool point, clipped, trimmed;
};

struct tr_cpu {
	int cpu;
	int id;			/* its trace process: the CPU for a sampler's result, else
	                             * JS_CPUS_MAX + its index (threads, marks) */
	char key[JS_LABEL_LEN]; /* result_key(): "cpu1", "tid4242", "mark1" */
	struct js_topn kept;	/* struct tr_gap: min-heap on (dur, later start) */
	size_t used, budget;	/* events held (gaps + their events) and allowed */
	struct tr_gap floor;	/* the longest gap left out so far (start, dur only) */
	bool have_floor;
	uint64_t seen, truncated_gaps;
	uint32_t *bin_gaps; /* counters: gaps and lost time per bin */
	uint64_t *bin_lost;
	size_t nbins, maxbins;
	uint64_t bin_ns;
	bool used_track[TR_NTRACKS];
};

struct trace_out {
	FILE *fp;
	unsigned max_events;
	uint64_t ctx_ns; /* events are clipped to each gap +- max(its dur, this) */
	uint64_t run_start_ns;
	struct tr_cpu *cpus; /* per result, in run->cpus' order (set up as they appear) */
	size_t ncpus;
	size_t shares;		   /* the results the event budget is split into */
	long rest;		   /* the events left for gaps after metadata and counters */
	size_t cnt;		   /* counter events per result */
	const struct js_run *live; /* the run being watched (from run_start) */
	struct js_event *scratch;  /* one gap's events while choosing what to keep */
	size_t nscratch;
	int err;		     /* out of memory while watching: reported by finish */
	const struct js_run *run;    /* at finish: function names (run_sym) */
	const struct js_cgroups *cg; /* from run_start: the run's cgroup table, may be NULL */
	uint64_t written;
	bool first;
};

/* tr_rel - ns since the run's start */
static inline uint64_t tr_rel(const struct trace_out *t, uint64_t ns)
{
	return ns > t->run_start_ns ? ns - t->run_start_ns : 0;
}

/* tr_ev_track - the track an event goes on (its class's), -1 for kinds not drawn */
static inline int tr_ev_track(const struct js_event *e)
{
	int c = corr_event_cause(e);
	int track = c < 0 ? 0 : js_cause_info((uint32_t)c)->track;

	return track > 0 && track <= JS_TRACKS_MAX ? track : -1;
}

static inline bool tr_ev_point(const struct js_event *e)
{
	return e->end_ns <= e->start_ns;
}

/* tr_kept_at - the i-th kept gap of c (heap order) */
static inline struct tr_gap *tr_kept_at(const struct tr_cpu *c, size_t i)
{
	return topn_at(&c->kept, i);
}

/* trace_write_file - the whole file of what t kept (envelope, metadata, gaps, events,
 * counters) to t->fp, with run's names; the counters' bins reach the run's end already.
 * 0 or -errno */
int trace_write_file(struct trace_out *t, const struct js_run *run);

#endif /* JS_TRACE_PRIV_H */
