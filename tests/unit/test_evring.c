// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_evring.c - reading a measured CPU's ring of probe records the way the BPF programs
 * write it (seq: index + 1, then JS_REC_DONE once the fields are in): records come in
 * index order, a record reserved and not yet written holds back the ones after it, a
 * slot still holding the previous lap is not read, a record without a name comes with its
 * name cleared, the tail the programs read follows every read, a refused record counts as
 * read, and a record never sent holds the ring for JS_EVRING_STUCK_READS reads only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_evring.h"

#define LEN 8

static struct js_rec ring[LEN];
static __u64 tail_out;

struct got {
	struct js_event ev[4 * LEN];
	size_t n;
	size_t refuse_at; /* 1-based: the call that returns -1; 0 = none */
};

static int collect(void *ctx, const struct js_event *e)
{
	struct got *g = ctx;

	assert_true(g->n < 4 * LEN);
	g->ev[g->n++] = *e;
	return g->refuse_at && g->n == g->refuse_at ? -1 : 0;
}

/* reserve - what ev_reserve() leaves in the slot of index i: its seq, a previous record's
 * fields and name (the programs do not clear a record without a name) */
static struct js_rec *reserve(uint64_t i, bool named)
{
	struct js_rec *r = &ring[i & (LEN - 1)];

	memset(&r->ev, 0xa5, sizeof(r->ev));
	r->seq = ((i + 1) << JS_REC_SEQ_SHIFT) | (named ? JS_REC_NAMED : 0);
	return r;
}

/* send - the fields of record i written, then JS_REC_DONE */
static void send(struct js_rec *r, uint64_t i, bool named)
{
	memset(&r->ev, 0, offsetof(struct js_event, name));
	r->ev.start_ns = 1000 + i;
	r->ev.end_ns = 2000 + i;
	r->ev.kind = JS_EV_VECTOR;
	r->ev.id = (__u32)i;
	if (named)
		snprintf(r->ev.name, sizeof(r->ev.name), "rec%llu", (unsigned long long)i);
	r->seq |= JS_REC_DONE;
}

static void write_rec(uint64_t i, bool named)
{
	send(reserve(i, named), i, named);
}

static struct js_evring fresh(void)
{
	struct js_evring r = { .rec = ring, .mask = LEN - 1, .tail_out = &tail_out };

	memset(ring, 0, sizeof(ring));
	tail_out = 0;
	return r;
}

static void test_empty_ring_reads_nothing(void **st)
{
	struct js_evring r = fresh();
	struct got g = { 0 };

	(void)st;
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(r.tail, 0);
	assert_int_equal(tail_out, 0);
}

static void test_records_in_order_names_kept_or_cleared(void **st)
{
	struct js_evring r = fresh();
	struct got g = { 0 };
	char zero[JS_NAME_LEN] = { 0 };

	(void)st;
	write_rec(0, false);
	write_rec(1, true);
	write_rec(2, false);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 3);
	assert_int_equal(g.n, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(g.ev[i].id, i);
		assert_int_equal(g.ev[i].start_ns, 1000 + i);
		assert_int_equal(g.ev[i].end_ns, 2000 + i);
	}
	assert_memory_equal(g.ev[0].name, zero, sizeof(zero)); /* not the 0xa5 left there */
	assert_string_equal(g.ev[1].name, "rec1");
	assert_memory_equal(g.ev[2].name, zero, sizeof(zero));
	assert_int_equal(r.tail, 3);
	assert_int_equal(tail_out, 3);
}

/* an interrupt nests inside a program between its reserve and its send: the nested
 * record (index 1) is done first, and waits for the outer one (index 0) */
static void test_unfinished_record_holds_back_the_next(void **st)
{
	struct js_evring r = fresh();
	struct got g = { 0 };
	struct js_rec *outer;

	(void)st;
	outer = reserve(0, false);
	write_rec(1, false);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 0);
	assert_int_equal(tail_out, 0);
	send(outer, 0, false);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 2);
	assert_int_equal(g.ev[0].id, 0);
	assert_int_equal(g.ev[1].id, 1);
	assert_int_equal(tail_out, 2);
}

/* after a wrap, a slot still holding the last lap's record (index - LEN) is not read
 * again: its seq is the old index's */
static void test_previous_lap_is_not_read(void **st)
{
	struct js_evring r = fresh();
	struct got g = { 0 };

	(void)st;
	for (uint64_t i = 0; i < LEN; i++)
		write_rec(i, false);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), LEN);
	write_rec(LEN, true); /* the first slot again */
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 1);
	assert_int_equal(g.ev[LEN].id, LEN);
	assert_string_equal(g.ev[LEN].name, "rec8");
	/* the second slot still holds index 1, done: not index 9 */
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 0);
	assert_int_equal(g.n, LEN + 1);
	assert_int_equal(tail_out, LEN + 1);
}

static void test_at_most_max_then_the_rest(void **st)
{
	struct js_evring r = fresh();
	struct got g = { 0 };

	(void)st;
	for (uint64_t i = 0; i < 5; i++)
		write_rec(i, false);
	assert_int_equal(js_evring_read(&r, 2, collect, &g), 2);
	assert_int_equal(tail_out, 2);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 3);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.ev[4].id, 4);
	assert_int_equal(tail_out, 5);
}

static void test_refused_record_counts_as_read(void **st)
{
	struct js_evring r = fresh();
	struct got g = { .refuse_at = 2 };

	(void)st;
	for (uint64_t i = 0; i < 4; i++)
		write_rec(i, false);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), -1);
	assert_int_equal(g.n, 2);
	assert_int_equal(tail_out, 2); /* the refused one is behind the tail */
	g.refuse_at = 0;
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 2);
	assert_int_equal(g.ev[2].id, 2);
	assert_int_equal(tail_out, 4);
}

/* a record taken and never sent (a probe's bug) holds back the ones after it for
 * JS_EVRING_STUCK_READS reads, then is skipped and counted; an unfinished record with
 * nothing written after it is only waited for */
static void test_record_never_sent_is_skipped(void **st)
{
	struct js_evring r = fresh();
	struct got g = { 0 };

	(void)st;
	reserve(0, false); /* never sent */
	for (int i = 0; i < 3 * JS_EVRING_STUCK_READS; i++)
		assert_int_equal(js_evring_read(&r, LEN, collect, &g), 0);
	assert_int_equal(r.skipped, 0);
	write_rec(1, false);
	write_rec(2, true);
	for (int i = 0; i < JS_EVRING_STUCK_READS - 1; i++)
		assert_int_equal(js_evring_read(&r, LEN, collect, &g), 0);
	assert_int_equal(r.skipped, 0);
	assert_int_equal(tail_out, 0);
	assert_int_equal(js_evring_read(&r, LEN, collect, &g), 2);
	assert_int_equal(r.skipped, 1);
	assert_int_equal(g.ev[0].id, 1);
	assert_string_equal(g.ev[1].name, "rec2");
	assert_int_equal(tail_out, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_ring_reads_nothing),
		cmocka_unit_test(test_records_in_order_names_kept_or_cleared),
		cmocka_unit_test(test_unfinished_record_holds_back_the_next),
		cmocka_unit_test(test_previous_lap_is_not_read),
		cmocka_unit_test(test_at_most_max_then_the_rest),
		cmocka_unit_test(test_refused_record_counts_as_read),
		cmocka_unit_test(test_record_never_sent_is_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
