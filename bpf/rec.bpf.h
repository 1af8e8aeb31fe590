/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rec.bpf.h - the probes' record library (bpf/probes.bpf.c): this CPU's state and whether it
 * is measured, the host's readings, the records of its ring (ev_reserve, then ev_send once
 * written), a point and an interval, the nesting stack of interrupt-like intervals (push,
 * pop), an interruption seen at its exit alone (lean_exit, --probes lean), and the task
 * slots of the task-context intervals that may sleep (tbegin, tend).
 *
 * Not a library of its own: probes.bpf.c includes it after its configuration and maps, which
 * these read (cpu_mask, sampler_tgid, steal_enabled, clk_enabled, ev_lost, nr_sampler_tids,
 * paused, held_only, own_bh_head; ring, ring_tail, cpu_state, sampler_tids, task_slots,
 * follow_hold, own_bh), so
 * that one object keeps one state and one skeleton. The types are include/js_probe_state.h's.
 */
#ifndef JS_REC_BPF_H
#define JS_REC_BPF_H

#define barrier() asm volatile("" ::: "memory")

static __always_inline bool cpu_measured(__u32 cpu)
{
	__u32 w = cpu / 64;

	if (paused)
		return false;
	barrier_var(w); /* check the very register used as the index (verifier) */
	if (w >= JS_MAX_CPUS / 64)
		return false;
	return (cpu_mask[w] >> (cpu % 64)) & 1;
}

static __always_inline struct js_cpu_state *state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_state, &zero);
}

/*
 * measured_state - this CPU's state when it is measured, else NULL. The flag lives in the
 * state the caller is about to use: on a measured CPU, after a VM exit has evicted what the
 * guest had cached, every line a program touches is a miss, and the interruption it traces
 * waits for it (cpu_measured() reads the mask in .rodata: one more line).
 */
static __always_inline struct js_cpu_state *measured_state(void)
{
	struct js_cpu_state *s = state();

	if (!s || !s->measured || paused)
		return NULL;
	return s;
}

#ifndef JS_RAW_TP
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#endif

/* host_read - this CPU's host reading (js_events.h, JS_HOST_*) into *v: its paravirt
 * steal clock and steal_time.version, its kvmclock version, where learned; returns its
 * JS_F_HOST_READ flags (0: nothing learned). Plain loads through a read-only cast (the
 * verifier guards them like a probe read) instead of the probe-read helper's calls: it
 * runs twice per interruption on the measured CPU (the raw_tp build has no kfunc: the
 * helper). steal_addr is &steal_time.steal, the first member of struct kvm_steal_time;
 * clk_addr the CPU's struct pvclock_vcpu_time_info. arm64: user space finds neither
 * (no KVM steal clock, no kvmclock): both addresses stay 0. */
static __always_inline __u32 host_read(struct js_cpu_state *s, __u64 *v)
{
	__u64 sa, ca, r = 0;
	__u32 f = JS_F_STEAL;

	if (!steal_enabled && !clk_enabled) /* bare metal, arm64: pruned at load */
		return 0;
	sa = s->steal_addr;
	ca = s->clk_addr;
	if (!sa && !ca)
		return 0;
#ifdef __TARGET_ARCH_x86
	/* the rodata gates prune what a kernel without these types cannot relocate */
	if (steal_enabled && sa) {
		__u64 steal = 0;
		__u32 ver = 0;
#ifdef JS_RAW_TP
		struct kvm_steal_time *st = (void *)sa;

		bpf_probe_read_kernel(&steal, sizeof(steal), st);
		bpf_core_read(&ver, sizeof(ver), &st->version);
#else
		struct kvm_steal_time *st;

		st = bpf_rdonly_cast((void *)sa, bpf_core_type_id_kernel(struct kvm_steal_time));
		steal = st->steal;
		ver = st->version;
#endif
		r = (steal & JS_HOST_STEAL_MASK) | (__u64)(ver & 0xff) << JS_HOST_ST_SHIFT;
		f |= JS_F_HOST_ST;
	}
	if (clk_enabled && ca) {
		__u32 ver = 0;
#ifdef JS_RAW_TP
		bpf_core_read(&ver, sizeof(ver), &((struct pvclock_vcpu_time_info *)ca)->version);
#else
		struct pvclock_vcpu_time_info *pv;

		pv = bpf_rdonly_cast((void *)ca,
				     bpf_core_type_id_kernel(struct pvclock_vcpu_time_info));
		ver = pv->version;
#endif
		r |= (__u64)(ver & 0xff) << JS_HOST_CLK_SHIFT;
		f |= JS_F_HOST_CLK;
	}
#endif
	*v = r;
	return f;
}

