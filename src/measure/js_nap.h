/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_nap.h - how long the housekeeping thread sleeps between drains: JS_NAP_BASE_NS,
 * doubled up to JS_NAP_QUIET_NS while every ring it drains stays under 1/JS_NAP_QUIET_FILL
 * full (the samplers', the probes', a source's: --pid's records), back to the base as soon
 * as one is fuller, and the base whenever a source that asks for it is read (--marks) or a
 * --test-hook acts once a drain. Why: docs/DESIGN.md, "nap: the housekeeping thread's
 * rhythm".
 */
#ifndef JS_NAP_H
#define JS_NAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_NAP_BASE_NS 10000000ull  /* 10 ms: the rings are sized for it */
#define JS_NAP_QUIET_NS 40000000ull /* a quiet run's longest sleep */
#define JS_NAP_QUIET_FILL 32

/* what the last drain found: the most gaps one sampler ring held (of ring_entries), the
 * bytes the probes' ring held (of ev_ring_bytes), the sources' fullest ring (src_bytes of
 * src_ring_bytes), whether a source wants the base */
struct js_nap_fill {
	size_t gaps, ring_entries;
	size_t ev_bytes, ev_ring_bytes;
	size_t src_bytes, src_ring_bytes;
	bool src_base; /* a source read every JS_NAP_BASE_NS (gap_source.base_nap) */
	bool hook;     /* a --test-hook acts once a drain (sampler_hook_tick) */
};

/* js_nap_next - the sleep after a drain that followed a sleep of nap ns */
uint64_t js_nap_next(uint64_t nap, const struct js_nap_fill *f);

/* A sleep that ended this much later than asked: the thread got no CPU meanwhile (its CPUs
 * busy while it runs at idle priority, or the machine paused), and its rings may overflow */
#define JS_NAP_LATE_NS 500000000ull

/* js_nap_late - how much later than nap a sleep that lasted asleep ns ended, when that is
 * at least JS_NAP_LATE_NS; else 0 */
uint64_t js_nap_late(uint64_t nap, uint64_t asleep);

#endif /* JS_NAP_H */
