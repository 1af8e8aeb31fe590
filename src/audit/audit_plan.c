// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_plan.c - check --plan: one consistent plan that isolates the measured CPUs, from
 * what the audit read: a single kernel command line merged with the running one (with the
 * grubby command and the /etc/default/grub line), a sysctl.d file, the runtime commands
 * that apply now what needs no reboot, and the tuned alternative. Every line is a shell
 * command or a comment, so the plan can be read, reviewed and run (docs/CHECK.md).
 */
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

#define PLAN_LINE 4096
#define THP "/sys/kernel/mm/transparent_hugepage"
#define KSM_RUN "/sys/kernel/mm/ksm/run"
/* the characters of a thread name a plan line names without quotes */
#define SAFE "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/:"

/* replaced_by - tok's key is one of the keys of the words of params */
static bool replaced_by(const char *tok, const char *params)
{
	char key[64], k2[64], w[320];
	const char *p = params;

	audit_param_key(tok, key, sizeof(key));
	while (audit_next_word(&p, w, sizeof(w))) {
		audit_param_key(w, k2, sizeof(k2));
		if (!strcmp(key, k2))
			return true;
	}
	return false;
}

/* boot_only - what the boot loader adds itself (not in GRUB_CMDLINE_LINUX) */
static bool boot_only(const char *tok)
{
	char key[64];

	audit_param_key(tok, key, sizeof(key));
	return !strcmp(key, "BOOT_IMAGE") || !strcmp(key, "root") || !strcmp(key, "ro") ||
	       !strcmp(key, "rw") || !strcmp(key, "initrd");
}

static void append(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? " " : "", word);
}

/* iso_set - the CPUs the plan isolates: the measured ones and those isolated already */
static void iso_set(const struct js_audit *a, struct js_cpuset *iso)
{
	cpuset_zero(iso);
	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_set(iso, a->cpus[i]);
	cpuset_or(iso, &a->f.isolated);
	cpuset_or(iso, &a->f.nohz_full);
}

/* new_params - the parameters the plan sets, in order */
static void new_params(const struct js_audit *a, const char *iso, const char *hk, char *out,
		       size_t len)
{
	char w[320];
	const struct audit_check *con = audit_find(a, "console", -1);

	out[0] = '\0';
	snprintf(w, sizeof(w), "isolcpus=managed_irq,domain,%s", iso);
	append(out, len, w);
	if (a->f.nohz_full_capable != 0) {
		snprintf(w, sizeof(w), "nohz_full=%s", iso);
		append(out, len, w);
	}
	snprintf(w, sizeof(w), "rcu_nocbs=%s", iso);
	append(out, len, w);
	append(out, len, "rcu_nocb_poll");
	snprintf(w, sizeof(w), "irqaffinity=%s", hk);
	append(out, len, w);
	append(out, len, "skew_tick=1");
	if (strcmp(a->f.preempt, "rt"))
		append(out, len, "rcupdate.rcu_normal_after_boot=1");
	append(out, len, "rcutree.nohz_full_patience_delay=1000");
	append(out, len, "nmi_watchdog=0");
	append(out, len, "transparent_hugepage=never");
	if (a->f.invariant_tsc && !a->f.arm64) { /* arm64: no tsc=, arch_sys_counter */
		append(out, len, "tsc=reliable");
		if (a->f.clocksource[0] && strcmp(a->f.clocksource, "tsc") &&
		    !(a->f.hypervisor && !strcmp(a->f.clocksource, "kvm-clock")))
			append(out, len, "clocksource=tsc");
	}
	/* quiet is kept from the running line; added with a serial console that lacks it */
	if (con && con->verdict == AUDIT_WARN && !audit_cmdline_has(a, "quiet"))
		append(out, len, "quiet");
}

/* merged - the running command line without the keys of params, then params; the
 * replaced words into replaced. grub: without what the boot loader adds */
static void merged(const struct js_audit *a, const char *params, bool grub, char *out, size_t len,
		   char *replaced, size_t rlen)
{
	char *cl = strdup(a->f.cmdline), *save = NULL;

	out[0] = '\0';
	if (replaced)
		replaced[0] = '\0';
	for (char *t = cl ? strtok_r(cl, " \t\n", &save) : NULL; t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		if (replaced_by(t, params)) {
			if (replaced)
				append(replaced, rlen, t);
			continue;
		}
		if (!grub || !boot_only(t))
			append(out, len, t);
	}
	free(cl);
	append(out, len, params);
}