static __always_inline bool is_sampler(__u32 tid, __u32 tgid)
{
	if (nr_sampler_tids)
		return bpf_map_lookup_elem(&sampler_tids, &tid) != NULL;
	return sampler_tgid && tgid == sampler_tgid;
}

static __always_inline bool current_is_sampler(struct js_cpu_state *s)
{
	__u64 id = bpf_get_current_pid_tgid();

	if ((s->cur_flags & JS_CUR_VALID) && s->cur_pid == (__u32)id)
		return s->cur_flags & JS_CUR_SAMPLER;
	return is_sampler((__u32)id, id >> 32);
}

/* unheld - held_only: was cpu held by no followed thread over all of [start, end] (0, 0:
 * now), a record no thread's gap needs (js_hold_free's JS_HOLD_FREE or JS_HOLD_WAIT;
 * at_switch: a run that ended at a switch just now). Not sent then, nor counted lost */
static __always_inline int unheld(__u32 cpu, __u64 start, __u64 end, bool at_switch)
{
	__u32 all = JS_FOLLOW_HOLD_ALL;

	if (!held_only)
		return 0;
	if (!start)
		start = end = bpf_ktime_get_ns();
	return js_hold_free(bpf_map_lookup_elem(&follow_hold, &all),
			    bpf_map_lookup_elem(&follow_hold, &cpu), start, end, at_switch);
}

/* own_put - own_bh_logged: [start, end] of cpu into its next slot of "own_bh", vec a softirq's
 * vector or JS_OWN_BH_IDLE (js_follow_bh.h), counted in own_bh_head after the slot */
static __always_inline void own_put(__u32 cpu, __u64 start, __u64 end, __u32 vec)
{
	struct js_own_bh *e;
	__u64 h, d;
	__u32 key;

	if (cpu >= JS_MAX_CPUS)
		return;
	h = own_bh_head[cpu];
	key = cpu * JS_OWN_BH_LOG + (__u32)(h & (JS_OWN_BH_LOG - 1));
	e = bpf_map_lookup_elem(&own_bh, &key);
	if (!e)
		return;
	e->end_ns = end;
	d = end > start ? end - start : 0;
	e->dur_ns = d < 0xffffffffull ? (__u32)d : 0xffffffffu;
	e->vec = vec;
	__sync_fetch_and_add(&own_bh_head[cpu], 1); /* after the slot: a full barrier */
}

/* ev_lost_one - count a record of kind about cpu that found no room, by kind and by that
 * CPU (whose gaps it may have explained); user space counts what arrives, so the measured
 * CPU's hot path has no shared counter to write */
static __always_inline void ev_lost_one(__u32 kind, __u32 cpu)
{
	if (kind < JS_EV_KIND_MAX)
		__sync_fetch_and_add(&ev_lost[kind], 1);
	__sync_fetch_and_add(&ev_lost_cpu[cpu & (JS_MAX_CPUS - 1)], 1);
}

/*
 * ev_reserve - the next record of this CPU's ring (s: this CPU's state), or NULL (counted
 * lost, as one about cpu). Not cleared: the caller writes every field of the first line,
 * and the name if named. It must be sent (ev_send). The tail user space publishes is read
 * only when the head reaches the limit learned from it the last time.
 */
