// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_correlate.c - gap attribution, steal and SMI allocation on synthetic timelines. */
#include <linux/types.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_budget.h"
#include "js_correlate.h"
#include "js_diff.h"
#include "js_entry.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_out_gaps.h"
#include "js_prom.h"
#include "js_util.h"

#define CPU 1

/* ev_mk - an event on CPU; an IPI send is a call-function one */
static struct js_event ev_mk(uint32_t kind, uint64_t s, uint64_t e, uint32_t id, const char *name)
{
	struct js_event ev = fx_event(kind, s, e, CPU, id, name);

	if (kind == JS_EV_IPI_SEND)
		ev.callback = 0xf00; /* a call-function IPI (no symbol); reschedules: 0 */
	return ev;
}

static struct js_gap gap_mk(uint64_t s, uint64_t dur)
{
	struct js_gap g = { .start_ns = s, .dur_ns = dur, .cpu = CPU };

	return g;
}

static uint64_t parts_sum(const struct js_attr *a)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < a->nparts; i++)
		s += a->parts[i].net_ns;
	return s;
}

static const char *sym(void *ctx, uint64_t addr)
{
	(void)ctx;
	switch (addr) {
	case 0xa1:
		return "vmstat_update";
	case 0xa2:
		return "tick_nohz_handler";
	case 0xa3:
		return "lru_add_drain_per_cpu";
	case 0xa4:
		return "remote_function";
	case 0xa5:
		return "a_callback_function_with_a_very_long_name_indeed";
	case 0xa6:
		return "bpf_map_free_deferred";
	default:
		return NULL;
	}
}

static const struct corr_opts opts = { .sym = sym };

/* jitterscope's main thread keeps the process's name (pidof): a gap it caused names it as
 * the drain it is; another process named jitterscope, or another thread, keeps its name */
static void test_self_drain_named(void **state)
{
	struct js_event ev[] = { ev_mk(JS_EV_TASK, 100, 900, 4242, "jitterscope") };
	struct js_gap g = gap_mk(0, 1000);
	struct corr_opts o = { .self_pid = 4242 };
	struct js_attr a;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 1, &o, &a), 0);
	assert_string_equal(a.detail, "js-drain:4242");
	o.self_pid = 4243; /* another jitterscope's main thread */
	assert_int_equal(corr_attribute(&g, ev, 1, &o, &a), 0);
	assert_string_equal(a.detail, "jitterscope:4242");
	o.self_pid = 4242; /* our pid, but renamed (not the drain's name) */
	memcpy(ev[0].name, "js-http\0", 8);
	assert_int_equal(corr_attribute(&g, ev, 1, &o, &a), 0);
	assert_string_equal(a.detail, "js-http:4242");
}

/* net durations: an IRQ inside a softirq inside a preemption, osnoise style */
static void test_nesting(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 100, 200, 321, "ksoftirqd/1"),
		ev_mk(JS_EV_SOFTIRQ, 120, 170, 3, NULL),
		ev_mk(JS_EV_IRQ, 130, 140, 36, "virtio1-req.0"),
	};
	struct js_gap g = gap_mk(90, 120);
	struct js_attr a;
	const struct js_part *p;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 3, &opts, &a), 0);
	assert_int_equal(a.nparts, 3);
	p = fx_find_part(&a, JS_CAUSE_TASK, "ksoftirqd/1:321");
	assert_non_null(p);
	assert_int_equal(p->net_ns, 50);
	p = fx_find_part(&a, JS_CAUSE_SOFTIRQ, "NET_RX");
	assert_non_null(p);
	assert_int_equal(p->net_ns, 40);
	p = fx_find_part(&a, JS_CAUSE_IRQ, "virtio1-req.0:36");
	assert_non_null(p);
	assert_int_equal(p->net_ns, 10);
	assert_int_equal(a.covered_ns, 100);
	assert_int_equal(a.unexplained_ns, 20);
	assert_int_equal(a.nevents, 3);
	/* a preempting task outranks what ran inside it */
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "ksoftirqd/1:321");
	/* sorted by net desc */
	assert_int_equal(a.parts[0].cause, JS_CAUSE_TASK);
	assert_int_equal(a.parts[1].cause, JS_CAUSE_SOFTIRQ);
	assert_int_equal(a.parts[2].cause, JS_CAUSE_IRQ);
}

/*
 * a run outranks a source whose items it partly holds: the NET_RX it ran (40 of its 50)
 * merged with a NET_RX after it (20) is one part of 60, larger than the run, but only 20 of
 * it is outside the run (attrib_ksoftirqd.sh's flood saw ksoftirqd's gaps named NET_RX so)
 */
static void test_run_holds_merged_part(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 100, 150, 77, "worker"),
		ev_mk(JS_EV_SOFTIRQ, 105, 145, 3, NULL),
		ev_mk(JS_EV_SOFTIRQ, 160, 180, 3, NULL),
	};
	struct js_gap g = gap_mk(95, 125);
	struct js_attr a;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 3, &opts, &a), 0);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_SOFTIRQ, "NET_RX")->net_ns, 60);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "worker:77")->net_ns, 10);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "worker:77");
	/* outside the run, the NET_RX after it outweighs it: that is the primary */
	ev[2].end_ns = 215;
	assert_int_equal(corr_attribute(&g, ev, 3, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_SOFTIRQ);
	assert_string_equal(a.detail, "NET_RX");
}

/* the local timer vector's net time excludes the hrtimer callbacks inside it */
static void test_timer_hrtimer(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, 1000, 1030, JS_VEC_LOCAL_TIMER, NULL),
		ev_mk(JS_EV_HRTIMER, 1005, 1012, 0, NULL),
		ev_mk(JS_EV_HRTIMER, 1015, 1020, 0, NULL),
		ev_mk(JS_EV_SOFTIRQ, 1032, 1040, 1, NULL), /* after the vector, in irq_exit */
	};
	struct js_gap g = gap_mk(990, 60);
	struct js_attr a;

	(void)state;
	ev[1].addr = 0xa2;
	ev[2].addr = 0xa2;
	assert_int_equal(corr_attribute(&g, ev, 4, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TIMER);
	assert_string_equal(a.detail, "local_timer");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 18);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler")->net_ns,
			 12);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler")->count, 2);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_SOFTIRQ, "TIMER")->net_ns, 8);
	assert_int_equal(a.covered_ns, 38);
	assert_int_equal(a.unexplained_ns, 22);
}

/* --event: a point is counted in its gap with no time, under class "event" with the detail
 * the user wrote; a pair is timed and, innermost, takes its time from what it runs in (an
 * hrtimer callback here); without the names (opts) it is named by its slot */
static void test_user_events(void **state)
{
	struct js_user_event ue[2] = { { "timer:hrtimer_start", "" },
				       { "timer:hrtimer_expire_entry",
					 "timer:hrtimer_expire_exit" } };
	struct corr_opts o = { .sym = sym, .events = ue, .nevents = 2 };
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, 1000, 1030, JS_VEC_LOCAL_TIMER, NULL),
		ev_mk(JS_EV_HRTIMER, 1005, 1015, 0, NULL),
		ev_mk(JS_EV_USER, 1006, 1014, 1, NULL), /* the pair, inside the callback */
		ev_mk(JS_EV_USER, 1010, 1010, 0, NULL), /* re-armed, inside the pair */
	};
	struct js_gap g = gap_mk(990, 60);
	const struct js_part *pt;
	struct js_attr a;

	(void)state;
	ev[1].addr = 0xa2;
	assert_string_equal(js_cause_name(JS_CAUSE_EVENT), "event");
	assert_int_equal(js_cause_from_name("event"), JS_CAUSE_EVENT);
	assert_int_equal(corr_event_cause(&ev[3]), JS_CAUSE_EVENT);
	assert_int_equal(corr_attribute(&g, ev, 4, &o, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TIMER);
	/* (count, net ns) of each: the point, then the pair */
	for (int i = 0; i < 2; i++) {
		pt = fx_find_part(&a, JS_CAUSE_EVENT, ue[i].open);
		assert_non_null(pt);
		assert_int_equal(pt->count, 1);
		assert_int_equal(pt->net_ns, i ? 8 : 0);
	}
	assert_int_equal(fx_find_part(&a, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler")->net_ns,
			 2);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 20);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	assert_int_equal(corr_attribute(&g, ev, 4, &opts, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_EVENT, "event:0"));
}

/* --event's parts survive folding: a gap of more sources than JS_PARTS_MAX keeps a point of
 * no time beside a pair of the same class */
static void test_user_event_kept(void **state)
{
	struct js_user_event ue[2] = { { "timer:hrtimer_start", "" },
				       { "timer:hrtimer_expire_entry",
					 "timer:hrtimer_expire_exit" } };
	struct corr_opts o = { .events = ue, .nevents = 2 };
	struct js_event ev[JS_PARTS_MAX + 4];
	size_t n = 0;
	char comm[16];
	struct js_gap g = gap_mk(0, 10000);
	struct js_attr a;

	(void)state;
	for (; n < JS_PARTS_MAX + 2; n++) {
		snprintf(comm, sizeof(comm), "t%zu", n);
		ev[n] = ev_mk(JS_EV_TASK, 100 * n, 100 * n + 90, 100 + (uint32_t)n, comm);
	}
	ev[n++] = ev_mk(JS_EV_USER, 50, 60, 1, NULL);
	ev[n++] = ev_mk(JS_EV_USER, 55, 55, 0, NULL);
	assert_int_equal(corr_attribute(&g, ev, n, &o, &a), 0);
	assert_int_equal(a.nparts, JS_PARTS_MAX);
	assert_non_null(fx_find_part(&a, JS_CAUSE_EVENT, "timer:hrtimer_expire_entry"));
	assert_non_null(fx_find_part(&a, JS_CAUSE_EVENT, "timer:hrtimer_start"));
}

/* without a symbol the hrtimer function prints as an address */
static void test_no_symbol(void **state)
{
	struct js_event ev = ev_mk(JS_EV_HRTIMER, 10, 20, 0, NULL);
	struct js_gap g = gap_mk(0, 30);
	struct js_attr a;

	(void)state;
	ev.addr = 0xffffffff81234560ull;
	assert_int_equal(corr_attribute(&g, &ev, 1, NULL, &a), 0);
	assert_string_equal(a.detail, "hrtimer 0xffffffff81234560");
}

/* one interval across two back-to-back gaps is split between them */
static void test_back_to_back(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 50, 200, 9, "migration/1"),
		ev_mk(JS_EV_VECTOR, 160, 170, JS_VEC_LOCAL_TIMER, NULL),
	};
	struct js_gap g1 = gap_mk(0, 100), g2 = gap_mk(150, 100);
	struct js_attr a1, a2;

	(void)state;
	assert_int_equal(corr_attribute(&g1, ev, 2, &opts, &a1), 0);
	assert_int_equal(corr_attribute(&g2, ev, 2, &opts, &a2), 0);
	assert_int_equal(a1.nparts, 1);
	assert_int_equal(a1.covered_ns, 50);
	assert_int_equal(a1.unexplained_ns, 50);
	assert_int_equal(a2.nparts, 2);
	assert_int_equal(fx_find_part(&a2, JS_CAUSE_TASK, "migration/1:9")->net_ns, 40);
	assert_int_equal(fx_find_part(&a2, JS_CAUSE_TIMER, "local_timer")->net_ns, 10);
	assert_int_equal(a2.covered_ns, 50);
	assert_int_equal(a2.primary, JS_CAUSE_TASK);
	assert_int_equal(a1.covered_ns + a2.covered_ns, 100);
}

