/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_tasks.h - what /proc says of a process and its threads: their ids, names, process id
 * and allowed CPUs (for --pid and --tid), and whether a process has exited. A task that is
 * gone returns -ENOENT.
 */
#ifndef JS_TASKS_H
#define JS_TASKS_H

#include <stdbool.h>
#include <stddef.h>

#include "js_cpulist.h"

#define JS_COMM_MAX 16 /* TASK_COMM_LEN */

/* task_status - the process id (Tgid) and name of task tid; 0, -ENOENT when gone */
int task_status(int tid, int *tgid, char *comm, size_t len);
/* process_threads - the thread ids of process pid (its /proc/PID/task), at most max; their
 * number (every thread counted, even beyond max), or -ENOENT */
int process_threads(int pid, int *tids, size_t max);
/* task_cpus_or - the CPUs tid may run on, added to set; 0 or -errno */
int task_cpus_or(int tid, struct js_cpuset *set);
/* process_watch - a descriptor of process pid (pidfd_open, Linux 5.3) that process_exited()
 * reads, close-on-exec; -errno: -ESRCH gone already, -ENOSYS an older kernel, -EINVAL not a
 * process (a thread that is not its process's first) */
int process_watch(int pid);
/* process_exited - has the process of fd (process_watch) exited, every thread of it, even
 * if its parent has not reaped it yet (a zombie): a non-blocking poll */
bool process_exited(int fd);

#endif /* JS_TASKS_H */
