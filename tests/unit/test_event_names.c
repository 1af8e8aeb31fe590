// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_event_names.c - the name tables of the enums (events, causes, audit, sampler, TSC read):
 * every value has a name, names are unique, name -> value -> name round trips, and the
 * kernel's spellings are the ones used. Needs neither root nor BPF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>
#include <string.h>
#include <sched.h>
#include <cmocka.h>

#include "js_audit.h"
#include "js_event_names.h"
#include "js_model.h"
#include "js_sampler.h"
#include "js_tsc.h"

/* a table: values [lo, hi) named by name(), looked up by from() */
struct names {
	const char *what;
	int lo, hi;
	const char *(*name)(int v);
	int (*from)(const char *name);
};

/*
 * check_names - every value in [lo, hi) has a non-empty name, no two share one, name ->
 * value -> name round trips, and unknown names are -1
 */
static void check_names(const struct names *t)
{
	for (int v = t->lo; v < t->hi; v++) {
		const char *n = t->name(v);

		if (!n || !n[0])
			fail_msg("%s %d has no name", t->what, v);
		if (t->from(n) != v)
			fail_msg("%s \"%s\" reads back as %d, not %d", t->what, n, t->from(n), v);
		for (int w = t->lo; w < v; w++)
			if (!strcmp(n, t->name(w)))
				fail_msg("%s %d and %d are both \"%s\"", t->what, w, v, n);
	}
	assert_int_equal(t->from("no such name"), -1);
	assert_int_equal(t->from(""), -1);
	assert_int_equal(t->from(NULL), -1);
}

/* the kind whose ids check_ids() looks at */
static unsigned int id_kind;

static const char *id_name(int id)
{
	return js_ev_id_name(id_kind, (unsigned int)id);
}

static int id_from(const char *name)
{
	return js_ev_id_from_name(id_kind, name);
}

static const char *kind_name(int k)
{
	return js_ev_kind_name((unsigned int)k);
}
static const char *cause_name(int c)
{
	return js_cause_name((enum js_cause)c);
}
static const char *verdict_name(int v)
{
	return audit_verdict_name((enum audit_verdict)v);
}
static const char *severity_name(int s)
{
	return audit_severity_name((enum audit_severity)s);
}
static const char *row_kind_name(int k)
{
	return audit_row_kind_name((enum audit_row_kind)k);
}
static const char *policy_name(int p)
{
	return sampler_policy_name(p);
}
static const char *hook_name(int h)
{
	return sampler_hook_name((enum sampler_hook)h);
}
static const char *tsc_name(int r)
{
	return tsc_read_name((enum tsc_read)r);
}

/** Event kinds and the ids of each kind whose id is an enumeration. */
static void test_event_tables(void **state)
{
	static const struct {
		unsigned int kind;
		int n;
	} ids[] = {
		{ JS_EV_VECTOR, JS_VEC_MAX },	  { JS_EV_SOFTIRQ, JS_SOFTIRQ_MAX },
		{ JS_EV_TLB, JS_TLB_REASON_MAX }, { JS_EV_THP, JS_THP_MAX },
		{ JS_EV_MIGRATE, JS_MM_MAX },
	};
	const struct names kinds = { "event kind", 0, JS_EV_KIND_MAX, kind_name,
				     js_ev_kind_from_name };
	unsigned int with_ids = 0;

	(void)state;
	check_names(&kinds);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct names t = { js_ev_kind_name(ids[i].kind), 0, ids[i].n, id_name, id_from };

		id_kind = ids[i].kind;
		assert_int_equal(js_ev_id_count(id_kind), ids[i].n);
		check_names(&t);
		assert_null(js_ev_id_name(id_kind, (unsigned int)ids[i].n));
	}
	/* every other kind's id is a number (irq, pid ...): no table */
	for (unsigned int k = 0; k < JS_EV_KIND_MAX; k++)
		with_ids += js_ev_id_count(k) > 0;
	assert_int_equal(with_ids, sizeof(ids) / sizeof(ids[0]));
	assert_null(js_ev_kind_name(JS_EV_KIND_MAX));
	assert_null(js_ev_id_name(JS_EV_IRQ, 0));
	assert_int_equal(js_ev_id_from_name(JS_EV_IRQ, "local_timer"), -1);
}

/** The kernel's spellings: irq_vectors tracepoints, /proc/softirqs, enum tlb_flush_reason. */
static void test_kernel_spellings(void **state)
{
	(void)state;
	assert_string_equal(js_ev_id_name(JS_EV_VECTOR, JS_VEC_LOCAL_TIMER), "local_timer");
	assert_string_equal(js_ev_id_name(JS_EV_VECTOR, JS_VEC_THERMAL), "thermal_apic");
	assert_string_equal(js_ev_id_name(JS_EV_VECTOR, JS_VEC_PLATFORM_IPI), "x86_platform_ipi");
	assert_string_equal(js_ev_id_name(JS_EV_VECTOR, JS_VEC_ERROR), "error_apic");
	assert_string_equal(js_ev_id_name(JS_EV_VECTOR, JS_VEC_SPURIOUS), "spurious_apic");
	assert_string_equal(js_ev_id_name(JS_EV_SOFTIRQ, 3), "NET_RX");
	assert_string_equal(js_ev_id_name(JS_EV_SOFTIRQ, 9), "RCU");
	assert_null(js_ev_id_name(JS_EV_SOFTIRQ, 10));
	assert_string_equal(js_ev_id_name(JS_EV_TLB, 1), "remote_shootdown");
	assert_string_equal(js_ev_id_name(JS_EV_TLB, 4), "remote_send_ipi");
	assert_string_equal(js_ev_id_name(JS_EV_TLB, 5), "remote_wrong_cpu");
	assert_string_equal(js_ev_id_name(JS_EV_THP, JS_THP_SCAN_FILE), "khugepaged scan_file");
	assert_string_equal(js_ev_id_name(JS_EV_MIGRATE, JS_MM_COMPACT), "compaction");
	assert_string_equal(js_ev_kind_name(JS_EV_TASK), "task");
}

