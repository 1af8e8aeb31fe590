// SPDX-License-Identifier: GPL-2.0
/*
 * probes.bpf.c - what ran on the measured CPUs, as intervals with CLOCK_MONOTONIC start/end.
 *
 * Tracepoints only (no kprobes/fentry on the target kernels): tp_btf, or raw_tp where the
 * verifier refuses a typed function-pointer argument; probes_raw.bpf.c builds every program
 * as raw_tp (tp.h). Every program filters on the measured flag of the per-CPU state it uses
 * anyway (set by user space before attaching), or, when it keeps no state, on the
 * measured-CPU mask in rodata (ipi_send_* run on the sender and filter on the target).
 * Entry/exit pairs nest on a per-CPU stack (js_probe_state.h, rec.bpf.h); task-context pairs
 * that may sleep are keyed by thread. Every CPU writes its records into its own ring (struct
 * js_rec, js_probe_state.h): a measured CPU what happened on it, any CPU what it did to a
 * measured one (IPI sends, khugepaged). User space drains them on a timer from a
 * housekeeping CPU, so no probe ever wakes anyone. Events that do not fit are counted per
 * kind in ev_lost[], never dropped silently.
 *
 * The host's readings (js_events.h, JS_HOST_*): typed ksyms of steal_time are refused
 * without KALLSYMS_ALL, so user space puts (BTF offset of steal_time - offset of
 * hrtimer_bases + offset of .steal) into steal_delta, and (offset of hv_clock_per_cpu -
 * offset of hrtimer_bases) into clk_delta; the first hrtimer expiry on a CPU gives that
 * CPU's hrtimer_bases address (timer->base->cpu_base), hence its steal_time and the
 * kvmclock page its hv_clock_per_cpu points to (set once, when the CPU came up).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "js_events.h"
#include "js_follow_bh.h"
#include "js_follow_events.h"
#include "js_probe_state.h"
#include "tp.h"

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h */

char LICENSE[] SEC("license") = "GPL";

/* configuration, set between open and load */
const volatile __u64 cpu_mask[JS_MAX_CPUS / 64] = {};
const volatile __u32 measured_cpus[JS_MAX_CPUS] = {};
const volatile __u32 nr_measured = 0;
const volatile __u32 sampler_tgid = 0; /* fallback when no sampler tid is registered */
const volatile __u32 steal_enabled = 0;
const volatile __s64 steal_delta = 0; /* &steal_time.steal - &hrtimer_bases, per CPU */
const volatile __u32 clk_enabled = 0;
const volatile __s64 clk_delta = 0; /* &hv_clock_per_cpu - &hrtimer_bases, per CPU */
/* --pid/--tid: a softirq the followed thread ran itself is not sent (follow_irq) */
const volatile __u32 own_bh_unsent = 0;
/* ... with --marks: it is logged in "own_bh" instead (js_follow_bh.h) */
const volatile __u32 own_bh_logged = 0;
const volatile __u32 stacks_on = 0;   /* --stacks: the waker's and the preemptor's stacks */
const volatile __u32 waker_on = 0;    /* sched_waking records wakers, sched_switch takes them */
const volatile __s64 wake_pc_off = 0; /* &__preempt_count - &runqueues (0: context unknown) */
const volatile __s64 wake_hr_off = 0; /* the word of hrtimer_bases.in_hrtirq - &runqueues */
const volatile __u32 wake_hr_bit = 0; /* ... its bit in that word */
/* --pid/--tid/-- CMD, with --marks or not: only what may be a followed thread's gap or in
 * its marked iteration is kept (follow_hold): a wake-up while a followed thread holds the
 * woken task's CPU (a task that may preempt it), and a record of what happened on a CPU
 * while one held it */
const volatile __u32 held_only = 0;
/* --event: bit N set when slot N is a pair (user_open_N opens it, user_close_N closes it);
 * clear, user_open_N records a point */
const volatile __u32 user_pairs = 0;

