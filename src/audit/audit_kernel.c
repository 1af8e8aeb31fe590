// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_kernel.c - kernel facts (HZ, preemption, hypervisor), sysctls and watchdogs. */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_guest.h"
#include "js_hv.h"
#include "js_result.h"
#include "js_util.h"

static struct {
	char *text;
	char source[200];
} kcfg;

/* looks_like_config - a kernel .config has CONFIG_ lines */
static bool looks_like_config(const char *text)
{
	return text && (!strncmp(text, "CONFIG_", 7) || strstr(text, "\nCONFIG_") ||
			strstr(text, "\n# CONFIG_"));
}

/* audit_kconfig_load - read /proc/config.gz or /boot/config-RELEASE (once per run) */
void audit_kconfig_load(struct js_audit *a)
{
	char boot[160];
	size_t len;
	int ret;

	audit_kconfig_release();
	ret = sysfs_read_gz("/proc/config.gz", &kcfg.text, &len);
	if (!ret && looks_like_config(kcfg.text)) {
		snprintf(kcfg.source, sizeof(kcfg.source), "/proc/config.gz");
		return;
	}
	free(kcfg.text);
	kcfg.text = NULL;
	if (sysfs_read_str("/proc/sys/kernel/osrelease", a->f.release, sizeof(a->f.release)) ||
	    !a->f.release[0]) {
		snprintf(kcfg.source, sizeof(kcfg.source),
			 "no /proc/config.gz and no kernel release to find /boot/config-*");
		return;
	}
	audit_spath(boot, sizeof(boot), "/boot/config-%s", a->f.release);
	ret = sysfs_read_file(boot, &kcfg.text, &len);
	if (!ret && looks_like_config(kcfg.text)) {
		js_scpy(kcfg.source, sizeof(kcfg.source), boot);
		return;
	}
	free(kcfg.text);
	kcfg.text = NULL;
	snprintf(kcfg.source, sizeof(kcfg.source), "no usable /proc/config.gz or %s", boot);
}

/* audit_kconfig_release - drop the loaded config */
void audit_kconfig_release(void)
{
	free(kcfg.text);
	kcfg.text = NULL;
	kcfg.source[0] = '\0';
}

/* audit_kconfig_source - the file the config came from, or why there is none */
const char *audit_kconfig_source(void)
{
	return kcfg.source;
}

/* kconfig_line - the value after "CONFIG_SYM=" at a line start, or NULL */
static const char *kconfig_line(const char *sym, size_t *vlen)
{
	char key[96];
	size_t klen;
	const char *p;

	if (!kcfg.text)
		return NULL;
	klen = (size_t)snprintf(key, sizeof(key), "%s=", sym);
	for (p = kcfg.text; (p = strstr(p, key)); p += klen) {
		if (p != kcfg.text && p[-1] != '\n')
			continue;
		*vlen = strcspn(p + klen, "\n");
		return p + klen;
	}
	return NULL;
}

/* kconfig_tristate - CONFIG_X as 'y', 'm', 'n', or 0 without a config */
static char kconfig_tristate(const struct js_audit *a, const char *sym)
{
	size_t vlen;
	const char *v;

	(void)a;
	if (!kcfg.text)
		return 0;
	v = kconfig_line(sym, &vlen);
	if (!v)
		return 'n';
	return vlen == 1 && (*v == 'y' || *v == 'm') ? *v : 'n';
}

/* kconfig_value - value of CONFIG_X (e.g. "250") into buf; false if unknown */
static bool kconfig_value(const struct js_audit *a, const char *sym, char *buf, size_t len)
{
	size_t vlen;
	const char *v;

	(void)a;
	v = kconfig_line(sym, &vlen);
	if (!v || !len)
		return false;
	if (vlen >= len)
		vlen = len - 1;
	memcpy(buf, v, vlen);
	buf[vlen] = '\0';
	return true;
}

/* read_int - an int sysctl into *out; the error (or 0) */
static int read_int(const char *path, int *out)
{
	int v, ret = sysfs_read_int(path, &v);

	if (!ret)
		*out = v;
	return ret;
}

