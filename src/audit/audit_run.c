// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_run.c - the isolation audit's driver: reads the shared facts, runs each check group. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

/* facts_init - every fact "unknown" until a group reads it */
static void facts_init(struct audit_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->nohz_full_capable = -1;
	f->rcu_nocb_capable = -1;
	f->rt_runtime_us = INT64_MIN;
	f->rt_period_us = INT64_MIN;
	f->stat_interval = -1;
	f->timer_migration = -1;
	f->nmi_watchdog = -1;
	f->watchdog = -1;
	f->soft_watchdog = -1;
	f->numa_balancing = -1;
	f->ksm_run = -1;
	f->khugepaged_defrag = -1;
	f->swap_devices = -1;
	f->swappiness = -1;
}

/* check_online - every measured CPU exists and is online (the groups read cpu[i].online) */
static void check_online(struct js_audit *a)
{
	const char *path = "/sys/devices/system/cpu/online";
	int ret = sysfs_read_cpulist(path, &a->f.online);
	char buf[64];

	for (size_t i = 0; i < a->ncpus; i++) {
		struct audit_check *c = audit_add(a, "cpu.online", a->cpus[i], SEV_CRIT, path);

		audit_ck_exp(c, "CPU %d online", a->cpus[i]);
		if (ret) {
			audit_ck_skip_err(c, path, ret);
			a->cpu[i].online = true; /* unknown: assume so */
			continue;
		}
		a->cpu[i].online = cpuset_isset(&a->f.online, a->cpus[i]);
		audit_ck_obs(c, "online CPUs: %s", audit_fmt_set(&a->f.online, buf, sizeof(buf)));
		if (!a->cpu[i].online) {
			c->verdict = AUDIT_FAIL;
			audit_ck_hint(
				c,
				"pick an online CPU, or: echo 1 > /sys/devices/system/cpu/cpu%d/online",
				a->cpus[i]);
		}
	}
}

/*
 * check_housekeeping - enough housekeeping CPUs (online, neither measured, isolated nor
 * nohz_full) for the CPUs they serve: the measured and isolated ones send them their IRQs,
 * offloaded RCU callbacks and unbound work, and jitterscope's one drain thread runs there
 * (at an untuned CPU's rate, 1.6 % of a core per measured CPU): at least one for every
 * AUDIT_HK_SERVED of those, and one at all
 */
static void check_housekeeping(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "housekeeping.cpus", -1, SEV_LOW,
					  "/sys/devices/system/cpu/{online,isolated,nohz_full}");
	struct js_cpuset served = a->f.isolated, hk = a->f.online;
	char h[64], sv[64];
	int nhk, nserved, want;

	audit_ck_exp(c, "1 housekeeping CPU per %d measured or isolated CPUs, at least 1",
		     AUDIT_HK_SERVED);
	if (cpuset_empty(&a->f.online)) {
		audit_ck_skip(c, "online CPUs unknown", "cat /sys/devices/system/cpu/online");
		return;
	}
	cpuset_or(&served, &a->f.nohz_full);
	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_set(&served, a->cpus[i]);
	cpuset_and(&served, &a->f.online);
	cpuset_andnot(&hk, &served);
	nhk = cpuset_count(&hk);
	nserved = cpuset_count(&served);
	want = (nserved + AUDIT_HK_SERVED - 1) / AUDIT_HK_SERVED;
	want = want < 1 ? 1 : want;
	audit_ck_obs(c, "%d housekeeping CPU%s (%s) for %d measured or isolated (%s)", nhk,
		     nhk == 1 ? "" : "s", audit_fmt_set(&hk, h, sizeof(h)), nserved,
		     audit_fmt_set(&served, sv, sizeof(sv)));
	if (nhk >= want)
		return;
	c->verdict = AUDIT_WARN;
	audit_ck_hint(c,
		      "leave %d more CPU%s out of isolcpus=/nohz_full= (and the measured list), "
		      "or measure fewer CPUs",
		      want - nhk, want - nhk == 1 ? "" : "s");
}

/* audit_init - validate and copy the CPU list */
static int audit_init(struct js_audit *a, const int *cpus, size_t ncpus, const char *sysroot)
{
	memset(a, 0, sizeof(*a));
	facts_init(&a->f);
	if (!cpus || !ncpus || ncpus > JS_MAX_CPUS)
		return -EINVAL;
	for (size_t i = 0; i < ncpus; i++)
		if (cpus[i] < 0 || cpus[i] >= JS_MAX_CPUS)
			return -EINVAL;
	a->cpus = calloc(ncpus, sizeof(*a->cpus));
	a->cpu = calloc(ncpus, sizeof(*a->cpu));
	if (!a->cpus || !a->cpu)
		return -ENOMEM;
	a->ncpus = ncpus;
	for (size_t i = 0; i < ncpus; i++) {
		a->cpus[i] = cpus[i];
		a->cpu[i].cpu = cpus[i];
		a->cpu[i].node = -1;
		a->cpu[i].deepest_cstate_us = -1;
	}
	snprintf(a->sysroot, sizeof(a->sysroot), "%s",
		 sysroot && strcmp(sysroot, "/") ? sysroot : "");
	return 0;
}

/* audit_run - run every check for the measured CPUs (sysroot NULL = live) */
int audit_run(struct js_audit *a, const int *cpus, size_t ncpus, const char *sysroot)
{
	return audit_run_for(a, cpus, ncpus, sysroot, SCHED_OTHER);
}

/* audit_run_for - audit_run for a sampler with this scheduling policy */
int audit_run_for(struct js_audit *a, const int *cpus, size_t ncpus, const char *sysroot,
		  int policy)
{
	struct audit_tasks ts = { 0 };
	char saved[SYSFS_PATH_MAX];
	uint64_t t0 = js_mono_ns();
	int ret;

	ret = audit_init(a, cpus, ncpus, sysroot);
	if (ret)
		goto out_free;
	a->policy = policy;
	js_scpy(saved, sizeof(saved), sysfs_root());
	ret = sysfs_set_root(a->sysroot);
	if (ret)
		goto out_free;
	audit_cmdline_load(a);
	audit_kconfig_load(a);
	audit_scan_tasks(&ts);
	check_online(a);
	audit_facts_kernel(a);
	audit_checks_cmdline(a, &ts);
	check_housekeeping(a);
	audit_checks_irq(a, &ts);
	audit_checks_tasks(a, &ts);
	audit_checks_kernel(a, &ts);
	audit_checks_power(a);
	audit_checks_memory(a);
	audit_tasks_free(&ts);
	audit_kconfig_release();
	sysfs_set_root(saved);
	a->elapsed_ns = js_mono_ns() - t0;
	if (!a->oom)
		return 0;
	ret = -ENOMEM; /* a check was lost: no partial audit */
out_free:
	audit_free(a);
	return ret;
}
