// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_out_trace.c - the --trace output driven like the pipeline drives it (run_start,
 * on_gap with the overlapping events, finish) on synthetic gaps, read back with the strict
 * JSON parser: required fields, slices nested per track (overlaps trimmed, duplicates
 * merged, long intervals clipped), instants for point events, the cap (total events, the
 * kept gaps are the longest), counters. No root needed.
 */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_events.h"
#include "js_jsonparse.h"
#include "js_ksyms.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"

#define T0 5000000000ull /* run start, CLOCK_MONOTONIC */

struct fixture {
	char path[64];
	struct js_output out;
	struct js_params p;
	struct js_cpu_result cpu;
	struct js_run run;
	struct jsonp_doc doc;
	const struct jsonp_val *ev; /* traceEvents */
};

static struct fixture *fx_new(unsigned max_events)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	assert_non_null(f);
	snprintf(f->path, sizeof(f->path), "/tmp/test_out_trace.XXXXXX");
	fd = mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	f->p.trace_max_events = max_events;
	f->run.cfg.threshold_ns = 1000;
	f->cpu.cpu = 3;
	f->run.start_mono_ns = T0;
	f->run.start_epoch_s = 1764438863.5;
	f->run.wall_ns = 2000000000ull;
	f->run.cpus = &f->cpu;
	f->run.ncpus = 1;
	assert_int_equal(out_trace_new(&f->out, f->path, &f->p), 0);
	assert_true(f->out.wants_events);
	f->out.run_start(f->out.ctx, &f->run);
	return f;
}

static void fx_gap(struct fixture *f, uint64_t start, uint64_t dur, uint32_t primary,
		   const struct js_event *ev, size_t nev)
{
	struct js_gap_rec g;

	fx_rec(&g, 3, start, dur);
	g.attr.primary = primary;
	g.attr.unexplained_ns = dur;
	g.attr.nevents = (uint32_t)nev;
	f->out.on_gap(f->out.ctx, &g, ev, nev);
}

/* fx_finish - write the file, parse it strictly */
static void fx_finish(struct fixture *f)
{
	assert_int_equal(f->out.finish(f->out.ctx, &f->run), 0);
	f->out.destroy(f->out.ctx);
	fx_json_file(f->path, &f->doc);
	f->ev = jsonp_get(f->doc.root, "traceEvents");
	assert_non_null(f->ev);
	assert_true(jsonp_is(f->ev, JSONP_ARR));
}

static void fx_free(struct fixture *f)
{
	jsonp_free(&f->doc);
	unlink(f->path);
	free(f);
}

/* mkev - an event on the fixture's CPU 3 */
static struct js_event mkev(uint32_t kind, uint64_t s, uint64_t e, uint32_t id, const char *name)
{
	return fx_event(kind, s, e, 3, id, name);
}

static const char *sget(const struct jsonp_val *e, const char *k)
{
	const struct jsonp_val *v = jsonp_get(e, k);

	return v ? jsonp_str(v) : NULL;
}

static int64_t iget(const struct jsonp_val *e, const char *k)
{
	const struct jsonp_val *v = jsonp_get(e, k);
	int64_t x = -1;

	if (v)
		jsonp_i64(v, &x);
	return x;
}

/* us_ns - a ts/dur (µs, 3 decimals) as integer ns */
static int64_t us_ns(const struct jsonp_val *e, const char *k)
{
	double d = -1;

	assert_int_equal(jsonp_dbl(jsonp_get(e, k), &d), 0);
	return llround(d * 1000.0);
}

struct sl {
	int64_t tid, s, e;
	const struct jsonp_val *v;
};

static int cmp_sl(const void *pa, const void *pb)
{
	const struct sl *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return a->e > b->e ? -1 : a->e < b->e;
}