static void check_hz(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "kernel.hz", -1, SEV_INFO, audit_kconfig_source());
	char v[32];
	int hz;

	audit_ck_exp(c, "context only");
	if (!kcfg.text) {
		audit_ck_skip(c, kcfg.source[0] ? kcfg.source : "no kernel config readable",
			      "enable CONFIG_IKCONFIG_PROC or install /boot/config-$(uname -r)");
		return;
	}
	if (!kconfig_value(a, "CONFIG_HZ", v, sizeof(v)) || (hz = audit_lead_int(v)) <= 0) {
		audit_ck_skip(c, "no valid CONFIG_HZ in the kernel config", "");
		audit_ck_src(c, "%s", kcfg.source);
		return;
	}
	a->f.hz = hz;
	audit_ck_obs(c, "CONFIG_HZ=%d (a tick every %.1f ms while the tick runs)", hz, 1000.0 / hz);
}

/* preempt_from_debugfs - "none voluntary (full) lazy" -> "full" */
static bool preempt_from_debugfs(char *out, size_t len)
{
	char buf[128], *b, *e;

	if (sysfs_read_str("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)))
		return false;
	b = strchr(buf, '(');
	e = b ? strchr(b, ')') : NULL;
	if (!e || e == b + 1)
		return false;
	*e = '\0';
	js_scpy(out, len, b + 1);
	return true;
}

static const char *preempt_from_config(const struct js_audit *a)
{
	if (kconfig_tristate(a, "CONFIG_PREEMPT_RT") == 'y')
		return "rt";
	if (kconfig_tristate(a, "CONFIG_PREEMPT_LAZY") == 'y')
		return "lazy";
	if (kconfig_tristate(a, "CONFIG_PREEMPT") == 'y')
		return "full";
	if (kconfig_tristate(a, "CONFIG_PREEMPT_VOLUNTARY") == 'y')
		return "voluntary";
	if (kconfig_tristate(a, "CONFIG_PREEMPT_NONE") == 'y')
		return "none";
	return NULL;
}

static void check_preempt(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "kernel.preempt", -1, SEV_INFO, "");
	bool dyn = strstr(a->f.version, "PREEMPT_DYNAMIC") ||
		   kconfig_tristate(a, "CONFIG_PREEMPT_DYNAMIC") == 'y';
	const char *cfg = preempt_from_config(a);
	char v[32], *p = a->f.preempt;
	size_t len = sizeof(a->f.preempt);
	int rt = 0;

	audit_ck_exp(c, "context only");
	sysfs_read_int("/sys/kernel/realtime", &rt);
	if (preempt_from_debugfs(p, len)) {
		audit_ck_src(c, "/sys/kernel/debug/sched/preempt");
	} else if (rt == 1) {
		snprintf(p, len, "rt");
		audit_ck_src(c, "/sys/kernel/realtime");
	} else if (dyn && audit_cmdline_get(a, "preempt", v, sizeof(v))) {
		js_scpy(p, len, v);
		audit_ck_src(c, "/proc/cmdline preempt=");
	} else if (cfg) {
		js_scpy(p, len, cfg);
		audit_ck_src(c, "%s", audit_kconfig_source());
	} else if (strstr(a->f.version, "PREEMPT_RT")) {
		snprintf(p, len, "rt");
		audit_ck_src(c, "/proc/sys/kernel/version");
	} else if (!dyn && strstr(a->f.version, "PREEMPT")) {
		snprintf(p, len, "full");
		audit_ck_src(c, "/proc/sys/kernel/version");
	}
	if (!p[0]) {
		audit_ck_skip(
			c,
			dyn ? "PREEMPT_DYNAMIC kernel, model not readable" :
			      "no preemption model found (no debugfs, config or uname -v hint)",
			"mount debugfs (/sys/kernel/debug/sched/preempt) or provide the config");
		return;
	}
	audit_ck_obs(c, "%s%s", p, dyn ? " (PREEMPT_DYNAMIC)" : "");
}

static void check_hypervisor(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "kernel.hypervisor", -1, SEV_INFO, "/proc/cpuinfo");
	char *info = NULL, type[32] = "", why[128] = "";
	const char *fl;
	bool arm64;
	int ret = sysfs_read_file("/proc/cpuinfo", &info, NULL);

	audit_ck_exp(c, "bare metal");
	if (ret) {
		audit_ck_skip_err(c, "/proc/cpuinfo", ret);
		return;
	}
	fl = strstr(info, "\nflags");
	if (fl)
		fl = strchr(fl, ':');
	if (fl) {
		char line[4096];

		snprintf(line, sizeof(line), "%.*s ", (int)strcspn(fl + 1, "\n"), fl + 1);
		a->f.hypervisor = strstr(line, " hypervisor ") != NULL;
	}
	/* arm64 has no flag: its cpuinfo names an implementer, and the device tree or DMI tell
	 * a guest (js_guest.h) */
	arm64 = !fl && strstr(info, "CPU implementer");
	if (!sysfs_read_str("/sys/hypervisor/type", type, sizeof(type)) && type[0])
		a->f.hypervisor = true;
	else if (arm64)
		a->f.hypervisor = sys_guest(why, sizeof(why));
	free(info);
	if (!fl && !type[0] && !arm64) {
		audit_ck_skip(c, "no cpuinfo flags line (not x86)", "");
		return;
	}
	if (!a->f.hypervisor) {
		audit_ck_obs(c, arm64 ? "no hypervisor named by the device tree or DMI (arm64)" :
					"no hypervisor flag");
		return;
	}
	audit_ck_obs(c, "guest%s%s (%s)", type[0] ? " of " : "", type,
		     why[0] ? why : "cpuinfo flag \"hypervisor\"");
	c->verdict = AUDIT_WARN;
	audit_ck_hint(c, "steal time and host preemption show up as gaps no guest setting removes; "
			 "pin vCPUs on the host");
}

