// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_answer.c - the report's first lines (answer.c): what was lost, to what, what to fix
 * first; on built runs, then on a saved run (tests/data/runs-v1/vm-preempt.json) in the text and
 * the HTML report, whose expected answer is computed here from the JSON itself.
 */
#include <linux/types.h>
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

#include "js_audit.h"
#include "js_jsonparse.h"
#include "js_output.h"
#include "js_report.h"
#include "js_report_load.h"
#include "js_util.h"
#include "fixtures.h"

#define FIXTURE "tests/data/runs-v1/vm-preempt.json"
#define TUNED612 "tests/data/sysroot/tuned-6.12"

static struct audit_check check_mk(const char *id, enum audit_verdict v, enum audit_severity s,
				   const char *hint)
{
	struct audit_check k;

	memset(&k, 0, sizeof(k));
	snprintf(k.id, sizeof(k.id), "%s", id);
	k.verdict = v;
	k.severity = s;
	k.cpu = -1;
	snprintf(k.hint, sizeof(k.hint), "%s", hint);
	return k;
}

/* the most severe problem with a hint; a failure before a warning of the same severity;
 * passes, skips and problems without a hint are never the fix */
static void test_fix_choice(void **state)
{
	struct audit_check k[] = {
		check_mk("a.pass", AUDIT_PASS, SEV_CRIT, "nothing"),
		check_mk("b.skip", AUDIT_SKIP, SEV_CRIT, "run as root"),
		check_mk("c.nohint", AUDIT_FAIL, SEV_CRIT, ""),
		check_mk("d.warn", AUDIT_WARN, SEV_HIGH, "warn fix"),
		check_mk("e.fail", AUDIT_FAIL, SEV_HIGH, "fail fix"),
		check_mk("f.fail2", AUDIT_FAIL, SEV_HIGH, "second fail fix"),
		check_mk("g.med", AUDIT_FAIL, SEV_MED, "med fix"),
	};
	struct js_audit a = { .checks = k, .n = ARRAY_SIZE(k) };

	(void)state;
	assert_string_equal(report_fix(&a)->id, "e.fail");
	a.checks = k + 5; /* f, g */
	a.n = 2;
	assert_string_equal(report_fix(&a)->id, "f.fail2");
	a.checks = k; /* a, b, c: nothing to do */
	a.n = 3;
	assert_null(report_fix(&a));
	/* a higher severity wins over a failure: a warning crit before a failure high */
	k[3].severity = SEV_CRIT;
	a.n = ARRAY_SIZE(k);
	assert_string_equal(report_fix(&a)->id, "d.warn");
}

/* fix first never recommends a parameter the command line has already: the audit of a tuned
 * 6.12 guest (tests/data/sysroot/tuned-6.12) writes no such hint, and a run an older
 * jitterscope saved with one (issue 36: "isolcpus=domain,1 keeps unbound kthreads off it"
 * on that very command line) has that check passed over for the next */
static void test_fix_not_set(void **state)
{
	static const char *const set[] = { "isolcpus=", "nohz_full=", "rcu_nocbs=", "irqaffinity=" };
	struct audit_check k[] = {
		check_mk("tasks.kthreads", AUDIT_FAIL, SEV_HIGH,
			 "isolcpus=domain,1 keeps unbound kthreads off it (or taskset them to "
			 "housekeeping)"),
		check_mk("nohz_full", AUDIT_FAIL, SEV_HIGH,
			 "boot with nohz_full=1 (needs a reliable TSC and one runnable task)"),
		check_mk("vm.stat_interval", AUDIT_FAIL, SEV_MED, "sysctl vm.stat_interval=10"),
	};
	struct js_audit old = { .checks = k, .n = ARRAY_SIZE(k) };
	const struct audit_check *fix;
	int cpus[] = { 1 };
	char w[128];

	(void)state;
	snprintf(old.f.cmdline, sizeof(old.f.cmdline),
		 "ro isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0");
	cpulist_parse("0-1", &old.f.online, NULL, 0);
	assert_string_equal(report_fix(&old)->id, "vm.stat_interval");

	assert_int_equal(audit_run(&old, cpus, 1, TUNED612), 0);
	fix = report_fix(&old);
	assert_non_null(fix);
	assert_int_equal(audit_hint_recommends_set(&old, fix->hint, w, sizeof(w)), 0);
	for (size_t i = 0; i < ARRAY_SIZE(set); i++)
		if (strstr(fix->hint, set[i]))
			fail_msg("fix first names %s: %s (%s)", set[i], fix->hint, fix->id);
	audit_free(&old);
}

