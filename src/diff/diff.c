// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* diff.c - two runs compared once, rendered by report_diff.c and diff_html.c: the rules
 * and tests behind each verdict are in js_diff.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "js_diff.h"
#include "js_report.h"
#include "js_stats.h"
#include "js_util.h"
#include "js_waker.h"

/* diff_verdict_name - the verdict's word */
const char *diff_verdict_name(enum js_diff_verdict v)
{
	static const char *const names[DIFF_NVERDICTS] = {
		[DIFF_SAME] = "same",		[DIFF_BETTER] = "better", [DIFF_WORSE] = "worse",
		[DIFF_UNCERTAIN] = "uncertain", [DIFF_MIXED] = "mixed",
	};

	return v < DIFF_NVERDICTS ? names[v] : "?";
}

/* ---- formatting, shared by every rendering ---- */

/* diff_fmt_val - a value in its unit */
const char *diff_fmt_val(char *buf, size_t len, enum js_diff_unit u, double v)
{
	char t[32];

	switch (u) {
	case DIFF_NS:
		return js_fmt_ns(buf, len, (uint64_t)llround(fmax(v, 0)));
	case DIFF_NS_PER_S:
		snprintf(buf, len, "%s/s", js_fmt_ns(t, sizeof(t), (uint64_t)llround(fmax(v, 0))));
		break;
	case DIFF_PCT:
		snprintf(buf, len, "%.3f %%", v);
		break;
	default:
		snprintf(buf, len,
			 v >= 1000 ? "%.0f/s" :
			 v >= 10   ? "%.1f/s" :
			 v >= 0.1  ? "%.2f/s" :
				     "%.3f/s",
			 v);
	}
	return buf;
}

/* diff_fmt_change - relative change of b against a */
const char *diff_fmt_change(char *buf, size_t len, double a, double b)
{
	if (a == b)
		snprintf(buf, len, "0.0 %%");
	else if (a == 0)
		snprintf(buf, len, "from 0");
	else
		snprintf(buf, len, "%+.1f %%", 100.0 * (b - a) / a);
	return buf;
}

static const char *fmt_p(char *buf, size_t len, double p)
{
	if (p < 1e-12)
		snprintf(buf, len, "p < 1e-12");
	else if (p < 0.001)
		snprintf(buf, len, "p = %.1e", p);
	else
		snprintf(buf, len, "p = %.2g", p);
	return buf;
}

/* fmt_interval - "140.0 us..150.0 us", ">= 140.0 us" when unbounded above */
static const char *fmt_interval(char *buf, size_t len, double lo, double hi)
{
	char l[32], h[32];

	js_fmt_ns(l, sizeof(l), (uint64_t)lo);
	if (isinf(hi))
		snprintf(buf, len, ">= %s", l);
	else
		snprintf(buf, len, "%s..%s", l, js_fmt_ns(h, sizeof(h), (uint64_t)hi));
	return buf;
}

/* ---- the verdicts ---- */

/* relative - the change at least min_change of A, as diff_fmt_change shows it ("-9.5 %" is
 * below 10 % whichever way round), with a hair of slack so that 1000 -> 1100 is 10 % in
 * floating point too; any change from 0 ("from 0") is large enough */
static bool relative(double a, double b, const struct js_diff_opts *o)
{
	return fabs(b - a) >= fabs(a) * o->min_change * (1 - 1e-12);
}

/* practical - is the change large enough to matter: relatively and above the floor */
static bool practical(double a, double b, double floor, const struct js_diff_opts *o)
{
	return a != b && fabs(b - a) >= floor && relative(a, b, o);
}

static enum js_diff_verdict direction(double a, double b)
{
	return b < a ? DIFF_BETTER : DIFF_WORSE;
}

/* small_change - the verdict same, saying why */
static void small_change(struct js_diff_row *r, const struct js_diff_opts *o, double floor)
{
	char f[40];

	r->verdict = DIFF_SAME;
	if (r->a == r->b)
		snprintf(r->why, sizeof(r->why), "no change");
	else if (relative(r->a, r->b, o))
		/* large enough relatively, not absolutely; a share's floor reads as time/s */
		snprintf(r->why, sizeof(r->why), "change below %s",
			 r->unit == DIFF_PCT ?
				 diff_fmt_val(f, sizeof(f), DIFF_NS_PER_S, floor * 1e7) :
				 diff_fmt_val(f, sizeof(f), r->unit, floor));
	else
		snprintf(r->why, sizeof(r->why), "change below %g %%", 100 * o->min_change);
}

/* judge - a row with a p-value: same, better/worse, or uncertain */
static void judge(struct js_diff_row *r, const struct js_diff_opts *o, double floor)
{
	char p[32];

	if (!practical(r->a, r->b, floor, o)) {
		small_change(r, o, floor);
	} else if (r->p < o->alpha) {
		r->verdict = direction(r->a, r->b);
		snprintf(r->why, sizeof(r->why), "%s", fmt_p(p, sizeof(p), r->p));
	} else {
		r->verdict = DIFF_UNCERTAIN;
		snprintf(r->why, sizeof(r->why), "%s: could be chance", fmt_p(p, sizeof(p), r->p));
	}
}

static void row_init(struct js_diff_row *r, enum js_diff_unit u, enum js_diff_test t)
{
	memset(r, 0, sizeof(*r));
	r->unit = u;
	r->test = t;
	r->p = NAN;
	r->a_lo = r->b_lo = 0;
	r->a_hi = r->b_hi = NAN;
	r->a_beyond = r->b_beyond = NAN;
}

/* scaled - variance and degrees of freedom of one run's per-second rate: the model's var,
 * times the run's dispersion factor when it was estimated above 1 (df k - 1), else the
 * model's own (df infinite) */
static bool scaled(double var, double factor, const struct js_diff_disp *d, double *v, double *df)
{
	bool est = d && d->k >= DIFF_DISP_MIN && factor > 1;

	*v = est ? var * factor : var;
	*df = est ? (double)(d->k - 1) : INFINITY;
	return est;
}

