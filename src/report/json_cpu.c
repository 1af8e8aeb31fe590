// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * json_cpu.c - one result of a saved run (a CPU's, a thread's or the marks'; js_json_run.h):
 * each of its sections' writer beside its reader, so that a key is added in one place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "js_json.h"
#include "js_json_gap.h"
#include "js_json_run.h"
#include "js_jsonfield.h"
#include "js_jsonread.h"
#include "js_report.h"
#include "js_story.h"
#include "js_util.h"

/* the keys both a writer and a reader below name, each spelled once */
#define K_ALL "all"
#define K_ARRIVALS "arrivals"
#define K_BANDS "bands"
#define K_BOUND_NS "bound_ns"
#define K_BURST "burst"
#define K_BY_CAUSE "by_cause"
#define K_BY_CLASS "by_class"
#define K_BY_PRIMARY_CAUSE "by_primary_cause"
#define K_CAP_NS "cap_ns"
#define K_CAUSE "cause"
#define K_CAUSES "causes"
#define K_CHECK "check"
#define K_CLOCK_UPDATES "clock_updates"
#define K_CPU "cpu"
#define K_DELAY_NS "delay_ns"
#define K_DELAY_NS_TOTAL "delay_ns_total"
#define K_DELAYED_BY_CAUSE "delayed_by_cause"
#define K_DURATION_NS "duration_ns"
#define K_END_NS "end_ns"
#define K_ENTRY_EXIT "entry_exit"
#define K_ENTRY_NS "entry_ns"
#define K_EVENTS "events"
#define K_EXITED "exited"
#define K_EXPLAINED_BY_CHECKS "explained_by_checks"
#define K_FLOOR_NS "floor_ns"
#define K_GAP_SIZE_NS "gap_size_ns"
#define K_GAPS "gaps"
#define K_HISTOGRAM_BY_CAUSE "histogram_by_cause"
#define K_HOST_READINGS "host_readings"
#define K_INTERRUPTIONS "interruptions"
#define K_INTERVALS "intervals"
#define K_KINDS "kinds"
#define K_LEARNED_NS "learned_ns"
#define K_LENGTH_NS "length_ns"
#define K_LIST "list"
#define K_LO_NS "lo_ns"
#define K_LONE_GAPS "lone_gaps"
#define K_MAX_NS "max_ns"
#define K_MEDIAN_NS "median_ns"
#define K_MIN_NS "min_ns"
#define K_NODE "node"
#define K_NS "ns"
#define K_NS_BY_CAUSE "ns_by_cause"
#define K_OFFSET_NS "offset_ns"
#define K_PERIOD_NS "period_ns"
#define K_PERIODIC "periodic"
#define K_PHASE_NS "phase_ns"
#define K_PRIOR_NS "prior_ns"
#define K_PROBABILITY_OBSERVED "probability_observed"
#define K_RAN_ON "ran_on"
#define K_READINGS "readings"
#define K_RELOADS_WITHOUT_STEAL "reloads_without_steal"
#define K_SMI "smi"
#define K_SOURCE "source"
#define K_START_NS "start_ns"
#define K_STEAL_NS "steal_ns"
#define K_STRENGTH "strength"
#define K_THREAD "thread"
#define K_THREAD_STATS "thread_stats"
#define K_TID "tid"
#define K_TOP "top"
#define K_TOTAL "total"
#define K_UNEXPLAINED_PERIODICITY "unexplained_periodicity"
#define K_VM_EXIT "vm_exit"
#define K_WORST "worst"
#define K_CGROUP "cgroup" /* sources_by_cgroup's, as sources' JG_DETAIL */
#define K_DELAY_HDR_B64 "delay_hdr_b64"
#define K_HIST_HDR_B64 "hist_hdr_b64"
#define K_SOURCES "sources"
#define K_SOURCES_BY_CGROUP "sources_by_cgroup"

/* cause_of - a cause class by name (member key or value) */
static int cause_of(struct jr *l, const struct jsonp_val *at, const char *name)
{
	int c = js_cause_from_name(name);

	if (c < 0)
		jr_fail(l, at, NULL, "unknown cause class \"%.40s\"", name);
	return c;
}

static void hist_pcts(struct js_json *j, const struct js_hist *h)
{
	for (size_t i = 0; i < js_npcts; i++)
		json_i64(j, js_pcts[i].key, hist_value_at_percentile(h, js_pcts[i].p));
	json_i64(j, K_MAX_NS, hist_max(h));
}

/* check_pcts - the saved percentiles and max must be the histogram's */
static void check_pcts(struct jr *l, const struct jsonp_val *o, const struct js_hist *h)
{
	for (size_t i = 0; i <= js_npcts && !l->rc; i++) {
		const char *key = i < js_npcts ? js_pcts[i].key : "max_ns";
		int64_t want = i < js_npcts ? hist_value_at_percentile(h, js_pcts[i].p) :
					      hist_max(h),
			got = want;

		jr_i64(l, o, key, JR_REQ, &got);
		if (!l->rc && got != want)
			jr_fail(l, jsonp_get(o, key), key,
				"%lld, but the histogram says %lld: the file was altered",
				(long long)got, (long long)want);
	}
}

/* hist_b64 - a whole histogram, HdrHistogram V2 compressed + base64 */
static void hist_b64(struct js_json *j, const char *key, const struct js_hist *h)
{
	char *b64 = NULL;

	if (hist_encode_compressed_b64(h, 9, &b64) == 0)
		json_str(j, key, b64);
	free(b64);
}

/* decode_hist - a HISTF... histogram into h */
static void decode_hist(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags,
			struct js_hist *h)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_STR, flags);
	int err;

	if (!v)
		return;
	err = hist_decode_compressed_b64(v->str.s, h);
	if (err)
		jr_fail(l, v, key, "not a valid HdrHistogram (%s)", strerror(-err));
}

/* an arrival interval's counts, before delayed_pct (derived) */
static const struct json_field arrival_fields[] = {
	JSON_FIELD(struct js_arrival, interval_ns, U64, JF_REQ),
	JSON_FIELD(struct js_arrival, arrivals, U64, JF_REQ),
	JSON_FIELD(struct js_arrival, delayed, U64, JF_REQ),
};