/* counters and state user space reads through the mmap'ed .bss */
__u64 ev_lost[JS_EV_KIND_MAX] = {};
__u64 ev_lost_cpu[JS_MAX_CPUS] = {}; /* ... by the CPU they were about (written only on a loss) */
__u32 nr_sampler_tids = 0;	     /* written by user space */
__u32 sampler_cpu = 0;		     /* CPU a sampler was last switched in on */
__u64 sampler_mm = 0;		     /* the samplers' mm, learned at switch-in */
__u64 sched_mismatch = 0;	     /* switches whose prev was not the task seen in */
__u64 stack_full = 0; /* --stacks: a stack not kept, its bucket holding another one */
__u64 stack_fail = 0; /* --stacks: bpf_get_stackid failed otherwise (-EFAULT...) */
/* own_bh_logged: each CPU's own softirqs logged so far (js_follow_bh.h) */
__u64 own_bh_head[JS_MAX_CPUS] = {};
/* written by user space: JS_FOLLOW_BY_* (js_follow_events.h), the programs here that do
 * follow.bpf.c's work at their tracepoint too (follow_state.bpf.h), its own not attached.
 * Each does its own work first, then follow.bpf.c's: the order the two objects' programs
 * ran in when both were attached (the probes first). Attribution does not depend on it (a
 * woken task's record may end after the thread's gap it explains: docs/DESIGN.md) */
__u32 follow_on = 0;

/* every CPU's ring, one after the other (js_cpu_state.ring_base): the measured CPUs' first,
 * then a short one for each other CPU, for what it records about a measured one (IPI sends,
 * khugepaged on the samplers' memory). A CPU's own ring spares its programs a ring buffer's
 * lock, the consumer position user space writes, and the header of the record before
 * (docs/DESIGN.md, probes) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* resized by user space before load */
	__type(key, __u32);
	__type(value, struct js_rec);
} ring SEC(".maps");

/* the next record user space will read from each CPU's ring: written by user space at
 * every drain, so in a section of its own, away from the counters in .bss */
__u64 ring_tail[JS_MAX_CPUS] SEC(".data.tail") = {};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct js_cpu_state);
} cpu_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);   /* tid */
	__type(value, __u32); /* cpu */
} sampler_tids SEC(".maps");

/* own_bh_logged: the followed threads' own softirqs, JS_OWN_BH_LOG slots per CPU (resized by
 * user space before load: 1 entry when off) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct js_own_bh);
} own_bh SEC(".maps");

/* on each sender CPU, the function last queued for each target CPU (csd_queue_cpu): an
 * IPI's own callback is the generic queue flush, this names what the target will run */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, JS_MAX_CPUS);
	__type(key, __u32);
	__type(value, __u64);
} csd_func SEC(".maps");

#ifdef JS_RAW_TP
/* no typed task pointer without the kernel's BTF: by thread id, the least recently used
 * forgotten (a hash map update cost 1-3 us here: raw_tp builds only) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct js_task_slots);
} task_slots SEC(".maps");
#else
/* task-local storage: lookups are lock-free (a hash map update cost 1-3 us here) */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct js_task_slots);
} task_slots SEC(".maps");
#endif

/* the last wake-up of each task whose CPU is measured (sched_waking), taken at its switch in
 * on a measured CPU (sched_switch): bounded, the least recently used forgotten */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32); /* the woken thread's id */
	__type(value, struct js_wake_slot);
} wakers SEC(".maps");

/* --stacks: the kernel stacks events name (js_events.h, JS_STACKS_MAX); one bucket when off
 * (probes.c sizes it) */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, JS_STACKS_MAX);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, JS_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* non-zero: every program returns at once. Only written from outside (bench/lib/runner.py,
 * through bpftool), to measure the programs' own cost inside one run; its own map for that */
__u32 paused SEC(".data.pause") = 0;

/* the followed threads' state (--pid/--tid: follow.bpf.c shares these maps), the record
 * library, then what records say of a task: they read the maps above */
#include "follow_state.bpf.h"
#include "rec.bpf.h"
#include "task.bpf.h"

/* ---- hard IRQs -------------------------------------------------------------------- */

TP("irq_handler_entry")
int BPF_PROG(irq_handler_entry, int irq, struct irqaction *action)
{
	push(JS_EV_IRQ, irq, 0);
	return 0;
}

TP("irq_handler_exit")
int BPF_PROG(irq_handler_exit, int irq, struct irqaction *action, int ret)
{
	struct js_event *e = pop(JS_EV_IRQ, irq, true);

	if (!e)
		return 0;
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), RD(action, name));
	ev_send(e);
	return 0;
}

TP("irq_handler_exit")
int BPF_PROG(lean_irq_handler_exit, int irq, struct irqaction *action, int ret)
{
	struct js_event *e = lean_exit(JS_EV_IRQ, irq, 0, true);

	if (!e)
		return 0;
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), RD(action, name));
	ev_send(e);
	return 0;
}

/* ---- APIC vectors ------------------------------------------------------------------- */