/* two CPUs and a marks result: CPUs' time summed (the marks apart), top three by time */
struct built {
	struct js_run run;
	struct js_cpu_result *r;
	struct audit_check checks[2];
};

static void built_init(struct built *b, bool audited, bool problem)
{
	memset(&b->run, 0, sizeof(b->run));
	b->r = calloc(3, sizeof(*b->r));
	assert_non_null(b->r);
	b->run.cpus = b->r;
	b->run.ncpus = 3;
	b->run.probes_on = true;
	for (int i = 0; i < 3; i++) {
		b->r[i].source = i < 2 ? JS_SRC_SAMPLER : JS_SRC_MARK;
		b->r[i].cpu = 1 + 2 * i;
		b->r[i].start_ns = 1000;
		b->r[i].end_ns = 1000 + 1000000000ull; /* 1 s each */
	}
	/* CPU 1: task 60 ms, irq 30 ms, timer 10 ms; CPU 3: irq 40 ms, tlb 0 (touched only) */
	b->r[0].lost_ns = b->r[0].causes.lost_ns = 100000000;
	b->r[0].causes.cls[JS_CAUSE_TASK].total_ns = 60000000;
	b->r[0].causes.cls[JS_CAUSE_IRQ].total_ns = 30000000;
	b->r[0].causes.cls[JS_CAUSE_TIMER].total_ns = 10000000;
	b->r[1].lost_ns = b->r[1].causes.lost_ns = 50000000;
	b->r[1].causes.cls[JS_CAUSE_IRQ].total_ns = 40000000;
	b->r[1].causes.cls[JS_CAUSE_SOFTIRQ].total_ns = 10000000;
	b->r[1].causes.cls[JS_CAUSE_TLB].gaps = 5;
	/* marks: a huge "unexplained" that must not count */
	b->r[2].lost_ns = b->r[2].causes.lost_ns = 900000000;
	b->r[2].causes.cls[JS_CAUSE_UNEXPLAINED].total_ns = 900000000;
	b->run.audited = audited;
	b->checks[0] = check_mk("ok", AUDIT_PASS, SEV_HIGH, "");
	b->checks[1] = check_mk("irq.affinity", problem ? AUDIT_FAIL : AUDIT_PASS, SEV_HIGH,
				"move the IRQs");
	b->run.audit.checks = b->checks;
	b->run.audit.n = 2;
}

static void test_top_causes(void **state)
{
	struct built b;
	struct js_answer ans;
	char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];

	(void)state;
	built_init(&b, true, true);
	report_answer(&b.run, &ans);
	assert_int_equal(ans.nres, 2);
	assert_int_equal(ans.marks, 1);
	assert_true(ans.of_marks); /* with marks, the answer is theirs (test_marks_answer) */
	b.run.ncpus = 2;	   /* the CPUs alone */
	report_answer(&b.run, &ans);
	assert_int_equal(ans.lost_ns, 150000000);
	assert_int_equal(ans.measured_ns, 2000000000ull);
	assert_int_equal(ans.ntop, 3);
	assert_int_equal(ans.top[0].cause, JS_CAUSE_IRQ); /* 70 ms over both CPUs */
	assert_int_equal(ans.top[1].cause, JS_CAUSE_TASK);
	assert_true(ans.top[2].cause == JS_CAUSE_TIMER || ans.top[2].cause == JS_CAUSE_SOFTIRQ);
	assert_true(ans.top[0].share > 0.466 && ans.top[0].share < 0.467);
	assert_string_equal(ans.fix->id, "irq.affinity");
	report_answer_lines(&b.run, &ans, l);
	assert_string_equal(l[0], "2 CPUs together lost 150.0 ms of 2.00 s measured (7.5 %)");
	assert_non_null(strstr(l[1], "irq 46.7 %, task 40.0 %, "));
	assert_string_equal(l[3], "move the IRQs (check irq.affinity: FAIL HIGH)");
	/* marks alone: their causes, shares of the time in marks */
	b.run.cpus = b.r + 2;
	b.run.ncpus = 1;
	report_answer(&b.run, &ans);
	assert_int_equal(ans.nres, 0);
	assert_int_equal(ans.ntop, 1);
	assert_int_equal(ans.top[0].cause, JS_CAUSE_UNEXPLAINED);
	report_answer_lines(&b.run, &ans, l);
	assert_non_null(strstr(l[0], "marks lost up to 900.0 ms of 1.00 s (90.0 %)"));
	assert_string_equal(l[1], "unexplained 100.0 % (shares of the time in marks)");
	free(b.r);
}