/* events straddling the edges are clipped; slack matches near misses with no time */
static void test_edges(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_IRQ, 90, 120, 42, "virtio0-output.0"),  /* straddles the start */
		ev_mk(JS_EV_SOFTIRQ, 180, 260, 2, NULL),	    /* straddles the end */
		ev_mk(JS_EV_VECTOR, 80, 95, JS_VEC_IRQ_WORK, NULL), /* ends 5 before */
		ev_mk(JS_EV_TLB, 205, 205, 1, NULL),		    /* point 5 after */
		ev_mk(JS_EV_IRQ, 0, 100, 1, "touching"),	    /* ends at the start */
	};
	struct js_gap g = gap_mk(100, 100);
	struct corr_opts o = { .edge_slack_ns = 10 };
	struct js_attr a;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 5, NULL, &a), 0);
	assert_int_equal(a.nparts, 2);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IRQ, "virtio0-output.0:42")->net_ns, 20);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_SOFTIRQ, "NET_TX")->net_ns, 20);
	assert_int_equal(a.covered_ns, 40);
	assert_int_equal(a.unexplained_ns, 60);

	assert_int_equal(corr_attribute(&g, ev, 5, &o, &a), 0);
	assert_int_equal(a.nparts, 5);
	assert_int_equal(a.nevents, 5);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IPI, "irq_work")->net_ns, 0);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TLB, "remote_shootdown")->count, 1);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IRQ, "touching:1")->net_ns, 0);
	assert_int_equal(a.covered_ns, 40);
	assert_int_equal(parts_sum(&a), 40);
}

/* point events count with no time; one fault keeps its address */
static void test_point_events(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 10, 90, 77, "jsinject"),
		ev_mk(JS_EV_FAULT, 20, 20, 77, "jsinject"),
		ev_mk(JS_EV_FAULT, 30, 30, 77, "jsinject"),
		ev_mk(JS_EV_FAULT, 40, 45, 77, "jsinject"),	 /* bounded */
		ev_mk(JS_EV_FAULT, 95, 95, 4242, "jitterscope"), /* the sampler's own */
		ev_mk(JS_EV_FAULT, 96, 96, 5, "kthread"),
	};
	struct js_gap g = gap_mk(0, 100);
	struct js_attr a;
	const struct js_part *p;

	(void)state;
	ev[4].flags = JS_F_SAMPLER;
	ev[4].addr = 0x7f0000001000ull;
	ev[5].flags = JS_F_KERNEL;
	ev[5].addr = 0xffff888000000000ull;
	assert_int_equal(corr_attribute(&g, ev, 6, &opts, &a), 0);
	assert_int_equal(a.nevents, 6);
	p = fx_find_part(&a, JS_CAUSE_FAULT, "fault user jsinject:77");
	assert_non_null(p);
	assert_int_equal(p->count, 3);
	assert_int_equal(p->net_ns, 5);
	p = fx_find_part(&a, JS_CAUSE_FAULT,
			 "fault user jitterscope:4242 @0x7f0000001000 (sampler)");
	assert_non_null(p);
	assert_int_equal(p->count, 1);
	assert_int_equal(p->net_ns, 0);
	assert_non_null(
		fx_find_part(&a, JS_CAUSE_FAULT, "fault kernel kthread:5 @0xffff888000000000"));
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "jsinject:77")->net_ns, 75);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_int_equal(a.covered_ns, 80);
}

/* a kworker's detail names its work function; the work's time is its own part */
static void test_kworker_work(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 0, 100, 123, "kworker/1:2"),
		ev_mk(JS_EV_WORK, 10, 30, 123, NULL),
		ev_mk(JS_EV_WORK, 40, 90, 123, NULL),
		ev_mk(JS_EV_VECTOR, 50, 55, JS_VEC_LOCAL_TIMER, NULL),
		ev_mk(JS_EV_TASK, 100, 150, 124, "kworker/1:0"),
		ev_mk(JS_EV_WORK, 110, 120, 124, "fallback_name"),
	};
	struct js_gap g = gap_mk(0, 160);
	struct js_attr a;

	(void)state;
	ev[1].addr = 0xa3;
	ev[2].addr = 0xa1;
	ev[5].addr = 0xdead;
	assert_int_equal(corr_attribute(&g, ev, 6, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "kworker/1:2:123 vmstat_update");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update")->net_ns,
			 30);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_WORK, "vmstat_update")->net_ns, 45);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_WORK, "lru_add_drain_per_cpu")->net_ns, 20);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 5);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "kworker/1:0:124 fallback_name")->net_ns,
			 40);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_WORK, "fallback_name")->net_ns, 10);
	assert_int_equal(a.covered_ns, 150);
}

/*
 * a work item begun on CPU 1 by an unbound kworker that moved and ended it elsewhere left its
 * slot; the worker's next end on CPU 1 emitted an interval from that old start (27 ms). In a
 * gap where the worker did not run (only a softirq and the sampler's own time), it was the
 * primary cause: a work item counts only where its worker ran (its TASK interval)
 */
static void test_work_off_cpu(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_WORK, 1000000, 28000000, 77, NULL),
		ev_mk(JS_EV_SOFTIRQ, 20005000, 20011980, JS_SOFTIRQ_NET_RX, NULL),
		ev_mk(JS_EV_TASK, 27990000, 28000000, 77, "kworker/u4:1"),
	};
	struct js_gap g = gap_mk(20000000, 22844), g2 = gap_mk(27980000, 30000);
	struct js_attr a;

	(void)state;
	ev[0].addr = 0xa6;
	assert_int_equal(corr_attribute(&g, ev, 3, &opts, &a), 0);
	assert_null(fx_find_part(&a, JS_CAUSE_WORK, "bpf_map_free_deferred"));
	assert_int_equal(a.primary, JS_CAUSE_SOFTIRQ);
	assert_string_equal(a.detail, "NET_RX");
	assert_int_equal(a.covered_ns, 6980);
	assert_int_equal(a.nevents, 1);
	/* where the worker did run, the item is named inside it, clipped to its run */
	assert_int_equal(corr_attribute(&g2, ev, 3, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "kworker/u4:1:77 bpf_map_free_deferred");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_WORK, "bpf_map_free_deferred")->net_ns, 10000);
	assert_int_equal(a.covered_ns, 10000);
	/* another worker's run does not hold it */
	ev[2].id = 78;
	assert_int_equal(corr_attribute(&g2, ev, 3, &opts, &a), 0);
	assert_null(fx_find_part(&a, JS_CAUSE_WORK, "bpf_map_free_deferred"));
	assert_string_equal(a.detail, "kworker/u4:1:78");
}

static const char *cgname(void *ctx, uint64_t id)
{
	(void)ctx;
	switch (id) {
	case 1:
		return "/";
	case 7:
		return "jsinject-test.scope";
	case 8:
		return "docker:3f2a1b4c5d6e";
	case 9:
		return "nginx.service";
	case 10:
		return "pod:8c3f9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b";
	default:
		return NULL;
	}
}

/* every task named carries its cgroup: a task's own, an IPI sender's, a fault's task's (the
 * sampler's is ours); the root and an unknown id show nothing; the part keeps the id */
static void test_cgroup_names(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 0, 500, 4242, "jsinject"),
		ev_mk(JS_EV_FAULT, 100, 100, 4242, "jsinject"),
		ev_mk(JS_EV_IPI_SEND, 550, 550, 88, "perf"),
		ev_mk(JS_EV_VECTOR, 600, 620, JS_VEC_CALL_FUNCTION_SINGLE, NULL),
		ev_mk(JS_EV_TASK, 620, 700, 77, "kworker/1:2"),
		ev_mk(JS_EV_FAULT, 710, 710, 3000, "jitterscope"),
		ev_mk(JS_EV_TASK, 720, 800, 55, "nginx"),
		ev_mk(JS_EV_FAULT, 750, 750, 55, "nginx"),
	};
	struct js_gap g = gap_mk(0, 1000);
	struct corr_opts o = { .cgname = cgname, .self_cgroup = 8 };
	const struct js_part *p;
	struct js_attr a;

	(void)state;
	ev[0].addr = 7;
	ev[2].cgroup = 9;
	ev[4].addr = 1;
	ev[5].flags = JS_F_SAMPLER;
	ev[6].addr = 12345; /* not known to the table */
	assert_int_equal(corr_attribute(&g, ev, 8, &o, &a), 0);
	assert_string_equal(a.detail, "jsinject:4242 [jsinject-test.scope]");
	p = fx_find_part(&a, JS_CAUSE_TASK, "jsinject:4242 [jsinject-test.scope]");
	assert_non_null(p);
	assert_int_equal(p->cgroup, 7);
	p = fx_find_part(&a, JS_CAUSE_FAULT, "fault user jsinject:4242 [jsinject-test.scope] @0x0");
	assert_non_null(p);
	assert_int_equal(p->cgroup, 7);
	p = fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from perf:88 [nginx.service]");
	assert_non_null(p);
	assert_int_equal(p->cgroup, 9);
	p = fx_find_part(&a, JS_CAUSE_TASK, "kworker/1:2:77");
	assert_non_null(p);
	assert_int_equal(p->cgroup, 1);
	/* the address only where it fits whole: the cgroup goes first */
	p = fx_find_part(&a, JS_CAUSE_FAULT,
			 "fault user jitterscope:3000 [docker:3f2a1b4c5d6e] (sampler)");
	assert_non_null(p);
	p = fx_find_part(&a, JS_CAUSE_TASK, "nginx:55");
	assert_non_null(p);
	assert_int_equal(p->cgroup, 12345);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_FAULT, "fault user nginx:55 @0x0")->cgroup,
			 12345);
	/* without the table: the ids, no names */
	assert_int_equal(corr_attribute(&g, ev, 8, NULL, &a), 0);
	assert_string_equal(a.detail, "jsinject:4242");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "jsinject:4242")->cgroup, 7);
	/* a long name is shortened to fit, its bracket kept; the sender always whole */
	ev[0].addr = 10;
	memcpy(ev[0].name, "a_fifteen_chars", 15);
	ev[0].id = 4194304;
	ev[2].cgroup = 10;
	assert_int_equal(corr_attribute(&g, ev, 8, &o, &a), 0);
	assert_int_equal(strlen(a.detail), JS_DETAIL_LEN - 1);
	assert_non_null(strstr(a.detail, "a_fifteen_chars:4194304 [pod:8c3f9a1e-2b4d"));
	assert_int_equal(a.detail[JS_DETAIL_LEN - 2], ']');
	for (uint32_t i = 0; i < a.nparts; i++) {
		if (a.parts[i].cause != JS_CAUSE_IPI)
			continue;
		assert_non_null(strstr(a.parts[i].detail,
				       "call_function_single from perf:88 [pod:8c3f9a1e"));
		assert_int_equal(strlen(a.parts[i].detail), JS_DETAIL_LEN - 1);
		assert_int_equal(a.parts[i].detail[JS_DETAIL_LEN - 2], ']');
	}
}

