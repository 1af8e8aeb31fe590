// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* spike.c - the flight recorder's bounded parts: event ring, rate limiter, size cap. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "js_spike.h"
#include "js_util.h"

static const char *const skip_names[JS_SPIKE_SKIP_MAX] = {
	[JS_SPIKE_SKIP_RATE] = "rate",
	[JS_SPIKE_SKIP_SIZE] = "size",
	[JS_SPIKE_SKIP_BACKLOG] = "backlog",
	[JS_SPIKE_SKIP_ERROR] = "error",
};

const char *js_spike_skip_name(unsigned reason)
{
	return reason < JS_SPIKE_SKIP_MAX ? skip_names[reason] : "?";
}

uint64_t js_spike_skipped(const struct js_spike_stats *s)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < JS_SPIKE_SKIP_MAX; i++)
		n += s->skipped[i];
	return n;
}

int spike_ring_init(struct spike_ring *r, size_t cap)
{
	memset(r, 0, sizeof(*r));
	r->v = malloc((cap ? cap : 1) * sizeof(*r->v));
	if (!r->v)
		return -ENOMEM;
	memset(r->v, 0, (cap ? cap : 1) * sizeof(*r->v)); /* resident now, not mid-run */
	r->cap = cap;
	return 0;
}

void spike_ring_free(struct spike_ring *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

void spike_ring_push(struct spike_ring *r, const struct js_event *ev)
{
	if (!r->cap)
		return;
	if (r->n == r->cap)
		r->lost_end_ns = JS_MAX(r->lost_end_ns, (uint64_t)r->v[r->head].end_ns);
	else
		r->n++;
	r->v[r->head] = *ev;
	r->head = (r->head + 1) % r->cap;
}

static int by_start(const void *pa, const void *pb)
{
	const struct js_event *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->end_ns < b->end_ns ? -1 : a->end_ns > b->end_ns;
}

size_t spike_ring_window(const struct spike_ring *r, uint64_t lo, uint64_t hi, struct js_event *out)
{
	size_t k = 0, first;

	if (!r->cap)
		return 0;
	first = (r->head + r->cap - r->n) % r->cap;
	for (size_t i = 0; i < r->n; i++) {
		const struct js_event *e = &r->v[(first + i) % r->cap];

		if (e->start_ns <= hi && e->end_ns >= lo)
			out[k++] = *e;
	}
	qsort(out, k, sizeof(*out), by_start);
	return k;
}

bool spike_ring_complete(const struct spike_ring *r, uint64_t lo)
{
	return !r->lost_end_ns || r->lost_end_ns < lo;
}

int spike_rate_init(struct spike_rate *r, unsigned max)
{
	memset(r, 0, sizeof(*r));
	r->max = max ? max : 1;
	r->t = calloc(r->max, sizeof(*r->t));
	return r->t ? 0 : -ENOMEM;
}

void spike_rate_free(struct spike_rate *r)
{
	free(r->t);
	memset(r, 0, sizeof(*r));
}

bool spike_rate_admit(struct spike_rate *r, uint64_t t_ns)
{
	/* full: the oldest of the last max admissions (at head) must have left the window */
	if (r->n == r->max && r->t[r->head] + JS_SPIKE_RATE_NS > t_ns)
		return false;
	r->t[r->head] = t_ns;
	r->head = (r->head + 1) % r->max;
	if (r->n < r->max)
		r->n++;
	return true;
}

bool spike_cap_take(struct spike_cap *c, uint64_t bytes)
{
	if (bytes > c->max || c->used > c->max - bytes)
		return false;
	c->used += bytes;
	return true;
}