/** An id without a name is labelled KIND:ID. */
static void test_labels(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(js_ev_id_label(JS_EV_SOFTIRQ, 3, b, sizeof(b)), "NET_RX");
	assert_string_equal(js_ev_id_label(JS_EV_VECTOR, 12, b, sizeof(b)), "vector:12");
	assert_string_equal(js_ev_id_label(JS_EV_SOFTIRQ, 10, b, sizeof(b)), "softirq:10");
	assert_string_equal(js_ev_id_label(JS_EV_TLB, 6, b, sizeof(b)), "tlb:6");
	assert_string_equal(js_ev_id_label(JS_EV_THP, 4, b, sizeof(b)), "thp:4");
	assert_string_equal(js_ev_id_label(JS_EV_MIGRATE, 2, b, sizeof(b)), "migrate:2");
	assert_string_equal(js_ev_id_label(JS_EV_IRQ, 36, b, sizeof(b)), "irq:36");
	assert_string_equal(js_ev_id_label(99, 1, b, sizeof(b)), "event:1");
	assert_string_equal(js_ev_id_label(JS_EV_VECTOR, JS_VEC_CALL_FUNCTION_SINGLE, b, 9),
			    "call_fun");
}

/** The other enums the JSON writer and loader share. */
/* an event's function, as the causes' details and the trace both name it */
static void test_ev_fn(void **state)
{
	struct js_event e = { .kind = JS_EV_WORK, .addr = 0xffffffff81000010ull };
	char b[JS_NAME_LEN + 24];

	(void)state;
	assert_string_equal(js_ev_fn(&e, NULL, b, sizeof(b)), "0xffffffff81000010");
	assert_string_equal(js_ev_fn(&e, "", b, sizeof(b)), "0xffffffff81000010");
	memset(e.name, 'x', JS_NAME_LEN); /* the probe's name fills the field: no NUL */
	assert_int_equal(strlen(js_ev_fn(&e, NULL, b, sizeof(b))), JS_NAME_LEN);
	memcpy(e.name, "vmstat_update", 14);
	assert_string_equal(js_ev_fn(&e, NULL, b, sizeof(b)), "vmstat_update");
	assert_string_equal(js_ev_fn(&e, "vmstat_shepherd", b, sizeof(b)), "vmstat_shepherd");
	/* written by hand as snprintf writes them, cut the same to a short buffer */
	memset(e.name, 0, sizeof(e.name));
	for (uint64_t a = 0; a < 70; a += 7) {
		char want[40];

		e.addr = a * 0x0123456789abcdefull >> (a % 60);
		for (size_t len = 1; len < sizeof(want); len += 5) {
			snprintf(want, len, "0x%" PRIx64, (uint64_t)e.addr);
			assert_string_equal(js_ev_fn(&e, NULL, b, len), want);
		}
	}
	memcpy(e.name, "vmstat_update", 14);
	assert_string_equal(js_ev_fn(&e, NULL, b, 5), "vmst");
}

static void test_other_tables(void **state)
{
	const struct names t[] = {
		{ "cause", 0, JS_CAUSE_MAX, cause_name, js_cause_from_name },
		{ "verdict", 0, AUDIT_NVERDICTS, verdict_name, audit_verdict_from_name },
		{ "severity", SEV_INFO, SEV_CRIT + 1, severity_name, audit_severity_from_name },
		{ "row kind", AUDIT_ROW_IRQ, AUDIT_ROW_SOFTIRQ + 1, row_kind_name,
		  audit_row_kind_from_name },
		{ "test hook", SAMPLER_HOOK_FAULT, SAMPLER_HOOK_THP + 1, hook_name,
		  sampler_hook_from_name },
		{ "TSC read", TSC_READ_RDTSCP, TSC_READ_LFENCE_RDTSC + 1, tsc_name,
		  tsc_read_from_name },
	};
	const struct names policies = { "policy", 0, 3, policy_name, sampler_policy_from_name };

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check_names(&t[i]);
	/* policies are the kernel's SCHED_* numbers */
	check_names(&policies);
	assert_string_equal(sampler_policy_name(SCHED_OTHER), "other");
	assert_string_equal(sampler_policy_name(SCHED_FIFO), "fifo");
	assert_string_equal(sampler_policy_name(SCHED_RR), "rr");
	assert_null(sampler_policy_name(SCHED_BATCH));
	assert_null(sampler_policy_name(-1));
	assert_null(sampler_hook_name(SAMPLER_HOOK_NONE));
	assert_int_equal(sampler_hook_from_name("thp"), SAMPLER_HOOK_THP);
	assert_string_equal(tsc_read_name(TSC_READ_LFENCE_RDTSC), "lfence;rdtsc");
	assert_string_equal(js_cause_name(JS_CAUSE_MAX), "?");
	assert_string_equal(audit_verdict_name(AUDIT_NVERDICTS), "?");
	assert_string_equal(audit_row_kind_name(AUDIT_ROW_ARCH), "arch");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_tables), cmocka_unit_test(test_kernel_spellings),
		cmocka_unit_test(test_labels),	     cmocka_unit_test(test_other_tables),
		cmocka_unit_test(test_ev_fn),
	};

	return cmocka_run_group_tests_name("event and enum names", tests, NULL, NULL);
}
