// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_spike.c - the flight recorder: its rate limiter (never more than N in any 60 s), its
 * size cap, its event ring's window, and the files it writes for a synthetic run, driven as
 * the pipeline drives it (run_start, on_event, on_gap, sync), read back with the strict
 * JSON parser: the gap, its causes and story, the window's events, the trace, the counts.
 * No root needed.
 */
#include <dirent.h>
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_jsonparse.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_spike.h"
#include "js_util.h"

#define MS 1000000ull
#define SEC 1000000000ull
#define T0 (5 * SEC) /* run start, CLOCK_MONOTONIC */

static void test_rate_limit(void **state)
{
	struct spike_rate r;

	(void)state;
	assert_int_equal(spike_rate_init(&r, 3), 0);
	assert_true(spike_rate_admit(&r, 0));
	assert_true(spike_rate_admit(&r, 1 * SEC));
	assert_true(spike_rate_admit(&r, 2 * SEC));
	assert_false(spike_rate_admit(&r, 3 * SEC));
	assert_false(spike_rate_admit(&r, 60 * SEC - 1));
	assert_true(spike_rate_admit(&r, 60 * SEC)); /* the one at 0 left the window */
	assert_false(spike_rate_admit(&r, 60 * SEC + SEC / 2));
	assert_true(spike_rate_admit(&r, 61 * SEC));
	spike_rate_free(&r);
}

/* the limit holds in every 60 s window of a random stream, and it does not refuse what fits */
static void test_rate_limit_windows(void **state)
{
	enum { N = 4000, MAX = 7 };
	static uint64_t t[N], admitted[N];
	struct spike_rate r;
	size_t na = 0;

	(void)state;
	srand(15);
	for (size_t i = 0; i < N; i++)
		t[i] = (i ? t[i - 1] : 0) + (uint64_t)(rand() % 4000) * MS;
	assert_int_equal(spike_rate_init(&r, MAX), 0);
	for (size_t i = 0; i < N; i++) {
		size_t in = 0;

		for (size_t k = 0; k < na; k++)
			in += admitted[k] + JS_SPIKE_RATE_NS > t[i];
		/* admitted exactly when fewer than MAX were admitted in the 60 s before */
		if (spike_rate_admit(&r, t[i])) {
			assert_true(in < MAX);
			admitted[na++] = t[i];
		} else {
			assert_int_equal(in, MAX);
		}
	}
	assert_true(na > MAX && na < N);
	spike_rate_free(&r);
}

/* task - the source of a task named name in cgroup cg */
static struct spike_src task(const char *name, uint64_t cg)
{
	struct spike_src s = { .cause = JS_CAUSE_TASK, .cgroup = cg };

	snprintf(s.name, sizeof(s.name), "%.*s", (int)sizeof(s.name) - 1, name);
	return s;
}

static enum spike_keep_verdict offer(struct spike_keep *k, uint64_t id, uint64_t t, uint64_t dur,
				     const char *src, uint64_t *victim)
{
	struct spike_keep_rec v = { .id = UINT64_MAX };
	struct spike_src so = task(src, 0);
	enum spike_keep_verdict r = spike_keep_offer(k, id, t, dur, &so, &v);

	*victim = r == SPIKE_KEEP_REPLACE ? v.id : UINT64_MAX;
	return r;
}

/* a full window: a new source replaces the shortest repeat; a longer spike replaces the
 * shortest; anything else is skipped; the window slides */
