// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_host.c - the host classes (js_host.h) from recorded readings: a vCPU reload without
 * steal, a kvmclock update, the host's period; what no signal names stays unexplained. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "js_correlate.h"
#include "js_host.h"
#include "js_result.h"
#include "fixtures.h"

#define US 1000ull
#define MS 1000000ull
#define T0 5000000000ull /* an arbitrary CLOCK_MONOTONIC origin */

/* rec_mk - a gap at s of dur whose first covered ns an event of the timer explains */
static void rec_mk(struct js_gap_rec *r, uint64_t s, uint64_t dur, uint64_t covered)
{
	fx_rec(r, 1, s, dur);
	if (covered)
		fx_part(r, JS_CAUSE_TIMER, "local_timer", 1, covered);
	fx_primary(r, covered ? JS_CAUSE_TIMER : JS_CAUSE_UNEXPLAINED, "");
}

/* rd - a recorded reading: both version counters read */
static struct steal_reading rd(uint64_t t, uint64_t steal, uint8_t stv, uint8_t clkv)
{
	return (struct steal_reading){ t, steal, stv, clkv,
				       STEAL_HAS_ST_VERSION | STEAL_HAS_CLK_VERSION };
}

/* attribute - the drain's order: readings, then the host's name */
static enum js_cause attribute(struct js_gap_rec *g, size_t n, const struct steal_reading *r,
			       size_t nr)
{
	enum js_cause c = JS_CAUSE_UNEXPLAINED;

	steal_allocate(g, n, r, nr);
	for (size_t i = 0; i < n; i++) {
		corr_settle(&g[i]);
		c = host_name(&g[i], NULL, false);
	}
	return c;
}

/* steal_time.version moved by one update (2), the steal did not: the host re-loaded the
 * vCPU inside the gap, which gets the whole remainder */
static void test_reload_without_steal(void **state)
{
	struct js_gap_rec g;
	struct steal_reading r[] = { rd(T0, 7000, 10, 4), rd(T0 + MS, 7000, 12, 4) };

	(void)state;
	rec_mk(&g, T0 + 100 * US, 300 * US, 0);
	assert_int_equal(attribute(&g, 1, r, 2), JS_CAUSE_HOST_RELOAD);
	assert_int_equal(g.attr.primary, JS_CAUSE_HOST_RELOAD);
	assert_string_equal(g.attr.detail, HOST_RELOAD_DETAIL);
	assert_int_equal(g.attr.nparts, 1);
	assert_int_equal(g.attr.parts[0].cause, JS_CAUSE_HOST_RELOAD);
	assert_int_equal(g.attr.parts[0].count, 1);
	assert_int_equal(g.attr.parts[0].net_ns, 300 * US);
	assert_int_equal(g.attr.unexplained_ns, 0);
	assert_string_equal(js_cause_name(JS_CAUSE_HOST_RELOAD), "host-reload");
}

/* the version moved with the steal: the run-queue's (steal), the rest stays unexplained */
static void test_reload_with_steal(void **state)
{
	struct js_gap_rec g;
	struct steal_reading r[] = { rd(T0, 7000, 10, 4), rd(T0 + MS, 7000 + 200 * US, 14, 4) };

	(void)state;
	rec_mk(&g, T0 + 100 * US, 300 * US, 0);
	assert_int_equal(attribute(&g, 1, r, 2), JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g.attr.steal_ns, 200 * US);
	assert_int_equal(g.attr.primary, JS_CAUSE_STEAL);
	assert_int_equal(g.attr.unexplained_ns, 100 * US);
	assert_int_equal(g.attr.nparts, 0);
}

/* kvmclock's version moved by two updates (one still odd counts as begun): host-clock; an
 * event part keeps its primary, the remainder beside it is the host's */
static void test_clock_update(void **state)
{
	struct js_gap_rec g[2];
	struct steal_reading r[] = { rd(T0, 0, 10, 4), rd(T0 + MS, 0, 10, 8),
				     rd(T0 + 2 * MS, 0, 10, 9) };

	(void)state;
	rec_mk(&g[0], T0 + 100 * US, 200 * US, 150 * US);
	rec_mk(&g[1], T0 + 1200 * US, 50 * US, 0);
	attribute(g, 2, r, 3);
	assert_int_equal(g[0].attr.primary, JS_CAUSE_TIMER);
	assert_int_equal(g[0].attr.nparts, 2);
	assert_int_equal(g[0].attr.parts[1].cause, JS_CAUSE_HOST_CLOCK);
	assert_int_equal(g[0].attr.parts[1].count, 2);
	assert_int_equal(g[0].attr.parts[1].net_ns, 50 * US);
	assert_string_equal(g[0].attr.parts[1].detail, HOST_CLOCK_DETAIL);
	assert_int_equal(g[0].attr.unexplained_ns, 0);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_HOST_CLOCK);
	assert_int_equal(g[1].attr.parts[0].count, 1);
}

