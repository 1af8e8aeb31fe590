/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_report.h - formatters over struct js_run: the human report and the JSON contract. */
#ifndef JS_REPORT_H
#define JS_REPORT_H

#include <stdio.h>

#include "js_result.h"

/* report_text - the human report (stdout) */
void report_text(FILE *fp, const struct js_run *run);
/*
 * The answer the report gives first: what the measured CPUs (and followed threads) lost,
 * the causes that took most of it, and the first setting to fix (answer.c).
 */
#define JS_ANSWER_TOP 3
struct js_answer {
	size_t nres;	      /* results that lose time (CPUs, threads; not marks) */
	size_t marks;	      /* marks results: their time is not lost time */
	uint64_t measured_ns; /* the results' measured windows, summed */
	uint64_t lost_ns;     /* their gaps' time, summed */
	uint64_t caused_ns;   /* the time the cause table shares out (the attributed gaps') */
	bool probes_on;	      /* off: no causes */
	size_t ntop;
	struct {
		uint32_t cause; /* enum js_cause */
		uint64_t ns;	/* its time, over every gap it took part in */
		double share;	/* of caused_ns, 0..1: the cause table's share */
	} top[JS_ANSWER_TOP];
	bool audited;		       /* the run holds an audit */
	const struct audit_check *fix; /* its most severe problem with a hint, or NULL */
};
/* report_answer - fill ans from run (pure) */
void report_answer(const struct js_run *run, struct js_answer *ans);
/* report_fix - the audit's most severe fail/warn with a hint, fail first among equal
 * severities, the audit's order among equals; NULL if none */
const struct audit_check *report_fix(const struct js_audit *a);
/* report_answer_lines - the answer in words, for the text and the HTML report: what was
 * lost ("CPU 1 lost 253.0 ms of 500.0 ms measured (50.6 %)"), to what ("task 97.6 %, ..."),
 * and the first thing to fix (the check's hint, its id and verdict) */
#define JS_ANSWER_LINES 3
#define JS_ANSWER_LINE_LEN 512
void report_answer_lines(const struct js_run *run, const struct js_answer *ans,
			 char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN]);

/* report_verdict - -- CMD's last lines, for a CI log: how the command ended, and the verdict
 * on what it lost, against the --budget b when one was given (b->n; viol: its violations),
 * e.g.
 *   command: ./bench (pid 4242) exited 0 after 2.10 s
 *   verdict: clean (lost 0.21 %: 4.4 ms of 2.10 s measured; within --budget lost=1%)
 * "noisy" when the budget was exceeded, "unjudged" without one (verdict.c) */
struct js_budget;
void report_verdict(FILE *fp, const struct js_run *run, const struct js_budget *b, int viol);

/* out_json_write - the JSON document described in docs/JSON.md */
void out_json_write(FILE *fp, const struct js_run *run);

#endif /* JS_REPORT_H */
