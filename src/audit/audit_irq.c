// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_irq.c - /proc/interrupts parsing, IRQ affinity and irqbalance checks. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

/* header_cols - column index -> CPU number from the "CPU0 CPU1 ..." header; count */
static int header_cols(const char *line, int *cols, int max)
{
	int n = 0;

	for (const char *p = line; (p = strstr(p, "CPU")) && n < max; p += 3) {
		int cpu = audit_lead_int(p + 3);

		if (cpu < 0)
			return -1;
		cols[n++] = cpu;
	}
	return n;
}

/* row_name - the handler name(s) of an IRQ row's description "CHIP HWIRQ-TYPE NAME..." */
static void row_name(const char *desc, char *name, size_t len)
{
	const char *p = desc, *after = NULL, *first_end = NULL;

	while (*p) {
		const char *b = p + strspn(p, " \t"), *e = b + strcspn(b, " \t");

		if (b == e)
			break;
		if (!first_end)
			first_end = e;
		if (!after && (memmem(b, e - b, "edge", 4) || memmem(b, e - b, "level", 5) ||
			       memmem(b, e - b, "fasteoi", 7)))
			after = e;
		p = e;
	}
	if (!after)
		after = first_end ? first_end : desc;
	after += strspn(after, " \t");
	js_scpy(name, len, after);
}

/* parse_row - one "KEY: n n n DESC" line into r; false if it has no per-CPU values */
static bool parse_row(const char *line, const int *colidx, int ncols, size_t ncpus,
		      enum audit_row_kind dflt, struct audit_row *r, uint64_t *vals)
{
	const char *p = line + strspn(line, " \t"), *colon = strchr(p, ':');
	char *end;

	if (!colon || colon == p || colon - p >= (long)sizeof(r->key))
		return false;
	snprintf(r->key, sizeof(r->key), "%.*s", (int)(colon - p), p);
	p = colon + 1;
	for (int k = 0; k < ncols; k++) {
		p += strspn(p, " \t");
		if (!isdigit((unsigned char)*p))
			return false; /* ERR:/MIS: have one value, not one per CPU */
		vals[k] = strtoull(p, &end, 10);
		p = end;
	}
	p += strspn(p, " \t");
	r->irq = -1;
	r->kind = dflt;
	if (r->key[strspn(r->key, "0123456789")] == '\0') {
		r->kind = AUDIT_ROW_IRQ;
		r->irq = audit_lead_int(r->key);
		row_name(p, r->name, sizeof(r->name));
	} else {
		js_scpy(r->name, sizeof(r->name), p);
	}
	for (size_t i = 0; i < ncpus; i++)
		r->count[i] = colidx[i] >= 0 ? vals[colidx[i]] : 0;
	return true;
}

