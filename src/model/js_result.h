/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_result.h - the run's result: per measured CPU, what was measured and what
 * explains it. Filled by the pipeline gap by gap (bounded memory), read by the
 * formatters (src/report/: report_text.c, out_json.c ...).
 */
#ifndef JS_RESULT_H
#define JS_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "js_arrival.h"
#include "js_audit_record.h"
#include "js_budget.h"
#include "js_causes.h"
#include "js_cgroup.h"
#include "js_clockcost.h"
#include "js_entry.h"
#include "js_intervals.h"
#include "js_period.h"
#include "js_hist.h"
#include "js_idle_states.h"
#include "js_model.h"
#include "js_run_cfg.h"
#include "js_spike.h"
#include "js_stacks.h"
#include "js_topn.h"
#include "js_tsc.h"

/* the JSON documents' schema_version (docs/JSON.md; CHANGELOG.md says what each changed) */
#define JS_SCHEMA_VERSION 3
#define JS_SCHEMA_VERSION_MIN 1 /* the oldest a run is still loaded from (report_load.c) */

/* Percentiles every report shows (text, JSON, diff, HTML; the loader reads them back). */
struct js_pct {
	double p;
	const char *key;   /* "p99_ns" */
	const char *label; /* "p99" */
};
extern const struct js_pct js_pcts[];
extern const size_t js_npcts;

/* gap sizes burst exposure is reported for */
#define JS_BURST_SIZES 4
extern const uint64_t js_burst_sizes_ns[JS_BURST_SIZES];

/* One VM exit's cost on a measured CPU (js_vmexit.h); samples 0: bare metal, not measured */
struct js_exit_cost {
	uint32_t samples;
	double min_ns, median_ns, p90_ns;
};

/*
 * What a followed thread did on its own, and the gaps too short to record (--pid/--tid;
 * counted by the probes that follow it, bpf/follow.bpf.c).
 */
struct js_thread_stats {
	uint64_t syscalls, syscall_ns;	      /* its system calls: count, time inside them */
	uint64_t sleeps, sleep_ns;	      /* it blocked inside a system call (its own) */
	uint64_t yields;		      /* switched out by its own sched_yield() */
	uint64_t preempted, preempted_ns;     /* every preemption, the short ones included */
	uint64_t interrupted, interrupted_ns; /* every interruption while it was current */
	uint64_t own_bh, own_bh_ns;	      /* softirqs it ran itself (own work, no gap) */
	uint64_t blocked, blocked_ns;	      /* blocked outside a system call */
	uint64_t faults;		      /* page faults it took */
	uint64_t migrations;		      /* moves to another CPU */
	uint64_t unseen_switches;	      /* its switches the kernel did not trace */
	uint64_t short_gaps, short_ns;	      /* gaps below the threshold: counted only */
	uint64_t cpus_mask;		      /* the CPUs (0-63) it ran on */
	bool exited;			      /* it exited during the run, at exit_ns */
	uint64_t exit_ns;
	bool syscalls_traced; /* syscalls, syscall_ns counted (--follow-syscalls) */
};