/* check_structure - required fields everywhere, X slices nested per track; returns X count */
static size_t check_structure(const struct fixture *f)
{
	size_t n = jsonp_len(f->ev), k = 0;
	struct sl *v = calloc(n + 1, sizeof(*v));
	int64_t stack[64];
	int depth = 0;

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		const struct jsonp_val *e = jsonp_at(f->ev, i);
		const char *ph = sget(e, "ph");

		assert_non_null(ph);
		assert_non_null(sget(e, "name"));
		assert_true(iget(e, "pid") > 0 && iget(e, "tid") > 0);
		assert_true(us_ns(e, "ts") >= 0);
		if (strcmp(ph, "X"))
			continue;
		v[k].tid = iget(e, "tid");
		v[k].s = us_ns(e, "ts");
		v[k].e = v[k].s + us_ns(e, "dur");
		v[k].v = e;
		assert_true(v[k].e >= v[k].s);
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_sl);
	for (size_t i = 0; i < k; i++) {
		if (i && v[i].tid != v[i - 1].tid)
			depth = 0;
		while (depth && stack[depth - 1] <= v[i].s)
			depth--;
		if (depth && v[i].e > stack[depth - 1])
			fail_msg("tid %lld: [%lld, %lld] overlaps the end %lld",
				 (long long)v[i].tid, (long long)v[i].s, (long long)v[i].e,
				 (long long)stack[depth - 1]);
		if (depth < 64)
			stack[depth++] = v[i].e;
	}
	free(v);
	return k;
}

/* count - events whose cat (or name for M/C) is what */
static size_t count(const struct fixture *f, const char *ph, const char *cat)
{
	size_t c = 0;

	for (size_t i = 0; i < jsonp_len(f->ev); i++) {
		const struct jsonp_val *e = jsonp_at(f->ev, i);
		const char *x = sget(e, "cat");

		if (!strcmp(sget(e, "ph"), ph) && (!cat || (x && !strcmp(x, cat))))
			c++;
	}
	return c;
}

static const struct jsonp_val *find_name(const struct fixture *f, const char *name)
{
	for (size_t i = 0; i < jsonp_len(f->ev); i++)
		if (!strcmp(sget(jsonp_at(f->ev, i), "name"), name))
			return jsonp_at(f->ev, i);
	return NULL;
}

/** Check the layout: tracks per class, names, args, ts relative to the run start. */
static void test_layout(void **state)
{
	struct fixture *f = fx_new(10000);
	struct js_event ev[3];
	const struct jsonp_val *e, *od;

	(void)state;
	ev[0] = mkev(JS_EV_IRQ, T0 + 1000200, T0 + 1003000, 36, "virtio1-req.0");
	ev[1] = mkev(JS_EV_SOFTIRQ, T0 + 1003000, T0 + 1009000, 4, "");
	ev[2] = mkev(JS_EV_FAULT, T0 + 1004000, T0 + 1004000, 77, "bash");
	fx_gap(f, T0 + 1000000, 12345, JS_CAUSE_IRQ, ev, 3);
	fx_finish(f);
	assert_int_equal(check_structure(f), 3); /* gap, irq, softirq */
	assert_int_equal(count(f, "i", "fault"), 1);
	e = find_name(f, "gap 12.3 us: irq");
	assert_non_null(e);
	assert_int_equal(us_ns(e, "ts"), 1000000); /* relative to the run start */
	assert_int_equal(us_ns(e, "dur"), 12345);
	assert_int_equal(iget(jsonp_get(e, "args"), "gap_ns"), 12345);
	assert_non_null(sget(jsonp_get(e, "args"), "story"));
	e = find_name(f, "irq 36 virtio1-req.0");
	assert_non_null(e);
	assert_string_equal(sget(e, "cat"), "irq");
	assert_int_equal(us_ns(e, "ts"), 1000200);
	assert_non_null(find_name(f, "BLOCK"));
	assert_non_null(find_name(f, "fault user bash:77"));
	e = find_name(f, "process_name");
	assert_non_null(e);
	assert_string_equal(sget(jsonp_get(e, "args"), "name"), "jitterscope cpu3");
	od = jsonp_get(f->doc.root, "otherData");
	assert_int_equal(iget(od, "origin_clock_monotonic_ns"), (int64_t)T0);
	assert_string_equal(sget(f->doc.root, "displayTimeUnit"), "ns");
	fx_free(f);
}

