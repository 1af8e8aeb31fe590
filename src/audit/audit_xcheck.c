// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_xcheck.c - link observed causes of gaps to the settings that would prevent them: one
 * explanation per observation (its line), and the check whose finding that explanation is
 * (its tie: the same branch names both, so the report's lines and the answer's "fix first"
 * never disagree).
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_event_names.h"
#include "js_model.h"
#include "js_util.h"

struct xctx {
	const struct js_audit *a;
	const struct audit_observed *o;
	const struct audit_cpu *pc; /* NULL when o->cpu is not a measured CPU */
	int cause;		    /* enum js_cause of o->cause, -1 if unknown */
	char rate[128];		    /* "120 times (12/s, 1.2 ms)" */
	char persec[48];	    /* "250/s", or the count when there is no duration */
	char *line;
	char check[AUDIT_ID_LEN]; /* the check whose finding explains it; "" for none */
};

static void out(struct xctx *x, const char *fmt, ...) FMT(2, 3);

/* out - the explanation line (truncated to AUDIT_LINE_LEN) */
static void out(struct xctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->line, AUDIT_LINE_LEN, fmt, ap);
	va_end(ap);
}

#define OUT out

/* tie - the check whose finding the explanation is (its id, "irq.%d" for one IRQ) */
static void tie(struct xctx *x, const char *fmt, ...) FMT(2, 3);

static void tie(struct xctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->check, sizeof(x->check), fmt, ap);
	va_end(ap);
}

static const struct audit_cpu *find_cpu(const struct js_audit *a, int cpu)
{
	for (size_t i = 0; i < a->ncpus; i++)
		if (a->cpus[i] == cpu)
			return &a->cpu[i];
	return NULL;
}

static const char *det(const struct xctx *x)
{
	return x->o->detail ? x->o->detail : "";
}

/* irq_list - "36 virtio1-req.0, 42 virtio3-tx" of the IRQs on cpu, busiest kinds first */
static const char *irq_list(const struct js_audit *a, const struct audit_cpu *pc, int cpu,
			    char *buf, size_t len)
{
	size_t pos = 0, idx = pc ? (size_t)(pc - a->cpu) : 0;
	int shown = 0, more = 0;

	buf[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < a->nirqs; i++) {
			const struct audit_irq *q = &a->irqs[i];
			bool busy = pc && q->count[idx];

			if (!cpuset_isset(&q->effective, cpu) || busy != (pass == 0))
				continue;
			if (shown == 4 || pos >= len) {
				more++;
				continue;
			}
			pos += snprintf(buf + pos, len - pos, "%s%d %s", shown ? ", " : "", q->irq,
					q->name);
			shown++;
		}
	}
	if (more && pos < len)
		snprintf(buf + pos, len - pos, ", +%d more", more);
	return buf;
}

static bool x_timer(struct xctx *x)
{
	const struct js_audit *a = x->a;
	int cpu = x->o->cpu;
	char hz[80] = "";

	if (strstr(det(x), "watchdog")) {
		tie(x, "watchdog.soft");
		OUT(x, "hrtimer %s ran %s on CPU %d: the soft-lockup watchdog runs there (%s)",
		    det(x), x->persec, cpu,
		    "boot with nosoftlockup or drop the CPU from watchdog_cpumask");
		return true;
	}
	if (x->cause == JS_CAUSE_HRTIMER && !strstr(det(x), "tick")) {
		OUT(x,
		    "%s ran %s on CPU %d: a timer armed on CPU %d fires there (%s; timer_migration=%d)",
		    det(x), x->rate, cpu, cpu,
		    x->pc && x->pc->nohz_full ? "in nohz_full" : "not in nohz_full",
		    a->f.timer_migration);
		return true;
	}
	if (a->f.hz > 0)
		snprintf(hz, sizeof(hz), "; HZ=%d means %d/s while the tick runs", a->f.hz,
			 a->f.hz);
	tie(x, "nohz_full"); /* the tick: only nohz_full stops it */
	if (x->pc && x->pc->nohz_full) {
		/* at most 2/s: the tick stayed stopped, which audit_tick_line() says */
		if (x->o->seconds > 0 && x->o->count <= AUDIT_TICK_STOPPED_PER_S * x->o->seconds)
			return false;
		OUT(x,
		    "local timer fired %s on CPU %d although it is in nohz_full: the tick restarts when more than one task is runnable there or a timer is armed on it (%d tasks allowed on it)",
		    x->persec, cpu, x->pc->ntasks_user + x->pc->ntasks_kthread);
		return true;
	}
	OUT(x, "local timer fired %s on CPU %d: CPU %d is not in nohz_full (%s)%s", x->persec, cpu,
	    cpu,
	    a->f.nohz_full_capable == 0 ? "kernel built without NO_HZ_FULL" :
					  "boot with nohz_full=",
	    hz);
	return true;
}

