// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_plan.c - check --plan: one consistent plan that isolates the measured CPUs, from
 * what the audit read: a single kernel command line merged with the running one (its steps
 * for the boot method found: audit_plan_boot.c), a sysctl.d file, the runtime commands that
 * apply now what needs no reboot, and the tuned alternative; no step for a waived check,
 * the operator's clocksource=, tsc= and init arguments kept, and the risks of the steps it
 * prints first (audit_plan_risks.c). Every line is a shell command or a comment, so the
 * plan can be read, reviewed and run (docs/CHECK.md).
 */
#include <ctype.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_plan.h"
#include "js_util.h"

#define THP "/sys/kernel/mm/transparent_hugepage"
#define KSM "/sys/kernel/mm/ksm"
/* the characters of a thread name a plan line names without quotes */
#define SAFE "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/:"

/* what the plan is made of, as its sections find it */
struct plan {
	const struct js_audit *a;
	struct js_cpuset iso, hk;
	char isol[256], hkl[256], mask[160];
	bool rt;	     /* a FIFO/RR run: RT throttling matters */
	unsigned risks;	     /* the steps printed that have a risk (enum plan_risk) */
	bool tsc_kept;	     /* no tsc=reliable over the operator's tsc= */
	bool cs_kept;	     /* no clocksource=tsc over the operator's clocksource= */
	char set[PLAN_LINE]; /* what a section finds in force already */
};

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

/* waived - a check of one of ids (space separated) is waived: the plan has no step for it */
static bool waived(const struct js_audit *a, const char *ids)
{
	char w[AUDIT_ID_LEN];
	const char *p = ids;

	while (audit_next_word(&p, w, sizeof(w)))
		for (size_t i = 0; i < a->n; i++)
			if (a->checks[i].waived && !strcmp(a->checks[i].id, w))
				return true;
	return false;
}

/* has_key - one of the words of params has key */
static bool has_key(const char *params, const char *key)
{
	char w[320], k[64];
	const char *p = params;

	while (audit_next_word(&p, w, sizeof(w))) {
		audit_param_key(w, k, sizeof(k));
		if (!strcmp(k, key))
			return true;
	}
	return false;
}

/* param - the word fmt makes onto out, unless a check of ids is waived */
static void FMT(5, 6)
	param(const struct plan *pl, const char *ids, char *out, size_t len, const char *fmt, ...)
{
	char w[320];
	va_list ap;

	if (waived(pl->a, ids))
		return;
	va_start(ap, fmt);
	vsnprintf(w, sizeof(w), fmt, ap);
	va_end(ap);
	append(out, len, w);
}

/* new_params - the parameters the plan sets, in order: none for a waived check, none over
 * the operator's tsc= or clocksource= (pl->tsc_kept, pl->cs_kept) */
static void new_params(struct plan *pl, char *out, size_t len)
{
	const struct js_audit *a = pl->a;
	const struct audit_check *con = audit_find(a, "console", -1);

	out[0] = '\0';
	param(pl, "isolcpus isolcpus.flags", out, len, "isolcpus=managed_irq,domain,%s", pl->isol);
	if (a->f.nohz_full_capable != 0)
		param(pl, "nohz_full", out, len, "nohz_full=%s", pl->isol);
	param(pl, "rcu_nocbs", out, len, "rcu_nocbs=%s", pl->isol);
	param(pl, "rcu_nocb_poll", out, len, "rcu_nocb_poll");
	param(pl, "irqaffinity", out, len, "irqaffinity=%s", pl->hkl);
	param(pl, "skew_tick", out, len, "skew_tick=1");
	if (strcmp(a->f.preempt, "rt"))
		param(pl, "rcu.normal_after_boot", out, len, "rcupdate.rcu_normal_after_boot=1");
	param(pl, "rcu.nohz_full_patience", out, len, "rcutree.nohz_full_patience_delay=1000");
	param(pl, "watchdog.nmi", out, len, "nmi_watchdog=0");
	param(pl, "thp.enabled", out, len, "transparent_hugepage=never");
	if (a->f.invariant_tsc && !a->f.arm64) { /* arm64: no tsc=, arch_sys_counter */
		/* how far to trust the clock is the operator's choice, where the line makes one */
		pl->tsc_kept = audit_cmdline_has(a, "tsc") &&
			       !audit_param_in_force(a, "tsc=reliable");
		if (!pl->tsc_kept)
			param(pl, "clocksource.watchdog", out, len, "tsc=reliable");
		if (a->f.clocksource[0] && strcmp(a->f.clocksource, "tsc") &&
		    !(a->f.hypervisor && !strcmp(a->f.clocksource, "kvm-clock"))) {
			pl->cs_kept = audit_cmdline_has(a, "clocksource") &&
				      !audit_param_in_force(a, "clocksource=tsc");
			if (!pl->cs_kept)
				param(pl, "clocksource", out, len, "clocksource=tsc");
		}
	}
	/* quiet is kept from the running line; added with a serial console that lacks it */
	if (con && con->verdict == AUDIT_WARN && !audit_cmdline_has(a, "quiet"))
		param(pl, "console", out, len, "quiet");
}

