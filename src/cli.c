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
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_arrival.h"
#include "js_audit.h"
#include "js_budget.h"
#include "js_cli_value.h"
#include "js_listen.h"
#include "js_output.h"
#include "js_params.h"
#include "js_sampler.h"
#include "js_scale.h"
#include "js_spike.h"
#include "js_units.h"
#include "js_util.h"

const char *argp_program_version = "jitterscope " JS_VERSION;
const char *argp_program_bug_address = NULL;

/* the keys argp gives the options without a short one: OPT_ROW + their row in options[],
 * OPT_OUTPUT + their kind in js_output_kinds[] (--json, --gaps ...) */
enum { OPT_ROW = 1000, OPT_OUTPUT = 2000 };

/* the commands an option is for: CMDS_* (js_params.h) in its entry of options[] below */
#define M CMDS_MEASURE
#define C CMDS_CHECK
#define R CMDS_REPORT
#define D CMDS_DIFF

/* the option groups of --help; a heading is shown when the command takes one of its
 * options */
enum { G_MEASURE = 1, G_APP, G_OUTPUT, G_DIFF, G_INFO = -1 };

static const struct {
	int group;
	const char *doc[JS_CMD_MAX]; /* the heading, per command (NULL: the measurement's) */
} headings[] = {
	{ G_MEASURE, { [JS_CMD_MEASURE] = "What to measure:", [JS_CMD_CHECK] = "What to audit:" } },
	{ G_APP, { [JS_CMD_MEASURE] = "Your application's spikes (no spinner runs):" } },
	{ G_OUTPUT, { [JS_CMD_MEASURE] = "Output:" } },
	{ G_DIFF,
	  { [JS_CMD_MEASURE] = "Comparing two runs:", [JS_CMD_CHECK] = "When check fails:" } },
};

struct cli_option;
/* a row's own reading, where its value cannot say it: 0, or EINVAL after argp_error */
typedef int cli_fn(struct argp_state *state, const struct cli_option *o, char *arg);

/* One option: its argp entry (name, key, argument, --help line, group), the commands that
 * take it, and what its value sets (js_cli_value.h), or a callback of its own. */
struct cli_option {
	struct argp_option o;
	unsigned cmds;
	struct cli_value v;
	cli_fn *fn; /* instead of v (it may apply v itself) */
};

/* fail - the one-line refusal; EINVAL */
__attribute__((format(printf, 2, 3))) static int fail(struct argp_state *state, const char *fmt,
						      ...)
{
	char *msg = NULL;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&msg, fmt, ap);
	va_end(ap);
	argp_error(state, "%s", len < 0 ? "out of memory" : msg);
	free(len < 0 ? NULL : msg);
	return EINVAL;
}

/* apply - the row's value from arg (cli_value_set); 0, or EINVAL after its refusal */
static int apply(struct argp_state *state, const struct cli_option *o, const char *arg)
{
	size_t len = (arg ? strlen(arg) : 0) + 512;
	char *msg = malloc(len);
	int ret;

	if (!msg)
		return fail(state, "out of memory");
	ret = cli_value_set(&o->v, o->o.name, o->o.arg, arg, state->input, msg, len) ?
		      fail(state, "%s", msg) :
		      0;
	free(msg);
	return ret;
}

/* bad_value - "invalid --NAME 'ARG': WHY" of a value its own parser refused; EINVAL */
static int bad_value(struct argp_state *state, const struct cli_option *o, const char *arg,
		     const char *why)
{
	return fail(state, "invalid --%s '%s': %s", o->o.name, arg, why);
}

/* opt_cpu - -c isolated, chosen before measuring (cpus_default()), or a CPU list */
static int opt_cpu(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;

	p->cpus_isolated = !strcmp(arg, "isolated");
	if (!p->cpus_isolated)
		return apply(state, o, arg);
	p->cfg.ncpus = 0;
	return 0;
}

/* opt_threshold - -T auto (js_threshold.h), or a TIME; the last -T counts */
static int opt_threshold(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;

	p->cfg.threshold_auto = !strcmp(arg, "auto");
	if (!p->cfg.threshold_auto)
		return apply(state, o, arg);
	p->cfg.threshold_ns = 0;
	return 0;
}

/* opt_drain_threads - --drain-threads auto (0: scale_split chooses), or 1..SCALE_SHARDS_MAX */
static int opt_drain_threads(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	unsigned long long v;

	(void)o;
	if (!strcmp(arg, "auto")) {
		p->drain_threads = 0;
		return 0;
	}
	if (cli_uint(arg, SCALE_SHARDS_MAX, &v) || !v) {
		argp_error(state, "invalid --drain-threads '%s' (auto, or 1..%d)", arg,
			   SCALE_SHARDS_MAX);
		return EINVAL;
	}
	p->drain_threads = (unsigned)v;
	return 0;
}

static int opt_priority(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;

	(void)o;
	if (sampler_parse_priority(arg, &p->cfg.policy, &p->cfg.priority))
		return fail(state, "invalid priority '%s' (use o:0, f:1..99 or r:1..99)", arg);
	return 0;
}

static int opt_arrival(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	char err[160];
	size_t n;

	if (arrival_parse_list(arg, p->cfg.arrival_ns, JS_MAX_ARRIVALS, &n, err, sizeof(err)))
		return bad_value(state, o, arg, err);
	p->cfg.narrivals = n;
	return 0;
}

static int opt_burst(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	char err[160];

	if (arrival_parse_burst(arg, &p->cfg.burst, err, sizeof(err)))
		return bad_value(state, o, arg, err);
	return 0;
}

static int opt_listen(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	char err[160];

	if (listen_parse(arg, NULL, err, sizeof(err)))
		return bad_value(state, o, arg, err);
	p->listen = arg;
	return 0;
}

static int opt_budget(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	char err[160];

	if (budget_parse(arg, &p->budget, err, sizeof(err)))
		return bad_value(state, o, arg, err);
	return 0;
}

/* opt_event - --event SUBSYS:NAME[,SUBSYS:NAME]: at most JS_USER_EVENTS_MAX, none twice
 * (an event's opening tracepoint names it); whether it exists is preflight's */
