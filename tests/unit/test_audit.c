// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit.c - the isolation audit on fixture trees (tests/data/sysroot/{tuned,
 * badly-tuned,malformed}), on scratch trees, and on the live system; runtime deltas and
 * the cross-check. Run from the repository root (make unit does).
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_audit.h"
#include "js_json.h"
#include "js_sysfs.h"
#include "fixtures.h"
#include "js_test.h"
#include "js_util.h"
#include "../../src/audit/audit_priv.h"

#define TUNED "tests/data/sysroot/tuned"
#define BADLY "tests/data/sysroot/badly-tuned"
#define MALFORMED "tests/data/sysroot/malformed"
#define MANY "tests/data/sysroot/many-cpus"
#define TUNED612 "tests/data/sysroot/tuned-6.12"
#define DEB13 "tests/data/sysroot/deb13-tuned-capture"

static void run(struct js_audit *a, const char *root, const int *cpus, size_t n)
{
	int ret = audit_run(a, cpus, n, root);

	if (ret)
		fail_msg("audit_run(%s): %d", root ? root : "live", ret);
}

static void print_all(const struct js_audit *a)
{
	audit_print_text(stderr, a, false);
}

/* every check is well formed: a verdict in range, an id, a reason when skipped */
static void assert_sane(const struct js_audit *a)
{
	assert_true(a->n > 0);
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *c = &a->checks[i];

		assert_true(c->id[0] != '\0');
		assert_true((unsigned)c->verdict < AUDIT_NVERDICTS);
		assert_true((unsigned)c->severity <= SEV_CRIT);
		if (c->verdict == AUDIT_SKIP && !c->observed[0])
			fail_msg("%s skipped without a reason", c->id);
		if ((c->verdict == AUDIT_FAIL || c->verdict == AUDIT_WARN) &&
		    (!c->expected[0] || !c->hint[0]))
			fail_msg("%s: %s without expected/hint", c->id,
				 audit_verdict_name(c->verdict));
	}
}

static enum audit_verdict verdict(const struct js_audit *a, const char *id, int cpu)
{
	const struct audit_check *c = audit_find(a, id, cpu);

	if (!c)
		fail_msg("no check %s (cpu %d)", id, cpu);
	return c->verdict;
}

/** A well-tuned box: every check passes (SMIs cannot be read from a tree). */
static void test_tuned(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;

	(void)state;
	run(&a, TUNED, cpus, 1);
	assert_sane(&a);
	for (size_t i = 0; i < a.n; i++) {
		const struct audit_check *c = &a.checks[i];
		enum audit_verdict want = strcmp(c->id, "smi") ? AUDIT_PASS : AUDIT_SKIP;

		if (c->verdict != want) {
			print_all(&a);
			fail_msg("%s: %s (%s)", c->id, audit_verdict_name(c->verdict), c->observed);
		}
	}
	assert_true(a.n >= 44);
	assert_int_equal(audit_exit_status(&a), JS_EXIT_OK);
	assert_int_equal(a.f.hz, 1000);
	assert_string_equal(a.f.preempt, "full");
	assert_int_equal(a.f.nohz_full_capable, 1);
	assert_true(a.cpu[0].isolated && a.cpu[0].nohz_full && a.cpu[0].rcu_nocb);
	assert_true(a.f.irqbalance_running);
	assert_int_equal(a.f.rt_runtime_us, -1);
	assert_int_equal(a.cpu[0].node, 0);
	assert_int_equal(a.cpu[0].deepest_cstate_us, 2);
	assert_int_equal(audit_irqs_on_cpu(&a, 3, NULL, 0), 0);
	assert_string_equal(audit_find(&a, "rcu.nohz_full_patience", -1)->observed, "1000 ms");
	audit_free(&a);
}

/* the verdict every check takes on the badly tuned box */
static const struct {
	const char *id;
	enum audit_verdict v;
} badly[] = {
	{ "cpu.online", AUDIT_PASS },
	{ "kernel.hz", AUDIT_PASS },
	{ "kernel.preempt", AUDIT_PASS },
	{ "kernel.nohz_full", AUDIT_PASS },
	{ "kernel.hypervisor", AUDIT_WARN },
	{ "hypervisor.signals", AUDIT_PASS }, /* context only */
	{ "isolcpus", AUDIT_FAIL },
	{ "isolcpus.flags", AUDIT_FAIL },
	{ "nohz_full", AUDIT_FAIL },
	{ "rcu_nocbs", AUDIT_FAIL },
	{ "rcu_nocb_poll", AUDIT_WARN },
	{ "housekeeping.cpus", AUDIT_PASS },
	{ "rcu.normal_after_boot", AUDIT_WARN },
	{ "rcu.nohz_full_patience", AUDIT_WARN },
	{ "skew_tick", AUDIT_WARN },
	{ "console", AUDIT_WARN },
	{ "irqaffinity", AUDIT_FAIL },
	{ "irq.affinity", AUDIT_FAIL },
	{ "irq.9", AUDIT_FAIL },
	{ "irq.120", AUDIT_FAIL },
	{ "irq.130", AUDIT_FAIL },
	{ "irqbalance", AUDIT_FAIL },
	{ "tasks.user", AUDIT_FAIL },
	{ "tasks.kthreads", AUDIT_FAIL },
	{ "workqueue.cpumask", AUDIT_FAIL },
	{ "tasks.rescuers", AUDIT_PASS }, /* none on this box */
	{ "timer_migration", AUDIT_WARN },
	{ "watchdog.nmi", AUDIT_FAIL },
	{ "watchdog.soft", AUDIT_FAIL },
	{ "sched_rt_runtime_us", AUDIT_WARN }, /* SCHED_OTHER: not throttled */
	{ "mce.ignore_ce", AUDIT_WARN },
	{ "mitigations", AUDIT_PASS },
	{ "kernel.audit", AUDIT_WARN },
	{ "tuned", AUDIT_WARN },
	{ "cpufreq.governor", AUDIT_FAIL },
	{ "cstates", AUDIT_FAIL },
	{ "pm_qos", AUDIT_WARN },
	{ "smt", AUDIT_FAIL },
	{ "clocksource", AUDIT_FAIL },
	{ "tsc.invariant", AUDIT_WARN }, /* a guest: the host's flags */
	{ "clocksource.watchdog", AUDIT_WARN },
	{ "smi", AUDIT_SKIP },
	{ "thp.enabled", AUDIT_FAIL },
	{ "thp.defrag", AUDIT_FAIL },
	{ "thp.khugepaged_defrag", AUDIT_FAIL },
	{ "hugepages", AUDIT_FAIL },
	{ "ksm", AUDIT_FAIL },
	{ "numa_balancing", AUDIT_FAIL },
	{ "swap", AUDIT_FAIL },
	{ "vm.zone_reclaim_mode", AUDIT_WARN },
	{ "vm.compaction_proactiveness", AUDIT_WARN },
	{ "vm.stat_interval", AUDIT_FAIL },
};

/** A badly tuned box: every check takes its fail (or warn) path. */
static void test_badly_tuned(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;

	(void)state;
	run(&a, BADLY, cpus, 1);
	assert_sane(&a);
	assert_int_equal(a.n, ARRAY_SIZE(badly));
	for (size_t i = 0; i < ARRAY_SIZE(badly); i++) {
		enum audit_verdict v = verdict(&a, badly[i].id, -1);

		if (v != badly[i].v) {
			print_all(&a);
			fail_msg("%s: %s, want %s", badly[i].id, audit_verdict_name(v),
				 audit_verdict_name(badly[i].v));
		}
	}
	assert_int_equal(audit_exit_status(&a), JS_EXIT_VIOLATION);
	/* the facts behind the verdicts */
	assert_int_equal(a.f.rt_runtime_us, 950000);
	assert_int_equal(a.f.stat_interval, 1);
	assert_string_equal(a.f.thp_enabled, "always");
	assert_true(a.f.hypervisor);
	/* a guest whose steal cannot be read from the tree, its CPUID not this machine's
	 * (arm64: no CPUID, its PV time told by the steal the kernel counts) */
	assert_string_equal(audit_find(&a, "hypervisor.signals", -1)->observed,
			    "steal: unknown (/proc/stat: No such file or directory); "
#ifdef __aarch64__
			    "arm64 PV time: not seen (no steal counted since boot)");
#else
			    "KVM_HINTS_REALTIME: not read (CPUID is this machine's, not the "
			    "sysroot's); kvmclock: none (host clock updates not seen)");
#endif
	assert_false(a.f.invariant_tsc);
	assert_int_equal(a.cpu[0].nirqs, 3);
	assert_int_equal(a.cpu[0].ntasks_user, 4);
	assert_int_equal(a.cpu[0].ntasks_kthread, 4);
	assert_true(a.cpu[0].nkept >= 8);
	/* a quiet IRQ is med, a busy one high */
	assert_int_equal(audit_find(&a, "irq.120", 3)->severity, SEV_MED);
	assert_int_equal(audit_find(&a, "irq.130", 3)->severity, SEV_HIGH);
	assert_non_null(strstr(audit_find(&a, "irq.130", 3)->observed, "nvme0q1"));
	/* the "--" ends the kernel's part of the command line */
	assert_null(strstr(a.f.cmdline, "single"));
	assert_non_null(strstr(audit_find(&a, "pm_qos", 3)->observed, "2000000000"));
	assert_string_equal(audit_find(&a, "rcu.nohz_full_patience", -1)->observed,
			    "0 ms; no measured CPU in nohz_full: no effect yet");
	audit_free(&a);
}

/* the parameters issue 36's tuned box has set, as a hint or a plan line would recommend them */
static const char *const set_612[] = { "isolcpus=", "nohz_full=", "rcu_nocbs=", "irqaffinity=" };

/* assert_recommends_unset - no hint of a recommends a parameter in force (audit_hint_
 * recommends_set, the scan fix first uses too), nor one of set_612 (all set on the boxes
 * this is asked of) after a verb */
