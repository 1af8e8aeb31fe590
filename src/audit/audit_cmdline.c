// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_cmdline.c - the kernel command line: its reader, and the isolation set at boot. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_cpus.h"
#include "js_util.h"

#define RCU_PATIENCE_MS 1000 /* what tuned's network-latency profile sets */

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

/* audit_cmdline_get - value of key= on the command line (the last one wins) */
bool audit_cmdline_get(const struct js_audit *a, const char *key, char *val, size_t len)
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
		found = true; /* keep going: the last one wins */
	}
	return found;
}

/* audit_cmdline_get_all - every value of key (e.g. several console=), up to max; count */
size_t audit_cmdline_get_all(const struct js_audit *a, const char *key, char (*vals)[64],
			     size_t max)
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

/* audit_cmdline_has - the command line has word (bare, or as key=) */
bool audit_cmdline_has(const struct js_audit *a, const char *word)
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

/* audit_cmdline_load - /proc/cmdline up to a "--" into a->f.cmdline, the rest (init's) into
 * a->f.cmdline_init */
void audit_cmdline_load(struct js_audit *a)
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
			js_scpy(a->f.cmdline_init, sizeof(a->f.cmdline_init),
				p + 2 + strspn(p + 2, " \t"));
			for (size_t n = strlen(a->f.cmdline_init);
			     n && isspace((unsigned char)a->f.cmdline_init[n - 1]); n--)
				a->f.cmdline_init[n - 1] = '\0';
			*p = '\0';
			break;
		}
	}
}

/* audit_cmdline_skip - skip c when /proc/cmdline was unreadable; true if skipped */
bool audit_cmdline_skip(const struct js_audit *a, struct audit_check *c)
{
	if (!a->f.cmdline_err)
		return false;
	audit_ck_skip_err(c, "/proc/cmdline", a->f.cmdline_err);
	return true;
}

/* last_possible_cpu - highest CPU in /sys/devices/system/cpu/possible (for "N"), or -1 */
static int last_possible_cpu(void)
{
	struct js_cpuset s;
	int last = -1;

	if (sysfs_read_cpulist("/sys/devices/system/cpu/possible", &s))
		return -1;
	for (int c = cpuset_next(&s, 0); c >= 0; c = cpuset_next(&s, c + 1))
		last = c;
	return last;
}

/*
 * audit_parse_isolcpus - "isolcpus=[flag,]...list" like the kernel's housekeeping setup:
 * leading alphabetic words followed by ',' are flags; no flag means "domain".
 */
int audit_parse_isolcpus(const char *val, struct js_cpuset *set, int *flags, int last)
{
	const char *p = val;

	*flags = 0;
	while (isalpha((unsigned char)*p)) {
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ");

		if (p[n] != ',')
			break; /* "N" as a CPU, or junk: let the list parser decide */
		if (n == 4 && !strncmp(p, "nohz", 4))
			*flags |= AUDIT_ISOL_NOHZ;
		else if (n == 6 && !strncmp(p, "domain", 6))
			*flags |= AUDIT_ISOL_DOMAIN;
		else if (n == 11 && !strncmp(p, "managed_irq", 11))
			*flags |= AUDIT_ISOL_MANAGED_IRQ;
		p += n + 1;
	}
	if (!*flags)
		*flags = AUDIT_ISOL_DOMAIN;
	return cpulist_parse_n(p, set, last, false, NULL, 0);
}

/* isolated_sets - effective domain isolation: sysfs "isolated" + cgroup v2 partitions
 * (cpus_partition(): wherever cgroup v2 is mounted) */
static int isolated_sets(struct js_audit *a, char *src, size_t srclen)
{
	char cg[SYSFS_PATH_MAX];
	struct js_cpuset s;
	int ret = sysfs_read_cpulist("/sys/devices/system/cpu/isolated", &a->f.isolated);

	js_scpy(src, srclen, "/proc/cmdline, /sys/devices/system/cpu/isolated");
	if (!cpus_partition(&s, cg, sizeof(cg))) {
		cpuset_or(&a->f.isolated, &s);
		js_scpy(src + strlen(src), srclen - strlen(src), ", ");
		js_scpy(src + strlen(src), srclen - strlen(src), cg);
		ret = 0;
	}
	return ret;
}