/* an IPI vector names its sender: the latest send just before the vector entry */
static void test_ipi_sender(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_IPI_SEND, 1000, 1000, 77, "jsinject"), /* stale, taken by nobody */
		ev_mk(JS_EV_IPI_SEND, 5000, 5000, 88, "perf"),
		ev_mk(JS_EV_VECTOR, 5200, 5300, JS_VEC_CALL_FUNCTION_SINGLE, NULL),
		ev_mk(JS_EV_VECTOR, 5400, 5450, JS_VEC_RESCHEDULE, NULL),
		ev_mk(JS_EV_IPI_SEND, 5350, 5350, 99, "other"),
		ev_mk(JS_EV_IPI_SEND, 5380, 5380, 55, "cpu0"),
		ev_mk(JS_EV_VECTOR, 5600, 5620, JS_VEC_IRQ_WORK, NULL),
	};
	struct js_gap g = gap_mk(5100, 600);
	struct corr_opts o = { .ipi_window_ns = 3000 };
	struct js_attr a;

	(void)state;
	ev[5].cpu = 0;	    /* aimed at CPU 0: not ours */
	ev[4].callback = 0; /* a reschedule */
	assert_int_equal(corr_attribute(&g, ev, 7, &o, &a), 0);
	assert_int_equal(a.nparts, 3);
	assert_int_equal(a.nevents, 3);
	assert_int_equal(a.primary, JS_CAUSE_IPI);
	assert_string_equal(a.detail, "call_function_single from perf:88");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IPI, "reschedule from other:99")->net_ns, 50);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "irq_work"));
	/* with the default window the second vector takes the later send anyway */
	assert_int_equal(corr_attribute(&g, ev, 7, NULL, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "reschedule from other:99"));
	/* the function the sender queued is named when it has a symbol */
	ev[1].callback = 0xa4;
	o.sym = sym;
	assert_int_equal(corr_attribute(&g, ev, 7, &o, &a), 0);
	assert_string_equal(a.detail, "call_function_single remote_function from perf:88");
	/* ... shortened to fit, the sender kept whole */
	ev[1].callback = 0xa5;
	assert_int_equal(corr_attribute(&g, ev, 7, &o, &a), 0);
	assert_int_equal(strlen(a.detail), JS_DETAIL_LEN - 1);
	assert_non_null(strstr(a.detail, "call_function_single a_callback_function"));
	assert_non_null(strstr(a.detail, " from perf:88"));
	/* a window too short for any send */
	o.ipi_window_ns = 10;
	assert_int_equal(corr_attribute(&g, ev, 7, &o, &a), 0);
	assert_string_equal(a.detail, "call_function_single");
}

/* --probes lean: an interruption seen at its exit (JS_F_LEAN) counts only in the gap that
 * holds its exit, from that gap's start (or the previous exit in it); its sender is the send
 * before the gap; one that interrupted another task is a point, the task keeping its time */
static void test_lean_exits(void **state)
{
	struct js_event ev[] = {
		/* begun at the CPU's previous exit (100), long before the gap */
		ev_mk(JS_EV_VECTOR, 100, 5300, JS_VEC_CALL_FUNCTION_SINGLE, NULL),
		ev_mk(JS_EV_SOFTIRQ, 5300, 5340, 1, NULL), /* after it, in irq_exit */
		ev_mk(JS_EV_IPI_SEND, 5000, 5000, 88, "perf"),
		ev_mk(JS_EV_TASK, 9000, 9800, 321, "other"),
		ev_mk(JS_EV_VECTOR, 9400, 9400, JS_VEC_LOCAL_TIMER, NULL), /* inside the task */
	};
	struct js_gap early = gap_mk(1000, 200), g = gap_mk(5200, 200), late = gap_mk(8900, 1000);
	struct js_attr a;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
		if (ev[i].kind != JS_EV_IPI_SEND && ev[i].kind != JS_EV_TASK)
			ev[i].flags |= JS_F_LEAN;
	/* a gap inside [start, exit) that does not hold the exit: not its */
	assert_int_equal(corr_attribute(&early, ev, ARRAY_SIZE(ev), &opts, &a), 0);
	assert_int_equal(a.nparts, 0);
	assert_int_equal(a.unexplained_ns, 200);
	/* the gap holding the exit: from the gap's start, the sender matched */
	assert_int_equal(corr_attribute(&g, ev, ARRAY_SIZE(ev), &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_IPI);
	assert_string_equal(a.detail, "call_function_single from perf:88");
	assert_int_equal(
		fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from perf:88")->net_ns, 100);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_SOFTIRQ, "TIMER")->net_ns, 40);
	assert_int_equal(a.covered_ns, 140);
	assert_int_equal(a.unexplained_ns, 60);
	/* sent after the CPU's previous exit (a tick's, in the same gap), before this one's:
	 * still its sender */
	ev[2].start_ns = ev[2].end_ns = 5320;
	ev[1].kind = JS_EV_VECTOR;
	ev[1].id = JS_VEC_LOCAL_TIMER;
	ev[0].start_ns = 5300;
	ev[0].end_ns = 5340;
	ev[1].start_ns = 100;
	ev[1].end_ns = 5300;
	assert_int_equal(corr_attribute(&g, ev, ARRAY_SIZE(ev), &opts, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from perf:88"));
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 100);
	/* the tick inside another task: counted, the task's time left whole */
	assert_int_equal(corr_attribute(&late, ev, ARRAY_SIZE(ev), &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "other:321")->net_ns, 800);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->count, 1);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 0);
}

/* a task with its waker (JS_F_WAKE) that runs a little past the gap's end (a followed
 * thread's gap ends at the switch's first clock read, the task's record at a later one) is
 * the gap's cause, not a lean exit outside it: the two flags once shared a bit, and such a
 * task vanished from the gap (app_waker.sh named the reader in 1 of 405 gaps) */
static void test_woken_task_past_end(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, 1000, 1600, JS_VEC_RESCHEDULE, NULL),
		ev_mk(JS_EV_TASK, 1700, 401000, 321, "reader"),
	};
	struct js_gap g = gap_mk(1000, 399400); /* ends 1600 ns before the task's record */
	struct js_attr a;

	(void)state;
	ev[1].flags |= JS_F_WAKE;
	assert_int_equal(corr_attribute(&g, ev, ARRAY_SIZE(ev), &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "reader:321")->net_ns, 398700);
}

/* a vCPU away for 5 ms (steal): the IPI sent meanwhile is handled 4.9 ms after its send,
 * past the window, and is still its sender's; one sent before the gap and the window is not */
static void test_ipi_sender_long_gap(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_IPI_SEND, 1000100, 1000100, 88, "jsinject"),
		ev_mk(JS_EV_VECTOR, 5990000, 5992000, JS_VEC_CALL_FUNCTION_SINGLE, NULL),
	};
	struct js_gap g = gap_mk(1000000, 5000000);
	struct js_attr a;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from jsinject:88"));
	ev[0].start_ns = ev[0].end_ns = 1000000 - CORR_IPI_WINDOW_NS - 1;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "call_function_single"));
}

/* a "911 us local timer" with 900 us of steal inside is an 11 us tick: the host took the
 * rest, and the task that ran after it is the gap's primary */
static void test_steal_inside_event(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, 0, 911000, JS_VEC_LOCAL_TIMER, NULL),
		ev_mk(JS_EV_TASK, 911000, 1750000, 42, "jsinject"),
	};
	struct js_gap g = gap_mk(0, 2000000);
	struct js_attr a;

	(void)state;
	ev[0].flags = JS_F_STEAL;
	ev[0].steal_start = 5000;
	ev[0].steal_end = 905000;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "jsinject:42");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 11000);
	assert_int_equal(a.covered_ns, 11000 + 839000);
	a.steal_ns = 900000; /* what steal_allocate gives the gap from the readings */
	corr_finish(&a, g.dur_ns);
	assert_int_equal(a.unexplained_ns, 2000000 - 850000 - 900000);
	/* without the steal clock the interval keeps its time */
	ev[0].flags = 0;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TIMER);
}

/* a task whose switch out was not traced (JS_F_NOEND: PID 1's threads here) spans the whole
 * stretch up to the next traced switch; it must not outrank the task that surely ran */
static void test_untraced_switch_primary(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 1000, 5001000, 1234, "tokio-rt-worker"),
		ev_mk(JS_EV_TASK, 1000, 5001000, 77, "kdamond.0"),
	};
	struct js_gap g = gap_mk(1000, 5000000);
	struct js_attr a;

	(void)state;
	ev[0].flags = JS_F_NOEND;
	ev[1].start_ns = 800000; /* traced from its switch in */
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	/* tokio: net 0.8 ms (before kdamond), inclusive 5 ms but unsure; kdamond 4.2 ms sure */
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "kdamond.0:77");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "tokio-rt-worker:1234")->net_ns, 799000);
	/* without the flag the longer interval is the primary, as before */
	ev[0].flags = 0;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_string_equal(a.detail, "tokio-rt-worker:1234");
}

/* the sampler's own fault is a point; it lasts until the sampler is back in its loop (the
 * gap's end): what no event covers after it is its handling, given once steal is known */
static void test_sampler_fault_tail(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, 100, 300, JS_VEC_CALL_FUNCTION_SINGLE, NULL),
		ev_mk(JS_EV_FAULT, 400, 400, 42, "jitterscope"),
		ev_mk(JS_EV_SOFTIRQ, 600, 700, 3, NULL),
		ev_mk(JS_EV_TASK, 500, 900, 77, "kworker/1:1"),
	};
	struct js_gap g = gap_mk(0, 1000);
	const struct js_part *p;
	struct js_attr a;

	(void)state;
	ev[1].flags = JS_F_SAMPLER;
	ev[1].addr = 0x7f0000000000;
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	/* before corr_finish: the fault is a point, the IPI the largest */
	assert_int_equal(a.primary, JS_CAUSE_IPI);
	assert_int_equal(a.tail_ns, 500); /* 400..1000 minus the softirq */
	corr_finish(&a, g.dur_ns);
	assert_int_equal(a.primary, JS_CAUSE_FAULT);
	assert_string_equal(a.detail, "fault user jitterscope:42 @0x7f0000000000 (sampler)");
	assert_int_equal(a.parts[0].net_ns, 500);
	assert_int_equal(a.parts[1].net_ns, 200);
	assert_int_equal(a.covered_ns, 800);
	assert_int_equal(a.unexplained_ns, 200); /* 0..100 and 300..400: before it */
	corr_finish(&a, g.dur_ns);		 /* once only */
	assert_int_equal(a.parts[0].net_ns, 500);
	/* steal allocated to the gap comes first: the fault takes what is left */
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	a.steal_ns = 350;
	corr_finish(&a, g.dur_ns);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_FAULT, a.detail)->net_ns, 350);
	assert_int_equal(a.unexplained_ns, 0);
	/* a task that ran meanwhile keeps the primary; the fault keeps the rest (400..500 and
	 * 900..1000) */
	assert_int_equal(corr_attribute(&g, ev, 4, NULL, &a), 0);
	corr_finish(&a, g.dur_ns);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	p = fx_find_part(&a, JS_CAUSE_FAULT, "fault user jitterscope:42 @0x7f0000000000 (sampler)");
	assert_int_equal(p->net_ns, 200);
	/* another task's fault is a point, as before */
	ev[1].flags = 0;
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	assert_int_equal(a.tail_ns, 0);
	corr_finish(&a, g.dur_ns);
	assert_int_equal(a.primary, JS_CAUSE_IPI);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_FAULT,
				      "fault user jitterscope:42 @0x7f0000000000")
				 ->net_ns,
			 0);
}

/* an application's marked interval: a task or idle interval across its start or end is the
 * application's own (or another CPU's), one inside it a cause; its own fault gets no tail
 * (the rest of the mark may be its own work); "(app)" names what hit the followed threads */
