// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_follow_bh.c - whose a softirq is while a followed thread is current
 * (js_follow_bh.h, the rule bpf/follow_state.bpf.h applies), on recorded sequences of the
 * tracepoints it sees on one CPU: irq_handler_entry/exit and the APIC vectors (hard),
 * softirq_entry/exit, softirq_raise (or, where it is not traced, the CPU's pending softirqs
 * read at a taken interruption's entry and exit: each sequence both ways). Its own: a softirq its own kernel code ran when it
 * enabled bottom halves (a loopback send's NET_RX); taken: one the kernel ran as a hard
 * interrupt returned (irq_exit), or one a taken interruption raised.
 *
 * And which CPUs the followed threads hold (js_hold_*): where the threads are watched alone,
 * the probes send nothing of what happened on a CPU entirely while none held it, whichever
 * of the two objects' programs runs first at a switch (the probes' clock read before or
 * after the follow program's).
 */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_follow_bh.h"
#include "js_follow_events.h"

#define JOIN JS_FOLLOW_BH_JOIN_NS
#define NET_RX 3
#define TIMER 1
#define BLOCK 4

/* one tracepoint of a recorded sequence */
enum ev_kind { HARD_IN, HARD_OUT, SOFT_IN, SOFT_OUT, RAISE };
struct ev {
	enum ev_kind k;
	__u64 t;
	__u32 vec;
};

/* the rule's state after the last replay */
static struct js_bh_state last;

/* how the rule learns what a taken interruption raised: the softirq_raise tracepoint, or
 * the CPU's pending softirqs read at its entry and exit (js_bh_pend_in/out) */
enum raised_by { BY_RAISE, BY_PENDING };

/* replay_by - the sequence through the rule: the JS_BH_* each exit returned, in order, into
 * out (n of them); its state at the end into last. The CPU's pending softirqs: a raise sets
 * its vector's bit, the kernel clears it as the softirq starts */
static size_t replay_by(const struct ev *v, size_t n, int *out, enum raised_by by)
{
	struct js_bh_state s;
	__u32 pending = 0;
	size_t k = 0;
	int r;

	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < n; i++) {
		switch (v[i].k) {
		case HARD_IN:
		case SOFT_IN:
			if (v[i].k == SOFT_IN)
				pending &= ~(1u << v[i].vec);
			r = js_bh_enter(&s, v[i].k == SOFT_IN, v[i].vec, v[i].t, JOIN);
			if (by == BY_PENDING && (r & JS_BH_TRACK))
				js_bh_pend_in(&s, pending);
			break;
		case HARD_OUT:
		case SOFT_OUT:
			r = js_bh_leave(&s, v[i].k == HARD_OUT, v[i].t);
			if (by == BY_PENDING && (r == JS_BH_TAKEN || r == JS_BH_NESTED))
				js_bh_pend_out(&s, pending);
			out[k++] = r;
			break;
		case RAISE:
			pending |= 1u << v[i].vec;
			if (by == BY_RAISE)
				js_bh_raise(&s, v[i].vec);
			break;
		}
	}
	last = s;
	return k;
}

/* replay - replay_by both ways, which must agree on every exit (last: the raise's) */
static size_t replay(const struct ev *v, size_t n, int *out)
{
	int other[16];
	size_t k;

	assert_true(n <= 16);
	k = replay_by(v, n, other, BY_PENDING);
	assert_int_equal(replay_by(v, n, out, BY_RAISE), k);
	for (size_t i = 0; i < k; i++)
		assert_int_equal(out[i], other[i]);
	return k;
}

#define REPLAY(seq, out) replay(seq, sizeof(seq) / sizeof(seq[0]), out)

/* redis's own send: NET_RX at its local_bh_enable, no interrupt near it */
static void test_own_send(void **state)
{
	const struct ev seq[] = {
		{ SOFT_IN, 1000000, NET_RX },  { RAISE, 1000500, NET_RX }, /* loopback re-raise */
		{ SOFT_OUT, 1003000, NET_RX }, { SOFT_IN, 1200000, NET_RX },
		{ SOFT_OUT, 1201000, NET_RX },
	};
	int out[4];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 2);
	assert_int_equal(out[0], JS_BH_OWN);
	assert_int_equal(out[1], JS_BH_OWN);
}

