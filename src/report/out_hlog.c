// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_hlog.c - the --hlog output: an HdrHistogram interval log exactly as HdrHistogram
 * Java's HistogramLogWriter writes it (format 1.3; hlog.c formats the lines). Per interval
 * an untagged line (every result), one tagged line per result (Tag=cpuN per measured CPU,
 * Tag=tidN per followed thread, Tag=markN for the marks filed on CPU N) and one
 * Tag=KEY-arrivalX line per result and arrival interval; a gap belongs to the interval its
 * start falls in. Lines are
 * written 100 ms after their interval ends; nothing is allocated per gap. The format:
 * docs/OUTPUTS.md; the timing: docs/DESIGN.md, out_hlog.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "js_hlog.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_util.h"

#define HLOG_PEND_CAP 16384	  /* gaps queued per CPU for intervals after the current one */
#define HLOG_HOLD_NS 100000000ull /* an interval is written this long after its end */
#define HLOG_TAG_LEN (JS_LABEL_LEN + 48)
#define HLOG_SLIVER_NS 1000000ull /* a gapless tail shorter than this joins the last interval */

struct hlog_pend {
	uint64_t start_ns, dur_ns;
	uint32_t cause;
};

struct hlog_arr {
	struct js_arrival a;
	char tag[HLOG_TAG_LEN];
	bool open; /* window set up (the CPU's measured window has started) */
};

struct hlog_cpu {
	size_t ri; /* index in run->cpus */
	char tag[HLOG_TAG_LEN];
	struct js_hist cur;	/* gaps that started in the interval in progress */
	struct hlog_pend *pend; /* ring, gaps of later intervals, in time order */
	size_t head, n;
	struct hlog_arr *arr;
	size_t narr;
};

struct hlog_out {
	FILE *fp;
	const struct js_run *run;
	uint64_t base_ns, len_ns;
	uint64_t arrival_ns[JS_MAX_ARRIVALS]; /* --arrival-interval: a tag each */
	size_t narrivals;
	uint64_t first;	    /* index of the interval in progress */
	struct hlog_cpu *c; /* per result, in run->cpus' order (set up as they appear) */
	size_t nc, cap;
	struct js_hist all; /* scratch: every CPU merged */
	uint64_t late, forced, lines;
	bool started, based, finished;
	int err;
};

static bool grow(struct hlog_out *h);

/* arrival_tag - "1s", "10ms", "100us", "1500ns": an exact, tag-safe interval name */
static void arrival_tag(char *buf, size_t len, const char *key, uint64_t ns)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} u[] = {
		{ 1000000000ull, "s" },
		{ 1000000ull, "ms" },
		{ 1000ull, "us" },
		{ 1, "ns" },
	};
	size_t i = 0;

	while (ns % u[i].div)
		i++;
	snprintf(buf, len, "%.*s-arrival%" PRIu64 "%s", JS_LABEL_LEN, key, ns / u[i].div,
		 u[i].unit);
}

static uint64_t iv_start(const struct hlog_out *h, uint64_t k)
{
	return h->base_ns + k * h->len_ns;
}

/* iv_of - the interval a time falls in (times before the base go to interval 0) */
static uint64_t iv_of(const struct hlog_out *h, uint64_t t)
{
	return t <= h->base_ns ? 0 : (t - h->base_ns) / h->len_ns;
}

/* arr_open - start CPU c's arrival windows at its measured window start (once) */
static void arr_open(struct hlog_out *h, struct hlog_cpu *c)
{
	const struct js_cpu_result *r = &h->run->cpus[c->ri];

	if (!r->start_ns)
		return;
	for (size_t i = 0; i < c->narr; i++) {
		if (c->arr[i].open)
			continue;
		/* the run's model: arrivals at r->start_ns + k * interval, window from there */
		c->arr[i].a.start_ns = c->arr[i].a.end_ns = c->arr[i].a.cursor_ns = r->start_ns;
		c->arr[i].open = true;
	}
}

/*
 * arr_restart - the next window from where the last one really ended (arrival_finish
 * raises the end to the last gap's end), on the run's arrival grid; no allocation
 */
