// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_report.c - the audit as aligned text and as JSON (formatters only read js_audit). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

static void upper(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	for (; src[i] && i + 1 < len; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = '\0';
}

/* verdict_rank - the print order of verdicts: fail, warn, skip, pass */
static int verdict_rank(enum audit_verdict v)
{
	static const int rank[AUDIT_NVERDICTS] = {
		[AUDIT_FAIL] = 0, [AUDIT_WARN] = 1, [AUDIT_SKIP] = 2, [AUDIT_PASS] = 3
	};

	return (unsigned)v < AUDIT_NVERDICTS ? rank[v] : AUDIT_NVERDICTS;
}

/* cmp_order - by verdict rank, then severity (highest first), then run order */
static int cmp_order(const void *x, const void *y, void *arg)
{
	const struct audit_check *c = arg;
	size_t i = *(const size_t *)x, k = *(const size_t *)y;
	int d = verdict_rank(c[i].verdict) - verdict_rank(c[k].verdict);

	if (!d)
		d = (int)c[k].severity - (int)c[i].severity;
	return d ? d : (i > k) - (i < k);
}

/*
 * subst_cpu - src with every number equal to cpu (a whole number: no digit or '.' next to
 * it) replaced by rep, into dst
 */
static void subst_cpu(char *dst, size_t len, const char *src, int cpu, const char *rep)
{
	char num[16];
	size_t o = 0, nl = (size_t)snprintf(num, sizeof(num), "%d", cpu), rl = strlen(rep);

	for (size_t i = 0; src[i] && o + 1 < len;) {
		size_t n = strspn(src + i, "0123456789");
		bool edge = !i || (!isdigit((unsigned char)src[i - 1]) && src[i - 1] != '.');

		if (n == nl && edge && src[i + n] != '.' && !strncmp(src + i, num, nl)) {
			size_t c = JS_MIN(rl, len - 1 - o);

			memcpy(dst + o, rep, c);
			o += c;
			i += n;
			continue;
		}
		n = n ? n : 1;
		n = JS_MIN(n, len - 1 - o);
		memcpy(dst + o, src + i, n);
		o += n;
		i += n;
	}
	dst[o] = '\0';
}

/*
 * alike - c and d say the same but for their CPU, so that one line can show both: -1 if
 * not, else a mask of the texts (1 observed, 2 expected, 4 hint) that name the CPU and so
 * differ as written (the others are equal as they are: "watchdog=1" on CPU 1 is a value)
 */
static int alike(const struct audit_check *c, const struct audit_check *d)
{
	const char *fc[] = { c->observed, c->expected, c->hint };
	const char *fd[] = { d->observed, d->expected, d->hint };
	char x[512], y[512];
	int mask = 0;

	if (c->cpu < 0 || d->cpu < 0 || strcmp(c->id, d->id) || c->verdict != d->verdict ||
	    c->severity != d->severity || c->waived != d->waived)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(fc); i++) {
		if (!strcmp(fc[i], fd[i]))
			continue;
		subst_cpu(x, sizeof(x), fc[i], c->cpu, "\x01");
		subst_cpu(y, sizeof(y), fd[i], d->cpu, "\x01");
		if (strcmp(x, y))
			return -1;
		mask |= 1 << i;
	}
	return mask;
}

/* print_check - "FAIL HIGH isolcpus                 cpu1  observed  [expected: ...]";
 * cpus: the CPUs the line stands for; the texts of subst (alike()'s mask) name them all */