/* welch_p - two-sided p of a difference d with variances va, vb (Welch-Satterthwaite df) */
static double welch_p(double d, double va, double dfa, double vb, double dfb)
{
	double v = va + vb, den = 0;

	if (!(v > 0))
		return d == 0 ? 1 : 0;
	if (isfinite(dfa) && va > 0)
		den += va * va / dfa;
	if (isfinite(dfb) && vb > 0)
		den += vb * vb / dfb;
	return stats_t_p(d / sqrt(v), den > 0 ? v * v / den : INFINITY);
}

/* noisy - say in why how noisy the runs were */
static void noisy(struct js_diff_row *r, double fa, double fb)
{
	size_t n = strlen(r->why);

	if (r->test == DIFF_TEST_WELCH && n < sizeof(r->why))
		snprintf(r->why + n, sizeof(r->why) - n, " (noise %.0fx Poisson)", fmax(fa, fb));
}

/* diff_rate_row - counts compared per second: exact test, or Welch's on noisy runs */
void diff_rate_row(struct js_diff_row *r, const struct js_diff_opts *o, uint64_t a, double ta_s,
		   uint64_t b, double tb_s, const struct js_diff_disp *da,
		   const struct js_diff_disp *db)
{
	double va, vb, dfa, dfb, fa = da ? da->gaps : 1, fb = db ? db->gaps : 1;
	bool ea, eb;

	row_init(r, DIFF_PER_S, DIFF_TEST_POISSON);
	r->a = ta_s > 0 ? (double)a / ta_s : 0;
	r->b = tb_s > 0 ? (double)b / tb_s : 0;
	ea = scaled(ta_s > 0 ? (double)a / (ta_s * ta_s) : 0, fa, da, &va, &dfa);
	eb = scaled(tb_s > 0 ? (double)b / (tb_s * tb_s) : 0, fb, db, &vb, &dfb);
	if (ea || eb) {
		r->test = DIFF_TEST_WELCH;
		r->p = welch_p(r->b - r->a, va, dfa, vb, dfb);
	} else {
		r->p = stats_rate_test(a, ta_s, b, tb_s);
	}
	judge(r, o, DIFF_FLOOR_RATE);
	if (r->verdict != DIFF_SAME)
		noisy(r, fa, fb);
}

/* diff_time_row - compound Poisson sums compared per second, normal test (Welch's t on
 * noisy runs) */
void diff_time_row(struct js_diff_row *r, const struct js_diff_opts *o, bool pct, double a_ns,
		   double qa, uint64_t a_gaps, double ta_s, double b_ns, double qb, uint64_t b_gaps,
		   double tb_s, const struct js_diff_disp *da, const struct js_diff_disp *db)
{
	double ra, rb, va, vb, dfa, dfb, scale = pct ? 1e-7 : 1; /* ns/s -> % of the window */
	double fa = da ? da->lost : 1, fb = db ? db->lost : 1;
	bool ea, eb;

	row_init(r, pct ? DIFF_PCT : DIFF_NS_PER_S, DIFF_TEST_NORMAL);
	ta_s = ta_s > 0 ? ta_s : 1;
	tb_s = tb_s > 0 ? tb_s : 1;
	ra = a_ns / ta_s;
	rb = b_ns / tb_s;
	ea = scaled(qa / (ta_s * ta_s), fa, da, &va, &dfa);
	eb = scaled(qb / (tb_s * tb_s), fb, db, &vb, &dfb);
	if (ea || eb)
		r->test = DIFF_TEST_WELCH;
	r->a = ra * scale;
	r->b = rb * scale;
	r->p = welch_p(rb - ra, va, dfa, vb, dfb);
	judge(r, o, DIFF_FLOOR_NS_PER_S * scale);
	if (r->verdict != DIFF_SAME && a_gaps + b_gaps < DIFF_MIN_GAPS) {
		r->verdict = DIFF_UNCERTAIN;
		snprintf(r->why, sizeof(r->why), "rests on %" PRIu64 " gap%s", a_gaps + b_gaps,
			 a_gaps + b_gaps == 1 ? "" : "s");
	} else if (r->verdict != DIFF_SAME) {
		noisy(r, fa, fb);
	}
}

/* diff_dispersion - sample variance over the full intervals against the variance of
 * independent gaps at the run's rates: count var = mean count; time var = L x Q / T */
void diff_dispersion(const struct js_cpu_result *r, struct js_diff_disp *d)
{
	const struct js_intervals *iv = &r->intervals;
	double sx = 0, sxx = 0, sy = 0, syy = 0, k, mx, vx, vy, t, q, ey;

	memset(d, 0, sizeof(*d));
	d->gaps = d->lost = 1;
	for (size_t i = 0; i < iv->n; i++) {
		const struct js_interval_stats *e = &iv->v[i];

		if (e->start_ns + iv->len_ns > r->end_ns)
			continue; /* the last one, cut short by the run's end */
		sx += (double)e->gaps;
		sxx += (double)e->gaps * (double)e->gaps;
		sy += (double)e->lost_ns;
		syy += (double)e->lost_ns * (double)e->lost_ns;
		d->k++;
	}
	if (d->k < DIFF_DISP_MIN)
		return;
	k = d->k;
	mx = sx / k;
	vx = (sxx - sx * sx / k) / (k - 1);
	vy = (syy - sy * sy / k) / (k - 1);
	t = (double)(r->end_ns - r->start_ns);
	q = diff_sum_squares(&r->hist);
	ey = t > 0 ? q * (double)iv->len_ns / t : 0;
	d->gaps = mx > 0 ? fmax(vx, 0) / mx : 1;
	d->lost = ey > 0 ? fmax(vy, 0) / ey : 1;
}

/* exceed - the gaps at least level long in each run, and the rate test of them */
static void exceed(struct js_diff_row *r, int64_t level, const struct js_hist *ha, double ta_s,
		   const struct js_hist *hb, double tb_s)
{
	int64_t lo = hist_lowest_equivalent(ha, level);

	r->level_ns = lo;
	r->a_exceed = hist_count_between(ha, lo, INT64_MAX);
	r->b_exceed = hist_count_between(hb, lo, INT64_MAX);
	r->p = stats_rate_test(r->a_exceed, ta_s, r->b_exceed, tb_s);
}

/* exceed_dir - which way the rate of gaps >= level moved (DIFF_SAME: not significantly) */
static enum js_diff_verdict exceed_dir(const struct js_diff_row *r, double ta_s, double tb_s,
				       const struct js_diff_opts *o)
{
	double ra = ta_s > 0 ? r->a_exceed / ta_s : 0, rb = tb_s > 0 ? r->b_exceed / tb_s : 0;

	if (!(r->p < o->alpha) || ra == rb)
		return DIFF_SAME;
	return direction(ra, rb);
}

