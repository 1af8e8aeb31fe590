// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* diff_html.c - `jitterscope diff --html FILE`: the comparison (diff.c) as one self-contained
 * page, drawn with the run page's pieces (html_page.c): facts of both runs, warnings, per
 * CPU pair the table of verdicts, both gap histograms overlaid by primary cause (gaps per
 * second, so runs of other lengths compare), the sources that changed, the audit changes. */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "js_diff.h"
#include "js_html.h"
#include "js_util.h"

/* facts - one row per fact, a column per run */
static void fact2(FILE *fp, const char *k, const char *a, const char *b)
{
	fputs("<tr><th>", fp);
	html_esc(fp, k);
	fputs("</th>", fp);
	html_td(fp, NULL, a);
	html_td(fp, NULL, b);
	fputs("</tr>\n", fp);
}

static void run_facts(const struct js_run *r, const char *name, char (*v)[192])
{
	time_t sec = (time_t)r->start_epoch_s;
	struct tm tm;
	char d[32];

	js_scpy(v[0], 192, name);
	snprintf(v[1], 192, "%s (%s)", r->machine.hostname, r->machine.cpu_model);
	js_scpy(v[2], 192, r->machine.kernel);
	v[3][0] = '\0';
	if (gmtime_r(&sec, &tm))
		strftime(v[3], 192, "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(v[4], 192, "%s%s", js_fmt_ns(d, sizeof(d), r->wall_ns),
		 r->interrupted ? " (interrupted)" : "");
	js_fmt_ns(v[5], 192, r->cfg.threshold_ns);
	js_scpy(v[6], 192, r->probes_on ? "on" : "off");
}

static void header(FILE *fp, const struct js_diff *d)
{
	static const char *const keys[] = { "file",	"host",	     "kernel", "started",
					    "duration", "threshold", "probes" };
	char a[7][192], b[7][192];

	run_facts(d->a, d->name_a, a);
	run_facts(d->b, d->name_b, b);
	fprintf(fp, "<h1>jitterscope diff</h1>\n<p id=\"verdict\" class=\"d-%s\">verdict: ",
		diff_verdict_name(d->verdict));
	html_esc(fp, d->verdict_line);
	fputs("</p>\n<table class=\"facts\"><tr><th></th><th>A</th>"
	      "<th>B</th></tr>\n",
	      fp);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		fact2(fp, keys[i], a[i], b[i]);
	fputs("</table>\n", fp);
	for (size_t i = 0; i < d->nwarn; i++) {
		fputs("<p class=\"bad\">warning: ", fp);
		html_esc(fp, d->warn[i]);
		fputs("</p>\n", fp);
	}
	if (d->lengths[0]) {
		fputs("<p class=\"note\">", fp);
		html_esc(fp, d->lengths);
		fputs("</p>\n", fp);
	}
}

/* cells - value A, value B, change, verdict, evidence */
static void cells(FILE *fp, const struct js_diff_row *r)
{
	char a[32], b[32], c[32], cls[16];

	html_td(fp, "n", diff_fmt_val(a, sizeof(a), r->unit, r->a));
	html_td(fp, "n", diff_fmt_val(b, sizeof(b), r->unit, r->b));
	html_td(fp, "n", diff_fmt_change(c, sizeof(c), r->a, r->b));
	snprintf(cls, sizeof(cls), "d-%s", diff_verdict_name(r->verdict));
	html_td(fp, cls, diff_verdict_name(r->verdict));
	html_td(fp, "note", r->why);
}

