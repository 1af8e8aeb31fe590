// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_tasks.c - tasks and kernel threads allowed on the measured CPUs, workqueue masks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit_priv.h"
#include "js_util.h"

#define PF_KTHREAD 0x00200000UL

/* parse_stat - comm, flags (field 9) and last CPU (field 39) of a stat line */
static int parse_stat(const char *buf, struct audit_trec *t)
{
	const char *b = strchr(buf, '('), *e = strrchr(buf, ')'), *p;
	unsigned long long flags = 0;
	int field = 3;

	if (!b || !e || e < b)
		return -EINVAL;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(e - b - 1), b + 1);
	t->last_cpu = -1;
	for (p = e + 1; *p && field <= 39; field++) {
		char *end;

		while (*p == ' ')
			p++;
		if (field == 9)
			flags = strtoull(p, &end, 10);
		else if (field == 39)
			t->last_cpu = audit_lead_int(p);
		p += strcspn(p, " ");
	}
	if (field <= 9)
		return -EINVAL;
	t->kthread = flags & PF_KTHREAD;
	return 0;
}

/* parse_allowed - Cpus_allowed_list of a status file */
static void parse_allowed(const char *buf, struct audit_trec *t)
{
	const char *p = strstr(buf, "\nCpus_allowed_list:");
	char list[4096];

	t->allowed_ok = false;
	if (!p)
		return;
	p += strlen("\nCpus_allowed_list:");
	snprintf(list, sizeof(list), "%.*s", (int)strcspn(p, "\n"), p);
	t->allowed_ok = !cpulist_parse_n(list, &t->allowed, -1, false, NULL, 0);
}

static int tasks_push(struct audit_tasks *ts, const struct audit_trec *t)
{
	if (ts->n == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 256;
		struct audit_trec *nt = realloc(ts->t, cap * sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		ts->t = nt;
		ts->cap = cap;
	}
	ts->t[ts->n++] = *t;
	return 0;
}

/* scan_pid - every thread of one process (threads may exit meanwhile: ignored) */
static int scan_pid(struct audit_tasks *ts, int pid)
{
	char p[96], stat[1024], status[8192];
	struct sysfs_dir d;
	int ret;

	if (sysfs_list_dir(audit_spath(p, sizeof(p), "/proc/%d/task", pid), &d))
		return 0;
	for (size_t i = 0; i < d.n; i++) {
		struct audit_trec t = { .pid = pid, .tid = audit_lead_int(d.names[i]) };

		if (t.tid < 0)
			continue;
		audit_spath(p, sizeof(p), "/proc/%d/task/%d/stat", pid, t.tid);
		if (sysfs_read_buf(p, stat, sizeof(stat)) <= 0 || parse_stat(stat, &t))
			continue;
		audit_spath(p, sizeof(p), "/proc/%d/task/%d/status", pid, t.tid);
		if (sysfs_read_buf(p, status, sizeof(status)) > 0)
			parse_allowed(status, &t);
		ret = tasks_push(ts, &t);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	sysfs_dir_free(&d);
	return ret;
}

/* audit_scan_tasks - read every thread of /proc: comm, kthread flag, last CPU, allowed CPUs */
int audit_scan_tasks(struct audit_tasks *ts)
{
	int self = sysfs_is_live() ? getpid() : -1, ret;
	uint64_t t0 = js_mono_ns();
	struct sysfs_dir d;

	memset(ts, 0, sizeof(*ts));
	ret = sysfs_list_dir("/proc", &d);
	if (ret) {
		ts->err = ret;
		return ret;
	}
	for (size_t i = 0; i < d.n; i++) {
		int pid = audit_lead_int(d.names[i]);

		if (pid <= 0 || pid == self || d.names[i][strspn(d.names[i], "0123456789")])
			continue;
		ret = scan_pid(ts, pid);
		if (ret) {
			ts->err = ret;
			break;
		}
	}
	sysfs_dir_free(&d);
	ts->elapsed_ns = js_mono_ns() - t0;
	return ts->err;
}

/* audit_tasks_free - free a task scan */
void audit_tasks_free(struct audit_tasks *ts)
{
	free(ts->t);
	memset(ts, 0, sizeof(*ts));
}

/* audit_tasks_find_comm - index of the first task whose comm starts with prefix, or -1 */
int audit_tasks_find_comm(const struct audit_tasks *ts, const char *prefix, bool kthread)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].kthread == kthread && !strncmp(ts->t[i].comm, prefix, n))
			return (int)i;
	return -1;
}

enum offence { OK_TASK, USER_ANY, USER_PINNED, KTHREAD_UNBOUND };

