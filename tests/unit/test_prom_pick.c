// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_prom_pick.c - the Prometheus source labels re-picked at each exposition
 * (js_prom_pick.h): the first exposition's top N by time, a neighbour that starts later
 * taking the place of the least recent one, the margin that keeps a close one hidden, the
 * decay that lets an old burst go, a label that comes back resuming its series, and on a
 * random stream: never more than N shown, every series and every "other" only grows, and at
 * each exposition the increases of the shown labels and "other" add up to the class's.
 * No root needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_prom.h"
#include "js_prom_pick.h"

#define US 1000ull
#define SEC 1000000000ull
#define NL 8 /* labels of the synthetic CPU */

/* A CPU's totals per label, as prom.c aggregates its cause table: task t0..t7, sorted. */
struct tab {
	struct prom_agg a[NL + 1];
	size_t n;
};

static void tab_init(struct tab *t, bool with_other)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < NL; i++) {
		t->a[i].k.cause = JS_CAUSE_TASK;
		snprintf(t->a[i].k.src, sizeof(t->a[i].k.src), "t%d", i);
	}
	t->n = NL;
	if (with_other) { /* the cause table's overflow row: "other", never a label */
		t->a[NL].k.cause = JS_CAUSE_TASK;
		snprintf(t->a[NL].k.src, sizeof(t->a[NL].k.src), "%s", JS_PROM_OTHER);
		t->n = NL + 1;
	}
	qsort(t->a, t->n, sizeof(t->a[0]), prom_key_cmp);
}

/* add - label i lost ns more, in gaps more gaps */
static void add(struct tab *t, const char *src, uint64_t ns, uint64_t gaps)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->a[i].k.src, src)) {
			t->a[i].ns += ns;
			t->a[i].gaps += gaps;
			return;
		}
	fail_msg("no label %s", src);
}

/* lab - the record of src (NULL: never seen) */
static const struct prom_label *lab(const struct prom_pick *p, const char *src)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].k.src, src))
			return &p->v[i];
	return NULL;
}

static bool shown(const struct prom_pick *p, const char *src)
{
	const struct prom_label *l = lab(p, src);

	return l && l->shown;
}

static size_t nshown(const struct prom_pick *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->v[i].shown;
	return n;
}

/* The first exposition: the N largest by time, counted from the start; the rest "other". */
static void test_first(void **state)
{
	struct prom_pick p = { 0 };
	struct tab t;

	(void)state;
	tab_init(&t, true);
	for (int i = 0; i < NL; i++) {
		char s[8];

		snprintf(s, sizeof(s), "t%d", i);
		add(&t, s, (uint64_t)(i + 1) * US, 1);
	}
	add(&t, JS_PROM_OTHER, 100 * US, 4);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 10 * SEC, 3), 0);
	assert_int_equal(nshown(&p), 3);
	assert_true(shown(&p, "t7") && shown(&p, "t6") && shown(&p, "t5"));
	assert_null(lab(&p, JS_PROM_OTHER)); /* the overflow row is never a label */
	assert_int_equal(lab(&p, "t7")->val_ns, 8 * US);
	assert_int_equal(lab(&p, "t7")->val_gaps, 1);
	/* other: t0..t4 (1+2+3+4+5 us) and the overflow row */
	assert_int_equal(p.other_ns[JS_CAUSE_TASK], 115 * US);
	assert_int_equal(p.other_gaps[JS_CAUSE_TASK], 9);
	assert_true(p.seen[JS_CAUSE_TASK] && !p.seen[JS_CAUSE_IRQ]);
	prom_pick_free(&p);
}

/* A neighbour that starts after the first exposition takes the place of the least recent
 * one: its series starts at 0 there (what it lost before went to "other") and then grows;
 * the one it replaced stops, its time goes to "other" from then on. */