static int opt_event(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	struct js_user_event ev;
	char why[96];

	if (user_event_parse(arg, &ev, why, sizeof(why)))
		return fail(state, "invalid --%s '%s' (%s)", o->o.name, arg, why);
	if (user_event_find(p->cfg.events, p->cfg.nevents, ev.open) >= 0)
		return fail(state, "--%s %s given twice", o->o.name, ev.open);
	if (p->cfg.nevents == JS_USER_EVENTS_MAX)
		return fail(state, "too many --%s (at most %d)", o->o.name, JS_USER_EVENTS_MAX);
	p->cfg.events[p->cfg.nevents++] = ev;
	return 0;
}

/* opt_tid - --tid TID or TID,TID...: each a thread id, at most JS_FOLLOW_TIDS_MAX in all */
static int opt_tid(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	char buf[256], *save = NULL, *t;
	unsigned long long v;

	if (strlen(arg) >= sizeof(buf) || !*arg)
		return fail(state, "invalid --%s '%s' (thread ids: 12 or 12,15)", o->o.name, arg);
	js_scpy(buf, sizeof(buf), arg);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (cli_uint(t, INT32_MAX, &v) || !v)
			return fail(state, "invalid --%s '%s' (thread ids: 12 or 12,15)", o->o.name,
				    arg);
		if (p->nfollow_tids == JS_FOLLOW_TIDS_MAX)
			return fail(state, "too many --%s (at most %d threads)", o->o.name,
				    JS_FOLLOW_TIDS_MAX);
		p->follow_tids[p->nfollow_tids++] = (int)v;
	}
	return 0;
}

/* opt_waive - check --waive ID[,ID...]: every id one a check can take (js_audit.h) */
static int opt_waive(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;
	struct audit_waivers w = { 0 };
	char err[200] = "";
	int ret = audit_waivers_add_list(&w, arg, err, sizeof(err));

	audit_waivers_free(&w);
	if (ret)
		return bad_value(state, o, arg, err);
	if (p->nwaive == JS_WAIVE_ARGS_MAX)
		return fail(state,
			    "too many --%s (at most %d: list ids with commas, or use "
			    "--waive-file)",
			    o->o.name, JS_WAIVE_ARGS_MAX);
	p->waive[p->nwaive++] = arg;
	return 0;
}

/* opt_alpha - diff --alpha P: a probability, 0 < P < 0.5 */
static int opt_alpha(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;

	if (cli_number(arg, false, 1e-12, 0.5, &p->alpha) || p->alpha >= 0.5)
		return fail(state, "invalid --%s '%s' (a probability, 0 < P < 0.5, e.g. 0.01)",
			    o->o.name, arg);
	return 0;
}

/* opt_fail_on - check --fail-on SEVERITY, diff --fail-on worse */
static int opt_fail_on(struct argp_state *state, const struct cli_option *o, char *arg)
{
	struct js_params *p = state->input;

	if (p->cmd == JS_CMD_CHECK) {
		p->audit_fail_on = audit_severity_from_name(arg);
		if (p->audit_fail_on < 0)
			return fail(state, "invalid --%s '%s' (info, low, med, high or crit)",
				    o->o.name, arg);
		return 0;
	}
	if (strcmp(arg, "worse"))
		return fail(state, "invalid --%s '%s' (worse)", o->o.name, arg);
	p->fail_on_worse = true;
	return 0;
}

/* the options that print and exit 0 (--help, --usage, --version, --completion,
 * --list-options): printed */
static int printed(struct argp_state *state)
{
	((struct js_params *)state->input)->help = true;
	return 0;
}

static int opt_help(struct argp_state *state, const struct cli_option *o, char *arg)
{
	(void)o, (void)arg;
	argp_state_help(state, stdout, ARGP_HELP_STD_HELP & ~ARGP_HELP_EXIT_OK);
	return printed(state);
}

static int opt_usage(struct argp_state *state, const struct cli_option *o, char *arg)
{
	(void)o, (void)arg;
	argp_state_help(state, stdout, ARGP_HELP_USAGE);
	return printed(state);
}

static int opt_version(struct argp_state *state, const struct cli_option *o, char *arg)
{
	(void)o, (void)arg;
	printf("%s\n", argp_program_version);
	return printed(state);
}

static int opt_completion(struct argp_state *state, const struct cli_option *o, char *arg)
{
	if (strcmp(arg, o->o.arg))
		return fail(state, "invalid --%s '%s' (%s)", o->o.name, arg, o->o.arg);
	cli_completion_bash(stdout);
	return printed(state);
}

static int opt_list_options(struct argp_state *state, const struct cli_option *o, char *arg)
{
	(void)o, (void)arg;
	cli_list_options(stdout);
	return printed(state);
}

/* what a row's value sets (js_cli_value.h): the field of struct js_params, its range */
#define FIELD(f) .off = offsetof(struct js_params, f), .size = sizeof(((struct js_params *)0)->f)
#define GIVEN(f) .given = offsetof(struct js_params, f)
#define FLAG(f) .kind = CLI_FLAG, FIELD(f)
#define SET(f, n) .kind = CLI_SET, FIELD(f), .u = { 0, n, n, NULL }
#define INC(f) .kind = CLI_INC, FIELD(f)
#define TIME(f, bare, lo, hi, note, ...) \
	.kind = CLI_TIME, FIELD(f), .u = { bare, lo, hi, note }, __VA_ARGS__
#define SIZE(f, bare, lo, hi) .kind = CLI_SIZE, FIELD(f), .u = { bare, lo, hi, NULL }
#define NUM(k, f, lo, hi, why, ...) \
	.kind = k, FIELD(f), .u = { 0, lo, hi, NULL }, .hint = why, __VA_ARGS__
#define ENUM(f, lookup, lo, ...) \
	.kind = CLI_ENUM, FIELD(f), .u = { 0, lo, 0, NULL }, .from_name = lookup, __VA_ARGS__
#define PATH(f, what) .kind = CLI_PATH, FIELD(f), .hint = what
#define STR(f) .kind = CLI_STR, FIELD(f)
#define CPUS(f, n) .kind = CLI_CPUS, FIELD(f), .count = offsetof(struct js_params, n)

/* Every option (but the output files, js_output_kinds[] in output.c), the commands that
 * take it and what it sets: the one table the parser (values, refusal), --help,
 * --completion bash and the man page's check (--list-options) go by. Adding an option is
 * one row here (docs/DESIGN.md, Recipes). */