/* both moved: the reload is named (a vCPU loaded on another pCPU updates its clock too) */
static void test_reload_before_clock(void **state)
{
	struct js_gap_rec g;
	struct steal_reading r[] = { rd(T0, 0, 10, 4), rd(T0 + MS, 0, 12, 6) };

	(void)state;
	rec_mk(&g, T0 + 100 * US, 300 * US, 0);
	assert_int_equal(attribute(&g, 1, r, 2), JS_CAUSE_HOST_RELOAD);
	assert_int_equal(g.attr.host_reloads, 1);
	assert_int_equal(g.attr.host_clock, 1);
}

/* the moves of a window go to its gap with the most unexplained time; a window without a
 * move, or readings without the counters, name nothing: those gaps stay unexplained */
static void test_remainder_stays_unexplained(void **state)
{
	struct js_gap_rec g[4];
	struct steal_reading r[] = { rd(T0, 0, 10, 4),
				     rd(T0 + MS, 0, 12, 4),
				     rd(T0 + 2 * MS, 0, 12, 4),
				     { T0 + 3 * MS, 0, 20, 4, 0 },
				     { T0 + 4 * MS, 0, 30, 4, 0 } };

	(void)state;
	rec_mk(&g[0], T0 + 100 * US, 40 * US, 0);  /* window 1, the smaller */
	rec_mk(&g[1], T0 + 500 * US, 90 * US, 0);  /* window 1, the larger: the reload */
	rec_mk(&g[2], T0 + 1500 * US, 90 * US, 0); /* window 2: no move */
	rec_mk(&g[3], T0 + 3500 * US, 90 * US, 0); /* window 4: counters not read */
	attribute(g, 4, r, 5);
	assert_int_equal(g[0].attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g[0].attr.unexplained_ns, 40 * US);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_HOST_RELOAD);
	assert_int_equal(g[2].attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g[2].attr.unexplained_ns, 90 * US);
	assert_int_equal(g[3].attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g[3].attr.nparts, 0);
}

/* the probes carry a version's low byte and the steal modulo 2^48 (js_events.h): a move
 * across the byte's wrap is a move, a steal across 2^48 is its difference */
static void test_wraps(void **state)
{
	struct js_gap_rec g[2];
	struct steal_reading r[] = { rd(T0, JS_HOST_STEAL_MASK - 99, 7, 254), rd(T0 + MS, 50, 7, 2),
				     rd(T0 + 2 * MS, 50, 9, 2) };

	(void)state;
	rec_mk(&g[0], T0 + 100 * US, 400 * US, 0);
	rec_mk(&g[1], T0 + 1100 * US, 400 * US, 0);
	attribute(g, 2, r, 3);
	assert_int_equal(g[0].attr.steal_ns, 150);
	assert_int_equal(g[0].attr.host_clock, 2);
	assert_int_equal(g[0].attr.host_reloads, 0); /* moved with the steal: none moved */
	assert_int_equal(g[0].attr.primary, JS_CAUSE_HOST_CLOCK);
	assert_int_equal(g[1].attr.host_reloads, 1); /* 7 -> 9, no steal */
	assert_int_equal(g[1].attr.primary, JS_CAUSE_HOST_RELOAD);
}

/* hr_ev - an event with the host's readings as the probes write them (js_events.h) */
static struct js_event hr_ev(uint64_t s, uint64_t e, uint8_t clk0, uint8_t clk1, uint32_t f)
{
	struct js_event ev = { .start_ns = s, .end_ns = e, .kind = JS_EV_HRTIMER, .flags = f };

	ev.steal_start = (uint64_t)clk0 << JS_HOST_CLK_SHIFT;
	ev.steal_end = (uint64_t)clk1 << JS_HOST_CLK_SHIFT;
	return ev;
}

/* the live input: events whose readings hold the kvmclock version alone (a guest with no
 * steal time: the development VM), through the drain's log; its moves counted once, a
 * gap named for them, an event without JS_F_HOST_CLK giving no version */
