// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_html.c - --html FILE: one self-contained page (inline CSS, inline SVG drawn here,
 * a few lines of inline JS for the legend, the parts every page shares in html_page.c;
 * nothing is fetched) a user can open or attach to a ticket: run facts, per CPU the gap histogram coloured by primary cause, a scatter
 * of gaps over time (log duration), the worst gaps' stories, the cause table, the worst
 * gap per interval and arrival figures, then the isolation audit (problems first).
 *
 * The scatter is bounded: per CPU the HTML_WORST longest gaps (a min-heap) plus a uniform
 * reservoir sample of HTML_SAMPLE gaps (Vitter's algorithm R, fixed seed), collected in
 * on_gap; everything else comes from the final result.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_audit.h"
#include "js_html.h"
#include "js_output.h"
#include "js_params.h"
#include "js_report.h"
#include "js_result.h"
#include "js_story.h"
#include "js_util.h"

#define HTML_WORST 2000	    /* longest gaps always drawn, per CPU */
#define HTML_SAMPLE 5000    /* uniform sample of all gaps, per CPU */
#define HTML_TITLED 500	    /* points with a tooltip (the longest) */
#define HTML_FOLD_KEEP 1024 /* unexplained gaps' start times kept per duration band */
#define HTML_FOLD_BINS 50   /* columns of the folded picture */
#define HTML_FOLD_MIN 0.8   /* the coherence from which the folded picture is drawn */
#define HTML_TL_W 600	    /* a worst gap's timeline, SVG units */

/* the start times of a duration band's unexplained gaps: a uniform reservoir of them */
struct fold_band {
	uint64_t *t;
	size_t n;
	uint64_t seen;
};

struct pt {
	uint64_t start_ns, dur_ns;
	uint32_t cause;
};

struct html_cpu {
	int cpu;
	struct js_topn worst; /* struct pt, min-heap on dur */
	struct pt *sample;    /* reservoir */
	size_t nsample;
	uint64_t seen;
	bool saved; /* the points are a saved run's worst gaps (html_replay) */
	struct fold_band fold[JS_PERIOD_BANDS];
};

struct html_out {
	FILE *fp;
	const struct js_run *run;
	struct html_cpu *cpus; /* per result, in run->cpus' order (set up as they appear) */
	size_t ncpus;
	uint64_t rng;
	enum js_by by; /* --by: the cause table's sources */
	int err;
};

/* ---- small writers ---- */

static const char *fmt(char *buf, uint64_t ns)
{
	return js_fmt_ns(buf, 32, ns);
}

/* ---- watching the run: the points of the scatter ---- */

static uint64_t rnd(struct html_out *h)
{
	/* xorshift64*: deterministic, good enough for a reservoir */
	h->rng ^= h->rng >> 12;
	h->rng ^= h->rng << 25;
	h->rng ^= h->rng >> 27;
	return h->rng * 0x2545F4914F6CDD1Dull;
}

/* pt_shorter - the worst list's order */
static bool pt_shorter(const void *a, const void *b)
{
	return ((const struct pt *)a)->dur_ns < ((const struct pt *)b)->dur_ns;
}

/* grow - the points of the results that appeared since (threads, marks); false when out of
 * memory (the output has failed) */
static bool grow(struct html_out *h)
{
	size_t n = h->run ? h->run->ncpus : 0, i = h->ncpus;

	if (h->err || i >= n)
		return !h->err;
	if (js_grow(&h->cpus, &h->ncpus, n, sizeof(*h->cpus))) {
		h->err = -ENOMEM;
		return false;
	}
	for (; i < n; i++) {
		struct html_cpu *c = &h->cpus[i];

		c->cpu = h->run->cpus[i].cpu;
		c->sample = malloc(HTML_SAMPLE * sizeof(struct pt));
		if (topn_init(&c->worst, HTML_WORST, sizeof(struct pt), pt_shorter) || !c->sample)
			h->err = -ENOMEM;
	}
	return !h->err;
}

/* reservoir - the slot of v[cap] the seen-th item goes to (Vitter's algorithm R: the first
 * cap fill it, then each replaces a uniform one with probability cap / seen); -1: none */
static long reservoir(struct html_out *h, uint64_t seen, size_t cap)
{
	uint64_t k = seen <= cap ? seen - 1 : rnd(h) % seen;

	return k < cap ? (long)k : -1;
}

/* fold_add - an unexplained gap's start into its band's reservoir (the folded picture) */
static void fold_add(struct html_out *h, struct html_cpu *c, uint64_t t, uint64_t dur)
{
	struct fold_band *f = &c->fold[period_band(dur)];
	long k;

	if (!f->t && !(f->t = malloc(HTML_FOLD_KEEP * sizeof(*f->t)))) {
		h->err = -ENOMEM;
		return;
	}
	k = reservoir(h, ++f->seen, HTML_FOLD_KEEP);

	if (k >= 0)
		f->t[k] = t;
	f->n = JS_MIN(f->seen, (uint64_t)HTML_FOLD_KEEP);
}

static void html_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			size_t nev)
{
	struct html_out *h = ctx;
	struct pt p = { g->gap.start_ns, g->gap.dur_ns, g->attr.primary };
	struct html_cpu *c = NULL;
	long k;

	(void)ev;
	(void)nev;
	if (!grow(h) || g->gap.res >= h->ncpus)
		return;
	c = &h->cpus[g->gap.res];
	c->seen++;
	if (p.cause == JS_CAUSE_UNEXPLAINED)
		fold_add(h, c, p.start_ns, p.dur_ns);
	topn_offer(&c->worst, &p);
	k = reservoir(h, c->seen, HTML_SAMPLE);
	if (k >= 0)
		c->sample[k] = p;
	c->nsample = JS_MIN(c->seen, (uint64_t)HTML_SAMPLE);
}

