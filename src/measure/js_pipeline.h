/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_pipeline.h - one measurement: start the samplers, attach the probes, drain
 * gaps and events from a housekeeping CPU, attribute each gap, feed the result.
 */
#ifndef JS_PIPELINE_H
#define JS_PIPELINE_H

#include <signal.h>
#include <stdio.h>

#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_source.h"

/* Set by the signal handler: 1 = stop and report, 2+ = exit at once. */
extern volatile sig_atomic_t js_stop_requested;
/* Set by SIGHUP: every output file is reopened (outputs_reopen) at the next drain. */
extern volatile sig_atomic_t js_reopen_requested;

/*
 * What the command does as the measuring window opens and closes, on the housekeeping
 * thread: opened() once the probes are attached, the samplers started and the attach has
 * settled, just before the window opens; closed() once the samplers are done, before the
 * probes are detached (attaching and detaching send IPIs to every CPU: what the command
 * reads between the two is the window's, not jitterscope's own setting up). closed() only
 * after opened(); either may be NULL.
 */
struct pipe_window_hook {
	void (*opened)(void *ctx);
	void (*closed)(void *ctx);
	void *ctx;
};

/* pipeline_run - measure p->cpus, feeding @outs as it goes, with the gap sources @srcs[@nsrcs]
 * (js_source.h: not opened yet; at most 3) besides the samplers, calling @hook (may be NULL)
 * around the window; fills @run. 0 ok (also when interrupted), < 0 error */
int pipeline_run(struct js_run *run, const struct js_params *p, struct js_outputs *outs,
		 const struct gap_source *srcs, size_t nsrcs, const struct pipe_window_hook *hook);

#endif /* JS_PIPELINE_H */
