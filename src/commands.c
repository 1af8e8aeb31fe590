// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * commands.c - the four commands, and js_commands[], the one table of them that the
 * command line (cli.c: the command word) and main() (dispatch) go by:
 *   jitterscope [OPTION...]              measure: preflight -> pipeline -> outputs, report
 *   jitterscope check [--cpu LIST]       the isolation audit alone
 *   jitterscope report RUN.json          the human report again, exactly as the run printed it
 *   jitterscope diff A.json B.json       two runs compared (--json, --html FILE: also as JSON,
 *                                        as a page; js_diff.h)
 * Each returns an exit status (js_util.h); a refusal or a failure prints one line.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "js_audit.h"
#include "js_budget.h"
#include "js_cpulist.h"
#include "js_cpus.h"
#include "js_diff.h"
#include "js_dma_latency.h"
#include "js_idle_states.h"
#include "js_json.h"
#include "js_on_end.h"
#include "js_output.h"
#include "js_pipeline.h"
#include "js_preflight.h"
#include "js_report.h"
#include "js_report_load.h"
#include "js_spawn.h"
#include "js_sysfs.h"
#include "js_util.h"

/* -- CMD: the command's process once started (held: js_spawn.h), and the stop signals
 * passed on to it */
static volatile pid_t cmd_pid;
static volatile sig_atomic_t cmd_signals;

/* on_signal - SIGINT, SIGTERM: stop and report. With -- CMD the signal goes to CMD, whose
 * exit ends the run: passed on unless the terminal sent it to its whole foreground group
 * (a Ctrl-C), which CMD is in (its own group, if it made one, is always passed it) */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (cmd_pid) {
		if (si->si_code <= 0 /* SI_USER, SI_QUEUE, SI_TKILL: sent by a process */ ||
		    getpgid(cmd_pid) != getpgrp())
			kill(cmd_pid, sig);
		if (++cmd_signals >= 2)
			_exit(JS_EXIT_SIGNAL);
		return;
	}
	/* the second Ctrl-C exits at once; the kernel detaches our BPF links with the fds */
	if (++js_stop_requested >= 2)
		_exit(JS_EXIT_SIGNAL);
}

/* on_hup - SIGHUP: the output files are reopened (log rotation), the run goes on */
static void on_hup(int sig)
{
	(void)sig;
	js_reopen_requested = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO },
			 hup = { .sa_handler = on_hup };

	sigemptyset(&sa.sa_mask);
	sigemptyset(&hup.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &hup, NULL);
	/* a FIFO or pipe whose reader left is a failed write (EPIPE), reported, not a kill */
	signal(SIGPIPE, SIG_IGN);
}

/* an_output_on_stdout - an output file is "-": the human report goes to stderr */
static bool an_output_on_stdout(const struct js_params *p)
{
	for (size_t i = 0; i < js_noutput_kinds; i++) {
		const char *path = output_kind_path(&js_output_kinds[i], p);

		if (path && !strcmp(path, "-"))
			return true;
	}
	return false;
}

/* report_fp - where the human report goes: stdout, or stderr when an output is on stdout */
static FILE *report_fp(const struct js_params *p)
{
	return an_output_on_stdout(p) ? stderr : stdout;
}

/* check_budget - --budget after the run: one line per limit; the violations (exit 2 when
 * there is one) */
static int check_budget(const struct js_params *p, const struct js_run *run)
{
	FILE *fp = report_fp(p);

	fputc('\n', fp);
	return budget_check(&p->budget, run, fp);
}

/* tick_line - what the tick did on r's CPU: the local timer interrupts the probes saw while
 * measuring (not jitterscope's own start, whose probe attach may restart it), else those of
 * /proc/interrupts over the run */