/* kvmclock_signal - what a kvmclock says of the host (sys_hv_kvmclock()'s answer); NULL:
 * not known (no clocksource directory: said nowhere) */
static const char *kvmclock_signal(int kvmclock)
{
	if (kvmclock > 0)
		return "kvmclock: in use (its version names host clock updates)";
	if (!kvmclock)
		return "kvmclock: none (host clock updates not seen)";
	return NULL;
}

/*
 * check_host_signals - what the hypervisor lets a guest see of its host, which the host
 * classes go by (docs/ATTRIBUTION.md, "The host"): a steal clock, KVM_HINTS_REALTIME, arm64
 * PV time, x86's kvmclock. CPUID describes the live machine only: with a sysroot, the steal
 * counted and the clocksources alone.
 */
static void check_host_signals(struct js_audit *a)
{
	struct audit_check *c =
		audit_add(a, "hypervisor.signals", -1, SEV_INFO, "CPUID 0x40000000-1, /proc/stat");
#ifdef __aarch64__
	const bool arm64 = true;
#else
	const bool arm64 = false;
#endif
	bool live = !a->sysroot[0];
	uint64_t ticks = 0;
	int err = sys_steal_ticks(&ticks);
	const char *kvmclock;
	struct js_hv h;

	const struct audit_check *hv = audit_find(a, "kernel.hypervisor", -1);

	audit_ck_exp(c, "context only");
	if (hv && hv->verdict == AUDIT_SKIP) {
		audit_ck_skip(c, "not known whether this is a virtual machine (kernel.hypervisor)",
			      "");
		return;
	}
	if (!a->f.hypervisor) {
		audit_ck_obs(c, "steal: %s", JS_STEAL_NOT_VM);
		return;
	}
	if (live)
		sys_hv_read(&h);
	else
		memset(&h, 0, sizeof(h));
	if (h.steal_time)
		audit_ck_obs(c, "steal: KVM steal time%s",
			     ticks ? ", counted" : ", none counted yet");
	else if (err)
		audit_ck_obs(c, "steal: unknown (/proc/stat: %s)", strerror(-err));
	else if (ticks)
		audit_ck_obs(c, "steal: counted by the kernel (/proc/stat)");
	else
		audit_ck_obs(c, "steal: %s", JS_STEAL_NOT_REPORTED);
	if (h.cpuid)
		audit_ck_obs_append(c, "CPUID signature \"%s\"", h.sig);
	if (h.kvm)
		audit_ck_obs_append(c, "KVM_HINTS_REALTIME %s",
				    h.hints_realtime ? "set (dedicated pCPUs promised)" :
						       "not set");
	else if (!arm64 && live)
		audit_ck_obs_append(c, "KVM_HINTS_REALTIME: not a KVM guest");
	else if (!arm64)
		audit_ck_obs_append(c, "KVM_HINTS_REALTIME: not read (CPUID is this machine's, "
				       "not the sysroot's)");
	if (h.vp_runtime)
		audit_ck_obs_append(c, "Hyper-V VP runtime register available");
	kvmclock = arm64 ? NULL : kvmclock_signal(sys_hv_kvmclock());
	if (kvmclock)
		audit_ck_obs_append(c, "%s", kvmclock);
	if (arm64)
		audit_ck_obs_append(c, "arm64 PV time: %s",
				    ticks ? "in use (the kernel counts steal)" :
					    "not seen (no steal counted since boot)");
}

