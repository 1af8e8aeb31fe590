/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_diff.h - compare two runs (`jitterscope diff A.json B.json`): per CPU measured in both,
 * gap counts, lost time, percentiles and max, and per cause class the gaps it appeared in
 * and its time lost, side by side with the change and a verdict; the audit checks whose
 * verdict changed. Text (report_diff_text) and JSON (report_diff_json, docs/JSON.md).
 *
 * Lower is better for every metric. Verdicts:
 *   percentiles, max  same when within one HdrHistogram slot of each other (3 significant
 *                     digits: the histogram cannot tell them apart), else better/worse;
 *   counts            compared per second of measured window; same when the rates differ
 *                     by at most 3 sigma of Poisson noise, sigma^2 = a/Ta^2 + b/Tb^2;
 *   times             per second too; same within 3 sigma of a compound Poisson sum,
 *                     sigma^2 = Qa/Ta^2 + Qb/Tb^2, Q = the sum of squared gap durations
 *                     (from the histogram for the total; for a cause class the upper bound
 *                     its time x its largest time in one gap).
 */
#ifndef JS_DIFF_H
#define JS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "js_result.h"

enum js_diff_unit { DIFF_COUNT, DIFF_NS, DIFF_RATE, DIFF_PCT };
enum js_diff_verdict { DIFF_SAME, DIFF_BETTER, DIFF_WORSE };

struct js_diff_row {
	char metric[48];                /* JSON name: "p99_ns", "task.gaps" */
	char label[48];                 /* text label: "p99", "task: gaps" */
	enum js_diff_unit unit;
	double a, b;
	enum js_diff_verdict verdict;
};

#define JS_DIFF_ROWS_MAX (10 + 2 * JS_CAUSE_MAX)

/* diff_cpu - the rows comparing CPU result a (run A) with b (run B), cause classes only
 * when causes is true; returns the number of rows (<= JS_DIFF_ROWS_MAX) */
size_t diff_cpu(const struct js_cpu_result *a, const struct js_cpu_result *b, bool causes,
		struct js_diff_row *rows);
/* diff_verdict_name - "same", "better", "worse" */
const char *diff_verdict_name(enum js_diff_verdict v);
/* diff_count_verdict - counts a in ta_s seconds vs b in tb_s seconds (Poisson, 3 sigma) */
enum js_diff_verdict diff_count_verdict(double a, double ta_s, double b, double tb_s);
/* diff_time_verdict - times a, b (ns) with sums of squares qa, qb (ns^2), per second */
enum js_diff_verdict diff_time_verdict(double a, double qa, double ta_s, double b, double qb,
				       double tb_s);
/* diff_hist_verdict - two values of histograms configured like h: same within one slot */
enum js_diff_verdict diff_hist_verdict(const struct js_hist *h, int64_t a, int64_t b);
/* diff_sum_squares - sum over the recorded values of value^2 (median-equivalent), ns^2 */
double diff_sum_squares(const struct js_hist *h);

/* report_diff_text - the comparison as text; returns the number of CPUs compared */
size_t report_diff_text(FILE *fp, const struct js_run *a, const char *name_a,
			const struct js_run *b, const char *name_b);
/* report_diff_json - the comparison as JSON (docs/JSON.md); returns the CPUs compared */
size_t report_diff_json(FILE *fp, const struct js_run *a, const char *name_a,
			const struct js_run *b, const char *name_b);

#endif /* JS_DIFF_H */