/* exceed_why - "gaps >= 143.1 us: 7.0/s -> 94.0/s", the level as the table shows it (the
 * count starts at the level's histogram slot) */
static int exceed_why(char *buf, size_t len, const struct js_diff_row *r, double level, double ta_s,
		      double tb_s)
{
	char l[32], x[32], y[32];

	return snprintf(buf, len, "gaps >= %s: %s -> %s",
			diff_fmt_val(l, sizeof(l), DIFF_NS, level),
			diff_fmt_val(x, sizeof(x), DIFF_PER_S, ta_s > 0 ? r->a_exceed / ta_s : 0),
			diff_fmt_val(y, sizeof(y), DIFF_PER_S, tb_s > 0 ? r->b_exceed / tb_s : 0));
}

/* interval - the run's order-statistic interval of its q-quantile; false when its gaps
 * cannot bound it (lo 0 or hi INFINITY) */
static bool interval(const struct js_hist *h, double q, double alpha, double *lo, double *hi)
{
	uint64_t l, u;

	stats_quantile_ranks(h->total, q, alpha, &l, &u);
	*lo = l ? (double)hist_lowest_equivalent(h, hist_value_at_rank(h, l)) : 0;
	*hi = u <= h->total ? (double)hist_highest_equivalent(h, hist_value_at_rank(h, u)) :
			      INFINITY;
	return l && u <= h->total;
}

/* diff_pct_row - intervals, then the rate of gaps at least as long as the higher value:
 * a percentile that rose because short gaps went away (or fell because short gaps were
 * added) leaves that rate unchanged, or moves it the other way */
void diff_pct_row(struct js_diff_row *r, const struct js_diff_opts *o, double pct,
		  const struct js_hist *ha, double ta_s, const struct js_hist *hb, double tb_s)
{
	double q = pct / 100;
	bool up, down, bounded;
	enum js_diff_verdict ex;
	char ia[48], ib[48], p[32];
	int n;

	row_init(r, DIFF_NS, DIFF_TEST_QUANTILE);
	r->a = (double)hist_value_at_percentile(ha, pct);
	r->b = (double)hist_value_at_percentile(hb, pct);
	bounded = interval(ha, q, o->alpha, &r->a_lo, &r->a_hi);
	bounded &= interval(hb, q, o->alpha, &r->b_lo, &r->b_hi);
	r->a_beyond = (double)ha->total * (1 - q);
	r->b_beyond = (double)hb->total * (1 - q);
	exceed(r, (int64_t)fmax(r->a, r->b), ha, ta_s, hb, tb_s);
	fmt_interval(ia, sizeof(ia), r->a_lo, r->a_hi);
	fmt_interval(ib, sizeof(ib), r->b_lo, r->b_hi);
	up = r->b > r->a && r->b_lo > r->a_hi;
	down = r->b < r->a && r->b_hi < r->a_lo;
	if ((up || down) && practical(r->a, r->b, DIFF_FLOOR_NS, o)) {
		ex = exceed_dir(r, ta_s, tb_s, o);
		if (ex == direction(r->a, r->b)) {
			r->verdict = ex;
			snprintf(r->why, sizeof(r->why), "intervals A %s, B %s", ia, ib);
			return;
		}
		r->verdict = ex == DIFF_SAME ? DIFF_UNCERTAIN : DIFF_MIXED;
		n = snprintf(r->why, sizeof(r->why), "%s, but ", up ? "longer" : "shorter");
		if (n > 0 && (size_t)n < sizeof(r->why))
			n += exceed_why(r->why + n, sizeof(r->why) - n, r, fmax(r->a, r->b), ta_s,
					tb_s);
		if (ex == DIFF_SAME && n > 0 && (size_t)n < sizeof(r->why))
			snprintf(r->why + n, sizeof(r->why) - n, ", %s", fmt_p(p, sizeof(p), r->p));
		return;
	}
	if (!up && !down && !bounded && r->a != r->b) {
		r->verdict = DIFF_UNCERTAIN;
		snprintf(r->why, sizeof(r->why),
			 "too few gaps to bound it: A %" PRIu64 ", B %" PRIu64 " gaps in all",
			 ha->total, hb->total);
		return;
	}
	if (!practical(r->a, r->b, DIFF_FLOOR_NS, o)) {
		small_change(r, o, DIFF_FLOOR_NS);
		return;
	}
	r->verdict = DIFF_UNCERTAIN;
	snprintf(r->why, sizeof(r->why), "intervals overlap: A %s, B %s", ia, ib);
}