/* nothing in the audit to change: the answer says what remains; no audit: says so */
static void test_no_fix(void **state)
{
	struct built b;
	struct js_answer ans;
	char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];

	(void)state;
	built_init(&b, true, false);
	b.run.ncpus = 1; /* CPU 1 alone */
	report_answer(&b.run, &ans);
	assert_null(ans.fix);
	report_answer_lines(&b.run, &ans, l);
	assert_string_equal(l[0], "CPU 1 lost 100.0 ms of 1.00 s measured (10.0 %)");
	assert_string_equal(l[1],
			    "task 60.0 %, irq 30.0 %, timer 10.0 % (shares of the time lost)");
	assert_string_equal(l[3], "no setting to fix: the remaining loss is task (60.0 %)");
	b.run.audited = false;
	report_answer(&b.run, &ans);
	report_answer_lines(&b.run, &ans, l);
	assert_non_null(strstr(l[3], "not known: the run holds no isolation audit"));
	b.run.probes_on = false;
	report_answer(&b.run, &ans);
	report_answer_lines(&b.run, &ans, l);
	assert_int_equal(ans.ntop, 0);
	assert_string_equal(l[1], "not known: the probes were off");
	free(b.r);
}

/* ---- fix first from what was measured: the ties (audit_ties) of recorded observations ---- */

/*
 * A recorded run of CPU 1 in a 2-vCPU guest, as `make run` measures it: the observations its
 * sources give (class, detail, time), the audit's findings in the audit's order (isolcpus
 * first, the most severe), tied by audit_ties() as the live run ties them.
 */
struct rec {
	const char *cause, *detail;
	uint64_t ns;
};

struct guest {
	struct js_run run;
	struct js_cpu_result r;
	struct audit_check checks[6];
	int cpus[1];
	struct audit_cpu cpu[1];
};

static void guest_init(struct guest *g, const struct rec *obs, size_t n, const char *cmdline)
{
	struct audit_observed o[16];
	uint64_t lost = 0;

	memset(g, 0, sizeof(*g));
	g->r.source = JS_SRC_SAMPLER;
	g->r.cpu = 1;
	g->r.start_ns = 1000;
	g->r.end_ns = 1000 + 10000000000ull; /* 10 s */
	for (size_t i = 0; i < n; i++) {
		int c = js_cause_from_name(obs[i].cause);

		assert_true(c >= 0);
		g->r.causes.cls[c].total_ns += obs[i].ns;
		lost += obs[i].ns;
		o[i] = (struct audit_observed){ .cpu = 1,
						.cause = obs[i].cause,
						.detail = obs[i].detail,
						.count = 2500,
						.total_ns = obs[i].ns,
						.seconds = 10 };
	}
	g->r.lost_ns = g->r.causes.lost_ns = lost;
	g->run.cpus = &g->r;
	g->run.ncpus = 1;
	g->run.probes_on = true;
	g->run.machine.hypervisor = true;
	g->run.audited = true;
	g->checks[0] = check_mk("isolcpus", AUDIT_FAIL, SEV_HIGH,
				"boot with isolcpus=managed_irq,domain,1 (or use an isolated "
				"cpuset partition)");
	g->checks[1] = check_mk("nohz_full", AUDIT_FAIL, SEV_HIGH,
				"use a kernel with CONFIG_NO_HZ_FULL=y and boot with nohz_full=1");
	g->checks[2] = check_mk("rcu_nocbs", AUDIT_FAIL, SEV_MED,
				"boot with rcu_nocbs=1 (implied by nohz_full=1)");
	g->checks[3] =
		check_mk("vm.stat_interval", AUDIT_FAIL, SEV_MED,
			 "sysctl vm.stat_interval=10 (vmstat_update kworker runs on each CPU)");
	g->checks[4] = check_mk("kernel.hypervisor", AUDIT_WARN, SEV_INFO,
				"steal time and host preemption show up as gaps no guest setting "
				"removes; pin vCPUs on the host");
	g->checks[5] = check_mk("watchdog.soft", AUDIT_PASS, SEV_MED, "");
	for (int i = 0; i < 3; i++)
		g->checks[i].cpu = 1;
	g->run.audit.checks = g->checks;
	g->run.audit.n = ARRAY_SIZE(g->checks);
	g->cpus[0] = g->cpu[0].cpu = 1;
	g->run.audit.cpus = g->cpus;
	g->run.audit.cpu = g->cpu;
	g->run.audit.ncpus = 1;
	g->run.audit.f.hz = 250;
	g->run.audit.f.hypervisor = true;
	g->run.audit.f.nohz_full_capable = 0;
	g->run.audit.f.rt_runtime_us = INT64_MIN;
	cpulist_parse("0-1", &g->run.audit.f.online, NULL, 0);
	snprintf(g->run.audit.f.cmdline, sizeof(g->run.audit.f.cmdline), "%s", cmdline);
	g->r.nties = audit_ties(&g->run.audit, o, n, g->r.ties, AUDIT_TIES_MAX);
	g->run.tied = true;
}