/* audit_tuned_cores - isolated_cores= of a tuned variables file (the isolation tuned sets up) */
bool audit_tuned_cores(const char *profile, struct js_cpuset *s)
{
	char p[128], *text = NULL, *l;
	bool ok = false;

	audit_spath(p, sizeof(p), "/etc/tuned/%s-variables.conf", profile);
	if (sysfs_read_file(p, &text, NULL))
		return false;
	for (l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		l += strspn(l, " \t");
		if (!strncmp(l, "isolated_cores", 14) && strchr(l, '=')) {
			ok = !cpulist_parse_n(strchr(l, '=') + 1, s, -1, false, NULL, 0);
			break;
		}
	}
	free(text);
	return ok;
}

/* tuned_partitioned - tuned's active profile is cpu-partitioning and its isolated_cores
 * hold cpu */
static bool tuned_partitioned(int cpu)
{
	struct js_cpuset cores;
	char prof[128];

	if (sysfs_read_str("/etc/tuned/active_profile", prof, sizeof(prof)) ||
	    !strstr(prof, "cpu-partitioning"))
		return false;
	return audit_tuned_cores("cpu-partitioning", &cores) && cpuset_isset(&cores, cpu);
}

static void check_isolcpus(struct js_audit *a, int last)
{
	struct js_cpuset cmd;
	char val[512] = "", src[128], buf[128], want[64], why[192];
	int flags = 0, perr = 0, ret;
	bool has = audit_cmdline_get(a, "isolcpus", val, sizeof(val));

	cpuset_zero(&cmd);
	if (has)
		perr = audit_parse_isolcpus(val, &cmd, &flags, last);
	ret = isolated_sets(a, src, sizeof(src));
	if (ret && has && !perr && (flags & AUDIT_ISOL_DOMAIN)) {
		a->f.isolated = cmd; /* no sysfs view: trust the command line */
		ret = 0;
	}
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i];
		struct audit_check *c = audit_add(a, "isolcpus", cpu, SEV_HIGH, src);

		audit_ck_exp(c,
			     "CPU %d isolated from the scheduler (isolcpus= or an isolated cpuset)",
			     cpu);
		if (ret && (!has || perr)) {
			audit_ck_skip_err(c, "/sys/devices/system/cpu/isolated", ret);
			if (has)
				audit_ck_obs_append(c, "isolcpus=%s is not a valid CPU list", val);
			continue;
		}
		a->cpu[i].isolated = cpuset_isset(&a->f.isolated, cpu);
		audit_ck_obs(
			c, "%s (isolated: %s; %s%s)",
			a->cpu[i].isolated ? "isolated" : "not isolated",
			audit_fmt_set(&a->f.isolated, buf, sizeof(buf)),
			has ? "isolcpus=" : "no isolcpus=", has ? val : " on the command line");
		snprintf(want, sizeof(want), "isolcpus=managed_irq,domain,%d", cpu);
		snprintf(why, sizeof(why),
			 "the kernel did not isolate CPU %d: one without CONFIG_CPU_ISOLATION "
			 "ignores it, and it keeps the boot CPU when the list leaves no other "
			 "(dmesg | grep -i -e housekeeping -e isol)",
			 cpu);
		if (!a->cpu[i].isolated && tuned_partitioned(cpu)) {
			/* cpu-partitioning's design: affinity (systemd, irqbalance) and nohz_full,
			 * no isolcpus; the tasks.*, irq.* and nohz_full checks judge that */
			c->severity = SEV_LOW;
			audit_ck_obs_append(c, "tuned cpu-partitioning isolates it by affinity "
					       "(isolated_cores), not isolcpus");
			audit_ck_deviate(c);
			if (audit_param_in_force(a, want))
				audit_ck_hint(c, "as the profile intends; %s is set, but %s", want,
					      why);
			else
				audit_ck_hint(c,
					      "as the profile intends; for scheduler-domain "
					      "isolation too add %s to the boot command line",
					      want);
		} else if (!a->cpu[i].isolated) {
			audit_ck_deviate(c);
			audit_ck_hint_boot(c, a, want, " (or use an isolated cpuset partition)",
					   why);
		}
	}
}