/* count_lines - upper bound for the rows of text */
static size_t count_lines(const char *text)
{
	size_t n = 1;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

/* audit_parse_table - parse /proc/interrupts or /proc/softirqs into rows for the measured CPUs */
int audit_parse_table(const char *text, const int *cpus, size_t ncpus, enum audit_row_kind dflt,
		      struct audit_row **rows, size_t *nrows)
{
	size_t cap = count_lines(text), n = 0;
	int cols[JS_MAX_CPUS], *colidx = calloc(ncpus ? ncpus : 1, sizeof(int)), ncols, ret = 0;
	uint64_t *vals = calloc(JS_MAX_CPUS, sizeof(uint64_t));
	struct audit_row *r = calloc(cap, sizeof(*r));
	const char *line = text, *nl = strchr(text, '\n');
	char hdr[JS_MAX_CPUS * 12];

	*rows = NULL;
	*nrows = 0;
	if (!colidx || !vals || !r) {
		ret = -ENOMEM;
		goto out;
	}
	snprintf(hdr, sizeof(hdr), "%.*s", (int)(nl ? nl - line : (long)strlen(line)), line);
	ncols = header_cols(hdr, cols, JS_MAX_CPUS);
	if (ncols <= 0 || !nl) {
		ret = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < ncpus; i++) {
		colidx[i] = -1;
		for (int k = 0; k < ncols; k++)
			if (cols[k] == cpus[i])
				colidx[i] = k;
	}
	for (line = nl + 1; *line; line = nl ? nl + 1 : line + strlen(line)) {
		char buf[1024];

		nl = strchr(line, '\n');
		snprintf(buf, sizeof(buf), "%.*s", (int)(nl ? nl - line : (long)strlen(line)),
			 line);
		r[n].count = calloc(ncpus ? ncpus : 1, sizeof(uint64_t));
		if (!r[n].count) {
			ret = -ENOMEM;
			goto out;
		}
		if (parse_row(buf, colidx, ncols, ncpus, dflt, &r[n], vals))
			n++;
		else
			free(r[n].count);
		r[n].count = NULL;
		if (!nl)
			break;
	}
	*rows = r;
	*nrows = n;
	r = NULL;
out:
	if (r)
		audit_rows_free(r, n);
	free(colidx);
	free(vals);
	return ret;
}

/* audit_rows_free - free rows from audit_parse_table */
void audit_rows_free(struct audit_row *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++)
		free(rows[i].count);
	free(rows);
}

/* load_one_irq - affinity and name of /proc/irq/N; false if it has no handler */
static bool load_one_irq(struct audit_irq *q, int irq, const struct audit_row *row)
{
	char p[96];

	memset(q, 0, sizeof(*q));
	q->irq = irq;
	if (sysfs_read_str(audit_spath(p, sizeof(p), "/sys/kernel/irq/%d/actions", irq), q->name,
			   sizeof(q->name)) ||
	    !q->name[0]) {
		if (row)
			js_scpy(q->name, sizeof(q->name), row->name);
	}
	if (!q->name[0])
		return false;
	sysfs_read_cpulist(audit_spath(p, sizeof(p), "/proc/irq/%d/smp_affinity_list", irq),
			   &q->requested);
	q->has_effective = !sysfs_read_cpulist(
		audit_spath(p, sizeof(p), "/proc/irq/%d/effective_affinity_list", irq),
		&q->effective);
	if (!q->has_effective)
		q->effective = q->requested;
	return true;
}

/* load_irqs - every device IRQ with a handler, with per-measured-CPU counts */
static int load_irqs(struct js_audit *a)
{
	struct audit_row *rows = NULL;
	size_t nrows = 0;
	struct sysfs_dir d;
	char *text = NULL;
	int ret;

	if (!sysfs_read_file("/proc/interrupts", &text, NULL))
		audit_parse_table(text, a->cpus, a->ncpus, AUDIT_ROW_ARCH, &rows, &nrows);
	free(text);
	ret = sysfs_list_dir("/proc/irq", &d);
	if (ret)
		goto out;
	a->irqs = calloc(d.n ? d.n : 1, sizeof(*a->irqs));
	if (!a->irqs) {
		ret = -ENOMEM;
		goto out_dir;
	}
	for (size_t i = 0; i < d.n; i++) {
		int irq = audit_lead_int(d.names[i]);
		const struct audit_row *row = NULL;
		struct audit_irq *q = &a->irqs[a->nirqs];

		if (irq < 0 || d.names[i][strspn(d.names[i], "0123456789")])
			continue;
		for (size_t k = 0; k < nrows && !row; k++)
			if (rows[k].irq == irq)
				row = &rows[k];
		if (!load_one_irq(q, irq, row))
			continue;
		q->count = calloc(a->ncpus, sizeof(uint64_t));
		if (!q->count) {
			ret = -ENOMEM;
			goto out_dir;
		}
		if (row)
			memcpy(q->count, row->count, a->ncpus * sizeof(uint64_t));
		a->nirqs++;
	}
out_dir:
	sysfs_dir_free(&d);
out:
	audit_rows_free(rows, nrows);
	return ret;
}

