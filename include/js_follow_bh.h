/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_follow_bh.h - whose a softirq is, while a followed thread is current: the rule
 * bpf/follow_state.bpf.h applies, in one place for the programs and the unit tests
 * (test_follow_bh).
 *
 * The interruptions of one CPU nest (depth); the outermost one is a gap taken from the
 * thread, or, a softirq, its own kernel work (bottom halves its own code ran when it enabled
 * them: local_bh_enable on its send path, loopback NET_RX). A softirq is taken when it
 * starts within join_ns of a hard interruption's exit (the kernel's irq_exit runs it as the
 * interrupt returns), or when a taken interruption raised its vector and it has not run
 * since (a remote CPU's RPS IPI raising NET_RX while the thread had bottom halves off runs
 * at the thread's own local_bh_enable: still taken). A hard interruption nested in its own
 * softirq is taken from it (a gap of its own, its time not the softirq's), and so are the
 * softirqs it raised. __u32/__u64 types: user code includes <linux/types.h> first.
 */
#ifndef JS_FOLLOW_BH_H
#define JS_FOLLOW_BH_H

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* what js_bh_leave() closed */
#define JS_BH_INNER 0  /* not the outermost interruption (or none open) */
#define JS_BH_TAKEN 1  /* the outermost one, taken from the thread: a gap */
#define JS_BH_OWN 2    /* the outermost one, a softirq of its own: not a gap */
#define JS_BH_NESTED 3 /* a hard one nested in a softirq of its own: a gap from nest_start */

struct js_bh_state {
	__u32 depth;	   /* interruptions open */
	__u32 own;	   /* the outermost open one is a softirq of its own */
	__u32 hard_raised; /* softirq vectors a taken interruption raised, not run since */
	__u32 nest_depth;  /* the depth of the hard one open inside its own softirq (0: none) */
	__u32 pend_in;	   /* the CPU's pending softirqs at the tracked one's entry */
	__u32 pad;
	__u64 hard_end;	  /* the last outermost hard interruption's exit */
	__u64 nest_start; /* ... that nested one's entry */
	__u64 nest_ns;	  /* the nested ones' time inside the outermost one so far */
};

/* what js_bh_enter() opened (bits) */
#define JS_BH_OUTER 1 /* the outermost interruption */
#define JS_BH_TRACK 2 /* one whose raised softirqs are taken: js_bh_pend_in() (below) */

/* js_bh_enter - an interruption's entry at now (softirq: of vector vec); JS_BH_OUTER when it
 * is the outermost one, JS_BH_TRACK when what it raises is taken (the outermost one taken,
 * or a hard one nested in its own softirq), else 0 */
static __always_inline int js_bh_enter(struct js_bh_state *s, int softirq, __u32 vec, __u64 now,
				       __u64 join_ns)
{
	int r = 0;

	if (!s->depth) {
		s->own = softirq && (now - s->hard_end > join_ns || s->hard_end > now) &&
			 !(vec < 32 && (s->hard_raised >> vec & 1));
		s->nest_ns = 0;
		r = JS_BH_OUTER | (s->own ? 0 : JS_BH_TRACK);
	} else if (s->own && !softirq && !s->nest_depth) {
		s->nest_depth = s->depth + 1;
		s->nest_start = now;
		r = JS_BH_TRACK;
	}
	if (softirq && vec < 32)
		s->hard_raised &= ~(1u << vec);
	s->depth++;
	return r;
}

/* js_bh_leave - an interruption's exit at now (hard: an IRQ's or a vector's); JS_BH_* (the
 * outermost softirq's own time: its duration less nest_ns) */
static __always_inline int js_bh_leave(struct js_bh_state *s, int hard, __u64 now)
{
	if (s->depth && s->depth == s->nest_depth) {
		s->depth--;
		s->nest_depth = 0;
		s->nest_ns += now - s->nest_start;
		return JS_BH_NESTED;
	}
	if (!s->depth || --s->depth)
		return JS_BH_INNER;
	if (hard)
		s->hard_end = now;
	if (s->own) {
		s->own = 0;
		return JS_BH_OWN;
	}
	return JS_BH_TAKEN;
}

/* js_bh_raise - softirq vector vec raised (the softirq_raise tracepoint): inside a taken
 * interruption (a hard one nested in its own softirq too), it is taken when it runs */
static __always_inline void js_bh_raise(struct js_bh_state *s, __u32 vec)
{
	if (s->depth && (!s->own || s->nest_depth) && vec < 32)
		s->hard_raised |= 1u << vec;
}

/*
 * The same without tracing softirq_raise, which runs at every raise on every CPU (a
 * loopback server's every send): the CPU's pending softirqs (local_softirq_pending()) read
 * at the entry of an interruption js_bh_enter() says JS_BH_TRACK of, and at the exit that
 * closes it (js_bh_leave() JS_BH_TAKEN or JS_BH_NESTED); a vector pending at the exit and
 * not at the entry was raised inside it. One raised inside it while already pending (the
 * thread's own raise, bottom halves off) stays its own, where the raise tracepoint would
 * have made it taken.
 */
static __always_inline void js_bh_pend_in(struct js_bh_state *s, __u32 pending)
{
	s->pend_in = pending;
}

static __always_inline void js_bh_pend_out(struct js_bh_state *s, __u32 pending)
{
	s->hard_raised |= pending & ~s->pend_in;
}

/*
 * One CPU's interruption while a followed thread is current: the per-CPU map "follow_irq"
 * (bpf/follow_state.bpf.h), which the probes create and follow.bpf.c shares. Where threads
 * are followed (--pid/--tid), at a softirq's exit, a softirq the current thread ran itself
 * causes no thread's gap, so the probes send no event of it (with --marks it is logged:
 * below). own_tid and own_vec are written at each softirq's entry while a followed thread is
 * current (own_tid 0: that softirq was taken from it); a softirq's entry always precedes its
 * exit, and softirqs do not nest, so at an exit they describe that very softirq, whichever
 * object's program wrote them (the probes' softirq_entry where it runs follow.bpf.c's
 * softirq work, else follow.bpf.c's).
 */
struct js_bh_cpu {
	struct js_bh_state bh; /* the nesting, and whose a softirq is */
	__u32 tid;	       /* the thread the outermost open interruption interrupted */
	__u32 own_tid;	       /* the last softirq's thread when it ran it itself, else 0 */
	__u64 start;	       /* the outermost open interruption's entry */
	__u32 own_vec;	       /* the last softirq's vector */
	__u32 pad;
};

/*
 * The other map the two objects' programs both read: the array "follow_hold", which CPUs
 * the followed threads hold. A thread holds the CPU it is current on, preempted on (waiting
 * to run again there), or blocked on outside a system call (a page fault's I/O): what
 * happens on that CPU meanwhile may be its gap. With --marks it holds it from its wake-up
 * too (a marked iteration waits for its CPU from then: what made it wait over
 * JS_FOLLOW_WAKE_WAIT_NS, the exit from a deep idle state or a task that ran first, is in
 * the mark). It lets go when it sleeps in a system call or yields, moves its hold when it
 * migrates while holding, and lets go at its exit. follow_state.bpf.h writes it at those
 * switches, wake-ups, migrations and exits, and at the first interruption or fault of a
 * thread current since before the programs attached.
 * probes.bpf.c reads it wherever threads are followed
 * (docs/DESIGN.md, "probes: what they keep of a followed thread's CPU"): its sched_waking
 * keeps a wake-up only while a thread holds the woken task's CPU, and no record is sent of
 * what happened on a CPU entirely while none held it (js_hold_free). One slot per CPU, and
 * one more (JS_FOLLOW_HOLD_ALL) set for good when a thread could not be tracked: every CPU
 * then counts as held.
 */
#define JS_FOLLOW_HOLD_CPUS 1024	       /* = JS_MAX_CPUS (js_events.h) */
#define JS_FOLLOW_HOLD_ALL JS_FOLLOW_HOLD_CPUS /* the last slot: every CPU */

/* the two objects' programs at one switch run in either order: a record that ends (or
 * starts) at the switch where a thread takes (or lets go of) the CPU reads the other
 * object's clock up to this much later (or earlier) */
#define JS_FOLLOW_HOLD_SKEW_NS 5000
/* --marks: a woken thread that ran within this of its wake-up waited for nothing worth
 * naming: what ended in that wait (the waking interrupt, the IPI, the exit from idle) is not
 * sent. A wait that lasts longer sends what ends after this much of it (the idle run or the
 * task that ran before the thread, at its switch in). Redis on the 2-vCPU VM: 98 % of its
 * wake-ups ran within 7-9 us, the p99 27 us (docs/DESIGN.md) */
#define JS_FOLLOW_WAKE_WAIT_NS 10000

struct js_follow_hold {
	__u32 n;       /* followed threads holding the CPU */
	__u32 woke;    /* the hold began at a wake-up (--marks), not at a switch */
	__u64 held_at; /* when one took it while none held it (0: since before attach) */
	__u64 free_at; /* when one last let it go */
	__u64 ran_at;  /* woke: when a followed thread first switched in since (0: not yet) */
};

/* js_hold_take - one more thread holds the CPU of slot h from since (0: since before attach;
 * follow_state.bpf.h's take), woke: taken at its wake-up */
static __always_inline void js_hold_take(struct js_follow_hold *h, __u64 since, __u32 woke)
{
	if (!h->n) {
		h->held_at = since;
		h->woke = woke;
		h->ran_at = 0;
	}
	__sync_fetch_and_add(&h->n, 1);
}

/* js_hold_ran - a followed thread switched in at now on the CPU of slot h (its switch in in
 * follow_state.bpf.h, --marks): a wake-up's hold ends its wait there */
static __always_inline void js_hold_ran(struct js_follow_hold *h, __u64 now)
{
	if (h->woke && !h->ran_at)
		h->ran_at = now;
}

/* js_hold_let_go - one thread lets go of the CPU of slot h at now (follow_state.bpf.h's
 * let_go): the time first, so that a reader that sees the count fall sees it too (x86 keeps
 * stores in order; arm64 may show the count first, and the record is then kept, not lost) */
static __always_inline void js_hold_let_go(struct js_follow_hold *h, __u64 now)
{
	h->free_at = now;
	__sync_fetch_and_add(&h->n, -1);
}

/*
 * js_hold_free - was the CPU whose slot is h (all: the every-CPU slot) held by no followed
 * thread over all of a record's [start, end]: nothing it holds a thread's gap (JS_HOLD_FREE,
 * JS_HOLD_WAIT below; 0: held). at_switch: the
 * record is a run that ended at a switch just now (the probes' sched_switch), which may come
 * after follow.bpf.c's program at the same switch took the CPU: a run that ended as the hold
 * began, within the skew, held nothing. A hold begun at a wake-up (--marks) holds the woken
 * thread's wait: a record that ended in it before the thread ran, within
 * JS_FOLLOW_WAKE_WAIT_NS of the wake-up, delayed it by less and is free; one ending later
 * (the run the thread waited for, ending at its switch in) is kept. Any other record still
 * being written while a thread holds the CPU happened in its hold. A record that began
 * before a thread let go (beyond the skew) overlaps its hold.
 */
#define JS_HOLD_FREE 1 /* js_hold_free: no followed thread held the CPU */
#define JS_HOLD_WAIT 2 /* ... it ended in a woken thread's short wait (--marks) */

static __always_inline int js_hold_free(const struct js_follow_hold *all,
					const struct js_follow_hold *h, __u64 start, __u64 end,
					int at_switch)
{
	__u64 ran;

	if (!all || !h || all->n || start + JS_FOLLOW_HOLD_SKEW_NS < h->free_at)
		return 0;
	if (!h->n)
		return JS_HOLD_FREE;
	if (h->woke) {
		/* ended in the woken thread's wait (before it ran: a run ending at its switch
		 * in may read the clock up to the skew later), within JS_FOLLOW_WAKE_WAIT_NS */
		ran = h->ran_at ? h->ran_at + (at_switch ? JS_FOLLOW_HOLD_SKEW_NS : 0) : ~0ull;
		return end < ran && end < h->held_at + JS_FOLLOW_WAKE_WAIT_NS ? JS_HOLD_WAIT : 0;
	}
	return at_switch && h->free_at <= h->held_at && end <= h->held_at + JS_FOLLOW_HOLD_SKEW_NS ?
		       JS_HOLD_FREE :
		       0;
}

/*
 * With --marks, a followed thread's own softirqs are not sent either: a slow marked
 * iteration may have spent its time in them, but the marks are known only once the
 * application writes them, after the iteration. So probes.bpf.c logs each one at its exit
 * in its CPU's slots of the array "own_bh" (mapped by user space), JS_OWN_BH_LOG of them a
 * CPU, the oldest overwritten, and counts them in own_bh_head[cpu] (.bss) after the slot is
 * written; the drain reads the ones a mark overlaps when it attributes the mark
 * (probes_own_bh): 16 bytes written instead of a record drained per softirq. The same slots
 * take the idle run that ends in a woken thread's short wait (js_hold_free's JS_HOLD_WAIT,
 * vec JS_OWN_BH_IDLE): the CPU idle while the thread slept, which a mark spanning the sleep
 * shows as idle, not sent at every wake-up.
 */
#define JS_OWN_BH_LOG 65536    /* a CPU's slots: 1 MiB, 1.2 s of redis's 53k softirqs/s */
#define JS_OWN_BH_IDLE 0xffffu /* vec of an idle run, not a softirq */

struct js_own_bh {
	__u64 end_ns; /* its exit (bpf_ktime_get_ns) */
	__u32 dur_ns; /* from its entry (follow.bpf.c's), capped */
	__u32 vec;    /* its vector, or JS_OWN_BH_IDLE */
};

#endif /* JS_FOLLOW_BH_H */
