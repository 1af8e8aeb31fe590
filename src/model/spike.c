// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* spike.c - the flight recorder's bounded parts: event ring, rate limiter, which spikes are
 * kept (by source), size cap. */
#include <errno.h>
#include <stdio.h>
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

void spike_cap_give(struct spike_cap *c, uint64_t bytes)
{
	c->used -= JS_MIN(c->used, bytes);
}

void spike_source(const struct js_attr *a, struct spike_src *src)
{
	size_t n;
	char *cg;

	memset(src, 0, sizeof(*src));
	src->cause = a->primary;
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++)
		if (a->parts[i].cause == a->primary && !strcmp(a->parts[i].detail, a->detail)) {
			src->cgroup = a->parts[i].cgroup;
			break;
		}
	js_source_key(a->primary, a->detail, src->name, sizeof(src->name));
	/* the cgroup's " [name]" (cut to fit after the pid: its length varies) is the id's */
	n = strlen(src->name);
	cg = strrchr(src->name, '[');
	if (src->cgroup && n && src->name[n - 1] == ']' && cg && cg > src->name && cg[-1] == ' ')
		cg[-1] = '\0';
}

bool spike_same_source(const struct spike_src *a, const struct spike_src *b)
{
	return a->cause == b->cause && a->cgroup == b->cgroup && !strcmp(a->name, b->name);
}

int spike_keep_init(struct spike_keep *k, unsigned max, unsigned per_source)
{
	memset(k, 0, sizeof(*k));
	k->max = max ? max : 1;
	k->per_source = per_source && per_source < k->max ? per_source : k->max;
	k->v = calloc(k->max, sizeof(*k->v));
	return k->v ? 0 : -ENOMEM;
}

void spike_keep_free(struct spike_keep *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* count_source - the window's records of src */
static unsigned count_source(const struct spike_keep *k, const struct spike_src *src)
{
	unsigned n = 0;

	for (unsigned i = 0; i < k->n; i++)
		n += spike_same_source(&k->v[i].src, src);
	return n;
}

enum pick {
	PICK_REPEAT, /* of a source recorded twice or more */
	PICK_SOURCE, /* of src */
	PICK_ANY,
};

/* shortest - the index of the shortest record, not handed, that mode accepts; -1 if none */
static int shortest(const struct spike_keep *k, enum pick mode, const struct spike_src *src)
{
	int best = -1;

	for (unsigned i = 0; i < k->n; i++) {
		const struct spike_keep_rec *r = &k->v[i];
		bool ok = mode == PICK_REPEAT ? count_source(k, &r->src) > 1 :
			  mode == PICK_SOURCE ? spike_same_source(&r->src, src) :
						true;

		if (ok && !r->handed && (best < 0 || r->dur_ns < k->v[best].dur_ns))
			best = (int)i;
	}
	return best;
}

/* longer - is dur_ns longer than every record (of src only, when src) */
static bool longer(const struct spike_keep *k, uint64_t dur_ns, const struct spike_src *src)
{
	for (unsigned i = 0; i < k->n; i++)
		if ((!src || spike_same_source(&k->v[i].src, src)) && dur_ns <= k->v[i].dur_ns)
			return false;
	return true;
}

static void drop(struct spike_keep *k, unsigned i)
{
	memmove(&k->v[i], &k->v[i + 1], (k->n - i - 1) * sizeof(*k->v));
	k->n--;
}

/* victim_full - the record a spike of src (dur_ns) replaces in a full window, -1: none */
static int victim_full(const struct spike_keep *k, uint64_t dur_ns, const struct spike_src *src)
{
	int i = -1;

	if (!count_source(k, src))
		i = shortest(k, PICK_REPEAT, src); /* a new source before repeats */
	if (i < 0 && longer(k, dur_ns, NULL)) {
		i = shortest(k, PICK_REPEAT, src);
		if (i < 0)
			i = shortest(k, PICK_SOURCE, src);
		if (i < 0)
			i = shortest(k, PICK_ANY, src);
	}
	return i;
}

enum spike_keep_verdict spike_keep_offer(struct spike_keep *k, uint64_t id, uint64_t t_ns,
					 uint64_t dur_ns, const struct spike_src *src,
					 struct spike_keep_rec *victim)
{
	enum spike_keep_verdict v = SPIKE_KEEP_ADD;
	struct spike_keep_rec *r;
	int i = -1;

	for (unsigned j = 0; j < k->n;) /* the window: the last JS_SPIKE_RATE_NS */
		if (k->v[j].t_ns + JS_SPIKE_RATE_NS <= t_ns)
			drop(k, j);
		else
			j++;
	if (count_source(k, src) >= k->per_source) { /* its source's share is full */
		if (longer(k, dur_ns, src))
			i = shortest(k, PICK_SOURCE, src);
		if (i < 0)
			return SPIKE_KEEP_SKIP;
	} else if (k->n == k->max) {
		i = victim_full(k, dur_ns, src);
		if (i < 0)
			return SPIKE_KEEP_SKIP;
	}
	if (i >= 0) {
		if (victim)
			*victim = k->v[i];
		drop(k, (unsigned)i);
		v = SPIKE_KEEP_REPLACE;
	}
	r = &k->v[k->n++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->t_ns = t_ns;
	r->dur_ns = dur_ns;
	r->src = *src;
	return v;
}

void spike_keep_hand(struct spike_keep *k, uint64_t id)
{
	struct spike_keep_rec *r = spike_keep_find(k, id);

	if (r)
		r->handed = true;
}

struct spike_keep_rec *spike_keep_find(struct spike_keep *k, uint64_t id)
{
	for (unsigned i = 0; i < k->n; i++)
		if (k->v[i].id == id)
			return &k->v[i];
	return NULL;
}

void spike_keep_forget(struct spike_keep *k, uint64_t id)
{
	for (unsigned i = 0; i < k->n; i++)
		if (k->v[i].id == id) {
			drop(k, i);
			return;
		}
}