/* diff_max_row - the maxima, through the rate of gaps at least as long as the smaller */
void diff_max_row(struct js_diff_row *r, const struct js_diff_opts *o, const struct js_hist *ha,
		  double ta_s, const struct js_hist *hb, double tb_s)
{
	enum js_diff_verdict ex;
	char p[32];
	int n;

	row_init(r, DIFF_NS, DIFF_TEST_EXCEED);
	r->a = (double)hist_max(ha);
	r->b = (double)hist_max(hb);
	exceed(r, (int64_t)fmin(r->a, r->b), ha, ta_s, hb, tb_s);
	if (!practical(r->a, r->b, DIFF_FLOOR_NS, o)) {
		small_change(r, o, DIFF_FLOOR_NS);
		return;
	}
	ex = exceed_dir(r, ta_s, tb_s, o);
	r->verdict = ex == direction(r->a, r->b) ? ex :
		     ex == DIFF_SAME		 ? DIFF_UNCERTAIN :
						   DIFF_MIXED;
	n = exceed_why(r->why, sizeof(r->why), r, fmin(r->a, r->b), ta_s, tb_s);
	if (n > 0 && (size_t)n < sizeof(r->why))
		snprintf(r->why + n, sizeof(r->why) - n, ", %s", fmt_p(p, sizeof(p), r->p));
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

/* ---- the rows of one CPU pair ---- */

static struct js_diff_row *named(struct js_diff_cpu *c, const char *metric, const char *label)
{
	struct js_diff_row *r = &c->rows[c->nrows - 1];

	js_scpy(r->metric, sizeof(r->metric), metric);
	js_scpy(r->label, sizeof(r->label), label);
	return r;
}

/* no_loss - a class that took no time in either run (a TLB flush inside another's gap) is
 * no worse for being counted more often: same */
static void no_loss(struct js_diff_row *r)
{
	if (r->verdict == DIFF_SAME)
		return;
	r->verdict = DIFF_SAME;
	snprintf(r->why, sizeof(r->why), "no time lost in either run");
}

/* same_as - the row r shows the numbers of the totals' row t (its gaps or its time are every
 * gap's): one test for both, t's, so the same numbers never get two verdicts */
static void same_as(struct js_diff_row *r, const struct js_diff_row *t)
{
	r->test = t->test;
	r->p = t->p;
	r->verdict = t->verdict;
	js_scpy(r->why, sizeof(r->why), t->why);
}

/*
 * cause_rows - per class its gaps and time per second. A class in every gap of both runs
 * shows the numbers of "gaps per second", a class that holds all their time those of "time
 * lost share": it takes that row's test and verdict (the totals' test allows for gaps in
 * bursts). A class that took no time in either run is never worse.
 */
static void cause_rows(struct js_diff_cpu *c, const struct js_diff_opts *o)
{
	const struct js_diff_row *gaps = &c->rows[0], *lost = &c->rows[1];

	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		const struct js_cause_class *x = &c->a->causes.cls[k], *y = &c->b->causes.cls[k];
		const char *cn = js_cause_name(k);
		struct js_diff_row *r;
		char m[48], l[48];

		if (!x->gaps && !y->gaps)
			continue;
		r = &c->rows[c->nrows++];
		diff_rate_row(r, o, x->gaps, c->ta_s, y->gaps, c->tb_s, NULL, NULL);
		if (x->gaps == c->a->gap_count && y->gaps == c->b->gap_count)
			same_as(r, gaps);
		if (!x->total_ns && !y->total_ns)
			no_loss(r);
		snprintf(m, sizeof(m), "%s.gaps_per_s", cn);
		snprintf(l, sizeof(l), "%s: gaps/s", cn);
		named(c, m, l);
		r = &c->rows[c->nrows++];
		diff_time_row(r, o, false, (double)x->total_ns,
			      (double)x->total_ns * (double)x->max_ns, x->gaps, c->ta_s,
			      (double)y->total_ns, (double)y->total_ns * (double)y->max_ns, y->gaps,
			      c->tb_s, NULL, NULL);
		if (x->total_ns == c->a->lost_ns && y->total_ns == c->b->lost_ns)
			same_as(r, lost);
		snprintf(m, sizeof(m), "%s.lost_ns_per_s", cn);
		snprintf(l, sizeof(l), "%s: time lost/s", cn);
		named(c, m, l);
	}
}

static void cpu_rows(struct js_diff_cpu *c, const struct js_diff_opts *o)
{
	const struct js_cpu_result *a = c->a, *b = c->b;

	diff_rate_row(&c->rows[c->nrows++], o, a->gap_count, c->ta_s, b->gap_count, c->tb_s, &c->da,
		      &c->db);
	named(c, "gaps_per_s", "gaps per second");
	diff_time_row(&c->rows[c->nrows++], o, true, (double)a->lost_ns, diff_sum_squares(&a->hist),
		      a->gap_count, c->ta_s, (double)b->lost_ns, diff_sum_squares(&b->hist),
		      b->gap_count, c->tb_s, &c->da, &c->db);
	named(c, "lost_pct", "time lost share");
	for (size_t i = 0; i < js_npcts; i++) {
		diff_pct_row(&c->rows[c->nrows++], o, js_pcts[i].p, &a->hist, c->ta_s, &b->hist,
			     c->tb_s);
		named(c, js_pcts[i].key, js_pcts[i].label);
	}
	diff_max_row(&c->rows[c->nrows++], o, &a->hist, c->ta_s, &b->hist, c->tb_s);
	named(c, "max_ns", "max");
	if (c->causes)
		cause_rows(c, o);
}

/* ---- sources: the largest of each run, matched across the runs ---- */

/* find_exact - the source of table t with the same class and detail */
static const struct js_cause_src *find_exact(const struct js_causes *t,
					     const struct js_cause_src *s)
{
	for (uint32_t i = 0; i < t->nsrc; i++)
		if (t->src[i].cause == s->cause && !strcmp(t->src[i].detail, s->detail))
			return &t->src[i];
	return NULL;
}

static bool src_used(const struct js_diff_cpu *c, const struct js_cause_src *s, bool side_b)
{
	for (size_t i = 0; i < c->nsrc; i++) {
		const struct js_diff_src *d = &c->src[i];
		const char *det = side_b ? d->b_detail : d->a_detail;

		if (d->cause == s->cause && !strcmp(det, s->detail))
			return true;
	}
	return false;
}

/* find_by_key - the largest source of table t (sorted) with the same class and name
 * without pids, which has no exact counterpart in its own other table and is not used */
static const struct js_cause_src *find_by_key(const struct js_diff_cpu *c,
					      const struct js_cause_src *const *sorted, size_t n,
					      const struct js_causes *mine,
					      const struct js_cause_src *s, bool side_b)
{
	char k[JS_DETAIL_LEN], kk[JS_DETAIL_LEN];

	js_source_key(s->cause, s->detail, k, sizeof(k));
	for (size_t i = 0; i < n; i++) {
		const struct js_cause_src *t = sorted[i];

		if (t->cause != s->cause || find_exact(mine, t) || src_used(c, t, side_b))
			continue;
		js_source_key(t->cause, t->detail, kk, sizeof(kk));
		if (!strcmp(k, kk))
			return t;
	}
	return NULL;
}

#define WAKERS_MAX 16 /* distinct wakers told apart per source */