static void arr_restart(struct js_arrival *a, uint64_t grid0)
{
	struct js_hist keep = a->delay;
	uint64_t iv = a->interval_ns, floor = a->floor_ns, s = a->end_ns, off;

	hist_reset(&keep);
	memset(a, 0, sizeof(*a));
	a->interval_ns = iv;
	a->floor_ns = floor;
	a->delay = keep;
	a->start_ns = a->end_ns = a->cursor_ns = s;
	off = s > grid0 ? (s - grid0) % iv : 0;
	a->phase_ns = off ? iv - off : 0;
}

static void cpu_record(struct hlog_cpu *c, uint64_t start, uint64_t dur, uint32_t cause)
{
	hist_record(&c->cur, (int64_t)dur);
	for (size_t i = 0; i < c->narr; i++)
		if (c->arr[i].open)
			arrival_add_gap(&c->arr[i].a, start, dur, (int)cause);
}

static void put_line(struct hlog_out *h, const char *tag, double start_s, double len_s,
		     const struct js_hist *hist)
{
	int err = hlog_write_interval(h->fp, tag, start_s, len_s, hist);

	if (err && !h->err)
		h->err = err;
	h->lines++;
}

/* write_arrivals - close CPU c's arrival windows at end_ns, write them, start the next */
static void write_arrivals(struct hlog_out *h, struct hlog_cpu *c, uint64_t end_ns, double start_s,
			   double len_s)
{
	const struct js_cpu_result *r = &h->run->cpus[c->ri];

	if (r->end_ns && r->end_ns < end_ns)
		end_ns = r->end_ns; /* the CPU's window ended earlier (finish) */
	for (size_t i = 0; i < c->narr; i++) {
		struct hlog_arr *ar = &c->arr[i];

		if (!ar->open)
			continue;
		arrival_finish(&ar->a, end_ns);
		put_line(h, ar->tag, start_s, len_s, &ar->a.delay);
		arr_restart(&ar->a, r->start_ns);
	}
}

/* advance - write the interval in progress, which ends at end_ns, and start the next */
static void advance(struct hlog_out *h, uint64_t end_ns)
{
	uint64_t s = iv_start(h, h->first);
	double start_s = (double)(h->first * h->len_ns) / 1e9;
	double len_s = (double)(end_ns > s ? end_ns - s : 0) / 1e9;

	hist_reset(&h->all);
	for (size_t i = 0; i < h->nc; i++)
		hist_add(&h->all, &h->c[i].cur);
	put_line(h, NULL, start_s, len_s, &h->all);
	for (size_t i = 0; i < h->nc; i++) {
		struct hlog_cpu *c = &h->c[i];

		put_line(h, c->tag, start_s, len_s, &c->cur);
		arr_open(h, c);
		write_arrivals(h, c, end_ns, start_s, len_s);
		hist_reset(&c->cur);
	}
	h->first++;
	/* the queued gaps of the new interval in progress */
	for (size_t i = 0; i < h->nc; i++) {
		struct hlog_cpu *c = &h->c[i];

		while (c->n && iv_of(h, c->pend[c->head].start_ns) <= h->first) {
			const struct hlog_pend *p = &c->pend[c->head];

			cpu_record(c, p->start_ns, p->dur_ns, p->cause);
			c->head = (c->head + 1) % HLOG_PEND_CAP;
			c->n--;
		}
	}
}

/* write_header - the log's header, its StartTime the intervals' base */
static int write_header(struct hlog_out *h)
{
	const struct js_run *run = h->run;
	const struct js_thr_auto *a = &run->cfg.thr_auto;
	char c[JS_HLOG_MAX_HEADER_LINE];

	snprintf(c, sizeof(c),
		 "Logged with jitterscope %s (gap ns above %" PRIu64
		 "%s; TSC %s; Tag=cpuN per CPU, tidN thread, markN marks)",
		 JS_VERSION, run->cfg.threshold_ns,
		 !run->cfg.threshold_auto ? "" :
		 a->raised_because[0]	  ? " auto, raised" :
					    " auto",
		 tsc_read_name(run->cfg.tsc_read));
	return hlog_write_header(
		h->fp, run->start_epoch_s + ((double)h->base_ns - (double)run->start_mono_ns) / 1e9,
		c);
}

/*
 * ensure_base - once some CPU measures: intervals from the earliest measured window start,
 * and the header with its wall-clock time; false while no CPU has started
 */
