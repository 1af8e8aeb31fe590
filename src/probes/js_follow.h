/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_follow.h - the programs that follow an application's threads (bpf/follow.bpf.c): load,
 * attach, drain, read each thread's counts, detach. The ABI: js_follow_events.h.
 *
 * Life cycle, as the threads' gap source (threads.c) uses it: follow_open() after the
 * probes loaded; follow_attach() with them, before the window opens (attaching IPIs every
 * CPU); follow_consume() on the drain timer; follow_detach(), a last follow_consume(),
 * follow_threads() for the counts of the threads still alive; follow_destroy(). One thread
 * at a time: the handle is not locked.
 */
#ifndef JS_FOLLOW_H
#define JS_FOLLOW_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_follow_events.h"

struct js_follow;
struct js_probes;

struct follow_opts {
	int pid;	 /* every thread of this process, or 0 */
	bool children;	 /* with pid: and of every process it starts (jitterscope -- CMD) */
	const int *tids; /* else these threads */
	size_t ntids;
	uint64_t threshold_ns; /* gaps shorter than this are counted, not sent */
	uint64_t join_ns;      /* 0: the default (JS_FOLLOW_JOIN_NS) */
	const char *btf_path;  /* --btf FILE: the kernel's types (js_kbtf.h); NULL: its own */
	bool syscalls;	       /* --follow-syscalls: sys_enter/sys_exit attached, counted */
	/* the probes, loaded with these options (probes_opts.follow), or NULL: the threads'
	 * maps are theirs, shared by fd (bpf/follow_state.bpf.h) */
	const struct js_probes *probes;
	bool probes_toggled;   /* --probe-toggle: the probes come and go: softirqs traced here */
	bool hold_from_waking; /* --marks: a thread holds its CPU from its wake-up (sched_waking) */
};

struct js_kbtf;
/* follow_cfg_of - what o follows and its gaps' rules, as both objects' rodata has them
 * (from k, the kernel's types and the build that loads: where the CPU's pending softirqs
 * are, whether the system calls are traced) */
void follow_cfg_of(const struct follow_opts *o, const struct js_kbtf *k, struct js_follow_cfg *c);
/* follow_open - open and load; < 0 with a reason in why */
int follow_open(struct js_follow **out, const struct follow_opts *o, char *why, size_t len);
/* follow_syscalls_traced - are its system calls traced (asked, or the raw_tp build, which
 * cannot read a task's registers at a switch) */
bool follow_syscalls_traced(const struct js_follow *f);
/* follow_attach - attach every program (an interruption's exit before its entry); a pair one
 * of whose halves fails is left out, and so is each program whose work the probes' own
 * programs take (probes, attached now, or NULL: probes_follow_take;
 * until follow_detach); 0, or -errno when a program the gaps need (the scheduler's) failed */
int follow_attach(struct js_follow *f, struct js_probes *probes);
/* follow_consume - deliver the records written since (never blocks); the number delivered
 * or -errno */
int follow_consume(struct js_follow *f, void (*cb)(void *ctx, const struct js_follow_rec *r),
		   void *ctx);
/* follow_fill - the bytes the last follow_consume() read (records with their headers), of
 * the ring's *size */
void follow_fill(const struct js_follow *f, size_t *used, size_t *size);
/* follow_threads - each followed thread still in the map: its tid and state */
void follow_threads(struct js_follow *f,
		    void (*cb)(void *ctx, uint32_t tid, const struct js_follow_thread *t),
		    void *ctx);
/* follow_lost - records the ring could not take; threads beyond the map's room (both
 * objects' counts) */
void follow_lost(const struct js_follow *f, uint64_t *records, uint64_t *threads);
/* follow_progs - each attached program's name and the kernel's run statistics (runs and
 * run_ns 0 when kernel.bpf_stats_enabled was off; misses, the runs the kernel skipped as
 * recursive, always) */
void follow_progs(struct js_follow *f,
		  void (*cb)(void *ctx, const char *name, uint64_t runs, uint64_t run_ns,
			     uint64_t misses),
		  void *ctx);
/* follow_detach - detach every program (and take the softirq work back from the probes) */
void follow_detach(struct js_follow *f);
/* follow_destroy - free everything (detaches if needed); accepts NULL */
void follow_destroy(struct js_follow *f);

#endif /* JS_FOLLOW_H */
