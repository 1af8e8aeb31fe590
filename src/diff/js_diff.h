/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_diff.h - compare two runs (`jitterscope diff A.json B.json`): per CPU pair, rates and
 * shares (never raw totals of windows of other lengths), percentiles with the evidence behind
 * them, per cause class and per source what appeared, went away, grew or shrank; warnings
 * when the runs are not alike; the audit checks whose verdict changed. diff_compute() builds
 * the comparison once; text, JSON (docs/JSON.md) and HTML render it.
 *
 * Lower is better for every row. A row's verdict:
 *   same       no change, or a change below the practical minimum: less than min_change
 *              of A (the change as shown: -9.5 % is below 10 %), or a difference below the
 *              row's absolute floor (DIFF_FLOOR_*); a class that took no time in either run
 *   better/worse  a practical change that chance does not explain (p < alpha), in the
 *              direction of the numbers shown
 *   uncertain  a practical change the evidence does not carry: it could be chance, or a
 *              percentile rests on too few gaps to be bounded
 *   mixed      a percentile moved one way while the gaps at least as long as the higher
 *              value became more (or less) frequent per second the other way (many more
 *              short gaps lower p50, yet long gaps are more frequent too)
 * The tests (js_stats.h):
 *   gap rates (all gaps, per class)   exact conditional binomial test of two Poisson rates
 *   time lost per second (total, per class, per source)   normal test of compound Poisson
 *              sums, variance Q_A/T_A^2 + Q_B/T_B^2, Q the sum of squared gap times (from
 *              the histogram for the total; for a class or source its upper bound, its time
 *              x its largest time in one gap); a time on fewer than DIFF_MIN_GAPS gaps of
 *              both runs together is uncertain
 *   the totals (gaps per second, time lost share), and a class that shows their numbers
 *              (in every gap, or all the time: the same numbers, the same test and verdict)
 *              when a run's per-interval counts or
 *              times vary more than independent gaps would (dispersion > 1, from at least
 *              DIFF_DISP_MIN full intervals: background noise in bursts), its variance is
 *              scaled by that factor and the test is Welch's t (quasi-Poisson), with
 *              k - 1 degrees of freedom per scaled run; a run too short to estimate its
 *              own factor takes the other run's
 *   percentiles  each run's distribution-free (1 - alpha) interval from order statistics of
 *              its histogram; better/worse when the intervals do not overlap and the rate of
 *              gaps at least as long as the higher value changed the same way (exact rate
 *              test); an interval a run's gaps cannot bound is "few gaps beyond it"
 *   max        the rate of gaps at least as long as the smaller maximum (exact rate test)
 */
#ifndef JS_DIFF_H
#define JS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "js_result.h"

#define DIFF_FLOOR_RATE 0.1	   /* gaps per second: one gap in 10 s */
#define DIFF_FLOOR_NS_PER_S 1000.0 /* time lost: 1 us per second (0.0001 %) */
#define DIFF_FLOOR_NS 100.0	   /* durations: 100 ns */
#define DIFF_MIN_GAPS 10	   /* fewer gaps behind a time: uncertain */
#define DIFF_TOP_SOURCES 8	   /* sources compared: the largest of each run */
#define DIFF_WAKER_LEN 32	   /* a source's waker: "jswriter", "hard IRQ" */

enum js_diff_unit { DIFF_PER_S, DIFF_PCT, DIFF_NS, DIFF_NS_PER_S };
enum js_diff_verdict {
	DIFF_SAME,
	DIFF_BETTER,
	DIFF_WORSE,
	DIFF_UNCERTAIN,
	DIFF_MIXED,
	DIFF_NVERDICTS
};
enum js_diff_test {
	DIFF_TEST_NONE,
	DIFF_TEST_POISSON,
	DIFF_TEST_NORMAL,
	DIFF_TEST_WELCH,
	DIFF_TEST_QUANTILE,
	DIFF_TEST_EXCEED
};

/* How much more a run's gap count and lost time vary from one interval (second) to the next
 * than independent gaps would make them: variance / the Poisson (compound Poisson) one. */
struct js_diff_disp {
	unsigned k;	   /* full intervals; fewer than DIFF_DISP_MIN: not estimated */
	double gaps, lost; /* the factors (1 when not estimated) */
	bool borrowed;	   /* too short to estimate: the other run's (same machine) */
};

