/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_params.h - everything the command line decides (filled by cli.c, no side effects). */
#ifndef JS_PARAMS_H
#define JS_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_CPUS_MAX 1024        /* = JS_MAX_CPUS of js_events.h */

enum js_cmd {
	JS_CMD_MEASURE = 0,
	JS_CMD_CHECK,       /* jitterscope check: the isolation audit alone */
	JS_CMD_REPORT,      /* jitterscope report RUN.json */
	JS_CMD_DIFF,        /* jitterscope diff A.json B.json */
};

#define JS_DEFAULT_DURATION_NS  (10ull * 1000000000ull)
#define JS_DEFAULT_THRESHOLD_NS 1000ull
#define JS_DEFAULT_TOP          10
#define JS_DEFAULT_RING         (1u << 16)    /* gaps per CPU ring: 1 MiB, 0.6 s at 100k gaps/s */
#define JS_MAX_ARRIVALS         8
#define JS_DEFAULT_HLOG_INTERVAL_NS 1000000000ull
#define JS_DEFAULT_TRACE_EVENTS 200000
#define JS_DEFAULT_ALPHA        0.01    /* diff: significance level */
#define JS_DEFAULT_MIN_CHANGE_PCT 10.0  /* diff: smallest relative change that counts */

struct js_params {
	enum js_cmd cmd;
	int cpus[JS_CPUS_MAX];
	size_t ncpus;           /* 0 = default (isolated CPUs, else the last online) */
	int hk[JS_CPUS_MAX];
	size_t nhk;             /* 0 = default (allowed CPUs minus measured) */
	uint64_t duration_ns;   /* 0 = until Ctrl-C */
	bool duration_set;
	uint64_t threshold_ns;
	uint64_t warmup_ns;
	int policy, priority;   /* -P */
	unsigned top;           /* worst gaps listed */
	size_t ring_entries;
	bool no_probes;
	int test_hook;          /* enum sampler_hook: test-only self-interference */
	bool lfence;
	bool no_progress;
	bool quiet;
	int verbose;
	bool help;              /* --help/--usage/--version printed: exit 0 */
	const char *json_path;  /* "-" = stdout */
	const char *gaps_path;
	const char *hlog_path;  /* HdrHistogram interval log */
	uint64_t hlog_interval_ns;
	const char *hgrm_path;  /* HdrHistogram percentile distribution */
	const char *trace_path; /* Chrome trace JSON (Perfetto) */
	unsigned trace_max_events;
	const char *prom_path;  /* Prometheus text exposition */
	const char *html_path;  /* self-contained HTML page */
	const char *budget;     /* --budget SPEC (checked after the run: exit 2) */
	const char *sysroot;
	const char *inputs[2];  /* report/diff JSON files */
	size_t ninputs;
	uint64_t arrival_ns[JS_MAX_ARRIVALS];
	size_t narrivals;
	uint64_t burst;
	double alpha;           /* diff --alpha */
	double min_change_pct;  /* diff --min-change */
	bool fail_on_worse;     /* diff --fail-on worse: exit 2 on a worse change */
	bool diff_opts;         /* one of the three was given */
};

/* cli_parse - parse argv into @p; 0 ok, -EINVAL after a one-line message on stderr */
int cli_parse(int argc, char **argv, struct js_params *p);

#endif /* JS_PARAMS_H */