static void html_run_start(void *ctx, const struct js_run *run)
{
	struct html_out *h = ctx;

	h->run = run;
	grow(h);
}

/* html_replay - a saved run: its worst gaps, all it keeps of them, are the points */
static void html_replay(void *ctx, const struct js_run *run)
{
	struct html_out *h = ctx;

	for (size_t i = 0; i < run->ncpus; i++)
		for (size_t k = 0; k < run->cpus[i].top.n; k++) {
			struct js_gap_rec g =
				*(const struct js_gap_rec *)topn_at(&run->cpus[i].top, k);

			g.gap.res = (uint32_t)i;
			html_on_gap(ctx, &g, NULL, 0);
		}
	for (size_t i = 0; i < h->ncpus; i++)
		h->cpus[i].saved = true;
}

/* ---- page parts ---- */

/* answer - what was lost, to what, what to fix first (answer.c): the page's first lines */
static void answer(FILE *fp, const struct js_run *run)
{
	char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];
	struct js_answer ans;

	report_answer(run, &ans);
	report_answer_lines(run, &ans, lines);
	fputs("<section id=\"answer\">\n<table class=\"facts\">\n", fp);
	for (int i = 0; i < JS_ANSWER_LINES; i++)
		if (lines[i][0])
			html_fact(fp, report_answer_label(i), lines[i]);
	fputs("</table>\n</section>\n", fp);
}

static void header(FILE *fp, const struct js_run *run)
{
	const struct js_machine *m = &run->machine;
	char b[384], d[32];
	time_t sec = (time_t)run->start_epoch_s;
	struct tm tm;

	fputs("<h1>jitterscope report</h1>\n", fp);
	answer(fp, run);
	fputs("<table class=\"facts\">\n", fp);
	html_fact(fp, "host", m->hostname);
	html_fact(fp, "kernel", m->kernel);
	snprintf(b, sizeof(b), "%s, %d CPUs online, %s%s", m->cpu_model, m->online_cpus,
		 m->hypervisor ? "virtual machine" : "bare metal",
		 m->invariant_tsc ? "" : ", TSC NOT INVARIANT");
	html_fact(fp, "machine", b);
	html_fact(fp, "TSC read",
		  tsc_read_describe(b, sizeof(b), run->cfg.tsc_read, run->cfg.clock));
	if (gmtime_r(&sec, &tm)) {
		strftime(b, sizeof(b), "%Y-%m-%d %H:%M:%S UTC", &tm);
		html_fact(fp, "started", b);
	}
	snprintf(b, sizeof(b), "%s%s%s%s%s", fmt(d, run->wall_ns),
		 run->interrupted ? " (interrupted: " : "", run->stop_why,
		 run->stop_why[0] ? "; " : "", run->interrupted ? "partial results)" : "");
	html_fact(fp, "duration", b);
	html_fact(fp, "threshold",
		  thr_describe(b, sizeof(b), run->cfg.threshold_ns, run->cfg.threshold_auto,
			       &run->cfg.thr_auto));
	snprintf(b, sizeof(b), "TSC %.6f GHz fitted to CLOCK_MONOTONIC, residual max %.1f ns",
		 run->fit.hz / 1e9, run->fit.residual_max_ns);
	html_fact(fp, "time base", b);
	if (run->probes_on)
		snprintf(b, sizeof(b), "on: %" PRIu64 " events, %" PRIu64 " lost",
			 run->probe_events, run->probe_lost);
	else
		snprintf(b, sizeof(b), "off (%s): gaps are not attributed", run->probes_why);
	html_fact(fp, "probes", b);
	if (run->probes_on && run->cfg.probes_lean) {
		snprintf(b, sizeof(b), "lean (%s)", probe_set_leaves_out(true));
		html_fact(fp, "probe set", b);
	}
	html_fact(fp, "SMI", run->smi_countable ? "counted" : run->smi_why);
	fputs("</table>\n", fp);
}

static void summary(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	const char *no_steal = result_no_steal(run, r);
	char b[32];

	fputs("<table><tr><th>gaps</th><th>time lost</th><th>loop median (calibration)</th>", fp);
	for (size_t i = 0; i < js_npcts; i++)
		fprintf(fp, "<th>%s</th>", js_pcts[i].label);
	fputs("<th>max</th><th>steal</th></tr>\n<tr>", fp);
	html_td_u64(fp, r->gap_count);
	fprintf(fp, "<td class=\"n\">%s (%.3f %%)</td>", fmt(b, r->lost_ns), result_lost_pct(r));
	fprintf(fp, "<td class=\"n\">%.1f ns</td>", r->loop_ns_median);
	for (size_t i = 0; i < js_npcts; i++)
		html_td_ns(fp, (uint64_t)hist_value_at_percentile(&r->hist, js_pcts[i].p));
	html_td_ns(fp, (uint64_t)hist_max(&r->hist));
	if (no_steal)
		fprintf(fp, "<td>%s</td>", no_steal);
	else
		html_td_ns(fp, r->steal_ns);
	fputs("</tr></table>\n", fp);
	if (r->dropped)
		fprintf(fp, "<p class=\"bad\">%" PRIu64 " gaps lost to a full sampler ring</p>\n",
			r->dropped);
}