/** One track per class that has one, in the trace's order (docs/OUTPUTS_TRACE_HTML.md),
 * numbered tid = 10000 * (place + 1) + cpu; THP steps go on the mm track; an IPI send on
 * none. */
static void test_tracks(void **state)
{
	static const char *const order[] = { "gaps",	"irq",	   "timer", "ipi",  "vector",
					     "softirq", "hrtimer", "nmi",   "task", "idle",
					     "work",	"fault",   "tlb",   "mm",   "event" };
	static const struct {
		uint32_t kind, id;
	} kinds[] = {
		{ JS_EV_IRQ, 36 },
		{ JS_EV_VECTOR, JS_VEC_LOCAL_TIMER },
		{ JS_EV_VECTOR, JS_VEC_RESCHEDULE },
		{ JS_EV_VECTOR, JS_VEC_THERMAL },
		{ JS_EV_SOFTIRQ, 3 },
		{ JS_EV_HRTIMER, 0 },
		{ JS_EV_NMI, 0 },
		{ JS_EV_TASK, 42 },
		{ JS_EV_IDLE, 0 },
		{ JS_EV_WORK, 0 },
		{ JS_EV_FAULT, 42 },
		{ JS_EV_TLB, 0 },
		{ JS_EV_THP, JS_THP_COLLAPSE },
		{ JS_EV_IPI_SEND, 7 },
		{ JS_EV_USER, 0 }, /* --event timer:hrtimer_start */
	};
	struct fixture *f = fx_new(10000);
	struct js_event ev[sizeof(kinds) / sizeof(kinds[0])];
	size_t n = sizeof(kinds) / sizeof(kinds[0]), names = 0;

	(void)state;
	snprintf(f->run.cfg.events[0].open, JS_USER_EVENT_LEN, "timer:hrtimer_start");
	f->run.cfg.nevents = 1;
	for (size_t i = 0; i < n; i++)
		ev[i] = mkev(kinds[i].kind, T0 + 1000 + 100 * i, T0 + 1050 + 100 * i, kinds[i].id,
			     "x");
	fx_gap(f, T0 + 1000, 2000, JS_CAUSE_IRQ, ev, n);
	fx_finish(f);
	for (size_t i = 0; i < jsonp_len(f->ev); i++) {
		const struct jsonp_val *e = jsonp_at(f->ev, i);
		char want[32];

		if (strcmp(sget(e, "name"), "thread_name"))
			continue;
		assert_true(names < sizeof(order) / sizeof(order[0]));
		snprintf(want, sizeof(want), "cpu3 %s", order[names]);
		assert_string_equal(sget(jsonp_get(e, "args"), "name"), want);
		assert_int_equal(iget(e, "tid"), 10000 * (int64_t)(names + 1) + 3);
		names++;
	}
	assert_int_equal(names, sizeof(order) / sizeof(order[0]));
	assert_int_equal(count(f, "X", "mm"), 1); /* the THP collapse */
	assert_int_equal(count(f, "X", "thp"), 0);
	assert_int_equal(count(f, "X", "event"), 1); /* the --event, by its name */
	assert_non_null(find_name(f, "event timer:hrtimer_start"));
	fx_free(f);
}

/** Function names come from the run's symbol table (loaded once, by the pipeline); an
 * address without a symbol, or a run without the table, is written as the address. */