struct js_cpu_result {
	int cpu;		   /* the CPU measured (a sampler), the marks were filed on
	                               * (marks), where a thread lost the most time (thread) */
	enum js_source source;	   /* where its gaps come from */
	uint32_t tid;		   /* a thread's: its tid */
	char name[JS_LABEL_LEN];   /* a thread's "comm:tid" */
	struct js_thread_stats ts; /* a thread's own activity */
	bool started;		   /* result_cpu_start done: the models are fed */
	int node;
	uint64_t start_ns, end_ns; /* measured window, CLOCK_MONOTONIC */
	uint64_t done_ns;	   /* during the run: every gap before it is accounted */
	uint64_t iterations;
	double loop_ns_min, loop_ns_median, loop_ns_mean;
	struct js_exit_cost vm_exit; /* in a guest: one VM exit, measured on this CPU */
	struct js_host_moves host;   /* the host's readings on this CPU (the probes') */
	uint64_t gap_count;
	uint64_t lost_ns;
	uint64_t dropped;	    /* gaps lost to a full sampler ring */
	uint64_t events;	    /* probe events on this CPU that overlapped a gap */
	uint64_t steal_ns;	    /* steal allocated to gaps */
	uint64_t smi;		    /* SMI count delta (when countable) */
	struct js_causes causes;    /* per cause class and source; gaps per primary cause */
	struct js_causes by_cgroup; /* the task-named sources per (class, cgroup) (--by cgroup) */
	const struct js_cgroups *cgroups; /* the run's cgroup table (names), NULL: none */
	struct js_cause_buckets cb;	  /* 1-2-5 histogram split by primary cause */
	struct js_hist hist;		  /* gap durations, ns */
	struct js_topn top;		  /* the worst gaps (js_gap_rec), result_top_init */
	struct js_arrival arrivals[JS_MAX_ARRIVALS];
	size_t narrivals;
	/* burst exposure per arrival interval and gap size (empirical, streamed) */
	struct js_burst bursts[JS_MAX_ARRIVALS][JS_BURST_SIZES];
	double burst_p[JS_MAX_ARRIVALS][JS_BURST_SIZES]; /* empirical probability */
	struct js_intervals intervals;			 /* per-second max and p99.9 */
	struct js_period_classes period; /* periodicity of the unexplained gaps, by duration */
	bool host_periodic;		 /* the probes ran: periodic gaps with no guest event
	                                  * are the host's (js_host.h) */
	struct js_entry entry;		 /* the interruptions' entry/exit: bounds learned so far */
	struct audit_tie ties[AUDIT_TIES_MAX]; /* the audit's findings its causes tie to */
	size_t nties;
};

struct js_machine {
	char kernel[160];
	char hostname[72];
	char cpu_model[64];
	double tsc_hz;
	/* arm64: the counter (cntvct_el0), its stated frequency (cntfrq_el0) and the step
	 * measured at start, in counts (the detection floor); counter_step 0 on x86-64 */
	char counter_name[16];
	double counter_nominal_hz;
	uint64_t counter_step;
	bool hypervisor;
	bool invariant_tsc;
	int online_cpus;
	uint8_t steal; /* enum js_steal: does the kernel count the host's steal at all */
};

/* Whether the machine's kernel counts hypervisor steal (/proc/stat's steal column). */
enum js_steal {
	JS_STEAL_UNKNOWN = 0, /* not read (a run saved before it was recorded) */
	JS_STEAL_NONE,	      /* never moved since boot: no hypervisor, or one that reports no
	                       * steal (KVM without its steal-time feature) */
	JS_STEAL_COUNTED,     /* the kernel has counted steal */
};

#define JS_PROBE_PROGS_MAX 64
#define JS_STOP_WHY_LEN 320

/* What ended the run (the JSON's ended_by; names: js_end_name()). */
enum js_end {
	JS_END_UNKNOWN = 0, /* not recorded (a run saved before issue 41) */
	JS_END_DURATION,    /* --duration elapsed */
	JS_END_EXIT,	    /* the followed process or threads, or -- CMD, exited */
	JS_END_SIGNAL,	    /* SIGINT or SIGTERM */
	JS_END_OUTPUT,	    /* an output's write failed */
	JS_END_ON_SPIKE,    /* the --on-spike command exited JS_ON_SPIKE_END_STATUS */
	JS_END_MAX
};

/* js_end_name - "duration", "exit", "signal", "output", "on-spike"; NULL for unknown */
const char *js_end_name(enum js_end e);
/* js_end_from_name - the enum js_end of a name, -1 if none */
int js_end_from_name(const char *name);

