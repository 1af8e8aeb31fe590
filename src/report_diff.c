// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_diff.c - two runs side by side: what a change fixed (see js_diff.h). */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "js_diff.h"
#include "js_json.h"
#include "js_report.h"
#include "js_util.h"

#define SIGMAS 3.0
#define NOTES_MAX 8

/* diff_verdict_name - the verdict's word */
const char *diff_verdict_name(enum js_diff_verdict v)
{
	return v == DIFF_BETTER ? "better" : v == DIFF_WORSE ? "worse" : "same";
}

static enum js_diff_verdict lower_is_better(double ra, double rb, double tol)
{
	if (fabs(rb - ra) <= tol)
		return DIFF_SAME;
	return rb < ra ? DIFF_BETTER : DIFF_WORSE;
}

/* diff_count_verdict - Poisson counts, compared as rates */
enum js_diff_verdict diff_count_verdict(double a, double ta_s, double b, double tb_s)
{
	ta_s = ta_s > 0 ? ta_s : 1;
	tb_s = tb_s > 0 ? tb_s : 1;
	return lower_is_better(a / ta_s, b / tb_s,
			       SIGMAS * sqrt(a / (ta_s * ta_s) + b / (tb_s * tb_s)));
}

/* diff_time_verdict - compound Poisson sums, compared as rates */
enum js_diff_verdict diff_time_verdict(double a, double qa, double ta_s, double b, double qb,
				       double tb_s)
{
	ta_s = ta_s > 0 ? ta_s : 1;
	tb_s = tb_s > 0 ? tb_s : 1;
	return lower_is_better(a / ta_s, b / tb_s,
			       SIGMAS * sqrt(qa / (ta_s * ta_s) + qb / (tb_s * tb_s)));
}

/* diff_hist_verdict - same within one histogram slot */
enum js_diff_verdict diff_hist_verdict(const struct js_hist *h, int64_t a, int64_t b)
{
	int64_t hi = JS_MAX(a, b);

	return lower_is_better((double)a, (double)b,
			       hi > 0 ? (double)hist_size_equivalent(h, hi) : 0.0);
}

/* diff_sum_squares - sum of squared gap durations */
double diff_sum_squares(const struct js_hist *h)
{
	double q = 0;

	for (int i = 0; h->counts && i < h->counts_len; i++) {
		double v;

		if (!h->counts[i])
			continue;
		v = (double)hist_median_equivalent(h, hist_value_from_index(h, i));
		q += (double)h->counts[i] * v * v;
	}
	return q;
}

static struct js_diff_row *row(struct js_diff_row *rows, size_t *n, const char *metric,
			       const char *label, enum js_diff_unit unit, double a, double b)
{
	struct js_diff_row *r = &rows[(*n)++];

	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->unit = unit;
	r->a = a;
	r->b = b;
	r->verdict = DIFF_SAME;
	return r;
}

static double secs(const struct js_cpu_result *r)
{
	return (double)(r->end_ns - r->start_ns) / 1e9;
}

/* cause_rows - per class seen in either run: gaps it appeared in, its time lost */
static void cause_rows(const struct js_cpu_result *a, const struct js_cpu_result *b,
		       struct js_diff_row *rows, size_t *n)
{
	for (int c = 0; c < JS_CAUSE_MAX; c++) {
		const struct js_cause_class *x = &a->causes.cls[c], *y = &b->causes.cls[c];
		char m[48], l[48];

		if (!x->gaps && !y->gaps)
			continue;
		snprintf(m, sizeof(m), "%s.gaps", js_cause_name(c));
		snprintf(l, sizeof(l), "%s: gaps", js_cause_name(c));
		row(rows, n, m, l, DIFF_COUNT, (double)x->gaps, (double)y->gaps)->verdict =
			diff_count_verdict((double)x->gaps, secs(a), (double)y->gaps, secs(b));
		snprintf(m, sizeof(m), "%s.total_ns", js_cause_name(c));
		snprintf(l, sizeof(l), "%s: time lost", js_cause_name(c));
		row(rows, n, m, l, DIFF_NS, (double)x->total_ns, (double)y->total_ns)->verdict =
			diff_time_verdict((double)x->total_ns,
					  (double)x->total_ns * (double)x->max_ns, secs(a),
					  (double)y->total_ns,
					  (double)y->total_ns * (double)y->max_ns, secs(b));
	}
}

