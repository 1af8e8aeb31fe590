/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_output.h - the one way an output file is produced. Each output (--json, --gaps,
 * --hlog, --trace ...) is opened before measuring (so a bad path fails at once), may
 * watch the run as it goes (each attributed gap, a periodic tick), and is written from
 * the final result. Outputs run on the housekeeping thread, never on a measured CPU.
 *
 * Failing fast: an output's first failed write (a full disk, EIO, a FIFO whose reader
 * left) is kept with its errno. A streaming output (one that writes as the run goes) is
 * checked on every drain period and flushed twice a second (outputs_check): the run stops
 * there, with one line naming the file. The others are still written at the end.
 */
#ifndef JS_OUTPUT_H
#define JS_OUTPUT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_events.h"
#include "js_model.h"

struct js_run;
struct js_params;

struct js_output {
	const char *name; /* "JSON", "gaps CSV" ... (messages) */
	const char *opt;  /* "json", "gaps" ...: the option (set by outputs_open) */
	const char *path; /* its file, "-" = stdout (set by outputs_open) */
	void *ctx;
	FILE *stream;	   /* written during the run: outputs_check watches it */
	FILE *file;	   /* its file, reopened on SIGHUP (outputs_reopen); or NULL */
	int err;	   /* the output failed (-errno): said once, written no more */
	bool wants_events; /* on_gap gets the events that overlapped the gap */
	/* run_start - once, when sampling starts (run->start_mono_ns, epoch are set) */
	void (*run_start)(void *ctx, const struct js_run *run);
	/* on_gap - each attributed gap, per CPU in time order */
	void (*on_gap)(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
		       size_t nev);
	/* on_tick - every drain period (about 10 ms), CLOCK_MONOTONIC now */
	void (*on_tick)(void *ctx, const struct js_run *run, uint64_t now_ns);
	/* on_reopen - its file was reopened and found empty (a new file): write the header */
	void (*on_reopen)(void *ctx);
	/* on_event - each probe event of a measured CPU as it is read (in no strict time
	 * order), for an output that keeps its own window of them (--spike-dir) */
	void (*on_event)(void *ctx, const struct js_event *ev);
	/* sync - every drain period before on_tick, and once after the last gap (done_ns =
	 * UINT64_MAX): every gap and event that ended before done_ns was handed over. Writes
	 * what waited for later events; puts what the output counts into run (the reports
	 * read it) */
	void (*sync)(void *ctx, struct js_run *run, uint64_t done_ns);
	/* replay - a saved run (report), after run_start: what on_gap would have collected,
	 * from the run's result; NULL: the output needs nothing more than finish's run */
	void (*replay)(void *ctx, const struct js_run *run);
	/* finish - after the run (also after Ctrl-C): write what is left; 0 or -errno */
	int (*finish)(void *ctx, const struct js_run *run);
	/* destroy - close and free (accepts a ctx whose finish was not called) */
	void (*destroy)(void *ctx);
};

#define JS_OUTPUTS_MAX 16

struct js_outputs {
	struct js_output v[JS_OUTPUTS_MAX];
	size_t n;
};

/*
 * output_file_open - open path for writing ("-" = stdout) for option --opt, or NULL after
 * "cannot write --OPT file 'PATH': why". A FIFO is opened only when a reader has it open
 * now (never waits for one); a regular file is created or truncated.
 */
FILE *output_file_open(const char *path, const char *opt);
/* output_file_error - the first write error of fp so far (-errno; -EIO for a stream not
 * opened here, such as stdout), 0 if none */
int output_file_error(FILE *fp);
/* output_file_flush - fflush, then output_file_error */
int output_file_flush(FILE *fp);
/* output_file_close - flush and fclose ("-": standard output stays open); 0 or the first
 * write error */
int output_file_close(FILE *fp);
/* output_file_reopen - write fp's path opened again, appending (log rotation moved it
 * away: a new file); stdout, a FIFO or a device is left as it is. 1 if the file is empty
 * now, 0 if not, -errno (fp still writes where it did) */
int output_file_reopen(FILE *fp);
/* output_file_rotate - rename fp's file to PATH.1 and write a new empty PATH, the files
 * before moved on (PATH.1 to PATH.2 ... PATH.KEEP-1 to PATH.KEEP, replacing it; KEEP 0 is
 * 1); stdout, a FIFO or a device is left as it is. 0 or -errno */
int output_file_rotate(FILE *fp, unsigned keep);
/* output_file_done - output_file_close, and on an error the line naming the file and it */
int output_file_done(FILE *fp, const char *path, const char *opt);
/* output_path_check - path can be created or overwritten (no side effect); -errno after
 * one line */
int output_path_check(const char *path, const char *opt);
/* output_dir_check - path is a directory files can be created in, or can be made one (no
 * side effect); -errno after one line */
int output_dir_check(const char *path, const char *opt);
/* output_path_special - path is an existing FIFO, device or socket (neither regular nor a
 * directory): written in place, never replaced */
bool output_path_special(const char *path);

/* One kind of output file (--json, --gaps ...): output.c's js_output_kinds[] lists them
 * all, and the command line, the path checks and outputs_open go by that list. */
