/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_evring.h - user space's side of a measured CPU's ring of probe records (struct
 * js_rec, bpf/probes.bpf.h): read in order from the tail, up to the first record not yet
 * written; the tail is published for the CPU's programs, which never write past it.
 */
#ifndef JS_EVRING_H
#define JS_EVRING_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "../bpf/probes.bpf.h"

struct js_evring {
	const struct js_rec *rec; /* mask + 1 records (the mapped ring) */
	uint64_t mask;
	uint64_t tail;	 /* index of the next record to read */
	__u64 *tail_out; /* where the programs read the tail (ring_tail[cpu], .data.tail) */
};

/*
 * js_evring_read - hand the written records from the tail on to cb, at most max; a record
 * without a name comes with its name cleared. Returns the number read, or cb's negative
 * return (the record it refused counts as read); the tail is published either way.
 */
int js_evring_read(struct js_evring *r, size_t max, int (*cb)(void *ctx, const struct js_event *e),
		   void *ctx);

#endif /* JS_EVRING_H */