/* diff_cpu - every row for one CPU */
size_t diff_cpu(const struct js_cpu_result *a, const struct js_cpu_result *b, bool causes,
		struct js_diff_row *rows)
{
	double ta = secs(a), tb = secs(b), ga = (double)a->gap_count, gb = (double)b->gap_count;
	enum js_diff_verdict vc = diff_count_verdict(ga, ta, gb, tb), vt;
	size_t n = 0;

	vt = diff_time_verdict((double)a->lost_ns, diff_sum_squares(&a->hist), ta,
			       (double)b->lost_ns, diff_sum_squares(&b->hist), tb);
	row(rows, &n, "gap_count", "gaps", DIFF_COUNT, ga, gb)->verdict = vc;
	row(rows, &n, "gaps_per_s", "gaps per second", DIFF_RATE, ta > 0 ? ga / ta : 0,
	    tb > 0 ? gb / tb : 0)->verdict = vc;
	row(rows, &n, "lost_ns", "time lost", DIFF_NS, (double)a->lost_ns,
	    (double)b->lost_ns)->verdict = vt;
	row(rows, &n, "lost_pct", "time lost share", DIFF_PCT, result_lost_pct(a),
	    result_lost_pct(b))->verdict = vt;
	for (size_t i = 0; i <= js_npcts; i++) {
		int64_t x = i < js_npcts ? hist_value_at_percentile(&a->hist, js_pcts[i].p) :
					   hist_max(&a->hist);
		int64_t y = i < js_npcts ? hist_value_at_percentile(&b->hist, js_pcts[i].p) :
					   hist_max(&b->hist);

		row(rows, &n, i < js_npcts ? js_pcts[i].key : "max_ns",
		    i < js_npcts ? js_pcts[i].label : "max", DIFF_NS, (double)x,
		    (double)y)->verdict = diff_hist_verdict(&a->hist, x, y);
	}
	if (causes)
		cause_rows(a, b, rows, &n);
	return n;
}

/* ---- what the two runs have in common ---- */

static const struct js_cpu_result *find_cpu(const struct js_run *run, int cpu)
{
	for (size_t i = 0; i < run->ncpus; i++)
		if (run->cpus[i].cpu == cpu)
			return &run->cpus[i];
	return NULL;
}

static bool compare_causes(const struct js_run *a, const struct js_run *b)
{
	return a->probes_on && b->probes_on;
}

/* notes - why some rows deserve caution */
static size_t notes(const struct js_run *a, const struct js_run *b, char (*out)[192])
{
	size_t n = 0;
	char x[32], y[32];

	if (a->cfg.threshold_ns != b->cfg.threshold_ns)
		snprintf(out[n++], 192, "thresholds differ (A %s, B %s): gap counts and lost time "
			 "are not comparable", js_fmt_ns(x, sizeof(x), a->cfg.threshold_ns),
			 js_fmt_ns(y, sizeof(y), b->cfg.threshold_ns));
	if (!compare_causes(a, b))
		snprintf(out[n++], 192, "probes were off in %s: causes are not compared",
			 !a->probes_on && !b->probes_on ? "both runs" : !a->probes_on ? "A" : "B");
	if (strcmp(a->machine.kernel, b->machine.kernel))
		snprintf(out[n++], 192, "kernels differ: A %.70s, B %.70s", a->machine.kernel,
			 b->machine.kernel);
	if (strcmp(a->machine.hostname, b->machine.hostname))
		snprintf(out[n++], 192, "hosts differ: A %.70s, B %.70s", a->machine.hostname,
			 b->machine.hostname);
	if (a->interrupted || b->interrupted)
		snprintf(out[n++], 192, "%s interrupted (a partial run)",
			 a->interrupted && b->interrupted ? "both runs were" :
			 a->interrupted ? "A was" : "B was");
	for (size_t i = 0; i < a->ncpus && n < NOTES_MAX; i++) {
		const struct js_cpu_result *x = &a->cpus[i], *y = find_cpu(b, x->cpu);

		if (y && (x->dropped || y->dropped))
			snprintf(out[n++], 192, "CPU %d: gaps were dropped (ring full: A %" PRIu64
				 ", B %" PRIu64 "): counts are lower bounds", x->cpu, x->dropped,
				 y->dropped);
	}
	return n;
}

