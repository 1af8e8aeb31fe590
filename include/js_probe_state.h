/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_probe_state.h - per-CPU probe state shared by bpf/probes.bpf.c and src/probes/ (probes.c,
 * evring.c, open_iv.c): both compilers read it, as they read js_events.h.
 *
 * Not part of the event ABI (that is include/js_events.h, whose records struct js_rec
 * carries): user space reads the rings while the probes run (src/probes/evring.c), and the CPU
 * state only after detaching, to report intervals still open (JS_F_OPEN). Types come from
 * vmlinux.h in BPF and from <linux/types.h> in user space.
 */
#ifndef JS_PROBE_STATE_H
#define JS_PROBE_STATE_H

#define JS_STACK 8     /* nesting depth of interrupt-like intervals per CPU */
#define JS_COMM_LEN 16 /* TASK_COMM_LEN */

/* An interval opened by an *_entry tracepoint and not yet closed by its *_exit. */
struct js_slot {
	__u64 start; /* bpf_ktime_get_ns() at entry */
	__u64 steal; /* host reading at entry (JS_HOST_*), if flags & JS_F_STEAL */
	__u64 addr;
	__u32 kind; /* enum js_ev_kind */
	__u32 id;
	__u32 flags; /* JS_F_STEAL, JS_F_HOST_* (host_read) */
	__u32 pad;
};

#define JS_CUR_VALID 0x1   /* cur_* describe the task running since cur_start */
#define JS_CUR_SAMPLER 0x2 /* ... which is a sampler thread */
#define JS_CUR_KTHREAD 0x4 /* ... which is a kernel thread */
#define JS_CUR_STEAL 0x8   /* cur_steal (a host reading, JS_HOST_*) is valid */
#define JS_CUR_WAKE 0x10   /* cur_wake is valid: who woke it */

/* A workqueue item running on this CPU. Items can sleep, so several kworkers of the CPU can
 * be inside one at a time: a few slots keyed by worker tid. An unbound worker may begin an
 * item here and end it on another CPU: its slot stays behind until the worker's next start
 * here reuses it; an end here closes it only for the same work item, and counts only the
 * worker's last stretch on this CPU (from its switch in: cur_start). */
#define JS_WORK_SLOTS 4
struct js_wslot {
	__u64 start; /* 0 = free */
	__u64 steal;
	__u64 addr; /* work function */
	__u64 work; /* the work_struct: its end must name the same */
	__u32 tid;
	__u32 flags; /* JS_F_STEAL, JS_F_HOST_* (host_read) */
};

/* An --event pair open on this CPU: its opening tracepoint fired at start (0: none open).
 * One per slot, apart from the interrupt stack: a pair that opens in a task and closes
 * elsewhere (or never) leaves the stack as it was. */
struct js_uslot {
	__u64 start;
	__u64 steal;
	__u32 flags; /* JS_F_STEAL, JS_F_HOST_* (host_read) */
	__u32 pad;
};

/* One per CPU (BPF_MAP_TYPE_PERCPU_ARRAY, key 0). Interrupt-like intervals nest as a stack:
 * a push reserves its slot (depth++) before filling it, a pop reads its slot before
 * releasing it, so an interrupt nesting inside either leaves the stack consistent. */
struct js_cpu_state {
	__u32 depth;	 /* may exceed JS_STACK: the extra levels are not recorded */
	__u32 cur_flags; /* JS_CUR_* */
	__u32 cur_pid;	 /* task switched in at cur_start (0 = idle) */
	__u32 measured;	 /* this CPU is measured: set by user space before attaching */
	__u64 cur_start;
	__u64 cur_steal;
	__u64 cur_task;	  /* its task_struct (for its comm if its switch out is unseen) */
	__u64 cur_cgroup; /* its cgroup v2 id (0 for idle and a sampler) */
	__u64 steal_addr; /* this CPU's &steal_time.steal, 0 until learned (or none) */
	__u64 clk_addr;	  /* its kvmclock pvclock_vcpu_time_info, 0 until learned (or none) */
	/* this CPU's ring (struct js_rec): its first record in the map, its length - 1 (set
	 * by user space before attaching); the next index to write, and the index it may not
	 * reach until it reads user space's tail again */
	__u32 ring_base;
	__u32 ring_mask;
	__u64 ring_head;
	__u64 ring_limit;
	union {
		struct js_slot stack[JS_STACK]; /* stack[0] ends the second cache line */
		/* --probes lean pushes nothing: the first slot's line holds the last exit on
		 * this CPU instead (ktime, the steal clock then, JS_F_STEAL if it was read),
		 * the earliest an interruption seen at its exit alone can have begun */
		struct {
			__u64 mark;
			__u64 mark_steal;
			__u32 mark_flags;
			__u32 pad;
		} lean;
	};
	struct js_wslot work[JS_WORK_SLOTS];
	struct js_wake cur_wake;	     /* who woke the current task (JS_CUR_WAKE) */
	struct js_uslot user[JS_USER_SLOTS]; /* --event pairs open on this CPU */
	__u64 overflow;			     /* pushes beyond JS_STACK (rare: off the hot lines) */
};

/*
 * One record of a CPU's ring: a BPF_F_MMAPABLE array holding a ring per CPU (a long one per
 * measured CPU, a short one per other CPU, for what it does to a measured one), written only
 * by that CPU's programs and read by user space from its tail (which it publishes in
 * ring_tail[cpu], section .data.tail). 128 bytes, cache-line aligned: seq and every field
 * but the name and the wake fill the first line, so a record without a name writes one line.
 * seq >> JS_REC_SEQ_SHIFT is the record's index in its ring + 1, written when the slot is
 * taken; JS_REC_DONE is set once the record is whole. A reserved record is always sent
 * (the ring is read in order: user space waits at a record not done).
 */
#define JS_REC_NAMED 0x1ull /* ev.name is valid (else it is a previous record's) */
#define JS_REC_DONE 0x2ull  /* written: user space may read it */
#define JS_REC_SEQ_SHIFT 2
struct js_rec {
	__u64 seq;
	struct js_event ev; /* its wake fills the second line */
} __attribute__((aligned(64)));

/* The last wake-up of a task whose CPU is a measured one (sched_waking, on the waker's CPU),
 * by thread id in an LRU hash: taken (at = 0) by its next switch in on a measured CPU. */
struct js_wake_slot {
	__u64 at; /* bpf_ktime_get_ns() at the wake-up; 0: taken */
	struct js_wake w;
};

/* Rare task-context intervals (compaction, THP collapse) can sleep and move: they live in
 * task-local storage. */
struct js_tslot {
	__u64 start; /* 0 = not open */
	__u64 steal;
	__u64 addr;
	__u32 cpu;
	__u32 flags; /* JS_F_STEAL, JS_F_HOST_* (host_read) */
};

struct js_task_slots {
	struct js_tslot compact;
	struct js_tslot thp;
};

#endif /* JS_PROBE_STATE_H */