bool diff_src_waker(const struct js_cpu_result *r, uint32_t cause, const char *detail, char *key,
		    uint32_t *woken, uint32_t *listed)
{
	struct {
		char key[DIFF_WAKER_LEN];
		uint32_t n;
		uint64_t ns;
	} w[WAKERS_MAX];
	size_t nw = 0, best = 0;
	char who[48], k2[48];

	*woken = *listed = 0;
	key[0] = '\0';
	for (size_t i = 0; i < r->top.n; i++) {
		const struct js_gap_rec *g = topn_at(&r->top, i);
		size_t k;

		if (g->attr.primary != cause || strcmp(g->attr.detail, detail))
			continue;
		(*listed)++;
		if (!g->attr.waker.ctx)
			continue;
		js_waker_who(who, sizeof(who), &g->attr.waker);
		js_source_key(JS_CAUSE_TASK, who, k2, sizeof(k2)); /* "jswriter:811": no pid */
		for (k = 0; k < nw && strcmp(w[k].key, k2); k++)
			;
		if (k == nw) {
			if (nw == WAKERS_MAX)
				continue;
			js_scpy(w[nw].key, sizeof(w[nw].key), k2);
			w[nw].n = 0;
			w[nw++].ns = 0;
		}
		w[k].n++;
		w[k].ns += g->gap.dur_ns;
	}
	if (!nw)
		return false;
	for (size_t k = 1; k < nw; k++)
		if (w[k].n > w[best].n || (w[k].n == w[best].n && w[k].ns > w[best].ns))
			best = k;
	js_scpy(key, DIFF_WAKER_LEN, w[best].key);
	*woken = w[best].n;
	return true;
}

/* src_wakers - who woke the source in each run, and whether that tells the runs apart */
static void src_wakers(const struct js_diff_cpu *c, struct js_diff_src *d)
{
	if (d->a_detail[0])
		diff_src_waker(c->a, d->cause, d->a_detail, d->a_waker, &d->a_woken, &d->a_listed);
	if (d->b_detail[0])
		diff_src_waker(c->b, d->cause, d->b_detail, d->b_waker, &d->b_woken, &d->b_listed);
	d->waker_changed = d->a_waker[0] && d->b_waker[0] && strcmp(d->a_waker, d->b_waker);
}

static void src_add(struct js_diff_cpu *c, const struct js_diff_opts *o,
		    const struct js_cause_src *x, const struct js_cause_src *y)
{
	struct js_diff_src *d = &c->src[c->nsrc++];
	uint64_t xn = x ? x->total_ns : 0, yn = y ? y->total_ns : 0;

	memset(d, 0, sizeof(*d));
	d->cause = x ? x->cause : y->cause;
	js_scpy(d->a_detail, sizeof(d->a_detail), x ? x->detail : "");
	js_scpy(d->b_detail, sizeof(d->b_detail), y ? y->detail : "");
	d->pid_changed = x && y && strcmp(x->detail, y->detail);
	d->a_gaps = x ? x->gaps : 0;
	d->b_gaps = y ? y->gaps : 0;
	diff_time_row(&d->row, o, false, (double)xn, (double)xn * (double)(x ? x->max_ns : 0),
		      d->a_gaps, c->ta_s, (double)yn, (double)yn * (double)(y ? y->max_ns : 0),
		      d->b_gaps, c->tb_s, NULL, NULL);
	if (x && y && xn == c->a->lost_ns && yn == c->b->lost_ns)
		same_as(&d->row, &c->rows[1]); /* all the time: the numbers of the totals */
	snprintf(d->row.metric, sizeof(d->row.metric), "%s.source", js_cause_name(d->cause));
	diff_src_label(d->row.label, sizeof(d->row.label), d);
	src_wakers(c, d);
	if (!x || !y)
		d->status = x ? "gone" : "new";
	else
		d->status = d->row.verdict == DIFF_WORSE  ? "grew" :
			    d->row.verdict == DIFF_BETTER ? "shrank" :
							    diff_verdict_name(d->row.verdict);
}