static void test_marked(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 50, 200, 42, "engine"),    /* the application until 200 */
		ev_mk(JS_EV_TASK, 200, 700, 77, "jsinject"), /* preempted it */
		ev_mk(JS_EV_TASK, 700, 2000, 42, "engine"),  /* back at 700, past the end */
		ev_mk(JS_EV_FAULT, 800, 800, 42, "engine"),
		ev_mk(JS_EV_IDLE, 900, 950, 0, NULL), /* it slept inside the mark */
	};
	struct corr_opts o = { .marked = true, .app = true };
	struct js_gap g = gap_mk(100, 900);
	struct js_attr a;

	(void)state;
	ev[3].flags = JS_F_SAMPLER;
	assert_int_equal(corr_attribute(&g, ev, ARRAY_SIZE(ev), &o, &a), 0);
	corr_finish(&a, g.dur_ns);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "jsinject:77");
	assert_null(fx_find_part(&a, JS_CAUSE_TASK, "engine:42"));
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "jsinject:77")->net_ns, 500);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IDLE, "idle")->net_ns, 50);
	assert_int_equal(
		fx_find_part(&a, JS_CAUSE_FAULT, "fault user engine:42 @0x0 (app)")->net_ns, 0);
	assert_int_equal(a.tail_ns, 0);
	assert_int_equal(a.unexplained_ns, 350); /* 100..200, 700..900, 950..1000 */
	/* a CPU that idled across the whole mark was not the application's */
	ev[0] = ev_mk(JS_EV_IDLE, 0, 5000, 0, NULL);
	assert_int_equal(corr_attribute(&g, ev, 1, &o, &a), 0);
	assert_int_equal(a.nparts, 0);
	assert_int_equal(a.covered_ns, 0);
	/* a sampler's gap keeps every interval */
	o.marked = false;
	assert_int_equal(corr_attribute(&g, ev, 1, &o, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_IDLE);
}

/* the fault that gets the tail is the sampler's (its flag), not a part whose detail reads
 * "(sampler)": a task may be named so; and it is found after a folded part moved it down */
static void test_sampler_fault_tail_part(void **state)
{
	struct js_event ev[JS_PARTS_MAX + 4];
	struct js_gap g = gap_mk(0, 1000000);
	const struct js_part *p;
	struct js_attr a;
	size_t n = 0;

	(void)state;
	ev[n] = ev_mk(JS_EV_FAULT, 100, 100, 7, "(sampler)"); /* another task's fault */
	ev[n++].addr = 0x1000;
	ev[n] = ev_mk(JS_EV_FAULT, 500000, 500000, 42, "jitterscope");
	ev[n].flags = JS_F_SAMPLER;
	ev[n++].addr = 0x2000;
	/* enough small IRQ sources before the fault for a fold with a net (it goes above the
	 * zero-net fault parts) */
	for (uint32_t i = 0; i < JS_PARTS_MAX + 1; i++, n++)
		ev[n] = ev_mk(JS_EV_IRQ, 1000 + i * 1000, 1100 + i * 1000 + i, 40 + i, "dev");
	assert_int_equal(corr_attribute(&g, ev, n, NULL, &a), 0);
	assert_int_equal(a.nparts, JS_PARTS_MAX);
	assert_int_equal(a.tail_ns, 500000); /* 500000 .. 1000000, nothing after the fault */
	corr_finish(&a, g.dur_ns);
	p = fx_find_part(&a, JS_CAUSE_FAULT, "fault user jitterscope:42 @0x2000 (sampler)");
	assert_non_null(p);
	assert_int_equal(p->net_ns, 500000);
	assert_int_equal(a.primary, JS_CAUSE_FAULT);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	/* without the fold both faults are parts: the task named "(sampler)" gets nothing */
	assert_int_equal(corr_attribute(&g, ev, 3, NULL, &a), 0);
	corr_finish(&a, g.dur_ns);
	p = fx_find_part(&a, JS_CAUSE_FAULT, "fault user (sampler):7 @0x1000");
	assert_non_null(p);
	assert_int_equal(p->net_ns, 0);
	p = fx_find_part(&a, JS_CAUSE_FAULT, "fault user jitterscope:42 @0x2000 (sampler)");
	assert_int_equal(p->net_ns, 500000);
}

/* two senders: a reschedule sent by someone else between a call-function IPI's send and its
 * entry is not that IPI's sender (it was credited to the latest send before) */
static void test_ipi_sender_types(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_IPI_SEND, 5000, 5000, 88, "jsinject"),
		ev_mk(JS_EV_IPI_SEND, 5150, 5150, 99, "kworker/0:1"),
		ev_mk(JS_EV_VECTOR, 5200, 5300, JS_VEC_CALL_FUNCTION_SINGLE, NULL),
		ev_mk(JS_EV_VECTOR, 5400, 5420, JS_VEC_RESCHEDULE, NULL),
	};
	struct js_gap g = gap_mk(5100, 600);
	struct js_attr a;

	(void)state;
	ev[1].callback = 0;
	assert_int_equal(corr_attribute(&g, ev, 4, NULL, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from jsinject:88"));
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "reschedule from kworker/0:1:99"));
	/* no reschedule was sent: the call-function send is not taken for it */
	ev[1].callback = 0xf00;
	ev[1].start_ns = ev[1].end_ns = 100; /* out of the window, too */
	assert_int_equal(corr_attribute(&g, ev, 4, NULL, &a), 0);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from jsinject:88"));
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "reschedule"));
}

/* primary: a task only outranks what ran inside it; idle is its own class */
static void test_primary_rules(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_SOFTIRQ, 0, 500, 3, NULL),
		ev_mk(JS_EV_TASK, 600, 610, 50, "reader"),
	};
	struct js_event ev2[] = {
		ev_mk(JS_EV_IDLE, 0, 14000, 0, NULL),
		ev_mk(JS_EV_VECTOR, 13000, 13040, JS_VEC_LOCAL_TIMER, NULL),
		ev_mk(JS_EV_TASK, 14000, 14010, 3, "kworker/1:1"),
	};
	struct js_event ev3[] = {
		ev_mk(JS_EV_TASK, 0, 100, 60, "bash"),
		ev_mk(JS_EV_SOFTIRQ, 10, 90, 3, NULL),
	};
	struct js_gap g = gap_mk(0, 700), g2 = gap_mk(0, 14020), g3 = gap_mk(0, 100);
	struct js_attr a;

	(void)state;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_SOFTIRQ);
	assert_string_equal(a.detail, "NET_RX");
	assert_int_equal(corr_attribute(&g2, ev2, 3, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_IDLE);
	assert_string_equal(a.detail, "idle");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IDLE, "idle")->net_ns, 13960);
	/* the task outranks the larger softirq that ran inside it */
	assert_int_equal(corr_attribute(&g3, ev3, 2, NULL, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "bash:60");
	assert_int_equal(a.parts[0].cause, JS_CAUSE_SOFTIRQ);
}

/* other CPUs' events and non-overlapping events are ignored; no event is unexplained */
static void test_filter_and_empty(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_IRQ, 10, 20, 36, "virtio1-req.0"),
		ev_mk(JS_EV_IRQ, 200, 220, 36, "virtio1-req.0"),
	};
	struct js_gap g = gap_mk(0, 100);
	struct js_attr a;

	(void)state;
	ev[0].cpu = 0;
	assert_int_equal(corr_attribute(&g, ev, 2, NULL, &a), 0);
	assert_int_equal(a.nparts, 0);
	assert_int_equal(a.nevents, 0);
	assert_int_equal(a.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(a.unexplained_ns, 100);
	assert_int_equal(corr_attribute(&g, NULL, 0, NULL, &a), 0);
	assert_int_equal(a.unexplained_ns, 100);
	assert_int_equal(corr_attribute(NULL, ev, 2, NULL, &a), -EINVAL);
	assert_int_equal(corr_attribute(&g, NULL, 2, NULL, &a), -EINVAL);
}

/* the part whose detail contains sub (first in order), or NULL */
static const struct js_part *part_with(const struct js_attr *a, uint32_t cause, const char *sub)
{
	for (uint32_t i = 0; i < a->nparts; i++)
		if (a->parts[i].cause == cause && strstr(a->parts[i].detail, sub))
			return &a->parts[i];
	return NULL;
}

/* the folded part: at most one, and its detail says how many sources it holds */
static const struct js_part *folded_part(const struct js_attr *a, unsigned *nsrc)
{
	const struct js_part *f = NULL;

	for (uint32_t i = 0; i < a->nparts; i++) {
		if (!js_detail_folded(a->parts[i].detail))
			continue;
		assert_null(f);
		f = &a->parts[i];
		assert_int_equal(sscanf(f->detail, "(other: %u sources)", nsrc), 1);
	}
	return f;
}

/* invariants of every attribution: at most JS_PARTS_MAX parts, sorted by net, adding up */
static void parts_check(const struct js_attr *a)
{
	assert_true(a->nparts <= JS_PARTS_MAX);
	for (uint32_t i = 1; i < a->nparts; i++)
		assert_true(a->parts[i - 1].net_ns >= a->parts[i].net_ns);
	assert_int_equal(parts_sum(a), a->covered_ns);
}

/* more sources than JS_PARTS_MAX: the smallest are folded, counted and summed; totals kept */
static void test_parts_overflow(void **state)
{
	enum { NIRQ = JS_PARTS_MAX + 3 };
	struct js_event ev[NIRQ + 1];
	struct js_gap g = gap_mk(0, 100000);
	const struct js_part *f;
	uint64_t folded_ns = 0;
	struct js_attr a;
	unsigned nsrc = 0;
	char name[32];

	(void)state;
	/*
	 * irq i runs (i + 1) * 10 ns; the task holds the last (largest) irq and has only
	 * 10 ns net of its own: it comes last in net order but is primary (inclusive).
	 */
	for (int i = 0; i < NIRQ; i++) {
		snprintf(name, sizeof(name), "dev%d", i);
		ev[i] = ev_mk(JS_EV_IRQ, 1000 * i + 100, 1000 * i + 110 + 10 * i, 100 + i, name);
	}
	ev[NIRQ] = ev_mk(JS_EV_TASK, ev[NIRQ - 1].start_ns - 5, ev[NIRQ - 1].end_ns + 5, 7,
			 "rcu_preempt");
	assert_int_equal(corr_attribute(&g, ev, NIRQ + 1, NULL, &a), 0);
	parts_check(&a);
	assert_int_equal(a.nparts, JS_PARTS_MAX);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "rcu_preempt:7")->net_ns, 10);
	assert_int_equal(a.covered_ns, 10 * NIRQ * (NIRQ + 1) / 2 + 10);
	/* kept: the task and the JS_PARTS_MAX - 2 largest IRQs; folded: the 5 smallest */
	f = folded_part(&a, &nsrc);
	assert_non_null(f);
	assert_int_equal(nsrc, NIRQ + 1 - (JS_PARTS_MAX - 1));
	assert_int_equal(f->cause, JS_CAUSE_IRQ);
	assert_int_equal(f->count, nsrc);
	for (unsigned i = 0; i < nsrc; i++)
		folded_ns += 10 * (i + 1);
	assert_int_equal(f->net_ns, folded_ns);
	for (int i = 0; i < NIRQ; i++) {
		snprintf(name, sizeof(name), "dev%d:%d", i, 100 + i);
		if ((unsigned)i < nsrc)
			assert_null(fx_find_part(&a, JS_CAUSE_IRQ, name));
		else
			assert_non_null(fx_find_part(&a, JS_CAUSE_IRQ, name));
	}
	assert_int_equal(a.parts[0].net_ns, 10 * NIRQ);
	/* the folded part sits by its net, after the kept parts of at least its net */
	assert_true(f > a.parts && f < a.parts + a.nparts - 1);
	assert_true(f[-1].net_ns >= f->net_ns && f[1].net_ns < f->net_ns);
	assert_int_equal(a.parts[a.nparts - 1].cause, JS_CAUSE_TASK);
}

