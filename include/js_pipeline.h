/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_pipeline.h - one measurement: start the samplers, attach the probes, drain
 * gaps and events from a housekeeping CPU, attribute each gap, feed the result.
 */
#ifndef JS_PIPELINE_H
#define JS_PIPELINE_H

#include <signal.h>
#include <stdio.h>

#include "js_params.h"
#include "js_result.h"

/* Where each attributed gap goes besides the result (optional outputs). */
struct js_sinks {
	FILE *gaps_csv;       /* --gaps */
};

/* Set by the signal handler: 1 = stop and report, 2+ = exit at once. */
extern volatile sig_atomic_t js_stop_requested;

/* pipeline_run - measure p->cpus; fills @run. 0 ok (also when interrupted), < 0 error */
int pipeline_run(struct js_run *run, const struct js_params *p, struct js_sinks *sinks);

#endif /* JS_PIPELINE_H */