static void section(FILE *fp, const char *title)
{
	fprintf(fp, "\n# %s\n", title);
}

/* managed - an IRQ whose requested affinity holds isolated CPUs only: most likely a
 * kernel-managed vector (a device queue per CPU), which refuses a new affinity (EIO) */
static bool managed(const struct audit_irq *q, const struct js_cpuset *iso)
{
	return !cpuset_empty(&q->requested) && cpuset_subset(&q->requested, iso);
}

/* irq_ids - the irq.N ids on isolated CPUs, kernel-managed ones (want_managed) or the
 * others, " irq.N" each, into buf; their number */
static size_t irq_ids(const struct js_audit *a, const struct js_cpuset *iso, bool want_managed,
		      char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < a->nirqs; k++) {
		const struct audit_irq *q = &a->irqs[k];
		size_t l = strlen(buf);

		if (!cpuset_intersects(&q->effective, iso) || managed(q, iso) != want_managed)
			continue;
		snprintf(buf + l, len - l, " irq.%d", q->irq);
		n++;
	}
	return n;
}

/* runtime_irqs - every device IRQ on an isolated CPU to the housekeeping CPUs */
static void runtime_irqs(FILE *fp, const struct js_audit *a, const struct js_cpuset *iso,
			 const char *hk)
{
	for (size_t k = 0; k < a->nirqs; k++) {
		const struct audit_irq *q = &a->irqs[k];

		char p[64];

		if (!cpuset_intersects(&q->effective, iso))
			continue;
		audit_spath(p, sizeof(p), "/proc/irq/%d/smp_affinity_list", q->irq);
		if (audit_value_in_force(p, AUDIT_V_LIST, hk)) {
			fprintf(fp,
				"# irq %d (%s): smp_affinity_list is %s already, yet it stays on an "
				"isolated CPU: kernel-managed; fewer device queues help\n",
				q->irq, q->name, hk);
			continue;
		}
		fprintf(fp, "echo %s > %s  # %s", hk, p, q->name);
		if (managed(q, iso))
			fputs(" (EIO: kernel-managed for these CPUs alone; fewer device queues "
			      "help)",
			      fp);
		fputc('\n', fp);
	}
}

/* echo - "echo VALUE > PATH", unless PATH holds VALUE already (then its name into *set) */
static void echo(FILE *fp, const char *value, const char *path, enum audit_vkind kind, char *set,
		 size_t len)
{
	size_t n = strlen(set);

	if (!audit_value_in_force(path, kind, value))
		fprintf(fp, "echo %s > %s\n", value, path);
	else if (n + 1 < len)
		snprintf(set + n, len - n, " %s", path);
}

/* runtime_kthreads - taskset for each unbound kthread on a measured CPU that taskset moves:
 * after section 1's nohz_full= none starts there, but one that sets its own affinity (kswapd,
 * kcompactd: their node's CPUs) is still there, and no boot parameter keeps it off. By name
 * (pgrep -x), so that the line holds in another boot too */
static void runtime_kthreads(FILE *fp, const struct js_audit *a, const char *hk)
{
	const char *done[AUDIT_MOVABLE * 4];
	size_t ndone = 0;

	for (size_t i = 0; i < a->ncpus; i++) {
		for (size_t k = 0; k < a->cpu[i].nmovable; k++) {
			const char *comm = a->cpu[i].movable[k];
			bool seen = false;

			for (size_t d = 0; d < ndone; d++)
				seen |= !strcmp(done[d], comm);
			if (seen || ndone == ARRAY_SIZE(done) || strspn(comm, SAFE) < strlen(comm))
				continue;
			done[ndone++] = comm;
			fprintf(fp, "taskset -pc %s $(pgrep -x %s)  # %s\n", hk, comm,
				a->cpu[i].nohz_full ? "it sets its own affinity: no boot parameter "
						      "keeps it off" :
						      "until section 1's nohz_full= keeps it off");
		}
	}
}

