// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_drain.c - the drain without a sampler or a probe (js_drain.h): a source's lane merges
 * the overlapping gaps of one id, a mark of no CPU is filed on the watched CPU whose events
 * explain it (the first listed when none does), the events no gap still to come can
 * overlap are pruned (IPI sends kept longer), an event of a CPU not watched is counted only;
 * the samplers' CPUs drained by two threads still match an IPI with its sender, whose record
 * another CPU wrote, and threads that outnumber their CPUs take turns; a batch reads a source's long window from where it can matter; a spinner's full window sheds other tasks' page faults before a task's run.
 */
#include <linux/types.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_causes.h"
#include "js_drain.h"
#include "js_util.h"
#include "js_gapring.h"
#include "js_scale.h"
#include "js_source.h"

#define S 1000000000ull
#define MS_NS 1000000ull
#define T0 (100 * S)

static struct js_run run;
static struct js_drain d;
static struct js_probes *probes; /* only tested against NULL: the drain's "probes on" */
static struct tsc_fit fit;

/* setup_drain - a drain of the CPUs cpus[n], lane src on each, no sampler, probes on */
static void setup_drain(const int *cpus, size_t n, enum js_source src)
{
	memset(&run, 0, sizeof(run));
	memset(&d, 0, sizeof(d));
	probes = (struct js_probes *)&fit; /* any object: never dereferenced */
	d.run = &run;
	d.probes = &probes;
	d.fit = &fit;
	d.top = 8;
	d.mopts.marked = true;
	assert_int_equal(drain_setup(&d, cpus, n, 64), 0);
	for (size_t i = 0; i < n; i++)
		d.cp[i].lane[src].on = true;
	assert_int_equal(drain_setup_buffers(&d), 0);
	d.window_start = d.now = T0;
}

static void teardown_drain(void)
{
	drain_free(&d);
	for (size_t i = 0; i < run.ncpus; i++)
		result_cpu_free(&run.cpus[i]);
	free(run.cpus);
}

static struct js_gap gap(enum js_source src, uint32_t cpu, uint32_t id, uint64_t start,
			 uint64_t dur)
{
	return (struct js_gap){
		.start_ns = start, .dur_ns = dur, .cpu = cpu, .source = src, .id = id
	};
}

static struct js_event irq(uint32_t cpu, uint64_t start, uint64_t dur)
{
	struct js_event e = {
		.start_ns = start, .end_ns = start + dur, .kind = JS_EV_IRQ, .cpu = cpu, .id = 36
	};

	memcpy(e.name, "virtio1", 8);
	return e;
}

/** A thread's gaps that overlap (its interrupt, then the preemption it caused) are one. */
static void test_lane_merges(void **state)
{
	const int cpus[] = { 1 };
	struct js_gap g;
	int res;

	(void)state;
	setup_drain(cpus, 1, JS_SRC_THREAD);
	res = drain_result(&d, JS_SRC_THREAD, 1);
	assert_int_equal(res, 0);
	assert_true(run.cpus[res].started); /* the window is open: started with it */
	g = gap(JS_SRC_THREAD, 1, 812, T0 + 1000, 5000);
	g.res = (uint32_t)res;
	g.kind = JS_GAP_INTERRUPTED;
	assert_true(drain_push(&d, &g, "nginx:812"));
	g.start_ns = T0 + 4000; /* overlaps: merged, the preemption names it */
	g.dur_ns = 10000;
	g.kind = JS_GAP_PREEMPTED;
	assert_true(drain_push(&d, &g, "nginx:812"));
	g.id = 813; /* another thread: its own gap */
	assert_true(drain_push(&d, &g, "nginx:813"));
	g.id = 812;
	g.start_ns = T0 + 50000; /* after: its own gap */
	assert_true(drain_push(&d, &g, "nginx:812"));
	assert_int_equal(d.cp[0].lane[JS_SRC_THREAD].npend, 3);
	assert_int_equal(d.cp[0].lane[JS_SRC_THREAD].pend[0].dur_ns, 13000);
	assert_int_equal(d.cp[0].lane[JS_SRC_THREAD].pend[0].kind, JS_GAP_PREEMPTED);
	/* a CPU not watched, and a sampler's gap handed as a source's, are refused */
	g.cpu = 5;
	assert_false(drain_push(&d, &g, "x"));
	g = gap(JS_SRC_SAMPLER, 1, 0, T0, 10);
	assert_false(drain_push(&d, &g, NULL));
	/* nothing ended before the cutoff: nothing attributed */
	drain_run(&d, T0 + 1000);
	assert_int_equal(run.cpus[res].gap_count, 0);
	drain_run(&d, UINT64_MAX);
	assert_int_equal(run.cpus[res].gap_count, 3);
	assert_int_equal(d.cp[0].lane[JS_SRC_THREAD].npend, 0);
	teardown_drain();
}