/* src_rank - new, gone, grew, shrank, then the rest; within each, the larger change first */
static int src_rank(const struct js_diff_src *s)
{
	static const char *const order[] = { "new",   "gone",	   "grew", "shrank",
					     "mixed", "uncertain", "same" };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (!strcmp(s->status, order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(order);
}

static int cmp_src(const void *pa, const void *pb)
{
	const struct js_diff_src *a = pa, *b = pb;
	double da = fabs(a->row.b - a->row.a), db = fabs(b->row.b - b->row.a);

	if (src_rank(a) != src_rank(b))
		return src_rank(a) - src_rank(b);
	return da < db ? 1 : da > db ? -1 : 0;
}

static void sources(struct js_diff_cpu *c, const struct js_diff_opts *o)
{
	const struct js_causes *ta = &c->a->causes, *tb = &c->b->causes;
	const struct js_cause_src *sa[JS_CAUSES_SRC_MAX], *sb[JS_CAUSES_SRC_MAX];
	size_t na = causes_sorted(ta, sa, JS_CAUSES_SRC_MAX);
	size_t nb = causes_sorted(tb, sb, JS_CAUSES_SRC_MAX);

	for (int side = 0; side < 2; side++) {
		const struct js_cause_src *const *mine = side ? sb : sa, *const *other = side ? sa :
												sb;
		const struct js_causes *tm = side ? tb : ta, *to = side ? ta : tb;
		size_t nm = side ? nb : na, no = side ? na : nb;

		for (size_t i = 0; i < nm && i < DIFF_TOP_SOURCES; i++) {
			const struct js_cause_src *s = mine[i], *t;

			if (src_used(c, s, side))
				continue;
			t = find_exact(to, s);
			if (!t)
				t = find_by_key(c, other, no, tm, s, !side);
			src_add(c, o, side ? t : s, side ? s : t);
		}
	}
	qsort(c->src, c->nsrc, sizeof(c->src[0]), cmp_src);
}

/* diff_src_label - how a source is named in a table */
const char *diff_src_label(char *buf, size_t len, const struct js_diff_src *s)
{
	const char *det = s->b_detail[0] ? s->b_detail : s->a_detail, *colon;

	if (s->pid_changed) {
		snprintf(buf, len, "%s %s -> %s", js_cause_name(s->cause), s->a_detail,
			 s->b_detail);
	} else if (s->cause == JS_CAUSE_IRQ && !js_part_thread(s->cause, det) &&
		   (colon = strrchr(det, ':'))) {
		snprintf(buf, len, "IRQ %s %.*s", colon + 1, (int)(colon - det), det);
	} else if (!strncmp(det, js_cause_name(s->cause), strlen(js_cause_name(s->cause))) &&
		   det[strlen(js_cause_name(s->cause))] == ' ') {
		snprintf(buf, len, "%s", det); /* "hrtimer tick_nohz_handler": named already */
	} else {
		snprintf(buf, len, "%s %s", js_cause_name(s->cause), det);
	}
	return buf;
}

/* ---- what the two runs have in common ---- */

/* comm_len - the length of a thread's name without its ":tid" */
static size_t comm_len(const char *name)
{
	const char *c = strrchr(name, ':');

	return c ? (size_t)(c - name) : strlen(name);
}

/* alike - do a and b measure the same thing: a CPU's sampler, the marks of a CPU, a thread
 * (the same tid, or else the same name: a program's thread ids change between runs) */
static bool alike(const struct js_cpu_result *a, const struct js_cpu_result *b, bool by_name)
{
	if (a->source != b->source)
		return false;
	if (a->source != JS_SRC_THREAD)
		return a->cpu == b->cpu;
	if (!by_name)
		return a->tid == b->tid;
	return comm_len(a->name) == comm_len(b->name) &&
	       !strncmp(a->name, b->name, comm_len(a->name));
}

/* find_like - the result of run like r (alike()), none already paired in used[] */
static const struct js_cpu_result *find_like(const struct js_run *run,
					     const struct js_cpu_result *r, const bool *used)
{
	for (int by_name = 0; by_name < 2; by_name++)
		for (size_t i = 0; i < run->ncpus; i++)
			if (!used[i] && alike(r, &run->cpus[i], by_name))
				return &run->cpus[i];
	return NULL;
}

/* find_kind - the first result of run of r's kind (source), none already paired */
static const struct js_cpu_result *find_kind(const struct js_run *run,
					     const struct js_cpu_result *r, const bool *used)
{
	for (size_t i = 0; i < run->ncpus; i++)
		if (!used[i] && run->cpus[i].source == r->source)
			return &run->cpus[i];
	return NULL;
}

/* measured - what a run measured, for the refusal: "measured CPU 1 with the spinner",
 * "followed thread app:42 (--pid/--tid)", "measured 2 CPUs with the spinner and timed marks
 * on CPU 1 (--marks)" */
static const char *measured(const struct js_run *run, char *buf, size_t len)
{
	static const char *const how[JS_SRC_MAX] = {
		[JS_SRC_SAMPLER] = "measured %s with the spinner",
		[JS_SRC_THREAD] = "followed %s (--pid/--tid)",
		[JS_SRC_MARK] = "timed %s (--marks)",
	};
	static const char *const many[JS_SRC_MAX] = {
		[JS_SRC_SAMPLER] = "CPUs", [JS_SRC_THREAD] = "threads", [JS_SRC_MARK] = "marks"
	};
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 0; k < JS_SRC_MAX && o + 1 < len; k++) {
		size_t n = run_count(run, (enum js_source)k);
		char lb[JS_LABEL_LEN + 16], t[JS_LABEL_LEN + 64];

		if (!n)
			continue;
		for (size_t i = 0; i < run->ncpus && n == 1; i++)
			if (run->cpus[i].source == (enum js_source)k)
				result_label(&run->cpus[i], lb, sizeof(lb));
		if (n > 1)
			snprintf(lb, sizeof(lb), "%zu %s", n, many[k]);
		snprintf(t, sizeof(t), how[k], lb);
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " and " : "", t);
	}
	return buf;
}

static double secs(const struct js_cpu_result *r)
{
	return (double)(r->end_ns - r->start_ns) / 1e9;
}

/* cpu_list - "1,3" */
static void cpu_list(const struct js_run *r, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->ncpus && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", r->cpus[i].cpu);
}

static void warn(struct js_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct js_diff *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nwarn >= JS_DIFF_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(d->warn[d->nwarn++], sizeof(d->warn[0]), fmt, ap);
	va_end(ap);
}

/* warnings - what makes the runs unalike, first thing the user reads */
static void warnings(struct js_diff *d)
{
	const struct js_run *a = d->a, *b = d->b;
	char x[64], y[64], lb[JS_LABEL_LEN + 16];

	if (strcmp(a->machine.hostname, b->machine.hostname) ||
	    strcmp(a->machine.cpu_model, b->machine.cpu_model))
		warn(d, "machines differ: A %.60s (%.50s), B %.60s (%.50s)", a->machine.hostname,
		     a->machine.cpu_model, b->machine.hostname, b->machine.cpu_model);
	if (strcmp(a->machine.kernel, b->machine.kernel))
		warn(d, "kernels differ: A %.80s, B %.80s", a->machine.kernel, b->machine.kernel);
	if (a->cfg.threshold_ns != b->cfg.threshold_ns)
		warn(d,
		     "thresholds differ (A %s, B %s): gap rates, time lost and percentiles "
		     "count different gaps",
		     js_fmt_ns(x, sizeof(x), a->cfg.threshold_ns),
		     js_fmt_ns(y, sizeof(y), b->cfg.threshold_ns));
	cpu_list(a, x, sizeof(x));
	cpu_list(b, y, sizeof(y));
	if (strcmp(x, y))
		warn(d, "the runs measured different CPUs (A %s, B %s)%s", x, y,
		     d->in_order ? ": compared in the order measured" :
				   ": only CPUs of both are compared");
	if (!a->probes_on || !b->probes_on)
		warn(d, "probes were off in %s: causes and sources are not compared",
		     !a->probes_on && !b->probes_on ? "both runs" :
		     !a->probes_on		    ? "A" :
						      "B");
	if (a->interrupted || b->interrupted)
		warn(d, "%s interrupted (a partial run)",
		     a->interrupted && b->interrupted ? "both runs were" :
		     a->interrupted		      ? "A was" :
							"B was");
	for (size_t i = 0; i < d->ncpus; i++) {
		const struct js_diff_cpu *c = &d->cpus[i];
		bool na = !c->da.borrowed && c->da.gaps >= DIFF_DISP_WARN;
		bool nb = !c->db.borrowed && c->db.gaps >= DIFF_DISP_WARN;

		result_label(c->b, lb, sizeof(lb));
		if (na || nb)
			warn(d,
			     "%s: gaps come in bursts (their count per %s varies %.0fx more "
			     "than for independent gaps, in %s): the totals allow for it (and a class "
			     "with their numbers); other classes, sources and percentiles may take "
			     "such noise for a change",
			     lb, js_fmt_ns(x, sizeof(x), c->b->intervals.len_ns),
			     fmax(na ? c->da.gaps : 0, nb ? c->db.gaps : 0),
			     na && nb ? "both runs" :
			     na	      ? "A" :
					"B");
		if (c->a->dropped || c->b->dropped)
			warn(d,
			     "%s: gaps were dropped (ring full: A %" PRIu64 ", B %" PRIu64
			     "): rates are lower bounds",
			     lb, c->a->dropped, c->b->dropped);
	}
}