static bool tick_line(const struct js_run *run, const struct js_cpu_result *r, char *line)
{
	const struct js_causes *c = &r->causes;
	uint64_t n = 0;

	if (run->probes_on) {
		for (uint32_t i = 0; i < c->nsrc; i++) {
			const struct js_cause_src *s = &c->src[i];

			if ((s->cause == JS_CAUSE_TIMER && !strcmp(s->detail, "local_timer")) ||
			    (s->cause == JS_CAUSE_IRQ && strstr(s->detail, "arch_timer")))
				n += s->events;
		}
		return audit_tick_line(&run->audit, r->cpu, n, (r->end_ns - r->start_ns) / 1e9,
				       "while measuring", line);
	}
	if (!run->have_deltas)
		return false;
	return audit_tick_line(&run->audit, r->cpu, audit_deltas_local_timer(&run->deltas, r->cpu),
			       run->deltas.seconds, "over the run", line);
}

/* observed - r's sources (the first max, by time) as the audit's observations; their number */
static size_t observed(const struct js_cpu_result *r, struct audit_observed *obs, size_t max)
{
	static const struct js_cause_src *src[JS_CAUSES_SRC_MAX];
	size_t k = causes_sorted(&r->causes, src, JS_MIN(max, JS_CAUSES_SRC_MAX));

	for (size_t j = 0; j < k; j++)
		obs[j] = (struct audit_observed){
			.cpu = r->cpu,
			.cause = js_cause_name(src[j]->cause),
			.detail = src[j]->detail,
			.count = src[j]->events ? src[j]->events : src[j]->gaps,
			.total_ns = src[j]->total_ns,
			.seconds = (double)(r->end_ns - r->start_ns) / 1e9,
		};
	return k;
}

/* crosscheck - tie the most frequent observed causes to the settings behind them (the
 * lines), and every source of each result to the findings that explain it (its ties, for
 * the answer's "fix first") */
static void crosscheck(struct js_run *run)
{
	enum { MAXOBS = 64 };
	struct audit_observed obs[MAXOBS];
	size_t n = 0;

	static struct audit_observed every[JS_CAUSES_SRC_MAX];

	for (size_t i = 0; i < run->ncpus; i++) {
		struct js_cpu_result *r = &run->cpus[i];
		size_t k = observed(r, every, JS_CAUSES_SRC_MAX);

		r->nties = audit_ties(&run->audit, every, k, r->ties, AUDIT_TIES_MAX);
		run->tied = true;
		n += observed(r, obs + n, JS_MIN((size_t)16, MAXOBS - n));
	}
	run->xcheck = calloc(MAXOBS, sizeof(*run->xcheck));
	if (!run->xcheck)
		return;
	run->nxcheck = audit_crosscheck(&run->audit, obs, n, run->xcheck, MAXOBS);
	/* what the tick did on the nohz_full CPUs measured, stopped or not */
	for (size_t i = 0; i < run->ncpus && run->nxcheck < MAXOBS; i++)
		if (run->cpus[i].source != JS_SRC_THREAD &&
		    tick_line(run, &run->cpus[i], run->xcheck[run->nxcheck]))
			run->nxcheck++;
}

/* audit_ran_on - --pid/--tid: the audit run again, at the end, over the watched CPUs and
 * every other CPU the followed threads ran on (their affinity may have changed, or a new
 * thread run elsewhere), so that it covers the CPUs where their gaps could come from */
static void audit_ran_on(struct js_run *run)
{
	static int cpus[JS_MAX_CPUS];
	struct js_cpuset set;
	char list[128];
	size_t n = 0;

	cpuset_zero(&set);
	for (size_t i = 0; i < run->audit.ncpus; i++)
		cpuset_set(&set, run->audit.cpus[i]);
	if (!run_ran_on(run, &set))
		return;
	for (int c = cpuset_next(&set, 0); c >= 0; c = cpuset_next(&set, c + 1))
		cpus[n++] = c;
	cpulist_format(&set, list, sizeof(list));
	js_notice("the followed threads ran outside the watched CPUs: the isolation audit "
		  "covers CPU %s",
		  list);
	audit_free(&run->audit);
	run->audited = audit_run(&run->audit, cpus, n, NULL) == 0;
}

/* check_waivers - --waive and --waive-file into w; -1 after one line (exit 64) */
static int check_waivers(const struct js_params *p, struct audit_waivers *w)
{
	char err[512] = "";

	for (size_t i = 0; i < p->nwaive; i++)
		if (audit_waivers_add_list(w, p->waive[i], err, sizeof(err))) {
			js_err("invalid --waive '%s': %s", p->waive[i], err);
			return -1;
		}
	if (p->waive_file && audit_waivers_add_file(w, p->waive_file, err, sizeof(err))) {
		js_err("--waive-file %s", err);
		return -1;
	}
	return 0;
}