static void check_isolcpus_flags(struct js_audit *a, int last)
{
	struct audit_check *c = audit_add(a, "isolcpus.flags", -1, SEV_MED, "/proc/cmdline");
	struct js_cpuset set;
	char val[512], list[128];
	int flags;

	audit_ck_exp(c, "flags domain and managed_irq (isolcpus=managed_irq,domain,<cpus>)");
	if (audit_cmdline_skip(a, c))
		return;
	if (!audit_cmdline_get(a, "isolcpus", val, sizeof(val))) {
		audit_ck_skip(c, "no isolcpus= on the command line", "see the isolcpus check");
		return;
	}
	if (audit_parse_isolcpus(val, &set, &flags, last)) {
		audit_ck_skip(c, "isolcpus= value is not a valid CPU list",
			      "fix isolcpus= on the command line");
		audit_ck_obs_append(c, "isolcpus=%s", val);
		return;
	}
	audit_ck_obs(c, "isolcpus=%s: flags%s%s%s", val, flags & AUDIT_ISOL_DOMAIN ? " domain" : "",
		     flags & AUDIT_ISOL_NOHZ ? " nohz" : "",
		     flags & AUDIT_ISOL_MANAGED_IRQ ? " managed_irq" : "");
	for (size_t i = 0; i < a->ncpus; i++)
		cpuset_set(&set, a->cpus[i]);
	cpulist_format(&set, list, sizeof(list));
	if (!(flags & AUDIT_ISOL_MANAGED_IRQ)) {
		/* conditional: only hardware with managed (multi-queue) IRQs is affected */
		c->verdict = AUDIT_WARN;
		audit_ck_hint(
			c,
			"add managed_irq: isolcpus=managed_irq,domain,%s keeps managed IRQs away",
			list);
	}
	if (!(flags & AUDIT_ISOL_DOMAIN)) {
		audit_ck_obs_append(
			c, "no domain flag: the scheduler may still balance tasks onto these CPUs");
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"isolcpus= with explicit flags must list domain: isolcpus=managed_irq,domain,%s",
			list);
	}
}

static void check_nohz_full(struct js_audit *a)
{
	const char *path = "/sys/devices/system/cpu/nohz_full";
	char val[512] = "", buf[128], want[32];
	bool has = audit_cmdline_get(a, "nohz_full", val, sizeof(val));
	int ret = sysfs_read_cpulist(path, &a->f.nohz_full);

	if (ret == -ENOENT) {
		cpuset_zero(&a->f.nohz_full);
		a->f.nohz_full_capable = 0;
	} else if (ret) {
		cpuset_zero(&a->f.nohz_full);
		a->f.nohz_full_err = ret;
	}
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i];
		struct audit_check *c = audit_add(a, "nohz_full", cpu, SEV_HIGH, path);

		audit_ck_exp(c, "CPU %d in nohz_full (no periodic tick while one task runs)", cpu);
		if (ret == -ENOENT && !sysfs_exists("/sys/devices/system/cpu/online")) {
			audit_ck_skip(c, "no /sys/devices/system/cpu in this tree", "");
			continue;
		}
		snprintf(want, sizeof(want), "nohz_full=%d", cpu);
		if (ret == -ENOENT) {
			audit_ck_obs(c, "not in nohz_full (kernel built without NO_HZ_FULL: no %s)",
				     path);
			audit_ck_deviate(c);
			if (audit_param_in_force(a, want))
				audit_ck_hint(c,
					      "use a kernel with CONFIG_NO_HZ_FULL=y: this one "
					      "ignores the %s that is set",
					      want);
			else
				audit_ck_hint(c,
					      "use a kernel with CONFIG_NO_HZ_FULL=y and boot with "
					      "%s",
					      want);
			continue;
		}
		if (ret) {
			audit_ck_skip_err(c, path, ret);
			continue;
		}
		a->cpu[i].nohz_full = cpuset_isset(&a->f.nohz_full, cpu);
		audit_ck_obs(c, "%s (nohz_full: %s%s%s)",
			     a->cpu[i].nohz_full ? "in nohz_full" : "not in nohz_full",
			     audit_fmt_set(&a->f.nohz_full, buf, sizeof(buf)),
			     has ? "; cmdline nohz_full=" : "", has ? val : "");
		if (!a->cpu[i].nohz_full) {
			audit_ck_deviate(c);
			audit_ck_hint_boot(
				c, a, want, " (needs a reliable TSC and one runnable task)",
				"the kernel left the CPU out: it keeps the boot CPU when "
				"the list leaves no other, and refuses a list unlike "
				"isolcpus=nohz's (dmesg | grep -i housekeeping)");
		}
	}
}

