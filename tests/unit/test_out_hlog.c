// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_out_hlog.c - the --hlog and --hgrm outputs driven like the pipeline drives them
 * (gaps per CPU in time order once they ended before the cutoff, a tick every 10 ms 20 ms
 * behind) on a synthetic run; the log is read back and decoded: the intervals of each tag
 * add up exactly to the run's histograms (gaps and arrival delays), timestamps and lengths
 * follow the interval grid, late gaps and a stalled consumer lose nothing.
 */
#include <errno.h>
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

#include "hist_test_rng.h"
#include "js_hlog.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"

#define MS 1000000ull
#define NCPU 2
#define NTAG 8

struct sim {
	struct js_params p;
	struct js_run run;
	struct js_cpu_result cpus[NCPU];
	struct js_arrival ref[NCPU]; /* the run's arrival model, whole window */
	struct js_gap *g[NCPU];
	size_t n[NCPU], next[NCPU];
	uint64_t end[NCPU];
	struct js_output o;
	char path[64];
};

/* what the log holds per tag, added up */
struct tagsum {
	char tag[48];
	struct js_hist h;
	size_t lines;
	double last_start, last_len;
};

struct parsed {
	char start_time[64], base_time[64];
	struct tagsum t[NTAG];
	size_t nt, lines;
	bool ordered; /* interval starts never go back */
};

/* sim_init - CPUs 1 and 3 measuring from start + offset; gaps generated up to len_ns */
static void sim_init(struct sim *s, uint64_t iv_ns, uint64_t offset_ns, uint64_t len_ns,
		     uint64_t long_every)
{
	memset(s, 0, sizeof(*s));
	s->p.hlog_interval_ns = iv_ns;
	s->p.cfg.narrivals = 1;
	s->p.cfg.arrival_ns[0] = 1 * MS;
	s->run.start_mono_ns = 5000 * MS;
	s->run.start_epoch_s = 1700000000.25;
	s->run.cpus = s->cpus;
	s->run.ncpus = NCPU;
	for (int c = 0; c < NCPU; c++) {
		uint64_t t, st = s->run.start_mono_ns + offset_ns + (uint64_t)c * 3000;
		size_t cap = 1 << 16;

		assert_int_equal(result_cpu_init(&s->cpus[c], c ? 3 : 1, 4), 0);
		assert_int_equal(arrival_init(&s->ref[c], s->p.cfg.arrival_ns[0], st, 0), 0);
		s->end[c] = st + len_ns;
		s->g[c] = calloc(cap, sizeof(*s->g[c]));
		assert_non_null(s->g[c]);
		t = st + rnd() % (200 * 1000);
		while (s->n[c] < cap) {
			uint64_t d = 1000 + (uint64_t)rnd_value(16);

			if (long_every && rnd() % long_every == 0)
				d = 150 * MS; /* still running at the next ticks: a late gap */
			if (t + d > s->end[c])
				break;
			s->g[c][s->n[c]++] = (struct js_gap){ .start_ns = t,
							      .dur_ns = d,
							      .cpu = (uint32_t)(c ? 3 : 1),
							      .res = (uint32_t)c };
			t += d + 1000 + rnd() % (400 * 1000);
		}
		s->cpus[c].start_ns = st; /* result_cpu_start's */
	}
	snprintf(s->path, sizeof(s->path), "/tmp/test_out_hlog.%d.hlog", (int)getpid());
	assert_int_equal(out_hlog_new(&s->o, s->path, &s->p), 0);
	s->o.run_start(s->o.ctx, &s->run);
}

