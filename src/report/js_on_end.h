/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_on_end.h - --on-end CMD: once the run's report and every output are written, jitterscope
 * runs CMD through /bin/sh as it runs an --on-spike command (js_spike_cmd.h: the housekeeping
 * CPUs, a process group of its own, stdout to jitterscope's stderr, killed at
 * --on-end-timeout) and waits for it, with the run in JS_RUN_* variables (docs/OUTPUTS.md, "A
 * command at the end"). JS_RUN_JSON names the --json file when it is a regular file that
 * was written, else a temporary file holding the same document (removed once the command
 * has ended). The command's exit status never changes jitterscope's: a failure or a kill at
 * the timeout is one warning line.
 */
#ifndef JS_ON_END_H
#define JS_ON_END_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_result.h"

struct js_params;

/* What the command is told. */
struct on_end_facts {
	const char *json;     /* the run's JSON file, absolute; "" if none could be written */
	int status;	      /* the exit status jitterscope exits with */
	enum js_end ended_by; /* what ended the run */
	uint64_t lost_ns;     /* the time lost to gaps (the answer's: report_answer) */
	uint64_t measured_ns; /* of the time measured */
	const char *verdict;  /* "clean", "noisy", "unjudged" (report_verdict_word) */
};

#define ON_END_VARS 7
#define ON_END_VAR_LEN (PATH_MAX + 32)

/* on_end_vars - facts as "NAME=VALUE" into v (JS_RUN_JSON, JS_RUN_EXIT_STATUS,
 * JS_RUN_ENDED_BY, JS_RUN_LOST_NS, JS_RUN_MEASURED_NS, JS_RUN_LOST_PCT, JS_RUN_VERDICT);
 * returns ON_END_VARS. Pure */
size_t on_end_vars(const struct on_end_facts *f, char v[ON_END_VARS][ON_END_VAR_LEN]);

/* on_end_run - p->on_end (none: nothing) for run, ended with exit status `status` and
 * --budget violations viol (< 0: not judged); json_ok: the --json output, if any, was written
 * without error. Returns once the command has ended or was killed at its timeout */
void on_end_run(const struct js_params *p, const struct js_run *run, bool json_ok, int status,
		int viol);

#endif /* JS_ON_END_H */
