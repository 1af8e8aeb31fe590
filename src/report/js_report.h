/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_report.h - formatters over struct js_run: the human report and the JSON contract. */
#ifndef JS_REPORT_H
#define JS_REPORT_H

#include <stdio.h>

#include "js_result.h"

/* report_text - the human report (stdout) */
void report_text(FILE *fp, const struct js_run *run);
/*
 * The answer the report gives first (answer.c): what the measured CPUs and followed threads
 * lost, or, in a run with --marks, what the application's marks took; the causes that took
 * most of it; what of it is outside the guest; and the first setting to fix: the audit's
 * finding whose causes lost the most (its ties, audit_ties()), never one in force already.
 */
#define JS_ANSWER_TOP 3
struct js_answer {
	size_t nres;	      /* results that lose time (CPUs, threads; not marks) */
	size_t marks;	      /* marks results: their time is not lost time */
	uint64_t measured_ns; /* the results' measured windows, summed */
	uint64_t lost_ns;     /* their gaps' time, summed */
	bool of_marks;	      /* the answer is the marks' (a run with marks) */
	uint64_t nmarks;      /* the marks counted */
	uint64_t marks_ns;    /* their time, summed */
	uint64_t window_ns;   /* the marks results' longest window */
	uint64_t caused_ns;   /* the time the cause table shares out (the attributed gaps') */
	bool probes_on;	      /* off: no causes */
	size_t ntop;
	struct {
		uint32_t cause; /* enum js_cause */
		uint64_t ns;	/* its time, over every gap it took part in */
		double share;	/* of caused_ns, 0..1: the cause table's share */
	} top[JS_ANSWER_TOP];
	struct js_period_result period; /* the unexplained gaps' (periodic: a period found) */
	bool hypervisor;		/* a guest: what no guest event explains is the host's */
	const char *unknown;		/* ... but for the gaps whose events were lost in the
					 * kernel or evicted before their gap (unknown_ns): why
					 * that is not known, else NULL */
	uint64_t unexplained_ns;	/* the unexplained class's time */
	uint64_t unknown_ns;		/* ... of it in such gaps (the "events lost or evicted"
					 * source: drain.c flags them) */
	bool outside_first;		/* the largest share is outside the guest (or kernel) */
	bool audited;			/* the run holds an audit */
	const struct audit_check *fix;	/* the first setting to fix, or NULL */
	uint64_t fix_ns;		/* the time of the causes it explains: what it recovers */
	uint32_t fix_causes;		/* which causes (a bit per enum js_cause) */
};
/* report_answer - fill ans from run (pure) */
void report_answer(const struct js_run *run, struct js_answer *ans);
/* report_fix - the audit's most severe fail/warn with a hint, fail first among equal
 * severities, the audit's order among equals; never one whose remedy is in force or waived;
 * NULL if none */
const struct audit_check *report_fix(const struct js_audit *a);
/*
 * report_answer_lines - the answer in words, for the text and the HTML report, one line
 * under each label (report_answer_label); an empty line is not printed:
 *   answer     "CPU 1 lost 253.0 ms of 500.0 ms measured (50.6 %)", or the marks' time
 *   lost to    "unexplained 76.1 % (periodic at 1.0 ms, coherence 0.93: no guest event, the
 *              host), timer 20.1 %, ... (shares of the time lost)"
 *   outside    when the largest share is outside the guest: what it is, the host-side advice
 *   fix first  the finding whose causes lost the most: its hint, check, verdict, and "recovers
 *              up to 100.2 ms of 498.5 ms lost (timer, hrtimer)"
 */
#define JS_ANSWER_LINES 4
#define JS_ANSWER_LINE_LEN 512
void report_answer_lines(const struct js_run *run, const struct js_answer *ans,
			 char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN]);
/* report_answer_label - line i's label: "answer", "lost to", "outside", "fix first" */
const char *report_answer_label(int i);

/* report_verdict - -- CMD's last lines, for a CI log: how the command ended, and the verdict
 * on what it lost, against the --budget b when one was given (b->n; viol: its violations),
 * e.g.
 *   command: ./bench (pid 4242) exited 0 after 2.10 s
 *   verdict: clean (lost 0.21 %: 4.4 ms of 2.10 s measured; within --budget lost=1%)
 * "noisy" when the budget was exceeded, "unjudged" without one (verdict.c) */
struct js_budget;
void report_verdict(FILE *fp, const struct js_run *run, const struct js_budget *b, int viol);
/* report_verdict_word - the verdict: "clean", "noisy" (viol > 0), "unjudged" (no --budget,
 * or viol < 0: the run failed before its budget was judged) */
const char *report_verdict_word(const struct js_budget *b, int viol);
/* report_exit_status - a measurement's exit status (README.md, "Exit status"): 1 when it
 * failed (the run, an output, the report), else 2 when a --budget limit was exceeded (viol >
 * 0), else 3 when the --on-spike command ended it (exit 99), else 0 (-- CMD's status then:
 * commands.c) */
int report_exit_status(bool failed, int viol, enum js_end ended_by);

/* out_json_write - the JSON document described in docs/JSON.md */
void out_json_write(FILE *fp, const struct js_run *run);

#endif /* JS_REPORT_H */
