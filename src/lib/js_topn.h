/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_topn.h - the worst N of a stream: a min-heap of fixed-size elements under a "less"
 * order, so the smallest kept is at the root and is the one a larger newcomer replaces.
 * Used for a CPU's worst gaps (result.c), the HTML page's (out_html.c) and the trace's
 * kept gaps under its event budget (out_trace.c, which evicts by hand: topn_push,
 * topn_min, topn_pop_min).
 */
#ifndef JS_TOPN_H
#define JS_TOPN_H

#include <stdbool.h>
#include <stddef.h>

/* a strictly before b (a is "smaller": evicted first) */
typedef bool (*topn_less_fn)(const void *a, const void *b);

struct js_topn {
	void *v; /* n elements of size bytes: a min-heap under less */
	size_t n, cap, size;
	topn_less_fn less;
	void *tmp; /* one element: swap space */
};

/* topn_init - an empty heap with room for cap elements (0: none yet); 0 or -ENOMEM */
int topn_init(struct js_topn *t, size_t cap, size_t size, topn_less_fn less);
/* topn_free - release it (accepts a zeroed or freed heap) */
void topn_free(struct js_topn *t);
/* topn_at - element i (heap order, not sorted) */
static inline void *topn_at(const struct js_topn *t, size_t i)
{
	return (char *)t->v + i * t->size;
}
/* topn_min - the smallest element kept, NULL when empty */
static inline void *topn_min(const struct js_topn *t)
{
	return t->n ? t->v : NULL;
}
/* topn_offer - the bounded use: keep a copy of e while there is room, else in place of
 * the smallest when e is larger (not when equal); true when e was kept */
bool topn_offer(struct js_topn *t, const void *e);
/* topn_push - the unbounded use: add a copy of e, growing the room as needed; 0 or -ENOMEM */
int topn_push(struct js_topn *t, const void *e);
/* topn_pop_min - remove the smallest element (the caller read it first: topn_min) */
void topn_pop_min(struct js_topn *t);

#endif /* JS_TOPN_H */