static void guest_answer(struct guest *g, struct js_answer *ans,
			 char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN])
{
	report_answer(&g->run, ans);
	report_answer_lines(&g->run, ans, l);
}

/* the tick dominates, nohz_full is off (a kernel without NO_HZ_FULL): fix first is the tick's
 * finding, with what it recovers, not isolcpus, the first of the most severe */
static void test_fix_tick_dominates(void **state)
{
	static const struct rec obs[] = {
		{ "timer", "local_timer", 90000000 },
		{ "unexplained", "no guest event", 40000000 },
		{ "hrtimer", "hrtimer tick_nohz_handler", 10000000 },
		{ "task", "bash:6456", 5000000 },
		{ "softirq", "TIMER", 3000000 },
		{ "softirq", "RCU", 2000000 },
	};
	struct guest g;
	struct js_answer ans;
	char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];

	(void)state;
	guest_init(&g, obs, ARRAY_SIZE(obs), "ro console=ttyS0");
	/* the ties, largest first: the tick's three sources to nohz_full */
	assert_true(g.r.nties >= 3);
	assert_string_equal(g.r.ties[0].check, "nohz_full");
	assert_int_equal(g.r.ties[0].ns, 103000000);
	assert_string_equal(g.r.ties[1].check, "isolcpus");
	assert_string_equal(g.r.ties[2].check, "rcu_nocbs");
	guest_answer(&g, &ans, l);
	assert_string_equal(ans.fix->id, "nohz_full");
	assert_int_equal(ans.fix_ns, 103000000);
	assert_string_equal(l[3], "use a kernel with CONFIG_NO_HZ_FULL=y and boot with nohz_full=1 "
				  "(check nohz_full: FAIL HIGH): recovers up to 103.0 ms of "
				  "150.0 ms lost (timer, softirq, hrtimer)");
	/* the largest share is the guest's own: no outside line */
	assert_false(ans.outside_first);
	assert_string_equal(l[2], "");
	assert_string_equal(l[1], "timer 60.0 %, unexplained 26.7 % (no guest event: the host), "
				  "hrtimer 6.7 % (shares of the time lost)");
	/* the severity rule alone would have said isolcpus */
	assert_string_equal(report_fix(&g.run.audit)->id, "isolcpus");
}

/* a finding whose remedy is in force (an older run's hint, nohz_full=1 on the command line)
 * or that is waived is never fix first, however much its causes lost */
static void test_fix_in_force(void **state)
{
	static const struct rec obs[] = {
		{ "timer", "local_timer", 90000000 },
		{ "task", "bash:6456", 30000000 },
		{ "work", "kworker/1:1:40 vmstat_update", 1000000 },
	};
	struct guest g;
	struct js_answer ans;
	char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];

	(void)state;
	guest_init(&g, obs, ARRAY_SIZE(obs), "ro isolcpus=managed_irq,domain,1 nohz_full=1");
	snprintf(g.checks[1].hint, sizeof(g.checks[1].hint),
		 "boot with nohz_full=1 (needs a reliable TSC and one runnable task)");
	guest_answer(&g, &ans, l);
	/* nohz_full (90 ms) and isolcpus (30 ms) are set: the stat interval is what is left */
	assert_string_equal(ans.fix->id, "vm.stat_interval");
	assert_int_equal(ans.fix_ns, 1000000);
	assert_null(strstr(l[3], "nohz_full="));
	assert_null(strstr(l[3], "isolcpus="));
	/* waived: not recommended either; nothing measured is left to fix */
	g.checks[3].waived = true;
	guest_answer(&g, &ans, l);
	assert_string_equal(ans.fix->id, "rcu_nocbs"); /* the most severe left, unmeasured */
	assert_int_equal(ans.fix_ns, 0);
	assert_string_equal(l[3], "no setting explains the time lost here; the audit's most "
				  "severe problem: boot with rcu_nocbs=1 (implied by "
				  "nohz_full=1) (check rcu_nocbs: FAIL MED)");
}