struct js_output_kind {
	const char *opt;   /* "json": the option --json FILE */
	const char *doc;   /* its --help line */
	size_t path_off;   /* offsetof(struct js_params, json_path): its FILE */
	const char *arg;   /* its argument in --help: NULL is "FILE" */
	unsigned cmds;	   /* the commands that take it: CMDS_* (js_params.h) */
	const char *saved; /* not for report: why a saved run cannot feed it */
	/* check - path can be written, no side effect (NULL: output_path_check); -errno
	 * after one line */
	int (*check)(const char *path, const char *opt);
	/* ctor - open path and fill *out with the settings of p it needs (now: it never reads
	 * them later); 0, or < 0 after a message */
	int (*ctor)(struct js_output *out, const char *path, const struct js_params *p);
};

extern const struct js_output_kind js_output_kinds[];
extern const size_t js_noutput_kinds;

/* output_kind_path - the FILE p gives output kind k, NULL when not asked for */
static inline const char *output_kind_path(const struct js_output_kind *k,
					   const struct js_params *p)
{
	return *(const char *const *)((const char *)p + k->path_off);
}

/* outputs_collision - a path two requested outputs share (two on stdout included), NULL
 * if none */
const char *outputs_collision(const struct js_params *p);

/* outputs_open - every output the parameters ask for: every path checked, then FIFOs and
 * devices opened, then the regular files created; < 0 after one line */
int outputs_open(struct js_outputs *o, const struct js_params *p);
/*
 * outputs_check - the streaming outputs' write errors (each flushed first when @flush):
 * an output found failed gets its one line on stderr (also into why[len]) and is written
 * no more. Returns the first newly found error (-errno), 0 if none.
 */
int outputs_check(struct js_outputs *o, bool flush, char *why, size_t len);
/* outputs_reopen - reopen every output's file (SIGHUP: log rotation), headers written into
 * the new empty ones; one that cannot be reopened says so and keeps its old file. The
 * first error (-errno), 0 if none */
int outputs_reopen(struct js_outputs *o);
/* outputs_replay - a saved run handed to every output in place of a measurement's
 * events (report): run_start, then replay */
void outputs_replay(struct js_outputs *o, const struct js_run *run);
/* outputs_finish - finish every output not failed yet (the others are still written when
 * one fails: one line each); returns the first error, those found during the run included */
int outputs_finish(struct js_outputs *o, const struct js_run *run);
/* outputs_destroy - destroy every output */
void outputs_destroy(struct js_outputs *o);

/*
 * The run's fan-out (the pipeline's): each hands its call to every output that has the
 * callback and has not failed; @o may be NULL (no outputs).
 * outputs_wants - does one want a gap's events (*events: wants_events) or every event as it
 * is read (*watch: on_event)
 */
void outputs_wants(const struct js_outputs *o, bool *events, bool *watch);
void outputs_run_start(struct js_outputs *o, const struct js_run *run);
void outputs_event(struct js_outputs *o, const struct js_event *ev);
/* outputs_gap - g, with ev[nev] (the events that overlapped it) to those wanting them */
void outputs_gap(struct js_outputs *o, const struct js_gap_rec *g, const struct js_event *ev,
		 size_t nev);
void outputs_sync(struct js_outputs *o, struct js_run *run, uint64_t done_ns);
/* outputs_tick - outputs_sync, then on_tick */
void outputs_tick(struct js_outputs *o, struct js_run *run, uint64_t done_ns);

/* The constructors (one file each), as js_output_kind.ctor: p may be NULL (defaults). */
int out_json_new(struct js_output *out, const char *path, const struct js_params *p);
int out_gaps_new(struct js_output *out, const char *path, const struct js_params *p);
/* --trace, out_trace.c: p->trace_max_events */
int out_trace_new(struct js_output *out, const char *path, const struct js_params *p);
/* trace_write_window - the --trace file of gap g alone with the events ev[nev] around it
 * (clipped to the gap +- max(its duration, ctx_ns)), written as --trace writes a run: the
 * flight recorder's trace (out_spike.c). 0, -ENOMEM or fp's first write error */
int trace_write_window(FILE *fp, const struct js_run *run, const struct js_gap_rec *g,
		       const struct js_event *ev, size_t nev, uint64_t ctx_ns);
/* trace_event_label - an event's slice name in a trace ("irq 36 virtio1-req.0",
 * "jsinject:812 [a.service]", "hrtimer tick_nohz_handler"); run gives symbols and cgroups */
void trace_event_label(const struct js_run *run, const struct js_event *e, char *buf, size_t len);
/* --spike-dir, out_spike.c: p->spike_threshold_ns, spike_max, spike_per_source,
 * spike_dir_max, on_spike, on_spike_timeout_ns (js_spike.h) */
int out_spike_new(struct js_output *out, const char *path, const struct js_params *p);
/* --html, out_html.c: p->cfg.by */
int out_html_new(struct js_output *out, const char *path, const struct js_params *p);
/* --hlog, out_hlog.c: p->hlog_interval_ns, p->cfg.arrival_ns */
int out_hlog_new(struct js_output *out, const char *path, const struct js_params *p);
int out_hgrm_new(struct js_output *out, const char *path, const struct js_params *p);
/* --folded, out_folded.c: folded stacks of the time lost (js_folded.h) */
int out_folded_new(struct js_output *out, const char *path, const struct js_params *p);
int out_prom_new(struct js_output *out, const char *path, const struct js_params *p);

#endif /* JS_OUTPUT_H */
