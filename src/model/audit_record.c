// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_record.c - the audit's record (js_audit_record.h): the names of its verdicts, severities
 * and row kinds, and its freeing. */
#include <stdlib.h>
#include <string.h>

#include "js_audit_record.h"
#include "js_util.h"

static const char *const verdict_names[AUDIT_NVERDICTS] = {
	[AUDIT_PASS] = "pass",
	[AUDIT_WARN] = "warn",
	[AUDIT_FAIL] = "fail",
	[AUDIT_SKIP] = "skip",
};
static const char *const severity_names[] = {
	[SEV_INFO] = "info", [SEV_LOW] = "low",	  [SEV_MED] = "med",
	[SEV_HIGH] = "high", [SEV_CRIT] = "crit",
};
static const char *const row_kind_names[] = {
	[AUDIT_ROW_IRQ] = "irq",
	[AUDIT_ROW_ARCH] = "arch",
	[AUDIT_ROW_SOFTIRQ] = "softirq",
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

/* audit_free - free everything audit_run allocated and zero a; accepts a zeroed struct */
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
	memset(a, 0, sizeof(*a));
}

/* audit_deltas_free - free deltas; accepts a zeroed struct */
void audit_deltas_free(struct audit_deltas *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nrows; i++)
		free(d->rows[i].delta);
	free(d->rows);
	free(d->changes);
	free(d->cpus);
	memset(d, 0, sizeof(*d));
}
