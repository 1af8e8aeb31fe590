// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * main.c - orchestration: command line -> preflight checks -> measurement
 * (pipeline.c) -> reports. Exit codes are in js_util.h and README.md.
 */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "js_cpulist.h"
#include "js_cpus.h"
#include "js_audit.h"
#include "js_budget.h"
#include "js_cmds.h"
#include "js_output.h"
#include "js_json.h"
#include "js_params.h"
#include "js_pipeline.h"
#include "js_report.h"
#include "js_sysfs.h"
#include "js_util.h"

static void on_signal(int sig)
{
	(void)sig;
	/* the second Ctrl-C exits at once; the kernel detaches our BPF links with the fds */
	if (++js_stop_requested >= 2)
		_exit(JS_EXIT_SIGNAL);
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a FIFO or pipe whose reader left is a failed write (EPIPE), reported, not a kill */
	signal(SIGPIPE, SIG_IGN);
}

/* check_cpus - measured CPUs online and allowed; housekeeping left over */
static int check_cpus(struct js_params *p, cpu_set_t *hk_set)
{
	struct js_cpuset online, allowed, hk;
	cpu_set_t aff;

	if (cpus_online(&online)) {
		js_err("cannot read the online CPUs from /sys/devices/system/cpu/online");
		return -EIO;
	}
	if (sched_getaffinity(0, sizeof(aff), &aff)) {
		js_err("sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	cpuset_zero(&allowed);
	for (int c = 0; c < JS_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &aff))
			cpuset_set(&allowed, c);
	if (!p->cfg.ncpus && cpus_default(&online, &allowed, p->cfg.cpus, &p->cfg.ncpus))
		return -EINVAL;
	for (size_t i = 0; i < p->cfg.ncpus; i++) {
		if (!cpuset_isset(&online, p->cfg.cpus[i])) {
			js_err("CPU %d is not online (online: see /sys/devices/system/cpu/online)",
			       p->cfg.cpus[i]);
			return -EINVAL;
		}
		if (!cpuset_isset(&allowed, p->cfg.cpus[i])) {
			js_err("CPU %d is not in this process's allowed CPUs (cpuset/taskset)",
			       p->cfg.cpus[i]);
			return -EINVAL;
		}
	}
	cpuset_zero(&hk);
	if (p->cfg.nhk) {
		for (size_t i = 0; i < p->cfg.nhk; i++) {
			int c = p->cfg.hk[i];

			if (!cpuset_isset(&online, c) || !cpuset_isset(&allowed, c)) {
				js_err("housekeeping CPU %d is not online and allowed", c);
				return -EINVAL;
			}
			cpuset_set(&hk, c);
		}
	} else {
		hk = allowed;
		cpuset_and(&hk, &online);
		for (size_t i = 0; i < p->cfg.ncpus; i++)
			cpuset_clear(&hk, p->cfg.cpus[i]);
		for (int c = cpuset_next(&hk, 0); c >= 0; c = cpuset_next(&hk, c + 1))
			p->cfg.hk[p->cfg.nhk++] = c;
	}
	if (!p->cfg.nhk) {
		js_err("no housekeeping CPU left: every allowed CPU is measured; leave one "
		       "for jitterscope's own threads (measure fewer CPUs or use -H)");
		return -EINVAL;
	}
	CPU_ZERO(hk_set);
	for (size_t i = 0; i < p->cfg.nhk; i++)
		CPU_SET(p->cfg.hk[i], hk_set);
	return 0;
}

static void machine_facts(struct js_machine *m, const struct tsc_caps *caps)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s %s", u.release, u.machine);
		snprintf(m->hostname, sizeof(m->hostname), "%s", u.nodename);
	}
	snprintf(m->cpu_model, sizeof(m->cpu_model), "%s", caps->model);
	m->hypervisor = caps->hypervisor;
	m->invariant_tsc = tsc_caps_invariant(caps);
	m->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* have_cap - is capability @cap in our effective set */
static bool have_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

/* memlock_unlimited - RLIMIT_MEMLOCK is (or can be raised to) infinity */
static bool memlock_unlimited(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return false;
	if (rl.rlim_cur == RLIM_INFINITY)
		return true;
	if (rl.rlim_max != RLIM_INFINITY)
		return false;
	rl.rlim_cur = RLIM_INFINITY;
	return setrlimit(RLIMIT_MEMLOCK, &rl) == 0;
}

/* rt_allowed - refuses (-EPERM, one line) a real-time -P that cannot be granted */
static int rt_allowed(const struct js_params *p)
{
	struct rlimit rt;

	if (p->cfg.policy != SCHED_OTHER && !have_cap(CAP_SYS_NICE) &&
	    (getrlimit(RLIMIT_RTPRIO, &rt) || (rt.rlim_cur != RLIM_INFINITY &&
					       rt.rlim_cur < (rlim_t)p->cfg.priority))) {
		js_err("-P %s:%d needs root or CAP_SYS_NICE (or RLIMIT_RTPRIO >= %d); use -P o:0",
		       p->cfg.policy == SCHED_FIFO ? "f" : "r", p->cfg.priority, p->cfg.priority);
		return -EPERM;
	}
	return 0;
}