/* detail_irq - the IRQ number in "name:36", "36", "irq 36" or an IRQ thread's
 * "irq/36-name:123"; -1 if none */
static int detail_irq(const char *d)
{
	const char *c = strrchr(d, ':');

	if (js_part_thread(JS_CAUSE_IRQ, d))
		return audit_lead_int(d + 4);

	if (c && audit_lead_int(c + 1) >= 0 && !c[1 + strspn(c + 1, "0123456789")])
		return audit_lead_int(c + 1);
	if (audit_lead_int(d) >= 0 && !d[strspn(d, "0123456789")])
		return audit_lead_int(d);
	if (!strncmp(d, "irq ", 4))
		return audit_lead_int(d + 4);
	return -1;
}

static bool x_irq(struct xctx *x)
{
	const struct js_audit *a = x->a;
	int cpu = x->o->cpu, irq = detail_irq(det(x));
	const struct audit_irq *q = NULL;
	char buf[64];

	for (size_t i = 0; i < a->nirqs && irq >= 0; i++)
		if (a->irqs[i].irq == irq)
			q = &a->irqs[i];
	if (!q) {
		tie(x, "irq.affinity");
		OUT(x,
		    "device IRQ %s interrupted CPU %d %s: steer it away (/proc/irq/N/smp_affinity_list)%s",
		    det(x), cpu, x->rate,
		    cpuset_isset(&a->f.default_irq_affinity, cpu) ?
			    "; the default IRQ affinity includes it too" :
			    "");
		return true;
	}
	tie(x, "irq.%d", irq);
	if (cpuset_isset(&q->effective, cpu)) {
		OUT(x, "IRQ %d %s interrupted CPU %d %s: its effective affinity includes CPU %d%s",
		    irq, q->name, cpu, x->rate, cpu,
		    a->f.irqbalance_running ? " (irqbalance is running and may move it back)" : "");
		return true;
	}
	OUT(x,
	    "IRQ %d %s interrupted CPU %d %s although its effective affinity is now %s: it moved during the run%s",
	    irq, q->name, cpu, x->rate, audit_fmt_set(&q->effective, buf, sizeof(buf)),
	    a->f.irqbalance_running ? " (irqbalance is running)" : " or is a managed IRQ");
	return true;
}

static bool x_softirq(struct xctx *x)
{
	const struct js_audit *a = x->a;
	const char *d = det(x);
	int cpu = x->o->cpu, nr = js_ev_id_from_name(JS_EV_SOFTIRQ, d);
	char irqs[160];

	if (nr == JS_SOFTIRQ_NET_RX || nr == JS_SOFTIRQ_NET_TX || nr == JS_SOFTIRQ_BLOCK ||
	    nr == JS_SOFTIRQ_IRQ_POLL || nr == JS_SOFTIRQ_TASKLET || nr == JS_SOFTIRQ_HI) {
		irq_list(a, x->pc, cpu, irqs, sizeof(irqs));
		tie(x, "irq.affinity");
		OUT(x, "softirq %s ran %s on CPU %d: it follows device IRQs handled there (%s)", d,
		    x->rate, cpu,
		    irqs[0] ? irqs : "no device IRQ has affinity on it: RPS/XPS or a remote raise");
	} else if (nr == JS_SOFTIRQ_TIMER || nr == JS_SOFTIRQ_HRTIMER) {
		tie(x, "nohz_full");
		OUT(x, "softirq %s ran %s on CPU %d: timers expire there (%s; timer_migration=%d)",
		    d, x->rate, cpu,
		    x->pc && x->pc->nohz_full ? "in nohz_full" : "not in nohz_full",
		    a->f.timer_migration);
	} else if (nr == JS_SOFTIRQ_RCU) {
		tie(x, "rcu_nocbs");
		OUT(x, "softirq RCU ran %s on CPU %d: %s", x->rate, cpu,
		    x->pc && x->pc->rcu_nocb ?
			    "callbacks are offloaded, yet RCU core work ran there" :
			    "its RCU callbacks are not offloaded (rcu_nocbs=)");
	} else if (nr == JS_SOFTIRQ_SCHED) {
		tie(x, "isolcpus");
		OUT(x, "softirq SCHED ran %s on CPU %d: load balancing runs there (%s)", x->rate,
		    cpu,
		    x->pc && x->pc->isolated ?
			    "isolated, yet balanced" :
			    "not isolated: isolcpus=domain removes it from the scheduler domains");
	} else {
		OUT(x, "softirq %s ran %s on CPU %d", d, x->rate, cpu);
	}
	return true;
}

