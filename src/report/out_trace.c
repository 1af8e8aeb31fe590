// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_trace.c - --trace FILE: the gaps and what caused them as a Chrome Trace Event JSON
 * timeline (ui.perfetto.dev, chrome://tracing). docs/OUTPUTS_TRACE_HTML.md has the layout.
 * One process per measured CPU, one track per cause class; per CPU the worst gaps are kept
 * with their events in a min-heap under --trace-max-events, and the file is written at the
 * end in time order. The budget rules: docs/DESIGN.md, out_trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_correlate.h"
#include "js_event_names.h"
#include "js_json.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_story.h"
#include "js_util.h"

#define TR_META_PER_CPU 32     /* process name + sort, thread name + sort per track */
#define TR_CTX_MIN_NS 10000ull /* events are clipped to the gap +- max(dur, ctx_ns): this */
#define TR_EV_PER_GAP_MAX 4096
#define TR_BIN_NS 1000000000ull /* counter bin width to start with */
#define TR_TID_STRIDE 10000

/* tracks: "gaps", then the class table's tracks (js_cause_info.track) */
#define TR_GAPS 0
#define TR_NTRACKS (1 + JS_TRACKS_MAX)

_Static_assert(TR_META_PER_CPU >= 2 + 2 * TR_NTRACKS, "metadata reserve covers every track");

/* tr_track_name - "gaps", or the name of the class whose track it is (not a sharer's) */
static const char *tr_track_name(int track)
{
	if (track == TR_GAPS)
		return "gaps";
	for (uint32_t c = 0; c < JS_CAUSE_MAX; c++)
		if (js_cause_info(c)->track == track && !js_cause_info(c)->track_shared)
			return js_cause_name(c);
	return "?";
}

/* A kept gap: its rendered name and args, and the events kept with it. */
struct tr_gap {
	uint64_t start_ns, dur_ns;
	uint32_t nev;
	uint32_t truncated; /* events of the gap left out (per-gap cap or no room) */
	struct js_event *ev;
	char *json; /* "name":"...","args":{...} */
};

/* One slice or instant to write (built at finish). */
struct tr_slice {
	uint64_t s, e;	 /* clipped, CLOCK_MONOTONIC */
	uint64_t lo, hi; /* clip window (union of the kept gaps' windows) */
	const struct js_event *ev;
	uint8_t track;
	bool point, clipped, trimmed;
};

struct tr_cpu {
	int cpu;
	int id;			/* its trace process: the CPU for a sampler's result, else
	                             * JS_CPUS_MAX + its index (threads, marks) */
	char key[JS_LABEL_LEN]; /* result_key(): "cpu1", "tid4242", "mark1" */
	struct js_topn kept;	/* struct tr_gap: min-heap on (dur, later start) */
	size_t used, budget;	/* events held (gaps + their events) and allowed */
	struct tr_gap floor;	/* the longest gap left out so far (start, dur only) */
	bool have_floor;
	uint64_t seen, truncated_gaps;
	uint32_t *bin_gaps; /* counters: gaps and lost time per bin */
	uint64_t *bin_lost;
	size_t nbins, maxbins;
	uint64_t bin_ns;
	bool used_track[TR_NTRACKS];
};

struct trace_out {
	FILE *fp;
	unsigned max_events;
	uint64_t ctx_ns; /* events are clipped to each gap +- max(its dur, this) */
	uint64_t run_start_ns;
	struct tr_cpu *cpus; /* per result, in run->cpus' order (set up as they appear) */
	size_t ncpus;
	size_t shares;		   /* the results the event budget is split into */
	long rest;		   /* the events left for gaps after metadata and counters */
	size_t cnt;		   /* counter events per result */
	const struct js_run *live; /* the run being watched (from run_start) */
	struct js_event *scratch;  /* one gap's events while choosing what to keep */
	size_t nscratch;
	int err;		     /* out of memory while watching: reported by finish */
	const struct js_run *run;    /* at finish: function names (run_sym) */
	const struct js_cgroups *cg; /* from run_start: the run's cgroup table, may be NULL */
	uint64_t written;
	bool first;
};

/* ---- helpers ---- */

static void put_us(FILE *fp, uint64_t ns)
{
	fprintf(fp, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static uint64_t rel(const struct trace_out *t, uint64_t ns)
{
	return ns > t->run_start_ns ? ns - t->run_start_ns : 0;
}

static int tr_pid(int cpu)
{
	return cpu + 1;
}

static int tr_tid(int cpu, int track)
{
	return TR_TID_STRIDE * (track + 1) + cpu;
}

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

/* ev_track - the track an event goes on (its class's), -1 for kinds not drawn */
static int ev_track(const struct js_event *e)
{
	int c = corr_event_cause(e);
	int track = c < 0 ? 0 : js_cause_info((uint32_t)c)->track;

	return track > 0 && track <= JS_TRACKS_MAX ? track : -1;
}

static bool ev_point(const struct js_event *e)
{
	return e->end_ns <= e->start_ns;
}

/* ---- the kept gaps (per CPU): a worst-N heap under the event budget ---- */

static bool kept_less(const void *a, const void *b)
{
	return gap_less(a, b);
}

static struct tr_gap *kept_at(const struct tr_cpu *c, size_t i)
{
	return topn_at(&c->kept, i);
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

	if (ev_point(a) != ev_point(b))
		return ev_point(a) ? 1 : -1;
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
		if (ev[i].cpu == g->gap.cpu && ev_track(&ev[i]) >= 0)
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
	bins_add(c, rel(t, g->gap.start_ns), g->gap.dur_ns);
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

/* ---- writing ---- */

static void ev_fn(const struct js_run *run, const struct js_event *e, char *buf, size_t len)
{
	const char *s = js_ev_fn(e, run ? run_sym(run, e->addr) : NULL, buf, len);

	if (s != buf)
		js_scpy(buf, len, s);
}

/* trace_event_label - the slice name of an event */
void trace_event_label(const struct js_run *run, const struct js_event *e, char *buf, size_t len)
{
	const struct js_cgroups *cgs = run ? run->cgroups : NULL;
	char fn[JS_NAME_LEN + 64];
	const char *cg;
	int nl = JS_NAME_LEN;

	switch (e->kind) {
	case JS_EV_IRQ:
		if (e->name[0])
			snprintf(buf, len, "irq %u %.*s", e->id, nl, e->name);
		else
			snprintf(buf, len, "irq %u", e->id);
		break;
	case JS_EV_HRTIMER:
		ev_fn(run, e, fn, sizeof(fn));
		snprintf(buf, len, "hrtimer %s", fn);
		break;
	case JS_EV_NMI:
		ev_fn(run, e, fn, sizeof(fn));
		snprintf(buf, len, "nmi %s", fn);
		break;
	case JS_EV_WORK:
		ev_fn(run, e, fn, sizeof(fn));
		snprintf(buf, len, "work %s", fn);
		break;
	case JS_EV_FAULT:
		snprintf(buf, len, "fault %s %.*s:%u", e->flags & JS_F_KERNEL ? "kernel" : "user",
			 nl, e->name, e->id);
		break;
	case JS_EV_TASK:
		cg = cgroups_name(cgs, js_ev_cgroup(e));
		if (cg && strcmp(cg, "/")) /* the root names nothing, as in the details */
			snprintf(buf, len, "%.*s:%u [%s]", nl, e->name, e->id, cg);
		else
			snprintf(buf, len, "%.*s:%u", nl, e->name, e->id);
		break;
	case JS_EV_IDLE:
		js_scpy(buf, len, js_ev_kind_name(e->kind));
		break;
	case JS_EV_TLB:
		snprintf(buf, len, "tlb flush %s", js_ev_id_label(e->kind, e->id, fn, sizeof(fn)));
		break;
	default:
		js_ev_id_label(e->kind, e->id, buf, len);
		break; /* vector, softirq, thp, mm */
	}
}

/* ev_begin - the common fields of one event; the caller adds the rest and the '}' */
static void ev_begin(struct trace_out *t, const char *ph, int cpu, int track, uint64_t ts)
{
	fputs(t->first ? "\n" : ",\n", t->fp);
	t->first = false;
	t->written++;
	fprintf(t->fp, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, tr_pid(cpu),
		tr_tid(cpu, track));
	put_us(t->fp, ts);
}

static void write_ev_args(FILE *fp, const struct trace_out *t, const struct tr_slice *sl)
{
	const struct js_event *e = sl->ev;
	char fn[JS_NAME_LEN + 64];

	fprintf(fp, ",\"args\":{\"id\":%u,\"start_ns\":%" PRIu64 ",\"dur_ns\":%" PRIu64, e->id,
		(uint64_t)e->start_ns, (uint64_t)(e->end_ns - e->start_ns));
	if (e->kind == JS_EV_HRTIMER || e->kind == JS_EV_WORK || e->kind == JS_EV_NMI ||
	    e->kind == JS_EV_FAULT) {
		fprintf(fp, ",\"addr\":\"0x%" PRIx64 "\"", (uint64_t)e->addr);
		if (e->kind != JS_EV_FAULT) {
			ev_fn(t->run, e, fn, sizeof(fn));
			fputs(",\"function\":", fp);
			json_escape(fp, fn);
		}
	}
	if (e->kind == JS_EV_TASK) {
		fprintf(fp, ",\"kthread\":%s", e->flags & JS_F_KTHREAD ? "true" : "false");
		if (cgroups_path(t->cg, js_ev_cgroup(e))) {
			fputs(",\"cgroup\":", fp);
			json_escape(fp, cgroups_path(t->cg, js_ev_cgroup(e)));
		}
	}
	if (e->flags & (JS_F_NOEND | JS_F_NOSTART))
		fputs(",\"switch_traced\":false", fp);
	if (e->flags & JS_F_OPEN)
		fputs(",\"open_at_end\":true", fp);
	if (e->flags & JS_F_SAMPLER)
		fputs(",\"hit_sampler\":true", fp);
	if (sl->clipped)
		fputs(",\"clipped\":true", fp);
	if (sl->trimmed)
		fputs(",\"trimmed\":true", fp);
	fputs("}}", fp);
}

static void write_slice(struct trace_out *t, int cpu, const struct tr_slice *sl)
{
	char name[JS_NAME_LEN + 96];

	trace_event_label(t->run, sl->ev, name, sizeof(name));
	ev_begin(t, sl->point ? "i" : "X", cpu, sl->track, rel(t, sl->s));
	if (sl->point) {
		fputs(",\"s\":\"t\"", t->fp);
	} else {
		fputs(",\"dur\":", t->fp);
		put_us(t->fp, sl->e - sl->s);
	}
	fprintf(t->fp, ",\"cat\":\"%s\",\"name\":", tr_track_name(sl->track));
	json_escape(t->fp, name);
	write_ev_args(t->fp, t, sl);
}

static int cmp_gap_start(const void *pa, const void *pb)
{
	const struct tr_gap *a = pa, *b = pb;

	return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

/* identity order: track, then the raw event fields (duplicates end up adjacent) */
static int cmp_ident(const void *pa, const void *pb)
{
	const struct tr_slice *a = pa, *b = pb;
	const struct js_event *x = a->ev, *y = b->ev;

	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->end_ns != y->end_ns)
		return x->end_ns > y->end_ns ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return memcmp(x->name, y->name, JS_NAME_LEN);
}

/* nesting order: track, start, longer first */
static int cmp_nest(const void *pa, const void *pb)
{
	const struct tr_slice *a = pa, *b = pb;

	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->point - b->point;
}

/* collect - one slice per (gap, event), with the gap's clip window */
static struct tr_slice *collect(const struct trace_out *t, struct tr_cpu *c, size_t *out_n)
{
	size_t n = 0, k = 0;
	struct tr_slice *sl;

	for (size_t i = 0; i < c->kept.n; i++)
		n += kept_at(c, i)->nev;
	sl = calloc(n ? n : 1, sizeof(*sl));
	if (!sl)
		return NULL;
	for (size_t i = 0; i < c->kept.n; i++) {
		const struct tr_gap *g = kept_at(c, i);
		uint64_t m = JS_MAX(g->dur_ns, t->ctx_ns);

		for (uint32_t e = 0; e < g->nev; e++) {
			sl[k].ev = &g->ev[e];
			sl[k].track = (uint8_t)ev_track(&g->ev[e]);
			sl[k].lo = g->start_ns > m ? g->start_ns - m : 0;
			sl[k].hi = g->start_ns + g->dur_ns + m;
			k++;
		}
	}
	*out_n = k;
	return sl;
}

/* dedup_clip - merge duplicates (an event seen by two gaps), clip to the windows */
static size_t dedup_clip(struct trace_out *t, struct tr_slice *sl, size_t n)
{
	size_t k = 0;

	qsort(sl, n, sizeof(*sl), cmp_ident);
	for (size_t i = 0; i < n; i++) {
		if (k && !cmp_ident(&sl[k - 1], &sl[i])) {
			sl[k - 1].lo = JS_MIN(sl[k - 1].lo, sl[i].lo);
			sl[k - 1].hi = JS_MAX(sl[k - 1].hi, sl[i].hi);
			continue;
		}
		sl[k++] = sl[i];
	}
	for (size_t i = 0; i < k; i++) {
		const struct js_event *e = sl[i].ev;
		uint64_t lo = JS_MAX(sl[i].lo, t->run_start_ns);

		sl[i].point = ev_point(e);
		sl[i].s = JS_MAX(e->start_ns, lo);
		sl[i].e = sl[i].point ? sl[i].s : JS_MIN(e->end_ns, sl[i].hi);
		sl[i].clipped = sl[i].s != e->start_ns || (!sl[i].point && sl[i].e != e->end_ns);
		if (!sl[i].point && sl[i].e <= sl[i].s)
			sl[i].point = true; /* nothing left inside the window: mark its place */
	}
	return k;
}

/* nest - per track, trim each slice that runs past the end of the one enclosing it */
static void nest(struct tr_slice *sl, size_t n)
{
	uint64_t stack[64];
	int depth = 0, track = -1;

	qsort(sl, n, sizeof(*sl), cmp_nest);
	for (size_t i = 0; i < n; i++) {
		if (sl[i].track != track) {
			track = sl[i].track;
			depth = 0;
		}
		if (sl[i].point)
			continue;
		while (depth && stack[depth - 1] <= sl[i].s)
			depth--;
		if (depth && sl[i].e > stack[depth - 1]) {
			sl[i].e = stack[depth - 1];
			sl[i].trimmed = true;
		}
		if (depth < (int)ARRAY_SIZE(stack))
			stack[depth++] = sl[i].e;
	}
}

static void write_gaps(struct trace_out *t, struct tr_cpu *c)
{
	struct tr_gap *v = c->kept.v;
	size_t n = c->kept.n;

	/* the heap is done with: in time order now */
	qsort(v, n, sizeof(*v), cmp_gap_start);
	for (size_t i = 0; i < n; i++) {
		uint64_t dur = v[i].dur_ns;

		/* TSC -> ns rounding can make a gap end 1 ns after the next one starts */
		if (i + 1 < n && v[i].start_ns + dur > v[i + 1].start_ns)
			dur = v[i + 1].start_ns - v[i].start_ns;
		ev_begin(t, "X", c->id, TR_GAPS, rel(t, v[i].start_ns));
		fputs(",\"dur\":", t->fp);
		put_us(t->fp, dur);
		fprintf(t->fp, ",\"cat\":\"gap\",%s}", v[i].json);
	}
	if (n)
		c->used_track[TR_GAPS] = true;
}

static int write_events(struct trace_out *t, struct tr_cpu *c)
{
	size_t n;
	struct tr_slice *sl = collect(t, c, &n);

	if (!sl)
		return -ENOMEM;
	n = dedup_clip(t, sl, n);
	nest(sl, n);
	for (size_t i = 0; i < n; i++) {
		write_slice(t, c->id, &sl[i]);
		c->used_track[sl[i].track] = true;
	}
	free(sl);
	return 0;
}

static void counter(struct trace_out *t, int cpu, uint64_t ts, const char *name, const char *key,
		    double v)
{
	ev_begin(t, "C", cpu, TR_GAPS, ts);
	fprintf(t->fp, ",\"name\":\"%s\",\"args\":{\"%s\":%.3f}}", name, key, v);
}

static void write_counters(struct trace_out *t, struct tr_cpu *c, uint64_t wall_ns)
{
	uint64_t end;
	size_t nb;

	if (!c->maxbins)
		return;
	if (wall_ns)
		bins_cover(c, wall_ns - 1);
	nb = c->nbins;
	/* the last bin ends with the run; the closing samples mark that end */
	end = nb && wall_ns > (nb - 1) * c->bin_ns ? wall_ns : nb * c->bin_ns;
	for (size_t i = 0; i < nb; i++) {
		uint64_t from = i * c->bin_ns, to = JS_MIN(from + c->bin_ns, end);
		double sec = (double)(to - from) / 1e9;

		counter(t, c->id, from, "gaps per s", "gaps", c->bin_gaps[i] / sec);
		counter(t, c->id, from, "lost us per s", "lost_us",
			(double)c->bin_lost[i] / 1e3 / sec);
	}
	counter(t, c->id, end, "gaps per s", "gaps", 0);
	counter(t, c->id, end, "lost us per s", "lost_us", 0);
}

static void meta(struct trace_out *t, int cpu, int track, const char *what, const char *key,
		 const char *sval, long ival)
{
	ev_begin(t, "M", cpu, track, 0);
	fprintf(t->fp, ",\"name\":\"%s\",\"args\":{\"%s\":", what, key);
	if (sval)
		json_escape(t->fp, sval);
	else
		fprintf(t->fp, "%ld", ival);
	fputs("}}", t->fp);
}

static void write_meta(struct trace_out *t, const struct tr_cpu *c)
{
	char name[JS_LABEL_LEN + 32];

	snprintf(name, sizeof(name), "jitterscope %s", c->key);
	meta(t, c->id, TR_GAPS, "process_name", "name", name, 0);
	meta(t, c->id, TR_GAPS, "process_sort_index", "sort_index", NULL, c->id);
	for (int k = 0; k < TR_NTRACKS; k++) {
		if (!c->used_track[k])
			continue;
		snprintf(name, sizeof(name), "%s %s", c->key, tr_track_name(k));
		meta(t, c->id, k, "thread_name", "name", name, 0);
		meta(t, c->id, k, "thread_sort_index", "sort_index", NULL, k);
	}
}

static const char tr_cap_rule[] =
	"at most max_events events; metadata and per-second counters have a fixed reserve, "
	"the rest is shared evenly by the CPUs; per CPU the longest gaps are kept, each with "
	"its events (at most budget/16 per gap, intervals first); a gap that does not fit "
	"evicts shorter ones, so the kept gaps are the longest of the run";

/* iso_utc - "2026-11-29T17:54:23.123456Z" of an epoch time in seconds */
static void iso_utc(char *buf, size_t len, double epoch_s)
{
	time_t sec = (time_t)epoch_s;
	struct tm tm;
	char day[32] = "?";

	if (gmtime_r(&sec, &tm))
		strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06ldZ", day, (long)((epoch_s - (double)sec) * 1e6));
}

static void other_data(struct js_json *j, const struct trace_out *t, const struct js_run *run)
{
	char utc[64];

	iso_utc(utc, sizeof(utc), run->start_epoch_s);
	json_obj_begin(j, "otherData");
	json_str(j, "tool", "jitterscope");
	json_str(j, "version", JS_VERSION);
	json_arr_begin(j, "cpus");
	for (size_t i = 0; i < t->ncpus; i++)
		json_u64(j, NULL, (uint64_t)t->cpus[i].cpu);
	json_arr_end(j);
	json_str(j, "time_origin", "run start; ts/dur are microseconds since origin");
	json_u64(j, "origin_clock_monotonic_ns", run->start_mono_ns);
	json_u64(j, "origin_unix_ns", (uint64_t)(run->start_epoch_s * 1e9));
	json_str(j, "origin_utc", utc);
	/* a spike's trace is written during the run: the fit so far (the pipeline publishes
	 * each refit), no wall time yet (the run's length is known at its end) */
	if (run->fit.hz > 0)
		json_u64(j, "tsc_hz", (uint64_t)(run->fit.hz + 0.5));
	json_u64(j, "threshold_ns", run->cfg.threshold_ns);
	if (run->wall_ns)
		json_u64(j, "wall_ns", run->wall_ns);
	json_u64(j, "max_events", t->max_events);
	json_str(j, "cap_rule", tr_cap_rule);
	json_arr_begin(j, "per_cpu");
	for (size_t i = 0; i < t->ncpus; i++) {
		const struct tr_cpu *c = &t->cpus[i];

		json_obj_begin(j, NULL);
		json_u64(j, "cpu", (uint64_t)c->cpu);
		json_str(j, "source", js_source_name(run->cpus[i].source));
		json_str(j, "key", c->key);
		json_u64(j, "gaps_total", c->seen);
		json_u64(j, "gaps_in_trace", c->kept.n);
		json_u64(j, "gaps_left_out", c->seen - c->kept.n);
		json_u64(j, "gaps_with_events_left_out", c->truncated_gaps);
		json_u64(j, "budget_events", c->budget);
		json_bool(j, "capped", c->seen != c->kept.n || c->truncated_gaps);
		json_u64(j, "longest_left_out_ns", c->have_floor ? c->floor.dur_ns : 0);
		json_u64(j, "counter_bin_ns", c->bin_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* write_file - the whole file of what t kept: envelope, metadata, gaps, events, counters */
static int write_file(struct trace_out *t, const struct js_run *run)
{
	struct js_json j;
	int err = 0;

	t->run = run; /* without symbols, function names fall back to addresses */
	json_init(&j, t->fp);
	j.pretty = false;
	json_obj_begin(&j, NULL);
	json_str(&j, "displayTimeUnit", "ns");
	other_data(&j, t, run);
	json_arr_begin(&j, "traceEvents");
	t->first = true;
	for (size_t i = 0; i < t->ncpus && !err; i++) {
		struct tr_cpu *c = &t->cpus[i];

		write_gaps(t, c);
		err = write_events(t, c);
		write_counters(t, c, run->wall_ns);
		write_meta(t, c);
	}
	fputc('\n', t->fp);
	json_arr_end(&j);
	json_obj_end(&j);
	if (!err)
		err = output_file_flush(t->fp);
	return err;
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
	return write_file(t, run);
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
		err = write_file(&t, run);
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
			gap_free(kept_at(c, k));
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
