// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_diff.c - the comparison of two runs (diff.c) as text and as JSON. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "js_diff.h"
#include "js_json.h"
#include "js_util.h"

/* ---- text ---- */

static void run_line(FILE *fp, const char *tag, const char *name, const struct js_run *r)
{
	time_t t = (time_t)r->start_epoch_s;
	struct tm tm;
	char when[32] = "?", wall[32], thr[32];

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(fp, "  %s = %s: %s, %s, kernel %s, %s, threshold %s, probes %s\n", tag, name, when,
		r->machine.hostname, r->machine.kernel, js_fmt_ns(wall, sizeof(wall), r->wall_ns),
		js_fmt_ns(thr, sizeof(thr), r->cfg.threshold_ns), r->probes_on ? "on" : "off");
}

static void text_row(FILE *fp, const struct js_diff_row *r)
{
	char a[32], b[32], c[32];

	fprintf(fp, "  %-26s %12s %12s %10s  %-9s  %s\n", r->label,
		diff_fmt_val(a, sizeof(a), r->unit, r->a),
		diff_fmt_val(b, sizeof(b), r->unit, r->b),
		diff_fmt_change(c, sizeof(c), r->a, r->b), diff_verdict_name(r->verdict), r->why);
}

/* text_src - "new: task jsinject:6494 14.5 ms/s (351 gaps): worse, p < 1e-12" */
static void text_src(FILE *fp, const struct js_diff_src *s)
{
	const struct js_diff_row *r = &s->row;
	char a[32], b[32], c[32];
	const char *v = diff_verdict_name(r->verdict);

	fprintf(fp, "  %s: %s ", s->status, r->label);
	if (!s->a_detail[0] || !s->b_detail[0])
		fprintf(fp, "%s (%" PRIu64 " gap%s)",
			diff_fmt_val(a, sizeof(a), r->unit, s->a_detail[0] ? r->a : r->b),
			s->a_detail[0] ? s->a_gaps : s->b_gaps,
			(s->a_detail[0] ? s->a_gaps : s->b_gaps) == 1 ? "" : "s");
	else
		fprintf(fp, "%s -> %s (%s, %" PRIu64 " -> %" PRIu64 " gaps)",
			diff_fmt_val(a, sizeof(a), r->unit, r->a),
			diff_fmt_val(b, sizeof(b), r->unit, r->b),
			diff_fmt_change(c, sizeof(c), r->a, r->b), s->a_gaps, s->b_gaps);
	if (strcmp(s->status, v))
		fprintf(fp, ": %s, %s\n", v, r->why);
	else
		fprintf(fp, ": %s\n", r->why);
	if (s->waker_changed)
		fprintf(fp,
			"    woken by %s in A (%" PRIu32 " of %" PRIu32 " listed gaps), by %s in B "
			"(%" PRIu32 " of %" PRIu32 ")\n",
			s->a_waker, s->a_woken, s->a_listed, s->b_waker, s->b_woken, s->b_listed);
}

static void text_cpu(FILE *fp, const struct js_diff_cpu *c)
{
	char x[32], y[32], u[32], v[32], la[JS_LABEL_LEN + 16], lb[JS_LABEL_LEN + 16];
	bool in_causes = false;

	result_label(c->a, la, sizeof(la));
	result_label(c->b, lb, sizeof(lb));
	if (!strcmp(la, lb))
		fprintf(fp, "\n%s: ", la);
	else
		fprintf(fp, "\n%s (A) and %s (B): ", la, lb);
	fprintf(fp, "A %s, %" PRIu64 " gaps, %s lost; B %s, %" PRIu64 " gaps, %s lost\n",
		js_fmt_ns(x, sizeof(x), c->a->end_ns - c->a->start_ns), c->a->gap_count,
		js_fmt_ns(u, sizeof(u), c->a->lost_ns),
		js_fmt_ns(y, sizeof(y), c->b->end_ns - c->b->start_ns), c->b->gap_count,
		js_fmt_ns(v, sizeof(v), c->b->lost_ns));
	fprintf(fp, "  %-26s %12s %12s %10s  %-9s  %s\n", "", "A", "B", "change", "verdict",
		"evidence");
	for (size_t i = 0; i < c->nrows; i++) {
		if (!in_causes && strchr(c->rows[i].metric, '.')) {
			fprintf(fp, "  causes (per second: gaps each class appeared in, its time "
				    "lost)\n");
			in_causes = true;
		}
		text_row(fp, &c->rows[i]);
	}
	if (!c->nsrc)
		return;
	fprintf(fp, "  sources (the %d largest of each run by time lost, per second)\n",
		DIFF_TOP_SOURCES);
	for (size_t i = 0; i < c->nsrc; i++)
		text_src(fp, &c->src[i]);
}

