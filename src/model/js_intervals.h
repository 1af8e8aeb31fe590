/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_intervals.h - per-interval (e.g. per-second) gap statistics, so a reader sees whether
 * the tail came in one burst or all along (non-stationarity).
 *
 * A rolling helper: one histogram for the interval in progress, reset at each boundary; each
 * closed interval appends {start, gaps, lost, max, p99.9} to a bounded array. When the
 * array is full, neighbouring entries are merged pairwise and the interval length doubles
 * (gaps and lost add up, max is the max; p99.9 becomes the larger of the two, an upper
 * bound of the merged interval's p99.9). A gap belongs to the interval its start falls in
 * (a gap before the window start, or before the interval in progress, goes to the interval
 * in progress). max_ns and p999_ns follow the gap histogram's rules (HdrHistogram: the
 * highest value equivalent to the recorded one), so they match the run's max_ns.
 * Each entry also keeps its worst gap (the first of the longest): start, exact length,
 * primary cause and detail, enough for its one-line story (story_format_brief()); when
 * two entries merge, the worse one's is kept (the earlier on a tie). Copied on the drain
 * thread into memory allocated before, nothing is allocated per gap.
 */
#ifndef JS_INTERVALS_H
#define JS_INTERVALS_H

#include <stddef.h>
#include <stdint.h>

#include "js_hist.h"
#include "js_model.h"

#define INTERVALS_CAP_DEFAULT 86400 /* one day of seconds before halving */
#define INTERVALS_CAP_ENDLESS 4096  /* --duration 0: allocated at start (512 KiB) */

/* An interval's worst gap, what its one-line story needs (88 B) */
struct js_interval_worst {
	uint64_t start_ns; /* CLOCK_MONOTONIC */
	uint64_t dur_ns;   /* exact (max_ns is its histogram value); 0: no gap */
	uint32_t cause;	   /* enum js_cause: its primary cause */
	char detail[JS_DETAIL_LEN];
};

struct js_interval_stats {
	uint64_t start_ns; /* CLOCK_MONOTONIC start; the entry lasts len_ns */
	uint64_t gaps;
	uint64_t lost_ns;
	int64_t max_ns;
	int64_t p999_ns;
	struct js_interval_worst worst;
};

struct js_intervals {
	uint64_t start_ns;     /* window start */
	uint64_t end_ns;       /* set by intervals_finish; the last entry may be shorter */
	uint64_t base_len_ns;  /* requested interval length */
	uint64_t len_ns;       /* current entry length: base_len_ns << merges */
	unsigned int merges;   /* times the array was halved */
	uint64_t cur_start_ns; /* interval in progress */
	uint64_t cur_gaps, cur_lost_ns;
	struct js_interval_worst cur_worst;
	struct js_hist cur;
	struct js_interval_stats *v;
	size_t n, alloc, cap;
	int finished;
};

/* intervals_init - per-interval stats from start_ns, len_ns each, at most cap entries (even,
 * >= 2; 0 = INTERVALS_CAP_DEFAULT); 0, -EINVAL or -ENOMEM */
int intervals_init(struct js_intervals *iv, uint64_t start_ns, uint64_t len_ns, size_t cap);
/* intervals_reserve - allocate all cap entries now (a run without end: no allocation
 * later, memory flat); 0 or -ENOMEM */
int intervals_reserve(struct js_intervals *iv);
/* intervals_add_gap - count one gap (gaps in start order) of primary cause and detail (may
 * be NULL); 0 or -ENOMEM */
int intervals_add_gap(struct js_intervals *iv, uint64_t gap_start_ns, uint64_t dur_ns,
		      uint32_t cause, const char *detail);
/* intervals_prefetch - a gap of dur_ns to be added soon: its histogram slot brought toward
 * the cache (hist_prefetch) */
void intervals_prefetch(const struct js_intervals *iv, uint64_t dur_ns);
/* intervals_finish - close the interval in progress at end_ns (every interval up to end_ns
 * gets an entry, empty ones included); 0 or -ENOMEM */
int intervals_finish(struct js_intervals *iv, uint64_t end_ns);
/* intervals_free - release everything (a zeroed struct is fine) */
void intervals_free(struct js_intervals *iv);

#endif /* JS_INTERVALS_H */
