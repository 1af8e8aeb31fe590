// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_probes_arch.c - which programs the arch leaves out (js_probes_arch.h), against kernel
 * BTF fixtures made here: one with ipi_send_cpumask (Linux 6.6 on), one with ipi_raise only.
 * On x86 arm64's IPI tracepoints are left out whatever the kernel; on arm64 x86's APIC
 * vectors and exceptions are, and ipi_raise only where ipi_send_cpumask records the same
 * IPIs (both attached would count each IPI twice). make check-arm64 runs the arm64 build of
 * it under qemu-user. No root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <bpf/btf.h>

#include "js_probes_arch.h"

/* kernel_btf - a kernel's BTF holding the tracepoint types btf_trace_TP of tps (NULL ends) */
static struct btf *kernel_btf(const char *const *tps)
{
	struct btf *b = btf__new_empty();
	int i32;

	assert_non_null(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	assert_true(i32 > 0);
	for (; *tps; tps++) {
		char name[96];

		snprintf(name, sizeof(name), "btf_trace_%s", *tps);
		assert_true(btf__add_typedef(b, name, i32) > 0);
	}
	return b;
}

static const char *const with_cpumask[] = { "ipi_raise", "ipi_send_cpu", "ipi_send_cpumask",
					    "ipi_entry", "ipi_exit",	 "irq_handler_entry",
					    NULL };
static const char *const raise_only[] = { "ipi_raise", "ipi_entry", "ipi_exit", "irq_handler_entry",
					  NULL };

/** ipi_raise: left out where ipi_send_cpumask records the same IPIs (arm64, 6.6 on), kept
 * before it; on x86 arm64's IPI tracepoints are left out on either kernel. */
static void test_ipi_raise(void **st)
{
	struct btf *new = kernel_btf(with_cpumask), *old = kernel_btf(raise_only);

	(void)st;
#if defined(__aarch64__)
	assert_true(probes_arch_skip(new, "ipi_raise"));
	assert_false(probes_arch_skip(old, "ipi_raise"));
	assert_false(probes_arch_skip(new, "ipi_send_cpumask"));
	assert_false(probes_arch_skip(new, "ipi_entry"));
	assert_false(probes_arch_skip(old, "ipi_exit"));
#else
	assert_true(probes_arch_skip(new, "ipi_raise"));
	assert_true(probes_arch_skip(old, "ipi_raise"));
	assert_true(probes_arch_skip(new, "ipi_entry"));
	assert_true(probes_arch_skip(old, "ipi_exit"));
	assert_false(probes_arch_skip(new, "ipi_send_cpumask"));
#endif
	btf__free(new);
	btf__free(old);
}

/** The other arch's tracepoints by name, the generic ones never. */
static void test_other_arch(void **st)
{
	struct btf *b = kernel_btf(with_cpumask);
	static const char *const x86[] = { "local_timer_entry",		"local_timer_exit",
					   "reschedule_entry",		"call_function_entry",
					   "call_function_single_exit", "irq_work_entry",
					   "thermal_apic_exit",		"x86_platform_ipi_entry",
					   "error_apic_entry",		"spurious_apic_exit",
					   "page_fault_user",		"page_fault_kernel" };
	static const char *const generic[] = { "irq_handler_entry", "irq_handler_exit",
					       "softirq_entry",	    "sched_switch",
					       "sched_waking",	    "hrtimer_expire_entry" };

	(void)st;
	for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++) {
#if defined(__aarch64__)
		if (!probes_arch_skip(b, x86[i]))
			fail_msg("arm64 loads x86's %s", x86[i]);
#else
		if (probes_arch_skip(b, x86[i]))
			fail_msg("x86 leaves out its own %s", x86[i]);
#endif
	}
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (probes_arch_skip(b, generic[i]))
			fail_msg("%s left out", generic[i]);
	/* a prefix is the name with _entry or _exit, not any longer word */
	assert_false(probes_arch_skip(b, "local_timer_entry_x"));
	assert_false(probes_arch_skip(b, "reschedule_ipi"));
	btf__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipi_raise),
		cmocka_unit_test(test_other_arch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
