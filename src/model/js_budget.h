/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_budget.h - --budget SPEC: limits checked after the run, per measured CPU (a CI gate:
 * any violation means exit status 2, rtla's convention; commands.c decides that), and in a
 * run without end (--duration 0) per interval (budget_iv_*, src/model/budget_iv.c).
 *
 * SPEC is a comma-separated list of KEY=VALUE, each key at most once:
 *   max=TIME        longest gap (HdrHistogram max, as in the JSON's max_ns)
 *   pN=TIME         N-th percentile of the gap durations, 0 < N <= 100 (p99, p99.9, p99.99;
 *                   the JSON's percentile semantics)
 *   lost=PCT        share of the measured window lost to gaps, e.g. lost=0.1%
 *   lost=TIME       total time lost to gaps
 *   gaps=COUNT      number of gaps
 *   smi=COUNT       SMIs counted during the run
 *   CLASS=COUNT     gaps whose primary cause is CLASS (a cause class: task, idle, irq, timer,
 *                   ipi, vector, softirq, hrtimer, nmi, fault, work, thp, tlb, mm, steal,
 *                   unexplained)
 *   CLASS=TIME      total net time lost to CLASS (nested causes counted once, secondary
 *                   appearances included: the cause table's class total)
 * TIME is a number with its unit (js_units.h: ns, us or µs, ms, s, m, h, d), e.g. 50us,
 * 1.5ms; COUNT a non-negative integer; PCT a number from 0 to 100 followed by '%'. Spaces
 * around items are ignored. A value equal to its limit passes.
 *
 * A limit that cannot be checked counts as a violation, printed "NOT CHECKED": smi= when
 * SMIs cannot be counted, CLASS= (other than unexplained) when the probes were off; in a run
 * without end, once per measured CPU and interval, as any other violation.
 *
 * In a run without end the limits apply to each interval of --budget-interval (the values
 * of that interval alone: max and pN over its gaps, lost=PCT over its window, the counts and
 * times what it added); a violation is one limit on one CPU in one interval, counted in
 * run->budget_viol (exported: --prom, --listen). The last, partial interval is checked when
 * the run ends. SMIs are read only when sampling starts and stops (a read interrupts the
 * measured CPU): smi= sees none during the run, and the whole run's in the last interval.
 */
#ifndef JS_BUDGET_H
#define JS_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_model.h"

struct js_run;
struct js_cpu_result;
struct js_hist;

#define JS_BUDGET_MAX 32
#define JS_BUDGET_TEXT 48

enum js_budget_kind {
	JS_BUDGET_MAX_NS,     /* max=TIME */
	JS_BUDGET_PCTL_NS,    /* pN=TIME */
	JS_BUDGET_LOST_PCT,   /* lost=PCT */
	JS_BUDGET_LOST_NS,    /* lost=TIME */
	JS_BUDGET_GAPS,	      /* gaps=COUNT */
	JS_BUDGET_SMI,	      /* smi=COUNT */
	JS_BUDGET_CLASS_GAPS, /* CLASS=COUNT */
	JS_BUDGET_CLASS_NS,   /* CLASS=TIME */
};

struct js_budget_item {
	enum js_budget_kind kind;
	int cause;		   /* CLASS_*: enum js_cause */
	double pct;		   /* PCTL_NS: the percentile; LOST_PCT: the limit in % */
	uint64_t limit;		   /* ns (*_NS) or a count (GAPS, SMI, CLASS_GAPS) */
	char text[JS_BUDGET_TEXT]; /* "p99.9=5us" as given, for the report */
};

struct js_budget {
	size_t n;
	struct js_budget_item v[JS_BUDGET_MAX];
};

/*
 * budget_parse - parse SPEC into *b; 0, or -EINVAL with a one-line reason in err (empty
 * spec or item, missing '=', unknown key, bad number or unit, negative, percent over 100,
 * percentile out of (0, 100], duplicate key, too many items)
 */
int budget_parse(const char *spec, struct js_budget *b, char *err, size_t errlen);

/*
 * budget_check - check every limit on every measured CPU of run; prints one line per limit
 * per CPU to report (NULL: print nothing), e.g.
 *   "budget max=50us on CPU 1: 48.2 us  ok"
 * and returns the number of violations (EXCEEDED or NOT CHECKED lines)
 */
int budget_check(const struct js_budget *b, const struct js_run *run, FILE *report);

/*
 * budget_count - check every limit on every measured CPU of run (as budget_check does,
 * printing nothing) and add one to viol[i] for each violation of limit i: after a finite
 * run (a run without end counts per interval: budget_iv_close)
 */
void budget_count(const struct js_budget *b, const struct js_run *run, uint64_t *viol);

/* The numbers a limit is checked against on one measured CPU: its run, or an interval. */
struct js_budget_vals {
	const struct js_hist *hist; /* the gap durations (max=, pN=) */
	uint64_t window_ns;	    /* measured time (lost=PCT's whole) */
	uint64_t lost_ns, gaps, smi;
	uint64_t class_gaps[JS_CAUSE_MAX]; /* gaps per primary cause (CLASS=COUNT) */
	uint64_t class_ns[JS_CAUSE_MAX];   /* time lost per class (CLASS=TIME) */
};

/* budget_vals_of - r's numbers so far (its window to end_ns, or during the run done_ns) */
void budget_vals_of(const struct js_cpu_result *r, struct js_budget_vals *v);

/* budget_count_vals - every limit against v (one CPU of run: run says what is checkable);
 * one added to viol[i] for each violation (EXCEEDED or NOT CHECKED) of limit i */
void budget_count_vals(const struct js_budget *b, const struct js_run *run,
		       const struct js_budget_vals *v, uint64_t *viol);

/* A run without end's intervals (src/model/budget_iv.c): per result (run->cpus[i]: a sampler's,
 * a followed thread's, a CPU's marks), its numbers when the current interval started. Set
 * up before measuring; a result that appears during the run (a thread started, the first
 * mark on a CPU) gets its mark at the next budget_iv_close, from zero: all of its numbers
 * fall in the interval it appeared in. Freed after the run. */
struct js_budget_iv {
	bool on;		     /* in use (--duration 0 with --budget) */
	size_t n;		     /* results with a mark */
	struct js_budget_vals *mark; /* per CPU (run->cpus[i]), hist pointing into mark_hist */
	struct js_hist *mark_hist;
	struct js_hist *diff; /* scratch: one interval's histogram */
};

/* budget_iv_init - the first interval starts with the run (every mark zero); the results'
 * histograms are set up (their configuration is copied); 0 or -ENOMEM */
int budget_iv_init(struct js_budget_iv *iv, const struct js_run *run);

/*
 * budget_iv_close - end the current interval: every limit on every result (those that
 * appeared since the last call included) against what the run
 * recorded since the interval started (budget_count_vals; viol as there), then the next
 * interval starts from the run's numbers now. Called every --budget-interval while the run
 * goes, and once when it has ended (the last, partial interval: the CPUs' final numbers).
 */
void budget_iv_close(struct js_budget_iv *iv, const struct js_budget *b, const struct js_run *run,
		     uint64_t *viol);

/* budget_iv_free - release it (accepts a zeroed struct) */
void budget_iv_free(struct js_budget_iv *iv);

#endif /* JS_BUDGET_H */