static void arrivals(struct js_json *j, const struct js_run *run, const struct js_cpu_result *r)
{
	json_arr_begin(j, K_ARRIVALS);
	for (size_t i = 0; i < r->narrivals; i++) {
		const struct js_arrival *a = &r->arrivals[i];

		json_obj_begin(j, NULL);
		json_fields_write(j, arrival_fields, ARRAY_SIZE(arrival_fields), a);
		json_dbl(j, "delayed_pct", a->arrivals ? 100.0 * a->delayed / a->arrivals : 0.0);
		json_u64(j, K_DELAY_NS_TOTAL, a->delay_ns_total);
		hist_pcts(j, &a->delay);
		hist_b64(j, K_DELAY_HDR_B64, &a->delay);
		json_obj_begin(j, K_DELAYED_BY_CAUSE);
		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			if (!a->delayed_by_cause[c])
				continue;
			json_obj_begin(j, js_cause_name(c));
			json_u64(j, K_ARRIVALS, a->delayed_by_cause[c]);
			json_u64(j, K_DELAY_NS, a->delay_ns_by_cause[c]);
			json_obj_end(j);
		}
		json_obj_end(j);
		json_arr_begin(j, K_BURST);
		for (int k = 0; k < JS_BURST_SIZES && run->cfg.burst; k++) {
			json_obj_begin(j, NULL);
			json_u64(j, K_ARRIVALS, run->cfg.burst);
			json_u64(j, K_GAP_SIZE_NS, js_burst_sizes_ns[k]);
			json_dbl(j, K_PROBABILITY_OBSERVED, r->burst_p[i][k]);
			json_dbl(j, "probability_poisson",
				 arrival_burst_probability(&r->hist, r->end_ns - r->start_ns,
							   a->interval_ns, run->cfg.burst,
							   js_burst_sizes_ns[k]));
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void load_delayed_by(struct jr *l, const struct jsonp_val *v, struct js_arrival *a)
{
	const struct jsonp_val *d = jr_get(l, v, K_DELAYED_BY_CAUSE, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, "." K_DELAYED_BY_CAUSE);

	for (size_t k = 0; k < jsonp_len(d) && !l->rc; k++) {
		const struct jsonp_member *m = jsonp_member_at(d, k);
		int c = cause_of(l, &m->val, m->key);

		size_t m2;

		if (c < 0 || !jr_get(l, d, m->key, JSONP_OBJ, JR_REQ))
			break;
		m2 = jr_push(l, ".%s", m->key);
		jr_u64(l, &m->val, K_ARRIVALS, JR_REQ, &a->delayed_by_cause[c]);
		jr_u64(l, &m->val, K_DELAY_NS, JR_REQ, &a->delay_ns_by_cause[c]);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* load_bursts - burst exposure of arrival i; the saved burst size if params lack it */
static void load_bursts(struct jr *l, const struct jsonp_val *v, struct js_cpu_result *r, size_t i,
			struct js_run_cfg *p)
{
	const struct jsonp_val *b = jr_get(l, v, K_BURST, JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, "." K_BURST);

	for (size_t k = 0; b && k < b->arr.n && !l->rc; k++) {
		const struct jsonp_val *e = &b->arr.v[k];
		size_t m2 = jr_push(l, "[%zu]", k);
		uint64_t size = 0, n = 0;
		int s;

		jr_u64(l, e, K_GAP_SIZE_NS, JR_REQ, &size);
		jr_u64(l, e, K_ARRIVALS, JR_REQ, &n);
		for (s = 0; s < JS_BURST_SIZES && js_burst_sizes_ns[s] != size; s++)
			;
		if (s < JS_BURST_SIZES)
			jr_dbl(l, e, K_PROBABILITY_OBSERVED, JR_REQ, &r->burst_p[i][s]);
		else
			jr_fail(l, e, K_GAP_SIZE_NS, "%llu is not a burst gap size",
				(unsigned long long)size);
		if (!p->burst)
			p->burst = n;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

static void load_arrival(struct jr *l, const struct jsonp_val *v, struct js_cpu_result *r,
			 struct js_run_cfg *p)
{
	struct js_arrival *a = &r->arrivals[r->narrivals];

	memset(a, 0, sizeof(*a));
	a->start_ns = r->start_ns;
	a->end_ns = r->end_ns;
	a->finished = true;
	jr_fields(l, v, arrival_fields, ARRAY_SIZE(arrival_fields), a);
	jr_u64(l, v, K_DELAY_NS_TOTAL, JR_REQ, &a->delay_ns_total);
	load_delayed_by(l, v, a);
	if (!jsonp_get(v, K_DELAY_HDR_B64)) {
		js_warn("%s: no delay_hdr_b64 (an older jitterscope wrote it): the arrivals at "
			"%llu ns are left out",
			l->path + 1, (unsigned long long)a->interval_ns);
		return;
	}
	decode_hist(l, v, K_DELAY_HDR_B64, JR_REQ, &a->delay);
	if (l->rc)
		return;
	r->narrivals++; /* from here the result owns the histogram */
	if (a->delay.total != a->arrivals)
		jr_fail(l, jsonp_get(v, K_DELAY_HDR_B64), K_DELAY_HDR_B64,
			"holds %llu arrivals, arrivals says %llu",
			(unsigned long long)a->delay.total, (unsigned long long)a->arrivals);
	check_pcts(l, v, &a->delay);
	load_bursts(l, v, r, r->narrivals - 1, p);
}

static void load_arrivals(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r,
			  struct js_run_cfg *p)
{
	const struct jsonp_val *a = jr_get(l, o, K_ARRIVALS, JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, "." K_ARRIVALS);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "[%zu]", i);

		if (i >= JS_MAX_ARRIVALS || !jsonp_is(&a->arr.v[i], JSONP_OBJ))
			jr_fail(l, &a->arr.v[i], NULL,
				i >= JS_MAX_ARRIVALS ? "too many arrival intervals" :
						       "expected an object");
		else
			load_arrival(l, &a->arr.v[i], r, p);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* interval_worst - an interval's worst gap and its story, null when it had none */
static void interval_worst(struct js_json *j, const struct js_interval_worst *w,
			   uint64_t run_start_ns)
{
	char story[256];

	if (!w->dur_ns) {
		json_null(j, K_WORST);
		return;
	}
	story_format_brief(story, sizeof(story), w->start_ns, w->dur_ns, w->cause, w->detail,
			   run_start_ns);
	json_obj_begin(j, K_WORST);
	json_u64(j, K_START_NS, w->start_ns);
	json_u64(j, K_OFFSET_NS, w->start_ns > run_start_ns ? w->start_ns - run_start_ns : 0);
	json_u64(j, K_DURATION_NS, w->dur_ns);
	json_str(j, K_CAUSE, js_cause_name(w->cause));
	json_str(j, JG_DETAIL, w->detail);
	json_str(j, "story", story);
	json_obj_end(j);
}

/* load_interval_worst - an interval's worst gap (absent before it, null: none) */
static void load_interval_worst(struct jr *l, const struct jsonp_val *e,
				struct js_interval_worst *w)
{
	const struct jsonp_val *v = jr_get(l, e, K_WORST, JSONP_OBJ, JR_NUL);
	size_t mark;
	int k;

	if (!v)
		return;
	mark = jr_push(l, "." K_WORST);
	jr_u64(l, v, K_START_NS, JR_REQ, &w->start_ns);
	jr_u64(l, v, K_DURATION_NS, JR_REQ, &w->dur_ns);
	k = jr_name(l, v, K_CAUSE, js_cause_from_name);
	w->cause = k < 0 ? 0 : (uint32_t)k;
	js_detail_read(l, v, w->cause, w->detail, sizeof(w->detail));
	jr_pop(l, mark);
}

/* an interval's figures, after its offset_ns */
static const struct json_field interval_fields[] = {
	JSON_FIELD(struct js_interval_stats, gaps, U64, JF_REQ),
	JSON_FIELD(struct js_interval_stats, lost_ns, U64, JF_REQ),
	JSON_FIELD(struct js_interval_stats, max_ns, I64, JF_REQ),
	JSON_FIELD(struct js_interval_stats, p999_ns, I64, JF_REQ),
};

static void intervals(struct js_json *j, const struct js_cpu_result *r, uint64_t run_start_ns)
{
	const struct js_intervals *iv = &r->intervals;

	json_obj_begin(j, K_INTERVALS);
	json_u64(j, K_LENGTH_NS, iv->len_ns);
	json_arr_begin(j, K_LIST);
	for (size_t i = 0; i < iv->n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, K_OFFSET_NS, iv->v[i].start_ns - r->start_ns);
		json_fields_write(j, interval_fields, ARRAY_SIZE(interval_fields), &iv->v[i]);
		interval_worst(j, &iv->v[i].worst, run_start_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void load_intervals(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r)
{
	const struct jsonp_val *v = jr_get(l, o, K_INTERVALS, JSONP_OBJ, JR_REQ), *a;
	struct js_intervals *iv = &r->intervals;
	size_t mark = jr_push(l, "." K_INTERVALS);

	jr_u64(l, v, K_LENGTH_NS, JR_REQ, &iv->len_ns);
	iv->base_len_ns = iv->len_ns;
	iv->start_ns = r->start_ns;
	iv->end_ns = r->end_ns;
	iv->finished = 1;
	a = jr_get(l, v, K_LIST, JSONP_ARR, JR_REQ);
	if (a && a->arr.n) {
		iv->v = calloc(a->arr.n, sizeof(*iv->v));
		if (!iv->v)
			l->rc = -ENOMEM;
		iv->alloc = iv->cap = a->arr.n;
	}
	for (size_t i = 0; iv->v && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *e = &a->arr.v[i];
		struct js_interval_stats *s = &iv->v[iv->n++];
		size_t m2 = jr_push(l, "." K_LIST "[%zu]", i);
		uint64_t off = 0;

		jr_u64(l, e, K_OFFSET_NS, JR_REQ, &off);
		s->start_ns = r->start_ns + off;
		jr_fields(l, e, interval_fields, ARRAY_SIZE(interval_fields), s);
		load_interval_worst(l, e, &s->worst);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* cause_buckets - the 1-2-5 histogram split by primary cause, non-empty buckets only */
static void cause_buckets(struct js_json *j, const struct js_cause_buckets *b)
{
	json_arr_begin(j, K_HISTOGRAM_BY_CAUSE);
	for (int i = 0; i < JS_CB_BUCKETS; i++) {
		if (!b->total[i])
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, K_LO_NS, cbuckets_lo(i));
		if (i == JS_CB_BUCKETS - 1)
			json_null(j, "hi_ns");
		else
			json_u64(j, "hi_ns", cbuckets_hi(i));
		json_u64(j, K_TOTAL, b->total[i]);
		json_obj_begin(j, K_BY_CAUSE);
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (b->count[i][c])
				json_u64(j, js_cause_name(c), b->count[i][c]);
		json_obj_end(j);
		json_obj_begin(j, K_NS_BY_CAUSE);
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (b->count[i][c])
				json_u64(j, js_cause_name(c), b->ns[i][c]);
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void load_cbuckets(struct jr *l, const struct jsonp_val *o, struct js_cause_buckets *b)
{
	const struct jsonp_val *a = jr_get(l, o, K_HISTOGRAM_BY_CAUSE, JSONP_ARR, 0);
	size_t mark = jr_push(l, "." K_HISTOGRAM_BY_CAUSE);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i], *bc, *nc;
		size_t m2 = jr_push(l, "[%zu]", i);
		uint64_t lo = 0;
		int bi;

		jr_u64(l, v, K_LO_NS, JR_REQ, &lo);
		bi = cbuckets_index(lo);
		if (!l->rc && cbuckets_lo(bi) != lo)
			jr_fail(l, v, K_LO_NS, "%llu is not a bucket boundary",
				(unsigned long long)lo);
		jr_u64(l, v, K_TOTAL, JR_REQ, &b->total[bi]);
		bc = jr_get(l, v, K_BY_CAUSE, JSONP_OBJ, JR_REQ);
		nc = jr_get(l, v, K_NS_BY_CAUSE, JSONP_OBJ, 0);
		for (size_t k = 0; k < jsonp_len(bc) && !l->rc; k++) {
			const struct jsonp_member *m = jsonp_member_at(bc, k);
			int c = cause_of(l, &m->val, m->key);

			if (c < 0)
				break;
			jr_u64(l, bc, m->key, JR_REQ, &b->count[bi][c]);
			jr_u64(l, nc, m->key, 0, &b->ns[bi][c]);
		}
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* a cause class's and a source's figures, before share_pct and max_ns */
static const struct json_field class_fields[] = {
	JSON_FIELD(struct js_cause_class, gaps, U64, JF_REQ),
	JSON_FIELD(struct js_cause_class, events, U64, JF_REQ),
	JSON_FIELD(struct js_cause_class, total_ns, U64, JF_REQ),
	JSON_FIELD(struct js_cause_class, entry_ns, U64, 0),
};
static const struct json_field source_fields[] = {
	JSON_FIELD(struct js_cause_src, gaps, U64, JF_REQ),
	JSON_FIELD(struct js_cause_src, events, U64, JF_REQ),
	JSON_FIELD(struct js_cause_src, total_ns, U64, JF_REQ),
	JSON_FIELD(struct js_cause_src, entry_ns, U64, 0),
};

/* sources - a cause table's sources, largest first: [{cause, KEY, gaps, ...}] */
static void sources(struct js_json *j, const char *name, const char *key, const struct js_causes *c)
{
	const struct js_cause_src *src[JS_CAUSES_SRC_MAX];
	size_t n = causes_sorted(c, src, JS_CAUSES_SRC_MAX);

	json_arr_begin(j, name);
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_str(j, K_CAUSE, js_cause_name(src[i]->cause));
		json_str(j, key, src[i]->detail);
		json_fields_write(j, source_fields, ARRAY_SIZE(source_fields), src[i]);
		json_dbl(j, "share_pct", 100.0 * causes_share(c, src[i]->total_ns));
		json_u64(j, K_MAX_NS, src[i]->max_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/*
 * load_sources - a cause table's sources (name: "sources", keyed by "detail"; or
 * "sources_by_cgroup", keyed by "cgroup", absent before jitterscope named cgroups), filled
 * directly (the struct is public)
 */
static void load_sources(struct jr *l, const struct jsonp_val *o, const char *name,
			 struct js_causes *c)
{
	bool by_cg = strcmp(name, K_SOURCES);
	const struct jsonp_val *a = jr_get(l, o, name, JSONP_ARR, by_cg ? 0 : JR_REQ);
	size_t mark = jr_push(l, ".%s", name);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i];
		struct js_cause_src *s = &c->src[c->nsrc];
		size_t m2 = jr_push(l, "[%zu]", i);
		int k;

		if (c->nsrc >= JS_CAUSES_SRC_MAX) {
			jr_fail(l, v, NULL, "more than %d sources", JS_CAUSES_SRC_MAX);
			break;
		}
		if (!jsonp_is(v, JSONP_OBJ)) {
			jr_fail(l, v, NULL, "expected an object");
			break;
		}
		memset(s, 0, sizeof(*s));
		k = jr_name(l, v, K_CAUSE, js_cause_from_name);
		s->cause = k < 0 ? 0 : (uint32_t)k;
		if (by_cg)
			jr_str(l, v, K_CGROUP, JR_REQ, s->detail, sizeof(s->detail));
		else
			js_detail_read(l, v, s->cause, s->detail, sizeof(s->detail));
		jr_fields(l, v, source_fields, ARRAY_SIZE(source_fields), s);
		jr_u64(l, v, K_MAX_NS, JR_REQ, &s->max_ns);
		s->other = !strcmp(s->detail, "(other)");
		if (s->other && k >= 0)
			c->other[k] = (uint16_t)(c->nsrc + 1);
		c->nsrc++;
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* by_primary - gaps and ns per primary cause */
static void by_primary(struct js_json *j, const struct js_causes *c)
{
	json_obj_begin(j, K_BY_PRIMARY_CAUSE);
	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		if (!c->by_primary[k])
			continue;
		json_obj_begin(j, js_cause_name(k));
		json_u64(j, K_GAPS, c->by_primary[k]);
		json_u64(j, K_NS, c->ns_by_primary[k]);
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void load_by_primary(struct jr *l, const struct jsonp_val *o, struct js_causes *c)
{
	const struct jsonp_val *bp = jr_get(l, o, K_BY_PRIMARY_CAUSE, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, "." K_BY_PRIMARY_CAUSE);

	for (size_t i = 0; i < jsonp_len(bp) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(bp, i);
		int k = cause_of(l, &m->val, m->key);

		size_t m2;

		if (k < 0 || !jr_get(l, bp, m->key, JSONP_OBJ, JR_REQ))
			break;
		m2 = jr_push(l, ".%s", m->key);
		jr_u64(l, &m->val, K_GAPS, JR_REQ, &c->by_primary[k]);
		jr_u64(l, &m->val, K_NS, JR_REQ, &c->ns_by_primary[k]);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* the cause table: per class, then per source (class + detail) */
static void cause_table(struct js_json *j, const struct js_causes *c)
{
	json_obj_begin(j, K_BY_CLASS);
	for (int k = 0; k < JS_CAUSE_MAX; k++) {
		const struct js_cause_class *cl = causes_class(c, (uint32_t)k);

		if (!cl || !cl->gaps)
			continue;
		json_obj_begin(j, js_cause_name(k));
		json_fields_write(j, class_fields, ARRAY_SIZE(class_fields), cl);
		json_dbl(j, "share_pct", 100.0 * causes_share(c, cl->total_ns));
		json_u64(j, K_MAX_NS, cl->max_ns);
		json_obj_end(j);
	}
	json_obj_end(j);
	sources(j, K_SOURCES, JG_DETAIL, c);
}

static void load_classes(struct jr *l, const struct jsonp_val *o, struct js_causes *c)
{
	const struct jsonp_val *bc = jr_get(l, o, K_BY_CLASS, JSONP_OBJ, JR_REQ);
	size_t mark = jr_push(l, "." K_BY_CLASS);

	for (size_t i = 0; i < jsonp_len(bc) && !l->rc; i++) {
		const struct jsonp_member *m = jsonp_member_at(bc, i);
		int k = cause_of(l, &m->val, m->key);
		size_t m2;

		if (k < 0 || !jr_get(l, bc, m->key, JSONP_OBJ, JR_REQ))
			break;
		m2 = jr_push(l, ".%s", m->key);
		jr_fields(l, &m->val, class_fields, ARRAY_SIZE(class_fields), &c->cls[k]);
		jr_u64(l, &m->val, K_MAX_NS, JR_REQ, &c->cls[k].max_ns);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* period_fields - one detector's verdict: period_ns 0 when not periodic */
static void period_fields(struct js_json *j, const struct js_period *p)
{
	struct js_period_result pr;
	bool periodic = period_result(p, &pr);

	json_bool(j, K_PERIODIC, periodic);
	json_u64(j, K_PERIOD_NS, periodic ? pr.period_ns : 0);
	json_dbl(j, K_STRENGTH, pr.strength);
	if (pr.phase_ns < 0)
		json_null(j, K_PHASE_NS); /* loaded from a file without it */
	else
		json_dbl(j, K_PHASE_NS, periodic ? pr.phase_ns : 0);
	json_u64(j, K_GAPS, pr.n);
}

/* load_verdict - one detector's saved verdict: {periodic, period_ns, strength, gaps,
 * phase_ns}; phase_ns is absent from files written before it (then -1: unknown) */
static void load_verdict(struct jr *l, const struct jsonp_val *v, struct js_period *p)
{
	struct js_period_result r = { .phase_ns = -1 };

	jr_bool(l, v, K_PERIODIC, JR_REQ, &r.periodic);
	jr_u64(l, v, K_PERIOD_NS, JR_REQ, &r.period_ns);
	jr_dbl(l, v, K_STRENGTH, JR_REQ, &r.strength);
	jr_u64(l, v, K_GAPS, JR_REQ, &r.n);
	jr_dbl(l, v, K_PHASE_NS, 0, &r.phase_ns);
	period_saved(p, &r);
}

/* periodicity - the unexplained gaps' periodicity: the headline class (the longest tenth,
 * at least min_ns long), every gap, and each non-empty duration band */
static void periodicity(struct js_json *j, const struct js_period_classes *pc)
{
	int h = period_classes_headline(pc);

	json_obj_begin(j, K_UNEXPLAINED_PERIODICITY);
	period_fields(j, &pc->ge[h]);
	json_u64(j, K_MIN_NS, js_period_band_ns[h]);
	json_obj_begin(j, K_ALL);
	period_fields(j, &pc->ge[0]);
	json_obj_end(j);
	json_arr_begin(j, K_BANDS);
	for (int i = 0; i < JS_PERIOD_BANDS; i++) {
		if (!pc->band[i].n)
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, K_MIN_NS, js_period_band_ns[i]);
		if (i == JS_PERIOD_BANDS - 1)
			json_null(j, K_MAX_NS);
		else
			json_u64(j, K_MAX_NS, period_band_hi(i));
		period_fields(j, &pc->band[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/*
 * load_period - the periodicity verdicts: the headline class (min_ns, 0 in files written
 * before the classes: every unexplained gap), "all", the bands; the classes' gap counts
 * follow from the bands', so the headline is chosen again as it was
 */
static void load_period(struct jr *l, const struct jsonp_val *o, struct js_period_classes *pc)
{
	const struct jsonp_val *v = jr_get(l, o, K_UNEXPLAINED_PERIODICITY, JSONP_OBJ, JR_REQ), *a;
	size_t mark = jr_push(l, "." K_UNEXPLAINED_PERIODICITY);
	uint64_t min = 0;
	int h = 0;

	period_classes_init(pc, 0, 0);
	a = jr_get(l, v, K_BANDS, JSONP_ARR, 0);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "." K_BANDS "[%zu]", i);
		int b = 0;

		jr_u64(l, &a->arr.v[i], K_MIN_NS, JR_REQ, &min);
		while (b < JS_PERIOD_BANDS && js_period_band_ns[b] != min)
			b++;
		if (b == JS_PERIOD_BANDS)
			jr_fail(l, &a->arr.v[i], K_MIN_NS, "%llu is not a band's bound",
				(unsigned long long)min);
		else
			load_verdict(l, &a->arr.v[i], &pc->band[b]);
		for (int k = 0; k <= b && k < JS_PERIOD_BANDS && !l->rc; k++)
			pc->ge[k].n += pc->band[b].n;
		jr_pop(l, m2);
	}
	if (jr_get(l, v, K_ALL, JSONP_OBJ, 0)) {
		size_t m2 = jr_push(l, "." K_ALL);

		load_verdict(l, jsonp_get(v, K_ALL), &pc->ge[0]);
		jr_pop(l, m2);
	}
	min = 0;
	jr_u64(l, v, K_MIN_NS, 0, &min);
	while (h < JS_PERIOD_BANDS && js_period_band_ns[h] != min)
		h++;
	if (h == JS_PERIOD_BANDS)
		jr_fail(l, jsonp_get(v, K_MIN_NS), K_MIN_NS, "%llu is not a band's bound",
			(unsigned long long)min);
	else
		load_verdict(l, v, &pc->ge[h]);
	jr_pop(l, mark);
}

static const struct json_field vm_exit_fields[] = {
	JSON_FIELD(struct js_exit_cost, samples, U32, JF_REQ),
	JSON_FIELD(struct js_exit_cost, min_ns, DBL, JF_REQ),
	JSON_FIELD(struct js_exit_cost, median_ns, DBL, JF_REQ),
	JSON_FIELD(struct js_exit_cost, p90_ns, DBL, JF_REQ),
};

/* vm_exit - one VM exit's cost on the CPU, null on bare metal (js_vmexit.h) */
static void vm_exit(struct js_json *j, const struct js_exit_cost *x)
{
	if (!x->samples) {
		json_null(j, K_VM_EXIT);
		return;
	}
	json_obj_begin(j, K_VM_EXIT);
	json_fields_write(j, vm_exit_fields, ARRAY_SIZE(vm_exit_fields), x);
	json_obj_end(j);
}

/* load_vm_exit - one VM exit's cost (absent before it was measured, null on bare metal) */
static void load_vm_exit(struct jr *l, const struct jsonp_val *o, struct js_exit_cost *x)
{
	const struct jsonp_val *v = jr_get(l, o, K_VM_EXIT, JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, "." K_VM_EXIT);

	jr_fields(l, v, vm_exit_fields, ARRAY_SIZE(vm_exit_fields), x);
	jr_pop(l, mark);
}

/* host_readings - the host's readings of the CPU and their version moves (js_model.h,
 * struct js_host_moves); null when none held a version */
static void host_readings(struct js_json *j, const struct js_host_moves *m)
{
	if (!m->has) {
		json_null(j, K_HOST_READINGS);
		return;
	}
	json_obj_begin(j, K_HOST_READINGS);
	json_u64(j, K_READINGS, m->readings);
	if (m->has & STEAL_HAS_ST_VERSION)
		json_u64(j, K_RELOADS_WITHOUT_STEAL, m->reloads);
	else
		json_null(j, K_RELOADS_WITHOUT_STEAL);
	if (m->has & STEAL_HAS_CLK_VERSION)
		json_u64(j, K_CLOCK_UPDATES, m->clocks);
	else
		json_null(j, K_CLOCK_UPDATES);
	json_obj_end(j);
}

/* load_host - the host's readings (absent before they were recorded, null: none read) */
static void load_host(struct jr *l, const struct jsonp_val *o, struct js_host_moves *m)
{
	const struct jsonp_val *v = jr_get(l, o, K_HOST_READINGS, JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, "." K_HOST_READINGS);

	memset(m, 0, sizeof(*m));
	if (v) {
		jr_u64(l, v, K_READINGS, JR_REQ, &m->readings);
		if (jr_get(l, v, K_RELOADS_WITHOUT_STEAL, JSONP_NUM, JR_NUL))
			m->has |= STEAL_HAS_ST_VERSION;
		if (jr_get(l, v, K_CLOCK_UPDATES, JSONP_NUM, JR_NUL))
			m->has |= STEAL_HAS_CLK_VERSION;
		jr_u64(l, v, K_RELOADS_WITHOUT_STEAL, JR_NUL, &m->reloads);
		jr_u64(l, v, K_CLOCK_UPDATES, JR_NUL, &m->clocks);
	}
	jr_pop(l, mark);
}

/* entry_exit - the entry/exit rule's bounds per interruption kind (js_entry.h) */
static void entry_exit(struct js_json *j, const struct js_entry *m)
{
	json_obj_begin(j, K_ENTRY_EXIT);
	json_u64(j, K_PRIOR_NS, m->prior_ns);
	json_u64(j, K_CAP_NS, m->cap_ns);
	json_obj_begin(j, K_KINDS);
	for (int k = 0; k < ENTRY_KINDS; k++) {
		const struct js_entry_kind *e = &m->k[k];

		if (!e->lone && !e->gaps)
			continue;
		json_obj_begin(j, entry_kind_name(k));
		json_u64(j, K_LONE_GAPS, e->lone);
		json_u64(j, K_MEDIAN_NS, e->median_ns);
		json_u64(j, K_FLOOR_NS, e->floor_ns);
		json_u64(j, K_LEARNED_NS, e->bound_ns);
		json_u64(j, K_CAP_NS, entry_cap(m, k));
		json_u64(j, K_BOUND_NS, entry_bound(m, k));
		json_u64(j, K_GAPS, e->gaps);
		json_u64(j, K_INTERRUPTIONS, e->entries);
		json_u64(j, K_ENTRY_NS, e->entry_ns);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
}

/* load_entry - the entry/exit rule's figures per interruption kind (absent before it) */
static void load_entry(struct jr *l, const struct jsonp_val *o, struct js_entry *m)
{
	const struct jsonp_val *v = jr_get(l, o, K_ENTRY_EXIT, JSONP_OBJ, 0), *kinds;
	size_t mark = jr_push(l, "." K_ENTRY_EXIT);

	memset(m, 0, sizeof(*m));
	jr_u64(l, v, K_PRIOR_NS, JR_REQ, &m->prior_ns);
	m->cap_ns = UINT64_MAX; /* no cap before it */
	jr_u64(l, v, K_CAP_NS, 0, &m->cap_ns);
	kinds = jr_get(l, v, K_KINDS, JSONP_OBJ, JR_REQ);
	for (size_t i = 0; i < jsonp_len(kinds) && !l->rc; i++) {
		const struct jsonp_member *mb = jsonp_member_at(kinds, i);
		int k = entry_kind_from_name(mb->key);
		struct js_entry_kind *e;
		size_t m2 = jr_push(l, "." K_KINDS ".%s", mb->key);

		if (k < 0 || !jsonp_is(&mb->val, JSONP_OBJ)) {
			jr_fail(l, &mb->val, NULL,
				k < 0 ? "not an interruption kind" : "expected an object");
			break;
		}
		e = &m->k[k];
		jr_u64(l, &mb->val, K_LONE_GAPS, JR_REQ, &e->lone);
		jr_u64(l, &mb->val, K_MEDIAN_NS, JR_REQ, &e->median_ns);
		jr_u64(l, &mb->val, K_BOUND_NS, JR_REQ, &e->bound_ns);
		jr_u64(l, &mb->val, K_FLOOR_NS, 0, &e->floor_ns);
		jr_u64(l, &mb->val, K_LEARNED_NS, 0, &e->bound_ns); /* before the cap, if said */
		jr_u64(l, &mb->val, K_GAPS, JR_REQ, &e->gaps);
		jr_u64(l, &mb->val, K_INTERRUPTIONS, JR_REQ, &e->entries);
		jr_u64(l, &mb->val, K_ENTRY_NS, JR_REQ, &e->entry_ns);
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* a followed thread's own figures (js_thread_stats), after its tid and name */
static const struct json_field thread_fields[] = {
	JSON_FIELD(struct js_thread_stats, syscalls, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, syscall_ns, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, sleeps, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, sleep_ns, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, yields, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, preempted, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, preempted_ns, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, interrupted, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, interrupted_ns, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, own_bh, U64, 0),
	JSON_FIELD(struct js_thread_stats, own_bh_ns, U64, 0),
	JSON_FIELD(struct js_thread_stats, syscalls_traced, BOOL, 0),
	JSON_FIELD(struct js_thread_stats, blocked, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, blocked_ns, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, faults, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, migrations, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, unseen_switches, U64, 0),
	JSON_FIELD(struct js_thread_stats, short_gaps, U64, JF_REQ),
	JSON_FIELD(struct js_thread_stats, short_ns, U64, JF_REQ),
};

/* thread - a followed thread's own figures (js_thread_stats) */
static void thread(struct js_json *j, const struct js_cpu_result *r)
{
	const struct js_thread_stats *t = &r->ts;

	json_u64(j, K_TID, r->tid);
	json_str(j, K_THREAD, r->name);
	json_obj_begin(j, K_THREAD_STATS);
	json_fields_write(j, thread_fields, ARRAY_SIZE(thread_fields), t);
	json_arr_begin(j, K_RAN_ON);
	for (int c = 0; c < 64; c++)
		if (t->cpus_mask >> c & 1)
			json_u64(j, NULL, (uint64_t)c);
	json_arr_end(j);
	json_bool(j, K_EXITED, t->exited);
	json_obj_end(j);
}

/* load_thread - a followed thread's name and own figures */
static void load_thread(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r)
{
	const struct jsonp_val *t, *a;
	struct js_thread_stats *s = &r->ts;
	uint64_t tid = 0;
	size_t mark;

	jr_u64(l, o, K_TID, JR_REQ, &tid);
	r->tid = (uint32_t)JS_MIN(tid, UINT32_MAX);
	jr_str(l, o, K_THREAD, JR_REQ, r->name, sizeof(r->name));
	t = jr_get(l, o, K_THREAD_STATS, JSONP_OBJ, JR_REQ);
	mark = jr_push(l, "." K_THREAD_STATS);
	s->syscalls_traced = true; /* files from before the option counted them always */
	jr_fields(l, t, thread_fields, ARRAY_SIZE(thread_fields), s);
	jr_bool(l, t, K_EXITED, JR_REQ, &s->exited);
	a = jr_get(l, t, K_RAN_ON, JSONP_ARR, JR_REQ);
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		int64_t c = -1;

		if (jsonp_i64(&a->arr.v[i], &c) || c < 0 || c >= 64)
			jr_fail(l, &a->arr.v[i], K_RAN_ON, "element %zu is not a CPU below 64", i);
		else
			s->cpus_mask |= 1ull << c;
	}
	jr_pop(l, mark);
}

/* ties - the audit's findings r's causes tie to (audit_ties): what fixing each recovers */
static void ties(struct js_json *j, const struct js_cpu_result *r)
{
	json_arr_begin(j, K_EXPLAINED_BY_CHECKS);
	for (size_t i = 0; i < r->nties; i++) {
		json_obj_begin(j, NULL);
		json_str(j, K_CHECK, r->ties[i].check);
		json_u64(j, K_NS, r->ties[i].ns);
		json_arr_begin(j, K_CAUSES);
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (r->ties[i].causes & (1u << c))
				json_str(j, NULL, js_cause_name(c));
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* load_ties - the findings its causes tie to (absent: a file written before them, none) */
static void load_ties(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r, bool *tied)
{
	const struct jsonp_val *a = jr_get(l, o, K_EXPLAINED_BY_CHECKS, JSONP_ARR, 0);
	size_t mark = jr_push(l, "." K_EXPLAINED_BY_CHECKS);

	*tied |= a != NULL;
	for (size_t i = 0; a && i < a->arr.n && r->nties < AUDIT_TIES_MAX && !l->rc; i++) {
		const struct jsonp_val *v = &a->arr.v[i], *c;
		struct audit_tie *t = &r->ties[r->nties++];
		size_t m2 = jr_push(l, "[%zu]", i);

		if (!jsonp_is(v, JSONP_OBJ)) {
			jr_fail(l, v, NULL, "expected an object");
			break;
		}
		jr_str(l, v, K_CHECK, JR_REQ, t->check, sizeof(t->check));
		jr_u64(l, v, K_NS, JR_REQ, &t->ns);
		c = jr_get(l, v, K_CAUSES, JSONP_ARR, JR_REQ);
		for (size_t k = 0; c && k < c->arr.n; k++) {
			int x = jsonp_is(&c->arr.v[k], JSONP_STR) ?
					js_cause_from_name(c->arr.v[k].str.s) :
					-1;

			if (x >= 0 && x < 32)
				t->causes |= 1u << x;
		}
		jr_pop(l, m2);
	}
	jr_pop(l, mark);
}

/* top - the worst gaps, longest first */
static void top(struct js_json *j, const struct js_run *run, const struct js_cpu_result *r)
{
	struct js_gap_rec *recs = calloc(r->top.n ? r->top.n : 1, sizeof(*recs));
	unsigned n = recs ? result_top_sorted(r, recs) : 0;

	json_arr_begin(j, K_TOP);
	for (unsigned i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, K_START_NS, recs[i].gap.start_ns);
		json_u64(j, K_OFFSET_NS, recs[i].gap.start_ns - run->start_mono_ns);
		json_u64(j, K_DURATION_NS, recs[i].gap.dur_ns);
		json_u64(j, K_EVENTS, recs[i].attr.nevents);
		js_gap_write_json(j, &recs[i]);
		js_attr_write_json_stacks(j, &recs[i].attr, run->cgroups, &run->stacks);
		json_obj_end(j);
	}
	json_arr_end(j);
	free(recs);
}

static void load_gap(struct jr *l, const struct jsonp_val *v, const struct js_cpu_result *r,
		     uint32_t res, struct js_gap_rec *g)
{
	struct js_run *run = l->ctx; /* its cgroups' and stacks' tables */
	uint64_t ev = 0;

	memset(g, 0, sizeof(*g));
	g->gap.cpu = (uint32_t)r->cpu;
	g->gap.res = res;
	js_gap_read_json(l, v, r->source, r->tid, g);
	jr_u64(l, v, K_START_NS, JR_REQ, &g->gap.start_ns);
	jr_u64(l, v, K_DURATION_NS, JR_REQ, &g->gap.dur_ns);
	jr_u64(l, v, K_EVENTS, 0, &ev);
	g->attr.nevents = (uint32_t)JS_MIN(ev, UINT32_MAX);
	js_attr_read_json(l, v, &g->attr, run->cgroups, &run->stacks);
}

/* load_top - the worst gaps; kept as a valid min-heap (ascending), ties in file order, so
 * result_top_sorted() lists them exactly as the file does */
static void load_top(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r, uint32_t res)
{
	const struct jsonp_val *a = jr_get(l, o, K_TOP, JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, "." K_TOP);
	struct js_topn *t = &r->top;
	struct js_gap_rec *recs;

	if (!a)
		goto out;
	if (result_top_init(t, a->arr.n)) {
		l->rc = -ENOMEM;
		goto out;
	}
	recs = t->v;
	for (size_t i = 0; i < a->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "[%zu]", i);
		struct js_gap_rec g;
		size_t j;

		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ))
			jr_fail(l, &a->arr.v[i], NULL, "expected an object");
		load_gap(l, &a->arr.v[i], r, res, &g);
		for (j = t->n; j > 0 && recs[j - 1].gap.dur_ns > g.gap.dur_ns; j--)
			;
		memmove(&recs[j + 1], &recs[j], (t->n - j) * sizeof(g));
		recs[j] = g;
		t->n++;
		jr_pop(l, m2);
	}
out:
	jr_pop(l, mark);
}

/* a result's counts, after its window; lost_pct (derived) between the two lists */
static const struct json_field count_fields[] = {
	JSON_FIELD(struct js_cpu_result, iterations, U64, JF_REQ),
	JSON_FIELD(struct js_cpu_result, loop_ns_min, DBL, JF_REQ),
	JSON_FIELD(struct js_cpu_result, loop_ns_median, DBL, JF_REQ),
	JSON_FIELD(struct js_cpu_result, loop_ns_mean, DBL, JF_REQ),
	JSON_FIELD(struct js_cpu_result, gap_count, U64, JF_REQ),
	JSON_FIELD(struct js_cpu_result, lost_ns, U64, JF_REQ),
};
static const struct json_field drop_fields[] = {
	JSON_FIELD(struct js_cpu_result, dropped, U64, JF_REQ),
	JSON_FIELD(struct js_cpu_result, events, U64, 0),
};

static void cpu(struct js_json *j, const struct js_run *run, const struct js_cpu_result *r)
{
	json_obj_begin(j, NULL);
	json_u64(j, K_CPU, (uint64_t)r->cpu);
	json_str(j, K_SOURCE, js_source_name(r->source));
	if (r->source == JS_SRC_THREAD)
		thread(j, r);
	json_i64(j, K_NODE, r->node);
	json_u64(j, K_START_NS, r->start_ns);
	json_u64(j, K_END_NS, r->end_ns);
	json_u64(j, K_DURATION_NS, r->end_ns - r->start_ns);
	json_fields_write(j, count_fields, ARRAY_SIZE(count_fields), r);
	json_dbl(j, "lost_pct", result_lost_pct(r));
	json_fields_write(j, drop_fields, ARRAY_SIZE(drop_fields), r);
	hist_pcts(j, &r->hist);
	json_i64(j, K_MIN_NS, hist_min(&r->hist));
	json_dbl(j, "mean_ns", hist_mean(&r->hist));
	json_u64(j, K_STEAL_NS, r->steal_ns);
	if (run->smi_countable)
		json_u64(j, K_SMI, r->smi);
	else
		json_null(j, K_SMI);
	by_primary(j, &r->causes);
	cause_table(j, &r->causes);
	sources(j, K_SOURCES_BY_CGROUP, K_CGROUP, &r->by_cgroup);
	if (run->tied)
		ties(j, r);
	vm_exit(j, &r->vm_exit);
	host_readings(j, &r->host);
	entry_exit(j, &r->entry);
	periodicity(j, &r->period);
	hist_b64(j, K_HIST_HDR_B64, &r->hist);
	cause_buckets(j, &r->cb);
	intervals(j, r, run->start_mono_ns);
	arrivals(j, run, r);
	top(j, run, r);
	json_obj_end(j);
}

static void load_cpu_counts(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r,
			    const struct js_run *run)
{
	const struct jsonp_val *smi;

	jr_int(l, o, K_CPU, JR_REQ, 0, JS_CPUS_MAX - 1, &r->cpu);
	jr_int(l, o, K_NODE, JR_REQ, -1, INT32_MAX, &r->node);
	jr_u64(l, o, K_START_NS, JR_REQ, &r->start_ns);
	jr_u64(l, o, K_END_NS, JR_REQ, &r->end_ns);
	if (!l->rc && r->end_ns < r->start_ns)
		jr_fail(l, jsonp_get(o, K_END_NS), K_END_NS, "before start_ns");
	jr_fields(l, o, count_fields, ARRAY_SIZE(count_fields), r);
	jr_fields(l, o, drop_fields, ARRAY_SIZE(drop_fields), r);
	jr_u64(l, o, K_STEAL_NS, JR_REQ, &r->steal_ns);
	smi = jr_get(l, o, K_SMI, JSONP_NUM, JR_REQ | JR_NUL);
	if (smi && run->smi_countable)
		jr_u64(l, o, K_SMI, JR_REQ, &r->smi);
}

static void load_cpu(struct jr *l, const struct jsonp_val *o, struct js_cpu_result *r, uint32_t res,
		     struct js_run *run, struct js_run_cfg *p)
{
	int src;

	causes_init(&r->causes);
	cbuckets_init(&r->cb);
	load_cpu_counts(l, o, r, run);
	/* its array says where its gaps come from; "source", when there, must agree */
	src = jsonp_get(o, K_SOURCE) ? jr_name(l, o, K_SOURCE, js_source_from_name) :
				       (int)r->source;
	if (!l->rc && src != (int)r->source)
		jr_fail(l, jsonp_get(o, K_SOURCE), K_SOURCE, "%s in the array of %s results",
			js_source_name(src), js_source_name(r->source));
	if (r->source == JS_SRC_THREAD)
		load_thread(l, o, r);
	r->causes.cpu = (uint32_t)r->cpu;
	r->causes.ngaps = r->gap_count;
	r->causes.lost_ns = r->lost_ns;
	decode_hist(l, o, K_HIST_HDR_B64, JR_REQ, &r->hist);
	if (!l->rc && r->hist.total != r->gap_count)
		jr_fail(l, jsonp_get(o, K_HIST_HDR_B64), K_HIST_HDR_B64,
			"holds %llu gaps, gap_count says %llu", (unsigned long long)r->hist.total,
			(unsigned long long)r->gap_count);
	check_pcts(l, o, &r->hist);
	load_by_primary(l, o, &r->causes);
	load_classes(l, o, &r->causes);
	load_sources(l, o, K_SOURCES, &r->causes);
	causes_init(&r->by_cgroup);
	r->by_cgroup.cpu = r->causes.cpu;
	r->by_cgroup.ngaps = r->gap_count;
	r->by_cgroup.lost_ns = r->lost_ns;
	load_sources(l, o, K_SOURCES_BY_CGROUP, &r->by_cgroup);
	load_ties(l, o, r, &run->tied);
	r->cgroups = run->cgroups;
	if (!jsonp_get(o, K_HISTOGRAM_BY_CAUSE) && r->gap_count && !l->rc)
		js_warn("%s: no histogram_by_cause (an older jitterscope wrote it): the "
			"histogram is left out",
			l->path + 1);
	load_cbuckets(l, o, &r->cb);
	load_period(l, o, &r->period);
	load_vm_exit(l, o, &r->vm_exit);
	load_host(l, o, &r->host);
	load_entry(l, o, &r->entry);
	load_intervals(l, o, r);
	load_arrivals(l, o, r, p);
	load_top(l, o, r, res);
}

/* json_results_write - every result, in the array of its source (js_result_array: "cpus",
 * the samplers' alone as before the other sources, then "threads" and "marks") */
void json_results_write(struct js_json *j, const char *key, const struct js_run *run)
{
	(void)key; /* the arrays are js_result_array's */
	for (int src = 0; src < JS_SRC_MAX; src++) {
		json_arr_begin(j, js_result_array[src]);
		for (size_t i = 0; i < run->ncpus; i++)
			if (run->cpus[i].source == (enum js_source)src)
				cpu(j, run, &run->cpus[i]);
		json_arr_end(j);
	}
}

/* load_results - the results of source src (its array: "cpus", "threads", "marks") after
 * those already loaded */
static void load_results(struct jr *l, const struct jsonp_val *a, enum js_source src,
			 struct js_run *run, struct js_run_cfg *p)
{
	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		size_t mark = jr_push(l, ".%s[%zu]", js_result_array[src], i);
		struct js_cpu_result *r = &run->cpus[run->ncpus];

		run->ncpus++; /* counted first: report_load_free frees a partial one */
		r->source = src;
		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ))
			jr_fail(l, &a->arr.v[i], NULL, "expected an object");
		else
			load_cpu(l, &a->arr.v[i], r, (uint32_t)(run->ncpus - 1), run, p);
		jr_pop(l, mark);
	}
}

/* json_results_read - every result: "cpus" (the samplers'), then "threads" and "marks" (absent in
 * files written before them); at least one in all */
void json_results_read(struct jr *l, const struct jsonp_val *root, const char *key,
		       struct js_run *run)
{
	struct js_run_cfg *p = &run->cfg;
	const struct jsonp_val *a[JS_SRC_MAX];
	size_t n = 0;

	(void)key;

	for (int src = 0; src < JS_SRC_MAX; src++) {
		a[src] = jr_get(l, root, js_result_array[src], JSONP_ARR, src ? 0 : JR_REQ);
		n += a[src] ? a[src]->arr.n : 0;
	}
	if (l->rc)
		return;
	if (!n || n > JS_CPUS_MAX) {
		jr_fail(l, a[0], js_result_array[JS_SRC_SAMPLER],
			"%zu results (expected 1 to %d in cpus, threads and marks)", n,
			JS_CPUS_MAX);
		return;
	}
	run->cpus = calloc(n, sizeof(*run->cpus));
	if (!run->cpus) {
		l->rc = -ENOMEM;
		return;
	}
	run->cap = n;
	for (int src = 0; src < JS_SRC_MAX; src++)
		load_results(l, a[src], (enum js_source)src, run, p);
}