/* One probe program's kernel run-time statistics (bpf_stats), over the whole attach. */
struct js_probe_prog {
	char name[64];	 /* a program's tracepoint, an --event's "SUBSYS:NAME" */
	uint64_t runs;	 /* invocations on every CPU (filtered ones included) */
	uint64_t run_ns; /* their total run time */
};

struct js_ksyms;

/* the followed threads that get a result of their own; later ones share "(other threads)" */
#define JS_THREADS_MAX 64
/* how long events are kept for the marks and the threads' gaps, which arrive after they end */
#define JS_MARKS_KEEP_S 2
#define JS_MARKS_BAD_MAX 4

/* --pid/--tid: what jitterscope followed (JSON "follow") */
struct js_follow_info {
	bool on;
	int pid;		      /* --pid: the process (every thread), 0: --tid */
	int tids[JS_FOLLOW_TIDS_MAX]; /* --tid: the threads */
	size_t ntids;
	char comm[16]; /* the process's (--pid) or the first thread's name */
	bool exited;   /* the process (or every thread) exited: the run ended */
	uint64_t exit_ns;
	uint64_t threads_seen;	 /* threads followed (started during the run included) */
	uint64_t threads_over;	 /* beyond the results' cap: in the "(other threads)" one */
	uint64_t unwatched_gaps; /* gaps on a CPU whose events were not recorded */
	uint64_t lost;		 /* records the follow ring could not take */
};

/* -- CMD: the command the run started and lasted as long as (JSON "command") */
#define JS_CMD_LINE 256
struct js_cmd_info {
	bool on;
	char line[JS_CMD_LINE]; /* its arguments joined by spaces (cut to fit) */
	int pid;
	bool followed;	   /* its threads and children followed (else the CPUs measured) */
	bool exited;	   /* it exited while measuring: the run ended there */
	int exit_status;   /* its status as a shell gives it (128 + N: killed by signal N);
	                     * -1 when it still ran as the run ended */
	int signal;	   /* the signal that killed it, 0: it exited */
	uint64_t start_ns; /* CLOCK_MONOTONIC: released (exec'd) */
	uint64_t exit_ns;  /* when its exit was seen (0: it had not exited) */
};

/* One malformed line of the marks file, for the report */
struct js_mark_bad {
	uint64_t line;
	char why[80];
};

/* --marks: what was read (JSON "marks_file") */
struct js_marks_info {
	bool on;
	char path[256];
	bool fifo;
	uint64_t lines;	    /* lines read (blank and comment lines included) */
	uint64_t marks;	    /* well-formed marks: every one is a recorded gap */
	uint64_t malformed; /* lines that are not a mark (js_mark_bad: the first) */
	uint64_t late;	    /* marks read after the event window let their start go
	                               * (js_drain.h): their causes may be gone */
	uint64_t early;	    /* marks that ended before the probes were attached */
	uint64_t truncated; /* the file shrank: read again from its start */
	struct js_mark_bad bad[JS_MARKS_BAD_MAX];
	size_t nbad;
};