static const struct cli_option options[] = {
	{ { "cpu", 'c', "LIST", 0,
	    "CPUs to measure, e.g. 3 or 1,3-5, or isolated (default: the isolated CPUs, by "
	    "isolcpus=, an isolated cpuset partition or nohz_full=, else the last online CPU)",
	    G_MEASURE },
	  M | C,
	  .v = { CPUS(cfg.cpus, cfg.ncpus) },
	  .fn = opt_cpu },
	{ { "cpus", 'c', "LIST", OPTION_ALIAS, NULL, G_MEASURE }, .cmds = M | C },
	{ { "duration", 'd', "TIME", 0,
	    "how long to measure: 60, 60s, 5m, 1h; 0 = until Ctrl-C (default 10s)", G_MEASURE },
	  M,
	  .v = { TIME(cfg.duration_ns, JS_SEC, 0, JS_TIME_MAX, "0 = until Ctrl-C",
		      GIVEN(duration_given), .bare_name = true) } },
	{ { "threshold", 'T', "TIME", 0,
	    "smallest gap recorded (default 1us; e.g. 500ns; "
	    "auto: calibrated from the loop, raised if housekeeping could not keep up)",
	    G_MEASURE },
	  M,
	  .v = { TIME(cfg.threshold_ns, JS_US, 1, JS_TIME_MAX, NULL, .bare_name = true) },
	  .fn = opt_threshold },
	{ { "warm-up", 0, "TIME", 0, "spin this long before recording (default 0)", G_MEASURE },
	  M,
	  .v = { TIME(cfg.warmup_ns, JS_SEC, 0, JS_TIME_MAX, NULL, .bare_name = true) } },
	{ { "priority", 'P', "o:0|f:PRIO|r:PRIO", 0,
	    "sampler scheduling (default o:0 = SCHED_OTHER; "
	    "a FIFO spinner is RT-throttled unless sched_rt_runtime_us is -1; check: the "
	    "policy the audit judges for)",
	    G_MEASURE },
	  M | C,
	  .fn = opt_priority },
	{ { "house-keeping", 'H', "LIST", 0,
	    "CPUs for jitterscope's own threads (default: allowed CPUs minus measured ones)",
	    G_MEASURE },
	  M,
	  .v = { CPUS(cfg.hk, cfg.nhk) } },
	{ { "no-probes", 0, NULL, 0, "sampler only: no eBPF attribution", G_MEASURE },
	  M,
	  .v = { FLAG(cfg.no_probes) } },
	{ { "no-waker", 0, NULL, 0, "do not track who woke a preempting task (sched_waking off)",
	    G_MEASURE },
	  M,
	  .v = { FLAG(no_waker) } },
	{ { "stacks", 0, NULL, 0,
	    "kernel stacks of the worst gaps' and spikes' preempting task (where it left the "
	    "CPU) and of its waker (at the wake-up)",
	    G_MEASURE },
	  M,
	  .v = { FLAG(stacks) } },
	{ { "probes", 0, "full|lean", 0,
	    "which probes run (default full: each interruption's entry and exit, hrtimer "
	    "callbacks by name; lean: one program per interruption, at its exit: every class "
	    "named, less of the probes' own cost)",
	    G_MEASURE },
	  M,
	  .v = { ENUM(cfg.probes_lean, probe_set_from_name, 0, GIVEN(probes_given)) } },
	{ { "event", 0, "SUBSYS:NAME[,SUBSYS:NAME]", 0,
	    "count a tracepoint of yours as a cause, class event (repeatable, at most 8; both "
	    "probe sets); a pair is timed, from its first tracepoint to its second",
	    G_MEASURE },
	  M,
	  .fn = opt_event },
	{ { "probe-cost", 0, NULL, 0,
	    "time the probes' own BPF programs (kernel "
	    "bpf_stats: two clock reads per program run, on the measured CPUs too)",
	    G_MEASURE },
	  M,
	  .v = { FLAG(probe_cost) } },
	{ { "btf", 0, "FILE", 0,
	    "the kernel's types for the probes from FILE (raw BTF, or an ELF file's .BTF), for a "
	    "kernel without /sys/kernel/btf/vmlinux: they attach as raw tracepoints",
	    G_MEASURE },
	  M,
	  .v = { PATH(btf_path, "a BTF file") } },
	{ { "clock", 0, "rdtscp|lfence|auto", 0,
	    "how the TSC is read (default auto: rdtscp where the CPU advertises it, else "
	    "lfence;rdtsc)",
	    G_MEASURE },
	  M,
	  .v = { ENUM(cfg.clock, tsc_clock_from_name, 0) } },
	{ { "lfence", 0, NULL, 0, "--clock lfence", G_MEASURE },
	  M,
	  .v = { SET(cfg.clock, TSC_CLOCK_LFENCE) } },
	{ { "ring-size", 0, "N", 0, "gap ring entries per CPU, a power of two (default 65536)",
	    G_MEASURE },
	  M,
	  .v = { NUM(CLI_POW2, ring_entries, 1024, 1ull << 26, "a power of two, ~") } },
	{ { "drain-threads", 0, "N|auto", 0,
	    "threads draining the measured CPUs on the housekeeping CPUs (default auto: one "
	    "per CPUs one keeps up with at the expected gap rate)",
	    G_MEASURE },
	  M,
	  .fn = opt_drain_threads },
	{ { "arrival-interval", 0, "LIST", 0,
	    "also report the delay of messages arriving every 1us,10us,...", G_MEASURE },
	  M,
	  .fn = opt_arrival },
	{ { "burst", 0, "N", 0,
	    "with --arrival-interval: chance that N consecutive arrivals meet a gap", G_MEASURE },
	  M,
	  .fn = opt_burst },
	{ { "sysroot", 0, "DIR", 0, "audit: read /proc and /sys under DIR", G_MEASURE },
	  C,
	  .v = { STR(sysroot) } },
	{ { "waive", 0, "ID[,ID...]", 0,
	    "accept these checks (irq.* patterns too): shown as waived, never exit 2; "
	    "repeatable",
	    G_MEASURE },
	  C,
	  .fn = opt_waive },
	{ { "waive-file", 0, "FILE", 0, "the check ids of FILE, one a line ('#' comments)",
	    G_MEASURE },
	  C,
	  .v = { PATH(waive_file, "a file of check ids") } },
	{ { "plan", 0, NULL, 0,
	    "one plan that isolates the CPUs: kernel command line (grubby, GRUB), "
	    "sysctl.d, runtime commands, tuned",
	    G_MEASURE },
	  C,
	  .v = { FLAG(plan) } },
	{ { "dma-latency", 0, "US", 0,
	    "hold /dev/cpu_dma_latency at US microseconds while measuring (0: no deep C-state)",
	    G_MEASURE },
	  M,
	  .v = { NUM(CLI_UINT, dma_latency_us, 0, JS_DMA_LATENCY_MAX, "microseconds, ~") } },
	{ { "deepest-idle-state", 0, "N", 0,
	    "disable the cpuidle states deeper than N on the measured CPUs only while measuring "
	    "(0: only state0 left); given back at the end",
	    G_MEASURE },
	  M,
	  .v = { NUM(CLI_UINT, cfg.deepest_idle_state, 0, JS_DEEPEST_IDLE_MAX, "a cpuidle state, ~",
		     GIVEN(cfg.idle_limit)) } },
	{ { "pid", 0, "PID", 0,
	    "follow every thread of process PID (also those it starts): "
	    "its gaps are its preemptions, interruptions and blocking outside system calls",
	    G_APP },
	  M,
	  .v = { NUM(CLI_UINT, follow_pid, 1, INT32_MAX, "a process id") } },
	{ { "tid", 0, "TID", 0, "follow thread TID (repeatable, or a list: 12,15)", G_APP },
	  M,
	  .fn = opt_tid },
	{ { "follow-syscalls", 0, NULL, 0,
	    "with --pid/--tid: count its system calls with sys_enter/sys_exit (costly: every "
	    "task's system calls then take the kernel's traced path)",
	    G_APP },
	  M,
	  .v = { FLAG(follow_syscalls) } },
	{ { "marks", 0, "FILE", 0,
	    "the application's slow intervals, a line each: "
	    "start_ns,end_ns[,label] (CLOCK_MONOTONIC), appended to FILE or written into a FIFO; "
	    "with --pid/--tid, or --cpu: the CPUs whose events explain them",
	    G_APP },
	  M,
	  .v = { PATH(marks_path, "a file or FIFO") } },
	/* then one FILE option per js_output_kinds[] entry (options_build), group G_OUTPUT */
	{ { "hlog-interval", 0, "TIME", 0, "interval of --hlog (default 1s)", G_OUTPUT },
	  M,
	  .v = { TIME(hlog_interval_ns, JS_SEC, JS_MS, JS_TIME_MAX, NULL) } },
	{ { "gaps-max-size", 0, "SIZE", 0,
	    "--gaps files at most this large, e.g. 100MiB: then FILE.1 (default: no limit)",
	    G_OUTPUT },
	  M,
	  .v = { SIZE(gaps_max_bytes, 1, 64 * JS_KIB, JS_TIB) } },
	{ { "gaps-max-files", 0, "N", 0,
	    "keep this many full --gaps files, FILE.1 (the newest) to FILE.N (default 1)",
	    G_OUTPUT },
	  M,
	  .v = { NUM(CLI_UINT, gaps_max_files, 1, JS_GAPS_FILES_MAX, "~") } },
	{ { "prom-interval", 0, "TIME", 0,
	    "rewrite the --prom file this often (default: once, at the end)", G_OUTPUT },
	  M,
	  .v = { TIME(prom_interval_ns, JS_SEC, 100 * JS_MS, JS_DAY, NULL) } },
	{ { "listen", 0, "ADDR:PORT", 0,
	    "serve /metrics (Prometheus) and /healthz over HTTP on this address, e.g. "
	    "127.0.0.1:9464",
	    G_OUTPUT },
	  M,
	  .fn = opt_listen },
	{ { "trace-max-events", 0, "N", 0, "cap of --trace events (default 200000)", G_OUTPUT },
	  M,
	  .v = { NUM(CLI_UINT, trace_max_events, 100, 10000000, "~") } },
	{ { "spike-threshold", 0, "TIME", 0,
	    "with --spike-dir: the gaps the flight recorder keeps (at or above TIME)", G_OUTPUT },
	  M,
	  .v = { TIME(spike_threshold_ns, JS_US, 1, JS_TIME_MAX, NULL) } },
	{ { "spike-max", 0, "N/min", 0, "at most N spike files a minute (default 10)", G_OUTPUT },
	  M,
	  .v = { NUM(CLI_PER_MIN, spike_max, 1, JS_SPIKE_MAX_MAX, "~ a minute, e.g. 10/min") } },
	{ { "spike-per-source", 0, "N/min", 0,
	    "at most N of them of one source: a task's name and cgroup, an IRQ, a softirq, a timer "
	    "(default 3)",
	    G_OUTPUT },
	  M,
	  .v = { NUM(CLI_PER_MIN, spike_per_source, 1, JS_SPIKE_MAX_MAX,
		     "~ a minute, e.g. 3/min") } },
	{ { "spike-dir-max", 0, "SIZE", 0, "total size of the spike files (default 100MiB)",
	    G_OUTPUT },
	  M,
	  .v = { SIZE(spike_dir_max, JS_MIB, 1, JS_TIB) } },
	{ { "on-spike", 0, "CMD", 0,
	    "with --spike-dir: run CMD (/bin/sh -c) on a housekeeping CPU for each spike written, "
	    "one at a time; JS_SPIKE_* variables name it; its exit 99 ends the run (exit 3)",
	    G_OUTPUT },
	  M,
	  .v = { PATH(on_spike, "a command for /bin/sh -c") } },
	{ { "on-spike-timeout", 0, "TIME", 0, "kill an --on-spike command after TIME (default 10s)",
	    G_OUTPUT },
	  M,
	  .v = { TIME(on_spike_timeout_ns, JS_SEC, JS_MS, JS_DAY, NULL) } },
	{ { "on-end", 0, "CMD", 0,
	    "run CMD (/bin/sh -c) on a housekeeping CPU once the report is written; JS_RUN_JSON "
	    "names the run's JSON, JS_RUN_EXIT_STATUS, _VERDICT, _LOST_NS ... the rest",
	    G_OUTPUT },
	  M,
	  .v = { PATH(on_end, "a command for /bin/sh -c") } },
	{ { "on-end-timeout", 0, "TIME", 0, "kill the --on-end command after TIME (default 60s)",
	    G_OUTPUT },
	  M,
	  .v = { TIME(on_end_timeout_ns, JS_SEC, JS_MS, JS_DAY, NULL) } },
	{ { "budget", 0, "SPEC", 0,
	    "e.g. max=50us,p99.9=5us,smi=0,irq=0,lost=0.1%: exit 2 if exceeded", G_OUTPUT },
	  M | R,
	  .fn = opt_budget },
	{ { "budget-interval", 0, "TIME", 0,
	    "with --duration 0: the --budget limits apply to each interval this long (default "
	    "1m)",
	    G_OUTPUT },
	  M,
	  .v = { TIME(budget_interval_ns, JS_SEC, JS_SEC, JS_DAY, NULL) } },
	{ { "top", 'n', "N", 0, "worst gaps listed (default 10, max 1000)", G_OUTPUT },
	  M | R,
	  .v = { NUM(CLI_UINT, cfg.top, 0, 1000, "~", GIVEN(top_given)) } },
	{ { "by", 0, "source|cgroup", 0,
	    "the cause table's sources: each source (default), "
	    "or merged per cgroup (container, pod, systemd unit)",
	    G_OUTPUT },
	  M | R,
	  .v = { ENUM(cfg.by, NULL, 0) } },
	{ { "quiet", 'q', NULL, 0, "no progress line, no notices", G_OUTPUT },
	  M | C | R | D,
	  .v = { FLAG(quiet) } },
	{ { "no-progress", 0, NULL, 0, "no progress line on stderr", G_OUTPUT },
	  M,
	  .v = { FLAG(no_progress) } },
	{ { "verbose", 'v', NULL, 0, "debug messages (twice: libbpf's too)", G_OUTPUT },
	  M | C | R | D,
	  .v = { INC(verbose) } },
	{ { "alpha", 0, "P", 0, "significance level of a verdict (default 0.01)", G_DIFF },
	  D,
	  .fn = opt_alpha },
	{ { "min-change", 0, "PCT", 0, "smallest change that counts (default 10%)", G_DIFF },
	  D,
	  .v = { NUM(CLI_PCT, min_change_pct, 0, 1000, "a percentage, ~, e.g. 10%") } },
	{ { "fail-on", 0, "worse|SEV", 0,
	    "diff: exit 2 when a change is significantly worse; check: exit 2 for an unwaived "
	    "fail or warn of severity SEV (info, low, med, high, crit) or above",
	    G_DIFF },
	  D | C,
	  .fn = opt_fail_on },
	{ { "probe-toggle", 0, "FILE", OPTION_HIDDEN,
	    "bench only: detach and attach the probes again at random every 0.3-0.7 s while "
	    "measuring, each change logged to FILE (attached,start_ns,end_ns)",
	    G_MEASURE },
	  M,
	  .v = { PATH(probe_toggle, "a file") } },
	{ { "test-hook", 0, "fault|thp|stall", OPTION_HIDDEN,
	    "test only: the sampler "
	    "faults on its own memory every 10 ms, reads a region khugepaged may collapse, or "
	    "stalls 250 us inside every gap",
	    G_MEASURE },
	  M,
	  .v = { ENUM(cfg.test_hook, sampler_hook_from_name, SAMPLER_HOOK_FAULT) } },
	{ { "help", 'h', NULL, 0, "give this help list", G_INFO }, M | C | R | D, .fn = opt_help },
	{ { "usage", 0, NULL, 0, "give a short usage message", G_INFO },
	  M | C | R | D,
	  .fn = opt_usage },
	{ { "version", 'V', NULL, 0, "print the program version", G_INFO },
	  M | C | R | D,
	  .fn = opt_version },
	{ { "completion", 0, "bash", 0, "print the bash completion script", G_INFO },
	  M,
	  .fn = opt_completion },
	{ { "list-options", 0, NULL, OPTION_HIDDEN,
	    "docs check: every option, a line each: COMMAND --LONG -S ARG", G_INFO },
	  M,
	  .fn = opt_list_options },
};