/* the host dominates: the unexplained share with its period, a line saying it is outside the
 * guest with the host-side advice, and fix first still the guest's most recoverable finding;
 * not for the gaps whose events were lost or evicted (their time is not known) */
static void test_host_dominates(void **state)
{
	static const struct rec obs[] = {
		{ "unexplained", "no guest event", 380000000 },
		{ "timer", "local_timer", 90000000 },
		{ "hrtimer", "hrtimer tick_nohz_handler", 10000000 },
		{ "task", "bash:6456", 8000000 },
	};
	struct js_period_result per = {
		.period_ns = 1000000, .strength = 0.93, .n = 900, .periodic = true
	};
	struct guest g;
	struct js_answer ans;
	char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];

	(void)state;
	guest_init(&g, obs, ARRAY_SIZE(obs), "ro");
	period_saved(&g.r.period.ge[0], &per);
	guest_answer(&g, &ans, l);
	assert_true(ans.outside_first);
	assert_string_equal(l[0], "CPU 1 lost 488.0 ms of 10.00 s measured (4.9 %)");
	assert_string_equal(l[1], "unexplained 77.9 % (every 1.0 ms, coherence 0.93; no guest "
				  "event: the host), timer 18.4 %, hrtimer 2.0 % (shares of the "
				  "time lost)");
	assert_non_null(strstr(l[2], "77.9 % of it is the host's (no guest event): no guest "
				     "setting removes it; ask the provider for dedicated (pinned) "
				     "vCPUs"));
	assert_string_equal(ans.fix->id, "nohz_full");
	assert_non_null(strstr(l[3], "recovers up to 100.0 ms of 488.0 ms lost (timer, hrtimer)"));
	/* not periodic: no period named */
	per.periodic = false;
	period_saved(&g.r.period.ge[0], &per);
	guest_answer(&g, &ans, l);
	assert_true(!strncmp(l[1], "unexplained 77.9 % (no guest event: the host), ", 46));
	/* other tasks' page faults shed from a full window held no time: still the host's */
	g.run.probe_evicted = g.run.probe_shed = 4096;
	guest_answer(&g, &ans, l);
	assert_true(ans.outside_first);
	assert_true(!strncmp(l[1], "unexplained 77.9 % (no guest event: the host), ", 46));
	/* events that held time evicted, but from no gap with time unexplained: still the
	 * host's (the drain flags each gap: attr.evidence_lost) */
	g.run.probe_evicted = 4096 + 16;
	guest_answer(&g, &ans, l);
	assert_true(ans.outside_first);
	assert_true(!strncmp(l[1], "unexplained 77.9 % (no guest event: the host), ", 46));
	/* ... from the gaps that hold all of it: not known, and not outside the guest */
	g.r.causes.nsrc = 1;
	g.r.causes.src[0].cause = JS_CAUSE_UNEXPLAINED;
	snprintf(g.r.causes.src[0].detail, sizeof(g.r.causes.src[0].detail), "%s",
		 CAUSES_UNKNOWN_DETAIL);
	g.r.causes.src[0].total_ns = 380000000;
	guest_answer(&g, &ans, l);
	assert_false(ans.outside_first);
	assert_string_equal(l[2], "");
	assert_true(!strncmp(l[1],
			     "unexplained 77.9 % (events evicted before their gap: not "
			     "known), timer 18.4 %",
			     77));
	/* ... from gaps that hold a quarter of it: that much not known, the rest the host's */
	g.r.causes.src[0].total_ns = 95000000;
	guest_answer(&g, &ans, l);
	assert_true(ans.outside_first);
	assert_true(!strncmp(l[1],
			     "unexplained 77.9 % (events evicted before their gap: 95.0 ms of "
			     "it not known; the rest no guest event: the host), timer 18.4 %",
			     124));
	assert_non_null(strstr(l[2], "58.4 % of it is the host's (no guest event)"));
	/* ... more than half of it: not outside the guest */
	g.r.causes.src[0].total_ns = 200000000;
	guest_answer(&g, &ans, l);
	assert_false(ans.outside_first);
	/* events lost in the kernel's ring: named so, whatever was evicted */
	g.r.causes.src[0].total_ns = 380000000;
	g.run.probe_lost = 3;
	guest_answer(&g, &ans, l);
	assert_false(ans.outside_first);
	assert_true(
		!strncmp(l[1], "unexplained 77.9 % (events lost in the kernel: not known), ", 59));
	g.r.causes.nsrc = 0;
	g.run.probe_lost = 0;
	g.run.probe_evicted = g.run.probe_shed = 0;
	/* steal is outside too */
	g.r.causes.cls[JS_CAUSE_STEAL].total_ns = g.r.causes.cls[JS_CAUSE_UNEXPLAINED].total_ns;
	g.r.causes.cls[JS_CAUSE_UNEXPLAINED].total_ns = 0;
	guest_answer(&g, &ans, l);
	assert_true(ans.outside_first);
	assert_non_null(strstr(l[2], "of it is the host's (steal"));
	/* and the host's periodic class (js_host.h) */
	g.r.causes.cls[JS_CAUSE_HOST_PERIODIC].total_ns = g.r.causes.cls[JS_CAUSE_STEAL].total_ns;
	g.r.causes.cls[JS_CAUSE_STEAL].total_ns = 0;
	guest_answer(&g, &ans, l);
	assert_true(ans.outside_first);
	assert_non_null(strstr(l[2], "of it is the host's (no guest event)"));
}