/* only_in - CPUs of run x not measured in run y, as "1,3" */
static void only_in(const struct js_run *x, const struct js_run *y, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < x->ncpus && o + 1 < len; i++)
		if (!find_cpu(y, x->cpus[i].cpu))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "",
					      x->cpus[i].cpu);
}

/* audit_change - does check c of one run differ from the other's (by id and cpu)? */
static const struct audit_check *counterpart(const struct js_audit *other,
					     const struct audit_check *c)
{
	for (size_t i = 0; i < other->n; i++)
		if (other->checks[i].cpu == c->cpu && !strcmp(other->checks[i].id, c->id))
			return &other->checks[i];
	return NULL;
}

/* ---- text ---- */

static void run_line(FILE *fp, const char *tag, const char *name, const struct js_run *r)
{
	time_t t = (time_t)r->start_epoch_s;
	struct tm tm;
	char when[32] = "?", wall[32], thr[32];

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(fp, "  %s = %s: %s, %s, kernel %s, %s, threshold %s, probes %s\n", tag, name,
		when, r->machine.hostname, r->machine.kernel,
		js_fmt_ns(wall, sizeof(wall), r->wall_ns),
		js_fmt_ns(thr, sizeof(thr), r->cfg.threshold_ns), r->probes_on ? "on" : "off");
}

/* fmt_val - a value in its unit */
static const char *fmt_val(char *buf, size_t len, enum js_diff_unit u, double v)
{
	switch (u) {
	case DIFF_NS:
		return js_fmt_ns(buf, len, (uint64_t)llround(v));
	case DIFF_RATE:
		snprintf(buf, len, "%.1f/s", v);
		break;
	case DIFF_PCT:
		snprintf(buf, len, "%.3f %%", v);
		break;
	default:
		snprintf(buf, len, "%.0f", v);
	}
	return buf;
}

/* fmt_change - b - a, signed, in the unit (percentage points for shares) */
static const char *fmt_change(char *buf, size_t len, enum js_diff_unit u, double d)
{
	char t[32];

	switch (u) {
	case DIFF_NS:
		snprintf(buf, len, "%s%s", d < 0 ? "-" : d > 0 ? "+" : "",
			 js_fmt_ns(t, sizeof(t), (uint64_t)llround(fabs(d))));
		break;
	case DIFF_RATE:
		snprintf(buf, len, "%+.1f/s", d);
		break;
	case DIFF_PCT:
		snprintf(buf, len, "%+.3f pp", d);
		break;
	default:
		snprintf(buf, len, "%+.0f", d);
	}
	return buf;
}

static void print_rows(FILE *fp, const struct js_diff_row *rows, size_t n)
{
	fprintf(fp, "  %-24s %12s %12s %12s %9s  %s\n", "", "A", "B", "change", "%", "verdict");
	for (size_t i = 0; i < n; i++) {
		const struct js_diff_row *r = &rows[i];
		char a[32], b[32], c[32], pct[16] = "-";

		if (r->a != 0)
			snprintf(pct, sizeof(pct), "%+.1f%%", 100.0 * (r->b - r->a) / r->a);
		else if (r->b == 0)
			snprintf(pct, sizeof(pct), "0.0%%");
		if (i && !strchr(rows[i - 1].metric, '.') && strchr(r->metric, '.'))
			fprintf(fp, "  causes (gaps each class appeared in, its time lost)\n");
		fprintf(fp, "  %-24s %12s %12s %12s %9s  %s\n", r->label,
			fmt_val(a, sizeof(a), r->unit, r->a), fmt_val(b, sizeof(b), r->unit, r->b),
			fmt_change(c, sizeof(c), r->unit, r->b - r->a), pct,
			diff_verdict_name(r->verdict));
	}
}