static void test_keep_policy(void **state)
{
	struct spike_keep k;
	uint64_t v;

	(void)state;
	assert_int_equal(spike_keep_init(&k, 3, 0), 0); /* no bound of one source but the 3 */
	assert_int_equal(offer(&k, 1, 0, 2 * MS, "a", &v), SPIKE_KEEP_ADD);
	assert_int_equal(offer(&k, 2, 1 * SEC, 1 * MS, "a", &v), SPIKE_KEEP_ADD);
	assert_int_equal(offer(&k, 3, 2 * SEC, 3 * MS, "a", &v), SPIKE_KEEP_ADD);
	/* full of one source: a repeat no longer than all is skipped */
	assert_int_equal(offer(&k, 4, 3 * SEC, 2 * MS, "a", &v), SPIKE_KEEP_SKIP);
	/* a new source, even short, takes the shortest repeat's place */
	assert_int_equal(offer(&k, 5, 4 * SEC, 1 * MS, "b", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 2);
	assert_int_equal(offer(&k, 6, 5 * SEC, 1 * MS, "c", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 1);
	assert_null(spike_keep_find(&k, 1));
	assert_non_null(spike_keep_find(&k, 3));
	/* a, b, c once each: a fourth source no longer than all is skipped */
	assert_int_equal(offer(&k, 7, 6 * SEC, 2 * MS, "d", &v), SPIKE_KEEP_SKIP);
	/* a repeat longer than all replaces its own source's record (every source kept) */
	assert_int_equal(offer(&k, 8, 7 * SEC, 5 * MS, "c", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 6);
	/* a new source longer than all replaces the shortest */
	assert_int_equal(offer(&k, 9, 8 * SEC, 9 * MS, "d", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 5);
	/* a failed write gives its place back */
	spike_keep_forget(&k, 9);
	assert_int_equal(offer(&k, 10, 9 * SEC, 1 * MS, "a", &v), SPIKE_KEEP_ADD);
	/* 60 s after the first kept (id 3 at 2 s): room again */
	assert_int_equal(offer(&k, 11, 62 * SEC, 1 * MS, "a", &v), SPIKE_KEEP_ADD);
	assert_null(spike_keep_find(&k, 3));
	spike_keep_free(&k);
}

/* in_window - of the spikes kept[0..i) starting within the 60 s before t[i]: how many, of
 * src[i]'s source, the longest of each, and whether one source has two or more */
struct window_view {
	unsigned in, same;
	uint64_t longest, longest_same;
	bool repeats;
};

static struct window_view in_window(size_t i, const uint64_t *t, const uint64_t *dur,
				    char (*src)[4], const bool *kept)
{
	struct window_view w = { 0 };

	for (size_t j = 0; j < i; j++) {
		unsigned n = 0;

		if (!kept[j] || t[j] + JS_SPIKE_RATE_NS <= t[i])
			continue;
		for (size_t m = 0; m < i; m++)
			n += kept[m] && t[m] + JS_SPIKE_RATE_NS > t[i] && !strcmp(src[m], src[j]);
		w.in++;
		w.repeats |= n > 1;
		w.longest = JS_MAX(w.longest, dur[j]);
		if (!strcmp(src[j], src[i])) {
			w.same++;
			w.longest_same = JS_MAX(w.longest_same, dur[j]);
		}
	}
	return w;
}

/*
 * keep_stream - a random stream of a few sources through a window of max, per of one source:
 * what is kept never has more than max starts within any 60 s, nor more than per of one
 * source; a source under its bound is never skipped while the window has room, a new one
 * never while the window holds a repeat; a spike longer than every kept one of its source
 * (at its bound) or of the window (else) is never skipped
 */
static void keep_stream(unsigned max, unsigned per, unsigned min_verdict)
{
	enum { N = 3000 };
	static uint64_t t[N], dur[N];
	static char src[N][4];
	static bool kept[N];
	unsigned verdicts[3] = { 0 };
	struct spike_keep k;

	srand(28);
	memset(kept, 0, sizeof(kept));
	assert_int_equal(spike_keep_init(&k, max, per), 0);
	for (size_t i = 0; i < N; i++) {
		struct spike_keep_rec vr;
		struct spike_src so;
		enum spike_keep_verdict r;
		struct window_view w;

		t[i] = (i ? t[i - 1] : 0) + (uint64_t)(rand() % 3000) * MS;
		dur[i] = (uint64_t)(1 + rand() % 50) * 100000;
		snprintf(src[i], sizeof(src[i]), "%c", 'a' + (rand() % 100 < 90 ? 0 : rand() % 6));
		w = in_window(i, t, dur, src, kept);
		so = task(src[i], 0);
		r = spike_keep_offer(&k, i, t[i], dur[i], &so, &vr);
		verdicts[r]++;
		if (r == SPIKE_KEEP_SKIP && w.same >= per) {
			assert_true(dur[i] <= w.longest_same);
		} else if (r == SPIKE_KEEP_SKIP) {
			assert_int_equal(w.in, max);
			assert_true(w.same || !w.repeats);
			assert_true(dur[i] <= w.longest);
		} else {
			assert_true(r == SPIKE_KEEP_ADD ? w.in < max && w.same < per :
							  w.in == max || w.same == per);
			if (r == SPIKE_KEEP_REPLACE) {
				assert_true(kept[vr.id]);
				if (w.same == per)
					assert_string_equal(src[vr.id], src[i]);
				kept[vr.id] = false;
			}
			kept[i] = true;
		}
		for (size_t j = 0, n = 0, ns = 0; j <= i; j++)
			if (kept[j] && t[j] + JS_SPIKE_RATE_NS > t[i]) {
				assert_true(++n <= max);
				if (!strcmp(src[j], src[i]))
					assert_true(++ns <= per);
			}
	}
	for (int i = 0; i < 3; i++) /* the stream tries every verdict */
		assert_true(verdicts[i] > min_verdict);
	spike_keep_free(&k);
}

static void test_keep_bounds(void **state)
{
	(void)state;
	keep_stream(5, 5, 100); /* no bound of one source but the window's */
	keep_stream(5, 2, 100);
}

/* src_of - the source spike_source finds in a gap whose primary part is (cause, detail) of
 * cgroup cg */
static struct spike_src src_of(uint32_t cause, const char *detail, uint64_t cg)
{
	struct js_gap_rec g;
	struct spike_src s;

	fx_rec(&g, 1, T0, 3 * MS);
	fx_part(&g, JS_CAUSE_IRQ, "other:9", 1, 10000); /* not the primary: its cgroup is not */
	g.attr.parts[0].cgroup = 99;
	fx_part(&g, cause, detail, 1, 2 * MS);
	g.attr.parts[1].cgroup = cg;
	fx_primary(&g, cause, detail);
	spike_source(&g.attr, &s);
	return s;
}

/* a source is never a pid: a task is its name and cgroup, an IRQ its name and number */
static void test_source_key(void **state)
{
	struct spike_src a = src_of(JS_CAUSE_TASK, "true:1201 [session-3.scope]", 7), b;

	(void)state;
	assert_string_equal(a.name, "true");
	assert_int_equal(a.cgroup, 7);
	b = src_of(JS_CAUSE_TASK, "true:987654 [session-3.scope]", 7);
	assert_true(spike_same_source(&a, &b));
	b = src_of(JS_CAUSE_TASK, "true:1201 [session-3.scope]", 8); /* another cgroup */
	assert_false(spike_same_source(&a, &b));
	b = src_of(JS_CAUSE_TASK, "sh:1201 [session-3.scope]", 7);
	assert_false(spike_same_source(&a, &b));
	/* a cgroup name cut to fit after a longer pid: the same cgroup */
	a = src_of(JS_CAUSE_TASK, "stress-ng-cpu:12 [a-cgroup-named-at-some-length-0123456789]", 4);
	b = src_of(JS_CAUSE_TASK, "stress-ng-cpu:1234567 [a-cgroup-named-at-some-length-012345]",
		   4);
	assert_true(spike_same_source(&a, &b));
	assert_string_equal(b.name, "stress-ng-cpu");
	/* a kworker keeps its instance and work, loses its pid */
	a = src_of(JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update", 0);
	assert_string_equal(a.name, "kworker/1:2 vmstat_update");
	/* an IRQ's number is not a pid: two IRQs, two sources */
	a = src_of(JS_CAUSE_IRQ, "virtio1-req.0:36", 0);
	b = src_of(JS_CAUSE_IRQ, "virtio1-req.0:37", 0);
	assert_string_equal(a.name, "virtio1-req.0:36");
	assert_int_equal(a.cgroup, 0);
	assert_false(spike_same_source(&a, &b));
	/* a class's source: the class and detail; the same detail in another class is another */
	a = src_of(JS_CAUSE_SOFTIRQ, "TIMER", 0);
	b = src_of(JS_CAUSE_HRTIMER, "TIMER", 0);
	assert_false(spike_same_source(&a, &b));
	/* an IPI names its sender without the pid */
	a = src_of(JS_CAUSE_IPI, "call_function_single fn from bash:12 [user.slice]", 3);
	b = src_of(JS_CAUSE_IPI, "call_function_single fn from bash:4567 [user.slice]", 3);
	assert_true(spike_same_source(&a, &b));
}

/* offer_gap - a gap of dur preempted by detail (cgroup cg) offered to k: its verdict */
static enum spike_keep_verdict offer_gap(struct spike_keep *k, uint64_t id, uint64_t t,
					 uint64_t dur, const char *detail, uint64_t cg,
					 uint64_t *victim)
{
	struct spike_keep_rec v = { .id = UINT64_MAX };
	struct spike_src so = src_of(JS_CAUSE_TASK, detail, cg);
	enum spike_keep_verdict r = spike_keep_offer(k, id, t, dur, &so, &v);

	*victim = r == SPIKE_KEEP_REPLACE ? v.id : UINT64_MAX;
	return r;
}

/* the shell loop of issue 39: twenty short tasks of one name and cgroup, each its own pid,
 * keep 3 places of 10 (--spike-per-source 3); the injected task's spikes after them are kept */
static void test_keep_per_source(void **state)
{
	struct spike_keep k;
	char d[64];
	uint64_t v, id = 0;

	(void)state;
	assert_int_equal(spike_keep_init(&k, 10, 3), 0);
	for (int i = 0; i < 20; i++) {
		snprintf(d, sizeof(d), "true:%d [session-3.scope]", 4000 + 7 * i);
		id++;
		assert_int_equal(offer_gap(&k, id, id * 100 * MS, 2 * MS, d, 7, &v),
				 i < 3 ? SPIKE_KEEP_ADD : SPIKE_KEEP_SKIP);
	}
	/* at its bound, a spike longer than each of its source's replaces the shortest */
	assert_int_equal(offer_gap(&k, ++id, 3 * SEC, 2 * MS + 1, "true:5000 [session-3.scope]", 7,
				   &v),
			 SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 1);
	assert_int_equal(offer_gap(&k, ++id, 3 * SEC, 2 * MS, "true:5001 [session-3.scope]", 7, &v),
			 SPIKE_KEEP_SKIP);
	for (int i = 0; i < 5; i++) /* the injected task: three kept, then its bound */
		assert_int_equal(offer_gap(&k, ++id, 4 * SEC + i * MS, 3 * MS,
					   "jsinject:812 [session-3.scope]", 7, &v),
				 i < 3 ? SPIKE_KEEP_ADD : SPIKE_KEEP_SKIP);
	/* the same name in another cgroup is another source */
	assert_int_equal(offer_gap(&k, ++id, 5 * SEC, 1 * MS, "true:5002 [other.slice]", 8, &v),
			 SPIKE_KEEP_ADD);
	assert_int_equal(k.n, 7);
	spike_keep_free(&k);

	/* no bound of one source but the window's: the loop takes every place, and the
	 * injected task gets one of them (longer than all), no more */
	assert_int_equal(spike_keep_init(&k, 10, 0), 0);
	for (int i = 0; i < 20; i++) {
		snprintf(d, sizeof(d), "true:%d [session-3.scope]", 4000 + 7 * i);
		id++;
		offer_gap(&k, id, i * 100 * MS, 2 * MS, d, 7, &v);
	}
	assert_int_equal(k.n, 10);
	for (int i = 0; i < 5; i++)
		assert_int_equal(offer_gap(&k, ++id, 4 * SEC + i * MS, 3 * MS,
					   "jsinject:812 [session-3.scope]", 7, &v),
				 i < 1 ? SPIKE_KEEP_REPLACE : SPIKE_KEEP_SKIP);
	spike_keep_free(&k);
}

/* a handed spike (its files given to an --on-spike command) is never the one replaced */
static void test_keep_hand(void **state)
{
	struct spike_keep k;
	uint64_t v;

	(void)state;
	assert_int_equal(spike_keep_init(&k, 3, 0), 0);
	assert_int_equal(offer(&k, 1, 0, 1 * MS, "a", &v), SPIKE_KEEP_ADD);
	assert_int_equal(offer(&k, 2, 1 * SEC, 2 * MS, "a", &v), SPIKE_KEEP_ADD);
	assert_int_equal(offer(&k, 3, 2 * SEC, 3 * MS, "a", &v), SPIKE_KEEP_ADD);
	spike_keep_hand(&k, 1);
	assert_int_equal(offer(&k, 4, 3 * SEC, 1 * MS, "b", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 2); /* the shortest repeat but the handed one */
	spike_keep_hand(&k, 4);
	/* handed stays handed, another handed too: the next new source takes the last repeat */
	assert_int_equal(offer(&k, 5, 4 * SEC, 1 * MS, "c", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 3);
	assert_int_equal(offer(&k, 6, 5 * SEC, 9 * MS, "d", &v), SPIKE_KEEP_REPLACE);
	assert_int_equal(v, 5);
	assert_non_null(spike_keep_find(&k, 1));
	assert_non_null(spike_keep_find(&k, 4));
	spike_keep_free(&k);
	/* nothing but the handed one to replace: skipped */
	assert_int_equal(spike_keep_init(&k, 1, 0), 0);
	assert_int_equal(offer(&k, 1, 0, 1 * MS, "a", &v), SPIKE_KEEP_ADD);
	spike_keep_hand(&k, 1);
	assert_int_equal(offer(&k, 2, 1 * SEC, 9 * MS, "b", &v), SPIKE_KEEP_SKIP);
	assert_int_equal(offer(&k, 3, 1 * SEC, 9 * MS, "a", &v), SPIKE_KEEP_SKIP);
	/* out of the minute, its place is free (its files stay: nothing removes them) */
	assert_int_equal(offer(&k, 4, 61 * SEC, 1 * MS, "b", &v), SPIKE_KEEP_ADD);
	spike_keep_free(&k);
}

static void test_size_cap(void **state)
{
	struct spike_cap c = { .max = 1000, .used = 0 };

	(void)state;
	assert_true(spike_cap_take(&c, 600));
	assert_false(spike_cap_take(&c, 401));
	assert_int_equal(c.used, 600);
	assert_true(spike_cap_take(&c, 400));
	assert_false(spike_cap_take(&c, 1));
	assert_false(spike_cap_take(&c, UINT64_MAX)); /* no wrap-around */
	assert_int_equal(c.used, 1000);
	c = (struct spike_cap){ .max = 10, .used = 20 }; /* an earlier run filled it */
	assert_false(spike_cap_take(&c, 0));
}

static void test_ring_window(void **state)
{
	struct js_event out[8];
	struct spike_ring r;
	size_t n;

	(void)state;
	assert_int_equal(spike_ring_init(&r, 8), 0);
	/* 12 events of 1 ms every 10 ms, pushed in the order 1, 0, 3, 2 ...: 0..3 overwritten */
	for (uint64_t i = 0; i < 12; i++) {
		uint64_t k = i ^ 1;
		struct js_event e =
			fx_event(JS_EV_IRQ, k * 10 * MS, k * 10 * MS + MS, 1, (uint32_t)k, "x");

		spike_ring_push(&r, &e);
	}
	assert_int_equal(r.n, 8);
	n = spike_ring_window(&r, 35 * MS, 75 * MS, out);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(out[i].id, 4 + i); /* in start order */
	/* an event that ends at the window's start overlaps it */
	n = spike_ring_window(&r, 51 * MS, 51 * MS, out);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].id, 5);
	/* the overwritten ones ended by 31 ms */
	assert_true(spike_ring_complete(&r, 32 * MS));
	assert_false(spike_ring_complete(&r, 31 * MS));
	spike_ring_free(&r);
}

/* ---- the files of a synthetic run ---- */

struct fixture {
	char dir[64];
	struct js_params p;
	struct js_output out;
	struct js_cpu_result cpus[2];
	struct js_run run;
};

static const char *fx_cmd;	/* --on-spike for the next fx_new, NULL: none */
static uint64_t fx_cmd_timeout; /* --on-spike-timeout */

static struct fixture *fx_new(unsigned max, uint64_t dir_max)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_spike.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(fx_run(&f->run, f->cpus, 2, T0, T0 + 100 * SEC), 0); /* CPUs 1, 3 */
	f->run.start_mono_ns = T0;
	f->run.start_epoch_s = 1764438863.5;
	snprintf(f->run.machine.hostname, sizeof(f->run.machine.hostname), "host1");
	f->p.cfg.cpus[0] = 1;
	f->p.cfg.cpus[1] = 3;
	f->p.cfg.ncpus = 2;
	f->p.spike_dir = f->dir;
	f->p.spike_threshold_ns = MS;
	f->p.spike_max = max;
	f->p.spike_dir_max = dir_max;
	f->p.on_spike = fx_cmd;
	f->p.on_spike_timeout_ns = fx_cmd_timeout;
	assert_int_equal(out_spike_new(&f->out, f->dir, &f->p), 0);
	assert_non_null(f->out.on_event);
	f->out.run_start(f->out.ctx, &f->run);
	return f;
}

static void ev(struct fixture *f, uint32_t kind, uint64_t s, uint64_t e, uint32_t cpu, uint32_t id,
	       const char *name)
{
	struct js_event x = fx_event(kind, s, e, cpu, id, name);

	f->out.on_event(f->out.ctx, &x);
}

/* gap - a gap on CPU 1 at start (ms after T0) of dur ns, preempted by jsinject:812 */
static void gap(struct fixture *f, uint64_t start_ms, uint64_t dur)
{
	struct js_gap_rec g;

	fx_rec(&g, 1, T0 + start_ms * MS, dur);
	fx_part(&g, JS_CAUSE_TASK, "jsinject:812", 1, dur - 10000);
	fx_primary(&g, JS_CAUSE_TASK, "jsinject:812");
	g.attr.nevents = 1;
	f->out.on_gap(f->out.ctx, &g, NULL, 0);
}

/* files - the names in the fixture's directory ending in suffix, sorted, into names[] */
static size_t files(const struct fixture *f, const char *suffix, char names[][128], size_t max)
{
	DIR *d = opendir(f->dir);
	struct dirent *e;
	size_t n = 0, sl = strlen(suffix);

	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] != '.' && l > sl && !strcmp(e->d_name + l - sl, suffix) &&
		    (sl > 6 || !strstr(e->d_name, ".trace.")) && n < max)
			snprintf(names[n++], 128, "%.127s", e->d_name); /* names are short */
	}
	closedir(d);
	qsort(names, n, 128, (int (*)(const void *, const void *))strcmp);
	return n;
}

static size_t all_files(const struct fixture *f)
{
	DIR *d = opendir(f->dir);
	size_t n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n - 2; /* . and .. */
}

static void parse(const struct fixture *f, const char *name, struct jsonp_doc *doc)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	fx_json_file(path, doc);
}

