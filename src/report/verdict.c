// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verdict.c - jitterscope -- CMD's last two lines (js_report.h): how the command ended, and
 * what it lost (the answer's figures: answer.c) judged against the --budget.
 */
#include <stdio.h>
#include <string.h>

#include "js_budget.h"
#include "js_report.h"
#include "js_util.h"

const char *report_verdict_word(const struct js_budget *b, int viol)
{
	return !b->n || viol < 0 ? "unjudged" : viol ? "noisy" : "clean";
}

int report_exit_status(bool failed, int viol, enum js_end ended_by)
{
	if (failed)
		return JS_EXIT_ERROR;
	if (viol > 0)
		return JS_EXIT_VIOLATION;
	return ended_by == JS_END_ON_SPIKE ? JS_EXIT_ENDED : JS_EXIT_OK;
}

/* ended - how the command ended, and after how long */
static void ended(FILE *fp, const struct js_run *run)
{
	const struct js_cmd_info *c = &run->command;
	char t[32];

	fprintf(fp, "command: %s (pid %d) ", c->line, c->pid);
	if (c->exit_status < 0) {
		fputs("still ran when the run ended\n", fp);
		return;
	}
	js_fmt_ns(t, sizeof(t), c->exit_ns > c->start_ns ? c->exit_ns - c->start_ns : 0);
	if (c->signal)
		fprintf(fp, "killed by signal %d (%s): status %d after %s\n", c->signal,
			strsignal(c->signal), c->exit_status, t);
	else
		fprintf(fp, "exited %d after %s\n", c->exit_status, t);
}

void report_verdict(FILE *fp, const struct js_run *run, const struct js_budget *b, int viol)
{
	struct js_answer a;
	char lost[32], measured[32];

	report_answer(run, &a);
	js_fmt_ns(lost, sizeof(lost), a.lost_ns);
	js_fmt_ns(measured, sizeof(measured), a.measured_ns);
	fputc('\n', fp);
	ended(fp, run);
	fprintf(fp, "verdict: %s (lost %.2f %%: %s of %s measured; ", report_verdict_word(b, viol),
		a.measured_ns ? 100.0 * (double)a.lost_ns / (double)a.measured_ns : 0.0, lost,
		measured);
	if (!b->n) {
		fputs("no --budget)\n", fp);
		return;
	}
	fputs(viol ? "--budget " : "within --budget ", fp);
	for (size_t i = 0; i < b->n; i++)
		fprintf(fp, "%s%s", i ? "," : "", b->v[i].text);
	if (viol)
		fprintf(fp, " exceeded %d time%s", viol, viol == 1 ? "" : "s");
	fputs(")\n", fp);
}
