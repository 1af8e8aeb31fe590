/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_spike_cmd.h - the user's commands jitterscope runs: --on-spike CMD, which the flight
 * recorder runs through /bin/sh for each spike it writes (out_spike.c; docs/OUTPUTS.md "A
 * command on each spike"), and --on-end CMD, once after the report (on_end.c). At most one at
 * a time, on the housekeeping CPUs (never a measured one), in a process group of its own,
 * killed (SIGKILL, the group) at its timeout. posix_spawn returns once the child has
 * exec'd, and it is reaped with waitpid(WNOHANG) on each drain: a failing or hanging
 * command never stops or slows the measurement. Counted in struct js_spike_cmd_stats; an
 * exit status of JS_ON_SPIKE_END_STATUS (99) is not a failure: it asks the run to end.
 */
#ifndef JS_SPIKE_CMD_H
#define JS_SPIKE_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "js_spike.h"

struct spike_cmd {
	const char *cmd;
	const char *opt;	/* its option, for messages: "on-spike", "on-end" */
	const char *env_prefix; /* inherited variables of this prefix are left out: "JS_SPIKE_" */
	uint64_t timeout_ns;
	const int *measured; /* the measured CPUs: never the command's */
	size_t nmeasured;
	pid_t pid; /* the running command, 0: none */
	uint64_t start_ns;
	bool killed; /* SIGKILL sent at the timeout */
	bool warned; /* a failed start was said once */
	int status;  /* the last command's wait status (-1: none ended, or not started) */
	bool ended;  /* a command exited JS_ON_SPIKE_END_STATUS */
};

/* spike_cmd_busy - is a command still running (reaped first if it ended) */
bool spike_cmd_busy(struct spike_cmd *c, struct js_spike_cmd_stats *st);
/* spike_cmd_start - run the command with vars ("NAME=VALUE", nvars of them) added to the
 * environment; counted as a run, or failed if it could not start */
void spike_cmd_start(struct spike_cmd *c, struct js_spike_cmd_stats *st, char *const *vars,
		     size_t nvars);
/* spike_cmd_poll - reap an ended command, kill one past its timeout; never blocks */
void spike_cmd_poll(struct spike_cmd *c, struct js_spike_cmd_stats *st);
/* spike_cmd_wait - the end of the run: let a running command end within the rest of its
 * timeout and at most max_ns more (killed then, counted as a timeout), and reap it */
void spike_cmd_wait(struct spike_cmd *c, struct js_spike_cmd_stats *st, uint64_t max_ns);

#endif /* JS_SPIKE_CMD_H */