/* with marks the answer is the marks': their time and what it went to, with figures, also
 * beside a followed thread (whose own loss is small) */
static void test_marks_answer(void **state)
{
	struct js_cpu_result r[2];
	struct js_run run;
	struct js_answer ans;
	char l[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN];

	(void)state;
	memset(r, 0, sizeof(r));
	memset(&run, 0, sizeof(run));
	for (int i = 0; i < 2; i++) {
		r[i].cpu = 1;
		r[i].start_ns = 1000;
		r[i].end_ns = 1000 + 10000000000ull;
	}
	r[0].source = JS_SRC_THREAD;
	snprintf(r[0].name, sizeof(r[0].name), "app:42");
	r[0].tid = 42;
	r[0].lost_ns = r[0].causes.lost_ns = 20000000;
	r[0].causes.cls[JS_CAUSE_TASK].total_ns = 20000000;
	r[1].source = JS_SRC_MARK;
	r[1].gap_count = 120;
	r[1].lost_ns = r[1].causes.lost_ns = 480000000;
	r[1].causes.cls[JS_CAUSE_UNEXPLAINED].total_ns = 400000000;
	r[1].causes.cls[JS_CAUSE_IPI].total_ns = 80000000;
	run.cpus = r;
	run.ncpus = 2;
	run.probes_on = true;
	run.machine.hypervisor = true;
	report_answer(&run, &ans);
	report_answer_lines(&run, &ans, l);
	assert_true(ans.of_marks);
	assert_string_equal(l[0], "120 marks lost up to 480.0 ms of 10.00 s (4.8 %): a mark's "
				  "time holds the application's own work too");
	/* the marks' causes; their remainder is the application's work: not the host's */
	assert_string_equal(l[1], "unexplained 83.3 %, ipi 16.7 % (shares of the time in marks)");
	assert_string_equal(l[2], "");
	/* marks alone */
	run.cpus = r + 1;
	run.ncpus = 1;
	report_answer(&run, &ans);
	report_answer_lines(&run, &ans, l);
	assert_true(!strncmp(l[0], "120 marks lost up to 480.0 ms of 10.00 s (4.8 %)", 48));
	/* the thread alone: its own loss */
	run.cpus = r;
	report_answer(&run, &ans);
	report_answer_lines(&run, &ans, l);
	assert_string_equal(l[0], "thread app:42 lost 20.0 ms of 10.00 s measured (0.2 %)");
}

/* ---- the saved run: the expected answer from its JSON, not from the report ---- */

struct expect {
	const char *top[3]; /* the three classes with most total_ns over the CPUs */
	double share[3];    /* their % of the lost time */
	char note[3][128];  /* unexplained's: " (every 10.0 ms, coherence 0.72; ...host)" */
	char hint[256];	    /* the most severe fail/warn with a hint (fail first) */
};