static __always_inline struct js_event *ev_reserve(struct js_cpu_state *s, __u32 kind, __u32 cpu,
						   bool named)
{
	struct js_rec *r;
	__u64 h, t;
	__u32 k;
	int try;

	if (!s || !s->ring_mask) /* no ring on this CPU (beyond JS_MAX_CPUS) */
		goto lost;
	for (try = 0; try < 2; try++) { /* a nested program may take the slot first */
		h = s->ring_head;
		if (h >= s->ring_limit) {
			t = *(volatile __u64 *)&ring_tail[bpf_get_smp_processor_id() &
							  (JS_MAX_CPUS - 1)];
			s->ring_limit = t + s->ring_mask + 1;
			if (h >= s->ring_limit)
				goto lost;
		}
		k = s->ring_base + (__u32)(h & s->ring_mask);
		r = bpf_map_lookup_elem(&ring, &k);
		if (!r)
			goto lost;
		if (__sync_val_compare_and_swap(&s->ring_head, h, h + 1) != h)
			continue;
		r->seq = ((h + 1) << JS_REC_SEQ_SHIFT) | (named ? JS_REC_NAMED : 0);
		return &r->ev;
	}
lost:
	ev_lost_one(kind, cpu);
	return NULL;
}

/* ev_send - publish a record of this CPU's ring: its seq gets JS_REC_DONE after every
 * field is written (x86 makes stores visible in order; the barrier keeps the compiler's) */
static __always_inline void ev_send(struct js_event *e)
{
	struct js_rec *r = (void *)e - __builtin_offsetof(struct js_rec, ev);
	__u64 seq = r->seq;

	barrier();
	*(volatile __u64 *)&r->seq = seq | JS_REC_DONE;
}

/* ev_clear - a record cleared up to its wake (user space clears that without JS_F_WAKE),
 * with kind and cpu (NULL stays NULL) */
static __always_inline struct js_event *ev_clear(struct js_event *e, __u32 kind, __u32 cpu)
{
	if (!e)
		return NULL;
	__builtin_memset(e, 0, __builtin_offsetof(struct js_event, wake));
	e->kind = kind;
	e->cpu = cpu;
	return e;
}

/* ev_new - a named record from this CPU's ring, cleared, with kind and cpu */
static __always_inline struct js_event *ev_new(struct js_cpu_state *s, __u32 kind, __u32 cpu)
{
	return ev_clear(ev_reserve(s, kind, cpu, true), kind, cpu);
}

/* point - an event without duration on this CPU */
static __always_inline struct js_event *point(struct js_cpu_state *s, __u32 kind, __u32 cpu,
					      __u32 id, __u64 addr, __u32 flags)
{
	__u64 now = bpf_ktime_get_ns(), st;
	struct js_event *e;
	__u32 hf;

	if (unheld(cpu, now, now, false))
		return NULL;
	e = ev_new(s, kind, cpu);
	if (!e)
		return NULL;
	e->start_ns = now;
	e->end_ns = now;
	e->id = id;
	e->addr = addr;
	e->flags = flags;
	if (s && (hf = host_read(s, &st))) {
		e->steal_start = st;
		e->steal_end = st;
		e->flags |= hf;
	}
	return e;
}

/* ev_fill - every field of a record's first line (the record is not cleared first) */
static __always_inline void ev_fill(struct js_event *e, __u32 kind, __u32 cpu, __u32 id, __u64 addr,
				    __u64 start, __u64 end, __u64 st0, __u64 st1, __u32 flags)
{
	e->start_ns = start;
	e->end_ns = end;
	e->steal_start = st0;
	e->steal_end = st1;
	e->addr = addr;
	e->kind = kind;
	e->cpu = cpu;
	e->id = id;
	e->flags = flags;
}

/*
 * interval - a record of [start, now) filed under cpu, in the ring of this CPU (s); with the
 * host's readings at both ends when the start read one (flags & JS_F_STEAL) and s reads
 * one now (its JS_F_HOST_READ flags: the CPU's, the same at both ends once learned).
 * Not yet sent. A record that will get no name is written field by field, not cleared
 * first: its one cache line.
 */
static __always_inline struct js_event *interval(struct js_cpu_state *s, __u32 kind, __u32 cpu,
						 __u32 id, __u64 addr, __u64 start, __u64 now,
						 __u64 steal, __u32 flags, bool named)
{
	struct js_event *e;
	__u64 st = 0;
	__u32 hf;

	if (unheld(cpu, start, now, false))
		return NULL;
	e = named ? ev_new(s, kind, cpu) : ev_reserve(s, kind, cpu, false);
	if (!e)
		return NULL;
	hf = s && (flags & JS_F_STEAL) ? host_read(s, &st) : 0;
	if (!hf)
		steal = st = 0;
	ev_fill(e, kind, cpu, id, addr, start, now, steal, st, hf);
	return e;
}

