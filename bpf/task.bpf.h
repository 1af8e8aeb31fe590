/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task.bpf.h - what the probes' records say of a task (bpf/probes.bpf.c): its run on a
 * measured CPU (task_ran; unseen_switch when its switch out was not traced), its cgroup,
 * its kernel stack (stack_of, --stacks), and who woke it from where (take_waker at its
 * switch in; wake_ctx and wake_syscall at sched_waking). sched_switch and sched_waking
 * share them.
 *
 * probes.bpf.c includes it after rec.bpf.h (ev_new, ev_send, is_sampler) and its maps
 * (stacks, wakers; stacks_on, wake_pc_off, wake_hr_off, wake_hr_bit; stack_full, stack_fail,
 * sched_mismatch), and defines PF_KTHREAD.
 */
#ifndef JS_TASK_BPF_H
#define JS_TASK_BPF_H

#define JS_EEXIST 17
#define JS_ENOMEM 12

/* stack_of - --stacks: the current task's kernel stack, its id in stacks + 1; 0 when off or
 * not kept (counted: the map full for it, or no stack) */
static __always_inline __u16 stack_of(void *ctx)
{
	long id;

	if (!stacks_on)
		return 0;
	id = bpf_get_stackid(ctx, &stacks, 0);
	if (id >= 0 && id < JS_STACKS_MAX)
		return (__u16)(id + 1);
	if (id == -JS_EEXIST || id == -JS_ENOMEM)
		__sync_fetch_and_add(&stack_full, 1);
	else
		__sync_fetch_and_add(&stack_fail, 1);
	return 0;
}

/* task_cgroup - a task's cgroup v2 id (its default hierarchy cgroup's kernfs node id, as
 * bpf_get_current_cgroup_id() gives the current task's): three loads from a trusted task */
static __always_inline __u64 task_cgroup(struct task_struct *t)
{
	return RD(t, cgroups, dfl_cgrp, kn, id);
}

/* task_ran - a non-sampler task (or idle) ran on this CPU over [start, now]: TASK or IDLE.
 * comm comes from task, which may have exited: then the name is best effort. */
static __always_inline void task_ran(struct js_cpu_state *s, __u32 cpu, __u32 pid, __u32 cflags,
				     struct task_struct *task, __u64 cgroup, __u64 start, __u64 now,
				     __u64 st0, __u64 st1, __u32 flags, __u16 stack)
{
	__u32 kind = pid ? JS_EV_TASK : JS_EV_IDLE;
	struct js_event *e;
	int free = unheld(cpu, start, now, true);

	if (free) {
		/* --marks: the idle run a woken thread's short wait ends is the CPU idle while
		 * it slept, which a mark may span: logged for the marks, not sent */
		if (!pid && free == JS_HOLD_WAIT && own_bh_logged)
			own_put(cpu, start, now, JS_OWN_BH_IDLE);
		return;
	}
	e = ev_new(s, kind, cpu);
	if (!e)
		return;
	e->start_ns = start;
	e->end_ns = now;
	e->id = pid;
	e->addr = pid ? cgroup : 0;
	e->flags = flags;
	if (cflags & JS_CUR_KTHREAD)
		e->flags |= JS_F_KTHREAD;
	if ((cflags & JS_CUR_STEAL) && (flags & JS_F_STEAL)) {
		e->steal_start = st0;
		e->steal_end = st1;
	} else {
		e->flags &= ~JS_F_HOST_READ;
	}
	if (cflags & JS_CUR_WAKE) {
		e->wake = s->cur_wake;
		e->flags |= JS_F_WAKE;
	}
	bpf_probe_read_kernel(e->name, JS_COMM_LEN, task->comm);
	e->task.stack = stack; /* the name's second half: stale from an earlier record else */
	ev_send(e);
}

/* unseen_switch - prev is not the task we saw switch in (cur): the switch out of cur was
 * not traced (on the target kernel, switches out of PID 1's threads never reach BPF).
 * Both ran within [cur_start, now] with an unknown boundary: report cur with JS_F_NOEND
 * and prev with JS_F_NOSTART, unless they are samplers. */