static void expect_from_json(struct expect *x)
{
	static const char *const sev[] = { "info", "low", "med", "high", "crit" };
	struct jsonp_doc d;
	const struct jsonp_val *cpus, *checks;
	uint64_t by[JS_CAUSE_MAX] = { 0 }, lost = 0, most = 0;
	const struct jsonp_val *per = NULL;
	bool host;
	int rank = -1;

	memset(x, 0, sizeof(*x));
	fx_json_file(FIXTURE, &d);
	cpus = jsonp_get(d.root, "cpus");
	for (size_t i = 0; i < jsonp_len(cpus); i++) {
		const struct jsonp_val *c = jsonp_at(cpus, i), *cl = jsonp_get(c, "by_class");
		uint64_t v;

		assert_int_equal(jsonp_u64(jsonp_get(c, "lost_ns"), &v), 0);
		lost += v;
		for (size_t k = 0; k < jsonp_len(cl); k++) {
			const struct jsonp_member *m = jsonp_member_at(cl, k);
			int cause = js_cause_from_name(m->key);

			assert_true(cause >= 0);
			assert_int_equal(jsonp_u64(jsonp_get(&m->val, "total_ns"), &v), 0);
			by[cause] += v;
			if (cause == JS_CAUSE_UNEXPLAINED && v > most) {
				most = v;
				per = jsonp_get(c, "unexplained_periodicity");
			}
		}
	}
	/* the unexplained share: its period when periodic, and in a guest the host's */
	host = jsonp_get(jsonp_get(d.root, "machine"), "vm")->b ||
	       jsonp_get(jsonp_get(jsonp_get(d.root, "audit"), "facts"), "hypervisor")->b;
	for (int t = 0; t < 3; t++) {
		int best = -1;

		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (by[c] && (best < 0 || by[c] > by[best]))
				best = c;
		assert_true(best >= 0);
		x->top[t] = js_cause_name(best);
		x->share[t] = 100.0 * (double)by[best] / (double)lost;
		if (best == JS_CAUSE_UNEXPLAINED && per && jsonp_get(per, "periodic")->b) {
			uint64_t ns;
			char a[32];

			assert_int_equal(jsonp_u64(jsonp_get(per, "period_ns"), &ns), 0);
			snprintf(x->note[t], sizeof(x->note[t]), " (every %s, coherence %.2f%s)",
				 js_fmt_ns(a, sizeof(a), ns), jsonp_get(per, "strength")->num.d,
				 host ? "; no guest event: the host" : "");
		} else if (best == JS_CAUSE_UNEXPLAINED && host) {
			snprintf(x->note[t], sizeof(x->note[t]), " (no guest event: the host)");
		}
		by[best] = 0;
	}
	checks = jsonp_get(jsonp_get(d.root, "audit"), "checks");
	for (size_t i = 0; i < jsonp_len(checks); i++) {
		const struct jsonp_val *k = jsonp_at(checks, i);
		const char *v = jsonp_str(jsonp_get(k, "verdict"));
		const char *s = jsonp_str(jsonp_get(k, "severity"));
		const char *h = jsonp_str(jsonp_get(k, "hint"));
		int r = -1;

		for (int j = 0; j < 5; j++)
			if (!strcmp(s, sev[j]))
				r = j * 2 + !strcmp(v, "fail");
		if ((!strcmp(v, "fail") || !strcmp(v, "warn")) && h && *h && r > rank) {
			rank = r;
			snprintf(x->hint, sizeof(x->hint), "%s", h);
		}
	}
	assert_true(x->hint[0]);
	jsonp_free(&d);
}

static __attribute__((noinline)) char *text_of(const struct js_run *run)
{
	char *buf = NULL;
	size_t l = 0;
	FILE *fp = open_memstream(&buf, &l);

	assert_non_null(fp);
	report_text(fp, run);
	fclose(fp);
	return buf;
}

static void test_saved_run_text(void **state)
{
	struct js_run run;
	struct expect x;
	char err[256], want[512], *text, *lines[5], *save = NULL;

	(void)state;
	expect_from_json(&x);
	assert_int_equal(report_load_file(FIXTURE, &run, err, sizeof(err)), 0);
	text = text_of(&run);
	lines[0] = strtok_r(text, "\n", &save);
	for (int i = 1; i < 5; i++)
		lines[i] = strtok_r(NULL, "\n", &save);
	/* the title, then the answer */
	assert_true(!strncmp(lines[0], "jitterscope ", 12));
	assert_true(!strncmp(lines[1], "answer:      CPU 1 lost ", 24));
	snprintf(want, sizeof(want), "  lost to:   %s %.1f %%%s, %s %.1f %%%s, %s %.1f %%%s ",
		 x.top[0], x.share[0], x.note[0], x.top[1], x.share[1], x.note[1], x.top[2],
		 x.share[2], x.note[2]);
	if (strncmp(lines[2], want, strlen(want)))
		fail_msg("line 3 \"%s\", wanted \"%s...\"", lines[2], want);
	assert_true(!strncmp(lines[3], "  fix first: ", 13));
	assert_non_null(strstr(lines[3], x.hint));
	assert_true(!strncmp(lines[4], "machine: ", 9));
	free(text);
	report_load_free(&run);
}

