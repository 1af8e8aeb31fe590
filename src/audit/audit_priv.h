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
/* audit_ck_hint_append - append "; text" (or text when empty) to the hint */
void audit_ck_hint_append(struct audit_check *c, const char *fmt, ...) FMT(2, 3);
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
/* audit_cmdline_load - read /proc/cmdline into a->f: the kernel's part (cmdline) and init's,
 * after a "--" (cmdline_init); cmdline_err on failure */
void audit_cmdline_load(struct js_audit *a);
bool audit_cmdline_get(const struct js_audit *a, const char *key, char *val, size_t len);
bool audit_cmdline_has(const struct js_audit *a, const char *word);
/* audit_cmdline_skip - skip c when /proc/cmdline was unreadable; true if skipped */
bool audit_cmdline_skip(const struct js_audit *a, struct audit_check *c);
/* audit_cmdline_get_all - every value of key (e.g. several console=), up to max; count */
size_t audit_cmdline_get_all(const struct js_audit *a, const char *key, char (*vals)[64],
			     size_t max);

/* isolcpus= flags, as the kernel's housekeeping setup reads them */
#define AUDIT_ISOL_DOMAIN 1
#define AUDIT_ISOL_NOHZ 2
#define AUDIT_ISOL_MANAGED_IRQ 4
/* audit_parse_isolcpus - flags and CPUs of an isolcpus= value (no flag: domain); last is
 * the CPU "N" stands for (-1: none); 0 or -EINVAL */
int audit_parse_isolcpus(const char *val, struct js_cpuset *set, int *flags, int last);

/*
 * what is in force already, audit_remedy.c: every hint and plan item that recommends a
 * setting asks here first, so that none recommends what is set
 */
/* audit_param_in_force - the running command line has param ("key" or "key=value") in
 * force: isolcpus= with at least these flags and CPUs, nohz_full=/rcu_nocbs= with at least
 * these CPUs, irqaffinity= with these CPUs, else the same value (the last key= wins) */
bool audit_param_in_force(const struct js_audit *a, const char *param);
/* audit_param_key - the name of "key=value" ('-' as '_', as the kernel compares them) */
void audit_param_key(const char *param, char *key, size_t len);
/* audit_params_unset - the words of params ("a=1 b c=2") not in force, space separated,
 * into buf ("" when all are); returns buf */
const char *audit_params_unset(const struct js_audit *a, const char *params, char *buf, size_t len);
/* audit_params_set - the words of params in force, space separated, into buf; returns buf */
const char *audit_params_set(const struct js_audit *a, const char *params, char *buf, size_t len);
/* audit_next_word - the next space-separated word of *p into w; false at the end */
bool audit_next_word(const char **p, char *w, size_t len);
/*
 * audit_ck_hint_boot - a hint whose remedy is boot parameters: "boot with UNSET<rest>" while
 * one of params is not in force; once all are, "PARAMS is set; <if_set>": what else
 * explains the deviation (NULL: that the kernel does not apply it here)
 */
void audit_ck_hint_boot(struct audit_check *c, const struct js_audit *a, const char *params,
			const char *rest, const char *if_set);
/* audit_kernel_at_least - the running kernel (facts.release) is MAJOR.MINOR or later;
 * false when the release is unknown */
bool audit_kernel_at_least(const struct js_audit *a, int major, int minor);
/* what a plan line writes: the file holds it already (a value kind each) */
enum audit_vkind {
	AUDIT_V_TEXT, /* the same word or number (a choice file: its bracketed word) */
	AUDIT_V_LIST, /* the same CPUs, as a cpulist */
	AUDIT_V_MASK, /* the same CPUs, as a hex cpumask */
};
/* audit_value_in_force - path (under the sysfs root) holds value already; false when it
 * cannot be read */
bool audit_value_in_force(const char *path, enum audit_vkind kind, const char *value);

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
	bool wq_worker;	     /* PF_WQ_WORKER: a kworker, or a workqueue's rescuer */
	bool no_setaffinity; /* PF_NO_SETAFFINITY: bound by the kernel, no taskset moves it */
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
