// SPDX-License-Identifier: GPL-2.0
/*
 * follow.bpf.c - follow an application's threads (--pid: every thread of a process, those
 * it starts included; --tid: the threads named) wherever they run, and say when each was
 * kept from running its own code (docs/DESIGN.md, threads):
 *
 *   preempted    switched out while runnable (not in its own sched_yield()), until switched
 *                back in: the tasks that ran meanwhile are the causes (bpf/probes.bpf.c
 *                records them on the watched CPUs)
 *   interrupted  hard IRQs, APIC vectors, softirqs, NMIs while it was current, from the
 *                outermost entry to its exit (interrupts back to back join)
 *   blocked      switched out not runnable outside a system call (a page fault's I/O or lock),
 *                from the fault's entry when it took one since it last ran
 *
 * Its own system calls are told without per-call tracepoints unless trace_syscalls is set
 * (--follow-syscalls: sys_enter/sys_exit attached put every task on the machine on the
 * traced system-call path, which a busy server and its clients pay on every call): at a
 * switch the task's user registers (task_pt_regs) say what it entered the kernel for, a
 * page fault (its faulting instruction, the fault program's record) or a system call
 * (orig_ax: its number, sched_yield's a yield). Without them its system calls are not
 * counted (syscalls, syscall_ns stay 0).
 *
 * Softirqs it runs itself are its own kernel work, not a gap (own_bh): bottom halves its own
 * kernel code runs when it enables them (local_bh_enable on a send path: loopback NET_RX).
 * Taken from it, as before: a softirq the kernel runs as a hard interrupt or vector exits
 * (irq_exit: it starts within bh_join_ns of that interruption's exit tracepoint), and one
 * whose vector a hard interruption raised (softirq_raise inside it) and that has not run
 * since, wherever it runs (a remote CPU's RPS IPI raising NET_RX while it had bottom halves
 * off runs at its own local_bh_enable: still taken). Any other outermost softirq while it
 * is current is its own.
 *
 * A preemption that follows an interruption within join_ns starts at the interruption (the
 * interrupt caused it). Gaps of threshold_ns or more are sent to the ring buffer
 * "follow_records"; shorter ones are only counted (follow_cfg: js_follow_events.h). Its own
 * sleeps (blocked inside a system call) and system calls are counted, never gaps. A separate
 * object from probes.bpf.c; the threads' state and what an interruption does to it are in
 * follow_state.bpf.h, whose maps the probes create and share, and whose softirq part the
 * probes' own softirq programs run where they can (then this object's softirq pair is not
 * attached). Every program here returns at once unless the current (or switching) task is
 * followed. Records are submitted without wakeups; user space drains them on a timer.
 * follow_raw.bpf.c builds every program as raw_tp (tp.h).
 *
 * With children set (jitterscope -- CMD) the processes a followed thread forks are
 * followed too, and theirs in turn: sched_process_fork puts a new process's tgid into the map
 * "follow_forked" before it first runs; its last thread's exit takes it out. The run ends with
 * the first process alone (its JS_FREC_GONE).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "js_follow_events.h"
#include "js_follow_bh.h"
#include "tp.h"
#include "follow_state.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* the rest of the configuration (follow_cfg: follow_state.bpf.h), set between open and load */
#ifdef __TARGET_ARCH_arm64
const volatile __u32 nr_sched_yield = 124; /* __NR_sched_yield (arm64: asm-generic) */
/* a task's user registers: the system call it entered (-1: none) and where it returns */
#define REGS_NR(r) BPF_CORE_READ(r, syscallno)
#define REGS_IP(r) BPF_CORE_READ(r, pc)
#else
const volatile __u32 nr_sched_yield = 24; /* __NR_sched_yield (x86-64) */
#define REGS_NR(r) BPF_CORE_READ(r, orig_ax)
#define REGS_IP(r) BPF_CORE_READ(r, ip)
#endif
const volatile __u32 trace_syscalls = 0;   /* sys_enter/sys_exit attached (--follow-syscalls) */
const volatile __u32 hold_from_waking = 0; /* --marks: a thread holds its CPU from its wake-up */

/* ran - a followed thread switched in on cpu at now: a wake-up's hold there ends its wait */
static __always_inline void ran(__u32 cpu, __u64 now)
{
	struct js_follow_hold *h = bpf_map_lookup_elem(&follow_hold, &cpu);

	if (h)
		js_hold_ran(h, now);
}

/* ---- the scheduler ------------------------------------------------------------------ */

/* entry - what prev entered the kernel for, from its user registers: *nr the system call's
 * number (orig_ax; -1 when not one), *ip the instruction it returns to */