static void text_audit(FILE *fp, const struct js_run *a, const struct js_run *b)
{
	size_t shown = 0;

	fprintf(fp, "\nIsolation audit changes (A -> B)\n");
	if (!a->audited || !b->audited) {
		fprintf(fp, "  no audit in %s\n", !a->audited && !b->audited ? "either run" :
			!a->audited ? "A" : "B");
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		const struct js_audit *x = pass ? &b->audit : &a->audit;
		const struct js_audit *y = pass ? &a->audit : &b->audit;

		for (size_t i = 0; i < x->n; i++) {
			const struct audit_check *c = &x->checks[i], *o = counterpart(y, c);
			const struct audit_check *ca = pass ? o : c, *cb = pass ? c : o;
			char cpu[16] = "";

			if ((o && (pass || o->verdict == c->verdict)))
				continue;
			if (c->cpu >= 0)
				snprintf(cpu, sizeof(cpu), " cpu%d", c->cpu);
			fprintf(fp, "  %-28s %4s -> %-4s  %.60s%s%.60s\n", c->id,
				ca ? audit_verdict_name(ca->verdict) : "-",
				cb ? audit_verdict_name(cb->verdict) : "-", cpu[0] ? cpu + 1 : "",
				cpu[0] ? ": " : "", cb ? cb->observed : ca->observed);
			shown++;
		}
	}
	if (!shown)
		fprintf(fp, "  no check changed its verdict\n");
}

/* report_diff_text - the comparison for a human */
size_t report_diff_text(FILE *fp, const struct js_run *a, const char *name_a,
			const struct js_run *b, const char *name_b)
{
	char nt[NOTES_MAX][192], x[32], y[32], buf[256];
	size_t nn = notes(a, b, nt), ncmp = 0;

	fprintf(fp, "jitterscope diff\n");
	run_line(fp, "A", name_a, a);
	run_line(fp, "B", name_b, b);
	for (size_t i = 0; i < nn; i++)
		fprintf(fp, "note: %s\n", nt[i]);
	for (size_t i = 0; i < a->ncpus; i++) {
		const struct js_cpu_result *ra = &a->cpus[i], *rb = find_cpu(b, ra->cpu);
		struct js_diff_row rows[JS_DIFF_ROWS_MAX];
		size_t n;

		if (!rb)
			continue;
		n = diff_cpu(ra, rb, compare_causes(a, b), rows);
		fprintf(fp, "\nCPU %d: A measured %s, B %s\n", ra->cpu,
			js_fmt_ns(x, sizeof(x), ra->end_ns - ra->start_ns),
			js_fmt_ns(y, sizeof(y), rb->end_ns - rb->start_ns));
		print_rows(fp, rows, n);
		ncmp++;
	}
	only_in(a, b, buf, sizeof(buf));
	if (buf[0])
		fprintf(fp, "\nCPUs measured in A only: %s\n", buf);
	only_in(b, a, buf, sizeof(buf));
	if (buf[0])
		fprintf(fp, "%sCPUs measured in B only: %s\n", ncmp ? "" : "\n", buf);
	text_audit(fp, a, b);
	fprintf(fp, "\nLower is better. same: within one histogram slot (percentiles, max) or "
		"within %.0f sigma\nof Poisson noise (counts and times, compared per second).\n",
		SIGMAS);
	return ncmp;
}

/* ---- JSON ---- */

static void json_run(struct js_json *j, const char *key, const char *name,
		     const struct js_run *r)
{
	json_obj_begin(j, key);
	json_str(j, "file", name);
	json_dbl(j, "start_epoch_s", r->start_epoch_s);
	json_str(j, "kernel", r->machine.kernel);
	json_str(j, "hostname", r->machine.hostname);
	json_u64(j, "wall_ns", r->wall_ns);
	json_u64(j, "threshold_ns", r->cfg.threshold_ns);
	json_bool(j, "probes", r->probes_on);
	json_obj_end(j);
}

