// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cpu_x86.c - the x86-64 CPU's facts (js_tsc.h tsc_caps_arch): libcpuid's brand string,
 * vendor and invariant-TSC bit (CPUID 0x80000007 EDX[8]). */
#include <libcpuid/libcpuid.h>

#include "js_tsc.h"
#include "js_util.h"

void tsc_caps_arch(struct tsc_caps *c, const char *cpuinfo)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	(void)cpuinfo;
	if (cpuid_present() && cpuid_get_raw_data(&raw) == 0 && cpu_identify(&raw, &id) == 0) {
		c->invariant_cpuid = id.flags[CPU_FEATURE_CONSTANT_TSC] != 0;
		js_scpy(c->model, sizeof(c->model), id.brand_str);
		js_scpy(c->vendor, sizeof(c->vendor), id.vendor_str);
	}
}