static void test_saved_run_html(void **state)
{
	struct js_output out;
	struct js_run run;
	struct expect x;
	char err[256], path[] = "/tmp/js-test-answer-XXXXXX", want[512], *page, *at;
	int fd;
	FILE *fp;
	long len;

	(void)state;
	expect_from_json(&x);
	assert_int_equal(report_load_file(FIXTURE, &run, err, sizeof(err)), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	memset(&out, 0, sizeof(out));
	assert_int_equal(out_html_new(&out, path, NULL), 0);
	assert_int_equal(out.finish(out.ctx, &run), 0);
	out.destroy(out.ctx);
	fp = fopen(path, "r");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	page = calloc(1, (size_t)len + 1);
	assert_non_null(page);
	assert_int_equal(fread(page, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	unlink(path);
	/* the answer comes right under the title, before the facts */
	at = strstr(page, "<h1>jitterscope report</h1>\n<section id=\"answer\">");
	assert_non_null(at);
	assert_true(at < strstr(page, "<th>host</th>"));
	snprintf(want, sizeof(want),
		 "<th>lost to</th><td>%s %.1f %%%s, %s %.1f %%%s, %s %.1f %%%s ", x.top[0],
		 x.share[0], x.note[0], x.top[1], x.share[1], x.note[1], x.top[2], x.share[2],
		 x.note[2]);
	if (!strstr(at, want))
		fail_msg("no \"%s\" in the HTML answer", want);
	assert_non_null(strstr(at, "<th>fix first</th><td>"));
	assert_true(strstr(at, "<th>answer</th><td>CPU 1 lost ") < strstr(page, "<th>host</th>"));
	free(page);
	report_load_free(&run);
}

/* the saved run's histogram: every letter drawn is in the legend, with its own class; the
 * top sources do not repeat a class; the loop period names its passes */
static void test_saved_run_details(void **state)
{
	struct js_run run;
	char err[256], *text, *legend, *line, *save = NULL;
	const char *at;
	int bars = 0;

	(void)state;
	assert_int_equal(report_load_file(FIXTURE, &run, err, sizeof(err)), 0);
	text = text_of(&run);
	assert_null(strstr(text, "hrtimer hrtimer"));
	assert_non_null(strstr(text, "    hrtimer tick_nohz_handler "));
	assert_non_null(strstr(text, "loop period     mean 16.7 ns while measuring (the detection "
				     "floor); calibration pass: min 17.4 ns, median 20.0 ns"));
	at = strstr(text, "\n    legend: ");
	assert_non_null(at);
	legend = strndup(at + 13, strcspn(at + 1, "\n") - 12);
	assert_non_null(legend);
	/* the unexplained counts agree: in gaps = the two sources' gaps, its primary gaps the
	 * "no guest event" ones (84 each: steal took none of them) */
	assert_non_null(strstr(text, "\n    unexplained                                    276  "
				     "      84 "));
	assert_non_null(strstr(text, "    unexplained gaps (primary: no event in the gap): 84; "));
	assert_non_null(strstr(text, "    unexplained outside event windows              192 "));
	assert_non_null(strstr(text, "    unexplained no guest event                      84 "));

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *bar = strchr(line, '|');

		if (!bar || !strstr(line, " us ") || !strchr(bar + 1, '|'))
			continue;
		bars++;
		for (char *c = bar + 1; *c != '|'; c++) {
			char item[40];
			int cls = -1;

			if (*c == ' ')
				continue;
			/* the letter is one class's, and the legend names that class */
			for (int k = 0; k < JS_CAUSE_MAX; k++)
				if (js_cause_info((uint32_t)k)->letter == *c) {
					assert_int_equal(cls, -1);
					cls = k;
				}
			assert_true(cls >= 0);
			snprintf(item, sizeof(item), "%c %s", *c, js_cause_name(cls));
			if (!strstr(legend, item))
				fail_msg("bar letter '%c' not in the legend \"%s\"", *c, legend);
		}
	}
	assert_true(bars >= 6);
	assert_non_null(strstr(legend, ". unexplained"));
	assert_non_null(strstr(legend, "t task"));
	assert_non_null(strstr(legend, "T timer"));
	assert_non_null(strstr(legend, "p ipi"));
	free(legend);
	free(text);
	report_load_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fix_choice),	  cmocka_unit_test(test_fix_not_set),
		cmocka_unit_test(test_top_causes),	  cmocka_unit_test(test_no_fix),
		cmocka_unit_test(test_saved_run_text),	  cmocka_unit_test(test_saved_run_html),
		cmocka_unit_test(test_saved_run_details), cmocka_unit_test(test_fix_tick_dominates),
		cmocka_unit_test(test_fix_in_force),	  cmocka_unit_test(test_host_dominates),
		cmocka_unit_test(test_marks_answer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