static void check_nohz_config(struct js_audit *a)
{
	struct audit_check *c =
		audit_add(a, "kernel.nohz_full", -1, SEV_INFO, "/sys/devices/system/cpu/nohz_full");
	char t = kconfig_tristate(a, "CONFIG_NO_HZ_FULL");

	audit_ck_exp(c, "CONFIG_NO_HZ_FULL=y");
	if (!sysfs_exists("/sys/devices/system/cpu/online") && !t) {
		audit_ck_skip(c, "no /sys/devices/system/cpu and no kernel config", "");
		return;
	}
	if (sysfs_exists("/sys/devices/system/cpu/nohz_full"))
		a->f.nohz_full_capable = 1;
	else if (t)
		a->f.nohz_full_capable = t == 'y';
	else
		a->f.nohz_full_capable = 0; /* the file exists iff CONFIG_NO_HZ_FULL */
	a->f.rcu_nocb_capable = kconfig_tristate(a, "CONFIG_RCU_NOCB_CPU") ?
					kconfig_tristate(a, "CONFIG_RCU_NOCB_CPU") == 'y' :
					-1;
	if (a->f.nohz_full_capable) {
		audit_ck_obs(c, "kernel supports nohz_full");
		return;
	}
	audit_ck_obs(
		c, "kernel built without CONFIG_NO_HZ_FULL (no /sys/devices/system/cpu/nohz_full)");
	c->verdict = AUDIT_WARN;
	audit_ck_hint(
		c, "the tick cannot be stopped on any CPU: use a kernel with CONFIG_NO_HZ_FULL=y");
}

/* audit_facts_kernel - kernel facts: release, HZ, preemption, NO_HZ_FULL, hypervisor */
void audit_facts_kernel(struct js_audit *a)
{
	sysfs_read_str("/proc/sys/kernel/osrelease", a->f.release, sizeof(a->f.release));
	sysfs_read_str("/proc/sys/kernel/version", a->f.version, sizeof(a->f.version));
	check_hz(a);
	check_preempt(a);
	check_nohz_config(a);
	check_hypervisor(a);
	check_host_signals(a);
}

static void check_timer_migration(struct js_audit *a)
{
	const char *path = "/proc/sys/kernel/timer_migration";
	struct audit_check *c = audit_add(a, "timer_migration", -1, SEV_LOW, path);
	int ret = read_int(path, &a->f.timer_migration);

	audit_ck_exp(c, "0");
	if (ret) {
		audit_ck_skip_err(c, path, ret);
		return;
	}
	audit_ck_obs(c, "%d", a->f.timer_migration);
	if (a->f.timer_migration) {
		audit_ck_deviate(c);
		audit_ck_hint(c, "sysctl kernel.timer_migration=0");
	}
}