/* a disk IRQ, and the BLOCK softirq it raised run as it returns: both taken */
static void test_irq_exit(void **state)
{
	const struct ev seq[] = {
		{ HARD_IN, 1000000, 0 },     { RAISE, 1001000, BLOCK },	   { HARD_OUT, 1002000, 0 },
		{ SOFT_IN, 1002800, BLOCK }, { SOFT_OUT, 1009000, BLOCK },
	};
	int out[2];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 2);
	assert_int_equal(out[0], JS_BH_TAKEN);
	assert_int_equal(out[1], JS_BH_TAKEN);
}

/* the tick's TIMER softirq: the vector's exit, then the softirq within join_ns, even
 * without its raise seen (an untraced raise) */
static void test_join_window(void **state)
{
	const struct ev near[] = {
		{ HARD_IN, 1000000, 0 },
		{ HARD_OUT, 1001000, 0 },
		{ SOFT_IN, 1001000 + JOIN, TIMER },
		{ SOFT_OUT, 1008000, TIMER },
	};
	const struct ev far[] = {
		{ HARD_IN, 1000000, 0 },
		{ HARD_OUT, 1001000, 0 },
		{ SOFT_IN, 1001000 + JOIN + 1, NET_RX },
		{ SOFT_OUT, 1008000, NET_RX },
	};
	int out[2];

	(void)state;
	assert_int_equal(REPLAY(near, out), 2);
	assert_int_equal(out[1], JS_BH_TAKEN);
	assert_int_equal(REPLAY(far, out), 2);
	assert_int_equal(out[1], JS_BH_OWN); /* its own, after running its own code */
}

/* a remote CPU's RPS IPI raises NET_RX while the thread has bottom halves off; its own
 * local_bh_enable runs it 40 us later: taken, once; its next own NET_RX is its own */
static void test_remote_raise(void **state)
{
	const struct ev seq[] = {
		{ HARD_IN, 1000000, 0 },       { RAISE, 1000400, NET_RX },
		{ HARD_OUT, 1001000, 0 },      { SOFT_IN, 1041000, NET_RX },
		{ SOFT_OUT, 1045000, NET_RX }, { SOFT_IN, 1100000, NET_RX },
		{ SOFT_OUT, 1102000, NET_RX },
	};
	int out[3];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 3);
	assert_int_equal(out[0], JS_BH_TAKEN);
	assert_int_equal(out[1], JS_BH_TAKEN);
	assert_int_equal(out[2], JS_BH_OWN);
}

/* raised inside its own softirq (NET_RX raising TIMER work): not marked taken; another
 * vector's pending raise does not make this one taken */
static void test_raise_inside_own(void **state)
{
	const struct ev seq[] = {
		{ SOFT_IN, 1000000, NET_RX },  { RAISE, 1000100, TIMER },
		{ SOFT_OUT, 1002000, NET_RX }, { SOFT_IN, 1100000, TIMER },
		{ SOFT_OUT, 1101000, TIMER },  { HARD_IN, 1200000, 0 },
		{ RAISE, 1200100, BLOCK },     { HARD_OUT, 1201000, 0 },
		{ SOFT_IN, 1300000, NET_RX },  { SOFT_OUT, 1301000, NET_RX },
	};
	int out[4];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 4);
	assert_int_equal(out[0], JS_BH_OWN);
	assert_int_equal(out[1], JS_BH_OWN);
	assert_int_equal(out[2], JS_BH_TAKEN);
	assert_int_equal(out[3], JS_BH_OWN); /* BLOCK pending, not NET_RX */
}

/* nesting: a hard IRQ inside its own softirq is taken from it (a gap of its own, from its
 * entry: nest_start), its time not the softirq's (nest_ns); a softirq inside a taken IRQ is
 * part of that gap */