/* kept - the operator's clocksource=, tsc= and init's arguments, which the planned line has
 * as they are, and why the plan sets no tsc= or clocksource= over them */
static void kept(FILE *fp, const struct plan *pl)
{
	static const char *const keys[] = { "clocksource", "tsc" };
	const struct js_audit *a = pl->a;
	char vals[8][64], w[640], words[1024] = "", v[64] = "";

	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		size_t n = audit_cmdline_get_all(a, keys[k], vals, ARRAY_SIZE(vals));

		for (size_t i = 0; i < n; i++) {
			snprintf(w, sizeof(w), "%s=%s", keys[k], vals[i]);
			append(words, sizeof(words), w);
		}
	}
	if (!words[0] && !a->f.cmdline_init[0])
		return;
	fprintf(fp, "# kept as the operator set them:%s%s%s%s\n", words[0] ? " " : "", words,
		a->f.cmdline_init[0] ?
			(words[0] ? "; init's arguments -- " : " init's arguments -- ") :
			"",
		a->f.cmdline_init);
	if (pl->tsc_kept) {
		audit_cmdline_get(a, "tsc", v, sizeof(v));
		fprintf(fp, "# no tsc=reliable over the operator's tsc=%s: %s\n", v,
			a->f.hypervisor ?
				"in a VM it would turn off the clocksource watchdog, which catches "
				"a TSC the host lets drift (live migration, unsynchronised host "
				"CPUs)" :
				"how far to trust the TSC is the operator's choice (tsc=reliable "
				"turns off the clocksource watchdog)");
	}
	if (pl->cs_kept) {
		audit_cmdline_get(a, "clocksource", v, sizeof(v));
		fprintf(fp,
			"# no clocksource=tsc over the operator's clocksource=%s: the clock to read "
			"is the operator's choice\n",
			v);
	}
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

/* irq_waived - the plan leaves IRQ q where it is: irq.affinity or its irq.N is waived */
static bool irq_waived(const struct js_audit *a, const struct audit_irq *q)
{
	char id[AUDIT_ID_LEN];

	snprintf(id, sizeof(id), "irq.%d", q->irq);
	return waived(a, "irq.affinity") || waived(a, id);
}

/* irq_ids - the irq.N ids on isolated CPUs, kernel-managed ones (want_managed) or the
 * others the plan moves (not waived), " irq.N" each, into buf; their number */
static size_t irq_ids(const struct js_audit *a, const struct js_cpuset *iso, bool want_managed,
		      char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < a->nirqs; k++) {
		const struct audit_irq *q = &a->irqs[k];
		size_t l = strlen(buf);

		if (!cpuset_intersects(&q->effective, iso) || managed(q, iso) != want_managed ||
		    (!want_managed && irq_waived(a, q)))
			continue;
		snprintf(buf + l, len - l, " irq.%d", q->irq);
		n++;
	}
	return n;
}

