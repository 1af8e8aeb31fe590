/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_drain.h - the drain: what the housekeeping thread does with the gaps and events of a
 * measurement after each nap, apart from the run's lifecycle (pipeline.c).
 *
 * Events (drain_event, the probes' callback) go into a window per measured CPU. Gaps wait
 * in lanes, one per CPU and source, in time order: the samplers' popped from their rings
 * and converted from TSC (drain_run), the sources' handed over as they end (drain_push; a
 * gap overlapping the last pending one of the same source and id is merged into it; a mark
 * of no CPU, with several watched, is filed on the CPU whose events explain most of it).
 * drain_run attributes every gap that ended before its cutoff (correlate, then steal, then
 * corr_finish and the entry/exit model), accounts it in its result and hands it to the
 * outputs. A sampler's gaps on a CPU never overlap, so the events ending before the last
 * one attributed are dropped; a source's gaps arrive after they end, so its CPUs keep
 * events a while: the threads' DRAIN_THREAD_KEEP_NS, the marks' DRAIN_MARK_KEEP0_NS at
 * first, then twice the lateness of the latest mark read so far, up to DRAIN_KEEP_NS (a
 * mark read after its start left the window is counted late). Memory stays bounded.
 */
#ifndef JS_DRAIN_H
#define JS_DRAIN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "js_correlate.h"
#include "js_output.h"
#include "js_result.h"
#include "js_sampler.h"
#include "js_smi.h"

#define DRAIN_BATCH 1024     /* gaps popped, filed or attributed at once */
#define DRAIN_LANE_CAP 8192  /* a source's gaps per CPU awaiting attribution */
#define DRAIN_PEND_CAP 16384 /* a sampler's converted gaps per CPU awaiting attribution */
/* the sampler's gaps are attributed this many at a time: their records (1.7 KB each) stay
 * in the cache from attribution to the outputs (a batch of 1024 was 1.8 MB) */
#define DRAIN_SAMPLER_CHUNK 64
#define DRAIN_READINGS_CAP 16384 /* steal clock readings kept per lane */
#define DRAIN_KEEP_NS (JS_MARKS_KEEP_S * 1000000000ull)
#define DRAIN_IPI_KEEP_NS 1000000ull /* IPI sends kept to name the sender of a later vector */
#define DRAIN_GROW_CAP (1u << 20) /* events per CPU a source's window may grow to (drain_event) */
#define DRAIN_THREAD_KEEP_NS 100000000ull /* threads' (no marks): this long, or since hold_ns */
#define DRAIN_MARK_KEEP0_NS 250000000ull  /* the marks' CPUs at first (mark_keep_ns) */
#define DRAIN_THREAD_BATCH_NS 50000000ull /* a thread's gaps attributed this long after the first */
#define DRAIN_SYM_SLOTS 256		  /* a drain thread's cache of kernel symbols' names */

/* One CPU's gaps of one source awaiting attribution, in time order. */
struct drain_lane {
	bool on;
	struct js_gap *pend;
	char (*label)[JS_LABEL_LEN]; /* their labels (sources' lanes; NULL for a sampler's) */
	size_t npend, cap;
	struct steal_log steal; /* steal clock readings not yet given to its gaps */
	uint64_t last_end_ns;	/* end of the last gap attributed */
};

struct js_drain;

/*
 * One drain thread's share (a shard): its CPUs, and the scratch and symbol cache it alone
 * uses. One shard (the main thread's) drains every CPU unless drain_shard split them; each
 * CPU's window, lanes and results are then touched by its shard alone while the shards run,
 * what they share (the outputs, the stacks' and cgroups' tables) under d->shared.
 */
struct drain_shard {
	struct js_drain *d;
	size_t first, n;	    /* its CPUs: cp[first, first + n) */
	struct gap_raw *raw;	    /* a batch popped from a sampler's ring */
	struct js_gap_rec *recs;    /* scratch for one batch of any lane (one at a time) */
	struct js_event *evscratch; /* events of one gap, for outputs that want them */
	size_t nrecs;		    /* recs' room */
	struct corr_opts copts;	    /* the drain's, naming through this shard's cache */
	struct corr_opts mopts;
	struct drain_sym {
		uint64_t addr;
		const char *name;
	} sym[DRAIN_SYM_SLOTS];
	size_t popped; /* the most gaps one of its samplers' rings gave the last drain */
	uint64_t gaps; /* gaps it attributed */
};