/* classify - how task t relates to cpu */
static enum offence classify(const struct audit_trec *t, int cpu)
{
	if (!t->allowed_ok || !cpuset_isset(&t->allowed, cpu))
		return OK_TASK;
	if (t->kthread)
		return cpuset_count(&t->allowed) == 1 ? OK_TASK : KTHREAD_UNBOUND;
	return cpuset_count(&t->allowed) == 1 ? USER_PINNED : USER_ANY;
}

static void keep(struct audit_cpu *pc, const struct audit_trec *t)
{
	struct audit_task *k;

	if (pc->nkept >= AUDIT_TASKS_KEPT)
		return;
	k = &pc->kept[pc->nkept++];
	k->pid = t->pid;
	k->tid = t->tid;
	js_scpy(k->comm, sizeof(k->comm), t->comm);
	k->kthread = t->kthread;
	k->last_cpu = t->last_cpu;
	cpulist_format(&t->allowed, k->allowed, sizeof(k->allowed));
}

/* names - "comm:tid, comm:tid, ..." of the first few tasks of one kind */
static void names(const struct audit_tasks *ts, int cpu, enum offence kind, char *buf, size_t len)
{
	size_t pos = 0;
	int shown = 0;

	buf[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ts->n && shown < 5; i++) {
			const struct audit_trec *t = &ts->t[i];

			if (classify(t, cpu) != kind || (pass == 0) != (t->last_cpu == cpu))
				continue;
			pos += snprintf(buf + pos, len - pos, "%s%s:%d", shown ? ", " : "", t->comm,
					t->tid);
			shown++;
			if (pos >= len)
				return;
		}
	}
}

/* count_cpu - classify every task for one measured CPU and keep the offenders */
static void count_cpu(struct audit_cpu *pc, const struct audit_tasks *ts, int *pinned)
{
	*pinned = 0;
	pc->ntasks_user = pc->ntasks_kthread = pc->nrunning = 0;
	pc->nkept = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ts->n; i++) {
			const struct audit_trec *t = &ts->t[i];
			enum offence o = classify(t, pc->cpu);

			if ((pass == 0) != (t->last_cpu == pc->cpu))
				continue;
			pc->nrunning += t->last_cpu == pc->cpu;
			pc->ntasks_user += o == USER_ANY;
			pc->ntasks_kthread += o == KTHREAD_UNBOUND;
			*pinned += o == USER_PINNED;
			if (o != OK_TASK)
				keep(pc, t);
		}
	}
}

/* obs_allowed - observed: "N WHAT allowed on CPU C (comm:tid, ...)" for one kind */
static void obs_allowed(struct audit_check *c, const struct audit_tasks *ts, int cpu,
			enum offence kind, int n, const char *what)
{
	char list[160];

	names(ts, cpu, kind, list, sizeof(list));
	audit_ck_obs(c, "%d %s allowed on CPU %d%s%s%s", n, what, cpu, n ? " (" : "", list,
		     n ? ")" : "");
}

static void check_user(struct js_audit *a, size_t i, const struct audit_tasks *ts, int pinned)
{
	struct audit_cpu *pc = &a->cpu[i];
	struct audit_check *c = audit_add(a, "tasks.user", pc->cpu, SEV_HIGH,
					  "/proc/*/task/*/status Cpus_allowed_list");
	char list[160];

	audit_ck_exp(c, "no user task allowed on CPU %d but the workload", pc->cpu);
	obs_allowed(c, ts, pc->cpu, USER_ANY, pc->ntasks_user, "user tasks");
	audit_ck_obs_append(c, "%d tasks last ran there", pc->nrunning);
	if (pinned) {
		names(ts, pc->cpu, USER_PINNED, list, sizeof(list));
		audit_ck_obs_append(c, "%d pinned to it alone (%s)", pinned, list);
	}
	if (pc->ntasks_user) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"isolate CPU %d (isolcpus=domain or a cpuset) or set systemd CPUAffinity= to the housekeeping CPUs",
			pc->cpu);
	} else if (pinned) {
		c->verdict = AUDIT_WARN;
		audit_ck_hint(
			c,
			"fine if that is the workload; it competes with the sampler while measuring");
	}
}

static void check_kthreads(struct js_audit *a, size_t i, const struct audit_tasks *ts)
{
	struct audit_cpu *pc = &a->cpu[i];
	struct audit_check *c = audit_add(a, "tasks.kthreads", pc->cpu, SEV_HIGH,
					  "/proc/*/task/*/stat flags, status Cpus_allowed_list");

	audit_ck_exp(c, "only CPU %d's own per-CPU kthreads", pc->cpu);
	obs_allowed(c, ts, pc->cpu, KTHREAD_UNBOUND, pc->ntasks_kthread, "unbound kthreads");
	if (pc->ntasks_kthread) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"isolcpus=domain,%d keeps unbound kthreads off it (or taskset them to housekeeping)",
			pc->cpu);
	}
}