/* irqs_waived - some IRQ on an isolated CPU stays there because its check is waived */
static bool irqs_waived(const struct js_audit *a, const struct js_cpuset *iso)
{
	for (size_t k = 0; k < a->nirqs; k++)
		if (cpuset_intersects(&a->irqs[k].effective, iso) && irq_waived(a, &a->irqs[k]))
			return true;
	return false;
}

/* runtime_irqs - every device IRQ on an isolated CPU to the housekeeping CPUs (not a waived
 * one) */
static void runtime_irqs(FILE *fp, const struct plan *pl)
{
	const struct js_audit *a = pl->a;

	for (size_t k = 0; k < a->nirqs; k++) {
		const struct audit_irq *q = &a->irqs[k];
		char p[64];

		if (!cpuset_intersects(&q->effective, &pl->iso) || irq_waived(a, q))
			continue;
		audit_spath(p, sizeof(p), "/proc/irq/%d/smp_affinity_list", q->irq);
		if (audit_value_in_force(p, AUDIT_V_LIST, pl->hkl)) {
			fprintf(fp,
				"# irq %d (%s): smp_affinity_list is %s already, yet it stays on an "
				"isolated CPU: kernel-managed; fewer device queues help\n",
				q->irq, q->name, pl->hkl);
			continue;
		}
		fprintf(fp, "echo %s > %s  # %s", pl->hkl, p, q->name);
		if (managed(q, &pl->iso))
			fputs(" (EIO: kernel-managed for these CPUs alone; fewer device queues "
			      "help)",
			      fp);
		fputc('\n', fp);
	}
}

/* echo - "echo VALUE > PATH", unless PATH holds VALUE already (then its name onto pl->set)
 * or a check of ids is waived; whether it printed */
static bool echo(FILE *fp, struct plan *pl, const char *ids, const char *value, const char *path,
		 enum audit_vkind kind)
{
	size_t n = strlen(pl->set);

	if (waived(pl->a, ids))
		return false;
	if (!audit_value_in_force(path, kind, value)) {
		fprintf(fp, "echo %s > %s\n", value, path);
		return true;
	}
	if (n + 1 < sizeof(pl->set))
		snprintf(pl->set + n, sizeof(pl->set) - n, " %s", path);
	return false;
}

/* runtime_kthreads - taskset for each unbound kthread on a measured CPU that taskset moves:
 * after section 1's nohz_full= none starts there, but one that sets its own affinity (kswapd,
 * kcompactd: their node's CPUs) is still there, and no boot parameter keeps it off. By name
 * (pgrep -x), so that the line holds in another boot too */
