// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * probe_table.c - which programs each kind of interruption runs, in full and in lean
 * (js_probe_table.h).
 */
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "js_probe_table.h"
#include "js_util.h"

/*
 * Which programs each kind of interruption of a measured CPU runs (--probes). full: its entry
 * and exit (the tick also its hrtimer callbacks': four), for its start, its end and its
 * nested handlers; lean: one, at its exit (lean_exit() in bpf/probes.bpf.c: the start from the
 * interrupted gap, the hrtimer callback's name and the nested handlers' own times left out).
 * lean_learn runs in lean only until the measured CPUs have learned their steal clock
 * (probes_attach). A program in no row (scheduler, faults, TLB flushes, NMIs, IPI sends,
 * work items, THP, compaction) runs in both. docs/OBSERVER.md shows this table.
 */
static const struct probe_row {
	const char *kind;    /* the interruption */
	const char *full[4]; /* its programs in full */
	const char *lean[2]; /* ... and in lean */
} probe_table[] = {
	{ "tick (local timer)",
	  { "local_timer_entry", "local_timer_exit", "hrtimer_expire_entry",
	    "hrtimer_expire_exit" },
	  { "lean_local_timer_exit", "lean_learn" } },
	{ "device IRQ", { "irq_handler_entry", "irq_handler_exit" }, { "lean_irq_handler_exit" } },
	{ "softirq", { "softirq_entry", "softirq_exit" }, { "lean_softirq_exit" } },
	{ "reschedule IPI", { "reschedule_entry", "reschedule_exit" }, { "lean_reschedule_exit" } },
	{ "call-function IPI",
	  { "call_function_entry", "call_function_exit" },
	  { "lean_call_function_exit" } },
	{ "call-function-single IPI",
	  { "call_function_single_entry", "call_function_single_exit" },
	  { "lean_call_function_single_exit" } },
	{ "irq_work", { "irq_work_entry", "irq_work_exit" }, { "lean_irq_work_exit" } },
	{ "thermal vector",
	  { "thermal_apic_entry", "thermal_apic_exit" },
	  { "lean_thermal_apic_exit" } },
	{ "platform IPI",
	  { "x86_platform_ipi_entry", "x86_platform_ipi_exit" },
	  { "lean_x86_platform_ipi_exit" } },
	{ "error vector", { "error_apic_entry", "error_apic_exit" }, { "lean_error_apic_exit" } },
	{ "spurious vector",
	  { "spurious_apic_entry", "spurious_apic_exit" },
	  { "lean_spurious_apic_exit" } },
};

/* probe_sets - js_probe_table.h */
unsigned probe_sets(const char *fn)
{
	for (size_t i = 0; i < ARRAY_SIZE(probe_table); i++) {
		for (size_t k = 0; k < ARRAY_SIZE(probe_table[i].full); k++)
			if (probe_table[i].full[k] && !strcmp(probe_table[i].full[k], fn))
				return PROBE_SET_FULL;
		for (size_t k = 0; k < ARRAY_SIZE(probe_table[i].lean); k++)
			if (probe_table[i].lean[k] && !strcmp(probe_table[i].lean[k], fn))
				return PROBE_SET_LEAN;
	}
	return PROBE_SET_FULL | PROBE_SET_LEAN;
}

/* probe_table_check_obj - js_probe_table.h */
int probe_table_check_obj(const void *elf, size_t sz, const char *build, char *why, size_t len)
{
	struct bpf_object *obj = bpf_object__open_mem(elf, sz, NULL);
	struct bpf_program *prog;
	int err = 0;

	if (!obj) {
		snprintf(why, len, "%s: cannot open the object", build);
		return -1;
	}
	for (size_t i = 0; !err && i < ARRAY_SIZE(probe_table); i++) {
		const char *const *v[] = { probe_table[i].full, probe_table[i].lean };
		size_t n[] = { ARRAY_SIZE(probe_table[i].full), ARRAY_SIZE(probe_table[i].lean) };

		for (size_t s = 0; !err && s < 2; s++)
			for (size_t k = 0; !err && k < n[s]; k++)
				if (v[s][k] && !bpf_object__find_program_by_name(obj, v[s][k])) {
					snprintf(why, len, "%s: %s (%s) not in the object", build,
						 v[s][k], probe_table[i].kind);
					err = -1;
				}
	}
	bpf_object__for_each_program(prog, obj)
	{
		const char *fn = bpf_program__name(prog);

		if (!err && !strncmp(fn, "lean_", 5) && probe_sets(fn) != PROBE_SET_LEAN) {
			snprintf(why, len, "%s: %s not in the table's lean column", build, fn);
			err = -1;
		}
	}
	bpf_object__close(obj);
	return err;
}
