// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* probes_arm64.c - the arm64 side of the probes (js_probes_arch.h): x86's APIC-vector and
 * exception tracepoints are not loaded, nor ipi_raise where ipi_send_cpumask (Linux 6.6)
 * records the same IPIs; no KVM steal clock is read (arm64's, PV_TIME_ST, has another
 * layout: steal stays unknown, the host's time unexplained). */
#include <string.h>

#include "js_kbtf.h"
#include "js_probes_arch.h"
#include "js_util.h"

/* x86's: the APIC vectors' entries and exits, and the exceptions */
static const char *const x86_only[] = {
	"local_timer",	 "reschedule",	    "call_function",	 "call_function_single",
	"irq_work",	 "thermal_apic",    "x86_platform_ipi",	 "error_apic",
	"spurious_apic", "page_fault_user", "page_fault_kernel",
};

bool probes_arch_skip(const struct btf *btf, const char *tp)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_only); i++) {
		size_t n = strlen(x86_only[i]);

		if (!strncmp(tp, x86_only[i], n) &&
		    (!tp[n] || !strcmp(tp + n, "_entry") || !strcmp(tp + n, "_exit")))
			return true;
	}
	return !strcmp(tp, "ipi_raise") && kbtf_has_tp(btf, "ipi_send_cpumask");
}

bool probes_arch_kvm_steal(void)
{
	return false;
}

bool probes_arch_kvmclock(void)
{
	return false;
}