/* deliver - every gap that ended at or before cutoff, CPU by CPU (pipeline.c's drain) */
static void deliver(struct sim *s, uint64_t cutoff)
{
	for (int c = 0; c < NCPU; c++)
		while (s->next[c] < s->n[c]) {
			const struct js_gap *g = &s->g[c][s->next[c]];
			struct js_gap_rec rec;

			if (g->start_ns + g->dur_ns > cutoff)
				break;
			memset(&rec, 0, sizeof(rec));
			rec.gap = *g;
			rec.attr.primary = (uint32_t)(rnd() % JS_CAUSE_MAX);
			result_add_gap(&s->cpus[c], &rec);
			arrival_add_gap(&s->ref[c], g->start_ns, g->dur_ns, (int)rec.attr.primary);
			s->o.on_gap(s->o.ctx, &rec, NULL, 0);
			s->next[c]++;
		}
}

/*
 * sim_run - ticks every 10 ms, 20 ms behind, except during [stall_from, stall_to); like the
 * pipeline, the last tick comes before the last CPU's end (its loop stops once the samplers
 * are done, and the cutoff is 20 ms behind)
 */
static void sim_run(struct sim *s, uint64_t stall_from, uint64_t stall_to)
{
	uint64_t last = 0, t;

	for (int c = 0; c < NCPU; c++)
		last = last > s->end[c] ? last : s->end[c];
	for (t = s->run.start_mono_ns + 10 * MS; t < last + 20 * MS; t += 10 * MS) {
		if (t >= stall_from && t < stall_to)
			continue;
		deliver(s, t - 20 * MS);
		s->o.on_tick(s->o.ctx, &s->run, t - 20 * MS);
	}
	deliver(s, UINT64_MAX);
	for (int c = 0; c < NCPU; c++) {
		s->cpus[c].end_ns = s->end[c];
		arrival_finish(&s->ref[c], s->end[c]);
	}
	s->run.wall_ns = last - s->run.start_mono_ns;
	assert_int_equal(s->o.finish(s->o.ctx, &s->run), 0);
	s->o.destroy(s->o.ctx);
}

static void sim_free(struct sim *s)
{
	for (int c = 0; c < NCPU; c++) {
		result_cpu_free(&s->cpus[c]);
		arrival_free(&s->ref[c]);
		free(s->g[c]);
	}
	if (!getenv("JS_KEEP_HLOG")) /* debugging: keep the log */
		unlink(s->path);
}

static struct tagsum *tag_of(struct parsed *ps, const char *tag)
{
	for (size_t i = 0; i < ps->nt; i++)
		if (!strcmp(ps->t[i].tag, tag))
			return &ps->t[i];
	assert_true(ps->nt < NTAG);
	snprintf(ps->t[ps->nt].tag, sizeof(ps->t[ps->nt].tag), "%s", tag);
	assert_int_equal(
		hist_init(&ps->t[ps->nt].h, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG), 0);
	return &ps->t[ps->nt++];
}

/* parse - read the log back: header, then every interval line decoded and added per tag */
static void parse(const char *path, struct parsed *ps)
{
	FILE *fp = fopen(path, "r");
	char line[1 << 16];
	int n = 0;
	double prev = -1;

	memset(ps, 0, sizeof(*ps));
	ps->ordered = true;
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		char *p = line, *tag = "", *f[4];
		struct js_hist h;
		struct tagsum *t;

		line[strcspn(line, "\n")] = '\0';
		n++;
		if (n == 1) {
			assert_memory_equal(line, "#[Logged with jitterscope", 25);
			continue;
		}
		if (n == 2) {
			assert_string_equal(line, "#[Histogram log format version 1.3]");
			continue;
		}
		if (n == 3) {
			assert_int_equal(sscanf(line, "#[StartTime: %63s (seconds since epoch), ",
						ps->start_time),
					 1);
			continue;
		}
		if (n == 4) {
			assert_int_equal(sscanf(line, "#[BaseTime: %63s (seconds", ps->base_time),
					 1);
			continue;
		}
		if (n == 5) {
			assert_string_equal(line,
					    "\"StartTimestamp\",\"Interval_Length\","
					    "\"Interval_Max\",\"Interval_Compressed_Histogram\"");
			continue;
		}
		if (!strncmp(p, "Tag=", 4)) {
			tag = p + 4;
			p = strchr(p, ',');
			assert_non_null(p);
			*p++ = '\0';
		}
		for (int i = 0; i < 4; i++) {
			f[i] = p;
			p = strchr(p, ',');
			assert_true(i == 3 ? p == NULL : p != NULL);
			if (p)
				*p++ = '\0';
		}
		assert_int_equal(hist_decode_compressed_b64(f[3], &h), 0);
		t = tag_of(ps, tag);
		assert_int_equal(hist_add(&t->h, &h), 0);
		hist_free(&h);
		if (atof(f[0]) < prev)
			ps->ordered = false;
		prev = atof(f[0]);
		t->last_start = atof(f[0]);
		t->last_len = atof(f[1]);
		t->lines++;
		ps->lines++;
	}
	fclose(fp);
}

