/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_hlog.h - HdrHistogram interval log (.hlog, HistogramLogWriter format 1.3) and
 * percentile distribution (.hgrm, Java "classic" outputPercentileDistribution).
 *
 * Numbers are formatted like Java's Formatter (HALF_UP on the shortest decimal
 * representation), so a .hgrm written here is byte-identical to the one
 * HistogramLogProcessor prints for the same histogram (docs/DESIGN.md, HdrHistogram).
 */
#ifndef JS_HLOG_H
#define JS_HLOG_H

#include <stddef.h>
#include <stdio.h>

#include "js_hist.h"

#define JS_HLOG_MAX_HEADER_LINE 126 /* HdrHistogram_c reads header lines with fgets(128) */

/*
 * hlog_write_header - "#[<comment>]" (optional, sanitised and truncated to fit), version 1.3,
 * StartTime, BaseTime and the legend line; 0 or -EIO
 */
int hlog_write_header(FILE *fp, double start_time_epoch_s, const char *comment);
/*
 * hlog_write_interval - one "[Tag=T,]start,length,max_ms,HISTF..." line; start is relative
 * to BaseTime, max is hist_max()/1e6 (ns -> ms). -EINVAL for a tag holding ',', ' ', CR or LF
 */
int hlog_write_interval(FILE *fp, const char *tag, double start_s_rel, double len_s,
			const struct js_hist *h);
/*
 * hgrm_write - Java classic percentile distribution: values divided by unit_ratio, levels
 * stepped with ticks_per_half ticks per half distance (Java default 5); 0 or -EIO/-EINVAL
 */
int hgrm_write(FILE *fp, const struct js_hist *h, double unit_ratio, int ticks_per_half);

/* js_fmt_java_fixed - format v like Java String.format("%.<prec>f") (HALF_UP) into buf */
const char *js_fmt_java_fixed(char *buf, size_t len, double v, int prec);

#endif /* JS_HLOG_H */