/* privileges - one warning naming the missing capabilities and what still works */
static void privileges(const struct js_params *p)
{
	bool admin = have_cap(CAP_SYS_ADMIN);
	bool bpf = admin || (have_cap(CAP_BPF) && have_cap(CAP_PERFMON));
	bool perfmon = admin || have_cap(CAP_PERFMON);
	bool lock = have_cap(CAP_IPC_LOCK) || memlock_unlimited();
	char missing[128] = "", lost[160] = "";

	if (!p->cfg.no_probes && !bpf) {
		strcat(missing, have_cap(CAP_BPF) ? "" : ", CAP_BPF");
		strcat(lost, ", no eBPF attribution");
	}
	if (!perfmon) {
		strcat(missing, ", CAP_PERFMON");
		if (!have_cap(CAP_SYS_RAWIO))
			strcat(lost, ", SMIs not counted");
	}
	if (!lock) {
		strcat(missing, ", CAP_IPC_LOCK");
		strcat(lost, ", memory not locked (page faults may show up as gaps)");
	}
	if (lost[0])
		js_warn("%s, missing %s: %s; the gaps are still measured",
			geteuid() ? "not root" : "root without capabilities", missing + 2,
			lost + 2);
}

/* lock_memory - mlockall, unless the memlock limit would make later allocations fail; and
 * a heap that never shrinks: freeing a large block or trimming the heap unmaps memory, and
 * unmapping sends a TLB shootdown IPI to every CPU running our threads - the samplers' */
static void lock_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);	/* up to 32 MiB from the heap, not mmap */
	mallopt(M_TRIM_THRESHOLD, INT_MAX);	/* and the heap is never trimmed */
	if (!have_cap(CAP_IPC_LOCK) && !memlock_unlimited())
		return;	/* MCL_FUTURE under a finite limit: every mmap beyond it fails */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		js_warn("mlockall: %s: page faults may show up as gaps", strerror(errno));
}

/* preflight - what the machine must offer before we spin (one line when it does not) */
static int preflight(const struct js_params *p, struct js_machine *m)
{
	struct tsc_caps caps;
	char *cpuinfo = NULL;
	size_t len;

	if (sysfs_read_file("/proc/cpuinfo", &cpuinfo, &len))
		cpuinfo = NULL;
	tsc_caps_detect(&caps, cpuinfo);
	free(cpuinfo);
	machine_facts(m, &caps);
	if (!caps.has_rdtscp && !p->cfg.lfence) {
		js_err("this CPU has no rdtscp: use --lfence");
		return -ENOTSUP;
	}
	return rt_allowed(p);
}

/* warnings - what the run will lack; printed once nothing can refuse it any more (a
 * refused run prints its one error line alone) */
static void warnings(const struct js_params *p, const struct js_machine *m)
{
	int rt = 0;

	if (!m->invariant_tsc)
		js_warn("the TSC is not invariant (no constant_tsc/nonstop_tsc): gap durations "
			"may be wrong when the CPU changes frequency or idles");
	privileges(p);
	if (p->cfg.policy != SCHED_OTHER &&
	    sysfs_read_int("/proc/sys/kernel/sched_rt_runtime_us", &rt) == 0 && rt != -1)
		js_warn("a real-time spinner is RT-throttled: sched_rt_runtime_us=%d forces the "
			"measured CPU idle for tens of ms every second (set it to -1 to avoid "
			"this, or use -P o:0)", rt);
}

/* check_budget - --budget after the run: one line per limit; exit 2 when one is exceeded */
static int check_budget(const struct js_params *p, const struct js_run *run)
{
	struct js_budget b;
	char err[160];
	FILE *fp = p->json_path && !strcmp(p->json_path, "-") ? stderr : stdout;

	if (budget_parse(p->budget, &b, err, sizeof(err)))
		return JS_EXIT_USAGE;	/* cli_parse already rejected it */
	fputc('\n', fp);
	return budget_check(&b, run, fp) ? JS_EXIT_VIOLATION : JS_EXIT_OK;
}

/* crosscheck - tie the most frequent observed causes to the settings behind them */
static void crosscheck(struct js_run *run)
{
	enum { MAXOBS = 64 };
	struct audit_observed obs[MAXOBS];
	size_t n = 0;

	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];
		const struct js_cause_src *src[16];
		size_t k = causes_sorted(&r->causes, src, 16);

		for (size_t j = 0; j < k && n < MAXOBS; j++) {
			obs[n].cpu = r->cpu;
			obs[n].cause = js_cause_name(src[j]->cause);
			obs[n].detail = src[j]->detail;
			obs[n].count = src[j]->events ? src[j]->events : src[j]->gaps;
			obs[n].total_ns = src[j]->total_ns;
			obs[n].seconds = (double)(r->end_ns - r->start_ns) / 1e9;
			n++;
		}
	}
	run->xcheck = calloc(MAXOBS, sizeof(*run->xcheck));
	if (run->xcheck)
		run->nxcheck = audit_crosscheck(&run->audit, obs, n, run->xcheck, MAXOBS);
}

