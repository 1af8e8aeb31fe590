// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_snapshot.c - interrupt/softirq counts and IRQ affinity around a run, and their deltas. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

/* read_table - parse one /proc table and append its rows to s */
static int read_table(struct audit_snapshot *s, const char *path, enum audit_row_kind kind)
{
	struct audit_row *rows = NULL, *all;
	size_t n = 0;
	char *text = NULL;
	int ret = sysfs_read_file(path, &text, NULL);

	if (ret)
		return ret;
	ret = audit_parse_table(text, s->cpus, s->ncpus, kind, &rows, &n);
	free(text);
	if (ret)
		return ret;
	all = realloc(s->rows, (s->nrows + n + 1) * sizeof(*all));
	if (!all) {
		audit_rows_free(rows, n);
		return -ENOMEM;
	}
	memcpy(all + s->nrows, rows, n * sizeof(*rows));
	free(rows); /* the rows' count arrays now belong to s */
	s->rows = all;
	s->nrows += n;
	return 0;
}

/* read_affinity - effective affinity of every /proc/irq/N */
static int read_affinity(struct audit_snapshot *s)
{
	struct sysfs_dir d;
	char p[96];
	int ret = sysfs_list_dir("/proc/irq", &d);

	if (ret)
		return ret;
	s->aff = calloc(d.n ? d.n : 1, sizeof(*s->aff));
	if (!s->aff) {
		sysfs_dir_free(&d);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d.n; i++) {
		struct audit_irq_aff *f = &s->aff[s->naff];

		f->irq = audit_lead_int(d.names[i]);
		if (f->irq < 0 || d.names[i][strspn(d.names[i], "0123456789")])
			continue;
		if (sysfs_read_cpulist(audit_spath(p, sizeof(p),
						   "/proc/irq/%d/effective_affinity_list", f->irq),
				       &f->effective) &&
		    sysfs_read_cpulist(audit_spath(p, sizeof(p), "/proc/irq/%d/smp_affinity_list",
						   f->irq),
				       &f->effective))
			continue;
		s->naff++;
	}
	sysfs_dir_free(&d);
	return 0;
}

/* audit_snapshot_take - interrupt/softirq counts and IRQ affinity now (no IPI) */
int audit_snapshot_take(struct audit_snapshot *s, const int *cpus, size_t n)
{
	int ret;

	memset(s, 0, sizeof(*s));
	if (!cpus || !n || n > JS_MAX_CPUS)
		return -EINVAL;
	s->cpus = malloc(n * sizeof(*s->cpus));
	if (!s->cpus)
		return -ENOMEM;
	memcpy(s->cpus, cpus, n * sizeof(*cpus));
	s->ncpus = n;
	s->t_ns = js_mono_ns();
	ret = read_table(s, "/proc/interrupts", AUDIT_ROW_ARCH);
	if (ret)
		goto out;
	ret = read_table(s, "/proc/softirqs", AUDIT_ROW_SOFTIRQ);
	if (ret == -ENOENT)
		ret = 0; /* softirqs are optional */
	if (ret)
		goto out;
	ret = read_affinity(s);
	if (ret == -ENOENT)
		ret = 0;
out:
	if (ret)
		audit_snapshot_free(s);
	return ret;
}

/* audit_snapshot_free - free a snapshot; accepts a zeroed struct */
void audit_snapshot_free(struct audit_snapshot *s)
{
	if (!s)
		return;
	audit_rows_free(s->rows, s->nrows);
	free(s->cpus);
	free(s->aff);
	memset(s, 0, sizeof(*s));
}

static const struct audit_row *find_row(const struct audit_snapshot *s, const struct audit_row *r)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].kind == r->kind && !strcmp(s->rows[i].key, r->key))
			return &s->rows[i];
	return NULL;
}

/* counter_delta - after - before; IRQ counters are 32-bit in older kernels and may wrap */
static uint64_t counter_delta(uint64_t before, uint64_t after)
{
	if (after >= before)
		return after - before;
	if (before <= 0xffffffffULL)
		return after + (1ULL << 32) - before;
	return after;
}

/* diff_rows - rows with a non-zero delta on a measured CPU */
static int diff_rows(const struct audit_snapshot *b, const struct audit_snapshot *e,
		     struct audit_deltas *out)
{
	out->rows = calloc(e->nrows ? e->nrows : 1, sizeof(*out->rows));
	if (!out->rows)
		return -ENOMEM;
	for (size_t i = 0; i < e->nrows; i++) {
		const struct audit_row *r = &e->rows[i], *o = find_row(b, r);
		struct audit_delta_row *d = &out->rows[out->nrows];

		d->delta = calloc(e->ncpus, sizeof(uint64_t));
		if (!d->delta)
			return -ENOMEM;
		d->total = 0;
		for (size_t k = 0; k < e->ncpus; k++) {
			d->delta[k] = counter_delta(o ? o->count[k] : 0, r->count[k]);
			d->total += d->delta[k];
		}
		if (!d->total) {
			free(d->delta);
			d->delta = NULL;
			continue;
		}
		js_scpy(d->key, sizeof(d->key), r->key);
		js_scpy(d->name, sizeof(d->name), r->name);
		d->irq = r->irq;
		d->kind = r->kind;
		out->nrows++;
	}
	return 0;
}