static uint64_t u64(const struct jsonp_val *o, const char *k)
{
	uint64_t v = UINT64_MAX;

	assert_non_null(jsonp_get(o, k));
	assert_int_equal(jsonp_u64(jsonp_get(o, k), &v), 0);
	return v;
}

static void fx_free(struct fixture *f)
{
	char cmd[128];

	f->out.destroy(f->out.ctx);
	for (size_t i = 0; i < 2; i++)
		result_cpu_free(&f->cpus[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
}

static void test_spike_file(void **state)
{
	struct fixture *f = fx_new(10, 0);
	char names[4][128], traces[4][128];
	struct jsonp_doc doc, tdoc;
	const struct jsonp_val *g, *evs, *w, *te, *od;
	bool named = false;

	(void)state;
	/* CPU 1: a tick 150 ms before (outside), one 50 ms before, the preemption, a tick
	 * 60 ms after, one 150 ms after (outside); CPU 3's event is not CPU 1's */
	ev(f, JS_EV_VECTOR, T0 + 850 * MS, T0 + 850 * MS + 5000, 1, JS_VEC_LOCAL_TIMER, NULL);
	ev(f, JS_EV_VECTOR, T0 + 950 * MS, T0 + 950 * MS + 5000, 1, JS_VEC_LOCAL_TIMER, NULL);
	ev(f, JS_EV_TASK, T0 + 1000 * MS + 5000, T0 + 1002 * MS, 1, 812, "jsinject");
	ev(f, JS_EV_VECTOR, T0 + 1062 * MS, T0 + 1062 * MS + 5000, 1, JS_VEC_LOCAL_TIMER, NULL);
	ev(f, JS_EV_VECTOR, T0 + 1160 * MS, T0 + 1160 * MS + 5000, 1, JS_VEC_LOCAL_TIMER, NULL);
	ev(f, JS_EV_IRQ, T0 + 1001 * MS, T0 + 1001 * MS + 5000, 3, 36, "virtio1-req.0");
	gap(f, 500, 999999); /* below the threshold */
	gap(f, 1000, 2 * MS);
	/* mid-run: the calibration's fit is there (the pipeline publishes it), the length not */
	f->run.fit.hz = 2300000000.4;
	f->run.wall_ns = 0;
	/* the events up to 100 ms after the gap are not all read yet: nothing written */
	f->out.sync(f->out.ctx, &f->run, T0 + 1101 * MS);
	assert_int_equal(all_files(f), 0);
	f->out.sync(f->out.ctx, &f->run, T0 + 1102 * MS);
	assert_int_equal(files(f, ".json", names, 4), 1);
	assert_int_equal(files(f, ".trace.json", traces, 4), 1);
	assert_int_equal(all_files(f), 2); /* no temporary file left */
	/* the name sorts by time: the gap 1 s after 1764438863.5 s, UTC, then the CPU */
	assert_string_equal(names[0], "spike-20251129T175424.500000Z-cpu1.json");
	assert_string_equal(traces[0], "spike-20251129T175424.500000Z-cpu1.trace.json");

	parse(f, names[0], &doc);
	assert_string_equal(jsonp_str(jsonp_get(doc.root, "kind")), "spike");
	assert_int_equal(u64(doc.root, "cpu"), 1);
	assert_int_equal(u64(doc.root, "threshold_ns"), MS);
	assert_string_equal(jsonp_str(jsonp_get(doc.root, "trace")), traces[0]);
	g = jsonp_get(doc.root, "gap");
	assert_int_equal(u64(g, "dur_ns"), 2 * MS);
	assert_int_equal(u64(g, "at_ns"), 1000 * MS);
	assert_string_equal(jsonp_str(jsonp_get(g, "cause")), "task");
	assert_string_equal(jsonp_str(jsonp_get(g, "detail")), "jsinject:812");
	assert_non_null(strstr(jsonp_str(jsonp_get(g, "story")), "jsinject:812"));
	w = jsonp_get(doc.root, "window");
	assert_int_equal(u64(w, "before_ns"), JS_SPIKE_WINDOW_NS);
	assert_true(jsonp_get(w, "complete")->b);
	evs = jsonp_get(doc.root, "events");
	assert_int_equal(evs->arr.n, 3); /* 950 ms, the task, 1062 ms */
	assert_int_equal(u64(w, "events"), 3);
	assert_string_equal(jsonp_str(jsonp_get(&evs->arr.v[1], "kind")), "task");
	assert_true(jsonp_get(&evs->arr.v[1], "in_gap")->b);
	assert_false(jsonp_get(&evs->arr.v[0], "in_gap")->b);
	assert_int_equal(u64(&evs->arr.v[2], "start_ns"), T0 + 1062 * MS);
	jsonp_free(&doc);

	/* the trace of the window: the gap's slice names the task, the events are drawn */
	parse(f, traces[0], &tdoc);
	te = jsonp_get(tdoc.root, "traceEvents");
	assert_non_null(te);
	for (size_t i = 0; i < te->arr.n; i++) {
		const char *n = jsonp_str(jsonp_get(&te->arr.v[i], "name"));

		named |= n && strstr(n, "gap 2.0 ms: task jsinject:812") != NULL;
	}
	assert_true(named);
	od = jsonp_get(tdoc.root, "otherData");
	assert_int_equal(u64(od, "tsc_hz"), 2300000000ull);
	assert_null(jsonp_get(od, "wall_ns"));
	jsonp_free(&tdoc);

	/* the counts reach the run: one seen, one written */
	assert_true(f->run.spikes.on);
	assert_int_equal(f->run.spikes.seen, 1);
	assert_int_equal(f->run.spikes.written, 1);
	assert_int_equal(js_spike_skipped(&f->run.spikes), 0);
	assert_true(f->run.spikes.bytes > 0);
	assert_int_equal(f->out.finish(f->out.ctx, &f->run), 0);
	fx_free(f);
}

/* --spike-max 2: of five spikes in a second, two are written; the end writes what waits */
static void test_spike_rate(void **state)
{
	struct fixture *f = fx_new(2, 0);
	char names[8][128];

	(void)state;
	for (uint64_t i = 0; i < 5; i++)
		gap(f, 1000 + 200 * i, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(files(f, ".json", names, 8), 2);
	assert_int_equal(f->run.spikes.seen, 5);
	assert_int_equal(f->run.spikes.written, 2);
	assert_int_equal(f->run.spikes.skipped[JS_SPIKE_SKIP_RATE], 3);
	assert_int_equal(f->run.spikes.written + js_spike_skipped(&f->run.spikes), 5);
	fx_free(f);
}

/* gap_src - a gap on CPU 1 at start (ms after T0) of dur ns, with its primary source */
static void gap_src(struct fixture *f, uint64_t start_ms, uint64_t dur, uint32_t cause,
		    const char *detail)
{
	struct js_gap_rec g;

	fx_rec(&g, 1, T0 + start_ms * MS, dur);
	fx_part(&g, cause, detail, 1, dur - 10000);
	fx_primary(&g, cause, detail);
	g.attr.nevents = 1;
	f->out.on_gap(f->out.ctx, &g, NULL, 0);
}

/* --spike-max 2 filled by one source: a new source's spike replaces one (its files
 * removed, counted), a repeat is skipped; a pending spike replaced is never written */
static void test_spike_replace(void **state)
{
	struct fixture *f = fx_new(2, 0);
	char names[8][128];
	struct jsonp_doc doc;
	uint64_t bytes;

	(void)state;
	for (uint64_t i = 0; i < 3; i++) {
		gap(f, 1000 + 500 * i, 3 * MS);
		f->out.sync(f->out.ctx, &f->run, T0 + (1400 + 500 * i) * MS);
	}
	assert_int_equal(f->run.spikes.written, 2);
	assert_int_equal(f->run.spikes.skipped[JS_SPIKE_SKIP_RATE], 1);
	bytes = f->run.spikes.bytes;
	gap_src(f, 5000, 2 * MS, JS_CAUSE_IRQ, "virtio1-req.0:36");
	f->out.sync(f->out.ctx, &f->run, T0 + 5500 * MS);
	assert_int_equal(f->run.spikes.seen, 4);
	assert_int_equal(f->run.spikes.written, 3);
	assert_int_equal(f->run.spikes.replaced, 1);
	assert_true(f->run.spikes.bytes < bytes * 3 / 2);
	assert_int_equal(files(f, ".json", names, 8), 2);
	assert_int_equal(all_files(f), 4);
	/* the first spike (of equal repeats, the oldest) is gone; the new source's is there */
	assert_string_equal(names[0], "spike-20251129T175425.000000Z-cpu1.json");
	assert_string_equal(names[1], "spike-20251129T175428.500000Z-cpu1.json");
	parse(f, names[1], &doc);
	assert_string_equal(jsonp_str(jsonp_get(jsonp_get(doc.root, "gap"), "cause")), "irq");
	jsonp_free(&doc);
	/* a longer repeat replaces its source's written spike, and a longer one still the
	 * first while it waits for its window: that one is never written (skipped, rate) */
	gap(f, 6000, 4 * MS);
	gap(f, 6050, 5 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.seen, 6);
	assert_int_equal(f->run.spikes.written, 4);
	assert_int_equal(f->run.spikes.replaced, 2);
	assert_int_equal(f->run.spikes.skipped[JS_SPIKE_SKIP_RATE], 2);
	assert_int_equal(f->run.spikes.written + js_spike_skipped(&f->run.spikes), 6);
	assert_int_equal(files(f, ".json", names, 8), 2);
	assert_int_equal(all_files(f), 4);
	assert_string_equal(names[0], "spike-20251129T175428.500000Z-cpu1.json");
	assert_string_equal(names[1], "spike-20251129T175429.550000Z-cpu1.json");
	fx_free(f);
}

/* --on-spike: the command sees the spike in its environment, on a CPU that is not
 * measured; the end of the run waits for it */
static void test_on_spike_env(void **state)
{
	struct fixture *f;
	char cmd[512], out[256], env[2048], want[4400], names[4][128], abs[4096];

	(void)state;
	snprintf(out, sizeof(out), "/tmp/test_spike_env.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "{ env | grep ^JS_SPIKE_ | sort; grep ^Cpus_allowed_list /proc/$$/status; } > %s",
		 out);
	fx_cmd = cmd;
	fx_cmd_timeout = 5 * SEC;
	f = fx_new(10, 0);
	fx_cmd = NULL;
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.written, 1);
	assert_true(f->run.spikes.cmd.on);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	assert_int_equal(f->run.spikes.cmd.failed, 0);
	assert_int_equal(f->run.spikes.cmd.timeouts, 0);
	assert_true(f->run.spikes.cmd.run_ns > 0);
	assert_int_equal(files(f, ".json", names, 4), 1);
	assert_non_null(realpath(f->dir, abs));
	fx_read_text(out, env, sizeof(env));
	unlink(out);
	snprintf(want, sizeof(want),
		 "JS_SPIKE_CAUSE=task\nJS_SPIKE_CPU=1\nJS_SPIKE_DETAIL=jsinject:812\n"
		 "JS_SPIKE_DURATION_NS=3000000\nJS_SPIKE_FILE=%s/%s\n",
		 abs, names[0]);
	assert_memory_equal(env, want, strlen(want));
	snprintf(want, sizeof(want), "JS_SPIKE_START_NS=%llu\n",
		 (unsigned long long)(T0 + 1000 * MS));
	assert_non_null(strstr(env, want));
	assert_non_null(strstr(env, ".trace.json\n"));
	/* measured CPUs 1 and 3: the command runs on neither */
	assert_non_null(strstr(env, "Cpus_allowed_list:"));
	assert_null(strstr(env, "Cpus_allowed_list:\t1\n"));
	fx_free(f);
}

/* --on-spike that fails is counted; one that hangs is killed at its timeout without
 * blocking a sync; a spike while one runs is counted as skipped (busy) */
static void test_on_spike_fail_hang(void **state)
{
	struct fixture *f;
	unsigned early = 0;
	uint64_t t0;

	(void)state;
	fx_cmd = "exit 3";
	fx_cmd_timeout = 5 * SEC;
	f = fx_new(10, 0);
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	assert_int_equal(f->run.spikes.cmd.failed, 1);
	fx_free(f);

	fx_cmd = "sleep 30";
	fx_cmd_timeout = 300 * MS;
	f = fx_new(10, 0);
	fx_cmd = NULL;
	gap(f, 1000, 3 * MS);
	gap(f, 1200, 3 * MS);
	t0 = js_mono_ns();
	f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS); /* both written: one runs */
	assert_int_equal(f->run.spikes.written, 2);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	assert_int_equal(f->run.spikes.cmd.skipped_busy, 1);
	/* the drains go on: no sync waits. One that waited for the command would return
	 * only once its 300 ms timeout killed it; these return while it runs. Judged by
	 * that, not by a sync's wall time (qemu-user on a loaded CPU: over 150 ms for one,
	 * descheduled, in two suite runs) */
	assert_int_equal(f->run.spikes.cmd.timeouts, 0);
	while (js_mono_ns() - t0 < 700 * MS) {
		f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS);
		early += !f->run.spikes.cmd.timeouts;
		usleep(10000);
	}
	assert_true(early >= 1);
	assert_int_equal(f->run.spikes.cmd.timeouts, 1);
	assert_int_equal(f->run.spikes.cmd.failed, 0);
	assert_true(f->run.spikes.cmd.run_ns >= 300 * MS && f->run.spikes.cmd.run_ns < 600 * MS);
	/* at the end, a command still running gets the rest of its timeout, no more */
	gap(f, 3000, 3 * MS);
	t0 = js_mono_ns();
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_true(js_mono_ns() - t0 < 1000 * MS);
	assert_int_equal(f->run.spikes.cmd.runs, 2);
	assert_int_equal(f->run.spikes.cmd.timeouts, 2);
	fx_free(f);

	/* a run stopped by Ctrl-C: a command gets 1 s, not the rest of its 10 s */
	fx_cmd = "sleep 30";
	fx_cmd_timeout = 10 * SEC;
	f = fx_new(10, 0);
	fx_cmd = NULL;
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	f->run.interrupted = true;
	t0 = js_mono_ns();
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_true(js_mono_ns() - t0 >= 900 * MS && js_mono_ns() - t0 < 1500 * MS);
	assert_int_equal(f->run.spikes.cmd.timeouts, 1);
	fx_free(f);
}