/** A mark of no CPU goes to the watched CPU whose events explain it; with none, the first. */
static void test_marks_filed(void **state)
{
	const int cpus[] = { 1, 3 };
	struct js_event e = irq(3, T0 + 2000, 6000);
	struct js_gap g = gap(JS_SRC_MARK, JS_CPU_ANY, 7, T0 + 1000, 10000);
	int on1 = -1, on3 = -1;

	(void)state;
	setup_drain(cpus, 2, JS_SRC_MARK);
	assert_int_equal(drain_event(&d, &e), 0);
	assert_int_equal(d.cp[1].nev, 1);
	assert_int_equal(d.cp[0].nev, 0);
	assert_true(drain_push(&d, &g, "frame 7"));
	g = gap(JS_SRC_MARK, JS_CPU_ANY, 9, T0 + 30000, 1000); /* no event explains it */
	assert_true(drain_push(&d, &g, "frame 9"));
	assert_int_equal(d.nunfiled, 2);
	drain_run(&d, UINT64_MAX);
	assert_int_equal(d.nunfiled, 0);
	for (size_t i = 0; i < run.ncpus; i++) {
		assert_int_equal(run.cpus[i].source, JS_SRC_MARK);
		if (run.cpus[i].cpu == 3)
			on3 = (int)i;
		if (run.cpus[i].cpu == 1)
			on1 = (int)i;
	}
	assert_int_not_equal(on3, -1);
	assert_int_not_equal(on1, -1);
	assert_int_equal(run.cpus[on3].gap_count, 1);
	assert_int_equal(run.cpus[on1].gap_count, 1);
	assert_int_equal(d.cp[1].mark_res, on3);
	assert_int_equal(d.cp[0].mark_res, on1);
	teardown_drain();
}

/**
 * A marks' CPU keeps DRAIN_MARK_KEEP0_NS of events at first, IPI sends DRAIN_IPI_KEEP_NS more;
 * the window moves on from its start, so an event behind a send still kept stays while the
 * send does. A mark read later grows the window to twice its lateness, up to DRAIN_KEEP_NS;
 * one read after its start left the window is counted late.
 */
