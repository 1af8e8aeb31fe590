/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_idle_states.h - --deepest-idle-state N: the cpuidle states deeper than N disabled on the
 * measured CPUs only (cpuN/cpuidle/stateK/disable), as rtla's and cyclictest's option does,
 * and given back at the end. A state file (JS_IDLE_RUN_DIR/idle-states.PID, written before
 * the first state is touched) records what was disabled and the values it had, so that a run
 * killed by SIGKILL is undone by the next one's start (idle_recover).
 *
 *   struct idle_states s;
 *   idle_recover(JS_IDLE_RUN_DIR, &old);              // a dead run's states given back
 *   if (!idle_plan(cpus, n, 0, &s)) idle_disable(&s, JS_IDLE_RUN_DIR);
 *   ...                                              // measure
 *   idle_restore(&s, JS_IDLE_RUN_DIR); idle_states_free(&s);
 *
 * Every path goes through js_sysfs.h's root (live: "/"; the tests: a scratch tree), the
 * state file's directory too. Errors are -errno; nothing here prints.
 */
#ifndef JS_IDLE_STATES_H
#define JS_IDLE_STATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_IDLE_RUN_DIR "/run/jitterscope"
#define JS_IDLE_NAME_LEN 16 /* = CPUIDLE_NAME_LEN */

/* one state this run disabled: its CPU, its index K, its name, its disable value before */
struct idle_state {
	int cpu, state, orig;
	char name[JS_IDLE_NAME_LEN];
};

struct idle_states {
	int deepest;	      /* N: states K > N are disabled */
	struct idle_state *v; /* the states disabled (enabled before), CPU then K order */
	size_t n, cap;
	bool restored; /* given back (idle_restore succeeded) */
	int pid;       /* a state file's: the run that wrote it, its start time */
	uint64_t start;
};

/*
 * idle_plan - the states deeper than deepest (K > deepest) of cpus[n] that are enabled now
 * (disable reads 0: one an administrator disabled is left alone, and never re-enabled).
 * 0 (s->n may be 0: no state that deep), -ENOENT when no CPU of cpus has cpuidle states
 * (no cpuidle driver), another -errno when a state cannot be read. s is reset first.
 */
int idle_plan(const int *cpus, size_t n, int deepest, struct idle_states *s);

/* idle_disable - the state file dir/idle-states.PID written (dir made), then 1 written to
 * each state's disable. On failure whatever it wrote is given back, the file removed: -errno */
int idle_disable(struct idle_states *s, const char *dir);

/* idle_restore - each state's original disable value written back; the state file removed
 * when all were (else kept, for the next run): 0 or the first -errno. s->restored on 0;
 * harmless on an empty or restored s */
int idle_restore(struct idle_states *s, const char *dir);

/*
 * idle_recover - the state files of dir left by runs that are gone (no /proc/PID, or another
 * start time there): their states given back, the files removed. Returns how many files were
 * undone (0: none), or -errno (then done keeps what was given back so far); done gets their
 * states (the pid and start of the last); a file that does not parse is removed and skipped.
 */
int idle_recover(const char *dir, struct idle_states *done);

/* idle_file_format - s as a state file of run pid (started at start, /proc/PID/stat's 22nd
 * field) into buf; its length or -ENOSPC */
int idle_file_format(const struct idle_states *s, int pid, uint64_t start, char *buf, size_t len);
/* idle_file_parse - a state file's text into s (reset first; names are left empty):
 * 0 or -EINVAL (-ENOMEM) */
int idle_file_parse(const char *text, struct idle_states *s);

/* idle_states_str - "CPU 1: state2 (C2), state3 (C3); CPU 3: ..." into buf; returns buf */
const char *idle_states_str(const struct idle_states *s, char *buf, size_t len);

/* idle_states_add - one more state in s's list (name may be NULL); 0 or -ENOMEM */
int idle_states_add(struct idle_states *s, int cpu, int state, int orig, const char *name);
/* idle_states_free - free s's list (accepts a zeroed s) */
void idle_states_free(struct idle_states *s);

#endif /* JS_IDLE_STATES_H */
