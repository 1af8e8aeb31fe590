// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sampler.c - the pinned spin loop. Everything that may sleep, allocate or
 * fault happens before the loop: pinning, scheduling policy, NUMA-local ring
 * allocation and pre-faulting, loop calibration (and in a guest the cost of a VM exit,
 * js_vmexit.h). The loop itself reads the TSC,
 * compares, and stores gaps into the ring: no syscalls, no allocation, no
 * floating point, no printing.
 */
#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "js_sampler.h"
#include "js_tsc.h"
#include "js_util.h"

#define CAL_ITERATIONS (1u << 20)
#define SAMPLER_STACK_BYTES (256u << 10)

static int fail(struct sampler *s, int err, const char *what)
{
	s->err = err;
	snprintf(s->errmsg, sizeof(s->errmsg), "CPU %d: %s: %s", s->cfg.cpu, what, strerror(err));
	__atomic_store_n(&s->state, SAMPLER_FAILED, __ATOMIC_RELEASE);
	return -err;
}

/*
 * spin - the hot loop, instantiated for each (read, record) pair so neither
 * is a runtime branch. Stops at @until or when *stop is set (checked every
 * 4096 iterations and after each gap).
 */
static __attribute__((always_inline)) inline void spin(struct sampler *s, uint64_t until,
						       enum tsc_read rd, bool record)
{
	const volatile int *stop = s->cfg.stop;
	const uint64_t thr = s->cfg.threshold_cycles;
	uint64_t iters = s->iterations, dropped = s->dropped;
	uint64_t prev = js_tsc_read(rd), now;

	for (;;) {
		now = js_tsc_read(rd);
		iters++;
		if (__builtin_expect(now - prev > thr, 0)) {
			if (record)
				dropped = sampler_push_gap(s, prev, now, iters, dropped);
			if (now >= until || *stop)
				break;
		} else if (__builtin_expect((iters & 0xfff) == 0, 0) && (now >= until || *stop)) {
			break;
		}
		prev = now;
	}
	s->iterations = record ? iters : 0;
	s->dropped = dropped;
	s->last_tsc = now;
}

static void spin_dispatch(struct sampler *s, uint64_t until, bool record)
{
	if (record && s->cfg.hook != SAMPLER_HOOK_NONE) {
		sampler_hook_spin(s, until); /* test only: sampler_hook.c */
		return;
	}
	if (s->cfg.read == TSC_READ_LFENCE_RDTSC) {
		if (record)
			spin(s, until, TSC_READ_LFENCE_RDTSC, true);
		else
			spin(s, until, TSC_READ_LFENCE_RDTSC, false);
	} else {
		if (record)
			spin(s, until, TSC_READ_RDTSCP, true);
		else
			spin(s, until, TSC_READ_RDTSCP, false);
	}
}

/*
 * cal_loop - back-to-back reads binned by period. rdtscp waits for the instructions before
 * it, so a bins[d]++ per iteration (a load-add-store chain) made this loop slower than the
 * measuring loop it stands for: the periods go to a small buffer (plain stores) and are
 * binned every CAL_BATCH reads, outside the timed stretch.
 */
#define CAL_BATCH 4096u
_Static_assert(SAMPLER_CAL_BINS <= 65536 && CAL_ITERATIONS % CAL_BATCH == 0, "cal_loop buffer");

static __attribute__((always_inline)) inline void cal_loop(uint32_t *bins, enum tsc_read rd)
{
	uint16_t buf[CAL_BATCH];

	for (uint32_t done = 0; done < CAL_ITERATIONS; done += CAL_BATCH) {
		uint64_t prev = js_tsc_read(rd), now, d;

		for (uint32_t i = 0; i < CAL_BATCH; i++) {
			now = js_tsc_read(rd);
			d = now - prev;
			buf[i] = (uint16_t)(d < SAMPLER_CAL_BINS ? d : SAMPLER_CAL_BINS - 1);
			prev = now;
		}
		for (uint32_t i = 0; i < CAL_BATCH; i++)
			bins[buf[i]]++;
	}
}

/* calibrate - loop period distribution of back-to-back reads, in cycles */
static void calibrate(struct sampler *s)
{
	uint32_t *bins = s->cal_bins;
	uint64_t total = 0, half, acc = 0;

	if (s->cfg.read == TSC_READ_LFENCE_RDTSC)
		cal_loop(bins, TSC_READ_LFENCE_RDTSC);
	else
		cal_loop(bins, TSC_READ_RDTSCP);
	for (int i = 0; i < SAMPLER_CAL_BINS; i++)
		total += bins[i];
	half = (total + 1) / 2;
	s->loop_min_cycles = 0;
	for (int i = 0; i < SAMPLER_CAL_BINS; i++) {
		if (i && bins[i] && !s->loop_min_cycles)
			s->loop_min_cycles = (uint32_t)i;
		acc += bins[i];
		if (acc >= half) {
			s->loop_median_cycles = (uint32_t)i;
			break;
		}
	}
}

/* trial - --threshold auto: count the gaps above each candidate floor for trial_cycles */
static void trial(struct sampler *s)
{
	uint64_t floor = (uint64_t)JS_THR_AUTO_MULT * s->loop_min_cycles;
	uint64_t prev, now, d, start, until, iters = 0;
	const enum tsc_read rd = s->cfg.read;
	unsigned k;

	for (k = 0; k < JS_THR_AUTO_STEPS; k++)
		s->trial_cand[k] = thr_auto_candidate(floor, k);
	start = prev = js_tsc_read(rd);
	until = start + s->cfg.trial_cycles;
	for (;;) {
		now = js_tsc_read(rd);
		d = now - prev;
		if (__builtin_expect(d > s->trial_cand[0], 0)) {
			for (k = 0; k < JS_THR_AUTO_STEPS && d > s->trial_cand[k]; k++)
				s->trial_counts[k]++;
			if (now >= until)
				break;
		} else if (__builtin_expect((++iters & 0xfff) == 0, 0) && now >= until) {
			break;
		}
		prev = now;
	}
	s->trial_span = now - start;
}