static void runtime_kthreads(FILE *fp, const struct js_audit *a, const char *hk)
{
	const char *done[AUDIT_MOVABLE * 4];
	size_t ndone = 0;

	if (waived(a, "tasks.kthreads"))
		return;
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
 * starts with prefix; whether it printed one */
static bool each_dir(FILE *fp, struct plan *pl, const char *ids, const char *dir,
		     const char *prefix, const char *leaf, const char *value)
{
	struct sysfs_dir d;
	char p[SYSFS_PATH_MAX];
	bool printed = false;

	if (sysfs_list_dir(dir, &d))
		return false;
	for (size_t i = 0; i < d.n; i++) {
		if (strncmp(d.names[i], prefix, strlen(prefix)))
			continue;
		audit_spath(p, sizeof(p), "%s/%s/%s", dir, d.names[i], leaf);
		if (sysfs_exists(p))
			printed |= echo(fp, pl, ids, value, p, AUDIT_V_TEXT);
	}
	sysfs_dir_free(&d);
	return printed;
}

/* runtime_cpus - per isolated CPU: the governor, deep C-states off, MCE polling off */
static void runtime_cpus(FILE *fp, struct plan *pl)
{
	char p[SYSFS_PATH_MAX];

	for (int cpu = cpuset_next(&pl->iso, 0); cpu >= 0; cpu = cpuset_next(&pl->iso, cpu + 1)) {
		audit_spath(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			    cpu);
		if (sysfs_exists(p) &&
		    echo(fp, pl, "cpufreq.governor", "performance", p, AUDIT_V_TEXT))
			pl->risks |= PLAN_RISK_POWER;
		for (int s = 0; s < 16; s++) {
			int lat;

			audit_spath(p, sizeof(p),
				    "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu,
				    s);
			if (sysfs_read_int(p, &lat))
				break;
			if (lat > AUDIT_CSTATE_BUDGET_US &&
			    echo(fp, pl, "cstates", "1",
				 audit_spath(p, sizeof(p),
					     "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
					     cpu, s),
				 AUDIT_V_TEXT))
				pl->risks |= PLAN_RISK_POWER;
		}
		audit_spath(p, sizeof(p),
			    "/sys/devices/system/machinecheck/machinecheck%d/ignore_ce", cpu);
		if (sysfs_exists(p))
			echo(fp, pl, "mce.ignore_ce", "1", p, AUDIT_V_TEXT);
	}
}

/* runtime_ksm - KSM stopped where it runs (ksm/run 1): unmerging first, which copies every
 * merged page back (said on the line before); 0 where it has unmerged (2); nothing where it
 * is off or absent */
static void runtime_ksm(FILE *fp, struct plan *pl)
{
	uint64_t sharing = 0;
	int run;

	if (waived(pl->a, "ksm") || sysfs_read_int(KSM "/run", &run))
		return;
	if (run == 1) {
		char more[96] = "";

		if (!sysfs_read_u64(KSM "/pages_sharing", &sharing))
			snprintf(more, sizeof(more), " (pages_sharing: %llu pages more)",
				 (unsigned long long)sharing);
		fprintf(fp,
			"# warning: echo 2 unmerges every page KSM merged: each is copied back, "
			"memory use grows%s\n",
			more);
		fprintf(fp, "echo 2 > " KSM "/run\necho 0 > " KSM "/run\n");
		pl->risks |= PLAN_RISK_KSM;
	} else if (run == 2) {
		fprintf(fp, "echo 0 > " KSM "/run  # it has unmerged (run is 2): 0 stops it\n");
	}
}

/* sysctls - the sysctl.d file with the values not in force yet (their names in force onto
 * pl->set), none for a waived check; nothing when all are */
static void sysctls(FILE *fp, struct plan *pl)
{
	const struct {
		const char *key, *value, *ids;
		enum audit_vkind kind;
		unsigned risk;
	} want[] = {
		{ "kernel.nmi_watchdog", "0", "watchdog.nmi", AUDIT_V_TEXT, PLAN_RISK_NMI },
		{ "kernel.watchdog_cpumask", pl->hkl, "watchdog.soft", AUDIT_V_LIST, 0 },
		{ "kernel.timer_migration", "0", "timer_migration", AUDIT_V_TEXT, 0 },
		{ "kernel.numa_balancing", "0", "numa_balancing", AUDIT_V_TEXT, 0 },
		{ "kernel.sched_rt_runtime_us", pl->rt ? "-1" : NULL, "sched_rt_runtime_us",
		  AUDIT_V_TEXT, PLAN_RISK_RT },
		{ "vm.stat_interval", "10", "vm.stat_interval", AUDIT_V_TEXT, 0 },
		{ "vm.swappiness", "10", "swap", AUDIT_V_TEXT, 0 },
		{ "vm.zone_reclaim_mode", "0", "vm.zone_reclaim_mode", AUDIT_V_TEXT, 0 },
		{ "vm.compaction_proactiveness", "0", "vm.compaction_proactiveness", AUDIT_V_TEXT,
		  0 },
	};
	char p[128];
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		size_t l = strlen(pl->set);

		if (!want[i].value || waived(pl->a, want[i].ids))
			continue;
		audit_spath(p, sizeof(p), "/proc/sys/%s", want[i].key);
		for (char *c = p + strlen("/proc/sys/"); *c; c++)
			*c = *c == '.' ? '/' : *c;
		if (audit_value_in_force(p, want[i].kind, want[i].value)) {
			snprintf(pl->set + l, sizeof(pl->set) - l, " %s", want[i].key);
			continue;
		}
		if (!n++)
			fprintf(fp, "cat > /etc/sysctl.d/90-jitterscope.conf <<'EOF'\n");
		fprintf(fp, "%s = %s\n", want[i].key, want[i].value);
		pl->risks |= want[i].risk;
	}
	if (n)
		fprintf(fp, "EOF\nsysctl --system\n");
	else
		fprintf(fp, "# nothing to change: every sysctl the plan sets has its value\n");
}