#undef M
#undef C
#undef R
#undef D
#undef FIELD
#undef GIVEN
#undef FLAG
#undef SET
#undef INC
#undef TIME
#undef SIZE
#undef NUM
#undef ENUM
#undef PATH
#undef STR
#undef CPUS

/* row_key - the key argp knows a row's option by: its short one, else OPT_ROW + its row */
static int row_key(size_t i)
{
	return options[i].o.key ? options[i].o.key : OPT_ROW + (int)i;
}

/* option_of - the row of an option's key (an alias's is its option's); NULL: none */
static const struct cli_option *option_of(int key)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (row_key(i) == key && !(options[i].o.flags & OPTION_ALIAS))
			return &options[i];
	return NULL;
}

/* Each command's --help text: what it does, its synopsis, then (after \v) the notes and
 * the exit status. */
#define EXIT_STATUS                                                                             \
	"Exit status: 0 ok, 1 runtime error, 2 a --budget exceeded (also by report), "          \
	"an unwaived check failed (check) or a change significantly worse (diff --fail-on "     \
	"worse), 64 usage error (also a --pid or --tid that does not exist), 130 a second "     \
	"Ctrl-C. With -- CMD: CMD's status (128+N: killed by signal N) unless 1, 2 or 64; 127 " \
	"CMD not found, 126 not executable."

