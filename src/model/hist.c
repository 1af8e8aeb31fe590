// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * hist.c - HdrHistogram-compatible histogram: configuration, O(1) recording,
 * Java-compatible percentile, min/max, mean and stddev.
 *
 * The bucket math is the one HdrHistogram (Java and C) uses, so a slot here is a
 * slot there and the V2 encoding (hdr_codec.c) can carry the counts unchanged
 * (docs/DESIGN.md, HdrHistogram).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "js_hist.h"

/* bucket_index - which power-of-two bucket v falls in (v >= 0) */
static inline int bucket_index(const struct js_hist *h, int64_t v)
{
	int pow2ceiling = 64 - __builtin_clzll((uint64_t)(v | h->sub_bucket_mask));

	return pow2ceiling - h->unit_magnitude - (h->sub_bucket_half_count_magnitude + 1);
}

/* sub_bucket_index - position of v inside bucket b */
static inline int sub_bucket_index(const struct js_hist *h, int64_t v, int b)
{
	return (int)(v >> (b + h->unit_magnitude));
}

/* index_of - counts index of (bucket, sub bucket) */
static inline int index_of(const struct js_hist *h, int b, int sb)
{
	return ((b + 1) << h->sub_bucket_half_count_magnitude) + (sb - h->sub_bucket_half_count);
}

/* hist_counts_index - slot index of v (0 <= v; may be >= counts_len if v is out of range) */
int hist_counts_index(const struct js_hist *h, int64_t v)
{
	int b;

	if (v < 0)
		v = 0;
	b = bucket_index(h, v);
	return index_of(h, b, sub_bucket_index(h, v, b));
}

/* hist_value_from_index - lowest value of slot i */
int64_t hist_value_from_index(const struct js_hist *h, int i)
{
	int b = (i >> h->sub_bucket_half_count_magnitude) - 1;
	int sb = (i & (h->sub_bucket_half_count - 1)) + h->sub_bucket_half_count;

	if (b < 0) {
		sb -= h->sub_bucket_half_count;
		b = 0;
	}
	return (int64_t)sb << (b + h->unit_magnitude);
}

/* hist_lowest_equivalent - lowest value counted in the same slot as v */
int64_t hist_lowest_equivalent(const struct js_hist *h, int64_t v)
{
	int b;

	if (v < 0)
		v = 0;
	b = bucket_index(h, v);
	return (int64_t)sub_bucket_index(h, v, b) << (b + h->unit_magnitude);
}

/* hist_size_equivalent - width of v's slot */
int64_t hist_size_equivalent(const struct js_hist *h, int64_t v)
{
	int b;

	if (v < 0)
		v = 0;
	b = bucket_index(h, v);
	if (sub_bucket_index(h, v, b) >= h->sub_bucket_count)
		b++;
	b += h->unit_magnitude;
	return b >= 63 ? INT64_MAX : (int64_t)1 << b; /* a slot 2^63 wide: only a decoded one */
}

/* hist_highest_equivalent - highest value counted in the same slot as v (INT64_MAX for the
 * top slot of a histogram whose range reaches it: a decoded one may) */
int64_t hist_highest_equivalent(const struct js_hist *h, int64_t v)
{
	int64_t lo = hist_lowest_equivalent(h, v), size = hist_size_equivalent(h, v);

	return lo > INT64_MAX - (size - 1) ? INT64_MAX : lo + (size - 1);
}

/* hist_median_equivalent - middle of v's slot (what mean/stddev use) */
int64_t hist_median_equivalent(const struct js_hist *h, int64_t v)
{
	return hist_lowest_equivalent(h, v) + (hist_size_equivalent(h, v) >> 1);
}

/* buckets_needed - number of buckets so that the top one covers highest */
static int buckets_needed(int64_t sub_bucket_count, int unit_magnitude, int64_t highest)
{
	int64_t v = sub_bucket_count << unit_magnitude;
	int n = 1;

	while (v <= highest) {
		if (v > INT64_MAX / 2)
			return n + 1;
		v <<= 1;
		n++;
	}
	return n;
}