static __always_inline void entry(struct task_struct *prev, long *nr, __u64 *ip)
{
	*nr = -1;
	*ip = 0;
#ifndef JS_RAW_TP /* bpf_task_pt_regs wants a typed task: the raw build traces (follow.c) */
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(prev);

	if (!regs)
		return;
	*nr = (long)REGS_NR(regs);
	*ip = REGS_IP(regs);
#endif
}

static __always_inline void switched_out(struct task_struct *prev, bool preempt, __u32 state,
					 __u32 cpu, __u64 now)
{
	struct js_follow_thread *t = thread(RD(prev, pid), RD(prev, tgid), prev);
	bool in_sys, yield, faulted;
	long nr = -1;
	__u64 ip = 0;

	if (!t)
		return;
	/* a page fault since it last ran, which it is still in (its user registers' ip the
	 * faulting instruction's: not back in user space since) */
	faulted = t->fault_ns > t->in_ns && t->fault_ns <= now;
	if (trace_syscalls) {
		in_sys = t->sys_start;
		yield = in_sys && t->sys_nr == nr_sched_yield;
	} else {
		entry(prev, &nr, &ip);
		if (faulted && t->fault_ip && ip != t->fault_ip)
			faulted = false;
		/* switched out not runnable: from a system call unless from the fault */
		in_sys = !faulted || !t->fault_ip;
		yield = !preempt && nr == nr_sched_yield;
	}
	t->off_start = now;
	t->off_cpu = cpu;
	t->gap_start = now;
	if (preempt || state == TASK_RUNNING) {
		if (yield) {
			t->off_kind = JS_FOLLOW_YIELD;
			t->c.yields++;
		} else {
			t->off_kind = JS_FOLLOW_PREEMPTED;
			t->gap_start = joined(t, now);
		}
	} else if (in_sys) {
		t->off_kind = JS_FOLLOW_SLEEP;
	} else {
		t->off_kind = JS_FOLLOW_BLOCKED;
		/* a page fault since it last ran is what it blocked in */
		if (faulted)
			t->gap_start = t->fault_ns;
		t->gap_start = joined(t, t->gap_start);
	}
	/* a gap keeps its CPU held (a thread first seen here held it since before attach) */
	if (t->off_kind == JS_FOLLOW_PREEMPTED || t->off_kind == JS_FOLLOW_BLOCKED)
		take(t, cpu, 0, now, 0);
	else
		let_go(t, now);
}

static __always_inline void switched_in(struct task_struct *next, __u32 cpu, __u64 now)
{
	__u32 tid = RD(next, pid);
	struct js_follow_thread *t = thread(tid, RD(next, tgid), next);
	__u64 off;

	if (!t)
		return;
	take(t, cpu, now, now, 0);
	if (hold_from_waking)
		ran(cpu, now);
	if (cpu < 64)
		t->c.cpus_mask |= 1ull << cpu;
	bpf_probe_read_kernel_str(t->comm, sizeof(t->comm), next->comm);
	if (t->off_start && t->off_start <= now) {
		off = now - t->off_start;
		switch (t->off_kind) {
		case JS_FOLLOW_PREEMPTED:
			t->c.preempted++;
			t->c.preempted_ns += off;
			gap(tid, t, t->gap_start, now, t->off_cpu, cpu, JS_FOLLOW_PREEMPTED);
			break;
		case JS_FOLLOW_BLOCKED:
			t->c.blocked++;
			t->c.blocked_ns += off;
			gap(tid, t, t->gap_start, now, t->off_cpu, cpu, JS_FOLLOW_BLOCKED);
			break;
		case JS_FOLLOW_SLEEP:
			t->c.sleeps++;
			t->c.sleep_ns += off;
			break;
		default:
			break;
		}
	}
	t->off_start = 0;
	t->in_ns = now;
}

TP("sched_switch")
int BPF_PROG(follow_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u32 cpu = bpf_get_smp_processor_id();
	bool p = followed(RD(prev, pid), RD(prev, tgid)),
	     n = followed(RD(next, pid), RD(next, tgid));
	__u64 now;

	if (!p && !n)
		return 0;
	now = bpf_ktime_get_ns();
	if (p)
		switched_out(prev, preempt, prev_state, cpu, now);
	if (n)
		switched_in(next, cpu, now);
	return 0;
}

