/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_probes.h - the eBPF probes (bpf/probes.bpf.c): load, attach, drain, detach.
 *
 * Life cycle, as the pipeline uses it:
 *   probes_open_load()        CPU mask, rings' size, steal offsets -> load (no attach)
 *   probes_add_sampler_tid()  for each sampler thread, before attach
 *   probes_attach()           before sampling starts: attaching patches kernel text,
 *                             which IPIs every CPU (~20 per program here)
 *   probes_consume()          on a timer, from a housekeeping CPU: nothing wakes us
 *   probes_detach()           after sampling stops, then a last probes_consume(), which
 *                             also delivers the intervals still open (JS_F_OPEN)
 *   probes_stats()            events, lost events, per-program BPF run time
 *   probes_destroy()
 * One thread at a time: the handle is not locked. A child forked (and not exec'd) while
 * the probes are attached holds their link fds: detaching takes effect only once it exits
 * (close fds >= 3 in such children, e.g. with close_range()).
 */
#ifndef JS_PROBES_H
#define JS_PROBES_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "js_events.h"

struct follow_opts;

struct js_probes;

#define PROBES_RECORD_BYTES 128 /* a record in a measured CPU's ring */

/* --event: a tracepoint the user named, "SUBSYS:NAME" (attached by NAME, as a raw
 * tracepoint); its records are JS_EV_USER with id its index in probes_opts.user */
struct probes_user_event {
	const char *open;  /* the point, or the pair's opening tracepoint */
	const char *close; /* the pair's closing tracepoint; NULL for a point */
};

struct probes_opts {
	const int *cpus; /* measured CPUs */
	size_t ncpus;
	pid_t sampler_tgid;   /* our pid: the sampler's threads when none registered */
	size_t ring_bytes;    /* the measured CPUs' rings in all: 0 = 16 MiB; each CPU's
			       * a power of two records, at least 16 */
	bool verbose;	      /* libbpf debug output */
	bool prog_stats;      /* time the programs (kernel bpf_stats, held while
					 * attached): two clock reads per run. Without it they
					 * are timed only if kernel.bpf_stats_enabled is on */
	const char *btf_path; /* --btf FILE: the kernel's types (js_kbtf.h); NULL: its own */
	const struct follow_opts *follow; /* --pid/--tid/-- CMD: what is followed (the threads'
					   * maps are the probes': follow_opts.probes) */
	bool own_bh_unsent; /* --pid/--tid: a followed thread's own softirqs are not sent
			       * (js_follow_bh.h) */
	bool own_bh_log;    /* ... and with --marks logged instead, for probes_own_bh */
	bool no_waker;	    /* --no-waker: sched_waking not loaded, no waker looked up */
	bool held_only;	    /* --pid/--tid/-- CMD: only what happens on a CPU while a
			       * followed thread holds it is kept, wake-ups and records
			       * (follow_hold) */
	bool lean;	    /* --probes lean: one program per interruption (probes.c's table) */
	bool stacks;	    /* --stacks: the waker's and the preemptor's kernel stacks */
	const struct probes_user_event *user; /* --event: at most JS_USER_SLOTS, in both
					       * probe sets (a point one program, a pair two) */
	size_t nuser;
};

enum probes_prog_state {
	PROBES_PROG_LOADED = 0, /* loaded, not attached (yet) */
	PROBES_PROG_ACTIVE,	/* attached */
	PROBES_PROG_ABSENT,	/* tracepoint (or its pair) not in this kernel */
	PROBES_PROG_FAILED,	/* attach failed: err */
	PROBES_PROG_DETACHED,	/* was active, now detached */
	PROBES_PROG_REJECTED,	/* refused by this kernel's verifier: not loaded */
	PROBES_PROG_UNUSED,	/* not in this run's --probes set, or turned off (--no-waker):
				 * not loaded */
};

struct probes_prog {
	char name[64];	/* its tracepoint's name (lean's exits share their full twin's); an
			 * --event's "SUBSYS:NAME" */
	bool lean_only; /* a program of --probes lean alone */
	bool user;	/* an --event's program (attached to the tracepoint name names) */
	uint32_t id;	/* kernel program id (bpftool prog show id N), 0 if none */
	enum probes_prog_state state;
	int err;		   /* negative errno of a failed attach */
	uint64_t run_cnt;	   /* kernel bpf_stats: invocations ... */
	uint64_t run_time_ns;	   /* ... and their total run time */
	uint64_t recursion_misses; /* runs skipped: the program was already active here */
};

/* probes_ring_recs - records in each measured CPU's ring when the ncpus measured CPUs'
 * rings take want bytes in all (0: 16 MiB): a power of two, at least 16, at most 2^24 in
 * all */
size_t probes_ring_recs(size_t want, size_t ncpus);
/* probes_send_ring_recs - records in the ring of each of nothers CPUs not measured (what
 * they send a measured CPU): a power of two from 64 to 1024, 8 MiB in all at most (with up
 * to JS_MAX_CPUS CPUs) */
size_t probes_send_ring_recs(size_t nothers);

struct probes_stats {
	uint64_t events;   /* records submitted by the probes */
	uint64_t consumed; /* records delivered to callbacks */
	uint64_t lost;	   /* a ring full: counted, not sent */
	uint64_t events_by_kind[JS_EV_KIND_MAX];
	uint64_t lost_by_kind[JS_EV_KIND_MAX];
	uint64_t stack_overflow;	 /* intervals nested deeper than tracked */
	uint64_t sched_mismatch;	 /* switches from a task not seen switching in */
	size_t nprogs;			 /* programs in the object */
	size_t nactive;			 /* ... attached (or attached until detach) */
	const struct probes_prog *progs; /* nprogs entries, valid until destroy */
	bool run_stats;			 /* run_cnt/run_time_ns were collected */
	bool steal_available;		 /* events carry the steal clock (JS_F_HOST_ST) */
	const char *steal_why;		 /* why not, when !steal_available */
	bool clk_available;		 /* readings carry the kvmclock version (JS_F_HOST_CLK) */
	const char *clk_why;		 /* why not, when !clk_available */
	bool waker;			 /* task records may name their waker (JS_F_WAKE) */
	bool waker_ctx;			 /* ... and its context (interrupt or task) */
	bool stacks;			 /* --stacks: task records and wakers carry stack ids */
	uint64_t stack_full;		 /* --stacks: stacks not kept, the map full for them */
	uint64_t stack_fail;		 /* --stacks: stacks not taken (no stack, -EFAULT) */
	uint64_t attach_ns;		 /* wall time of probes_attach() */
	uint64_t detach_ns;		 /* wall time of probes_detach() */
	size_t ring_bytes;		 /* the measured CPUs' rings in all */
	size_t all_rings_bytes;		 /* every CPU's ring: the measured CPUs' and the others' */
};

/* probes_open_load - open and load the probes for o->cpus; < 0 with a human reason in why
 * when BPF, BTF or privileges are missing (the caller then measures without probes) */
int probes_open_load(struct js_probes **out, const struct probes_opts *o, char *why, size_t whylen);
/* probes_map_fd - the fd of the probes' map name (the followed threads' maps, which
 * follow.bpf.c shares: bpf/follow_state.bpf.h); -1 without probes or such a map */
int probes_map_fd(const struct js_probes *p, const char *name);
/* probes_follow_take - on: let the probes' programs that can do follow.bpf.c's work at their
 * tracepoint do it too (loaded with probes_opts.follow, attached, not toggled off):
 * softirq_entry/exit, sched_switch_follow, sched_waking_follow; the JS_FOLLOW_BY_* bits of
 * those that do (js_follow_events.h). off: take it all back (0). Those programs must stay
 * attached until then (follow.bpf.c's own are not) */
unsigned probes_follow_take(struct js_probes *p, bool on);
/* probes_follow_lost - add what the probes' share of the followed threads' work lost:
 * records the ring could not take, threads beyond the map's room */
void probes_follow_lost(const struct js_probes *p, uint64_t *records, uint64_t *threads);
/* probes_own_bh - own_bh_log: the followed threads' own softirqs on cpu that overlap [lo, hi],
 * newest first, as the events they would have been (no host reading), at most room into ev;
 * how many. Those overwritten since (JS_OWN_BH_LOG a CPU: js_follow_bh.h) are not there */
size_t probes_own_bh(const struct js_probes *p, int cpu, uint64_t lo, uint64_t hi,
		     struct js_event *ev, size_t room);
/* probes_add_sampler_tid - mark tid (running on cpu) as a sampler: not reported as a task,
 * its faults and TLB flushes flagged JS_F_SAMPLER; call before probes_attach() */
int probes_add_sampler_tid(struct js_probes *p, int cpu, pid_t tid);
/* probes_attach - attach every loaded program (exits before entries); 0 if at least one */
int probes_attach(struct js_probes *p);
/* probes_consume - deliver the buffered events to cb (never blocks, never polls); returns
 * the number delivered, or a negative errno / negative cb return (which stops delivery).
 * One call delivers at most each ring's worth of records, so it returns even when the
 * callback is slower than the producers (a ring then fills up: lost events, counted).
 * Records are delivered as the probes wrote them (their names: js_event_names.h). */
int probes_consume(struct js_probes *p, int (*cb)(void *ctx, const struct js_event *ev), void *ctx);
/* probes_detach - detach all programs and queue the still-open intervals (JS_F_OPEN) for
 * the next probes_consume() */
void probes_detach(struct js_probes *p);
/* probes_set_attached - while attached (probes_attach), detach every program or attach them
 * again, the probes staying loaded and their rings kept: the bench's observer measure
 * (--probe-toggle). Detaching queues the intervals still open, as probes_detach() does.
 * 0, -EINVAL when already in that state, or -errno of an attach that failed (the others
 * are attached) */
int probes_set_attached(struct js_probes *p, bool on);
/* probes_destroy - free everything (detaches if needed); accepts NULL */
void probes_destroy(struct js_probes *p);
/* probes_stats - counters and per-program statistics (valid until the next call) */
int probes_stats(struct js_probes *p, struct probes_stats *st);
/* probes_lost_on - the events about cpu lost in the kernel so far, every kind (their part of
 * probes_stats' lost, without its system calls: read at every drain); 0 when off */
uint64_t probes_lost_on(const struct js_probes *p, int cpu);
/* probes_fill - the fullest ring (by share) at the last probes_consume(): the bytes read
 * from it and its size (the housekeeping thread's nap follows it, js_nap.h) */
void probes_fill(const struct js_probes *p, size_t *used, size_t *size);
/* probes_stack - --stacks: the kernel stack a record names (its id + 1, js_events.h), its
 * return addresses innermost first into ips (at most max); the number of frames, 0 when the
 * id is 0 or unknown, or -errno */
int probes_stack(const struct js_probes *p, uint32_t id1, uint64_t *ips, size_t max);
/* probes_table_check - the table of which programs each kind of interruption runs under
 * --probes full and lean (probes.c) against both builds of the object: every program it
 * names is there, every lean_ program is in its lean column. 0, or -1 with why (no root) */
int probes_table_check(char *why, size_t len);
#endif /* JS_PROBES_H */
