// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_report_load.c - a synthetic run written with out_json_write() loads back (report_load) to the
 * same result: key fields equal, report_text() of both identical, out_json_write() of the
 * loaded run identical to the original document; every malformed or foreign document is
 * rejected with a message that names the key, and none crashes the loader. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_diff.h"
#include "js_report.h"
#include "js_report_load.h"
#include "fixtures.h"

#define T0 5000000000000ull  /* run start, CLOCK_MONOTONIC */
#define WINDOW 3000000000ull /* 3 s measured */

static struct js_run_cfg params;
static struct js_run orig;
static char *orig_json, *orig_text;
static size_t orig_json_len;
static char err[512];

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* part - fx_part(), its events counted */
static void part(struct js_gap_rec *g, uint32_t cause, const char *detail, uint32_t count,
		 uint64_t net)
{
	fx_part(g, cause, detail, count, net);
	g->attr.nevents += count;
}

/* full_parts - fill a gap's parts up to JS_PARTS_MAX, the last one a fold of 3 sources;
 * among them the event names schema 1 spelled otherwise (test_v1_names) */
static void full_parts(struct js_gap_rec *g)
{
	char d[32];

	part(g, JS_CAUSE_VECTOR, "thermal_apic", 1, 0);
	part(g, JS_CAUSE_TLB, "remote_send_ipi (sampler)", 1, 0);
	part(g, JS_CAUSE_TLB, "remote_wrong_cpu", 1, 0);
	while (g->attr.nparts < JS_PARTS_MAX - 1) {
		snprintf(d, sizeof(d), "fault user cc1:%u", 20000 + g->attr.nparts);
		part(g, JS_CAUSE_FAULT, d, 1, 0);
	}
	part(g, JS_CAUSE_TLB, "(other: 3 sources)", 4, 0);
}

/* make_gap - a gap of a few kinds: task + work, irq + softirq, timer, SMI, steal, none */
static void make_gap(struct js_gap_rec *g, int cpu, uint64_t at, uint32_t *s)
{
	static const char *const tasks[] = { "kworker/1:2:123 vmstat_update",
					     "cc1:20856 [build.service]", "t\xe9st \"q\":7" };
	static const uint64_t cgroup[] = { 1, 7, 12345 }; /* root, a unit, gone */
	uint32_t t;
	uint64_t dur = 1000 + rnd(s) % 50000 + (rnd(s) % 50 == 0 ? 3000000 : 0);
	uint32_t kind = rnd(s) % 6;

	memset(g, 0, sizeof(*g));
	g->gap.start_ns = at;
	g->gap.dur_ns = dur;
	g->gap.cpu = (uint32_t)cpu;
	switch (kind) {
	case 0:
		t = rnd(s) % 3;
		part(g, JS_CAUSE_TASK, tasks[t], 1, dur * 3 / 4);
		g->attr.parts[0].cgroup = cgroup[t];
		part(g, JS_CAUSE_WORK, "vmstat_update", 1, dur / 8);
		g->attr.primary = JS_CAUSE_TASK;
		snprintf(g->attr.detail, sizeof(g->attr.detail), "%s", g->attr.parts[0].detail);
		g->attr.stack = t < 2 ? t + 1 : 0; /* --stacks: refs into orig.stacks (setup) */
		break;
	case 1:
		part(g, JS_CAUSE_IRQ, "virtio1-req.0:36", 1, dur / 2);
		part(g, JS_CAUSE_SOFTIRQ, "NET_RX", 2, dur / 3);
		if (dur > 3000000) /* a long gap: as many causes as a gap keeps */
			full_parts(g);
		g->attr.primary = JS_CAUSE_IRQ;
		snprintf(g->attr.detail, sizeof(g->attr.detail), "virtio1-req.0:36");
		break;
	case 2:
		part(g, JS_CAUSE_TIMER, "local_timer", 1, dur / 2);
		part(g, JS_CAUSE_HRTIMER, "hrtimer tick_nohz_handler", 1, dur / 4);
		g->attr.primary = JS_CAUSE_TIMER;
		snprintf(g->attr.detail, sizeof(g->attr.detail), "local_timer");
		break;
	case 3:
		g->attr.primary = JS_CAUSE_SMI;
		g->attr.smi = 1;
		break;
	case 4:
		g->attr.primary = JS_CAUSE_STEAL;
		g->attr.steal_ns = dur / 2;
		break;
	default:
		g->attr.primary = JS_CAUSE_UNEXPLAINED;
	}
	g->attr.unexplained_ns = dur - g->attr.covered_ns - g->attr.steal_ns;
}