static void rows_table(FILE *fp, const struct js_diff_cpu *c)
{
	fputs("<table class=\"diff\"><tr><th></th><th>A</th><th>B</th><th>change</th>"
	      "<th>verdict</th><th>evidence</th></tr>\n",
	      fp);
	for (size_t i = 0; i < c->nrows; i++) {
		if (i && !strchr(c->rows[i - 1].metric, '.') && strchr(c->rows[i].metric, '.'))
			fputs("<tr><th colspan=\"6\">causes, per second: gaps each class appeared "
			      "in, its time lost</th></tr>\n",
			      fp);
		fputs("<tr>", fp);
		html_td(fp, NULL, c->rows[i].label);
		cells(fp, &c->rows[i]);
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

static void sources_table(FILE *fp, const struct js_diff_cpu *c)
{
	char g[64];

	if (!c->nsrc)
		return;
	fprintf(fp,
		"<h3>Sources (the %d largest of each run by time lost, per second)</h3>\n"
		"<table class=\"sources\"><tr><th>status</th><th>source</th><th>gaps A, B</th>"
		"<th>A</th><th>B</th><th>change</th><th>verdict</th><th>evidence</th></tr>\n",
		DIFF_TOP_SOURCES);
	for (size_t i = 0; i < c->nsrc; i++) {
		const struct js_diff_src *s = &c->src[i];

		fprintf(fp, "<tr class=\"c-%s\">", js_cause_name(s->cause));
		html_td(fp, NULL, s->status);
		if (s->waker_changed) {
			char l[sizeof(s->row.label) + 2 * DIFF_WAKER_LEN + 32];

			snprintf(l, sizeof(l), "%s, woken by %s -> %s", s->row.label, s->a_waker,
				 s->b_waker);
			html_td(fp, NULL, l);
		} else {
			html_td(fp, NULL, s->row.label);
		}
		snprintf(g, sizeof(g), "%" PRIu64 ", %" PRIu64, s->a_gaps, s->b_gaps);
		html_td(fp, "n", g);
		cells(fp, &s->row);
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

static void cpu_section(FILE *fp, const struct js_diff_cpu *c)
{
	char x[32], y[32], u[32], v[32];
	const struct html_series s[2] = {
		{ &c->a->cb, c->ta_s > 0 ? 1 / c->ta_s : 1, "A" },
		{ &c->b->cb, c->tb_s > 0 ? 1 / c->tb_s : 1, "B" },
	};

	char key[JS_LABEL_LEN + 16], la[JS_LABEL_LEN + 16], lb[JS_LABEL_LEN + 16];

	result_label(c->a, la, sizeof(la));
	result_label(c->b, lb, sizeof(lb));
	fprintf(fp, "<section class=\"cpu\" id=\"%s\">\n<h2>", result_key(c->a, key, sizeof(key)));
	html_esc(fp, la);
	if (strcmp(la, lb)) {
		fputs(" (A) and ", fp);
		html_esc(fp, lb);
		fputs(" (B)", fp);
	}
	fputs("</h2>\n", fp);
	fprintf(fp,
		"<p>A: %s measured, %" PRIu64 " gaps, %s lost; B: %s measured, %" PRIu64
		" gaps, %s lost</p>\n",
		js_fmt_ns(x, sizeof(x), c->a->end_ns - c->a->start_ns), c->a->gap_count,
		js_fmt_ns(u, sizeof(u), c->a->lost_ns),
		js_fmt_ns(y, sizeof(y), c->b->end_ns - c->b->start_ns), c->b->gap_count,
		js_fmt_ns(v, sizeof(v), c->b->lost_ns));
	rows_table(fp, c);
	fputs("<h3>Gap histograms by primary cause, A and B (per second)</h3>\n", fp);
	html_histogram(fp, s, 2);
	sources_table(fp, c);
	fputs("</section>\n", fp);
}

static void audit_row(void *ctx, const struct audit_check *ca, const struct audit_check *cb)
{
	FILE *fp = ctx;
	const struct audit_check *c = ca ? ca : cb;
	char cpu[16] = "-";

	if (c->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "%d", c->cpu);
	fputs("<tr>", fp);
	html_td(fp, NULL, c->id);
	html_td(fp, NULL, cpu);
	html_td(fp, NULL, ca ? audit_verdict_name(ca->verdict) : "-");
	html_td(fp, NULL, cb ? audit_verdict_name(cb->verdict) : "-");
	html_td(fp, NULL, cb ? cb->observed : ca->observed);
	fputs("</tr>\n", fp);
}

/* report_diff_html - the page */
void report_diff_html(FILE *fp, const struct js_diff *d)
{
	bool present[JS_CAUSE_MAX] = { false };
	const size_t *n = d->count;
	char title[192], rules[512];
	size_t nchanged = 0;

	for (size_t i = 0; i < d->ncpus; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			present[c] |= d->cpus[i].a->causes.by_primary[c] ||
				      d->cpus[i].b->causes.by_primary[c];
	snprintf(title, sizeof(title), "jitterscope diff: %s vs %s", d->name_a, d->name_b);
	html_begin(fp, title);
	header(fp, d);
	fprintf(fp,
		"<p><b>summary: %zu worse, %zu better, %zu uncertain, %zu mixed, %zu same"
		"</b></p>\n",
		n[DIFF_WORSE], n[DIFF_BETTER], n[DIFF_UNCERTAIN], n[DIFF_MIXED], n[DIFF_SAME]);
	fputs("<p class=\"note\">primary causes (click to hide or show):</p>\n", fp);
	html_legend(fp, present);
	for (size_t i = 0; i < d->ncpus; i++)
		cpu_section(fp, &d->cpus[i]);
	fputs("<section id=\"audit\"><h2>Isolation audit changes (A -> B)</h2>\n", fp);
	if (!d->a->audited || !d->b->audited) {
		fputs("<p class=\"note\">no audit in one of the runs</p>\n", fp);
	} else {
		nchanged = diff_audit_nchanged(d->a, d->b);
		if (!nchanged)
			fputs("<p class=\"note\">no check changed its verdict</p>\n", fp);
		else
			fputs("<table><tr><th>check</th><th>cpu</th><th>A</th><th>B</th>"
			      "<th>observed</th></tr>\n",
			      fp);
		diff_audit_changes(d->a, d->b, audit_row, fp);
		if (nchanged)
			fputs("</table>\n", fp);
	}
	fputs("</section>\n<p class=\"note\">", fp);
	html_esc(fp, diff_rules(rules, sizeof(rules), d));
	fputs("</p>\n", fp);
	html_end(fp);
}
