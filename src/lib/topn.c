// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* topn.c - the worst-N min-heap (see js_topn.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "js_topn.h"

#define TOPN_GROW_FIRST 256 /* topn_push's first room when it starts with none */

int topn_init(struct js_topn *t, size_t cap, size_t size, topn_less_fn less)
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	t->less = less;
	t->tmp = malloc(size);
	t->v = cap ? calloc(cap, size) : NULL;
	if (!t->tmp || (cap && !t->v)) {
		topn_free(t);
		return -ENOMEM;
	}
	t->cap = cap;
	return 0;
}

void topn_free(struct js_topn *t)
{
	free(t->v);
	free(t->tmp);
	t->v = t->tmp = NULL;
	t->n = t->cap = 0;
}

static void swap(struct js_topn *t, size_t a, size_t b)
{
	memcpy(t->tmp, topn_at(t, a), t->size);
	memcpy(topn_at(t, a), topn_at(t, b), t->size);
	memcpy(topn_at(t, b), t->tmp, t->size);
}

static void sift_down(struct js_topn *t, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < t->n && t->less(topn_at(t, l), topn_at(t, m)))
			m = l;
		if (r < t->n && t->less(topn_at(t, r), topn_at(t, m)))
			m = r;
		if (m == i)
			return;
		swap(t, i, m);
		i = m;
	}
}

static void sift_up(struct js_topn *t, size_t i)
{
	while (i && t->less(topn_at(t, i), topn_at(t, (i - 1) / 2))) {
		swap(t, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

bool topn_offer(struct js_topn *t, const void *e)
{
	if (t->n < t->cap) {
		memcpy(topn_at(t, t->n), e, t->size);
		sift_up(t, t->n++);
		return true;
	}
	if (!t->n || !t->less(t->v, e))
		return false;
	memcpy(t->v, e, t->size);
	sift_down(t, 0);
	return true;
}

int topn_push(struct js_topn *t, const void *e)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : TOPN_GROW_FIRST;
		void *v = realloc(t->v, cap * t->size);

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	memcpy(topn_at(t, t->n), e, t->size);
	sift_up(t, t->n++);
	return 0;
}

void topn_pop_min(struct js_topn *t)
{
	if (!t->n)
		return;
	if (--t->n)
		memcpy(t->v, topn_at(t, t->n), t->size);
	sift_down(t, 0);
}
