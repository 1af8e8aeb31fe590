// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * spawn.c - the command of jitterscope -- CMD, started held (js_spawn.h): the child waits on
 * a pipe until the measurement is ready to see it run, then execs; the parent's end of the
 * pipe closed without a byte (the run never started) makes it exit without running anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "js_spawn.h"
#include "js_util.h"

/* runnable - path is a file this process may execute; 0 or -errno */
static int runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return access(path, X_OK) ? -errno : 0;
}

/* find - name as execvp finds it into path[len]: itself when it has a '/', else the first
 * PATH entry where it is runnable (one where it exists but is not: -EACCES unless a later
 * one is); 0 or -errno */
static int find(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *d, *end;
	int err = -ENOENT;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		js_scpy(path, len, name);
		return runnable(path);
	}
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (d = dirs; d; d = *end ? end + 1 : NULL) {
		int e;

		end = strchrnul(d, ':');
		if ((size_t)snprintf(path, len, "%.*s%s%s", (int)(end - d), d, end > d ? "/" : "",
				     name) >= len)
			continue;
		e = runnable(path);
		if (!e)
			return 0;
		if (e != -ENOENT && e != -ENOTDIR)
			err = e;
	}
	return err;
}

/* child - wait for the release, then exec path (never returns) */
static void child(int hold, const char *path, char *const argv[])
{
	const char *base = strrchr(path, '/');
	char c;
	ssize_t r;

	/* the name exec will give it, seen by whoever reads /proc until then */
	prctl(PR_SET_NAME, base ? base + 1 : path, 0, 0, 0);
	do
		r = read(hold, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(JS_EXIT_NOT_FOUND); /* abandoned: nothing ran */
	close(hold);
	execv(path, argv);
	if (errno == ENOEXEC) { /* a script without #!: sh runs it, as execvp and a shell do */
		char *sh[64] = { "sh", (char *)path };
		size_t n = 2;

		for (size_t i = 1; argv[i] && n < ARRAY_SIZE(sh) - 1; i++)
			sh[n++] = argv[i];
		sh[n] = NULL;
		execv("/bin/sh", sh);
	}
	dprintf(2, "jitterscope: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? JS_EXIT_NOT_FOUND : JS_EXIT_NOT_EXEC);
}

int spawn_held(struct spawn *s, char *const argv[])
{
	char path[PATH_MAX];
	int hold[2], err;

	*s = (struct spawn){ .go = -1 };
	err = find(argv[0], path, sizeof(path));
	if (err) {
		js_err("%s: %s", argv[0], err == -ENOENT ? "command not found" : strerror(-err));
		return err == -ENOENT ? JS_EXIT_NOT_FOUND : JS_EXIT_NOT_EXEC;
	}
	if (pipe2(hold, O_CLOEXEC)) {
		js_err("cannot start %s: %s", argv[0], strerror(errno));
		return JS_EXIT_ERROR;
	}
	fflush(NULL); /* nothing buffered is written twice */
	s->pid = fork();
	if (s->pid < 0) {
		js_err("cannot start %s: %s", argv[0], strerror(errno));
		close(hold[0]);
		close(hold[1]);
		s->pid = 0;
		return JS_EXIT_ERROR;
	}
	if (!s->pid) {
		close(hold[1]);
		child(hold[0], path, argv);
	}
	close(hold[0]);
	s->go = hold[1];
	return 0;
}

void spawn_release(struct spawn *s)
{
	if (s->go < 0)
		return;
	/* a child already gone (a signal) makes this EPIPE: reaped as it is */
	if (write(s->go, "g", 1) < 0)
		js_dbg("releasing the command: %s", strerror(errno));
	close(s->go);
	s->go = -1;
	s->released = true;
}

bool spawn_released(const struct spawn *s)
{
	return s->released;
}

bool spawn_reap(struct spawn *s, bool wait)
{
	pid_t r;

	if (!s->pid || s->reaped)
		return s->reaped;
	do
		r = waitpid(s->pid, &s->status, wait ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	s->reaped = r == s->pid;
	return s->reaped;
}

void spawn_abandon(struct spawn *s)
{
	if (s->go >= 0) {
		close(s->go);
		s->go = -1;
	}
	spawn_reap(s, true);
}

int spawn_exit_code(const struct spawn *s)
{
	if (WIFSIGNALED(s->status))
		return 128 + WTERMSIG(s->status);
	return WEXITSTATUS(s->status);
}

int spawn_signal(const struct spawn *s)
{
	return WIFSIGNALED(s->status) ? WTERMSIG(s->status) : 0;
}
