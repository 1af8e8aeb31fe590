// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * host.c - a gap's unexplained time given to the host class its evidence names (js_host.h).
 * Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "js_host.h"
#include "js_util.h"

double host_phase_window_ns(const struct js_period_result *pr)
{
	double p = (double)pr->period_ns, max = HOST_PHASE_MAX_FRAC * p, sd;

	if (pr->strength <= 0 || pr->strength >= 1)
		return pr->strength >= 1 ? 0 : max;
	sd = p / (2 * M_PI) * sqrt(-2 * log(pr->strength));
	return JS_MIN(3 * sd, max);
}

bool host_on_phase(const struct js_period_result *pr, uint64_t t_ns)
{
	double d;

	if (!pr->periodic || !pr->period_ns || pr->phase_ns < 0)
		return false;
	d = fabs((double)(t_ns % pr->period_ns) - pr->phase_ns);
	if (d > (double)pr->period_ns / 2) /* the circular distance */
		d = (double)pr->period_ns - d;
	return d <= host_phase_window_ns(pr);
}

void host_periodic_detail(char *buf, size_t len, uint64_t period_ns)
{
	char p[32];

	snprintf(buf, len, "every %s (host tick)", js_fmt_ns(p, sizeof(p), period_ns));
}

/* periodic_gap - g has no guest event and starts on the phase of the period (a tick's, at
 * most HOST_TICK_MAX_NS) the detector of its band of durations finds, once that band holds
 * HOST_MIN_GAPS and its times span HOST_SPAN_PERIODS of it; not a gap whose events may have
 * been lost or evicted (attr.evidence_lost): "no guest event" is then not known */
static bool periodic_gap(const struct js_gap_rec *g, const struct js_period_classes *pc,
			 uint64_t *period_ns)
{
	const struct js_period *p;
	struct js_period_result pr;
	int i = JS_PERIOD_BANDS - 1;

	while (i > 0 && g->gap.dur_ns < js_period_band_ns[i])
		i--;
	p = &pc->band[i];
	if (g->attr.nparts || g->attr.evidence_lost || p->n < HOST_MIN_GAPS ||
	    !period_result(p, &pr) || pr.period_ns > HOST_TICK_MAX_NS ||
	    (!p->blocks && g->gap.start_ns - p->block_start < HOST_SPAN_PERIODS * pr.period_ns) ||
	    !host_on_phase(&pr, g->gap.start_ns))
		return false;
	*period_ns = pr.period_ns;
	return true;
}

enum js_cause host_name(struct js_gap_rec *g, const struct js_period_classes *pc, bool periodic)
{
	struct js_attr *a = &g->attr;
	enum js_cause c = JS_CAUSE_UNEXPLAINED;
	uint64_t period_ns = 0;
	uint32_t count = 1;
	struct js_part *p;

	/* a mark's remainder is the application's work; an SMI's time is its unexplained */
	if (!a->unexplained_ns || g->gap.source == JS_SRC_MARK || a->primary == JS_CAUSE_SMI ||
	    a->nparts >= JS_PARTS_MAX)
		return JS_CAUSE_UNEXPLAINED;
	if (a->host_reloads) {
		c = JS_CAUSE_HOST_RELOAD;
		count = a->host_reloads;
	} else if (a->host_clock) {
		c = JS_CAUSE_HOST_CLOCK;
		count = a->host_clock;
	} else if (periodic && pc && periodic_gap(g, pc, &period_ns)) {
		c = JS_CAUSE_HOST_PERIODIC;
	} else {
		return JS_CAUSE_UNEXPLAINED;
	}
	p = &a->parts[a->nparts++];
	memset(p, 0, sizeof(*p));
	p->cause = c;
	p->count = count;
	p->net_ns = a->unexplained_ns;
	if (c == JS_CAUSE_HOST_PERIODIC)
		host_periodic_detail(p->detail, sizeof(p->detail), period_ns);
	else
		js_scpy(p->detail, sizeof(p->detail),
			c == JS_CAUSE_HOST_RELOAD ? HOST_RELOAD_DETAIL : HOST_CLOCK_DETAIL);
	a->unexplained_ns = 0;
	if (a->primary == JS_CAUSE_UNEXPLAINED) {
		a->primary = c;
		js_scpy(a->detail, sizeof(a->detail), p->detail);
	}
	return c;
}