/* setup - pin, set policy, allocate and pre-fault NUMA-local memory */
static int setup(struct sampler *s)
{
	size_t bytes = s->cfg.ring_entries * sizeof(struct gap_raw);
	char name[16];
	cpu_set_t set;

	s->tid = (pid_t)syscall(SYS_gettid);
	snprintf(name, sizeof(name), JS_THREAD_SPIN, s->cfg.cpu);
	js_thread_name(name); /* best effort: a story then names the sampler */
	CPU_ZERO(&set);
	CPU_SET(s->cfg.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return fail(s, errno, "pinning the sampler");
	sched_yield(); /* be sure we run there before allocating */
	if (sched_getcpu() != s->cfg.cpu)
		return fail(s, EINVAL, "sampler did not migrate");
	if (s->cfg.policy != SCHED_OTHER) {
		struct sched_param sp = { .sched_priority = s->cfg.priority };

		if (sched_setscheduler(0, s->cfg.policy, &sp))
			return fail(s, errno, "setting the sampler's real-time priority");
	}
	/* allocate after pinning: the best chance of node-local memory */
	s->node = numa_available() >= 0 ? numa_node_of_cpu(s->cfg.cpu) : -1;
	if (s->node >= 0)
		s->ring.slots = numa_alloc_onnode(bytes, s->node);
	else
		s->ring.slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!s->ring.slots || s->ring.slots == MAP_FAILED) {
		s->ring.slots = NULL;
		return fail(s, ENOMEM, "allocating the gap ring");
	}
	s->cal_bins = calloc(SAMPLER_CAL_BINS, sizeof(uint32_t));
	if (!s->cal_bins)
		return fail(s, ENOMEM, "allocating calibration bins");
	if (s->cfg.hook != SAMPLER_HOOK_NONE) {
		const char *what = "";
		int err = sampler_hook_setup(s, &what);

		if (err)
			return fail(s, -err, what);
	}
	memset(s->ring.slots, 0, bytes); /* pre-fault */
	mlock(s->ring.slots, bytes);	 /* mlockall(MCL_FUTURE) covers it too; best effort */
	s->ring.mask = s->cfg.ring_entries - 1;
	return 0;
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	uint64_t t0;

	if (setup(s))
		return NULL;
	calibrate(s);
	if (s->cfg.trial_cycles)
		trial(s);
	vmexit_measure(&s->vmexit, s->cfg.read);
	__atomic_store_n(&s->state, SAMPLER_READY, __ATOMIC_RELEASE);
	while (!*s->cfg.go && !*s->cfg.stop)
		js_cpu_relax();
	__atomic_thread_fence(__ATOMIC_ACQUIRE); /* cfg.threshold_cycles set before go */
	if (*s->cfg.stop) {
		s->start_tsc = s->end_tsc = js_tsc_read(s->cfg.read);
		__atomic_store_n(&s->state, SAMPLER_DONE, __ATOMIC_RELEASE);
		return NULL;
	}
	__atomic_store_n(&s->state, SAMPLER_RUNNING, __ATOMIC_RELEASE);
	t0 = js_tsc_read(s->cfg.read);
	if (s->cfg.warmup_cycles)
		spin_dispatch(s, t0 + s->cfg.warmup_cycles, false);
	s->start_tsc = js_tsc_read(s->cfg.read);
	spin_dispatch(s,
		      s->cfg.duration_cycles ? s->start_tsc + s->cfg.duration_cycles : UINT64_MAX,
		      true);
	/* the window ends where the loop last read the counter: a preemption after it (before
	 * a read here) is no time the loop measured, and no gap holds it */
	s->end_tsc = s->last_tsc;
	__atomic_store_n(&s->state, SAMPLER_DONE, __ATOMIC_RELEASE);
	return NULL;
}

int sampler_start(struct sampler *s, const struct sampler_cfg *cfg)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (!cfg->ring_entries || (cfg->ring_entries & (cfg->ring_entries - 1)))
		return -EINVAL;
	/* a small stack: under mlockall(MCL_FUTURE) a thread's whole stack is resident */
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SAMPLER_STACK_BYTES);
	err = pthread_create(&s->thread, &attr, sampler_main, s);
	pthread_attr_destroy(&attr);
	if (err) {
		s->err = err;
		snprintf(s->errmsg, sizeof(s->errmsg), "CPU %d: creating the sampler thread: %s",
			 cfg->cpu, strerror(err));
		return -err;
	}
	return 0;
}

int sampler_wait_ready(struct sampler *s)
{
	int st;

	while ((st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE)) == SAMPLER_INIT)
		usleep(1000);
	return st == SAMPLER_FAILED ? -(s->err ? s->err : EINVAL) : 0;
}

void sampler_join(struct sampler *s)
{
	if (s->thread) {
		pthread_join(s->thread, NULL);
		s->thread = 0;
	}
}

void sampler_free(struct sampler *s)
{
	if (s->ring.slots) {
		if (s->node >= 0)
			numa_free(s->ring.slots, s->cfg.ring_entries * sizeof(struct gap_raw));
		else
			munmap(s->ring.slots, s->cfg.ring_entries * sizeof(struct gap_raw));
		s->ring.slots = NULL;
	}
	free(s->cal_bins);
	s->cal_bins = NULL;
	/* the hook region is left mapped: it is test-only and freed with the process */
}