/* ipi_vector - the enum js_vector an ipi detail begins with ("reschedule from ..."); -1 */
static int ipi_vector(const char *d)
{
	char v[32];

	snprintf(v, sizeof(v), "%.*s", (int)strcspn(d, " "), d);
	return js_ev_id_from_name(JS_EV_VECTOR, v);
}

static bool x_ipi(struct xctx *x)
{
	const struct js_audit *a = x->a;
	const char *d = det(x);
	int cpu = x->o->cpu, vec = ipi_vector(d);

	if (vec == JS_VEC_RESCHEDULE || !strcmp(d, "RES")) {
		tie(x, "%s", x->pc && x->pc->isolated ? "tasks.user" : "isolcpus");
		OUT(x,
		    "reschedule IPIs hit CPU %d %s: tasks are woken onto it (%d user tasks, %d unbound kthreads allowed on it)",
		    cpu, x->rate, x->pc ? x->pc->ntasks_user : -1,
		    x->pc ? x->pc->ntasks_kthread : -1);
	} else if (vec == JS_VEC_CALL_FUNCTION || vec == JS_VEC_CALL_FUNCTION_SINGLE ||
		   !strcmp(d, "CAL") || !strcmp(d, "TLB")) {
		OUT(x,
		    "function-call IPIs (%s) hit CPU %d %s: cross-CPU calls such as TLB shootdowns (THP %s, khugepaged/defrag %d, numa_balancing %d, ksm %d)",
		    d, cpu, x->rate, a->f.thp_enabled[0] ? a->f.thp_enabled : "?",
		    a->f.khugepaged_defrag, a->f.numa_balancing, a->f.ksm_run);
	} else if (vec == JS_VEC_IRQ_WORK) {
		OUT(x,
		    "irq_work IPIs hit CPU %d %s: deferred work from NMI/perf/printk/RCU contexts",
		    cpu, x->rate);
	} else {
		OUT(x, "IPI %s hit CPU %d %s", d, cpu, x->rate);
	}
	return true;
}

static bool x_mm(struct xctx *x, const char *what)
{
	const struct js_audit *a = x->a;
	const struct audit_check *cp = audit_find(a, "vm.compaction_proactiveness", -1);

	OUT(x,
	    "%s on CPU %d %s: THP enabled=%s defrag=%s khugepaged/defrag=%d, numa_balancing=%d, ksm=%d, compaction_proactiveness=%s",
	    what, x->o->cpu, x->rate, a->f.thp_enabled[0] ? a->f.thp_enabled : "?",
	    a->f.thp_defrag[0] ? a->f.thp_defrag : "?", a->f.khugepaged_defrag, a->f.numa_balancing,
	    a->f.ksm_run, cp ? cp->observed : "?");
	return true;
}

