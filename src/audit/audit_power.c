// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_power.c - cpufreq, C-states, PM QoS, SMT siblings, clocksource/TSC and SMIs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit_priv.h"
#include "js_smi.h"
#include "js_tsc.h"
#include "js_util.h"

#define NO_QOS 2000000000 /* PM_QOS_DEFAULT_VALUE: no constraint */

static void check_cpufreq(struct js_audit *a, size_t i)
{
	int cpu = a->cpus[i];
	char dir[80], p[128], gov[32], drv[32] = "", epp[48] = "", st[32] = "";
	uint64_t lo = 0, hi = 0;
	struct audit_check *c;
	int ret;

	audit_spath(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cpufreq", cpu);
	c = audit_add(a, "cpufreq.governor", cpu, SEV_MED, dir);
	audit_ck_exp(c, "governor performance");
	ret = sysfs_read_str(audit_spath(p, sizeof(p), "%s/scaling_governor", dir), gov,
			     sizeof(gov));
	if (ret == -ENOENT) {
		audit_ck_skip(c,
			      "no cpufreq for this CPU (no driver; a VM's frequency is the host's)",
			      "on bare metal load the cpufreq driver to check the governor");
		return;
	}
	if (!ret && !gov[0])
		ret = -ENODATA;
	if (ret) {
		audit_ck_skip_err(c, p, ret);
		return;
	}
	sysfs_read_str(audit_spath(p, sizeof(p), "%s/scaling_driver", dir), drv, sizeof(drv));
	sysfs_read_u64(audit_spath(p, sizeof(p), "%s/scaling_min_freq", dir), &lo);
	sysfs_read_u64(audit_spath(p, sizeof(p), "%s/scaling_max_freq", dir), &hi);
	sysfs_read_str(audit_spath(p, sizeof(p), "%s/energy_performance_preference", dir), epp,
		       sizeof(epp));
	sysfs_read_str("/sys/devices/system/cpu/intel_pstate/status", st, sizeof(st));
	audit_ck_obs(c, "governor %s, driver %s, %llu-%llu kHz", gov, drv[0] ? drv : "?",
		     (unsigned long long)lo, (unsigned long long)hi);
	if (epp[0])
		audit_ck_obs_append(c, "EPP %s", epp);
	if (st[0])
		audit_ck_obs_append(c, "intel_pstate %s", st);
	if (strcmp(gov, "performance")) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c, "cpupower -c %d frequency-set -g performance (and min = max frequency)",
			cpu);
	}
}

/* dma_latency - the current /dev/cpu_dma_latency value (binary int32, or text in a sysroot) */
static int dma_latency(int *us)
{
	char buf[32];
	ssize_t n = sysfs_read_buf("/dev/cpu_dma_latency", buf, sizeof(buf));
	char *end;
	int32_t v;
	long lv;

	if (n < 0)
		return (int)n;
	if (n == 4 && strspn(buf, "0123456789\n") != 4) {
		memcpy(&v, buf, 4);
		*us = v;
		return 0;
	}
	errno = 0;
	lv = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || lv < 0 || lv > INT32_MAX)
		return -EINVAL;
	*us = (int)lv;
	return 0;
}

/* resume_latency - per-CPU PM QoS: 0 = none, "n/a" = no idle states allowed (0 us) */
static int resume_latency(int cpu, int *us)
{
	char p[96], v[32];
	int ret, x;

	audit_spath(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/power/pm_qos_resume_latency_us",
		    cpu);
	ret = sysfs_read_str(p, v, sizeof(v));
	if (ret)
		return ret;
	if (!strcmp(v, "n/a")) {
		*us = 0;
		return 0;
	}
	x = audit_lead_int(v);
	if (x < 0 || v[strspn(v, "0123456789")])
		return -EINVAL;
	*us = x ? x : NO_QOS;
	return 0;
}

