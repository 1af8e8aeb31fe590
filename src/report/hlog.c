// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * hlog.c - .hlog interval log (Java HistogramLogWriter format 1.3) and .hgrm
 * percentile distribution (Java outputPercentileDistribution, classic format).
 *
 * Java's Formatter rounds "%.Nf" HALF_UP on the shortest decimal representation of
 * the double; glibc rounds the exact binary value half-to-even. They differ on
 * ties such as 0.9997802734375 (a percentile level), so every fixed-point number here
 * goes through js_fmt_java_fixed() to keep the output byte-identical to Java's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_hlog.h"
#include "js_util.h"

#define JAVA_FIXED_MAX_INT_DIGITS 40 /* beyond that: fall back to printf */

/* shortest_digits - shortest decimal digits reading back as v (> 0, finite); returns count */
static int shortest_digits(double v, char dig[18], int *dec_exp)
{
	char tmp[40], *c;
	int p, n = 0;

	for (p = 1; p <= 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	for (c = tmp; *c && *c != 'e'; c++)
		if (*c >= '0' && *c <= '9')
			dig[n++] = *c;
	*dec_exp = atoi(c + 1) + 1; /* value = 0.<dig> * 10^dec_exp */
	while (n > 1 && dig[n - 1] == '0')
		n--;
	return n;
}

/* round_half_up - keep the first `keep` digits of dig[0..n), rounding HALF_UP; returns new n */
static int round_half_up(char dig[19], int n, int keep, int *dec_exp)
{
	int i;

	if (keep >= n)
		return n;
	if (keep < 0)
		return 0;
	if (dig[keep] < '5')
		return keep;
	for (i = keep - 1; i >= 0 && dig[i] == '9'; i--)
		dig[i] = '0';
	if (i >= 0) {
		dig[i]++;
		return keep;
	}
	memmove(dig + 1, dig, (size_t)keep);
	dig[0] = '1';
	(*dec_exp)++;
	return keep + 1;
}

/* js_fmt_java_fixed - format v like Java String.format("%.<prec>f") (HALF_UP) into buf */
const char *js_fmt_java_fixed(char *buf, size_t len, double v, int prec)
{
	char dig[19], out[JAVA_FIXED_MAX_INT_DIGITS + 64];
	int n = 0, de = 1, i, o = 0;

	if (!isfinite(v) || fabs(v) >= 1e38 || prec < 0 || prec > 20) {
		snprintf(buf, len, "%.*f", prec < 0 ? 0 : prec, v);
		return buf;
	}
	if (signbit(v))
		out[o++] = '-';
	if (v != 0.0) {
		n = shortest_digits(fabs(v), dig, &de);
		n = round_half_up(dig, n, de + prec, &de);
	}
	if (de <= 0)
		out[o++] = '0';
	for (i = 0; i < de; i++)
		out[o++] = i < n ? dig[i] : '0';
	if (prec > 0)
		out[o++] = '.';
	for (i = 0; i < prec; i++)
		out[o++] = (de + i >= 0 && de + i < n) ? dig[de + i] : '0';
	out[o] = '\0';
	js_scpy(buf, len, out);
	return buf;
}

/* put_comment - "#[comment]\n" with control characters blanked, truncated to fit 126 chars */
static void put_comment(FILE *fp, const char *comment)
{
	char line[JS_HLOG_MAX_HEADER_LINE + 2];
	size_t i, n = 0;

	line[n++] = '#';
	line[n++] = '[';
	for (i = 0; comment[i] && n < JS_HLOG_MAX_HEADER_LINE - 1; i++)
		line[n++] = (unsigned char)comment[i] < 0x20 ? ' ' : comment[i];
	line[n++] = ']';
	line[n] = '\0';
	fprintf(fp, "%s\n", line);
}

/* hlog_write_header - comment, version 1.3, StartTime, BaseTime and legend; 0 or -EIO */
int hlog_write_header(FILE *fp, double start_time_epoch_s, const char *comment)
{
	char secs[64], date[64] = "";
	time_t t;
	struct tm tm;

	if (!isfinite(start_time_epoch_s) || start_time_epoch_s < 0)
		return -EINVAL;
	t = (time_t)floor(start_time_epoch_s);
	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%a %b %d %H:%M:%S UTC %Y", &tm);
	js_fmt_java_fixed(secs, sizeof(secs), start_time_epoch_s, 3);
	if (comment)
		put_comment(fp, comment);
	fprintf(fp, "#[Histogram log format version 1.3]\n");
	fprintf(fp, "#[StartTime: %s (seconds since epoch), %s]\n", secs, date);
	fprintf(fp, "#[BaseTime: %s (seconds since epoch)]\n", secs);
	fprintf(fp, "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		    "\"Interval_Compressed_Histogram\"\n");
	return ferror(fp) ? -EIO : 0;
}

/* tag_ok - Java's rule: a tag may not contain ',', ' ', CR or LF (and is not empty) */
static int tag_ok(const char *tag)
{
	return *tag && !strpbrk(tag, ", \r\n");
}

/* hlog_write_interval - one "[Tag=T,]start,length,max_ms,HISTF..." line */
int hlog_write_interval(FILE *fp, const char *tag, double start_s_rel, double len_s,
			const struct js_hist *h)
{
	char start[64], length[64], max[64], *b64 = NULL;
	int err = -EINVAL;

	if (tag && !tag_ok(tag))
		goto out;
	err = hist_encode_compressed_b64(h, 9, &b64); /* Java's writer: BEST_COMPRESSION */
	if (err)
		goto out;
	js_fmt_java_fixed(start, sizeof(start), start_s_rel, 3);
	js_fmt_java_fixed(length, sizeof(length), len_s, 3);
	js_fmt_java_fixed(max, sizeof(max), (double)hist_max(h) / 1e6, 3);
	if (tag)
		fprintf(fp, "Tag=%s,", tag);
	fprintf(fp, "%s,%s,%s,%s\n", start, length, max, b64);
	err = ferror(fp) ? -EIO : 0;
out:
	free(b64);
	return err;
}

/* Java PercentileIterator state: rows at levels that halve the distance to 100 % */
struct pct_iter {
	const struct js_hist *h;
	int idx, fresh, last, ticks;
	uint64_t cum;
	double level;
};

/* pct_step - advance the reporting level after a row */
static void pct_step(struct pct_iter *it)
{
	long k, ticks;

	if (it->level >= 100.0)
		return;
	k = (long)(log(100.0 / (100.0 - it->level)) / log(2.0)) + 1;
	ticks = (long)it->ticks * (long)pow(2.0, (double)k);
	it->level += 100.0 / (double)ticks;
}

/* pct_next - next (value, level, cumulative count) row; 0 when done */
static int pct_next(struct pct_iter *it, int64_t *value, double *level, uint64_t *cum)
{
	const struct js_hist *h = it->h;

	if (it->cum >= h->total) {
		if (it->last || h->total == 0)
			return 0;
		it->level = 100.0;
		it->last = 1;
	}
	for (; it->idx < h->counts_len; it->idx++, it->fresh = 1) {
		uint64_t c = h->counts[it->idx];

		if (it->fresh) {
			it->cum += c;
			it->fresh = 0;
		}
		if (c != 0 && 100.0 * (double)it->cum / (double)h->total >= it->level) {
			*value = hist_highest_equivalent(h, hist_value_from_index(h, it->idx));
			*level = it->level;
			*cum = it->cum;
			pct_step(it);
			return 1;
		}
	}
	return 0;
}

/* hgrm_row - one "Value Percentile TotalCount 1/(1-Percentile)" line */
static void hgrm_row(FILE *fp, const struct js_hist *h, double ratio, int64_t v, double level,
		     uint64_t cum)
{
	char val[64], pct[64], inv[64];

	js_fmt_java_fixed(val, sizeof(val), (double)v / ratio, h->sig);
	js_fmt_java_fixed(pct, sizeof(pct), level / 100.0, 12);
	if (level != 100.0) {
		js_fmt_java_fixed(inv, sizeof(inv), 1.0 / (1.0 - level / 100.0), 2);
		fprintf(fp, "%12s %2s %10llu %14s\n", val, pct, (unsigned long long)cum, inv);
	} else {
		fprintf(fp, "%12s %2s %10llu\n", val, pct, (unsigned long long)cum);
	}
}

/* hgrm_footer - Mean/StdDeviation, Max/Total count, Buckets/SubBuckets lines */
static void hgrm_footer(FILE *fp, const struct js_hist *h, double ratio)
{
	char a[64], b[64];

	js_fmt_java_fixed(a, sizeof(a), hist_mean(h) / ratio, h->sig);
	js_fmt_java_fixed(b, sizeof(b), hist_stddev(h) / ratio, h->sig);
	fprintf(fp, "#[Mean    = %12s, StdDeviation   = %12s]\n", a, b);
	js_fmt_java_fixed(a, sizeof(a), (double)hist_max(h) / ratio, h->sig);
	fprintf(fp, "#[Max     = %12s, Total count    = %12llu]\n", a,
		(unsigned long long)h->total);
	fprintf(fp, "#[Buckets = %12d, SubBuckets     = %12d]\n", h->bucket_count,
		h->sub_bucket_count);
}

/* hgrm_write - Java classic percentile distribution of h; 0 or -EIO/-EINVAL */
int hgrm_write(FILE *fp, const struct js_hist *h, double unit_ratio, int ticks_per_half)
{
	struct pct_iter it = { .h = h, .fresh = 1, .ticks = ticks_per_half };
	uint64_t cum;
	double level;
	int64_t v;

	if (!h->counts || !(unit_ratio > 0) || ticks_per_half < 1)
		return -EINVAL;
	fprintf(fp, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount",
		"1/(1-Percentile)");
	while (pct_next(&it, &v, &level, &cum))
		hgrm_row(fp, h, unit_ratio, v, level, cum);
	hgrm_footer(fp, h, unit_ratio);
	return ferror(fp) ? -EIO : 0;
}
