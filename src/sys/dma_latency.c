// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* dma_latency.c - --dma-latency: hold a CPU latency PM QoS request (js_dma_latency.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "js_dma_latency.h"

/* dma_latency_hold_at - open the PM QoS file, write us as a binary s32; fd or -errno */
int dma_latency_hold_at(const char *path, int us)
{
	int32_t v = us;
	ssize_t n;
	int fd, err;

	if (us < 0)
		return -EINVAL;
	fd = open(path ? path : JS_DMA_LATENCY_DEV, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, &v, sizeof(v));
	if (n != (ssize_t)sizeof(v)) {
		err = n < 0 ? -errno : -EIO;
		close(fd);
		return err;
	}
	return fd;
}

/* dma_latency_release - close fd; the kernel removes the request */
void dma_latency_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