/* cmd_check - `jitterscope check`: the audit alone; exit 2 when an unwaived check failed
 * (--fail-on: a fail or warn of that severity or above) */
static int cmd_check(struct js_params *p)
{
	struct audit_waivers w = { 0 };
	struct js_audit a;
	struct js_cpuset online;
	FILE *json = NULL;
	int err, rc, src;

	if (p->sysroot && sysfs_set_root(p->sysroot)) {
		js_err("--sysroot '%s' is not a readable directory", p->sysroot);
		return JS_EXIT_USAGE;
	}
	if (!p->cfg.ncpus) {
		if (cpus_online(&online)) {
			js_err("cannot read the online CPUs");
			return JS_EXIT_ERROR;
		}
		src = cpus_default(&online, &online, p->cpus_isolated, p->cfg.cpus, &p->cfg.ncpus);
		if (src < 0)
			return JS_EXIT_USAGE;
		cpus_default_notice("auditing", p->cfg.cpus, p->cfg.ncpus, src);
	}
	if (check_waivers(p, &w)) {
		audit_waivers_free(&w);
		return JS_EXIT_USAGE;
	}
	if (p->json_path && !(json = output_file_open(p->json_path, "json"))) {
		audit_waivers_free(&w);
		return JS_EXIT_ERROR;
	}
	memset(&a, 0, sizeof(a));
	err = audit_run_for(&a, p->cfg.cpus, p->cfg.ncpus, p->sysroot, p->cfg.policy);
	if (err) {
		/* only out of memory is not the command line's fault */
		js_err("the audit could not run: %s",
		       err == -EINVAL ? "a CPU out of range" : strerror(-err));
		output_file_close(json);
		audit_waivers_free(&w);
		return err == -ENOMEM ? JS_EXIT_ERROR : JS_EXIT_USAGE;
	}
	audit_waive(&a, &w);
	audit_waivers_free(&w);
	if (p->plan) { /* the plan instead of the audit's lines (no --json: cli.c); exit 0 */
		rc = audit_plan_print(stdout, &a) ? JS_EXIT_USAGE : JS_EXIT_OK;
		if (rc)
			js_err("--plan: no online CPU is left for housekeeping");
		audit_free(&a);
		return rc;
	}
	if (!p->json_path || strcmp(p->json_path, "-"))
		audit_print_text(stdout, &a, false);
	if (json) {
		struct js_json j;

		json_init(&j, json);
		json_obj_begin(&j, NULL);
		json_u64(&j, "schema_version", JS_SCHEMA_VERSION);
		json_str(&j, "tool", "jitterscope");
		audit_write_json(&j, "audit", &a);
		json_obj_end(&j);
		if (output_file_done(json, p->json_path, "json")) {
			audit_free(&a);
			return JS_EXIT_ERROR;
		}
	}
	rc = audit_exit_for(&a, p->audit_fail_on);
	audit_free(&a);
	return rc;
}

/* stdout_failed - an output on stdout failed (and said so): the report there fails too */
static bool stdout_failed(const struct js_outputs *o)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->v[i].err && !strcmp(o->v[i].path, "-"))
			return true;
	return false;
}

/* output_ok - the output of option opt (if asked for) has not failed */
static bool output_ok(const struct js_outputs *o, const char *opt)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].opt, opt))
			return !o->v[i].err;
	return true;
}

/* audited_policy - the scheduling policy the audit judges for: the sampler's, or with
 * --pid/--tid that of the followed process or first thread (RT throttling hits it alike) */
static int audited_policy(const struct js_params *p)
{
	int id = p->follow_pid ? p->follow_pid : p->nfollow_tids ? p->follow_tids[0] : 0;
	int pol = id ? sched_getscheduler(id) : -1;

	return pol >= 0 ? pol & ~SCHED_RESET_ON_FORK : p->cfg.policy;
}

