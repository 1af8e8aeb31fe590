// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_causes.c - the class table; cause table totals, ordering, bounded memory;
 * cause-annotated buckets. */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_causes.h"
#include "js_cgroup.h"
#include "js_correlate.h"
#include "js_entry.h"
#include "fixtures.h"

/* rec_init - the next gap of dur, after the previous one */
static void rec_init(struct js_gap_rec *r, uint64_t dur)
{
	static uint64_t t = 1000000;

	fx_rec(r, 0, t, dur);
	t += 10 * dur + 1000;
}

static const struct js_cause_src *find(const struct js_causes *c, uint32_t cause, const char *d)
{
	for (uint32_t i = 0; i < c->nsrc; i++)
		if (c->src[i].cause == cause && !strcmp(c->src[i].detail, d))
			return &c->src[i];
	return NULL;
}

static uint64_t src_sum(const struct js_causes *c)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < c->nsrc; i++)
		s += c->src[i].total_ns;
	return s;
}

/* five gaps: events, steal, SMI, unexplained; totals add up to the lost time */
static void fill_five(struct js_causes *c)
{
	struct js_gap_rec r;

	rec_init(&r, 100);
	fx_part(&r, JS_CAUSE_WORK, "vmstat_update", 1, 50);
	fx_part(&r, JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update", 1, 30);
	fx_primary(&r, JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update");
	causes_add_gap(c, &r);

	rec_init(&r, 60);
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 20);
	fx_part(&r, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler", 2, 10);
	r.attr.steal_ns = 10;
	fx_primary(&r, JS_CAUSE_TIMER, "local_timer");
	causes_add_gap(c, &r);

	rec_init(&r, 40);
	r.attr.steal_ns = 30;
	corr_finish(&r.attr, 40);
	causes_add_gap(c, &r);

	rec_init(&r, 50);
	r.attr.smi = 1;
	corr_finish(&r.attr, 50);
	causes_add_gap(c, &r);

	rec_init(&r, 200);
	fx_part(&r, JS_CAUSE_WORK, "vmstat_update", 1, 150);
	fx_part(&r, JS_CAUSE_TASK, "kworker/1:0:99 vmstat_update", 1, 10);
	fx_primary(&r, JS_CAUSE_TASK, "kworker/1:0:99 vmstat_update");
	causes_add_gap(c, &r);
}

static void test_table(void **state)
{
	struct js_causes *c = malloc(sizeof(*c));
	const struct js_cause_src *s[JS_CAUSES_SRC_MAX];
	const struct js_cause_class *k;
	size_t n;

	(void)state;
	causes_init(c);
	fill_five(c);
	assert_int_equal(c->ngaps, 5);
	assert_int_equal(c->lost_ns, 450);
	assert_int_equal(src_sum(c), 450);

	n = causes_sorted(c, s, JS_CAUSES_SRC_MAX);
	assert_int_equal(n, 9);
	assert_int_equal(s[0]->cause, JS_CAUSE_WORK);
	assert_string_equal(s[0]->detail, "vmstat_update");
	assert_int_equal(s[0]->total_ns, 200);
	assert_int_equal(s[0]->gaps, 2);
	assert_int_equal(s[0]->events, 2);
	assert_int_equal(s[0]->max_ns, 150);
	assert_int_equal(s[1]->cause, JS_CAUSE_UNEXPLAINED);
	assert_string_equal(s[1]->detail, CAUSES_RESIDUAL_DETAIL);
	assert_int_equal(s[1]->total_ns, 20 + 20 + 40);
	assert_int_equal(s[1]->gaps, 3);
	assert_int_equal(s[2]->cause, JS_CAUSE_SMI);
	assert_int_equal(s[2]->total_ns, 50);
	assert_int_equal(s[2]->events, 1);
	assert_int_equal(s[3]->cause, JS_CAUSE_STEAL);
	assert_int_equal(s[3]->total_ns, 40);
	assert_int_equal(s[3]->max_ns, 30);
	assert_string_equal(s[4]->detail, "kworker/1:2:123 vmstat_update");
	assert_string_equal(s[5]->detail, "local_timer");
	/* ties at 10 ns: by class order */
	assert_string_equal(s[6]->detail, CAUSES_NOEVENT_DETAIL);
	assert_string_equal(s[7]->detail, "kworker/1:0:99 vmstat_update");
	assert_string_equal(s[8]->detail, "hrtimer tick_nohz_handler");
	assert_int_equal(s[8]->events, 2);
	assert_int_equal(causes_sorted(c, s, 3), 3);
	assert_int_equal(s[2]->cause, JS_CAUSE_SMI);

	k = causes_class(c, JS_CAUSE_TASK);
	assert_int_equal(k->total_ns, 40);
	assert_int_equal(k->gaps, 2);
	assert_int_equal(k->max_ns, 30);
	k = causes_class(c, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(k->total_ns, 90);
	assert_int_equal(k->gaps, 4);
	assert_int_equal(k->max_ns, 40);
	assert_null(causes_class(c, JS_CAUSE_MAX));

	assert_int_equal(causes_by_primary(c, JS_CAUSE_TASK), 2);
	assert_int_equal(c->ns_by_primary[JS_CAUSE_TASK], 300);
	assert_int_equal(causes_by_primary(c, JS_CAUSE_TIMER), 1);
	assert_int_equal(causes_by_primary(c, JS_CAUSE_STEAL), 1);
	assert_int_equal(causes_by_primary(c, JS_CAUSE_SMI), 1);
	assert_int_equal(causes_by_primary(c, JS_CAUSE_UNEXPLAINED), 0);
	assert_true(causes_share(c, 200) > 0.4444 && causes_share(c, 200) < 0.4445);
	free(c);
}

/* faults are one source per task whatever their address; a gap counts once per source */
static void test_fault_key(void **state)
{
	struct js_causes *c = malloc(sizeof(*c));
	const struct js_cause_src *f;
	struct js_gap_rec r;

	(void)state;
	causes_init(c);
	rec_init(&r, 100);
	fx_part(&r, JS_CAUSE_FAULT, "fault user a:1 @0x1000", 1, 5);
	fx_part(&r, JS_CAUSE_FAULT, "fault user a:1 @0x7f00beef (sampler)", 1, 7);
	fx_primary(&r, JS_CAUSE_FAULT, "fault user a:1 @0x7f00beef (sampler)");
	causes_add_gap(c, &r);
	rec_init(&r, 100);
	fx_part(&r, JS_CAUSE_FAULT, "fault user a:1", 3, 20);
	fx_part(&r, JS_CAUSE_FAULT, "fault user a:1 @0x3000", 1, 30); /* same source twice */
	fx_primary(&r, JS_CAUSE_FAULT, "fault user a:1 @0x3000");
	causes_add_gap(c, &r);

	f = find(c, JS_CAUSE_FAULT, "fault user a:1");
	assert_non_null(f);
	assert_int_equal(f->gaps, 2);
	assert_int_equal(f->events, 5);
	assert_int_equal(f->total_ns, 55);
	assert_int_equal(f->max_ns, 50);
	f = find(c, JS_CAUSE_FAULT, "fault user a:1 (sampler)");
	assert_non_null(f);
	assert_int_equal(f->total_ns, 7);
	assert_int_equal(causes_class(c, JS_CAUSE_FAULT)->max_ns, 50);
	assert_int_equal(src_sum(c), c->lost_ns);
	free(c);
}

/* by cgroup: the parts naming a task merged per class and cgroup name; the other parts,
 * steal and the unexplained time stay out; an id without a path is named by its number */
static void test_by_cgroup(void **state)
{
	struct js_causes *c = malloc(sizeof(*c));
	struct js_cgroups *cg = cgroups_new();
	const struct js_cause_src *f;
	struct js_gap_rec r;

	(void)state;
	assert_non_null(cg);
	assert_int_equal(cgroups_add(cg, 7, "/system.slice/nginx.service"), 0);
	assert_int_equal(cgroups_add(cg, 1, "/"), 0);
	causes_init(c);
	rec_init(&r, 100);
	fx_part(&r, JS_CAUSE_TASK, "nginx:812 [nginx.service]", 1, 50);
	r.attr.parts[0].cgroup = 7;
	fx_part(&r, JS_CAUSE_TASK, "nginx:813 [nginx.service]", 1, 20);
	r.attr.parts[1].cgroup = 7;
	fx_part(&r, JS_CAUSE_TASK, "kworker/1:2:77", 1, 10);
	r.attr.parts[2].cgroup = 1;
	fx_part(&r, JS_CAUSE_TIMER, "local_timer", 1, 5);
	r.attr.steal_ns = 5;
	fx_primary(&r, JS_CAUSE_TASK, "nginx:812 [nginx.service]");
	causes_add_cgroups(c, &r, cg);
	rec_init(&r, 40);
	fx_part(&r, JS_CAUSE_IPI, "reschedule from nginx:812 [nginx.service]", 1, 2);
	r.attr.parts[0].cgroup = 7;
	fx_part(&r, JS_CAUSE_TASK, "gone:9", 1, 30);
	r.attr.parts[1].cgroup = 99;
	fx_primary(&r, JS_CAUSE_TASK, "gone:9");
	causes_add_cgroups(c, &r, cg);

	assert_int_equal(c->ngaps, 2);
	assert_int_equal(c->lost_ns, 140);
	assert_int_equal(c->nsrc, 4);
	f = find(c, JS_CAUSE_TASK, "nginx.service");
	assert_non_null(f);
	assert_int_equal(f->gaps, 1);
	assert_int_equal(f->events, 2);
	assert_int_equal(f->total_ns, 70);
	assert_int_equal(find(c, JS_CAUSE_TASK, "/")->total_ns, 10);
	assert_int_equal(find(c, JS_CAUSE_IPI, "nginx.service")->total_ns, 2);
	assert_int_equal(find(c, JS_CAUSE_TASK, "cgroup id 99")->total_ns, 30);
	assert_null(find(c, JS_CAUSE_TIMER, "local_timer"));
	assert_int_equal(causes_class(c, JS_CAUSE_TASK)->total_ns, 110);
	assert_int_equal(causes_class(c, JS_CAUSE_STEAL)->total_ns, 0);
	/* without a table every id is a number */
	causes_init(c);
	causes_add_cgroups(c, &r, NULL);
	assert_non_null(find(c, JS_CAUSE_IPI, "cgroup id 7"));
	cgroups_free(cg);
	free(c);
}

/* more sources than fit: the rest goes to the class's "(other)", totals stay right */
static void test_overflow(void **state)
{
	struct js_causes *c = malloc(sizeof(*c));
	const struct js_cause_src *o;
	struct js_gap_rec r;
	uint64_t sum = 0;
	char d[32];

	(void)state;
	causes_init(c);
	for (int i = 0; i < 600; i++) {
		snprintf(d, sizeof(d), "dev%d:%d", i, 100 + i);
		rec_init(&r, 1 + i);
		fx_part(&r, JS_CAUSE_IRQ, d, 1, 1 + i);
		fx_primary(&r, JS_CAUSE_IRQ, d);
		causes_add_gap(c, &r);
		sum += 1 + i;
	}
	/* a new class after the table is full still has its own "(other)" */
	rec_init(&r, 10);
	fx_part(&r, JS_CAUSE_SOFTIRQ, "NET_RX", 1, 4);
	fx_part(&r, JS_CAUSE_IRQ, "(other: 2 sources)", 2, 6);
	fx_primary(&r, JS_CAUSE_SOFTIRQ, "NET_RX");
	causes_add_gap(c, &r);
	sum += 10;

	assert_true(c->nsrc <= JS_CAUSES_SRC_MAX);
	assert_int_equal(c->lost_ns, sum);
	assert_int_equal(src_sum(c), sum);
	assert_int_equal(causes_class(c, JS_CAUSE_IRQ)->gaps, 601);
	o = find(c, JS_CAUSE_IRQ, "(other)");
	assert_non_null(o);
	assert_true(o->other);
	assert_int_equal(o->gaps, 600 - (JS_CAUSES_SRC_MAX - JS_CAUSE_MAX) + 1);
	assert_int_equal(o->max_ns, 600);
	o = find(c, JS_CAUSE_SOFTIRQ, "(other)");
	assert_non_null(o);
	assert_int_equal(o->total_ns, 4);
	assert_null(find(c, JS_CAUSE_SOFTIRQ, "NET_RX"));
	assert_non_null(find(c, JS_CAUSE_IRQ, "dev0:100"));
	free(c);
}

/* a gap's folded part ("(other: N sources)") joins its class's one "(other)" source */
static void test_gap_fold(void **state)
{
	struct js_causes *c = malloc(sizeof(*c));
	const struct js_cause_src *o;
	struct js_gap_rec r;

	(void)state;
	causes_init(c);
	rec_init(&r, 100);
	fx_part(&r, JS_CAUSE_TASK, "head:500", 1, 60);
	fx_part(&r, JS_CAUSE_IRQ, "(other: 5 sources)", 7, 30);
	fx_primary(&r, JS_CAUSE_TASK, "head:500");
	causes_add_gap(c, &r);
	rec_init(&r, 100);
	fx_part(&r, JS_CAUSE_TASK, "head:500", 1, 50);
	fx_part(&r, JS_CAUSE_IRQ, "(other: 17 sources)", 20, 40);
	fx_part(&r, JS_CAUSE_IRQ, "virtio1-req.0:36", 1, 5);
	fx_primary(&r, JS_CAUSE_TASK, "head:500");
	causes_add_gap(c, &r);

	o = find(c, JS_CAUSE_IRQ, "(other)");
	assert_non_null(o);
	assert_true(o->other);
	assert_int_equal(o->gaps, 2);
	assert_int_equal(o->events, 27);
	assert_int_equal(o->total_ns, 70);
	assert_int_equal(o->max_ns, 40);
	assert_null(find(c, JS_CAUSE_IRQ, "(other: 5 sources)"));
	assert_null(find(c, JS_CAUSE_IRQ, "(other: 17 sources)"));
	assert_int_equal(c->nsrc, 4); /* head, (other), virtio, unexplained */
	assert_int_equal(src_sum(c), 200);
	free(c);
}

/* two CPUs' tables merge into one */
static void test_merge(void **state)
{
	struct js_causes *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	const struct js_cause_src *s;
	struct js_gap_rec r;

	(void)state;
	causes_init(a);
	causes_init(b);
	fill_five(a);
	fill_five(b);
	rec_init(&r, 1000);
	fx_part(&r, JS_CAUSE_WORK, "vmstat_update", 1, 900);
	fx_primary(&r, JS_CAUSE_WORK, "vmstat_update");
	causes_add_gap(b, &r);
	causes_merge(a, b);
	assert_int_equal(a->ngaps, 11);
	assert_int_equal(a->lost_ns, 1900);
	assert_int_equal(src_sum(a), 1900);
	s = find(a, JS_CAUSE_WORK, "vmstat_update");
	assert_int_equal(s->total_ns, 1300);
	assert_int_equal(s->gaps, 5);
	assert_int_equal(s->max_ns, 900);
	assert_int_equal(causes_by_primary(a, JS_CAUSE_TASK), 4);
	assert_int_equal(causes_class(a, JS_CAUSE_WORK)->max_ns, 900);
	/* the merged table keeps counting per gap */
	causes_add_gap(a, &r);
	assert_int_equal(s->gaps, 6);
	free(a);
	free(b);
}

/* 1-2-5 bucket bounds from 100 ns to 100 s */
/* the class table: every row complete; tracks numbered 1..N (thp shares mm's); every
 * entry/exit kind named by exactly one interruption; unknown classes read as unexplained */
static void test_class_table(void **state)
{
	int tracks = 0, kinds[ENTRY_KINDS] = { 0 };
	bool track_named[JS_TRACKS_MAX + 1] = { false };
	char letters[JS_CAUSE_MAX];
	size_t nletters = 0;

	(void)state;
	for (uint32_t c = 0; c < JS_CAUSE_MAX; c++) {
		const struct js_cause_info *ci = js_cause_info(c);

		assert_non_null(ci->name);
		assert_int_equal(js_cause_from_name(ci->name), (int)c);
		assert_non_null(ci->colour);
		assert_int_equal(strlen(ci->colour), 7);
		assert_int_equal(ci->colour[0], '#');
		assert_int_equal(strspn(ci->colour + 1, "0123456789abcdef"), 6);
		assert_true(ci->letter > ' ' && ci->letter < 127);
		/* one letter per class ('?' and '#' are the bars' own) */
		assert_null(memchr(letters, ci->letter, nletters));
		assert_true(ci->letter != '?' && ci->letter != '#');
		letters[nletters++] = ci->letter;
		assert_true(ci->role <= JS_ROLE_OFFCPU);
		assert_true(ci->track <= JS_TRACKS_MAX);
		assert_false(ci->track_shared && !ci->track);
		if (ci->track && !ci->track_shared) {
			assert_false(track_named[ci->track]); /* one class names a track */
			track_named[ci->track] = true;
			tracks = ci->track > tracks ? ci->track : tracks;
		}
		if (ci->role == JS_ROLE_INTERRUPT) {
			assert_true(ci->entry_kind < ENTRY_KINDS);
			kinds[ci->entry_kind]++;
			assert_int_equal(entry_kind_of(c), ci->entry_kind);
		} else {
			assert_int_equal(entry_kind_of(c), -1);
		}
		/* the accounting classes have no event, so no track */
		assert_true(ci->role != JS_ROLE_ACCOUNT || !ci->track);
	}
	for (int t = 1; t <= tracks; t++)
		assert_true(track_named[t]);	    /* no hole */
	for (uint32_t c = 0; c < JS_CAUSE_MAX; c++) /* a sharer's track has an owner */
		assert_true(!js_cause_info(c)->track_shared ||
			    track_named[js_cause_info(c)->track]);
	for (int k = 0; k < ENTRY_KINDS; k++)
		assert_int_equal(kinds[k], 1);
	assert_ptr_equal(js_cause_info(JS_CAUSE_MAX), js_cause_info(JS_CAUSE_UNEXPLAINED));
	assert_string_equal(js_cause_info(JS_CAUSE_THP)->name, "thp");
	assert_int_equal(js_cause_info(JS_CAUSE_THP)->track, js_cause_info(JS_CAUSE_MM)->track);
}

static void test_bucket_bounds(void **state)
{
	(void)state;
	assert_int_equal(cbuckets_lo(0), 0);
	assert_int_equal(cbuckets_hi(0), 100);
	assert_int_equal(cbuckets_lo(1), 100);
	assert_int_equal(cbuckets_lo(2), 200);
	assert_int_equal(cbuckets_lo(3), 500);
	assert_int_equal(cbuckets_lo(4), 1000);
	assert_int_equal(cbuckets_lo(13), 1000000);
	assert_int_equal(cbuckets_lo(27), 50000000000ull);
	assert_int_equal(cbuckets_lo(28), 100000000000ull);
	assert_int_equal(cbuckets_hi(27), 100000000000ull);
	assert_true(cbuckets_hi(28) == UINT64_MAX);
	for (int i = 0; i < JS_CB_BUCKETS - 1; i++) {
		assert_int_equal(cbuckets_hi(i), cbuckets_lo(i + 1));
		assert_int_equal(cbuckets_index(cbuckets_lo(i)), i);
		assert_int_equal(cbuckets_index(cbuckets_hi(i) - 1), i);
	}
	assert_int_equal(cbuckets_index(0), 0);
	assert_int_equal(cbuckets_index(999), 3);
	assert_int_equal(cbuckets_index(1000), 4);
	assert_int_equal(cbuckets_index(UINT64_MAX), JS_CB_BUCKETS - 1);
}

/* each bucket splits its gaps by primary cause */
static void test_buckets(void **state)
{
	struct js_cause_buckets b;
	int i;

	(void)state;
	cbuckets_init(&b);
	cbuckets_add(&b, 45000, JS_CAUSE_TIMER);
	cbuckets_add(&b, 48000, JS_CAUSE_TIMER);
	cbuckets_add(&b, 30000, JS_CAUSE_UNEXPLAINED);
	cbuckets_add(&b, 14000000, JS_CAUSE_IDLE);
	cbuckets_add(&b, 40000, 999); /* bad class: unexplained */
	i = cbuckets_index(45000);
	assert_int_equal(i, cbuckets_index(20000));
	assert_int_equal(b.total[i], 5 - 1);
	assert_int_equal(b.count[i][JS_CAUSE_TIMER], 2);
	assert_int_equal(b.ns[i][JS_CAUSE_TIMER], 93000);
	assert_int_equal(b.count[i][JS_CAUSE_UNEXPLAINED], 2);
	i = cbuckets_index(14000000);
	assert_int_equal(cbuckets_lo(i), 10000000);
	assert_int_equal(b.count[i][JS_CAUSE_IDLE], 1);
	assert_int_equal(b.total[i], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),	    cmocka_unit_test(test_fault_key),
		cmocka_unit_test(test_by_cgroup),   cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_gap_fold),    cmocka_unit_test(test_merge),
		cmocka_unit_test(test_class_table), cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_buckets),
	};

	return cmocka_run_group_tests_name("causes", tests, NULL, NULL);
}
