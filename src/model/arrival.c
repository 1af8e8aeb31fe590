// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * arrival.c - delays seen by fixed-interval arrivals during the run (see js_arrival.h for
 * the model), burst exposure, and the --arrival-interval / --burst parsers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "js_arrival.h"
#include "js_units.h"
#include "js_util.h"

typedef unsigned __int128 u128;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t u128_sat(u128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* First arrival index k with start + phase + k * interval >= t. */
static uint64_t first_at_or_after(const struct js_arrival *a, uint64_t t)
{
	uint64_t base = a->start_ns + a->phase_ns;

	if (t <= base)
		return 0;
	return (t - base - 1) / a->interval_ns + 1;
}

/* arrival_init - set up for one interval; the window starts at start_ns. 0 or -errno */
int arrival_init(struct js_arrival *a, uint64_t interval_ns, uint64_t start_ns, uint64_t floor_ns)
{
	memset(a, 0, sizeof(*a));
	if (interval_ns == 0 || interval_ns > ARRIVAL_INTERVAL_MAX_NS)
		return -EINVAL;
	a->interval_ns = interval_ns;
	a->start_ns = start_ns;
	a->end_ns = start_ns;
	a->cursor_ns = start_ns;
	a->floor_ns = floor_ns;
	return hist_init(&a->delay, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);
}

/* arrival_free - release the histogram (a zeroed or freed struct is fine) */
void arrival_free(struct js_arrival *a)
{
	hist_free(&a->delay);
}

/*
 * Record the n values dmin, dmin + step, ..., dmin + (n - 1) * step: per histogram slot,
 * count the terms that fall in it and record them at once, at the largest such term (any
 * value of the slot gives the same percentiles; this one keeps the raw max exact).
 */
static void record_series(struct js_hist *h, uint64_t dmin, uint64_t step, uint64_t n)
{
	uint64_t t = dmin, c, top;

	while (n) {
		if (t > (uint64_t)h->highest) { /* the rest is clamped (overflow) */
			hist_record_n(h, h->highest + 1, n);
			return;
		}
		top = (uint64_t)hist_highest_equivalent(h, (int64_t)t);
		top = JS_MIN(top, (uint64_t)h->highest);
		c = (top - t) / step + 1;
		if (c > n)
			c = n;
		hist_record_n(h, (int64_t)(t + (c - 1) * step), c);
		t += c * step;
		n -= c;
	}
}

/* Clip [*s, *e) to start after everything already taken; false if nothing is left. */
static bool clip_gap(struct js_arrival *a, uint64_t *s, uint64_t *e)
{
	if (*s < a->cursor_ns) {
		a->clipped++;
		*s = a->cursor_ns;
	}
	if (*e <= *s)
		return false;
	a->cursor_ns = *e;
	return true;
}

static void account(struct js_arrival *a, int cause, uint64_t n, uint64_t sum)
{
	if (cause < 0 || cause >= JS_CAUSE_MAX)
		cause = JS_CAUSE_UNEXPLAINED;
	a->delayed += n;
	a->delayed_by_cause[cause] += n;
	a->delay_ns_by_cause[cause] = sat_add(a->delay_ns_by_cause[cause], sum);
	a->delay_ns_total = sat_add(a->delay_ns_total, sum);
}

/* arrival_add_gap - account every arrival in [gap_start, gap_start + dur), per slot */
void arrival_add_gap(struct js_arrival *a, uint64_t gap_start_ns, uint64_t gap_dur_ns,
		     int primary_cause)
{
	uint64_t s = gap_start_ns, e, k0, k1, n, dmax, dmin;
	uint64_t base = a->start_ns + a->phase_ns;
	u128 sum;

	e = sat_add(s, gap_dur_ns);
	if (a->finished || !clip_gap(a, &s, &e))
		return;
	k0 = first_at_or_after(a, s);
	k1 = first_at_or_after(a, e);
	n = k1 - k0;
	if (n == 0)
		return;
	dmax = e - (base + k0 * a->interval_ns); /* the first arrival waits longest */
	dmin = dmax - (n - 1) * a->interval_ns;	 /* > 0: its arrival is < e */
	record_series(&a->delay, dmin, a->interval_ns, n);
	/* sum of the series: n * dmax - interval * n (n - 1) / 2 */
	sum = (u128)n * dmax - (u128)a->interval_ns * n * (n - 1) / 2;
	account(a, primary_cause, n, u128_sat(sum));
}

/* arrival_finish - close the window; the arrivals outside gaps are recorded in bulk */
void arrival_finish(struct js_arrival *a, uint64_t end_ns)
{
	uint64_t outside;

	if (a->finished)
		return;
	if (end_ns < a->cursor_ns)
		end_ns = a->cursor_ns;
	a->end_ns = end_ns;
	a->arrivals = first_at_or_after(a, end_ns);
	outside = a->arrivals - a->delayed;
	if (outside)
		hist_record_n(&a->delay, (int64_t)a->floor_ns, outside);
	a->finished = true;
}

/* arrival_delayed_share - delayed / arrivals (0 when there were no arrivals) */
double arrival_delayed_share(const struct js_arrival *a)
{
	return a->arrivals ? (double)a->delayed / (double)a->arrivals : 0.0;
}

/* arrival_bruteforce - the reference: the same result computed one arrival at a time */
void arrival_bruteforce(struct js_arrival *a, const struct js_gap *gaps, const int *causes,
			size_t ngaps, uint64_t end_ns)
{
	uint64_t base = a->start_ns + a->phase_ns, t, s, e;
	size_t i;

	/* the window end rule of arrival_finish: never before the last gap's end */
	for (i = 0; i < ngaps; i++)
		if (sat_add(gaps[i].start_ns, gaps[i].dur_ns) > end_ns)
			end_ns = sat_add(gaps[i].start_ns, gaps[i].dur_ns);
	a->end_ns = end_ns;
	i = 0;
	s = e = 0;
	for (t = base; t < end_ns; t += a->interval_ns) {
		while (e <= t && i < ngaps) { /* next gap that may contain t */
			s = gaps[i].start_ns;
			e = sat_add(s, gaps[i].dur_ns);
			if (!clip_gap(a, &s, &e))
				s = e = 0;
			i++;
		}
		a->arrivals++;
		if (t >= s && t < e) {
			hist_record(&a->delay, (int64_t)(e - t));
			account(a, causes ? causes[i - 1] : JS_CAUSE_UNEXPLAINED, 1, e - t);
		} else {
			hist_record(&a->delay, (int64_t)a->floor_ns);
		}
	}
	a->finished = true;
}

/* --- burst exposure --- */

/* arrival_burst_probability - Poisson estimate; -1.0 if window_ns or the inputs are 0 */
double arrival_burst_probability(const struct js_hist *gaps, uint64_t window_ns,
				 uint64_t interval_ns, uint64_t burst_n, uint64_t size_ns)
{
	long double span = (long double)interval_ns * burst_n, expo = 0;
	int64_t floor_v, v;
	int i;

	if (!window_ns || !interval_ns || !burst_n || !gaps->counts)
		return -1.0;
	floor_v = hist_lowest_equivalent(gaps, (int64_t)JS_MIN(size_ns, (uint64_t)gaps->highest));
	for (i = 0; i < gaps->counts_len; i++) {
		if (!gaps->counts[i])
			continue;
		v = hist_value_from_index(gaps, i);
		if (v < floor_v)
			continue;
		expo += gaps->counts[i] * (span + hist_median_equivalent(gaps, v));
	}
	return (double)(1.0L - expl(-expo / window_ns));
}

/* burst_init - empirical burst exposure for N arrivals at interval_ns, gaps >= size_ns */
void burst_init(struct js_burst *b, uint64_t start_ns, uint64_t interval_ns, uint64_t burst_n,
		uint64_t size_ns)
{
	u128 span = (u128)interval_ns * burst_n;

	memset(b, 0, sizeof(*b));
	b->span_ns = u128_sat(span);
	b->size_ns = size_ns;
	b->start_ns = start_ns;
}

/* burst_add_gap - feed one gap (start order) */
void burst_add_gap(struct js_burst *b, uint64_t gap_start_ns, uint64_t gap_dur_ns)
{
	uint64_t lo, hi;

	if (gap_dur_ns < b->size_ns)
		return;
	b->gaps++;
	/* burst starts t with [t, t + span) overlapping [s, s + d): s - span < t < s + d */
	lo = gap_start_ns >= b->span_ns ? gap_start_ns - b->span_ns + 1 : 0;
	lo = JS_MAX(lo, b->start_ns);
	hi = sat_add(gap_start_ns, gap_dur_ns);
	if (hi <= lo)
		return;
	if (b->open && lo <= b->hi) {
		b->hi = JS_MAX(b->hi, hi);
		return;
	}
	if (b->open)
		b->covered_ns += b->hi - b->lo;
	b->lo = lo;
	b->hi = hi;
	b->open = true;
}

/* burst_finish - probability in [0, 1]; -1.0 if the window is not longer than a burst */
double burst_finish(struct js_burst *b, uint64_t end_ns)
{
	uint64_t hi;

	if (b->open && b->hi > end_ns) /* gaps lie in the window */
		end_ns = b->hi;
	if (end_ns <= b->start_ns || end_ns - b->start_ns <= b->span_ns)
		return -1.0;
	/* valid burst starts: [start, end - span]; only the open run can reach past it */
	b->lim_ns = end_ns - b->span_ns + 1;
	if (b->open) {
		hi = JS_MIN(b->hi, b->lim_ns);
		if (hi > b->lo)
			b->covered_ns += hi - b->lo;
		b->open = false;
	}
	return (double)b->covered_ns / (double)(b->lim_ns - b->start_ns);
}

/* --- parsing --- */

/* an interval: a TIME with its unit, 1 ns .. 1 h */
static const struct js_unit_spec interval_spec = { 0, 1, ARRIVAL_INTERVAL_MAX_NS, NULL };

/* parse_one - the item [p, p + len) into whole ns */
static int parse_one(const char *p, size_t len, uint64_t *ns, char *err, size_t errlen)
{
	char item[64], why[160];

	if (len >= sizeof(item))
		return js_errf(err, errlen, "'%.20s...': too long", p);
	memcpy(item, p, len);
	item[len] = '\0';
	if (js_parse_time(item, &interval_spec, ns, why, sizeof(why)))
		return js_errf(err, errlen, "'%s': %s", item, why);
	return 0;
}

/* arrival_parse_list - parse --arrival-interval "1us,10us,100us" into out[] */
int arrival_parse_list(const char *s, uint64_t *out, size_t max, size_t *n, char *err,
		       size_t errlen)
{
	const char *p = s, *c;
	size_t len, i, k = 0;
	uint64_t v = 0;
	int ret;

	*n = 0;
	if (!s || !*s)
		return js_errf(err, errlen, "empty interval list");
	for (;;) {
		c = strchr(p, ',');
		len = c ? (size_t)(c - p) : strlen(p);
		if (!len)
			return js_errf(err, errlen, "'%s': empty item in the list", s);
		ret = parse_one(p, len, &v, err, errlen);
		if (ret)
			return ret;
		for (i = 0; i < k; i++)
			if (out[i] == v)
				return js_errf(err, errlen, "'%.*s': listed twice", (int)len, p);
		if (k == max)
			return js_errf(err, errlen, "'%s': at most %zu intervals", s, max);
		out[k++] = v;
		if (!c)
			break;
		p = c + 1;
	}
	*n = k;
	return 0;
}

/* arrival_parse_burst - "500": an integer 1 .. ARRIVAL_BURST_MAX; 0, or -EINVAL with err */
int arrival_parse_burst(const char *s, uint64_t *out, char *err, size_t errlen)
{
	uint64_t v = 0;
	const char *p = s;

	if (!s || !*s)
		return js_errf(err, errlen, "empty burst size");
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > ARRIVAL_BURST_MAX)
			return js_errf(err, errlen, "'%s': at most %llu arrivals", s,
				       (unsigned long long)ARRIVAL_BURST_MAX);
	}
	if (*p)
		return js_errf(err, errlen, "'%s': expected a whole number of arrivals", s);
	if (v == 0)
		return js_errf(err, errlen, "'%s': must be at least 1", s);
	*out = v;
	return 0;
}
