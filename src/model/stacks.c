// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* stacks.c - --stacks: a run's kernel stacks, symbolised (see js_stacks.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_ksyms.h"
#include "js_model.h"
#include "js_stacks.h"
#include "js_topn.h"

int js_stack_frame(char *buf, size_t len, const struct js_ksyms *ks, uint64_t ip)
{
	uint64_t off = 0;
	const char *name = ks ? ksyms_lookup(ks, ip, &off) : NULL;

	if (!name)
		return snprintf(buf, len, "0x%" PRIx64, ip);
	return snprintf(buf, len, "%s+0x%" PRIx64, name, off);
}

/* machinery - a frame of the tracepoint's and the probe's own, above the task's stack */
static bool machinery(const char *frame)
{
	static const char *const pre[] = { "bpf_", "__bpf_", "__traceiter_", "perf_trace_",
					   "trace_call_bpf" };

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(frame, pre[i], strlen(pre[i])))
			return true;
	return false;
}

void js_stack_symbolise(struct js_stack *st, const struct js_ksyms *ks, const uint64_t *ips,
			size_t n)
{
	bool top = true;

	st->n = 0;
	for (size_t i = 0; i < n && st->n < JS_STACK_FRAMES; i++) {
		char *f = st->frame[st->n];

		js_stack_frame(f, JS_FRAME_LEN, ks, ips[i]);
		if (top && machinery(f))
			continue;
		top = false;
		st->n++;
	}
}

uint32_t js_stacks_find(const struct js_stacks *t, uint32_t key)
{
	if (!t || !key)
		return 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].key == key)
			return (uint32_t)i + 1;
	return 0;
}

uint32_t js_stacks_add(struct js_stacks *t, const struct js_stack *st)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct js_stack *v;

		if (cap > JS_STACKS_KEPT)
			cap = JS_STACKS_KEPT;
		v = t->n < cap ? realloc(t->v, cap * sizeof(*v)) : NULL;
		if (!v) {
			t->dropped++;
			return 0;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n] = *st;
	return (uint32_t)++t->n;
}

uint32_t js_stacks_intern(struct js_stacks *t, const struct js_stack *st)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct js_stack *x = &t->v[i];
		uint32_t k = 0;

		if (x->n != st->n)
			continue;
		while (k < st->n && !strcmp(x->frame[k], st->frame[k]))
			k++;
		if (k == st->n)
			return (uint32_t)i + 1;
	}
	return js_stacks_add(t, st);
}

const struct js_stack *js_stacks_get(const struct js_stacks *t, uint32_t ref)
{
	return t && ref && ref <= t->n ? &t->v[ref - 1] : NULL;
}

void js_stacks_free(struct js_stacks *t)
{
	if (!t)
		return;
	free(t->v);
	memset(t, 0, sizeof(*t));
}

bool js_stacks_wanted(const struct js_topn *top, const struct js_gap_rec *g, uint64_t spike_ns)
{
	if (spike_ns && g->gap.dur_ns >= spike_ns)
		return true;
	if (!top)
		return false;
	if (top->n < top->cap)
		return true;
	return top->n && top->less(top->v, g);
}
