/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_params.h - everything the command line decides (filled by cli.c, no side effects). */
#ifndef JS_PARAMS_H
#define JS_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_budget.h"
#include "js_run_cfg.h"

enum js_cmd {
	JS_CMD_MEASURE = 0,
	JS_CMD_CHECK,  /* jitterscope check: the isolation audit alone */
	JS_CMD_REPORT, /* jitterscope report RUN.json */
	JS_CMD_DIFF,   /* jitterscope diff A.json B.json */
	JS_CMD_MAX
};

/* the commands an option is for (cli.c's table, js_output_kinds[]): a mask of 1 << JS_CMD_* */
#define CMDS_MEASURE (1u << JS_CMD_MEASURE)
#define CMDS_CHECK (1u << JS_CMD_CHECK)
#define CMDS_REPORT (1u << JS_CMD_REPORT)
#define CMDS_DIFF (1u << JS_CMD_DIFF)

#define JS_DEFAULT_DURATION_NS (10ull * 1000000000ull)
#define JS_DEFAULT_THRESHOLD_NS 1000ull
#define JS_DEFAULT_TOP 10
#define JS_DEFAULT_RING (1u << 16) /* gaps per CPU ring: 1 MiB, 0.6 s at 100k gaps/s */
#define JS_DEFAULT_HLOG_INTERVAL_NS 1000000000ull
#define JS_DEFAULT_TRACE_EVENTS 200000
#define JS_DEFAULT_BUDGET_INTERVAL_NS (60ull * 1000000000ull)
#define JS_DEFAULT_ALPHA 0.01	       /* diff: significance level */
#define JS_DEFAULT_MIN_CHANGE_PCT 10.0 /* diff: smallest relative change that counts */
#define JS_WAIVE_ARGS_MAX 32	       /* check --waive options */
#define JS_DMA_LATENCY_MAX 2000000000  /* --dma-latency: the kernel's "no constraint" */
#define JS_GAPS_FILES_MAX 10000	       /* --gaps-max-files: FILE.1 .. FILE.N kept */
#define JS_DEEPEST_IDLE_MAX 1000       /* --deepest-idle-state: far above CPUIDLE_STATE_MAX */

