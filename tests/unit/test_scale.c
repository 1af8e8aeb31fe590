// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_scale.c - a run's memory and housekeeping load for many CPUs (js_scale.h): the rings
 * per CPU shrink to fit their bound, the memory grows by the same amount per CPU, the
 * senders' rings stay within 8 MiB up to JS_CPUS_MAX CPUs, the trial runs only for runs
 * large enough to overload one thread, and the load check reads the trial's counts at the
 * threshold and suggests the first candidate that fits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "js_probes.h"
#include "js_run_cfg.h"
#include "js_scale.h"
#include "js_threshold.h"

#define MIB (1u << 20)

/** The probe rings: 2 MiB per CPU up to 64 CPUs, then 128 MiB shared (a power of two each). */
static void test_probe_rings(void **state)
{
	(void)state;
	assert_int_equal(scale_probe_ring_recs(1) * PROBES_RECORD_BYTES, 2 * MIB);
	assert_int_equal(scale_probe_ring_recs(16) * PROBES_RECORD_BYTES, 2 * MIB);
	assert_int_equal(scale_probe_ring_recs(64) * PROBES_RECORD_BYTES, 2 * MIB);
	assert_int_equal(scale_probe_ring_recs(128) * PROBES_RECORD_BYTES, MIB);
	assert_int_equal(scale_probe_ring_recs(256) * PROBES_RECORD_BYTES, MIB / 2);
	/* 100 CPUs: 128 MiB / 100 rounded down to a power of two records */
	assert_int_equal(scale_probe_ring_recs(100), 8192);
}

/** The senders' rings: 1024 records each for a few, never more than 8 MiB in all. */
static void test_send_rings_bounded(void **state)
{
	struct scale_mem m;

	(void)state;
	assert_int_equal(probes_send_ring_recs(1), 1024);
	assert_int_equal(probes_send_ring_recs(64), 1024);
	assert_int_equal(probes_send_ring_recs(65), 512);
	assert_int_equal(probes_send_ring_recs(1024), 64);
	for (size_t all = 2; all <= 1024; all *= 2) {
		scale_mem(&m, 1, all, 1 << 16);
		assert_true(m.send_rings <= 8 * MIB);
		assert_true(m.send_rings > 0);
	}
	scale_mem(&m, 4, 4, 1 << 16); /* every CPU measured: no sender ring */
	assert_int_equal(m.send_rings, 0);
}

/** Memory per CPU is the same from 64 CPUs up (the probe rings' share stops shrinking only
 * at their floor): the total grows by per_cpu for each CPU. */
static void test_memory_linear(void **state)
{
	struct scale_mem a, b;

	(void)state;
	scale_mem(&a, 1, 2, 1 << 16);
	assert_int_equal(a.gap_ring, (1 << 16) * 16);
	assert_int_equal(a.per_cpu, a.gap_ring + a.probe_ring + a.drain);
	assert_int_equal(a.total, a.per_cpu + a.send_rings);
	scale_mem(&a, 64, 256, 1 << 16);
	scale_mem(&b, 128, 256, 1 << 16);
	assert_true(b.per_cpu < a.per_cpu); /* the probe rings shared out more thinly */
	assert_int_equal(b.per_cpu, b.gap_ring + MIB + b.drain);
	assert_int_equal(b.total, 128 * b.per_cpu + b.send_rings);
	assert_true(b.drain > 0 && b.drain == a.drain);
}

/** The trial runs for runs of CPUs whose untuned rates would overload one thread. */
static void test_trial_wanted(void **state)
{
	(void)state;
	/* 16000 gaps/s x 1 us = 1.6 % of a core per CPU: 31 CPUs 49.6 %, 32 CPUs 51.2 % */
	assert_false(scale_trial_wanted(1));
	assert_false(scale_trial_wanted(31));
	assert_true(scale_trial_wanted(32));
	assert_true(scale_trial_wanted(128));
}