static void test_prune_floor(void **state)
{
	const uint64_t k0 = DRAIN_MARK_KEEP0_NS;
	const int cpus[] = { 2 };
	struct js_event old = irq(2, T0, 1000), recent = irq(2, T0 + k0, 1000);
	struct js_event ipi = {
		.start_ns = T0 + 500, .end_ns = T0 + 500, .kind = JS_EV_IPI_SEND, .cpu = 2
	};
	struct js_event other = irq(7, T0, 1000);
	struct js_gap g;
	int res;

	(void)state;
	setup_drain(cpus, 1, JS_SRC_MARK);
	res = drain_result(&d, JS_SRC_MARK, 2);
	drain_event(&d, &old);
	drain_event(&d, &ipi);
	drain_event(&d, &recent);
	drain_event(&d, &other); /* CPU 7 is not watched: counted, not kept */
	assert_int_equal(run.probe_events, 4);
	assert_int_equal(d.cp[0].nev, 3);
	/* now - keep is past the old IRQ but within an IPI's extra keep of the send */
	d.now = T0 + k0 + 1100;
	g = gap(JS_SRC_MARK, 2, 1, T0 + k0, 1000);
	g.res = (uint32_t)res;
	assert_true(drain_push(&d, &g, "m"));
	drain_run(&d, UINT64_MAX);
	assert_int_equal(d.mark_keep_ns, k0); /* read 1.1 us after its start */
	assert_int_equal(d.cp[0].floor_ns, T0 + 1100);
	assert_int_equal(d.cp[0].nev, 3);
	assert_int_equal(d.cp[0].ev[1].kind, JS_EV_IPI_SEND);
	assert_int_equal(d.cp[0].ev[2].start_ns, T0 + k0);
	/* an event older than the floor is not kept */
	drain_event(&d, &old);
	assert_int_equal(d.cp[0].nev, 3);
	/* past the send's keep too: both go, the recent IRQ stays */
	d.now = T0 + k0 + DRAIN_IPI_KEEP_NS + 2000;
	drain_run(&d, T0 + k0 + 3000);
	assert_int_equal(d.cp[0].nev, 1);
	assert_int_equal(d.cp[0].ev[0].start_ns, T0 + k0);
	/* a mark read 1 s after its start, its events still there: the window grows to 2 s */
	d.now = T0 + 3 * S;
	g = gap(JS_SRC_MARK, 2, 2, T0 + 2 * S, 1000);
	g.res = (uint32_t)res;
	assert_true(drain_push(&d, &g, "m"));
	assert_int_equal(d.mark_keep_ns, 2 * S);
	drain_run(&d, T0 + 3 * S);
	assert_int_equal(d.mark_floor_ns, T0 + 1 * S);
	assert_int_equal(run.marks.late, 0);
	/* one read 2.5 s after its start, which the window let go: late; 2 s stays the most */
	d.now = T0 + 5 * S;
	drain_run(&d, T0 + 5 * S);
	g = gap(JS_SRC_MARK, 2, 3, T0 + 2500 * MS_NS, 1000);
	g.res = (uint32_t)res;
	assert_true(drain_push(&d, &g, "m"));
	assert_int_equal(run.marks.late, 1);
	assert_int_equal(d.mark_keep_ns, DRAIN_KEEP_NS);
	/* the run's and the results' done time follow a finite cutoff */
	drain_run(&d, T0 + 6 * S);
	assert_int_equal(run.done_ns, T0 + 6 * S);
	teardown_drain();
}

/* rec_at - result res's worst-list entry of the gap that starts at start (NULL: none) */
static const struct js_gap_rec *rec_at(int res, uint64_t start)
{
	const struct js_topn *t = &run.cpus[res].top;

	for (size_t i = 0; i < t->n; i++) {
		const struct js_gap_rec *r = (const struct js_gap_rec *)t->v + i;

		if (r->gap.start_ns == start)
			return r;
	}
	return NULL;
}

/**
 * A source's window holds seconds of events: a batch reads it from the first event whose
 * end, or an earlier one's, reaches the batch's floor (the drain's running maximum), and
 * is attributed as from all of it. Over 1.5 s, 1500 short IRQs on CPU 2, an IRQ that ends
 * only at 1.2 s arrived among the first (its end is not where it lies), and last an
 * interval still open from 1.45 s (the probes' detach): a mark 1.5 s late names its own
 * IRQ, a mark at 1.1 s the long IRQ (it began long before the batch's floor), and a mark
 * after both the open interval.
 */