static void parsed_free(struct parsed *ps)
{
	for (size_t i = 0; i < ps->nt; i++)
		hist_free(&ps->t[i].h);
}

static void assert_same_hist(const struct js_hist *a, const struct js_hist *b, const char *what)
{
	if (a->total != b->total || hist_max(a) != hist_max(b))
		fail_msg("%s: total %llu max %lld, want total %llu max %lld", what,
			 (unsigned long long)a->total, (long long)hist_max(a),
			 (unsigned long long)b->total, (long long)hist_max(b));
	for (int i = 0; i < a->counts_len; i++)
		if (a->counts[i] != b->counts[i])
			fail_msg("%s: slot %d: %llu != %llu", what, i,
				 (unsigned long long)a->counts[i],
				 (unsigned long long)b->counts[i]);
}

/* check_sums - every tag adds up to the run's own histograms */
static void check_sums(struct sim *s, struct parsed *ps, bool arrivals_exact)
{
	struct js_hist all;
	char tag[48];

	assert_int_equal(hist_init(&all, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG), 0);
	for (int c = 0; c < NCPU; c++) {
		struct tagsum *t;

		snprintf(tag, sizeof(tag), "cpu%d", s->cpus[c].cpu);
		t = tag_of(ps, tag);
		assert_true(s->cpus[c].hist.total > 100);
		assert_same_hist(&t->h, &s->cpus[c].hist, t->tag);
		hist_add(&all, &s->cpus[c].hist);
		snprintf(tag, sizeof(tag), "cpu%d-arrival1ms", s->cpus[c].cpu);
		t = tag_of(ps, tag);
		assert_int_equal(t->h.total, s->ref[c].arrivals);
		if (arrivals_exact)
			assert_same_hist(&t->h, &s->ref[c].delay, t->tag);
	}
	assert_same_hist(&tag_of(ps, "")->h, &all, "untagged");
	assert_int_equal(ps->nt, 1 + 2 * NCPU);
	hist_free(&all);
}

/* 100 ms intervals over 1.05 s: 10 full ones and a last one of 50 ms */
static void test_basic(void **state)
{
	struct sim s;
	struct parsed ps;

	(void)state;
	rng_state = 1;
	sim_init(&s, 100 * MS, 0, 1050 * MS, 0);
	sim_run(&s, 0, 0);
	parse(s.path, &ps);
	/* StartTime = BaseTime = the wall clock of the first CPU's start (epoch + 0) */
	assert_string_equal(ps.start_time, "1700000000.250");
	assert_string_equal(ps.base_time, "1700000000.250");
	assert_true(ps.ordered);
	check_sums(&s, &ps, true);
	for (size_t i = 0; i < ps.nt; i++) {
		assert_int_equal(ps.t[i].lines, 11);
		assert_true(ps.t[i].last_start == 1.0);
		assert_true(ps.t[i].last_len == 0.05);
	}
	parsed_free(&ps);
	sim_free(&s);
}

