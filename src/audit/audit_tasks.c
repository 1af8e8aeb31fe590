// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_tasks.c - tasks and kernel threads allowed on the measured CPUs, workqueue masks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit_priv.h"
#include "js_util.h"

#define PF_WQ_WORKER 0x00000020UL
#define PF_KTHREAD 0x00200000UL
#define PF_NO_SETAFFINITY 0x04000000UL

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
	t->wq_worker = flags & PF_WQ_WORKER;
	t->no_setaffinity = flags & PF_NO_SETAFFINITY;
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

enum offence { OK_TASK, USER_ANY, USER_PINNED, KTHREAD_UNBOUND, KTHREAD_RESCUER };

/*
 * rescuer - t is a workqueue's rescuer: named kworker/R-<workqueue> since Linux 6.9, before
 * that <workqueue> itself, a workqueue worker (PF_WQ_WORKER) all the same. One per
 * WQ_MEM_RECLAIM workqueue, idle in rescuer_thread() until a worker pool that cannot create
 * a worker for 10 ms (memory pressure) calls it; it then runs that pool's work on the pool's
 * CPUs (kernel/workqueue.c, docs/CHECK.md)
 */
static bool rescuer(const struct audit_trec *t)
{
	return t->kthread && (!strncmp(t->comm, "kworker/R-", 10) ||
			      (t->wq_worker && strncmp(t->comm, "kworker/", 8)));
}

/* classify - how task t relates to cpu */
static enum offence classify(const struct audit_trec *t, int cpu)
{
	if (!t->allowed_ok || !cpuset_isset(&t->allowed, cpu))
		return OK_TASK;
	if (rescuer(t))
		return KTHREAD_RESCUER;
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
	k->rescuer = rescuer(t);
	k->last_cpu = t->last_cpu;
	cpulist_format(&t->allowed, k->allowed, sizeof(k->allowed));
}

/* names - "comm:tid, comm:tid, ..." of the first max tasks of one kind (those that last ran
 * on cpu first) */
static void names(const struct audit_tasks *ts, int cpu, enum offence kind, int max, char *buf,
		  size_t len)
{
	size_t pos = 0;
	int shown = 0;

	buf[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ts->n && shown < max; i++) {
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

/* what would move an unbound kthread: the workqueue cpumask (kworker/uN:M), its IRQ's
 * affinity (irq/N-name), nothing (bound by the kernel: PF_NO_SETAFFINITY), taskset (the
 * rest, among them the per-node kswapdN and kcompactdN, which bind themselves to their NUMA
 * node's CPUs: mm/vmscan.c, mm/compaction.c) */
enum kkind { KK_WQ, KK_IRQ, KK_KERNEL, KK_MOVABLE, KK_NODE, KK_N };

/* kthread_kind - what would move the unbound kthread t (KK_NODE counts as KK_MOVABLE) */
static enum kkind kthread_kind(const struct audit_trec *t)
{
	if (!strncmp(t->comm, "kworker/u", 9))
		return KK_WQ;
	if (!strncmp(t->comm, "irq/", 4))
		return KK_IRQ;
	return t->no_setaffinity ? KK_KERNEL : KK_MOVABLE;
}

/* keep_movable - remember the name of t, which taskset moves, once */
static void keep_movable(struct audit_cpu *pc, const struct audit_trec *t)
{
	for (size_t k = 0; k < pc->nmovable; k++)
		if (!strcmp(pc->movable[k], t->comm))
			return;
	if (pc->nmovable < AUDIT_MOVABLE)
		js_scpy(pc->movable[pc->nmovable++], sizeof(pc->movable[0]), t->comm);
}

/* kthread_kinds - the unbound kthreads allowed on cpu, counted by kind */
static void kthread_kinds(const struct audit_tasks *ts, int cpu, int n[KK_N])
{
	memset(n, 0, KK_N * sizeof(*n));
	for (size_t k = 0; k < ts->n; k++) {
		const struct audit_trec *t = &ts->t[k];

		if (classify(t, cpu) != KTHREAD_UNBOUND)
			continue;
		n[kthread_kind(t)]++;
		n[KK_NODE] += !strncmp(t->comm, "kswapd", 6) || !strncmp(t->comm, "kcompactd", 9);
	}
}

/* count_cpu - classify every task for one measured CPU and keep the offenders */
static void count_cpu(struct audit_cpu *pc, const struct audit_tasks *ts, int *pinned)
{
	*pinned = 0;
	pc->ntasks_user = pc->ntasks_kthread = pc->nrescuers = pc->nrunning = 0;
	pc->nkept = pc->nmovable = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ts->n; i++) {
			const struct audit_trec *t = &ts->t[i];
			enum offence o = classify(t, pc->cpu);

			if ((pass == 0) != (t->last_cpu == pc->cpu))
				continue;
			pc->nrunning += t->last_cpu == pc->cpu;
			pc->ntasks_user += o == USER_ANY;
			pc->ntasks_kthread += o == KTHREAD_UNBOUND;
			pc->nrescuers += o == KTHREAD_RESCUER;
			*pinned += o == USER_PINNED;
			if (o != OK_TASK)
				keep(pc, t);
			if (o == KTHREAD_UNBOUND && kthread_kind(t) == KK_MOVABLE)
				keep_movable(pc, t);
		}
	}
}