/* remote_point - a point event written on this CPU about another, measured, CPU cpu: in
 * this CPU's own ring (a short one on a CPU that is not measured), without its steal clock */
static __always_inline struct js_event *remote_point(__u32 kind, __u32 cpu, __u32 id, __u64 addr,
						     __u32 flags)
{
	struct js_event *e = ev_new(state(), kind, cpu);

	if (!e)
		return NULL;
	e->start_ns = bpf_ktime_get_ns();
	e->end_ns = e->start_ns;
	e->id = id;
	e->addr = addr;
	e->flags = flags;
	return e;
}

/* push_on - open an interrupt-like interval on the stack of this (measured) CPU's state s */
static __always_inline void push_on(struct js_cpu_state *s, __u32 kind, __u32 id, __u64 addr)
{
	struct js_slot *sl;
	__u64 now;
	__u32 d;

	now = bpf_ktime_get_ns();
	d = s->depth;
	s->depth = d + 1; /* reserve first: a nested interrupt takes the next slot */
	barrier();
	if (d >= JS_STACK) {
		s->overflow++;
		return;
	}
	sl = &s->stack[d];
	sl->start = now;
	sl->kind = kind;
	sl->id = id;
	sl->addr = addr;
	sl->flags = host_read(s, &sl->steal);
}

/* push - open an interrupt-like interval on this CPU's stack, if it is measured */
static __always_inline void push(__u32 kind, __u32 id, __u64 addr)
{
	struct js_cpu_state *s = measured_state();

	if (s)
		push_on(s, kind, id, addr);
}

/* find - topmost open slot of (kind, id), -1 if none (exit without a recorded entry) */
static __always_inline int find(struct js_cpu_state *s, __u32 kind, __u32 id)
{
	__u32 d = s->depth, top;
	int i;

	if (d > JS_STACK) { /* this exit closes an unrecorded overflow level */
		s->depth = d - 1;
		return -1;
	}
	/* the common case, an exit closing the innermost level: no scan. The mask is kept
	 * (barrier_var): d <= JS_STACK lets the compiler drop it, and a verifier before 6.3
	 * loses d - 1's bounds in the 32-bit subtraction (R3 unbounded memory access, 6.1) */
	top = d - 1;
	barrier_var(top);
	top &= JS_STACK - 1;
	if (d && s->stack[top].kind == kind && s->stack[top].id == id)
		return d - 1;
#pragma unroll
	for (i = JS_STACK - 1; i >= 0; i--) {
		if ((__u32)i >= d)
			continue;
		if (s->stack[i].kind == kind && s->stack[i].id == id)
			return i;
	}
	return -1;
}

/* pop - close the interval opened by the matching push; the record is not yet submitted */
static __always_inline struct js_event *pop(__u32 kind, __u32 id, bool named)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s;
	struct js_slot sl;
	__u64 now;
	int i;

	s = measured_state();
	if (!s)
		return NULL;
	i = find(s, kind, id);
	if (i < 0)
		return NULL;
	barrier_var(i); /* keep the mask (find) */
	sl = s->stack[i & (JS_STACK - 1)];
	barrier();
	s->depth = i; /* release last; drops levels that missed their exit */
	now = bpf_ktime_get_ns();
	return interval(s, kind, cpu, id, sl.addr, sl.start, now, sl.steal, sl.flags, named);
}

static __always_inline void pop_send(__u32 kind, __u32 id)
{
	struct js_event *e = pop(kind, id, false);

	if (e)
		ev_send(e);
}

/*
 * lean_exit - --probes lean: an interruption seen at its exit alone (no entry program runs;
 * the table in src/probes/probe_table.c says which). When it interrupted a sampler, it began after
 * the sampler's last clock read, which user space knows (the gap's start), and no earlier than
 * the CPU's last exit or the sampler's switch in: that is its start_ns (JS_F_LEAN), correlate
 * clips it to the gap. When it interrupted another task or idle, it is a point: that run keeps
 * its time. The steal clock is read once, at the exit, and kept for the next one's start.
 * Not yet sent (named: the caller fills the name).
 */