/* hold_dma_latency - --dma-latency US: the PM QoS request's fd; without the device (or
 * the right to open it) one notice line, and the run goes on without it: -1 */
static int hold_dma_latency(int us)
{
	int fd = dma_latency_hold(us);

	if (fd >= 0) {
		js_notice("holding %s at %d us while measuring", JS_DMA_LATENCY_DEV, us);
		return fd;
	}
	js_notice("--dma-latency: cannot hold %s (%s): measuring without it", JS_DMA_LATENCY_DEV,
		  fd == -ENOENT ? "no such device: a kernel without PM QoS" : strerror(-fd));
	return -1;
}

/* recover_idle - the idle states a run killed before it gave them back (SIGKILL, a crash)
 * left disabled, given back from its state file (js_idle_states.h); one line when any were */
static void recover_idle(void)
{
	struct idle_states done = { 0 };
	char what[512];
	int r = idle_recover(JS_IDLE_RUN_DIR, &done);

	if (r > 0)
		js_notice("restored states left disabled by a previous run (pid %d): %s", done.pid,
			  idle_states_str(&done, what, sizeof(what)));
	else if (r < 0)
		js_warn("cannot restore the idle states a previous run left disabled (%s): see %s",
			strerror(-r), JS_IDLE_RUN_DIR);
	idle_states_free(&done);
}

/* hold_idle - --deepest-idle-state N: the cpuidle states deeper than N disabled on the
 * measured CPUs (run->idle, given back by release_idle); where none can be, one line says
 * why (run->idle_why) and the run goes on without */
static void hold_idle(const struct js_params *p, struct js_run *run)
{
	int n = p->cfg.deepest_idle_state, err;
	char cpus[96], what[512];
	struct js_cpuset set;

	cpuset_zero(&set);
	for (size_t i = 0; i < p->cfg.ncpus; i++)
		cpuset_set(&set, p->cfg.cpus[i]);
	cpulist_format(&set, cpus, sizeof(cpus));
	err = idle_plan(p->cfg.cpus, p->cfg.ncpus, n, &run->idle);
	if (!err && !run->idle.n) {
		js_notice(
			"--deepest-idle-state %d: no enabled idle state deeper than %d on CPU%s %s: "
			"nothing to disable",
			n, n, p->cfg.ncpus > 1 ? "s" : "", cpus);
		return;
	}
	if (!err)
		err = idle_disable(&run->idle, JS_IDLE_RUN_DIR);
	if (err) {
		run->idle.n = 0;
		if (err == -ENOENT)
			snprintf(run->idle_why, sizeof(run->idle_why),
				 "no cpuidle states on CPU%s %s (no cpuidle driver)",
				 p->cfg.ncpus > 1 ? "s" : "", cpus);
		else
			snprintf(run->idle_why, sizeof(run->idle_why),
				 "cannot disable the idle states of CPU%s %s (%s)",
				 p->cfg.ncpus > 1 ? "s" : "", cpus, strerror(-err));
		js_notice("--deepest-idle-state: %s: measuring without it", run->idle_why);
		return;
	}
	js_notice("idle states deeper than %d disabled while measuring: %s", n,
		  idle_states_str(&run->idle, what, sizeof(what)));
}

/* release_idle - the states hold_idle disabled given back (again harmless); a warning when
 * they cannot be: the state file stays, and the next run gives them back */
static void release_idle(struct js_run *run)
{
	char what[512];
	int err = idle_restore(&run->idle, JS_IDLE_RUN_DIR);

	if (err)
		js_warn("cannot give back the idle states (%s): %s stay disabled until the next run",
			strerror(-err), idle_states_str(&run->idle, what, sizeof(what)));
}

/* The measured CPUs' interrupt and softirq counts at the window's opening and close (the
 * pipeline's hook): the deltas are the window's, without the probes' attach and detach */
struct counters {
	const int *cpus;
	const size_t *n; /* read as the window opens: preflight may choose the CPUs */
	struct audit_snapshot before, after;
	bool have_before, have_after;
};

static void counters_opened(void *ctx)
{
	struct counters *c = ctx;

	c->have_before = audit_snapshot_take(&c->before, c->cpus, *c->n) == 0;
}

