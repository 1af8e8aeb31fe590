// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* spike_cmd.c - --on-spike CMD, --on-end CMD: one command at a time, on the housekeeping
 * CPUs, with a timeout (js_spike_cmd.h). Runs on the housekeeping thread, from the drain
 * loop (--on-spike) or after the report (--on-end). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "js_spike_cmd.h"
#include "js_util.h"

extern char **environ;

/* hk_set - the CPUs the command may use: this thread's (the housekeeping set) less every
 * measured CPU; false if none is left */
static bool hk_set(const struct spike_cmd *c, cpu_set_t *set)
{
	if (sched_getaffinity(0, sizeof(*set), set))
		return false;
	for (size_t i = 0; i < c->nmeasured; i++)
		if (c->measured[i] >= 0 && c->measured[i] < CPU_SETSIZE)
			CPU_CLR(c->measured[i], set);
	return CPU_COUNT(set) > 0;
}

/* reaped - the command ended with status: counted */
static void reaped(struct spike_cmd *c, struct js_spike_cmd_stats *st, int status)
{
	uint64_t now = js_mono_ns();

	st->run_ns += now > c->start_ns ? now - c->start_ns : 0;
	c->status = status;
	if (c->killed)
		st->timeouts++;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == JS_ON_SPIKE_END_STATUS)
		c->ended = true;
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		st->failed++;
	c->pid = 0; /* what it started in the background is the user's (not killed) */
	c->killed = false;
}

/* kill_now - SIGKILL the command's group; reaped (and counted as a timeout) by the poll */
static void kill_now(struct spike_cmd *c)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	c->killed = true;
}

void spike_cmd_poll(struct spike_cmd *c, struct js_spike_cmd_stats *st)
{
	int status = 0;
	pid_t r;

	if (!c->pid)
		return;
	r = waitpid(c->pid, &status, WNOHANG);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		reaped(c, st, r == c->pid ? status : 0);
		return;
	}
	if (!c->killed && js_mono_ns() - c->start_ns >= c->timeout_ns)
		kill_now(c); /* its process group: sh and what it started */
}

bool spike_cmd_busy(struct spike_cmd *c, struct js_spike_cmd_stats *st)
{
	spike_cmd_poll(c, st);
	return c->pid != 0;
}

void spike_cmd_start(struct spike_cmd *c, struct js_spike_cmd_stats *st, char *const *vars,
		     size_t nvars)
{
	char *argv[] = { "sh", "-c", (char *)c->cmd, NULL };
	posix_spawn_file_actions_t fa;
	struct sched_param sp = { 0 };
	posix_spawnattr_t at;
	sigset_t none, all;
	size_t n = 0, k = 0;
	cpu_set_t hk;
	char **env;
	pid_t pid;
	int err;

	if (!hk_set(c, &hk)) {
		err = ENXIO;
		goto failed;
	}
	while (environ && environ[n])
		n++;
	env = calloc(n + nvars + 1, sizeof(*env));
	if (!env) {
		err = ENOMEM;
		goto failed;
	}
	for (size_t i = 0; i < n; i++) /* ours replace any JS_SPIKE_* (JS_RUN_*) inherited */
		if (strncmp(environ[i], c->env_prefix, strlen(c->env_prefix)))
			env[k++] = environ[i];
	for (size_t i = 0; i < nvars; i++)
		env[k++] = vars[i];
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_init(&at);
	/* its own group (killed as one at the timeout; no Ctrl-C of ours), default signals,
	 * none blocked, SCHED_OTHER whatever the thread that starts it runs at */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSCHEDULER);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setschedpolicy(&at, SCHED_OTHER);
	posix_spawnattr_setschedparam(&at, &sp);
	posix_spawn_file_actions_init(&fa);
	/* stdin from /dev/null, stdout to our stderr (a report or JSON on stdout stays
	 * whole), none of our other descriptors (probes, outputs) */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	/* the child inherits this thread's CPUs, the housekeeping ones: narrowed to hk first */
	err = sched_setaffinity(0, sizeof(hk), &hk) ? errno : 0;
	if (!err)
		err = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	free(env);
	if (err)
		goto failed;
	sched_setaffinity(pid, sizeof(hk), &hk);
	c->pid = pid;
	c->start_ns = js_mono_ns();
	c->killed = false;
	st->runs++;
	return;
failed:
	st->failed++;
	c->status = -1;
	if (!c->warned)
		js_warn("cannot run the --%s command: %s (counted as failed)", c->opt,
			strerror(err));
	c->warned = true;
}

void spike_cmd_wait(struct spike_cmd *c, struct js_spike_cmd_stats *st, uint64_t max_ns)
{
	const struct timespec nap = { 0, 5000000 }; /* 5 ms */
	uint64_t t0 = js_mono_ns();

	while (c->pid) {
		spike_cmd_poll(c, st);
		if (c->pid && !c->killed && js_mono_ns() - t0 >= max_ns)
			kill_now(c);
		if (c->pid && c->killed &&
		    js_mono_ns() - c->start_ns > c->timeout_ns + 1000000000ull) {
			st->timeouts++; /* killed, not gone (uninterruptible): not waited for */
			c->pid = 0;
		}
		if (c->pid)
			nanosleep(&nap, NULL);
	}
}
