// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * answer.c - the report's first lines (js_report.h): what the measured CPUs lost (or what the
 * application's marks took), to which causes, what of it is outside the guest, and the first
 * setting to fix: the audit's finding whose causes lost the most, from the ties the run holds
 * (audit_ties(), the "What the settings explain" branches). Pure: the text and HTML reports
 * and the JSON print it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "js_audit.h"
#include "js_causes.h"
#include "js_report.h"
#include "js_util.h"

/* fix_rank - how urgent a problem is: severity first, a failure before a warning; -1 for
 * what is no problem (pass, skip), says nothing to do (no hint), is waived, or recommends a
 * parameter the command line has already (a run an older jitterscope saved: the audit writes
 * none) */
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

/* subject - r is what the answer is about: the marks in a run with marks, else the rest */
static bool subject(const struct js_answer *ans, const struct js_cpu_result *r)
{
	return (r->source == JS_SRC_MARK) == ans->of_marks;
}

/* outside - cause c is time outside the guest: the host's steal and its other classes
 * (js_host.h), and what no guest event explains (but in a mark, whose remainder is the
 * application's own work, and not when events that held time were lost or evicted: then
 * it is not known) */
static bool outside(const struct js_answer *ans, uint32_t c)
{
	return c == JS_CAUSE_STEAL || c == JS_CAUSE_HOST_RELOAD || c == JS_CAUSE_HOST_CLOCK ||
	       c == JS_CAUSE_HOST_PERIODIC ||
	       (c == JS_CAUSE_UNEXPLAINED && !ans->of_marks &&
		ans->unknown_ns <= ans->unexplained_ns / 2);
}

/* outside_share - the share of top cause i outside the guest: the unexplained class's less
 * its time not known */
static double outside_share(const struct js_answer *ans, size_t i)
{
	if (ans->top[i].cause != JS_CAUSE_UNEXPLAINED || !ans->caused_ns)
		return ans->top[i].share;
	return (double)(ans->top[i].ns - JS_MIN(ans->unknown_ns, ans->top[i].ns)) /
	       (double)ans->caused_ns;
}

/* unknown_of - the unexplained time of r's gaps whose events were lost or evicted */
static uint64_t unknown_of(const struct js_cpu_result *r)
{
	for (uint32_t i = 0; i < r->causes.nsrc; i++)
		if (r->causes.src[i].cause == JS_CAUSE_UNEXPLAINED &&
		    !strcmp(r->causes.src[i].detail, CAUSES_UNKNOWN_DETAIL))
			return r->causes.src[i].total_ns;
	return 0;
}

/* tie_check - the check a tie names for a result on cpu: that CPU's, else the global one */
static const struct audit_check *tie_check(const struct js_audit *a, const char *id, int cpu)
{
	const struct audit_check *global = NULL;

	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *k = &a->checks[i];

		if (strcmp(k->id, id))
			continue;
		if (k->cpu == cpu)
			return k;
		if (k->cpu < 0 && !global)
			global = k;
	}
	return global;
}

/*
 * choose_fix - the finding to fix first: of the problems fix_rank() keeps, the one whose tied
 * causes took the most time over the answer's results (the more urgent of equals, then the
 * audit's order); without one, the most severe problem, recovering nothing measured
 */
static void choose_fix(const struct js_run *run, struct js_answer *ans)
{
	enum { MAXC = 64 };
	struct {
		const struct audit_check *k;
		uint64_t ns;
		uint32_t causes;
	} c[MAXC];
	size_t n = 0, best = MAXC;

	for (size_t i = 0; run->tied && i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		for (size_t t = 0; subject(ans, r) && t < r->nties; t++) {
			const struct audit_check *k =
				tie_check(&run->audit, r->ties[t].check, r->cpu);
			size_t j = 0;

			if (!k || fix_rank(&run->audit, k) < 0 || !r->ties[t].ns)
				continue;
			while (j < n && c[j].k != k)
				j++;
			if (j == n) {
				if (n == MAXC)
					continue;
				c[n].k = k;
				c[n].ns = 0;
				c[n++].causes = 0;
			}
			c[j].ns += r->ties[t].ns;
			c[j].causes |= r->ties[t].causes;
		}
	}
	for (size_t j = 0; j < n; j++) /* the first of equals, in the order found */
		if (best == MAXC || c[j].ns > c[best].ns ||
		    (c[j].ns == c[best].ns &&
		     fix_rank(&run->audit, c[j].k) > fix_rank(&run->audit, c[best].k)))
			best = j;
	if (best < MAXC) {
		ans->fix = c[best].k;
		ans->fix_ns = c[best].ns;
		ans->fix_causes = c[best].causes;
		return;
	}
	ans->fix = report_fix(&run->audit);
}

/* unexplained_period - the periodicity of the unexplained gaps of the answer's result that
 * has the most unexplained time: its headline class's (the longest tenth), as the cause
 * table's evidence line says it */