static void check_workqueues(struct js_audit *a);

/* skip_tasks - no task could be read: both task checks skip */
static void skip_tasks(struct js_audit *a, int cpu, int err)
{
	static const char *const ids[] = { "tasks.user", "tasks.kthreads" };

	for (size_t k = 0; k < 2; k++) {
		struct audit_check *c = audit_add(a, ids[k], cpu, SEV_HIGH, "/proc/*/task/*/stat");

		if (err)
			audit_ck_skip_err(c, "/proc", err);
		else
			audit_ck_skip(c, "no readable task under /proc/*/task", "");
	}
}

/* audit_checks_tasks - tasks and kthreads allowed on the measured CPUs, workqueue masks */
void audit_checks_tasks(struct js_audit *a, const struct audit_tasks *ts)
{
	size_t nok = 0;

	for (size_t i = 0; i < ts->n; i++)
		nok += ts->t[i].allowed_ok;
	for (size_t i = 0; i < a->ncpus; i++) {
		int pinned;

		if (!nok) {
			skip_tasks(a, a->cpus[i], ts->err);
			continue;
		}
		count_cpu(&a->cpu[i], ts, &pinned);
		check_user(a, i, ts, pinned);
		check_kthreads(a, i, ts);
	}
	check_workqueues(a);
}

/*
 * wq_masks - the unbound workqueue cpumask, and each WQ_SYSFS queue's: the file shows the
 * mask asked for; the kernel runs the queue on that AND the global mask, or on the global
 * mask when they do not meet (wqattrs_actualize_cpumask(), 6.x): a queue's mask only narrows
 * the global one, so the global mask alone decides whether unbound work reaches the CPU.
 * *bad: the masks that reach cpu
 */
static int wq_masks(struct js_audit *a, int cpu, char *obs, size_t len, int *bad)
{
	const char *dir = "/sys/devices/virtual/workqueue";
	char p[SYSFS_PATH_MAX], buf[64], eff[64];
	struct js_cpuset s, e;
	struct sysfs_dir d;
	size_t pos;
	int ret;

	*bad = 0;
	ret = sysfs_read_cpumask("/sys/devices/virtual/workqueue/cpumask", &a->f.unbound_wq);
	if (ret)
		return ret;
	*bad += cpuset_isset(&a->f.unbound_wq, cpu);
	pos = snprintf(obs, len, "unbound cpumask %s",
		       audit_fmt_set(&a->f.unbound_wq, buf, sizeof(buf)));
	if (sysfs_list_dir(dir, &d))
		return 0;
	for (size_t i = 0; i < d.n && pos < len; i++) {
		audit_spath(p, sizeof(p), "%s/%s/cpumask", dir, d.names[i]);
		if (sysfs_read_cpumask(p, &s))
			continue;
		e = s;
		cpuset_and(&e, &a->f.unbound_wq);
		if (cpuset_empty(&e))
			e = a->f.unbound_wq;
		*bad += cpuset_isset(&e, cpu);
		pos += snprintf(obs + pos, len - pos, ", %s %s", d.names[i],
				audit_fmt_set(&s, buf, sizeof(buf)));
		if (!cpuset_equal(&e, &s))
			pos += snprintf(obs + pos, len - pos, " (runs on %s)",
					audit_fmt_set(&e, eff, sizeof(eff)));
	}
	sysfs_dir_free(&d);
	return 0;
}

static void check_workqueues(struct js_audit *a)
{
	for (size_t i = 0; i < a->ncpus; i++) {
		int cpu = a->cpus[i], bad, ret;
		struct audit_check *c = audit_add(a, "workqueue.cpumask", cpu, SEV_MED,
						  "/sys/devices/virtual/workqueue/{,*/}cpumask");

		audit_ck_exp(c, "no unbound workqueue mask includes CPU %d", cpu);
		ret = wq_masks(a, cpu, c->observed, sizeof(c->observed), &bad);
		if (ret) {
			audit_ck_skip_err(c, "/sys/devices/virtual/workqueue/cpumask", ret);
			continue;
		}
		a->cpu[i].in_unbound_wq = cpuset_isset(&a->f.unbound_wq, cpu);
		if (bad) {
			/* only the global mask can hold cpu here (see wq_masks) */
			audit_ck_deviate(c);
			audit_ck_hint(c,
				      "write a mask without CPU %d to "
				      "/sys/devices/virtual/workqueue/cpumask (each queue runs "
				      "within it; unbound queues' rescuers follow it since 6.9)",
				      cpu);
		}
	}
}