static int cmp_pt_dur(const void *pa, const void *pb)
{
	const struct pt *a = pa, *b = pb;

	if (a->dur_ns != b->dur_ns)
		return a->dur_ns < b->dur_ns ? -1 : 1;
	return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

/* points - the worst gaps and the sample, without duplicates, shortest first */
static struct pt *points(const struct html_cpu *c, size_t *n)
{
	size_t nworst = c->worst.n, k = 0;
	struct pt *v = malloc((nworst + c->nsample + 1) * sizeof(*v));

	if (!v)
		return NULL;
	memcpy(v, c->worst.v, nworst * sizeof(*v));
	memcpy(v + nworst, c->sample, c->nsample * sizeof(*v));
	qsort(v, nworst + c->nsample, sizeof(*v), cmp_pt_dur);
	for (size_t i = 0; i < nworst + c->nsample; i++)
		if (!k || v[k - 1].start_ns != v[i].start_ns || v[k - 1].dur_ns != v[i].dur_ns)
			v[k++] = v[i];
	*n = k;
	return v;
}

static void time_axis(FILE *fp, double span_s, int H)
{
	double step = pow(10, floor(log10(JS_MAX(span_s, 1e-3))));

	if (span_s / step < 4)
		step /= 2;
	for (double s = 0; s <= span_s * 1.0001; s += step) {
		double x = FIG_L + s / span_s * (FIG_W - FIG_L - FIG_R);

		fprintf(fp,
			"<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g s</text>\n",
			x, x, FIG_T, H - FIG_B, x, H - FIG_B + 16, s);
	}
}

/* scatter - gaps over time: x = time since the run start, y = duration (log) */
static void scatter(FILE *fp, const struct js_run *run, const struct html_cpu *c,
		    const struct js_cpu_result *r)
{
	int H = 340, ph = H - FIG_T - FIG_B;
	size_t n = 0;
	struct pt *v = c ? points(c, &n) : NULL;
	uint64_t t0 = r->start_ns ? r->start_ns : run->start_mono_ns;
	double lo, hi, span_s;
	char b[32], d[32];

	if (!v || !n) {
		fputs("<p class=\"note\">no gaps to draw</p>\n", fp);
		free(v);
		return;
	}
	lo = pow(10, floor(log10((double)JS_MAX(v[0].dur_ns, (uint64_t)1))));
	hi = pow(10, ceil(log10((double)v[n - 1].dur_ns + 1)));
	/* the CPU's measured window (the run's wall time also covers setup and draining) */
	span_s = (double)(r->end_ns > t0 ? r->end_ns - t0 : run->wall_ns) / 1e9;
	span_s = span_s > 0 ? span_s : 1;
	fprintf(fp,
		"<svg class=\"fig scatter\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"role=\"img\">\n",
		FIG_W, H, FIG_W, H);
	html_log_grid(fp, lo, hi, FIG_T, ph, true);
	time_axis(fp, span_s, H);
	for (size_t i = 0; i < n; i++) {
		double t = (double)(v[i].start_ns - JS_MIN(v[i].start_ns, t0)) / 1e9;
		double x = FIG_L + t / span_s * (FIG_W - FIG_L - FIG_R);
		double y = html_ylog((double)v[i].dur_ns, lo, hi, FIG_T, ph);
		const char *cn = js_cause_name(v[i].cause);

		fprintf(fp,
			"<circle class=\"pt c-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" fill=\"%s\">",
			cn, x, y, html_cause_colour(v[i].cause));
		if (i + HTML_TITLED >= n)
			fprintf(fp, "<title>%s at %.6f s: %s</title>", fmt(b, v[i].dur_ns), t, cn);
		fputs("</circle>\n", fp);
	}
	fprintf(fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since the measurement start"
		"</text>\n<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">"
		"gap duration (log)</text>\n</svg>\n",
		(FIG_W + FIG_L) / 2, H - 8, FIG_T + ph / 2);
	if (c->saved)
		fprintf(fp,
			"<p class=\"note\">%zu of %" PRIu64 " gaps drawn: the worst ones the saved "
			"run kept (jitterscope report); the shortest drawn is %s</p>\n",
			n, r->gap_count, fmt(d, v[0].dur_ns));
	else
		fprintf(fp,
			"<p class=\"note\">%zu of %" PRIu64 " gaps drawn: the %d longest and a "
			"uniform sample of %d; the shortest drawn is %s</p>\n",
			n, c->seen, HTML_WORST, HTML_SAMPLE, fmt(d, v[0].dur_ns));
	free(v);
}

/* ---- where the time went: linear axes ---- */

/* lost_by_cause - per class its share of the time lost, a bar on a linear axis 0-100 % (the
 * cause table's shares): a 17 % share is 17 % of the axis */
static void lost_by_cause(FILE *fp, const struct js_cpu_result *r)
{
	const struct js_causes *cs = &r->causes;
	int order[JS_CAUSE_MAX], n = 0, x0 = 130, aw = FIG_W - x0 - FIG_R - 110, bh = 20, H;
	char b[32];

	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		const struct js_cause_class *cl = causes_class(cs, (uint32_t)k);
		int i = n++;

		if (!cl || !cl->total_ns) {
			n--;
			continue;
		}
		for (; i > 0 && causes_class(cs, (uint32_t)order[i - 1])->total_ns < cl->total_ns;
		     i--)
			order[i] = order[i - 1];
		order[i] = k;
	}
	if (!n)
		return;
	H = FIG_T + n * bh + 30;
	fprintf(fp,
		"<h3>Time lost by cause</h3>\n<svg class=\"fig lost-cause\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\">\n",
		FIG_W, H, FIG_W, H);
	for (int t = 0; t <= 100; t += 25) {
		double x = x0 + aw * t / 100.0;

		fprintf(fp,
			"<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d %%</text>\n",
			x, x, FIG_T, H - 24, x, H - 10, t);
	}
	fprintf(fp, "<line class=\"axis lc-axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", x0,
		x0 + aw, H - 24, H - 24);
	for (int i = 0; i < n; i++) {
		const struct js_cause_class *cl = causes_class(cs, (uint32_t)order[i]);
		double share = causes_share(cs, cl->total_ns), y = FIG_T + i * bh;
		const char *cn = js_cause_name(order[i]);

		fprintf(fp,
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>"
			"<rect class=\"lc c-%s\" data-share=\"%.3f\" x=\"%d\" y=\"%.1f\" "
			"width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%s: %.1f %% of the time "
			"lost (%s)</title></rect><text x=\"%.1f\" y=\"%.1f\">%.1f %% (%s)</text>\n",
			x0 - 6, y + bh - 7, cn, cn, 100 * share, x0, y + 2, aw * share, bh - 5,
			html_cause_colour(order[i]), cn, 100 * share, fmt(b, cl->total_ns),
			x0 + aw * share + 4, y + bh - 7, 100 * share, b);
	}
	fputs("</svg>\n<p class=\"note\">bar length: the class's share of the time lost "
	      "(linear); a gap's time is split among the classes inside it, as in the cause "
	      "table</p>\n",
	      fp);
}

