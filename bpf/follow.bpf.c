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
 * object from probes.bpf.c; the threads' state and what a switch, a wake-up and an
 * interruption do to it are in follow_state.bpf.h, whose maps the probes create and share,
 * and whose work at a softirq, a switch and a wake-up the probes' own programs there do
 * where they can (then this object's are not attached). Every program here returns at once unless the current (or switching) task is
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

/* ---- the scheduler ------------------------------------------------------------------ */

TP("sched_switch")
int BPF_PROG(follow_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	follow_switch_work(preempt, prev, next, prev_state);
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

/* with --marks (hold_from_waking) a thread woken from a sleep holds its CPU from its wake-up
 * (follow_waking_work); not loaded otherwise */
TP("sched_waking")
int BPF_PROG(follow_waking, struct task_struct *p)
{
	follow_waking_work(p);
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
	in_unseen(t); /* current as it exits */
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
