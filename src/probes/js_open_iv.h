/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_open_iv.h - the intervals still open when the probes detach (JS_F_OPEN): on each
 * measured CPU, its interrupt stack, its --event pairs, its current task (idle too) and the
 * work item that task runs, read from the probes' per-CPU state (js_probe_state.h) and
 * queued for the consumer to deliver after the rings (probes.c).
 */
#ifndef JS_OPEN_IV_H
#define JS_OPEN_IV_H

#include <stdbool.h>
#include <stddef.h>

struct bpf_map;
struct js_event;

/* the queue: ev[pos..n) not yet delivered; it starts over once all are */
struct open_iv {
	struct js_event *ev;
	size_t n, pos, cap;
};

/* open_iv_queue - after detach: queue what was still running on cpus (ncpus of them), read
 * from the probes' cpu_state map; with fresh, also leave each measured CPU's state as
 * programs attached again must find it: no level open, no work item, no current task
 * (their ends were not seen), its ring kept. 0 or -errno */
int open_iv_queue(struct open_iv *q, struct bpf_map *cpu_state, const int *cpus, size_t ncpus,
		  bool fresh);
/* open_iv_free - free the queue and zero it; accepts a zeroed one */
void open_iv_free(struct open_iv *q);

#endif /* JS_OPEN_IV_H */
