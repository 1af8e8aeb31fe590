/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_output.h - the one way an output file is produced. Each output (--json, --gaps,
 * --hlog, --trace ...) is opened before measuring (so a bad path fails at once), may
 * watch the run as it goes (each attributed gap, a periodic tick), and is written from
 * the final result. Outputs run on the housekeeping thread, never on a measured CPU.
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
	const char *name;         /* "json", "gaps", "hlog" ... (messages) */
	void *ctx;
	bool wants_events;        /* on_gap gets the events that overlapped the gap */
	/* run_start - once, when sampling starts (run->start_mono_ns, epoch are set) */
	void (*run_start)(void *ctx, const struct js_run *run);
	/* on_gap - each attributed gap, per CPU in time order */
	void (*on_gap)(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
		       size_t nev);
	/* on_tick - every drain period (about 10 ms), CLOCK_MONOTONIC now */
	void (*on_tick)(void *ctx, const struct js_run *run, uint64_t now_ns);
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

/* output_file_open - open path for writing ("-" = stdout), with a one-line error */
FILE *output_file_open(const char *path, const char *what);
/* output_file_close - fclose unless stdout (flushed); 0 or -errno on a write error */
int output_file_close(FILE *fp);

/* outputs_open - every output the parameters ask for; < 0 after a message */
int outputs_open(struct js_outputs *o, const struct js_params *p);
/* outputs_finish - finish every output; returns the first error */
int outputs_finish(struct js_outputs *o, const struct js_run *run);
/* outputs_destroy - destroy every output */
void outputs_destroy(struct js_outputs *o);

/* The constructors (one file each). Each returns 0 and fills *out, or < 0 after a message. */
int json_output_new(struct js_output *out, const char *path);
int gaps_output_new(struct js_output *out, const char *path);
int trace_output_new(struct js_output *out, const char *path);  /* --trace, out_trace.c */
int html_output_new(struct js_output *out, const char *path);   /* --html, out_html.c */
int hlog_output_new(struct js_output *out, const char *path);   /* --hlog, out_hlog.c */
int hgrm_output_new(struct js_output *out, const char *path);   /* --hgrm, out_hgrm.c */
int prom_output_new(struct js_output *out, const char *path);   /* --prom, out_prom.c */

#endif /* JS_OUTPUT_H */
