/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_source.h - a gap source: what feeds the pipeline gaps besides the samplers, into the
 * one correlator, result and outputs (docs/DESIGN.md, gap sources). The threads followed
 * with --pid/--tid (threads.c) and the application's marks (marks.c) are sources; so is the
 * command of jitterscope -- CMD (run_cmd.c), which pushes no gap: it starts CMD at the first
 * poll and ends the run when CMD exits.
 *
 * The command fills one gap_source per source it wants (threads_source, marks_source) and
 * hands them to pipeline_run, as it hands the outputs: the pipeline names no source.
 * Life cycle, on the housekeeping thread: open (before the probes attach; a refusal is one
 * line and exit 1), start (the probes attached, the window about to open), poll (every
 * drain period), stop (the window closed), destroy. A source hands each gap to pipe_push()
 * once it has ended; the pipeline attributes it PROCESS_LAG later, against the events its
 * CPU kept for that (js_drain.h: up to JS_MARKS_KEEP_S seconds).
 */
#ifndef JS_SOURCE_H
#define JS_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "js_model.h"
#include "js_params.h"
#include "js_result.h"

struct js_pipe;
struct js_probes;

struct gap_source {
	const char *name;
	void *ctx; /* set by open */
	/* open - the probes are loaded, not attached: load and read what the source needs, set
	 * s->ctx; 0, or < 0 after one line on stderr */
	int (*open)(struct gap_source *s, struct js_pipe *pl);
	/* start - the probes are attached: attach what the source needs; 0 or < 0 (one line);
	 * NULL: nothing to attach */
	int (*start)(void *ctx, struct js_pipe *pl);
	/* poll - every drain period: push the gaps that ended; true when the source ends the
	 * run (a followed process exited) */
	bool (*poll)(void *ctx, struct js_pipe *pl, uint64_t now_ns);
	/* stop - the window closed at end_ns: the last gaps, the results' own figures */
	void (*stop)(void *ctx, struct js_pipe *pl, uint64_t end_ns);
	void (*destroy)(void *ctx);
	/* fill - what its last poll read, in bytes, of the ring it reads (*size): the drain
	 * sleeps longer while it stays quiet (js_nap.h); NULL: it reads no ring */
	void (*fill)(void *ctx, size_t *used, size_t *size);
	/* base_nap - read every JS_NAP_BASE_NS whatever it read (the marks: a pipe of 64 KiB
	 * that the application must never find full) */
	bool base_nap;
};

/* the CPU of a mark not filed yet: the pipeline files it on the watched CPU whose events
 * explain most of it */
#define JS_CPU_ANY UINT32_MAX

/*
 * pipe_push - hand over gap g (source, CPU or JS_CPU_ANY for a mark, result index, start,
 * duration, id) and its label (NULL: none). A gap overlapping the last one still pending of
 * the same source and id is merged into it (a thread's interrupt and the preemption it
 * caused). false when its CPU is not watched: it is not recorded.
 */
bool pipe_push(struct js_pipe *pl, const struct js_gap *g, const char *label);
/* pipe_result - a new result of source src on cpu (its models started with the window);
 * its index in pipe_run()->cpus, or < 0 */
int pipe_result(struct js_pipe *pl, enum js_source src, int cpu);
/* pipe_run, pipe_params, pipe_probes - what the run is, was asked, and its probes (NULL
 * when off) */
struct js_run *pipe_run(struct js_pipe *pl);
const struct js_params *pipe_params(const struct js_pipe *pl);
struct js_probes *pipe_probes(struct js_pipe *pl);
/* pipe_watched - is cpu one whose events are recorded */
bool pipe_watched(const struct js_pipe *pl, uint32_t cpu);
/* pipe_hold - the threads' source: a gap of a followed thread still open started at
 * since_ns (the time of the call when none is); its CPU's events are kept from there (else
 * DRAIN_THREAD_KEEP_NS). Until the first call, every event is kept (up to DRAIN_KEEP_NS) */
void pipe_hold(struct js_pipe *pl, uint64_t since_ns);
/* pipe_window_start - when the window opened (CLOCK_MONOTONIC), 0 before */
uint64_t pipe_window_start(const struct js_pipe *pl);

/* The sources (one file each): fill s with the source's functions; its open does the work. */
void threads_source(struct gap_source *s);
struct follow_opts;
/* threads_follow_opts - what the threads' source follows and how, from p (the probes load
 * with the same: probes_opts.follow); no probes in it */
void threads_follow_opts(const struct js_params *p, struct follow_opts *o);
void marks_source(struct gap_source *s);
struct spawn;
/* run_cmd_source - child: held by spawn_held(), owned by the caller (js_spawn.h) */
void run_cmd_source(struct gap_source *s, struct spawn *child);

#endif /* JS_SOURCE_H */