static void check_default_affinity(struct js_audit *a)
{
	const char *path = "/proc/irq/default_smp_affinity";
	int ret = sysfs_read_cpumask(path, &a->f.default_irq_affinity);
	char cl[128], buf[64], hk[64];
	bool has = audit_cmdline_get(a, "irqaffinity", cl, sizeof(cl));

	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i];
		struct audit_check *c = audit_add(a, "irqaffinity", cpu, SEV_MED, path);

		audit_ck_exp(c, "default IRQ affinity without CPU %d", cpu);
		if (ret) {
			audit_ck_skip_err(c, path, ret);
			continue;
		}
		a->cpu[i].in_default_irq_affinity = cpuset_isset(&a->f.default_irq_affinity, cpu);
		audit_ck_obs(c, "default_smp_affinity %s%s%s",
			     audit_fmt_set(&a->f.default_irq_affinity, buf, sizeof(buf)),
			     has ? "; cmdline irqaffinity=" :
				   "; no irqaffinity= on the command line",
			     has ? cl : "");
		if (a->cpu[i].in_default_irq_affinity) {
			struct js_cpuset hks;
			char want[96], rest[64], why[160], mask[64] = "MASK";

			audit_housekeeping(a, hk, sizeof(hk));
			if (!cpulist_parse(hk, &hks, NULL, 0))
				cpumask_format(&hks, 0, mask, sizeof(mask));
			snprintf(want, sizeof(want), "irqaffinity=%s", hk);
			snprintf(rest, sizeof(rest), " (new IRQs otherwise may land on CPU %d)",
				 cpu);
			snprintf(why, sizeof(why),
				 "the default was widened since boot: echo %s > "
				 "/proc/irq/default_smp_affinity",
				 mask);
			audit_ck_deviate(c);
			audit_ck_hint_boot(c, a, want, rest, why);
		}
	}
}

/* guest_fixed - in a guest, a virtio IRQ whose requested affinity holds measured CPUs only:
 * a managed queue vector (virtio-blk/-net multiqueue) that the guest cannot move */
static bool guest_fixed(const struct js_audit *a, const struct audit_irq *q)
{
	struct js_cpuset rest = q->requested;

	if (!a->f.hypervisor || strncmp(q->name, "virtio", 6) || cpuset_empty(&rest))
		return false;
	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_clear(&rest, a->cpus[i]);
	return cpuset_empty(&rest);
}

/* irq_severity - an IRQ on the measured CPU i: high when it fired there, else med; info for
 * a guest's kernel-managed queue vector, which no guest setting moves */
static enum audit_severity irq_severity(const struct js_audit *a, size_t i,
					const struct audit_irq *q)
{
	if (guest_fixed(a, q))
		return SEV_INFO;
	return q->count[i] ? SEV_HIGH : SEV_MED;
}