/* make_cpu - a CPU result fed the way the pipeline feeds it */
static void make_cpu(struct js_cpu_result *r, int cpu, uint32_t seed)
{
	uint64_t bstart[JS_MAX_ARRIVALS][JS_BURST_SIZES];
	struct js_burst b[JS_MAX_ARRIVALS][JS_BURST_SIZES];
	uint64_t t = T0 + 1000;
	uint32_t s = seed;

	assert_int_equal(result_cpu_init(r, cpu, params.top), 0);
	r->cgroups = orig.cgroups;
	r->node = 0;
	r->start_ns = T0;
	r->end_ns = T0 + WINDOW;
	r->iterations = 123456789;
	r->loop_ns_min = 18.3125;
	r->loop_ns_median = 22.6;
	r->loop_ns_mean = 18.41234567;
	r->dropped = cpu == 3 ? 2 : 0;
	r->smi = 4;
	assert_int_equal(intervals_init(&r->intervals, T0, 1000000000ull, 0), 0);
	for (size_t i = 0; i < params.narrivals; i++) {
		assert_int_equal(arrival_init(&r->arrivals[i], params.arrival_ns[i], T0, 0), 0);
		for (int k = 0; k < JS_BURST_SIZES; k++) {
			burst_init(&b[i][k], T0, params.arrival_ns[i], params.burst,
				   js_burst_sizes_ns[k]);
			bstart[i][k] = 0;
		}
	}
	r->narrivals = params.narrivals;
	/* CPU 1 in a guest (a VM exit measured, the entry/exit prior of 3 of them), CPU 3 not */
	if (cpu == 1)
		r->vm_exit = (struct js_exit_cost){ 512, 4012.5, 4211.25, 4877.0 };
	entry_init(&r->entry, r->vm_exit.median_ns);
	while (t < T0 + WINDOW - 10000000) {
		struct js_gap_rec g;

		make_gap(&g, cpu, t, &s);
		entry_account(&r->entry, &g);
		/* unexplained gaps of CPU 1 fall on a 10 ms grid: periodic */
		if (cpu == 1 && g.attr.primary == JS_CAUSE_UNEXPLAINED)
			g.gap.start_ns = t = t - t % 10000000 + 10000000;
		result_add_gap(r, &g);
		intervals_add_gap(&r->intervals, g.gap.start_ns, g.gap.dur_ns, g.attr.primary,
				  g.attr.detail);
		for (size_t i = 0; i < r->narrivals; i++) {
			arrival_add_gap(&r->arrivals[i], g.gap.start_ns, g.gap.dur_ns,
					(int)g.attr.primary);
			for (int k = 0; k < JS_BURST_SIZES; k++)
				burst_add_gap(&b[i][k], g.gap.start_ns, g.gap.dur_ns);
		}
		t = g.gap.start_ns + g.gap.dur_ns + 100000 + rnd(&s) % 3000000;
	}
	intervals_finish(&r->intervals, r->end_ns);
	entry_finish(&r->entry);
	for (size_t i = 0; i < r->narrivals; i++) {
		arrival_finish(&r->arrivals[i], r->end_ns);
		for (int k = 0; k < JS_BURST_SIZES; k++)
			r->burst_p[i][k] = burst_finish(&b[i][k], r->end_ns);
	}
	(void)bstart;
}