static bool ensure_base(struct hlog_out *h, bool fallback)
{
	const struct js_run *run = h->run;
	uint64_t t0 = 0;
	int err;

	if (h->based)
		return true;
	for (size_t i = 0; i < h->nc; i++) {
		uint64_t s = run->cpus[h->c[i].ri].start_ns;

		if (s && (!t0 || s < t0))
			t0 = s;
	}
	if (!t0 && !fallback)
		return false;
	h->base_ns = t0 ? t0 : run->start_mono_ns;
	h->based = true;
	err = write_header(h);
	if (err)
		h->err = err;
	return !err;
}

/* hlog_on_reopen - a new file after SIGHUP: the header again (same StartTime), so the
 * intervals after it read on their own */
static void hlog_on_reopen(void *ctx)
{
	struct hlog_out *h = ctx;

	if (h->based && !h->err)
		h->err = write_header(h);
}

static void hlog_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			size_t nev)
{
	struct hlog_out *h = ctx;
	struct hlog_cpu *c;
	uint64_t k;

	(void)ev;
	(void)nev;
	if (!h->started || h->err || !grow(h) || g->gap.res >= h->nc)
		return;
	if (!ensure_base(h, true))
		return;
	c = &h->c[g->gap.res];
	arr_open(h, c);
	k = iv_of(h, g->gap.start_ns);
	if (k < h->first)
		h->late++;
	if (k <= h->first && !c->n) {
		cpu_record(c, g->gap.start_ns, g->gap.dur_ns, g->attr.primary);
		return;
	}
	while (c->n == HLOG_PEND_CAP) {
		/* the queue is full: write the interval in progress now */
		h->forced++;
		advance(h, iv_start(h, h->first + 1));
	}
	if (k <= h->first && !c->n) {
		cpu_record(c, g->gap.start_ns, g->gap.dur_ns, g->attr.primary);
		return;
	}
	c->pend[(c->head + c->n) % HLOG_PEND_CAP] = (struct hlog_pend){
		.start_ns = g->gap.start_ns,
		.dur_ns = g->gap.dur_ns,
		.cause = g->attr.primary,
	};
	c->n++;
}

static void hlog_on_tick(void *ctx, const struct js_run *run, uint64_t now_ns)
{
	struct hlog_out *h = ctx;

	(void)run;
	if (!h->started || h->err || !grow(h) || !ensure_base(h, false))
		return;
	if (iv_start(h, h->first + 1) + HLOG_HOLD_NS > now_ns)
		return;
	while (iv_start(h, h->first + 1) + HLOG_HOLD_NS <= now_ns)
		advance(h, iv_start(h, h->first + 1));
	fflush(h->fp);
}

static int cpu_setup(struct hlog_out *h, struct hlog_cpu *c, size_t ri)
{
	int err;

	c->ri = ri;
	result_key(&h->run->cpus[ri], c->tag, sizeof(c->tag));
	err = hist_init(&c->cur, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);
	if (err)
		return err;
	c->pend = calloc(HLOG_PEND_CAP, sizeof(*c->pend));
	if (!c->pend)
		return -ENOMEM;
	if (!h->narrivals)
		return 0;
	c->arr = calloc(h->narrivals, sizeof(*c->arr));
	if (!c->arr)
		return -ENOMEM;
	for (size_t i = 0; i < h->narrivals; i++) {
		/* the run's own model counts arrivals outside gaps as 0 ns (pipeline.c) */
		err = arrival_init(&c->arr[i].a, h->arrival_ns[i], 0, 0);
		if (err)
			return err;
		c->narr++;
		arrival_tag(c->arr[i].tag, sizeof(c->arr[i].tag), c->tag, h->arrival_ns[i]);
	}
	return 0;
}

/* grow - set up the results that appeared since (a thread's, the marks of a CPU); false
 * when out of memory (the output has failed) */