/* check_irq_one - one device IRQ whose effective affinity includes a measured CPU */
static void check_irq_one(struct js_audit *a, size_t i, const struct audit_irq *q)
{
	int cpu = a->cpus[i];
	char id[AUDIT_ID_LEN], p[64], e[64], r[64], hk[64], managed[64], why[160];
	struct audit_check *c;

	snprintf(id, sizeof(id), "irq.%d", q->irq);
	audit_spath(p, sizeof(p), "/proc/irq/%d/%s", q->irq,
		    q->has_effective ? "effective_affinity_list" : "smp_affinity_list");
	c = audit_add(a, id, cpu, irq_severity(a, i, q), p);
	audit_ck_exp(c, "effective affinity without CPU %d", cpu);
	audit_ck_obs(c, "%s: effective %s, requested %s, %llu interrupts on CPU %d so far", q->name,
		     audit_fmt_set(&q->effective, e, sizeof(e)),
		     audit_fmt_set(&q->requested, r, sizeof(r)), (unsigned long long)q->count[i],
		     cpu);
	if (!q->has_effective)
		audit_ck_obs_append(c, "no effective_affinity_list: requested affinity shown");
	if (guest_fixed(a, q)) {
		/* a per-queue vector of a virtio device, managed by the kernel for this vCPU
		 * alone: no affinity write and no isolcpus flag moves it */
		audit_ck_deviate(c);
		audit_ck_hint(c,
			      "guest: a kernel-managed virtio queue vector of this vCPU, no guest "
			      "setting moves it; on the host give the device fewer queues "
			      "(QEMU num-queues=/queues=) or pin the vCPU's host thread");
		return;
	}
	audit_ck_deviate(c);
	audit_housekeeping(a, hk, sizeof(hk));
	audit_spath(p, sizeof(p), "/proc/irq/%d/smp_affinity_list", q->irq);
	snprintf(managed, sizeof(managed), "isolcpus=managed_irq,domain,%d", cpu);
	if (audit_param_in_force(a, managed))
		snprintf(
			why, sizeof(why),
			"it is kernel-managed; the managed_irq isolation that is set moves it only "
			"when its queue's mask holds a housekeeping CPU too: fewer device queues "
			"help");
	else
		snprintf(why, sizeof(why), "it is kernel-managed: boot with %s", managed);
	if (audit_value_in_force(p, AUDIT_V_LIST, hk))
		audit_ck_hint(c, "smp_affinity_list is %s already, yet it stays on CPU %d: %s", hk,
			      cpu, why);
	else
		audit_ck_hint(c, "echo %s > %s (if that fails with EIO, %s)", hk, p, why);
}

/* irqbalance_banned - banned CPUs from /etc/default/irqbalance or /etc/sysconfig/irqbalance */
static bool irqbalance_banned(struct js_cpuset *s, char *src, size_t len)
{
	static const char *const files[] = { "/etc/default/irqbalance",
					     "/etc/sysconfig/irqbalance" };
	bool found = false;

	cpuset_zero(s);
	for (size_t f = 0; f < 2 && !found; f++) {
		char *text = NULL, *save = NULL;

		if (sysfs_read_file(files[f], &text, NULL))
			continue;
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char v[512];
			bool list = !strncmp(l, "IRQBALANCE_BANNED_CPULIST=", 26);
			bool mask = !strncmp(l, "IRQBALANCE_BANNED_CPUS=", 23);

			if (!list && !mask)
				continue;
			snprintf(v, sizeof(v), "%s", strchr(l, '=') + 1);
			for (char *q; (q = strchr(v, '"')) || (q = strchr(v, '\''));)
				memmove(q, q + 1, strlen(q));
			if (list ? !cpulist_parse_n(v, s, -1, false, NULL, 0) :
				   !cpumask_parse(v, s, NULL, 0)) {
				snprintf(src, len, "%s %.*s", files[f], (int)(strchr(l, '=') - l),
					 l);
				found = true;
			}
		}
		free(text);
	}
	return found;
}

/* irqbalance_moves - irqbalance runs and may put IRQs on the measured CPU i: not banned,
 * and neither isolated nor nohz_full (irqbalance >= 1.8 skips those by itself) */
static bool irqbalance_moves(const struct js_audit *a, size_t i, const struct js_cpuset *banned)
{
	return a->f.irqbalance_running && !(banned && cpuset_isset(banned, a->cpus[i])) &&
	       !a->cpu[i].isolated && !a->cpu[i].nohz_full;
}

/*
 * check_irq_affinity - every device IRQ on a measured CPU: one irq.N line each, and a
 * summary as severe as the worst of them (a guest's kernel-managed queue vectors alone:
 * info), whose hint names irqbalance only when it runs there
 */