static const char *const docs[JS_CMD_MAX] = {
	[JS_CMD_MEASURE] =
		"Measure what steals a CPU from a spinning application, when and for how long.\n\n"
		"  jitterscope [OPTION...]                 measure (default: 10 s)\n"
		"  jitterscope [OPTION...] -- CMD [ARG...] run CMD, measured while it runs\n"
		"  jitterscope check [--cpu LIST]          audit the isolation settings only\n"
		"  jitterscope report RUN.json             the report of a saved --json run\n"
		"  jitterscope diff A.json B.json          two runs side by side (before/after)\n\n"
		"jitterscope COMMAND --help: that command's options.\v"
		"TIME values: a number and a unit, ns, us (or \xc2\xb5s), ms, s, m, h or d, e.g. "
		"500ns, 1.5ms, 5m; a bare number is seconds (microseconds for -T; --budget and "
		"--arrival-interval need the unit).\n\nExamples:\n"
		"  jitterscope --cpu 1 --duration 10           measure CPU 1 for 10 s\n"
		"  jitterscope -c 2-3 -d 5m -T 500ns --json run.json --gaps gaps.csv\n"
		"  jitterscope check --cpu 3\n"
		"  jitterscope --pid $(pidof app) --marks spikes.csv   your application's spikes\n"
		"  jitterscope --budget lost=1% -- ./bench      a benchmark, judged (exit: its own, or "
		"2)\n\n" EXIT_STATUS,
	[JS_CMD_CHECK] =
		"Audit the isolation settings of the CPUs (no measurement, no root needed).\v"
		"Exit status: 0 no unwaived check failed, 1 runtime error, 2 an unwaived check "
		"failed (with --fail-on SEV: failed or warned at SEV or above), 64 usage error.",
	[JS_CMD_REPORT] =
		"The report of a saved --json run ('-': standard input), and the outputs it can "
		"feed: --json (at the current schema), --html, --prom, --hgrm, --folded; -n, --by "
		"and --budget as at run time.\v"
		"--gaps, --hlog, --trace and --spike-dir are written as a run goes: a saved run "
		"cannot feed them.\n\n"
		"Exit status: 0 ok, 1 runtime error (a file that cannot be read or written), 2 a "
		"--budget exceeded, 64 usage error.",
	[JS_CMD_DIFF] = "Two saved --json runs compared, each change with its verdict "
			"(better, worse, same, uncertain).\v"
			"Exit status: 0 ok, 1 runtime error, 2 with --fail-on worse: a change is "
			"significantly worse, 64 usage error.",
};

