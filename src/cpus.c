// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cpus.c - the online CPUs and the default measured CPUs (see js_cpus.h). */
#include <errno.h>

#include "js_cpus.h"
#include "js_sysfs.h"
#include "js_util.h"

int cpus_online(struct js_cpuset *online)
{
	return sysfs_read_cpulist("/sys/devices/system/cpu/online", online);
}

int cpus_default(const struct js_cpuset *online, const struct js_cpuset *allowed, int *cpus,
		 size_t *n)
{
	struct js_cpuset iso;
	int last = -1;

	*n = 0;
	if (sysfs_read_cpulist("/sys/devices/system/cpu/isolated", &iso) == 0) {
		cpuset_and(&iso, online);
		cpuset_and(&iso, allowed);
		for (int c = cpuset_next(&iso, 0); c >= 0; c = cpuset_next(&iso, c + 1))
			cpus[(*n)++] = c;
	}
	if (*n)
		return 0;
	for (int c = cpuset_next(online, 0); c >= 0; c = cpuset_next(online, c + 1))
		if (cpuset_isset(allowed, c))
			last = c;
	if (last <= 0) {
		js_err("no CPU to measure: only CPU 0 is available; name one with --cpu");
		return -EINVAL;
	}
	cpus[(*n)++] = last;
	return 0;
}