static const struct audit_irq_aff *find_aff(const struct audit_snapshot *s, int irq)
{
	for (size_t i = 0; i < s->naff; i++)
		if (s->aff[i].irq == irq)
			return &s->aff[i];
	return NULL;
}

/* add_change - record an affinity change of irq */
static void add_change(struct audit_deltas *out, const struct audit_snapshot *e, int irq,
		       const struct js_cpuset *before, const struct js_cpuset *after,
		       const struct js_cpuset *measured)
{
	struct audit_aff_change *c = &out->changes[out->nchanges++];

	memset(c, 0, sizeof(*c));
	c->irq = irq;
	c->before = *before;
	c->after = *after;
	c->touches = cpuset_intersects(before, measured) || cpuset_intersects(after, measured);
	for (size_t i = 0; i < e->nrows; i++)
		if (e->rows[i].irq == irq)
			js_scpy(c->name, sizeof(c->name), e->rows[i].name);
}

static int diff_affinity(const struct audit_snapshot *b, const struct audit_snapshot *e,
			 struct audit_deltas *out)
{
	struct js_cpuset measured, none;

	cpuset_zero(&measured);
	cpuset_zero(&none);
	for (size_t i = 0; i < e->ncpus; i++)
		cpuset_set(&measured, e->cpus[i]);
	out->changes = calloc(b->naff + e->naff + 1, sizeof(*out->changes));
	if (!out->changes)
		return -ENOMEM;
	for (size_t i = 0; i < e->naff; i++) {
		const struct audit_irq_aff *o = find_aff(b, e->aff[i].irq);

		if (!o || !cpuset_equal(&o->effective, &e->aff[i].effective))
			add_change(out, e, e->aff[i].irq, o ? &o->effective : &none,
				   &e->aff[i].effective, &measured);
	}
	for (size_t i = 0; i < b->naff; i++)
		if (!find_aff(e, b->aff[i].irq))
			add_change(out, e, b->aff[i].irq, &b->aff[i].effective, &none, &measured);
	return 0;
}

/* audit_snapshot_diff - after - before (same CPUs) into out; 0, -EINVAL or -ENOMEM */
int audit_snapshot_diff(const struct audit_snapshot *before, const struct audit_snapshot *after,
			struct audit_deltas *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (before->ncpus != after->ncpus || !after->ncpus ||
	    memcmp(before->cpus, after->cpus, after->ncpus * sizeof(int)))
		return -EINVAL;
	out->cpus = malloc(after->ncpus * sizeof(int));
	if (!out->cpus)
		return -ENOMEM;
	memcpy(out->cpus, after->cpus, after->ncpus * sizeof(int));
	out->ncpus = after->ncpus;
	out->seconds = after->t_ns > before->t_ns ? (after->t_ns - before->t_ns) / 1e9 : 0;
	ret = diff_rows(before, after, out);
	if (!ret)
		ret = diff_affinity(before, after, out);
	if (ret)
		audit_deltas_free(out);
	return ret;
}

/* audit_deltas_get - delta of row key ("LOC", "36", "NET_RX") on cpu; 0 if absent */
uint64_t audit_deltas_get(const struct audit_deltas *d, int cpu, const char *key)
{
	for (size_t k = 0; k < d->ncpus; k++) {
		if (d->cpus[k] != cpu)
			continue;
		for (size_t i = 0; i < d->nrows; i++)
			if (!strcmp(d->rows[i].key, key))
				return d->rows[i].delta[k];
	}
	return 0;
}

/* audit_deltas_print_text - per CPU table of non-zero deltas with rates; affinity changes */
void audit_deltas_print_text(FILE *fp, const struct audit_deltas *d)
{
	char a[128], b[128];
	size_t shown = 0;

	for (size_t k = 0; k < d->ncpus; k++) {
		for (size_t i = 0; i < d->nrows; i++) {
			const struct audit_delta_row *r = &d->rows[i];

			if (!r->delta[k])
				continue;
			if (!shown++)
				fprintf(fp,
					"interrupts on the measured CPUs during the run (%.1f s):\n",
					d->seconds);
			fprintf(fp, "  cpu%-4d %-8s %-7s %-30.30s %10llu", d->cpus[k],
				audit_row_kind_name(r->kind), r->key, r->name[0] ? r->name : "-",
				(unsigned long long)r->delta[k]);
			if (d->seconds > 0)
				fprintf(fp, " %10.1f/s", r->delta[k] / d->seconds);
			fputc('\n', fp);
		}
	}
	if (!shown)
		fprintf(fp,
			"no interrupt or softirq on the measured CPUs during the run (%.1f s)\n",
			d->seconds);
	for (size_t i = 0; i < d->nchanges; i++) {
		const struct audit_aff_change *c = &d->changes[i];

		if (!i)
			fprintf(fp, "IRQ affinity changed during the run:\n");
		fprintf(fp, "  IRQ %d %s: effective %s -> %s%s\n", c->irq,
			c->name[0] ? c->name : "", audit_fmt_set(&c->before, a, sizeof(a)),
			audit_fmt_set(&c->after, b, sizeof(b)),
			c->touches ? " (a measured CPU)" : "");
	}
}
