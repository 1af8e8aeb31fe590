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
#include "js_scale.h"
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
	OPT_SPIKE_PER_SOURCE,
	OPT_SPIKE_DIR_MAX,
	OPT_ON_SPIKE,
	OPT_ON_SPIKE_TIMEOUT,
	OPT_ON_END,
	OPT_ON_END_TIMEOUT,
	OPT_BTF,
	OPT_WAIVE,
	OPT_WAIVE_FILE,
	OPT_PLAN,
	OPT_DMA_LATENCY,
	OPT_DEEPEST_IDLE,
	OPT_COMPLETION,
	OPT_LIST_OPTIONS,
	OPT_NO_WAKER,
	OPT_STACKS,
	OPT_PROBES,
	OPT_EVENT,
	OPT_DRAIN_THREADS,
	OPT_OUTPUT = 2000, /* + index in js_output_kinds[]: --json, --gaps ... */
};

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

/* Every option (but the output files, js_output_kinds[] in output.c) and the commands that
 * take it: the one table the parser (refusal), --help, --completion bash and the man page's
 * check (--list-options) go by. Adding an option is one entry here. */
static const struct cli_option {
	struct argp_option o;
	unsigned cmds;
} options[] = {
	{ { "cpu", 'c', "LIST", 0,
	    "CPUs to measure, e.g. 3 or 1,3-5, or isolated (default: the isolated CPUs, by "
	    "isolcpus=, an isolated cpuset partition or nohz_full=, else the last online CPU)",
	    G_MEASURE },
	  M | C },
	{ { "cpus", 'c', "LIST", OPTION_ALIAS, NULL, G_MEASURE }, M | C },
	{ { "duration", 'd', "TIME", 0,
	    "how long to measure: 60, 60s, 5m, 1h; 0 = until Ctrl-C (default 10s)", G_MEASURE },
	  M },
	{ { "threshold", 'T', "TIME", 0,
	    "smallest gap recorded (default 1us; e.g. 500ns; "
	    "auto: calibrated from the loop, raised if housekeeping could not keep up)",
	    G_MEASURE },
	  M },
	{ { "warm-up", OPT_WARMUP, "TIME", 0, "spin this long before recording (default 0)",
	    G_MEASURE },
	  M },
	{ { "priority", 'P', "o:0|f:PRIO|r:PRIO", 0,
	    "sampler scheduling (default o:0 = SCHED_OTHER; "
	    "a FIFO spinner is RT-throttled unless sched_rt_runtime_us is -1; check: the "
	    "policy the audit judges for)",
	    G_MEASURE },
	  M | C },
	{ { "house-keeping", 'H', "LIST", 0,
	    "CPUs for jitterscope's own threads (default: allowed CPUs minus measured ones)",
	    G_MEASURE },
	  M },
	{ { "no-probes", OPT_NO_PROBES, NULL, 0, "sampler only: no eBPF attribution", G_MEASURE },
	  M },
	{ { "no-waker", OPT_NO_WAKER, NULL, 0,
	    "do not track who woke a preempting task (sched_waking off)", G_MEASURE },
	  M },
	{ { "stacks", OPT_STACKS, NULL, 0,
	    "kernel stacks of the worst gaps' and spikes' preempting task (where it left the "
	    "CPU) and of its waker (at the wake-up)",
	    G_MEASURE },
	  M },
	{ { "probes", OPT_PROBES, "full|lean", 0,
	    "which probes run (default full: each interruption's entry and exit, hrtimer "
	    "callbacks by name; lean: one program per interruption, at its exit: every class "
	    "named, less of the probes' own cost)",
	    G_MEASURE },
	  M },
	{ { "event", OPT_EVENT, "SUBSYS:NAME[,SUBSYS:NAME]", 0,
	    "count a tracepoint of yours as a cause, class event (repeatable, at most 8; both "
	    "probe sets); a pair is timed, from its first tracepoint to its second",
	    G_MEASURE },
	  M },
	{ { "probe-cost", OPT_PROBE_COST, NULL, 0,
	    "time the probes' own BPF programs (kernel "
	    "bpf_stats: two clock reads per program run, on the measured CPUs too)",
	    G_MEASURE },
	  M },
	{ { "btf", OPT_BTF, "FILE", 0,
	    "the kernel's types for the probes from FILE (raw BTF, or an ELF file's .BTF), for a "
	    "kernel without /sys/kernel/btf/vmlinux: they attach as raw tracepoints",
	    G_MEASURE },
	  M },
	{ { "clock", OPT_CLOCK, "rdtscp|lfence|auto", 0,
	    "how the TSC is read (default auto: rdtscp where the CPU advertises it, else "
	    "lfence;rdtsc)",
	    G_MEASURE },
	  M },
	{ { "lfence", OPT_LFENCE, NULL, 0, "--clock lfence", G_MEASURE }, M },
	{ { "ring-size", OPT_RING, "N", 0,
	    "gap ring entries per CPU, a power of two (default 65536)", G_MEASURE },
	  M },
	{ { "drain-threads", OPT_DRAIN_THREADS, "N|auto", 0,
	    "threads draining the measured CPUs on the housekeeping CPUs (default auto: one "
	    "per CPUs one keeps up with at the expected gap rate)",
	    G_MEASURE },
	  M },
	{ { "arrival-interval", OPT_ARRIVAL, "LIST", 0,
	    "also report the delay of messages arriving every 1us,10us,...", G_MEASURE },
	  M },
	{ { "burst", OPT_BURST, "N", 0,
	    "with --arrival-interval: chance that N consecutive arrivals meet a gap", G_MEASURE },
	  M },
	{ { "sysroot", OPT_SYSROOT, "DIR", 0, "audit: read /proc and /sys under DIR", G_MEASURE },
	  C },
	{ { "waive", OPT_WAIVE, "ID[,ID...]", 0,
	    "accept these checks (irq.* patterns too): shown as waived, never exit 2; "
	    "repeatable",
	    G_MEASURE },
	  C },
	{ { "waive-file", OPT_WAIVE_FILE, "FILE", 0,
	    "the check ids of FILE, one a line ('#' comments)", G_MEASURE },
	  C },
	{ { "plan", OPT_PLAN, NULL, 0,
	    "one plan that isolates the CPUs: kernel command line (grubby, GRUB), "
	    "sysctl.d, runtime commands, tuned",
	    G_MEASURE },
	  C },
	{ { "dma-latency", OPT_DMA_LATENCY, "US", 0,
	    "hold /dev/cpu_dma_latency at US microseconds while measuring (0: no deep C-state)",
	    G_MEASURE },
	  M },
	{ { "deepest-idle-state", OPT_DEEPEST_IDLE, "N", 0,
	    "disable the cpuidle states deeper than N on the measured CPUs only while measuring "
	    "(0: only state0 left); given back at the end",
	    G_MEASURE },
	  M },
	{ { "pid", OPT_PID, "PID", 0,
	    "follow every thread of process PID (also those it starts): "
	    "its gaps are its preemptions, interruptions and blocking outside system calls",
	    G_APP },
	  M },
	{ { "tid", OPT_TID, "TID", 0, "follow thread TID (repeatable, or a list: 12,15)", G_APP },
	  M },
	{ { "follow-syscalls", OPT_FOLLOW_SYSCALLS, NULL, 0,
	    "with --pid/--tid: count its system calls with sys_enter/sys_exit (costly: every "
	    "task's system calls then take the kernel's traced path)",
	    G_APP },
	  M },
	{ { "marks", OPT_MARKS, "FILE", 0,
	    "the application's slow intervals, a line each: "
	    "start_ns,end_ns[,label] (CLOCK_MONOTONIC), appended to FILE or written into a FIFO; "
	    "with --pid/--tid, or --cpu: the CPUs whose events explain them",
	    G_APP },
	  M },
	/* then one FILE option per js_output_kinds[] entry (options_build), group G_OUTPUT */
	{ { "hlog-interval", OPT_HLOG_INTERVAL, "TIME", 0, "interval of --hlog (default 1s)",
	    G_OUTPUT },
	  M },
	{ { "gaps-max-size", OPT_GAPS_MAX, "SIZE", 0,
	    "--gaps files at most this large, e.g. 100MiB: then FILE.1 (default: no limit)",
	    G_OUTPUT },
	  M },
	{ { "prom-interval", OPT_PROM_INTERVAL, "TIME", 0,
	    "rewrite the --prom file this often (default: once, at the end)", G_OUTPUT },
	  M },
	{ { "listen", OPT_LISTEN, "ADDR:PORT", 0,
	    "serve /metrics (Prometheus) and /healthz over HTTP on this address, e.g. "
	    "127.0.0.1:9464",
	    G_OUTPUT },
	  M },
	{ { "trace-max-events", OPT_TRACE_MAX, "N", 0, "cap of --trace events (default 200000)",
	    G_OUTPUT },
	  M },
	{ { "spike-threshold", OPT_SPIKE_THRESHOLD, "TIME", 0,
	    "with --spike-dir: the gaps the flight recorder keeps (at or above TIME)", G_OUTPUT },
	  M },
	{ { "spike-max", OPT_SPIKE_MAX, "N/min", 0, "at most N spike files a minute (default 10)",
	    G_OUTPUT },
	  M },
	{ { "spike-per-source", OPT_SPIKE_PER_SOURCE, "N/min", 0,
	    "at most N of them of one source: a task's name and cgroup, an IRQ, a softirq, a timer "
	    "(default 3)",
	    G_OUTPUT },
	  M },
	{ { "spike-dir-max", OPT_SPIKE_DIR_MAX, "SIZE", 0,
	    "total size of the spike files (default 100MiB)", G_OUTPUT },
	  M },
	{ { "on-spike", OPT_ON_SPIKE, "CMD", 0,
	    "with --spike-dir: run CMD (/bin/sh -c) on a housekeeping CPU for each spike written, "
	    "one at a time; JS_SPIKE_* variables name it; its exit 99 ends the run (exit 3)",
	    G_OUTPUT },
	  M },
	{ { "on-spike-timeout", OPT_ON_SPIKE_TIMEOUT, "TIME", 0,
	    "kill an --on-spike command after TIME (default 10s)", G_OUTPUT },
	  M },
	{ { "on-end", OPT_ON_END, "CMD", 0,
	    "run CMD (/bin/sh -c) on a housekeeping CPU once the report is written; JS_RUN_JSON "
	    "names the run's JSON, JS_RUN_EXIT_STATUS, _VERDICT, _LOST_NS ... the rest",
	    G_OUTPUT },
	  M },
	{ { "on-end-timeout", OPT_ON_END_TIMEOUT, "TIME", 0,
	    "kill the --on-end command after TIME (default 60s)", G_OUTPUT },
	  M },
	{ { "budget", OPT_BUDGET, "SPEC", 0,
	    "e.g. max=50us,p99.9=5us,smi=0,irq=0,lost=0.1%: exit 2 if exceeded", G_OUTPUT },
	  M | R },
	{ { "budget-interval", OPT_BUDGET_INTERVAL, "TIME", 0,
	    "with --duration 0: the --budget limits apply to each interval this long (default "
	    "1m)",
	    G_OUTPUT },
	  M },
	{ { "top", 'n', "N", 0, "worst gaps listed (default 10, max 1000)", G_OUTPUT }, M | R },
	{ { "by", OPT_BY, "source|cgroup", 0,
	    "the cause table's sources: each source (default), "
	    "or merged per cgroup (container, pod, systemd unit)",
	    G_OUTPUT },
	  M | R },
	{ { "quiet", 'q', NULL, 0, "no progress line, no notices", G_OUTPUT }, M | C | R | D },
	{ { "no-progress", OPT_NO_PROGRESS, NULL, 0, "no progress line on stderr", G_OUTPUT }, M },
	{ { "verbose", 'v', NULL, 0, "debug messages (twice: libbpf's too)", G_OUTPUT },
	  M | C | R | D },
	{ { "alpha", OPT_ALPHA, "P", 0, "significance level of a verdict (default 0.01)", G_DIFF },
	  D },
	{ { "min-change", OPT_MIN_CHANGE, "PCT", 0, "smallest change that counts (default 10%)",
	    G_DIFF },
	  D },
	{ { "fail-on", OPT_FAIL_ON, "worse|SEV", 0,
	    "diff: exit 2 when a change is significantly worse; check: exit 2 for an unwaived "
	    "fail or warn of severity SEV (info, low, med, high, crit) or above",
	    G_DIFF },
	  D | C },
	{ { "probe-toggle", OPT_PROBE_TOGGLE, "FILE", OPTION_HIDDEN,
	    "bench only: detach and attach the probes again at random every 0.3-0.7 s while "
	    "measuring, each change logged to FILE (attached,start_ns,end_ns)",
	    G_MEASURE },
	  M },
	{ { "test-hook", OPT_TEST_HOOK, "fault|thp|stall", OPTION_HIDDEN,
	    "test only: the sampler "
	    "faults on its own memory every 10 ms, reads a region khugepaged may collapse, or "
	    "stalls 250 us inside every gap",
	    G_MEASURE },
	  M },
	{ { "help", 'h', NULL, 0, "give this help list", G_INFO }, M | C | R | D },
	{ { "usage", OPT_USAGE, NULL, 0, "give a short usage message", G_INFO }, M | C | R | D },
	{ { "version", 'V', NULL, 0, "print the program version", G_INFO }, M | C | R | D },
	{ { "completion", OPT_COMPLETION, "bash", 0, "print the bash completion script", G_INFO },
	  M },
	{ { "list-options", OPT_LIST_OPTIONS, NULL, OPTION_HIDDEN,
	    "docs check: every option, a line each: COMMAND --LONG -S ARG", G_INFO },
	  M },
};