/* nice_top - the axis' top: the next 1, 2 or 5 x 10^k at or above v */
static double nice_top(double v)
{
	double e = pow(10, floor(log10(v > 0 ? v : 1)));

	return v <= e ? e : v <= 2 * e ? 2 * e : v <= 5 * e ? 5 * e : 10 * e;
}

/* lin_grid - a linear y axis from 0 to top over the plot's height ph: 5 lines, labels + unit */
static void lin_grid(FILE *fp, double top, int ph, const char *unit)
{
	for (int t = 0; t <= 4; t++) {
		double y = FIG_T + ph - ph * t / 4.0;

		fprintf(fp,
			"<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g%s</text>\n",
			FIG_L, FIG_W - FIG_R, y, y, FIG_L - 6, y + 4, top * t / 4, unit);
	}
}

/* lost_per_interval - the time lost in each interval (second), % of it, linear axis */
static void lost_per_interval(FILE *fp, const struct js_cpu_result *r)
{
	const struct js_intervals *iv = &r->intervals;
	int H = 180, ph = H - FIG_T - FIG_B;
	double top = 0, bw;
	char l[32], b[32];

	if (!iv->n)
		return;
	for (size_t i = 0; i < iv->n; i++) {
		uint64_t end =
			JS_MIN(iv->v[i].start_ns + iv->len_ns, JS_MAX(r->end_ns, iv->end_ns));
		uint64_t len = end > iv->v[i].start_ns ? end - iv->v[i].start_ns : iv->len_ns;

		top = fmax(top, 100.0 * (double)iv->v[i].lost_ns / (double)len);
	}
	top = nice_top(top);
	bw = (double)(FIG_W - FIG_L - FIG_R) / iv->n;
	fprintf(fp,
		"<h3>Time lost per %s</h3>\n<svg class=\"fig per-second\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\">\n",
		fmt(l, iv->len_ns), FIG_W, H, FIG_W, H);
	lin_grid(fp, top, ph, " %");
	for (size_t i = 0; i < iv->n; i++) {
		uint64_t end =
			JS_MIN(iv->v[i].start_ns + iv->len_ns, JS_MAX(r->end_ns, iv->end_ns));
		uint64_t len = end > iv->v[i].start_ns ? end - iv->v[i].start_ns : iv->len_ns;
		double pct = 100.0 * (double)iv->v[i].lost_ns / (double)len, hh = ph * pct / top;

		fprintf(fp,
			"<rect class=\"ps\" data-pct=\"%.4f\" x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" "
			"height=\"%.2f\" fill=\"#5c7cba\"><title>interval %zu (%s long): %.3f %% lost "
			"(%s in %" PRIu64 " gaps)</title></rect>\n",
			pct, FIG_L + i * bw + 1, FIG_T + ph - hh, JS_MAX(bw - 2, 1.0), hh, i + 1,
			fmt(l, len), pct, fmt(b, iv->v[i].lost_ns), iv->v[i].gaps);
	}
	fprintf(fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">interval (%s each, %zu in all; "
		"the last may be shorter)</text>\n</svg>\n",
		(FIG_W + FIG_L) / 2, H - 8, fmt(l, iv->len_ns), iv->n);
}

/* folded - the unexplained gaps of the periodicity's headline class, folded by the period
 * it found (coherence at least HTML_FOLD_MIN): each gap at its start's phase, t mod period
 * (the detector's phase), so a periodic stall stands as one column */