static void test_window_from(void **state)
{
	const int cpus[] = { 2 };
	struct js_event longirq = irq(2, T0 + 2 * MS_NS, 1200 * MS_NS - 2 * MS_NS);
	struct js_event open = irq(2, T0 + 1450 * MS_NS, 0);
	uint64_t marks[3] = { T0 + 10 * MS_NS + 100000, T0 + 1100 * MS_NS + 500000,
			      T0 + 1499 * MS_NS + 500000 };
	const struct js_gap_rec *r;
	int res;

	(void)state;
	setup_drain(cpus, 1, JS_SRC_MARK);
	longirq.id = 77;
	memcpy(longirq.name, "longdev", 8);
	open.id = 88;
	open.end_ns = open.start_ns - 1; /* open: no end yet */
	open.flags = JS_F_OPEN;
	memcpy(open.name, "opendev", 8);
	for (uint64_t k = 0; k < 1500; k++) {
		struct js_event e = irq(2, T0 + k * MS_NS, 20000);

		assert_int_equal(drain_event(&d, &e), 0);
		if (k == 4)
			assert_int_equal(drain_event(&d, &longirq), 0);
	}
	assert_int_equal(drain_event(&d, &open), 0);
	assert_int_equal(d.cp[0].nev, 1502);
	res = drain_result(&d, JS_SRC_MARK, 2);
	assert_true(res >= 0);
	d.now = T0 + 1500 * MS_NS;
	for (size_t i = 0; i < 3; i++) { /* a batch each: each its own floor */
		struct js_gap g = gap(JS_SRC_MARK, 2, (uint32_t)i, marks[i] - 100000, 200000);

		g.res = (uint32_t)res;
		assert_true(drain_push(&d, &g, "m"));
		drain_run(&d, marks[i] + 200000);
		assert_int_equal(run.cpus[res].gap_count, i + 1);
	}
	/* 1.5 s late, in the first 10 ms: its IRQ (and the long one) */
	r = rec_at(res, marks[0] - 100000);
	assert_non_null(r);
	assert_int_equal(r->attr.primary, JS_CAUSE_IRQ);
	assert_true(r->attr.nevents >= 2);
	/* at 1.1 s: past the short IRQs, inside the long one (begun 1.1 s before) */
	r = rec_at(res, marks[1] - 100000);
	assert_non_null(r);
	assert_int_equal(r->attr.primary, JS_CAUSE_IRQ);
	assert_non_null(strstr(r->attr.detail, "longdev"));
	/* at 1.5 s: after the long IRQ's end, inside the interval still open */
	r = rec_at(res, marks[2] - 100000);
	assert_non_null(r);
	assert_non_null(strstr(r->attr.detail, "opendev"));
	teardown_drain();
}

/**
 * A source's window is a ring: over 12 s of an IRQ a millisecond (a mark 1.1 s late at 1.5 s
 * makes it keep 2 s of them) it moves on without growing past what 2 s need, and a mark that spans the ring's end (its first event the
 * ring's last slot, its second the first) names both.
 */
static void test_window_ring(void **state)
{
	const int cpus[] = { 2 };
	struct cpu_pipe *c;
	const struct js_gap_rec *r;
	struct js_gap g;
	uint64_t t = 0, a;
	size_t cap = 0, i;
	int res;

	(void)state;
	setup_drain(cpus, 1, JS_SRC_MARK);
	c = &d.cp[0];
	res = drain_result(&d, JS_SRC_MARK, 2);
	for (uint64_t k = 0; k < 12000; k++) {
		struct js_event e = irq(2, T0 + k * MS_NS, 20000);

		assert_int_equal(drain_event(&d, &e), 0);
		if (k % 100 == 99) {
			d.now = T0 + (k + 1) * MS_NS;
			drain_run(&d, d.now);
		}
		if (k == 1500) { /* a mark 1.1 s late: the window grows to 2 s of IRQs */
			g = gap(JS_SRC_MARK, 2, 9, T0 + 400 * MS_NS + 10000, 5000);
			g.res = (uint32_t)res;
			assert_true(drain_push(&d, &g, "m"));
		}
		if (k == 6000)
			cap = c->evcap;
	}
	assert_int_equal(d.mark_keep_ns, 2 * S);
	/* the second half's 6 s went round the same rings */
	assert_int_equal(c->evcap, cap);
	assert_true(c->evcap < 12000);
	assert_true(c->nev >= 2000 && c->nev < c->evcap);
	/* the window's last event in the ring's last slot and the next in its first: wait
	 * for the head to stand where the window straddles the end */
	for (;;) {
		struct js_event e;

		i = c->evcap - c->head - 1;
		if (c->head && i + 1 < c->nev)
			break;
		t = c->ev[c->nev - 1].start_ns + MS_NS;
		e = irq(2, t, 20000);
		drain_event(&d, &e);
		d.now = t;
		drain_run(&d, t);
	}
	assert_ptr_equal(&c->ev[i], c->ev_ring + c->evcap - 1);
	a = c->ev[i].start_ns;
	assert_int_equal(c->ev[i + 1].start_ns, a + MS_NS); /* the mirror: the ring's slot 0 */
	g = gap(JS_SRC_MARK, 2, 1, a + 10000, MS_NS);
	g.res = (uint32_t)res;
	assert_true(drain_push(&d, &g, "m"));
	drain_run(&d, UINT64_MAX);
	r = rec_at(res, a + 10000);
	assert_non_null(r);
	assert_int_equal(r->attr.primary, JS_CAUSE_IRQ);
	assert_int_equal(r->attr.nevents, 2);
	teardown_drain();
}