static void assert_recommends_unset(const struct js_audit *a)
{
	static const char *const verbs[] = { "boot with ", "add " };
	char buf[256], v[64];

	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *c = &a->checks[i];

		if (audit_hint_recommends_set(a, c->hint, buf, sizeof(buf)))
			fail_msg("%s cpu %d recommends %s, which is set: %s", c->id, c->cpu, buf,
				 c->hint);
		for (size_t k = 0; k < ARRAY_SIZE(set_612); k++)
			for (size_t w = 0; w < ARRAY_SIZE(verbs); w++) {
				snprintf(v, sizeof(v), "%s%s", verbs[w], set_612[k]);
				if (strstr(c->hint, v))
					fail_msg("%s cpu %d: %s", c->id, c->cpu, c->hint);
			}
		assert_null(strstr(c->hint, "keeps unbound kthreads off"));
	}
}

/* plan_of - audit_plan_print of a into a buffer (free it) */
static char *plan_of(const struct js_audit *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(audit_plan_print(fp, a), 0);
	fclose(fp);
	return buf;
}

/* plan_line - the plan's line that starts with prefix, copied into out; false if none */
static bool plan_line(const char *plan, const char *prefix, char *out, size_t len)
{
	for (const char *l = plan; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix))) {
			snprintf(out, len, "%.*s", (int)strcspn(l, "\n"), l);
			return true;
		}
	return false;
}

/* assert_plan_keeps_set - a's plan keeps the parameters, sysctls and sysfs values of issue
 * 36's box that are in force: named on "# in force already:", never written again */
static void assert_plan_keeps_set(const struct js_audit *a)
{
	char line[1024], *plan = plan_of(a);

	/* the plan: what is set stays as it is; only the rest is added */
	assert_true(plan_line(plan, "# in force already: ", line, sizeof(line)));
	assert_string_equal(line, "# in force already: isolcpus=managed_irq,domain,1 nohz_full=1 "
				  "rcu_nocbs=1 irqaffinity=0");
	/* no boot loader in these trees: the VMM's new line, each set parameter once in it */
	assert_true(plan_line(plan, "# vmm cmdline: ", line, sizeof(line)));
	for (size_t k = 0; k < ARRAY_SIZE(set_612); k++) {
		const char *at = strstr(line, set_612[k]);

		if (!at || strstr(at + 1, set_612[k]))
			fail_msg("the plan's line has %s not once: %s", set_612[k], line);
	}
	assert_false(plan_line(plan, "# replaces:", line, sizeof(line)));
	/* sysctls and runtime values in force are not written again */
	assert_false(plan_line(plan, "kernel.watchdog_cpumask", line, sizeof(line)));
	assert_false(plan_line(plan, "kernel.nmi_watchdog", line, sizeof(line)));
	assert_true(plan_line(plan, "kernel.timer_migration = 0", line, sizeof(line)));
	assert_false(
		plan_line(plan, "echo 1 > /proc/irq/default_smp_affinity", line, sizeof(line)));
	assert_false(
		plan_line(plan, "echo 1 > /sys/devices/virtual/workqueue/", line, sizeof(line)));
	assert_false(plan_line(plan, "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag",
			       line, sizeof(line)));
	assert_true(plan_line(plan, "echo never > /sys/kernel/mm/transparent_hugepage/enabled",
			      line, sizeof(line)));
	free(plan);
}

/**
 * Issue 36: a 2-vCPU guest on Debian 13's 6.12 booted with isolcpus=managed_irq,domain,1
 * nohz_full=1 rcu_nocbs=1 irqaffinity=0. The isolation passes; the 13 per-CPU workqueues'
 * rescuers allowed on CPU 0-1 are context (tasks.rescuers, info), not unbound kthreads; no
 * hint and no plan line recommends a parameter that is set.
 */