TP("sched_migrate_task")
int BPF_PROG(follow_migrate, struct task_struct *p, int dest_cpu)
{
	__u32 tid = RD(p, pid), tgid = RD(p, tgid);
	struct js_follow_thread *t;
	__u64 now;

	if (!followed(tid, tgid))
		return 0;
	t = thread(tid, tgid, p);
	if (!t)
		return 0;
	t->c.migrations++;
	/* moved while it held its CPU (preempted, or woken from a fault's wait): the hold
	 * moves with it, from now */
	if (t->hold && dest_cpu >= 0) {
		now = bpf_ktime_get_ns();
		take(t, (__u32)dest_cpu, now, now,
		     t->off_start && t->off_kind == JS_FOLLOW_SLEEP); /* woken, not yet run */
	}
	return 0;
}

/* with --marks (hold_from_waking) a thread woken from a sleep holds its CPU from its wake-up:
 * a marked iteration waits for it from then. Its CPU is the one it last ran on until the
 * wake-up picks another (sched_migrate_task, above, moves the hold); not loaded otherwise */
TP("sched_waking")
int BPF_PROG(follow_waking, struct task_struct *p)
{
	__u32 tid = RD(p, pid), tgid = RD(p, tgid);
	struct js_follow_thread *t;
	__u64 now;

	if (!hold_from_waking || !followed(tid, tgid))
		return 0;
	t = thread(tid, tgid, p);
	if (!t)
		return 0;
	now = bpf_ktime_get_ns();
	take(t, task_cpu_of(p), now, now, 1);
	return 0;
}

/* group_dead, the tracepoint's second argument since 6.15 or so, is not read: 6.12 and
 * older pass the task alone, and a program reading a second argument does not load there.
 * The group's live count is decremented before the tracepoint in every version: 0 is its
 * last thread (or one exiting with it, as exit_group ends them together: gone then twice) */
TP("sched_process_exit")
int BPF_PROG(follow_exit, struct task_struct *p)
{
	__u32 tid = RD(p, pid), tgid = RD(p, tgid);
	struct js_follow_thread *t;
	bool group_dead;
	__u64 now;

	if (!followed(tid, tgid))
		return 0;
	group_dead = RD(p, signal, live.counter) == 0;
	now = bpf_ktime_get_ns();
	t = thread(tid, tgid, p);
	if (!t)
		return 0;
	/* its name now: a process it forked has exec'd since it was first seen */
	bpf_probe_read_kernel_str(t->comm, sizeof(t->comm), p->comm);
	let_go(t, now);
	send(JS_FREC_EXIT, tid, t, now, now, bpf_get_smp_processor_id(), 0, 0);
	if (group_dead && tgid == follow_cfg.tgid)
		send(JS_FREC_GONE, tid, t, now, now, bpf_get_smp_processor_id(), 0, 0);
	else if (group_dead && follow_cfg.children)
		bpf_map_delete_elem(&follow_forked, &tgid);
	bpf_map_delete_elem(&follow_threads, &tid);
	return 0;
}

/* a followed thread forked a process: followed from its first run (the tracepoint fires
 * before the child is woken); a new thread of a followed process is followed already */
TP("sched_process_fork")
int BPF_PROG(follow_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = RD(child, tgid);
	__u8 one = 1;

	if (!follow_cfg.children || tgid == RD(parent, tgid) ||
	    !followed(RD(parent, pid), RD(parent, tgid)))
		return 0;
	bpf_map_update_elem(&follow_forked, &tgid, &one, BPF_ANY);
	return 0;
}

/* ---- its own system calls and page faults -------------------------------------------- */

TP("sys_enter")
int BPF_PROG(follow_sys_enter, struct pt_regs *regs, long id)
{
	__u64 pt = bpf_get_current_pid_tgid();
	struct js_follow_thread *t;

	if (!followed((__u32)pt, pt >> 32))
		return 0;
	t = thread((__u32)pt, pt >> 32, NULL);
	if (!t)
		return 0;
	t->sys_start = bpf_ktime_get_ns();
	t->sys_nr = (__u32)id;
	return 0;
}

TP("sys_exit")
int BPF_PROG(follow_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 pt = bpf_get_current_pid_tgid(), now;
	__u32 tid = (__u32)pt;
	struct js_follow_thread *t;

	if (!followed(tid, pt >> 32))
		return 0;
	t = bpf_map_lookup_elem(&follow_threads, &tid);
	if (!t || !t->sys_start)
		return 0;
	now = bpf_ktime_get_ns();
	t->c.syscalls++;
	t->c.syscall_ns += now - t->sys_start;
	t->sys_start = 0;
	return 0;
}

