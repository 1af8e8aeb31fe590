/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_scale.h - what a measurement of many CPUs costs before it starts: the memory each
 * measured CPU takes (its sampler's gap ring, its probe ring, the drain's window and lane)
 * and the senders' rings, bounded; and whether one housekeeping thread drains the gaps the
 * measured CPUs will make (js_threshold.h's budget per gap). The pipeline sizes its rings
 * with these; bench/jsscale.c states the same figures next to the heap it measured.
 * Figures: docs/BENCHMARKS.md (make bench-scale); why: docs/DESIGN.md, "many CPUs".
 */
#ifndef JS_SCALE_H
#define JS_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* each measured CPU's probe ring of 128-byte records: 2 MiB, 40 ms of events at 400k/s,
 * drained every 10 ms; 128 MiB in all at most (64 CPUs; 256 CPUs get 512 KiB each, under a
 * 32nd full after 40 ms of a tuned CPU's 3k events/s: their drain sleeps 40 ms, js_nap.h) */
#define PROBE_RING_BYTES_PER_CPU (2u << 20)
#define PROBE_RING_BYTES_MAX (128u << 20)
#define SCALE_EV_WINDOW_CAP 16384 /* events kept per CPU awaiting their gap (spinner) */
#define SCALE_EV_KEEP_CAP 65536	  /* ... when marks come late (DRAIN_KEEP_NS) */
/* ... for threads' gaps alone (DRAIN_THREAD_KEEP_NS, 100 ms): a ring that stays in the cache,
 * doubled when a CPU's events need more */
#define SCALE_EV_THREAD_CAP 8192
/* one housekeeping thread keeps up while the gaps take at most this share of its core at
 * JS_HK_GAP_NS each (the rest: probes' records, outputs, the host taking the vCPU) */
#define SCALE_KEEPUP_PCT 50

/* the gap rate per CPU of an untuned CPU at the default threshold (issue 29's figure): a
 * run of so many CPUs that such rates would overload one housekeeping thread runs the trial
 * that tells before measuring (scale_trial_wanted) */
#define SCALE_UNTUNED_RATE 16000
/* runs of more CPUs than this state their memory before measuring */
#define SCALE_STATE_CPUS 16

/* the gaps/s one drain thread keeps up with: what its CPUs make in the longest nap
 * (JS_NAP_QUIET_NS, 40 ms) drained within the base nap (10 ms) at JS_HK_GAP_NS per gap in
 * SCALE_KEEPUP_PCT of it; 125000 (docs/DESIGN.md, "many CPUs") */
#define SCALE_SHARD_RATE 125000.0
#define SCALE_SHARDS_MAX 64 /* drain threads at most (--drain-threads) */

/* The memory of a run, in bytes. */
struct scale_mem {
	size_t gap_ring;   /* per measured CPU: its sampler's ring (ring_entries raw gaps) */
	size_t probe_ring; /* ... its probe ring */
	size_t drain;	   /* ... the drain's event window, lane and steal log (drain.c) */
	size_t per_cpu;	   /* the three */
	size_t send_rings; /* the other CPUs' rings in all (bounded: 8 MiB) */
	size_t total;	   /* per_cpu x ncpus + send_rings */
};

/* scale_probe_ring_bytes - the measured CPUs' probe rings in all (probes_opts.ring_bytes) */
size_t scale_probe_ring_bytes(size_t ncpus);
/* scale_probe_ring_recs - the records of each measured CPU's probe ring */
size_t scale_probe_ring_recs(size_t ncpus);
/* scale_mem - m for ncpus measured CPUs of nall possible ones, sampler rings of
 * ring_entries (a spinner's run) */
void scale_mem(struct scale_mem *m, size_t ncpus, size_t nall, size_t ring_entries);

/* What one housekeeping thread is asked to drain (scale_load). */
struct scale_load {
	double rate;	     /* gaps/s per measured CPU expected at the threshold */
	double core_pct;     /* ... their draining, in % of a housekeeping core */
	bool keeps_up;	     /* core_pct <= SCALE_KEEPUP_PCT */
	double max_rate;     /* gaps/s per CPU one thread keeps up with */
	uint64_t suggest_ns; /* !keeps_up: the smallest threshold whose rate fits, 0: none */
};

/* scale_trial_wanted - ncpus CPUs at SCALE_UNTUNED_RATE would take one housekeeping thread
 * over SCALE_KEEPUP_PCT of its core: count their gaps in a trial before measuring */
bool scale_trial_wanted(size_t ncpus);

/*
 * scale_load - whether one housekeeping thread keeps up with ncpus CPUs each making the
 * gaps of a trial: counts[k] gaps above cand_ns[k] (ascending, k < n) in trial_s seconds;
 * the rate at threshold_ns is the count of the largest candidate not above it (an upper
 * bound; the first candidate's when threshold_ns is below them all). 0, or -EINVAL
 * without a trial.
 */
int scale_load(size_t ncpus, uint64_t threshold_ns, const uint64_t *cand_ns, const uint64_t *counts,
	       size_t n, double trial_s, struct scale_load *l);

/* scale_shard_cpus - K: the measured CPUs one drain thread keeps up with at rate gaps/s
 * each (SCALE_SHARD_RATE / rate, at least 1) */
size_t scale_shard_cpus(double rate);

/*
 * scale_split - how many drain threads share ncpus measured CPUs, and which: forced (> 0,
 * --drain-threads N) that many (at most SCALE_SHARDS_MAX), else one per K CPUs at rate
 * gaps/s each (scale_shard_cpus), at most one per housekeeping CPU (nhk) and at least one.
 * count[k]: thread k's CPUs, contiguous in the run's order from thread 1 on, thread 0 (the
 * main thread, which also reads the probes' rings and runs the sources) last and never more
 * than another. Returns the threads.
 */
size_t scale_split(size_t ncpus, double rate, size_t nhk, size_t forced,
		   size_t count[SCALE_SHARDS_MAX]);

#endif /* JS_SCALE_H */