static void print_check(FILE *fp, const struct audit_check *c, const struct js_cpuset *cpus,
			int subst, int idw, int cpuw)
{
	const char *src[] = { c->observed, c->expected, c->hint };
	char v[8], s[8], cpu[160], list[128], txt[3][512];

	upper(v, audit_verdict_name(c->verdict), sizeof(v));
	upper(s, audit_severity_name(c->severity), sizeof(s));
	cpulist_format(cpus, list, sizeof(list));
	if (c->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu%s", list);
	else
		snprintf(cpu, sizeof(cpu), "-");
	for (int i = 0; i < 3; i++) {
		if (subst & (1 << i))
			subst_cpu(txt[i], sizeof(txt[i]), src[i], c->cpu, list);
		else
			js_scpy(txt[i], sizeof(txt[i]), src[i]);
	}
	fprintf(fp, "%-4s %-4s %-*s %-*s %s", v, s, idw, c->id, cpuw, cpu, txt[0]);
	if (c->verdict == AUDIT_FAIL || c->verdict == AUDIT_WARN)
		fprintf(fp, "  [expected: %s]", txt[1]);
	if (c->waived)
		fputs("  [waived]", fp);
	fputc('\n', fp);
	if (txt[2][0] && c->verdict != AUDIT_PASS)
		fprintf(fp, "%*s hint: %s\n", 9, "", txt[2]);
}

/* audit_print_text - one aligned line per check (alike CPUs folded), sorted, the summary */
void audit_print_text(FILE *fp, const struct js_audit *a, bool only_problems)
{
	char cpus[128];
	struct js_cpuset s, *sets = calloc(a->n ? a->n : 1, sizeof(*sets));
	size_t *order = calloc(a->n ? a->n : 1, sizeof(*order));
	bool *done = calloc(a->n ? a->n : 1, sizeof(*done));
	int *subst = calloc(a->n ? a->n : 1, sizeof(*subst));
	int idw = 12, cpuw = 6;

	cpuset_zero(&s);
	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_set(&s, a->cpus[i]);
	fprintf(fp, "isolation audit of CPU %s (%s%s%s%s)\n", audit_fmt_set(&s, cpus, sizeof(cpus)),
		a->sysroot[0] ? "sysroot " : "live system", a->sysroot,
		a->f.release[0] ? ", kernel " : "", a->f.release);
	for (size_t i = 0; i < a->n; i++) {
		int l = (int)strlen(a->checks[i].id);

		if (l > idw)
			idw = l;
		if (order)
			order[i] = i;
	}
	if (!sets || !order || !done || !subst) {
		/* out of memory: run order, one line per check */
		for (size_t i = 0; i < a->n; i++) {
			const struct audit_check *c = &a->checks[i];

			if (only_problems && c->verdict != AUDIT_FAIL && c->verdict != AUDIT_WARN)
				continue;
			cpuset_zero(&s);
			if (c->cpu >= 0)
				cpuset_set(&s, c->cpu);
			print_check(fp, c, &s, 0, idw, cpuw);
		}
		goto out;
	}
	qsort_r(order, a->n, sizeof(*order), cmp_order, a->checks);
	/* fold: each line's first check stands for the later ones alike */
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *c = &a->checks[order[i]];
		char list[128];
		int l;

		if (done[i])
			continue;
		if (c->cpu >= 0)
			cpuset_set(&sets[i], c->cpu);
		for (size_t k = i + 1; k < a->n; k++) {
			int m = done[k] ? -1 : alike(c, &a->checks[order[k]]);

			if (m < 0)
				continue;
			done[k] = true;
			subst[i] |= m;
			cpuset_set(&sets[i], a->checks[order[k]].cpu);
		}
		cpulist_format(&sets[i], list, sizeof(list));
		l = 3 + (int)strlen(list);
		if (c->cpu >= 0 && l > cpuw)
			cpuw = l;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *c = &a->checks[order[i]];

		if (done[i] ||
		    (only_problems && c->verdict != AUDIT_FAIL && c->verdict != AUDIT_WARN))
			continue;
		print_check(fp, c, &sets[i], subst[i], idw, cpuw);
	}
out:
	free(sets);
	free(order);
	free(done);
	free(subst);
	fprintf(fp, "audit: %zu pass, %zu warn, %zu fail, %zu skip", audit_count(a, AUDIT_PASS),
		audit_count(a, AUDIT_WARN), audit_count(a, AUDIT_FAIL), audit_count(a, AUDIT_SKIP));
	if (audit_count_waived(a))
		fprintf(fp, ", %zu waived", audit_count_waived(a));
	fputc('\n', fp);
}