struct js_params {
	enum js_cmd cmd;
	struct js_run_cfg cfg; /* what the run records of its parameters */
	bool cpus_isolated;    /* --cpu isolated: the isolated CPUs (cpus_default()), ncpus 0 */
	size_t ring_entries;
	bool no_progress;
	bool probe_cost;	  /* --probe-cost: time the probes' programs (kernel bpf_stats) */
	bool no_waker;		  /* --no-waker: do not track who woke a preempting task */
	unsigned drain_threads;	  /* --drain-threads N, 0: auto (scale_split) */
	bool stacks;		  /* --stacks: kernel stacks of the worst gaps' preemptor and
				   * its waker (not the waker's with --no-waker) */
	bool probes_given;	  /* --probes given (cfg.probes_lean: which) */
	const char *btf_path;	  /* --btf FILE: the kernel's types (js_kbtf.h) */
	const char *probe_toggle; /* --probe-toggle FILE: the bench's observer (js_probe_toggle.h) */
	bool quiet;
	int verbose;
	bool help;	       /* --help/--usage/--version printed: exit 0 */
	bool top_given;	       /* -n given (report: else the saved run's) */
	const char *json_path; /* "-" = stdout */
	const char *gaps_path;
	uint64_t gaps_max_bytes; /* --gaps-max-size: rotate the CSV past this; 0 = never */
	unsigned gaps_max_files; /* --gaps-max-files: full files kept (FILE.1..N); 0 = 1 */
	const char *hlog_path;	 /* HdrHistogram interval log */
	uint64_t hlog_interval_ns;
	const char *hgrm_path;	 /* HdrHistogram percentile distribution */
	const char *folded_path; /* folded stacks of the time lost (flame graph) */
	const char *trace_path;	 /* Chrome trace JSON (Perfetto) */
	unsigned trace_max_events;
	const char *prom_path;	   /* Prometheus text exposition */
	uint64_t prom_interval_ns; /* --prom-interval: rewritten this often; 0 = at the end */
	const char *listen;	   /* --listen ADDR:PORT: /metrics and /healthz over HTTP */
	const char *html_path;	   /* self-contained HTML page */
	int follow_pid;		   /* --pid: follow every thread of this process (no spinner) */
	bool follow_syscalls;	   /* --follow-syscalls: trace its system calls per call */
	int follow_tids[JS_FOLLOW_TIDS_MAX]; /* --tid: follow these threads */
	size_t nfollow_tids;
	const char *marks_path; /* --marks: the application's slow intervals, as they come */
	char **run_argv;	/* -- CMD [ARGS...] (NULL-terminated): started once the probes are
			     * attached, the run ends when it exits (its status, js_spawn.h) */
	bool follow_cmd;	/* -- CMD without --cpu: its threads and children followed as
			     * --pid's (follow_pid is its id once started) */
	bool duration_given;	/* -d given (not with -- CMD: the command's life is the run's) */
	const char *spike_dir;	/* the flight recorder (js_spike.h): its directory, */
	uint64_t spike_threshold_ns;  /* the gaps it keeps (both or neither given), */
	unsigned spike_max;	      /* at most this many a minute, */
	unsigned spike_per_source;    /* of one source at most this many, */
	uint64_t spike_dir_max;	      /* in at most this many bytes */
	const char *on_spike;	      /* --on-spike CMD: run for each spike written (js_spike.h) */
	uint64_t on_spike_timeout_ns; /* --on-spike-timeout: then SIGKILL */
	const char *on_end;	      /* --on-end CMD: run once after the report (js_on_end.h) */
	uint64_t on_end_timeout_ns;   /* --on-end-timeout: then SIGKILL */
	struct js_budget budget; /* --budget SPEC, parsed (n == 0: none; checked after the run) */
	uint64_t budget_interval_ns; /* --budget-interval (--duration 0 only); 0 = not given:
	                                 * JS_DEFAULT_BUDGET_INTERVAL_NS */
	const char *sysroot;
	const char *waive[JS_WAIVE_ARGS_MAX]; /* check --waive ID[,ID...], as given (ids known) */
	size_t nwaive;
	const char *waive_file; /* check --waive-file FILE */
	int audit_fail_on;	/* check --fail-on SEVERITY (enum audit_severity); -1: not given */
	bool plan;		/* check --plan: the plan that isolates the CPUs, not the audit */
	int dma_latency_us;	/* --dma-latency US: /dev/cpu_dma_latency held; -1: not given */
	const char *inputs[2];	/* report/diff JSON files */
	size_t ninputs;
	double alpha;	       /* diff --alpha */
	double min_change_pct; /* diff --min-change */
	bool fail_on_worse;    /* diff --fail-on worse: exit 2 on a worse change */
};

/* params_follows - does this measurement follow threads (--pid, --tid, -- CMD without --cpu) */
static inline bool params_follows(const struct js_params *p)
{
	return p->follow_pid || p->nfollow_tids || p->follow_cmd;
}

/* params_spinner - does this measurement run samplers (not --pid/--tid/--marks, nor a
 * command followed) */
static inline bool params_spinner(const struct js_params *p)
{
	return !params_follows(p) && !p->marks_path;
}

/* params_budget_intervals - is --budget judged per --budget-interval (a run without end:
 * --duration 0 without -- CMD) rather than once, over the whole run */
static inline bool params_budget_intervals(const struct js_params *p)
{
	return p->budget.n && !p->cfg.duration_ns && !p->run_argv;
}

/* cli_parse - parse argv into @p; 0 ok, -EINVAL after a one-line message on stderr */
int cli_parse(int argc, char **argv, struct js_params *p);
/* cli_completion_bash - the bash completion script, from the option table */
void cli_completion_bash(FILE *fp);
/* cli_list_options - every visible option, a line each: "COMMAND --LONG[ -S][ ARG]"
 * (COMMAND: measure, check, report, diff), for the man page's check */
void cli_list_options(FILE *fp);

/* One command: `jitterscope NAME ARGS...`; js_commands[] (commands.c) has them all. */
struct js_command {
	const char *name;		 /* the word after "jitterscope"; NULL: measure (none) */
	const char *args;		 /* its arguments, for --help */
	int (*run)(struct js_params *p); /* the exit status (js_util.h) */
};

extern const struct js_command js_commands[JS_CMD_MAX];

#endif /* JS_PARAMS_H */
