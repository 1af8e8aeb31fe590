// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* probes_x86.c - the x86-64 side of the probes (js_probes_arch.h): arm64's IPI tracepoints
 * are not loaded; the KVM steal clock is found by CPUID (js_hv.h). */
#include <string.h>

#include "js_hv.h"
#include "js_probes_arch.h"

bool probes_arch_skip(const struct btf *btf, const char *tp)
{
	(void)btf;
	return !strcmp(tp, "ipi_entry") || !strcmp(tp, "ipi_exit") || !strcmp(tp, "ipi_raise");
}

bool probes_arch_kvm_steal(void)
{
	return sys_hv_kvm_steal();
}

bool probes_arch_kvmclock(void)
{
	return sys_hv_kvmclock() == 1;
}