static void test_tuned_612(void **state)
{
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	run(&a, TUNED612, cpus, 1);
	assert_sane(&a);
	for (size_t k = 0; k < ARRAY_SIZE(set_612); k++)
		assert_true(audit_param_in_force(&a, set_612[k]) == false); /* no value: no */
	assert_true(audit_param_in_force(&a, "isolcpus=managed_irq,domain,1"));
	assert_true(audit_param_in_force(&a, "isolcpus=domain,1"));
	assert_true(audit_param_in_force(&a, "nohz_full=1"));
	assert_true(audit_param_in_force(&a, "rcu_nocbs=1"));
	assert_true(audit_param_in_force(&a, "irqaffinity=0"));
	/* the isolation the command line sets passes */
	assert_int_equal(verdict(&a, "isolcpus", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "isolcpus.flags", -1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "nohz_full", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "rcu_nocbs", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "irqaffinity", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "tasks.user", 1), AUDIT_PASS);
	/* each WQ_SYSFS queue's mask (3) runs within the global one (1): no unbound work there */
	c = audit_find(&a, "workqueue.cpumask", 1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_non_null(strstr(c->observed, "writeback 0-1 (runs on 0)"));
	/* the rescuers: a line of their own, context; no unbound kthread is left */
	c = audit_find(&a, "tasks.kthreads", 1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_int_equal(a.cpu[0].ntasks_kthread, 0);
	assert_int_equal(a.cpu[0].nrescuers, 13);
	c = audit_find(&a, "tasks.rescuers", 1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_int_equal(c->severity, SEV_INFO);
	assert_non_null(strstr(c->observed, "13 workqueue rescuers allowed on CPU 1"));
	assert_non_null(strstr(c->observed, "kworker/R-rcu_gp:40"));
	assert_non_null(strstr(c->observed, "per-CPU workqueues"));
	/* the guest's kernel-managed queue vector: info, and so is the summary */
	assert_int_equal(audit_find(&a, "irq.28", 1)->severity, SEV_INFO);
	c = audit_find(&a, "irq.affinity", 1);
	assert_int_equal(c->severity, SEV_INFO);
	assert_null(strstr(c->hint, "irqbalance")); /* it does not run */
	assert_recommends_unset(&a);

	assert_plan_keeps_set(&a);
	audit_free(&a);
}

/**
 * The same box for real: scripts/capture-sysroot.sh in Debian 13's 6.12.117 booted by
 * tests/vm with that command line (tests/data/sysroot/deb13-tuned-capture). The 11 per-CPU
 * workqueues' rescuers are on CPU 0-1 and the unbound ones' on CPU 0, as the source says;
 * kswapd0 and kcompactd0, which bind themselves to their node's CPUs, are what is left.
 */
static void test_deb13_capture(void **state)
{
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;
	char line[256], *plan;

	(void)state;
	run(&a, DEB13, cpus, 1);
	assert_sane(&a);
	assert_string_equal(a.f.release, "6.12.117+deb13-amd64");
	assert_int_equal(verdict(&a, "isolcpus", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "nohz_full", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "rcu_nocbs", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "irqaffinity", 1), AUDIT_PASS);
	assert_int_equal(verdict(&a, "workqueue.cpumask", 1), AUDIT_PASS);
	assert_int_equal(a.cpu[0].nrescuers, 11);
	c = audit_find(&a, "tasks.rescuers", 1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_non_null(strstr(c->observed, "of per-CPU workqueues"));
	assert_int_equal(a.cpu[0].ntasks_kthread, 2);
	c = audit_find(&a, "tasks.kthreads", 1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_non_null(strstr(c->hint, "nohz_full=1 is set"));
	assert_non_null(strstr(c->hint, "taskset -pc 0 PID moves 2 of them"));
	assert_non_null(strstr(c->hint, "kswapd*/kcompactd* take their NUMA node's CPUs"));
	assert_recommends_unset(&a);
	assert_plan_keeps_set(&a);
	/* the plan moves them (no boot parameter does), by name */
	plan = plan_of(&a);
	assert_true(plan_line(plan, "taskset -pc 0 $(pgrep -x kswapd0)  # it sets its own", line,
			      sizeof(line)));
	assert_true(plan_line(plan, "taskset -pc 0 $(pgrep -x kcompactd0)", line, sizeof(line)));
	assert_false(plan_line(plan, "taskset -pc 0 $(pgrep -x kworker", line, sizeof(line)));
	free(plan);
	audit_free(&a);
}

/* put_task - a thread in the scratch tree: its stat (comm, flags, last CPU) and status */
static void put_task(int pid, const char *comm, unsigned long flags, const char *allowed, int last)
{
	char p[96], text[512];
	int n = snprintf(text, sizeof(text), "%d (%s) S", pid, comm);

	/* fields 4 to 52: 9 the flags, 39 the CPU it last ran on */
	for (int f = 4; f <= 52; f++)
		n += snprintf(text + n, sizeof(text) - n, " %lu",
			      f == 9 ? flags : (unsigned long)(f == 39 ? last : 0));
	snprintf(text + n, sizeof(text) - n, "\n");
	snprintf(p, sizeof(p), "/proc/%d/task/%d/stat", pid, pid);
	scratch_puts(p, text);
	snprintf(text, sizeof(text), "Name:\t%s\nPid:\t%d\nCpus_allowed_list:\t%s\n", comm, pid,
		 allowed);
	snprintf(p, sizeof(p), "/proc/%d/task/%d/status", pid, pid);
	scratch_puts(p, text);
}

/* scratch_copy - the scratch tree becomes a copy of the fixture tree at dir */
static void scratch_copy(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", dir, scratch_dir);
	assert_int_equal(system(cmd), 0);
}

#define F_KTHREAD 0x208040UL /* PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC */
#define F_WQ 0x4208060UL     /* and PF_WQ_WORKER | PF_NO_SETAFFINITY: a kworker, a rescuer */

/**
 * What else keeps a kthread on a tuned CPU, named honestly: one that sets its own affinity
 * (taskset moves it), an unbound kworker (the workqueue cpumask), never "isolcpus=domain",
 * which moves none; a rescuer that last ran on the isolated CPU warns; before 6.9 a rescuer
 * has its workqueue's name and is still one; untuned, nohz_full= is what confines kthreads.
 */
static void test_kthreads_tuned(void **state)
{
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	scratch_copy(TUNED612);
	put_task(90, "kdamond.0", F_KTHREAD, "0-1", 0);
	put_task(91, "kworker/u4:2", F_WQ, "0-1", 0);
	put_task(92, "kworker/R-kblockd", F_WQ, "0-1", 1);
	run(&a, scratch_dir, cpus, 1);
	assert_sane(&a);
	c = audit_find(&a, "tasks.kthreads", 1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_int_equal(a.cpu[0].ntasks_kthread, 2);
	assert_non_null(strstr(c->hint, "nohz_full=1 is set"));
	assert_non_null(strstr(c->hint, "taskset -pc 0 PID moves 1 of them"));
	assert_non_null(strstr(c->hint, "kworker/u* follow the workqueue cpumask"));
	assert_null(strstr(c->hint, "boot with"));
	c = audit_find(&a, "tasks.rescuers", 1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_int_equal(c->severity, SEV_LOW);
	assert_non_null(strstr(c->observed, "kworker/R-kblockd:92 last ran on CPU 1"));
	assert_int_equal(a.cpu[0].nrescuers, 14);
	assert_recommends_unset(&a);
	audit_free(&a);

	/* 6.1: rescuers carry their workqueue's name, PF_WQ_WORKER all the same */
	scratch_puts("/proc/sys/kernel/osrelease", "6.1.0-40-amd64\n");
	put_task(92, "kblockd", F_WQ, "0-1", 0);
	run(&a, scratch_dir, cpus, 1);
	assert_int_equal(a.cpu[0].nrescuers, 14);
	c = audit_find(&a, "tasks.rescuers", 1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_non_null(strstr(c->observed, "before 6.9"));
	audit_free(&a);

	/* untuned: nohz_full= confines kthreads, isolcpus=domain none */
	scratch_puts("/proc/cmdline", "ro quiet\n");
	scratch_puts("/sys/devices/system/cpu/isolated", "\n");
	scratch_puts("/sys/devices/system/cpu/nohz_full", "(null)\n");
	run(&a, scratch_dir, cpus, 1);
	c = audit_find(&a, "tasks.kthreads", 1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_non_null(strstr(c->hint, "boot with nohz_full=1: kthreads then start on CPU 0"));
	assert_non_null(strstr(c->hint, "isolcpus=domain moves none"));
	assert_non_null(strstr(audit_find(&a, "isolcpus", 1)->hint,
			       "boot with isolcpus=managed_irq,domain,1"));
	/* not isolated: a rescuer's last CPU is no warning (the scheduler places it anew) */
	assert_int_equal(verdict(&a, "tasks.rescuers", 1), AUDIT_PASS);
	audit_free(&a);
}

/**
 * A remedy in force that does not take: the hint says it is set and what else explains it.
 * nohz_full=1 on the command line, CPU 1 not in nohz_full; an IRQ's affinity already asked
 * for the housekeeping CPU (bare metal, so not the guest's case); the default IRQ affinity
 * widened since boot.
 */
static void test_set_but_not_applied(void **state)
{
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	scratch_copy(TUNED612);
	scratch_puts("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc constant_tsc "
				      "nonstop_tsc\n");
	scratch_puts("/sys/devices/system/cpu/nohz_full", "(null)\n");
	scratch_puts("/proc/irq/28/smp_affinity_list", "0\n");
	scratch_puts("/proc/irq/default_smp_affinity", "3\n");
	run(&a, scratch_dir, cpus, 1);
	assert_sane(&a);
	c = audit_find(&a, "nohz_full", 1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_non_null(strstr(c->hint, "nohz_full=1 is set; the kernel left the CPU out"));
	c = audit_find(&a, "irq.28", 1);
	assert_int_equal(c->severity, SEV_HIGH);
	assert_non_null(strstr(c->hint, "smp_affinity_list is 0 already"));
	assert_non_null(strstr(c->hint, "managed_irq isolation that is set"));
	c = audit_find(&a, "irqaffinity", 1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_non_null(strstr(c->hint, "irqaffinity=0 is set; the default was widened since "
					"boot: echo 1 > /proc/irq/default_smp_affinity"));
	assert_recommends_unset(&a);
	audit_free(&a);
}

/** What is in force: isolcpus= flags and CPUs, CPU lists covered or equal, '-' = '_', the
 * last value (every tsc=), bare words; the file values a plan line would write; the scan. */
static void test_in_force(void **state)
{
	struct js_audit a;
	char buf[256];

	(void)state;
	memset(&a, 0, sizeof(a));
	cpulist_parse("0-7", &a.f.online, NULL, 0);
	snprintf(a.f.cmdline, sizeof(a.f.cmdline),
		 "ro quiet isolcpus=managed_irq,domain,2-7 nohz-full=2-7 rcu_nocbs=2-N "
		 "irqaffinity=0-1 tsc=reliable tsc=unstable transparent_hugepage=never "
		 "transparent_hugepage=always nosoftlockup");
	assert_true(audit_param_in_force(&a, "isolcpus=managed_irq,domain,3"));
	assert_true(audit_param_in_force(&a, "isolcpus=domain,2-7"));
	assert_true(audit_param_in_force(&a, "isolcpus=3")); /* no flag: domain */
	assert_false(audit_param_in_force(&a, "isolcpus=nohz,3"));
	assert_false(audit_param_in_force(&a, "isolcpus=managed_irq,domain,1"));
	assert_true(audit_param_in_force(&a, "nohz_full=3"));
	assert_false(audit_param_in_force(&a, "nohz_full=1-7"));
	assert_true(audit_param_in_force(&a, "rcu_nocbs=7"));
	assert_true(audit_param_in_force(&a, "irqaffinity=0-1"));
	assert_false(audit_param_in_force(&a, "irqaffinity=0")); /* more CPUs is not that */
	assert_true(audit_param_in_force(&a, "tsc=reliable"));
	assert_true(audit_param_in_force(&a, "tsc=unstable"));
	assert_true(audit_param_in_force(&a, "transparent_hugepage=always"));
	assert_false(audit_param_in_force(&a, "transparent_hugepage=never"));
	assert_true(audit_param_in_force(&a, "nosoftlockup"));
	assert_false(audit_param_in_force(&a, "nosmt"));
	assert_string_equal(audit_params_unset(&a, "nohz_full=3 skew_tick=1 quiet", buf,
					       sizeof(buf)),
			    "skew_tick=1");
	assert_string_equal(audit_params_set(&a, "nohz_full=3 skew_tick=1 quiet", buf, sizeof(buf)),
			    "nohz_full=3 quiet");
	/* the scan: a recommendation of what is set, and what is not one */
	assert_int_equal(audit_hint_recommends_set(&a, "boot with nohz_full=3 (needs a TSC)", buf,
						   sizeof(buf)),
			 1);
	assert_string_equal(buf, "nohz_full=3");
	assert_int_equal(audit_hint_recommends_set(&a,
						   "isolcpus=domain,3 keeps unbound kthreads "
						   "off it",
						   buf, sizeof(buf)),
			 1);
	assert_int_equal(audit_hint_recommends_set(&a,
						   "boot with clocksource=tsc tsc=reliable (if "
						   "the TSC is invariant)",
						   buf, sizeof(buf)),
			 1);
	assert_string_equal(buf, "tsc=reliable");
	assert_int_equal(audit_hint_recommends_set(&a, "add quiet (or loglevel=3): serial", buf,
						   sizeof(buf)),
			 1);
	assert_int_equal(audit_hint_recommends_set(&a, "nohz_full=3 is set; the kernel left it",
						   buf, sizeof(buf)),
			 0);
	assert_int_equal(audit_hint_recommends_set(&a, "boot with skew_tick=1 so the ticks", buf,
						   sizeof(buf)),
			 0);
	assert_int_equal(audit_hint_recommends_set(&a,
						   "sysctl kernel.nmi_watchdog=0 (or boot "
						   "with nmi_watchdog=0)",
						   buf, sizeof(buf)),
			 0);
	/* values in force, as a plan line would write them */
	scratch_puts("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	scratch_puts("/proc/sys/kernel/watchdog_cpumask", "0-1\n");
	scratch_puts("/proc/irq/default_smp_affinity", "00000003\n");
	scratch_puts("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	assert_int_equal(sysfs_set_root(scratch_dir), 0);
	assert_true(audit_value_in_force("/sys/kernel/mm/transparent_hugepage/enabled",
					 AUDIT_V_TEXT, "madvise"));
	assert_false(audit_value_in_force("/sys/kernel/mm/transparent_hugepage/enabled",
					  AUDIT_V_TEXT, "never"));
	assert_true(audit_value_in_force("/proc/sys/kernel/watchdog_cpumask", AUDIT_V_LIST, "0,1"));
	assert_true(audit_value_in_force("/proc/irq/default_smp_affinity", AUDIT_V_MASK, "3"));
	assert_false(audit_value_in_force("/proc/irq/default_smp_affinity", AUDIT_V_MASK, "1"));
	assert_true(
		audit_value_in_force("/proc/sys/kernel/sched_rt_runtime_us", AUDIT_V_TEXT, "-1"));
	assert_false(audit_value_in_force("/proc/sys/kernel/nope", AUDIT_V_TEXT, "0"));
	sysfs_set_root(NULL);
}

/** A measured CPU that is not online fails cpu.online; the other checks still run. */
static void test_offline_cpu(void **state)
{
	int cpus[] = { 3, 9 };
	struct js_audit a;

	(void)state;
	run(&a, BADLY, cpus, 2);
	assert_sane(&a);
	assert_int_equal(verdict(&a, "cpu.online", 3), AUDIT_PASS);
	assert_int_equal(verdict(&a, "cpu.online", 9), AUDIT_FAIL);
	assert_int_equal(verdict(&a, "smt", 9), AUDIT_SKIP);
	assert_int_equal(verdict(&a, "cpufreq.governor", 9), AUDIT_SKIP);
	assert_int_equal(verdict(&a, "isolcpus", 9), AUDIT_FAIL);
	audit_free(&a);
}

/** Garbage in every file: no crash, and the checks that depend on it skip with a reason. */
static void test_malformed(void **state)
{
	static const char *const skips[] = {
		"cpu.online",
		"kernel.hz",
		"kernel.preempt",
		"kernel.hypervisor",
		"isolcpus",
		"isolcpus.flags",
		"nohz_full",
		"rcu_nocbs",
		"rcu.nohz_full_patience",
		"irqaffinity",
		"tasks.user",
		"tasks.kthreads",
		"workqueue.cpumask",
		"timer_migration",
		"watchdog.nmi",
		"watchdog.soft",
		"sched_rt_runtime_us",
		"mce.ignore_ce",
		"tuned",
		"cpufreq.governor",
		"cstates",
		"pm_qos",
		"smt",
		"clocksource",
		"tsc.invariant",
		"thp.enabled",
		"thp.defrag",
		"thp.khugepaged_defrag",
		"hugepages",
		"ksm",
		"numa_balancing",
		"swap",
		"vm.zone_reclaim_mode",
		"vm.compaction_proactiveness",
		"vm.stat_interval",
	};
	int cpus[] = { 0, 3, 5 };
	struct js_audit a;

	(void)state;
	run(&a, MALFORMED, cpus, 3);
	assert_sane(&a);
	for (size_t i = 0; i < ARRAY_SIZE(skips); i++) {
		enum audit_verdict v = verdict(&a, skips[i], -1);

		if (v != AUDIT_SKIP) {
			print_all(&a);
			fail_msg("%s: %s, want skip", skips[i], audit_verdict_name(v));
		}
	}
	assert_non_null(
		strstr(audit_find(&a, "sched_rt_runtime_us", -1)->observed, "sched_rt_runtime_us"));
	assert_non_null(strstr(audit_find(&a, "vm.stat_interval", -1)->hint, "malformed"));
	/* the one well-formed IRQ is still checked */
	assert_int_equal(verdict(&a, "irq.13", 3), AUDIT_FAIL);
	audit_free(&a);
}

/** An empty tree: everything skips; a missing tree is an error; arguments are checked. */
static void test_empty_and_args(void **state)
{
	int cpus[] = { 0, 1 }, big[] = { 5000 };
	struct js_audit a;

	(void)state;
	run(&a, scratch_dir, cpus, 2);
	assert_sane(&a);
	assert_int_equal(audit_count(&a, AUDIT_SKIP), a.n);
	assert_int_equal(audit_exit_status(&a), JS_EXIT_OK);
	audit_free(&a);
	assert_int_equal(audit_run(&a, cpus, 2, "/nonexistent/sysroot"), -ENOENT);
	assert_int_equal(audit_run(&a, cpus, 0, scratch_dir), -EINVAL);
	assert_int_equal(audit_run(&a, NULL, 1, scratch_dir), -EINVAL);
	assert_int_equal(audit_run(&a, big, 1, scratch_dir), -EINVAL);
	audit_free(&a);
	audit_free(&a); /* idempotent */
}

/** A directory where a file is expected, and an unreadable kernel config: skip, not crash. */
static void test_unreadable(void **state)
{
	char p[256];
	int cpus[] = { 0 };
	struct js_audit a;

	(void)state;
	snprintf(p, sizeof(p), "%s/proc/sys/vm/stat_interval", scratch_dir);
	scratch_puts("/proc/sys/vm/x", "");
	assert_int_equal(mkdir(p, 0755), 0);
	scratch_puts("/proc/sys/kernel/osrelease", "6.1.0-x\n");
	scratch_puts("/boot/config-6.1.0-x", "CONFIG_HZ=300\nCONFIG_NO_HZ_FULL=y\n");
	scratch_puts("/proc/cmdline", "nohz_full=0 \"isolcpus=domain,0\" rcu-nocbs=0 loglevel=3\n");
	run(&a, scratch_dir, cpus, 1);
	assert_sane(&a);
	assert_int_equal(verdict(&a, "vm.stat_interval", -1), AUDIT_SKIP);
	assert_non_null(strstr(audit_find(&a, "vm.stat_interval", -1)->observed, "directory"));
	/* /boot/config-$(osrelease) is the fallback for /proc/config.gz */
	assert_int_equal(a.f.hz, 300);
	assert_string_equal(audit_find(&a, "kernel.hz", -1)->source, "/boot/config-6.1.0-x");
	/* the command line alone: quoted and dashed parameters count */
	assert_true(audit_cmdline_has(&a, "rcu_nocbs"));
	assert_int_equal(verdict(&a, "isolcpus.flags", -1), AUDIT_WARN);
	audit_free(&a);
}

/** Command line parsing: quotes, '-' = '_', last value wins. */
static void test_cmdline(void **state)
{
	struct js_audit a;
	char v[64], vals[4][64];

	(void)state;
	memset(&a, 0, sizeof(a));
	snprintf(a.f.cmdline, sizeof(a.f.cmdline),
		 "ro quiet isolcpus=1 \"foo=a b\" rcu-nocbs=2 isolcpus=2-3 console=tty0 "
		 "console=ttyS0,115200 nosoftlockup=");
	assert_true(audit_cmdline_get(&a, "isolcpus", v, sizeof(v)));
	assert_string_equal(v, "2-3");
	assert_true(audit_cmdline_get(&a, "foo", v, sizeof(v)));
	assert_string_equal(v, "a b");
	assert_true(audit_cmdline_get(&a, "rcu_nocbs", v, sizeof(v)));
	assert_string_equal(v, "2");
	assert_true(audit_cmdline_has(&a, "quiet"));
	assert_true(audit_cmdline_has(&a, "nosoftlockup"));
	assert_false(audit_cmdline_has(&a, "quie"));
	assert_false(audit_cmdline_get(&a, "quiet", v, sizeof(v)));
	assert_int_equal(audit_cmdline_get_all(&a, "console", vals, 4), 2);
	assert_string_equal(vals[1], "ttyS0,115200");
	assert_int_equal(audit_cmdline_get_all(&a, "console", vals, 1), 1);
}

/** /proc/interrupts parsing: column mapping with offline CPUs, names, ERR rows skipped. */
static void test_parse_interrupts(void **state)
{
	static const char text[] =
		"           CPU0       CPU2       CPU3\n"
		"  0:         30          0          0   IO-APIC   2-edge      timer\n"
		" 36:          0         12          7   PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
		" 40:          1          2          3   IR-PCI-MSI 524288-edge      eth0, eth0-rx\n"
		" 41:          4          5          6   weird\n"
		"NMI:          0          1          2   Non-maskable interrupts\n"
		"LOC:        100        200        300   Local timer interrupts\nERR:          0\n"
		"MIS:          0\n";
	int cpus[] = { 3, 1, 2 };
	struct audit_row *rows;
	size_t n;

	(void)state;
	assert_int_equal(audit_parse_table(text, cpus, 3, AUDIT_ROW_ARCH, &rows, &n), 0);
	assert_int_equal(n, 6);
	assert_string_equal(rows[1].key, "36");
	assert_int_equal(rows[1].irq, 36);
	assert_int_equal(rows[1].kind, AUDIT_ROW_IRQ);
	assert_string_equal(rows[1].name, "virtio1-req.0");
	assert_int_equal(rows[1].count[0], 7);	/* CPU 3 */
	assert_int_equal(rows[1].count[1], 0);	/* CPU 1: offline, no column */
	assert_int_equal(rows[1].count[2], 12); /* CPU 2 */
	assert_string_equal(rows[0].name, "timer");
	assert_string_equal(rows[2].name, "eth0, eth0-rx");
	assert_string_equal(rows[3].name, "");
	assert_string_equal(rows[5].key, "LOC");
	assert_int_equal(rows[5].kind, AUDIT_ROW_ARCH);
	assert_int_equal(rows[5].irq, -1);
	assert_string_equal(rows[5].name, "Local timer interrupts");
	assert_int_equal(rows[5].count[0], 300);
	audit_rows_free(rows, n);
	assert_int_equal(audit_parse_table("garbage\n 1: 2\n", cpus, 3, AUDIT_ROW_ARCH, &rows, &n),
			 -EINVAL);
	assert_int_equal(audit_parse_table("", cpus, 3, AUDIT_ROW_ARCH, &rows, &n), -EINVAL);
	assert_null(rows);
}

static void write_counts(unsigned long long loc, unsigned long long irq36, const char *eff36)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "           CPU0       CPU1\n"
		 " 36:          0 %10llu   PCI-MSIX 1-edge      virtio1-req.0\n"
		 " 42:          5          5   PCI-MSIX 2-edge      virtio3-tx\n"
		 "LOC:        100 %10llu   Local timer interrupts\n",
		 irq36, loc);
	scratch_puts("/proc/interrupts", buf);
	scratch_puts("/proc/softirqs", "                    CPU0       CPU1\n"
				       "      NET_RX:          1          2\n");
	scratch_puts("/proc/irq/36/effective_affinity_list", eff36);
	scratch_puts("/proc/irq/42/effective_affinity_list", "0\n");
}

/** Snapshots around a "run": deltas per CPU, 32-bit wrap, affinity changes. */
static void test_snapshot_diff(void **state)
{
	struct audit_snapshot b, e;
	struct audit_deltas d;
	int cpus[] = { 1 }, other[] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_int_equal(sysfs_set_root(scratch_dir), 0);
	write_counts(1000, 0xfffffff0ULL, "1\n");
	assert_int_equal(audit_snapshot_take(&b, cpus, 1), 0);
	write_counts(1250, 0x10ULL, "0\n"); /* the IRQ counter wrapped; IRQ 36 moved */
	scratch_puts("/proc/softirqs", "                    CPU0       CPU1\n"
				       "      NET_RX:          1          9\n");
	assert_int_equal(audit_snapshot_take(&e, cpus, 1), 0);
	assert_int_equal(audit_snapshot_diff(&b, &e, &d), 0);
	assert_int_equal(audit_deltas_get(&d, 1, "LOC"), 250);
	assert_int_equal(audit_deltas_get(&d, 1, "36"), 0x20);
	assert_int_equal(audit_deltas_get(&d, 1, "NET_RX"), 7);
	assert_int_equal(audit_deltas_get(&d, 1, "42"), 0);
	assert_int_equal(audit_deltas_get(&d, 0, "LOC"), 0);
	assert_int_equal(d.nrows, 3);
	assert_int_equal(d.nchanges, 1);
	assert_int_equal(d.changes[0].irq, 36);
	assert_true(d.changes[0].touches);
	assert_string_equal(d.changes[0].name, "virtio1-req.0");
	fp = open_memstream(&text, &len);
	audit_deltas_print_text(fp, &d);
	fclose(fp);
	assert_non_null(strstr(text, "LOC"));
	assert_non_null(strstr(text, "IRQ 36 virtio1-req.0: effective 1 -> 0 (a measured CPU)"));
	free(text);
	audit_deltas_free(&d);
	audit_snapshot_free(&e);
	/* snapshots of different CPUs do not compare */
	assert_int_equal(audit_snapshot_take(&e, other, 1), 0);
	assert_int_equal(audit_snapshot_diff(&b, &e, &d), -EINVAL);
	audit_snapshot_free(&e);
	audit_snapshot_free(&b);
	audit_snapshot_free(&b);
	audit_deltas_free(&d);
	assert_int_equal(audit_snapshot_take(&b, cpus, 0), -EINVAL);
	sysfs_set_root(NULL);
}

/* crosscheck - run the cross-check on one observation, return its line ("" if none) */
static const char *xcheck1(const struct js_audit *a, int cpu, const char *cause, const char *detail,
			   uint64_t count, double secs)
{
	static char lines[2][AUDIT_LINE_LEN];
	struct audit_observed o = { cpu, cause, detail, count, count * 1000, secs };

	lines[0][0] = '\0';
	if (!audit_crosscheck(a, &o, 1, lines, 2))
		return "";
	return lines[0];
}

static void assert_has(const char *line, const char *want)
{
	if (!strstr(line, want))
		fail_msg("\"%s\" lacks \"%s\"", line, want);
}

/** Observed causes are linked to the settings behind them. */
static void test_crosscheck(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;
	char lines[4][AUDIT_LINE_LEN];
	struct audit_observed obs[] = {
		{ 3, "timer", "local_timer", 2500, 1, 10 },
		{ 3, "nmi", "", 0, 0, 10 }, /* nothing observed: no line */
		{ 3, "irq", "nvme0q1:130", 12, 1, 10 },
		{ 3, "work", "kworker/3:1:43 vmstat_update", 10, 1, 10 },
		{ 3, "idle", "", 4, 1, 10 },
	};

	(void)state;
	run(&a, BADLY, cpus, 1);
	assert_has(xcheck1(&a, 3, "timer", "local_timer", 2500, 10),
		   "local timer fired 250/s on CPU 3: CPU 3 is not in nohz_full");
	assert_has(xcheck1(&a, 3, "irq", "nvme0q1:130", 12, 0),
		   "IRQ 130 nvme0q1 interrupted CPU 3 12 times");
	assert_has(xcheck1(&a, 3, "irq", "nvme0q1:130", 12, 0),
		   "its effective affinity includes CPU 3 (irqbalance is running");
	assert_has(xcheck1(&a, 3, "irq", "eth0-TxRx-1:121", 2, 0),
		   "although its effective affinity is now 1");
	assert_has(xcheck1(&a, 3, "work", "kworker/3:1:43 vmstat_update", 10, 0),
		   "kworker vmstat_update ran 10 times");
	assert_has(xcheck1(&a, 3, "work", "kworker/3:1:43 vmstat_update", 10, 0),
		   "vm.stat_interval=1");
	assert_has(xcheck1(&a, 3, "work", "kworker/u16:0:3 flush_to_ldisc", 1, 0),
		   "unbound workqueue cpumask includes CPU 3 (0-7)");
	/* a SCHED_OTHER sampler (or a followed thread, marks) is not RT-throttled: its idle is
	 * its own sleep, tied to no setting */
	assert_has(xcheck1(&a, 3, "idle", "", 4, 0), "slept or blocked");
	{
		struct audit_observed o = { 3, "idle", "", 4, 1000, 10 };
		struct audit_tie t[2];

		assert_int_equal(audit_ties(&a, &o, 1, t, 2), 0);
		audit_free(&a);
		/* a SCHED_FIFO sampler is: its idle is the throttling's, the fix first's */
		assert_int_equal(audit_run_for(&a, cpus, 1, BADLY, SCHED_FIFO), 0);
		assert_has(xcheck1(&a, 3, "idle", "", 4, 0), "sched_rt_runtime_us=950000");
		assert_int_equal(audit_ties(&a, &o, 1, t, 2), 1);
		assert_string_equal(t[0].check, "sched_rt_runtime_us");
		audit_free(&a);
		run(&a, BADLY, cpus, 1);
	}
	assert_has(xcheck1(&a, 3, "task", "sshd:701", 5, 0), "allowed on CPU 3 (affinity 0-7)");
	assert_has(xcheck1(&a, 3, "task", "ksoftirqd/3:32", 5, 0), "per-CPU kthread");
	/* kernel threads named by the interrupt work they ran: as the thread, an IRQ's by it */
	assert_has(xcheck1(&a, 3, "softirq", "ksoftirqd/3:32 NET_RX", 5, 0), "softirq overflow");
	assert_has(xcheck1(&a, 3, "softirq", "rcuc/3:20 RCU", 5, 0), "not offloaded");
	assert_has(xcheck1(&a, 3, "timer", "ktimers/3:21 TIMER", 5, 0), "timers expire there");
	assert_has(xcheck1(&a, 3, "softirq", "backlog_napi/3:61 NET_RX", 5, 0), "RPS, RFS");
	assert_has(xcheck1(&a, 3, "irq", "irq/130-nvme0q1:300", 12, 0),
		   "IRQ 130 nvme0q1 interrupted CPU 3 12 times");
	assert_has(xcheck1(&a, 3, "task", "kworker/3:1:43 vmstat_update", 5, 0),
		   "kworker vmstat_update ran 5 times");
	assert_has(xcheck1(&a, 3, "hrtimer", "hrtimer watchdog_timer_fn", 5, 0), "soft-lockup");
	assert_has(xcheck1(&a, 3, "hrtimer", "hrtimer tick_nohz_handler", 1000, 4),
		   "local timer fired 250/s");
	assert_has(xcheck1(&a, 3, "hrtimer", "hrtimer it_real_fn", 5, 0),
		   "a timer armed on CPU 3 fires there");
	assert_has(xcheck1(&a, 3, "ipi", "call_function_single from app:800", 5, 0),
		   "function-call IPIs");
	assert_has(xcheck1(&a, 3, "softirq", "BLOCK", 5, 0), "130 nvme0q1");
	assert_has(xcheck1(&a, 3, "softirq", "RCU", 5, 0), "not offloaded");
	assert_has(xcheck1(&a, 3, "softirq", "SCHED", 5, 0), "not isolated");
	assert_has(xcheck1(&a, 3, "ipi", "call_function", 5, 0), "THP always");
	assert_has(xcheck1(&a, 3, "tlb", "", 5, 0), "numa_balancing=1");
	assert_has(xcheck1(&a, 3, "unexplained", "", 5, 0), "hypervisor");
	assert_string_equal(xcheck1(&a, 3, "nosuchcause", "", 5, 0), "");
	/* order kept, empty observations dropped, max_lines respected */
	assert_int_equal(audit_crosscheck(&a, obs, ARRAY_SIZE(obs), lines, 4), 4);
	assert_has(lines[0], "local timer");
	assert_has(lines[1], "IRQ 130");
	assert_int_equal(audit_crosscheck(&a, obs, ARRAY_SIZE(obs), lines, 2), 2);
	audit_free(&a);
	/* on the tuned box the tick is not the setting's fault */
	run(&a, TUNED, cpus, 1);
	assert_has(xcheck1(&a, 3, "timer", "local_timer", 30, 10), "although it is in nohz_full");
	assert_has(xcheck1(&a, 3, "idle", "", 4, 0), "slept or blocked");
	audit_free(&a);
}

/** What the tick did on a nohz_full CPU: stopped at <= 2 local timer interrupts/s, running
 * above; no line off nohz_full or without a rate. The deltas' local timer: x86's LOC, or
 * arm64's IRQ named arch_timer. */
static void test_tick_line(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;
	uint64_t loc = 4, timer = 30;
	struct audit_delta_row rows[] = {
		{ .key = "LOC", .name = "Local timer interrupts", .delta = &loc },
		{ .key = "11", .name = "arch_timer", .delta = &timer }
	};
	struct audit_deltas d = {
		.ncpus = 1, .cpus = cpus, .seconds = 10, .rows = rows, .nrows = 1
	};
	char line[AUDIT_LINE_LEN];

	(void)state;
	assert_int_equal(audit_deltas_local_timer(&d, 3), 4);
	loc = 0;
	d.nrows = 2;
	assert_int_equal(audit_deltas_local_timer(&d, 3), 30);
	run(&a, TUNED, cpus, 1); /* nohz_full 2-7 */
	assert_true(audit_tick_line(&a, 3, 4, 10, "while measuring", line));
	assert_has(line, "the tick stayed stopped on CPU 3 (nohz_full): 0.4 local timer "
			 "interrupts/s while measuring");
	assert_true(audit_tick_line(&a, 3, 20, 10, "over the run", line)); /* 2/s: stopped */
	assert_has(line, "stayed stopped");
	/* faster: the local timer's cross-check line says it, not this one */
	assert_false(audit_tick_line(&a, 3, 2500, 10, "over the run", line));
	assert_has(xcheck1(&a, 3, "timer", "local_timer", 2500, 10),
		   "local timer fired 250/s on CPU 3 although it is in nohz_full");
	assert_string_equal(xcheck1(&a, 3, "timer", "local_timer", 20, 10), "");
	assert_string_equal(xcheck1(&a, 3, "hrtimer", "hrtimer tick_nohz_handler", 5, 10), "");
	assert_false(audit_tick_line(&a, 3, 4, 0, "", line));
	audit_free(&a);
	run(&a, BADLY, cpus, 1); /* no nohz_full */
	assert_false(audit_tick_line(&a, 3, 4, 10, "", line));
	audit_free(&a);
}

/** One line per setting and cause: sources explained alike merge (times add up, counts
 * add up within a class, the largest class count across nested classes), per CPU. */
static void test_crosscheck_merge(void **state)
{
	int cpus[] = { 3, 5 };
	struct js_audit a;
	char lines[16][AUDIT_LINE_LEN];
	struct audit_observed obs[] = {
		/* two unexplained sources: different gaps, one setting */
		{ 3, "unexplained", "no guest event", 2799, 16300000, 5 },
		/* the tick seen as the local timer IRQ and as its hrtimer inside it */
		{ 3, "timer", "local_timer", 1410, 7900000, 5 },
		{ 3, "unexplained", "outside event windows", 1597, 15300000, 5 },
		{ 3, "hrtimer", "hrtimer tick_nohz_handler", 1250, 2700000, 5 },
		/* a work item as work and inside two kworkers */
		{ 3, "work", "vmstat_update", 10, 300000, 5 },
		{ 3, "task", "kworker/3:1:43 vmstat_update", 4, 100000, 5 },
		{ 3, "task", "kworker/3:2:44 vmstat_update", 8, 200000, 5 },
		/* different tasks, different lines */
		{ 3, "task", "bash:12084", 22, 7100000, 5 },
		{ 3, "task", "grep:20813", 2, 4600000, 5 },
		/* the same cause on another CPU is its own line */
		{ 5, "unexplained", "no guest event", 7, 1000, 5 },
	};
	size_t n;

	(void)state;
	run(&a, BADLY, cpus, 2);
	n = audit_crosscheck(&a, obs, ARRAY_SIZE(obs), lines, ARRAY_SIZE(lines));
	assert_int_equal(n, 6);
	assert_has(lines[0],
		   "gaps with time no event explains on CPU 3 4396 times (879/s, 31.6 ms)");
	assert_has(lines[1], "local timer fired 282/s on CPU 3");
	assert_has(lines[2], "kworker vmstat_update ran 12 times (2.4/s, 600.0 us) on CPU 3");
	assert_has(lines[3], "task bash:12084 ran 22 times");
	assert_has(lines[4], "task grep:20813 ran 2 times");
	assert_has(lines[5], "gaps with time no event explains on CPU 5 7 times");
	/* max_lines counts merged lines */
	assert_int_equal(audit_crosscheck(&a, obs, ARRAY_SIZE(obs), lines, 2), 2);
	assert_has(lines[1], "local timer fired 282/s on CPU 3");
	audit_free(&a);
}

/** Text output: one line per check, hints under problems, the summary line. */
static void test_text(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;
	char *text = NULL, *line, *save = NULL, summary[128];
	size_t len = 0, nlines = 0, nhints = 0;
	FILE *fp;

	(void)state;
	run(&a, BADLY, cpus, 1);
	fp = open_memstream(&text, &len);
	audit_print_text(fp, &a, false);
	fclose(fp);
	snprintf(summary, sizeof(summary), "audit: %zu pass, %zu warn, %zu fail, %zu skip",
		 audit_count(&a, AUDIT_PASS), audit_count(&a, AUDIT_WARN),
		 audit_count(&a, AUDIT_FAIL), audit_count(&a, AUDIT_SKIP));
	assert_non_null(strstr(text, summary));
	assert_non_null(strstr(text, "WARN LOW  sched_rt_runtime_us"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		nlines++;
		nhints += strstr(line, " hint: ") != NULL;
		/* CI reads "N passed, N failed" lines as test results: never print one */
		assert_null(strstr(line, " passed, "));
	}
	assert_int_equal(nlines, 2 + a.n + nhints);
	assert_true(nhints >= audit_count(&a, AUDIT_FAIL));
	free(text);
	fp = open_memstream(&text, &len);
	audit_print_text(fp, &a, true);
	fclose(fp);
	assert_null(strstr(text, "PASS "));
	assert_null(strstr(text, "SKIP "));
	assert_non_null(strstr(text, "FAIL HIGH isolcpus"));
	free(text);
	audit_free(&a);
}

/* balanced - braces and brackets balance outside strings */
static bool balanced(const char *s)
{
	int depth = 0;
	bool str = false;

	for (; *s; s++) {
		if (str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				str = false;
			continue;
		}
		if (*s == '"')
			str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if ((*s == '}' || *s == ']') && --depth < 0)
			return false;
	}
	return !depth && !str;
}

/** JSON output: the documented keys, escaped strings, balanced structure. */
static void test_json(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;
	struct js_json j;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	run(&a, BADLY, cpus, 1);
	fp = open_memstream(&text, &len);
	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	audit_write_json(&j, "audit", &a);
	json_obj_end(&j);
	fclose(fp);
	assert_true(balanced(text));
	assert_non_null(strstr(text, "\"audit\": {"));
	assert_non_null(strstr(text, "\"summary\": {"));
	assert_non_null(strstr(text, "\"verdict\": \"fail\""));
	assert_non_null(strstr(text, "\"severity\": \"crit\""));
	assert_non_null(strstr(text, "\"sched_rt_runtime_us\": 950000"));
	assert_non_null(strstr(text, "\"name\": \"nvme0q1\""));
	assert_non_null(strstr(text, "\"cpu3\": 77"));
	assert_non_null(strstr(text, "\"sysroot\": \"" BADLY "\""));
	assert_non_null(strstr(text, "\"cpu\": null"));
	free(text);
	audit_free(&a);
}

/** Severity fits the run: RT throttling is critical for a FIFO/RR spinner only. */
static void test_severity_policy(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	assert_int_equal(audit_run_for(&a, cpus, 1, BADLY, SCHED_FIFO), 0);
	c = audit_find(&a, "sched_rt_runtime_us", -1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_int_equal(c->severity, SEV_CRIT);
	audit_free(&a);
	assert_int_equal(audit_run_for(&a, cpus, 1, BADLY, SCHED_RR), 0);
	assert_int_equal(audit_find(&a, "sched_rt_runtime_us", -1)->severity, SEV_CRIT);
	audit_free(&a);
	run(&a, BADLY, cpus, 1);
	c = audit_find(&a, "sched_rt_runtime_us", -1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_int_equal(c->severity, SEV_LOW);
	assert_non_null(strstr(c->observed, "SCHED_OTHER"));
	/* the hints name computed CPU lists, no placeholder */
	assert_non_null(
		strstr(audit_find(&a, "watchdog.soft", 3)->hint, "watchdog_cpumask=0-2,4-7"));
	assert_non_null(strstr(audit_find(&a, "isolcpus.flags", -1)->hint, "domain,3,5"));
	assert_non_null(strstr(audit_find(&a, "isolcpus.flags", -1)->expected, "domain"));
	audit_free(&a);
}

/* guest_tree - a 2-vCPU KVM guest: kvm-clock, no invariant TSC flags, a virtio queue vector
 * managed for CPU 1 alone (36) and a virtio config IRQ the guest can move (37) */
static void guest_tree(void)
{
	scratch_puts("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc hypervisor\n");
	scratch_puts("/sys/devices/system/cpu/online", "0-1\n");
	scratch_puts("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		     "kvm-clock\n");
	scratch_puts("/sys/devices/system/clocksource/clocksource0/available_clocksource",
		     "kvm-clock acpi_pm\n");
	scratch_puts("/proc/interrupts", "           CPU0       CPU1\n"
					 " 36:          0       5000   PCI-MSIX  virtio1-req.1\n"
					 " 37:          0          3   PCI-MSIX  virtio1-config\n");
	scratch_puts("/sys/kernel/irq/36/actions", "virtio1-req.1\n");
	scratch_puts("/proc/irq/36/smp_affinity_list", "1\n");
	scratch_puts("/proc/irq/36/effective_affinity_list", "1\n");
	scratch_puts("/sys/kernel/irq/37/actions", "virtio1-config\n");
	scratch_puts("/proc/irq/37/smp_affinity_list", "0-1\n");
	scratch_puts("/proc/irq/37/effective_affinity_list", "1\n");
}

/** In a guest, what no guest setting changes is info with host-side advice. */
static void test_guest(void **state)
{
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	guest_tree();
	run(&a, scratch_dir, cpus, 1);
	assert_sane(&a);
	assert_true(a.f.hypervisor);
	c = audit_find(&a, "clocksource", -1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_int_equal(c->severity, SEV_INFO);
	assert_non_null(strstr(c->hint, "host"));
	c = audit_find(&a, "tsc.invariant", -1);
	assert_int_equal(c->severity, SEV_INFO);
	assert_non_null(strstr(c->hint, "invtsc"));
	c = audit_find(&a, "irq.36", 1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_int_equal(c->severity, SEV_INFO);
	assert_non_null(strstr(c->hint, "host"));
	/* a virtio IRQ the guest can move keeps its weight and its echo hint */
	c = audit_find(&a, "irq.37", 1);
	assert_int_equal(c->verdict, AUDIT_FAIL);
	assert_int_equal(c->severity, SEV_HIGH);
	assert_non_null(strstr(c->hint, "echo 0 > /proc/irq/37/smp_affinity_list"));
	audit_free(&a);
	/* the host's signals: a kernel that never counted steal has none reported ... */
	scratch_puts("/proc/stat", "cpu  100 0 50 900 0 0 3 0 0 0\n");
	run(&a, scratch_dir, cpus, 1);
	c = audit_find(&a, "hypervisor.signals", -1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_non_null(strstr(c->observed, "steal: not reported by this hypervisor; "));
	audit_free(&a);
	/* ... one that did has a steal clock */
	scratch_puts("/proc/stat", "cpu  100 0 50 900 0 0 3 17 0 0\n");
	run(&a, scratch_dir, cpus, 1);
	c = audit_find(&a, "hypervisor.signals", -1);
	assert_non_null(strstr(c->observed, "steal: counted by the kernel (/proc/stat); "));
#ifndef __aarch64__
	/* the tree's kernel registered kvm-clock: its version names host clock updates */
	assert_non_null(strstr(c->observed, "; kvmclock: in use (its version names host clock "
					    "updates)"));
#endif
	audit_free(&a);
#ifndef __aarch64__
	scratch_puts("/sys/devices/system/clocksource/clocksource0/available_clocksource",
		     "tsc hpet acpi_pm\n");
	run(&a, scratch_dir, cpus, 1);
	c = audit_find(&a, "hypervisor.signals", -1);
	assert_non_null(strstr(c->observed, "; kvmclock: none (host clock updates not seen)"));
	audit_free(&a);
#endif
	/* the same tree without the hypervisor flag: bare metal, nothing softened */
	scratch_puts("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc\n");
	run(&a, scratch_dir, cpus, 1);
	assert_false(a.f.hypervisor);
	assert_int_equal(audit_find(&a, "irq.36", 1)->severity, SEV_HIGH);
	assert_int_equal(audit_find(&a, "clocksource", -1)->severity, SEV_HIGH);
	assert_int_equal(audit_find(&a, "tsc.invariant", -1)->verdict, AUDIT_FAIL);
	assert_string_equal(audit_find(&a, "hypervisor.signals", -1)->observed,
			    "steal: none: not a virtual machine");
	audit_free(&a);
}

/** arm64 has no hypervisor flag: a guest is told by the device tree (or DMI, js_guest.h). */
static void test_guest_arm64(void **state)
{
	static const char cpuinfo[] = "processor\t: 0\nBogoMIPS\t: 125.00\nFeatures\t: fp asimd\n"
				      "CPU implementer\t: 0x00\nCPU architecture: 8\n"
				      "CPU part\t: 0x051\n\nprocessor\t: 1\n";
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	scratch_puts("/proc/cpuinfo", cpuinfo);
	scratch_puts("/sys/devices/system/cpu/online", "0-1\n");
	scratch_put("/proc/device-tree/compatible", "linux,dummy-virt", 17);
	run(&a, scratch_dir, cpus, 1);
	assert_sane(&a);
	assert_true(a.f.hypervisor);
	c = audit_find(&a, "kernel.hypervisor", -1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_non_null(strstr(c->observed, "device tree compatible linux,dummy-virt"));
	audit_free(&a);
	/* a board's device tree: bare metal, said as arm64's (not skipped as not x86) */
	scratch_put("/proc/device-tree/compatible", "ampere,mtjade\0arm,armv8", 24);
	run(&a, scratch_dir, cpus, 1);
	assert_false(a.f.hypervisor);
	c = audit_find(&a, "kernel.hypervisor", -1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_non_null(strstr(c->observed, "arm64"));
	audit_free(&a);
}

/** tuned cpu-partitioning isolates by affinity: no isolcpus is low, not high. */
static void test_tuned_partitioning(void **state)
{
	int cpus[] = { 1 };
	struct js_audit a;
	const struct audit_check *c;

	(void)state;
	scratch_puts("/sys/devices/system/cpu/online", "0-1\n");
	scratch_puts("/sys/devices/system/cpu/isolated", "\n");
	scratch_puts("/proc/cmdline", "ro nohz_full=1\n");
	scratch_puts("/etc/tuned/active_profile", "cpu-partitioning\n");
	scratch_puts("/etc/tuned/cpu-partitioning-variables.conf", "isolated_cores=1\n");
	run(&a, scratch_dir, cpus, 1);
	c = audit_find(&a, "isolcpus", 1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_int_equal(c->severity, SEV_LOW);
	assert_non_null(strstr(c->observed, "cpu-partitioning"));
	assert_int_equal(verdict(&a, "tuned", -1), AUDIT_PASS);
	audit_free(&a);
	/* another CPU than the profile's: the plain high fail */
	scratch_puts("/etc/tuned/cpu-partitioning-variables.conf", "isolated_cores=0\n");
	run(&a, scratch_dir, cpus, 1);
	assert_int_equal(audit_find(&a, "isolcpus", 1)->severity, SEV_HIGH);
	assert_int_equal(verdict(&a, "isolcpus", 1), AUDIT_FAIL);
	audit_free(&a);
}

/* text_of - audit_print_text into a new string */
static char *text_of(const struct js_audit *a, bool only_problems)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	audit_print_text(fp, a, only_problems);
	fclose(fp);
	return text;
}

/** Text output: sorted by verdict then severity, alike per-CPU lines folded into one. */
static void test_text_sorted_folded(void **state)
{
	static const char *const vs[] = { "FAIL", "WARN", "SKIP", "PASS" };
	static const char *const ss[] = { "CRIT", "HIGH", "MED ", "LOW ", "INFO" };
	int cpus[] = { 2, 3, 4, 5 }, last_v = 0, last_s = 0;
	struct js_audit a;
	char *text, *line, *save = NULL;
	size_t nlines = 0;

	(void)state;
	run(&a, BADLY, cpus, 4);
	text = text_of(&a, false);
	/* one line for four CPUs, the CPU number in the texts replaced by the list */
	assert_non_null(strstr(text, "FAIL HIGH nohz_full                   cpu2-5   "));
	assert_non_null(strstr(text, "hint: boot with nohz_full=2-5 "));
	assert_non_null(strstr(text, "[expected: CPU 2-5 in nohz_full"));
	/* isolcpus=nohz,5 is the same text on every line: a value, kept as it is */
	assert_non_null(strstr(text, "isolcpus                    cpu2-5   not isolated (isolated: "
				     "none; isolcpus=nohz,5)  [expected: CPU 2-5 isolated"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int v = -1, sv = -1;

		if (!strncmp(line, "audit:", 6) || !strncmp(line, "isolation", 9) ||
		    strstr(line, " hint: "))
			continue;
		nlines++;
		for (int i = 0; i < 4; i++)
			if (!strncmp(line, vs[i], 4))
				v = i;
		for (int i = 0; i < 5; i++)
			if (!strncmp(line + 5, ss[i], 4))
				sv = i;
		assert_true(v >= 0 && sv >= 0);
		if (v < last_v || (v == last_v && sv < last_s))
			fail_msg("out of order: %s", line);
		if (v != last_v)
			last_s = 0;
		last_v = v;
		last_s = sv;
	}
	assert_true(nlines < a.n);
	free(text);
	audit_free(&a);
	/* a number equal to a CPU but the same on every line is a value, not that CPU */
	{
		int six[] = { 1, 2, 3, 4, 5, 6 };

		run(&a, BADLY, six, 6);
		text = text_of(&a, false);
		assert_non_null(strstr(text, "watchdog.soft               cpu1-6     watchdog=1 "
					     "soft_watchdog=1 watchdog_cpumask=0-7  [expected: "
					     "disabled, or CPU 1-6 not in watchdog_cpumask]"));
		free(text);
		audit_free(&a);
	}
}

/** Housekeeping CPUs: one per AUDIT_HK_SERVED measured or isolated CPUs, else a warning
 * that says how many more to leave out. */
static void test_housekeeping_cpus(void **state)
{
	int one[] = { 3 }, all[63], pair[] = { 0, 1 };
	const struct audit_check *c;
	struct js_audit a;

	(void)state;
	/* the tuned box: 0-1 keep house for 2-7 */
	run(&a, TUNED, one, 1);
	c = audit_find(&a, "housekeeping.cpus", -1);
	assert_non_null(c);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_string_equal(c->observed,
			    "2 housekeeping CPUs (0-1) for 6 measured or isolated (2-7)");
	audit_free(&a);
	/* 64 CPUs, 1-63 isolated: CPU 0 alone for 63, 4 wanted: warned, 3 more */
	run(&a, MANY, one, 1);
	assert_sane(&a);
	c = audit_find(&a, "housekeeping.cpus", -1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_int_equal(c->severity, SEV_LOW);
	assert_string_equal(c->observed,
			    "1 housekeeping CPU (0) for 63 measured or isolated (1-63)");
	assert_non_null(strstr(c->hint, "leave 3 more CPUs out of isolcpus="));
	audit_free(&a);
	/* measuring 1-63 there: the same; measuring 0 too leaves none: 1 wanted */
	for (int i = 0; i < 63; i++)
		all[i] = i + 1;
	run(&a, MANY, all, 63);
	assert_int_equal(audit_find(&a, "housekeeping.cpus", -1)->verdict, AUDIT_WARN);
	audit_free(&a);
	run(&a, MANY, pair, 2);
	c = audit_find(&a, "housekeeping.cpus", -1);
	assert_int_equal(c->verdict, AUDIT_WARN);
	assert_string_equal(c->observed,
			    "0 housekeeping CPUs (none) for 64 measured or isolated (0-63)");
	audit_free(&a);
	/* the isolcpus tree (2-3 isolated), measuring 3: six keep house for two */
	run(&a, "tests/data/sysroot/cpus-isolcpus", one, 1);
	c = audit_find(&a, "housekeeping.cpus", -1);
	assert_int_equal(c->verdict, AUDIT_PASS);
	assert_string_equal(c->observed,
			    "6 housekeeping CPUs (0-1,4-7) for 2 measured or isolated (2-3)");
	audit_free(&a);
}

/** Every id the audit gives is one --waive knows (and nothing else is). */
static void test_ids_known(void **state)
{
	const char *const roots[] = { BADLY, TUNED, MALFORMED, NULL };
	int cpus[] = { 3, 9 };
	struct js_audit a;

	(void)state;
	for (size_t r = 0; r < ARRAY_SIZE(roots); r++) {
		run(&a, roots[r], cpus, roots[r] ? 2 : 1);
		for (size_t i = 0; i < a.n; i++)
			if (!audit_id_known(a.checks[i].id))
				fail_msg("%s: id %s unknown to --waive",
					 roots[r] ? roots[r] : "live", a.checks[i].id);
		audit_free(&a);
	}
	assert_true(audit_id_known("irq.*"));
	assert_true(audit_id_known("thp.*"));
	assert_true(audit_id_known("irq.4242"));
	assert_false(audit_id_known("irq."));
	assert_false(audit_id_known("irq.12a"));
	assert_false(audit_id_known("thp"));
	assert_false(audit_id_known("nosuch.*"));
	assert_false(audit_id_known(""));
}

/** Waivers: matched checks are marked, shown, and no longer decide the exit status. */
static void test_waive(void **state)
{
	int cpus[] = { 3 };
	struct audit_waivers w = { 0 };
	struct js_audit a;
	char err[256] = "", *text;
	size_t nfail;

	(void)state;
	run(&a, BADLY, cpus, 1);
	assert_int_equal(audit_exit_for(&a, -1), JS_EXIT_VIOLATION);
	/* --fail-on: warns count at or above the level, fails too */
	assert_int_equal(audit_exit_for(&a, SEV_CRIT), JS_EXIT_OK);
	assert_int_equal(audit_exit_for(&a, SEV_HIGH), JS_EXIT_VIOLATION);
	assert_int_equal(audit_waivers_add_list(&w, "irq.*,nosuch", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'nosuch'"));
	audit_waivers_free(&w);
	assert_int_equal(audit_waivers_add_list(&w, "irq.*, isolcpus", err, sizeof(err)), 0);
	assert_int_equal(w.n, 2);
	/* irq.* is every irq.N and irq.affinity: 3 + 1, and isolcpus (not isolcpus.flags) */
	assert_int_equal(audit_waive(&a, &w), 5);
	assert_true(audit_find(&a, "irq.130", 3)->waived);
	assert_false(audit_find(&a, "isolcpus.flags", -1)->waived);
	assert_false(audit_find(&a, "irqaffinity", 3)->waived);
	audit_waivers_free(&w);
	text = text_of(&a, false);
	assert_non_null(strstr(text, ", 5 waived\n"));
	assert_non_null(strstr(text, "nvme0q1"));
	free(text);
	/* waive every failing check: exit 0; one left: exit 2 */
	nfail = 0;
	for (size_t i = 0; i < a.n; i++)
		if (a.checks[i].verdict == AUDIT_FAIL && !a.checks[i].waived) {
			a.checks[i].waived = true;
			nfail++;
		}
	assert_true(nfail > 10);
	assert_int_equal(audit_exit_for(&a, -1), JS_EXIT_OK);
	assert_int_equal(audit_exit_status(&a), JS_EXIT_OK);
	/* the warns remain: --fail-on low still fails on them, info on the hypervisor too */
	assert_int_equal(audit_exit_for(&a, SEV_LOW), JS_EXIT_VIOLATION);
	audit_free(&a);
}

/** --waive-file: one id a line, comments and blank lines; a bad line names its number. */
static void test_waive_file(void **state)
{
	struct audit_waivers w = { 0 };
	char err[512] = "", p[300];

	(void)state;
	scratch_puts("/w1", "# accepted on this fleet\n\nsched_rt_runtime_us  # FIFO never used\n"
			    "  irq.*\nsmt,tuned\n");
	snprintf(p, sizeof(p), "%s/w1", scratch_dir);
	assert_int_equal(audit_waivers_add_file(&w, p, err, sizeof(err)), 0);
	assert_int_equal(w.n, 4);
	assert_string_equal(w.ids[0], "sched_rt_runtime_us");
	assert_string_equal(w.ids[3], "tuned");
	audit_waivers_free(&w);
	scratch_puts("/w2", "smt\n# fine\nsmtp\n");
	snprintf(p, sizeof(p), "%s/w2", scratch_dir);
	assert_int_equal(audit_waivers_add_file(&w, p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "w2:3: unknown check id 'smtp'"));
	audit_waivers_free(&w);
	snprintf(p, sizeof(p), "%s/none", scratch_dir);
	assert_int_equal(audit_waivers_add_file(&w, p, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cannot read"));
	audit_waivers_free(&w);
}

/** The previous sysfs root is restored after an audit of a tree. */
static void test_root_restored(void **state)
{
	int cpus[] = { 3 };
	struct js_audit a;

	(void)state;
	assert_int_equal(sysfs_set_root(TUNED), 0);
	run(&a, BADLY, cpus, 1);
	assert_string_equal(sysfs_root(), TUNED);
	audit_free(&a);
	sysfs_set_root(NULL);
	run(&a, TUNED, cpus, 1);
	assert_true(sysfs_is_live());
	audit_free(&a);
}

/* read the live value of a choice file, "" if unreadable */
static void live_choice(const char *path, char *buf, size_t len)
{
	if (sysfs_read_choice(path, buf, len))
		buf[0] = '\0';
}

/** The live system: every check has a verdict, fast, and agrees with the files. */
static void test_live(void **state)
{
	struct js_cpuset online;
	struct js_audit a;
	struct sysfs_dir d;
	char thp[32], p[96];
	int64_t rt;
	int cpu;

	(void)state;
	sysfs_set_root(NULL);
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/online", &online), 0);
	cpu = cpuset_isset(&online, 1) ? 1 : 0;
	run(&a, NULL, &cpu, 1);
	assert_sane(&a);
	assert_true(a.n >= 40);
	assert_true(a.elapsed_ns < 500000000ULL); /* check must be fast */
	assert_int_equal(verdict(&a, "cpu.online", cpu), AUDIT_PASS);
	assert_true(a.cpu[0].ntasks_user + a.cpu[0].ntasks_kthread + a.cpu[0].nrunning > 0 ||
		    a.cpu[0].isolated);
	live_choice("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	if (thp[0])
		assert_string_equal(a.f.thp_enabled, thp);
	if (!sysfs_read_s64("/proc/sys/kernel/sched_rt_runtime_us", &rt))
		assert_int_equal(a.f.rt_runtime_us, rt);
	/* every device IRQ whose effective affinity includes the CPU has its own check */
	if (!sysfs_list_dir("/proc/irq", &d)) {
		for (size_t i = 0; i < d.n; i++) {
			struct js_cpuset eff;
			char name[64] = "", id[32];
			int irq = audit_lead_int(d.names[i]);

			if (irq < 0 ||
			    sysfs_read_cpulist(audit_spath(p, sizeof(p),
							   "/proc/irq/%d/effective_affinity_list",
							   irq),
					       &eff) ||
			    !cpuset_isset(&eff, cpu))
				continue;
			sysfs_read_str(audit_spath(p, sizeof(p), "/sys/kernel/irq/%d/actions", irq),
				       name, sizeof(name));
			if (!name[0])
				continue;
			snprintf(id, sizeof(id), "irq.%d", irq);
			assert_int_equal(verdict(&a, id, cpu), AUDIT_FAIL);
			assert_non_null(strstr(audit_find(&a, id, cpu)->observed, name));
		}
		sysfs_dir_free(&d);
	}
	audit_free(&a);
}

/** scripts/capture-sysroot.sh: the captured tree audits like the live system. */
static void test_capture_roundtrip(void **state)
{
	struct js_audit live, cap;
	struct js_cpuset online;
	char cmd[512], info[256];
	int cpu;

	(void)state;
	if (access("/bin/bash", X_OK))
		js_skip("no /bin/bash for scripts/capture-sysroot.sh");
	if (access("scripts/capture-sysroot.sh", X_OK))
		fail_msg(
			"no scripts/capture-sysroot.sh: run the tests from the source tree's root");
	sysfs_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "scripts/capture-sysroot.sh '%s/cap' >/dev/null", scratch_dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/cap/CAPTURE-INFO", scratch_dir);
	assert_int_equal(access(cmd, R_OK), 0);
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/online", &online), 0);
	cpu = cpuset_isset(&online, 1) ? 1 : 0;
	run(&live, NULL, &cpu, 1);
	snprintf(cmd, sizeof(cmd), "%s/cap", scratch_dir);
	run(&cap, cmd, &cpu, 1);
	assert_sane(&cap);
	for (size_t i = 0; i < live.n; i++) {
		const struct audit_check *l = &live.checks[i], *c = audit_find(&cap, l->id, l->cpu);

		snprintf(info, sizeof(info), "%s cpu %d", l->id, l->cpu);
		if (!c)
			fail_msg("%s: not in the captured audit", info);
		if (!strcmp(l->id, "smi") || !strcmp(l->id, "pm_qos"))
			continue; /* live-only counters; root-only device */
		if (c->verdict != l->verdict)
			fail_msg("%s: live %s (%s), captured %s (%s)", info,
				 audit_verdict_name(l->verdict), l->observed,
				 audit_verdict_name(c->verdict), c->observed);
	}
	assert_int_equal(cap.n, live.n);
	audit_free(&live);
	audit_free(&cap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tuned),
		cmocka_unit_test(test_badly_tuned),
		cmocka_unit_test(test_offline_cpu),
		cmocka_unit_test(test_tuned_612),
		cmocka_unit_test(test_deb13_capture),
		cmocka_unit_test_setup_teardown(test_kthreads_tuned, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_set_but_not_applied, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_in_force, scratch_setup, scratch_teardown),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_parse_interrupts),
		cmocka_unit_test_setup_teardown(test_empty_and_args, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_unreadable, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_diff, scratch_setup,
						scratch_teardown),
		cmocka_unit_test(test_crosscheck),
		cmocka_unit_test(test_crosscheck_merge),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_root_restored),
		cmocka_unit_test(test_severity_policy),
		cmocka_unit_test_setup_teardown(test_guest, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_guest_arm64, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_tuned_partitioning, scratch_setup,
						scratch_teardown),
		cmocka_unit_test(test_text_sorted_folded),
		cmocka_unit_test(test_ids_known),
		cmocka_unit_test(test_housekeeping_cpus),
		cmocka_unit_test(test_waive),
		cmocka_unit_test(test_tick_line),
		cmocka_unit_test_setup_teardown(test_waive_file, scratch_setup, scratch_teardown),
		cmocka_unit_test(test_live),
		cmocka_unit_test_setup_teardown(test_capture_roundtrip, scratch_setup,
						scratch_teardown),
	};

	return cmocka_run_group_tests_name("audit", tests, NULL, NULL);
}