static bool x_work(struct xctx *x)
{
	const struct js_audit *a = x->a;
	const char *d = det(x), *fn = strrchr(d, ' ');
	int cpu = x->o->cpu;
	char mask[64];

	fn = fn ? fn + 1 : d;
	if (strstr(fn, "vmstat")) {
		tie(x, "vm.stat_interval");
		OUT(x,
		    "kworker vmstat_update ran %s on CPU %d: vm.stat_interval=%d (set 10 or more)",
		    x->rate, cpu, a->f.stat_interval);
	} else if (strstr(fn, "watchdog")) {
		tie(x, "watchdog.soft");
		OUT(x, "work %s ran %s on CPU %d: the lockup watchdog (boot with nosoftlockup)", fn,
		    x->rate, cpu);
	} else if (strstr(fn, "lru_add_drain") || strstr(fn, "drain_local_pages")) {
		OUT(x,
		    "work %s ran %s on CPU %d: another CPU drained the per-CPU page lists (mlock, migration, compaction, THP)",
		    fn, x->rate, cpu);
	} else if (!strncmp(d, "kworker/u", 9)) {
		tie(x, "workqueue.cpumask");
		OUT(x,
		    "unbound work %s ran %s on CPU %d: the unbound workqueue cpumask includes CPU %d (%s)",
		    fn, x->rate, cpu, cpu, audit_fmt_set(&a->f.unbound_wq, mask, sizeof(mask)));
	} else {
		OUT(x, "work %s ran %s on CPU %d: per-CPU work queued there%s", fn, x->rate, cpu,
		    x->pc && x->pc->in_unbound_wq ?
			    "; the unbound workqueue cpumask includes it too" :
			    "");
	}
	return true;
}

/* kept_task - the audit's record of the task named by "comm:pid" */
static const struct audit_task *kept_task(const struct audit_cpu *pc, const char *d)
{
	const char *c = strrchr(d, ':');
	int id = c ? audit_lead_int(c + 1) : -1;

	for (size_t i = 0; pc && id >= 0 && i < pc->nkept; i++)
		if (pc->kept[i].tid == id || pc->kept[i].pid == id)
			return &pc->kept[i];
	return NULL;
}

/* percpu_name - "ksoftirqd/3", "kworker/3:1:43", "rcuc/3:20", "backlog_napi/3:61": a name
 * bound to cpu */
static bool percpu_name(const char *d, int cpu)
{
	char tag[16];
	const char *p;
	size_t n = (size_t)snprintf(tag, sizeof(tag), "/%d", cpu);

	for (p = strstr(d, tag); p; p = strstr(p + 1, tag))
		if (!p[n] || p[n] == ':' || p[n] == '-')
			return true;
	return false;
}

static bool x_task(struct xctx *x)
{
	const char *d = det(x);
	int cpu = x->o->cpu;
	const struct audit_task *t = kept_task(x->pc, d);

	if (strchr(d, ' ') && !strncmp(d, "kworker/", 8))
		return x_work(x); /* "kworker/1:2:123 vmstat_update" */
	if (t && t->rescuer) {
		OUT(x,
		    "workqueue rescuer %s ran %s on CPU %d: a worker pool there was short of "
		    "workers (memory pressure) and called it to run its work",
		    d, x->rate, cpu);
	} else if (t) {
		tie(x, "%s", t->kthread ? "tasks.kthreads" : "tasks.user");
		OUT(x, "%s %s ran %s on CPU %d: it is allowed on CPU %d (affinity %s)",
		    t->kthread ? "kernel thread" : "task", d, x->rate, cpu, cpu, t->allowed);
	} else if (percpu_name(d, cpu)) {
		if (strstr(d, "rcuc"))
			tie(x, "rcu_nocbs");
		OUT(x, "per-CPU kthread %s ran %s on CPU %d: %s", d, x->rate, cpu,
		    strstr(d, "ksoftirqd") ? "softirq overflow (see the softirq lines)" :
		    strstr(d, "rcuc")	   ? "RCU callbacks are not offloaded (rcu_nocbs=)" :
		    strstr(d, "ktimers")   ? "timers expire there (PREEMPT_RT's timer softirqs)" :
		    strstr(d, "backlog")   ? "packets queued to its backlog (RPS, RFS: NET_RX)" :
		    strstr(d, "migration") ? "stop_machine / task migration requests" :
					     "kernel work bound to this CPU");
	} else if (x->pc) {
		tie(x, "%s", x->pc->isolated ? "tasks.user" : "isolcpus");
		OUT(x,
		    "task %s ran %s on CPU %d: %d user tasks and %d unbound kthreads are allowed on CPU %d (%s)",
		    d, x->rate, cpu, x->pc->ntasks_user, x->pc->ntasks_kthread, cpu,
		    x->pc->isolated ? "isolated, so they were pinned there" :
				      "not isolated: isolcpus=domain or a cpuset keeps them off");
	} else {
		OUT(x, "task %s ran %s on CPU %d", d, x->rate, cpu);
	}
	return true;
}

