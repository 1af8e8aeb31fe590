/* SPDX-License-Identifier: GPL-2.0 */
/*
 * follow_state.bpf.h - a followed thread's state, and what a switch, a wake-up and an
 * interruption do to it: the part of --pid/--tid/-- CMD that both objects run. follow.bpf.c
 * runs all of it. probes.bpf.c includes it for its softirq_entry/softirq_exit,
 * sched_switch_follow and sched_waking_follow, which, where user space sets their bit in
 * follow_on (JS_FOLLOW_BY_*: attached, and staying attached all run), also do the work of
 * follow.bpf.c's programs at those tracepoints, which are then not attached: one program at
 * a tracepoint, not two (docs/DESIGN.md, "probes and follow: one program at a tracepoint").
 * Every map here is created by the probes (sized to nothing when nothing is followed) and
 * shared with follow.bpf.c by fd (follow.c), so both see one state; each object counts
 * what it lost in its own .bss (follow_lost, follow_untracked; follow.c adds them). Needs
 * vmlinux.h, the BPF helpers, tp.h, js_follow_events.h and js_follow_bh.h.
 */
#ifndef JS_FOLLOW_STATE_BPF_H
#define JS_FOLLOW_STATE_BPF_H

#define TASK_RUNNING 0
#define PF_EXITING 0x00000004
#define FOLLOW_THREADS_MAX 4096

/* what is followed and the gaps' rules (js_follow_events.h), set between open and load */
const volatile struct js_follow_cfg follow_cfg = {
	.threshold_ns = 1000,
	.join_ns = JS_FOLLOW_JOIN_NS,
	.bh_join_ns = JS_FOLLOW_BH_JOIN_NS,
};

/* a task's user registers: the system call it entered (-1: none) and where it returns */
#ifdef __TARGET_ARCH_arm64
#define FOLLOW_NR_SCHED_YIELD 124 /* __NR_sched_yield (arm64: asm-generic) */
#define REGS_NR(r) BPF_CORE_READ(r, syscallno)
#define REGS_IP(r) BPF_CORE_READ(r, pc)
#else
#define FOLLOW_NR_SCHED_YIELD 24 /* __NR_sched_yield (x86-64) */
#define REGS_NR(r) BPF_CORE_READ(r, orig_ax)
#define REGS_IP(r) BPF_CORE_READ(r, ip)
#endif

/* counters user space reads through the mmap'ed .bss */
__u64 follow_lost = 0;	    /* records the ring could not take */
__u64 follow_untracked = 0; /* threads beyond the map's room */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32); /* tid */
	__type(value, __u32);
} follow_tids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FOLLOW_THREADS_MAX);
	__type(key, __u32); /* tid */
	__type(value, struct js_follow_thread);
} follow_threads SEC(".maps");

/* follow_cfg.children: the processes follow_cfg.tgid started, and theirs, while they live */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FOLLOW_THREADS_MAX);
	__type(key, __u32); /* tgid */
	__type(value, __u8);
} follow_forked SEC(".maps");

/* the interruption in progress on this CPU, when it interrupted a followed thread (its own
 * softirq's, for probes.bpf.c too: js_follow_bh.h) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct js_bh_cpu);
} follow_irq SEC(".maps");

/* which CPUs the followed threads hold (current, preempted or blocked outside a system call
 * there; with --marks from their wake-up), and since when: the probes keep what happens on a
 * CPU while one holds it (js_follow_bh.h; the probes' map, fd reused) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, JS_FOLLOW_HOLD_CPUS + 1);
	__type(key, __u32);
	__type(value, struct js_follow_hold);
} follow_hold SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} follow_records SEC(".maps");

/* hold_all - a thread could not be tracked: every CPU counts as held from now on */
static __always_inline void hold_all(void)
{
	__u32 k = JS_FOLLOW_HOLD_ALL;
	struct js_follow_hold *h = bpf_map_lookup_elem(&follow_hold, &k);

	if (h && !h->n)
		h->n = 1;
}