static void check_nmi_watchdog(struct js_audit *a)
{
	const char *path = "/proc/sys/kernel/nmi_watchdog";
	struct audit_check *c = audit_add(a, "watchdog.nmi", -1, SEV_MED, path);
	int ret = read_int(path, &a->f.nmi_watchdog);

	audit_ck_exp(c, "0");
	if (ret) {
		audit_ck_skip_err(c, path, ret);
		return;
	}
	audit_ck_obs(c, "%d", a->f.nmi_watchdog);
	if (a->f.nmi_watchdog) {
		audit_ck_deviate(c);
		if (audit_param_in_force(a, "nmi_watchdog=0"))
			audit_ck_hint(c, "sysctl kernel.nmi_watchdog=0 (nmi_watchdog=0 is set: "
					 "something enabled the watchdog since boot)");
		else
			audit_ck_hint(c,
				      "sysctl kernel.nmi_watchdog=0 (or boot with nmi_watchdog=0)");
	}
}

static void check_soft_watchdog(struct js_audit *a)
{
	const char *mpath = "/proc/sys/kernel/watchdog_cpumask";
	int rw = read_int("/proc/sys/kernel/watchdog", &a->f.watchdog);
	int rs = read_int("/proc/sys/kernel/soft_watchdog", &a->f.soft_watchdog);
	int rm = sysfs_read_cpulist(mpath, &a->f.watchdog_cpumask);
	bool off = audit_cmdline_has(a, "nosoftlockup") || audit_cmdline_has(a, "nowatchdog");
	char buf[64], hk[64];

	if (!rw && !a->f.watchdog)
		off = true;
	if (!rs && !a->f.soft_watchdog)
		off = true;
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i];
		struct audit_check *c =
			audit_add(a, "watchdog.soft", cpu, SEV_MED,
				  "/proc/sys/kernel/{watchdog,soft_watchdog,watchdog_cpumask}");

		audit_ck_exp(c, "disabled, or CPU %d not in watchdog_cpumask", cpu);
		if (off) {
			audit_ck_obs(c, "disabled");
			continue;
		}
		if (rm || rw) {
			audit_ck_skip_err(c, rm ? mpath : "/proc/sys/kernel/watchdog",
					  rm ? rm : rw);
			continue;
		}
		a->cpu[i].in_watchdog = cpuset_isset(&a->f.watchdog_cpumask, cpu);
		audit_ck_obs(c, "watchdog=%d soft_watchdog=%d watchdog_cpumask=%s", a->f.watchdog,
			     a->f.soft_watchdog,
			     audit_fmt_set(&a->f.watchdog_cpumask, buf, sizeof(buf)));
		if (a->cpu[i].in_watchdog) {
			char rest[96];

			snprintf(rest, sizeof(rest), ", or sysctl kernel.watchdog_cpumask=%s",
				 audit_housekeeping(a, hk, sizeof(hk)));
			audit_ck_deviate(c);
			audit_ck_hint_boot(c, a, "nosoftlockup", rest,
					   "something enabled the watchdog since boot: sysctl "
					   "kernel.soft_watchdog=0");
		}
	}
}

