/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_dma_latency.h - --dma-latency US: a CPU latency PM QoS request held while measuring,
 * as rtla's --dma-latency does: /dev/cpu_dma_latency opened, the value written as a binary
 * s32, the file kept open (the kernel drops the request when it is closed, at exit too).
 *
 *   int fd = dma_latency_hold(0);    // deep C-states off on every CPU while fd is open
 *   ...
 *   dma_latency_release(fd);
 */
#ifndef JS_DMA_LATENCY_H
#define JS_DMA_LATENCY_H

#define JS_DMA_LATENCY_DEV "/dev/cpu_dma_latency"

/* dma_latency_hold - open path (NULL: /dev/cpu_dma_latency) and write us; the fd, or
 * -errno (-ENOENT: no such device, -EACCES: not root, -EINVAL: us < 0) */
int dma_latency_hold_at(const char *path, int us);
static inline int dma_latency_hold(int us)
{
	return dma_latency_hold_at(NULL, us);
}
/* dma_latency_release - close fd (the request ends); harmless for fd < 0 */
void dma_latency_release(int fd);

#endif /* JS_DMA_LATENCY_H */
