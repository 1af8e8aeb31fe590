// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * gapring.c - the consumer side of the gap ring (js_gapring.h); the producer's push is
 * inline in the header.
 */
#include "js_gapring.h"

size_t ring_pop(struct gap_ring *r, struct gap_raw *out, size_t max)
{
	uint64_t t = r->tail;
	uint64_t h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	size_t n = 0;

	while (t != h && n < max)
		out[n++] = r->slots[t++ & r->mask];
	__atomic_store_n(&r->tail, t, __ATOMIC_RELEASE);
	return n;
}
