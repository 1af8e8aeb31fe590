/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* audit_priv.h - helpers shared by audit*.c (not a public interface). */
#ifndef AUDIT_PRIV_H
#define AUDIT_PRIV_H

#include <stdarg.h>

#include "js_audit.h"
#include "js_sysfs.h"

#define FMT(a, b) __attribute__((format(printf, a, b)))

/* audit_add - a new check, verdict pass until set; never NULL (a->scratch when OOM) */
struct audit_check *audit_add(struct js_audit *a, const char *id, int cpu,
			      enum audit_severity sev, const char *source);
void ck_obs(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
void ck_exp(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
void ck_hint(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
void ck_src(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
/* ck_obs_append - append "; text" (or text when empty) to observed */
void ck_obs_append(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
/* ck_deviate - the setting is wrong: fail for severity >= med, else warn */
void ck_deviate(struct audit_check *c);
/* ck_skip - skip with why (observed) and how (hint) */
void ck_skip(struct audit_check *c, const char *why, const char *how);
/* ck_skip_err - skip because path could not be read (err = -errno) */
void ck_skip_err(struct audit_check *c, const char *path, int err);

/* fmt_set - cpulist of s into buf ("none" when empty); returns buf */
const char *fmt_set(const struct js_cpuset *s, char *buf, size_t len);
/* spath - snprintf into a path buffer; returns buf */
const char *spath(char *buf, size_t len, const char *fmt, ...) FMT(3, 4);

/* command line (a->f.cmdline, which ends at a "--") */
bool cmdline_get(const struct js_audit *a, const char *key, char *val, size_t len);
bool cmdline_has(const struct js_audit *a, const char *word);
/* cmdline_skip - skip c when /proc/cmdline was unreadable; true if skipped */
bool cmdline_skip(const struct js_audit *a, struct audit_check *c);
/* cmdline_get_all - every value of key (e.g. several console=), up to max; count */
size_t cmdline_get_all(const struct js_audit *a, const char *key, char (*vals)[64], size_t max);
/* lead_int - the decimal number at the start of s (at most 9 digits), or -1 */
int lead_int(const char *s);
/* last_possible_cpu - highest CPU in /sys/devices/system/cpu/possible (for "N"), or -1 */
int last_possible_cpu(void);

/* kernel config (CONFIG_X): 'y', 'm', 'n' (not set), or 0 when no config is readable */
char kconfig_tristate(const struct js_audit *a, const char *sym);
/* kconfig_value - value of CONFIG_X (e.g. "250") into buf; false if unknown */
bool kconfig_value(const struct js_audit *a, const char *sym, char *buf, size_t len);
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
	int err;                        /* listing /proc failed */
	uint64_t elapsed_ns;
};
int audit_scan_tasks(struct audit_tasks *ts);
void audit_tasks_free(struct audit_tasks *ts);
/* audit_tasks_find_comm - index of the first task whose comm starts with prefix, or -1 */
int audit_tasks_find_comm(const struct audit_tasks *ts, const char *prefix, bool kthread);

/* check groups, in report order */
void audit_facts_kernel(struct js_audit *a);
void audit_checks_cmdline(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_irq(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_tasks(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_kernel(struct js_audit *a, const struct audit_tasks *ts);
void audit_checks_power(struct js_audit *a);
void audit_checks_memory(struct js_audit *a);

#endif /* AUDIT_PRIV_H */