static struct js_event send_to(uint32_t cpu, uint64_t at, uint32_t pid, const char *comm)
{
	struct js_event e = {
		.start_ns = at, .end_ns = at, .kind = JS_EV_IPI_SEND, .cpu = cpu, .id = pid
	};

	e.callback = 0xf00; /* a call-function IPI */
	memcpy(e.name, comm, strlen(comm) + 1);
	return e;
}

static struct js_event vector(uint32_t cpu, uint64_t start, uint64_t end)
{
	return (struct js_event){ .start_ns = start,
				  .end_ns = end,
				  .kind = JS_EV_VECTOR,
				  .cpu = cpu,
				  .id = JS_VEC_CALL_FUNCTION_SINGLE };
}

/* worst_detail - the detail of result res's worst gap */
static const char *worst_detail(int res)
{
	const struct js_topn *t = &run.cpus[res].top;

	assert_int_equal(t->n, 1);
	return ((const struct js_gap_rec *)t->v)->attr.detail;
}

/* setup_shards - a spinner's drain of cpus[n], split among nsh threads (scale_split) and
 * the threads started; each CPU's gap ring empty */
static void setup_shards(const int *cpus, size_t n, size_t nsh)
{
	size_t count[SCALE_SHARDS_MAX];

	fit.ns_per_cycle = 1.0;
	memset(&run, 0, sizeof(run));
	memset(&d, 0, sizeof(d));
	run.cfg.duration_ns = S;
	run.cfg.threshold_ns = 1000;
	run.cfg.top = 8;
	probes = (struct js_probes *)&fit;
	d.run = &run;
	d.probes = &probes;
	d.fit = &fit;
	d.top = 8;
	d.spinner = true;
	assert_int_equal(drain_setup(&d, cpus, n, 64), 0);
	for (size_t i = 0; i < n; i++) {
		struct cpu_pipe *c = &d.cp[i];

		c->res = run_add_result(&run, JS_SRC_SAMPLER, c->cpu, d.top);
		assert_true(c->res >= 0);
		c->lane[JS_SRC_SAMPLER].on = true;
		c->s.ring.mask = 1023;
		c->s.ring.slots = calloc(1024, sizeof(struct gap_raw));
		assert_non_null(c->s.ring.slots);
		c->s.start_tsc = T0;
	}
	assert_int_equal(drain_setup_buffers(&d), 0);
	assert_int_equal(scale_split(n, 0, 1, nsh, count), nsh);
	assert_int_equal(drain_shard(&d, count, nsh), 0);
	assert_int_equal(drain_threads_start(&d), 0);
	d.window_start = d.now = T0;
}

static void teardown_shards(void)
{
	drain_threads_stop(&d);
	for (size_t i = 0; i < d.n; i++)
		free(d.cp[i].s.ring.slots);
	teardown_drain();
}

/*
 * Two drain threads (scale_split's: CPU 2 to thread 1, CPU 3 to the main thread's shard):
 * the IPIs' sends, read from another CPU's ring before the threads run, are filed in their
 * target's window and name the sender of the gap each thread attributes.
 */
static void test_shards_cross_cpu(void **state)
{
	const int cpus[] = { 2, 3 };
	struct js_event ev[] = {
		send_to(2, T0 + 5000, 77, "jsinject"), /* written on CPU 3 */
		send_to(3, T0 + 7000, 88, "perf"),     /* written on CPU 2 */
		vector(2, T0 + 5200, T0 + 5300),
		vector(3, T0 + 7200, T0 + 7300),
	};

	(void)state;
	setup_shards(cpus, 2, 2);
	assert_ptr_equal(d.cp[0].sh, &d.sh[1]);
	assert_ptr_equal(d.cp[1].sh, &d.sh[0]);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		assert_int_equal(drain_event(&d, &ev[i]), 0);
	assert_true(ring_push(&d.cp[0].s.ring, T0 + 5100, T0 + 5700));
	assert_true(ring_push(&d.cp[1].s.ring, T0 + 7100, T0 + 7700));
	drain_run(&d, T0 + 10000);
	assert_int_equal(d.sh[1].gaps, 1);
	assert_int_equal(d.sh[0].gaps, 1);
	assert_string_equal(worst_detail(d.cp[0].res), "call_function_single from jsinject:77");
	assert_string_equal(worst_detail(d.cp[1].res), "call_function_single from perf:88");
	teardown_shards();
}