static void test_nesting(void **state)
{
	const struct ev seq[] = {
		{ SOFT_IN, 1000000, NET_RX },  { HARD_IN, 1001000, 0 },
		{ HARD_OUT, 1002000, 0 },      { SOFT_OUT, 1003000, NET_RX },
		{ HARD_IN, 1100000, 0 },       { SOFT_IN, 1100500, NET_RX },
		{ SOFT_OUT, 1101000, NET_RX }, { HARD_OUT, 1102000, 0 },
	};
	int out[4];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 4);
	assert_int_equal(out[0], JS_BH_NESTED);
	assert_int_equal(out[1], JS_BH_OWN);
	assert_int_equal(out[2], JS_BH_INNER);
	assert_int_equal(out[3], JS_BH_TAKEN);
	assert_int_equal(last.depth, 0);
	assert_int_equal(last.nest_depth, 0);
}

/* a disk IRQ inside its own NET_RX (redis's send): the IRQ is a gap from its entry, the
 * softirq's own time is the rest; the BLOCK softirq the IRQ raised runs after NET_RX, in the
 * same bottom-half run, and is taken; two IRQs in one softirq each a gap, their time summed */
static void test_nested_hard_taken(void **state)
{
	const struct ev seq[] = {
		{ SOFT_IN, 1000000, NET_RX },  { HARD_IN, 1001000, 0 }, { RAISE, 1001100, BLOCK },
		{ HARD_OUT, 1002000, 0 },      { HARD_IN, 1002500, 0 }, { HARD_OUT, 1003000, 0 },
		{ SOFT_OUT, 1004000, NET_RX },
	};
	const struct ev block[] = { { SOFT_IN, 1004100, BLOCK }, { SOFT_OUT, 1005000, BLOCK } };
	struct js_bh_state s;
	int out[4];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 3);
	assert_int_equal(out[0], JS_BH_NESTED);
	assert_int_equal(out[1], JS_BH_NESTED);
	assert_int_equal(out[2], JS_BH_OWN);
	assert_int_equal(last.nest_start, 1002500);
	assert_int_equal(last.nest_ns, 1000 + 500); /* own time: 4000 - 1500 */
	s = last;
	js_bh_enter(&s, 1, block[0].vec, block[0].t, JOIN);
	assert_int_equal(s.nest_ns, 0); /* a new outermost one */
	assert_int_equal(js_bh_leave(&s, 0, block[1].t), JS_BH_TAKEN);
}

/* its own send raised NET_RX with bottom halves off; an IRQ raises it again before its
 * local_bh_enable runs it: the raise tracepoint makes it taken, the pending softirqs read at
 * the IRQ's entry and exit leave it its own (js_follow_bh.h says so); an IRQ that raises a
 * vector not pending at its entry makes that one taken either way */
static void test_pending_already(void **state)
{
	const struct ev seq[] = {
		{ RAISE, 1000000, NET_RX },    { HARD_IN, 1010000, 0 },
		{ RAISE, 1010500, NET_RX },    { RAISE, 1010600, BLOCK },
		{ HARD_OUT, 1011000, 0 },      { SOFT_IN, 1050000, NET_RX },
		{ SOFT_OUT, 1052000, NET_RX }, { SOFT_IN, 1052100, BLOCK },
		{ SOFT_OUT, 1053000, BLOCK },
	};
	const size_t n = sizeof(seq) / sizeof(seq[0]);
	int out[3];

	(void)state;
	assert_int_equal(replay_by(seq, n, out, BY_RAISE), 3);
	assert_int_equal(out[1], JS_BH_TAKEN);
	assert_int_equal(out[2], JS_BH_TAKEN);
	assert_int_equal(replay_by(seq, n, out, BY_PENDING), 3);
	assert_int_equal(out[0], JS_BH_TAKEN); /* the IRQ */
	assert_int_equal(out[1], JS_BH_OWN);
	assert_int_equal(out[2], JS_BH_TAKEN);
}

/* an exit without its entry (attached mid-interruption) closes nothing */
static void test_unbalanced(void **state)
{
	const struct ev seq[] = {
		{ SOFT_OUT, 1000000, NET_RX },
		{ HARD_OUT, 1000100, 0 },
		{ SOFT_IN, 1000200, NET_RX },
		{ SOFT_OUT, 1001000, NET_RX },
	};
	int out[3];

	(void)state;
	assert_int_equal(REPLAY(seq, out), 3);
	assert_int_equal(out[0], JS_BH_INNER);
	assert_int_equal(out[1], JS_BH_INNER);
	assert_int_equal(out[2], JS_BH_OWN); /* no hard exit was recorded */
}