static __always_inline void fault(__u64 ip)
{
	__u64 pt = bpf_get_current_pid_tgid();
	struct js_follow_thread *t;

	if (!followed((__u32)pt, pt >> 32))
		return;
	t = thread((__u32)pt, pt >> 32, NULL);
	if (!t)
		return;
	t->c.faults++;
	t->fault_ns = bpf_ktime_get_ns();
	take(t, bpf_get_smp_processor_id(), 0, t->fault_ns, 0); /* current since before attach */
	t->fault_ip = ip;
}

TP("page_fault_user")
int BPF_PROG(follow_fault_user, unsigned long address, struct pt_regs *regs, unsigned long error)
{
	fault(REGS_IP(regs));
	return 0;
}

TP("page_fault_kernel")
int BPF_PROG(follow_fault_kernel, unsigned long address, struct pt_regs *regs, unsigned long error)
{
	fault(0);
	return 0;
}

TP("irq_handler_entry")
int BPF_PROG(follow_irq_entry, int irq_nr, struct irqaction *action)
{
	follow_enter(false, 0);
	return 0;
}

TP("irq_handler_exit")
int BPF_PROG(follow_irq_exit, int irq_nr, struct irqaction *action, int ret)
{
	follow_leave(true);
	return 0;
}

TP("softirq_entry")
int BPF_PROG(follow_softirq_entry, unsigned int vec_nr)
{
	follow_enter(true, vec_nr);
	return 0;
}

TP("softirq_exit")
int BPF_PROG(follow_softirq_exit, unsigned int vec_nr)
{
	follow_leave(false);
	return 0;
}

/* a softirq raised inside an interruption taken from a followed thread (not inside its own
 * softirq) is taken from it when it runs, even at its own local_bh_enable; loaded only where
 * the CPU's pending softirqs cannot be read instead (follow_cfg.bh_pend_mask 0:
 * js_follow_bh.h, js_bh_pend_in) */
TP("softirq_raise")
int BPF_PROG(follow_softirq_raise, unsigned int vec_nr)
{
	__u32 zero = 0;
	struct js_bh_cpu *s = bpf_map_lookup_elem(&follow_irq, &zero);

	if (s)
		js_bh_raise(&s->bh, vec_nr);
	return 0;
}

#define VECTOR_PAIR(tp)                               \
	TP(#tp "_entry")                              \
	int BPF_PROG(follow_##tp##_entry, int vector) \
	{                                             \
		follow_enter(false, 0);               \
		return 0;                             \
	}                                             \
	TP(#tp "_exit")                               \
	int BPF_PROG(follow_##tp##_exit, int vector)  \
	{                                             \
		follow_leave(true);                   \
		return 0;                             \
	}

VECTOR_PAIR(local_timer)
VECTOR_PAIR(reschedule)
VECTOR_PAIR(call_function)
VECTOR_PAIR(call_function_single)
VECTOR_PAIR(irq_work)
VECTOR_PAIR(thermal_apic)
VECTOR_PAIR(x86_platform_ipi)
VECTOR_PAIR(error_apic)
VECTOR_PAIR(spurious_apic)

/* arm64's IPIs (x86's are the vectors above); not loaded on x86 (src/probes/arch_x86.c) */
TP("ipi_entry")
int BPF_PROG(follow_ipi_entry, const char *reason)
{
	follow_enter(false, 0);
	return 0;
}

TP("ipi_exit")
int BPF_PROG(follow_ipi_exit, const char *reason)
{
	follow_leave(true);
	return 0;
}

/* an NMI not inside another interruption (but for a softirq of its own, whose own time it is
 * not) is a gap of its own: [now - its handler's time, now] (the tracepoint gives the
 * handler's duration) */
TP("nmi_handler")
int BPF_PROG(follow_nmi, void *handler, s64 delta_ns, int handled)
{
	__u64 pt = bpf_get_current_pid_tgid(), now;
	__u32 zero = 0, tid = (__u32)pt;
	struct js_follow_thread *t;
	struct js_bh_cpu *s;

	if (!followed(tid, pt >> 32) || delta_ns <= 0)
		return 0;
	s = bpf_map_lookup_elem(&follow_irq, &zero);
	if (s && s->bh.depth && (!s->bh.own || s->bh.nest_depth))
		return 0; /* inside an interruption already counted */
	if (s && s->bh.depth)
		s->bh.nest_ns += delta_ns;
	t = bpf_map_lookup_elem(&follow_threads, &tid);
	if (!t)
		return 0;
	now = bpf_ktime_get_ns();
	t->c.interrupted++;
	t->c.interrupted_ns += delta_ns;
	gap(tid, t, now - delta_ns, now, bpf_get_smp_processor_id(), bpf_get_smp_processor_id(),
	    JS_FOLLOW_INTERRUPTED);
	return 0;
}