/*
 * A storm of another task's page faults in one long gap fills the spinner's window (64 events
 * here): the faults go, not the task's run before them, and the gap is that task's, all of
 * it; the faults dropped are counted evicted, as other tasks' faults. A window full of
 * timed events still drops its oldest quarter.
 */
static void test_window_sheds_faults(void **state)
{
	const int cpus[] = { 2 };
	struct js_event run77 = {
		.start_ns = T0 + 800, .end_ns = T0 + 900200, .kind = JS_EV_TASK, .cpu = 2, .id = 77
	};
	const struct js_gap_rec *w;

	(void)state;
	memcpy(run77.name, "jsinject", 9);
	setup_shards(cpus, 1, 1);
	assert_int_equal(drain_event(&d, &run77), 0);
	for (int i = 0; i < 200; i++) {
		struct js_event f = {
			.start_ns = T0 + 2000 + i * 4000ull, .kind = JS_EV_FAULT, .cpu = 2, .id = 77
		};

		f.end_ns = f.start_ns;
		assert_int_equal(drain_event(&d, &f), 0);
	}
	assert_true(ring_push(&d.cp[0].s.ring, T0 + 900, T0 + 900100));
	drain_run(&d, T0 + S / 100);
	assert_int_equal(run.cpus[d.cp[0].res].top.n, 1);
	w = (const struct js_gap_rec *)run.cpus[d.cp[0].res].top.v;
	assert_int_equal(w->attr.primary, JS_CAUSE_TASK);
	assert_non_null(strstr(w->attr.detail, "jsinject"));
	assert_int_equal(w->attr.unexplained_ns, 0);
	assert_true(d.cp[0].ev_shed > 0);
	assert_int_equal(d.cp[0].ev_evicted, d.cp[0].ev_shed);
	/* timed events only: nothing to shed, the oldest quarter goes */
	d.cp[0].ev_evicted = d.cp[0].ev_shed = 0;
	for (int i = 0; i < 65; i++) {
		struct js_event e = irq(2, T0 + S / 50 + i * 10000ull, 1000);

		assert_int_equal(drain_event(&d, &e), 0);
	}
	assert_int_equal(d.cp[0].ev_shed, 0);
	assert_int_equal(d.cp[0].ev_evicted, 16);
	teardown_shards();
}

/*
 * What a gap's unexplained time is when its events may be gone: a gap over the events a full
 * window evicted, and one in a stretch where the probes lost events in the kernel
 * (drain_lost), have it not known (attr.evidence_lost, under "events lost or evicted"); a
 * gap after both, with no event either, is still "no guest event".
 */
static void test_window_loss_flags_gaps(void **state)
{
	const int cpus[] = { 2 };
	const uint64_t b = T0 + S / 50;
	const struct {
		uint64_t start, dur;
		uint32_t lost;
	} want[] = {
		{ b + 50000 - 200, 1400, 1 }, /* over evicted event 5 */
		{ b + 2000000, 1000, 0 },     /* after everything */
		{ b + 3050000, 1200, 1 },     /* where the kernel lost events */
	};
	const struct js_cpu_result *r;
	size_t found = 0;

	(void)state;
	setup_shards(cpus, 1, 1);
	for (int i = 0; i < 65; i++) {
		struct js_event e = irq(2, b + i * 10000ull, 1000);

		assert_int_equal(drain_event(&d, &e), 0);
	}
	assert_int_equal(d.cp[0].ev_evicted, 16);
	drain_lost(&d, 0, 3, b + 3000000, b + 3100000);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_true(ring_push(&d.cp[0].s.ring, want[i].start, want[i].start + want[i].dur));
	drain_run(&d, T0 + S / 10);
	r = &run.cpus[d.cp[0].res];
	for (size_t k = 0; k < r->top.n; k++) {
		const struct js_gap_rec *g = (const struct js_gap_rec *)r->top.v + k;

		for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
			if (g->gap.start_ns != want[i].start)
				continue;
			found++;
			assert_int_equal(g->attr.primary, JS_CAUSE_UNEXPLAINED);
			assert_int_equal(g->attr.evidence_lost, want[i].lost);
			assert_string_equal(causes_unexplained_detail(&g->attr),
					    want[i].lost ? CAUSES_UNKNOWN_DETAIL :
							   CAUSES_NOEVENT_DETAIL);
		}
	}
	assert_int_equal(found, ARRAY_SIZE(want));
	teardown_shards();
}

