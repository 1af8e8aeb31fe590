// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit.c - the isolation audit's driver and check store (see js_audit.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

static const char *const verdict_names[AUDIT_NVERDICTS] = {
	[AUDIT_PASS] = "pass", [AUDIT_WARN] = "warn", [AUDIT_FAIL] = "fail", [AUDIT_SKIP] = "skip",
};
static const char *const severity_names[] = {
	[SEV_INFO] = "info", [SEV_LOW] = "low", [SEV_MED] = "med", [SEV_HIGH] = "high",
	[SEV_CRIT] = "crit",
};
static const char *const row_kind_names[] = {
	[AUDIT_ROW_IRQ] = "irq", [AUDIT_ROW_ARCH] = "arch", [AUDIT_ROW_SOFTIRQ] = "softirq",
};

/* name_of - names[i], "?" when i is out of range */
static const char *name_of(const char *const *names, size_t n, unsigned int i)
{
	return i < n ? names[i] : "?";
}

/* audit_verdict_name - "pass", "warn", "fail", "skip" */
const char *audit_verdict_name(enum audit_verdict v)
{
	return name_of(verdict_names, ARRAY_SIZE(verdict_names), v);
}

/* audit_verdict_from_name - the enum audit_verdict named name; -1 if none */
int audit_verdict_from_name(const char *name)
{
	return js_name_index(verdict_names, ARRAY_SIZE(verdict_names), name);
}

/* audit_severity_name - "info", "low", "med", "high", "crit" */
const char *audit_severity_name(enum audit_severity s)
{
	return name_of(severity_names, ARRAY_SIZE(severity_names), s);
}

/* audit_severity_from_name - the enum audit_severity named name; -1 if none */
int audit_severity_from_name(const char *name)
{
	return js_name_index(severity_names, ARRAY_SIZE(severity_names), name);
}

/* audit_row_kind_name - "irq", "arch", "softirq" */
const char *audit_row_kind_name(enum audit_row_kind k)
{
	return name_of(row_kind_names, ARRAY_SIZE(row_kind_names), k);
}

/* audit_row_kind_from_name - the enum audit_row_kind named name; -1 if none */
int audit_row_kind_from_name(const char *name)
{
	return js_name_index(row_kind_names, ARRAY_SIZE(row_kind_names), name);
}

/* audit_add - a new check, verdict pass until set; never NULL (a->scratch when OOM) */
struct audit_check *audit_add(struct js_audit *a, const char *id, int cpu,
			      enum audit_severity sev, const char *source)
{
	struct audit_check *c;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		struct audit_check *nc = realloc(a->checks, cap * sizeof(*nc));

		if (!nc) {
			a->oom = true;
			c = &a->scratch;
			goto init;
		}
		a->checks = nc;
		a->cap = cap;
	}
	c = &a->checks[a->n++];
init:
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->verdict = AUDIT_PASS;
	c->severity = sev;
	c->cpu = cpu;
	snprintf(c->source, sizeof(c->source), "%s", source ? source : "");
	return c;
}

static void vset(char *dst, size_t len, const char *fmt, va_list ap)
{
	vsnprintf(dst, len, fmt, ap);
}

/* ck_obs - set the observed text */
void ck_obs(struct audit_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c->observed, sizeof(c->observed), fmt, ap);
	va_end(ap);
}

/* ck_exp - set the expected text */
void ck_exp(struct audit_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c->expected, sizeof(c->expected), fmt, ap);
	va_end(ap);
}

/* ck_hint - set the hint */
void ck_hint(struct audit_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c->hint, sizeof(c->hint), fmt, ap);
	va_end(ap);
}

/* ck_src - set the source */
void ck_src(struct audit_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c->source, sizeof(c->source), fmt, ap);
	va_end(ap);
}

/* ck_obs_append - append "; text" (or text when empty) to observed */
void ck_obs_append(struct audit_check *c, const char *fmt, ...)
{
	size_t n = strlen(c->observed);
	va_list ap;

	if (n && n + 2 < sizeof(c->observed)) {
		memcpy(c->observed + n, "; ", 3);
		n += 2;
	}
	if (n >= sizeof(c->observed) - 1)
		return;
	va_start(ap, fmt);
	vset(c->observed + n, sizeof(c->observed) - n, fmt, ap);
	va_end(ap);
}

/* ck_deviate - the setting is wrong: fail for severity >= med, else warn */
void ck_deviate(struct audit_check *c)
{
	c->verdict = c->severity >= SEV_MED ? AUDIT_FAIL : AUDIT_WARN;
}