static void test_log_from_events(void **state)
{
	struct steal_log l;
	struct js_gap_rec g[2];
	const uint32_t f = JS_F_STEAL | JS_F_HOST_CLK;
	struct js_event ev[] = { hr_ev(T0, T0 + 10 * US, 40, 40, f),
				 hr_ev(T0 + MS, T0 + MS + 10 * US, 42, 42, f),
				 hr_ev(T0 + 2 * MS, T0 + 2 * MS + 10 * US, 0, 0, 0),
				 hr_ev(T0 + 3 * MS, T0 + 3 * MS + 10 * US, 42, 42, f) };

	(void)state;
	assert_int_equal(steal_log_init(&l, 16), 0);
	for (size_t i = 0; i < 4; i++)
		steal_log_add(&l, &ev[i]);
	assert_int_equal(l.n, 6);
	rec_mk(&g[0], T0 + 200 * US, 300 * US, 0);
	rec_mk(&g[1], T0 + 2200 * US, 300 * US, 0);
	steal_log_allocate(&l, g, 2);
	for (size_t i = 0; i < 2; i++) {
		corr_settle(&g[i]);
		host_name(&g[i], NULL, false);
	}
	assert_int_equal(g[0].attr.primary, JS_CAUSE_HOST_CLOCK);
	assert_int_equal(g[0].attr.parts[0].count, 1);
	assert_int_equal(g[0].attr.steal_ns, 0);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(l.moves.readings, 6);
	assert_int_equal(l.moves.has, STEAL_HAS_CLK_VERSION);
	assert_int_equal(l.moves.clocks, 1);
	assert_int_equal(l.moves.reloads, 0);
	steal_log_free(&l);
}

/* a mark's remainder is the application's work: never the host's */
static void test_mark_kept(void **state)
{
	struct js_gap_rec g;
	struct steal_reading r[] = { rd(T0, 0, 10, 4), rd(T0 + MS, 0, 12, 6) };

	(void)state;
	rec_mk(&g, T0 + 100 * US, 300 * US, 0);
	g.gap.source = JS_SRC_MARK;
	assert_int_equal(attribute(&g, 1, r, 2), JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g.attr.unexplained_ns, 300 * US);
}

/* the phase window: 3 sd of the jitter the strength implies, at most an eighth of P */
static void test_phase_window(void **state)
{
	struct js_period_result pr = {
		.period_ns = MS, .strength = 0.98, .phase_ns = 100 * US, .periodic = true
	};

	(void)state;
	/* s = 0.98: sd = P / 2pi * sqrt(-2 ln 0.98) = 31.9 us */
	assert_in_range((uint64_t)host_phase_window_ns(&pr), 94 * US, 97 * US);
	assert_true(host_on_phase(&pr, T0 + 190 * US));
	assert_false(host_on_phase(&pr, T0 + 200 * US));
	pr.phase_ns = 980 * US; /* circular: 20 us past the period's end is 40 us away */
	assert_true(host_on_phase(&pr, T0 + 20 * US));
	pr.strength = 0.3;
	assert_int_equal((uint64_t)host_phase_window_ns(&pr), MS / 8);
	pr.periodic = false;
	assert_false(host_on_phase(&pr, T0 + 980 * US));
}

static uint64_t rng = 88172645463325252ull;