static void test_neighbour(void **state)
{
	struct prom_pick p = { 0 };
	struct tab t;

	(void)state;
	tab_init(&t, false);
	add(&t, "t0", 50 * US, 5);
	add(&t, "t1", 40 * US, 4);
	add(&t, "t2", 30 * US, 3);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 1 * SEC, 3), 0);
	assert_true(shown(&p, "t0") && shown(&p, "t1") && shown(&p, "t2"));
	/* t0 and t1 go on, t2 stops; t7 starts: 200 us since the last exposition */
	add(&t, "t0", 50 * US, 5);
	add(&t, "t1", 40 * US, 4);
	add(&t, "t7", 200 * US, 20);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 2 * SEC, 3), 0);
	assert_true(shown(&p, "t7") && !shown(&p, "t2"));
	assert_int_equal(nshown(&p), 3);
	assert_int_equal(lab(&p, "t7")->val_ns, 0);
	assert_int_equal(lab(&p, "t2")->val_ns, 30 * US); /* its last value */
	assert_int_equal(lab(&p, "t0")->val_ns, 100 * US);
	assert_int_equal(p.other_ns[JS_CAUSE_TASK], 200 * US);
	/* then t7's time is its own, t2's "other"'s */
	add(&t, "t7", 100 * US, 10);
	add(&t, "t2", 1 * US, 1);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 3 * SEC, 3), 0);
	assert_int_equal(lab(&p, "t7")->val_ns, 100 * US);
	assert_int_equal(lab(&p, "t7")->val_gaps, 10);
	assert_int_equal(lab(&p, "t2")->val_ns, 30 * US);
	assert_int_equal(p.other_ns[JS_CAUSE_TASK], 201 * US);
	assert_int_equal(p.other_gaps[JS_CAUSE_TASK], 21);
	prom_pick_free(&p);
}

/* The margin: a hidden label takes a place only over twice the least shown one's recent
 * time; free places are taken at once, by any label with time */
static void test_margin(void **state)
{
	struct prom_pick p = { 0 };
	struct tab t;

	(void)state;
	tab_init(&t, false);
	add(&t, "t0", 10 * US, 1);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 1 * SEC, 2), 0);
	assert_int_equal(nshown(&p), 1);
	add(&t, "t1", 1 * US, 1); /* a free place */
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 1 * SEC, 2), 0);
	assert_true(shown(&p, "t1"));
	add(&t, "t2", 2 * US, 1); /* t1's 1 us: exactly twice, not over */
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 1 * SEC, 2), 0);
	assert_true(shown(&p, "t1") && !shown(&p, "t2"));
	add(&t, "t2", 1, 0); /* over twice: the place is t2's */
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 1 * SEC, 2), 0);
	assert_true(shown(&p, "t2") && !shown(&p, "t1") && shown(&p, "t0"));
	/* no flapping: t1 back at once needs over twice t2's */
	add(&t, "t1", 3 * US, 1);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, 1 * SEC, 2), 0);
	assert_true(shown(&p, "t2") && !shown(&p, "t1"));
	prom_pick_free(&p);
}

/* Recent time decays (half-life 60 s): an old burst gives its place to a steady source
 * whose total is smaller; a label that comes back resumes where its series stopped */