static __always_inline struct js_event *lean_exit(__u32 kind, __u32 id, __u64 addr, bool named)
{
	__u32 cpu = bpf_get_smp_processor_id(), flags = JS_F_LEAN, ok_now;
	__u64 now, start, st = 0, st0;
	bool ok_start;
	struct js_cpu_state *s;
	struct js_event *e;

	s = measured_state();
	if (!s)
		return NULL;
	now = bpf_ktime_get_ns();
	ok_now = host_read(s, &st);
	start = now;
	st0 = st;
	ok_start = ok_now;
	if (current_is_sampler(s)) {
		start = s->lean.mark;
		st0 = s->lean.mark_steal;
		ok_start = s->lean.mark_flags & JS_F_STEAL;
		if ((s->cur_flags & JS_CUR_VALID) && s->cur_start > start) {
			start = s->cur_start;
			st0 = s->cur_steal;
			ok_start = s->cur_flags & JS_CUR_STEAL;
		}
	}
	s->lean.mark = now;
	s->lean.mark_steal = st;
	s->lean.mark_flags = ok_now ? JS_F_STEAL : 0;
	if (unheld(cpu, start, now, false))
		return NULL;
	e = named ? ev_new(s, kind, cpu) : ev_reserve(s, kind, cpu, false);
	if (!e)
		return NULL;
	if (ok_now && ok_start)
		flags |= ok_now;
	else
		st0 = st = 0;
	ev_fill(e, kind, cpu, id, addr, start, now, st0, st, flags);
	return e;
}

static __always_inline void lean_send(__u32 kind, __u32 id, __u64 addr)
{
	struct js_event *e = lean_exit(kind, id, addr, false);

	if (e)
		ev_send(e);
}

/* tslot - the current thread's slot for kind (MIGRATE or THP) */
static __always_inline struct js_tslot *tslot(__u32 kind, bool create)
{
	struct js_task_slots *ts;
#ifdef JS_RAW_TP
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct js_task_slots zero = {};

	ts = bpf_map_lookup_elem(&task_slots, &tid);
	if (!ts && create && !bpf_map_update_elem(&task_slots, &tid, &zero, BPF_NOEXIST))
		ts = bpf_map_lookup_elem(&task_slots, &tid);
#else
	ts = bpf_task_storage_get(&task_slots, bpf_get_current_task_btf(), 0,
				  create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
#endif
	if (!ts)
		return NULL;
	return kind == JS_EV_THP ? &ts->thp : &ts->compact;
}

/* tbegin - open a task-context interval of the current thread (on a measured CPU) */
static __always_inline void tbegin(__u32 kind, __u64 addr)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s;
	struct js_tslot *t;
	__u64 now;

	if (!cpu_measured(cpu))
		return;
	s = state();
	t = tslot(kind, true);
	if (!s || !t)
		return;
	now = bpf_ktime_get_ns();
	t->addr = addr;
	t->cpu = cpu;
	t->flags = host_read(s, &t->steal);
	t->start = now; /* last: start != 0 marks the slot open */
}

/* tend - close the current thread's interval of kind, opened on this (measured) CPU; an
 * item that migrated meanwhile is lost (rare: kworkers are per-CPU) */
static __always_inline struct js_event *tend(__u32 kind, __u32 id, __u64 addr)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s;
	struct js_tslot *t;
	struct js_event *e;
	__u64 now;

	if (!cpu_measured(cpu))
		return NULL;
	t = tslot(kind, false);
	if (!t || !t->start)
		return NULL;
	now = bpf_ktime_get_ns();
	s = state();
	/* the end steal is only comparable if we are still on the start CPU */
	e = interval(s, kind, t->cpu, id, addr ? addr : t->addr, t->start, now, t->steal,
		     cpu == t->cpu ? t->flags : 0, true);
	t->start = 0;
	return e;
}

#endif /* JS_REC_BPF_H */
