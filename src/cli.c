// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cli.c - the command line (argp) into struct js_params. No side effects: it
 * reads no system state, so every rule here is unit-tested. Checks that need the
 * system are in preflight.c (CPUs online, allowed) and output.c (writable paths).
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_arrival.h"
#include "js_audit.h"
#include "js_budget.h"
#include "js_cpulist.h"
#include "js_listen.h"
#include "js_output.h"
#include "js_params.h"
#include "js_sampler.h"
#include "js_spike.h"
#include "js_units.h"
#include "js_util.h"

const char *argp_program_version = "jitterscope " JS_VERSION;
const char *argp_program_bug_address = NULL;

enum {
	OPT_WARMUP = 1000,
	OPT_NO_PROBES,
	OPT_RING,
	OPT_LFENCE,
	OPT_CLOCK,
	OPT_NO_PROGRESS,
	OPT_SYSROOT,
	OPT_HELP,
	OPT_USAGE,
	OPT_ARRIVAL,
	OPT_BURST,
	OPT_HLOG_INTERVAL,
	OPT_TRACE_MAX,
	OPT_BUDGET,
	OPT_TEST_HOOK,
	OPT_BY,
	OPT_ALPHA,
	OPT_MIN_CHANGE,
	OPT_FAIL_ON,
	OPT_GAPS_MAX,
	OPT_PROM_INTERVAL,
	OPT_LISTEN,
	OPT_PROBE_COST,
	OPT_PROBE_TOGGLE,
	OPT_BUDGET_INTERVAL,
	OPT_PID,
	OPT_TID,
	OPT_FOLLOW_SYSCALLS,
	OPT_MARKS,
	OPT_SPIKE_THRESHOLD,
	OPT_SPIKE_MAX,
	OPT_SPIKE_DIR_MAX,
	OPT_BTF,
	OPT_WAIVE,
	OPT_WAIVE_FILE,
	OPT_PLAN,
	OPT_DMA_LATENCY,
	OPT_OUTPUT = 2000, /* + index in js_output_kinds[]: --json, --gaps ... */
};