/* exactly JS_PARTS_MAX sources: nothing is folded */
static void test_parts_at_cap(void **state)
{
	struct js_event ev[JS_PARTS_MAX];
	struct js_gap g = gap_mk(0, 100000);
	struct js_attr a;
	unsigned nsrc;
	char name[32];

	(void)state;
	for (int i = 0; i < JS_PARTS_MAX; i++) {
		snprintf(name, sizeof(name), "dev%d", i);
		ev[i] = ev_mk(JS_EV_IRQ, 1000 * i, 1000 * i + 10 + i, 100 + i, name);
	}
	assert_int_equal(corr_attribute(&g, ev, JS_PARTS_MAX, NULL, &a), 0);
	parts_check(&a);
	assert_int_equal(a.nparts, JS_PARTS_MAX);
	assert_null(folded_part(&a, &nsrc));
}

/*
 * A long gap (the sampler preempted) with far more sources than the cap, like a blocked
 * sampler sees: many tasks, IRQs and softirqs with time, and zero-time points (faults of
 * other tasks, TLB flushes). The sampler's own fault, the THP collapse and the NMI stay
 * named; TLB flushes and class repeats are folded first; the fold is counted and summed.
 */
static void test_fold_keeps_evidence(void **state)
{
	enum { NTASK = 10, NIRQ = 8, NPF = 6, NTLB = 5, NEV = 1 + NTASK + NIRQ + NPF + NTLB + 4 };
	static const char *const tlb_first = "task_switch";
	struct js_event ev[NEV];
	struct js_gap g = gap_mk(0, 10000000);
	uint64_t named_ns = 0, named_count = 0;
	const struct js_part *f, *p;
	struct js_attr a;
	unsigned nsrc = 0;
	char name[32];
	size_t n = 0;

	(void)state;
	/* a head task preempts the sampler for 9 ms; others run in its place in turn */
	ev[n++] = ev_mk(JS_EV_TASK, 0, 9000000, 500, "head");
	for (int i = 0; i < NTASK; i++) {
		snprintf(name, sizeof(name), "bash%d", i);
		ev[n++] = ev_mk(JS_EV_TASK, 100000 * (i + 1), 100000 * (i + 1) + 20000 + 1000 * i,
				600 + i, name);
	}
	for (int i = 0; i < NIRQ; i++) {
		snprintf(name, sizeof(name), "virtio%d", i);
		ev[n++] = ev_mk(JS_EV_IRQ, 2000000 + 10000 * i, 2000000 + 10000 * i + 500 + i,
				30 + i, name);
	}
	for (int i = 0; i < NPF; i++) { /* other tasks' faults: points */
		ev[n] = ev_mk(JS_EV_FAULT, 3000000 + 1000 * i, 3000000 + 1000 * i, 700 + i, "bash");
		ev[n++].addr = 0x1000 * (i + 1);
	}
	for (int i = 0; i < NTLB; i++) /* reasons 0..4: five TLB sources */
		ev[n++] = ev_mk(JS_EV_TLB, 4000000 + 100 * i, 4000000 + 100 * i, i, NULL);
	/* the evidence: the sampler's own fault (a point), a THP collapse, an NMI */
	ev[n] = ev_mk(JS_EV_FAULT, 5000000, 5000000, 42, "jitterscope");
	ev[n].flags = JS_F_SAMPLER;
	ev[n++].addr = 0x7f0000001000;
	ev[n++] = ev_mk(JS_EV_THP, 6000000, 6000000, 0, "khugepaged");
	ev[n++] = ev_mk(JS_EV_NMI, 7000000, 7000100, 0, NULL);
	ev[n++] = ev_mk(JS_EV_SOFTIRQ, 8000000, 8000050, 9, NULL); /* RCU: a class of one */
	assert_int_equal(n, NEV);
	assert_true(NEV > JS_PARTS_MAX + 8);

	assert_int_equal(corr_attribute(&g, ev, NEV, NULL, &a), 0);
	parts_check(&a);
	assert_int_equal(a.nparts, JS_PARTS_MAX);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "head:500");
	/* never folded: the primary, the sampler fault (with its address), THP, NMI */
	assert_non_null(fx_find_part(&a, JS_CAUSE_TASK, "head:500"));
	p = part_with(&a, JS_CAUSE_FAULT, "(sampler)");
	assert_non_null(p);
	assert_string_equal(p->detail, "fault user jitterscope:42 @0x7f0000001000 (sampler)");
	assert_non_null(part_with(&a, JS_CAUSE_THP, "THP collapse"));
	assert_non_null(fx_find_part(&a, JS_CAUSE_NMI, "nmi"));
	/* the largest source of every class is named, even a tiny softirq */
	assert_non_null(fx_find_part(&a, JS_CAUSE_SOFTIRQ, "RCU"));
	assert_non_null(fx_find_part(&a, JS_CAUSE_IRQ, "virtio7:37"));
	assert_null(fx_find_part(&a, JS_CAUSE_IRQ, "virtio6:36"));
	/* other tasks' faults repeat a class the sampler's fault names: folded (0 ns) */
	assert_null(part_with(&a, JS_CAUSE_FAULT, "bash"));
	/* TLB flushes go first: none is named, a class no other source needs */
	assert_null(fx_find_part(&a, JS_CAUSE_TLB, tlb_first));
	for (uint32_t i = 0; i < a.nparts; i++)
		if (a.parts[i].cause == JS_CAUSE_TLB)
			assert_true(js_detail_folded(a.parts[i].detail));
	/* class repeats by net: 9 of the 10 other tasks fit (15 = 1 + 3 + 2 + 9) */
	assert_non_null(fx_find_part(&a, JS_CAUSE_TASK, "bash1:601"));
	assert_null(fx_find_part(&a, JS_CAUSE_TASK, "bash0:600"));
	/* the fold: counted and summed, so named + folded = every event and all the time */
	f = folded_part(&a, &nsrc);
	assert_non_null(f);
	assert_int_equal(nsrc, NEV - (JS_PARTS_MAX - 1));
	for (uint32_t i = 0; i < a.nparts; i++) {
		if (&a.parts[i] == f)
			continue;
		named_ns += a.parts[i].net_ns;
		named_count += a.parts[i].count;
	}
	assert_int_equal(named_count + f->count, NEV);
	assert_int_equal(named_ns + f->net_ns, a.covered_ns);
	assert_int_equal(a.covered_ns, 9000000); /* everything ran inside head's 9 ms */
}

/* more evidence than room: the primary stays, evidence is kept largest first */
static void test_fold_evidence_overflow(void **state)
{
	enum { NNMI = JS_PARTS_MAX + 2 };
	struct js_event ev[NNMI + 1];
	struct js_gap g = gap_mk(0, 1000000);
	const struct js_part *f;
	struct js_attr a;
	unsigned nsrc = 0;
	char name[32];

	(void)state;
	ev[0] = ev_mk(JS_EV_TASK, 0, 900000, 9, "hog");
	for (int i = 0; i < NNMI; i++) {
		snprintf(name, sizeof(name), "nmi%d", i);
		ev[i + 1] = ev_mk(JS_EV_NMI, 1000 * (i + 1), 1000 * (i + 1) + 10 + i, 0, name);
	}
	assert_int_equal(corr_attribute(&g, ev, NNMI + 1, NULL, &a), 0);
	parts_check(&a);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_non_null(fx_find_part(&a, JS_CAUSE_TASK, "hog:9"));
	f = folded_part(&a, &nsrc);
	assert_non_null(f);
	assert_int_equal(nsrc, NNMI - (JS_PARTS_MAX - 2));
	assert_int_equal(f->cause, JS_CAUSE_NMI);
	assert_int_equal(f->count, nsrc);
	assert_int_equal(f->net_ns, 10 + 11 + 12 + 13); /* the smallest: nmi0 .. nmi3 */
	assert_null(fx_find_part(&a, JS_CAUSE_NMI, "nmi nmi0"));
	snprintf(name, sizeof(name), "nmi nmi%d", NNMI - 1);
	assert_non_null(fx_find_part(&a, JS_CAUSE_NMI, name));
}

/* same-start ties nest by level; open intervals run to the gap end; misaligned overlaps */
static void test_ties_open_misaligned(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_TASK, 0, 100, 123, "kworker/1:2"),
		ev_mk(JS_EV_WORK, 0, 100, 123, NULL), /* same start: inside the task */
		ev_mk(JS_EV_VECTOR, 40, 60, JS_VEC_LOCAL_TIMER, NULL),
		ev_mk(JS_EV_HRTIMER, 40, 50, 0, NULL), /* same start: inside the vector */
		ev_mk(JS_EV_NMI, 45, 47, 0, NULL),     /* inside the hrtimer */
	};
	struct js_event open[] = {
		ev_mk(JS_EV_IDLE, 50, 0, 0, NULL),  /* still open at the stop */
		ev_mk(JS_EV_IRQ, 90, 80, 7, "bad"), /* end < start, not open: a point */
	};
	struct js_event mis[] = {
		ev_mk(JS_EV_TASK, 0, 100, 5, "a"),
		ev_mk(JS_EV_IRQ, 90, 110, 36, "x"), /* outlives the task */
	};
	struct js_gap g = gap_mk(0, 200);
	struct js_attr a;

	(void)state;
	ev[1].addr = 0xa1;
	ev[3].addr = 0xa2;
	assert_int_equal(corr_attribute(&g, ev, 5, &opts, &a), 0);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_WORK, "vmstat_update")->net_ns, 80);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "kworker/1:2:123 vmstat_update")->net_ns,
			 0);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TIMER, "local_timer")->net_ns, 10);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler")->net_ns,
			 8);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_NMI, "nmi")->net_ns, 2);
	assert_int_equal(a.covered_ns, 100);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "kworker/1:2:123 vmstat_update");

	open[0].flags = JS_F_OPEN;
	assert_int_equal(corr_attribute(&g, open, 2, NULL, &a), 0);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IDLE, "idle")->net_ns, 150);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IRQ, "bad:7")->net_ns, 0);
	assert_int_equal(a.unexplained_ns, 50);
	open[0].flags = 0; /* not open: end < start is a point */
	assert_int_equal(corr_attribute(&g, open, 2, NULL, &a), 0);
	assert_int_equal(a.covered_ns, 0);
	assert_int_equal(a.nparts, 2);

	assert_int_equal(corr_attribute(&g, mis, 2, NULL, &a), 0);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "a:5")->net_ns, 90);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_IRQ, "x:36")->net_ns, 20);
	assert_int_equal(a.covered_ns, 110);
	assert_int_equal(a.unexplained_ns, 90);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(uint64_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state % n;
}

static void attr_equal(const struct js_attr *x, const struct js_attr *y)
{
	assert_int_equal(x->primary, y->primary);
	assert_string_equal(x->detail, y->detail);
	assert_int_equal(x->nparts, y->nparts);
	assert_int_equal(x->covered_ns, y->covered_ns);
	assert_int_equal(x->unexplained_ns, y->unexplained_ns);
	assert_int_equal(x->nevents, y->nevents);
	for (uint32_t i = 0; i < x->nparts; i++) {
		assert_int_equal(x->parts[i].cause, y->parts[i].cause);
		assert_int_equal(x->parts[i].count, y->parts[i].count);
		assert_int_equal(x->parts[i].net_ns, y->parts[i].net_ns);
		assert_string_equal(x->parts[i].detail, y->parts[i].detail);
	}
}