/* ck_skip - skip with why (observed) and how (hint) */
void ck_skip(struct audit_check *c, const char *why, const char *how)
{
	c->verdict = AUDIT_SKIP;
	snprintf(c->observed, sizeof(c->observed), "%s", why);
	snprintf(c->hint, sizeof(c->hint), "%s", how ? how : "");
}

/* ck_skip_err - skip because path could not be read (err = -errno) */
void ck_skip_err(struct audit_check *c, const char *path, int err)
{
	const char *how = "";

	if (err == -EACCES || err == -EPERM)
		how = "run as root to check this";
	else if (err == -ENOENT)
		how = "not provided by this kernel or system";
	else if (err == -EINVAL || err == -ENODATA || err == -ERANGE)
		how = "the file's content is malformed";
	c->verdict = AUDIT_SKIP;
	snprintf(c->observed, sizeof(c->observed), "cannot read %s: %s", path,
		 err == -EINVAL ? "unexpected content" : strerror(-err));
	snprintf(c->hint, sizeof(c->hint), "%s", how);
}

/* fmt_set - cpulist of s into buf ("none" when empty); returns buf */
const char *fmt_set(const struct js_cpuset *s, char *buf, size_t len)
{
	if (cpuset_empty(s))
		snprintf(buf, len, "none");
	else
		cpulist_format(s, buf, len);
	return buf;
}

/* spath - snprintf into a path buffer; returns buf */
const char *spath(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

/* key_eq - kernel parameter names treat '-' and '_' alike */
static bool key_eq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

/* next_tok - the next token of a command line (quotes group), [*b, *e); false at the end */
static bool next_tok(const char **p, const char **b, const char **e)
{
	const char *s = *p;
	bool q = false;

	while (*s && isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	*b = s;
	for (; *s && (q || !isspace((unsigned char)*s)); s++)
		if (*s == '"')
			q = !q;
	*e = s;
	*p = s;
	return true;
}

/* copy_val - token value without quotes */
static void copy_val(const char *b, const char *e, char *val, size_t len)
{
	size_t k = 0;

	for (; b < e && k + 1 < len; b++)
		if (*b != '"')
			val[k++] = *b;
	val[k] = '\0';
}

/* cmdline_get - value of key= on the command line (the last one wins) */
bool cmdline_get(const struct js_audit *a, const char *key, char *val, size_t len)
{
	const char *p = a->f.cmdline, *b, *e;
	bool found = false;

	while (next_tok(&p, &b, &e)) {
		const char *eq;

		if (*b == '"')
			b++;
		eq = memchr(b, '=', e - b);
		if (!eq || !key_eq(b, eq - b, key))
			continue;
		copy_val(eq + 1, e, val, len);
		found = true;	/* keep going: the last one wins */
	}
	return found;
}

/* cmdline_get_all - every value of key (e.g. several console=), up to max; count */
size_t cmdline_get_all(const struct js_audit *a, const char *key, char (*vals)[64], size_t max)
{
	const char *p = a->f.cmdline, *b, *e;
	size_t n = 0;

	while (n < max && next_tok(&p, &b, &e)) {
		const char *eq;

		if (*b == '"')
			b++;
		eq = memchr(b, '=', e - b);
		if (eq && key_eq(b, eq - b, key))
			copy_val(eq + 1, e, vals[n++], 64);
	}
	return n;
}

/* cmdline_has - the command line has word (bare, or as key=) */
bool cmdline_has(const struct js_audit *a, const char *word)
{
	const char *p = a->f.cmdline, *b, *e;

	while (next_tok(&p, &b, &e)) {
		const char *eq;

		if (*b == '"')
			b++;
		eq = memchr(b, '=', e - b);
		if (key_eq(b, (eq ? eq : e) - b, word))
			return true;
	}
	return false;
}

/* load_cmdline - /proc/cmdline up to a "--" (the rest belongs to init) */
static void load_cmdline(struct js_audit *a)
{
	char *buf = a->f.cmdline, *p;
	ssize_t n = sysfs_read_buf("/proc/cmdline", buf, sizeof(a->f.cmdline));

	if (n < 0) {
		buf[0] = '\0';
		a->f.cmdline_err = (int)n;
		return;
	}
	buf[strcspn(buf, "\n")] = '\0';
	for (p = buf; (p = strstr(p, "--")); p += 2) {
		if ((p == buf || isspace((unsigned char)p[-1])) &&
		    (!p[2] || isspace((unsigned char)p[2]))) {
			*p = '\0';
			break;
		}
	}
}

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

/* check_online - every measured CPU exists and is online */
static void check_online(struct js_audit *a)
{
	const char *path = "/sys/devices/system/cpu/online";
	int ret = sysfs_read_cpulist(path, &a->f.online);
	char buf[64];

	for (size_t i = 0; i < a->ncpus; i++) {
		struct audit_check *c = audit_add(a, "cpu.online", a->cpus[i], SEV_CRIT, path);

		ck_exp(c, "CPU %d online", a->cpus[i]);
		if (ret) {
			ck_skip_err(c, path, ret);
			a->cpu[i].online = true;	/* unknown: assume so */
			continue;
		}
		a->cpu[i].online = cpuset_isset(&a->f.online, a->cpus[i]);
		ck_obs(c, "online CPUs: %s", fmt_set(&a->f.online, buf, sizeof(buf)));
		if (!a->cpu[i].online) {
			c->verdict = AUDIT_FAIL;
			ck_hint(c, "pick an online CPU, or: echo 1 > /sys/devices/system/cpu/cpu%d/online",
				a->cpus[i]);
		}
	}
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
	struct audit_tasks ts = { 0 };
	char saved[SYSFS_PATH_MAX];
	uint64_t t0 = js_mono_ns();
	int ret;

	ret = audit_init(a, cpus, ncpus, sysroot);
	if (ret)
		goto out_free;
	snprintf(saved, sizeof(saved), "%s", sysfs_root());
	ret = sysfs_set_root(a->sysroot);
	if (ret)
		goto out_free;
	load_cmdline(a);
	audit_kconfig_load(a);
	audit_scan_tasks(&ts);
	check_online(a);
	audit_facts_kernel(a);
	audit_checks_cmdline(a, &ts);
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
	ret = -ENOMEM;	/* a check was lost: no partial audit */
out_free:
	audit_free(a);
	return ret;
}

/* audit_free - free everything audit_run allocated; accepts a zeroed struct */
void audit_free(struct js_audit *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nirqs; i++)
		free(a->irqs[i].count);
	free(a->irqs);
	free(a->checks);
	free(a->cpus);
	free(a->cpu);
	a->irqs = NULL;
	a->checks = NULL;
	a->cpus = NULL;
	a->cpu = NULL;
	a->n = a->cap = a->ncpus = a->nirqs = 0;
}

/* audit_count - number of checks with verdict v */
size_t audit_count(const struct js_audit *a, enum audit_verdict v)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++)
		n += a->checks[i].verdict == v;
	return n;
}

