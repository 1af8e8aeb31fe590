/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_html.h - the pieces of jitterscope's self-contained HTML pages (the run's --html page,
 * out_html.c, and the diff's, diff_html.c): one style sheet, one cause palette and legend,
 * one gap histogram drawing, one script (legend clicks hide or show a cause; the root
 * element's data-rendered="ok", data-points, data-bars, data-bars-a, data-bars-b,
 * data-ps-bars and data-timelines tell a headless browser the page ran to its end and what it
 * drew; each time-lost-by-cause bar gets data-drawn, its rendered width in % of its axis).
 *
 *   html_begin(fp, "jitterscope report: host");
 *   ... html_fact(), html_legend(), html_histogram() ...
 *   html_end(fp);
 */
#ifndef JS_HTML_H
#define JS_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_causes.h"

/* figure geometry (SVG user units) */
#define FIG_W 960
#define FIG_L 70 /* left margin (y labels) */
#define FIG_R 20
#define FIG_T 14
#define FIG_B 46 /* bottom margin (x labels) */

/* html_cause_colour - the colour of cause class c ("#rrggbb") */
const char *html_cause_colour(uint32_t c);
/* html_esc - s as HTML text (also safe inside a quoted attribute) */
void html_esc(FILE *fp, const char *s);
/* html_td - one table cell with escaped text, class cls (NULL: none) */
void html_td(FILE *fp, const char *cls, const char *s);
/* html_td_ns - a duration cell; html_td_u64 - a count cell */
void html_td_ns(FILE *fp, uint64_t ns);
void html_td_u64(FILE *fp, uint64_t v);
/* html_fact - a row of a facts table: <th>k</th><td>v</td> */
void html_fact(FILE *fp, const char *k, const char *v);
/* html_legend - the causes present, each a click target hiding or showing it */
void html_legend(FILE *fp, const bool *present);
/* html_ylog - y of value v on a log axis from lo to hi over [top, top + h] */
double html_ylog(double v, double lo, double hi, double top, double h);
/* html_log_grid - horizontal lines and labels at the decades of a log axis (durations when
 * ns_units, else plain numbers) */
void html_log_grid(FILE *fp, double lo, double hi, double top, double h, bool ns_units);

/* One histogram drawn into a figure: counts x scale (1: gaps; 1 / seconds: gaps/s). */
struct html_series {
	const struct js_cause_buckets *cb;
	double scale;
	const char *name; /* "A", "B"; NULL for the single series of a run */
};

/* html_histogram - the 1-2-5 buckets, bar height log(value), each bar split by primary
 * cause; several series side by side in each bucket (the first lighter) */
void html_histogram(FILE *fp, const struct html_series *s, size_t n);

/* html_begin - doctype, head (title escaped), style sheet, <body> */
void html_begin(FILE *fp, const char *title);
/* html_end - the version line, the script, </body></html> */
void html_end(FILE *fp);

#endif /* JS_HTML_H */