/* pair_cpus - the CPUs of both runs; with none in common, those of the same kind (a spinner's
 * CPU with a spinner's CPU) in the order measured; with none of the same kind, nothing */
static int pair_cpus(struct js_diff *d)
{
	const struct js_run *a = d->a, *b = d->b;
	size_t n = 0;

	bool *used = calloc(JS_MAX(b->ncpus, (size_t)1), sizeof(*used));

	d->cpus = calloc(JS_MAX(a->ncpus, (size_t)1), sizeof(*d->cpus));
	if (!d->cpus || !used) {
		free(used);
		return -ENOMEM;
	}
	for (int pass = 0; pass < 2 && !n; pass++) {
		for (size_t i = 0; i < a->ncpus; i++) {
			const struct js_cpu_result *rb = pass ? find_kind(b, &a->cpus[i], used) :
								find_like(b, &a->cpus[i], used);

			if (rb) {
				used[rb - b->cpus] = true;
				d->cpus[n].a = &a->cpus[i];
				d->cpus[n++].b = rb;
			}
		}
		d->in_order = pass && n > 0;
	}
	free(used);
	d->ncpus = n;
	if (!n && a->ncpus && b->ncpus) {
		static const char *const what[JS_SRC_MAX] = {
			[JS_SRC_SAMPLER] = "a spinner's gaps are all the time its CPU lost",
			[JS_SRC_THREAD] = "a thread's only the time it was kept from running",
			[JS_SRC_MARK] = "a mark's the application's own slow intervals",
		};
		size_t len = sizeof(d->unlike_why);
		char x[128], y[128];
		int o, sep = 0;

		d->unlike = true;
		o = snprintf(d->unlike_why, len, "%s %s, %s %s:", d->name_a,
			     measured(a, x, sizeof(x)), d->name_b, measured(b, y, sizeof(y)));
		for (int k = 0; k < JS_SRC_MAX && o > 0 && (size_t)o < len; k++)
			if (run_count(a, (enum js_source)k) + run_count(b, (enum js_source)k))
				o += snprintf(d->unlike_why + o, len - (size_t)o, "%s %s",
					      sep++ ? "," : "", what[k]);
		if (o > 0 && (size_t)o < len)
			snprintf(d->unlike_why + o, len - (size_t)o, "; not compared");
	}
	return 0;
}

/* tally - verdicts per kind, and the first worse change as one line */
static void tally(struct js_diff *d, const struct js_diff_row *r, const struct js_diff_cpu *c,
		  const char *what)
{
	char a[32], b[32], ch[32], lb[JS_LABEL_LEN + 16];

	d->count[r->verdict]++;
	if (r->verdict != DIFF_WORSE || d->first_worse[0])
		return;
	snprintf(d->first_worse, sizeof(d->first_worse), "%s: %s%s %s -> %s (%s): %s",
		 result_label(c->b, lb, sizeof(lb)), what, r->label,
		 diff_fmt_val(a, sizeof(a), r->unit, r->a),
		 diff_fmt_val(b, sizeof(b), r->unit, r->b),
		 diff_fmt_change(ch, sizeof(ch), r->a, r->b), r->why);
}

/* biggest - the change that says most of the verdict v: the class whose time lost per
 * second moved most that way, else the time lost share, else the first row with it */
static const struct js_diff_row *biggest(const struct js_diff *d, enum js_diff_verdict v,
					 const struct js_diff_cpu **at)
{
	const struct js_diff_row *best = NULL, *share = NULL, *first = NULL;
	const struct js_diff_cpu *bc = NULL, *sc = NULL, *fc = NULL;

	for (size_t i = 0; i < d->ncpus; i++) {
		const struct js_diff_cpu *c = &d->cpus[i];

		for (size_t k = 0; k < c->nrows; k++) {
			const struct js_diff_row *r = &c->rows[k];
			const char *dot = strchr(r->metric, '.');

			if (r->verdict != v)
				continue;
			if (!first) {
				first = r;
				fc = c;
			}
			if (!share && !strcmp(r->metric, "lost_pct")) {
				share = r;
				sc = c;
			}
			if (dot && !strcmp(dot, ".lost_ns_per_s") &&
			    (!best || fabs(r->b - r->a) > fabs(best->b - best->a))) {
				best = r;
				bc = c;
			}
		}
	}
	for (size_t i = 0; !first && i < d->ncpus; i++)
		for (size_t k = 0; !first && k < d->cpus[i].nsrc; k++)
			if (d->cpus[i].src[k].row.verdict == v) {
				first = &d->cpus[i].src[k].row;
				fc = &d->cpus[i];
			}
	*at = best ? bc : share ? sc : fc ? fc : *at;
	return best ? best : share ? share : first;
}

/* verdict - the whole comparison in one line: the verdict, its biggest change (and the time
 * lost share of that CPU pair), the new sources */