/* reaped - sync f until *count (a figure the command's end sets) is set, at most 5 s */
static void reaped(struct fixture *f, const uint64_t *count)
{
	uint64_t t0 = js_mono_ns();

	while (!*count && js_mono_ns() - t0 < 5 * SEC) {
		usleep(5000);
		f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS);
	}
}

/* --on-spike exiting 99 (issue 41): not a failure; while the run goes on it asks the run to
 * end, naming the spike it was handed (run->end_asked: the pipeline ends the run); once the
 * run has ended (the last sync) it asks nothing; another status asks nothing */
static void test_on_spike_ends_run(void **state)
{
	char names[4][128];
	struct fixture *f;
	uint64_t t0;

	(void)state;
	fx_cmd = "exit 99";
	fx_cmd_timeout = 5 * SEC;
	f = fx_new(10, 0);
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS); /* written, its command started */
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	t0 = js_mono_ns();
	while (!f->run.end_asked[0] && js_mono_ns() - t0 < 3 * SEC) {
		usleep(5000);
		f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS);
	}
	assert_int_equal(files(f, ".json", names, 4), 1);
	assert_non_null(strstr(f->run.end_asked, "the --on-spike command exited 99 for "));
	names[0][strlen(names[0]) - 5] = '\0'; /* the spike's name: its file's less .json */
	assert_non_null(strstr(f->run.end_asked, names[0]));
	assert_int_equal(f->run.spikes.cmd.failed, 0);
	/* a spike written after it (the run's last sync) gets no command */
	gap(f, 2500, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.written, 2);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	fx_free(f);

	/* the run already ended (the last sync): nothing asked */
	f = fx_new(10, 0);
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	assert_int_equal(f->run.end_asked[0], 0);
	fx_free(f);

	/* a run already stopped (Ctrl-C): its reason stays, once the command's exit is seen */
	f = fx_new(10, 0);
	gap(f, 1000, 3 * MS);
	f->run.interrupted = true;
	f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS);
	reaped(f, &f->run.spikes.cmd.run_ns);
	assert_true(f->run.spikes.cmd.run_ns > 0);
	assert_int_equal(f->run.end_asked[0], 0);
	fx_free(f);

	/* exit 98: a failure, nothing asked (waited for as long as the command takes to exit:
	 * a fixed 200 ms was too short under qemu-user on a loaded machine) */
	fx_cmd = "exit 98";
	f = fx_new(10, 0);
	fx_cmd = NULL;
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, T0 + 2000 * MS);
	reaped(f, &f->run.spikes.cmd.failed);
	assert_int_equal(f->run.spikes.cmd.failed, 1);
	assert_int_equal(f->run.end_asked[0], 0);
	fx_free(f);
}

