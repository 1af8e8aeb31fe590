// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * preflight.c - what the machine must offer before a measurement spins: the measured
 * CPUs online and allowed with housekeeping left over, the TSC read (--clock), the
 * real-time priority asked; the machine's facts for the report; the warnings about what the run will lack
 * (capabilities, memlock, RT throttling); locked memory. Refusals are one line.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/capability.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "js_cpulist.h"
#include "js_cpus.h"
#include "js_guest.h"
#include "js_kbtf.h"
#include "js_preflight.h"
#include "js_sampler.h"
#include "js_sysfs.h"
#include "js_tasks.h"
#include "js_threshold.h"
#include "js_tsc.h"
#include "js_util.h"

/* follow_cpus - --pid/--tid without --cpu: the CPUs the followed threads may run on (the
 * probes record the events there) */
static int follow_cpus(struct js_params *p, const struct js_cpuset *online)
{
	int tids[JS_FOLLOW_TIDS_MAX * 16];
	struct js_cpuset set;
	int n = p->follow_pid ? process_threads(p->follow_pid, tids, ARRAY_SIZE(tids)) :
				(int)p->nfollow_tids;

	cpuset_zero(&set);
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(tids); i++)
		task_cpus_or(p->follow_pid ? tids[i] : p->follow_tids[i], &set);
	cpuset_and(&set, online);
	for (int c = cpuset_next(&set, 0); c >= 0; c = cpuset_next(&set, c + 1))
		p->cfg.cpus[p->cfg.ncpus++] = c;
	if (!p->cfg.ncpus) {
		js_err("the followed threads may run on no online CPU");
		return -EINVAL;
	}
	return 0;
}

/* preflight_follow - --pid and --tid name tasks that exist (not us): one line and -EINVAL
 * if not; a --pid naming a thread follows its whole process */