/* rcu_offloaded - CPUs whose callbacks are offloaded: rcu_nocbs= + nohz_full + rcuo[ps]/N */
static void rcu_offloaded(struct js_audit *a, const struct audit_tasks *ts, int last, bool *bare,
			  char *bad, size_t badlen)
{
	char val[512];

	cpuset_zero(&a->f.rcu_nocbs);
	*bare = false;
	bad[0] = '\0';
	if (audit_cmdline_get(a, "rcu_nocbs", val, sizeof(val))) {
		if (cpulist_parse_n(val, &a->f.rcu_nocbs, last, false, NULL, 0))
			snprintf(bad, badlen, "rcu_nocbs=%s is not a CPU list", val);
	} else if (audit_cmdline_has(a, "rcu_nocbs"))
		*bare = true;
	if (a->f.rcu_nocb_capable != 0)
		cpuset_or(&a->f.rcu_nocbs, &a->f.nohz_full);
	for (size_t i = 0; i < ts->n; i++) {
		const char *cm = ts->t[i].comm;

		if (ts->t[i].kthread && (!strncmp(cm, "rcuop/", 6) || !strncmp(cm, "rcuos/", 6)))
			cpuset_set(&a->f.rcu_nocbs, audit_lead_int(cm + 6));
	}
}

/* hint_rcu_nocbs - CPU cpu is not offloaded: rcu_nocbs=, or nohz_full= that implies it,
 * unless one of them is set already; then what else explains it */
static void hint_rcu_nocbs(const struct js_audit *a, struct audit_check *c, int cpu)
{
	char rcu[32], nohz[32];
	bool set;

	snprintf(rcu, sizeof(rcu), "rcu_nocbs=%d", cpu);
	snprintf(nohz, sizeof(nohz), "nohz_full=%d", cpu);
	set = audit_param_in_force(a, rcu) || audit_param_in_force(a, nohz);
	if (a->f.rcu_nocb_capable == 0)
		audit_ck_hint(c, "use a kernel with CONFIG_RCU_NOCB_CPU=y%s%s",
			      set ? ": this one ignores what is set" : " and boot with ",
			      set ? "" : rcu);
	else if (set)
		audit_ck_hint(c,
			      "%s is set, yet no rcuo kthread serves CPU %d: the kernel did not "
			      "offload it (dmesg | grep -i rcu)",
			      audit_param_in_force(a, rcu) ? rcu : nohz, cpu);
	else
		audit_ck_hint(c, "boot with %s (implied by %s)", rcu, nohz);
}