static bool grow(struct hlog_out *h)
{
	int err = 0;

	while (!err && h->nc < h->run->ncpus) {
		if (h->nc == h->cap) {
			size_t cap = h->cap ? 2 * h->cap : 4;
			struct hlog_cpu *v = realloc(h->c, cap * sizeof(*v));

			if (!v) {
				err = -ENOMEM;
				break;
			}
			h->c = v;
			h->cap = cap;
		}
		memset(&h->c[h->nc], 0, sizeof(h->c[h->nc]));
		err = cpu_setup(h, &h->c[h->nc], h->nc);
		h->nc++; /* counted even when it failed: destroy frees what it holds */
	}
	if (err && !h->err)
		h->err = err;
	return !h->err;
}

static void hlog_run_start(void *ctx, const struct js_run *run)
{
	struct hlog_out *h = ctx;
	int err;

	h->run = run;
	err = hist_init(&h->all, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);
	if (err)
		h->err = err;
	grow(h);
	h->started = true;
}

/* run_end - where the last interval stops: the latest CPU's end of measuring */
static uint64_t run_end(const struct hlog_out *h)
{
	uint64_t e = 0;

	for (size_t i = 0; i < h->nc; i++)
		e = JS_MAX(e, h->run->cpus[h->c[i].ri].end_ns);
	if (!e)
		e = h->run->start_mono_ns + h->run->wall_ns;
	return e;
}

/* any_pending - gaps queued for a later interval */
static bool any_pending(const struct hlog_out *h)
{
	for (size_t i = 0; i < h->nc; i++)
		if (h->c[i].n)
			return true;
	return false;
}

/* any_data - gaps counted or queued but not written yet */
static bool any_data(const struct hlog_out *h)
{
	for (size_t i = 0; i < h->nc; i++)
		if (h->c[i].n || h->c[i].cur.total)
			return true;
	return false;
}

static int hlog_finish(void *ctx, const struct js_run *run)
{
	struct hlog_out *h = ctx;
	uint64_t end;

	if (!h->started)
		hlog_run_start(h, run);
	if (h->finished || h->err || !grow(h))
		goto out;
	h->finished = true;
	if (!ensure_base(h, true))
		goto out;
	end = run_end(h);
	while (!h->err) {
		uint64_t s = iv_start(h, h->first), e = iv_start(h, h->first + 1);
		/* a gapless tail under 1 ms goes with the interval before it */
		bool sliver = e <= end && end - e < HLOG_SLIVER_NS && !any_pending(h);

		if (e <= end && !sliver) {
			advance(h, e);
			continue;
		}
		advance(h, JS_MAX(end, s)); /* the last one, with its actual length */
		if (!any_data(h))
			break;
	}
	if (h->late || h->forced)
		js_dbg("hlog: %" PRIu64 " late gaps counted in a later interval, %" PRIu64
		       " intervals written early",
		       h->late, h->forced);
out:
	if (!h->err)
		h->err = output_file_flush(h->fp);
	return h->err;
}

static void hlog_destroy(void *ctx)
{
	struct hlog_out *h = ctx;

	if (!h)
		return;
	for (size_t i = 0; h->c && i < h->nc; i++) {
		hist_free(&h->c[i].cur);
		free(h->c[i].pend);
		for (size_t a = 0; a < h->c[i].narr; a++)
			arrival_free(&h->c[i].arr[a].a);
		free(h->c[i].arr);
	}
	free(h->c);
	hist_free(&h->all);
	output_file_close(h->fp);
	free(h);
}

/* out_hlog_new - the --hlog output (see the top of this file) */
int out_hlog_new(struct js_output *out, const char *path, const struct js_params *p)
{
	struct hlog_out *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->len_ns = p && p->hlog_interval_ns ? p->hlog_interval_ns : JS_DEFAULT_HLOG_INTERVAL_NS;
	if (p) {
		h->narrivals = p->cfg.narrivals;
		memcpy(h->arrival_ns, p->cfg.arrival_ns, sizeof(h->arrival_ns));
	}
	h->fp = output_file_open(path, "hlog");
	if (!h->fp) {
		free(h);
		return -EIO;
	}
	out->name = "HdrHistogram log";
	out->ctx = h;
	out->stream = h->fp; /* an interval written as soon as it is complete */
	out->file = h->fp;
	out->on_reopen = hlog_on_reopen;
	out->run_start = hlog_run_start;
	out->on_gap = hlog_on_gap;
	out->on_tick = hlog_on_tick;
	out->finish = hlog_finish;
	out->destroy = hlog_destroy;
	return 0;
}
