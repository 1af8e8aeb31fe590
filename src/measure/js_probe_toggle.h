/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_probe_toggle.h - --probe-toggle FILE (bench only): while measuring, the probes are
 * detached and attached again at random intervals, and each change is logged, so that one
 * run measures the whole observer (tracepoint dispatch included) against no observer under
 * the same host noise. Rationale and figures: docs/BENCHMARKS.md, docs/DESIGN.md.
 *
 * The log is CSV, a header then one row per change: `attached,start_ns,end_ns`: the state
 * after the change (1 attached, 0 detached) and CLOCK_MONOTONIC around it.
 */
#ifndef JS_PROBE_TOGGLE_H
#define JS_PROBE_TOGGLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PROBE_TOGGLE_MIN_NS 300000000ull  /* a state lasts at least this ... */
#define PROBE_TOGGLE_SPAN_NS 400000000ull /* ... plus up to this, at random */

struct probe_toggle {
	FILE *f;
	uint64_t rnd;  /* xorshift64 state, never 0 */
	uint64_t next; /* CLOCK_MONOTONIC of the next change; 0 until the first tick */
	bool off;      /* the probes are detached now */
	bool done;     /* a change or a write failed: no more changes */
	int err;       /* the first write error (-errno), for probe_toggle_close */
};

/* probe_toggle_delay - the next state's length, in [MIN, MIN + SPAN), from *rnd */
uint64_t probe_toggle_delay(uint64_t *rnd);
/* probe_toggle_open - create the log at path (header written); 0 or -errno */
int probe_toggle_open(struct probe_toggle *t, const char *path, uint64_t seed);
/* probe_toggle_set - attach (on) or detach the probes; 0 or -errno (probes_set_attached) */
typedef int (*probe_toggle_set)(void *ctx, bool on);
/* probe_toggle_tick - change the probes' state through set(ctx, ...) when its time has come
 * (now), log it; true when a change was made. A failed change or write is said once and
 * ends the toggling, with the probes attached again if they can be */
bool probe_toggle_tick(struct probe_toggle *t, probe_toggle_set set, void *ctx, uint64_t now);
/* probe_toggle_close - close the log (accepts a closed one); 0 or the first write error */
int probe_toggle_close(struct probe_toggle *t);

#endif /* JS_PROBE_TOGGLE_H */
