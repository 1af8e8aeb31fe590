// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_plan_risks.c - check --plan's "# risks:" block: what each step the plan prints
 * costs beyond isolation, for the steps it prints only (docs/CHECK.md, check --plan).
 */
#include <stdio.h>

#include "audit_plan.h"
#include "js_util.h"

/* plan_risks - the "# risks:" block of the steps in risks (see audit_plan.h) */
void plan_risks(FILE *fp, const struct js_audit *a, unsigned risks, const char *iso, const char *hk,
		const char *nocbs)
{
	if (!risks) {
		fprintf(fp, "# risks: none: no step below has a cost beyond isolation\n");
		return;
	}
	fprintf(fp, "# risks: what the steps below cost beyond isolation\n");
	if (risks & PLAN_RISK_DOMAIN)
		fprintf(fp,
			"#   isolcpus=domain: no load balancing on CPU %s: a task there stays on "
			"the CPU it is on; pin each thread of the workload to its own CPU, or "
			"threads left unpinned pile up on one\n",
			iso);
	if (risks & PLAN_RISK_NOHZ)
		fprintf(fp,
			"#   nohz_full=%s: needs rcu_nocbs=%s (%s) and housekeeping CPUs %s that "
			"take the timers, RCU callbacks and unbound work moved off it; the tick "
			"stops only while one task runs there, and each kernel entry costs more\n",
			iso, iso, nocbs, hk);
	if (risks & PLAN_RISK_TSC)
		fprintf(fp, "#   tsc=reliable: %s\n",
			a->f.hypervisor ?
				"in a VM it disables the clocksource watchdog: a TSC the host lets "
				"drift (live migration, unsynchronised host CPUs) goes unnoticed "
				"and the guest's time with it" :
				"disables the clocksource watchdog: a TSC that turns unstable goes "
				"unnoticed");
	if (risks & PLAN_RISK_NMI)
		fprintf(fp, "#   nmi_watchdog=0: no hard-lockup detector: a CPU stuck with "
			    "interrupts off is not reported\n");
	if (risks & PLAN_RISK_THP)
		fprintf(fp, "#   transparent huge pages off: applications that rely on them "
			    "(databases, JVMs, large heaps) get 4 KiB pages and more TLB misses; "
			    "reserve hugetlbfs pages for them instead\n");
	if (risks & PLAN_RISK_KSM)
		fprintf(fp, "#   KSM unmerge (echo 2): every merged page is copied back: memory "
			    "use grows by what KSM saved\n");
	if (risks & PLAN_RISK_RT)
		fprintf(fp, "#   kernel.sched_rt_runtime_us = -1: no RT throttling: a SCHED_FIFO "
			    "thread that spins holds its CPU for good, and the kernel work bound "
			    "there starves\n");
	if (risks & PLAN_RISK_POWER)
		fprintf(fp,
			"#   performance governor, deep C-states off: more power and heat on CPU "
			"%s, less turbo headroom for the others\n",
			iso);
	if (risks & PLAN_RISK_AFFINITY)
		fprintf(fp,
			"#   CPUAffinity=%s: every service systemd starts runs there: the workload "
			"must be put on CPU %s itself (taskset, its unit's CPUAffinity=)\n",
			hk, iso);
}