/* cover - " ID" onto buf for each of ids whose check is not waived */
static void cover(const struct js_audit *a, char *buf, size_t len, const char *ids)
{
	char w[AUDIT_ID_LEN];
	const char *p = ids;

	while (audit_next_word(&p, w, sizeof(w)))
		if (!waived(a, w)) {
			size_t n = strlen(buf);

			snprintf(buf + n, len - n, " %s", w);
		}
}

/* header - the plan's first lines: what it isolates, the checks it makes pass (covers), those
 * it does not, and the waived ones it leaves */
static void header(FILE *fp, const struct plan *pl)
{
	const struct js_audit *a = pl->a;
	static char covers[PLAN_LINE], irqs[1024], ids[PLAN_LINE];
	char managed_ids[512];
	size_t nmanaged = irq_ids(a, &pl->iso, true, managed_ids, sizeof(managed_ids));

	fprintf(fp, "# jitterscope check --plan: isolate CPU %s, housekeeping on CPU %s (%s%s)\n",
		pl->isol, pl->hkl, a->sysroot[0] ? "sysroot " : "this machine", a->sysroot);
	covers[0] = '\0';
	cover(a, covers, sizeof(covers), "isolcpus isolcpus.flags");
	if (a->f.nohz_full_capable != 0)
		cover(a, covers, sizeof(covers), "nohz_full");
	cover(a, covers, sizeof(covers),
	      "rcu_nocbs rcu_nocb_poll rcu.normal_after_boot rcu.nohz_full_patience skew_tick "
	      "console irqaffinity");
	/* the IRQs the plan moves; a kernel-managed one stays, and irq.affinity with it */
	if (nmanaged || irqs_waived(a, &pl->iso)) {
		irq_ids(a, &pl->iso, false, irqs, sizeof(irqs));
		if (!nmanaged)
			cover(a, covers, sizeof(covers), "irq.affinity");
		js_scpy(covers + strlen(covers), sizeof(covers) - strlen(covers), irqs);
	} else {
		cover(a, covers, sizeof(covers), "irq.affinity irq.*");
	}
	cover(a, covers, sizeof(covers),
	      "irqbalance tasks.user tasks.kthreads workqueue.cpumask timer_migration "
	      "watchdog.nmi watchdog.soft");
	if (pl->rt)
		cover(a, covers, sizeof(covers), "sched_rt_runtime_us");
	cover(a, covers, sizeof(covers), "cpufreq.governor cstates mce.ignore_ce");
	if (a->f.invariant_tsc && !pl->tsc_kept)
		cover(a, covers, sizeof(covers), "clocksource.watchdog");
	if (a->f.invariant_tsc && !pl->cs_kept &&
	    !(a->f.hypervisor && !strcmp(a->f.clocksource, "kvm-clock")))
		cover(a, covers, sizeof(covers), "clocksource");
	cover(a, covers, sizeof(covers),
	      "thp.enabled thp.defrag thp.khugepaged_defrag ksm numa_balancing "
	      "vm.zone_reclaim_mode vm.compaction_proactiveness vm.stat_interval tuned");
	fprintf(fp, "# covers:%s\n", covers);
	fprintf(fp, "# not covered (hardware, host or application): smt hugepages pm_qos "
		    "(jitterscope --dma-latency, or the application holds /dev/cpu_dma_latency) "
		    "swap (swapoff -a, or mlockall() in the application) kernel.audit "
		    "mitigations tsc.invariant smi\n");
	if (nmanaged)
		fprintf(fp,
			"# not covered: irq.affinity%s: kernel-managed (a queue for these CPUs "
			"alone), they refuse a new affinity (EIO); fewer device queues help\n",
			managed_ids);
	js_scpy(ids, sizeof(ids), " "); /* " id id ... ": each once */
	for (size_t i = 0; i < a->n; i++) {
		char w[AUDIT_ID_LEN + 2];

		snprintf(w, sizeof(w), " %s ", a->checks[i].id);
		if (a->checks[i].waived && !strstr(ids, w))
			js_scpy(ids + strlen(ids), sizeof(ids) - strlen(ids), w + 1);
	}
	if (ids[1])
		fprintf(fp, "# waived, so no step for them:%.*s\n", (int)strlen(ids) - 1, ids);
	if (a->f.nohz_full_capable == 0)
		fprintf(fp, "# this kernel has no CONFIG_NO_HZ_FULL: nohz_full needs another "
			    "kernel\n");
}

