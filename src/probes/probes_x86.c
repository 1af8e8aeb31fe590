// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* probes_x86.c - the x86-64 side of the probes (js_probes_arch.h): arm64's IPI tracepoints
 * are not loaded; the KVM steal clock is found by CPUID. */
#include <cpuid.h>
#include <string.h>

#include "js_probes_arch.h"

bool probes_arch_skip(const struct btf *btf, const char *tp)
{
	(void)btf;
	return !strcmp(tp, "ipi_entry") || !strcmp(tp, "ipi_exit") || !strcmp(tp, "ipi_raise");
}

bool probes_arch_kvm_steal(void)
{
	unsigned int a, b, c, d;
	char sig[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31))) /* no hypervisor */
		return false;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	if (strcmp(sig, "KVMKVMKVM"))
		return false;
	__cpuid(0x40000001, a, b, c, d);
	return a & (1u << 5); /* KVM_FEATURE_STEAL_TIME */
}