/* ---- the held CPUs (js_hold_*) ----------------------------------------------------------- */

#define US 1000ull

/* one CPU's slot and the every-CPU slot, as the follow programs leave them */
struct cpu_hold {
	struct js_follow_hold h, all;
};

/* a run recorded by the probes' sched_switch at a switch at t (their clock), the follow
 * program's at t + d (d < 0: it ran first) */
static int switch_free(const struct cpu_hold *c, __u64 start, __u64 t)
{
	return js_hold_free(&c->all, &c->h, start, t, 1);
}

/* the followed thread sleeps in a system call at 100 us and is woken back at 400 us: the idle
 * run between is nothing its gap needs, whichever program ran first at either switch */
static void test_hold_sleep_between(void **state)
{
	const long long skew[] = { -700, 0, 900 };

	(void)state;
	for (size_t a = 0; a < 3; a++)
		for (size_t b = 0; b < 3; b++) {
			struct cpu_hold c = { 0 };
			__u64 out = 100 * US, in = 400 * US;

			js_hold_take(&c.h, 0, 0); /* current since before attach */
			/* its own run, ending at the switch out: it held the CPU all along */
			if (skew[a] > 0)
				assert_false(switch_free(&c, 20 * US, out));
			js_hold_let_go(&c.h, out + skew[a]);
			assert_false(switch_free(&c, 20 * US, out));
			/* the idle run from the switch out to the switch in */
			if (skew[b] < 0)
				js_hold_take(&c.h, in + skew[b], 0);
			assert_true(switch_free(&c, out, in));
			if (skew[b] >= 0)
				js_hold_take(&c.h, in + skew[b], 0);
			/* while it holds the CPU again, a record of it is kept */
			assert_false(js_hold_free(&c.all, &c.h, in + 2 * US, in + 3 * US, 0));
		}
}

/* while it is preempted the CPU stays held: the preempting task's run is kept, and so is an
 * IPI sent to it right after the thread took the CPU (not a run ending at a switch) */
static void test_hold_keeps_its_gaps(void **state)
{
	struct cpu_hold c = { 0 };

	(void)state;
	js_hold_take(&c.h, 10 * US, 0);
	assert_false(js_hold_free(&c.all, &c.h, 11 * US, 11 * US, 0)); /* an IPI send */
	assert_false(switch_free(&c, 50 * US, 90 * US));	       /* the preemptor */
	/* a run ending as the hold began is the one before it (the idle one) */
	assert_true(switch_free(&c, 1 * US, 10 * US + 2 * US));
	/* one that began before the last let go (beyond the skew) overlapped a hold */
	js_hold_let_go(&c.h, 100 * US);
	assert_false(switch_free(&c, 100 * US - JS_FOLLOW_HOLD_SKEW_NS - 1, 200 * US));
	assert_true(js_hold_free(&c.all, &c.h, 150 * US, 160 * US, 0));
}

/* with --marks the thread holds its CPU from its wake-up (at 400 us, after a sleep from
 * 100 us). What ran while it slept is free. A wait shorter than JS_FOLLOW_WAKE_WAIT_NS (its
 * switch in 2 us after the wake-up) sends nothing of it: the IPI sent to wake it, the
 * interrupt it woke in and the idle run ending at its switch in, whichever program ran
 * first at the switch; what interrupts it once it runs is kept. A longer wait (a task
 * running 300 us before it) keeps what ends after JS_FOLLOW_WAKE_WAIT_NS of it: that task's
 * run, at the switch in */