/* each vector's entry and exit (full), and its exit alone (lean: the table in probe_table.c) */
#define VECTOR_PAIR(tp, vec)                          \
	TP(#tp "_entry")                              \
	int BPF_PROG(tp##_entry, int vector)          \
	{                                             \
		push(JS_EV_VECTOR, vec, vector);      \
		return 0;                             \
	}                                             \
	TP(#tp "_exit")                               \
	int BPF_PROG(tp##_exit, int vector)           \
	{                                             \
		pop_send(JS_EV_VECTOR, vec);          \
		return 0;                             \
	}                                             \
	TP(#tp "_exit")                               \
	int BPF_PROG(lean_##tp##_exit, int vector)    \
	{                                             \
		lean_send(JS_EV_VECTOR, vec, vector); \
		return 0;                             \
	}

VECTOR_PAIR(local_timer, JS_VEC_LOCAL_TIMER)
VECTOR_PAIR(reschedule, JS_VEC_RESCHEDULE)
VECTOR_PAIR(call_function, JS_VEC_CALL_FUNCTION)
VECTOR_PAIR(call_function_single, JS_VEC_CALL_FUNCTION_SINGLE)
VECTOR_PAIR(irq_work, JS_VEC_IRQ_WORK)
VECTOR_PAIR(thermal_apic, JS_VEC_THERMAL)
VECTOR_PAIR(x86_platform_ipi, JS_VEC_PLATFORM_IPI)
VECTOR_PAIR(error_apic, JS_VEC_ERROR)
VECTOR_PAIR(spurious_apic, JS_VEC_SPURIOUS)

/* ---- arm64 IPIs: ipi:ipi_entry/ipi_exit (x86's are the vectors above) -------------------- */

/* ipi_vec - the vector an arm64 IPI stands for, by the first letter of its reason
 * (arch/arm64/kernel/smp.c ipi_types[]): "Rescheduling interrupts", "Function call
 * interrupts", "Single function call interrupts", "IRQ work interrupts", "Timer broadcast
 * interrupts" (the tick, broadcast), else CPU stop, crash stop and wake-up */
static __always_inline __u32 ipi_vec(const char *reason)
{
	char c = 0;

	bpf_probe_read_kernel(&c, 1, reason);
	switch (c) {
	case 'R':
		return JS_VEC_RESCHEDULE;
	case 'F':
		return JS_VEC_CALL_FUNCTION;
	case 'S':
		return JS_VEC_CALL_FUNCTION_SINGLE;
	case 'I':
		return JS_VEC_IRQ_WORK;
	case 'T':
		return JS_VEC_LOCAL_TIMER;
	}
	return JS_VEC_IPI_OTHER;
}

/* entry and exit name the same reason (ipi_types[ipinr]): they match by its vector */
TP("ipi_entry")
int BPF_PROG(ipi_entry, const char *reason)
{
	push(JS_EV_VECTOR, ipi_vec(reason), 0);
	return 0;
}

TP("ipi_exit")
int BPF_PROG(ipi_exit, const char *reason)
{
	pop_send(JS_EV_VECTOR, ipi_vec(reason));
	return 0;
}

/* ---- IPIs sent towards a measured CPU (run on the sender) -------------------------- */

static __always_inline void ipi_sent(__u32 target, __u64 callsite, __u64 callback)
{
	__u64 id = bpf_get_current_pid_tgid(), *fn;
	struct js_event *e;

	if (unheld(target, 0, 0, false)) /* 0: now */
		return;
	e = remote_point(JS_EV_IPI_SEND, target, (__u32)id, callsite, 0);
	if (!e)
		return;
	/* a call-function IPI: the function queued just before, on this CPU, for the target */
	fn = callback ? bpf_map_lookup_elem(&csd_func, &target) : NULL;
	e->callback = fn && *fn ? *fn : callback;
	if (fn)
		*fn = 0;
	e->cgroup = bpf_get_current_cgroup_id(); /* the sender's (current) */
	bpf_get_current_comm(e->name, sizeof(e->name));
	ev_send(e);
}

/* raw_tp: tp_btf refuses a function-pointer argument ("arg0 type FUNC_PROTO is not a struct") */
SEC("raw_tp/csd_queue_cpu")
int BPF_PROG(csd_queue_cpu, const unsigned int cpu, unsigned long callsite, smp_call_func_t func,
	     call_single_data_t *csd)
{
	__u32 target = cpu;
	__u64 *fn;

	if (!cpu_measured(target))
		return 0;
	fn = bpf_map_lookup_elem(&csd_func, &target);
	if (fn)
		*fn = (__u64)func;
	return 0;
}

TP("ipi_send_cpu")
int BPF_PROG(ipi_send_cpu, const unsigned int cpu, unsigned long callsite, void *callback)
{
	if (cpu_measured(cpu))
		ipi_sent(cpu, callsite, (__u64)callback);
	return 0;
}

struct mask_ctx {
	const struct cpumask *mask;
	__u64 callsite;
	__u64 callback;
};

static long mask_one(__u32 i, struct mask_ctx *c)
{
	__u32 cpu;
	__u64 w;

	if (i >= JS_MAX_CPUS)
		return 1;
	cpu = measured_cpus[i & (JS_MAX_CPUS - 1)];
	if (bpf_probe_read_kernel(&w, sizeof(w), (const void *)c->mask + (cpu / 64) * 8))
		return 1;
	if ((w >> (cpu % 64)) & 1)
		ipi_sent(cpu, c->callsite, c->callback);
	return 0;
}

TP("ipi_send_cpumask")
int BPF_PROG(ipi_send_cpumask, const struct cpumask *mask, unsigned long callsite, void *cb)
{
	struct mask_ctx c = { .mask = mask, .callsite = callsite, .callback = (__u64)cb };

	bpf_loop(nr_measured, mask_one, &c, 0);
	return 0;
}

/* ipi_raise - on the sender, before ipi_send_cpumask existed (Linux 6.6): the targets of an
 * arm64 IPI (not loaded where ipi_send_cpumask is: the same IPI twice, probes.c) */
TP("ipi_raise")
int BPF_PROG(ipi_raise, const struct cpumask *mask, const char *reason)
{
	struct mask_ctx c = { .mask = mask };

	bpf_loop(nr_measured, mask_one, &c, 0);
	return 0;
}

/* ---- softirqs, hrtimers, NMIs ------------------------------------------------------ */

TP("softirq_entry")
int BPF_PROG(softirq_entry, unsigned int vec_nr)
{
	push(JS_EV_SOFTIRQ, vec_nr, 0);
	if (follow_on & JS_FOLLOW_BY_SOFTIRQ)
		follow_enter(true, vec_nr);
	return 0;
}

/* own_log - own softirq b (of vector vec, ending now) into this CPU's slots of "own_bh", then
 * counted: user space reads the slots below the count (js_follow_bh.h) */
static __always_inline void own_log(const struct js_bh_cpu *b, __u32 vec)
{
	own_put(bpf_get_smp_processor_id(), b->start, bpf_ktime_get_ns(), vec);
}

/* own_softirq - is the softirq of vector vec ending now one the current, followed, thread
 * ran itself (its own kernel work: no thread's gap; with --marks, logged for the marks) */
static __always_inline bool own_softirq(__u32 vec)
{
	struct js_bh_cpu *b;
	__u32 zero = 0;

	if (!own_bh_unsent)
		return false;
	b = bpf_map_lookup_elem(&follow_irq, &zero);
	if (!b || !b->own_tid || b->own_vec != vec ||
	    b->own_tid != (__u32)bpf_get_current_pid_tgid())
		return false;
	if (own_bh_logged)
		own_log(b, vec);
	return true;
}

/* drop - close the interval opened by the matching push, sending nothing */
static __always_inline void drop(__u32 kind, __u32 id)
{
	struct js_cpu_state *s = measured_state();
	int i;

	if (!s)
		return;
	i = find(s, kind, id);
	if (i >= 0)
		s->depth = i;
}

TP("softirq_exit")
int BPF_PROG(softirq_exit, unsigned int vec_nr)
{
	if (own_softirq(vec_nr))
		drop(JS_EV_SOFTIRQ, vec_nr);
	else
		pop_send(JS_EV_SOFTIRQ, vec_nr);
	if (follow_on & JS_FOLLOW_BY_SOFTIRQ)
		follow_leave(false);
	return 0;
}

TP("softirq_exit")
int BPF_PROG(lean_softirq_exit, unsigned int vec_nr)
{
	if (own_softirq(vec_nr)) /* no sampler where it is set: no mark to move */
		return 0;
	lean_send(JS_EV_SOFTIRQ, vec_nr, 0);
	return 0;
}

/* learn_steal - this CPU's &steal_time.steal and kvmclock page from its hrtimer_cpu_base
 * (docs/DESIGN.md), both at once: every reading of the CPU has the same parts */
static __always_inline void learn_steal(struct js_cpu_state *s, struct hrtimer *timer, __u32 cpu)
{
	struct hrtimer_cpu_base *cb;

	if ((!steal_enabled && !clk_enabled) || s->steal_addr || s->clk_addr)
		return;
	cb = BPF_CORE_READ(timer, base, cpu_base);
	if (!cb || BPF_CORE_READ(cb, cpu) != cpu)
		return;
#ifdef __TARGET_ARCH_x86
	if (clk_enabled) {
		__u64 pv = 0;

		if (bpf_probe_read_kernel(&pv, sizeof(pv), (void *)((__u64)cb + clk_delta)) || !pv)
			return; /* not set up: learned at a later expiry, or never (said) */
		s->clk_addr = pv + bpf_core_field_offset(struct pvclock_vsyscall_time_info, pvti);
	}
#endif
	if (steal_enabled)
		s->steal_addr = (__u64)cb + steal_delta;
}

/* learn_mm - the samplers' mm, for THP work on it from other CPUs: learned at a sampler's
 * switch-in, or here at a tick that interrupts a sampler spinning since before attach */
static __always_inline void learn_mm(__u32 cpu)
{
	__u64 id;

	if (sampler_mm)
		return;
	id = bpf_get_current_pid_tgid();
	if (!is_sampler((__u32)id, id >> 32))
		return;
	sampler_mm = (__u64)RD(CURRENT(), mm);
	sampler_cpu = cpu;
}

TP("hrtimer_expire_entry")
int BPF_PROG(hrtimer_expire_entry, struct hrtimer *timer, ktime_t *now)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s = measured_state();

	if (!s)
		return 0;
	learn_steal(s, timer, cpu);
	learn_mm(cpu);
	push_on(s, JS_EV_HRTIMER, 0, (__u64)BPF_CORE_READ(timer, function));
	return 0;
}

/* --probes lean: attached only until every measured CPU has learned its steal clock's
 * address, before measuring (src/probes/probes.c) */
TP("hrtimer_expire_entry")
int BPF_PROG(lean_learn, struct hrtimer *timer, ktime_t *now)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s = measured_state();

	if (s)
		learn_steal(s, timer, cpu);
	return 0;
}

TP("hrtimer_expire_exit")
int BPF_PROG(hrtimer_expire_exit, struct hrtimer *timer)
{
	pop_send(JS_EV_HRTIMER, 0);
	return 0;
}

TP("nmi_handler")
int BPF_PROG(nmi_handler, void *handler, s64 delta_ns, int handled)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s;
	struct js_event *e;

	if (!cpu_measured(cpu))
		return 0;
	s = state();
	e = point(s, JS_EV_NMI, cpu, handled, (__u64)handler, 0);
	if (!e)
		return 0;
	if (delta_ns > 0 && (__u64)delta_ns < e->end_ns)
		e->start_ns = e->end_ns - delta_ns;
	ev_send(e);
	return 0;
}

/* ---- page faults, TLB flushes ------------------------------------------------------ */

static __always_inline void fault(unsigned long address, __u32 flags)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s;
	struct js_event *e;

	s = measured_state();
	if (!s)
		return;
	if (current_is_sampler(s))
		flags |= JS_F_SAMPLER;
	e = point(s, JS_EV_FAULT, cpu, (__u32)bpf_get_current_pid_tgid(), address, flags);
	if (!e)
		return;
	bpf_get_current_comm(e->name, sizeof(e->name));
	ev_send(e);
}

TP("page_fault_user")
int BPF_PROG(page_fault_user, unsigned long address, struct pt_regs *regs, unsigned long error)
{
	fault(address, 0);
	return 0;
}

TP("page_fault_kernel")
int BPF_PROG(page_fault_kernel, unsigned long address, struct pt_regs *regs, unsigned long error)
{
	fault(address, JS_F_KERNEL);
	return 0;
}

TP("tlb_flush")
int BPF_PROG(tlb_flush, int reason, unsigned long pages)
{
	__u32 cpu = bpf_get_smp_processor_id(), flags = 0;
	struct js_cpu_state *s;
	struct js_event *e;

	s = measured_state();
	if (!s)
		return 0;
	/* the task switched in (reason 0 fires inside the switch, before `current` changes) */
	if ((s->cur_flags & (JS_CUR_VALID | JS_CUR_SAMPLER)) == (JS_CUR_VALID | JS_CUR_SAMPLER))
		flags = JS_F_SAMPLER;
	e = point(s, JS_EV_TLB, cpu, reason, pages, flags);
	if (e)
		ev_send(e);
	return 0;
}

/* ---- scheduler --------------------------------------------------------------------- */

/* switched - the run of prev on a measured CPU ends, next's begins */
static __always_inline void switched(void *ctx, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id(), pid, flags, sflag;
	struct js_cpu_state *s;
	__u64 now, st = 0;

	s = measured_state();
	if (!s)
		return;
	now = bpf_ktime_get_ns();
	sflag = host_read(s, &st);
	/* the first switch after attach has no start for prev: skip it */
	if (!(s->cur_flags & JS_CUR_VALID))
		;
	else if (s->cur_pid != (__u32)RD(prev, pid))
		unseen_switch(s, cpu, prev, now, sflag, st);
	else if (!(s->cur_flags & JS_CUR_SAMPLER))
		/* prev is current here: its stack is where it left the CPU (idle has none) */
		task_ran(s, cpu, s->cur_pid, s->cur_flags, prev, s->cur_cgroup, s->cur_start, now,
			 s->cur_steal, st, sflag, s->cur_pid ? stack_of(ctx) : 0);
	pid = RD(next, pid);
	flags = JS_CUR_VALID;
	if (sflag)
		flags |= JS_CUR_STEAL;
	if (RD(next, flags) & PF_KTHREAD)
		flags |= JS_CUR_KTHREAD;
	s->cur_cgroup = 0;
	if (pid && is_sampler(pid, RD(next, tgid))) {
		flags |= JS_CUR_SAMPLER;
		sampler_cpu = cpu;
		if (!sampler_mm)
			sampler_mm = (__u64)RD(next, mm);
	} else if (pid) {
		s->cur_cgroup = task_cgroup(next); /* what its TASK record will carry */
		if (waker_on && take_waker(s, pid, now))
			flags |= JS_CUR_WAKE;
	}
	s->cur_pid = pid;
	s->cur_task = (__u64)next;
	s->cur_start = now;
	s->cur_steal = st;
	s->cur_flags = flags;
}

TP("sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switched(ctx, prev, next);
	return 0;
}

/* where threads are followed, loaded instead of sched_switch: follow.bpf.c's work at a switch
 * too (the tracepoint's fourth argument, since 5.18, as follow_switch reads it) */
TP("sched_switch")
int BPF_PROG(sched_switch_follow, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	switched(ctx, prev, next);
	if (follow_on & JS_FOLLOW_BY_SWITCH)
		follow_switch_work(preempt, prev, next, prev_state);
	return 0;
}

/* ---- who woke a task that will run on a measured CPU (all CPUs) ------------------- */

/*
 * sched_waking runs on the waker's CPU, before the wake-up picks the woken task's CPU: kept
 * only when the task's CPU (its last) is measured, so a CPU that is not measured pays a
 * test per wake-up and a map update per wake-up of a task of a measured CPU. With the
 * followed threads watched alone, only while one of them is current (or preempted) there.
 */
static __always_inline void woken(void *ctx, struct task_struct *p)
{
	__u32 cpu = bpf_get_smp_processor_id(), pid, tcpu = task_cpu_of(p);
	struct js_wake_slot v = {};

	if (!cpu_measured(tcpu))
		return;
	if (unheld(tcpu, 0, 0, false)) /* no followed thread holds its CPU now */
		return;
	pid = RD(p, pid);
	if (!pid)
		return;
	v.w.pid = (__u32)bpf_get_current_pid_tgid();
	v.w.cpu = (__u16)cpu;
	v.w.ctx = wake_ctx(cpu);
	v.w.syscall = v.w.ctx == JS_WAKE_TASK ? wake_syscall() : JS_WAKE_NOSYS;
	bpf_get_current_comm(v.w.comm, sizeof(v.w.comm));
	v.w.stack = stack_of(ctx);
	v.at = bpf_ktime_get_ns();
	bpf_map_update_elem(&wakers, &pid, &v, BPF_ANY);
}

TP("sched_waking")
int BPF_PROG(sched_waking, struct task_struct *p)
{
	woken(ctx, p);
	return 0;
}

/* where threads are followed, loaded instead of sched_waking: follow.bpf.c's work at a
 * wake-up too (--marks) */
TP("sched_waking")
int BPF_PROG(sched_waking_follow, struct task_struct *p)
{
	woken(ctx, p);
	if (follow_on & JS_FOLLOW_BY_WAKING)
		follow_waking_work(p);
	return 0;
}

/* ---- workqueue items --------------------------------------------------------------- */

/* work_slot - this worker's slot (want == tid), or a free one (want == 0); -1 if none */
static __always_inline int work_slot(struct js_cpu_state *s, __u32 tid, bool any_free)
{
	int i;

#pragma unroll
	for (i = 0; i < JS_WORK_SLOTS; i++)
		if (s->work[i].start && s->work[i].tid == tid)
			return i;
	if (!any_free)
		return -1;
#pragma unroll
	for (i = 0; i < JS_WORK_SLOTS; i++)
		if (!s->work[i].start)
			return i;
	return 0; /* all taken by items that never ended here (migrated): reuse */
}

TP("workqueue_execute_start")
int BPF_PROG(workqueue_execute_start, struct work_struct *work)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct js_cpu_state *s;
	struct js_wslot *w;
	__u64 now;
	int i;

	s = measured_state();
	if (!s)
		return 0;
	i = work_slot(s, tid, true);
	w = &s->work[i & (JS_WORK_SLOTS - 1)];
	now = bpf_ktime_get_ns();
	w->start = 0; /* a nested claim (preemption) sees it busy only when filled */
	w->tid = tid;
	w->work = (__u64)work;
	w->addr = (__u64)BPF_CORE_READ(work, func);
	w->flags = host_read(s, &w->steal);
	w->start = now;
	return 0;
}

/*
 * The function-pointer argument is not read: tp_btf refuses a typed access to it. The slot
 * closes only for the item it opened for (an unbound worker that began an item here and
 * ended it elsewhere left it: this end is another item's, begun on another CPU), and the
 * interval starts no earlier than the worker's switch in here: its time off this CPU (asleep
 * inside the item, or on another CPU) is not the item's on this one.
 */
TP("workqueue_execute_end")
int BPF_PROG(workqueue_execute_end, struct work_struct *work)
{
	__u32 cpu = bpf_get_smp_processor_id(), tid = (__u32)bpf_get_current_pid_tgid();
	struct js_cpu_state *s;
	struct js_event *e;
	struct js_wslot w;
	__u64 now;
	int i;

	s = measured_state();
	if (!s)
		return 0;
	i = work_slot(s, tid, false);
	if (i < 0)
		return 0;
	w = s->work[i & (JS_WORK_SLOTS - 1)];
	s->work[i & (JS_WORK_SLOTS - 1)].start = 0;
	if (w.work != (__u64)work)
		return 0;
	if ((s->cur_flags & JS_CUR_VALID) && s->cur_pid == tid && w.start < s->cur_start) {
		w.start = s->cur_start;
		w.steal = s->cur_steal; /* the steal clock at that switch */
		w.flags = (s->cur_flags & JS_CUR_STEAL) ? JS_F_STEAL : 0;
	}
	now = bpf_ktime_get_ns();
	e = interval(s, JS_EV_WORK, cpu, tid, w.addr, w.start, now, w.steal, w.flags, false);
	if (e)
		ev_send(e);
	return 0;
}

/* ---- THP: khugepaged scans and collapses ------------------------------------------- */

/* thp_target - the CPU to file a THP event under: this one if measured, else the sampler's
 * CPU when the mm is the samplers' (JS_F_REMOTE); -1 to ignore */
static __always_inline int thp_target(struct mm_struct *mm, __u32 *flags)
{
	__u32 cpu = bpf_get_smp_processor_id();
	bool ours = mm && sampler_mm && (__u64)mm == sampler_mm;

	*flags = ours ? JS_F_SAMPLER : 0;
	if (cpu_measured(cpu))
		return cpu;
	if (!ours)
		return -1;
	*flags |= JS_F_REMOTE;
	return sampler_cpu;
}

static __always_inline void thp_point(struct mm_struct *mm, __u32 id, __u64 status)
{
	struct js_event *e;
	__u32 flags;
	int cpu = thp_target(mm, &flags);

	if (cpu < 0)
		return;
	if (flags & JS_F_REMOTE)
		e = remote_point(JS_EV_THP, cpu, id, status, flags);
	else
		e = point(state(), JS_EV_THP, cpu, id, status, flags);
	if (e)
		ev_send(e);
}

TP("mm_collapse_huge_page_isolate")
int BPF_PROG(mm_collapse_huge_page_isolate, struct folio *folio, int none_or_zero, int referenced,
	     int status)
{
	/* the isolation opens the collapse proper (PMD cleared, TLBs flushed): remember when */
	struct js_tslot *t = tslot(JS_EV_THP, true);

	if (t) {
		t->start = bpf_ktime_get_ns();
		t->cpu = bpf_get_smp_processor_id();
	}
	if (cpu_measured(bpf_get_smp_processor_id()))
		thp_point(NULL, JS_THP_ISOLATE, status);
	return 0;
}

TP("mm_collapse_huge_page")
int BPF_PROG(mm_collapse_huge_page, struct mm_struct *mm, int isolated, int status)
{
	struct js_tslot *t = tslot(JS_EV_THP, false);
	__u64 now = bpf_ktime_get_ns(), start = now;
	struct js_event *e;
	__u32 flags;
	int cpu = thp_target(mm, &flags);

	if (t) {
		if (t->start && t->start <= now)
			start = t->start;
		t->start = 0;
	}
	if (cpu < 0)
		return 0;
	e = ev_new(state(), JS_EV_THP, cpu); /* this CPU's ring, about cpu */
	if (!e)
		return 0;
	e->start_ns = start;
	e->end_ns = now;
	e->id = JS_THP_COLLAPSE;
	e->addr = status;
	e->flags = flags;
	bpf_get_current_comm(e->name, sizeof(e->name));
	ev_send(e);
	return 0;
}

TP("mm_khugepaged_scan_pmd")
int BPF_PROG(mm_khugepaged_scan_pmd, struct mm_struct *mm, struct folio *folio, int referenced,
	     int none_or_zero, int status, int unmapped)
{
	thp_point(mm, JS_THP_SCAN_PMD, status);
	return 0;
}

TP("mm_khugepaged_scan_file")
int BPF_PROG(mm_khugepaged_scan_file, struct mm_struct *mm, struct folio *folio, struct file *file,
	     int present, int swap, int result)
{
	thp_point(mm, JS_THP_SCAN_FILE, result);
	return 0;
}

/* ---- compaction and migration ------------------------------------------------------ */

TP("mm_compaction_begin")
int BPF_PROG(mm_compaction_begin, struct compact_control *cc, unsigned long zone_start,
	     unsigned long zone_end, bool sync)
{
	tbegin(JS_EV_MIGRATE, 0);
	return 0;
}

TP("mm_compaction_end")
int BPF_PROG(mm_compaction_end, struct compact_control *cc, unsigned long zone_start,
	     unsigned long zone_end, bool sync, int status)
{
	struct js_event *e = tend(JS_EV_MIGRATE, JS_MM_COMPACT, status);

	if (e) {
		bpf_get_current_comm(e->name, sizeof(e->name));
		ev_send(e);
	}
	return 0;
}

TP("mm_migrate_pages")
int BPF_PROG(mm_migrate_pages, unsigned long succeeded, unsigned long failed,
	     unsigned long thp_succeeded, unsigned long thp_failed, unsigned long thp_split,
	     unsigned long large_folio_split, enum migrate_mode mode, int reason)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_event *e;

	if (!cpu_measured(cpu))
		return 0;
	e = point(state(), JS_EV_MIGRATE, cpu, JS_MM_MIGRATE, succeeded, 0);
	if (!e)
		return 0;
	bpf_get_current_comm(e->name, sizeof(e->name));
	ev_send(e);
	return 0;
}