struct drain_pool;

#define DRAIN_LOSS_MAX 16 /* a CPU's loss intervals kept; the closest two merge past it */

/* One measured CPU: its sampler and SMI counter (the pipeline's), its events and lanes. */
struct cpu_pipe {
	int cpu;
	struct sampler s;    /* a spinner's (not with --pid/--tid/--marks) */
	int res;	     /* the sampler's result, -1: none */
	int mark_res;	     /* the result of the marks filed here, -1 until one is */
	struct js_event *ev; /* events awaiting their gap: ev[0 .. nev) */
	size_t nev, evcap;
	/* with sources (no spinner: seconds of events kept): evmax[i], the latest end
	 * (corr_event_end) of ev[0..i], so that a batch's window starts where it can matter.
	 * Both are then windows of mirrored rings (js_mirror.h) of evcap, from ring index
	 * head: the window's start moves on without a copy */
	uint64_t *evmax;
	struct js_event *ev_ring;
	uint64_t *evmax_ring;
	size_t head;
	uint64_t ev_evicted; /* events dropped because the window was full */
	uint64_t ev_shed;    /* ... of them other tasks' page faults, which hold no time */
	uint64_t floor_ns;   /* events ending before this cannot matter any more */
	/* where events were lost or evicted, oldest first: a gap attributed later that
	 * overlaps one has its unexplained time not known (attr.evidence_lost) */
	struct drain_loss {
		uint64_t from, until;
	} loss[DRAIN_LOSS_MAX];
	size_t nloss;
	uint64_t klost; /* events about it lost in the kernel, at the last drain_lost */
	struct js_smi smi;
	bool smi_ok;
	uint64_t smi_start;
	struct drain_lane lane[JS_SRC_MAX];
	struct drain_shard *sh; /* the drain thread that drains it */
};

struct js_probes;

struct js_drain {
	struct js_run *run;
	struct js_outputs *outs; /* NULL: none */
	bool outs_want_events;	 /* an output wants a gap's events (on_gap) */
	bool outs_watch_events;	 /* an output keeps its own window of them (on_event) */
	bool spinner;		 /* samplers measure (not --pid/--tid/--marks) */
	struct cpu_pipe *cp;
	size_t n;
	int cpu_index[JS_CPUS_MAX];	 /* cpu -> index in cp, -1 if not measured */
	struct js_probes *const *probes; /* the run's probes (NULL: off): events attribute */
	bool probes_steady;		 /* ... attached throughout: a gap without an event
					  * may be the host's (js_host.h) */
	struct corr_opts copts;		 /* samplers' and threads' gaps */
	struct corr_opts mopts;		 /* marks: intervals the application measured */
	const struct tsc_fit *fit;	 /* TSC -> CLOCK_MONOTONIC */
	unsigned top;			 /* worst gaps kept per result */
	bool stacks;			 /* --stacks: the wanted gaps' stacks into run->stacks */
	uint64_t stack_spike_ns;	 /* ... wanted: the worst list's and these (0: none) */
	struct drain_shard *sh;		 /* the drain threads' shares (sh[0]: the main thread's) */
	size_t nsh;
	struct drain_pool *pool;  /* the other drain threads (drain_threads_start) */
	pthread_rwlock_t *shared; /* nsh > 1: what shards share (outputs, tables) */
	struct js_gap *unfiled;	  /* marks whose CPU is not chosen yet (several watched) */
	char (*unfiled_label)[JS_LABEL_LEN];
	size_t nunfiled;
	struct js_gap_rec *filing; /* scratch: a batch of marks attributed on one CPU */
	uint64_t *covered;	   /* ... the best covered time so far per mark */
	uint64_t window_start;	   /* when the window opened (CLOCK_MONOTONIC), 0 before */
	uint64_t now;		   /* the drain's CLOCK_MONOTONIC */
	size_t popped;		   /* the most gaps one sampler's ring gave the last drain */
	size_t evcap;		   /* events kept per CPU (drain_setup's) */
	uint64_t hold_ns;	   /* pipe_hold: a thread gap still open started there */
	/* the marks' CPUs keep mark_keep_ns of events (DRAIN_MARK_KEEP0_NS, grown to twice a
	 * later mark's lateness, up to DRAIN_KEEP_NS); the last drain let go of those ending
	 * before mark_floor_ns */
	uint64_t mark_keep_ns, mark_floor_ns;
};