/* exists - DIR/name is there */
static bool exists(const struct fixture *f, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	return access(path, F_OK) == 0;
}

/* --on-spike: the files of the spike a command was handed stay, while it runs (a new source
 * replaces another repeat) and after it ended (a longer spike of its source replaces
 * another): the path it was given, logged or paged, still opens */
static void test_on_spike_handed(void **state)
{
	const char *a = "spike-20251129T175424.500000Z-cpu1.json";
	const char *b = "spike-20251129T175425.000000Z-cpu1.json";
	const char *c = "spike-20251129T175425.500000Z-cpu1.json";
	struct fixture *f;
	uint64_t t0;

	(void)state;
	fx_cmd = "sleep 0.4";
	fx_cmd_timeout = 5 * SEC;
	f = fx_new(2, 0);
	fx_cmd = NULL;
	gap(f, 1000, 3 * MS); /* a: written, the command runs with its files */
	f->out.sync(f->out.ctx, &f->run, T0 + 1400 * MS);
	gap(f, 1500, 3 * MS); /* b: written while it runs: not handed */
	f->out.sync(f->out.ctx, &f->run, T0 + 1900 * MS);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	assert_int_equal(f->run.spikes.cmd.skipped_busy, 1);
	assert_true(exists(f, a) && exists(f, b));
	/* a new source replaces the shortest repeat: of a and b (alike) the first, but a is
	 * the command's */
	gap_src(f, 2000, 2 * MS, JS_CAUSE_IRQ, "virtio1-req.0:36");
	f->out.sync(f->out.ctx, &f->run, T0 + 2400 * MS);
	assert_int_equal(f->run.spikes.replaced, 1);
	assert_true(exists(f, a) && exists(f, c));
	assert_false(exists(f, b));
	/* the command ends (c's was skipped: a ran): a longer spike of a's source replaces
	 * the one spike not handed, c; a stays */
	t0 = js_mono_ns();
	while (f->run.spikes.cmd.run_ns == 0 && js_mono_ns() - t0 < 3 * SEC) {
		usleep(20000);
		f->out.sync(f->out.ctx, &f->run, T0 + 2400 * MS);
	}
	assert_true(f->run.spikes.cmd.run_ns > 0);
	assert_int_equal(f->run.spikes.cmd.runs, 1);
	gap(f, 3000, 5 * MS);
	f->out.sync(f->out.ctx, &f->run, T0 + 3400 * MS);
	assert_int_equal(f->run.spikes.replaced, 2);
	assert_true(exists(f, a));
	assert_false(exists(f, c));
	fx_free(f);
}

