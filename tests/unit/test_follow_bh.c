// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_follow_bh.c - whose a softirq is while a followed thread is current
 * (js_follow_bh.h, the rule bpf/follow.bpf.c applies), on recorded sequences of the
 * tracepoints it sees on one CPU: irq_handler_entry/exit and the APIC vectors (hard),
 * softirq_entry/exit, softirq_raise. Its own: a softirq its own kernel code ran when it
 * enabled bottom halves (a loopback send's NET_RX); taken: one the kernel ran as a hard
 * interrupt returned (irq_exit), or one a taken interruption raised.
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

#define JOIN 5000 /* bh_join_ns's default (bpf/follow.bpf.c) */
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

/* replay - the sequence through the rule: the JS_BH_* each exit returned, in order, into
 * out (n of them) */
static size_t replay(const struct ev *v, size_t n, int *out)
{
	struct js_bh_state s;
	size_t k = 0;

	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < n; i++) {
		switch (v[i].k) {
		case HARD_IN:
			js_bh_enter(&s, 0, 0, v[i].t, JOIN);
			break;
		case SOFT_IN:
			js_bh_enter(&s, 1, v[i].vec, v[i].t, JOIN);
			break;
		case HARD_OUT:
		case SOFT_OUT:
			out[k++] = js_bh_leave(&s, v[i].k == HARD_OUT, v[i].t);
			break;
		case RAISE:
			js_bh_raise(&s, v[i].vec);
			break;
		}
	}
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

/* nesting: a hard IRQ inside its own softirq is counted with it (one exit closes the
 * outermost); a softirq inside a taken IRQ is part of that gap */
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
	assert_int_equal(out[0], JS_BH_INNER);
	assert_int_equal(out[1], JS_BH_OWN);
	assert_int_equal(out[2], JS_BH_INNER);
	assert_int_equal(out[3], JS_BH_TAKEN);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_send),	 cmocka_unit_test(test_irq_exit),
		cmocka_unit_test(test_join_window),	 cmocka_unit_test(test_remote_raise),
		cmocka_unit_test(test_raise_inside_own), cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_unbalanced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
