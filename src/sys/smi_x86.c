// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* smi_x86.c - SMI counter via the perf msr PMU or /dev/cpu/N/msr (see js_smi.h). Both are
 * found through sysfs.c, so a test sysroot can stand in for the live files. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "js_smi.h"
#include "js_sysfs.h"

#define MSR_PMU_DIR "/sys/bus/event_source/devices/msr"
#define MSR_SMI_COUNT 0x34

static int open_perf(int cpu, struct js_smi *s, char *why, size_t len)
{
	struct perf_event_attr attr;
	char buf[64];
	uint64_t config;
	int err, type, fd;

	err = sysfs_read_int(MSR_PMU_DIR "/type", &type);
	if (err) {
		snprintf(why, len, "no msr PMU (%s)", strerror(-err));
		goto out;
	}
	err = sysfs_read_str(MSR_PMU_DIR "/events/smi", buf, sizeof(buf));
	if (!err)
		err = smi_parse_event(buf, &config);
	if (err) {
		snprintf(why, len, "msr PMU has no smi event");
		goto out;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	attr.config = config;
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "perf_event_open(msr/smi/, cpu %d): %s", cpu, strerror(errno));
		goto out;
	}
	s->fd = fd;
	s->src = JS_SMI_PERF;
out:
	return err;
}

static int open_msr(int cpu, struct js_smi *s, char *why, size_t len)
{
	char path[64];
	uint64_t v;
	int fd, err = 0;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = sysfs_open(path, O_RDONLY);
	if (fd < 0) {
		err = fd;
		snprintf(why, len, "%s: %s", path, strerror(-fd));
		goto out;
	}
	if (pread(fd, &v, sizeof(v), MSR_SMI_COUNT) != sizeof(v)) {
		err = -EIO;
		snprintf(why, len, "%s: MSR 0x34 unreadable", path);
		close(fd);
		goto out;
	}
	s->fd = fd;
	s->src = JS_SMI_MSR;
out:
	return err;
}

/* smi_open - open the SMI counter of cpu; 0, or negative errno with a human reason in why */
int smi_open(int cpu, struct js_smi *s, char *why, size_t len)
{
	char why_perf[160] = "", why_msr[160] = "";
	int err;

	s->fd = -1;
	s->cpu = cpu;
	s->src = JS_SMI_NONE;
	err = open_perf(cpu, s, why_perf, sizeof(why_perf));
	if (!err)
		goto out;
	err = open_msr(cpu, s, why_msr, sizeof(why_msr));
	if (!err)
		goto out;
	if (why && len)
		snprintf(why, len, "SMIs cannot be counted on CPU %d: %s; %s", cpu, why_perf,
			 why_msr);
out:
	return err;
}

/* smi_read - current SMI count (IPIs the counted CPU: read at start and end only) */
int smi_read(struct js_smi *s, uint64_t *count)
{
	uint64_t v;
	ssize_t n;

	if (!s || s->fd < 0)
		return -EBADF;
	if (s->src == JS_SMI_MSR)
		n = pread(s->fd, &v, sizeof(v), MSR_SMI_COUNT);
	else
		n = read(s->fd, &v, sizeof(v));
	if (n != sizeof(v))
		return n < 0 ? -errno : -EIO;
	/* MSR_SMI_COUNT is 32 bits wide */
	*count = s->src == JS_SMI_MSR ? (v & 0xffffffffull) : v;
	return 0;
}