static void check_rcu_nocbs(struct js_audit *a, const struct audit_tasks *ts, int last)
{
	char buf[128], why[600];
	bool bare;

	rcu_offloaded(a, ts, last, &bare, why, sizeof(why));
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i], bad = -1;
		struct audit_check *c =
			audit_add(a, "rcu_nocbs", cpu, SEV_MED,
				  "/proc/cmdline rcu_nocbs=, rcuo* kthreads' Cpus_allowed_list");

		audit_ck_exp(c, "CPU %d offloaded, no rcuo* kthread allowed on it", cpu);
		a->cpu[i].rcu_nocb = cpuset_isset(&a->f.rcu_nocbs, cpu);
		if (!a->cpu[i].rcu_nocb && (why[0] || a->f.nohz_full_err || a->f.cmdline_err)) {
			audit_ck_skip(
				c,
				why[0] ? why :
					 "cannot tell: the command line or nohz_full is unreadable",
				"fix the command line / nohz_full file");
			continue;
		}
		for (size_t k = 0; k < ts->n && bad < 0; k++)
			if (ts->t[k].kthread && !strncmp(ts->t[k].comm, "rcuo", 4) &&
			    ts->t[k].allowed_ok && cpuset_isset(&ts->t[k].allowed, cpu))
				bad = (int)k;
		audit_ck_obs(c, "%s (offloaded: %s%s)",
			     a->cpu[i].rcu_nocb ? "offloaded" : "not offloaded",
			     audit_fmt_set(&a->f.rcu_nocbs, buf, sizeof(buf)),
			     bare ? "; bare rcu_nocbs: none offloaded at boot" : "");
		if (!a->cpu[i].rcu_nocb) {
			audit_ck_deviate(c);
			if (a->f.rcu_nocb_capable == 0)
				audit_ck_obs_append(c, "kernel built without CONFIG_RCU_NOCB_CPU");
			hint_rcu_nocbs(a, c, cpu);
		} else if (bad >= 0) {
			audit_ck_obs_append(c, "%s (pid %d) allowed on %s", ts->t[bad].comm,
					    ts->t[bad].tid,
					    audit_fmt_set(&ts->t[bad].allowed, buf, sizeof(buf)));
			audit_ck_deviate(c);
			audit_ck_hint(
				c,
				"move the rcuo* kthreads to housekeeping CPUs (taskset -pc <cpus> <pid>)");
		}
	}
}

/* check_flag - a boolean boot option that should be present; rest follows "boot with OPT" */
static void check_flag(struct js_audit *a, const char *id, enum audit_severity sev,
		       const char *const *opts, size_t nopts, const char *rest)
{
	struct audit_check *c = audit_add(a, id, -1, sev, "/proc/cmdline");
	char v[64];

	audit_ck_exp(c, "%s", opts[0]);
	if (audit_cmdline_skip(a, c))
		return;
	for (size_t i = 0; i < nopts; i++) {
		const char *eq = strchr(opts[i], '=');
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - opts[i] : (long)strlen(opts[i])),
			 opts[i]);
		if (eq ? audit_cmdline_get(a, key, v, sizeof(v)) && !strcmp(v, eq + 1) :
			 audit_cmdline_has(a, key)) {
			audit_ck_obs(c, "%s", opts[i]);
			return;
		}
	}
	audit_ck_obs(c, "not on the command line");
	audit_ck_deviate(c);
	audit_ck_hint_boot(c, a, opts[0], rest, NULL);
}

static void check_console(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "console", -1, SEV_LOW, "/proc/cmdline console=");
	char vals[8][64], lvl[16];
	size_t n = audit_cmdline_get_all(a, "console", vals, 8);
	bool serial = false, quiet = audit_cmdline_has(a, "quiet");

	audit_ck_exp(c, "no serial console, or quiet / loglevel <= 4");
	if (audit_cmdline_skip(a, c))
		return;
	if (audit_cmdline_get(a, "loglevel", lvl, sizeof(lvl)) && audit_lead_int(lvl) >= 0 &&
	    audit_lead_int(lvl) <= 4)
		quiet = true;
	for (size_t i = 0; i < n; i++) {
		serial |= !strncmp(vals[i], "ttyS", 4) || !strncmp(vals[i], "ttyAMA", 6) ||
			  !strncmp(vals[i], "ttyUSB", 6);
		audit_ck_obs_append(c, "console=%s", vals[i]);
	}
	if (!n)
		audit_ck_obs(c, "no console= (default)");
	if (quiet)
		audit_ck_obs_append(c, "quiet");
	if (serial && !quiet) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"add quiet (or loglevel=3): serial printk runs with IRQs off on the printing CPU");
	}
}