static void counters_closed(void *ctx)
{
	struct counters *c = ctx;

	c->have_after = c->have_before && audit_snapshot_take(&c->after, c->cpus, *c->n) == 0;
}

/* counters_done - the deltas into run (when both snapshots were read); frees them */
static void counters_done(struct counters *c, struct js_run *run)
{
	if (c->have_after) {
		run->have_deltas = audit_snapshot_diff(&c->before, &c->after, &run->deltas) == 0;
		audit_snapshot_free(&c->after);
	}
	if (c->have_before)
		audit_snapshot_free(&c->before);
	c->have_before = c->have_after = false;
}

/* cmd_status - with -- CMD, the exit status of a run that ended with rc: CMD's (waited for
 * if it still runs) unless rc is not 0; 1 if the run never let it start (abandoned) */
static int cmd_status(const struct js_params *p, struct spawn *child, int rc)
{
	if (!spawn_released(child)) {
		spawn_abandon(child); /* the run never started: nor did CMD */
		return rc == JS_EXIT_OK ? JS_EXIT_ERROR : rc;
	}
	if (!spawn_reap(child, false)) {
		js_notice("waiting for %s (pid %d) to exit", p->run_argv[0], (int)child->pid);
		spawn_reap(child, true);
	}
	cmd_pid = 0; /* reaped: a signal now (during --on-end) is ours */
	return rc == JS_EXIT_OK ? spawn_exit_code(child) : rc;
}

/* measure - preflight, measure (with -- CMD's child, else NULL), outputs and report, then
 * --on-end's command with the exit status */
static int measure(struct js_params *p, struct spawn *child)
{
	struct js_run run;
	struct js_outputs outs = { .n = 0 };
	struct gap_source srcs[3];
	size_t nsrcs = 0;
	struct counters cnt = { .cpus = p->cfg.cpus, .n = &p->cfg.ncpus };
	struct pipe_window_hook hook = { counters_opened, counters_closed, &cnt };
	cpu_set_t hk;
	int err, rc = JS_EXIT_OK, qos = -1, viol = -1;
	bool reported = false, json_ok = false;

	memset(&run, 0, sizeof(run));
	/* from here on a stop signal ends the run with a (possibly empty) report */
	install_signals();
	if (preflight_events(p) || preflight_cpus(p, &hk) || preflight_btf(p)) {
		rc = JS_EXIT_USAGE;
		goto out;
	}
	if (preflight_machine(p, &run.machine)) {
		rc = JS_EXIT_ERROR;
		goto out;
	}
	/* every output opened before measuring: no 60 s run lost to a bad path */
	if (outputs_open(&outs, p)) {
		rc = JS_EXIT_ERROR;
		goto out;
	}
	preflight_warnings(p, &run.machine);
	/* our own threads stay on housekeeping CPUs; samplers re-pin themselves */
	if (sched_setaffinity(0, sizeof(hk), &hk))
		js_warn("cannot move to the housekeeping CPUs: %s", strerror(errno));
	preflight_lock_memory();
	/* --dma-latency: held before the audit, whose pm_qos check then sees it, until exit */
	if (p->dma_latency_us >= 0)
		qos = hold_dma_latency(p->dma_latency_us);
	/* a killed run's idle states first; then --deepest-idle-state's, also before the audit
	 * (its cstates check sees them), given back as measuring ends, or at out: on a failure */
	recover_idle();
	if (p->cfg.idle_limit)
		hold_idle(p, &run);
	/* the audit is read-only and fast: it runs before the samplers start */
	run.audited =
		audit_run_for(&run.audit, p->cfg.cpus, p->cfg.ncpus, NULL, audited_policy(p)) == 0;
	/* the gap sources besides the samplers, opened by the pipeline once its probes are loaded */
	if (params_follows(p))
		threads_source(&srcs[nsrcs++]);
	if (p->marks_path)
		marks_source(&srcs[nsrcs++]);
	if (child)
		run_cmd_source(&srcs[nsrcs++], child);
	err = pipeline_run(&run, p, &outs, srcs, nsrcs, &hook);
	counters_done(&cnt, &run);
	release_idle(&run); /* before the outputs: the JSON says whether it was */
	if (err) {
		rc = JS_EXIT_ERROR;
		goto out;
	}
	if (run.audited)
		audit_ran_on(&run);
	if (run.audited)
		crosscheck(&run);
	/* a finite run's limits, exported with the outputs (--prom, --listen); a run without
	 * end counted them per interval (pipeline.c, the last one as it ended) */
	if (p->budget.n && !params_budget_intervals(p))
		budget_count(&p->budget, &run, run.budget_viol);
	/* a failed output (during the run or now) leaves the others written: exit 1 */
	if (outputs_finish(&outs, &run))
		rc = JS_EXIT_ERROR;
	if (!p->json_path || strcmp(p->json_path, "-"))
		report_text(stdout, &run);
	else if (!p->quiet)
		report_text(stderr, &run);
	/* budgets last, under the report they judge; then -- CMD's verdict line */
	if (rc == JS_EXIT_OK && p->budget.n)
		viol = check_budget(p, &run);
	rc = report_exit_status(rc != JS_EXIT_OK, viol, run.ended_by);
	if (rc != JS_EXIT_ERROR && run.command.on)
		report_verdict(report_fp(p), &run, &p->budget, viol);
	err = output_file_flush(stdout);
	if (err && !stdout_failed(&outs)) {
		js_err("cannot write the report to standard output: %s", strerror(-err));
		rc = JS_EXIT_ERROR;
	}
	reported = true;
	json_ok = output_ok(&outs, "json");
out:
	release_idle(&run); /* measuring is over: before -- CMD's end is waited for */
	if (child)
		rc = cmd_status(p, child, rc);
	dma_latency_release(qos);
	outputs_destroy(&outs);
	if (reported) /* every file closed, the exit status known */
		on_end_run(p, &run, json_ok, rc, viol);
	run_free(&run);
	return rc;
}