#undef M
#undef C
#undef R
#undef D

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
		all_options[n++] = options[i].o;
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
	{ OPT_ON_SPIKE_TIMEOUT,
	  "--on-spike-timeout",
	  offsetof(struct js_params, on_spike_timeout_ns),
	  { JS_SEC, JS_MS, JS_DAY, NULL } },
	{ OPT_ON_END_TIMEOUT,
	  "--on-end-timeout",
	  offsetof(struct js_params, on_end_timeout_ns),
	  { JS_SEC, JS_MS, JS_DAY, NULL } },
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

/* path_opt - a path's (or a command's) option argument into *out; EINVAL after argp_error
 * when empty */
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

/* parse_per_min - "10" or "10/min": 1..JS_SPIKE_MAX_MAX a minute into *v */
static int parse_per_min(const char *arg, unsigned *v)
{
	size_t len = strcspn(arg, "/");
	unsigned long long n;
	char num[24];

	snprintf(num, sizeof(num), "%.*s", (int)JS_MIN(len, sizeof(num) - 1), arg);
	if ((arg[len] && strcmp(arg + len, "/min")) || len >= sizeof(num) ||
	    parse_uint(num, JS_SPIKE_MAX_MAX, &n) || !n)
		return -EINVAL;
	*v = (unsigned)n;
	return 0;
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

/* parse_event - --event SUBSYS:NAME[,SUBSYS:NAME]: at most JS_USER_EVENTS_MAX, none twice
 * (an event's opening tracepoint names it); whether it exists is preflight's */
static int parse_event(const char *arg, struct js_params *p, struct argp_state *state)
{
	struct js_user_event ev;
	char why[96];

	if (user_event_parse(arg, &ev, why, sizeof(why))) {
		argp_error(state, "invalid --event '%s' (%s)", arg, why);
		return EINVAL;
	}
	if (user_event_find(p->cfg.events, p->cfg.nevents, ev.open) >= 0) {
		argp_error(state, "--event %s given twice", ev.open);
		return EINVAL;
	}
	if (p->cfg.nevents == JS_USER_EVENTS_MAX) {
		argp_error(state, "too many --event (at most %d)", JS_USER_EVENTS_MAX);
		return EINVAL;
	}
	p->cfg.events[p->cfg.nevents++] = ev;
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

	/* an option of another command: refused by name (the table above) */
	if (key > 0 && key < 0x1000000 /* argp's own keys above */ && taken(state, key, p->cmd))
		return EINVAL;
	if (key == 'T') { /* a TIME, or auto (js_threshold.h); the last -T counts */
		p->cfg.threshold_auto = !strcmp(arg, "auto");
		if (p->cfg.threshold_auto) {
			p->cfg.threshold_ns = 0;
			return 0;
		}
	}
	ret = parse_time_opt(key, arg, state);
	if (ret != ARGP_ERR_UNKNOWN) {
		p->duration_given |= key == 'd';
		return ret;
	}
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
		p->top_given = true;
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
	case OPT_DRAIN_THREADS:
		if (!strcmp(arg, "auto")) {
			p->drain_threads = 0;
			break;
		}
		if (parse_uint(arg, SCALE_SHARDS_MAX, &v) || !v) {
			argp_error(state, "invalid --drain-threads '%s' (auto, or 1..%d)", arg,
				   SCALE_SHARDS_MAX);
			return EINVAL;
		}
		p->drain_threads = (unsigned)v;
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
	case OPT_SPIKE_MAX:
		if (parse_per_min(arg, &p->spike_max)) {
			argp_error(state, "invalid --spike-max '%s' (1..%d a minute, e.g. 10/min)",
				   arg, JS_SPIKE_MAX_MAX);
			return EINVAL;
		}
		break;
	case OPT_SPIKE_PER_SOURCE:
		if (parse_per_min(arg, &p->spike_per_source)) {
			argp_error(state,
				   "invalid --spike-per-source '%s' (1..%d a minute, e.g. 3/min)",
				   arg, JS_SPIKE_MAX_MAX);
			return EINVAL;
		}
		break;
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
		break;
	case OPT_MIN_CHANGE:
		if (parse_number(arg, true, 0, 1000, &p->min_change_pct)) {
			argp_error(state,
				   "invalid --min-change '%s' (a percentage, 0..1000, e.g. 10%%)",
				   arg);
			return EINVAL;
		}
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
		break;
	case OPT_GAPS_MAX: {
		static const struct js_unit_spec spec = { 1, 64 * JS_KIB, JS_TIB, NULL };

		if (js_parse_size(arg, &spec, &p->gaps_max_bytes, err, sizeof(err))) {
			argp_error(state, "invalid --gaps-max-size '%s': %s", arg, err);
			return EINVAL;
		}
		break;
	}
	case OPT_ON_SPIKE:
		return path_opt(state, arg, "--on-spike", "a command for /bin/sh -c", &p->on_spike);
	case OPT_ON_END:
		return path_opt(state, arg, "--on-end", "a command for /bin/sh -c", &p->on_end);
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
	case OPT_DEEPEST_IDLE:
		if (parse_uint(arg, JS_DEEPEST_IDLE_MAX, &v)) {
			argp_error(state,
				   "invalid --deepest-idle-state '%s' (a cpuidle state, 0..%d)",
				   arg, JS_DEEPEST_IDLE_MAX);
			return EINVAL;
		}
		p->cfg.idle_limit = true;
		p->cfg.deepest_idle_state = (int)v;
		break;
	case OPT_NO_PROBES:
		p->cfg.no_probes = true;
		break;
	case OPT_NO_WAKER:
		p->no_waker = true;
		break;
	case OPT_STACKS:
		p->stacks = true;
		break;
	case OPT_PROBE_COST:
		p->probe_cost = true;
		break;
	case OPT_PROBES: {
		int set = probe_set_from_name(arg);

		if (set < 0) {
			argp_error(state, "invalid --probes '%s' (full or lean)", arg);
			return EINVAL;
		}
		p->cfg.probes_lean = set == 1;
		p->probes_given = true;
		break;
	}
	case OPT_EVENT:
		return parse_event(arg, p, state);
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
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP & ~ARGP_HELP_EXIT_OK);
		p->help = true;
		break;
	case OPT_COMPLETION:
		if (strcmp(arg, "bash")) {
			argp_error(state, "invalid --completion '%s' (bash)", arg);
			return EINVAL;
		}
		cli_completion_bash(stdout);
		p->help = true;
		break;
	case OPT_LIST_OPTIONS:
		cli_list_options(stdout);
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
		/* -- CMD [ARGS...]: the rest of the line is the command, its options its own */
		if (p->cmd == JS_CMD_MEASURE && state->quoted && state->next > state->quoted) {
			p->run_argv = &state->argv[state->next - 1];
			state->next = state->argc;
			break;
		}
		if (p->cmd == JS_CMD_REPORT || p->cmd == JS_CMD_DIFF) {
			if (p->ninputs >= 2) {
				argp_error(state, "too many files");
				return EINVAL;
			}
			p->inputs[p->ninputs++] = arg;
			break;
		}
		argp_error(state,
			   "unexpected argument '%s' (a command comes first: check, report or "
			   "diff; a program to run after --)",
			   arg);
		return EINVAL;
	case ARGP_KEY_END:
		if (p->cmd == JS_CMD_MEASURE && state->quoted && !p->run_argv) {
			argp_error(state, "-- needs a command to run: -- CMD [ARGS...]");
			return EINVAL;
		}
		break;
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