static void unexplained_period(const struct js_run *run, struct js_answer *ans)
{
	const struct js_cpu_result *most = NULL;

	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		if (subject(ans, r) && r->causes.cls[JS_CAUSE_UNEXPLAINED].total_ns &&
		    (!most || r->causes.cls[JS_CAUSE_UNEXPLAINED].total_ns >
				      most->causes.cls[JS_CAUSE_UNEXPLAINED].total_ns))
			most = r;
	}
	if (most)
		period_result(&most->period.ge[period_classes_headline(&most->period)],
			      &ans->period);
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
			ans->nmarks += r->gap_count;
			ans->marks_ns += r->lost_ns;
			ans->window_ns = JS_MAX(ans->window_ns, r->end_ns - r->start_ns);
			continue;
		}
		ans->nres++;
		ans->measured_ns += r->end_ns - r->start_ns;
		ans->lost_ns += r->lost_ns;
	}
	/* the application's marks are what it found slow: the answer is theirs when there are */
	ans->of_marks = ans->marks > 0;
	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		if (!subject(ans, r))
			continue;
		ans->caused_ns += r->causes.lost_ns;
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			by[c] += r->causes.cls[c].total_ns;
		ans->unknown_ns += unknown_of(r);
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
	unexplained_period(run, ans);
	ans->hypervisor = run->machine.hypervisor || (run->audited && run->audit.f.hypervisor);
	ans->unexplained_ns = by[JS_CAUSE_UNEXPLAINED];
	ans->unknown_ns = JS_MIN(ans->unknown_ns, ans->unexplained_ns);
	ans->unknown = !run->probes_on || !ans->unknown_ns  ? NULL :
		       run->probe_lost			    ? "events lost in the kernel" :
		       run->probe_evicted > run->probe_shed ? "events evicted before their gap" :
							      "events lost or evicted";
	ans->outside_first = ans->ntop && outside(ans, ans->top[0].cause);
	ans->audited = run->audited;
	if (run->audited)
		choose_fix(run, ans);
}

const char *report_answer_label(int i)
{
	static const char *const label[JS_ANSWER_LINES] = { "answer", "lost to", "outside",
							    "fix first" };

	return i >= 0 && i < JS_ANSWER_LINES ? label[i] : "";
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

/* what_lost - the answer's first line: the time lost, or the marks' */
static void what_lost(const struct js_run *run, const struct js_answer *ans, char *line)
{
	char w[JS_LABEL_LEN + 48], a[32], b[32];

	if (ans->of_marks)
		snprintf(line, JS_ANSWER_LINE_LEN,
			 "%" PRIu64 " mark%s lost up to %s of %s (%.1f %%): a mark's time holds "
			 "the application's own work too",
			 ans->nmarks, ans->nmarks == 1 ? "" : "s",
			 js_fmt_ns(a, sizeof(a), ans->marks_ns),
			 js_fmt_ns(b, sizeof(b), ans->window_ns),
			 ans->window_ns ? 100.0 * ans->marks_ns / ans->window_ns : 0.0);
	else
		snprintf(line, JS_ANSWER_LINE_LEN, "%s lost %s of %s measured (%.1f %%)",
			 who(run, ans, w, sizeof(w)), js_fmt_ns(a, sizeof(a), ans->lost_ns),
			 js_fmt_ns(b, sizeof(b), ans->measured_ns),
			 ans->measured_ns ? 100.0 * ans->lost_ns / ans->measured_ns : 0.0);
}

/* unexplained_note - " (every 1.0 ms, coherence 0.93; no guest event: the host)": the
 * unexplained share's period when the detector found one (js_period.h: at least 20 gaps,
 * coherence 0.3 or more and a Rayleigh test 6 sd above random times), and whose it is: not
 * known when events were lost in the kernel or evicted before their gap */
static size_t unexplained_note(const struct js_answer *ans, char *buf, size_t len)
{
	const char *guest = ans->hypervisor && !ans->of_marks ? "no guest event: the host" : NULL;
	char p[32], u[32], why[128];
	const char *host = guest;

	/* all of it in gaps whose events were lost or evicted, or only some */
	if (ans->unknown && ans->unknown_ns >= ans->unexplained_ns) {
		snprintf(why, sizeof(why), "%s: not known", ans->unknown);
		host = why;
	} else if (ans->unknown) {
		snprintf(why, sizeof(why), "%s: %s of it not known%s%s", ans->unknown,
			 js_fmt_ns(u, sizeof(u), ans->unknown_ns), guest ? "; the rest " : "",
			 guest ? guest : "");
		host = why;
	}

	if (ans->period.periodic)
		return (size_t)snprintf(buf, len, " (every %s, coherence %.2f%s%s)",
					js_fmt_ns(p, sizeof(p), ans->period.period_ns),
					ans->period.strength, host ? "; " : "", host ? host : "");
	return host ? (size_t)snprintf(buf, len, " (%s)", host) : 0;
}

/* lost_to - the top causes with their shares */
static void lost_to(const struct js_answer *ans, char *line)
{
	size_t k = 0, n = JS_ANSWER_LINE_LEN;

	if (!ans->probes_on) {
		snprintf(line, n, "not known: the probes were off");
		return;
	}
	if (!ans->ntop) {
		snprintf(line, n, "nothing: no gap above the threshold");
		return;
	}
	for (size_t i = 0; i < ans->ntop && k < n; i++) {
		k += (size_t)snprintf(line + k, n - k, "%s%s %.1f %%", i ? ", " : "",
				      js_cause_name(ans->top[i].cause), 100.0 * ans->top[i].share);
		if (ans->top[i].cause == JS_CAUSE_UNEXPLAINED && k < n)
			k += unexplained_note(ans, line + k, n - k);
	}
	if (k < n)
		snprintf(line + k, n - k, " (shares of the %s)",
			 ans->of_marks ? "time in marks" : "time lost");
}

/* outside_line - when the largest share is outside the guest: what it is, and that only the
 * host side can remove it */
static void outside_line(const struct js_answer *ans, char *line)
{
	double share = 0;
	bool steal = false;

	if (!ans->outside_first)
		return;
	for (size_t i = 0; i < ans->ntop; i++)
		if (outside(ans, ans->top[i].cause)) {
			share += outside_share(ans, i);
			steal |= ans->top[i].cause == JS_CAUSE_STEAL;
		}
	if (ans->hypervisor)
		snprintf(line, JS_ANSWER_LINE_LEN,
			 "%.1f %% of it is the host's (%s): no guest setting removes it; ask the "
			 "provider for dedicated (pinned) vCPUs or a latency-sensitive instance "
			 "type, or on your own host pin each vCPU to an isolated host CPU",
			 100.0 * share,
			 steal ? "steal, and time no guest event explains" : "no guest event");
	else
		snprintf(line, JS_ANSWER_LINE_LEN,
			 "%.1f %% of it no kernel event explains: SMIs, an SMT sibling or the "
			 "hardware; no kernel setting removes it (see the smi and smt checks, the "
			 "firmware's power settings)",
			 100.0 * share);
}

/* causes_list - "timer, hrtimer": the classes of mask */
static const char *causes_list(uint32_t mask, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int c = 0; c < JS_CAUSE_MAX && k < len; c++)
		if (mask & (1u << c))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "",
					      js_cause_name(c));
	return buf;
}