/* qos_limit - the tightest PM QoS constraint on cpu (NO_QOS if none), sources in obs */
static int qos_limit(int cpu, char *obs, size_t len, int *dma_err)
{
	int dma = NO_QOS, res = NO_QOS, lim;

	*dma_err = dma_latency(&dma);
	resume_latency(cpu, &res);
	lim = dma < res ? dma : res;
	if (*dma_err)
		snprintf(obs, len, "cpu_dma_latency unreadable (%s), CPU %d resume latency %s",
			 strerror(-*dma_err), cpu, res == NO_QOS ? "none" : "set");
	else if (res != NO_QOS)
		snprintf(obs, len, "cpu_dma_latency %d us, CPU %d resume latency %d us", dma, cpu,
			 res);
	else
		snprintf(obs, len, "cpu_dma_latency %d us%s, CPU %d resume latency none", dma,
			 dma == NO_QOS ? " (none)" : "", cpu);
	return lim;
}

/* deepest_state - exit latency of the deepest enabled idle state; names into buf; *keep:
 * the index K of the deepest state (stateK) within AUDIT_CSTATE_BUDGET_US (-1: none) */
static int deepest_state(int cpu, char *buf, size_t len, int *nstates, int *keep)
{
	char dir[80], p[128], name[32];
	int deepest = -1, lat, dis;
	struct sysfs_dir d;
	size_t pos = 0;

	*nstates = 0;
	*keep = -1;
	buf[0] = '\0';
	audit_spath(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cpuidle", cpu);
	if (sysfs_list_dir(dir, &d))
		return -1;
	for (size_t k = 0; k < d.n; k++) {
		if (strncmp(d.names[k], "state", 5))
			continue;
		if (sysfs_read_int(audit_spath(p, sizeof(p), "%s/%s/latency", dir, d.names[k]),
				   &lat) ||
		    lat < 0)
			continue;
		if (sysfs_read_int(audit_spath(p, sizeof(p), "%s/%s/disable", dir, d.names[k]),
				   &dis))
			dis = 0;
		if (sysfs_read_str(audit_spath(p, sizeof(p), "%s/%s/name", dir, d.names[k]), name,
				   sizeof(name)))
			js_scpy(name, sizeof(name), d.names[k]);
		(*nstates)++;
		if (pos < len)
			pos += snprintf(buf + pos, len - pos, "%s%s %d us%s", pos ? ", " : "", name,
					lat, dis ? " (disabled)" : "");
		if (!dis && lat > deepest)
			deepest = lat;
		if (lat <= AUDIT_CSTATE_BUDGET_US)
			*keep = JS_MAX(*keep, atoi(d.names[k] + 5));
	}
	sysfs_dir_free(&d);
	return deepest;
}

static void check_cstates(struct js_audit *a, size_t i)
{
	int cpu = a->cpus[i], nstates, deepest, lim, dma_err, keep;
	char drv[32], states[160], qos[128];
	struct audit_check *c =
		audit_add(a, "cstates", cpu, SEV_MED,
			  "/sys/devices/system/cpu/cpuN/cpuidle/state*/{latency,disable}");
	int ret =
		sysfs_read_str("/sys/devices/system/cpu/cpuidle/current_driver", drv, sizeof(drv));

	audit_ck_exp(c, "deepest enabled C-state exit latency <= %d us (or held off by PM QoS)",
		     AUDIT_CSTATE_BUDGET_US);
	if (audit_cmdline_has(a, "idle") && strstr(a->f.cmdline, "idle=poll")) {
		audit_ck_obs(c, "idle=poll");
		a->cpu[i].deepest_cstate_us = 0;
		return;
	}
	if (!ret && !drv[0])
		ret = -ENODATA;
	if (ret) {
		audit_ck_skip_err(c, "/sys/devices/system/cpu/cpuidle/current_driver", ret);
		return;
	}
	if (!strcmp(drv, "none")) {
		audit_ck_obs(c, "no cpuidle driver (default idle: halt)");
		return;
	}
	deepest = deepest_state(cpu, states, sizeof(states), &nstates, &keep);
	a->cpu[i].deepest_cstate_us = deepest;
	audit_ck_obs(c, "driver %s: %s", drv, nstates ? states : "no states");
	if (deepest <= AUDIT_CSTATE_BUDGET_US)
		return;
	lim = qos_limit(cpu, qos, sizeof(qos), &dma_err);
	if (lim <= AUDIT_CSTATE_BUDGET_US) {
		audit_ck_obs_append(c, "held off by PM QoS: %s", qos);
		return;
	}
	audit_ck_deviate(c);
	audit_ck_hint(c,
		      "disable states over %d us (cpupower -c %d idle-set -D %d; on this CPU alone "
		      "while measuring: jitterscope --deepest-idle-state %d), or hold PM QoS on "
		      "every CPU: jitterscope --dma-latency %d while measuring",
		      AUDIT_CSTATE_BUDGET_US, cpu, AUDIT_CSTATE_BUDGET_US, JS_MAX(keep, 0),
		      AUDIT_CSTATE_BUDGET_US);
}

static void check_pm_qos(struct js_audit *a, size_t i)
{
	int cpu = a->cpus[i], deepest = a->cpu[i].deepest_cstate_us, dma_err, lim;
	struct audit_check *c =
		audit_add(a, "pm_qos", cpu, SEV_LOW,
			  "/dev/cpu_dma_latency, cpuN/power/pm_qos_resume_latency_us");
	char qos[128];

	audit_ck_exp(
		c,
		"a latency constraint <= %d us while the application runs, if deep C-states exist",
		AUDIT_CSTATE_BUDGET_US);
	lim = qos_limit(cpu, qos, sizeof(qos), &dma_err);
	audit_ck_obs(c, "%s", qos);
	if (lim <= AUDIT_CSTATE_BUDGET_US)
		return;
	if (deepest >= 0 && deepest <= AUDIT_CSTATE_BUDGET_US) {
		audit_ck_obs_append(c, "not needed: deepest enabled C-state %d us", deepest);
		return;
	}
	if (dma_err) {
		audit_ck_skip(c, qos,
			      dma_err == -EACCES ? "run as root to read /dev/cpu_dma_latency" : "");
		return;
	}
	audit_ck_deviate(c);
	audit_ck_hint(
		c,
		"event-driven apps pay the C-state exit latency: the app keeps /dev/cpu_dma_latency "
		"open with an s32 <= %d written; jitterscope --dma-latency %d does so while measuring",
		AUDIT_CSTATE_BUDGET_US, AUDIT_CSTATE_BUDGET_US);
}

static void check_smt(struct js_audit *a, size_t i)
{
	int cpu = a->cpus[i], ret;
	char p[96], ctl[32] = "", buf[64];
	struct js_cpuset sib, bad, quiet;
	struct audit_check *c;
	bool nosmt;

	audit_spath(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		    cpu);
	c = audit_add(a, "smt", cpu, SEV_HIGH, p);
	audit_ck_exp(c, "no online SMT sibling (or an isolated, idle one)");
	ret = sysfs_read_cpulist(p, &sib);
	if (ret) {
		audit_ck_skip_err(c, p, ret);
		return;
	}
	sysfs_read_str("/sys/devices/system/cpu/smt/control", ctl, sizeof(ctl));
	cpuset_clear(&sib, cpu);
	bad = sib;
	cpuset_and(&bad, &a->f.online);
	quiet = a->f.isolated;
	cpuset_or(&quiet, &a->f.nohz_full);
	if (cpuset_empty(&bad)) {
		audit_ck_obs(c, "no online sibling (siblings: %s; smt/control %s)",
			     audit_fmt_set(&sib, buf, sizeof(buf)), ctl[0] ? ctl : "?");
		return;
	}
	audit_ck_obs(c, "online sibling(s) %s (smt/control %s)",
		     audit_fmt_set(&bad, buf, sizeof(buf)), ctl[0] ? ctl : "?");
	nosmt = audit_param_in_force(a, "nosmt");
	if (cpuset_subset(&bad, &quiet)) {
		c->verdict = AUDIT_WARN;
		audit_ck_hint(c, "the sibling is isolated too: keep it idle, or %s",
			      nosmt ? "echo off > /sys/devices/system/cpu/smt/control (nosmt is "
				      "set; the sibling was brought online since boot)" :
				      "boot with nosmt");
		return;
	}
	audit_ck_deviate(c);
	if (nosmt)
		audit_ck_hint(c,
			      "nosmt is set, yet CPU %s was brought online since boot: echo off > "
			      "/sys/devices/system/cpu/smt/control",
			      buf);
	else
		audit_ck_hint(c,
			      "boot with nosmt, or offline CPU %s (echo 0 > "
			      "/sys/devices/system/cpu/cpuX/online)",
			      buf);
}

static void check_clocksource(struct js_audit *a)
{
	const char *dir = "/sys/devices/system/clocksource/clocksource0";
	struct audit_check *c =
		audit_add(a, "clocksource", -1, SEV_HIGH,
			  "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	char p[128], avail[128] = "";
	int ret = sysfs_read_str(audit_spath(p, sizeof(p), "%s/current_clocksource", dir),
				 a->f.clocksource, sizeof(a->f.clocksource));

	audit_ck_exp(c, "tsc (arch_sys_counter on arm64)");
	if (!ret && !a->f.clocksource[0])
		ret = -ENODATA;
	if (ret) {
		audit_ck_skip_err(c, p, ret);
		return;
	}
	sysfs_read_str(audit_spath(p, sizeof(p), "%s/available_clocksource", dir), avail,
		       sizeof(avail));
	audit_ck_obs(c, "%s (available: %s)", a->f.clocksource, avail[0] ? avail : "?");
	if (a->f.hypervisor && !strcmp(a->f.clocksource, "kvm-clock")) {
		/* pvclock: the TSC scaled by the host, read without a trap or an interrupt */
		c->severity = SEV_INFO;
		audit_ck_deviate(c);
		audit_ck_hint(c,
			      "guest: kvm-clock reads the TSC, interrupts nothing; for plain tsc "
			      "the host must expose an invariant TSC (QEMU -cpu host,+invtsc)%s",
			      audit_param_in_force(a, "clocksource=tsc") ?
				      ": the clocksource=tsc that is set was refused" :
				      ", then boot with clocksource=tsc");
	} else if (strcmp(a->f.clocksource, "tsc") &&
		   strcmp(a->f.clocksource, "arch_sys_counter")) {
		audit_ck_deviate(c);
		audit_ck_hint_boot(c, a, "clocksource=tsc tsc=reliable",
				   " (if the TSC is invariant)",
				   "the kernel fell back from the TSC: it found it unstable "
				   "(dmesg | grep -i tsc)");
	}
}

/* cpu_flags - the first "flags" line of /proc/cpuinfo, space padded; false if none (*arm64:
 * the cpuinfo of an arm64 machine, which names its CPUs' implementer instead) */
static bool cpu_flags(char *buf, size_t len, int *err, bool *arm64)
{
	char *info = NULL;
	const char *fl;

	*err = sysfs_read_file("/proc/cpuinfo", &info, NULL);
	if (*err)
		return false;
	*arm64 = strstr(info, "CPU implementer") != NULL;
	fl = strstr(info, "\nflags");
	fl = fl ? strchr(fl, ':') : NULL;
	if (fl)
		snprintf(buf, len, " %.*s ", (int)strcspn(fl + 1, "\n"), fl + 1);
	free(info);
	return fl != NULL;
}

/* counter_arm64 - arm64's counter, the generic timer's cntvct_el0: a fixed rate in every
 * power state (the architecture requires it), never watched by the clocksource watchdog (no
 * tsc= there); on the machine itself its stated frequency and the step measured now */
static void counter_arm64(struct js_audit *a, struct audit_check *c)
{
	double hz = sysfs_is_live() ? tsc_counter_nominal_hz() : 0;
	struct audit_check *w;

	audit_ck_exp(c, "the generic timer (cntvct_el0): invariant by the architecture");
	a->f.invariant_tsc = true;
	if (hz > 0) {
		uint64_t step = tsc_counter_step(TSC_READ_FENCED);

		audit_ck_obs(c,
			     "cntvct_el0 at %.3f MHz (cntfrq_el0), step %llu = %.1f ns: the "
			     "shortest gap it can see",
			     hz / 1e6, (unsigned long long)step, step * 1e9 / hz);
	} else {
		audit_ck_obs(c, "arm64 generic timer (cntvct_el0)");
	}
	w = audit_add(a, "clocksource.watchdog", -1, SEV_LOW, "/proc/cmdline tsc=");
	audit_ck_exp(w, "tsc=reliable (no clocksource watchdog timer)");
	audit_ck_skip(w, "arm64: arch_sys_counter is not watched, there is no tsc= parameter", "");
}

static void check_tsc(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "tsc.invariant", -1, SEV_HIGH, "/proc/cpuinfo flags");
	struct audit_check *w;
	char flags[4096];
	bool cons, nonstop, known, rel, got;
	int err;

	audit_ck_exp(c, "constant_tsc and nonstop_tsc");
	got = cpu_flags(flags, sizeof(flags), &err, &a->f.arm64);
	if (!got && !err && a->f.arm64) {
		counter_arm64(a, c);
		return;
	}
	if (!got) {
		if (err)
			audit_ck_skip_err(c, "/proc/cpuinfo", err);
		else
			audit_ck_skip(c, "no cpuinfo flags line (not x86)", "");
	} else {
		cons = strstr(flags, " constant_tsc ");
		nonstop = strstr(flags, " nonstop_tsc ");
		known = strstr(flags, " tsc_known_freq ");
		a->f.invariant_tsc = cons && nonstop;
		audit_ck_obs(c, "constant_tsc %s, nonstop_tsc %s, tsc_known_freq %s",
			     cons ? "yes" : "no", nonstop ? "yes" : "no", known ? "yes" : "no");
		if (!a->f.invariant_tsc && a->f.hypervisor) {
			/* the CPUID flags a guest sees are the ones its host exposes */
			c->severity = SEV_INFO;
			audit_ck_deviate(c);
			audit_ck_hint(c, "guest: the host decides the TSC flags a VM sees: expose "
					 "an invariant TSC on the host (QEMU -cpu host,+invtsc)");
		} else if (!a->f.invariant_tsc) {
			audit_ck_deviate(c);
			audit_ck_hint(
				c,
				"without an invariant TSC rdtsc gaps are not time: use other hardware");
		}
	}
	w = audit_add(a, "clocksource.watchdog", -1, SEV_LOW, "/proc/cmdline tsc=");
	audit_ck_exp(w, "tsc=reliable (no clocksource watchdog timer)");
	if (audit_cmdline_skip(a, w))
		return;
	/* the kernel takes every tsc= (tsc=reliable tsc=unstable: both) */
	rel = audit_param_in_force(a, "tsc=reliable") || audit_param_in_force(a, "tsc=nowatchdog");
	audit_ck_obs(w, rel ? "tsc=%s" : "no tsc=reliable on the command line",
		     audit_param_in_force(a, "tsc=reliable") ? "reliable" : "nowatchdog");
	if (!rel) {
		audit_ck_deviate(w);
		audit_ck_hint_boot(w, a, "tsc=reliable",
				   " (only with an invariant, synchronised TSC)", NULL);
	}
}

static void check_smi(struct js_audit *a, size_t i)
{
	int cpu = a->cpus[i];
	struct audit_check *c =
		audit_add(a, "smi", cpu, SEV_HIGH, "perf msr/smi or /dev/cpu/N/msr");
	struct js_smi s = { .fd = -1 };
	uint64_t c0, c1;
	char why[256];

	audit_ck_exp(c, "no SMI while sampling (50 ms window)");
	if (!sysfs_is_live()) {
		audit_ck_skip(c, "SMI counters cannot be read from a captured tree", "");
		return;
	}
	if (a->f.hypervisor) {
		audit_ck_skip(
			c,
			"inside a VM the SMI counter is emulated (always 0): host SMIs are invisible",
			"check SMIs on the host");
		return;
	}
	if (smi_open(cpu, &s, why, sizeof(why))) {
		audit_ck_skip(c, why, a->f.arm64 ? "" : "run as root; modprobe msr");
		return;
	}
	if (smi_read(&s, &c0) || (usleep(50000), smi_read(&s, &c1))) {
		audit_ck_skip(c, "SMI counter read failed", "");
		goto out;
	}
	audit_ck_obs(c, "%llu SMIs in 50 ms (%s)", (unsigned long long)(c1 - c0),
		     smi_src_name(s.src));
	if (c1 != c0) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"SMIs come from firmware: disable power/thermal/USB-legacy features in the BIOS");
	}
out:
	smi_close(&s);
}

/* audit_checks_power - cpufreq, C-states, PM QoS, SMT, clocksource, TSC, SMIs */
void audit_checks_power(struct js_audit *a)
{
	for (size_t i = 0; i < a->ncpus; i++) {
		check_cpufreq(a, i);
		check_cstates(a, i);
		check_pm_qos(a, i);
		check_smt(a, i);
	}
	check_clocksource(a);
	check_tsc(a);
	for (size_t i = 0; i < a->ncpus; i++)
		check_smi(a, i);
}
