/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_gapring.h - the single-producer/single-consumer ring of raw gaps between a measuring
 * loop (sampler.c's, the test hook's in sampler_hook.c) and the drain on a housekeeping CPU.
 * The producer's push is inline: the loops store without a call into another unit.
 */
#ifndef JS_GAPRING_H
#define JS_GAPRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gap_raw {
	uint64_t start_tsc; /* last TSC read before the gap */
	uint64_t end_tsc;   /* first TSC read after it */
};

/* SPSC ring: the sampler writes head, the drainer writes tail; each on its own line. */
struct gap_ring {
	_Alignas(64) volatile uint64_t head;
	_Alignas(64) volatile uint64_t tail;
	_Alignas(64) uint64_t mask;
	struct gap_raw *slots;
};

/* ring_push - producer side (the measuring loops, tests): false when full */
static inline bool ring_push(struct gap_ring *r, uint64_t start, uint64_t end)
{
	uint64_t h = r->head;

	if (h - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) > r->mask)
		return false;
	r->slots[h & r->mask].start_tsc = start;
	r->slots[h & r->mask].end_tsc = end;
	__atomic_store_n(&r->head, h + 1, __ATOMIC_RELEASE);
	return true;
}

/* ring_pop - consumer side: copy up to @max gaps out; returns the count */
size_t ring_pop(struct gap_ring *r, struct gap_raw *out, size_t max);

#endif /* JS_GAPRING_H */