/* the table argp parses for one command: every option (those the command does not take
 * hidden, so that they are refused by name), one per output kind, the headings of the
 * groups the command shows */
static struct argp_option
	all_options[ARRAY_SIZE(options) + JS_OUTPUTS_MAX + ARRAY_SIZE(headings) + 1];
static unsigned all_cmds[ARRAY_SIZE(all_options)];     /* CMDS_* of each entry */
static const char *all_saved[ARRAY_SIZE(all_options)]; /* why report cannot take it */
static size_t nall;

static const struct argp_option *options_build(enum js_cmd cmd)
{
	size_t n = 0;

	memset(all_saved, 0, sizeof(all_saved));
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		all_cmds[n] = options[i].cmds;
		all_options[n] = options[i].o;
		all_options[n++].key = row_key(i);
	}
	for (size_t i = 0; i < js_noutput_kinds; i++) {
		all_cmds[n] = js_output_kinds[i].cmds;
		all_saved[n] = js_output_kinds[i].saved;
		all_options[n++] = (struct argp_option){
			.name = js_output_kinds[i].opt,
			.key = OPT_OUTPUT + (int)i,
			.arg = js_output_kinds[i].arg ? js_output_kinds[i].arg : "FILE",
			.doc = js_output_kinds[i].doc,
			.group = G_OUTPUT,
		};
	}
	nall = n;
	for (size_t i = 0; i < n; i++)
		if (!(all_cmds[i] & (1u << cmd)))
			all_options[i].flags |= OPTION_HIDDEN;
	for (size_t h = 0; h < ARRAY_SIZE(headings); h++) {
		const char *doc = headings[h].doc[cmd] ? headings[h].doc[cmd] :
							 headings[h].doc[JS_CMD_MEASURE];
		bool shown = false;

		for (size_t i = 0; i < nall; i++)
			shown |= all_options[i].group == headings[h].group &&
				 !(all_options[i].flags & OPTION_HIDDEN);
		if (shown)
			all_options[n++] =
				(struct argp_option){ .doc = doc, .group = headings[h].group };
	}
	memset(&all_options[n], 0, sizeof(all_options[n]));
	return all_options;
}

/* cmd_label - a command as messages name it */
static const char *cmd_label(enum js_cmd cmd)
{
	return cmd == JS_CMD_MEASURE ? "a measurement" : js_commands[cmd].name;
}

/* refuse - an option the command does not take: one line naming both; EINVAL */
static int refuse(struct argp_state *state, enum js_cmd cmd, size_t i)
{
	char opt[64], takers[96] = "";
	size_t len = 0;

	snprintf(opt, sizeof(opt), "--%s", all_options[i].name);
	if (cmd == JS_CMD_REPORT && all_saved[i]) {
		argp_error(state, "%s is not an option of report: %s", opt, all_saved[i]);
		return EINVAL;
	}
	for (int c = 0; c < JS_CMD_MAX; c++)
		if (all_cmds[i] & (1u << c))
			len += (size_t)snprintf(takers + len,
						sizeof(takers) - JS_MIN(len, sizeof(takers)),
						"%s%s", len ? ", " : "", cmd_label(c));
	argp_error(state, "%s is not an option of %s (it is for %s)", opt, cmd_label(cmd), takers);
	return EINVAL;
}

/* taken - the key's entry allows the command (or it is not one of ours: argp's own keys);
 * else the refusal */
static int taken(struct argp_state *state, int key, enum js_cmd cmd)
{
	for (size_t i = 0; i < nall; i++)
		if (all_options[i].key == key && all_options[i].name &&
		    !(all_options[i].flags & OPTION_ALIAS))
			return all_cmds[i] & (1u << cmd) ? 0 : refuse(state, cmd, i);
	return 0;
}

/* One option as users see it: a name, its short key (or 0), argument and commands. */
struct opt_view {
	const char *name, *arg;
	int key;
	unsigned cmds;
};

/* views - every option not hidden by its entry, aliases included, into v (room for all) */
static size_t views(struct opt_view *v)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		const struct argp_option *o = &options[i].o;

		if (!(o->flags & OPTION_HIDDEN))
			v[n++] = (struct opt_view){ o->name, o->arg,
						    o->key < 128 && !(o->flags & OPTION_ALIAS) ?
							    o->key :
							    0,
						    options[i].cmds };
	}
	for (size_t i = 0; i < js_noutput_kinds; i++)
		v[n++] =
			(struct opt_view){ js_output_kinds[i].opt,
					   js_output_kinds[i].arg ? js_output_kinds[i].arg : "FILE",
					   0, js_output_kinds[i].cmds };
	return n;
}

