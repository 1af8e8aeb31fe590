/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* audit_priv.h - the check store and helpers the audit*.c groups share (not public). */
#ifndef AUDIT_PRIV_H
#define AUDIT_PRIV_H

#include <stdarg.h>

#include "js_audit.h"
#include "js_sysfs.h"

#define FMT(a, b) __attribute__((format(printf, a, b)))

/* the check store, audit.c */
/* audit_add - a new check, verdict pass until set; never NULL (a->scratch when OOM) */
struct audit_check *audit_add(struct js_audit *a, const char *id, int cpu, enum audit_severity sev,
			      const char *source);
void audit_ck_obs(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
void audit_ck_exp(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
void audit_ck_hint(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
void audit_ck_src(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
/* audit_ck_obs_append - append "; text" (or text when empty) to observed */
void audit_ck_obs_append(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
/* audit_ck_deviate - the setting is wrong: fail for severity >= med, else warn */
void audit_ck_deviate(struct audit_check *c);
/* audit_ck_skip - skip with why (observed) and how (hint) */
void audit_ck_skip(struct audit_check *c, const char *why, const char *how);
/* audit_ck_skip_err - skip because path could not be read (err = -errno) */
void audit_ck_skip_err(struct audit_check *c, const char *path, int err);

/* audit_fmt_set - cpulist of s into buf ("none" when empty); returns buf */
const char *audit_fmt_set(const struct js_cpuset *s, char *buf, size_t len);
/* audit_spath - snprintf into a path buffer; returns buf */
const char *audit_spath(char *buf, size_t len, const char *fmt, ...) FMT(3, 4);
/* audit_housekeeping - online CPUs neither measured, isolated nor nohz_full, as a list
 * ("<housekeeping CPUs>" when none is left); returns buf */
const char *audit_housekeeping(const struct js_audit *a, char *buf, size_t len);
/* audit_tuned_cores - isolated_cores= of /etc/tuned/PROFILE-variables.conf; false if none */
bool audit_tuned_cores(const char *profile, struct js_cpuset *s);
/* audit_lead_int - the decimal number at the start of s (at most 9 digits), or -1 */
int audit_lead_int(const char *s);

/* command line (a->f.cmdline, which ends at a "--"), audit_cmdline.c */
/* audit_cmdline_load - read /proc/cmdline into a->f (cmdline_err on failure) */
void audit_cmdline_load(struct js_audit *a);
bool audit_cmdline_get(const struct js_audit *a, const char *key, char *val, size_t len);
bool audit_cmdline_has(const struct js_audit *a, const char *word);
/* audit_cmdline_skip - skip c when /proc/cmdline was unreadable; true if skipped */
bool audit_cmdline_skip(const struct js_audit *a, struct audit_check *c);
/* audit_cmdline_get_all - every value of key (e.g. several console=), up to max; count */
size_t audit_cmdline_get_all(const struct js_audit *a, const char *key, char (*vals)[64],
			     size_t max);

/* kernel config (CONFIG_X), audit_kernel.c */
/* audit_kconfig_load - read /proc/config.gz or /boot/config-RELEASE (once per run) */
void audit_kconfig_load(struct js_audit *a);
/* audit_kconfig_release - drop the loaded config */
void audit_kconfig_release(void);
/* audit_kconfig_source - the file the config came from, or why there is none */
const char *audit_kconfig_source(void);

/* /proc/interrupts-style table parsing (also /proc/softirqs) */
int audit_parse_table(const char *text, const int *cpus, size_t ncpus, enum audit_row_kind dflt,
		      struct audit_row **rows, size_t *nrows);
void audit_rows_free(struct audit_row *rows, size_t n);

/* task scan results shared by the task, rcu, irqbalance and kauditd checks */
struct audit_trec {
	int pid, tid;
	char comm[24];
	bool kthread;
	int last_cpu;
	struct js_cpuset allowed;
	bool allowed_ok;
};
struct audit_tasks {
	struct audit_trec *t;
	size_t n, cap;
	int err; /* listing /proc failed */
	uint64_t elapsed_ns;
};
int audit_scan_tasks(struct audit_tasks *ts);
void audit_tasks_free(struct audit_tasks *ts);
/* audit_tasks_find_comm - index of the first task whose comm starts with prefix, or -1 */
int audit_tasks_find_comm(const struct audit_tasks *ts, const char *prefix, bool kthread);

/* check groups, in report order; audit_run.c calls them */
void audit_facts_kernel(struct js_audit *a);
void audit_checks_cmdline(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_irq(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_tasks(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_kernel(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_power(struct js_audit *a);
void audit_checks_memory(struct js_audit *a);

#endif /* AUDIT_PRIV_H */