/* cmd_measure - `jitterscope [OPTION...] [-- CMD [ARGS...]]`: the measurement; with CMD,
 * started held (js_spawn.h) before anything of ours is narrowed (affinity, signals), let
 * run once the probes are attached (run_cmd.c) and waited for: its exit status is ours
 * unless the run failed (1), its --budget (2) or the --on-spike command ended it (3)
 * (cmd_status); one that cannot be run is 127 or 126 */
static int cmd_measure(struct js_params *p)
{
	struct spawn child;
	int rc;

	if (!p->run_argv)
		return measure(p, NULL);
	rc = spawn_held(&child, p->run_argv);
	if (rc)
		return rc;
	if (p->follow_cmd)
		p->follow_pid = child.pid;
	cmd_pid = child.pid;
	return measure(p, &child);
}

/* load - one saved run, or one line on stderr */
static int load(const char *path, struct js_run *run)
{
	char err[512];

	if (report_load_file(path, run, err, sizeof(err)) == 0)
		return 0;
	js_err("%s: %s", path, err);
	return -1;
}

/* finish - flush stdout; a write error (a full disk, a closed pipe) is an error */
static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		js_err("writing the report failed");
		return JS_EXIT_ERROR;
	}
	return rc;
}

/* cmd_report - `jitterscope report RUN.json [OPTION...]`: the saved run's human report,
 * and the outputs a saved run can feed (--json, --html, --prom, --hgrm, --folded; the option
 * table refuses the others), -n and --by (how to show it, which the file does not decide) and
 * --budget, judged as at run time (exit 2) */