/* param_risks - the risks of the parameters todo adds */
static unsigned param_risks(const char *todo)
{
	return (has_key(todo, "isolcpus") ? PLAN_RISK_DOMAIN : 0) |
	       (has_key(todo, "nohz_full") ? PLAN_RISK_NOHZ : 0) |
	       (has_key(todo, "tsc") ? PLAN_RISK_TSC : 0) |
	       (has_key(todo, "nmi_watchdog") ? PLAN_RISK_NMI : 0) |
	       (has_key(todo, "transparent_hugepage") ? PLAN_RISK_THP : 0);
}

/* body - sections 1 to 5; the risks of what they print into pl->risks */
static void body(FILE *fp, struct plan *pl)
{
	static char params[PLAN_LINE], running[PLAN_LINE], line[PLAN_LINE], replaced[PLAN_LINE],
		todo[PLAN_LINE];
	const struct js_audit *a = pl->a;
	char spaces[256];

	js_scpy(spaces, sizeof(spaces), pl->hkl);
	for (char *c = spaces; *c; c++)
		*c = *c == ',' ? ' ' : *c;
	new_params(pl, params, sizeof(params));
	/* what the running line has in force already stays as it is */
	audit_params_unset(a, params, todo, sizeof(todo));
	audit_params_set(a, params, pl->set, sizeof(pl->set));
	js_scpy(running, sizeof(running), a->f.cmdline);
	if (a->f.cmdline_init[0])
		snprintf(running + strlen(running), sizeof(running) - strlen(running), "%s-- %s",
			 running[0] && running[strlen(running) - 1] != ' ' ? " " : "",
			 a->f.cmdline_init);
	plan_line_merge(running, todo, todo, NULL, line, sizeof(line), replaced, sizeof(replaced));
	pl->risks |= param_risks(todo);

	section(fp, "1. Kernel command line (takes effect at the next boot)");
	fprintf(fp, "# running: %s\n", running[0] ? running : "(unknown)");
	fprintf(fp, "# planned: %s\n", line);
	if (pl->set[0])
		fprintf(fp, "# in force already: %s\n", pl->set);
	if (replaced[0])
		fprintf(fp, "# replaces: %s\n", replaced);
	kept(fp, pl);
	if (todo[0])
		plan_boot_steps(fp, a, todo, line);
	else
		fprintf(fp, "# nothing to change: the running command line has every parameter "
			    "the plan sets\n");

	section(fp, "2. sysctl: persistent, and applied now by sysctl --system");
	pl->set[0] = '\0';
	sysctls(fp, pl);
	if (pl->set[0])
		fprintf(fp,
			"# in force already (keep them in /etc/sysctl.d if sysctl -w set "
			"them):%s\n",
			pl->set);

	section(fp, "3. Runtime: now, without a reboot (lost at reboot, where sections 1, 2 "
		    "and 4 take over)");
	pl->set[0] = '\0';
	echo(fp, pl, "irq.affinity", pl->mask, "/proc/irq/default_smp_affinity", AUDIT_V_MASK);
	runtime_irqs(fp, pl);
	runtime_kthreads(fp, a, pl->hkl);
	echo(fp, pl, "workqueue.cpumask", pl->mask, "/sys/devices/virtual/workqueue/cpumask",
	     AUDIT_V_MASK);
	if (!waived(a, "workqueue.cpumask"))
		fprintf(fp, "# (a workqueue's own */cpumask runs within this one%s)\n",
			audit_kernel_at_least(a, 6, 9) ?
				"" :
				"; before 6.9 an ordered workqueue keeps the mask it had at boot, "
				"which section 1 sets");
	if (echo(fp, pl, "thp.enabled", "never", THP "/enabled", AUDIT_V_TEXT) |
	    each_dir(fp, pl, "thp.enabled", THP, "hugepages-", "enabled", "never"))
		pl->risks |= PLAN_RISK_THP;
	echo(fp, pl, "thp.defrag", "madvise", THP "/defrag", AUDIT_V_TEXT);
	echo(fp, pl, "thp.khugepaged_defrag", "0", THP "/khugepaged/defrag", AUDIT_V_TEXT);
	runtime_ksm(fp, pl);
	runtime_cpus(fp, pl);
	if (pl->set[0])
		fprintf(fp, "# in force already:%s\n", pl->set);

	section(fp, "4. Services: irqbalance and systemd keep off the isolated CPUs");
	if (!waived(a, "irqbalance")) {
		fprintf(fp,
			"echo 'IRQBALANCE_BANNED_CPULIST=%s' >> /etc/default/irqbalance  # "
			"/etc/sysconfig/irqbalance on RHEL\n",
			pl->isol);
		fprintf(fp, "systemctl try-restart irqbalance\n");
	}
	if (!waived(a, "tasks.user")) {
		fprintf(fp, "mkdir -p /etc/systemd/system.conf.d\n");
		fprintf(fp,
			"cat > /etc/systemd/system.conf.d/90-jitterscope.conf <<'EOF'\n[Manager]\n"
			"CPUAffinity=%s\nEOF\n",
			spaces);
		pl->risks |= PLAN_RISK_AFFINITY;
	}

	if (waived(a, "tuned"))
		return;
	section(fp, "5. Or tuned (RHEL, Fedora): cpu-partitioning sets nohz_full, rcu_nocbs, "
		    "irqaffinity and CPUAffinity itself, not isolcpus (add it to section 1's "
		    "line, as this plan does)");
	fprintf(fp,
		"cat > /etc/tuned/cpu-partitioning-variables.conf <<'EOF'\n"
		"isolated_cores=%s\nEOF\n",
		pl->isol);
	fprintf(fp, "tuned-adm profile cpu-partitioning\n");
}

