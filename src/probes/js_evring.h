/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_evring.h - user space's side of a CPU's ring of probe records (struct js_rec,
 * js_probe_state.h): read in order from the tail, up to the first record not yet written;
 * the tail is published for the CPU's programs, which never write past it.
 */
#ifndef JS_EVRING_H
#define JS_EVRING_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "js_probe_state.h"

/* reads that may find the record at the tail unfinished while the one after it is written,
 * before it is skipped: a program between its reserve and its send takes microseconds (a
 * host holding the vCPU, tens of milliseconds); one that never sends (a probe's bug) would
 * otherwise hold the ring, and every record after it would be lost */
#define JS_EVRING_STUCK_READS 100

struct js_evring {
	const struct js_rec *rec; /* mask + 1 records (the mapped ring) */
	uint64_t mask;
	uint64_t tail;	  /* index of the next record to read */
	__u64 *tail_out;  /* where the programs read the tail (ring_tail[cpu], .data.tail) */
	uint64_t held;	  /* consecutive reads that found the tail's record holding others */
	uint64_t skipped; /* records skipped so (never sent) */
};

/*
 * js_evring_read - hand the written records from the tail on to cb, at most max; a record
 * without a name comes with its name cleared. Returns the number read, or cb's negative
 * return (the record it refused counts as read); the tail is published either way. A record
 * found unfinished with the next one written by JS_EVRING_STUCK_READS reads in a row is
 * skipped and counted in skipped.
 */
int js_evring_read(struct js_evring *r, size_t max, int (*cb)(void *ctx, const struct js_event *e),
		   void *ctx);

#endif /* JS_EVRING_H */
