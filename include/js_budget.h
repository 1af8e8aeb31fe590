/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_budget.h - --budget SPEC: limits checked after the run, per measured CPU (a CI gate:
 * any violation means exit status 2, rtla's convention; commands.c decides that).
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
 * SMIs cannot be counted, CLASS= (other than unexplained) when the probes were off.
 */
#ifndef JS_BUDGET_H
#define JS_BUDGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct js_run;

#define JS_BUDGET_MAX 32
#define JS_BUDGET_TEXT 48

enum js_budget_kind {
	JS_BUDGET_MAX_NS,       /* max=TIME */
	JS_BUDGET_PCTL_NS,      /* pN=TIME */
	JS_BUDGET_LOST_PCT,     /* lost=PCT */
	JS_BUDGET_LOST_NS,      /* lost=TIME */
	JS_BUDGET_GAPS,         /* gaps=COUNT */
	JS_BUDGET_SMI,          /* smi=COUNT */
	JS_BUDGET_CLASS_GAPS,   /* CLASS=COUNT */
	JS_BUDGET_CLASS_NS,     /* CLASS=TIME */
};

struct js_budget_item {
	enum js_budget_kind kind;
	int cause;              /* CLASS_*: enum js_cause */
	double pct;             /* PCTL_NS: the percentile; LOST_PCT: the limit in % */
	uint64_t limit;         /* ns (*_NS) or a count (GAPS, SMI, CLASS_GAPS) */
	char text[JS_BUDGET_TEXT];      /* "p99.9=5us" as given, for the report */
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
 * budget_count - check every limit on every measured CPU of run now (as budget_check does,
 * printing nothing) and add one to viol[i] for each violation of limit i: after the run,
 * and in a run without end (--duration 0) every second, against the run so far
 */
void budget_count(const struct js_budget *b, const struct js_run *run, uint64_t *viol);

#endif /* JS_BUDGET_H */
