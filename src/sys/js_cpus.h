/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_cpus.h - the machine's CPUs as jitterscope chooses among them: the online ones, the
 * isolated ones and the default measured CPUs. Read through sysfs.c, so a sysroot stands in
 * for the live files (the tests' fixtures, check --sysroot).
 */
#ifndef JS_CPUS_H
#define JS_CPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "js_cpulist.h"

/* What isolates a CPU: the bits cpus_isolated() and cpus_default() return. */
enum cpus_source {
	CPUS_ISOLCPUS = 1u << 0,  /* isolcpus=: /sys/devices/system/cpu/isolated */
	CPUS_PARTITION = 1u << 1, /* an isolated cpuset partition: cpuset.cpus.isolated at the
	                           * cgroup v2 root, wherever /proc/self/mounts has it */
	CPUS_NOHZ_FULL = 1u << 2, /* nohz_full=: /sys/devices/system/cpu/nohz_full */
};
#define CPUS_NSOURCES 3

/* cpus_online - /sys/devices/system/cpu/online; 0 or -errno */
int cpus_online(struct js_cpuset *online);

/*
 * cpus_permitted - the CPUs this process's threads may be moved to: its cpuset's, read from
 * the kernel itself (the calling thread asks for every CPU, keeps what it gets, and takes
 * its own affinity back at once; no thread is started). Not its
 * affinity: a box booted with isolcpus= gives PID 1, and so every shell, the housekeeping
 * CPUs, and sched_setaffinity() onto an isolated CPU is still allowed (only a cpuset forbids
 * it). The live system's, whatever the sysroot. 0, or -errno (then *s is the affinity).
 */
int cpus_permitted(struct js_cpuset *s);

/* cpus_affinity - the calling thread's affinity (sched_getaffinity) into *s; 0 or -errno */
int cpus_affinity(struct js_cpuset *s);

/*
 * cpus_partition - the CPUs of the isolated cpuset partitions (cpuset.cpus.isolated at the
 * cgroup v2 root) into *s, the file's path into path; -errno (and *s empty) when there is
 * no cgroup v2 mount or no such file (cgroup v1's cpuset, a kernel before 6.10)
 */
int cpus_partition(struct js_cpuset *s, char *path, size_t len);

/*
 * cpus_isolated - the CPUs among within that isolcpus=, an isolated cpuset partition or
 * nohz_full= isolate (their union) into *iso; returns the sources that isolate one of them
 * (enum cpus_source bits). A file that is missing or unreadable isolates nothing.
 */
unsigned int cpus_isolated(const struct js_cpuset *within, struct js_cpuset *iso);

/* cpus_sources_str - the sources' names, "isolcpus, cpuset partition, nohz_full", into buf */
const char *cpus_sources_str(unsigned int sources, char *buf, size_t len);

/*
 * cpus_default - the CPUs measured when --cpu is not given, or is "isolated" (isolated_only):
 * the isolated CPUs (cpus_isolated()) that are online and allowed; else, unless
 * isolated_only, the last online allowed CPU, unless that is CPU 0 (housekeeping needs one).
 * Fills cpus[] (room for every CPU) and *n; returns the sources of the CPUs (0: none is
 * isolated, the last CPU), or -EINVAL after one line when there is no CPU to measure.
 */
int cpus_default(const struct js_cpuset *online, const struct js_cpuset *allowed,
		 bool isolated_only, int *cpus, size_t *n);

/* cpus_default_notice - one notice line: "measuring CPUs 2-3: isolated (isolcpus,
 * nohz_full)" for cpus_default()'s result (doing: "measuring", "auditing") */
void cpus_default_notice(const char *doing, const int *cpus, size_t n, int sources);

#endif /* JS_CPUS_H */
