// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * trace.c - the Chrome Trace Event writer of --trace and of the spike files (trace_priv.h):
 * what out_trace.c kept, as one process per measured CPU and one track per cause class, in
 * time order: the gaps, their events (deduplicated, clipped, nested), the counters and the
 * metadata. docs/OUTPUTS_TRACE_HTML.md has the layout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_event_names.h"
#include "js_json.h"
#include "js_output.h"
#include "js_story.h"
#include "js_util.h"
#include "trace_priv.h"

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

static void put_us(FILE *fp, uint64_t ns)
{
	fprintf(fp, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static int tr_pid(int cpu)
{
	return cpu + 1;
}

static int tr_tid(int cpu, int track)
{
	return TR_TID_STRIDE * (track + 1) + cpu;
}

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
	case JS_EV_USER: /* --event: "event SUBSYS:NAME" */
		if (run && e->id < run->cfg.nevents)
			snprintf(buf, len, "event %s", run->cfg.events[e->id].open);
		else
			js_ev_id_label(e->kind, e->id, buf, len);
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
	ev_begin(t, sl->point ? "i" : "X", cpu, sl->track, tr_rel(t, sl->s));
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
		n += tr_kept_at(c, i)->nev;
	sl = calloc(n ? n : 1, sizeof(*sl));
	if (!sl)
		return NULL;
	for (size_t i = 0; i < c->kept.n; i++) {
		const struct tr_gap *g = tr_kept_at(c, i);
		uint64_t m = JS_MAX(g->dur_ns, t->ctx_ns);

		for (uint32_t e = 0; e < g->nev; e++) {
			sl[k].ev = &g->ev[e];
			sl[k].track = (uint8_t)tr_ev_track(&g->ev[e]);
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

		sl[i].point = tr_ev_point(e);
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
		ev_begin(t, "X", c->id, TR_GAPS, tr_rel(t, v[i].start_ns));
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

int trace_write_file(struct trace_out *t, const struct js_run *run)
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