/* let_go - thread t lets go of the CPU it holds, if any, at now */
static __always_inline void let_go(struct js_follow_thread *t, __u64 now)
{
	struct js_follow_hold *h;
	__u32 k;

	if (!t->hold)
		return;
	k = t->hold - 1;
	t->hold = 0;
	h = bpf_map_lookup_elem(&follow_hold, &k);
	if (h)
		js_hold_let_go(h, now);
}

/* take - thread t holds cpu from since (0: from before attach, a thread found current),
 * letting go of the one it held before; woke: at its wake-up */
static __always_inline void take(struct js_follow_thread *t, __u32 cpu, __u64 since, __u64 now,
				 __u32 woke)
{
	struct js_follow_hold *h;

	if (t->hold == cpu + 1)
		return;
	let_go(t, now);
	if (cpu >= JS_FOLLOW_HOLD_CPUS) { /* beyond the slots: every CPU is held */
		hold_all();
		return;
	}
	h = bpf_map_lookup_elem(&follow_hold, &cpu);
	if (!h)
		return;
	js_hold_take(h, since, woke);
	t->hold = cpu + 1;
}

/* followed - is thread tid of process tgid one this run follows */
static __always_inline bool followed(__u32 tid, __u32 tgid)
{
	if (!tid)
		return false; /* the idle task */
	if (follow_cfg.tgid)
		return tgid == follow_cfg.tgid ||
		       (follow_cfg.children && bpf_map_lookup_elem(&follow_forked, &tgid));
	return follow_cfg.ntids && bpf_map_lookup_elem(&follow_tids, &tid);
}

/* thread - tid's state, made on first sight (comm from task, NULL: the current one); NULL
 * when the map is full, or the task is exiting (its exit record went out: no new state) */
static __always_inline struct js_follow_thread *thread(__u32 tid, __u32 tgid,
						       struct task_struct *task)
{
	struct js_follow_thread *t = bpf_map_lookup_elem(&follow_threads, &tid), zero = {};

	if (t)
		return t;
	if (!task)
		task = CURRENT();
	if (RD(task, flags) & PF_EXITING)
		return NULL;
	zero.tgid = tgid;
	bpf_probe_read_kernel_str(zero.comm, sizeof(zero.comm), task->comm);
	if (bpf_map_update_elem(&follow_threads, &tid, &zero, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&follow_threads, &tid)) {
		__sync_fetch_and_add(&follow_untracked, 1);
		hold_all();
		return NULL;
	}
	return bpf_map_lookup_elem(&follow_threads, &tid);
}

