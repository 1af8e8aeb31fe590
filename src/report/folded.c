// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * folded.c - the run's lost time as folded stacks (js_folded.h): from each result's cause
 * table and, with --stacks, its worst gaps' kernel stacks. Both are in a saved run, so
 * `report RUN.json --folded` writes the file the run wrote.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "js_causes.h"
#include "js_folded.h"
#include "js_output.h"
#include "js_result.h"
#include "js_stacks.h"
#include "js_util.h"
#include "js_waker.h"

/* a line's stack at most: the result, class and source, a waker's frame, the frames */
#define FOLDED_LINE (3 * JS_DETAIL_LEN + 96 + JS_STACK_FRAMES * (JS_FRAME_LEN + 1))

struct line {
	char *stack;
	uint64_t ns;
};

struct lines {
	struct line *v;
	size_t n, cap;
	int err; /* -ENOMEM: a line could not be kept */
};

int folded_frame(char *buf, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; len && i < n && i + 1 < len; i++) {
		unsigned char ch = (unsigned char)name[i];

		buf[i] = ch == ';' ? ':' : ch <= ' ' || ch == 0x7f ? '_' : (char)ch;
	}
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return (int)n;
}

/* push - ";NAME" (first: "NAME") at the end of stack[FOLDED_LINE], as one frame */
static void push(char *stack, const char *name, bool first)
{
	size_t o = strlen(stack);

	if (!first && o + 1 < FOLDED_LINE)
		stack[o++] = ';';
	if (o < FOLDED_LINE)
		folded_frame(stack + o, FOLDED_LINE - o, name);
}

/* push_kframe - a kernel frame without its offset: "pipe_write+0x3a1" is "pipe_write" (the
 * flame graph merges a function's calls); an address alone ("0x...") stays */
static void push_kframe(char *stack, const char *frame)
{
	char f[JS_FRAME_LEN], *plus;

	js_scpy(f, sizeof(f), frame);
	plus = strrchr(f, '+');
	if (plus && plus != f && !strncmp(plus, "+0x", 3))
		*plus = '\0';
	push(stack, f, false);
}

static void add(struct lines *l, const char *stack, uint64_t ns)
{
	if (!ns || l->err)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct line *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->err = -ENOMEM;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].stack = strdup(stack);
	if (!l->v[l->n].stack) {
		l->err = -ENOMEM;
		return;
	}
	l->v[l->n++].ns = ns;
}

/* head - the stack of result r's source s: "cpu1;task;jsinject:812"; a followed thread is
 * "comm/tid" (its name is "comm:tid"), another result its key ("cpu1", "mark1") */
static void head(char *stack, const struct js_cpu_result *r, const struct js_cause_src *s)
{
	char who[JS_LABEL_LEN + 16];
	const char *colon = strrchr(r->name, ':');

	stack[0] = '\0';
	if (r->source == JS_SRC_THREAD && r->tid && colon)
		snprintf(who, sizeof(who), "%.*s/%u", (int)(colon - r->name), r->name, r->tid);
	else if (r->source == JS_SRC_THREAD)
		js_scpy(who, sizeof(who), r->name);
	else
		result_key(r, who, sizeof(who));
	push(stack, who, true);
	push(stack, js_cause_name(s->cause), false);
	push(stack, s->detail, false);
}

/* primary_part - the part of g its attribution calls primary, NULL if none */
static const struct js_part *primary_part(const struct js_gap_rec *g)
{
	for (uint32_t i = 0; i < g->attr.nparts && i < JS_PARTS_MAX; i++)
		if (g->attr.parts[i].cause == g->attr.primary &&
		    !strcmp(g->attr.parts[i].detail, g->attr.detail))
			return &g->attr.parts[i];
	return NULL;
}

/* stacked - gap g's primary part with its kernel stack (its task's, else its waker's under
 * "[woken by WHO]"), its time taken from what its source has left (left[], by the source's
 * index in r's table) */
static void stacked(struct lines *l, const struct js_run *run, const struct js_cpu_result *r,
		    const struct js_gap_rec *g, uint64_t *left)
{
	const struct js_part *p = primary_part(g);
	const struct js_stack *st = js_stacks_get(&run->stacks, g->attr.stack);
	bool woken = !st && g->attr.waker.ctx;
	const struct js_cause_src *s;
	char stack[FOLDED_LINE], who[64], frame[96];
	uint64_t ns;
	size_t i;

	if (woken)
		st = js_stacks_get(&run->stacks, g->attr.waker.stack);
	s = p && st ? causes_source(&r->causes, p->cause, p->detail) : NULL;
	if (!s)
		return;
	i = (size_t)(s - r->causes.src);
	ns = JS_MIN(p->net_ns + p->entry_ns, left[i]);
	head(stack, r, s);
	if (woken) {
		js_waker_who(who, sizeof(who), &g->attr.waker);
		snprintf(frame, sizeof(frame), "[woken by %s]", who);
		push(stack, frame, false);
	}
	for (uint32_t k = st->n; k-- > 0;)
		push_kframe(stack, st->frame[k]);
	add(l, stack, ns);
	left[i] -= ns;
}

/* result - r's lines: its worst gaps' stacked parts, then each source's time left */
static void result(struct lines *l, const struct js_run *run, const struct js_cpu_result *r)
{
	const struct js_causes *c = &r->causes;
	uint64_t *left = calloc(c->nsrc ? c->nsrc : 1, sizeof(*left));
	char stack[FOLDED_LINE];

	if (!left) {
		l->err = -ENOMEM;
		return;
	}
	for (uint32_t i = 0; i < c->nsrc; i++)
		left[i] = c->src[i].total_ns;
	for (size_t k = 0; run->stacks.n && k < r->top.n; k++)
		stacked(l, run, r, topn_at(&r->top, k), left);
	for (uint32_t i = 0; i < c->nsrc; i++) {
		head(stack, r, &c->src[i]);
		add(l, stack, left[i]);
	}
	free(left);
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->stack, ((const struct line *)b)->stack);
}

int folded_write(FILE *fp, const struct js_run *run)
{
	struct lines l = { 0 };

	for (size_t i = 0; i < run->ncpus; i++) {
		size_t from = l.n;

		result(&l, run, &run->cpus[i]);
		/* sorted within the result, the results in the run's order */
		if (l.n > from)
			qsort(l.v + from, l.n - from, sizeof(*l.v), line_cmp);
	}
	for (size_t i = 0; !l.err && i < l.n; i++) {
		uint64_t ns = l.v[i].ns;

		while (i + 1 < l.n && !strcmp(l.v[i].stack, l.v[i + 1].stack))
			ns += l.v[++i].ns;
		fprintf(fp, "%s %" PRIu64 "\n", l.v[i].stack, ns);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].stack);
	free(l.v);
	return l.err ? l.err : output_file_error(fp);
}
