// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_cli_check.c - the options of `check` a user acts on (--waive, --waive-file,
 * --fail-on SEVERITY, --plan) and the measurement's --dma-latency: accepted forms, every
 * refusal (a usage error, exit 64, in main).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_audit.h"
#include "fixtures.h"
#include "js_params.h"

static struct js_params p;

/* parse - cli_parse of the NULL-terminated arguments into p */
#define parse(...) fx_parse(&p, __VA_ARGS__)

/** Defaults: nothing waived, today's exit rule, no plan, no PM QoS held. */
static void test_check_defaults(void **st)
{
	(void)st;
	assert_int_equal(parse("check", NULL), 0);
	assert_int_equal(p.nwaive, 0);
	assert_null(p.waive_file);
	assert_int_equal(p.audit_fail_on, -1);
	assert_false(p.plan);
	assert_int_equal(p.dma_latency_us, -1);
	assert_int_equal(parse(NULL), 0);
	assert_int_equal(p.dma_latency_us, -1);
}

/** --waive: known ids, lists, patterns, repeatable; unknown or empty ids refused. */
static void test_waive(void **st)
{
	(void)st;
	assert_int_equal(parse("check", "--waive", "sched_rt_runtime_us", "--waive",
			       "irq.36,irq.*,thp.enabled", "--waive=smt", NULL),
			 0);
	assert_int_equal(p.nwaive, 3);
	assert_string_equal(p.waive[1], "irq.36,irq.*,thp.enabled");
	assert_int_not_equal(parse("check", "--waive", "nosuchcheck", NULL), 0);
	assert_int_not_equal(parse("check", "--waive", "isolcpus,bogus", NULL), 0);
	assert_int_not_equal(parse("check", "--waive", "", NULL), 0);
	assert_int_not_equal(parse("check", "--waive", ",", NULL), 0);
	assert_int_not_equal(parse("check", "--waive", "irq.", NULL), 0);
	assert_int_not_equal(parse("check", "--waive", "irq.3x", NULL), 0);
	assert_int_not_equal(parse("check", "--waive-file", "", NULL), 0);
	assert_int_equal(parse("check", "--waive-file", "w.txt", NULL), 0);
	assert_string_equal(p.waive_file, "w.txt");
	/* check only */
	assert_int_not_equal(parse("--waive", "isolcpus", NULL), 0);
	assert_int_not_equal(parse("report", "r.json", "--waive-file", "w", NULL), 0);
	assert_int_not_equal(parse("diff", "a", "b", "--plan", NULL), 0);
}

/** --fail-on: a severity for check, "worse" for diff, neither crosses over. */
static void test_fail_on(void **st)
{
	static const char *const sev[] = { "info", "low", "med", "high", "crit" };

	(void)st;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(parse("check", "--fail-on", sev[i], NULL), 0);
		assert_int_equal(p.audit_fail_on, i);
		assert_false(p.fail_on_worse);
	}
	assert_int_not_equal(parse("check", "--fail-on", "worse", NULL), 0);
	assert_int_not_equal(parse("check", "--fail-on", "HIGH", NULL), 0);
	assert_int_not_equal(parse("check", "--fail-on", "", NULL), 0);
	assert_int_not_equal(parse("diff", "a", "b", "--fail-on", "high", NULL), 0);
	assert_int_equal(parse("diff", "a", "b", "--fail-on", "worse", NULL), 0);
	assert_int_equal(p.audit_fail_on, -1);
	assert_int_not_equal(parse("--fail-on", "high", NULL), 0);
}

/** --plan is check's; --dma-latency a measurement's, 0..2000000000 us. */
static void test_plan_dma(void **st)
{
	(void)st;
	assert_int_equal(parse("check", "--plan", "--cpu", "3", NULL), 0);
	assert_true(p.plan);
	assert_int_not_equal(parse("--plan", NULL), 0);
	assert_int_not_equal(parse("check", "--plan", "--json", "a.json", NULL), 0);
	assert_int_equal(parse("--dma-latency", "0", NULL), 0);
	assert_int_equal(p.dma_latency_us, 0);
	assert_int_equal(parse("--dma-latency", "2000000000", NULL), 0);
	assert_int_equal(p.dma_latency_us, 2000000000);
	assert_int_equal(parse("--pid", "1", "--dma-latency", "10", NULL), 0);
	assert_int_equal(p.dma_latency_us, 10);
	assert_int_not_equal(parse("--dma-latency", "-1", NULL), 0);
	assert_int_not_equal(parse("--dma-latency", "2000000001", NULL), 0);
	assert_int_not_equal(parse("--dma-latency", "10us", NULL), 0);
	assert_int_not_equal(parse("--dma-latency", "", NULL), 0);
	assert_int_not_equal(parse("check", "--dma-latency", "0", NULL), 0);
	assert_int_not_equal(parse("report", "r.json", "--dma-latency", "0", NULL), 0);
}

/** --deepest-idle-state N: a measurement's, N 0..1000; negative, not a number: refused. */
static void test_deepest_idle(void **st)
{
	(void)st;
	assert_int_equal(parse(NULL), 0);
	assert_false(p.cfg.idle_limit);
	assert_int_equal(parse("--cpu", "1", "--deepest-idle-state", "0", NULL), 0);
	assert_true(p.cfg.idle_limit);
	assert_int_equal(p.cfg.deepest_idle_state, 0);
	assert_int_equal(parse("--pid", "1", "--deepest-idle-state", "2", NULL), 0);
	assert_int_equal(p.cfg.deepest_idle_state, 2);
	assert_int_equal(parse("--deepest-idle-state", "1000", NULL), 0);
	assert_int_not_equal(parse("--deepest-idle-state", "-1", NULL), 0);
	assert_int_not_equal(parse("--deepest-idle-state", "1001", NULL), 0);
	assert_int_not_equal(parse("--deepest-idle-state", "C1", NULL), 0);
	assert_int_not_equal(parse("--deepest-idle-state", "", NULL), 0);
	assert_int_not_equal(parse("check", "--deepest-idle-state", "0", NULL), 0);
	assert_int_not_equal(parse("report", "r.json", "--deepest-idle-state", "0", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_defaults), cmocka_unit_test(test_waive),
		cmocka_unit_test(test_fail_on),	       cmocka_unit_test(test_plan_dma),
		cmocka_unit_test(test_deepest_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
