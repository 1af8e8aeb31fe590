/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_sampler.h - one pinned spin-loop thread per measured CPU. The loop reads the
 * TSC, and stores (start, end) of every gap above the threshold in a preallocated
 * single-producer/single-consumer ring (js_gapring.h) drained from a housekeeping CPU.
 */
#ifndef JS_SAMPLER_H
#define JS_SAMPLER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "js_gapring.h"
#include "js_sampler_hook.h"
#include "js_tsc.h"
#include "js_threshold.h"
#include "js_vmexit.h"

#define SAMPLER_CAL_BINS 1024 /* loop-period histogram bins (cycles) */

enum sampler_state {
	SAMPLER_INIT = 0,
	SAMPLER_READY, /* pinned, memory ready, loop calibrated: waiting for go; until
	                     * then cfg.threshold_cycles may still be set (--threshold auto) */
	SAMPLER_RUNNING,
	SAMPLER_DONE,
	SAMPLER_FAILED,
};

struct sampler_cfg {
	int cpu;
	int policy; /* SCHED_OTHER / SCHED_FIFO / SCHED_RR */
	int priority;
	uint64_t threshold_cycles;
	uint64_t warmup_cycles;	    /* loop runs but records nothing for this long */
	uint64_t duration_cycles;   /* 0 = until stopped */
	uint64_t trial_cycles;	    /* --threshold auto: the trial spin before READY; 0 = none */
	size_t ring_entries;	    /* power of two */
	enum tsc_read read;	    /* how the loop reads the TSC (js_tsc.h) */
	enum sampler_hook hook;	    /* test-only: not for measuring */
	uint64_t hook_stall_cycles; /* SAMPLER_HOOK_STALL: SAMPLER_HOOK_STALL_NS in cycles */
	const volatile int *go;	    /* set to 1 to start, shared by all samplers */
	const volatile int *stop;   /* set to 1 to stop early */
};

struct sampler {
	struct sampler_cfg cfg;
	pthread_t thread;
	int node;
	pid_t tid;
	struct gap_ring ring;
	/* written by the sampler thread only */
	_Alignas(64) volatile int state;
	volatile uint64_t start_tsc, end_tsc;	      /* measured window (after warm-up) */
	uint64_t last_tsc;			      /* a loop's last read: where it stopped */
	volatile uint64_t iterations;		      /* published at each gap and at the end */
	volatile uint64_t dropped;		      /* gaps lost to a full ring */
	uint32_t loop_min_cycles, loop_median_cycles; /* from the calibration pass */
	/* --threshold auto's trial: gaps above JS_THR_AUTO_MULT x loop_min_cycles and each
	 * larger candidate (thr_auto_candidate), in trial_span cycles */
	uint64_t trial_cand[JS_THR_AUTO_STEPS], trial_counts[JS_THR_AUTO_STEPS], trial_span;
	struct js_vmexit vmexit; /* in a guest: a VM exit's cost, measured there */
	uint32_t *cal_bins;
	char *hook_mem;		 /* SAMPLER_HOOK_BYTES, 2 MiB aligned, not locked */
	uint64_t hook_last_iter; /* iterations seen at the last zap */
	bool hook_armed;	 /* THP: MADV_HUGEPAGE given (housekeeping) */
	int err;		 /* errno of a setup failure */
	char errmsg[160];
};

/* sampler_start - create the pinned thread; it reports READY (or FAILED) in s->state */
int sampler_start(struct sampler *s, const struct sampler_cfg *cfg);
/* sampler_wait_ready - wait until READY/FAILED; 0 when ready */
int sampler_wait_ready(struct sampler *s);
/* sampler_join - join the thread (after stop/duration) and free its memory */
void sampler_join(struct sampler *s);
/* sampler_free - release the ring */
void sampler_free(struct sampler *s);

/* sampler_push_gap - in a measuring loop (sampler.c's, the test hook's): the gap [prev,
 * now] into the ring, counted as dropped when it is full, and the loop's counts published;
 * returns the dropped count */
static __attribute__((always_inline)) inline uint64_t
sampler_push_gap(struct sampler *s, uint64_t prev, uint64_t now, uint64_t iters, uint64_t dropped)
{
	if (!ring_push(&s->ring, prev, now))
		dropped++;
	s->iterations = iters;
	s->dropped = dropped;
	return dropped;
}

#endif /* JS_SAMPLER_H */