/* the batch path over one shuffled window equals corr_attribute per gap */
/* end_cmp - by end (open intervals last), then start: the order the probes write records */
static int end_cmp(const void *pa, const void *pb)
{
	const struct js_event *a = pa, *b = pb;
	uint64_t ea = a->end_ns ? a->end_ns : UINT64_MAX, eb = b->end_ns ? b->end_ns : UINT64_MAX;

	if (ea != eb)
		return ea < eb ? -1 : 1;
	return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

static void test_batch_equals_single(void **state)
{
	enum { NG = 300, NEV = 3000 };
	static struct js_event ev[NEV], by_end[NEV];
	static struct js_gap_rec recs[NG], again[NG];
	struct corr_opts o = { .sym = sym, .edge_slack_ns = 50, .ipi_window_ns = 20000 };
	struct js_attr single;
	struct corr_window *w;
	uint64_t t = 1000000;
	size_t n = 0, multi = 0, senders = 0, points = 0;

	(void)state;
	for (int i = 0; i < NG; i++) {
		memset(&recs[i], 0, sizeof(recs[i]));
		recs[i].gap = gap_mk(t, 1000 + rnd(100000));
		t += recs[i].gap.dur_ns + 100 + rnd(50000);
	}
	/* random events: intervals of every kind, points, sends, other CPUs, long ones */
	while (n < NEV) {
		static const uint32_t kinds[] = { JS_EV_IRQ,	 JS_EV_VECTOR,	 JS_EV_SOFTIRQ,
						  JS_EV_HRTIMER, JS_EV_NMI,	 JS_EV_FAULT,
						  JS_EV_TASK,	 JS_EV_IDLE,	 JS_EV_WORK,
						  JS_EV_THP,	 JS_EV_TLB,	 JS_EV_IPI_SEND,
						  JS_EV_MIGRATE, JS_EV_IPI_SEND, JS_EV_IPI_SEND,
						  JS_EV_VECTOR };
		uint32_t k = kinds[rnd(ARRAY_SIZE(kinds))];
		uint64_t s = 1000000 + rnd(t - 1000000), d = rnd(8) ? rnd(20000) : rnd(3000000);
		char name[16];

		if (k == JS_EV_TLB || k == JS_EV_IPI_SEND || (k == JS_EV_FAULT && rnd(2)))
			d = 0;
		snprintf(name, sizeof(name), "n%u", (unsigned)rnd(5));
		ev[n] = ev_mk(k, s, s + d, (uint32_t)rnd(JS_VEC_MAX), name);
		ev[n].addr = 0xa1 + rnd(3);
		ev[n].cpu = rnd(10) ? CPU : 0;
		if (k == JS_EV_IPI_SEND && rnd(2))
			ev[n].callback = 0; /* a reschedule */
		if (k == JS_EV_IDLE && !rnd(20)) {
			ev[n].flags = JS_F_OPEN;
			ev[n].end_ns = 0;
		}
		n++;
	}
	assert_int_equal(corr_attribute_recs(recs, NG, ev, NEV, &o), 0);
	/* the order the ring delivers (by end: nearly sorted by start) gives the same */
	memcpy(by_end, ev, sizeof(ev));
	qsort(by_end, NEV, sizeof(*by_end), end_cmp);
	memcpy(again, recs, sizeof(recs));
	assert_int_equal(corr_attribute_recs(again, NG, by_end, NEV, &o), 0);
	for (int i = 0; i < NG; i++) {
		attr_equal(&again[i].attr, &recs[i].attr);
		assert_int_equal(corr_attribute(&recs[i].gap, ev, NEV, &o, &single), 0);
		attr_equal(&recs[i].attr, &single);
		assert_true(single.covered_ns <= recs[i].gap.dur_ns);
		assert_int_equal(single.covered_ns + single.unexplained_ns, recs[i].gap.dur_ns);
		parts_check(&single);
		multi += single.nparts >= 3;
		for (uint32_t k = 0; k < single.nparts; k++) {
			senders += strstr(single.parts[k].detail, " from ") != NULL;
			points += single.parts[k].net_ns == 0;
		}
	}
	/* the timeline did exercise nesting, senders and points */
	assert_true(multi > NG / 4);
	assert_true(senders > 5);
	assert_true(points > 5);
	/* one window, attributed a few gaps at a time (the pipeline's chunks), gives the same */
	memcpy(again, recs, sizeof(recs));
	w = corr_window_new(by_end, NEV, again[0].gap.start_ns,
			    again[NG - 1].gap.start_ns + again[NG - 1].gap.dur_ns, &o);
	for (int i = 0; i < NG; i += 7)
		assert_int_equal(corr_window_attribute(w, again + i, NG - i < 7 ? NG - i : 7), 0);
	corr_window_free(w);
	for (int i = 0; i < NG; i++)
		attr_equal(&again[i].attr, &recs[i].attr);
	/* gaps out of start order (the slice's searches resume only forward) give the same */
	memcpy(again, recs, sizeof(recs));
	for (int i = NG - 1; i > 0; i--) {
		struct js_gap_rec x = again[i];
		int j = (int)rnd((uint64_t)i + 1);

		again[i] = again[j];
		again[j] = x;
	}
	assert_int_equal(corr_attribute_recs(again, NG, by_end, NEV, &o), 0);
	for (int i = 0; i < NG; i++) {
		assert_int_equal(corr_attribute(&again[i].gap, ev, NEV, &o, &single), 0);
		attr_equal(&again[i].attr, &single);
	}
	assert_int_equal(corr_attribute_recs(recs, 0, NULL, 0, NULL), 0);
	assert_int_equal(corr_attribute_recs(recs, NG, NULL, 5, NULL), -EINVAL);
}

/* unexplained is dur - covered - steal and never negative; a gap the host took most of is
 * the host's */
static void test_finish(void **state)
{
	struct js_attr a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.covered_ns = 60;
	a.steal_ns = 70;
	corr_finish(&a, 100);
	assert_int_equal(a.unexplained_ns, 0);
	assert_int_equal(a.primary, JS_CAUSE_STEAL);
	a.steal_ns = 10;
	corr_finish(&a, 100);
	assert_int_equal(a.unexplained_ns, 30);
	assert_int_equal(a.primary, JS_CAUSE_UNEXPLAINED);
	assert_string_equal(a.detail, "");
	a.smi = 1;
	corr_finish(&a, 100);
	assert_int_equal(a.primary, JS_CAUSE_SMI);
	/* an event primary stays while the host took less than half of the gap */
	a.nparts = 1;
	a.parts[0].cause = JS_CAUSE_IRQ;
	a.parts[0].net_ns = 60;
	js_scpy(a.parts[0].detail, JS_DETAIL_LEN, "virtio0");
	a.primary = JS_CAUSE_IRQ;
	js_scpy(a.detail, JS_DETAIL_LEN, "virtio0");
	a.steal_ns = 49;
	corr_finish(&a, 100);
	assert_int_equal(a.primary, JS_CAUSE_IRQ);
	assert_string_equal(a.detail, "virtio0");
	/* half of it or more: the host's (the gap's SMI is not its cause: an event was seen),
	 * and the event stays among the parts */
	a.covered_ns = 11;
	a.parts[0].net_ns = 11;
	a.steal_ns = 50;
	corr_finish(&a, 100);
	assert_int_equal(a.primary, JS_CAUSE_STEAL);
	assert_string_equal(a.detail, "steal");
	assert_int_equal(a.unexplained_ns, 39);
	assert_int_equal(a.nparts, 1);
	assert_int_equal(a.parts[0].cause, JS_CAUSE_IRQ);
	a.steal_ns = 90;
	corr_finish(&a, 100);
	assert_int_equal(a.primary, JS_CAUSE_STEAL);
	assert_int_equal(a.unexplained_ns, 0);
	/* but a THP collapse the sampler waited on stays its gap's cause */
	a.primary = JS_CAUSE_THP;
	corr_finish(&a, 100);
	assert_int_equal(a.primary, JS_CAUSE_THP);
}

static void rec_mk(struct js_gap_rec *r, uint64_t s, uint64_t dur, uint64_t covered)
{
	memset(r, 0, sizeof(*r));
	r->gap = gap_mk(s, dur);
	r->attr.covered_ns = covered;
	if (covered) {
		r->attr.nparts = 1;
		r->attr.primary = JS_CAUSE_TIMER;
		r->attr.parts[0].cause = JS_CAUSE_TIMER;
		r->attr.parts[0].net_ns = covered;
	}
	corr_finish(&r->attr, dur);
}

/* steal between readings goes to the gaps of that window, largest unexplained first */
static void test_steal_windows(void **state)
{
	struct js_gap_rec g[5];
	struct steal_reading r[] = {
		{ 0, 1000, 0, 0, 0 },	{ 400, 1120, 0, 0, 0 }, { 800, 1220, 0, 0, 0 },
		{ 900, 1250, 0, 0, 0 }, { 950, 1240, 0, 0, 0 },
	};

	(void)state;
	rec_mk(&g[0], 100, 100, 0);  /* window 1, room 100 */
	rec_mk(&g[1], 300, 60, 10);  /* window 1, room 50 */
	rec_mk(&g[2], 600, 100, 0);  /* window 2 */
	rec_mk(&g[3], 700, 50, 0);   /* window 2 */
	rec_mk(&g[4], 1000, 100, 0); /* after the last reading */
	/* w1: 120 -> 100 + 20; w2: 100 -> all to the larger g2; w3: 30 unmatched; w4 goes back */
	assert_int_equal(steal_allocate(g, 5, r, 5), 30);
	assert_int_equal(g[0].attr.steal_ns, 100);
	assert_int_equal(g[1].attr.steal_ns, 20);
	assert_int_equal(g[2].attr.steal_ns, 100);
	assert_int_equal(g[3].attr.steal_ns, 0);
	assert_int_equal(g[4].attr.steal_ns, 0);
	assert_int_equal(g[0].attr.primary, JS_CAUSE_STEAL);
	assert_int_equal(g[0].attr.unexplained_ns, 0);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_TIMER);
	assert_int_equal(g[1].attr.unexplained_ns, 30);
	assert_int_equal(g[2].attr.primary, JS_CAUSE_STEAL);
	assert_int_equal(g[3].attr.primary, JS_CAUSE_UNEXPLAINED);
	assert_int_equal(g[3].attr.unexplained_ns, 50);
	assert_int_equal(g[4].attr.primary, JS_CAUSE_UNEXPLAINED);
}

/* a gap split by readings takes steal from each window only up to its overlap */
static void test_steal_straddle(void **state)
{
	struct js_gap_rec g[2];
	struct steal_reading r[] = { { 0, 0, 0, 0, 0 },
				     { 150, 200, 0, 0, 0 },
				     { 300, 260, 0, 0, 0 } };

	(void)state;
	rec_mk(&g[0], 100, 100, 0); /* 50 in window 1, 50 in window 2 */
	rec_mk(&g[1], 220, 40, 0);
	/* w1: 200 steal, only 50 fits g0; w2: 60 over g0 (room 50) first, then g1 (40) */
	assert_int_equal(steal_allocate(g, 2, r, 3), 150);
	assert_int_equal(g[0].attr.steal_ns, 50 + 50);
	assert_int_equal(g[1].attr.steal_ns, 10);
	assert_int_equal(g[0].attr.unexplained_ns, 0);
	assert_int_equal(g[1].attr.unexplained_ns, 30);
	assert_int_equal(g[0].attr.primary, JS_CAUSE_STEAL);
}