/* --spike-dir-max: a spike that does not fit leaves no file; the count says why */
static void test_spike_size_cap(void **state)
{
	struct fixture *f = fx_new(10, 20000);
	char names[8][128];
	uint64_t one;

	(void)state;
	/* two spikes alike, each with 40 ticks: one fits in the cap, not two */
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 40; i++)
			ev(f, JS_EV_VECTOR, T0 + (950 + 400 * k) * MS + i * 10000,
			   T0 + (950 + 400 * k) * MS + i * 10000 + 5000, 1, JS_VEC_LOCAL_TIMER,
			   NULL);
	gap(f, 1000, 3 * MS);
	gap(f, 1000 + 400, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	one = f->run.spikes.bytes;
	assert_int_equal(f->run.spikes.written, 1);
	assert_true(one > 10000 && one <= 20000);
	assert_int_equal(f->run.spikes.skipped[JS_SPIKE_SKIP_SIZE], 1);
	assert_int_equal(files(f, ".json", names, 8), 1);
	assert_int_equal(all_files(f), 2);
	fx_free(f);

	/* a new run counts what the directory holds already */
	f = fx_new(10, 0);
	gap(f, 1000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.written, 1);
	f->out.destroy(f->out.ctx);
	f->p.spike_dir_max = f->run.spikes.bytes + 10;
	assert_int_equal(out_spike_new(&f->out, f->dir, &f->p), 0);
	f->out.run_start(f->out.ctx, &f->run);
	memset(&f->run.spikes, 0, sizeof(f->run.spikes));
	gap(f, 2000, 3 * MS);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.written, 0);
	assert_int_equal(f->run.spikes.skipped[JS_SPIKE_SKIP_SIZE], 1);
	fx_free(f);
}