static void test_decay_resume(void **state)
{
	struct prom_pick p = { 0 };
	struct tab t;
	uint64_t now = 1 * SEC, t1_stopped;

	(void)state;
	tab_init(&t, false);
	add(&t, "t0", 10 * SEC, 1); /* a 10 s burst, then nothing */
	add(&t, "t1", 100 * US, 1);
	assert_int_equal(prom_pick_update(&p, t.a, t.n, now, 1), 0);
	assert_true(shown(&p, "t0"));
	/* t1 loses 10 ms a second for 5 minutes (3 s in all, under the burst's 10 s) */
	for (int s = 0; s < 300 && !shown(&p, "t1"); s++) {
		add(&t, "t1", 10000 * US, 10);
		now += SEC;
		assert_int_equal(prom_pick_update(&p, t.a, t.n, now, 1), 0);
	}
	assert_true(shown(&p, "t1") && !shown(&p, "t0"));
	assert_true(lab(&p, "t1")->prev_ns < 10 * SEC / 2);
	assert_int_equal(lab(&p, "t0")->val_ns, 10 * SEC);
	/* t1 grows, then stops; t0 bursts again and takes the place back: t0's series resumes
	 * at 10 s (its new burst, before the exposition that shows it, is "other"'s) */
	add(&t, "t1", 5 * US, 1);
	now += SEC;
	assert_int_equal(prom_pick_update(&p, t.a, t.n, now, 1), 0);
	t1_stopped = lab(&p, "t1")->val_ns;
	assert_int_equal(t1_stopped, 5 * US);
	add(&t, "t0", 60 * SEC, 60);
	now += SEC;
	assert_int_equal(prom_pick_update(&p, t.a, t.n, now, 1), 0);
	assert_true(shown(&p, "t0") && !shown(&p, "t1"));
	assert_int_equal(lab(&p, "t0")->val_ns, 10 * SEC);
	add(&t, "t0", 7 * US, 1);
	now += SEC;
	assert_int_equal(prom_pick_update(&p, t.a, t.n, now, 1), 0);
	assert_int_equal(lab(&p, "t0")->val_ns, 10 * SEC + 7 * US);
	assert_int_equal(lab(&p, "t1")->val_ns, t1_stopped);
	prom_pick_free(&p);
}

/* A random stream: at most N shown, every series and every "other" only grows, and each
 * exposition's increases of the labels shown at it and the one before, plus "other"'s,
 * are the class's */
static void test_random(void **state)
{
	struct prom_pick p = { 0 };
	uint64_t prev_val[NL] = { 0 }, prev_other = 0, prev_total = 0, now = 0;
	bool prev_shown[NL] = { false };
	unsigned seed = 39;
	struct tab t;
	int swaps = 0;

	(void)state;
	tab_init(&t, true);
	for (int e = 0; e < 2000; e++) {
		uint64_t total = 0, grow = 0;

		/* a few labels lose time, their rates drifting with e */
		for (size_t i = 0; i < t.n; i++)
			if (rand_r(&seed) % 4 == 0) {
				uint64_t ns = (uint64_t)(rand_r(&seed) % 1000) *
					      (1 + ((size_t)e / 200 + i) % NL) * US;

				t.a[i].ns += ns;
				t.a[i].gaps += ns ? 1 : 0;
			}
		now += (uint64_t)(1 + rand_r(&seed) % 30) * SEC;
		assert_int_equal(prom_pick_update(&p, t.a, t.n, now, 3), 0);
		assert_true(nshown(&p) <= 3);
		for (size_t i = 0; i < t.n; i++)
			total += t.a[i].ns;
		for (int i = 0; i < NL; i++) {
			char s[8];
			const struct prom_label *l;

			snprintf(s, sizeof(s), "t%d", i);
			l = lab(&p, s);
			if (!l)
				continue;
			assert_true(l->val_ns >= prev_val[i]);
			assert_true(l->val_ns <= l->prev_ns);
			if (l->shown && (prev_shown[i] || e == 0)) /* the first: from the start */
				grow += l->val_ns - prev_val[i];
			else
				assert_int_equal(l->val_ns, prev_val[i]);
			swaps += l->shown != prev_shown[i];
			prev_val[i] = l->val_ns;
			prev_shown[i] = l->shown;
		}
		assert_true(p.other_ns[JS_CAUSE_TASK] >= prev_other);
		assert_int_equal(grow + p.other_ns[JS_CAUSE_TASK] - prev_other, total - prev_total);
		prev_other = p.other_ns[JS_CAUSE_TASK];
		prev_total = total;
	}
	assert_true(swaps > 10); /* the picks did change */
	prom_pick_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first),  cmocka_unit_test(test_neighbour),
		cmocka_unit_test(test_margin), cmocka_unit_test(test_decay_resume),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