static void verdict(struct js_diff *d)
{
	const struct js_diff_cpu *c = d->ncpus ? &d->cpus[0] : NULL;
	const struct js_diff_row *r;
	size_t o, len = sizeof(d->verdict_line), nnew = 0;
	char *s = d->verdict_line, a[32], b[32], ch[32], lb[JS_LABEL_LEN + 16];

	d->verdict = d->count[DIFF_WORSE]  ? DIFF_WORSE :
		     d->count[DIFF_BETTER] ? DIFF_BETTER :
					     DIFF_SAME;
	r = d->verdict == DIFF_SAME ? NULL : biggest(d, d->verdict, &c);
	o = (size_t)snprintf(s, len, "%s", diff_verdict_name(d->verdict));
	if (!c) {
		snprintf(s + o, len - o, ": no CPU to compare");
		return;
	}
	if (r)
		o += (size_t)snprintf(s + o, len - o, ": biggest change %s: %s %s -> %s (%s)",
				      result_label(c->b, lb, sizeof(lb)), r->label,
				      diff_fmt_val(a, sizeof(a), r->unit, r->a),
				      diff_fmt_val(b, sizeof(b), r->unit, r->b),
				      diff_fmt_change(ch, sizeof(ch), r->a, r->b));
	else
		o += (size_t)snprintf(s + o, len - o,
				      ": no change is worse or better (%zu uncertain, %zu mixed)",
				      d->count[DIFF_UNCERTAIN], d->count[DIFF_MIXED]);
	if (o < len && (!r || strcmp(r->metric, "lost_pct")))
		o += (size_t)snprintf(s + o, len - o, "; %s time lost %s -> %s",
				      result_label(c->b, lb, sizeof(lb)),
				      diff_fmt_val(a, sizeof(a), c->rows[1].unit, c->rows[1].a),
				      diff_fmt_val(b, sizeof(b), c->rows[1].unit, c->rows[1].b));
	for (size_t i = 0; i < d->ncpus && o < len; i++)
		for (size_t k = 0; k < d->cpus[i].nsrc && o < len; k++) {
			const struct js_diff_src *x = &d->cpus[i].src[k];

			if (strcmp(x->status, "new"))
				continue;
			o += (size_t)snprintf(s + o, len - o, "%s%s (%s)",
					      nnew++ ? ", " : "; new sources: ", x->row.label,
					      diff_fmt_val(a, sizeof(a), x->row.unit, x->row.b));
		}
	if (!nnew && o < len)
		snprintf(s + o, len - o, "; no new source");
}

/* borrow - a run too short to estimate its dispersion takes the other's: the same machine's
 * background noise, rather than none */
static void borrow(struct js_diff_disp *d, const struct js_diff_disp *other)
{
	if (d->k >= DIFF_DISP_MIN || other->k < DIFF_DISP_MIN || other->borrowed)
		return;
	*d = *other;
	d->borrowed = true;
}

/* diff_compute - every CPU pair's rows and sources, the warnings, the tally */
int diff_compute(struct js_diff *d, const struct js_run *a, const char *name_a,
		 const struct js_run *b, const char *name_b, const struct js_diff_opts *o)
{
	char x[32], y[32];

	memset(d, 0, sizeof(*d));
	d->a = a;
	d->b = b;
	d->name_a = name_a;
	d->name_b = name_b;
	d->opts = *o;
	if (pair_cpus(d))
		return -ENOMEM;
	for (size_t i = 0; i < d->ncpus; i++) {
		struct js_diff_cpu *c = &d->cpus[i];

		c->ta_s = secs(c->a);
		c->tb_s = secs(c->b);
		c->causes = a->probes_on && b->probes_on;
		diff_dispersion(c->a, &c->da);
		diff_dispersion(c->b, &c->db);
		borrow(&c->da, &c->db);
		borrow(&c->db, &c->da);
		cpu_rows(c, o);
		if (c->causes)
			sources(c, o);
		if (!d->lengths[0] && fabs(c->ta_s - c->tb_s) > 0.01 * fmax(c->ta_s, c->tb_s))
			snprintf(d->lengths, sizeof(d->lengths),
				 "the runs' lengths differ (A %s, "
				 "B %s): gaps and time lost are compared per second; totals are "
				 "context",
				 js_fmt_ns(x, sizeof(x), c->a->end_ns - c->a->start_ns),
				 js_fmt_ns(y, sizeof(y), c->b->end_ns - c->b->start_ns));
		for (size_t k = 0; k < c->nrows; k++)
			tally(d, &c->rows[k], c, "");
		for (size_t k = 0; k < c->nsrc; k++)
			tally(d, &c->src[k].row, c,
			      c->src[k].status[0] == 'n' ? "new source " : "source ");
	}
	warnings(d);
	verdict(d);
	return 0;
}

/* counterpart - check c's twin in the other run's audit (same id and cpu), or NULL */
static const struct audit_check *counterpart(const struct js_audit *other,
					     const struct audit_check *c)
{
	for (size_t i = 0; i < other->n; i++)
		if (other->checks[i].cpu == c->cpu && !strcmp(other->checks[i].id, c->id))
			return &other->checks[i];
	return NULL;
}

/* diff_audit_changes - A's checks in order, then those only B has */
void diff_audit_changes(const struct js_run *a, const struct js_run *b,
			void (*fn)(void *ctx, const struct audit_check *ca,
				   const struct audit_check *cb),
			void *ctx)
{
	for (int pass = 0; pass < 2 && a->audited && b->audited; pass++) {
		const struct js_audit *x = pass ? &b->audit : &a->audit;
		const struct js_audit *y = pass ? &a->audit : &b->audit;

		for (size_t i = 0; i < x->n; i++) {
			const struct audit_check *c = &x->checks[i], *o = counterpart(y, c);

			if (o && (pass || o->verdict == c->verdict))
				continue;
			fn(ctx, pass ? o : c, pass ? c : o);
		}
	}
}

static void count_change(void *ctx, const struct audit_check *ca, const struct audit_check *cb)
{
	(void)ca;
	(void)cb;
	(*(size_t *)ctx)++;
}

/* diff_audit_nchanged - how many checks diff_audit_changes reports */
size_t diff_audit_nchanged(const struct js_run *a, const struct js_run *b)
{
	size_t n = 0;

	diff_audit_changes(a, b, count_change, &n);
	return n;
}

/* diff_rules - what the verdicts mean, with the settings used */
const char *diff_rules(char *buf, size_t len, const struct js_diff *d)
{
	snprintf(buf, len,
		 "Lower is better. A verdict needs a change of at least %g %% (and "
		 "above a floor) that chance does not explain at alpha %g: gap rates by an exact "
		 "Poisson test, times lost by a normal test, percentiles by their order-statistic "
		 "intervals. uncertain: the data do not carry the change; mixed: a percentile "
		 "moved one way, the rate of gaps that long the other.",
		 100 * d->opts.min_change, d->opts.alpha);
	return buf;
}

/* diff_free - the CPU pairs */
void diff_free(struct js_diff *d)
{
	free(d->cpus);
	d->cpus = NULL;
	d->ncpus = 0;
}