/* obs_allowed - observed: "N WHAT allowed on CPU C (comm:tid, ...)" for one kind, max named */
static void obs_allowed(struct audit_check *c, const struct audit_tasks *ts, int cpu,
			enum offence kind, int n, int max, const char *what)
{
	char list[160];

	names(ts, cpu, kind, max, list, sizeof(list));
	audit_ck_obs(c, "%d %s allowed on CPU %d%s%s%s", n, what, cpu, n ? " (" : "", list,
		     n ? ")" : "");
}

static void check_user(struct js_audit *a, size_t i, const struct audit_tasks *ts, int pinned)
{
	struct audit_cpu *pc = &a->cpu[i];
	struct audit_check *c = audit_add(a, "tasks.user", pc->cpu, SEV_HIGH,
					  "/proc/*/task/*/status Cpus_allowed_list");
	char list[160], hk[64], iso[64], rest[224];

	audit_ck_exp(c, "no user task allowed on CPU %d but the workload", pc->cpu);
	obs_allowed(c, ts, pc->cpu, USER_ANY, pc->ntasks_user, 5, "user tasks");
	audit_ck_obs_append(c, "%d tasks last ran there", pc->nrunning);
	if (pinned) {
		names(ts, pc->cpu, USER_PINNED, 5, list, sizeof(list));
		audit_ck_obs_append(c, "%d pinned to it alone (%s)", pinned, list);
	}
	audit_housekeeping(a, hk, sizeof(hk));
	if (pc->ntasks_user && pc->isolated) {
		/* isolcpus=domain gives init the housekeeping CPUs at boot (sched_init_smp()),
		 * and every user task inherits them: these were given CPU N since */
		audit_ck_deviate(c);
		audit_ck_hint(c,
			      "CPU %d is isolated; these tasks were given it since boot (taskset, "
			      "sched_setaffinity, a container's cpuset, systemd CPUAffinity=): "
			      "set CPUAffinity=%s in systemd and move them",
			      pc->cpu, hk);
	} else if (pc->ntasks_user) {
		snprintf(iso, sizeof(iso), "isolcpus=managed_irq,domain,%d", pc->cpu);
		snprintf(rest, sizeof(rest),
			 " (init and its children then start on CPU %s), or set systemd "
			 "CPUAffinity=%s",
			 hk, hk);
		audit_ck_deviate(c);
		audit_ck_hint_boot(c, a, iso, rest,
				   "the kernel did not isolate the CPU (see isolcpus): set "
				   "systemd CPUAffinity= to the housekeeping CPUs");
	} else if (pinned) {
		c->verdict = AUDIT_WARN;
		audit_ck_hint(
			c,
			"fine if that is the workload; it competes with the sampler while measuring");
	}
}

/*
 * check_kthreads - unbound kthreads (neither per-CPU nor a workqueue's rescuer) allowed on
 * the CPU. What confines kthreads is nohz_full= (housekeeping type KTHREAD: kthreadd and
 * every kthread it starts get the housekeeping CPUs, kernel/kthread.c); isolcpus=domain
 * only keeps the scheduler from balancing onto the CPU, and moves no thread. Those left
 * allowed there set their own affinity after they started: the hint names what moves each
 * kind, and never the parameter that is set already.
 */
static void check_kthreads(struct js_audit *a, size_t i, const struct audit_tasks *ts)
{
	struct audit_cpu *pc = &a->cpu[i];
	struct audit_check *c = audit_add(a, "tasks.kthreads", pc->cpu, SEV_HIGH,
					  "/proc/*/task/*/stat flags, status Cpus_allowed_list");
	char hk[64], nohz[32];
	int n[KK_N];

	audit_ck_exp(c, "only CPU %d's own per-CPU kthreads (and idle workqueue rescuers)",
		     pc->cpu);
	obs_allowed(c, ts, pc->cpu, KTHREAD_UNBOUND, pc->ntasks_kthread, 5, "unbound kthreads");
	if (!pc->ntasks_kthread)
		return;
	audit_ck_deviate(c);
	audit_housekeeping(a, hk, sizeof(hk));
	snprintf(nohz, sizeof(nohz), "nohz_full=%d", pc->cpu);
	kthread_kinds(ts, pc->cpu, n);
	if (!pc->nohz_full && !audit_param_in_force(a, nohz))
		audit_ck_hint_append(
			c,
			"boot with %s: kthreads then start on CPU %s (isolcpus=domain moves "
			"none)",
			nohz, hk);
	else
		audit_ck_hint_append(
			c, "%s is set (kthreads start on CPU %s), yet these set their own affinity",
			nohz, hk);
	if (n[KK_MOVABLE])
		audit_ck_hint_append(c, "taskset -pc %s PID moves %d of them", hk, n[KK_MOVABLE]);
	if (n[KK_NODE])
		audit_ck_hint_append(c, "kswapd*/kcompactd* take their NUMA node's CPUs");
	if (n[KK_WQ])
		audit_ck_hint_append(c, "kworker/u* follow the workqueue cpumask");
	if (n[KK_IRQ])
		audit_ck_hint_append(c, "irq/* follow their IRQ (see irq.N)");
	if (n[KK_KERNEL])
		audit_ck_hint_append(c, "%d bound by the kernel (PF_NO_SETAFFINITY): none moves",
				     n[KK_KERNEL]);
}