static uint64_t urand(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/*
 * run_periodic - a recorded second of a guest: a 30 us stall with no guest event every 1 ms
 * at phase 300 us (jitter 0-10 us), 2500 random 3-8 us gaps with none, a 30 us gap a guest
 * tick explains every 4 ms and 250 40 us gaps with none at random times (off_phase: those
 * off the stalls' phase). r: the CPU's result (freed by the caller).
 */
static void run_periodic(struct js_cpu_result *r, bool probes, uint64_t *off_phase)
{
	struct js_gap_rec g;

	assert_int_equal(result_cpu_init(r, 1, 8), 0);
	r->host_periodic = probes;
	*off_phase = 0;
	for (uint64_t t = T0; t < T0 + 1000 * MS; t += 250 * US) {
		uint64_t k = (t - T0) / (250 * US);

		if (k % 4 == 1) /* the host's stall */
			rec_mk(&g, t + 50 * US + urand(10 * US), 30 * US, 0);
		else if (k % 16 == 3) /* the guest's tick */
			rec_mk(&g, t, 30 * US, 25 * US);
		else if (k % 16 == 11) { /* a long gap with no event, at a random time */
			rec_mk(&g, t + urand(200 * US), 40 * US, 0);
			if (!host_on_phase(&(struct js_period_result){ .period_ns = MS,
								       .phase_ns = 300 * US,
								       .strength = 0.99,
								       .periodic = true },
					   g.gap.start_ns))
				(*off_phase)++;
		} else
			rec_mk(&g, t + urand(200 * US), 3 * US + urand(5 * US), 0);
		corr_settle(&g);
		result_add_gap(r, &g);
	}
}

/* the host's period among the gaps with no guest event names those on its phase; the
 * run's own detector found it; the others stay unexplained */
static void test_periodic(void **state)
{
	struct js_cpu_result r;
	struct js_gap_rec g;
	struct js_period_result pr;
	uint64_t off;
	int h;

	(void)state;
	run_periodic(&r, true, &off);
	h = period_classes_headline(&r.period);
	assert_true(period_result(&r.period.ge[h], &pr));
	assert_int_equal(pr.period_ns, MS);
	/* 1000 stalls; the first 100 come before the band's times span 100 periods */
	assert_in_range(r.causes.by_primary[JS_CAUSE_HOST_PERIODIC], 880, 900);
	assert_int_equal(r.causes.by_primary[JS_CAUSE_TIMER], 250);
	/* the off-phase long gaps and the 2500 short random ones stay unexplained */
	assert_true(off > 150);
	assert_true(r.causes.by_primary[JS_CAUSE_UNEXPLAINED] >= off + 2500);
	assert_int_equal(r.causes.by_primary[JS_CAUSE_UNEXPLAINED] +
				 r.causes.by_primary[JS_CAUSE_HOST_PERIODIC],
			 4000 - 250);
	for (uint32_t i = 0; i < r.causes.nsrc; i++)
		if (r.causes.src[i].cause == JS_CAUSE_HOST_PERIODIC)
			assert_string_equal(r.causes.src[i].detail, "every 1.0 ms (host tick)");
	/* on the phase, a gap of the stalls' band is the host's; one of a band whose gaps are
	 * not periodic (100 us - 1 ms: none) is not, nor one with a guest event */
	rec_mk(&g, T0 + 1000 * MS + 305 * US, 30 * US, 0);
	assert_int_equal(host_name(&g, &r.period, true), JS_CAUSE_HOST_PERIODIC);
	assert_int_equal(g.attr.unexplained_ns, 0);
	assert_int_equal(g.attr.parts[0].net_ns, 30 * US);
	rec_mk(&g, T0 + 1000 * MS + 305 * US, 300 * US, 0);
	assert_int_equal(host_name(&g, &r.period, true), JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g.attr.unexplained_ns, 300 * US);
	rec_mk(&g, T0 + 1000 * MS + 305 * US, 30 * US, 10 * US);
	assert_int_equal(host_name(&g, &r.period, true), JS_CAUSE_UNEXPLAINED);
	/* nor one whose events may have been lost or evicted: its "no guest event" is not
	 * known (drain.c's evidence_lost) */
	rec_mk(&g, T0 + 1000 * MS + 305 * US, 30 * US, 0);
	g.attr.evidence_lost = 1;
	assert_int_equal(host_name(&g, &r.period, true), JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g.attr.unexplained_ns, 30 * US);
	result_cpu_free(&r);
}

/* without the probes a guest tick is not seen: no gap is named periodic */
static void test_periodic_needs_probes(void **state)
{
	struct js_cpu_result r;
	uint64_t off;

	(void)state;
	run_periodic(&r, false, &off);
	assert_int_equal(r.causes.by_primary[JS_CAUSE_HOST_PERIODIC], 0);
	assert_int_equal(r.causes.cls[JS_CAUSE_HOST_PERIODIC].total_ns, 0);
	result_cpu_free(&r);
}

/* a period longer than any kernel tick's (HZ=100: 10 ms) is not named the host's */
static void test_periodic_not_a_tick(void **state)
{
	struct js_cpu_result r;
	struct js_gap_rec g;
	struct js_period_result pr;

	(void)state;
	assert_int_equal(result_cpu_init(&r, 1, 8), 0);
	r.host_periodic = true;
	for (uint64_t k = 0; k < 300; k++) { /* 6 s of a 30 us stall every 20 ms */
		rec_mk(&g, T0 + k * 20 * MS + 7 * MS, 30 * US, 0);
		corr_settle(&g);
		result_add_gap(&r, &g);
	}
	assert_true(period_result(&r.period.band[4], &pr));
	assert_int_equal(pr.period_ns, 20 * MS);
	assert_int_equal(r.causes.by_primary[JS_CAUSE_HOST_PERIODIC], 0);
	assert_int_equal(r.causes.by_primary[JS_CAUSE_UNEXPLAINED], 300);
	result_cpu_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reload_without_steal),
		cmocka_unit_test(test_reload_with_steal),
		cmocka_unit_test(test_clock_update),
		cmocka_unit_test(test_reload_before_clock),
		cmocka_unit_test(test_remainder_stays_unexplained),
		cmocka_unit_test(test_wraps),
		cmocka_unit_test(test_log_from_events),
		cmocka_unit_test(test_mark_kept),
		cmocka_unit_test(test_phase_window),
		cmocka_unit_test(test_periodic),
		cmocka_unit_test(test_periodic_needs_probes),
		cmocka_unit_test(test_periodic_not_a_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