/* check - `jitterscope check`: the audit alone; exit 2 when a check failed */
static int check(struct js_params *p)
{
	struct js_audit a;
	struct js_cpuset online;
	FILE *json = NULL;
	int rc;

	if (p->sysroot && sysfs_set_root(p->sysroot)) {
		js_err("--sysroot '%s' is not a readable directory", p->sysroot);
		return JS_EXIT_USAGE;
	}
	if (!p->cfg.ncpus) {
		if (cpus_online(&online)) {
			js_err("cannot read the online CPUs");
			return JS_EXIT_ERROR;
		}
		if (cpus_default(&online, &online, p->cfg.cpus, &p->cfg.ncpus))
			return JS_EXIT_USAGE;
	}
	if (p->json_path && !(json = output_file_open(p->json_path, "json")))
		return JS_EXIT_ERROR;
	memset(&a, 0, sizeof(a));
	if (audit_run(&a, p->cfg.cpus, p->cfg.ncpus, p->sysroot)) {
		js_err("the audit could not run (CPU out of range?)");
		output_file_close(json);
		return JS_EXIT_USAGE;
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
	rc = audit_exit_status(&a);
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

static int measure(struct js_params *p)
{
	struct js_run run;
	struct js_outputs outs = { .n = 0 };
	struct audit_snapshot before, after;
	bool have_snap = false;
	cpu_set_t hk;
	int err, rc = JS_EXIT_OK;

	memset(&run, 0, sizeof(run));
	/* from here on a stop signal ends the run with a (possibly empty) report */
	install_signals();
	if (check_cpus(p, &hk))
		return JS_EXIT_USAGE;
	if (preflight(p, &run.machine))
		return JS_EXIT_ERROR;
	/* every output opened before measuring: no 60 s run lost to a bad path */
	if (outputs_open(&outs, p))
		return JS_EXIT_ERROR;
	warnings(p, &run.machine);
	/* our own threads stay on housekeeping CPUs; samplers re-pin themselves */
	if (sched_setaffinity(0, sizeof(hk), &hk))
		js_warn("cannot move to the housekeeping CPUs: %s", strerror(errno));
	lock_memory();
	/* the audit is read-only and fast: it runs before the samplers start */
	run.audited = audit_run(&run.audit, p->cfg.cpus, p->cfg.ncpus, NULL) == 0;
	have_snap = audit_snapshot_take(&before, p->cfg.cpus, p->cfg.ncpus) == 0;
	err = pipeline_run(&run, p, &outs);
	if (err) {
		rc = JS_EXIT_ERROR;
		goto out;
	}
	if (have_snap && audit_snapshot_take(&after, p->cfg.cpus, p->cfg.ncpus) == 0) {
		run.have_deltas = audit_snapshot_diff(&before, &after, &run.deltas) == 0;
		audit_snapshot_free(&after);
	}
	if (run.audited)
		crosscheck(&run);
	/* a failed output (during the run or now) leaves the others written: exit 1 */
	if (outputs_finish(&outs, &run))
		rc = JS_EXIT_ERROR;
	if (!p->json_path || strcmp(p->json_path, "-"))
		report_text(stdout, &run);
	else if (!p->quiet)
		report_text(stderr, &run);
	/* budgets last, under the report they judge */
	if (rc == JS_EXIT_OK && p->budget)
		rc = check_budget(p, &run);
	err = output_file_flush(stdout);
	if (err && !stdout_failed(&outs)) {
		js_err("cannot write the report to standard output: %s", strerror(-err));
		rc = JS_EXIT_ERROR;
	}
out:
	outputs_destroy(&outs);
	if (have_snap)
		audit_snapshot_free(&before);
	if (run.have_deltas)
		audit_deltas_free(&run.deltas);
	if (run.audited)
		audit_free(&run.audit);
	free(run.xcheck);
	for (size_t i = 0; i < run.ncpus; i++)
		result_cpu_free(&run.cpus[i]);
	free(run.cpus);
	return rc;
}

int main(int argc, char **argv)
{
	static struct js_params p;

	if (cli_parse(argc, argv, &p))
		return JS_EXIT_USAGE;
	if (p.help)
		return JS_EXIT_OK;
	js_verbose = p.verbose;
	js_quiet = p.quiet;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	switch (p.cmd) {
	case JS_CMD_MEASURE:
		return measure(&p);
	case JS_CMD_CHECK:
		return check(&p);
	case JS_CMD_REPORT:
		return cmd_report(&p);
	case JS_CMD_DIFF:
		return cmd_diff(&p);
	default:
		js_err("this command is not available yet");
		return JS_EXIT_ERROR;
	}
}