static void check_rt_runtime(struct js_audit *a)
{
	const char *path = "/proc/sys/kernel/sched_rt_runtime_us";
	bool rt = a->policy == SCHED_FIFO || a->policy == SCHED_RR;
	struct audit_check *c =
		audit_add(a, "sched_rt_runtime_us", -1, rt ? SEV_CRIT : SEV_LOW, path);
	int ret = sysfs_read_s64(path, &a->f.rt_runtime_us);
	uint64_t fs;
	char p[96];

	audit_ck_exp(c, "-1 (no RT throttling) for a SCHED_FIFO spinner");
	if (ret) {
		a->f.rt_runtime_us = INT64_MIN;
		audit_ck_skip_err(c, path, ret);
		return;
	}
	if (sysfs_read_s64("/proc/sys/kernel/sched_rt_period_us", &a->f.rt_period_us))
		a->f.rt_period_us = INT64_MIN;
	if (a->f.rt_runtime_us < 0) {
		audit_ck_obs(c, "%lld (RT throttling off)", (long long)a->f.rt_runtime_us);
	} else {
		audit_ck_obs(c, "%lld", (long long)a->f.rt_runtime_us);
		if (a->f.rt_period_us > 0)
			audit_ck_obs_append(
				c, "a SCHED_FIFO task is forced off the CPU %lld us every %lld us",
				(long long)(a->f.rt_period_us - a->f.rt_runtime_us),
				(long long)a->f.rt_period_us);
		audit_ck_deviate(c);
		if (rt) {
			audit_ck_hint(c, "sysctl kernel.sched_rt_runtime_us=-1 (or run the sampler "
					 "SCHED_OTHER: -P o:0)");
		} else {
			/* the kernel default; it throttles only SCHED_FIFO/RR tasks */
			audit_ck_obs_append(c, "this run is SCHED_OTHER: not throttled");
			audit_ck_hint(c, "only for a SCHED_FIFO/RR workload (or -P f:N): sysctl "
					 "kernel.sched_rt_runtime_us=-1 (a runaway RT task then "
					 "hangs its CPU)");
		}
	}
	for (size_t i = 0; i < a->ncpus; i++) {
		audit_spath(p, sizeof(p), "/sys/kernel/debug/sched/fair_server/cpu%d/runtime",
			    a->cpus[i]);
		if (!sysfs_read_u64(p, &fs) && fs)
			audit_ck_obs_append(c, "fair server on CPU %d: %llu ns per period",
					    a->cpus[i], (unsigned long long)fs);
	}
}

static void check_mce(struct js_audit *a)
{
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i], v, ret;
		char p[96];
		struct audit_check *c;

		audit_spath(p, sizeof(p),
			    "/sys/devices/system/machinecheck/machinecheck%d/ignore_ce", cpu);
		c = audit_add(a, "mce.ignore_ce", cpu, SEV_LOW, p);
		audit_ck_exp(c, "1 (no periodic corrected-error polling)");
		ret = sysfs_read_int(p, &v);
		if (ret == -ENOENT) {
			audit_ck_skip(c,
				      "no machinecheck sysfs for this CPU (no MCE: common in VMs)",
				      "");
			continue;
		}
		if (ret) {
			audit_ck_skip_err(c, p, ret);
			continue;
		}
		audit_ck_obs(c, "%d", v);
		if (v != 1) {
			audit_ck_deviate(c);
			audit_ck_hint(c, "echo 1 > %s%s", p,
				      audit_param_in_force(a, "mce=ignore_ce") ?
					      " (mce=ignore_ce is set: it was undone since boot)" :
					      " (or boot with mce=ignore_ce)");
		}
	}
}

static void check_mitigations(struct js_audit *a)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	struct audit_check *c = audit_add(a, "mitigations", -1, SEV_INFO, dir);
	char p[160], v[160], cl[128] = "", vuln[160] = "";
	int nmit = 0, nvuln = 0, ret;
	struct sysfs_dir d;

	audit_ck_exp(c, "a deliberate policy (context only)");
	ret = sysfs_list_dir(dir, &d);
	if (ret) {
		audit_ck_skip_err(c, dir, ret);
		return;
	}
	for (size_t i = 0; i < d.n; i++) {
		if (sysfs_read_str(audit_spath(p, sizeof(p), "%s/%s", dir, d.names[i]), v,
				   sizeof(v)))
			continue;
		if (!strncmp(v, "Mitigation", 10)) {
			nmit++;
		} else if (!strncmp(v, "Vulnerable", 10)) {
			size_t n = strlen(vuln);

			nvuln++;
			snprintf(vuln + n, sizeof(vuln) - n, "%s%s", n ? "," : "", d.names[i]);
		}
	}
	sysfs_dir_free(&d);
	audit_cmdline_get(a, "mitigations", cl, sizeof(cl));
	audit_ck_obs(c, "mitigations=%s; %d mitigated, %d vulnerable%s%s%s",
		     cl[0] ? cl : "(default)", nmit, nvuln, nvuln ? " (" : "", vuln,
		     nvuln ? ")" : "");
	audit_ck_hint(c,
		      "mitigations lengthen every kernel entry (IRQ, syscall); they add no events");
}