/* equal rooms share the steal in time order; nothing is ever over-allocated */
static void test_steal_equal(void **state)
{
	struct js_gap_rec g[3];
	struct steal_reading r[] = { { 0, 0, 0, 0, 0 }, { 1000, 150, 0, 0, 0 } };

	(void)state;
	rec_mk(&g[0], 100, 100, 0);
	rec_mk(&g[1], 300, 100, 0);
	rec_mk(&g[2], 500, 100, 0);
	assert_int_equal(steal_allocate(g, 3, r, 2), 0);
	assert_int_equal(g[0].attr.steal_ns, 100);
	assert_int_equal(g[1].attr.steal_ns, 50);
	assert_int_equal(g[2].attr.steal_ns, 0);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_STEAL);
	assert_int_equal(g[2].attr.primary, JS_CAUSE_UNEXPLAINED);
}

/* the log keeps the readings events carry in time order, thins itself when full, and
 * gives the steal up to the last gap's end to the gaps, keeping the last reading used */
static void test_steal_log(void **state)
{
	struct js_event ev[] = {
		ev_mk(JS_EV_VECTOR, 500, 520, 0, NULL),
		ev_mk(JS_EV_IRQ, 100, 130, 36, "x"),
		ev_mk(JS_EV_IRQ, 300, 310, 36, "x"),
		ev_mk(JS_EV_IRQ, 600, 610, 36, "x"),
	};
	struct steal_log log;
	struct js_gap_rec g[1];

	(void)state;
	ev[0].flags = ev[1].flags = ev[3].flags = JS_F_STEAL;
	ev[0].steal_start = 70;
	ev[0].steal_end = 75;
	ev[1].steal_start = 10;
	ev[1].steal_end = 12;
	ev[3].steal_start = 80;
	ev[3].steal_end = 81;
	assert_int_equal(steal_log_init(&log, 4), 0);
	for (int i = 0; i < 3; i++)
		steal_log_add(&log, &ev[i]);
	assert_int_equal(log.n, 4); /* ev[2] carries none */
	assert_int_equal(log.v[0].t_ns, 100);
	assert_int_equal(log.v[0].steal_ns, 10);
	assert_int_equal(log.v[1].t_ns, 130);
	assert_int_equal(log.v[3].t_ns, 520);
	assert_int_equal(log.v[3].steal_ns, 75);
	/* full: every other reading goes first */
	steal_log_add(&log, &ev[3]);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.v[0].t_ns, 100);
	assert_int_equal(log.v[1].t_ns, 500);
	assert_int_equal(log.v[2].t_ns, 600);
	assert_int_equal(log.v[3].t_ns, 610);
	/* a gap before the second reading: no window closed, nothing used */
	rec_mk(&g[0], 200, 50, 0);
	steal_log_allocate(&log, g, 1);
	assert_int_equal(log.n, 4);
	assert_int_equal(g[0].attr.steal_ns, 0);
	/* a gap past 500 closes [100, 500]: 60 of steal there, the gap's 50 ns inside it
	 * take 50; the reading at 500 stays as the next window's start */
	rec_mk(&g[0], 450, 60, 0);
	steal_log_allocate(&log, g, 1);
	assert_int_equal(g[0].attr.steal_ns, 50);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.v[0].t_ns, 500);
	steal_log_free(&log);
	steal_log_free(&log);
}

/* simulated SMI counter: one SMI per gap, largest unexplained gaps without events */
static void test_smi_counter(void **state)
{
	struct js_gap_rec g[5];
	uint64_t counter[] = { 7, 9, 9, 14 }; /* readings of MSR_SMI_COUNT */

	(void)state;
	rec_mk(&g[0], 0, 500, 400); /* has an event: never SMI */
	rec_mk(&g[1], 1000, 30, 0);
	rec_mk(&g[2], 2000, 80, 0);
	rec_mk(&g[3], 3000, 60, 0);
	rec_mk(&g[4], 4000, 90, 0);
	g[4].attr.steal_ns = 80; /* mostly steal: explained */
	corr_finish(&g[4].attr, 90);
	/* window 1: counter +2 */
	assert_int_equal(corr_smi_allocate(g, 5, counter[1] - counter[0]), 0);
	assert_int_equal(g[2].attr.smi, 1);
	assert_int_equal(g[3].attr.smi, 1);
	assert_int_equal(g[1].attr.smi, 0);
	assert_int_equal(g[0].attr.smi, 0);
	assert_int_equal(g[2].attr.primary, JS_CAUSE_SMI);
	assert_string_equal(g[2].attr.detail, "smi");
	assert_int_equal(g[2].attr.unexplained_ns, 80);
	assert_int_equal(g[0].attr.primary, JS_CAUSE_TIMER);
	assert_int_equal(g[4].attr.primary, JS_CAUSE_STEAL);
	/* window 2: counter unchanged */
	assert_int_equal(corr_smi_allocate(g, 5, counter[2] - counter[1]), 0);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_UNEXPLAINED);
	/* window 3: +5, only one candidate left: one SMI per gap, 4 left over */
	assert_int_equal(corr_smi_allocate(g, 5, counter[3] - counter[2]), 4);
	assert_int_equal(g[1].attr.smi, 1);
	assert_int_equal(g[1].attr.primary, JS_CAUSE_SMI);
	assert_int_equal(g[4].attr.smi, 0);
}

/*
 * thp_timeline - the sampler blocked on its own memory while khugepaged collapsed it (as
 * seen with --test-hook thp): khugepaged (CPU 0) clears the PMD (TLB-flush IPI to CPU 1),
 * the sampler faults on the region and waits for the mmap lock (CPU 1 idle) until the
 * collapse ends. @fault: the sampler's fault is in the gap; @flags: the collapse's flags;
 * @local: khugepaged ran on CPU 1 itself instead of CPU 1 idling. Returns the count.
 */
static size_t thp_timeline(struct js_event *ev, bool fault, uint32_t flags, bool local)
{
	size_t n = 0;

	ev[n++] = ev_mk(JS_EV_IPI_SEND, 1000, 1000, 38, "khugepaged"); /* cpu: its target */
	ev[n++] = ev_mk(JS_EV_VECTOR, 1100, 4900, JS_VEC_CALL_FUNCTION_SINGLE, NULL);
	if (fault) {
		ev[n] = ev_mk(JS_EV_FAULT, 6000, 6000, 42, "jitterscope");
		ev[n].flags = JS_F_SAMPLER;
		ev[n++].addr = 0x7f6300000000;
	}
	if (local) {
		ev[n] = ev_mk(JS_EV_TASK, 8000, 6990000, 38, "khugepaged");
		ev[n++].flags = JS_F_KTHREAD;
	} else {
		ev[n++] = ev_mk(JS_EV_IDLE, 8000, 6990000, 0, NULL);
	}
	/* the collapse proper (isolate .. end): 6.1 ms, the sampler's mm */
	ev[n] = ev_mk(JS_EV_THP, 400000, 6500000, JS_THP_COLLAPSE, "khugepaged");
	ev[n].flags = flags;
	ev[n++].addr = 1; /* SCAN_SUCCEED */
	ev[n++] = ev_mk(JS_EV_VECTOR, 6995000, 6996000, JS_VEC_RESCHEDULE, NULL);
	return n;
}

/* a THP collapse of the sampler's memory it blocked on is the primary, idle stays a part */
static void test_thp_sampler_blocked(void **state)
{
	struct js_event ev[8];
	struct js_gap g = gap_mk(500, 6999500);
	const struct js_part *p;
	struct js_attr a;
	size_t n;

	(void)state;
	/* remote: khugepaged ran on CPU 0, filed under the sampler's CPU */
	n = thp_timeline(ev, true, JS_F_SAMPLER | JS_F_REMOTE, false);
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	assert_int_equal(a.primary, JS_CAUSE_THP);
	assert_string_equal(a.detail, "THP collapse (sampler) khugepaged");
	p = fx_find_part(&a, JS_CAUSE_THP, "THP collapse (sampler) khugepaged");
	assert_non_null(p);
	assert_int_equal(p->count, 1);
	assert_int_equal(p->net_ns, 6100000);
	/* what CPU 1 did meanwhile stays listed: idle around the collapse, the IPI, the fault */
	p = fx_find_part(&a, JS_CAUSE_IDLE, "idle");
	assert_non_null(p);
	assert_int_equal(p->net_ns, 6990000 - 8000 - 6100000);
	assert_non_null(fx_find_part(&a, JS_CAUSE_IPI, "call_function_single from khugepaged:38"));
	assert_non_null(fx_find_part(&a, JS_CAUSE_FAULT,
				     "fault user jitterscope:42 @0x7f6300000000 (sampler)"));
	/* the same gap without the sampler's fault: nothing says it waited on the collapse */
	n = thp_timeline(ev, false, JS_F_SAMPLER | JS_F_REMOTE, false);
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	assert_int_equal(a.primary, JS_CAUSE_IDLE);
	assert_string_equal(a.detail, "idle");
	assert_non_null(fx_find_part(&a, JS_CAUSE_THP, "THP collapse (sampler) khugepaged"));
}

/* khugepaged collapsing the sampler's memory on the measured CPU itself (not remote) */
static void test_thp_sampler_local(void **state)
{
	struct js_event ev[8];
	struct js_gap g = gap_mk(500, 6999500);
	struct js_attr a;
	size_t n;

	(void)state;
	n = thp_timeline(ev, true, JS_F_SAMPLER, true);
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	assert_int_equal(a.primary, JS_CAUSE_THP);
	assert_string_equal(a.detail, "THP collapse (sampler) khugepaged");
	assert_int_equal(fx_find_part(&a, JS_CAUSE_TASK, "khugepaged:38")->net_ns,
			 6990000 - 8000 - 6100000);
	/* no fault of the sampler: the task that ran is the primary, as for any preemption */
	n = thp_timeline(ev, false, JS_F_SAMPLER, true);
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	assert_string_equal(a.detail, "khugepaged:38");
}

/* a collapse of another process's memory is no reason for the sampler's fault */
static void test_thp_other_mm(void **state)
{
	struct js_event ev[8];
	struct js_gap g = gap_mk(500, 6999500);
	struct js_attr a;
	size_t n;

	(void)state;
	n = thp_timeline(ev, true, 0, false);
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	assert_int_equal(a.primary, JS_CAUSE_IDLE);
	assert_non_null(fx_find_part(&a, JS_CAUSE_THP, "THP collapse khugepaged"));
	/* on the measured CPU, by khugepaged running there: the task is primary */
	n = thp_timeline(ev, true, 0, true);
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_TASK);
	/* a khugepaged scan of the sampler's memory (a point) is no collapse either */
	n = thp_timeline(ev, true, JS_F_SAMPLER | JS_F_REMOTE, false);
	ev[n - 2].id = JS_THP_SCAN_PMD;
	ev[n - 2].end_ns = ev[n - 2].start_ns;
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_IDLE);
	assert_non_null(fx_find_part(&a, JS_CAUSE_THP, "khugepaged scan_pmd (sampler) khugepaged"));
}

/* a collapse that failed (result != SCAN_SUCCEED) says so; the sampler still waited on it */
static void test_thp_failed_collapse(void **state)
{
	struct js_event ev[8];
	struct js_gap g = gap_mk(500, 6999500);
	struct js_attr a;
	size_t n;

	(void)state;
	n = thp_timeline(ev, true, JS_F_SAMPLER | JS_F_REMOTE, false);
	ev[n - 2].addr = 5;
	assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
	assert_int_equal(a.primary, JS_CAUSE_THP);
	assert_string_equal(a.detail, "THP collapse failed:5 (sampler) khugepaged");
	/* two collapses in one gap (one per 2 MiB): one source, counted twice */
	n = thp_timeline(ev, true, JS_F_SAMPLER | JS_F_REMOTE, false);
	ev[n] = ev[n - 2];
	ev[n].start_ns = 6600000;
	ev[n].end_ns = 6900000;
	assert_int_equal(corr_attribute(&g, ev, n + 1, &opts, &a), 0);
	assert_int_equal(parts_sum(&a), a.covered_ns);
	assert_int_equal(a.primary, JS_CAUSE_THP);
	assert_int_equal(fx_find_part(&a, JS_CAUSE_THP, "THP collapse (sampler) khugepaged")->count,
			 2);
}