static const char *unit_name(enum js_diff_unit u)
{
	return u == DIFF_NS ? "ns" : u == DIFF_RATE ? "per_s" : u == DIFF_PCT ? "pct" : "count";
}

static void json_val(struct js_json *j, const char *key, enum js_diff_unit u, double v)
{
	if (u == DIFF_NS || u == DIFF_COUNT)
		json_i64(j, key, (int64_t)llround(v));
	else
		json_dbl(j, key, v);
}

static void json_rows(struct js_json *j, const struct js_diff_row *rows, size_t n)
{
	json_arr_begin(j, "rows");
	for (size_t i = 0; i < n; i++) {
		const struct js_diff_row *r = &rows[i];

		json_obj_begin(j, NULL);
		json_str(j, "metric", r->metric);
		json_str(j, "unit", unit_name(r->unit));
		json_val(j, "a", r->unit, r->a);
		json_val(j, "b", r->unit, r->b);
		json_val(j, "change", r->unit, r->b - r->a);
		if (r->a != 0)
			json_dbl(j, "change_pct", 100.0 * (r->b - r->a) / r->a);
		else
			json_null(j, "change_pct");
		json_str(j, "verdict", diff_verdict_name(r->verdict));
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_only(struct js_json *j, const char *key, const struct js_run *x,
		      const struct js_run *y)
{
	json_arr_begin(j, key);
	for (size_t i = 0; i < x->ncpus; i++)
		if (!find_cpu(y, x->cpus[i].cpu))
			json_u64(j, NULL, (uint64_t)x->cpus[i].cpu);
	json_arr_end(j);
}

static void json_check(struct js_json *j, const struct audit_check *ca,
		       const struct audit_check *cb)
{
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

static void json_audit(struct js_json *j, const struct js_run *a, const struct js_run *b)
{
	json_arr_begin(j, "audit_changes");
	for (int pass = 0; pass < 2 && a->audited && b->audited; pass++) {
		const struct js_audit *x = pass ? &b->audit : &a->audit;
		const struct js_audit *y = pass ? &a->audit : &b->audit;

		for (size_t i = 0; i < x->n; i++) {
			const struct audit_check *c = &x->checks[i], *o = counterpart(y, c);

			if (o && (pass || o->verdict == c->verdict))
				continue;
			json_check(j, pass ? o : c, pass ? c : o);
		}
	}
	json_arr_end(j);
}

/* report_diff_json - the comparison as a JSON document */
size_t report_diff_json(FILE *fp, const struct js_run *a, const char *name_a,
			const struct js_run *b, const char *name_b)
{
	char nt[NOTES_MAX][192];
	size_t nn = notes(a, b, nt), ncmp = 0;
	struct js_json j;

	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	json_u64(&j, "schema_version", JS_SCHEMA_VERSION);
	json_str(&j, "tool", "jitterscope");
	json_str(&j, "kind", "diff");
	json_run(&j, "a", name_a, a);
	json_run(&j, "b", name_b, b);
	json_arr_begin(&j, "notes");
	for (size_t i = 0; i < nn; i++)
		json_str(&j, NULL, nt[i]);
	json_arr_end(&j);
	json_arr_begin(&j, "cpus");
	for (size_t i = 0; i < a->ncpus; i++) {
		const struct js_cpu_result *ra = &a->cpus[i], *rb = find_cpu(b, ra->cpu);
		struct js_diff_row rows[JS_DIFF_ROWS_MAX];

		if (!rb)
			continue;
		json_obj_begin(&j, NULL);
		json_u64(&j, "cpu", (uint64_t)ra->cpu);
		json_u64(&j, "a_duration_ns", ra->end_ns - ra->start_ns);
		json_u64(&j, "b_duration_ns", rb->end_ns - rb->start_ns);
		json_rows(&j, rows, diff_cpu(ra, rb, compare_causes(a, b), rows));
		json_obj_end(&j);
		ncmp++;
	}
	json_arr_end(&j);
	json_only(&j, "only_in_a", a, b);
	json_only(&j, "only_in_b", b, a);
	json_audit(&j, a, b);
	json_obj_end(&j);
	return ncmp;
}