/* x_idle - the CPU idle in the gaps: RT throttling's doing only for a SCHED_FIFO/RR sampler
 * (it throttles no other task); else the measured task slept or blocked there, which no
 * setting recovers (a followed thread's or a mark's idle is its own sleep: never tied) */
static bool x_idle(struct xctx *x)
{
	const struct js_audit *a = x->a;
	bool rt = a->policy == SCHED_FIFO || a->policy == SCHED_RR;

	if (rt && a->f.rt_runtime_us >= 0 && a->f.rt_runtime_us != INT64_MIN &&
	    a->f.rt_period_us > 0) {
		tie(x, "sched_rt_runtime_us");
		OUT(x,
		    "the sampler was off CPU %d with the CPU idle %s: RT throttling (sched_rt_runtime_us=%lld) forces a SCHED_FIFO task off %lld us every %lld us",
		    x->o->cpu, x->rate, (long long)a->f.rt_runtime_us,
		    (long long)(a->f.rt_period_us - a->f.rt_runtime_us),
		    (long long)a->f.rt_period_us);
	} else {
		OUT(x,
		    "CPU %d was idle %s: the measured task slept or blocked there (a system call, a page fault, a lock; a SCHED_OTHER task is not RT-throttled)",
		    x->o->cpu, x->rate);
	}
	return true;
}

static bool x_misc(struct xctx *x)
{
	const struct js_audit *a = x->a;
	int cpu = x->o->cpu;

	if (x->cause == JS_CAUSE_NMI) {
		if (a->f.nmi_watchdog > 0)
			tie(x, "watchdog.nmi");
		OUT(x, "NMIs hit CPU %d %s: %s", cpu, x->rate,
		    a->f.nmi_watchdog > 0 ? "the NMI watchdog is on (kernel.nmi_watchdog=0)" :
					    "perf sampling or a hardware NMI");
	} else if (x->cause == JS_CAUSE_FAULT) {
		OUT(x,
		    "page faults on CPU %d %s: mlockall() and pre-fault the workload (%d swap devices, THP %s)",
		    cpu, x->rate, a->f.swap_devices, a->f.thp_enabled[0] ? a->f.thp_enabled : "?");
	} else if (x->cause == JS_CAUSE_STEAL) {
		OUT(x, "hypervisor steal on CPU %d %s: %s", cpu, x->rate,
		    a->f.hypervisor ?
			    "the vCPU was descheduled by the host; pin and isolate it on the host" :
			    "steal time reported, yet no hypervisor flag");
	} else if (x->cause == JS_CAUSE_HOST_RELOAD) {
		OUT(x, "the host re-loaded vCPU %d without steal %s: %s", cpu, x->rate,
		    "its thread slept, exited to the VMM or faulted on guest memory; pin it and "
		    "back guest memory with locked huge pages on the host");
	} else if (x->cause == JS_CAUSE_HOST_CLOCK) {
		OUT(x, "the host updated the kvmclock of CPU %d %s: %s", cpu, x->rate,
		    "a masterclock update or KVM's periodic kvmclock sync (kvmclock_periodic_sync)");
	} else if (x->cause == JS_CAUSE_HOST_PERIODIC) {
		OUT(x, "periodic gaps with no guest event on CPU %d %s (%s): %s", cpu, x->rate,
		    det(x),
		    "the host's tick on the vCPU's pCPU; the host must run it nohz_full and "
		    "isolated");
	} else if (x->cause == JS_CAUSE_SMI) {
		OUT(x,
		    "SMIs on CPU %d %s: firmware (BIOS power/thermal features), invisible to the OS",
		    cpu, x->rate);
	} else if (x->cause == JS_CAUSE_UNEXPLAINED) {
		/* both unexplained sources, merged: the cause table's unexplained "in gaps" */
		OUT(x, "gaps with time no event explains on CPU %d %s: %s", cpu, x->rate,
		    a->f.hypervisor ?
			    "running under a hypervisor, host interrupts, vmexits and preemption are invisible to the guest" :
			    "SMIs, an SMT sibling, or hardware (check the smi and smt lines)");
	} else if (x->cause == JS_CAUSE_VECTOR) {
		OUT(x, "APIC vector %s hit CPU %d %s", det(x), cpu, x->rate);
	} else {
		return false;
	}
	return true;
}

