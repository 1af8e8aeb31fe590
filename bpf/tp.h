/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp.h - one source, two builds of each BPF object. By default tp_btf programs, which load
 * through the tracepoints' typed pointers directly (the kernel checks each access against
 * its own BTF). With JS_RAW_TP (probes_raw.bpf.c, follow_raw.bpf.c) raw_tp programs, which
 * read the same fields with CO-RE probe reads and call no kfunc: they need no BTF from the
 * kernel, only types to relocate against (the kernel's, or --btf FILE), for a kernel that
 * exposes no BTF of its own or lacks what the typed build calls (src/probes/kbtf.c: which one
 * loads). Everything else is the same code.
 */
#ifndef JS_TP_H
#define JS_TP_H

#ifdef JS_RAW_TP
#define TP(name) SEC("raw_tp/" name)
/* RD(p, a, b, ...) - p->a->b...: a direct load (tp_btf), a CO-RE probe read (raw_tp) */
#define RD(...) BPF_CORE_READ(__VA_ARGS__)
/* CURRENT() - the current task */
#define CURRENT() ((struct task_struct *)bpf_get_current_task())
#else
#define TP(name) SEC("tp_btf/" name)
#define RD(...) RD_N(__VA_ARGS__, RD5, RD4, RD3, RD2, _)(__VA_ARGS__)
#define CURRENT() bpf_get_current_task_btf()
#endif

#define RD_N(_1, _2, _3, _4, _5, N, ...) N
#define RD2(p, a) ((p)->a)
#define RD3(p, a, b) ((p)->a->b)
#define RD4(p, a, b, c) ((p)->a->b->c)
#define RD5(p, a, b, c, d) ((p)->a->b->c->d)

struct task_struct___old {
	int cpu;
} __attribute__((preserve_access_index));

/* task_cpu_of - the CPU a task is on, or last ran on (where a wake-up puts it unless it
 * moves; before a migration, the one it leaves) */
static __always_inline __u32 task_cpu_of(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return RD(p, thread_info.cpu);
	return BPF_CORE_READ((struct task_struct___old *)p, cpu);
}

/* current_rq - this CPU's run queue (&runqueues there), from the current task's cfs_rq
 * (any task's: an RT one's too), checked against cpu; 0 when unknown */
static __always_inline __u64 current_rq(__u32 cpu)
{
	struct task_struct *t = CURRENT();
	__u64 rq;

	if (!bpf_core_field_exists(t->se.cfs_rq))
		return 0;
	rq = (__u64)BPF_CORE_READ(t, se.cfs_rq, rq);
	if (!rq || BPF_CORE_READ((struct rq *)rq, cpu) != (int)cpu)
		return 0;
	return rq;
}

#endif /* JS_TP_H */