/* audit_find - the first check with this id (and cpu, or any cpu when cpu < 0), or NULL */
const struct audit_check *audit_find(const struct js_audit *a, const char *id, int cpu)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->checks[i].id, id) && (cpu < 0 || a->checks[i].cpu == cpu))
			return &a->checks[i];
	return NULL;
}

/* audit_exit_status - JS_EXIT_OK, or JS_EXIT_VIOLATION (2) when any check failed */
int audit_exit_status(const struct js_audit *a)
{
	return audit_count(a, AUDIT_FAIL) ? JS_EXIT_VIOLATION : JS_EXIT_OK;
}

/* audit_irqs_on_cpu - device IRQs whose effective affinity includes cpu, up to max; count */
size_t audit_irqs_on_cpu(const struct js_audit *a, int cpu, const struct audit_irq **out,
			 size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nirqs; i++) {
		if (!cpuset_isset(&a->irqs[i].effective, cpu))
			continue;
		if (out && n < max)
			out[n] = &a->irqs[i];
		n++;
	}
	return n;
}

/* cmdline_skip - skip c when /proc/cmdline was unreadable; true if skipped */
bool cmdline_skip(const struct js_audit *a, struct audit_check *c)
{
	if (!a->f.cmdline_err)
		return false;
	ck_skip_err(c, "/proc/cmdline", a->f.cmdline_err);
	return true;
}

/* last_possible_cpu - highest CPU in /sys/devices/system/cpu/possible (for "N"), or -1 */
int last_possible_cpu(void)
{
	struct js_cpuset s;
	int last = -1;

	if (sysfs_read_cpulist("/sys/devices/system/cpu/possible", &s))
		return -1;
	for (int c = cpuset_next(&s, 0); c >= 0; c = cpuset_next(&s, c + 1))
		last = c;
	return last;
}

/* lead_int - the decimal number at the start of s (at most 9 digits), or -1 */
int lead_int(const char *s)
{
	int v = 0, n = 0;

	for (; isdigit((unsigned char)*s) && n < 9; s++, n++)
		v = v * 10 + (*s - '0');
	return n ? v : -1;
}
