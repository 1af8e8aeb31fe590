/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_events.h - the event ABI between the BPF probes (bpf/) and user space (src/): what an
 * event says. The mmapped ring's record that carries it (struct js_rec) and the per-CPU
 * state user space reads after detaching are js_probe_state.h's; the followed threads'
 * records are js_follow_events.h's.
 *
 * Fixed-size records, __u32/__u64 fields only, no pointers. User code must include
 * <linux/types.h> first; BPF code gets the types from vmlinux.h.
 */
#ifndef JS_EVENTS_H
#define JS_EVENTS_H

#define JS_MAX_CPUS 1024 /* size of the BPF-side cpu filter */
#define JS_NAME_LEN 32	 /* comm, irq action name, function symbol */
#define JS_USER_SLOTS 8	 /* --event: tracepoints the user may name (JS_EV_USER) */

/* What a js_event record describes. Intervals have start_ns < end_ns; point
 * events (page faults, tlb flushes, ipi sends) have start_ns == end_ns unless
 * the probe could bound them. */
enum js_ev_kind {
	JS_EV_NONE = 0,
	JS_EV_IRQ,	/* hard IRQ handler: id = irq number, name = action */
	JS_EV_VECTOR,	/* APIC vector handler: id = enum js_vector */
	JS_EV_SOFTIRQ,	/* softirq: id = enum js_softirq */
	JS_EV_HRTIMER,	/* hrtimer callback: addr = function address */
	JS_EV_NMI,	/* NMI handler: addr = handler address */
	JS_EV_FAULT,	/* page fault: id = pid of faulting task, addr = address,
	                     * flags: JS_F_KERNEL, JS_F_SAMPLER */
	JS_EV_TASK,	/* another task ran on the CPU: id = pid, name = comm,
	                     * addr = its cgroup v2 id (0: unknown), flags: JS_F_KTHREAD */
	JS_EV_IDLE,	/* the CPU was idle while the sampler was off it */
	JS_EV_WORK,	/* workqueue item: addr = work function, id = worker pid */
	JS_EV_THP,	/* huge page collapse / khugepaged scan: id = enum js_thp,
	                     * addr = the kernel's scan result (SCAN_SUCCEED = 1),
	                     * name = the collapsing task (COLLAPSE) */
	JS_EV_TLB,	/* tlb flush on the CPU: id = enum js_tlb_reason */
	JS_EV_IPI_SEND, /* IPI sent towards a measured CPU (recorded on the sender):
	                     * cpu = target, id = sender pid, name = sender comm,
	                     * addr = callsite, callback = the function the target
	                     * runs (0 for a reschedule IPI), cgroup = the sender's
	                     * cgroup v2 id */
	JS_EV_MIGRATE,	/* compaction / page migration on the CPU: id = enum js_mm */
	JS_EV_USER,	/* a tracepoint the user named (--event): id = its slot, below
	                     * JS_USER_SLOTS; a point, or for a pair the interval from its
	                     * opening tracepoint to its closing one on the CPU */
	JS_EV_KIND_MAX
};

/* Names of these enums: js_event_names.h (user space only). */

/* APIC vectors (irq_vectors:*_entry/exit) */
enum js_vector {
	JS_VEC_LOCAL_TIMER = 0,
	JS_VEC_RESCHEDULE,
	JS_VEC_CALL_FUNCTION,
	JS_VEC_CALL_FUNCTION_SINGLE,
	JS_VEC_IRQ_WORK,
	JS_VEC_THERMAL,
	JS_VEC_PLATFORM_IPI,
	JS_VEC_ERROR,
	JS_VEC_SPURIOUS,
	JS_VEC_IPI_OTHER, /* arm64: CPU stop, crash stop, wake-up IPIs (ipi:ipi_entry) */
	JS_VEC_MAX
};

/* softirq vectors: the kernel's numbering (HI_SOFTIRQ = 0 ... in linux/interrupt.h) */
enum js_softirq {
	JS_SOFTIRQ_HI = 0,
	JS_SOFTIRQ_TIMER,
	JS_SOFTIRQ_NET_TX,
	JS_SOFTIRQ_NET_RX,
	JS_SOFTIRQ_BLOCK,
	JS_SOFTIRQ_IRQ_POLL,
	JS_SOFTIRQ_TASKLET,
	JS_SOFTIRQ_SCHED,
	JS_SOFTIRQ_HRTIMER,
	JS_SOFTIRQ_RCU,
	JS_SOFTIRQ_MAX
};