static void check_irq_affinity(struct js_audit *a, int ret, const struct js_cpuset *banned)
{
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i];
		struct audit_check *c = audit_add(a, "irq.affinity", cpu, SEV_HIGH,
						  "/proc/irq/*/effective_affinity_list");
		enum audit_severity worst = SEV_INFO;
		size_t pos = 0;

		audit_ck_exp(c, "no device IRQ with effective affinity on CPU %d", cpu);
		if (ret) {
			audit_ck_skip_err(c, "/proc/irq", ret);
			continue;
		}
		for (size_t k = 0; k < a->nirqs; k++) {
			const struct audit_irq *q = &a->irqs[k];

			if (!cpuset_isset(&q->effective, cpu))
				continue;
			a->cpu[i].nirqs++;
			worst = JS_MAX(worst, irq_severity(a, i, q));
			if (pos < sizeof(c->observed) - 1)
				pos += snprintf(c->observed + pos, sizeof(c->observed) - pos,
						"%s%d %s", pos ? ", " : ": ", q->irq, q->name);
		}
		if (!a->cpu[i].nirqs) {
			audit_ck_obs(c, "none of %zu device IRQs", a->nirqs);
			continue;
		}
		{
			char list[sizeof(c->observed)];

			js_scpy(list, sizeof(list), c->observed);
			audit_ck_obs(c, "%d of %zu device IRQs%s", a->cpu[i].nirqs, a->nirqs, list);
		}
		c->severity = worst;
		audit_ck_deviate(c);
		if (worst == SEV_INFO)
			audit_ck_hint(c, "guest: kernel-managed virtio queue vectors of this vCPU "
					 "(see the irq.N lines): no guest setting moves them");
		else if (irqbalance_moves(a, i, banned))
			audit_ck_hint(
				c,
				"move them to housekeeping CPUs (see the irq.N lines), and stop "
				"irqbalance or ban CPU %d",
				cpu);
		else
			audit_ck_hint(c, "move them to housekeeping CPUs (see the irq.N lines)");
		for (size_t k = 0; k < a->nirqs; k++)
			if (cpuset_isset(&a->irqs[k].effective, cpu))
				check_irq_one(a, i, &a->irqs[k]);
	}
}

static void check_irqbalance(struct js_audit *a, const struct audit_tasks *ts,
			     const struct js_cpuset *banned, const char *src)
{
	char buf[64];

	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i];
		struct audit_check *c = audit_add(a, "irqbalance", cpu, SEV_HIGH,
						  "/proc/*/comm, /etc/default/irqbalance");

		audit_ck_exp(c, "irqbalance stopped, or CPU %d banned", cpu);
		if (!ts->n) {
			if (ts->err)
				audit_ck_skip_err(c, "/proc", ts->err);
			else
				audit_ck_skip(c, "no readable task under /proc", "");
			continue;
		}
		if (!a->f.irqbalance_running) {
			audit_ck_obs(c, "not running");
			continue;
		}
		audit_ck_obs(c, "running");
		if (banned)
			audit_ck_obs_append(c, "banned CPUs %s (%s)",
					    audit_fmt_set(banned, buf, sizeof(buf)), src);
		if (banned && cpuset_isset(banned, cpu))
			continue;
		if (!irqbalance_moves(a, i, banned)) {
			audit_ck_obs_append(
				c, "CPU %d isolated: irqbalance >= 1.8 skips it by itself", cpu);
			continue;
		}
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"systemctl stop irqbalance, or IRQBALANCE_BANNED_CPULIST=%d in /etc/default/irqbalance",
			cpu);
	}
}

/* audit_checks_irq - default IRQ affinity, every IRQ on a measured CPU, irqbalance */
void audit_checks_irq(struct js_audit *a, const struct audit_tasks *ts)
{
	int ret = load_irqs(a);
	struct js_cpuset banned;
	char src[96] = "";
	bool has_ban = irqbalance_banned(&banned, src, sizeof(src));

	a->f.irqbalance_running = audit_tasks_find_comm(ts, "irqbalance", false) >= 0;
	check_default_affinity(a);
	check_irq_affinity(a, ret, has_ban ? &banned : NULL);
	check_irqbalance(a, ts, has_ban ? &banned : NULL, src);
}
