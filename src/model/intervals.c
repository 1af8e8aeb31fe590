// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* intervals.c - per-interval gap statistics with bounded memory (see js_intervals.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_intervals.h"
#include "js_util.h"

/* intervals_init - per-interval stats from start_ns, len_ns each, at most cap entries */
int intervals_init(struct js_intervals *iv, uint64_t start_ns, uint64_t len_ns, size_t cap)
{
	memset(iv, 0, sizeof(*iv));
	if (!cap)
		cap = INTERVALS_CAP_DEFAULT;
	if (!len_ns || cap < 2 || cap % 2)
		return -EINVAL;
	iv->start_ns = iv->cur_start_ns = iv->end_ns = start_ns;
	iv->base_len_ns = iv->len_ns = len_ns;
	iv->cap = cap;
	return hist_init(&iv->cur, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);
}

/* intervals_reserve - room for every entry now */
int intervals_reserve(struct js_intervals *iv)
{
	struct js_interval_stats *nv;

	if (iv->alloc == iv->cap)
		return 0;
	nv = realloc(iv->v, iv->cap * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	iv->v = nv;
	iv->alloc = iv->cap;
	return 0;
}

/* intervals_free - release everything (a zeroed struct is fine) */
void intervals_free(struct js_intervals *iv)
{
	hist_free(&iv->cur);
	free(iv->v);
	iv->v = NULL;
	iv->n = iv->alloc = 0;
}

/* Halve the resolution: merge entries pairwise, double the entry length. */
static void halve(struct js_intervals *iv)
{
	struct js_interval_stats *a, *b;
	size_t i;

	for (i = 0; i < iv->n / 2; i++) {
		a = &iv->v[2 * i];
		b = &iv->v[2 * i + 1];
		iv->v[i] = (struct js_interval_stats){
			.start_ns = a->start_ns,
			.gaps = a->gaps + b->gaps,
			.lost_ns = a->lost_ns + b->lost_ns,
			.max_ns = JS_MAX(a->max_ns, b->max_ns),
			.p999_ns = JS_MAX(a->p999_ns, b->p999_ns),
			.worst = b->worst.dur_ns > a->worst.dur_ns ? b->worst : a->worst,
		};
	}
	iv->n /= 2;
	iv->len_ns *= 2;
	iv->merges++;
}

/* Close the interval in progress: append its entry, start the next one. */
static int close_current(struct js_intervals *iv)
{
	struct js_interval_stats *nv;
	size_t want;

	if (iv->n == iv->alloc) {
		want = iv->alloc ? JS_MIN(iv->alloc * 2, iv->cap) : JS_MIN((size_t)64, iv->cap);
		nv = realloc(iv->v, want * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		iv->v = nv;
		iv->alloc = want;
	}
	iv->v[iv->n++] = (struct js_interval_stats){
		.start_ns = iv->cur_start_ns,
		.gaps = iv->cur_gaps,
		.lost_ns = iv->cur_lost_ns,
		.max_ns = hist_max(&iv->cur),
		.p999_ns = hist_value_at_percentile(&iv->cur, 99.9),
		.worst = iv->cur_worst,
	};
	if (iv->cur_gaps)
		hist_reset(&iv->cur);
	iv->cur_worst.dur_ns = 0;
	iv->cur_gaps = iv->cur_lost_ns = 0;
	iv->cur_start_ns += iv->len_ns;
	if (iv->n == iv->cap)
		halve(iv); /* cur_start_ns = start + n * len still holds */
	return 0;
}

/* Close intervals until t falls in the one in progress. */
static int advance_to(struct js_intervals *iv, uint64_t t)
{
	int err;

	while (t >= iv->cur_start_ns + iv->len_ns) {
		err = close_current(iv);
		if (err)
			return err;
	}
	return 0;
}

void intervals_prefetch(const struct js_intervals *iv, uint64_t dur_ns)
{
	if (!iv->finished)
		hist_prefetch(&iv->cur, (int64_t)JS_MIN(dur_ns, (uint64_t)INT64_MAX));
}

/* intervals_add_gap - count one gap (gaps in start order); 0 or -ENOMEM */
int intervals_add_gap(struct js_intervals *iv, uint64_t gap_start_ns, uint64_t dur_ns,
		      uint32_t cause, const char *detail)
{
	struct js_interval_worst *w = &iv->cur_worst;

	int err;

	if (iv->finished)
		return 0;
	err = advance_to(iv, gap_start_ns);
	if (err)
		return err;
	iv->cur_gaps++;
	iv->cur_lost_ns += dur_ns;
	hist_record(&iv->cur, (int64_t)JS_MIN(dur_ns, (uint64_t)INT64_MAX));
	if (dur_ns > w->dur_ns) {
		w->start_ns = gap_start_ns;
		w->dur_ns = dur_ns;
		w->cause = cause;
		js_scpy(w->detail, sizeof(w->detail), detail);
	}
	return 0;
}

/* intervals_finish - close the interval in progress at end_ns, empty intervals included */
int intervals_finish(struct js_intervals *iv, uint64_t end_ns)
{
	int err = 0;

	if (iv->finished)
		goto out;
	if (end_ns > iv->cur_start_ns) {
		err = advance_to(iv, end_ns - 1);
		if (err)
			goto out;
	}
	if (end_ns > iv->cur_start_ns || iv->cur_gaps)
		err = close_current(iv);
	iv->end_ns = JS_MAX(end_ns, iv->start_ns);
	iv->finished = 1;
out:
	return err;
}