/* rates - "120 times (12/s, 1.2 ms)" and "12/s" for an observation */
static void rates(struct xctx *x)
{
	const struct audit_observed *o = x->o;
	bool per = o->seconds > 0 && o->count / o->seconds >= 1;
	char ns[32] = "";

	if (o->total_ns)
		js_fmt_ns(ns, sizeof(ns), o->total_ns);
	if (per)
		snprintf(x->persec, sizeof(x->persec),
			 o->count / o->seconds < 10 ? "%.1f/s" : "%.0f/s", o->count / o->seconds);
	else
		snprintf(x->persec, sizeof(x->persec), "%llu times", (unsigned long long)o->count);
	snprintf(x->rate, sizeof(x->rate), "%llu times%s%s%s%s%s", (unsigned long long)o->count,
		 per || ns[0] ? " (" : "", per ? x->persec : "", per && ns[0] ? ", " : "", ns,
		 per || ns[0] ? ")" : "");
}

/* explain - one line for one observation; false if there is nothing to say. A kernel
 * thread's run (js_part_thread()) is told as that thread, an IRQ thread by its IRQ. */
static bool explain(struct xctx *x)
{
	if (x->cause != JS_CAUSE_IRQ && js_part_thread((uint32_t)x->cause, det(x)))
		return x_task(x);
	switch (x->cause) {
	case JS_CAUSE_TIMER:
	case JS_CAUSE_HRTIMER:
		return x_timer(x);
	case JS_CAUSE_IRQ:
		return x_irq(x);
	case JS_CAUSE_SOFTIRQ:
		return x_softirq(x);
	case JS_CAUSE_IPI:
		return x_ipi(x);
	case JS_CAUSE_TLB:
		return x_mm(x, "TLB flushes");
	case JS_CAUSE_THP:
		return x_mm(x, "THP collapse/compaction");
	case JS_CAUSE_MM:
		return x_mm(x, "compaction/migration");
	case JS_CAUSE_WORK:
		return x_work(x);
	case JS_CAUSE_TASK:
		return x_task(x);
	case JS_CAUSE_IDLE:
		return x_idle(x);
	default:
		return x_misc(x);
	}
}

/* line_of - o's explanation into line (figures left out when bare: the setting's identity)
 * and, when check is not NULL, the id of the check it ties o to ("" for none); false if there
 * is nothing to say */
static bool line_of(const struct js_audit *a, const struct audit_observed *o, bool bare, char *line,
		    char *check)
{
	struct xctx x = { .a = a, .o = o, .line = line };
	bool said;

	x.pc = find_cpu(a, o->cpu);
	x.cause = js_cause_from_name(o->cause);
	if (bare) {
		snprintf(x.rate, sizeof(x.rate), "#");
		snprintf(x.persec, sizeof(x.persec), "#");
	} else {
		rates(&x);
	}
	said = explain(&x);
	if (check)
		snprintf(check, AUDIT_ID_LEN, "%s", said ? x.check : "");
	return said;
}

/*
 * merged - observation i with every later one that gives the same explanation on its CPU
 * (keys[k]: the bare lines, "" for none), marking them used. Time adds up. Counts add up
 * within a class (a class's sources are different occurrences); across classes the largest
 * class count is taken: two classes explained alike are nested views of one occurrence
 * (the tick's hrtimer inside the local timer IRQ, a work item inside its kworker).
 */
static struct audit_observed merged(const struct audit_observed *obs, size_t n, size_t i,
				    char (*keys)[AUDIT_LINE_LEN], bool *used)
{
	struct audit_observed m = obs[i];

	m.count = 0;
	m.total_ns = 0;
	for (size_t j = i; j < n; j++) {
		uint64_t class = 0;

		if (used[j] || obs[j].cpu != obs[i].cpu || strcmp(keys[j], keys[i]))
			continue;
		for (size_t k = i; k < n; k++)
			if (!used[k] && obs[k].cpu == obs[i].cpu && !strcmp(keys[k], keys[i]) &&
			    !strcmp(obs[k].cause, obs[j].cause))
				class += obs[k].count;
		m.count = JS_MAX(m.count, class);
	}
	for (size_t j = i; j < n; j++) {
		if (used[j] || obs[j].cpu != obs[i].cpu || strcmp(keys[j], keys[i]))
			continue;
		m.total_ns += obs[j].total_ns;
		used[j] = true;
	}
	return m;
}