static void check_kaudit(struct js_audit *a, const struct audit_tasks *ts)
{
	struct audit_check *c = audit_add(a, "kernel.audit", -1, SEV_LOW, "/proc/cmdline, kauditd");
	char v[16];

	audit_ck_exp(c, "audit=0 or no kauditd");
	if (audit_cmdline_get(a, "audit", v, sizeof(v)) && !strcmp(v, "0")) {
		audit_ck_obs(c, "audit=0");
		return;
	}
	if (!ts->n) {
		audit_ck_skip(c, "no readable task under /proc", "");
		return;
	}
	if (audit_tasks_find_comm(ts, "kauditd", true) < 0) {
		audit_ck_obs(c, "no kauditd thread");
		return;
	}
	audit_ck_obs(c, "kauditd running");
	audit_ck_deviate(c);
	audit_ck_hint(
		c,
		"boot with audit=0, or make sure no syscall audit rules are loaded (auditctl -l)");
}

/* measured_list - the measured CPUs as a list */
static const char *measured_list(const struct js_audit *a, char *buf, size_t len)
{
	struct js_cpuset s;

	cpuset_zero(&s);
	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_set(&s, a->cpus[i]);
	return audit_fmt_set(&s, buf, len);
}

static void check_tuned(struct js_audit *a)
{
	const char *path = "/etc/tuned/active_profile";
	struct audit_check *c = audit_add(a, "tuned", -1, SEV_INFO, path);
	static const char *const good[] = { "realtime",
					    "cpu-partitioning",
					    "latency-performance",
					    "network-latency",
					    "realtime-virtual-guest",
					    "realtime-virtual-host",
					    "cpu-partitioning-powersave" };
	char prof[128], cpus[128];
	struct js_cpuset cores;
	bool latency = false;
	int ret = sysfs_read_str(path, prof, sizeof(prof));

	audit_ck_exp(c, "a latency profile whose isolated_cores include the measured CPUs");
	if (ret || !prof[0]) {
		audit_ck_skip(c,
			      ret == -ENOENT ? "tuned is not installed (no active profile)" :
			      ret	     ? "cannot read the tuned profile" :
					       "no active tuned profile (empty file)",
			      "optional: tuned-adm profile cpu-partitioning");
		return;
	}
	audit_ck_obs(c, "active profile \"%s\"", prof);
	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		latency |= strstr(prof, good[i]) != NULL;
	if (!latency) {
		audit_ck_deviate(c);
		audit_ck_hint(c,
			      "tuned-adm profile cpu-partitioning with isolated_cores=%s in "
			      "/etc/tuned/cpu-partitioning-variables.conf (check --plan)",
			      measured_list(a, cpus, sizeof(cpus)));
		return;
	}
	if (audit_tuned_cores("cpu-partitioning", &cores) ||
	    audit_tuned_cores("realtime", &cores)) {
		for (size_t i = 0; i < a->ncpus; i++) {
			if (!cpuset_isset(&cores, a->cpus[i])) {
				audit_ck_obs_append(c, "CPU %d not in isolated_cores", a->cpus[i]);
				audit_ck_deviate(c);
				audit_ck_hint(
					c,
					"add the measured CPUs to isolated_cores in /etc/tuned/*-variables.conf");
			}
		}
	}
}

/* audit_checks_kernel - sysctls, watchdogs, RT throttling, MCE, mitigations, audit, tuned */
void audit_checks_kernel(struct js_audit *a, const struct audit_tasks *ts)
{
	check_timer_migration(a);
	check_nmi_watchdog(a);
	check_soft_watchdog(a);
	check_rt_runtime(a);
	check_mce(a);
	check_mitigations(a);
	check_kaudit(a, ts);
	check_tuned(a);
}