/* send - a record of thread t (tid); counted lost when the ring is full */
static __always_inline void send(__u32 type, __u32 tid, struct js_follow_thread *t, __u64 start,
				 __u64 end, __u32 cpu, __u32 cpu_in, __u32 kind)
{
	struct js_follow_rec *r = bpf_ringbuf_reserve(&follow_records, sizeof(*r), 0);

	if (!r) {
		__sync_fetch_and_add(&follow_lost, 1);
		return;
	}
	r->start_ns = start;
	r->end_ns = end;
	r->type = type;
	r->tid = tid;
	r->tgid = t->tgid;
	r->cpu = cpu;
	r->cpu_in = cpu_in;
	r->kind = kind;
	__builtin_memcpy(r->comm, t->comm, sizeof(r->comm));
	if (type == JS_FREC_EXIT) {
		r->c = t->c;
	} else {
		__builtin_memset(&r->c, 0, sizeof(r->c));
		r->c.own_bh = t->c.own_bh; /* a gap: its own softirqs so far (the CSV's) */
		r->c.own_bh_ns = t->c.own_bh_ns;
	}
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

/* gap - a gap of thread t: sent, or counted short */
static __always_inline void gap(__u32 tid, struct js_follow_thread *t, __u64 start, __u64 end,
				__u32 cpu, __u32 cpu_in, __u32 kind)
{
	if (end - start < follow_cfg.threshold_ns) {
		t->c.short_gaps++;
		t->c.short_ns += end - start;
		if (kind == JS_FOLLOW_INTERRUPTED)
			t->last_short = 1;
		return;
	}
	if (kind == JS_FOLLOW_INTERRUPTED)
		t->last_short = 0;
	send(JS_FREC_GAP, tid, t, start, end, cpu, cpu_in, kind);
}

/* joined - where a gap starting now begins: at the last interruption when it ended within
 * follow_cfg.join_ns (its short count is taken back: the gap holds it) */
static __always_inline __u64 joined(struct js_follow_thread *t, __u64 now)
{
	if (!t->last_end || now - t->last_end > follow_cfg.join_ns || t->last_end > now)
		return now;
	if (t->last_short) {
		t->c.short_gaps--;
		t->c.short_ns -= t->last_end - t->last_start;
		t->last_short = 0;
	}
	return t->last_start;
}

/* ---- the scheduler ------------------------------------------------------------------ */

/* ran - a followed thread switched in on cpu at now: a wake-up's hold there ends its wait */
static __always_inline void ran(__u32 cpu, __u64 now)
{
	struct js_follow_hold *h = bpf_map_lookup_elem(&follow_hold, &cpu);

	if (h)
		js_hold_ran(h, now);
}

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

/* in_unseen - t, off its CPU by the last switch seen, is current again: its switch in was
 * not traced (the kernel does not deliver every switch to BPF:
 * docs/OBSERVER.md#untraced-switches). Counted; a sleep it left for still counts, not its
 * time, and a gap's end is not known: not sent. */
static __always_inline void in_unseen(struct js_follow_thread *t)
{
	if (!t->off_start)
		return;
	t->c.unseen++;
	if (t->off_kind == JS_FOLLOW_SLEEP)
		t->c.sleeps++;
	t->off_start = 0;
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
	in_unseen(t);
	/* a page fault since it last ran, which it is still in (its user registers' ip the
	 * faulting instruction's: not back in user space since) */
	faulted = t->fault_ns > t->in_ns && t->fault_ns <= now;
	if (follow_cfg.trace_syscalls) {
		in_sys = t->sys_start;
		yield = in_sys && t->sys_nr == FOLLOW_NR_SCHED_YIELD;
	} else {
		entry(prev, &nr, &ip);
		if (faulted && t->fault_ip && ip != t->fault_ip)
			faulted = false;
		/* switched out not runnable: from a system call unless from the fault */
		in_sys = !faulted || !t->fault_ip;
		yield = !preempt && nr == FOLLOW_NR_SCHED_YIELD;
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
	/* on a CPU already: its switch out was not traced */
	if (!t->off_start && t->in_ns)
		t->c.unseen++;
	take(t, cpu, now, now, 0);
	if (follow_cfg.hold_from_waking)
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

/* follow_switch_work - a switch from prev to next: a followed thread's off time begins or
 * ends (follow.bpf.c's follow_switch, or the probes' sched_switch_follow) */
static __always_inline void follow_switch_work(bool preempt, struct task_struct *prev,
					       struct task_struct *next, unsigned int prev_state)
{
	__u32 cpu = bpf_get_smp_processor_id();
	bool p = followed(RD(prev, pid), RD(prev, tgid)),
	     n = followed(RD(next, pid), RD(next, tgid));
	__u64 now;

	if (!p && !n)
		return;
	now = bpf_ktime_get_ns();
	if (p)
		switched_out(prev, preempt, prev_state, cpu, now);
	if (n)
		switched_in(next, cpu, now);
}

/* follow_waking_work - with --marks (hold_from_waking) a thread woken from a sleep holds its
 * CPU from its wake-up: a marked iteration waits for it from then. Its CPU is the one it
 * last ran on until the wake-up picks another (follow.bpf.c's sched_migrate_task moves the
 * hold) */
static __always_inline void follow_waking_work(struct task_struct *p)
{
	__u32 tid = RD(p, pid), tgid = RD(p, tgid);
	struct js_follow_thread *t;
	__u64 now;

	if (!follow_cfg.hold_from_waking || !followed(tid, tgid))
		return;
	t = thread(tid, tgid, p);
	if (!t)
		return;
	now = bpf_ktime_get_ns();
	take(t, task_cpu_of(p), now, now, 1);
}

/* ---- interruptions while a followed thread is current -------------------------------- */

/* bh_pending - this CPU's pending softirq vectors, from its run queue (follow_cfg.bh_pend_*:
 * set where the kernel's types say where they are; else softirq_raise is traced) */
static __always_inline __u32 bh_pending(void)
{
	__u64 rq = current_rq(bpf_get_smp_processor_id());
	__u32 v = 0;

	if (!rq ||
	    bpf_probe_read_kernel(&v, sizeof(v), (const void *)(rq + follow_cfg.bh_pend_off)))
		return 0;
	return v & follow_cfg.bh_pend_mask;
}

/* follow_enter - an interruption's entry while a followed thread is current (softirq: vector
 * vec's; its own or taken: js_follow_bh.h) */
static __always_inline void follow_enter(bool softirq, __u32 vec)
{
	__u64 pt = bpf_get_current_pid_tgid(), now;
	struct js_follow_thread *t;
	struct js_follow_hold *h;
	__u32 zero = 0, cpu;
	struct js_bh_cpu *s;
	int opened;
	bool outer;

	if (!followed((__u32)pt, pt >> 32))
		return;
	s = bpf_map_lookup_elem(&follow_irq, &zero);
	if (!s)
		return;
	now = bpf_ktime_get_ns();
	opened = js_bh_enter(&s->bh, softirq, vec, now, follow_cfg.bh_join_ns);
	outer = opened & JS_BH_OUTER;
	if ((opened & JS_BH_TRACK) && follow_cfg.bh_pend_mask)
		js_bh_pend_in(&s->bh, bh_pending());
	if (outer) {
		s->start = now;
		s->tid = (__u32)pt;
		/* a thread current since before attach holds its CPU from its first one (one
		 * that switched in holds it already: looked up only while none does) */
		cpu = bpf_get_smp_processor_id();
		h = bpf_map_lookup_elem(&follow_hold, &cpu);
		t = h && !h->n ? thread(s->tid, pt >> 32, NULL) : NULL;
		if (t)
			take(t, cpu, 0, now, 0);
	}
	if (softirq) {
		s->own_tid = outer && s->bh.own ? (__u32)pt : 0;
		s->own_vec = vec;
	}
}

/* follow_leave - an interruption's exit: the outermost one's is a gap (or its own softirq's work,
 * less the hard ones nested in it: each a gap); hard: a hard interruption's (a softirq right
 * after it is the kernel's irq_exit) */
static __always_inline void follow_leave(bool hard)
{
	__u32 zero = 0, tid;
	struct js_follow_thread *t;
	struct js_bh_cpu *s = bpf_map_lookup_elem(&follow_irq, &zero);
	__u64 now, start;
	int what;

	if (!s || !s->bh.depth)
		return;
	now = bpf_ktime_get_ns();
	what = js_bh_leave(&s->bh, hard, now);
	if (what == JS_BH_INNER)
		return;
	if ((what == JS_BH_TAKEN || what == JS_BH_NESTED) && follow_cfg.bh_pend_mask)
		js_bh_pend_out(&s->bh, bh_pending());
	tid = s->tid;
	start = what == JS_BH_NESTED ? s->bh.nest_start : s->start;
	t = bpf_map_lookup_elem(&follow_threads, &tid);
	if (!t) {
		__u64 pt = bpf_get_current_pid_tgid();

		t = thread(tid, pt >> 32, NULL);
		if (!t)
			return;
	}
	if (what == JS_BH_OWN) {
		t->c.own_bh++;
		t->c.own_bh_ns += now - start - s->bh.nest_ns;
		return;
	}
	t->c.interrupted++;
	t->c.interrupted_ns += now - start;
	start = joined(t, start);
	t->last_start = start;
	t->last_end = now;
	gap(tid, t, start, now, bpf_get_smp_processor_id(), bpf_get_smp_processor_id(),
	    JS_FOLLOW_INTERRUPTED);
}

#endif /* JS_FOLLOW_STATE_BPF_H */