/*
 * check_rescuers - the workqueue rescuers allowed on the CPU, a line of their own: a
 * rescuer sleeps in rescuer_thread() until a worker pool that cannot create a worker for
 * MAYDAY_INITIAL_TIMEOUT (10 ms: memory pressure) sends it a mayday; it then attaches to
 * that pool (taking its CPUs) and runs the work queued there, which that pool's CPU would
 * have run anyway. The kernel binds the rescuer of a per-CPU workqueue to every possible
 * CPU (kthread_bind_mask: PF_NO_SETAFFINITY, no taskset moves it); since 6.9 that of an
 * unbound workqueue follows the workqueue cpumask, before 6.9 every rescuer has every CPU.
 * Idle, it takes nothing from the CPU: context. One that last ran on the CPU is woken
 * there by its next mayday (an isolated CPU has no domain to pull it away): a warning.
 */
static void check_rescuers(struct js_audit *a, size_t i, const struct audit_tasks *ts)
{
	struct audit_cpu *pc = &a->cpu[i];
	struct audit_check *c =
		audit_add(a, "tasks.rescuers", pc->cpu, SEV_INFO,
			  "/proc/*/task/*/stat flags (PF_WQ_WORKER), status Cpus_allowed_list");
	char list[160] = "";
	int last = -1;

	audit_ck_exp(c, "idle: a rescuer runs on CPU %d only for work queued there (context)",
		     pc->cpu);
	obs_allowed(c, ts, pc->cpu, KTHREAD_RESCUER, pc->nrescuers, 3, "workqueue rescuers");
	if (!pc->nrescuers)
		return;
	audit_ck_obs_append(c, "idle until a pool short of workers calls (memory pressure), "
			       "then on its CPU");
	if (!audit_kernel_at_least(a, 6, 9))
		audit_ck_obs_append(c, "before 6.9 the kernel binds all rescuers to all CPUs");
	else if (!a->cpu[i].in_unbound_wq)
		audit_ck_obs_append(c, "of per-CPU workqueues: the kernel binds them to all CPUs");
	else
		audit_ck_obs_append(c, "those of unbound workqueues follow the workqueue cpumask");
	for (size_t k = 0; k < ts->n && last < 0; k++)
		if (classify(&ts->t[k], pc->cpu) == KTHREAD_RESCUER && ts->t[k].last_cpu == pc->cpu)
			last = (int)k;
	if (last < 0)
		return;
	snprintf(list, sizeof(list), "%s:%d", ts->t[last].comm, ts->t[last].tid);
	audit_ck_obs_append(c, "%s last ran on CPU %d", list, pc->cpu);
	if (!pc->isolated)
		return; /* the scheduler places it anew at its next wake-up */
	c->severity = SEV_LOW;
	audit_ck_deviate(c);
	audit_ck_hint(c,
		      "it rescued work queued on CPU %d, or ran there before the CPU was "
		      "isolated; its next call wakes it there first: memory headroom avoids calls "
		      "(a per-CPU workqueue's rescuer no setting moves)",
		      pc->cpu);
}

static void check_workqueues(struct js_audit *a);

/* skip_tasks - no task could be read: the task checks skip */
static void skip_tasks(struct js_audit *a, int cpu, int err)
{
	static const char *const ids[] = { "tasks.user", "tasks.kthreads", "tasks.rescuers" };

	for (size_t k = 0; k < ARRAY_SIZE(ids); k++) {
		struct audit_check *c = audit_add(a, ids[k], cpu, SEV_HIGH, "/proc/*/task/*/stat");

		if (err)
			audit_ck_skip_err(c, "/proc", err);
		else
			audit_ck_skip(c, "no readable task under /proc/*/task", "");
	}
}

/* audit_checks_tasks - tasks, kthreads and rescuers allowed on the measured CPUs, workqueue
 * masks */
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
	for (size_t i = 0; i < a->ncpus && nok; i++)
		check_rescuers(a, i, ts);
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
