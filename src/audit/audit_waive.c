// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_waive.c - check --waive/--waive-file: the check ids a user accepts (each still
 * shown, marked waived, never an exit status), and --fail-on's exit status.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

/* every id a check can take; "irq.N" stands for irq.<number> (one per device IRQ) */
static const char *const check_ids[] = {
	"cpu.online",
	"kernel.hz",
	"kernel.preempt",
	"kernel.nohz_full",
	"kernel.hypervisor",
	"hypervisor.signals",
	"isolcpus",
	"isolcpus.flags",
	"nohz_full",
	"rcu_nocbs",
	"rcu_nocb_poll",
	"rcu.normal_after_boot",
	"rcu.nohz_full_patience",
	"housekeeping.cpus",
	"skew_tick",
	"console",
	"irqaffinity",
	"irq.affinity",
	"irq.N",
	"irqbalance",
	"tasks.user",
	"tasks.kthreads",
	"tasks.rescuers",
	"workqueue.cpumask",
	"timer_migration",
	"watchdog.nmi",
	"watchdog.soft",
	"sched_rt_runtime_us",
	"mce.ignore_ce",
	"mitigations",
	"kernel.audit",
	"tuned",
	"cpufreq.governor",
	"cstates",
	"pm_qos",
	"smt",
	"clocksource",
	"tsc.invariant",
	"clocksource.watchdog",
	"smi",
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

/* irq_n - "irq.<digits>" */
static bool irq_n(const char *id)
{
	return !strncmp(id, "irq.", 4) && id[4] && strspn(id + 4, "0123456789") == strlen(id + 4);
}

/* audit_id_known - id (or a shell pattern: irq.*) names a check the audit can produce */
bool audit_id_known(const char *id)
{
	if (!id[0] || strlen(id) >= AUDIT_ID_LEN)
		return false;
	if (irq_n(id) || !fnmatch(id, "irq.0", 0))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(check_ids); i++)
		if (strcmp(check_ids[i], "irq.N") && !fnmatch(id, check_ids[i], 0))
			return true;
	return false;
}

/* waivers_add - one id into w after checking it; 0, -EINVAL (err says) or -ENOMEM */
static int waivers_add(struct audit_waivers *w, const char *id, char *err, size_t len)
{
	if (!audit_id_known(id)) {
		snprintf(err, len,
			 "unknown check id '%s' (the ids are those of the check lines, e.g. "
			 "sched_rt_runtime_us, irq.36, irq.*)",
			 id);
		return -EINVAL;
	}
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		char(*ids)[AUDIT_ID_LEN] = realloc(w->ids, cap * sizeof(*ids));

		if (!ids) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		w->ids = ids;
		w->cap = cap;
	}
	js_scpy(w->ids[w->n++], AUDIT_ID_LEN, id);
	return 0;
}

/* add_words - every id in s (separated by commas or blanks) */
static int add_words(struct audit_waivers *w, char *s, char *err, size_t len)
{
	char *save = NULL;
	int ret;

	for (char *t = strtok_r(s, ", \t\r\n", &save); t; t = strtok_r(NULL, ", \t\r\n", &save)) {
		ret = waivers_add(w, t, err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* audit_waivers_add_list - "ID[,ID...]" (--waive) */
int audit_waivers_add_list(struct audit_waivers *w, const char *list, char *err, size_t len)
{
	char *s = strdup(list);
	int ret;

	if (!s) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = strspn(s, ", \t") == strlen(s) ? -EINVAL : add_words(w, s, err, len);
	if (ret == -EINVAL && !err[0])
		snprintf(err, len, "no check id in '%s'", list);
	free(s);
	return ret;
}

/* audit_waivers_add_file - one id a line, '#' to the end of a line a comment (--waive-file) */
int audit_waivers_add_file(struct audit_waivers *w, const char *path, char *err, size_t len)
{
	FILE *fp = fopen(path, "r");
	char line[512], why[400];
	int ret = 0, lineno = 0;

	if (!fp) {
		ret = -errno;
		snprintf(err, len, "cannot read '%s': %s", path, strerror(-ret));
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), fp)) {
		lineno++;
		line[strcspn(line, "#")] = '\0';
		why[0] = '\0';
		ret = add_words(w, line, why, sizeof(why));
		if (ret)
			snprintf(err, len, "%s:%d: %s", path, lineno, why);
	}
	if (!ret && ferror(fp)) {
		snprintf(err, len, "cannot read '%s': %s", path, strerror(EIO));
		ret = -EIO;
	}
	fclose(fp);
	return ret;
}

/* audit_waivers_free - free w; accepts a zeroed struct */
void audit_waivers_free(struct audit_waivers *w)
{
	free(w->ids);
	memset(w, 0, sizeof(*w));
}

/* audit_waive - mark the checks w names (patterns allowed) waived; the number marked */
size_t audit_waive(struct js_audit *a, const struct audit_waivers *w)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++) {
		struct audit_check *c = &a->checks[i];

		for (size_t k = 0; k < w->n && !c->waived; k++)
			c->waived = !fnmatch(w->ids[k], c->id, 0);
		n += c->waived;
	}
	return n;
}

/* audit_count_waived - number of waived checks */
size_t audit_count_waived(const struct js_audit *a)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++)
		n += a->checks[i].waived;
	return n;
}

/* audit_exit_for - exit 2 for an unwaived problem: a fail (fail_on < 0), or a fail or warn
 * of severity fail_on or above */
int audit_exit_for(const struct js_audit *a, int fail_on)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *c = &a->checks[i];

		if (c->waived)
			continue;
		if (fail_on < 0 ? c->verdict == AUDIT_FAIL :
				  (c->verdict == AUDIT_FAIL || c->verdict == AUDIT_WARN) &&
					  (int)c->severity >= fail_on)
			return JS_EXIT_VIOLATION;
	}
	return JS_EXIT_OK;
}