/* nocbs - where the plan's rcu_nocbs= stands, for the nohz_full risk */
static const char *nocbs(const struct plan *pl)
{
	char want[300];

	snprintf(want, sizeof(want), "rcu_nocbs=%s", pl->isol);
	if (audit_param_in_force(pl->a, want))
		return "in force already";
	return waived(pl->a, "rcu_nocbs") ?
		       "waived here: without it RCU callbacks still run there" :
		       "set by this plan";
}

/* plan - the plan for a->cpus (docs/CHECK.md); -1 when no CPU is left for housekeeping
 * (nothing printed) */
static int plan(FILE *fp, const struct js_audit *a)
{
	static struct plan pl;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	memset(&pl, 0, sizeof(pl));
	pl.a = a;
	pl.rt = a->policy == SCHED_FIFO || a->policy == SCHED_RR;
	iso_set(a, &pl.iso);
	pl.hk = a->f.online;
	cpuset_andnot(&pl.hk, &pl.iso);
	if (cpuset_empty(&pl.hk))
		return -1;
	cpulist_format(&pl.iso, pl.isol, sizeof(pl.isol));
	cpulist_format(&pl.hk, pl.hkl, sizeof(pl.hkl));
	cpumask_format(&pl.hk, 0, pl.mask, sizeof(pl.mask));
	/* the sections first, so that the risks of what they print come before them */
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -1;
	body(mem, &pl);
	if (fclose(mem)) {
		free(buf);
		return -1;
	}
	header(fp, &pl);
	plan_risks(fp, a, pl.risks, pl.isol, pl.hkl, nocbs(&pl));
	fputs(buf, fp);
	free(buf);
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