static void folded(FILE *fp, const struct html_cpu *c, const struct js_cpu_result *r)
{
	const struct js_period_classes *pc = &r->period;
	int h = period_classes_headline(pc), H = 200, ph = H - FIG_T - FIG_B;
	double bins[HTML_FOLD_BINS] = { 0 }, top = 0, bw, P;
	struct js_period_result pr;
	uint64_t kept = 0, seen = 0;
	char a[32], b[32], d[32];

	if (!c || !period_result(&pc->ge[h], &pr) || pr.strength < HTML_FOLD_MIN || !pr.period_ns)
		return;
	P = (double)pr.period_ns;
	for (int k = h; k < JS_PERIOD_BANDS; k++) {
		const struct fold_band *f = &c->fold[k];
		double w = f->n ? (double)f->seen / (double)f->n : 0;

		for (size_t i = 0; i < f->n; i++)
			bins[(f->t[i] % pr.period_ns) * HTML_FOLD_BINS / pr.period_ns] += w;
		kept += f->n;
		seen += f->seen;
	}
	if (!kept)
		return;
	for (int i = 0; i < HTML_FOLD_BINS; i++)
		top = fmax(top, bins[i]);
	top = nice_top(top);
	bw = (double)(FIG_W - FIG_L - FIG_R) / HTML_FOLD_BINS;
	fprintf(fp,
		"<h3>Unexplained gaps folded by their period (%s)</h3>\n<svg class=\"fig folded\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
		"data-period-ns=\"%" PRIu64 "\">\n",
		fmt(a, pr.period_ns), FIG_W, H, FIG_W, H, pr.period_ns);
	lin_grid(fp, top, ph, "");
	for (int i = 0; i < HTML_FOLD_BINS; i++) {
		double hh = ph * bins[i] / top;
		uint64_t lo = (uint64_t)(P * i / HTML_FOLD_BINS);
		uint64_t hi = (uint64_t)(P * (i + 1) / HTML_FOLD_BINS);

		fprintf(fp,
			"<rect class=\"fold-bin c-unexplained\" data-lo-ns=\"%" PRIu64
			"\" data-hi-ns=\"%" PRIu64 "\" data-n=\"%.1f\" x=\"%.1f\" y=\"%.2f\" "
			"width=\"%.1f\" height=\"%.2f\" fill=\"%s\"><title>phase %s .. %s: %.0f "
			"gaps</title></rect>\n",
			lo, hi, bins[i], FIG_L + i * bw + 0.5, FIG_T + ph - hh, JS_MAX(bw - 1, 1.0),
			hh, html_cause_colour(JS_CAUSE_UNEXPLAINED), fmt(a, lo), fmt(b, hi),
			bins[i]);
	}
	fprintf(fp,
		"<line class=\"fold-phase\" data-phase-ns=\"%.0f\" x1=\"%.1f\" x2=\"%.1f\" "
		"y1=\"%d\" y2=\"%d\" stroke=\"#c62828\" stroke-dasharray=\"4 3\"/>\n"
		"<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">%s</text><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		"phase of the gap's start in the period (t mod %s)</text>\n</svg>\n",
		pr.phase_ns, FIG_L + (FIG_W - FIG_L - FIG_R) * pr.phase_ns / P,
		FIG_L + (FIG_W - FIG_L - FIG_R) * pr.phase_ns / P, FIG_T, FIG_T + ph, FIG_L,
		H - FIG_B + 16, FIG_W - FIG_R, H - FIG_B + 16, fmt(a, pr.period_ns),
		(FIG_W + FIG_L) / 2, H - 8, fmt(b, pr.period_ns));
	fprintf(fp,
		"<p class=\"note\">the %" PRIu64 " unexplained gaps of at least %s (the "
		"periodicity's headline class; %" PRIu64 " drawn, each standing for its band's "
		"share) are periodic at %s, phase %s, coherence %.2f (dashed line: the phase); "
		"column height: gaps (linear)</p>\n",
		seen, fmt(a, js_period_band_ns[h]), kept, fmt(b, pr.period_ns),
		fmt(d, (uint64_t)(pr.phase_ns + 0.5)), pr.strength);
}

/* timeline - a worst gap's time laid out as its story tells it (story_segments): each
 * stretch as wide as its share of the gap, coloured by class; the entry/exit lighter */
static void timeline(FILE *fp, const struct js_gap_rec *g)
{
	struct story_seg sg[STORY_SEGS_MAX];
	size_t n = story_segments(g, sg);
	double x = 0, dur = (double)g->gap.dur_ns;
	char label[JS_DETAIL_LEN + 48], t[32];

	if (!n || !g->gap.dur_ns)
		return;
	fprintf(fp,
		"<svg class=\"timeline\" viewBox=\"0 0 %d 14\" width=\"%d\" height=\"14\" "
		"data-dur-ns=\"%" PRIu64 "\">",
		HTML_TL_W, HTML_TL_W, g->gap.dur_ns);
	for (size_t i = 0; i < n; i++) {
		double w = HTML_TL_W * (double)sg[i].ns / dur;

		story_part_label(label, sizeof(label), sg[i].cause, sg[i].detail);
		fprintf(fp,
			"<rect class=\"tl c-%s\" data-ns=\"%" PRIu64 "\" x=\"%.2f\" y=\"0\" "
			"width=\"%.2f\" height=\"14\" fill=\"%s\" stroke=\"#fff\" "
			"stroke-width=\"0.5\"%s><title>",
			js_cause_name(sg[i].cause), sg[i].ns, x, w, html_cause_colour(sg[i].cause),
			sg[i].entry ? " fill-opacity=\"0.45\"" : "");
		html_esc(fp, label);
		fprintf(fp, "%s: %s (%.1f %%)</title></rect>", sg[i].entry ? " entry/exit" : "",
			fmt(t, sg[i].ns), 100.0 * (double)sg[i].ns / dur);
		x += w;
	}
	fputs("</svg>", fp);
}