static __always_inline void unseen_switch(struct js_cpu_state *s, __u32 cpu,
					  struct task_struct *prev, __u64 now, __u32 sflag,
					  __u64 st)
{
	struct task_struct *cur = (struct task_struct *)s->cur_task;
	__u32 pflags = 0, pid = RD(prev, pid);

	__sync_fetch_and_add(&sched_mismatch, 1);
	if (!(s->cur_flags & JS_CUR_SAMPLER))
		task_ran(s, cpu, s->cur_pid, s->cur_flags, cur, s->cur_cgroup, s->cur_start, now,
			 s->cur_steal, st, sflag | JS_F_NOEND, 0);
	if (pid && is_sampler(pid, RD(prev, tgid)))
		return;
	if (RD(prev, flags) & PF_KTHREAD)
		pflags = JS_CUR_KTHREAD;
	task_ran(s, cpu, pid, pflags | (s->cur_flags & JS_CUR_STEAL), prev, /* not cur's wake */
		 pid ? task_cgroup(prev) : 0, s->cur_start, now, s->cur_steal, st,
		 sflag | JS_F_NOSTART, 0);
}

/* take_waker - who woke pid, switched in now, into s->cur_wake (its wake-up taken: a later
 * switch in without a new wake-up finds none); false if none was recorded */
static __always_inline bool take_waker(struct js_cpu_state *s, __u32 pid, __u64 now)
{
	struct js_wake_slot *w = bpf_map_lookup_elem(&wakers, &pid);
	__u64 at, lead;

	if (!w)
		return false;
	at = w->at;
	if (!at || at > now)
		return false;
	w->at = 0;
	s->cur_wake = w->w;
	lead = now - at;
	s->cur_wake.lead_ns = lead > JS_WAKE_LEAD_MAX ? JS_WAKE_LEAD_MAX : (__u32)lead;
	return true;
}

#define PC_NMI 0x00f00000u     /* preempt_count: NMI_MASK */
#define PC_HARDIRQ 0x000f0000u /* HARDIRQ_MASK */
#define PC_SOFTIRQ 0x00000100u /* SOFTIRQ_OFFSET: serving a softirq (not only bh disabled) */

/* wake_ctx - the context of this wake-up: this CPU's preempt count (and whether it runs the
 * hrtimer interrupt), found from its run queue (tp.h, current_rq) by the per-CPU offsets
 * user space put in rodata (src/probes/probes.c, waker_setup) */
static __always_inline __u8 wake_ctx(__u32 cpu)
{
	__u32 pc = 0, hr = 0;
	__u64 rq = wake_pc_off ? current_rq(cpu) : 0;

	if (!rq)
		return JS_WAKE_UNKNOWN;
	if (bpf_probe_read_kernel(&pc, sizeof(pc), (const void *)(rq + wake_pc_off)))
		return JS_WAKE_UNKNOWN;
	if (pc & PC_NMI)
		return JS_WAKE_NMI;
	if (!(pc & (PC_HARDIRQ | PC_SOFTIRQ)))
		return JS_WAKE_TASK;
	if ((pc & PC_HARDIRQ) && wake_hr_off &&
	    !bpf_probe_read_kernel(&hr, sizeof(hr), (const void *)(rq + wake_hr_off)) &&
	    ((hr >> (wake_hr_bit & 31)) & 1))
		return JS_WAKE_TIMER;
	return (pc & PC_HARDIRQ) ? JS_WAKE_HARDIRQ : JS_WAKE_SOFTIRQ;
}

/* wake_syscall - the system call the current task is in (x86: its orig_ax) */
static __always_inline __u16 wake_syscall(void)
{
#if defined(__TARGET_ARCH_x86) && !defined(JS_RAW_TP)
	struct task_struct *t = bpf_get_current_task_btf();
	struct pt_regs *regs;
	long nr;

	if (t->flags & PF_KTHREAD)
		return JS_WAKE_NOSYS;
	regs = (struct pt_regs *)bpf_task_pt_regs(t);
	if (!regs)
		return JS_WAKE_NOSYS;
	nr = BPF_CORE_READ(regs, orig_ax);
	return nr >= 0 && nr < JS_WAKE_NOSYS ? (__u16)nr : JS_WAKE_NOSYS;
#else
	return JS_WAKE_NOSYS; /* the raw_tp build: no typed task for bpf_task_pt_regs() */
#endif
}

#endif /* JS_TASK_BPF_H */