/*
 * The kernel's losses are counted by the CPU the events were about: only that CPU's gaps over
 * the stretch are not known; a count that did not grow since the last drain marks nothing.
 */
static void test_kernel_loss_marks_its_cpu(void **state)
{
	const int cpus[] = { 2, 3 };
	const uint64_t b = T0 + S / 50;
	const struct {
		size_t cp;
		uint64_t start;
		uint32_t lost;
	} want[] = {
		{ 0, b + 1050000, 0 }, /* CPU 2 lost nothing */
		{ 1, b + 1050000, 1 }, /* CPU 3's events from the drain before were lost */
		{ 1, b + 2050000, 0 }, /* the count did not grow: nothing lost then */
	};
	size_t found = 0;

	(void)state;
	setup_shards(cpus, 2, 1);
	drain_lost(&d, 0, 0, b + 1000000, b + 1100000);
	drain_lost(&d, 1, 4, b + 1000000, b + 1100000);
	drain_lost(&d, 1, 4, b + 2000000, b + 2100000);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_true(
			ring_push(&d.cp[want[i].cp].s.ring, want[i].start, want[i].start + 1000));
	drain_run(&d, T0 + S / 10);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct js_cpu_result *r = &run.cpus[d.cp[want[i].cp].res];

		for (size_t k = 0; k < r->top.n; k++) {
			const struct js_gap_rec *g = (const struct js_gap_rec *)r->top.v + k;

			if (g->gap.start_ns != want[i].start)
				continue;
			found++;
			assert_int_equal(g->attr.evidence_lost, want[i].lost);
		}
	}
	assert_int_equal(found, ARRAY_SIZE(want));
	teardown_shards();
}

/*
 * Four threads on one CPU (their affinity when started) take turns: one shard at a time,
 * every shard drained at every drain; on more CPUs, no more at once than those.
 */
static void test_shards_take_turns(void **state)
{
	const int cpus[] = { 4, 5, 6, 7, 8, 9, 10, 11 };
	cpu_set_t all, one;
	int first = 0;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	while (!CPU_ISSET(first, &all))
		first++;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	for (int pass = 0; pass < 2; pass++) {
		cpu_set_t *on = pass ? &all : &one;

		assert_int_equal(sched_setaffinity(0, sizeof(*on), on), 0);
		setup_shards(cpus, 8, 4);
		for (uint64_t k = 0; k < 5; k++) {
			for (size_t i = 0; i < 8; i++)
				assert_true(ring_push(&d.cp[i].s.ring, T0 + k * MS_NS + 100 * i,
						      T0 + k * MS_NS + 100 * i + 50));
			drain_run(&d, T0 + (k + 1) * MS_NS);
			for (size_t s = 0; s < 4; s++)
				assert_int_equal(d.sh[s].gaps, 2 * (k + 1));
		}
		if (pass)
			assert_in_range(drain_threads_most(&d), 1, (size_t)CPU_COUNT(&all));
		else
			assert_int_equal(drain_threads_most(&d), 1);
		teardown_shards();
	}
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lane_merges),
		cmocka_unit_test(test_marks_filed),
		cmocka_unit_test(test_prune_floor),
		cmocka_unit_test(test_shards_cross_cpu),
		cmocka_unit_test(test_shards_take_turns),
		cmocka_unit_test(test_window_from),
		cmocka_unit_test(test_window_ring),
		cmocka_unit_test(test_window_sheds_faults),
		cmocka_unit_test(test_window_loss_flags_gaps),
		cmocka_unit_test(test_kernel_loss_marks_its_cpu),
	};

	return cmocka_run_group_tests_name("drain", tests, NULL, NULL);
}