static void only_in(FILE *fp, const char *tag, const struct js_diff *d, bool side_b)
{
	const struct js_run *r = side_b ? d->b : d->a;
	bool any = false;

	for (size_t i = 0; i < r->ncpus && !d->in_order; i++) {
		bool found = false;

		for (size_t k = 0; k < d->ncpus; k++)
			found |= (side_b ? d->cpus[k].b : d->cpus[k].a) == &r->cpus[i];
		if (found)
			continue;
		fprintf(fp, "%s%d", any ? "," : tag, r->cpus[i].cpu);
		any = true;
	}
	if (any)
		fputc('\n', fp);
}

static void text_check(void *ctx, const struct audit_check *ca, const struct audit_check *cb)
{
	FILE *fp = ctx;
	const struct audit_check *c = ca ? ca : cb;
	char cpu[16] = "";

	if (c->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu%d: ", c->cpu);
	fprintf(fp, "  %-28s %4s -> %-4s  %s%.60s\n", c->id,
		ca ? audit_verdict_name(ca->verdict) : "-",
		cb ? audit_verdict_name(cb->verdict) : "-", cpu, cb ? cb->observed : ca->observed);
}

static void text_audit(FILE *fp, const struct js_run *a, const struct js_run *b)
{
	fprintf(fp, "\nIsolation audit changes (A -> B)\n");
	if (!a->audited || !b->audited) {
		fprintf(fp, "  no audit in %s\n",
			!a->audited && !b->audited ? "either run" :
			!a->audited		   ? "A" :
						     "B");
		return;
	}
	if (!diff_audit_nchanged(a, b))
		fprintf(fp, "  no check changed its verdict\n");
	diff_audit_changes(a, b, text_check, fp);
}

/* wrap - text in lines of at most width columns, broken at spaces */
static void wrap(FILE *fp, const char *text, int width)
{
	const char *s = text;

	while (*s) {
		int n = (int)strlen(s), cut = n;

		if (n > width) {
			for (cut = width; cut > 0 && s[cut] != ' '; cut--)
				;
			cut = cut ? cut : width;
		}
		fprintf(fp, "%.*s\n", cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
}

/* report_diff_text - the comparison for a human */
void report_diff_text(FILE *fp, const struct js_diff *d)
{
	const size_t *n = d->count;
	char rules[512];

	fprintf(fp, "verdict: %s\njitterscope diff\n", d->verdict_line);
	run_line(fp, "A", d->name_a, d->a);
	run_line(fp, "B", d->name_b, d->b);
	for (size_t i = 0; i < d->nwarn; i++)
		fprintf(fp, "warning: %s\n", d->warn[i]);
	if (d->lengths[0])
		fprintf(fp, "note: %s\n", d->lengths);
	for (size_t i = 0; i < d->ncpus; i++)
		text_cpu(fp, &d->cpus[i]);
	only_in(fp, "\nCPUs measured in A only: ", d, false);
	only_in(fp, "\nCPUs measured in B only: ", d, true);
	text_audit(fp, d->a, d->b);
	diff_rules(rules, sizeof(rules), d);
	fputc('\n', fp);
	wrap(fp, rules, 90);
	fprintf(fp, "summary: %zu worse, %zu better, %zu uncertain, %zu mixed, %zu same\n",
		n[DIFF_WORSE], n[DIFF_BETTER], n[DIFF_UNCERTAIN], n[DIFF_MIXED], n[DIFF_SAME]);
}

/* ---- JSON ---- */

static void json_run(struct js_json *j, const char *key, const char *name, const struct js_run *r)
{
	json_obj_begin(j, key);
	json_str(j, "file", name);
	json_dbl(j, "start_epoch_s", r->start_epoch_s);
	json_str(j, "kernel", r->machine.kernel);
	json_str(j, "hostname", r->machine.hostname);
	json_str(j, "cpu_model", r->machine.cpu_model);
	json_u64(j, "wall_ns", r->wall_ns);
	json_u64(j, "threshold_ns", r->cfg.threshold_ns);
	json_bool(j, "probes", r->probes_on);
	json_arr_begin(j, "cpus");
	for (size_t i = 0; i < r->ncpus; i++)
		json_u64(j, NULL, (uint64_t)r->cpus[i].cpu);
	json_arr_end(j);
	json_obj_end(j);
}

static const char *unit_name(enum js_diff_unit u)
{
	static const char *const names[] = {
		[DIFF_PER_S] = "per_s", [DIFF_PCT] = "pct", [DIFF_NS] = "ns", [DIFF_NS_PER_S] = "ns_per_s"
	};

	return names[u];
}

static const char *test_name(enum js_diff_test t)
{
	static const char *const names[] = {
		[DIFF_TEST_NONE] = "none",	   [DIFF_TEST_POISSON] = "poisson",
		[DIFF_TEST_NORMAL] = "normal",	   [DIFF_TEST_WELCH] = "welch",
		[DIFF_TEST_QUANTILE] = "quantile", [DIFF_TEST_EXCEED] = "exceedance",
	};

	return names[t];
}

static void json_interval(struct js_json *j, const char *key, double lo, double hi)
{
	json_arr_begin(j, key);
	json_dbl(j, NULL, lo);
	json_dbl(j, NULL, hi); /* null: unbounded */
	json_arr_end(j);
}

static void json_row_body(struct js_json *j, const struct js_diff_row *r)
{
	json_str(j, "unit", unit_name(r->unit));
	json_dbl(j, "a", r->a);
	json_dbl(j, "b", r->b);
	json_dbl(j, "change", r->b - r->a);
	json_dbl(j, "change_pct", r->a != 0 ? 100.0 * (r->b - r->a) / r->a : NAN);
	json_str(j, "verdict", diff_verdict_name(r->verdict));
	json_str(j, "why", r->why);
	json_str(j, "test", test_name(r->test));
	json_dbl(j, "p_value", r->p);
	if (r->test == DIFF_TEST_QUANTILE) {
		json_interval(j, "a_interval_ns", r->a_lo, r->a_hi);
		json_interval(j, "b_interval_ns", r->b_lo, r->b_hi);
		json_dbl(j, "a_gaps_beyond", r->a_beyond);
		json_dbl(j, "b_gaps_beyond", r->b_beyond);
	}
	if (r->test == DIFF_TEST_QUANTILE || r->test == DIFF_TEST_EXCEED) {
		json_obj_begin(j, "exceed");
		json_i64(j, "level_ns", r->level_ns);
		json_u64(j, "a_gaps", r->a_exceed);
		json_u64(j, "b_gaps", r->b_exceed);
		json_obj_end(j);
	}
}

static void json_disp(struct js_json *j, const char *key, const struct js_diff_disp *d)
{
	bool est = d->k >= DIFF_DISP_MIN;

	json_obj_begin(j, key);
	json_u64(j, "intervals", d->k);
	json_dbl(j, "gaps", est ? d->gaps : NAN);
	json_dbl(j, "lost", est ? d->lost : NAN);
	json_bool(j, "borrowed", d->borrowed);
	json_obj_end(j);
}

static void json_cpu(struct js_json *j, const struct js_diff_cpu *c)
{
	json_obj_begin(j, NULL);
	json_u64(j, "cpu", (uint64_t)c->a->cpu);
	json_u64(j, "b_cpu", (uint64_t)c->b->cpu);
	json_u64(j, "a_duration_ns", c->a->end_ns - c->a->start_ns);
	json_u64(j, "b_duration_ns", c->b->end_ns - c->b->start_ns);
	json_u64(j, "a_gaps", c->a->gap_count);
	json_u64(j, "b_gaps", c->b->gap_count);
	json_u64(j, "a_lost_ns", c->a->lost_ns);
	json_u64(j, "b_lost_ns", c->b->lost_ns);
	json_disp(j, "a_dispersion", &c->da);
	json_disp(j, "b_dispersion", &c->db);
	json_arr_begin(j, "rows");
	for (size_t i = 0; i < c->nrows; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "metric", c->rows[i].metric);
		json_row_body(j, &c->rows[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "sources");
	for (size_t i = 0; i < c->nsrc; i++) {
		const struct js_diff_src *s = &c->src[i];

		json_obj_begin(j, NULL);
		json_str(j, "cause", js_cause_name(s->cause));
		json_str(j, "a_detail", s->a_detail[0] ? s->a_detail : NULL);
		json_str(j, "b_detail", s->b_detail[0] ? s->b_detail : NULL);
		json_str(j, "status", s->status);
		json_bool(j, "pid_changed", s->pid_changed);
		json_u64(j, "a_gaps", s->a_gaps);
		json_u64(j, "b_gaps", s->b_gaps);
		json_str(j, "a_waker", s->a_waker[0] ? s->a_waker : NULL);
		json_str(j, "b_waker", s->b_waker[0] ? s->b_waker : NULL);
		json_u64(j, "a_woken", s->a_woken);
		json_u64(j, "b_woken", s->b_woken);
		json_u64(j, "a_listed", s->a_listed);
		json_u64(j, "b_listed", s->b_listed);
		json_bool(j, "waker_changed", s->waker_changed);
		json_row_body(j, &s->row);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_only(struct js_json *j, const char *key, const struct js_diff *d, bool side_b)
{
	const struct js_run *r = side_b ? d->b : d->a;

	json_arr_begin(j, key);
	for (size_t i = 0; i < r->ncpus && !d->in_order; i++) {
		bool found = false;

		for (size_t k = 0; k < d->ncpus; k++)
			found |= (side_b ? d->cpus[k].b : d->cpus[k].a) == &r->cpus[i];
		if (!found)
			json_u64(j, NULL, (uint64_t)r->cpus[i].cpu);
	}
	json_arr_end(j);
}

static void json_check(void *ctx, const struct audit_check *ca, const struct audit_check *cb)
{
	struct js_json *j = ctx;
	const struct audit_check *c = ca ? ca : cb;

	json_obj_begin(j, NULL);
	json_str(j, "id", c->id);
	if (c->cpu >= 0)
		json_i64(j, "cpu", c->cpu);
	else
		json_null(j, "cpu");
	json_str(j, "a", ca ? audit_verdict_name(ca->verdict) : NULL);
	json_str(j, "b", cb ? audit_verdict_name(cb->verdict) : NULL);
	json_str(j, "a_observed", ca ? ca->observed : NULL);
	json_str(j, "b_observed", cb ? cb->observed : NULL);
	json_obj_end(j);
}

/* report_diff_json - the comparison as a JSON document */
void report_diff_json(FILE *fp, const struct js_diff *d)
{
	struct js_json j;

	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	json_u64(&j, "schema_version", JS_SCHEMA_VERSION);
	json_str(&j, "tool", "jitterscope");
	json_str(&j, "kind", "diff");
	json_obj_begin(&j, "settings");
	json_dbl(&j, "alpha", d->opts.alpha);
	json_dbl(&j, "min_change_pct", 100 * d->opts.min_change);
	json_dbl(&j, "floor_per_s", DIFF_FLOOR_RATE);
	json_dbl(&j, "floor_ns_per_s", DIFF_FLOOR_NS_PER_S);
	json_dbl(&j, "floor_ns", DIFF_FLOOR_NS);
	json_u64(&j, "min_gaps", DIFF_MIN_GAPS);
	json_u64(&j, "top_sources", DIFF_TOP_SOURCES);
	json_obj_end(&j);
	json_run(&j, "a", d->name_a, d->a);
	json_run(&j, "b", d->name_b, d->b);
	json_arr_begin(&j, "warnings");
	for (size_t i = 0; i < d->nwarn; i++)
		json_str(&j, NULL, d->warn[i]);
	json_arr_end(&j);
	json_str(&j, "lengths_differ", d->lengths[0] ? d->lengths : NULL);
	json_bool(&j, "cpus_in_order", d->in_order);
	json_arr_begin(&j, "cpus");
	for (size_t i = 0; i < d->ncpus; i++)
		json_cpu(&j, &d->cpus[i]);
	json_arr_end(&j);
	json_only(&j, "only_in_a", d, false);
	json_only(&j, "only_in_b", d, true);
	json_arr_begin(&j, "audit_changes");
	diff_audit_changes(d->a, d->b, json_check, &j);
	json_arr_end(&j);
	json_obj_begin(&j, "summary");
	for (int v = 0; v < DIFF_NVERDICTS; v++)
		json_u64(&j, diff_verdict_name(v), d->count[v]);
	json_str(&j, "first_worse", d->first_worse[0] ? d->first_worse : NULL);
	json_str(&j, "verdict", diff_verdict_name(d->verdict));
	json_str(&j, "verdict_line", d->verdict_line);
	json_obj_end(&j);
	json_obj_end(&j);
}
