// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* tasks.c - a process's threads, a task's name, process id and allowed CPUs, whether a
 * process exited (js_tasks.h). */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "js_sysfs.h"
#include "js_tasks.h"

int task_status(int tid, int *tgid, char *comm, size_t len)
{
	char path[64], *buf = NULL, *l;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (sysfs_read_file(path, &buf, &n))
		return -ENOENT;
	*tgid = 0;
	if (comm && len)
		comm[0] = '\0';
	for (l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "Name:\t", 6) && comm && len)
			snprintf(comm, len, "%.*s", (int)strcspn(l + 6, "\n"), l + 6);
		else if (!strncmp(l, "Tgid:\t", 6))
			*tgid = atoi(l + 6);
	}
	free(buf);
	return *tgid > 0 ? 0 : -ENOENT;
}

int process_threads(int pid, int *tids, size_t max)
{
	char path[64];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -ENOENT;
	while ((d = readdir(dir))) {
		int t = atoi(d->d_name);

		if (t <= 0)
			continue;
		if (n < max)
			tids[n] = t;
		n++;
	}
	closedir(dir);
	return (int)n;
}

int task_cpus_or(int tid, struct js_cpuset *set)
{
	cpu_set_t aff;

	if (sched_getaffinity(tid, sizeof(aff), &aff))
		return -errno;
	for (int c = 0; c < JS_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &aff))
			cpuset_set(set, c);
	return 0;
}

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture */
#endif

int process_watch(int pid)
{
	long fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : (int)fd; /* pidfds are close-on-exec */
}

bool process_exited(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP));
}