static void test_function_names(void **state)
{
	static const char syms[] = "ffffffff81200000 T tick_nohz_handler\n"
				   "ffffffff81300000 T vmstat_update\n";
	char path[] = "/tmp/test_out_trace_ksyms.XXXXXX";
	struct fixture *f = fx_new(10000), *g = fx_new(10000);
	struct js_event ev[2];
	const struct jsonp_val *e;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, syms, strlen(syms)), (ssize_t)strlen(syms));
	close(fd);
	assert_int_equal(ksyms_load_file(&f->run.ksyms, path), 0);
	unlink(path);
	ev[0] = mkev(JS_EV_HRTIMER, T0 + 1000, T0 + 3000, 0, "");
	ev[0].addr = 0xffffffff81200000ull;
	ev[1] = mkev(JS_EV_WORK, T0 + 4000, T0 + 6000, 0, "");
	ev[1].addr = 0x1234; /* below every symbol */
	fx_gap(f, T0 + 1000, 6000, JS_CAUSE_HRTIMER, ev, 2);
	fx_gap(g, T0 + 1000, 6000, JS_CAUSE_HRTIMER, ev, 1);
	fx_finish(f);
	fx_finish(g);
	e = find_name(f, "hrtimer tick_nohz_handler");
	assert_non_null(e);
	assert_string_equal(sget(jsonp_get(e, "args"), "function"), "tick_nohz_handler");
	assert_non_null(find_name(f, "work 0x1234"));
	assert_non_null(find_name(g, "hrtimer 0xffffffff81200000"));
	ksyms_free(f->run.ksyms);
	fx_free(f);
	fx_free(g);
}

/** Partial overlaps on one track are trimmed; one event seen by two gaps is written once. */
static void test_nesting_and_duplicates(void **state)
{
	struct fixture *f = fx_new(10000);
	struct js_event a[2], b[2];
	const struct jsonp_val *e;

	(void)state;
	/* two softirq intervals that overlap partially (out of spec on one track) */
	a[0] = mkev(JS_EV_SOFTIRQ, T0 + 100000, T0 + 104000, 3, "");
	a[1] = mkev(JS_EV_SOFTIRQ, T0 + 102000, T0 + 107000, 1, "");
	fx_gap(f, T0 + 100000, 8000, JS_CAUSE_SOFTIRQ, a, 2);
	/* one task interval overlapping two adjacent gaps; the second gap ends 1 ns after the
	 * third starts (TSC rounding) */
	b[0] = mkev(JS_EV_TASK, T0 + 300000, T0 + 330000, 42, "kworker/3:1");
	b[1] = b[0];
	fx_gap(f, T0 + 299000, 16000, JS_CAUSE_TASK, b, 1);
	fx_gap(f, T0 + 320000, 12001, JS_CAUSE_TASK, b + 1, 1);
	fx_gap(f, T0 + 332000, 2000, JS_CAUSE_UNEXPLAINED, NULL, 0);
	fx_finish(f);
	check_structure(f);
	assert_int_equal(count(f, "X", "task"), 1);
	e = find_name(f, "TIMER"); /* softirq 1 */
	assert_non_null(e);
	assert_int_equal(us_ns(e, "ts"), 102000);
	assert_int_equal(us_ns(e, "ts") + us_ns(e, "dur"), 104000); /* trimmed to NET_RX's end */
	assert_true(jsonp_get(jsonp_get(e, "args"), "trimmed") != NULL);
	assert_int_equal(count(f, "X", "gap"), 4);
	fx_free(f);
}

/** A long interval (a task whose switch out was not traced) is clipped near its gap. */
static void test_clip(void **state)
{
	struct fixture *f = fx_new(10000);
	struct js_event ev[2];
	const struct jsonp_val *e;

	(void)state;
	ev[0] = mkev(JS_EV_TASK, T0 - 3000000, T0 + 900000000, 1, "systemd");
	ev[0].flags = JS_F_NOEND;
	ev[1] = mkev(JS_EV_IDLE, T0 + 500000, T0 + 520000, 0, "");
	fx_gap(f, T0 + 500000, 20000, JS_CAUSE_TASK, ev, 2);
	fx_finish(f);
	check_structure(f);
	e = find_name(f, "systemd:1");
	assert_non_null(e);
	assert_int_equal(us_ns(e, "ts"), 480000);		    /* gap - its length */
	assert_int_equal(us_ns(e, "ts") + us_ns(e, "dur"), 540000); /* gap end + its length */
	assert_true(jsonp_get(jsonp_get(e, "args"), "clipped") != NULL);
	assert_true(jsonp_get(jsonp_get(e, "args"), "switch_traced") != NULL);
	assert_non_null(find_name(f, "idle"));
	fx_free(f);
}