static const char *const cmd_words[JS_CMD_MAX] = { "measure", "check", "report", "diff" };

void cli_list_options(FILE *fp)
{
	struct opt_view v[ARRAY_SIZE(options) + JS_OUTPUTS_MAX];
	size_t n = views(v);

	for (int c = 0; c < JS_CMD_MAX; c++)
		for (size_t i = 0; i < n; i++) {
			if (!(v[i].cmds & (1u << c)))
				continue;
			fprintf(fp, "%s --%s", cmd_words[c], v[i].name);
			if (v[i].key)
				fprintf(fp, " -%c", v[i].key);
			fprintf(fp, "%s%s\n", v[i].arg ? " " : "", v[i].arg ? v[i].arg : "");
		}
}

/* case_words - "--a | -a | --b" for the options whose argument passes want, or NULL */
static void case_words(FILE *fp, const struct opt_view *v, size_t n, const char *pattern,
		       bool (*want)(const char *arg, const char *pattern))
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].arg || !want(v[i].arg, pattern))
			continue;
		fprintf(fp, "%s--%s", first ? "\t" : " | ", v[i].name);
		if (v[i].key)
			fprintf(fp, " | -%c", v[i].key);
		first = false;
	}
}

static bool arg_is(const char *arg, const char *pattern)
{
	return !strcmp(arg, pattern);
}

/* arg_words - a list of words to offer (lower case, '|' between): "source|cgroup" */
static bool arg_words(const char *arg, const char *pattern)
{
	(void)pattern;
	return strcspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ:") == strlen(arg);
}

static bool arg_other(const char *arg, const char *pattern)
{
	(void)pattern;
	return strcmp(arg, "FILE") && strcmp(arg, "DIR") && !arg_words(arg, NULL);
}

void cli_completion_bash(FILE *fp)
{
	struct opt_view v[ARRAY_SIZE(options) + JS_OUTPUTS_MAX];
	size_t n = views(v);

	fputs("# bash completion for jitterscope(8), generated from its option table by\n"
	      "# `jitterscope --completion bash` (do not edit)\n"
	      "_jitterscope()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\tlocal cmd=measure opts\n"
	      "\tif ((COMP_CWORD > 1)); then\n"
	      "\t\tcase ${COMP_WORDS[1]} in check | report | diff) cmd=${COMP_WORDS[1]} ;; esac\n"
	      "\tfi\n"
	      /* -- CMD [ARGS...]: the command's words are its own (its completion, if any) */
	      "\tlocal i\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\t[[ $cmd == measure && ${COMP_WORDS[i]} == -- ]] || continue\n"
	      "\t\tif declare -F _command_offset >/dev/null; then\n"
	      "\t\t\t_command_offset $((i + 1))\n"
	      "\t\telif ((i == COMP_CWORD - 1)); then\n"
	      "\t\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))\n"
	      "\t\telse\n"
	      "\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\t\tfi\n"
	      "\t\treturn\n"
	      "\tdone\n"
	      "\tcase $prev in\n",
	      fp);
	for (size_t i = 0; i < n; i++)
		if (v[i].arg && arg_words(v[i].arg, NULL)) {
			char words[128];

			js_scpy(words, sizeof(words), v[i].arg);
			for (char *c = words; *c; c++)
				*c = *c == '|' ? ' ' : *c;
			fprintf(fp, "\t--%s", v[i].name);
			if (v[i].key)
				fprintf(fp, " | -%c", v[i].key);
			fprintf(fp,
				")\n\t\tCOMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n\t\treturn\n"
				"\t\t;;\n",
				words);
		}
	case_words(fp, v, n, "FILE", arg_is);
	fputs(")\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\treturn\n\t\t;;\n", fp);
	case_words(fp, v, n, "DIR", arg_is);
	fputs(")\n\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n\t\treturn\n\t\t;;\n", fp);
	case_words(fp, v, n, NULL, arg_other);
	fputs(")\n\t\treturn # a value: nothing to offer\n\t\t;;\n\tesac\n\tcase $cmd in\n", fp);
	for (int c = 0; c < JS_CMD_MAX; c++) {
		bool first = true;

		fprintf(fp, "\t%s) opts='", cmd_words[c]);
		for (size_t i = 0; i < n; i++)
			if (v[i].cmds & (1u << c)) {
				fprintf(fp, "%s--%s", first ? "" : " ", v[i].name);
				if (v[i].key)
					fprintf(fp, " -%c", v[i].key);
				first = false;
			}
		fputs("' ;;\n", fp);
	}
	fputs("\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [[ $cmd == report || $cmd == diff ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\telif ((COMP_CWORD == 1)); then\n"
	      "\t\tCOMPREPLY=($(compgen -W 'check report diff' -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -F _jitterscope jitterscope\n",
	      fp);
}