#define DIFF_DISP_MIN 3	   /* full intervals to estimate a dispersion from */
#define DIFF_DISP_WARN 3.0 /* a dispersion that far above 1 is warned about */

struct js_diff_opts {
	double alpha;	   /* significance level, 0 < alpha < 0.5 */
	double min_change; /* smallest relative change that counts, a fraction */
};

/* One compared quantity of a CPU pair (or one source's time lost per second). */
struct js_diff_row {
	char metric[48]; /* JSON: "gaps_per_s", "p99_ns", "task.lost_ns_per_s" */
	char label[80];	 /* text: "gaps per second", "task: time lost/s" */
	enum js_diff_unit unit;
	double a, b; /* the compared values, in unit */
	enum js_diff_verdict verdict;
	enum js_diff_test test;
	double p; /* the test's p-value, NAN when no test was made */
	/* DIFF_TEST_QUANTILE: each run's interval (ns; hi INFINITY: unbounded), and the gaps
	 * expected beyond the percentile, n x (1 - q) */
	double a_lo, a_hi, b_lo, b_hi;
	double a_beyond, b_beyond;
	/* QUANTILE and EXCEED: the gaps at least level_ns long in each run */
	int64_t level_ns;
	uint64_t a_exceed, b_exceed;
	char why[128]; /* the evidence, in words */
};

/* One source of the largest of either run, matched across the runs. */
struct js_diff_src {
	uint32_t cause;
	char a_detail[JS_DETAIL_LEN], b_detail[JS_DETAIL_LEN]; /* "" when absent */
	bool pid_changed; /* matched by its name without the pid */
	uint64_t a_gaps, b_gaps;
	/* who woke it in most of its run's listed worst gaps it is the primary cause of
	 * (diff_src_waker): "jswriter", "timer"; "" when none of them names a waker */
	char a_waker[DIFF_WAKER_LEN], b_waker[DIFF_WAKER_LEN];
	uint32_t a_woken, b_woken;   /* those gaps */
	uint32_t a_listed, b_listed; /* its listed gaps (primary cause), a waker named or not */
	bool waker_changed;	     /* both named one, and not the same */
	const char *status;	     /* "new", "gone", "grew", "shrank", "same", "uncertain" */
	struct js_diff_row row;	     /* its time lost per second (DIFF_NS_PER_S) */
};

#define JS_DIFF_ROWS_MAX (8 + 2 * JS_CAUSE_MAX)
#define JS_DIFF_SRC_MAX (2 * DIFF_TOP_SOURCES)
#define JS_DIFF_WARN_MAX 12

struct js_diff_cpu {
	const struct js_cpu_result *a, *b;
	double ta_s, tb_s;	    /* measured windows */
	struct js_diff_disp da, db; /* per-interval dispersion of each run */
	bool causes;		    /* classes and sources compared (probes on in both) */
	struct js_diff_row rows[JS_DIFF_ROWS_MAX];
	size_t nrows;
	struct js_diff_src src[JS_DIFF_SRC_MAX];
	size_t nsrc;
};

struct js_diff {
	const struct js_run *a, *b;
	const char *name_a, *name_b;
	struct js_diff_opts opts;
	char warn[JS_DIFF_WARN_MAX][256]; /* the runs are not alike: shown first */
	size_t nwarn;
	char lengths[224]; /* "" or the one line saying the lengths differ */
	bool in_order;	   /* no CPU in common: paired in the order measured */
	struct js_diff_cpu *cpus;
	size_t ncpus;
	size_t count[DIFF_NVERDICTS]; /* rows and sources per verdict */
	char first_worse[320];	      /* "" or the first worse change, as one line */
	/* the verdict of the whole comparison: worse when any change is worse (what --fail-on
	 * worse acts on), better when none is and one is better, else same; verdict_line says
	 * it with the biggest change and the new sources (diff_verdict_line) */
	enum js_diff_verdict verdict;
	char verdict_line[640];
	/* nothing to compare: the runs measured different things (a spinner's CPUs against
	 * followed threads or marks); unlike_why says what each measured, as one line */
	bool unlike;
	char unlike_why[400];
};

/* diff_compute - compare run a (name_a) with run b; 0 or -ENOMEM */
int diff_compute(struct js_diff *d, const struct js_run *a, const char *name_a,
		 const struct js_run *b, const char *name_b, const struct js_diff_opts *o);
/* diff_free - release what diff_compute allocated (accepts a zeroed struct) */
void diff_free(struct js_diff *d);