/* each_dir - echo VALUE to DIR/ENTRY/LEAF for every ENTRY of DIR with a LEAF file whose name
 * starts with prefix */
static void each_dir(FILE *fp, const char *dir, const char *prefix, const char *leaf,
		     const char *value, char *set, size_t len)
{
	struct sysfs_dir d;
	char p[SYSFS_PATH_MAX];

	if (sysfs_list_dir(dir, &d))
		return;
	for (size_t i = 0; i < d.n; i++) {
		if (strncmp(d.names[i], prefix, strlen(prefix)))
			continue;
		audit_spath(p, sizeof(p), "%s/%s/%s", dir, d.names[i], leaf);
		if (sysfs_exists(p))
			echo(fp, value, p, AUDIT_V_TEXT, set, len);
	}
	sysfs_dir_free(&d);
}

/* runtime_cpus - per isolated CPU: the governor, deep C-states off, MCE polling off */
static void runtime_cpus(FILE *fp, const struct js_cpuset *iso, char *set, size_t len)
{
	char p[SYSFS_PATH_MAX];

	for (int cpu = cpuset_next(iso, 0); cpu >= 0; cpu = cpuset_next(iso, cpu + 1)) {
		audit_spath(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			    cpu);
		if (sysfs_exists(p))
			echo(fp, "performance", p, AUDIT_V_TEXT, set, len);
		for (int s = 0; s < 16; s++) {
			int lat;

			audit_spath(p, sizeof(p),
				    "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu,
				    s);
			if (sysfs_read_int(p, &lat))
				break;
			if (lat > AUDIT_CSTATE_BUDGET_US)
				echo(fp, "1",
				     audit_spath(
					     p, sizeof(p),
					     "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
					     cpu, s),
				     AUDIT_V_TEXT, set, len);
		}
		audit_spath(p, sizeof(p),
			    "/sys/devices/system/machinecheck/machinecheck%d/ignore_ce", cpu);
		if (sysfs_exists(p))
			echo(fp, "1", p, AUDIT_V_TEXT, set, len);
	}
}

/* sysctls - the sysctl.d file with the values not in force yet (their names in force into
 * set); nothing when all are */
static void sysctls(FILE *fp, const char *hk, bool rt, char *set, size_t len)
{
	const struct {
		const char *key, *value;
		enum audit_vkind kind;
	} want[] = {
		{ "kernel.nmi_watchdog", "0", AUDIT_V_TEXT },
		{ "kernel.watchdog_cpumask", hk, AUDIT_V_LIST },
		{ "kernel.timer_migration", "0", AUDIT_V_TEXT },
		{ "kernel.numa_balancing", "0", AUDIT_V_TEXT },
		{ "kernel.sched_rt_runtime_us", rt ? "-1" : NULL, AUDIT_V_TEXT },
		{ "vm.stat_interval", "10", AUDIT_V_TEXT },
		{ "vm.swappiness", "10", AUDIT_V_TEXT },
		{ "vm.zone_reclaim_mode", "0", AUDIT_V_TEXT },
		{ "vm.compaction_proactiveness", "0", AUDIT_V_TEXT },
	};
	char p[128];
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		size_t l = strlen(set);

		if (!want[i].value)
			continue;
		audit_spath(p, sizeof(p), "/proc/sys/%s", want[i].key);
		for (char *c = p + strlen("/proc/sys/"); *c; c++)
			*c = *c == '.' ? '/' : *c;
		if (audit_value_in_force(p, want[i].kind, want[i].value)) {
			snprintf(set + l, len - l, " %s", want[i].key);
			continue;
		}
		if (!n++)
			fprintf(fp, "cat > /etc/sysctl.d/90-jitterscope.conf <<'EOF'\n");
		fprintf(fp, "%s = %s\n", want[i].key, want[i].value);
	}
	if (n)
		fprintf(fp, "EOF\nsysctl --system\n");
	else
		fprintf(fp, "# nothing to change: every sysctl the plan sets has its value\n");
}

/* plan - the plan for a->cpus (docs/CHECK.md); -1 when no CPU is left for housekeeping
 * (nothing printed) */