/* a gap that began before the window opened (a followed thread's, across the probes'
 * attach) is no spike: not seen, no file; one that began at the opening is */
static void test_spike_before_window(void **state)
{
	struct fixture *f = fx_new(10, 0);
	struct js_gap_rec g;

	(void)state;
	fx_rec(&g, 1, T0 - 1000, 5 * MS);
	fx_part(&g, JS_CAUSE_TASK, "jitterscope:1", 1, 5 * MS - 1000);
	fx_primary(&g, JS_CAUSE_TASK, "jitterscope:1");
	f->out.on_gap(f->out.ctx, &g, NULL, 0);
	g.gap.start_ns = T0;
	f->out.on_gap(f->out.ctx, &g, NULL, 0);
	f->out.sync(f->out.ctx, &f->run, UINT64_MAX);
	assert_int_equal(f->run.spikes.seen, 1);
	assert_int_equal(f->run.spikes.written, 1);
	assert_int_equal(all_files(f), 2);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_limit),
		cmocka_unit_test(test_rate_limit_windows),
		cmocka_unit_test(test_size_cap),
		cmocka_unit_test(test_ring_window),
		cmocka_unit_test(test_spike_file),
		cmocka_unit_test(test_spike_rate),
		cmocka_unit_test(test_spike_size_cap),
		cmocka_unit_test(test_keep_policy),
		cmocka_unit_test(test_keep_bounds),
		cmocka_unit_test(test_spike_replace),
		cmocka_unit_test(test_on_spike_env),
		cmocka_unit_test(test_on_spike_fail_hang),
		cmocka_unit_test(test_on_spike_ends_run),
		cmocka_unit_test(test_source_key),
		cmocka_unit_test(test_keep_per_source),
		cmocka_unit_test(test_keep_hand),
		cmocka_unit_test(test_on_spike_handed),
		cmocka_unit_test(test_spike_before_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