/* hist_init - configure h and allocate its counts; -EINVAL or -ENOMEM */
int hist_init(struct js_hist *h, int64_t lowest, int64_t highest, int sig)
{
	int64_t largest_single_unit = 2;
	int sbc_mag = 0, i, err = -EINVAL;

	memset(h, 0, sizeof(*h));
	if (lowest < 1 || lowest > INT64_MAX / 2 || highest < 2 * lowest || sig < 1 || sig > 5)
		goto out;
	for (i = 0; i < sig; i++)
		largest_single_unit *= 10;
	while (((int64_t)1 << sbc_mag) < largest_single_unit)
		sbc_mag++;
	h->sub_bucket_half_count_magnitude = (sbc_mag > 1 ? sbc_mag : 1) - 1;
	h->unit_magnitude = 63 - __builtin_clzll((uint64_t)lowest);
	if (h->unit_magnitude + h->sub_bucket_half_count_magnitude > 61)
		goto out;
	h->lowest = lowest;
	h->highest = highest;
	h->sig = sig;
	h->sub_bucket_count = 1 << (h->sub_bucket_half_count_magnitude + 1);
	h->sub_bucket_half_count = h->sub_bucket_count / 2;
	h->sub_bucket_mask = ((int64_t)h->sub_bucket_count - 1) << h->unit_magnitude;
	h->bucket_count = buckets_needed(h->sub_bucket_count, h->unit_magnitude, highest);
	h->counts_len = (h->bucket_count + 1) * h->sub_bucket_half_count;
	h->min = INT64_MAX;
	h->counts = calloc((size_t)h->counts_len, sizeof(*h->counts));
	err = h->counts ? 0 : -ENOMEM;
out:
	if (err)
		memset(h, 0, sizeof(*h));
	return err;
}

/* hist_free - release the counts (accepts a zeroed struct, idempotent) */
void hist_free(struct js_hist *h)
{
	free(h->counts);
	h->counts = NULL;
	h->counts_len = 0;
	h->total = 0;
}

/* hist_reset - forget every recorded value, keep the configuration */
void hist_reset(struct js_hist *h)
{
	/* no count lies above max's slot (hist_record, hist_add, hist_sub and the decoder keep
	 * max so; the encoder stops there too): those up to it are zeroed, not every slot (each
	 * result's per-second histogram is reset every second: 270 KiB a CPU, most of a drain
	 * at many CPUs) */
	if (h->counts && h->total) {
		int n = hist_counts_index(h, h->max) + 1;

		memset(h->counts, 0,
		       (size_t)(n < h->counts_len ? n : h->counts_len) * sizeof(*h->counts));
	}
	h->total = 0;
	h->overflow = 0;
	h->min = INT64_MAX;
	h->max = 0;
}

void hist_prefetch(const struct js_hist *h, int64_t v)
{
	int i;

	if (!h->counts)
		return;
	i = hist_counts_index(h, v < h->highest ? v : h->highest);
	if (i < h->counts_len)
		__builtin_prefetch(&h->counts[i], 1, 3);
}

/* hist_record_n - count value v n times (same clamping as hist_record) */
void hist_record_n(struct js_hist *h, int64_t v, uint64_t n)
{
	if (n == 0)
		return;
	if (v < 0)
		v = 0;
	if (v > h->highest) {
		v = h->highest;
		h->overflow += n;
	}
	h->counts[hist_counts_index(h, v)] += n;
	h->total += n;
	if (v > h->max)
		h->max = v;
	if (v != 0 && v < h->min)
		h->min = v;
}

/* hist_record - count one value: v < 0 counts as 0; v > highest is clamped, counted in overflow */
void hist_record(struct js_hist *h, int64_t v)
{
	hist_record_n(h, v, 1);
}

/* hist_same_config - 1 if a and b have the same lowest/highest/sig */
int hist_same_config(const struct js_hist *a, const struct js_hist *b)
{
	return a->lowest == b->lowest && a->highest == b->highest && a->sig == b->sig &&
	       a->counts_len == b->counts_len;
}

