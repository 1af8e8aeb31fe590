// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_topn.c - the worst-N min-heap (topn.c): bounded offers, unbounded pushes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "js_topn.h"

struct item {
	uint64_t key;
	int tag; /* which offer it was: ties must keep the first one */
};

static bool item_less(const void *a, const void *b)
{
	return ((const struct item *)a)->key < ((const struct item *)b)->key;
}

/* drain - pop everything: keys must come out in ascending order; returns how many */
static size_t drain(struct js_topn *t, uint64_t *keys)
{
	size_t n = 0;

	while (topn_min(t)) {
		const struct item *m = topn_min(t);

		if (n)
			assert_true(keys[n - 1] <= m->key);
		keys[n++] = m->key;
		topn_pop_min(t);
	}
	return n;
}

/* offers keep the cap largest; an equal key does not replace the smallest kept */
static void test_offer(void **state)
{
	static const uint64_t in[] = { 5, 1, 9, 3, 7, 9, 2, 8, 6, 4 };
	struct js_topn t;
	struct item it;
	uint64_t keys[8];
	int kept = 0;

	(void)state;
	assert_int_equal(topn_init(&t, 4, sizeof(struct item), item_less), 0);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		it = (struct item){ in[i], (int)i };
		kept += topn_offer(&t, &it);
	}
	assert_int_equal(t.n, 4);
	assert_int_equal(kept, 7);   /* 5 1 9 3 (room), then 7, the second 9 and 8 */
	it = (struct item){ 7, 99 }; /* equal to the smallest kept (7): not taken */
	assert_false(topn_offer(&t, &it));
	assert_int_equal(((const struct item *)topn_min(&t))->tag, 4);
	assert_int_equal(drain(&t, keys), 4);
	assert_true(keys[0] == 7 && keys[1] == 8 && keys[2] == 9 && keys[3] == 9);
	topn_free(&t);
	topn_free(&t);
}

/* no room at all (-n 0): nothing is kept */
static void test_offer_none(void **state)
{
	struct js_topn t;
	struct item it = { 1, 0 };

	(void)state;
	assert_int_equal(topn_init(&t, 0, sizeof(struct item), item_less), 0);
	assert_false(topn_offer(&t, &it));
	assert_null(topn_min(&t));
	topn_pop_min(&t); /* empty: harmless */
	topn_free(&t);
}

/* pushes grow the room; evicting the minimum by hand leaves the largest */
static void test_push(void **state)
{
	struct js_topn t;
	uint64_t keys[1000];

	(void)state;
	assert_int_equal(topn_init(&t, 0, sizeof(struct item), item_less), 0);
	for (int i = 0; i < 1000; i++) {
		struct item it = { (uint64_t)((i * 7919) % 1000), i };

		assert_int_equal(topn_push(&t, &it), 0);
	}
	assert_int_equal(t.n, 1000);
	assert_true(t.cap >= 1000);
	while (t.n > 10)
		topn_pop_min(&t);
	assert_int_equal(drain(&t, keys), 10);
	for (int i = 0; i < 10; i++)
		assert_true(keys[i] == (uint64_t)(990 + i));
	topn_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offer),
		cmocka_unit_test(test_offer_none),
		cmocka_unit_test(test_push),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