static void test_hold_from_waking(void **state)
{
	const long long skew[] = { -700, 0, 900 };
	const __u64 out = 100 * US, woken = 400 * US;

	(void)state;
	for (size_t b = 0; b < 3; b++) {
		struct cpu_hold c = { 0 };
		__u64 in = woken + 2 * US, sw = (__u64)((long long)in + skew[b]);

		js_hold_take(&c.h, 0, 0);
		js_hold_let_go(&c.h, out);
		/* a task that ran meanwhile: no thread held the CPU */
		assert_int_equal(switch_free(&c, 150 * US, 200 * US), JS_HOLD_FREE);
		assert_true(js_hold_free(&c.all, &c.h, 300 * US, 310 * US, 0)); /* an IRQ */
		js_hold_take(&c.h, woken, 1);
		/* the IPI: free as a short wait (the probes log an idle run so, for the marks) */
		assert_int_equal(js_hold_free(&c.all, &c.h, woken + 500, woken + 500, 0),
				 JS_HOLD_WAIT);
		assert_true(js_hold_free(&c.all, &c.h, 399 * US, woken + 900, 0)); /* its IRQ */
		/* the idle run to its switch in, and the follow program's there (take: a no-op,
		 * it holds the CPU already; ran), in either order */
		if (skew[b] < 0)
			js_hold_ran(&c.h, in);
		assert_true(switch_free(&c, 200 * US, sw));
		if (skew[b] >= 0)
			js_hold_ran(&c.h, in);
		/* running: an interrupt of it, or a task preempting it, is its gap */
		assert_false(js_hold_free(&c.all, &c.h, in + 1 * US, in + 3 * US, 0));
		assert_false(switch_free(&c, in + 4 * US, in + 6 * US));
		assert_false(js_hold_free(&c.all, &c.h, in + 50 * US, in + 60 * US, 0));
	}
	for (size_t b = 0; b < 3; b++) {
		struct cpu_hold c = { 0 };
		__u64 in = woken + 300 * US, sw = (__u64)((long long)in + skew[b]);

		js_hold_take(&c.h, 0, 0);
		js_hold_let_go(&c.h, out);
		js_hold_take(&c.h, woken, 1);
		/* its IPI, early in the wait, is not sent; the task it waited for is */
		assert_true(js_hold_free(&c.all, &c.h, woken + 500, woken + 500, 0));
		if (skew[b] < 0)
			js_hold_ran(&c.h, in);
		assert_false(switch_free(&c, 390 * US, sw));
		if (skew[b] >= 0)
			js_hold_ran(&c.h, in);
		/* the wake-up that let the thread go first: no second one takes its place */
		js_hold_ran(&c.h, in + 100 * US);
		assert_int_equal(c.h.ran_at, in);
	}
	/* a hold taken at a switch keeps its rule: the run ending at it is the idle one */
	{
		struct cpu_hold c = { 0 };

		js_hold_take(&c.h, 10 * US, 0);
		assert_true(switch_free(&c, 1 * US, 10 * US + 2 * US));
		js_hold_ran(&c.h, 10 * US); /* no wait to end */
		assert_int_equal(c.h.ran_at, 0);
	}
}

/* two threads on one CPU: when one lets go the other still holds it; a thread that could
 * not be tracked makes every CPU held for good; a CPU never held holds nothing */
static void test_hold_shared(void **state)
{
	struct cpu_hold c = { 0 };

	(void)state;
	assert_true(js_hold_free(&c.all, &c.h, 5 * US, 6 * US, 0));
	js_hold_take(&c.h, 10 * US, 0);
	js_hold_take(&c.h, 20 * US, 0);
	assert_int_equal(c.h.held_at, 10 * US);
	js_hold_let_go(&c.h, 30 * US);
	assert_false(js_hold_free(&c.all, &c.h, 40 * US, 41 * US, 0));
	assert_false(switch_free(&c, 31 * US, 32 * US)); /* let go after it was taken */
	js_hold_let_go(&c.h, 50 * US);
	assert_true(js_hold_free(&c.all, &c.h, 60 * US, 61 * US, 0));
	c.all.n = 1;
	assert_false(js_hold_free(&c.all, &c.h, 60 * US, 61 * US, 0));
	assert_false(js_hold_free(NULL, &c.h, 60 * US, 61 * US, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_send),
		cmocka_unit_test(test_irq_exit),
		cmocka_unit_test(test_join_window),
		cmocka_unit_test(test_remote_raise),
		cmocka_unit_test(test_raise_inside_own),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_nested_hard_taken),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_pending_already),
		cmocka_unit_test(test_hold_sleep_between),
		cmocka_unit_test(test_hold_keeps_its_gaps),
		cmocka_unit_test(test_hold_from_waking),
		cmocka_unit_test(test_hold_shared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