static int preflight_follow(struct js_params *p)
{
	char comm[JS_COMM_MAX];
	int tgid;

	if (p->follow_pid) {
		if (task_status(p->follow_pid, &tgid, comm, sizeof(comm))) {
			js_err("--pid %d: no such process", p->follow_pid);
			return -EINVAL;
		}
		if (tgid != p->follow_pid) {
			js_notice("%d is a thread of process %d (%s): following every thread of %d "
				  "(--tid %d follows that one alone)",
				  p->follow_pid, tgid, comm, tgid, p->follow_pid);
			p->follow_pid = tgid;
		}
		if (tgid == getpid()) {
			js_err("--pid %d: that is jitterscope itself", tgid);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < p->nfollow_tids; i++) {
		if (task_status(p->follow_tids[i], &tgid, comm, sizeof(comm))) {
			js_err("--tid %d: no such thread", p->follow_tids[i]);
			return -EINVAL;
		}
		if (tgid == getpid()) {
			js_err("--tid %d: that is a thread of jitterscope itself",
			       p->follow_tids[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* preflight_btf - --btf FILE holds BTF (the probes were asked to use it): one line and
 * -EINVAL (a usage error) if not */
int preflight_btf(const struct js_params *p)
{
	struct js_kbtf k;
	char why[256];

	if (!p->btf_path)
		return 0;
	if (kbtf_open(&k, p->btf_path, why, sizeof(why))) {
		js_err("%s", why);
		return -EINVAL;
	}
	kbtf_free_types(&k);
	return 0;
}

/* preflight_events - every --event tracepoint exists (tracefs): one line and -EINVAL (a usage
 * error) for one that does not, or for the syscalls events (ftrace's: no tracepoint of their
 * own); where tracefs cannot be read, said once, its attach tells */
int preflight_events(const struct js_params *p)
{
	bool unknown = false;

	for (size_t i = 0; i < p->cfg.nevents; i++) {
		const char *tp[] = { p->cfg.events[i].open, p->cfg.events[i].close };

		for (size_t k = 0; k < 2 && tp[k][0]; k++) {
			int err = strncmp(tp[k], "syscalls:", 9) ? sysfs_tracepoint(tp[k]) : -EPERM;

			if (err == -EPERM) {
				js_err("--event %s: the syscalls events are ftrace's, not tracepoints "
				       "(raw_syscalls:sys_enter and sys_exit are)",
				       tp[k]);
				return -EINVAL;
			}
			if (err == -ENOENT) {
				js_err("--event %s: no such tracepoint (no events/%.*s/%s in tracefs)",
				       tp[k], (int)(user_event_tp(tp[k]) - tp[k] - 1), tp[k],
				       user_event_tp(tp[k]));
				return -EINVAL;
			}
			unknown |= err == -ENODEV;
		}
	}
	if (unknown)
		js_notice("--event: tracefs cannot be read here: whether each tracepoint exists is "
			  "known at its attach");
	return 0;
}

/* preflight_default - the default CPUs (or --cpu isolated's) into p, with one notice line
 * naming where they come from; -EINVAL after one line when there is none */
static int preflight_default(struct js_params *p, const struct js_cpuset *online,
			     const struct js_cpuset *allowed)
{
	int src = cpus_default(online, allowed, p->cpus_isolated, p->cfg.cpus, &p->cfg.ncpus);

	if (src < 0)
		return src;
	cpus_default_notice(params_spinner(p) ? "measuring" : "watching", p->cfg.cpus, p->cfg.ncpus,
			    src);
	return 0;
}

/* preflight_cpus - measured CPUs online and allowed; housekeeping left over. Without a
 * sampler (--pid, --tid, --marks) the watched CPUs need only be online, and housekeeping may
 * share them (nothing spins there) */
int preflight_cpus(struct js_params *p, cpu_set_t *hk_set)
{
	struct js_cpuset online, allowed, permitted, hk;
	bool spinner = params_spinner(p);
	int err;

	if (cpus_online(&online)) {
		js_err("cannot read the online CPUs from /sys/devices/system/cpu/online");
		return -EIO;
	}
	/* allowed: where our own threads run (the affinity we were started with: taskset, or
	 * the housekeeping CPUs a box booted with isolcpus= gives every shell); permitted:
	 * where a sampler may be pinned (the cpuset's CPUs, the isolated ones among them) */
	if ((err = cpus_affinity(&allowed))) {
		js_err("sched_getaffinity: %s", strerror(-err));
		return err;
	}
	cpus_permitted(&permitted); /* on failure, the affinity */
	if (preflight_follow(p))
		return -EINVAL;
	if (p->cpus_isolated && preflight_default(p, &online, &permitted))
		return -EINVAL;
	if (!p->cfg.ncpus && params_follows(p) && follow_cpus(p, &online))
		return -EINVAL;
	if (!p->cfg.ncpus && preflight_default(p, &online, &permitted))
		return -EINVAL;
	for (size_t i = 0; i < p->cfg.ncpus; i++) {
		if (!cpuset_isset(&online, p->cfg.cpus[i])) {
			js_err("CPU %d is not online (online: see /sys/devices/system/cpu/online)",
			       p->cfg.cpus[i]);
			return -EINVAL;
		}
		if (spinner && !cpuset_isset(&permitted, p->cfg.cpus[i])) {
			js_err("CPU %d is not in this process's cpuset (its cgroup's "
			       "cpuset.cpus.effective)",
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
		if (!spinner && cpuset_empty(&hk)) {
			/* nothing spins: the observer shares the watched CPUs (its own work
			 * there is then a cause like any task's) */
			hk = allowed;
			cpuset_and(&hk, &online);
		}
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
	uint64_t steal;

	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s %s", u.release, u.machine);
		js_scpy(m->hostname, sizeof(m->hostname), u.nodename);
	}
	js_scpy(m->cpu_model, sizeof(m->cpu_model), caps->model);
	m->hypervisor = caps->hypervisor;
	m->invariant_tsc = tsc_caps_invariant(caps);
	m->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->steal = sys_steal_ticks(&steal) ? JS_STEAL_UNKNOWN :
		   steal		   ? JS_STEAL_COUNTED :
					     JS_STEAL_NONE;
}

/*
 * counter_facts - where the CPU states its counter's frequency (arm64: cntfrq_el0), the
 * counter's name, that frequency and its step measured now: the shortest gap it can see. The
 * default threshold is then at least JS_THR_AUTO_MULT steps (--threshold auto's floor
 * follows the step in the sampler's calibration). x86-64 states none: nothing changes there.
 */
static void counter_facts(struct js_params *p, struct js_machine *m)
{
	double hz = tsc_counter_nominal_hz();
	uint64_t floor_ns;

	if (hz <= 0)
		return;
	js_scpy(m->counter_name, sizeof(m->counter_name), TSC_COUNTER_NAME);
	m->counter_nominal_hz = hz;
	m->counter_step = tsc_counter_step(p->cfg.tsc_read);
	floor_ns = (uint64_t)((double)JS_THR_AUTO_MULT * (double)m->counter_step * 1e9 / hz + 0.5);
	if (!p->cfg.threshold_auto && p->cfg.threshold_ns == JS_DEFAULT_THRESHOLD_NS &&
	    floor_ns > p->cfg.threshold_ns) {
		js_notice("the %s counter steps by %" PRIu64
			  " (%.1f ns): threshold raised to %d steps",
			  m->counter_name, m->counter_step, m->counter_step * 1e9 / hz,
			  JS_THR_AUTO_MULT);
		p->cfg.threshold_ns = floor_ns;
	}
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
	    (getrlimit(RLIMIT_RTPRIO, &rt) ||
	     (rt.rlim_cur != RLIM_INFINITY && rt.rlim_cur < (rlim_t)p->cfg.priority))) {
		char asked[16], other[16];

		js_err("-P %s needs root or CAP_SYS_NICE (or RLIMIT_RTPRIO >= %d); use -P %s",
		       sampler_priority_str(asked, sizeof(asked), p->cfg.policy, p->cfg.priority),
		       p->cfg.priority, sampler_priority_str(other, sizeof(other), SCHED_OTHER, 0));
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

/* preflight_lock_memory - mlockall, unless the memlock limit would make later allocations
 * fail; and a heap that never shrinks: freeing a large block or trimming the heap unmaps
 * memory, and unmapping sends a TLB shootdown IPI to every CPU running our threads - the
 * samplers' */
void preflight_lock_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20); /* up to 32 MiB from the heap, not mmap */
	mallopt(M_TRIM_THRESHOLD, INT_MAX);  /* and the heap is never trimmed */
	if (!have_cap(CAP_IPC_LOCK) && !memlock_unlimited())
		return; /* MCL_FUTURE under a finite limit: every mmap beyond it fails */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		js_warn("mlockall: %s: page faults may show up as gaps", strerror(errno));
}

/* rdtscp_why - why rdtscp may not run here */
static const char *rdtscp_why(enum tsc_rdtscp st)
{
	if (st == TSC_RDTSCP_ARCH)
		return "arm64 has no rdtscp (its counter is " TSC_COUNTER_NAME ")";
	return st == TSC_RDTSCP_MASKED ? TSC_NO_RDTSCP_ENV " is set" :
					 "this CPU does not advertise rdtscp";
}

/* choose_clock - the TSC read of the run from --clock: -ENOTSUP (one line) for an rdtscp the
 * CPU may not run (auto's fallback is said with the warnings) */
static int choose_clock(struct js_params *p)
{
	enum tsc_rdtscp st = tsc_rdtscp_state();

	if (tsc_read_choose(p->cfg.clock, st == TSC_RDTSCP_USABLE, &p->cfg.tsc_read)) {
		js_err("--clock rdtscp: %s (use --clock auto or lfence)", rdtscp_why(st));
		return -ENOTSUP;
	}
	return 0;
}

/* preflight_machine - what the machine must offer before we spin (one line when it does
 * not), and its facts */
int preflight_machine(struct js_params *p, struct js_machine *m)
{
	struct tsc_caps caps;
	char *cpuinfo = NULL;
	size_t len;

	if (sysfs_read_file("/proc/cpuinfo", &cpuinfo, &len))
		cpuinfo = NULL;
	tsc_caps_detect(&caps, cpuinfo);
	free(cpuinfo);
	machine_facts(m, &caps);
	if (choose_clock(p))
		return -ENOTSUP;
	counter_facts(p, m);
	return rt_allowed(p);
}

/* preflight_clock_notice - auto's fallback to lfence;rdtsc, and why */
void preflight_clock_notice(const struct js_params *p)
{
	if (p->cfg.clock == TSC_CLOCK_AUTO && p->cfg.tsc_read == TSC_READ_LFENCE_RDTSC)
		js_notice("%s: reading the TSC with lfence;rdtsc", rdtscp_why(tsc_rdtscp_state()));
}

/* preflight_warnings - what the run will lack; printed once nothing can refuse it any more (a
 * refused run prints its one error line alone) */
void preflight_warnings(const struct js_params *p, const struct js_machine *m)
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
			"this, or use -P o:0)",
			rt);
}