static void add_check(struct js_audit *a, const char *id, enum audit_verdict v,
		      enum audit_severity sev, int cpu, const char *obs)
{
	struct audit_check *c = &a->checks[a->n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->verdict = v;
	c->severity = sev;
	c->cpu = cpu;
	snprintf(c->observed, sizeof(c->observed), "%s", obs);
	snprintf(c->expected, sizeof(c->expected), "expected value of %s", id);
	snprintf(c->source, sizeof(c->source), "/proc/%s", id);
	snprintf(c->hint, sizeof(c->hint), "fix %s", id);
}

static void make_audit(struct js_audit *a)
{
	char e[64];

	memset(a, 0, sizeof(*a));
	a->ncpus = 2;
	a->cpus = calloc(2, sizeof(int));
	a->cpu = calloc(2, sizeof(*a->cpu));
	a->cpus[0] = 1;
	a->cpus[1] = 3;
	a->checks = calloc(8, sizeof(*a->checks));
	a->cap = 8;
	add_check(a, "isolcpus", AUDIT_FAIL, SEV_HIGH, 1, "CPU 1 is not isolated");
	add_check(a, "thp.enabled", AUDIT_WARN, SEV_LOW, -1, "madvise");
	add_check(a, "nohz_full", AUDIT_PASS, SEV_MED, 3, "CPU 3 in nohz_full");
	add_check(a, "smi", AUDIT_SKIP, SEV_INFO, -1, "not root");
	a->elapsed_ns = 1234567;
	snprintf(a->f.release, sizeof(a->f.release), "6.18.44-test");
	snprintf(a->f.preempt, sizeof(a->f.preempt), "voluntary");
	snprintf(a->f.thp_enabled, sizeof(a->f.thp_enabled), "madvise");
	snprintf(a->f.cmdline, sizeof(a->f.cmdline), "console=ttyS0 isolcpus=3");
	a->f.hz = 250;
	a->f.nohz_full_capable = 1;
	a->f.rt_runtime_us = 950000;
	a->f.stat_interval = 1;
	a->f.hypervisor = true;
	assert_int_equal(cpulist_parse("0-3", &a->f.online, e, sizeof(e)), 0);
	assert_int_equal(cpulist_parse("3", &a->f.isolated, e, sizeof(e)), 0);
	a->irqs = calloc(2, sizeof(*a->irqs));
	a->nirqs = 2;
	a->irqs[0].irq = 36;
	snprintf(a->irqs[0].name, sizeof(a->irqs[0].name), "virtio1-req.0");
	cpuset_set(&a->irqs[0].effective, 1);
	cpuset_set(&a->irqs[0].requested, 0);
	cpuset_set(&a->irqs[0].requested, 1);
	a->irqs[0].count = calloc(2, sizeof(uint64_t));
	a->irqs[0].count[0] = 4242;
	a->irqs[1].irq = 40; /* not on a measured CPU: not in the JSON */
	cpuset_set(&a->irqs[1].effective, 0);
	a->irqs[1].count = calloc(2, sizeof(uint64_t));
}

static void delta_row(struct audit_delta_row *r, const char *key, const char *name, int irq,
		      enum audit_row_kind kind, uint64_t d0, uint64_t d1)
{
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->irq = irq;
	r->kind = kind;
	r->delta = calloc(2, sizeof(uint64_t));
	r->delta[0] = d0;
	r->delta[1] = d1;
	r->total = d0 + d1;
}

/* make_deltas - rows on different subsets of the CPUs, to exercise the merge order */
static void make_deltas(struct audit_deltas *d)
{
	memset(d, 0, sizeof(*d));
	d->ncpus = 2;
	d->cpus = calloc(2, sizeof(int));
	d->cpus[0] = 1;
	d->cpus[1] = 3;
	d->seconds = 3.0123;
	d->rows = calloc(4, sizeof(*d->rows));
	d->nrows = 4;
	delta_row(&d->rows[0], "LOC", "Local timer interrupts", -1, AUDIT_ROW_ARCH, 750, 12);
	delta_row(&d->rows[1], "36", "virtio1-req.0", 36, AUDIT_ROW_IRQ, 0, 3);
	delta_row(&d->rows[2], "RES", "Rescheduling interrupts", -1, AUDIT_ROW_ARCH, 9, 0);
	delta_row(&d->rows[3], "NET_RX", "", -1, AUDIT_ROW_SOFTIRQ, 2, 5);
	d->changes = calloc(1, sizeof(*d->changes));
	d->nchanges = 1;
	d->changes[0].irq = 36;
	snprintf(d->changes[0].name, sizeof(d->changes[0].name), "virtio1-req.0");
	cpuset_set(&d->changes[0].before, 0);
	cpuset_set(&d->changes[0].after, 1);
	d->changes[0].touches = true;
}

static char *text_of(const struct js_run *run, bool json, size_t *len)
{
	char *buf = NULL;
	size_t l = 0;
	FILE *fp = open_memstream(&buf, &l);

	assert_non_null(fp);
	if (json)
		out_json_write(fp, run);
	else
		report_text(fp, run);
	fclose(fp);
	if (len)
		*len = l;
	return buf;
}

/* first_diff - fail with the first differing line of two texts */
static void same_text(const char *what, const char *a, const char *b)
{
	size_t line = 1;

	if (!strcmp(a, b))
		return;
	for (size_t i = 0; a[i] && a[i] == b[i]; i++)
		line += a[i] == '\n';
	fail_msg("%s differ at line %zu:\n--- original\n%.300s\n--- loaded\n%.300s", what, line, a,
		 b);
}

static int setup(void **state)
{
	static int cpus[2] = { 1, 3 };

	(void)state;
	memset(&params, 0, sizeof(params));
	memcpy(params.cpus, cpus, sizeof(cpus));
	params.ncpus = 2;
	params.hk[0] = 0;
	params.nhk = 1;
	params.duration_ns = WINDOW;
	params.threshold_ns = 1000;
	params.top = 10;
	params.policy = 1;
	params.priority = 50;
	params.arrival_ns[0] = 100000;
	params.arrival_ns[1] = 1000000;
	params.narrivals = 2;
	params.burst = 10;
	params.probes_lean = true; /* --probes lean: said in the text, kept in the JSON */
	params.clock = TSC_CLOCK_AUTO;
	params.tsc_read = TSC_READ_LFENCE_RDTSC; /* a CPU without rdtscp */
	memset(&orig, 0, sizeof(orig));
	orig.cfg = params;
	snprintf(orig.machine.kernel, sizeof(orig.machine.kernel), "6.18.44-test x86_64");
	snprintf(orig.machine.hostname, sizeof(orig.machine.hostname), "box");
	snprintf(orig.machine.cpu_model, sizeof(orig.machine.cpu_model), "Intel(R) Xeon(R)");
	orig.machine.hypervisor = true;
	orig.machine.invariant_tsc = true;
	orig.machine.online_cpus = 4;
	orig.fit.hz = 2294687123.4;
	orig.fit.npairs = 14;
	orig.fit.residual_max_ns = 1.25;
	orig.fit.residual_rms_ns = 0.61;
	orig.start_mono_ns = T0;
	orig.start_epoch_s = 1767225600.123456;
	orig.wall_ns = WINDOW + 12345678;
	orig.interrupted = true; /* ended by the --on-spike command (issue 41) */
	orig.ended_by = JS_END_ON_SPIKE;
	snprintf(orig.stop_why, sizeof(orig.stop_why), "the --on-spike command exited 99 for x");
	orig.probes_on = true;
	orig.probe_events = 78123;
	orig.probe_lost = 3;
	orig.probe_unseen = 7; /* switches the kernel did not deliver */
	orig.probe_cost_known = true;
	orig.probe_attached_ns = WINDOW + 1000;
	orig.probe_progs[0] = (struct js_probe_prog){ "local_timer_entry", 2500, 1250000 };
	orig.probe_progs[1] = (struct js_probe_prog){ "sched_switch", 900, 81000 };
	orig.nprobe_progs = 2;
	orig.probe_runs = 3400;
	orig.probe_run_ns = 1331000;
	orig.smi_countable = true;
	orig.clock.rdtscp = (struct js_clock_read){ "rdtscp", 100000, 8.7, 9.1, 10.4, 50, 0, 0 };
	orig.clock.lfence_rdtsc =
		(struct js_clock_read){ "lfence_rdtsc", 100000, 9.0, 9.5, 11.2, 60, 0, 0 };
	orig.clock.monotonic = (struct js_clock_read){
		"clock_gettime_monotonic", 99000, 20.0, 22.0, 24.0, 90, 0, 0
	};
	/* --stacks: two stacks the task gaps name (make_gap) */
	orig.probes_stacks = true;
	orig.stack_full = 5;
	orig.stack_fail = 1;
	for (int k = 0; k < 2; k++) {
		struct js_stack st = { .key = (uint32_t)k + 10, .n = 3 };

		for (uint32_t f = 0; f < st.n; f++)
			snprintf(st.frame[f], JS_FRAME_LEN, "fn%d_%u+0x%x", k, f, 16 * f + 1);
		assert_int_equal(js_stacks_add(&orig.stacks, &st), k + 1);
	}
	orig.cgroups = cgroups_new();
	assert_int_equal(cgroups_add(orig.cgroups, 1, "/"), 0);
	assert_int_equal(cgroups_add(orig.cgroups, 7, "/system.slice/build.service"), 0);
	orig.ncpus = 2;
	orig.cpus = calloc(2, sizeof(*orig.cpus));
	make_cpu(&orig.cpus[0], 1, 7);
	make_cpu(&orig.cpus[1], 3, 99);
	orig.audited = true;
	make_audit(&orig.audit);
	orig.have_deltas = true;
	make_deltas(&orig.deltas);
	orig.xcheck = calloc(2, sizeof(*orig.xcheck));
	snprintf(orig.xcheck[0], AUDIT_LINE_LEN, "local timer fired 250/s on CPU 1: not nohz_full");
	snprintf(orig.xcheck[1], AUDIT_LINE_LEN, "task t\xe9st ran on CPU 1: allowed everywhere");
	orig.nxcheck = 2;
	/* the findings CPU 1's causes tie to: the answer's fix first, read back */
	orig.tied = true;
	orig.cpus[0].ties[0] = (struct audit_tie){ "thp.enabled", 2000000,
						   1u << JS_CAUSE_TLB | 1u << JS_CAUSE_THP };
	orig.cpus[0].ties[1] = (struct audit_tie){ "isolcpus", 1000000, 1u << JS_CAUSE_TASK };
	orig.cpus[0].nties = 2;
	orig_json = text_of(&orig, true, &orig_json_len);
	orig_text = text_of(&orig, false, NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < orig.ncpus; i++)
		result_cpu_free(&orig.cpus[i]);
	free(orig.cpus);
	audit_free(&orig.audit);
	audit_deltas_free(&orig.deltas);
	free(orig.xcheck);
	cgroups_free(orig.cgroups);
	js_stacks_free(&orig.stacks);
	free(orig_json);
	free(orig_text);
	return 0;
}

/** The synthetic run exercises what it should (else the round trip proves little). */
static void test_fixture_coverage(void **state)
{
	const struct js_cpu_result *r = &orig.cpus[0];
	struct js_period_result pr;

	(void)state;
	assert_true(r->gap_count > 500);
	assert_int_equal(r->top.n, 10);
	assert_true(period_result(&r->period.ge[0], &pr));	      /* CPU 1: periodic */
	assert_false(period_result(&orig.cpus[1].period.ge[0], &pr)); /* CPU 3: not */
	assert_true(period_classes_headline(&r->period) > 0);	      /* by duration */
	assert_true(r->arrivals[0].delayed > 0);
	assert_true(r->intervals.n >= 3);
	/* each interval's worst gap, with its story in the JSON and the text report */
	assert_true(r->intervals.v[0].worst.dur_ns > 0);
	assert_non_null(strstr(orig_json, "\"worst\": {\n"));
	assert_non_null(strstr(orig_json, "\"story\": \""));
	assert_non_null(strstr(orig_text, "\n    interval 1: "));
	assert_true(r->causes.nsrc >= 8);
	assert_non_null(strstr(orig_text, "histogram (bar letters"));
	assert_non_null(strstr(orig_text, "periodic at 10.0 ms"));
	assert_non_null(strstr(orig_text, "a burst of 10 meets"));
	assert_non_null(strstr(orig_text, "IRQ affinity changed"));
	assert_non_null(strstr(orig_text, "What the settings explain"));
	assert_non_null(strstr(orig_text, "probe cost: 1.3 ms of BPF run time"));
	assert_non_null(strstr(orig_text, ", 7 switches untraced (the kernel's)\n"));
	assert_non_null(strstr(orig_json, "\"unseen_switches\": 7,"));
	assert_non_null(strstr(orig_text, "\nprobe set: lean (interruptions seen at their exit"));
	assert_non_null(strstr(orig_json, "\"probe_set\": \"lean\""));
	assert_non_null(strstr(orig_json, "\"probe_set_leaves_out\": \"interruptions seen"));
	/* entry/exit given (learned for the tick and the IRQ), the exit cost of CPU 1 only */
	assert_true(r->entry.k[ENTRY_TIMER].lone >= ENTRY_MIN_LONE);
	assert_true(r->causes.cls[JS_CAUSE_TIMER].entry_ns > 0);
	assert_non_null(strstr(orig_text, "VM exit cost (cpuid round trip, median/min): CPU 1 "
					  "4.21/4.01 us\n"));
	assert_non_null(strstr(orig_text, "exits of 4.2 us here), floor "));
	assert_non_null(strstr(strstr(orig_text, "exits of 4.2 us here), floor "), ", bound "));
	assert_non_null(strstr(orig_json, "\"vm_exit\": null"));
	assert_non_null(strstr(orig_json, "\\u00e9")); /* a byte >= 0x80 */
	/* a worst gap with JS_PARTS_MAX causes, the last folded (round-tripped whole) */
	assert_non_null(strstr(orig_json, "\"detail\": \"(other: 3 sources)\""));
	assert_non_null(strstr(orig_text, "+ 14 more")); /* 11 faults + the 3 folded */
	/* the tasks' cgroups: a unit's path, the root, one gone (no path) */
	assert_non_null(strstr(orig_json, "\"cgroup\": \"/system.slice/build.service\""));
	assert_non_null(strstr(orig_json, "\"cgroup\": \"/\","));
	assert_non_null(strstr(orig_json, "\"cgroup_id\": 12345,\n"));
	assert_non_null(strstr(orig_json, "\"cgroup\": \"cgroup id 12345\""));
	assert_true(orig.cpus[0].by_cgroup.nsrc >= 3);
}

/** Load the JSON: key fields equal, same text report, same JSON. */
static void test_round_trip(void **state)
{
	struct js_run run;
	char *text, *json;

	(void)state;
	if (report_load_buf(orig_json, orig_json_len, &run, err, sizeof(err)))
		fail_msg("load: %s", err);
	assert_int_equal(run.ncpus, 2);
	assert_int_equal(run.cfg.threshold_ns, 1000);
	assert_int_equal(run.cfg.narrivals, 2);
	assert_int_equal(run.cfg.burst, 10);
	assert_true(run.cfg.probes_lean);
	assert_int_equal(run.cfg.policy, 1);
	assert_int_equal(run.cfg.priority, 50);
	assert_int_equal(run.cfg.clock, TSC_CLOCK_AUTO);
	assert_int_equal(run.cfg.tsc_read, TSC_READ_LFENCE_RDTSC);
	assert_true(run.wall_ns == orig.wall_ns);
	assert_int_equal(run.ended_by, JS_END_ON_SPIKE);
	assert_true(run.interrupted);
	assert_string_equal(run.stop_why, orig.stop_why);
	assert_string_equal(run.machine.kernel, orig.machine.kernel);
	assert_true(run.probe_cost_known);
	assert_true(run.probe_unseen == orig.probe_unseen);
	assert_true(run.probe_run_ns == orig.probe_run_ns && run.probe_runs == orig.probe_runs);
	assert_int_equal(run.nprobe_progs, 2);
	assert_memory_equal(run.probe_progs, orig.probe_progs, 2 * sizeof(orig.probe_progs[0]));
	for (size_t i = 0; i < 2; i++) {
		const struct js_cpu_result *a = &orig.cpus[i], *b = &run.cpus[i];

		assert_int_equal(a->cpu, b->cpu);
		assert_true(a->gap_count == b->gap_count);
		assert_true(a->lost_ns == b->lost_ns);
		assert_true(a->steal_ns == b->steal_ns);
		assert_true(a->events == b->events);
		assert_true(a->hist.total == b->hist.total);
		assert_true(hist_value_at_percentile(&a->hist, 99.9) ==
			    hist_value_at_percentile(&b->hist, 99.9));
		assert_memory_equal(&a->cb, &b->cb, sizeof(a->cb));
		assert_memory_equal(a->causes.by_primary, b->causes.by_primary,
				    sizeof(a->causes.by_primary));
		assert_int_equal(a->causes.nsrc, b->causes.nsrc);
		assert_int_equal(a->by_cgroup.nsrc, b->by_cgroup.nsrc);
		assert_int_equal(a->top.n, b->top.n);
		assert_int_equal(a->narrivals, b->narrivals);
		assert_true(a->arrivals[1].delay.total == b->arrivals[1].delay.total);
		assert_int_equal(a->intervals.n, b->intervals.n);
		for (size_t k = 0; k < a->intervals.n; k++) {
			const struct js_interval_worst *x = &a->intervals.v[k].worst,
						       *y = &b->intervals.v[k].worst;

			assert_true(x->start_ns == y->start_ns && x->dur_ns == y->dur_ns);
			assert_int_equal(x->cause, y->cause);
			assert_string_equal(x->detail, y->detail);
		}
	}
	assert_int_equal(run.audit.n, 4);
	assert_string_equal(run.audit.checks[0].id, "isolcpus");
	assert_int_equal(run.audit.checks[1].cpu, -1);
	assert_int_equal(run.audit.nirqs, 1);
	assert_int_equal(run.deltas.nrows, 4);
	assert_string_equal(run.xcheck[1], orig.xcheck[1]); /* the byte came back */
	assert_true(run.tied);
	assert_int_equal(run.cpus[0].nties, 2);
	assert_string_equal(run.cpus[0].ties[0].check, "thp.enabled");
	assert_int_equal(run.cpus[0].ties[0].causes, 1u << JS_CAUSE_TLB | 1u << JS_CAUSE_THP);
	assert_non_null(strstr(orig_text,
			       "fix first: fix thp.enabled (check thp.enabled: WARN LOW): "
			       "recovers up to 2.0 ms of "));
	assert_string_equal(cgroups_path(run.cgroups, 7), "/system.slice/build.service");
	/* --stacks: the counters, and the stacks once each (the text and JSON compare them) */
	assert_true(run.probes_stacks && run.stack_full == 5 && run.stack_fail == 1);
	assert_int_equal(run.stacks.n, !!strstr(orig_json, "fn0_0") + !!strstr(orig_json, "fn1_0"));
	assert_non_null(strstr(orig_json, "\"stack\": ["));
	assert_non_null(strstr(orig_text, "stack of "));
	text = text_of(&run, false, NULL);
	same_text("text reports", orig_text, text);
	json = text_of(&run, true, NULL);
	same_text("JSON documents", orig_json, json);
	free(text);
	free(json);
	/* `report --by cgroup`: the loaded table by cgroup reads as the measured run's */
	run.cfg.by = orig.cfg.by = JS_BY_CGROUP;
	text = text_of(&run, false, NULL);
	json = text_of(&orig, false, NULL);
	orig.cfg.by = JS_BY_SOURCE;
	assert_non_null(strstr(text, "top cgroups (the sources naming a task"));
	assert_non_null(strstr(text, "task build.service"));
	same_text("text reports by cgroup", json, text);
	free(text);
	free(json);
	report_load_free(&run);
	report_load_free(&run); /* harmless twice */
}

/* mutated - the original JSON with the first `from` replaced by `to`, loaded: must fail
 * with want in the message */
static void load_bad(const char *from, const char *to, const char *want)
{
	char *p = strstr(orig_json, from), *buf;
	size_t fl = strlen(from), tl = strlen(to);
	struct js_run run;
	int rc;

	assert_non_null(p);
	buf = malloc(orig_json_len + tl + 1);
	memcpy(buf, orig_json, (size_t)(p - orig_json));
	memcpy(buf + (p - orig_json), to, tl);
	strcpy(buf + (p - orig_json) + tl, p + fl);
	rc = report_load_buf(buf, strlen(buf), &run, err, sizeof(err));
	if (rc != -EINVAL)
		fail_msg("%s -> %s: rc %d (%s)", from, to, rc, err);
	if (!strstr(err, want))
		fail_msg("%s -> %s: \"%s\" lacks \"%s\"", from, to, err, want);
	assert_null(run.cpus);
	assert_int_equal(run.cfg.ncpus, 0);
	free(buf);
}

static void load_text_bad(const char *text, const char *want)
{
	struct js_run run;

	assert_int_equal(report_load_buf(text, strlen(text), &run, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("\"%s\": \"%s\" lacks \"%s\"", text, err, want);
}

/** Wrong or missing keys, foreign documents: rejected with the key's path. */
static void test_rejects(void **state)
{
	(void)state;
	load_bad("\"schema_version\": 3", "\"schema_version\": 4",
		 "schema_version: 4 is not supported (this jitterscope reads 1 to 3) "
		 "(line 2, column 21)");
	load_bad("\"schema_version\": 3", "\"schema_version\": 0",
		 "schema_version: 0 is not supported");
	load_bad("\"tool\": \"jitterscope\"", "\"tool\": \"other\"", "not a jitterscope run");
	load_bad("\"gap_count\"", "\"gap_kount\"", "cpus[0].gap_count: missing");
	load_bad("\"lost_ns\": ", "\"lost_ns\": \"x\", \"l\": ",
		 "cpus[0].lost_ns: expected a number, found a string (line");
	load_bad("\"iterations\": ", "\"iterations\": -",
		 "cpus[0].iterations: expected an unsigned integer, found -123456789");
	load_bad("\"threshold_ns\"", "\"threshold\"", "params.threshold_ns: missing");
	load_bad("\"policy\": \"fifo\"", "\"policy\": \"batch\"", "params.policy: unknown value");
	load_bad("\"clock\": \"auto\"", "\"clock\": \"tsc\"", "params.clock: unknown value");
	load_bad("\"cause\": \"task\"", "\"cause\": \"gremlin\"", "unknown value \"gremlin\"");
	/* the first p9999_ns is CPU 1's gap histogram's */
	load_bad("\"p9999_ns\": ", "\"p9999_ns\": 1", "cpus[0].p9999_ns: 1");
	load_bad("\"p9999_ns\": ", "\"p9999_ns\": 1", "the file was altered");
	load_bad("\"hist_hdr_b64\": \"HISTF", "\"hist_hdr_b64\": \"HISTX",
		 "cpus[0].hist_hdr_b64: not a valid HdrHistogram");
	load_bad("\"verdict\": \"fail\"", "\"verdict\": \"maybe\"",
		 "audit.checks[0].verdict: unknown value");
	load_bad("\"lo_ns\": 1000,", "\"lo_ns\": 1001,",
		 "histogram_by_cause[0].lo_ns: 1001 is not a bucket boundary");
	load_bad("\"cpus\": [\n    {", "\"cpus\": [ 7, {", "cpus[0]: expected an object");
	load_bad("\"run_ns\": 1331000", "\"run_ns\": \"x\"",
		 "probes.cost.run_ns: expected a number, found a string");
	load_bad("\"programs\": [", "\"programs\": [ 7,",
		 "probes.cost.programs[0]: expected an object");
	load_bad("\"isolated\": \"3\"", "\"isolated\": \"3-1\"", "audit.facts.isolated: not a CPU");
	load_bad("\"offset_ns\": 0,", "\"offset_ns\": 0.5,",
		 "intervals.list[0].offset_ns: expected an unsigned integer, found 0.5");
	load_bad("\"worst\": {\n", "\"worst\": 5, \"x\": {\n",
		 "intervals.list[0].worst: expected an object, found a number");
	load_bad("\"stack\": [", "\"stack\": [ 7,", "expected a string (at most 32)");
	load_bad("\"full\": 5", "\"full\": \"5\"", "probes.stacks.full: expected a number");
	load_bad("\"ended_by\": \"on-spike\"", "\"ended_by\": \"moon\"",
		 "ended_by: unknown value \"moon\"");
	load_text_bad("", "not JSON: line 1, column 1: expected a value");
	load_text_bad("{\"a\": 1", "not JSON: line 1, column 8: expected ',' or '}'");
	load_text_bad("[1, 2]", "not a jitterscope run: the document is an array");
	load_text_bad("{\"schema_version\": 1, \"tool\": \"jitterscope\", \"audit\": {}}",
		      "written by `jitterscope check`");
	load_text_bad("{\"schema_version\": 1, \"tool\": \"jitterscope\", \"kind\": \"diff\"}",
		      "a jitterscope diff document, not a run");
	load_text_bad("{\"schema_version\": \"1\", \"tool\": \"jitterscope\"}",
		      "schema_version: expected a number, found a string");
}

/* replaced - s with every `from` replaced by `to` (malloc'ed) */
static char *replaced(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	char *out, *o;

	for (const char *p = strstr(s, from); p; p = strstr(p + fl, from))
		n++;
	out = o = malloc(strlen(s) + n * tl + 1);
	assert_non_null(out);
	for (const char *p; (p = strstr(s, from)); s = p + fl) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, to, tl);
		o += tl;
	}
	strcpy(o, s);
	return out;
}

/** A schema 1 file, with the event names schema 1 spelled otherwise, loads into today's
 * names: written again it is the schema 3 document. */
static void test_v1_names(void **state)
{
	static const char *const v1[][2] = {
		{ "\"schema_version\": 3", "\"schema_version\": 1" },
		{ "\"thermal_apic\"", "\"thermal\"" },
		{ "\"remote_send_ipi (sampler)\"", "\"remote_ipi_send (sampler)\"" },
		{ "\"remote_wrong_cpu\"", "\"reason:5\"" },
	};
	char *doc = strdup(orig_json), *json;
	struct js_run run;

	(void)state;
	for (size_t i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		char *next;

		assert_non_null(strstr(doc, v1[i][0]));
		next = replaced(doc, v1[i][0], v1[i][1]);
		free(doc);
		doc = next;
	}
	assert_null(strstr(doc, "thermal_apic"));
	if (report_load_buf(doc, strlen(doc), &run, err, sizeof(err)))
		fail_msg("load: %s", err);
	json = text_of(&run, true, NULL);
	same_text("JSON documents", orig_json, json);
	free(json);
	report_load_free(&run);
	free(doc);
}

/* cut - remove the member at p (its line, its value, its comma) from doc in place; a last
 * member takes the comma ending the one before it */
static void cut(char *doc, char *p)
{
	char *ls = p, *e = strchr(p, ':') + 2;
	bool comma;

	while (ls > doc && ls[-1] == ' ')
		ls--;
	if (*e == '{' || *e == '[') {
		int depth = 0;

		do {
			depth += (*e == '{' || *e == '[') - (*e == '}' || *e == ']');
			e++;
		} while (depth);
	} else {
		e += strcspn(e, ",\n");
	}
	comma = *e == ',';
	e += comma;
	e += *e == '\n';
	if (!comma && ls - doc >= 2 && ls[-2] == ',') {
		memmove(ls - 2, ls - 1, strlen(ls - 1) + 1);
		ls--;
		e--;
	}
	memmove(ls, e, strlen(e) + 1);
}

/* strip - remove every member named key inside the objects named in (NULL: anywhere) */
static void strip(char *doc, const char *in, const char *key)
{
	char pat[64], scope[64], *p, *s = doc, *end;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	snprintf(scope, sizeof(scope), "\"%s\": {", in ? in : "");
	while ((s = in ? strstr(s, scope) : s)) {
		end = in ? s + strlen(scope) : doc + strlen(doc);
		for (int depth = 1; in && depth; end++)
			depth += (*end == '{') - (*end == '}');
		p = strstr(s, pat);
		if (!p || p >= end) {
			if (!in)
				break;
			s = end;
			continue;
		}
		cut(doc, p);
	}
}

/** A version 2 (and 1) file written before the entry/exit and the periodicity classes
 * and the threads and marks of schema 3 (their keys removed) loads, reports without them, and compares with today's run. */
static void test_before_entry(void **state)
{
	/* and before schema 3's followed threads and marks */
	static const char *const gone[] = { "entry_ns",	  "vm_exit", "entry_exit", "follow",
					    "marks_file", "threads", "marks" };
	static const char *const period[] = { "all", "bands", "phase_ns", "min_ns" };
	char *doc = strdup(orig_json), *text, *json, *dtext = NULL;
	struct js_run run, today;
	const struct js_diff_opts o = { 0.01, 0.10 };
	struct js_diff d;
	size_t dlen = 0;
	FILE *fp;

	(void)state;
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		strip(doc, NULL, gone[i]);
	for (size_t i = 0; i < sizeof(period) / sizeof(period[0]); i++)
		strip(doc, "unexplained_periodicity", period[i]);
	assert_null(strstr(doc, "\"entry_"));
	assert_null(strstr(doc, "\"bands\""));
	for (int v = JS_SCHEMA_VERSION; v >= 1; v--) {
		/* the same document under each version this jitterscope reads */
		strstr(doc, "\"schema_version\": ")[18] = (char)('0' + v);
		if (report_load_buf(doc, strlen(doc), &run, err, sizeof(err)))
			fail_msg("version %d: load: %s", v, err);
		text = text_of(&run, false, NULL);
		assert_null(strstr(text, "VM exit cost"));
		assert_null(strstr(text, "entry/exit ("));
		assert_null(strstr(text, "periodic by duration"));
		/* the old verdict, over every unexplained gap, without a phase */
		assert_non_null(strstr(text, "unexplained gaps (primary: no event in the gap): "));
		assert_non_null(strstr(text, "; periodic at 10.0 ms (coherence "));
		assert_int_equal(run.cpus[0].causes.cls[JS_CAUSE_TIMER].entry_ns, 0);
		json = text_of(&run, true, NULL);
		assert_non_null(strstr(json, "\"vm_exit\": null"));
		assert_non_null(strstr(json, "\"phase_ns\": null"));
		/* diff: the old run against today's */
		if (report_load_buf(orig_json, orig_json_len, &today, err, sizeof(err)))
			fail_msg("load: %s", err);
		assert_int_equal(diff_compute(&d, &run, "old.json", &today, "new.json", &o), 0);
		assert_int_equal(d.ncpus, 2);
		fp = open_memstream(&dtext, &dlen);
		report_diff_text(fp, &d);
		fclose(fp);
		diff_free(&d);
		assert_non_null(strstr(dtext, "timer: time lost"));
		free(dtext);
		free(text);
		free(json);
		report_load_free(&today);
		report_load_free(&run);
	}
	free(doc);
}

/** A guest whose kernel never counted steal says so ("steal: not reported by this
 * hypervisor"), not "0 ns allocated"; machine.steal_reported round-trips; a file without it
 * (or null) shows the figure as before. */
static void test_steal_not_reported(void **state)
{
	struct js_run run, back;
	char *text, *json;

	(void)state;
	assert_non_null(strstr(orig_json, "\"steal_reported\": null"));
	assert_non_null(strstr(orig_text, "  steal           "));
	assert_null(strstr(orig_text, "not reported by this hypervisor"));
	if (report_load_buf(orig_json, orig_json_len, &run, err, sizeof(err)))
		fail_msg("load: %s", err);
	assert_int_equal(run.machine.steal, JS_STEAL_UNKNOWN);
	run.machine.steal = JS_STEAL_NONE;
	for (size_t i = 0; i < run.ncpus; i++)
		run.cpus[i].steal_ns = 0;
	text = text_of(&run, false, NULL);
	assert_non_null(strstr(text, "\n  steal           not reported by this hypervisor\n"));
	assert_null(strstr(text, "allocated to gaps"));
	free(text);
	json = text_of(&run, true, NULL);
	assert_non_null(strstr(json, "\"steal_reported\": false"));
	if (report_load_buf(json, strlen(json), &back, err, sizeof(err)))
		fail_msg("load back: %s", err);
	assert_int_equal(back.machine.steal, JS_STEAL_NONE);
	report_load_free(&back);
	free(json);
	run.machine.hypervisor = false;
	text = text_of(&run, false, NULL);
	assert_non_null(strstr(text, "\n  steal           none: not a virtual machine\n"));
	free(text);
	/* a kernel that counts steal: the figure, 0 ns included */
	run.machine.hypervisor = true;
	run.machine.steal = JS_STEAL_COUNTED;
	text = text_of(&run, false, NULL);
	assert_non_null(strstr(text, "\n  steal           0 ns allocated to gaps\n"));
	free(text);
	json = text_of(&run, true, NULL);
	assert_non_null(strstr(json, "\"steal_reported\": true"));
	free(json);
	report_load_free(&run);
}

/** NO_CRASH_CASES truncations and as many byte flips of a real document: an error or a
 * load, no crash (run under ASan for the memory side). The fuzzer fuzz_json does the same
 * from its corpus (robust_fuzz.sh); this is the quick check of every build, the aarch64
 * one under qemu-user included, with a tenth of the cases there (fx_heavy: 3,000 each
 * took 52 s). */
#define NO_CRASH_CASES 400

static void test_no_crash(void **state)
{
	size_t cases = fx_heavy(NO_CRASH_CASES);
	size_t fails = 0, loads = 0, step = orig_json_len / cases + 1;
	uint32_t s = 1;
	char *buf = malloc(orig_json_len);

	(void)state;
	for (size_t n = 0; n < orig_json_len; n += step) {
		struct js_run run;

		if (report_load_buf(orig_json, n, &run, err, sizeof(err)) == 0) {
			loads++;
			report_load_free(&run);
		} else {
			fails++;
			assert_true(err[0] != '\0');
		}
	}
	assert_true(fails > 0);
	for (size_t i = 0; i < cases; i++) {
		struct js_run run;
		size_t at;

		memcpy(buf, orig_json, orig_json_len);
		at = rnd(&s) % orig_json_len;
		buf[at] = "0123456789-\"{}[],:ntfx"[rnd(&s) % 22];
		if (report_load_buf(buf, orig_json_len, &run, err, sizeof(err)) == 0) {
			char *t = text_of(&run, false, NULL); /* whatever loads must print */

			free(t);
			report_load_free(&run);
			loads++;
		}
	}
	assert_true(loads > 0);
	free(buf);
}

/** report_load_file: unreadable files say why. */
static void test_file(void **state)
{
	struct js_run run;
	char path[] = "/tmp/test_report_load_XXXXXX";
	int fd = mkstemp(path);
	FILE *fp;

	(void)state;
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fwrite(orig_json, 1, orig_json_len, fp);
	fclose(fp);
	assert_int_equal(report_load_file(path, &run, err, sizeof(err)), 0);
	assert_int_equal(run.ncpus, 2);
	report_load_free(&run);
	unlink(path);
	assert_int_equal(report_load_file(path, &run, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot read: No such file or directory");
	assert_int_equal(report_load_file("/", &run, err, sizeof(err)), -EISDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_coverage),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_v1_names),
		cmocka_unit_test(test_before_entry),
		cmocka_unit_test(test_no_crash),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_steal_not_reported),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