/* gaps still running when their interval was written go to a later one: nothing is lost */
static void test_late_gaps(void **state)
{
	struct sim s;
	struct parsed ps;

	(void)state;
	rng_state = 2;
	sim_init(&s, 50 * MS, 0, 2000 * MS, 40);
	sim_run(&s, 0, 0);
	parse(s.path, &ps);
	assert_true(ps.ordered);
	check_sums(&s, &ps, false);
	assert_int_equal(ps.lines, 40 * (1 + 2 * NCPU));
	parsed_free(&ps);
	sim_free(&s);
}

/* a consumer stalled for 4 s: ~20000 gaps per CPU of later intervals queue up; the queue
 * fills (intervals written early); the log stays in time order and complete */
static void test_stall(void **state)
{
	struct sim s;
	struct parsed ps;
	uint64_t t0;

	(void)state;
	rng_state = 3;
	sim_init(&s, 1 * MS, 0, 5000 * MS, 0);
	t0 = s.run.start_mono_ns;
	sim_run(&s, t0 + 500 * MS, t0 + 4500 * MS);
	parse(s.path, &ps);
	assert_true(ps.ordered);
	/* CPU 3's gaps of an interval written early are late: their arrivals are clipped */
	check_sums(&s, &ps, false);
	assert_int_equal(ps.lines, 5000 * (1 + 2 * NCPU));
	parsed_free(&ps);
	sim_free(&s);
}

/* after a 1 s warm-up the intervals start with the measurement; a gapless tail of 0.3 ms
 * goes with the last full interval */
static void test_warmup_and_tail(void **state)
{
	struct sim s;
	struct parsed ps;

	(void)state;
	rng_state = 4;
	sim_init(&s, 100 * MS, 1000 * MS, 1000 * MS + 300000, 0);
	/* no gap in the tail: drop the ones that start in it */
	for (int c = 0; c < NCPU; c++)
		while (s.n[c] && s.g[c][s.n[c] - 1].start_ns >= s.end[c] - 400000)
			s.n[c]--;
	sim_run(&s, 0, 0);
	parse(s.path, &ps);
	assert_string_equal(ps.start_time, "1700000001.250");
	check_sums(&s, &ps, true);
	for (size_t i = 0; i < ps.nt; i++) {
		assert_int_equal(ps.t[i].lines, 10);
		assert_true(ps.t[i].last_start == 0.9);
		assert_true(ps.t[i].last_len == 0.1);
	}
	parsed_free(&ps);
	sim_free(&s);
}

/* --hgrm: the merged table, values in ns, equals hgrm_write of the merged histogram */
static void test_hgrm(void **state)
{
	struct sim s;
	struct js_output o;
	struct js_hist all;
	char path[64], *want = NULL, got[1 << 16];
	size_t wn = 0, gn;
	FILE *fp, *mem;

	(void)state;
	rng_state = 5;
	sim_init(&s, 100 * MS, 0, 500 * MS, 0);
	sim_run(&s, 0, 0);
	snprintf(path, sizeof(path), "/tmp/test_out_hgrm.%d.hgrm", (int)getpid());
	memset(&o, 0, sizeof(o));
	assert_int_equal(out_hgrm_new(&o, path, NULL), 0);
	assert_int_equal(o.finish(o.ctx, &s.run), 0);
	o.destroy(o.ctx);
	assert_int_equal(hist_init(&all, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG), 0);
	for (int c = 0; c < NCPU; c++)
		hist_add(&all, &s.cpus[c].hist);
	mem = open_memstream(&want, &wn);
	assert_int_equal(hgrm_write(mem, &all, 1.0, 5), 0);
	fclose(mem);
	fp = fopen(path, "r");
	assert_non_null(fp);
	gn = fread(got, 1, sizeof(got) - 1, fp);
	got[gn] = '\0';
	fclose(fp);
	assert_string_equal(got, want);
	assert_non_null(strstr(got, "Total count"));
	free(want);
	hist_free(&all);
	unlink(path);
	sim_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic), cmocka_unit_test(test_late_gaps),
		cmocka_unit_test(test_stall), cmocka_unit_test(test_warmup_and_tail),
		cmocka_unit_test(test_hgrm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