/* a kernel thread that runs interrupt work is named as that work: its class, its detail
 * with the thread (and the softirq it ran), its inclusive time making it the primary */
static void test_interrupt_threads(void **state)
{
	struct js_event ev[8];
	const struct js_part *p;
	struct js_attr a;

	(void)state;
	for (size_t i = 0; i < fx_nthread_seqs; i++) {
		const struct fx_thread_seq *q = &fx_thread_seqs[i];
		struct js_gap g = gap_mk(1000000, q->gap_ns);
		size_t n = fx_thread_events(q, 1000000, CPU, ev);

		print_message("%s\n", q->what);
		assert_int_equal(corr_attribute(&g, ev, n, &opts, &a), 0);
		assert_int_equal(a.primary, q->primary);
		assert_string_equal(a.detail, q->detail);
		assert_int_equal(parts_sum(&a), a.covered_ns);
		p = fx_find_part(&a, q->primary, q->detail);
		assert_non_null(p);
		assert_int_equal(p->net_ns, q->net_ns);
		assert_int_equal(corr_event_cause(&ev[q->ev[0].kind == JS_EV_TASK ? 0 : 1]),
				 (int)q->primary);
	}
}

/* out_of - what write(fp, arg) writes, as a string (caller frees) */
static char *out_of(void (*write)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	write(fp, arg);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void csv_of(FILE *fp, const void *g)
{
	csv_write_gap(fp, g);
}

static void json_of(FILE *fp, const void *g)
{
	struct js_json j;

	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	js_attr_write_json(&j, &((const struct js_gap_rec *)g)->attr, NULL);
	json_obj_end(&j);
}

struct prom_arg {
	struct js_prom *m;
	const struct js_run *run;
};

static void prom_of(FILE *fp, const void *arg)
{
	const struct prom_arg *a = arg;

	assert_int_equal(prom_write(fp, a->m, a->run), 0);
}

/* has - text holds s */
static void has(const char *text, const char *s)
{
	if (!strstr(text, s))
		fail_msg("'%s' not in:\n%s", s, text);
}

/* thread_gap - the gap of sequence i at 1 s, attributed, its entry/exit given */
static void thread_gap(struct js_gap_rec *r, size_t i, struct js_entry *m)
{
	const struct fx_thread_seq *q = &fx_thread_seqs[i];
	struct js_event ev[8];
	size_t n = fx_thread_events(q, 1000000000, CPU, ev);

	fx_rec(r, CPU, 1000000000, q->gap_ns);
	assert_int_equal(corr_attribute(&r->gap, ev, n, &opts, &r->attr), 0);
	corr_finish(&r->attr, r->gap.dur_ns);
	entry_account(m, r);
}

/*
 * A thread's run where its class shows up: no entry/exit of its own and nothing learned
 * from its gap (it preempted, it did not interrupt), the CSV row, the JSON causes, the
 * Prometheus series (its name without the tid), a class limit of --budget, diff's key.
 */
static void test_thread_outputs(void **state)
{
	struct js_cpu_result cpus[1];
	struct js_diff_src d;
	struct js_gap_rec r, s;
	struct js_budget b;
	struct js_entry m;
	struct js_run run;
	struct js_prom *pm;
	char *t, err[128], k[JS_DETAIL_LEN];

	(void)state;
	memset(&run, 0, sizeof(run));
	entry_init(&m, 0);
	thread_gap(&r, 0, &m);
	assert_int_equal(fx_find_part(&r.attr, JS_CAUSE_IRQ, "irq/36-virtio1-:123")->entry_ns, 0);
	assert_true(fx_find_part(&r.attr, JS_CAUSE_IRQ, "virtio1-req.0:36")->entry_ns > 0);
	assert_int_equal(m.k[ENTRY_IRQ].lone, 0);
	thread_gap(&s, 3, &m); /* rcuc alone: no interruption, nothing given */
	assert_int_equal(s.attr.entry_ns, 0);

	t = out_of(csv_of, &r);
	has(t, ",42000,irq,irq/36-virtio1-:123,irq:irq/36-virtio1-:123=30000;"
	       "softirq:NET_RX=6000;irq:virtio1-req.0:36=1500,");
	free(t);
	t = out_of(json_of, &r);
	has(t, "{\n  \"cause\": \"irq\",\n  \"detail\": \"irq/36-virtio1-:123\",\n");
	has(t, "{\n      \"cause\": \"irq\",\n      \"detail\": \"irq/36-virtio1-:123\",\n"
	       "      \"count\": 1,\n      \"net_ns\": 30000,\n      \"entry_ns\": 0,\n");
	free(t);

	assert_int_equal(fx_run(&run, cpus, 1, 1000000000, 2000000000), 0);
	result_add_gap(&cpus[0], &r);
	result_add_gap(&cpus[0], &s);
	pm = prom_new();
	assert_non_null(pm);
	assert_int_equal(prom_start(pm, &run), 0);
	prom_add_gap(pm, &r);
	prom_add_gap(pm, &s);
	t = out_of(prom_of, &(struct prom_arg){ pm, &run });
	has(t, "\njitterscope_gaps_total{cpu=\"1\",cause=\"irq\"} 1\n");
	has(t, "\njitterscope_gaps_total{cpu=\"1\",cause=\"softirq\"} 1\n");
	has(t, "\njitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"irq\","
	       "source=\"irq/36-virtio1-\"} 0.000030000\n");
	has(t, "\njitterscope_source_lost_seconds_total{cpu=\"1\",cause=\"softirq\","
	       "source=\"rcuc\"} 0.000008000\n");
	free(t);
	prom_free(pm);

	assert_int_equal(budget_parse("irq=0,softirq=0", &b, err, sizeof(err)), 0);
	assert_int_equal(budget_check(&b, &run, NULL), 2);
	result_cpu_free(&cpus[0]);

	js_source_key(JS_CAUSE_IRQ, "irq/36-virtio1-:123", k, sizeof(k));
	assert_string_equal(k, "irq/36-virtio1-");
	js_source_key(JS_CAUSE_SOFTIRQ, "ksoftirqd/1:22 NET_RX", k, sizeof(k));
	assert_string_equal(k, "ksoftirqd/1 NET_RX");
	js_source_key(JS_CAUSE_IRQ, "virtio1-req.0:36", k, sizeof(k)); /* the IRQ's number */
	assert_string_equal(k, "virtio1-req.0:36");
	memset(&d, 0, sizeof(d));
	d.cause = JS_CAUSE_IRQ;
	snprintf(d.b_detail, sizeof(d.b_detail), "irq/36-virtio1-:123");
	assert_string_equal(diff_src_label(k, sizeof(k), &d), "irq irq/36-virtio1-:123");
	snprintf(d.b_detail, sizeof(d.b_detail), "virtio1-req.0:36");
	assert_string_equal(diff_src_label(k, sizeof(k), &d), "IRQ 36 virtio1-req.0");
}

/* the thread table: a prefix and a digit; the part of a task of that name is not a thread's */
static void test_thread_table(void **state)
{
	static const struct {
		const char *name;
		int cause; /* -1: not a thread of the table */
	} v[] = {
		{ "irq/36-virtio1-req.0", JS_CAUSE_IRQ },
		{ "irq/9-acpi", JS_CAUSE_IRQ },
		{ "irq_work/1", -1 },
		{ "irq/", -1 },
		{ "irqbalance", -1 },
		{ "ktimers/3", JS_CAUSE_TIMER },
		{ "ksoftirqd/0", JS_CAUSE_SOFTIRQ },
		{ "ksoftirqd/", -1 },
		{ "rcuc/12", JS_CAUSE_SOFTIRQ },
		{ "backlog_napi/1", JS_CAUSE_SOFTIRQ },
		{ "backlog_napi/", -1 },
		{ "rcuop/1", -1 },
		{ "rcu_preempt", -1 },
		{ "kworker/1:2", -1 },
		{ "", -1 },
	};
	const struct js_thread_class *t;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		t = js_thread_class(v[i].name);
		print_message("%s\n", v[i].name);
		assert_int_equal(t ? (int)t->cause : -1, v[i].cause);
	}
	assert_null(js_thread_class(NULL));
	assert_string_equal(js_thread_class("rcuc/1")->softirq, "RCU");
	assert_string_equal(js_thread_class("backlog_napi/1")->softirq, "NET_RX");
	assert_non_null(js_part_thread(JS_CAUSE_SOFTIRQ, "ksoftirqd/1:22 NET_RX"));
	assert_null(js_part_thread(JS_CAUSE_TASK, "ksoftirqd/1:22"));
	assert_null(js_part_thread(JS_CAUSE_IRQ, "ksoftirqd/1:22"));
	assert_null(js_part_thread(JS_CAUSE_IRQ, "virtio1-req.0:36"));
	assert_int_equal(js_part_role(JS_CAUSE_IRQ, "irq/36-virtio1-:123"), JS_ROLE_OFFCPU);
	assert_int_equal(js_part_role(JS_CAUSE_IRQ, "virtio1-req.0:36"), JS_ROLE_INTERRUPT);
	assert_int_equal(js_part_role(JS_CAUSE_TASK, "jsinject:7"), JS_ROLE_OFFCPU);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_run_holds_merged_part),
		cmocka_unit_test(test_timer_hrtimer),
		cmocka_unit_test(test_user_events),
		cmocka_unit_test(test_user_event_kept),
		cmocka_unit_test(test_no_symbol),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_point_events),
		cmocka_unit_test(test_kworker_work),
		cmocka_unit_test(test_work_off_cpu),
		cmocka_unit_test(test_cgroup_names),
		cmocka_unit_test(test_ipi_sender),
		cmocka_unit_test(test_ipi_sender_types),
		cmocka_unit_test(test_ipi_sender_long_gap),
		cmocka_unit_test(test_lean_exits),
		cmocka_unit_test(test_woken_task_past_end),
		cmocka_unit_test(test_steal_inside_event),
		cmocka_unit_test(test_untraced_switch_primary),
		cmocka_unit_test(test_sampler_fault_tail),
		cmocka_unit_test(test_sampler_fault_tail_part),
		cmocka_unit_test(test_marked),
		cmocka_unit_test(test_primary_rules),
		cmocka_unit_test(test_filter_and_empty),
		cmocka_unit_test(test_parts_overflow),
		cmocka_unit_test(test_parts_at_cap),
		cmocka_unit_test(test_fold_keeps_evidence),
		cmocka_unit_test(test_fold_evidence_overflow),
		cmocka_unit_test(test_ties_open_misaligned),
		cmocka_unit_test(test_batch_equals_single),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_steal_windows),
		cmocka_unit_test(test_steal_straddle),
		cmocka_unit_test(test_steal_equal),
		cmocka_unit_test(test_steal_log),
		cmocka_unit_test(test_smi_counter),
		cmocka_unit_test(test_thp_sampler_blocked),
		cmocka_unit_test(test_thp_sampler_local),
		cmocka_unit_test(test_thp_other_mm),
		cmocka_unit_test(test_thp_failed_collapse),
		cmocka_unit_test(test_interrupt_threads),
		cmocka_unit_test(test_thread_table),
		cmocka_unit_test(test_thread_outputs),
		cmocka_unit_test(test_self_drain_named),
	};

	return cmocka_run_group_tests_name("correlate", tests, NULL, NULL);
}