/* hist_add - add src's counts to dst; -EINVAL unless both have the same configuration */
int hist_add(struct js_hist *dst, const struct js_hist *src)
{
	int i;

	if (!dst->counts || !src->counts || !hist_same_config(dst, src))
		return -EINVAL;
	if (src->total == 0)
		return 0;
	for (i = 0; i < dst->counts_len; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->overflow += src->overflow;
	if (src->max > dst->max)
		dst->max = src->max;
	if (src->min < dst->min)
		dst->min = src->min;
	return 0;
}

/* hist_sub - dst = a - b, b an earlier copy of a; -EINVAL if it is not */
int hist_sub(struct js_hist *dst, const struct js_hist *a, const struct js_hist *b)
{
	int i;

	if (!dst->counts || !a->counts || !b->counts || !hist_same_config(a, b) ||
	    !hist_same_config(dst, a) || b->total > a->total || b->overflow > a->overflow)
		return -EINVAL;
	for (i = 0; i < a->counts_len; i++)
		if (b->counts[i] > a->counts[i])
			return -EINVAL;
	dst->total = a->total - b->total;
	dst->overflow = a->overflow - b->overflow;
	dst->min = INT64_MAX;
	dst->max = 0;
	for (i = 0; i < a->counts_len; i++) {
		dst->counts[i] = a->counts[i] - b->counts[i];
		if (!dst->counts[i])
			continue;
		dst->max = hist_value_from_index(dst, i);
		if (dst->min == INT64_MAX && dst->max)
			dst->min = dst->max;
	}
	return 0;
}

/* hist_value_at_rank - the lowest value of the slot holding the k-th smallest value */
int64_t hist_value_at_rank(const struct js_hist *h, uint64_t k)
{
	uint64_t run = 0;

	if (!k || k > h->total)
		return 0;
	for (int i = 0; i < h->counts_len; i++) {
		run += h->counts[i];
		if (run >= k)
			return hist_value_from_index(h, i);
	}
	return 0;
}

/* hist_value_at_percentile - Java getValueAtPercentile(p), p in [0,100]; 0 if empty */
int64_t hist_value_at_percentile(const struct js_hist *h, double p)
{
	double req = nextafter(p, -INFINITY);
	uint64_t want;
	int64_t v;

	if (h->total == 0)
		return 0;
	if (!(req > 0.0)) /* also NaN */
		req = 0.0;
	if (req > 100.0)
		req = 100.0;
	want = (uint64_t)ceil(req * (double)h->total / 100.0);
	if (want < 1)
		want = 1;
	if (want > h->total)
		return 0;
	v = hist_value_at_rank(h, want);
	return p == 0.0 ? hist_lowest_equivalent(h, v) : hist_highest_equivalent(h, v);
}

/* hist_max - highest_equivalent(max), 0 if empty */
int64_t hist_max(const struct js_hist *h)
{
	if (h->total == 0 || h->max == 0)
		return 0;
	return hist_highest_equivalent(h, h->max);
}

/* hist_min - lowest_equivalent(min); 0 if empty or slot 0 has counts */
int64_t hist_min(const struct js_hist *h)
{
	if (h->total == 0 || h->counts[0] > 0 || h->min == INT64_MAX)
		return 0;
	return hist_lowest_equivalent(h, h->min);
}

/* hist_mean - sum(count * median_equivalent) / total; 0 if empty */
double hist_mean(const struct js_hist *h)
{
	double sum = 0.0;
	int i;

	if (h->total == 0)
		return 0.0;
	for (i = 0; i < h->counts_len; i++) {
		if (h->counts[i])
			sum += (double)hist_median_equivalent(h, hist_value_from_index(h, i)) *
			       (double)h->counts[i];
	}
	return sum / (double)h->total;
}

/* hist_stddev - population standard deviation over median_equivalent values; 0 if empty */
double hist_stddev(const struct js_hist *h)
{
	double mean, sum = 0.0;
	int i;

	if (h->total == 0)
		return 0.0;
	mean = hist_mean(h);
	for (i = 0; i < h->counts_len; i++) {
		double d;

		if (!h->counts[i])
			continue;
		d = (double)hist_median_equivalent(h, hist_value_from_index(h, i)) - mean;
		sum += d * d * (double)h->counts[i];
	}
	return sqrt(sum / (double)h->total);
}

/* hist_count_between - counts of the slots whose lowest_equivalent is in [lo, hi) */
uint64_t hist_count_between(const struct js_hist *h, int64_t lo, int64_t hi)
{
	uint64_t sum = 0;
	int i;

	if (lo < 0)
		lo = 0;
	if (hi <= lo || !h->counts)
		return 0;
	for (i = hist_counts_index(h, lo); i < h->counts_len; i++) {
		int64_t v = hist_value_from_index(h, i);

		if (v >= hi)
			break;
		if (v >= lo)
			sum += h->counts[i];
	}
	return sum;
}