/* audit_crosscheck - one line per setting and cause linking it to the observations */
size_t audit_crosscheck(const struct js_audit *a, const struct audit_observed *obs, size_t n,
			char (*lines)[AUDIT_LINE_LEN], size_t max_lines)
{
	char(*keys)[AUDIT_LINE_LEN] = calloc(n ? n : 1, sizeof(*keys));
	bool *used = calloc(n ? n : 1, sizeof(*used));
	size_t out = 0;

	if (!keys || !used)
		goto done;
	for (size_t i = 0; i < n; i++) {
		used[i] = !obs[i].cause || (!obs[i].count && !obs[i].total_ns) ||
			  !line_of(a, &obs[i], true, keys[i], NULL);
		if (used[i])
			keys[i][0] = '\0';
	}
	for (size_t i = 0; i < n && out < max_lines; i++) {
		struct audit_observed m;

		if (used[i])
			continue;
		m = merged(obs, n, i, keys, used);
		line_of(a, &m, false, lines[out++], NULL);
	}
done:
	free(keys);
	free(used);
	return out;
}

static int tie_cmp(const void *pa, const void *pb)
{
	const struct audit_tie *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return strcmp(a->check, b->check);
}

/* audit_ties - per check, the time of the observations its finding explains (js_audit.h) */
size_t audit_ties(const struct js_audit *a, const struct audit_observed *obs, size_t n,
		  struct audit_tie *ties, size_t max)
{
	struct audit_tie all[64];
	size_t nt = 0;

	for (size_t i = 0; i < n; i++) {
		char line[AUDIT_LINE_LEN], id[AUDIT_ID_LEN];
		int cause = js_cause_from_name(obs[i].cause ? obs[i].cause : "");
		size_t k = 0;

		if (!obs[i].cause || !obs[i].total_ns || !line_of(a, &obs[i], true, line, id) ||
		    !id[0])
			continue;
		while (k < nt && strcmp(all[k].check, id))
			k++;
		if (k == nt) {
			if (nt == ARRAY_SIZE(all))
				continue;
			memset(&all[nt], 0, sizeof(all[nt]));
			snprintf(all[nt++].check, sizeof(all[0].check), "%s", id);
		}
		all[k].ns += obs[i].total_ns;
		if (cause >= 0 && cause < 32)
			all[k].causes |= 1u << cause;
	}
	qsort(all, nt, sizeof(all[0]), tie_cmp);
	nt = JS_MIN(nt, max);
	memcpy(ties, all, nt * sizeof(all[0]));
	return nt;
}

uint64_t audit_deltas_local_timer(const struct audit_deltas *d, int cpu)
{
	uint64_t n = audit_deltas_get(d, cpu, "LOC");

	for (size_t i = 0; !n && i < d->nrows; i++)
		if (strstr(d->rows[i].name, "arch_timer"))
			n = audit_deltas_get(d, cpu, d->rows[i].key);
	return n;
}

bool audit_tick_line(const struct js_audit *a, int cpu, uint64_t ticks, double seconds,
		     const char *what, char *line)
{
	const struct audit_cpu *pc = find_cpu(a, cpu);
	double rate;

	if (!pc || !pc->nohz_full || seconds <= 0)
		return false;
	rate = (double)ticks / seconds;
	if (rate > AUDIT_TICK_STOPPED_PER_S)
		return false; /* the local timer's own line says it fired (x_timer) */
	snprintf(line, AUDIT_LINE_LEN,
		 "the tick stayed stopped on CPU %d (nohz_full): %.1f local timer interrupts/s %s "
		 "(stopped: %.0f/s at most, a timer armed there)",
		 cpu, rate, what, AUDIT_TICK_STOPPED_PER_S);
	return true;
}