/* fix_first - the finding to fix first, what it recovers, or why there is none */
static void fix_first(const struct js_answer *ans, bool tied, char *line)
{
	char sev[8], a[32], b[32], cl[128], check[AUDIT_ID_LEN + 32];
	const struct audit_check *f = ans->fix;

	if (f)
		snprintf(check, sizeof(check), "check %s: %s %s", f->id,
			 f->verdict == AUDIT_FAIL ? "FAIL" : "WARN",
			 upper(sev, sizeof(sev), audit_severity_name(f->severity)));
	if (f && ans->fix_ns)
		snprintf(line, JS_ANSWER_LINE_LEN, "%s (%s): recovers up to %s of %s %s (%s)",
			 f->hint, check, js_fmt_ns(a, sizeof(a), ans->fix_ns),
			 js_fmt_ns(b, sizeof(b), ans->of_marks ? ans->marks_ns : ans->lost_ns),
			 ans->of_marks ? "in marks" : "lost",
			 causes_list(ans->fix_causes, cl, sizeof(cl)));
	else if (f && tied)
		snprintf(line, JS_ANSWER_LINE_LEN,
			 "no setting explains the time %s here; the audit's most severe problem: "
			 "%s (%s)",
			 ans->of_marks ? "in marks" : "lost", f->hint, check);
	else if (f) /* a run saved before the ties: the most severe, as then */
		snprintf(line, JS_ANSWER_LINE_LEN, "%s (%s)", f->hint, check);
	else if (!ans->audited)
		snprintf(line, JS_ANSWER_LINE_LEN,
			 "not known: the run holds no isolation audit (jitterscope check runs "
			 "one)");
	else if (ans->ntop)
		snprintf(line, JS_ANSWER_LINE_LEN,
			 "no setting to fix: the remaining loss is %s (%.1f %%)",
			 js_cause_name(ans->top[0].cause), 100.0 * ans->top[0].share);
	else
		snprintf(line, JS_ANSWER_LINE_LEN, "no setting to fix: the audit found none");
}

void report_answer_lines(const struct js_run *run, const struct js_answer *ans,
			 char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN])
{
	for (int i = 0; i < JS_ANSWER_LINES; i++)
		lines[i][0] = '\0';
	what_lost(run, ans, lines[0]);
	lost_to(ans, lines[1]);
	outside_line(ans, lines[2]);
	fix_first(ans, run->tied, lines[3]);
}