struct js_run {
	struct js_run_cfg cfg;	    /* what it was asked to do */
	struct js_ksyms *ksyms;	    /* kernel symbols (loaded once, with the probes), or NULL */
	struct js_cgroups *cgroups; /* cgroup v2 ids the parts carry -> paths, names (opened
	                               * with the probes, or a saved run's), or NULL */
	struct js_machine machine;
	struct tsc_fit fit;
	uint64_t start_mono_ns;		/* when sampling started */
	double start_epoch_s;		/* the same instant, wall clock */
	uint64_t wall_ns;		/* run length as measured by CLOCK_MONOTONIC */
	uint64_t done_ns;		/* during the run: gaps accounted up to here (the
	                               * outputs' "now"; wall_ns is 0 until the end) */
	bool interrupted;		/* Ctrl-C / SIGTERM, a failed output or the --on-spike
	                               * command ended it early */
	char stop_why[JS_STOP_WHY_LEN]; /* why, when not a stop signal: the failed output */
	enum js_end ended_by;		/* what ended it */
	/* during the run: the --on-spike command asked the run to end (why; out_spike.c),
	 * which the pipeline then does */
	char end_asked[JS_STOP_WHY_LEN];
	bool probes_on;
	char probes_why[256]; /* why the probes are off */
	bool probes_waker;    /* who woke a preempting task was tracked (not --no-waker) */
	bool probes_stacks;   /* --stacks: kernel stacks were taken */
	uint64_t stack_full;  /* ... not kept in the probes' map: full for them */
	uint64_t stack_fail;  /* ... not taken (no stack) */
	bool smi_countable;
	char smi_why[128];
	uint64_t probe_events, probe_lost;
	uint64_t probe_events_kind[JS_EV_KIND_MAX]; /* of probe_events, by enum js_ev_kind */
	uint64_t probe_evicted; /* events dropped from a full attribution window (pipeline) */
	uint64_t probe_shed;	/* ... of them other tasks' page faults, which hold no time */
	uint64_t probe_unseen;	/* switches whose outgoing task was not seen switching in */
	bool probe_cost_known;	/* kernel bpf_stats gave the programs' run times */
	uint64_t probe_runs, probe_run_ns;		      /* all programs, all CPUs */
	uint64_t probe_attached_ns;			      /* how long they were attached */
	struct js_probe_prog probe_progs[JS_PROBE_PROGS_MAX]; /* largest run_ns first */
	size_t nprobe_progs;
	uint64_t hook_actions;	   /* --test-hook fault: pages zapped (faults expected) */
	uint64_t hook_huge_kb_arm; /* --test-hook thp: the hook regions' AnonHugePages when armed */
	uint64_t hook_huge_kb_end; /* ... and when the samplers ended (growth: collapses) */
	struct js_clockcost clock; /* read costs of the clocks, measured at start */
	bool audited;
	struct js_audit audit; /* the isolation audit, run at start */
	bool have_deltas;
	struct audit_deltas deltas;	/* interrupt/softirq counts of the measured CPUs */
	char (*xcheck)[AUDIT_LINE_LEN]; /* observed causes tied to settings */
	size_t nxcheck;
	bool tied; /* the results' ties were made (audit_ties) or loaded: the answer's fix first
		    * is the finding whose causes lost the most, else the most severe */
	uint64_t budget_viol[JS_BUDGET_MAX]; /* --budget: violations per limit (budget_count) */
	struct js_spike_stats spikes;	     /* the flight recorder (--spike-dir), out_spike.c's */
	struct js_stacks stacks;	     /* --stacks: those the worst gaps, spikes name */
	struct js_cpu_result *cpus; /* every result: the samplers' per measured CPU, then those
	                               * of the threads and marks as they appear */
	size_t ncpus;
	size_t cap;		      /* cpus allocated (run_add_result) */
	struct js_follow_info follow; /* --pid/--tid: what was followed */
	struct js_marks_info marks;   /* --marks: what was read */
	struct js_cmd_info command;   /* -- CMD: what ran */
	struct idle_states idle;      /* --deepest-idle-state: the states disabled, given back */
	char idle_why[256];	      /* ... why none could be disabled ("": none to be) */
};

/* run_add_result - a new result at the end of run->cpus (which may move: hold indexes, not
 * pointers, across calls), its histogram and top list allocated (result_cpu_init); its index,
 * or -ENOMEM */
int run_add_result(struct js_run *run, enum js_source src, int cpu, unsigned top);
/* run_count - the results of source src */
size_t run_count(const struct js_run *run, enum js_source src);
/* run_ran_on - add to set the CPUs the followed threads ran on (their results' cpus_mask);
 * the number of CPUs that were not in set yet */
int run_ran_on(const struct js_run *run, struct js_cpuset *set);

/* the JSON array holding each source's results: "cpus" (the samplers'), "threads", "marks" */
extern const char *const js_result_array[JS_SRC_MAX];

