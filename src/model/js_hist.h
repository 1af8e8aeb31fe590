/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_hist.h - HdrHistogram-compatible histogram (bucket math identical to Java/C
 * HdrHistogram), its V2 compressed encoding, and base64.
 *
 * Values are int64 (jitterscope records ns). Product configuration:
 * hist_init(h, 1, JS_HIST_HIGHEST_NS, 3) -> 33 792 slots, 264 KiB.
 * Percentiles, min/max, mean and stddev follow the Java reference (2.1.x/2.2.x)
 * so numbers equal HistogramLogProcessor's (docs/DESIGN.md, HdrHistogram).
 */
#ifndef JS_HIST_H
#define JS_HIST_H

#include <stddef.h>
#include <stdint.h>

#define JS_HIST_LOWEST 1
#define JS_HIST_HIGHEST_NS 3600000000000LL /* 1 h in ns */
#define JS_HIST_SIG 3

#define JS_HDR_V2_COOKIE 0x1c849313u		/* base 0x1c849303 | 0x10 */
#define JS_HDR_V2_COMPRESSED_COOKIE 0x1c849314u /* base 0x1c849304 | 0x10 */
#define JS_HDR_V2_HEADER_LEN 40

/* Public so it can be embedded or preallocated; treat the fields as read-only. */
struct js_hist {
	int64_t lowest, highest;
	int sig;
	int unit_magnitude, sub_bucket_half_count_magnitude;
	int sub_bucket_count, sub_bucket_half_count;
	int bucket_count, counts_len;
	int64_t sub_bucket_mask;
	uint64_t total;
	uint64_t overflow; /* values > highest (clamped to highest and counted) */
	int64_t min, max;  /* raw recorded min (non-zero; INT64_MAX if none) and max */
	uint64_t *counts;  /* counts_len entries */
};

/* hist_init - configure h and allocate its counts; -EINVAL or -ENOMEM */
int hist_init(struct js_hist *h, int64_t lowest, int64_t highest, int sig);
/* hist_free - release the counts (accepts a zeroed struct, idempotent) */
void hist_free(struct js_hist *h);
/* hist_reset - forget every recorded value, keep the configuration */
void hist_reset(struct js_hist *h);
/* hist_record - count one value: v < 0 counts as 0; v > highest is clamped, counted in overflow */
void hist_record(struct js_hist *h, int64_t v);
/* hist_prefetch - v's slot brought toward the cache, for a hist_record(h, v) soon: the drain
 * issues a batch's before it attributes the batch, so that the slots' misses overlap that
 * work and each other instead of each stalling its own hist_record (many CPUs' histograms
 * do not stay in the cache: docs/DESIGN.md, many CPUs). No effect on what h holds */
void hist_prefetch(const struct js_hist *h, int64_t v);
/* hist_record_n - count value v n times (same clamping as hist_record) */
void hist_record_n(struct js_hist *h, int64_t v, uint64_t n);
/* hist_add - add src's counts to dst; -EINVAL unless both have the same configuration */
int hist_add(struct js_hist *dst, const struct js_hist *src);
/* hist_sub - dst = a - b, b an earlier copy of a (what a recorded since): counts, total and
 * overflow; min and max are the lowest values of the lowest and highest slots left (a raw
 * value is not known; hist_min/hist_max answer as for a recorded one). -EINVAL unless the
 * three have the same configuration and no count of b is above a's (dst unchanged then);
 * dst may be a */
int hist_sub(struct js_hist *dst, const struct js_hist *a, const struct js_hist *b);
/* hist_same_config - 1 if a and b have the same lowest/highest/sig */
int hist_same_config(const struct js_hist *a, const struct js_hist *b);

/* hist_value_at_percentile - Java getValueAtPercentile(p), p in [0,100]; 0 if empty */
int64_t hist_value_at_percentile(const struct js_hist *h, double p);
/* hist_value_at_rank - lowest value of the slot of the k-th smallest value (1-based); 0 if
 * k is 0 or above the total */
int64_t hist_value_at_rank(const struct js_hist *h, uint64_t k);
/* hist_max - highest_equivalent(max), 0 if empty */
int64_t hist_max(const struct js_hist *h);
/* hist_min - lowest_equivalent(min); 0 if empty or slot 0 has counts */
int64_t hist_min(const struct js_hist *h);
/* hist_mean - sum(count * median_equivalent) / total; 0 if empty */
double hist_mean(const struct js_hist *h);
/* hist_stddev - population standard deviation over median_equivalent values; 0 if empty */
double hist_stddev(const struct js_hist *h);

/* hist_lowest_equivalent - lowest value counted in the same slot as v */
int64_t hist_lowest_equivalent(const struct js_hist *h, int64_t v);
/* hist_highest_equivalent - highest value counted in the same slot as v */
int64_t hist_highest_equivalent(const struct js_hist *h, int64_t v);
/* hist_median_equivalent - middle of v's slot (what mean/stddev use) */
int64_t hist_median_equivalent(const struct js_hist *h, int64_t v);
/* hist_size_equivalent - width of v's slot */
int64_t hist_size_equivalent(const struct js_hist *h, int64_t v);
/* hist_counts_index - slot index of v (0 <= v; may be >= counts_len if v is out of range) */
int hist_counts_index(const struct js_hist *h, int64_t v);
/* hist_value_from_index - lowest value of slot i */
int64_t hist_value_from_index(const struct js_hist *h, int i);
/* hist_count_between - counts of the slots whose lowest_equivalent is in [lo, hi) */
uint64_t hist_count_between(const struct js_hist *h, int64_t lo, int64_t hi);

/* --- V2 encoding (src/model/hdr_codec.c) --- */

/* hist_encode_v2 - uncompressed V2 header + ZigZag-LEB128 payload, malloc'd into *out */
int hist_encode_v2(const struct js_hist *h, uint8_t **out, size_t *len);
/* hist_decode_v2 - parse an uncompressed V2 buffer; initialises out with the decoded config */
int hist_decode_v2(const uint8_t *buf, size_t len, struct js_hist *out);
/* hist_encode_compressed_b64 - "HISTF..." (V2 compressed, zlib level 0..9, base64), malloc'd */
int hist_encode_compressed_b64(const struct js_hist *h, int level, char **b64);
/* hist_decode_compressed_b64 - decode "HISTF..."; initialises out with the decoded config */
int hist_decode_compressed_b64(const char *b64, struct js_hist *out);

/* hist_zigzag_put - ZigZag-LEB128 "64b9B" of v into p (>= 9 bytes); returns bytes written */
size_t hist_zigzag_put(uint8_t *p, int64_t v);
/* hist_zigzag_get - decode one value from p[0..len); returns bytes used or -EINVAL */
int hist_zigzag_get(const uint8_t *p, size_t len, int64_t *v);

/* js_b64_encode - RFC 4648 base64 (with '=' padding) of buf, malloc'd NUL-terminated string */
int js_b64_encode(const uint8_t *buf, size_t len, char **out);
/* js_b64_decode - decode RFC 4648 base64 (trailing whitespace allowed), malloc'd into *out */
int js_b64_decode(const char *s, uint8_t **out, size_t *len);

#endif /* JS_HIST_H */