/* argp's own error stream: its "Try --help" hint is left out, so an error is one line */
static FILE *cli_errs;

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct js_params *p = state->input;
	const struct cli_option *o = option_of(key);

	/* an option of another command: refused by name (the table above) */
	if (key > 0 && key < 0x1000000 /* argp's own keys above */ && taken(state, key, p->cmd))
		return EINVAL;
	if (o)
		return o->fn ? o->fn(state, o, arg) : apply(state, o, arg);
	if (key >= OPT_OUTPUT && (size_t)(key - OPT_OUTPUT) < js_noutput_kinds) {
		*(const char **)((char *)p + js_output_kinds[key - OPT_OUTPUT].path_off) = arg;
		return 0;
	}
	switch (key) {
	case ARGP_KEY_INIT:
		if (cli_errs)
			state->err_stream = cli_errs;
		break;
	case ARGP_KEY_ARG:
		/* -- CMD [ARGS...]: the rest of the line is the command, its options its own */
		if (p->cmd == JS_CMD_MEASURE && state->quoted && state->next > state->quoted) {
			p->run_argv = &state->argv[state->next - 1];
			state->next = state->argc;
			break;
		}
		if (p->cmd == JS_CMD_REPORT || p->cmd == JS_CMD_DIFF) {
			if (p->ninputs >= 2)
				return fail(state, "too many files");
			p->inputs[p->ninputs++] = arg;
			break;
		}
		return fail(state,
			    "unexpected argument '%s' (a command comes first: check, report or "
			    "diff; a program to run after --)",
			    arg);
	case ARGP_KEY_END:
		if (p->cmd == JS_CMD_MEASURE && state->quoted && !p->run_argv)
			return fail(state, "-- needs a command to run: -- CMD [ARGS...]");
		break;
	default:
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
				  p->drain_threads		     ? "--drain-threads" :
				  p->cfg.threshold_auto		     ? "--threshold auto" :
								       NULL;

	if (p->follow_syscalls && !params_follows(p)) {
		fprintf(stderr,
			"%s: --follow-syscalls needs --pid or --tid, or -- CMD without --cpu (a "
			"thread to follow)\n",
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
	if (p->marks_path && !params_follows(p) && !p->cfg.ncpus && !p->cpus_isolated) {
		fprintf(stderr,
			"%s: --marks needs --pid, --tid or --cpu LIST (the CPUs whose "
			"events explain the marks)\n",
			prog);
		return -EINVAL;
	}
	if (params_follows(p) && p->cfg.no_probes) {
		fprintf(stderr,
			"%s: --pid, --tid and -- CMD without --cpu need the eBPF probes (they "
			"follow threads): drop --no-probes\n",
			prog);
		return -EINVAL;
	}
	if (spinner_opt) {
		fprintf(stderr,
			"%s: %s sets up the spinner, and with --pid, --tid, --marks or -- CMD "
			"without --cpu none runs\n",
			prog, spinner_opt);
		return -EINVAL;
	}
	return 0;
}

/* validate_cmd - -- CMD: what goes with it, and how it is measured: with --cpu those CPUs
 * (as without it) while CMD runs, else CMD's threads followed as --pid's; no --duration (the
 * run lasts as long as CMD) */
static int validate_cmd(struct js_params *p, const char *prog)
{
	if (!p->run_argv)
		return 0;
	if (p->follow_pid || p->nfollow_tids) {
		fprintf(stderr,
			"%s: -- CMD follows the command it starts: not with --pid or --tid\n",
			prog);
		return -EINVAL;
	}
	if (p->duration_given) {
		fprintf(stderr,
			"%s: the run lasts as long as -- CMD: no --duration (bound the command, "
			"e.g. -- timeout 60 CMD)\n",
			prog);
		return -EINVAL;
	}
	if (p->budget_interval_ns) {
		fprintf(stderr,
			"%s: --budget-interval is for --duration 0: with -- CMD the --budget is "
			"judged once, over the command's run\n",
			prog);
		return -EINVAL;
	}
	p->cfg.duration_ns = 0;
	p->follow_cmd = !p->cfg.ncpus && !p->cpus_isolated;
	return 0;
}

/* cross-option rules, after every option is known */
static int validate(struct js_params *p, const char *prog)
{
	const char *shared;

	if (p->help)
		return 0;
	if (validate_cmd(p, prog))
		return -EINVAL;
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
	if (p->plan && p->json_path) {
		fprintf(stderr, "%s: --plan prints a plan, not the audit: not with --json\n", prog);
		return -EINVAL;
	}
	if (p->gaps_max_bytes && (!p->gaps_path || !strcmp(p->gaps_path, "-"))) {
		fprintf(stderr, "%s: --gaps-max-size needs --gaps FILE (not standard output)\n",
			prog);
		return -EINVAL;
	}
	if (p->gaps_max_files && !p->gaps_max_bytes) {
		fprintf(stderr, "%s: --gaps-max-files needs --gaps-max-size\n", prog);
		return -EINVAL;
	}
	if (p->prom_interval_ns && (!p->prom_path || !strcmp(p->prom_path, "-"))) {
		fprintf(stderr, "%s: --prom-interval needs --prom FILE (not standard output)\n",
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
	if (p->btf_path && p->cfg.no_probes) {
		fprintf(stderr,
			"%s: --btf gives a measurement's eBPF probes their types: not with "
			"--no-probes\n",
			prog);
		return -EINVAL;
	}
	if (p->no_waker && p->cfg.no_probes) {
		fprintf(stderr,
			"%s: --no-waker turns off a part of the eBPF probes: not with --no-probes\n",
			prog);
		return -EINVAL;
	}
	if (p->stacks && p->cfg.no_probes) {
		fprintf(stderr,
			"%s: --stacks takes kernel stacks in the eBPF probes: not with "
			"--no-probes\n",
			prog);
		return -EINVAL;
	}
	if (p->cfg.nevents && p->cfg.no_probes) {
		fprintf(stderr,
			"%s: --event counts a tracepoint with the eBPF probes: not with "
			"--no-probes\n",
			prog);
		return -EINVAL;
	}
	if (p->probes_given && p->cfg.no_probes) {
		fprintf(stderr, "%s: --probes chooses the eBPF probes: not with --no-probes\n",
			prog);
		return -EINVAL;
	}
	if (p->probe_toggle && p->cfg.no_probes) {
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
	if (p->on_spike && !p->spike_dir) {
		fprintf(stderr, "%s: --on-spike needs --spike-dir and --spike-threshold\n", prog);
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
	p->spike_per_source = JS_DEFAULT_SPIKE_PER_SOURCE;
	p->spike_dir_max = JS_DEFAULT_SPIKE_DIR_MAX;
	p->on_spike_timeout_ns = JS_DEFAULT_ON_SPIKE_TIMEOUT_NS;
	p->on_end_timeout_ns = JS_DEFAULT_ON_END_TIMEOUT_NS;
	p->alpha = JS_DEFAULT_ALPHA;
	p->min_change_pct = JS_DEFAULT_MIN_CHANGE_PCT;
	p->audit_fail_on = -1;
	p->dma_latency_us = -1;
}

int cli_parse(int argc, char **argv, struct js_params *p)
{
	struct argp argp = { NULL, parse_opt, NULL, NULL, NULL, NULL, NULL };
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
	argp.options = options_build(p->cmd);
	argp.doc = docs[p->cmd];
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