/* result_cpu_init - allocate a CPU's histogram and top list (a sampler's result); -ENOMEM */
int result_cpu_init(struct js_cpu_result *r, int cpu, unsigned top);
/* result_label - how the report names a result: "CPU 1", "thread app:1234", "marks on CPU
 * 1" (into buf, returned) */
const char *result_label(const struct js_cpu_result *r, char *buf, size_t len);
/* result_key - how hlog tags and trace names a result: "cpu1", "tid1234", "mark1" */
const char *result_key(const struct js_cpu_result *r, char *buf, size_t len);
/* result_top_init - an empty worst list of room for cap gaps (result_cpu_init's); it is
 * a min-heap on duration, so a sorted ascending array is one too; 0 or -ENOMEM */
int result_top_init(struct js_topn *t, size_t cap);
/* result_cpu_free - release it (accepts a zeroed struct) */
void result_cpu_free(struct js_cpu_result *r);
/* result_cpu_start - the sampler measures from start_ns: set up the per-second, arrival
 * and burst models cfg asks for (fed by result_add_gap from now on); 0 or -ENOMEM (the
 * models that could not be set up stay empty) */
int result_cpu_start(struct js_cpu_result *r, uint64_t start_ns, const struct js_run_cfg *cfg);
/* result_prefetch_gap - a gap of dur_ns that result_add_gap() will add: its histograms'
 * slots brought toward the cache (hist_prefetch); nothing of r changes */
void result_prefetch_gap(const struct js_cpu_result *r, uint64_t dur_ns);
/* result_add_gap - account one attributed gap (totals, histograms, top list, models), its
 * unexplained time first given to the host class its evidence names (host_name(): g
 * changes, before any output shows it) */
void result_add_gap(struct js_cpu_result *r, struct js_gap_rec *g);

/* What a CPU's measurement ended with (result_cpu_finish). */
struct js_cpu_end {
	uint64_t end_ns;     /* CLOCK_MONOTONIC */
	uint64_t iterations; /* loop iterations while measuring */
	uint64_t dropped;    /* gaps lost to a full ring */
	uint64_t smi;	     /* SMI counter delta (0: none, or not countable) */
};

/* result_cpu_finish - close the window and the models, and keep the SMI count; its
 * allocation to the worst gaps (corr_smi_allocate) is attribution's, the caller's */
void result_cpu_finish(struct js_cpu_result *r, const struct js_cpu_end *e);
/* run_sym - the kernel function at addr (run->ksyms), NULL when unknown */
const char *run_sym(const struct js_run *run, uint64_t addr);
/* run_free - release what a run holds (results, audit, deltas, symbols, cgroups); zeroes it */
void run_free(struct js_run *run);

/* result_top_sorted - the worst gaps, largest first, into @out (cap r->top.n) */
unsigned result_top_sorted(const struct js_cpu_result *r, struct js_gap_rec *out);
/* result_window_ns - the measured window: to end_ns, or during the run to done_ns */
uint64_t result_window_ns(const struct js_cpu_result *r);
/* what the report and `check` say of a guest whose kernel never counted steal, and of a
 * machine that is none */
#define JS_STEAL_NOT_REPORTED "not reported by this hypervisor"
#define JS_STEAL_NOT_VM "none: not a virtual machine"

/* result_no_steal - why r shows no steal figure: "not reported by this hypervisor" (a guest
 * whose kernel never counted steal), "none: not a virtual machine"; NULL when its steal
 * allocated to gaps is the figure to show (the kernel counts steal, or it is not known) */
const char *result_no_steal(const struct js_run *run, const struct js_cpu_result *r);

/* result_lost_pct - share of the measured window (so far) lost to gaps, in % */
double result_lost_pct(const struct js_cpu_result *r);
/* lost_pct - lost_ns as a share of window_ns, in % (0 for an empty window) */
double lost_pct(uint64_t lost_ns, uint64_t window_ns);

#endif /* JS_RESULT_H */