/*
 * drain_setup - d's CPUs (cpus[n], every lane off) and its scratch; the caller has set run,
 * outs, spinner, probes, fit and top, and turns the lanes on. evcap: the events kept per
 * CPU. 0 or -ENOMEM (drain_free frees what was allocated).
 */
int drain_setup(struct js_drain *d, const int *cpus, size_t n, size_t evcap);
/* drain_setup_buffers - each CPU's event window and its lanes' buffers, the marks' filing;
 * 0 or -ENOMEM */
int drain_setup_buffers(struct js_drain *d);
/*
 * drain_shard - split d's CPUs among t drain threads, count[k] to thread k (scale_split:
 * thread 1's first, thread 0's last), after drain_setup_buffers and before the first drain;
 * t = 1: the one shard of drain_setup. 0 or -ENOMEM.
 */
int drain_shard(struct js_drain *d, const size_t *count, size_t t);
/* drain_sym - corr_opts.sym: a kernel symbol's name through ctx's (a shard's) cache */
const char *drain_sym(void *ctx, uint64_t addr);
/* drain_shard_run - shard sh's part of drain_run: its samplers' rings popped, then its
 * CPUs' gaps that ended before cutoff attributed */
void drain_shard_run(struct drain_shard *sh, uint64_t cutoff);

/*
 * The drain threads (drain_threads.c): thread k > 0 runs shard k, woken by drain_run, on
 * the housekeeping CPUs (the caller's affinity, which they inherit with its signal mask less
 * the stop signals); without them drain_run runs every shard in turn.
 */
/* drain_threads_start - the threads of shards 1 .. nsh - 1; 0 or < 0 (none started) */
int drain_threads_start(struct js_drain *d);
/* drain_threads_run - every shard's drain_shard_run, in parallel, back when all are done;
 * at most as many at once as the threads have CPUs (the caller's affinity at start): the
 * rest wait their turn */
void drain_threads_run(struct js_drain *d, uint64_t cutoff);
/* drain_threads_most - the most shards that ran at once so far (0: no threads) */
size_t drain_threads_most(const struct js_drain *d);
/* drain_threads_clock - the CPU clock of shard k's thread (k > 0, started); 0 or < 0 */
int drain_threads_clock(const struct js_drain *d, size_t k, clockid_t *clk);
/* drain_threads_stop - the threads ended (joined) */
void drain_threads_stop(struct js_drain *d);

/* drain_cpu_bytes - what drain_setup* allocate for each CPU a sampler measures, its event
 * window evcap events (js_scale.h) */
size_t drain_cpu_bytes(size_t evcap);
/* drain_free - what drain_setup* allocated */
void drain_free(struct js_drain *d);

/* drain_event - the probes' callback (ctx: d): event ev into its CPU's window */
int drain_event(void *ctx, const struct js_event *ev);
/* drain_lost - lost: the count of events about measured CPU i (d->cp[i]) the kernel has lost
 * so far (a probes' ring full), read at until; from: the drain before. When it grew, the
 * events were lost between from and until, and CPU i's gaps overlapping that, attributed
 * later, have their unexplained time not known (attr.evidence_lost). Between drains only:
 * the shards are not running */
void drain_lost(struct js_drain *d, size_t i, uint64_t lost, uint64_t from, uint64_t until);
/* drain_push - pipe_push (js_source.h): gap g of a source and its label into a lane */
bool drain_push(struct js_drain *d, const struct js_gap *g, const char *label);
/* drain_result - pipe_result (js_source.h): a new result of source src on cpu, started
 * with the window when it is open; its index in run->cpus, or < 0 */
int drain_result(struct js_drain *d, enum js_source src, int cpu);
/* drain_start_result - CPU c's sampler's result starts where its sampler started measuring
 * (after the warm-up) */
void drain_start_result(struct js_drain *d, struct cpu_pipe *c);
/* drain_run - pop the samplers' rings, convert, file the marks, attribute everything that
 * ended before cutoff (UINT64_MAX: everything); run->done_ns and the results' move to it */
void drain_run(struct js_drain *d, uint64_t cutoff);

#endif /* JS_DRAIN_H */