/*
 * check_rcu_patience - how long RCU lets a nohz_full CPU that runs in the kernel (a system
 * call, a fault) hold up a grace period before it disturbs it: rcutree.nohz_full_patience_delay
 * (6.10+, boot only; tuned's network-latency sets 1000 ms)
 */
static void check_rcu_patience(struct js_audit *a)
{
	const char *path = "/sys/module/rcutree/parameters/nohz_full_patience_delay";
	struct audit_check *c = audit_add(a, "rcu.nohz_full_patience", -1, SEV_LOW, path);
	bool nohz = false;
	int64_t ms;
	int ret = sysfs_read_s64(path, &ms);

	audit_ck_exp(c, ">= %d ms (rcutree.nohz_full_patience_delay=%d)", RCU_PATIENCE_MS,
		     RCU_PATIENCE_MS);
	if (ret == -ENOENT) {
		audit_ck_skip(c, "no such parameter (a kernel before 6.10)", "");
		return;
	}
	if (ret) {
		audit_ck_skip_err(c, path, ret);
		return;
	}
	for (size_t i = 0; i < a->ncpus; i++)
		nohz |= a->cpu[i].nohz_full;
	audit_ck_obs(c, "%lld ms", (long long)ms);
	if (!nohz)
		audit_ck_obs_append(c, "no measured CPU in nohz_full: no effect yet");
	if (ms < RCU_PATIENCE_MS) {
		char want[64], why[96];

		snprintf(want, sizeof(want), "rcutree.nohz_full_patience_delay=%d",
			 RCU_PATIENCE_MS);
		snprintf(why, sizeof(why), "yet it reads %lld ms: this kernel clamps or ignores it",
			 (long long)ms);
		audit_ck_deviate(c);
		audit_ck_hint_boot(c, a, want,
				   ": else RCU soon IPIs a nohz_full CPU that stays in the kernel",
				   why);
	}
}

/* audit_checks_cmdline - isolation set at boot: isolcpus, nohz_full, rcu_nocbs, flags, console */
void audit_checks_cmdline(struct js_audit *a, const struct audit_tasks *ts)
{
	static const char *const poll[] = { "rcu_nocb_poll" };
	static const char *const normal[] = { "rcupdate.rcu_normal_after_boot=1",
					      "rcupdate.rcu_normal=1" };
	static const char *const skew[] = { "skew_tick=1" };
	int last = last_possible_cpu();

	check_isolcpus(a, last);
	check_isolcpus_flags(a, last);
	check_nohz_full(a);
	check_rcu_nocbs(a, ts, last);
	check_flag(a, "rcu_nocb_poll", SEV_LOW, poll, 1,
		   " so offloaded CPUs need not wake the rcuog kthreads");
	if (!strcmp(a->f.preempt, "rt")) {
		struct audit_check *c =
			audit_add(a, "rcu.normal_after_boot", -1, SEV_LOW, "/proc/cmdline");

		audit_ck_exp(c, "rcupdate.rcu_normal_after_boot=1");
		audit_ck_obs(c, "PREEMPT_RT: normal grace periods after boot by default");
	} else {
		check_flag(a, "rcu.normal_after_boot", SEV_LOW, normal, 2,
			   ": expedited grace periods IPI every CPU");
	}
	check_rcu_patience(a);
	check_flag(a, "skew_tick", SEV_LOW, skew, 1,
		   " so the CPUs' ticks do not contend on the jiffies lock");
	check_console(a);
}
