/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_stacks.h - --stacks: a run's kernel stacks, symbolised (pure: the symbols come from the
 * run's js_ksyms). docs/ATTRIBUTION.md, "Stacks".
 *
 * The probes name a stack by its id in their map + 1 (js_events.h); the drain copies the
 * stacks of the gaps that get them (js_stacks_wanted: the worst list's candidates and the
 * spikes) into the run's table as soon as they are attributed, each id once, and the gap's
 * attribution then names its table entry (a ref: index + 1, 0: none). A saved run's stacks
 * come back from its JSON into the same table (key 0).
 *
 *   "pipe_write+0x3a1"   a frame: the nearest kernel symbol and the offset into it
 */
#ifndef JS_STACKS_H
#define JS_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct js_ksyms;
struct js_topn;
struct js_gap_rec;

#define JS_FRAME_LEN 64	    /* "symbol+0xoff" */
#define JS_STACK_FRAMES 32  /* frames kept per stack (the probes' JS_STACK_DEPTH) */
#define JS_STACKS_KEPT 2048 /* stacks a run's table holds at most (distinct, wanted) */

struct js_stack {
	uint32_t key; /* the probes' id + 1 it was copied from (0: loaded) */
	uint32_t n;   /* frames, innermost first */
	char frame[JS_STACK_FRAMES][JS_FRAME_LEN];
};

struct js_stacks {
	struct js_stack *v;
	size_t n, cap;
	uint64_t dropped; /* stacks not kept: the table full, or no memory */
};

/* js_stack_frame - "symbol+0xoff" of return address ip ("0x..." when ks names none); like
 * snprintf */
int js_stack_frame(char *buf, size_t len, const struct js_ksyms *ks, uint64_t ip);

/* js_stack_symbolise - the frames of ips[n] (innermost first) into st, the probes' own frames
 * at the top left out (bpf_*, __bpf_trace_*, __traceiter_*, perf_trace_*: the tracepoint's
 * machinery, not the task's stack); st->n frames kept */
void js_stack_symbolise(struct js_stack *st, const struct js_ksyms *ks, const uint64_t *ips,
			size_t n);

/* js_stacks_find - the ref (index + 1) of the stack copied from key, 0 if none */
uint32_t js_stacks_find(const struct js_stacks *t, uint32_t key);
/* js_stacks_add - a copy of st into t; its ref, 0 when not kept (t->dropped counts it) */
uint32_t js_stacks_add(struct js_stacks *t, const struct js_stack *st);
/* js_stacks_intern - the ref of a stack with st's frames already in t, else of a copy
 * (js_stacks_add): a saved run's gaps name the same stacks many times */
uint32_t js_stacks_intern(struct js_stacks *t, const struct js_stack *st);
/* js_stacks_get - the stack of ref, NULL when 0 or unknown */
const struct js_stack *js_stacks_get(const struct js_stacks *t, uint32_t ref);
/* js_stacks_free - release the table (accepts NULL and a zeroed one) */
void js_stacks_free(struct js_stacks *t);

/*
 * js_stacks_wanted - whether gap g gets its stacks: it enters the worst list top (not full,
 * or longer than its shortest: the rule of topn_offer) or it is a spike (spike_ns: the
 * flight recorder's threshold, 0: none). A gap that enters the list and later leaves it
 * keeps what was read for it; others are never read.
 */
bool js_stacks_wanted(const struct js_topn *top, const struct js_gap_rec *g, uint64_t spike_ns);

#endif /* JS_STACKS_H */
