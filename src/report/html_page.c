// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* html_page.c - what every jitterscope HTML page shares (see js_html.h). */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>

#include "js_html.h"
#include "js_model.h"
#include "js_util.h"

/* html_cause_colour - the class table's colour; unknown classes get the unexplained grey */
const char *html_cause_colour(uint32_t c)
{
	return js_cause_info(c)->colour;
}

/* html_esc - the five characters HTML gives a meaning */
void html_esc(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			fputc(*s, fp);
		}
	}
}

/* html_td - one cell */
void html_td(FILE *fp, const char *cls, const char *s)
{
	fprintf(fp, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_esc(fp, s);
	fputs("</td>", fp);
}

void html_td_ns(FILE *fp, uint64_t ns)
{
	char b[32];

	html_td(fp, "n", js_fmt_ns(b, sizeof(b), ns));
}

void html_td_u64(FILE *fp, uint64_t v)
{
	fprintf(fp, "<td class=\"n\">%" PRIu64 "</td>", v);
}

/* html_fact - one row of a facts table */
void html_fact(FILE *fp, const char *k, const char *v)
{
	fputs("<tr><th>", fp);
	html_esc(fp, k);
	fputs("</th>", fp);
	html_td(fp, NULL, v);
	fputs("</tr>\n", fp);
}

static void css(FILE *fp)
{
	fputs("<style>\nbody{font:14px/1.4 system-ui,sans-serif;margin:18px 28px;color:#222;"
	      "background:#fff;max-width:1100px}\n"
	      "h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;border-bottom:2px solid #ddd;"
	      "margin-top:28px}h3{font-size:15px;margin:18px 0 6px}\n"
	      "#answer table{font-size:15px;margin:4px 0 14px;border-left:3px solid #d62728}\n"
	      "table{border-collapse:collapse;margin:4px 0}td,th{padding:2px 8px;"
	      "border-bottom:1px solid #eee;text-align:left;vertical-align:top}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      "th{font-weight:600;background:#f6f6f6}table.facts th{background:none}\n"
	      ".legend span{display:inline-block;margin:2px 10px 2px 0;cursor:pointer;"
	      "user-select:none}.legend span.off{opacity:.35;text-decoration:line-through}\n"
	      ".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
	      "vertical-align:-1px;border-radius:2px}\n"
	      "svg{display:block;background:#fcfcfc;border:1px solid #e4e4e4}\n"
	      "svg text{font:11px sans-serif;fill:#444}svg .grid{stroke:#e6e6e6}"
	      "svg .axis{stroke:#888}\n"
	      "ol.stories li{margin:4px 0}ol.stories pre{margin:4px 0 8px;font-size:12px;"
	      "background:#f7f7f7;padding:6px}\n"
	      ".v-fail{color:#fff;background:#c62828}.v-warn{background:#ffe082}"
	      ".v-pass{color:#2e7d32}.v-skip{color:#777}\n"
	      ".d-worse{color:#c62828;font-weight:600}.d-better{color:#2e7d32;font-weight:600}"
	      ".d-uncertain,.d-mixed{color:#8a6d00}.d-same{color:#777}\n"
	      ".note{color:#666;font-size:12px}.bad{color:#c62828;font-weight:600}\n",
	      fp);
	for (int c = 0; c < JS_CAUSE_MAX; c++)
		fprintf(fp, ".hide-%s .c-%s{display:none}\n", js_cause_name(c), js_cause_name(c));
	fputs("</style>\n", fp);
}

/* html_legend - one click target per cause present */
void html_legend(FILE *fp, const bool *present)
{
	fputs("<div class=\"legend\">", fp);
	for (int c = 0; c < JS_CAUSE_MAX; c++) {
		if (!present[c])
			continue;
		fprintf(fp,
			"<span data-cause=\"%s\" title=\"click to hide/show\">"
			"<i style=\"background:%s\"></i>%s</span>",
			js_cause_name(c), html_cause_colour(c), js_cause_name(c));
	}
	fputs("</div>\n", fp);
}

/* html_ylog - clamped to the axis */
double html_ylog(double v, double lo, double hi, double top, double h)
{
	double f = (log10(v) - log10(lo)) / (log10(hi) - log10(lo));

	return top + h - JS_MAX(0.0, JS_MIN(1.0, f)) * h;
}

/* html_log_grid - a line and a label per decade */
void html_log_grid(FILE *fp, double lo, double hi, double top, double h, bool ns_units)
{
	char b[32];

	for (double v = pow(10, floor(log10(lo))); v <= hi * 1.0001; v *= 10) {
		double y;

		if (v < lo * 0.9999)
			continue;
		y = html_ylog(v, lo, hi, top, h);
		fprintf(fp, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>",
			FIG_L, FIG_W - FIG_R, y, y);
		if (ns_units)
			js_fmt_ns(b, sizeof(b), (uint64_t)v);
		else
			snprintf(b, sizeof(b), v >= 1 ? "%.0f" : "%g", v);
		fprintf(fp, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", FIG_L - 6,
			y + 4, b);
	}
}

/* bar - one series' bar of bucket i, split by primary cause */
static void bar(FILE *fp, const struct html_series *s, int i, double x, double w, double lo,
		double hi, int ph)
{
	const struct js_cause_buckets *b = s->cb;
	char l[32], h[32], cls[16] = "", rate[40] = "";
	double top, y = FIG_T + ph;

	if (!b->total[i])
		return;
	js_fmt_ns(l, sizeof(l), cbuckets_lo(i));
	js_fmt_ns(h, sizeof(h), cbuckets_hi(i));
	if (s->name) {
		snprintf(cls, sizeof(cls), " ser-%c", tolower((unsigned char)s->name[0]));
		snprintf(rate, sizeof(rate), " (%.3g/s)", b->total[i] * s->scale);
	}
	top = html_ylog((double)b->total[i] * s->scale, lo, hi, FIG_T, ph);
	if (b->total[i] == 1) /* a single gap sits on the axis' floor: give it a sliver */
		top = FIG_T + ph - 3;
	for (int c = 0; c < JS_CAUSE_MAX; c++) {
		double seg = (FIG_T + ph - top) * b->count[i][c] / (double)b->total[i];

		if (!b->count[i][c])
			continue;
		y -= seg;
		fprintf(fp,
			"<rect class=\"c-%s%s\" x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" "
			"height=\"%.2f\" fill=\"%s\"><title>%s%s%s .. %s: %" PRIu64 " of %" PRIu64
			" gaps%s, primary cause %s</title></rect>\n",
			js_cause_name(c), cls, x, y, w, seg, html_cause_colour(c),
			s->name ? s->name : "", s->name ? ": " : "", l, h, b->count[i][c],
			b->total[i], rate, js_cause_name(c));
	}
}

/* html_histogram - the series side by side in each bucket, on one log axis */
void html_histogram(FILE *fp, const struct html_series *s, size_t n)
{
	int first = -1, last = -1, H = 260, ph = H - FIG_T - FIG_B;
	double maxv = 0, lo = INFINITY, hi, bw, sw;
	bool rates = false;
	char l[32];

	for (size_t k = 0; k < n; k++) {
		lo = fmin(lo, pow(10, floor(log10(s[k].scale))));
		rates |= s[k].scale != 1;
		for (int i = 0; i < JS_CB_BUCKETS; i++) {
			if (!s[k].cb->total[i])
				continue;
			first = first < 0 || i < first ? i : first;
			last = JS_MAX(last, i);
			maxv = fmax(maxv, (double)s[k].cb->total[i] * s[k].scale);
		}
	}
	if (first < 0) {
		fputs("<p class=\"note\">no gaps above the threshold</p>\n", fp);
		return;
	}
	hi = pow(10, ceil(log10(maxv + lo)));
	bw = (double)(FIG_W - FIG_L - FIG_R) / (last - first + 1);
	sw = (bw - 4) / (double)n;
	fprintf(fp,
		"<svg class=\"fig hist\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"role=\"img\">\n",
		FIG_W, H, FIG_W, H);
	html_log_grid(fp, lo, hi, FIG_T, ph, false);
	for (int i = first; i <= last; i++) {
		double x = FIG_L + (i - first) * bw + 2;

		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			x + bw / 2 - 2, H - FIG_B + 16, js_fmt_ns(l, sizeof(l), cbuckets_lo(i)));
		/* several series: the first one lighter, so that A and B tell apart */
		for (size_t k = 0; k < n; k++) {
			if (n > 1)
				fputs(k ? "<g>" : "<g fill-opacity=\"0.45\">", fp);
			bar(fp, &s[k], i, x + k * sw, n > 1 ? sw - 1 : sw, lo, hi, ph);
			if (n > 1)
				fputs("</g>\n", fp);
		}
	}
	fprintf(fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">gap duration (bucket lower "
		"bound)</text>\n<text transform=\"translate(14 %d) rotate(-90)\" "
		"text-anchor=\"middle\">%s (log)</text>\n</svg>\n",
		(FIG_W + FIG_L) / 2, H - 8, FIG_T + ph / 2, rates ? "gaps per second" : "gaps");
	if (n > 1)
		fputs("<p class=\"note\">bar height: gaps per second (log scale); in each bucket "
		      "the lighter bar is A, the other B; colours: the share of each primary cause "
		      "among the bucket's gaps</p>\n",
		      fp);
	else
		fputs("<p class=\"note\">bar height: number of gaps (log scale); colours: the share "
		      "of each primary cause among the bucket's gaps</p>\n",
		      fp);
}

/* script - legend clicks hide/show a cause; data-rendered marks a page that ran to the end */
static void script(FILE *fp)
{
	fputs("<script>\n(function () {\n"
	      "  var spans = document.querySelectorAll('.legend span[data-cause]');\n"
	      "  for (var i = 0; i < spans.length; i++) {\n"
	      "    spans[i].addEventListener('click', function (e) {\n"
	      "      var c = e.currentTarget.getAttribute('data-cause');\n"
	      "      document.body.classList.toggle('hide-' + c);\n"
	      "      var all = document.querySelectorAll('.legend span[data-cause=\"' + c + '\"]');\n"
	      "      for (var k = 0; k < all.length; k++) all[k].classList.toggle('off');\n"
	      "    });\n  }\n  var root = document.documentElement;\n"
	      "  root.setAttribute('data-points', document.querySelectorAll('circle.pt').length);\n"
	      "  root.setAttribute('data-bars', document.querySelectorAll('svg.hist rect').length);\n"
	      "  root.setAttribute('data-bars-a', "
	      "document.querySelectorAll('svg.hist rect.ser-a').length);\n"
	      "  root.setAttribute('data-bars-b', "
	      "document.querySelectorAll('svg.hist rect.ser-b').length);\n"
	      "  var axes = document.querySelectorAll('svg.lost-cause');\n"
	      "  for (var a = 0; a < axes.length; a++) {\n"
	      "    var aw = axes[a].querySelector('.lc-axis').getBoundingClientRect().width;\n"
	      "    var lc = axes[a].querySelectorAll('rect.lc');\n"
	      "    for (var k = 0; k < lc.length; k++)\n"
	      "      lc[k].setAttribute('data-drawn', "
	      "(100 * lc[k].getBoundingClientRect().width / aw).toFixed(2));\n  }\n"
	      "  root.setAttribute('data-ps-bars', "
	      "document.querySelectorAll('svg.per-second rect.ps').length);\n"
	      "  root.setAttribute('data-timelines', "
	      "document.querySelectorAll('svg.timeline').length);\n"
	      "  root.setAttribute('data-rendered', 'ok');\n})();\n</script>\n",
	      fp);
}

/* html_begin - the page up to its body's first element */
void html_begin(FILE *fp, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      fp);
	html_esc(fp, title);
	fputs("</title>\n", fp);
	css(fp);
	fputs("</head>\n<body>\n", fp);
}

/* html_end - the page after its last section */
void html_end(FILE *fp)
{
	fprintf(fp, "<p class=\"note\">jitterscope %s</p>\n", JS_VERSION);
	script(fp);
	fputs("</body></html>\n", fp);
}
