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

/* the command line keys the plan sets (a running value of one is replaced) */
static const char *const plan_keys[] = {
	"isolcpus",
	"nohz_full",
	"rcu_nocbs",
	"rcu_nocb_poll",
	"irqaffinity",
	"skew_tick",
	"rcupdate.rcu_normal_after_boot",
	"rcutree.nohz_full_patience_delay",
	"nmi_watchdog",
	"transparent_hugepage",
	"tsc",
	"clocksource",
};

/* key_of - the parameter's name ("a-b=c" -> "a_b"), as the kernel compares them */
static void key_of(const char *tok, char *key, size_t len)
{
	size_t i = 0;

	for (; tok[i] && tok[i] != '=' && i + 1 < len; i++)
		key[i] = tok[i] == '-' ? '_' : tok[i];
	key[i] = '\0';
}

static bool planned_key(const char *tok)
{
	char key[64], k2[64];

	key_of(tok, key, sizeof(key));
	for (size_t i = 0; i < ARRAY_SIZE(plan_keys); i++) {
		key_of(plan_keys[i], k2, sizeof(k2));
		if (!strcmp(key, k2))
			return true;
	}
	return false;
}

/* boot_only - what the boot loader adds itself (not in GRUB_CMDLINE_LINUX) */
static bool boot_only(const char *tok)
{
	char key[64];

	key_of(tok, key, sizeof(key));
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

/* merged - the running command line without the keys the plan sets, then the plan's; the
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
		if (planned_key(t)) {
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

		if (!cpuset_intersects(&q->effective, iso))
			continue;
		fprintf(fp, "echo %s > /proc/irq/%d/smp_affinity_list  # %s", hk, q->irq, q->name);
		if (managed(q, iso))
			fputs(" (EIO: kernel-managed for these CPUs alone; fewer device queues "
			      "help)",
			      fp);
		fputc('\n', fp);
	}
}

/* each_dir - "echo VALUE > DIR/ENTRY/LEAF" for every ENTRY of DIR with a LEAF file whose name
 * starts with prefix */
static void each_dir(FILE *fp, const char *dir, const char *prefix, const char *leaf,
		     const char *value)
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
			fprintf(fp, "echo %s > %s\n", value, p);
	}
	sysfs_dir_free(&d);
}

/* runtime_cpus - per isolated CPU: the governor, deep C-states off, MCE polling off */
static void runtime_cpus(FILE *fp, const struct js_cpuset *iso)
{
	char p[SYSFS_PATH_MAX];

	for (int cpu = cpuset_next(iso, 0); cpu >= 0; cpu = cpuset_next(iso, cpu + 1)) {
		audit_spath(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			    cpu);
		if (sysfs_exists(p))
			fprintf(fp, "echo performance > %s\n", p);
		for (int s = 0; s < 16; s++) {
			int lat;

			audit_spath(p, sizeof(p),
				    "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu,
				    s);
			if (sysfs_read_int(p, &lat))
				break;
			if (lat > AUDIT_CSTATE_BUDGET_US)
				fprintf(fp,
					"echo 1 > /sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable\n",
					cpu, s);
		}
		audit_spath(p, sizeof(p),
			    "/sys/devices/system/machinecheck/machinecheck%d/ignore_ce", cpu);
		if (sysfs_exists(p))
			fprintf(fp, "echo 1 > %s\n", p);
	}
}

/* audit_plan_print - the plan for a->cpus (docs/CHECK.md); -1 when no CPU is left for
 * housekeeping (nothing printed) */
int audit_plan_print(FILE *fp, const struct js_audit *a)
{
	static char params[PLAN_LINE], line[PLAN_LINE], grub[PLAN_LINE], replaced[PLAN_LINE];
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
	merged(a, params, false, line, sizeof(line), replaced, sizeof(replaced));
	merged(a, params, true, grub, sizeof(grub), NULL, 0);

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
	if (replaced[0])
		fprintf(fp, "# replaces: %s\n", replaced);
	fprintf(fp, "grubby --update-kernel=ALL --args=\"%s\"\n", params);
	fprintf(fp, "# or in /etc/default/grub, then update-grub (Debian) or grub2-mkconfig -o "
		    "/boot/grub2/grub.cfg:\n");
	fprintf(fp, "# GRUB_CMDLINE_LINUX=\"%s\"\n", grub);

	section(fp, "2. sysctl: persistent, and applied now by sysctl --system");
	fprintf(fp, "cat > /etc/sysctl.d/90-jitterscope.conf <<'EOF'\n");
	fprintf(fp, "kernel.nmi_watchdog = 0\n");
	fprintf(fp, "kernel.watchdog_cpumask = %s\n", hk);
	fprintf(fp, "kernel.timer_migration = 0\n");
	fprintf(fp, "kernel.numa_balancing = 0\n");
	if (rt)
		fprintf(fp, "kernel.sched_rt_runtime_us = -1\n");
	fprintf(fp, "vm.stat_interval = 10\n");
	fprintf(fp, "vm.swappiness = 10\n");
	fprintf(fp, "vm.zone_reclaim_mode = 0\n");
	fprintf(fp, "vm.compaction_proactiveness = 0\n");
	fprintf(fp, "EOF\nsysctl --system\n");

	section(fp, "3. Runtime: now, without a reboot (lost at reboot, where sections 1, 2 "
		    "and 4 take over)");
	fprintf(fp, "echo %s > /proc/irq/default_smp_affinity\n", mask);
	runtime_irqs(fp, a, &iso, hk);
	fprintf(fp, "echo %s > /sys/devices/virtual/workqueue/cpumask\n", mask);
	each_dir(fp, "/sys/devices/virtual/workqueue", "", "cpumask", mask);
	fprintf(fp, "echo never > /sys/kernel/mm/transparent_hugepage/enabled\n");
	each_dir(fp, "/sys/kernel/mm/transparent_hugepage", "hugepages-", "enabled", "never");
	fprintf(fp, "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag\n");
	fprintf(fp, "echo 0 > /sys/kernel/mm/transparent_hugepage/khugepaged/defrag\n");
	if (sysfs_exists("/sys/kernel/mm/ksm/run"))
		fprintf(fp, "echo 2 > /sys/kernel/mm/ksm/run\necho 0 > /sys/kernel/mm/ksm/run\n");
	runtime_cpus(fp, &iso);

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