/* tlb_flush reasons: the kernel's enum tlb_flush_reason (linux/mm_types.h) */
enum js_tlb_reason {
	JS_TLB_TASK_SWITCH = 0, /* TLB_FLUSH_ON_TASK_SWITCH */
	JS_TLB_REMOTE_SHOOTDOWN,
	JS_TLB_LOCAL_SHOOTDOWN,
	JS_TLB_LOCAL_MM_SHOOTDOWN,
	JS_TLB_REMOTE_SEND_IPI,
	JS_TLB_REMOTE_WRONG_CPU,
	JS_TLB_REASON_MAX
};

enum js_thp {
	JS_THP_COLLAPSE = 0, /* huge_memory:mm_collapse_huge_page */
	JS_THP_ISOLATE,	     /* huge_memory:mm_collapse_huge_page_isolate */
	JS_THP_SCAN_PMD,     /* huge_memory:mm_khugepaged_scan_pmd */
	JS_THP_SCAN_FILE,    /* huge_memory:mm_khugepaged_scan_file */
	JS_THP_MAX
};

enum js_mm {
	JS_MM_COMPACT = 0, /* compaction:mm_compaction_begin/end */
	JS_MM_MIGRATE,	   /* migrate:mm_migrate_pages */
	JS_MM_MAX
};

#define JS_F_KERNEL 0x1u /* fault: kernel-mode fault */
#define JS_F_SAMPLER \
	0x2u		  /* fault/tlb: hit the sampler thread itself;
                              * thp: the sampler's memory */
#define JS_F_KTHREAD 0x4u /* task: a kernel thread */
#define JS_F_OPEN 0x8u	  /* interval still open when the probes stopped */
#define JS_F_STEAL 0x10u  /* steal_start/steal_end are the host's readings (JS_HOST_*) */
#define JS_F_REMOTE \
	0x20u /* happened on another CPU but hit the sampler running on `cpu`
                              * (THP collapse/scan of the sampler's memory by khugepaged);
                              * comes with JS_F_SAMPLER */
#define JS_F_NOEND \
	0x40u /* task: its switch out was not traced (the kernel hides some
                              * tasks' switches, e.g. PID 1's threads here): it ran from
                              * start_ns for an unknown part of [start_ns, end_ns] */
#define JS_F_NOSTART \
	0x80u		 /* task/idle: its switch in was not traced: it ran for an
                              * unknown part of [start_ns, end_ns], up to end_ns */
#define JS_F_WAKE 0x100u /* task: wake is valid (who woke it; else wake is zero) */
#define JS_F_HOST_ST \
	0x200u		     /* with JS_F_STEAL: the readings hold the paravirt steal clock and
                              * steal_time.version (else their steal is 0, no version) */
#define JS_F_HOST_CLK 0x400u /* with JS_F_STEAL: the readings hold the kvmclock version */

/*
 * A host reading (steal_start, steal_end with JS_F_STEAL): what the measured CPU's
 * hypervisor shows the guest at that instant, in one word, as the probes carry it from an
 * event's start to its end. Bits 0-47: kvm_steal_time.steal (ns) modulo 2^48 (a difference
 * of two readings is taken modulo 2^48: 78 hours of steal between two readings of a CPU);
 * bits 48-55: the low byte of kvm_steal_time.version (JS_F_HOST_ST); bits 56-63: the low
 * byte of the kvmclock page's pvclock_vcpu_time_info.version (JS_F_HOST_CLK). A version
 * moves by 2 per update by the host: a byte tells 127 updates between two readings apart.
 */
#define JS_HOST_STEAL_MASK 0xffffffffffffull
#define JS_HOST_ST_SHIFT 48
#define JS_HOST_CLK_SHIFT 56
#define JS_F_HOST_READ (JS_F_STEAL | JS_F_HOST_ST | JS_F_HOST_CLK)

/* js_host_steal_delta - the steal between host readings a and b (0 if b is the older) */
static inline __u64 js_host_steal_delta(__u64 a, __u64 b)
{
	__u64 d = (b - a) & JS_HOST_STEAL_MASK;

	return d > JS_HOST_STEAL_MASK / 2 ? 0 : d;
}

/* Where a wake-up came from (struct js_wake.ctx). */
enum js_wake_ctx {
	JS_WAKE_NONE = 0, /* no wake-up of the task was seen */
	JS_WAKE_TASK,	  /* a task woke it (pid, comm; syscall if it was in one) */
	JS_WAKE_HARDIRQ,  /* a hard IRQ handler */
	JS_WAKE_SOFTIRQ,  /* a softirq */
	JS_WAKE_TIMER,	  /* an hrtimer callback (the tick, nanosleep, timerfd...) */
	JS_WAKE_NMI,
	JS_WAKE_UNKNOWN, /* current woke it, the context unknown (no per-CPU offsets) */
	JS_WAKE_CTX_MAX
};

