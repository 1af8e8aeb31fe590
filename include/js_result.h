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
#include "js_audit.h"
#include "js_causes.h"
#include "js_cgroup.h"
#include "js_clockcost.h"
#include "js_entry.h"
#include "js_intervals.h"
#include "js_period.h"
#include "js_hist.h"
#include "js_model.h"
#include "js_run_cfg.h"
#include "js_spike.h"
#include "js_topn.h"
#include "js_tsc.h"

/* the JSON documents' schema_version (docs/JSON.md; CHANGELOG.md says what each changed) */
#define JS_SCHEMA_VERSION 2
#define JS_SCHEMA_VERSION_MIN 1 /* the oldest a run is still loaded from (report_load.c) */

/* Percentiles every report shows (text, JSON, diff, HTML; the loader reads them back). */
struct js_pct {
	double p;
	const char *key;    /* "p99_ns" */
	const char *label;  /* "p99" */
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

struct js_cpu_result {
	int cpu;
	bool started;                 /* result_cpu_start done: the models are fed */
	int node;
	uint64_t start_ns, end_ns;    /* measured window, CLOCK_MONOTONIC */
	uint64_t iterations;
	double loop_ns_min, loop_ns_median, loop_ns_mean;
	struct js_exit_cost vm_exit;  /* in a guest: one VM exit, measured on this CPU */
	uint64_t gap_count;
	uint64_t lost_ns;
	uint64_t dropped;             /* gaps lost to a full sampler ring */
	uint64_t events;              /* probe events on this CPU that overlapped a gap */
	uint64_t steal_ns;            /* steal allocated to gaps */
	uint64_t smi;                 /* SMI count delta (when countable) */
	struct js_causes causes;      /* per cause class and source; gaps per primary cause */
	struct js_causes by_cgroup;   /* the task-named sources per (class, cgroup) (--by cgroup) */
	const struct js_cgroups *cgroups; /* the run's cgroup table (names), NULL: none */
	struct js_cause_buckets cb;   /* 1-2-5 histogram split by primary cause */
	struct js_hist hist;          /* gap durations, ns */
	struct js_topn top;           /* the worst gaps (js_gap_rec), result_top_init */
	struct js_arrival arrivals[JS_MAX_ARRIVALS];
	size_t narrivals;
	/* burst exposure per arrival interval and gap size (empirical, streamed) */
	struct js_burst bursts[JS_MAX_ARRIVALS][JS_BURST_SIZES];
	double burst_p[JS_MAX_ARRIVALS][JS_BURST_SIZES];   /* empirical probability */
	struct js_intervals intervals;   /* per-second max and p99.9 */
	struct js_period_classes period;  /* periodicity of the unexplained gaps, by duration */
	struct js_entry entry;        /* the interruptions' entry/exit: bounds learned so far */
};


struct js_machine {
	char kernel[160];
	char hostname[72];
	char cpu_model[64];
	double tsc_hz;
	bool hypervisor;
	bool invariant_tsc;
	int online_cpus;
};

#define JS_PROBE_PROGS_MAX 64
#define JS_STOP_WHY_LEN 320

/* One probe program's kernel run-time statistics (bpf_stats), over the whole attach. */
struct js_probe_prog {
	char name[48];
	uint64_t runs;                /* invocations on every CPU (filtered ones included) */
	uint64_t run_ns;              /* their total run time */
};

struct js_ksyms;

struct js_run {
	struct js_run_cfg cfg;        /* what it was asked to do */
	struct js_ksyms *ksyms;       /* kernel symbols (loaded once, with the probes), or NULL */
	struct js_cgroups *cgroups;   /* cgroup v2 ids the parts carry -> paths, names (opened
	                               * with the probes, or a saved run's), or NULL */
	struct js_machine machine;
	struct tsc_fit fit;
	uint64_t start_mono_ns;       /* when sampling started */
	double start_epoch_s;         /* the same instant, wall clock */
	uint64_t wall_ns;             /* run length as measured by CLOCK_MONOTONIC */
	bool interrupted;             /* Ctrl-C / SIGTERM or a failed output ended it early */
	char stop_why[JS_STOP_WHY_LEN];   /* why, when not a stop signal: the failed output */
	bool probes_on;
	char probes_why[256];         /* why the probes are off */
	bool smi_countable;
	char smi_why[128];
	uint64_t probe_events, probe_lost;
	uint64_t probe_evicted;       /* events dropped from a full attribution window (pipeline) */
	bool probe_cost_known;        /* kernel bpf_stats gave the programs' run times */
	uint64_t probe_runs, probe_run_ns;            /* all programs, all CPUs */
	uint64_t probe_attached_ns;   /* how long they were attached */
	struct js_probe_prog probe_progs[JS_PROBE_PROGS_MAX];   /* largest run_ns first */
	size_t nprobe_progs;
	uint64_t hook_actions;        /* --test-hook fault: pages zapped (faults expected) */
	uint64_t hook_huge_kb_arm;    /* --test-hook thp: the hook regions' AnonHugePages when armed */
	uint64_t hook_huge_kb_end;    /* ... and when the samplers ended (growth: collapses) */
	struct js_clockcost clock;    /* read costs of the clocks, measured at start */
	bool audited;
	struct js_audit audit;        /* the isolation audit, run at start */
	bool have_deltas;
	struct audit_deltas deltas;   /* interrupt/softirq counts of the measured CPUs */
	char (*xcheck)[AUDIT_LINE_LEN];   /* observed causes tied to settings */
	size_t nxcheck;
	struct js_spike_stats spikes; /* the flight recorder (--spike-dir), out_spike.c's */
	struct js_cpu_result *cpus;
	size_t ncpus;
};

/* result_cpu_init - allocate a CPU's histogram and top list; -ENOMEM */
int result_cpu_init(struct js_cpu_result *r, int cpu, unsigned top);
/* result_top_init - an empty worst list of room for cap gaps (result_cpu_init's); it is
 * a min-heap on duration, so a sorted ascending array is one too; 0 or -ENOMEM */
int result_top_init(struct js_topn *t, size_t cap);
/* result_cpu_free - release it (accepts a zeroed struct) */
void result_cpu_free(struct js_cpu_result *r);
/* result_cpu_start - the sampler measures from start_ns: set up the per-second, arrival
 * and burst models cfg asks for (fed by result_add_gap from now on); 0 or -ENOMEM (the
 * models that could not be set up stay empty) */
int result_cpu_start(struct js_cpu_result *r, uint64_t start_ns, const struct js_run_cfg *cfg);
/* result_add_gap - account one attributed gap (totals, histograms, top list, models) */
void result_add_gap(struct js_cpu_result *r, const struct js_gap_rec *g);

/* What a CPU's measurement ended with (result_cpu_finish). */
struct js_cpu_end {
	uint64_t end_ns;              /* CLOCK_MONOTONIC */
	uint64_t iterations;          /* loop iterations while measuring */
	uint64_t dropped;             /* gaps lost to a full ring */
	uint64_t smi;                 /* SMI counter delta (0: none, or not countable) */
};

/* result_cpu_finish - close the window and the models; the SMIs go to the worst gaps no
 * event explains */
void result_cpu_finish(struct js_cpu_result *r, const struct js_cpu_end *e);
/* run_sym - the kernel function at addr (run->ksyms), NULL when unknown */
const char *run_sym(const struct js_run *run, uint64_t addr);
/* run_free - release what a run holds (results, audit, deltas, symbols, cgroups); zeroes it */
void run_free(struct js_run *run);

/* result_top_sorted - the worst gaps, largest first, into @out (cap r->top.n) */
unsigned result_top_sorted(const struct js_cpu_result *r, struct js_gap_rec *out);
/* result_lost_pct - share of the measured window lost to gaps, in % */
double result_lost_pct(const struct js_cpu_result *r);

#endif /* JS_RESULT_H */
