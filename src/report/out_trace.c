// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_trace.c - --trace FILE: the gaps and what caused them as a Chrome Trace Event JSON
 * timeline (ui.perfetto.dev, chrome://tracing). docs/OUTPUTS_TRACE_HTML.md has the layout.
 * One process per measured CPU, one track per cause class; per CPU the worst gaps are kept
 * with their events in a min-heap under --trace-max-events, and the file is written at the
 * end in time order (trace.c writes it). The budget rules: docs/DESIGN.md, out_trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_correlate.h"
#include "js_event_names.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_story.h"
#include "js_util.h"
#include "trace_priv.h"

/* ---- helpers ---- */

static bool gap_less(const struct tr_gap *a, const struct tr_gap *b)
{
	return a->dur_ns < b->dur_ns || (a->dur_ns == b->dur_ns && a->start_ns > b->start_ns);
}

static void gap_free(struct tr_gap *g)
{
	free(g->ev);
	free(g->json);
	g->ev = NULL;
	g->json = NULL;
}

/* leave_out - count a gap left out; nothing not longer than it may be kept afterwards */
static void leave_out(struct tr_cpu *c, uint64_t start_ns, uint64_t dur_ns)
{
	struct tr_gap g = { .start_ns = start_ns, .dur_ns = dur_ns };

	if (!c->have_floor || gap_less(&c->floor, &g))
		c->floor = g;
	c->have_floor = true;
}

/* may_keep - is g longer than every gap left out (so the kept ones stay the longest) */
static bool may_keep(const struct tr_cpu *c, const struct tr_gap *g)
{
	return c->budget && (!c->have_floor || gap_less(&c->floor, g));
}

static bool grow(struct trace_out *t);

/* res_of - the trace state of result res (set up when it appeared), NULL if none */
static struct tr_cpu *res_of(struct trace_out *t, uint32_t res)
{
	return grow(t) && res < t->ncpus ? &t->cpus[res] : NULL;
}

/* ---- the kept gaps (per CPU): a worst-N heap under the event budget ---- */

static bool kept_less(const void *a, const void *b)
{
	return gap_less(a, b);
}

/* evict_min - drop the smallest kept gap and its events */
static void evict_min(struct tr_cpu *c)
{
	struct tr_gap *g = topn_min(&c->kept);

	c->used -= 1 + g->nev;
	leave_out(c, g->start_ns, g->dur_ns);
	gap_free(g);
	topn_pop_min(&c->kept);
}

/* keep - add a gap and its events to the kept ones (room made beforehand) */
static int keep(struct tr_cpu *c, const struct tr_gap *g)
{
	int err = topn_push(&c->kept, g);

	if (!err)
		c->used += 1 + g->nev;
	return err;
}

/* ---- counters ---- */

/* bins_halve - double the bin width: bin i of the new set = bins 2i and 2i+1 */
static void bins_halve(struct tr_cpu *c)
{
	size_t n = (c->nbins + 1) / 2;

	for (size_t i = 0; i < n; i++) {
		uint32_t g = c->bin_gaps[2 * i];
		uint64_t l = c->bin_lost[2 * i];

		if (2 * i + 1 < c->nbins) {
			g += c->bin_gaps[2 * i + 1];
			l += c->bin_lost[2 * i + 1];
		}
		c->bin_gaps[i] = g;
		c->bin_lost[i] = l;
	}
	memset(c->bin_gaps + n, 0, (c->maxbins - n) * sizeof(*c->bin_gaps));
	memset(c->bin_lost + n, 0, (c->maxbins - n) * sizeof(*c->bin_lost));
	c->nbins = n;
	c->bin_ns *= 2;
}

/* bins_cover - make the bins reach offset off (ns since the run start) */
static size_t bins_cover(struct tr_cpu *c, uint64_t off)
{
	while (off / c->bin_ns >= c->maxbins)
		bins_halve(c);
	if (off / c->bin_ns >= c->nbins)
		c->nbins = off / c->bin_ns + 1;
	return off / c->bin_ns;
}

static void bins_add(struct tr_cpu *c, uint64_t off, uint64_t dur)
{
	size_t i;

	if (!c->maxbins)
		return;
	i = bins_cover(c, off);
	c->bin_gaps[i]++;
	c->bin_lost[i] += dur;
}

/* ---- watching the run ---- */

/* ev_overlap - how long the event overlaps [s, e] (0 for a point event) */
static uint64_t ev_overlap(const struct js_event *ev, uint64_t s, uint64_t e)
{
	uint64_t a = JS_MAX(ev->start_ns, s), b = JS_MIN(ev->end_ns, e);

	return b > a ? b - a : 0;
}

/* cmp_keep - which events of a gap to keep first: intervals, then by overlap with it */
static int cmp_keep(const void *pa, const void *pb, void *arg)
{
	const struct js_event *a = pa, *b = pb;
	const struct js_gap *g = arg;
	uint64_t ge = g->start_ns + g->dur_ns;
	uint64_t oa = ev_overlap(a, g->start_ns, ge), ob = ev_overlap(b, g->start_ns, ge);

	if (tr_ev_point(a) != tr_ev_point(b))
		return tr_ev_point(a) ? 1 : -1;
	if (oa != ob)
		return oa > ob ? -1 : 1;
	return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

/* pick_events - the gap's drawable events into t->scratch; returns how many */
static size_t pick_events(struct trace_out *t, const struct js_gap_rec *g,
			  const struct js_event *ev, size_t nev)
{
	size_t k = 0;

	if (nev > t->nscratch) {
		struct js_event *s = realloc(t->scratch, nev * sizeof(*s));

		if (!s)
			return 0;
		t->scratch = s;
		t->nscratch = nev;
	}
	for (size_t i = 0; i < nev; i++)
		if (ev[i].cpu == g->gap.cpu && tr_ev_track(&ev[i]) >= 0)
			t->scratch[k++] = ev[i];
	return k;
}

static void gap_args(struct js_json *j, const struct js_gap_rec *g, uint64_t run_start,
		     const struct js_cgroups *cg, uint32_t in_trace, uint32_t truncated)
{
	const struct js_attr *a = &g->attr;
	char story[512];

	story_format(story, sizeof(story), g, run_start);
	json_obj_begin(j, NULL);
	json_u64(j, "gap_ns", g->gap.dur_ns);
	json_u64(j, "start_ns", g->gap.start_ns);
	js_gap_write_json(j, g);
	js_attr_write_json(j, a, cg);
	json_str(j, "story", story);
	json_u64(j, "events", a->nevents);
	json_u64(j, "events_in_trace", in_trace);
	if (truncated)
		json_u64(j, "events_left_out", truncated);
	json_obj_end(j);
}

/* render_gap - the gap's "name":...,"args":{...} text, malloc'd (NULL on ENOMEM) */
static char *render_gap(const struct js_gap_rec *g, uint64_t run_start, const struct js_cgroups *cg,
			uint32_t in_trace, uint32_t truncated)
{
	const struct js_attr *a = &g->attr;
	char name[JS_DETAIL_LEN + 96], d[32];
	struct js_json j;
	size_t len = 0;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	js_fmt_ns(d, sizeof(d), g->gap.dur_ns);
	if (a->detail[0])
		snprintf(name, sizeof(name), "gap %s: %s %s", d, js_cause_name(a->primary),
			 a->detail);
	else
		snprintf(name, sizeof(name), "gap %s: %s", d, js_cause_name(a->primary));
	fputs("\"name\":", fp);
	json_escape(fp, name);
	fputs(",\"args\":", fp);
	json_init(&j, fp);
	j.pretty = false;
	gap_args(&j, g, run_start, cg, in_trace, truncated);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return buf;
}

/*
 * make_room - evict gaps smaller than g until cost events fit; returns how many of the
 * gap's events can be kept (nev when all fit), or -1 when the gap itself cannot be kept
 */
static long make_room(struct tr_cpu *c, const struct tr_gap *g, size_t nev)
{
	while (c->used + 1 + nev > c->budget && c->kept.n && gap_less(topn_min(&c->kept), g))
		evict_min(c);
	if (c->used + 1 + nev <= c->budget)
		return (long)nev;
	if (c->used + 1 <= c->budget)
		return (long)(c->budget - c->used - 1);
	return -1;
}

/* keep_gap - try to keep one gap and its events under the CPU's budget */
static int keep_gap(struct trace_out *t, struct tr_cpu *c, const struct js_gap_rec *g, size_t nev)
{
	struct tr_gap k = { .start_ns = g->gap.start_ns, .dur_ns = g->gap.dur_ns };
	size_t per_gap = JS_MIN(JS_MAX(c->budget / 16, (size_t)4), (size_t)TR_EV_PER_GAP_MAX);
	size_t want = JS_MIN(nev, per_gap);
	long fit = make_room(c, &k, want);

	if (fit < 0) {
		leave_out(c, k.start_ns, k.dur_ns);
		return 0;
	}
	if (nev > (size_t)fit) {
		qsort_r(t->scratch, nev, sizeof(*t->scratch), cmp_keep, (void *)&g->gap);
		k.truncated = (uint32_t)(nev - (size_t)fit);
		c->truncated_gaps++;
	}
	k.nev = (uint32_t)fit;
	if (k.nev) {
		k.ev = malloc(k.nev * sizeof(*k.ev));
		if (!k.ev)
			return -ENOMEM;
		memcpy(k.ev, t->scratch, k.nev * sizeof(*k.ev));
	}
	k.json = render_gap(g, t->run_start_ns, t->cg, k.nev, k.truncated);
	if (!k.json || keep(c, &k)) {
		gap_free(&k);
		return -ENOMEM;
	}
	return 0;
}

static void trace_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			 size_t nev)
{
	struct trace_out *t = ctx;
	struct tr_cpu *c = res_of(t, g->gap.res);
	struct tr_gap key = { .start_ns = g->gap.start_ns, .dur_ns = g->gap.dur_ns };
	size_t k;

	if (!c || t->err)
		return;
	c->seen++;
	bins_add(c, tr_rel(t, g->gap.start_ns), g->gap.dur_ns);
	if (!may_keep(c, &key) ||
	    (c->used + 1 > c->budget && c->kept.n && !gap_less(topn_min(&c->kept), &key))) {
		leave_out(c, key.start_ns, key.dur_ns); /* cheap path: no rendering */
		return;
	}
	k = pick_events(t, g, ev, nev);
	if (keep_gap(t, c, g, k))
		t->err = -ENOMEM;
}

/* setup - result i's state: its share of the event budget (a result beyond the shares gets
 * none: its gaps are counted as left out) and its counter bins */
static void setup(struct trace_out *t, struct tr_cpu *c, size_t i)
{
	const struct js_cpu_result *r = &t->live->cpus[i];

	memset(c, 0, sizeof(*c));
	c->cpu = r->cpu;
	c->id = r->source == JS_SRC_SAMPLER ? r->cpu : JS_CPUS_MAX + (int)i;
	result_key(r, c->key, sizeof(c->key));
	if (topn_init(&c->kept, 0, sizeof(struct tr_gap), kept_less))
		t->err = -ENOMEM;
	c->budget = t->rest > 0 && i < t->shares ? (size_t)t->rest / t->shares : 0;
	c->bin_ns = TR_BIN_NS;
	/* two series per bin, plus the closing sample at the end */
	c->maxbins = i < t->shares && t->cnt >= 4 ? t->cnt / 2 - 1 : 0;
	if (c->maxbins) {
		c->bin_gaps = calloc(c->maxbins, sizeof(*c->bin_gaps));
		c->bin_lost = calloc(c->maxbins, sizeof(*c->bin_lost));
		if (!c->bin_gaps || !c->bin_lost)
			t->err = -ENOMEM;
	}
}

/* grow - set up the results that appeared since run_start (threads, marks); false when out
 * of memory (the output has failed) */
static bool grow(struct trace_out *t)
{
	size_t n = t->live ? t->live->ncpus : 0, i = t->ncpus;

	if (t->err || i >= n)
		return !t->err;
	if (js_grow(&t->cpus, &t->ncpus, n, sizeof(*t->cpus))) {
		t->err = -ENOMEM;
		return false;
	}
	for (; i < n; i++)
		setup(t, &t->cpus[i], i);
	return !t->err;
}

/* TR_LATE_SHARES - shares kept for results that appear during the run (the threads started
 * then, the CPUs marks are filed on) when the run follows threads or reads marks */
#define TR_LATE_SHARES 4

/* trace_run_start - split the budget into the results known now (and, when more may come,
 * a few spare shares) */
static void trace_run_start(void *ctx, const struct js_run *run)
{
	struct trace_out *t = ctx;

	t->run_start_ns = run->start_mono_ns;
	t->cg = run->cgroups;
	t->live = run;
	t->shares = (run->ncpus ? run->ncpus : 1) +
		    (run->follow.on || run->marks.on ? TR_LATE_SHARES : 0);
	t->cnt = t->max_events / 10 / t->shares; /* counter events per result */
	t->rest = (long)t->max_events - (long)(t->shares * (TR_META_PER_CPU + t->cnt));
	grow(t);
}

static int trace_finish(void *ctx, const struct js_run *run)
{
	struct trace_out *t = ctx;

	if (t->err)
		return t->err;
	if (!t->live)
		trace_run_start(t, run); /* no run_start: no gap was seen */
	if (!grow(t))
		return t->err;
	/* the counters' last bin reaches the run's end */
	for (size_t i = 0; i < t->ncpus && run->wall_ns; i++)
		if (t->cpus[i].maxbins)
			bins_cover(&t->cpus[i], run->wall_ns - 1);
	return trace_write_file(t, run);
}

int trace_write_window(FILE *fp, const struct js_run *run, const struct js_gap_rec *g,
		       const struct js_event *ev, size_t nev, uint64_t ctx_ns)
{
	struct tr_cpu c = { .cpu = (int)g->gap.cpu, .budget = 1 + nev };
	struct trace_out t = {
		.fp = fp,
		.max_events = (unsigned)JS_MIN(1 + nev, (size_t)UINT32_MAX),
		.ctx_ns = ctx_ns,
		.run_start_ns = run->start_mono_ns,
		.cpus = &c,
		.ncpus = 1,
		.cg = run->cgroups,
	};
	struct tr_gap k = { .start_ns = g->gap.start_ns, .dur_ns = g->gap.dur_ns };
	int err = topn_init(&c.kept, 1, sizeof(struct tr_gap), kept_less);

	if (!err) {
		k.nev = (uint32_t)pick_events(&t, g, ev, nev);
		k.ev = t.scratch;
		k.json = render_gap(g, t.run_start_ns, t.cg, k.nev, 0);
		err = !k.json || (nev && !t.scratch) || keep(&c, &k) ? -ENOMEM : 0;
	}
	c.seen = 1;
	if (!err)
		err = trace_write_file(&t, run);
	free(k.json);
	free(t.scratch);
	topn_free(&c.kept);
	return err;
}

static void trace_destroy(void *ctx)
{
	struct trace_out *t = ctx;

	for (size_t i = 0; i < t->ncpus; i++) {
		struct tr_cpu *c = &t->cpus[i];

		for (size_t k = 0; k < c->kept.n; k++)
			gap_free(tr_kept_at(c, k));
		topn_free(&c->kept);
		free(c->bin_gaps);
		free(c->bin_lost);
	}
	free(t->cpus);
	free(t->scratch);
	output_file_close(t->fp);
	free(t);
}

int out_trace_new(struct js_output *out, const char *path, const struct js_params *p)
{
	struct trace_out *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->fp = output_file_open(path, "trace");
	if (!t->fp) {
		free(t);
		return -EIO;
	}
	t->max_events = p && p->trace_max_events ? p->trace_max_events : JS_DEFAULT_TRACE_EVENTS;
	t->ctx_ns = TR_CTX_MIN_NS;
	out->name = "trace";
	out->ctx = t;
	out->file = t->fp;
	out->wants_events = true;
	out->run_start = trace_run_start;
	out->on_gap = trace_on_gap;
	out->finish = trace_finish;
	out->destroy = trace_destroy;
	return 0;
}