static int plan(FILE *fp, const struct js_audit *a)
{
	static char params[PLAN_LINE], line[PLAN_LINE], grub[PLAN_LINE], replaced[PLAN_LINE],
		todo[PLAN_LINE], set[PLAN_LINE];
	bool rt = a->policy == SCHED_FIFO || a->policy == SCHED_RR;
	struct js_cpuset iso, hkset = a->f.online;
	char isol[256], hk[256], mask[160], spaces[256], irqs[1024], managed_ids[512];
	size_t nmanaged;

	iso_set(a, &iso);
	cpuset_andnot(&hkset, &iso);
	if (cpuset_empty(&hkset))
		return -1;
	cpulist_format(&iso, isol, sizeof(isol));
	cpulist_format(&hkset, hk, sizeof(hk));
	cpumask_format(&hkset, 0, mask, sizeof(mask));
	js_scpy(spaces, sizeof(spaces), hk);
	for (char *c = spaces; *c; c++)
		*c = *c == ',' ? ' ' : *c;
	new_params(a, isol, hk, params, sizeof(params));
	/* what the running line has in force already stays as it is */
	audit_params_unset(a, params, todo, sizeof(todo));
	audit_params_set(a, params, set, sizeof(set));
	merged(a, todo, false, line, sizeof(line), replaced, sizeof(replaced));
	merged(a, todo, true, grub, sizeof(grub), NULL, 0);

	fprintf(fp, "# jitterscope check --plan: isolate CPU %s, housekeeping on CPU %s (%s%s)\n",
		isol, hk, a->sysroot[0] ? "sysroot " : "this machine", a->sysroot);
	/* the IRQs the plan moves; a kernel-managed one stays, and irq.affinity with it */
	nmanaged = irq_ids(a, &iso, true, managed_ids, sizeof(managed_ids));
	if (nmanaged)
		irq_ids(a, &iso, false, irqs, sizeof(irqs));
	else
		js_scpy(irqs, sizeof(irqs), " irq.affinity irq.*");
	fprintf(fp,
		"# covers: isolcpus isolcpus.flags%s rcu_nocbs rcu_nocb_poll "
		"rcu.normal_after_boot rcu.nohz_full_patience skew_tick console irqaffinity"
		"%s irqbalance tasks.user tasks.kthreads workqueue.cpumask "
		"timer_migration watchdog.nmi watchdog.soft%s cpufreq.governor cstates "
		"mce.ignore_ce%s%s thp.enabled thp.defrag thp.khugepaged_defrag ksm "
		"numa_balancing vm.zone_reclaim_mode vm.compaction_proactiveness "
		"vm.stat_interval tuned\n",
		a->f.nohz_full_capable != 0 ? " nohz_full" : "", irqs,
		rt ? " sched_rt_runtime_us" : "", a->f.invariant_tsc ? " clocksource.watchdog" : "",
		a->f.invariant_tsc && !(a->f.hypervisor && !strcmp(a->f.clocksource, "kvm-clock")) ?
			" clocksource" :
			"");
	fprintf(fp, "# not covered (hardware, host or application): smt hugepages pm_qos "
		    "(jitterscope --dma-latency, or the application holds /dev/cpu_dma_latency) "
		    "swap (swapoff -a, or mlockall() in the application) kernel.audit "
		    "mitigations tsc.invariant smi\n");
	if (nmanaged)
		fprintf(fp,
			"# not covered: irq.affinity%s: kernel-managed (a queue for these CPUs "
			"alone), they refuse a new affinity (EIO); fewer device queues help\n",
			managed_ids);
	if (a->f.nohz_full_capable == 0)
		fprintf(fp, "# this kernel has no CONFIG_NO_HZ_FULL: nohz_full needs another "
			    "kernel\n");

	section(fp, "1. Kernel command line (takes effect at the next boot)");
	fprintf(fp, "# running: %s\n", a->f.cmdline[0] ? a->f.cmdline : "(unknown)");
	fprintf(fp, "# planned: %s\n", line);
	if (set[0])
		fprintf(fp, "# in force already: %s\n", set);
	if (replaced[0])
		fprintf(fp, "# replaces: %s\n", replaced);
	if (todo[0]) {
		fprintf(fp, "grubby --update-kernel=ALL --args=\"%s\"\n", todo);
		fprintf(fp,
			"# or in /etc/default/grub, then update-grub (Debian) or grub2-mkconfig "
			"-o /boot/grub2/grub.cfg:\n");
		fprintf(fp, "# GRUB_CMDLINE_LINUX=\"%s\"\n", grub);
	} else {
		fprintf(fp, "# nothing to change: the running command line has every parameter "
			    "the plan sets\n");
	}

	section(fp, "2. sysctl: persistent, and applied now by sysctl --system");
	set[0] = '\0';
	sysctls(fp, hk, rt, set, sizeof(set));
	if (set[0])
		fprintf(fp,
			"# in force already (keep them in /etc/sysctl.d if sysctl -w set "
			"them):%s\n",
			set);

	section(fp, "3. Runtime: now, without a reboot (lost at reboot, where sections 1, 2 "
		    "and 4 take over)");
	set[0] = '\0';
	echo(fp, mask, "/proc/irq/default_smp_affinity", AUDIT_V_MASK, set, sizeof(set));
	runtime_irqs(fp, a, &iso, hk);
	runtime_kthreads(fp, a, hk);
	echo(fp, mask, "/sys/devices/virtual/workqueue/cpumask", AUDIT_V_MASK, set, sizeof(set));
	fprintf(fp, "# (a workqueue's own */cpumask runs within this one%s)\n",
		audit_kernel_at_least(a, 6, 9) ? "" :
						 "; before 6.9 an ordered workqueue keeps the mask "
						 "it had at boot, which section 1 sets");
	echo(fp, "never", THP "/enabled", AUDIT_V_TEXT, set, sizeof(set));
	each_dir(fp, THP, "hugepages-", "enabled", "never", set, sizeof(set));
	echo(fp, "madvise", THP "/defrag", AUDIT_V_TEXT, set, sizeof(set));
	echo(fp, "0", THP "/khugepaged/defrag", AUDIT_V_TEXT, set, sizeof(set));
	if (sysfs_exists(KSM_RUN) && !audit_value_in_force(KSM_RUN, AUDIT_V_TEXT, "0"))
		fprintf(fp, "echo 2 > " KSM_RUN "\necho 0 > " KSM_RUN "\n");
	runtime_cpus(fp, &iso, set, sizeof(set));
	if (set[0])
		fprintf(fp, "# in force already:%s\n", set);

	section(fp, "4. Services: irqbalance and systemd keep off the isolated CPUs");
	fprintf(fp,
		"echo 'IRQBALANCE_BANNED_CPULIST=%s' >> /etc/default/irqbalance  # "
		"/etc/sysconfig/irqbalance on RHEL\n",
		isol);
	fprintf(fp, "systemctl try-restart irqbalance\n");
	fprintf(fp, "mkdir -p /etc/systemd/system.conf.d\n");
	fprintf(fp,
		"cat > /etc/systemd/system.conf.d/90-jitterscope.conf <<'EOF'\n[Manager]\n"
		"CPUAffinity=%s\nEOF\n",
		spaces);

	section(fp, "5. Or tuned (RHEL, Fedora): cpu-partitioning sets nohz_full, rcu_nocbs, "
		    "irqaffinity and CPUAffinity itself, not isolcpus (add it to section 1's "
		    "line, as this plan does)");
	fprintf(fp,
		"cat > /etc/tuned/cpu-partitioning-variables.conf <<'EOF'\n"
		"isolated_cores=%s\nEOF\n",
		isol);
	fprintf(fp, "tuned-adm profile cpu-partitioning\n");
	return 0;
}

/* audit_plan_print - the plan for a->cpus, from the tree a->sysroot names (docs/CHECK.md);
 * -1 when no CPU is left for housekeeping or the tree cannot be read (nothing printed) */
int audit_plan_print(FILE *fp, const struct js_audit *a)
{
	char saved[SYSFS_PATH_MAX];
	int rc;

	/* the values in force are read where the audit read them */
	js_scpy(saved, sizeof(saved), sysfs_root());
	if (sysfs_set_root(a->sysroot))
		return -1;
	rc = plan(fp, a);
	sysfs_set_root(saved);
	return rc;
}
