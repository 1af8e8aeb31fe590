// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * answer.c - the report's first lines (js_report.h): what the measured CPUs lost, to which
 * causes, and the first setting to fix, from the result and the audit the run holds. Pure:
 * the text and HTML reports print it.
 */
#include <stdio.h>
#include <string.h>

#include "js_audit.h"
#include "js_report.h"
#include "js_util.h"

/* fix_rank - how urgent a problem is: severity first, a failure before a warning; -1 for
 * what is no problem (pass, skip), says nothing to do (no hint) or recommends a parameter
 * the command line has already (a run an older jitterscope saved: the audit writes none) */
static int fix_rank(const struct js_audit *a, const struct audit_check *k)
{
	char set[128];

	if ((k->verdict != AUDIT_FAIL && k->verdict != AUDIT_WARN) || !k->hint[0] || k->waived ||
	    audit_hint_recommends_set(a, k->hint, set, sizeof(set)))
		return -1;
	return (int)k->severity * 2 + (k->verdict == AUDIT_FAIL);
}

/* report_fix - the audit's most severe problem that has a hint (the first of equals, in the
 * audit's order), or NULL when it found none */
const struct audit_check *report_fix(const struct js_audit *a)
{
	const struct audit_check *best = NULL;
	int rank = -1;

	for (size_t i = 0; a && i < a->n; i++) {
		int r = fix_rank(a, &a->checks[i]);

		if (r > rank) {
			rank = r;
			best = &a->checks[i];
		}
	}
	return best;
}

void report_answer(const struct js_run *run, struct js_answer *ans)
{
	uint64_t by[JS_CAUSE_MAX] = { 0 };

	memset(ans, 0, sizeof(*ans));
	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		/* a mark's duration holds the application's own work: not time lost */
		if (r->source == JS_SRC_MARK) {
			ans->marks++;
			continue;
		}
		ans->nres++;
		ans->measured_ns += r->end_ns - r->start_ns;
		ans->lost_ns += r->lost_ns;
	}
	/* the causes of the time lost; of the time in marks when there is nothing else */
	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		if ((r->source == JS_SRC_MARK) != !ans->nres)
			continue;
		ans->caused_ns += r->causes.lost_ns;
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			by[c] += r->causes.cls[c].total_ns;
	}
	ans->probes_on = run->probes_on;
	for (size_t k = 0; run->probes_on && k < JS_ANSWER_TOP; k++) {
		int best = -1;

		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			bool taken = false;

			for (size_t t = 0; t < ans->ntop; t++)
				taken |= ans->top[t].cause == (uint32_t)c;
			if (!taken && by[c] && (best < 0 || by[c] > by[best]))
				best = c;
		}
		if (best < 0)
			break;
		ans->top[k].cause = (uint32_t)best;
		ans->top[k].ns = by[best];
		ans->top[k].share = ans->caused_ns ? (double)by[best] / (double)ans->caused_ns : 0;
		ans->ntop++;
	}
	ans->audited = run->audited;
	ans->fix = run->audited ? report_fix(&run->audit) : NULL;
}

/* who - "CPU 1", "thread app:42", or "2 CPUs together" */
static const char *who(const struct js_run *run, const struct js_answer *ans, char *buf, size_t len)
{
	if (ans->nres != 1) {
		snprintf(buf, len, "%zu CPUs and threads together", ans->nres);
		if (run_count(run, JS_SRC_SAMPLER) == ans->nres)
			snprintf(buf, len, "%zu CPUs together", ans->nres);
		return buf;
	}
	for (size_t i = 0; i < run->ncpus; i++)
		if (run->cpus[i].source != JS_SRC_MARK)
			return result_label(&run->cpus[i], buf, len);
	return buf;
}

/* upper - s in capitals, as the audit's text prints a severity ("CRIT") */
static const char *upper(char *buf, size_t len, const char *s)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		buf[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i]);
	buf[i] = '\0';
	return buf;
}

void report_answer_lines(const struct js_run *run, const struct js_answer *ans,
			 char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN])
{
	char w[JS_LABEL_LEN + 48], a[32], b[32], sev[8];
	size_t k = 0;

	if (ans->nres)
		snprintf(lines[0], JS_ANSWER_LINE_LEN, "%s lost %s of %s measured (%.1f %%)",
			 who(run, ans, w, sizeof(w)), js_fmt_ns(a, sizeof(a), ans->lost_ns),
			 js_fmt_ns(b, sizeof(b), ans->measured_ns),
			 ans->measured_ns ? 100.0 * ans->lost_ns / ans->measured_ns : 0.0);
	else
		snprintf(lines[0], JS_ANSWER_LINE_LEN,
			 "marks only: a mark's time holds the application's own work too, "
			 "not only time lost");
	if (!ans->probes_on)
		snprintf(lines[1], JS_ANSWER_LINE_LEN, "not known: the probes were off");
	else if (!ans->ntop)
		snprintf(lines[1], JS_ANSWER_LINE_LEN, "nothing: no gap above the threshold");
	for (size_t i = 0; ans->probes_on && i < ans->ntop && k < JS_ANSWER_LINE_LEN; i++)
		k += (size_t)snprintf(lines[1] + k, JS_ANSWER_LINE_LEN - k, "%s%s %.1f %%",
				      i ? ", " : "", js_cause_name(ans->top[i].cause),
				      100.0 * ans->top[i].share);
	if (ans->probes_on && ans->ntop && k < JS_ANSWER_LINE_LEN)
		snprintf(lines[1] + k, JS_ANSWER_LINE_LEN - k, " (shares of the %s)",
			 ans->nres ? "time lost" : "time in marks");
	if (ans->fix)
		snprintf(lines[2], JS_ANSWER_LINE_LEN, "%s (check %s: %s %s)", ans->fix->hint,
			 ans->fix->id, ans->fix->verdict == AUDIT_FAIL ? "FAIL" : "WARN",
			 upper(sev, sizeof(sev), audit_severity_name(ans->fix->severity)));
	else if (!ans->audited)
		snprintf(lines[2], JS_ANSWER_LINE_LEN,
			 "not known: the run holds no isolation audit (jitterscope check runs "
			 "one)");
	else if (ans->ntop)
		snprintf(lines[2], JS_ANSWER_LINE_LEN,
			 "no setting to fix: the remaining loss is %s (%.1f %%)",
			 js_cause_name(ans->top[0].cause), 100.0 * ans->top[0].share);
	else
		snprintf(lines[2], JS_ANSWER_LINE_LEN, "no setting to fix: the audit found none");
}