/* ---- --event: tracepoints the user named ----------------------------------------------- */

/*
 * Two programs per slot, raw_tp without a target: probes.c attaches user_open_N to the
 * tracepoint of the user's Nth --event and, for a pair, user_close_N to its closing one.
 * Neither reads an argument, so one program fits any tracepoint, on every kernel the probes
 * load on (no attach cookie: 5.15). The measured-CPU filter and the ring are every probe's.
 */
static __always_inline void user_open(__u32 n)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s = measured_state();
	struct js_uslot *u;
	struct js_event *e;

	if (!s)
		return;
	if (!((user_pairs >> n) & 1)) {
		e = point(s, JS_EV_USER, cpu, n, 0, 0);
		if (e)
			ev_send(e);
		return;
	}
	u = &s->user[n & (JS_USER_SLOTS - 1)];
	u->start = 0; /* a nested firing sees it closed until it is filled */
	u->flags = host_read(s, &u->steal);
	u->start = bpf_ktime_get_ns();
}

/* user_close - the pair of slot n closes: its interval since the latest opening on this CPU;
 * a closing without one sends nothing */
static __always_inline void user_close(__u32 n)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct js_cpu_state *s = measured_state();
	struct js_uslot *u;
	struct js_event *e;
	__u64 start;

	if (!s)
		return;
	u = &s->user[n & (JS_USER_SLOTS - 1)];
	start = u->start;
	if (!start)
		return;
	u->start = 0;
	e = interval(s, JS_EV_USER, cpu, n, 0, start, bpf_ktime_get_ns(), u->steal, u->flags,
		     false);
	if (e)
		ev_send(e);
}

#define USER_EVENT(n)                 \
	SEC("raw_tp")                 \
	int user_open_##n(void *ctx)  \
	{                             \
		user_open(n);         \
		return 0;             \
	}                             \
	SEC("raw_tp")                 \
	int user_close_##n(void *ctx) \
	{                             \
		user_close(n);        \
		return 0;             \
	}

USER_EVENT(0)
USER_EVENT(1)
USER_EVENT(2)
USER_EVENT(3)
USER_EVENT(4)
USER_EVENT(5)
USER_EVENT(6)
USER_EVENT(7)
