// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit.c - the isolation audit's check store and the helpers the check groups share (the
 * names of its verdicts and severities, and audit_free: model/audit_record.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

/* audit_add - a new check, verdict pass until set; never NULL (a->scratch when OOM) */
struct audit_check *audit_add(struct js_audit *a, const char *id, int cpu, enum audit_severity sev,
			      const char *source)
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
	js_scpy(c->id, sizeof(c->id), id);
	c->verdict = AUDIT_PASS;
	c->severity = sev;
	c->cpu = cpu;
	js_scpy(c->source, sizeof(c->source), source);
	return c;
}

static void vset(char *dst, size_t len, const char *fmt, va_list ap)
{
	vsnprintf(dst, len, fmt, ap);
}

/* vappend - append "; text" (or text when dst is empty) to dst */
static void vappend(char *dst, size_t len, const char *fmt, va_list ap)
{
	size_t n = strlen(dst);

	if (n && n + 2 < len) {
		memcpy(dst + n, "; ", 3);
		n += 2;
	}
	if (n >= len - 1)
		return;
	vset(dst + n, len - n, fmt, ap);
}

/* CK_TEXT - name(c, fmt, ...): how (vset: set, vappend: append "; text") one text of c */
#define CK_TEXT(name, field, how)                              \
	void name(struct audit_check *c, const char *fmt, ...) \
	{                                                      \
		va_list ap;                                    \
                                                               \
		va_start(ap, fmt);                             \
		how(c->field, sizeof(c->field), fmt, ap);      \
		va_end(ap);                                    \
	}

CK_TEXT(audit_ck_obs, observed, vset)
CK_TEXT(audit_ck_exp, expected, vset)
CK_TEXT(audit_ck_hint, hint, vset)
CK_TEXT(audit_ck_src, source, vset)
CK_TEXT(audit_ck_obs_append, observed, vappend)
CK_TEXT(audit_ck_hint_append, hint, vappend)

/* audit_ck_deviate - the setting is wrong: fail for severity >= med, else warn */
void audit_ck_deviate(struct audit_check *c)
{
	c->verdict = c->severity >= SEV_MED ? AUDIT_FAIL : AUDIT_WARN;
}

/* audit_ck_skip - skip with why (observed) and how (hint) */
void audit_ck_skip(struct audit_check *c, const char *why, const char *how)
{
	c->verdict = AUDIT_SKIP;
	js_scpy(c->observed, sizeof(c->observed), why);
	js_scpy(c->hint, sizeof(c->hint), how);
}

/* audit_ck_skip_err - skip because path could not be read (err = -errno) */
void audit_ck_skip_err(struct audit_check *c, const char *path, int err)
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
	js_scpy(c->hint, sizeof(c->hint), how);
}

/* audit_fmt_set - cpulist of s into buf ("none" when empty); returns buf */
const char *audit_fmt_set(const struct js_cpuset *s, char *buf, size_t len)
{
	if (cpuset_empty(s))
		snprintf(buf, len, "none");
	else
		cpulist_format(s, buf, len);
	return buf;
}

/* audit_spath - snprintf into a path buffer; returns buf */
const char *audit_spath(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
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

/* audit_exit_status - JS_EXIT_OK, or JS_EXIT_VIOLATION (2) when an unwaived check failed */
int audit_exit_status(const struct js_audit *a)
{
	return audit_exit_for(a, -1);
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

/* audit_housekeeping - online CPUs that are neither measured nor isolated, as a list */
const char *audit_housekeeping(const struct js_audit *a, char *buf, size_t len)
{
	struct js_cpuset hk = a->f.online;

	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_clear(&hk, a->cpus[i]);
	cpuset_andnot(&hk, &a->f.isolated);
	cpuset_andnot(&hk, &a->f.nohz_full);
	if (cpuset_empty(&hk))
		snprintf(buf, len, "<housekeeping CPUs>");
	else
		cpulist_format(&hk, buf, len);
	return buf;
}

/* audit_lead_int - the decimal number at the start of s (at most 9 digits), or -1 */
int audit_lead_int(const char *s)
{
	int v = 0, n = 0;

	for (; isdigit((unsigned char)*s) && n < 9; s++, n++)
		v = v * 10 + (*s - '0');
	return n ? v : -1;
}