/** The load at the threshold: the count of the largest candidate not above it. */
static void test_load(void **state)
{
	const uint64_t cand[] = { 200, 283, 400, 566, 800, 1131, 1600, 2263 };
	/* gaps in a 0.5 s trial above each: 20000/s at 1 us, 3800/s above 1.6 us */
	const uint64_t counts[] = { 40000, 30000, 20000, 15000, 10000, 8000, 1900, 500 };
	struct scale_load l;

	(void)state;
	assert_int_equal(scale_load(8, 1000, cand, counts, 8, 0.0, &l), -EINVAL);
	assert_int_equal(scale_load(8, 1000, cand, counts, 0, 0.5, &l), -EINVAL);
	/* 8 CPUs at 1 us: 20000/s each (800 ns's count), 16 % of a core: keeps up */
	assert_int_equal(scale_load(8, 1000, cand, counts, 8, 0.5, &l), 0);
	assert_true(l.rate == 20000.0);
	assert_true(l.core_pct > 15.9 && l.core_pct < 16.1);
	assert_true(l.keeps_up);
	assert_int_equal(l.suggest_ns, 0);
	/* 128 CPUs: 256 % of a core; one thread keeps up with 3906/s each: 3800/s above 1600 ns */
	assert_int_equal(scale_load(128, 1000, cand, counts, 8, 0.5, &l), 0);
	assert_false(l.keeps_up);
	assert_true(l.max_rate > 3906 && l.max_rate < 3907);
	assert_int_equal(l.suggest_ns, 1600);
	/* below every candidate: the first's count (an upper bound) */
	assert_int_equal(scale_load(1, 50, cand, counts, 8, 0.5, &l), 0);
	assert_true(l.rate == 80000.0);
	/* 1024 CPUs: even the last candidate's 1000/s is too many: no suggestion */
	assert_int_equal(scale_load(1024, 1000, cand, counts, 8, 0.5, &l), 0);
	assert_false(l.keeps_up);
	assert_int_equal(l.suggest_ns, 0);
}

/** K from the rate: SCALE_SHARD_RATE gaps/s a thread, at least one CPU each. */
static void test_shard_cpus(void **state)
{
	(void)state;
	assert_int_equal(scale_shard_cpus(1000), 125);	    /* tuned */
	assert_int_equal(scale_shard_cpus(16000), 7);	    /* untuned */
	assert_int_equal(scale_shard_cpus(200000), 1);	    /* more than a thread's: still one */
	assert_int_equal(scale_shard_cpus(0), JS_CPUS_MAX); /* no gap at all */
}

static size_t sum(const size_t *v, size_t n)
{
	size_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

/** The split: one thread per K CPUs, within the housekeeping CPUs; every CPU owned once,
 * the main thread (0) never given more than a worker. */
static void test_split(void **state)
{
	size_t c[SCALE_SHARDS_MAX];

	(void)state;
	/* one CPU, or K of them: one thread, as before sharding */
	assert_int_equal(scale_split(1, 16000, 1, 0, c), 1);
	assert_int_equal(c[0], 1);
	assert_int_equal(scale_split(125, 1000, 8, 0, c), 1);
	assert_int_equal(c[0], 125);
	/* 256 tuned CPUs: 3 threads of 86, 85, 85 (the main thread the smallest) */
	assert_int_equal(scale_split(256, 1000, 8, 0, c), 3);
	assert_int_equal(c[0], 85);
	assert_int_equal(c[1], 86);
	assert_int_equal(c[2], 85);
	/* ... but only as many as there are housekeeping CPUs */
	assert_int_equal(scale_split(256, 1000, 2, 0, c), 2);
	assert_int_equal(c[0] + c[1], 256);
	assert_int_equal(scale_split(256, 1000, 0, 0, c), 1);
	/* 64 untuned CPUs: ceil(64 / 7) = 10 threads */
	assert_int_equal(scale_split(64, 16000, 32, 0, c), 10);
	assert_int_equal(sum(c, 10), 64);
	for (size_t i = 1; i < 10; i++)
		assert_true(c[0] <= c[i] && c[i] <= c[0] + 1);
	/* forced: that many, whatever the housekeeping CPUs; one CPU goes to a worker */
	assert_int_equal(scale_split(1, 16000, 1, 2, c), 2);
	assert_int_equal(c[0], 0);
	assert_int_equal(c[1], 1);
	assert_int_equal(scale_split(256, 1000, 1, 4, c), 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(c[i], 64);
	assert_int_equal(scale_split(1000, 16000, 1024, 0, c), SCALE_SHARDS_MAX);
	assert_int_equal(scale_split(8, 1000, 1, 1000, c), SCALE_SHARDS_MAX);
	assert_int_equal(sum(c, SCALE_SHARDS_MAX), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_rings),   cmocka_unit_test(test_send_rings_bounded),
		cmocka_unit_test(test_memory_linear), cmocka_unit_test(test_trial_wanted),
		cmocka_unit_test(test_load),	      cmocka_unit_test(test_shard_cpus),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests_name("scale", tests, NULL, NULL);
}
