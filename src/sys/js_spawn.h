/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_spawn.h - a command started held (jitterscope -- CMD): forked at once, so that its
 * process id is known (to follow it, to measure its CPUs) before it runs, and exec'd only
 * when released. It inherits what this process has when spawn_held() is called: the CPU
 * affinity, the signal mask and dispositions, the environment, the open descriptors (0, 1,
 * 2 and whatever the caller was given; none of the hold's own): call it before narrowing any
 * of them. Its name (comm) is the program's before it is exec'd, so that a reader of
 * /proc sees the name it will have. One child; not thread-safe.
 */
#ifndef JS_SPAWN_H
#define JS_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#define JS_EXIT_NOT_FOUND 127 /* CMD not found (as a shell) */
#define JS_EXIT_NOT_EXEC 126  /* CMD found, not executable */

struct spawn {
	pid_t pid;     /* the child; 0: none */
	int go;	       /* the hold's write end; -1 once released or abandoned */
	bool released; /* spawn_release() was called: it ran (or failed to exec) */
	bool reaped;   /* it exited and was waited for: status holds how */
	int status;    /* waitpid()'s */
};

/* spawn_held - fork argv[0] (searched in PATH when it has no '/', as execvp does) held until
 * spawn_release(); 0, or the exit status a shell would give (127 not found, 126 not
 * executable) after one line on stderr, or 1 (fork failed: one line) */
int spawn_held(struct spawn *s, char *const argv[]);
/* spawn_release - let it exec (a failed exec: one line from the child, its status 126/127) */
void spawn_release(struct spawn *s);
/* spawn_released - has spawn_release() been called */
bool spawn_released(const struct spawn *s);
/* spawn_reap - has it exited (reaped now or before); wait: block until it has */
bool spawn_reap(struct spawn *s, bool wait);
/* spawn_abandon - never released: it exits without running the command, and is reaped */
void spawn_abandon(struct spawn *s);
/* spawn_exit_code - a reaped child's status as a shell gives it: its exit code, 128 + N when
 * signal N killed it */
int spawn_exit_code(const struct spawn *s);
/* spawn_signal - the signal that killed a reaped child, 0 when it exited */
int spawn_signal(const struct spawn *s);

#endif /* JS_SPAWN_H */
