/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_follow_events.h - the ABI between bpf/follow.bpf.c (the programs that follow an
 * application's threads: --pid, --tid) and user space (follow.c, threads.c).
 *
 * Fixed-size records, __u32/__u64 fields only. User code includes <linux/types.h> first;
 * BPF code gets the types from vmlinux.h. The gap kinds are enum js_gap_kind's values
 * (js_model.h): JS_FOLLOW_* mirrors them here, where js_model.h cannot be included.
 */
#ifndef JS_FOLLOW_EVENTS_H
#define JS_FOLLOW_EVENTS_H

/* what kept a followed thread from running (= enum js_gap_kind) */
#define JS_FOLLOW_PREEMPTED 1	/* switched out runnable, until switched back in */
#define JS_FOLLOW_INTERRUPTED 2 /* interrupts while it was current, outermost entry..exit */
#define JS_FOLLOW_BLOCKED 3	/* blocked outside a system call, until switched in */
/* its own: not gaps */
#define JS_FOLLOW_SLEEP 8 /* blocked inside a system call */
#define JS_FOLLOW_YIELD 9 /* switched out runnable inside sched_yield() */

#define JS_FOLLOW_COMM 16

/* What is followed, and the gaps' rules: rodata "follow_cfg" of follow.bpf.c and, where the
 * probes run the followed threads' softirqs (bpf/follow_state.bpf.h), of probes.bpf.c too;
 * both filled by follow_cfg_of() (follow.c). */
struct js_follow_cfg {
	__u32 tgid;	/* --pid: every thread of this process */
	__u32 ntids;	/* --tid: the threads in the map follow_tids */
	__u32 children; /* -- CMD: and every process it starts */
	__u32 pad;
	__u64 threshold_ns; /* a shorter gap is counted, not sent */
	__u64 join_ns;	    /* interruption .. the preemption it caused */
	__u64 bh_join_ns;   /* hard interruption's exit .. its irq_exit softirq */
	/* where this CPU's pending softirqs are, from its run queue (kbtf_bh_pending; mask 0:
	 * unknown, and softirq_raise is traced instead: bpf/follow_state.bpf.h) */
	__s64 bh_pend_off;
	__u32 bh_pend_mask;
	__u32 trace_syscalls;	/* sys_enter/sys_exit attached (--follow-syscalls, raw_tp) */
	__u32 hold_from_waking; /* --marks: a thread holds its CPU from its wake-up */
	__u32 pad2;
};

/* follow.bpf.c's work that the probes' programs do (probes.bpf.c's follow_on, set through
 * probes_follow_take()): its own programs at those tracepoints are then not attached */
#define JS_FOLLOW_BY_SOFTIRQ 1u /* softirq_entry, softirq_exit */
#define JS_FOLLOW_BY_SWITCH 2u	/* sched_switch (the probes' sched_switch_follow) */
#define JS_FOLLOW_BY_WAKING 4u	/* sched_waking (the probes' sched_waking_follow) */

/* their defaults (follow_opts.join_ns 0) */
#define JS_FOLLOW_JOIN_NS 5000
#define JS_FOLLOW_BH_JOIN_NS 5000

/* A thread's counts: what it did on its own, and what kept it from running, short gaps
 * included (user space: struct js_thread_stats). */
struct js_follow_counts {
	__u64 syscalls, syscall_ns;
	__u64 sleeps, sleep_ns;
	__u64 yields;
	__u64 preempted, preempted_ns;
	__u64 interrupted, interrupted_ns;
	__u64 blocked, blocked_ns;
	__u64 faults;
	__u64 migrations;
	/* its switches the kernel did not deliver to BPF: seen leaving twice (its switch in
	 * untraced; a sleep it left for still counted, not its time) or arriving twice */
	__u64 unseen;
	__u64 short_gaps, short_ns; /* gaps below the threshold: counted, not sent */
	__u64 cpus_mask;	    /* CPUs 0-63 it ran on */
	/* softirqs it ran itself, where its own kernel code enabled bottom halves (a send's
	 * local_bh_enable): its own kernel work, not a gap (bpf/follow_state.bpf.h) */
	__u64 own_bh, own_bh_ns;
};

/* One thread's state (hash map "follow_threads", keyed by tid). */
struct js_follow_thread {
	__u64 off_start;	    /* switched out at, 0: on a CPU (or not seen yet) */
	__u64 gap_start;	    /* where that off time's gap starts (an interruption
	                                 * just before it joins it; a fault it blocked in) */
	__u64 sys_start;	    /* in a system call since, 0: not */
	__u64 fault_ns;		    /* its last page fault's entry */
	__u64 fault_ip;		    /* ... a user one's instruction (0: a kernel one) */
	__u64 in_ns;		    /* its last switch in */
	__u64 last_start, last_end; /* its last interruption */
	__u32 off_kind;		    /* JS_FOLLOW_* of the off time */
	__u32 off_cpu;		    /* the CPU it lost */
	__u32 sys_nr;
	__u32 last_short; /* the last interruption was counted short */
	__u32 tgid;
	__u32 hold; /* the CPU it holds + 1, 0: none (js_follow_bh.h) */
	struct js_follow_counts c;
	char comm[JS_FOLLOW_COMM];
};

/* A record in the ring buffer "follow_records". */
#define JS_FREC_GAP 1  /* a gap of the thread: start..end, kind, CPUs */
#define JS_FREC_EXIT 2 /* the thread exited at end_ns: its final counts */
#define JS_FREC_GONE 3 /* the followed process's last thread exited at end_ns */

struct js_follow_rec {
	__u64 start_ns, end_ns; /* CLOCK_MONOTONIC */
	__u32 type;		/* JS_FREC_* */
	__u32 tid, tgid;
	__u32 cpu;    /* where it lost the CPU, or was interrupted */
	__u32 cpu_in; /* where it came back */
	__u32 kind;   /* JS_FOLLOW_PREEMPTED ... */
	char comm[JS_FOLLOW_COMM];
	struct js_follow_counts c; /* JS_FREC_EXIT: its counts; JS_FREC_GAP: only own_bh and
	                                   * own_bh_ns, so far (the rest 0) */
};

#endif /* JS_FOLLOW_EVENTS_H */