#define JS_WAKE_NOSYS 0xffffu	     /* js_wake.syscall: not in a system call, or unknown */
#define JS_WAKE_LEAD_MAX 0xffffffffu /* js_wake.lead_ns: that long or longer */

/*
 * Who woke a task (JS_EV_TASK with JS_F_WAKE): the last sched_waking of it, recorded on the
 * waker's CPU when the task's CPU was a measured one, before its switch in at start_ns.
 * In an interrupt context pid and comm are the interrupted task's.
 */
struct js_wake {
	char comm[16]; /* the waking task (TASK_COMM_LEN) */
	__u32 pid;     /* its thread id */
	__u32 lead_ns; /* the wake-up was this long before start_ns (saturates) */
	__u16 cpu;     /* the CPU it woke it from */
	__u8 ctx;      /* enum js_wake_ctx */
	__u8 pad;
	__u16 syscall; /* the system call the waker was in, JS_WAKE_NOSYS: none/unknown */
	/* --stacks: the waker's kernel stack at the wake-up, id + 1 (JS_STACKS_MAX); 0: none */
	__u16 stack;
}; /* 32 bytes */

/*
 * --stacks: kernel stacks (bpf_get_stackid) in a BPF_MAP_TYPE_STACK_TRACE map of
 * JS_STACKS_MAX buckets, JS_STACK_DEPTH frames each (the innermost kept). An id names its
 * stack for the whole run (no BPF_F_REUSE_STACKID): a new stack whose bucket holds another
 * one is not kept (the map is full for it), counted, and its event carries no stack.
 */
#define JS_STACKS_MAX 4096 /* buckets: ids 0..4095, carried as id + 1 in a __u16 */
#define JS_STACK_DEPTH 32  /* frames per stack */

#define JS_F_LEAN \
	0x800u /* irq/vector/softirq seen at its exit alone (--probes lean): it began at
                              * or after start_ns (the CPU's previous exit, or the
                              * sampler's switch in), end_ns is its exit; it counts in
                              * the gap that holds end_ns, from that gap's start at the
                              * earliest. start_ns == end_ns: it interrupted another task
                              * or idle, whose time keeps it (counted, no time) */
/* correlate tests JS_F_LEAN on every kind: no other flag may share its bit (JS_F_WAKE did,
 * and a woken task past its gap's end was taken for a lean exit outside it) */
_Static_assert(!(JS_F_LEAN &
		 (JS_F_KERNEL | JS_F_SAMPLER | JS_F_KTHREAD | JS_F_OPEN | JS_F_HOST_READ |
		  JS_F_REMOTE | JS_F_NOEND | JS_F_NOSTART | JS_F_WAKE)),
	       "JS_F_LEAN is a bit of its own");

struct js_event {
	__u64 start_ns; /* bpf_ktime_get_ns() = CLOCK_MONOTONIC */
	__u64 end_ns;
	union {
		__u64 steal_start; /* host reading (JS_HOST_*) at start, if JS_F_STEAL */
		__u64 callback;	   /* IPI_SEND: function the target CPU will run */
	};
	union {
		__u64 steal_end; /* ... and at end */
		__u64 cgroup;	 /* IPI_SEND: the sender's cgroup v2 id */
	};
	__u64 addr;  /* function / fault address / callsite */
	__u32 kind;  /* enum js_ev_kind */
	__u32 cpu;   /* CPU the event happened on (target CPU for IPI_SEND) */
	__u32 id;    /* irq, vector, softirq nr, pid ... (see kind) */
	__u32 flags; /* JS_F_* */
	union {
		char name[JS_NAME_LEN];
		struct {
			char comm[16]; /* TASK: name (TASK_COMM_LEN) */
			__u32 stack;   /* TASK, --stacks: its kernel stack when it switched
			                * out (the CPU's next task came in), id + 1; 0: none */
			__u32 pad[3];
		} task;
	};
	struct js_wake wake; /* task: who woke it, if JS_F_WAKE (not cleared otherwise) */
};			     /* 120 bytes */

/* Counters the probes keep in .bss (one slot per program kind). */
struct js_probe_stats {
	__u64 submitted;
	__u64 lost; /* a ring full: the event is counted here, not sent */
};

#endif /* JS_EVENTS_H */