static int cmd_report(struct js_params *p)
{
	struct js_outputs outs = { .n = 0 };
	struct js_run run;
	int rc = JS_EXIT_OK, viol = 0;

	if (load(p->inputs[0], &run))
		return JS_EXIT_ERROR;
	run.cfg.by = p->cfg.by;
	if (outputs_open(&outs, p)) {
		report_load_free(&run);
		return JS_EXIT_ERROR;
	}
	/* every gap it kept to the outputs (the HTML scatter), then the worst -n listed */
	outputs_replay(&outs, &run);
	if (p->top_given) {
		run.cfg.top = p->cfg.top;
		for (size_t i = 0; i < run.ncpus; i++)
			while (run.cpus[i].top.n > p->cfg.top)
				topn_pop_min(&run.cpus[i].top);
	}
	memset(run.budget_viol, 0, sizeof(run.budget_viol)); /* this report's limits alone */
	if (p->budget.n)
		budget_count(&p->budget, &run, run.budget_viol);
	if (outputs_finish(&outs, &run))
		rc = JS_EXIT_ERROR;
	if (!an_output_on_stdout(p))
		report_text(stdout, &run);
	else if (!p->quiet)
		report_text(stderr, &run);
	if (rc == JS_EXIT_OK && p->budget.n && (viol = check_budget(p, &run)))
		rc = JS_EXIT_VIOLATION;
	if (rc != JS_EXIT_ERROR && run.command.on) /* a run of -- CMD: its verdict again */
		report_verdict(report_fp(p), &run, &p->budget, viol);
	outputs_destroy(&outs);
	report_load_free(&run);
	return finish(rc);
}

/* write_file - one rendering of the comparison into path ("-": stdout) for option --opt */
static int write_file(const char *path, const char *opt, const struct js_diff *d,
		      void (*render)(FILE *fp, const struct js_diff *d))
{
	FILE *fp = output_file_open(path, opt);

	if (!fp)
		return -1;
	render(fp, d);
	return output_file_done(fp, path, opt) ? -1 : 0;
}

/* diff_outputs - the text (stdout, or stderr when a file goes to stdout), the JSON and
 * HTML files, and with --fail-on worse the verdict as the last line of the text */
static int diff_outputs(const struct js_params *p, const struct js_diff *d)
{
	bool to_stdout = (p->json_path && !strcmp(p->json_path, "-")) ||
			 (p->html_path && !strcmp(p->html_path, "-"));
	FILE *text = to_stdout ? stderr : stdout;

	if (d->unlike) {
		js_err("%s", d->unlike_why);
		return JS_EXIT_USAGE;
	}
	if (!to_stdout || !p->quiet)
		report_diff_text(text, d);
	if (p->json_path && write_file(p->json_path, "json", d, report_diff_json))
		return JS_EXIT_ERROR;
	if (p->html_path && write_file(p->html_path, "html", d, report_diff_html))
		return JS_EXIT_ERROR;
	if (!p->fail_on_worse)
		return JS_EXIT_OK;
	fflush(stdout);
	if (!d->count[DIFF_WORSE]) {
		fprintf(text, "fail-on worse: no change is significantly worse\n");
		return JS_EXIT_OK;
	}
	fprintf(text, "fail-on worse: %zu change%s worse, the first: %s\n", d->count[DIFF_WORSE],
		d->count[DIFF_WORSE] == 1 ? " is" : "s are", d->first_worse);
	return JS_EXIT_VIOLATION;
}

/* cmd_diff - `jitterscope diff A.json B.json [--json FILE] [--html FILE] [--alpha P]
 * [--min-change PCT] [--fail-on worse]`: two saved runs compared (js_diff.h); refused (64)
 * when they measured different things (a spinner's CPU against a thread), exit 2 under
 * --fail-on worse when a change is worse */
static int cmd_diff(struct js_params *p)
{
	const struct js_diff_opts o = { p->alpha, p->min_change_pct / 100 };
	struct js_run a, b;
	struct js_diff d;
	int rc = JS_EXIT_ERROR;

	if (load(p->inputs[0], &a))
		return JS_EXIT_ERROR;
	if (load(p->inputs[1], &b))
		goto out;
	if (diff_compute(&d, &a, p->inputs[0], &b, p->inputs[1], &o))
		js_err("out of memory");
	else
		rc = diff_outputs(p, &d);
	diff_free(&d);
	report_load_free(&b);
out:
	report_load_free(&a);
	return finish(rc);
}

const struct js_command js_commands[JS_CMD_MAX] = {
	[JS_CMD_MEASURE] = { NULL, NULL, cmd_measure },
	[JS_CMD_CHECK] = { "check", "", cmd_check },
	[JS_CMD_REPORT] = { "report", "RUN.json", cmd_report },
	[JS_CMD_DIFF] = { "diff", "A.json B.json", cmd_diff },
};