static const char doc[] =
	"Measure what steals a CPU from a spinning application, when and for how long.\n\n"
	"  jitterscope [OPTION...]                 measure (default: 10 s)\n"
	"  jitterscope check [--cpu LIST]          audit the isolation settings only\n"
	"  jitterscope report RUN.json             the report of a saved --json run\n"
	"  jitterscope diff A.json B.json          two runs side by side (before/after)\n\v"
	"TIME values: a number and a unit, ns, us (or \xc2\xb5s), ms, s, m, h or d, e.g. 500ns, "
	"1.5ms, 5m; a bare number is seconds (microseconds for -T; --budget and "
	"--arrival-interval need the unit).\n\nExamples:\n"
	"  jitterscope --cpu 1 --duration 10           measure CPU 1 for 10 s\n"
	"  jitterscope -c 2-3 -d 5m -T 500ns --json run.json --gaps gaps.csv\n"
	"  jitterscope check --cpu 3\n"
	"  jitterscope --pid $(pidof app) --marks spikes.csv   your application's spikes\n\n"
	"Exit status: 0 ok, 1 runtime error, 2 a --budget exceeded or (check) an audit "
	"check failed, 64 usage error (also a --pid or --tid that does not exist), 130 a "
	"second Ctrl-C.";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "What to measure:", 1 },
	{ "cpu", 'c', "LIST", 0,
	  "CPUs to measure, e.g. 3 or 1,3-5, or isolated (default: the isolated CPUs, by "
	  "isolcpus=, an isolated cpuset partition or nohz_full=, else the last online CPU)",
	  1 },
	{ "cpus", 'c', "LIST", OPTION_ALIAS, NULL, 1 },
	{ "duration", 'd', "TIME", 0,
	  "how long to measure: 60, 60s, 5m, 1h; 0 = until Ctrl-C (default 10s)", 1 },
	{ "threshold", 'T', "TIME", 0,
	  "smallest gap recorded (default 1us; e.g. 500ns; "
	  "auto: calibrated from the loop, raised if housekeeping could not keep up)",
	  1 },
	{ "warm-up", OPT_WARMUP, "TIME", 0, "spin this long before recording (default 0)", 1 },
	{ "priority", 'P', "o:0|f:PRIO|r:PRIO", 0,
	  "sampler scheduling (default o:0 = SCHED_OTHER; "
	  "a FIFO spinner is RT-throttled unless sched_rt_runtime_us is -1)",
	  1 },
	{ "house-keeping", 'H', "LIST", 0,
	  "CPUs for jitterscope's own threads (default: allowed CPUs minus measured ones)", 1 },
	{ "no-probes", OPT_NO_PROBES, NULL, 0, "sampler only: no eBPF attribution", 1 },
	{ "probe-cost", OPT_PROBE_COST, NULL, 0,
	  "time the probes' own BPF programs (kernel "
	  "bpf_stats: two clock reads per program run, on the measured CPUs too)",
	  1 },
	{ "btf", OPT_BTF, "FILE", 0,
	  "the kernel's types for the probes from FILE (raw BTF, or an ELF file's .BTF), for a "
	  "kernel without /sys/kernel/btf/vmlinux: they attach as raw tracepoints",
	  1 },
	{ NULL, 0, NULL, 0, "Your application's spikes (no spinner runs):", 1 },
	{ "pid", OPT_PID, "PID", 0,
	  "follow every thread of process PID (also those it starts): "
	  "its gaps are its preemptions, interruptions and blocking outside system calls",
	  1 },
	{ "tid", OPT_TID, "TID", 0, "follow thread TID (repeatable, or a list: 12,15)", 1 },
	{ "follow-syscalls", OPT_FOLLOW_SYSCALLS, NULL, 0,
	  "with --pid/--tid: count its system calls with sys_enter/sys_exit (costly: every "
	  "task's system calls then take the kernel's traced path)",
	  1 },
	{ "marks", OPT_MARKS, "FILE", 0,
	  "the application's slow intervals, a line each: "
	  "start_ns,end_ns[,label] (CLOCK_MONOTONIC), appended to FILE or written into a FIFO; "
	  "with --pid/--tid, or --cpu: the CPUs whose events explain them",
	  1 },
	{ "clock", OPT_CLOCK, "rdtscp|lfence|auto", 0,
	  "how the TSC is read (default auto: rdtscp where the CPU advertises it, else "
	  "lfence;rdtsc)",
	  1 },
	{ "lfence", OPT_LFENCE, NULL, 0, "--clock lfence", 1 },
	{ "ring-size", OPT_RING, "N", 0, "gap ring entries per CPU, a power of two (default 65536)",
	  1 },
	{ "arrival-interval", OPT_ARRIVAL, "LIST", 0,
	  "also report the delay of messages arriving every 1us,10us,...", 1 },
	{ "burst", OPT_BURST, "N", 0,
	  "with --arrival-interval: chance that N consecutive arrivals meet a gap", 1 },
	{ NULL, 0, NULL, 0, "Output:", 2 },
	/* then one FILE option per js_output_kinds[] entry (options_build) */
	{ "hlog-interval", OPT_HLOG_INTERVAL, "TIME", 0, "interval of --hlog (default 1s)", 2 },
	{ "gaps-max-size", OPT_GAPS_MAX, "SIZE", 0,
	  "--gaps files at most this large, e.g. 100MiB: then FILE.1 (default: no limit)", 2 },
	{ "prom-interval", OPT_PROM_INTERVAL, "TIME", 0,
	  "rewrite the --prom file this often (default: once, at the end)", 2 },
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0,
	  "serve /metrics (Prometheus) and /healthz over HTTP on this address, e.g. 127.0.0.1:9464",
	  2 },
	{ "trace-max-events", OPT_TRACE_MAX, "N", 0, "cap of --trace events (default 200000)", 2 },
	{ "spike-threshold", OPT_SPIKE_THRESHOLD, "TIME", 0,
	  "with --spike-dir: the gaps the flight recorder keeps (at or above TIME)", 2 },
	{ "spike-max", OPT_SPIKE_MAX, "N/min", 0, "at most N spike files a minute (default 10)",
	  2 },
	{ "spike-dir-max", OPT_SPIKE_DIR_MAX, "SIZE", 0,
	  "total size of the spike files (default 100MiB)", 2 },
	{ "budget", OPT_BUDGET, "SPEC", 0,
	  "e.g. max=50us,p99.9=5us,smi=0,irq=0,lost=0.1%: exit 2 if exceeded", 2 },
	{ "budget-interval", OPT_BUDGET_INTERVAL, "TIME", 0,
	  "with --duration 0: the --budget limits apply to each interval this long (default 1m)",
	  2 },
	{ "top", 'n', "N", 0, "worst gaps listed (default 10, max 1000)", 2 },
	{ "by", OPT_BY, "source|cgroup", 0,
	  "the cause table's sources: each source (default), "
	  "or merged per cgroup (container, pod, systemd unit)",
	  2 },
	{ "quiet", 'q', NULL, 0, "no progress line, no notices", 2 },
	{ "no-progress", OPT_NO_PROGRESS, NULL, 0, "no progress line on stderr", 2 },
	{ "verbose", 'v', NULL, 0, "debug messages (twice: libbpf's too)", 2 },
	{ "sysroot", OPT_SYSROOT, "DIR", 0, "audit: read /proc and /sys under DIR", 2 },
	{ "waive", OPT_WAIVE, "ID[,ID...]", 0,
	  "check: accept these checks (irq.* patterns too): shown as waived, never exit 2; "
	  "repeatable",
	  2 },
	{ "waive-file", OPT_WAIVE_FILE, "FILE", 0,
	  "check: the check ids of FILE, one a line ('#' comments)", 2 },
	{ "plan", OPT_PLAN, NULL, 0,
	  "check: one plan that isolates the CPUs: kernel command line (grubby, GRUB), "
	  "sysctl.d, runtime commands, tuned",
	  2 },
	{ "dma-latency", OPT_DMA_LATENCY, "US", 0,
	  "hold /dev/cpu_dma_latency at US microseconds while measuring (0: no deep C-state)", 1 },
	{ NULL, 0, NULL, 0, "Comparing two runs (diff):", 3 },
	{ "alpha", OPT_ALPHA, "P", 0, "significance level of a verdict (default 0.01)", 3 },
	{ "min-change", OPT_MIN_CHANGE, "PCT", 0, "smallest change that counts (default 10%)", 3 },
	{ "fail-on", OPT_FAIL_ON, "worse|SEV", 0,
	  "diff: exit 2 when a change is significantly worse; check: exit 2 for an unwaived "
	  "fail or warn of severity SEV (info, low, med, high, crit) or above",
	  3 },
	{ "probe-toggle", OPT_PROBE_TOGGLE, "FILE", OPTION_HIDDEN,
	  "bench only: detach and attach the probes again at random every 0.3-0.7 s while "
	  "measuring, each change logged to FILE (attached,start_ns,end_ns)",
	  1 },
	{ "test-hook", OPT_TEST_HOOK, "fault|thp|stall", OPTION_HIDDEN,
	  "test only: the sampler "
	  "faults on its own memory every 10 ms, reads a region khugepaged may collapse, or "
	  "stalls 250 us inside every gap",
	  1 },
	{ "help", OPT_HELP, NULL, 0, "give this help list", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "give a short usage message", -1 },
	{ "version", 'V', NULL, 0, "print the program version", -1 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

/* the options above plus one per output kind, before the terminating entry */
static struct argp_option all_options[ARRAY_SIZE(options) + JS_OUTPUTS_MAX];

static const struct argp_option *options_build(void)
{
	size_t n = ARRAY_SIZE(options) - 1;

	memcpy(all_options, options, n * sizeof(options[0]));
	for (size_t i = 0; i < js_noutput_kinds; i++)
		all_options[n++] = (struct argp_option){
			.name = js_output_kinds[i].opt,
			.key = OPT_OUTPUT + (int)i,
			.arg = js_output_kinds[i].arg ? js_output_kinds[i].arg : "FILE",
			.doc = js_output_kinds[i].doc,
			.group = 2, /* "Output:" */
		};
	memset(&all_options[n], 0, sizeof(all_options[n]));
	return all_options;
}

/* the TIME options: their name in messages, where the value goes, unit and range */
static const struct time_opt {
	int key;
	const char *name;
	size_t off;
	struct js_unit_spec spec;
} time_opts[] = {
	{ 'd',
	  "duration",
	  offsetof(struct js_params, cfg.duration_ns),
	  { JS_SEC, 0, JS_TIME_MAX, "0 = until Ctrl-C" } },
	{ 'T',
	  "threshold",
	  offsetof(struct js_params, cfg.threshold_ns),
	  { JS_US, 1, JS_TIME_MAX, NULL } },
	{ OPT_WARMUP,
	  "warm-up",
	  offsetof(struct js_params, cfg.warmup_ns),
	  { JS_SEC, 0, JS_TIME_MAX, NULL } },
	{ OPT_HLOG_INTERVAL,
	  "--hlog-interval",
	  offsetof(struct js_params, hlog_interval_ns),
	  { JS_SEC, JS_MS, JS_TIME_MAX, NULL } },
	{ OPT_PROM_INTERVAL,
	  "--prom-interval",
	  offsetof(struct js_params, prom_interval_ns),
	  { JS_SEC, 100 * JS_MS, JS_DAY, NULL } },
	{ OPT_BUDGET_INTERVAL,
	  "--budget-interval",
	  offsetof(struct js_params, budget_interval_ns),
	  { JS_SEC, JS_SEC, JS_DAY, NULL } },
	{ OPT_SPIKE_THRESHOLD,
	  "--spike-threshold",
	  offsetof(struct js_params, spike_threshold_ns),
	  { JS_US, 1, JS_TIME_MAX, NULL } },
};

/* parse_time_opt - a TIME option into its field; 0, ARGP_ERR_UNKNOWN, or EINVAL after argp_error */
static int parse_time_opt(int key, const char *arg, struct argp_state *state)
{
	char err[200];

	for (size_t i = 0; i < ARRAY_SIZE(time_opts); i++) {
		const struct time_opt *o = &time_opts[i];

		if (o->key != key)
			continue;
		if (js_parse_time(arg, &o->spec, (uint64_t *)((char *)state->input + o->off), err,
				  sizeof(err))) {
			argp_error(state, "invalid %s '%s': %s", o->name, arg, err);
			return EINVAL;
		}
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* path_opt - a path option's argument into *out; EINVAL after argp_error when empty */
static int path_opt(struct argp_state *state, const char *arg, const char *name, const char *what,
		    const char **out)
{
	if (!*arg) {
		argp_error(state, "invalid %s '' (%s)", name, what);
		return EINVAL;
	}
	*out = arg;
	return 0;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return *v > max ? -ERANGE : 0;
}

/* parse_number - "0.01", or with pct "10%" or "10" (percent): a number in [lo, hi] */
static int parse_number(const char *s, bool pct, double lo, double hi, double *v)
{
	char *end;

	if (!s || !*s || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	if (pct && *end == '%')
		end++;
	if (errno || *end || !(*v >= lo && *v <= hi))
		return -EINVAL;
	return 0;
}

/* parse_tids - --tid TID or TID,TID...: each a thread id, at most JS_FOLLOW_TIDS_MAX in all */
static int parse_tids(const char *arg, struct js_params *p, struct argp_state *state)
{
	char buf[256], *save = NULL, *t;
	unsigned long long v;

	if (strlen(arg) >= sizeof(buf) || !*arg) {
		argp_error(state, "invalid --tid '%s' (thread ids: 12 or 12,15)", arg);
		return EINVAL;
	}
	js_scpy(buf, sizeof(buf), arg);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (parse_uint(t, INT32_MAX, &v) || !v) {
			argp_error(state, "invalid --tid '%s' (thread ids: 12 or 12,15)", arg);
			return EINVAL;
		}
		if (p->nfollow_tids == JS_FOLLOW_TIDS_MAX) {
			argp_error(state, "too many --tid (at most %d threads)",
				   JS_FOLLOW_TIDS_MAX);
			return EINVAL;
		}
		p->follow_tids[p->nfollow_tids++] = (int)v;
	}
	return 0;
}

/* parse_waive - check --waive ID[,ID...]: every id one a check can take (js_audit.h) */
static int parse_waive(const char *arg, struct js_params *p, struct argp_state *state)
{
	struct audit_waivers w = { 0 };
	char err[200] = "";
	int ret = audit_waivers_add_list(&w, arg, err, sizeof(err));

	audit_waivers_free(&w);
	if (ret) {
		argp_error(state, "invalid --waive '%s': %s", arg, err);
		return EINVAL;
	}
	if (p->nwaive == JS_WAIVE_ARGS_MAX) {
		argp_error(state,
			   "too many --waive (at most %d: list ids with commas, or use "
			   "--waive-file)",
			   JS_WAIVE_ARGS_MAX);
		return EINVAL;
	}
	p->waive[p->nwaive++] = arg;
	return 0;
}

/* argp's own error stream: its "Try --help" hint is left out, so an error is one line */
static FILE *cli_errs;

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct js_params *p = state->input;
	unsigned long long v;
	char err[160];
	int ret;

	if (key == 'T') { /* a TIME, or auto (js_threshold.h); the last -T counts */
		p->cfg.threshold_auto = !strcmp(arg, "auto");
		if (p->cfg.threshold_auto) {
			p->cfg.threshold_ns = 0;
			return 0;
		}
	}
	ret = parse_time_opt(key, arg, state);
	if (ret != ARGP_ERR_UNKNOWN)
		return ret;
	switch (key) {
	case 'c':
	case 'H': {
		int *list = key == 'c' ? p->cfg.cpus : p->cfg.hk;
		size_t *n = key == 'c' ? &p->cfg.ncpus : &p->cfg.nhk;

		struct js_cpuset set;

		if (key == 'c') {
			p->cpus_isolated = !strcmp(arg, "isolated");
			if (p->cpus_isolated) {
				*n = 0; /* chosen before measuring: cpus_default() */
				break;
			}
		}
		ret = cpulist_parse(arg, &set, err, sizeof(err));
		if (ret) {
			argp_error(state, "invalid CPU list '%s' for --%s: %s", arg,
				   key == 'c' ? "cpu" : "house-keeping", err);
			return EINVAL;
		}
		*n = 0;
		for (int cpu = cpuset_next(&set, 0); cpu >= 0; cpu = cpuset_next(&set, cpu + 1))
			list[(*n)++] = cpu;
		break;
	}
	case 'P':
		if (sampler_parse_priority(arg, &p->cfg.policy, &p->cfg.priority)) {
			argp_error(state, "invalid priority '%s' (use o:0, f:1..99 or r:1..99)",
				   arg);
			return EINVAL;
		}
		break;
	case 'n':
		if (parse_uint(arg, 1000, &v)) {
			argp_error(state, "invalid --top '%s' (0..1000)", arg);
			return EINVAL;
		}
		p->cfg.top = (unsigned)v;
		break;
	case OPT_RING:
		if (parse_uint(arg, 1ull << 26, &v) || v < 1024 || (v & (v - 1))) {
			argp_error(state,
				   "invalid --ring-size '%s' (a power of two, 1024..67108864)",
				   arg);
			return EINVAL;
		}
		p->ring_entries = v;
		break;
	case OPT_ARRIVAL: {
		size_t n;

		if (arrival_parse_list(arg, p->cfg.arrival_ns, JS_MAX_ARRIVALS, &n, err,
				       sizeof(err))) {
			argp_error(state, "invalid --arrival-interval '%s': %s", arg, err);
			return EINVAL;
		}
		p->cfg.narrivals = n;
		break;
	}
	case OPT_BURST:
		if (arrival_parse_burst(arg, &p->cfg.burst, err, sizeof(err))) {
			argp_error(state, "invalid --burst '%s': %s", arg, err);
			return EINVAL;
		}
		break;
	case OPT_TRACE_MAX:
		if (parse_uint(arg, 10000000, &v) || v < 100) {
			argp_error(state, "invalid --trace-max-events '%s' (100..10000000)", arg);
			return EINVAL;
		}
		p->trace_max_events = (unsigned)v;
		break;
	case OPT_SPIKE_MAX: {
		size_t len = strcspn(arg, "/"); /* "10" or "10/min" */
		char num[24];

		snprintf(num, sizeof(num), "%.*s", (int)JS_MIN(len, sizeof(num) - 1), arg);
		if ((arg[len] && strcmp(arg + len, "/min")) || len >= sizeof(num) ||
		    parse_uint(num, JS_SPIKE_MAX_MAX, &v) || !v) {
			argp_error(state, "invalid --spike-max '%s' (1..%d a minute, e.g. 10/min)",
				   arg, JS_SPIKE_MAX_MAX);
			return EINVAL;
		}
		p->spike_max = (unsigned)v;
		break;
	}
	case OPT_SPIKE_DIR_MAX: {
		static const struct js_unit_spec spec = { JS_MIB, 1, JS_TIB, NULL };

		if (js_parse_size(arg, &spec, &p->spike_dir_max, err, sizeof(err))) {
			argp_error(state, "invalid --spike-dir-max '%s': %s", arg, err);
			return EINVAL;
		}
		break;
	}
	case OPT_TEST_HOOK:
		ret = sampler_hook_from_name(arg);
		if (ret <= SAMPLER_HOOK_NONE) {
			argp_error(state, "invalid --test-hook '%s' (fault, thp or stall)", arg);
			return EINVAL;
		}
		p->cfg.test_hook = ret;
		break;
	case OPT_BY:
		if (!strcmp(arg, "source") || !strcmp(arg, "cgroup")) {
			p->cfg.by = !strcmp(arg, "cgroup") ? JS_BY_CGROUP : JS_BY_SOURCE;
			break;
		}
		argp_error(state, "invalid --by '%s' (source or cgroup)", arg);
		return EINVAL;
	case OPT_ALPHA:
		if (parse_number(arg, false, 1e-12, 0.5, &p->alpha) || p->alpha >= 0.5) {
			argp_error(state,
				   "invalid --alpha '%s' (a probability, 0 < P < 0.5, e.g. 0.01)",
				   arg);
			return EINVAL;
		}
		p->diff_opts = true;
		break;
	case OPT_MIN_CHANGE:
		if (parse_number(arg, true, 0, 1000, &p->min_change_pct)) {
			argp_error(state,
				   "invalid --min-change '%s' (a percentage, 0..1000, e.g. 10%%)",
				   arg);
			return EINVAL;
		}
		p->diff_opts = true;
		break;
	case OPT_FAIL_ON:
		if (p->cmd == JS_CMD_CHECK) { /* check --fail-on SEVERITY */
			p->audit_fail_on = audit_severity_from_name(arg);
			if (p->audit_fail_on < 0) {
				argp_error(state,
					   "invalid --fail-on '%s' (info, low, med, high or "
					   "crit)",
					   arg);
				return EINVAL;
			}
			break;
		}
		if (strcmp(arg, "worse")) {
			argp_error(state, "invalid --fail-on '%s' (worse)", arg);
			return EINVAL;
		}
		p->fail_on_worse = true;
		p->diff_opts = true;
		break;
	case OPT_GAPS_MAX: {
		static const struct js_unit_spec spec = { 1, 64 * JS_KIB, JS_TIB, NULL };

		if (js_parse_size(arg, &spec, &p->gaps_max_bytes, err, sizeof(err))) {
			argp_error(state, "invalid --gaps-max-size '%s': %s", arg, err);
			return EINVAL;
		}
		break;
	}
	case OPT_LISTEN:
		if (listen_parse(arg, NULL, err, sizeof(err))) {
			argp_error(state, "invalid --listen '%s': %s", arg, err);
			return EINVAL;
		}
		p->listen = arg;
		break;
	case OPT_BUDGET:
		if (budget_parse(arg, &p->budget, err, sizeof(err))) {
			argp_error(state, "invalid --budget '%s': %s", arg, err);
			return EINVAL;
		}
		break;
	case OPT_PID:
		if (parse_uint(arg, INT32_MAX, &v) || !v) {
			argp_error(state, "invalid --pid '%s' (a process id)", arg);
			return EINVAL;
		}
		p->follow_pid = (int)v;
		break;
	case OPT_TID:
		return parse_tids(arg, p, state);
	case OPT_FOLLOW_SYSCALLS:
		p->follow_syscalls = true;
		break;
	case OPT_MARKS:
		return path_opt(state, arg, "--marks", "a file or FIFO", &p->marks_path);
	case OPT_WAIVE:
		return parse_waive(arg, p, state);
	case OPT_WAIVE_FILE:
		return path_opt(state, arg, "--waive-file", "a file of check ids", &p->waive_file);
	case OPT_PLAN:
		p->plan = true;
		break;
	case OPT_DMA_LATENCY:
		if (parse_uint(arg, JS_DMA_LATENCY_MAX, &v)) {
			argp_error(state, "invalid --dma-latency '%s' (microseconds, 0..%d)", arg,
				   JS_DMA_LATENCY_MAX);
			return EINVAL;
		}
		p->dma_latency_us = (int)v;
		break;
	case OPT_NO_PROBES:
		p->cfg.no_probes = true;
		break;
	case OPT_PROBE_COST:
		p->probe_cost = true;
		break;
	case OPT_BTF:
		return path_opt(state, arg, "--btf", "a BTF file", &p->btf_path);
	case OPT_PROBE_TOGGLE:
		return path_opt(state, arg, "--probe-toggle", "a file", &p->probe_toggle);
	case OPT_LFENCE:
		p->cfg.clock = TSC_CLOCK_LFENCE;
		break;
	case OPT_CLOCK: {
		int c = tsc_clock_from_name(arg);

		if (c < 0) {
			argp_error(state, "invalid --clock '%s' (rdtscp, lfence or auto)", arg);
			return EINVAL;
		}
		p->cfg.clock = (enum tsc_clock)c;
		break;
	}
	case OPT_NO_PROGRESS:
		p->no_progress = true;
		break;
	case OPT_SYSROOT:
		p->sysroot = arg;
		break;
	case 'q':
		p->quiet = true;
		break;
	case 'v':
		p->verbose++;
		break;
	case OPT_HELP:
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP & ~ARGP_HELP_EXIT_OK);
		p->help = true;
		break;
	case 'V':
		printf("%s\n", argp_program_version);
		p->help = true;
		break;
	case OPT_USAGE:
		argp_state_help(state, stdout, ARGP_HELP_USAGE);
		p->help = true;
		break;
	case ARGP_KEY_INIT:
		if (cli_errs)
			state->err_stream = cli_errs;
		break;
	case ARGP_KEY_ARG:
		if (p->cmd == JS_CMD_REPORT || p->cmd == JS_CMD_DIFF) {
			if (p->ninputs >= 2) {
				argp_error(state, "too many files");
				return EINVAL;
			}
			p->inputs[p->ninputs++] = arg;
			break;
		}
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		if (key >= OPT_OUTPUT && (size_t)(key - OPT_OUTPUT) < js_noutput_kinds) {
			size_t off = js_output_kinds[key - OPT_OUTPUT].path_off;

			*(const char **)((char *)p + off) = arg;
			break;
		}
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* validate_app - --pid, --tid, --marks: what goes with them (no sampler runs) */
static int validate_app(const struct js_params *p, const char *prog)
{
	const char *spinner_opt = p->cfg.policy != SCHED_OTHER	     ? "-P" :
				  p->cfg.warmup_ns		     ? "--warm-up" :
				  p->ring_entries != JS_DEFAULT_RING ? "--ring-size" :
				  p->cfg.test_hook		     ? "--test-hook" :
				  p->cfg.threshold_auto		     ? "--threshold auto" :
								       NULL;

	if (p->follow_syscalls && !p->follow_pid && !p->nfollow_tids) {
		fprintf(stderr, "%s: --follow-syscalls needs --pid or --tid (a thread to follow)\n",
			prog);
		return -EINVAL;
	}
	if (params_spinner(p))
		return 0;
	if (p->follow_pid && p->nfollow_tids) {
		fprintf(stderr,
			"%s: --pid follows every thread of a process, --tid the threads "
			"named: one or the other\n",
			prog);
		return -EINVAL;
	}
	if (p->marks_path && !p->follow_pid && !p->nfollow_tids && !p->cfg.ncpus &&
	    !p->cpus_isolated) {
		fprintf(stderr,
			"%s: --marks needs --pid, --tid or --cpu LIST (the CPUs whose "
			"events explain the marks)\n",
			prog);
		return -EINVAL;
	}
	if ((p->follow_pid || p->nfollow_tids) && p->cfg.no_probes) {
		fprintf(stderr, "%s: --pid and --tid need the eBPF probes: drop --no-probes\n",
			prog);
		return -EINVAL;
	}
	if (spinner_opt) {
		fprintf(stderr,
			"%s: %s sets up the spinner, and with --pid, --tid or --marks none runs\n",
			prog, spinner_opt);
		return -EINVAL;
	}
	return 0;
}

/* cross-option rules, after every option is known */
static int validate(struct js_params *p, const char *prog)
{
	const char *shared;

	if (p->help)
		return 0;
	if (p->cfg.duration_ns && !p->cfg.threshold_auto &&
	    p->cfg.threshold_ns >= p->cfg.duration_ns) {
		fprintf(stderr, "%s: the threshold must be shorter than the duration\n", prog);
		return -EINVAL;
	}
	if (p->cmd == JS_CMD_REPORT && p->ninputs != 1) {
		fprintf(stderr, "%s: report needs one JSON file\n", prog);
		return -EINVAL;
	}
	if (p->cmd == JS_CMD_DIFF && p->ninputs != 2) {
		fprintf(stderr, "%s: diff needs two JSON files\n", prog);
		return -EINVAL;
	}
	if (p->cfg.burst && !p->cfg.narrivals) {
		fprintf(stderr, "%s: --burst needs --arrival-interval\n", prog);
		return -EINVAL;
	}
	if (p->diff_opts && p->cmd != JS_CMD_DIFF) {
		fprintf(stderr,
			"%s: --alpha, --min-change and --fail-on are for 'jitterscope diff' only\n",
			prog);
		return -EINVAL;
	}
	if ((p->nwaive || p->waive_file || p->plan || p->audit_fail_on >= 0) &&
	    p->cmd != JS_CMD_CHECK) {
		fprintf(stderr,
			"%s: --waive, --waive-file and --plan are for 'jitterscope check' "
			"only\n",
			prog);
		return -EINVAL;
	}
	if (p->plan && p->json_path) {
		fprintf(stderr, "%s: --plan prints a plan, not the audit: not with --json\n", prog);
		return -EINVAL;
	}
	if (p->dma_latency_us >= 0 && p->cmd != JS_CMD_MEASURE) {
		fprintf(stderr,
			"%s: --dma-latency holds PM QoS during a measurement: not with "
			"check, report or diff\n",
			prog);
		return -EINVAL;
	}
	if (p->sysroot && p->cmd != JS_CMD_CHECK) {
		fprintf(stderr,
			"%s: --sysroot is for 'jitterscope check' only (a measurement "
			"reads the live system)\n",
			prog);
		return -EINVAL;
	}
	if (p->gaps_max_bytes && (!p->gaps_path || !strcmp(p->gaps_path, "-"))) {
		fprintf(stderr, "%s: --gaps-max-size needs --gaps FILE (not standard output)\n",
			prog);
		return -EINVAL;
	}
	if (p->prom_interval_ns && (!p->prom_path || !strcmp(p->prom_path, "-"))) {
		fprintf(stderr, "%s: --prom-interval needs --prom FILE (not standard output)\n",
			prog);
		return -EINVAL;
	}
	if ((p->listen || p->prom_interval_ns || p->gaps_max_bytes) && p->cmd != JS_CMD_MEASURE) {
		fprintf(stderr,
			"%s: --listen, --prom-interval and --gaps-max-size are for a "
			"measurement only\n",
			prog);
		return -EINVAL;
	}
	if (p->budget_interval_ns && (!p->budget.n || p->cfg.duration_ns)) {
		fprintf(stderr,
			"%s: --budget-interval needs --budget and --duration 0 (a finite "
			"run checks its limits once, at the end)\n",
			prog);
		return -EINVAL;
	}
	if (p->btf_path && (p->cfg.no_probes || p->cmd != JS_CMD_MEASURE)) {
		fprintf(stderr,
			"%s: --btf gives a measurement's eBPF probes their types: not with "
			"--no-probes, check, report or diff\n",
			prog);
		return -EINVAL;
	}
	if (p->probe_toggle && (p->cfg.no_probes || p->cmd != JS_CMD_MEASURE)) {
		fprintf(stderr,
			"%s: --probe-toggle toggles a measurement's eBPF probes (not with "
			"--no-probes)\n",
			prog);
		return -EINVAL;
	}
	if (validate_app(p, prog))
		return -EINVAL;
	if (!p->spike_dir != !p->spike_threshold_ns) {
		fprintf(stderr, "%s: --spike-dir and --spike-threshold go together\n", prog);
		return -EINVAL;
	}
	/* at most one output on stdout, and no two outputs into one file */
	shared = outputs_collision(p);
	if (shared) {
		fprintf(stderr, "%s: two outputs write to '%s'\n", prog, shared);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->cfg.ncpus; i++)
		for (size_t k = 0; k < p->cfg.nhk; k++)
			if (p->cfg.cpus[i] == p->cfg.hk[k]) {
				fprintf(stderr, "%s: CPU %d is both measured and housekeeping\n",
					prog, p->cfg.cpus[i]);
				return -EINVAL;
			}
	return 0;
}

static void defaults(struct js_params *p)
{
	memset(p, 0, sizeof(*p));
	p->cfg.duration_ns = JS_DEFAULT_DURATION_NS;
	p->cfg.threshold_ns = JS_DEFAULT_THRESHOLD_NS;
	p->cfg.policy = SCHED_OTHER;
	p->cfg.top = JS_DEFAULT_TOP;
	p->ring_entries = JS_DEFAULT_RING;
	p->hlog_interval_ns = JS_DEFAULT_HLOG_INTERVAL_NS;
	p->trace_max_events = JS_DEFAULT_TRACE_EVENTS;
	p->spike_max = JS_DEFAULT_SPIKE_MAX;
	p->spike_dir_max = JS_DEFAULT_SPIKE_DIR_MAX;
	p->alpha = JS_DEFAULT_ALPHA;
	p->min_change_pct = JS_DEFAULT_MIN_CHANGE_PCT;
	p->audit_fail_on = -1;
	p->dma_latency_us = -1;
}

int cli_parse(int argc, char **argv, struct js_params *p)
{
	struct argp argp = { options_build(), parse_opt, NULL, doc, NULL, NULL, NULL };
	char prog[64];
	int first = 0;

	defaults(p);
	snprintf(prog, sizeof(prog), "jitterscope");
	if (argc > 1) {
		for (int c = 0; c < JS_CMD_MAX; c++) {
			const struct js_command *cmd = &js_commands[c];

			if (cmd->name && !strcmp(argv[1], cmd->name)) {
				p->cmd = (enum js_cmd)c;
				argp.args_doc = cmd->args;
				snprintf(prog, sizeof(prog), "jitterscope %s", cmd->name);
				first = 1;
			}
		}
	}
	/* argp reports errors itself; ARGP_NO_EXIT keeps the parser testable */
	char *saved = argv[first], *errs = NULL;
	size_t errlen = 0;
	argv[first] = prog;
	cli_errs = open_memstream(&errs, &errlen);
	error_t err = argp_parse(&argp, argc - first, argv + first,
				 ARGP_NO_EXIT | ARGP_NO_HELP | ARGP_IN_ORDER, NULL, p);
	argv[first] = saved;
	if (cli_errs) {
		fclose(cli_errs);
		cli_errs = NULL;
		/* the hint comes last and argp wraps it over two lines: cut it off */
		char *hint = errs && strncmp(errs, "Try `", 5) ? strstr(errs, "\nTry `") : errs;

		if (hint)
			hint[hint == errs ? 0 : 1] = '\0';
		if (errs)
			fputs(errs, stderr);
		free(errs);
	}
	if (err)
		return -EINVAL;
	return validate(p, prog);
}