static void stories(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	struct js_gap_rec *recs = calloc(r->top.n ? r->top.n : 1, sizeof(*recs));
	unsigned n = recs ? result_top_sorted(r, recs) : 0;
	char line[1024], detail[4096], stk[STORY_STACKS_LEN];

	if (!n) {
		fputs("<p class=\"note\">no gaps</p>\n", fp);
		free(recs);
		return;
	}
	fputs("<ol class=\"stories\">\n", fp);
	for (unsigned i = 0; i < n; i++) {
		story_format(line, sizeof(line), &recs[i], run->start_mono_ns);
		story_format_detail(detail, sizeof(detail), &recs[i], run->start_mono_ns, NULL);
		fprintf(fp,
			"<li class=\"c-%s\"><i style=\"display:inline-block;width:10px;"
			"height:10px;background:%s\"></i> ",
			js_cause_name(recs[i].attr.primary),
			html_cause_colour(recs[i].attr.primary));
		html_esc(fp, line);
		timeline(fp, &recs[i]);
		fputs("<details><summary>breakdown</summary><pre>", fp);
		html_esc(fp, detail);
		fputs("</pre></details>", fp);
		if (story_format_stacks(stk, sizeof(stk), &recs[i], &run->stacks, NULL) > 0) {
			fputs("<details class=\"stacks\"><summary>kernel stacks</summary><pre>",
			      fp);
			html_esc(fp, stk);
			fputs("</pre></details>", fp);
		}
		fputs("</li>\n", fp);
	}
	fputs("</ol>\n", fp);
	free(recs);
}

static void cause_row(FILE *fp, const struct js_causes *cs, const char *cls, const char *det,
		      uint64_t gaps, uint64_t prim, bool show_prim, uint64_t total, uint64_t max)
{
	fputs("<tr>", fp);
	html_td(fp, NULL, cls);
	html_td(fp, NULL, det);
	html_td_u64(fp, gaps);
	if (show_prim)
		html_td_u64(fp, prim);
	else
		html_td(fp, NULL, "");
	html_td_ns(fp, total);
	fprintf(fp, "<td class=\"n\">%.1f %%</td>", 100.0 * causes_share(cs, total));
	html_td_ns(fp, max);
	fputs("</tr>\n", fp);
}

/* cause_table - per class, then the top sources (bycg: per class and cgroup instead) */
static void cause_table(FILE *fp, const struct js_causes *cs, const struct js_causes *bycg)
{
	const struct js_causes *top = bycg ? bycg : cs;
	const struct js_cause_src *src[JS_CAUSES_SRC_MAX];
	size_t n = causes_sorted(top, src, JS_CAUSES_SRC_MAX);

	fputs("<table><tr><th>class</th><th>source</th><th>gaps</th><th>primary in</th>"
	      "<th>time lost</th><th>share</th><th>max in one gap</th></tr>\n",
	      fp);
	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		const struct js_cause_class *cl = causes_class(cs, (uint32_t)k);

		if (cl && cl->gaps)
			cause_row(fp, cs, js_cause_name(k), "(all)", cl->gaps, cs->by_primary[k],
				  true, cl->total_ns, cl->max_ns);
	}
	fputs(bycg ? "<tr><th colspan=\"7\">top cgroups (the sources naming a task, per class "
		     "and cgroup)</th></tr>\n" :
		     "<tr><th colspan=\"7\">top sources</th></tr>\n",
	      fp);
	for (size_t i = 0; i < n && i < 25; i++)
		cause_row(fp, top, js_cause_name(src[i]->cause), src[i]->detail, src[i]->gaps, 0,
			  false, src[i]->total_ns, src[i]->max_ns);
	fputs("</table>\n", fp);
}

/* intervals - the worst gap of each interval (log y), its story in the bar's title */
static void intervals(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	const struct js_intervals *iv = &r->intervals;
	int H = 200, ph = H - FIG_T - FIG_B;
	int64_t maxv = 1;
	double bw, hi;
	char b[32], l[32], line[256];

	if (!iv->n)
		return;
	for (size_t i = 0; i < iv->n; i++)
		maxv = JS_MAX(maxv, iv->v[i].max_ns);
	hi = pow(10, ceil(log10((double)maxv + 1)));
	bw = (double)(FIG_W - FIG_L - FIG_R) / iv->n;
	fprintf(fp,
		"<h3>Worst gap per %s</h3>\n<svg class=\"fig intervals\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\">\n",
		fmt(l, iv->len_ns), FIG_W, H, FIG_W, H);
	html_log_grid(fp, 100, hi, FIG_T, ph, true);
	for (size_t i = 0; i < iv->n; i++) {
		double y = html_ylog((double)JS_MAX(iv->v[i].max_ns, (int64_t)100), 100, hi, FIG_T,
				     ph);

		const struct js_interval_worst *w = &iv->v[i].worst;

		fprintf(fp,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#5c7cba\">"
			"<title>interval %zu: %" PRIu64 " gaps, worst ",
			FIG_L + i * bw + 1, y, JS_MAX(bw - 2, 1.0), FIG_T + ph - y, i,
			iv->v[i].gaps);
		if (w->dur_ns) {
			story_format_brief(line, sizeof(line), w->start_ns, w->dur_ns, w->cause,
					   w->detail, run->start_mono_ns);
			html_esc(fp, line);
		} else {
			fputs(fmt(b, (uint64_t)iv->v[i].max_ns), fp);
		}
		fputs("</title></rect>\n", fp);
	}
	fprintf(fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">interval (%s each, %zu in all)"
		"</text>\n</svg>\n",
		(FIG_W + FIG_L) / 2, H - 8, l, iv->n);
}