static int cmp_u64_desc(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? 1 : a > b ? -1 : 0;
}

/** Under a small cap the file stays bounded and keeps exactly the longest gaps. */
static void test_cap_keeps_longest(void **state)
{
	struct fixture *f = fx_new(200);
	uint64_t *durs = calloc(3000, sizeof(*durs)), *kept = calloc(3000, sizeof(*kept));
	uint64_t rng = 88172645463325252ull, t = T0 + 1000;
	const struct jsonp_val *pc;
	size_t nk = 0;

	(void)state;
	assert_true(durs && kept);
	for (int i = 0; i < 3000; i++) {
		struct js_event ev[12];
		size_t nev;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		durs[i] = 1000 + rng % 200000;
		nev = (rng >> 20) % 12;
		for (size_t k = 0; k < nev; k++)
			ev[k] = mkev(k % 2 ? JS_EV_IRQ : JS_EV_FAULT, t + k * 10,
				     t + k * 10 + (k % 2 ? 50 : 0), 7, "x");
		fx_gap(f, t, durs[i], JS_CAUSE_IRQ, ev, nev);
		t += durs[i] + 1000;
	}
	f->run.wall_ns = t - T0;
	fx_finish(f);
	check_structure(f);
	assert_true(jsonp_len(f->ev) <= 200);
	for (size_t i = 0; i < jsonp_len(f->ev); i++) {
		const struct jsonp_val *e = jsonp_at(f->ev, i);
		const char *cat = sget(e, "cat");

		if (cat && !strcmp(cat, "gap"))
			kept[nk++] = (uint64_t)iget(jsonp_get(e, "args"), "gap_ns");
	}
	assert_true(nk > 5);
	qsort(durs, 3000, sizeof(*durs), cmp_u64_desc);
	qsort(kept, nk, sizeof(*kept), cmp_u64_desc);
	for (size_t i = 0; i < nk; i++)
		assert_int_equal(kept[i], durs[i]);
	pc = jsonp_at(jsonp_get(jsonp_get(f->doc.root, "otherData"), "per_cpu"), 0);
	assert_int_equal(iget(pc, "gaps_total"), 3000);
	assert_int_equal(iget(pc, "gaps_in_trace"), (int64_t)nk);
	assert_int_equal(iget(pc, "longest_left_out_ns"), (int64_t)durs[nk]);
	free(durs);
	free(kept);
	fx_free(f);
}

/** The per-second counters cover every gap, kept or not. */
static void test_counters(void **state)
{
	struct fixture *f = fx_new(100000);
	double total = 0, prev_v = 0;
	int64_t prev_ts = -1;

	(void)state;
	for (int i = 0; i < 250; i++) /* 2.5 s of gaps, 100 per second */
		fx_gap(f, T0 + (uint64_t)i * 10000000ull, 5000, JS_CAUSE_UNEXPLAINED, NULL, 0);
	f->run.wall_ns = 2500000000ull;
	fx_finish(f);
	for (size_t i = 0; i < jsonp_len(f->ev); i++) {
		const struct jsonp_val *e = jsonp_at(f->ev, i);
		double v;

		if (strcmp(sget(e, "ph"), "C") || strcmp(sget(e, "name"), "gaps per s"))
			continue;
		assert_int_equal(jsonp_dbl(jsonp_get(jsonp_get(e, "args"), "gaps"), &v), 0);
		if (prev_ts >= 0)
			total += prev_v * (double)(us_ns(e, "ts") - prev_ts) / 1e9;
		prev_ts = us_ns(e, "ts");
		prev_v = v;
	}
	assert_int_equal(prev_ts, 2500000000ll);
	assert_true(fabs(total - 250) < 0.01);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_tracks),
		cmocka_unit_test(test_function_names),
		cmocka_unit_test(test_nesting_and_duplicates),
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_cap_keeps_longest),
		cmocka_unit_test(test_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
