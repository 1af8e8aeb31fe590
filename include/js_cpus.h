/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_cpus.h - the machine's CPUs as jitterscope chooses among them: the online ones and the
 * default measured CPUs. Read through sysfs.c, so a sysroot stands in for the live files.
 */
#ifndef JS_CPUS_H
#define JS_CPUS_H

#include <stddef.h>

#include "js_cpulist.h"

/* cpus_online - /sys/devices/system/cpu/online; 0 or -errno */
int cpus_online(struct js_cpuset *online);

/*
 * cpus_default - the CPUs measured when --cpu is not given: the isolated CPUs
 * (/sys/devices/system/cpu/isolated) that are online and allowed; else the last online
 * allowed CPU, unless that is CPU 0 (housekeeping needs one). Fills cpus[] (room for every
 * CPU) and *n; -EINVAL after one line when there is no CPU to measure.
 */
int cpus_default(const struct js_cpuset *online, const struct js_cpuset *allowed, int *cpus,
		 size_t *n);

#endif /* JS_CPUS_H */