static void arrivals(FILE *fp, const struct js_cpu_result *r)
{
	char b[32];

	if (!r->narrivals)
		return;
	fputs("<h3>Arrivals (what a periodic event would have suffered)</h3>\n<table><tr>"
	      "<th>every</th><th>arrivals</th><th>delayed</th><th>delayed %</th>",
	      fp);
	for (size_t i = 0; i < js_npcts; i++)
		fprintf(fp, "<th>delay %s</th>", js_pcts[i].label);
	fputs("<th>max delay</th><th>delayed by (primary cause)</th></tr>\n", fp);
	for (size_t i = 0; i < r->narrivals; i++) {
		const struct js_arrival *a = &r->arrivals[i];

		fputs("<tr>", fp);
		html_td_ns(fp, a->interval_ns);
		html_td_u64(fp, a->arrivals);
		html_td_u64(fp, a->delayed);
		fprintf(fp, "<td class=\"n\">%.4f %%</td>",
			a->arrivals ? 100.0 * a->delayed / a->arrivals : 0.0);
		for (size_t k = 0; k < js_npcts; k++)
			html_td_ns(fp, (uint64_t)hist_value_at_percentile(&a->delay, js_pcts[k].p));
		html_td_ns(fp, (uint64_t)hist_max(&a->delay));
		fputs("<td>", fp);
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (a->delayed_by_cause[c])
				fprintf(fp, "%s %" PRIu64 " (%s) ", js_cause_name(c),
					a->delayed_by_cause[c], fmt(b, a->delay_ns_by_cause[c]));
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

/* thread_own - a followed thread's time kept from it, apart from its own kernel work (the
 * softirqs it ran itself: not gaps) */
static void thread_own(FILE *fp, const struct js_cpu_result *r)
{
	const struct js_thread_stats *t = &r->ts;
	char a[32], b[32], c[32];

	if (r->source != JS_SRC_THREAD)
		return;
	fprintf(fp,
		"<table class=\"own\"><tr><th></th><th>count</th><th>time</th></tr>\n"
		"<tr><td>taken from it: preempted</td><td class=\"n\">%" PRIu64
		"</td><td class=\"n\">%s</td></tr>\n"
		"<tr><td>taken from it: interrupted (IRQs, softirqs that interrupted it)</td>"
		"<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td></tr>\n"
		"<tr><td>its own kernel work: softirqs it ran itself (not gaps)</td>"
		"<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td></tr>\n</table>\n",
		t->preempted, fmt(a, t->preempted_ns), t->interrupted, fmt(b, t->interrupted_ns),
		t->own_bh, fmt(c, t->own_bh_ns));
}

static void cpu_section(FILE *fp, const struct html_out *h, const struct js_run *run,
			const struct html_cpu *c, const struct js_cpu_result *r)
{
	char key[JS_LABEL_LEN + 16], label[JS_LABEL_LEN + 16];

	fprintf(fp, "<section class=\"cpu\" id=\"%s\">\n<h2>", result_key(r, key, sizeof(key)));
	html_esc(fp, result_label(r, label, sizeof(label)));
	if (r->node >= 0)
		fprintf(fp, " (NUMA node %d)", r->node);
	fputs("</h2>\n", fp);
	summary(fp, run, r);
	thread_own(fp, r);
	lost_by_cause(fp, r);
	lost_per_interval(fp, r);
	fputs("<h3>Gap histogram by primary cause</h3>\n", fp);
	html_histogram(fp, &(struct html_series){ &r->cb, 1, NULL }, 1);
	fputs("<h3>Gaps over time</h3>\n", fp);
	scatter(fp, run, c, r);
	folded(fp, c, r);
	fputs("<h3>Worst gaps</h3>\n<p class=\"note\">under each story, the gap's time as the "
	      "story tells it, each part as wide as its share (the order of the story, not of "
	      "the events; the entry/exit lighter)</p>\n",
	      fp);
	stories(fp, run, r);
	fputs("<h3>Causes</h3>\n", fp);
	cause_table(fp, &r->causes, h->by == JS_BY_CGROUP ? &r->by_cgroup : NULL);
	intervals(fp, run, r);
	arrivals(fp, r);
	fputs("</section>\n", fp);
}

/* audit_rank - problems first: fail, warn, skip, pass; then severity */
static int audit_rank(const struct audit_check *k)
{
	static const int order[AUDIT_NVERDICTS] = {
		[AUDIT_FAIL] = 0, [AUDIT_WARN] = 1, [AUDIT_SKIP] = 2, [AUDIT_PASS] = 3
	};

	return order[k->verdict] * 8 + (SEV_CRIT - (int)k->severity);
}

static int cmp_check(const void *pa, const void *pb)
{
	const struct audit_check *a = *(const struct audit_check *const *)pa;
	const struct audit_check *b = *(const struct audit_check *const *)pb;

	return audit_rank(a) - audit_rank(b);
}

static void check_row(FILE *fp, const struct audit_check *k)
{
	char cpu[16];

	if (k->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "%d", k->cpu);
	else
		snprintf(cpu, sizeof(cpu), "-");
	fprintf(fp, "<tr><td class=\"v-%s\">%s</td>", audit_verdict_name(k->verdict),
		audit_verdict_name(k->verdict));
	html_td(fp, NULL, audit_severity_name(k->severity));
	html_td(fp, NULL, k->id);
	html_td(fp, NULL, cpu);
	fputs("<td>", fp);
	html_esc(fp, k->observed);
	if (k->verdict != AUDIT_PASS && k->expected[0]) {
		fputs("<br><span class=\"note\">expected: ", fp);
		html_esc(fp, k->expected);
		fputs("</span>", fp);
	}
	if (k->verdict != AUDIT_PASS && k->hint[0]) {
		fputs("<br><span class=\"note\">hint: ", fp);
		html_esc(fp, k->hint);
		fputs("</span>", fp);
	}
	fputs("</td></tr>\n", fp);
}

static void audit_section(FILE *fp, const struct js_run *run)
{
	const struct js_audit *a = &run->audit;
	const struct audit_check **v = calloc(a->n ? a->n : 1, sizeof(*v));
	bool open = false;

	fprintf(fp,
		"<section id=\"audit\"><h2>Isolation audit</h2>\n<p>%zu fail, %zu warn, "
		"%zu skip, %zu pass</p>\n",
		audit_count(a, AUDIT_FAIL), audit_count(a, AUDIT_WARN), audit_count(a, AUDIT_SKIP),
		audit_count(a, AUDIT_PASS));
	if (!v) {
		fputs("</section>\n", fp);
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		v[i] = &a->checks[i];
	qsort(v, a->n, sizeof(*v), cmp_check);
	fputs("<table><tr><th>verdict</th><th>severity</th><th>check</th><th>cpu</th>"
	      "<th>observed</th></tr>\n",
	      fp);
	for (size_t i = 0; i < a->n; i++) {
		if (v[i]->verdict == AUDIT_PASS && !open) {
			fputs("</table>\n<details><summary>passed checks</summary><table>\n", fp);
			open = true;
		}
		check_row(fp, v[i]);
	}
	fputs(open ? "</table></details>\n" : "</table>\n", fp);
	free(v);
	fputs("</section>\n", fp);
}

static void settings_section(FILE *fp, const struct js_run *run)
{
	if (!run->nxcheck)
		return;
	fputs("<section id=\"settings\"><h2>What the settings explain</h2>\n<ul>\n", fp);
	for (size_t i = 0; i < run->nxcheck; i++) {
		fputs("<li>", fp);
		html_esc(fp, run->xcheck[i]);
		fputs("</li>\n", fp);
	}
	fputs("</ul></section>\n", fp);
}

static void page(FILE *fp, const struct html_out *h, const struct js_run *run)
{
	bool present[JS_CAUSE_MAX] = { false };
	char title[128];

	for (size_t i = 0; i < run->ncpus; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			present[c] |= run->cpus[i].causes.by_primary[c] != 0;
	snprintf(title, sizeof(title), "jitterscope report: %s", run->machine.hostname);
	html_begin(fp, title);
	header(fp, run);
	fputs("<p class=\"note\">primary causes (click to hide or show):</p>\n", fp);
	html_legend(fp, present);
	for (size_t i = 0; i < run->ncpus; i++)
		cpu_section(fp, h, run, i < h->ncpus ? &h->cpus[i] : NULL, &run->cpus[i]);
	settings_section(fp, run);
	if (run->audited)
		audit_section(fp, run);
	html_end(fp);
}

/* html_finish - write the page from the final result and the collected points */
static int html_finish(void *ctx, const struct js_run *run)
{
	struct html_out *h = ctx;

	if (!h->run)
		h->run = run;
	if (!grow(h))
		return h->err;
	page(h->fp, h, run);
	return output_file_flush(h->fp);
}

static void html_destroy(void *ctx)
{
	struct html_out *h = ctx;

	for (size_t i = 0; h->cpus && i < h->ncpus; i++) {
		topn_free(&h->cpus[i].worst);
		free(h->cpus[i].sample);
		for (int b = 0; b < JS_PERIOD_BANDS; b++)
			free(h->cpus[i].fold[b].t);
	}
	free(h->cpus);
	output_file_close(h->fp);
	free(h);
}

int out_html_new(struct js_output *out, const char *path, const struct js_params *params)
{
	struct html_out *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->by = params ? params->cfg.by : JS_BY_SOURCE;
	h->fp = output_file_open(path, "html");
	if (!h->fp) {
		free(h);
		return -EIO;
	}
	h->rng = 0x9E3779B97F4A7C15ull;
	out->name = "HTML";
	out->ctx = h;
	out->file = h->fp;
	out->run_start = html_run_start;
	out->on_gap = html_on_gap;
	out->replay = html_replay;
	out->finish = html_finish;
	out->destroy = html_destroy;
	return 0;
}