/* The rows, one kind each (unit-tested): label and metric are left to the caller. */
/* diff_rate_row - a gaps in ta_s seconds vs b in tb_s, per second; da, db: the runs'
 * dispersions (NULL: independent gaps, the exact test) */
void diff_rate_row(struct js_diff_row *r, const struct js_diff_opts *o, uint64_t a, double ta_s,
		   uint64_t b, double tb_s, const struct js_diff_disp *da,
		   const struct js_diff_disp *db);
/* diff_time_row - a_ns lost over a_gaps gaps (sum of squares qa) in ta_s vs the same of b,
 * per second (DIFF_NS_PER_S), or as a share of the window when pct (DIFF_PCT); da, db as
 * diff_rate_row's */
void diff_time_row(struct js_diff_row *r, const struct js_diff_opts *o, bool pct, double a_ns,
		   double qa, uint64_t a_gaps, double ta_s, double b_ns, double qb, uint64_t b_gaps,
		   double tb_s, const struct js_diff_disp *da, const struct js_diff_disp *db);
/* diff_dispersion - the dispersion of r's full intervals */
void diff_dispersion(const struct js_cpu_result *r, struct js_diff_disp *d);
/* diff_pct_row - the percentile pct (e.g. 99.9) of the gap histograms */
void diff_pct_row(struct js_diff_row *r, const struct js_diff_opts *o, double pct,
		  const struct js_hist *ha, double ta_s, const struct js_hist *hb, double tb_s);
/* diff_max_row - the largest gaps */
void diff_max_row(struct js_diff_row *r, const struct js_diff_opts *o, const struct js_hist *ha,
		  double ta_s, const struct js_hist *hb, double tb_s);
/* diff_sum_squares - sum over the recorded values of value^2 (median-equivalent), ns^2 */
double diff_sum_squares(const struct js_hist *h);

/* diff_src_waker - who woke source (cause, detail) in most of r's listed worst gaps whose
 * primary cause it is (ties: the one with more time in them): the waking task's name without
 * its pid ("jswriter"), or an interrupt context ("timer", "hard IRQ"), into key (len
 * DIFF_WAKER_LEN); *woken the gaps it woke it in, *listed the gaps listed of the source.
 * false (key "") when none of them names a waker */
bool diff_src_waker(const struct js_cpu_result *r, uint32_t cause, const char *detail, char *key,
		    uint32_t *woken, uint32_t *listed);

/* diff_verdict_name - "same", "better", "worse", "uncertain", "mixed" */
const char *diff_verdict_name(enum js_diff_verdict v);
/* diff_fmt_val - a value in its unit: "599.1/s", "1.340 %", "16.5 us", "2.3 ms/s" */
const char *diff_fmt_val(char *buf, size_t len, enum js_diff_unit u, double v);
/* diff_fmt_change - b against a: "+72.4 %", "-100.0 %", "from 0", "0.0 %" */
const char *diff_fmt_change(char *buf, size_t len, double a, double b);
/* diff_src_label - "task jsinject:1234", "IRQ 36 virtio1-req.0", "task bash:12 -> bash:34"
 * (a pid that changed) */
const char *diff_src_label(char *buf, size_t len, const struct js_diff_src *s);

/* diff_audit_changes - fn(A's check, B's check) for each audit check whose verdict differs
 * or that one run only has (its other side NULL) */
void diff_audit_changes(const struct js_run *a, const struct js_run *b,
			void (*fn)(void *ctx, const struct audit_check *ca,
				   const struct audit_check *cb),
			void *ctx);
/* diff_audit_nchanged - how many checks diff_audit_changes reports */
size_t diff_audit_nchanged(const struct js_run *a, const struct js_run *b);
/* diff_rules - one paragraph: what the verdicts mean, with alpha and the minimum change */
const char *diff_rules(char *buf, size_t len, const struct js_diff *d);

/* report_diff_text - the comparison for a human */
void report_diff_text(FILE *fp, const struct js_diff *d);
/* report_diff_json - the comparison as JSON (docs/JSON.md) */
void report_diff_json(FILE *fp, const struct js_diff *d);
/* report_diff_html - the comparison as one self-contained page: tables and, per CPU pair,
 * both gap histograms overlaid by primary cause (per second) */
void report_diff_html(FILE *fp, const struct js_diff *d);

#endif /* JS_DIFF_H */
