/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_sampler.h - one pinned spin-loop thread per measured CPU. The loop reads the
 * TSC, and stores (start, end) of every gap above the threshold in a preallocated
 * single-producer/single-consumer ring drained from a housekeeping CPU.
 */
#ifndef JS_SAMPLER_H
#define JS_SAMPLER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "js_vmexit.h"

#define SAMPLER_CAL_BINS 1024     /* loop-period histogram bins (cycles) */

struct gap_raw {
	uint64_t start_tsc;   /* last TSC read before the gap */
	uint64_t end_tsc;     /* first TSC read after it */
};

/* SPSC ring: the sampler writes head, the drainer writes tail; each on its own line. */
struct gap_ring {
	_Alignas(64) volatile uint64_t head;
	_Alignas(64) volatile uint64_t tail;
	_Alignas(64) uint64_t mask;
	struct gap_raw *slots;
};

enum sampler_state {
	SAMPLER_INIT = 0,
	SAMPLER_READY,      /* pinned, memory ready, loop calibrated: waiting for go */
	SAMPLER_RUNNING,
	SAMPLER_DONE,
	SAMPLER_FAILED,
};

/* Test-only hooks: interference the sampler inflicts on itself, for the attribution tests. */
enum sampler_hook {
	SAMPLER_HOOK_NONE = 0,
	SAMPLER_HOOK_FAULT,   /* a page the loop touches is zapped every period: a fault in the sampler */
	SAMPLER_HOOK_THP,     /* the loop reads a region of small pages, advised MADV_HUGEPAGE once
	                       * it measures (sampler_hook_arm), so khugepaged collapses it then */
};

#define SAMPLER_HOOK_BYTES (4u << 20)   /* the hook region: two 2 MiB huge pages worth */

struct sampler_cfg {
	int cpu;
	int policy;               /* SCHED_OTHER / SCHED_FIFO / SCHED_RR */
	int priority;
	uint64_t threshold_cycles;
	uint64_t warmup_cycles;   /* loop runs but records nothing for this long */
	uint64_t duration_cycles; /* 0 = until stopped */
	size_t ring_entries;      /* power of two */
	bool lfence;              /* lfence;rdtsc instead of rdtscp */
	enum sampler_hook hook;   /* test-only: not for measuring */
	const volatile int *go;   /* set to 1 to start, shared by all samplers */
	const volatile int *stop; /* set to 1 to stop early */
};

struct sampler {
	struct sampler_cfg cfg;
	pthread_t thread;
	int node;
	pid_t tid;
	struct gap_ring ring;
	/* written by the sampler thread only */
	_Alignas(64) volatile int state;
	volatile uint64_t start_tsc, end_tsc;   /* measured window (after warm-up) */
	volatile uint64_t iterations;            /* published at each gap and at the end */
	volatile uint64_t dropped;               /* gaps lost to a full ring */
	uint32_t loop_min_cycles, loop_median_cycles;   /* from the calibration pass */
	struct js_vmexit vmexit;                 /* in a guest: a VM exit's cost, measured there */
	uint32_t *cal_bins;
	char *hook_mem;                          /* SAMPLER_HOOK_BYTES, 2 MiB aligned, not locked */
	uint64_t hook_last_iter;                 /* iterations seen at the last zap */
	bool hook_armed;                         /* THP: MADV_HUGEPAGE given (housekeeping) */
	int err;                                 /* errno of a setup failure */
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

/* ring_pop - consumer side: copy up to @max gaps out; returns the count */
size_t ring_pop(struct gap_ring *r, struct gap_raw *out, size_t max);
/* ring_push - producer side (exposed for tests): false when full */
bool ring_push(struct gap_ring *r, uint64_t start, uint64_t end);

/* sampler_hook_zap - SAMPLER_HOOK_FAULT, from the housekeeping thread: drop the page the
 * loop touches so its next touch faults (in the sampler, on the measured CPU) */
int sampler_hook_zap(struct sampler *s);

/* sampler_hook_arm - SAMPLER_HOOK_THP, from the housekeeping thread, once: when the sampler
 * is in its measuring loop (reading the region), store the region's AnonHugePages in
 * *huge_kb and advise MADV_HUGEPAGE on it (khugepaged may collapse it from then on).
 * 0 when armed now; -EAGAIN before the loop, -EALREADY once armed, -EINVAL without the hook */
int sampler_hook_arm(struct sampler *s, uint64_t *huge_kb);

/* sampler_hook_huge_kb - AnonHugePages (kB) of the mapping holding the hook region, from
 * /proc/self/smaps (not the whole process's); 0 or -errno */
int sampler_hook_huge_kb(const struct sampler *s, uint64_t *kb);

/* sampler_smaps_huge_kb - pure: AnonHugePages (kB) of the VMA containing @addr in the text
 * of a /proc/PID/smaps file; 0, -ENOENT (no such VMA or field) or -EINVAL */
int sampler_smaps_huge_kb(const char *smaps, uint64_t addr, uint64_t *kb);

/* sampler_parse_priority - "o:0", "f:95", "r:10" (rtla -P) -> policy/priority; -EINVAL */
int sampler_parse_priority(const char *s, int *policy, int *priority);
/* sampler_policy_name - "other", "fifo", "rr" for SCHED_OTHER/FIFO/RR; NULL if another */
const char *sampler_policy_name(int policy);
/* sampler_policy_from_name - SCHED_OTHER/FIFO/RR named name; -1 if none */
int sampler_policy_from_name(const char *name);

/* sampler_hook_name - "fault", "thp" (--test-hook) for enum sampler_hook; NULL for none */
const char *sampler_hook_name(enum sampler_hook h);
/* sampler_hook_from_name - the enum sampler_hook named name; -1 if none */
int sampler_hook_from_name(const char *name);

#endif /* JS_SAMPLER_H */
