// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cpus.c - the online CPUs and the default measured CPUs (see js_cpus.h). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "js_cpus.h"
#include "js_sysfs.h"
#include "js_util.h"

/* The isolation sources, in the order the notice names them (enum cpus_source bits). */
static const char *const source_names[] = { "isolcpus", "cpuset partition", "nohz_full" };

int cpus_online(struct js_cpuset *online)
{
	return sysfs_read_cpulist("/sys/devices/system/cpu/online", online);
}

static void from_cpu_set(const cpu_set_t *aff, struct js_cpuset *s)
{
	cpuset_zero(s);
	for (int c = 0; c < JS_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, aff))
			cpuset_set(s, c);
}

int cpus_affinity(struct js_cpuset *s)
{
	cpu_set_t aff;

	if (sched_getaffinity(0, sizeof(aff), &aff))
		return -errno;
	from_cpu_set(&aff, s);
	return 0;
}

int cpus_permitted(struct js_cpuset *s)
{
	cpu_set_t mine, all;
	int ret;

	/* ask for every CPU: the kernel grants the cpuset's (sched_setaffinity masks the
	 * request with cpuset_cpus_allowed()); then the affinity we had, at once */
	if (sched_getaffinity(0, sizeof(mine), &mine))
		return -errno;
	memset(&all, 0xff, sizeof(all));
	if (sched_setaffinity(0, sizeof(all), &all)) {
		ret = -errno;
		from_cpu_set(&mine, s);
		return ret;
	}
	ret = cpus_affinity(s);
	if (sched_setaffinity(0, sizeof(mine), &mine) && !ret)
		ret = -errno;
	if (ret)
		from_cpu_set(&mine, s);
	return ret;
}

/* cpus_partition - the CPUs of the isolated cpuset partitions: cpuset.cpus.isolated at the
 * cgroup v2 root (wherever it is mounted), its path into path */
int cpus_partition(struct js_cpuset *s, char *path, size_t len)
{
	char mnt[SYSFS_PATH_MAX];
	int ret = sysfs_cgroup2_mount(mnt, sizeof(mnt));

	cpuset_zero(s);
	if (ret)
		return ret;
	if ((size_t)snprintf(path, len, "%s/cpuset.cpus.isolated", mnt) >= len)
		return -ENAMETOOLONG;
	return sysfs_read_cpulist(path, s);
}

/* cpus_isolated - the isolated CPUs of each source among within; their union in *iso */
unsigned int cpus_isolated(const struct js_cpuset *within, struct js_cpuset *iso)
{
	struct js_cpuset s[CPUS_NSOURCES];
	char path[SYSFS_PATH_MAX];
	unsigned int sources = 0;

	if (sysfs_read_cpulist("/sys/devices/system/cpu/isolated", &s[0]))
		cpuset_zero(&s[0]);
	cpus_partition(&s[1], path, sizeof(path)); /* unreadable: empty */
	if (sysfs_read_cpulist("/sys/devices/system/cpu/nohz_full", &s[2]))
		cpuset_zero(&s[2]);
	cpuset_zero(iso);
	for (int i = 0; i < CPUS_NSOURCES; i++) {
		cpuset_and(&s[i], within);
		if (!cpuset_empty(&s[i]))
			sources |= 1u << i;
		cpuset_or(iso, &s[i]);
	}
	return sources;
}

/* cpus_sources_str - "isolcpus, nohz_full" */
const char *cpus_sources_str(unsigned int sources, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < CPUS_NSOURCES && pos < len; i++)
		if (sources & (1u << i))
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "",
						source_names[i]);
	return buf;
}

int cpus_default(const struct js_cpuset *online, const struct js_cpuset *allowed,
		 bool isolated_only, int *cpus, size_t *n)
{
	struct js_cpuset within = *online, iso;
	unsigned int sources;
	int last = -1;

	*n = 0;
	cpuset_and(&within, allowed);
	sources = cpus_isolated(&within, &iso);
	for (int c = cpuset_next(&iso, 0); c >= 0; c = cpuset_next(&iso, c + 1))
		cpus[(*n)++] = c;
	if (*n)
		return (int)sources;
	if (isolated_only) {
		js_err("--cpu isolated: no online allowed CPU is isolated (isolcpus=, an isolated "
		       "cpuset partition, nohz_full=)");
		return -EINVAL;
	}
	for (int c = cpuset_next(&within, 0); c >= 0; c = cpuset_next(&within, c + 1))
		last = c;
	if (last <= 0) {
		js_err("no CPU to measure: only CPU 0 is available; name one with --cpu");
		return -EINVAL;
	}
	cpus[(*n)++] = last;
	return 0;
}

void cpus_default_notice(const char *doing, const int *cpus, size_t n, int sources)
{
	struct js_cpuset set;
	char list[256], src[64];

	cpuset_zero(&set);
	for (size_t i = 0; i < n; i++)
		cpuset_set(&set, cpus[i]);
	cpulist_format(&set, list, sizeof(list));
	if (sources > 0)
		js_notice("%s CPU%s %s: isolated (%s)", doing, n > 1 ? "s" : "", list,
			  cpus_sources_str((unsigned int)sources, src, sizeof(src)));
	else
		js_notice("%s CPU %s: none is isolated (isolcpus=, cpuset partition, nohz_full=), "
			  "the last online allowed CPU",
			  doing, list);
}
