// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* vmexit_x86.c - the cost of one VM exit by timed cpuid round trips (see js_vmexit.h). */
#include <cpuid.h>
#include <string.h>

#include "js_tsc.h"
#include "js_vmexit.h"

/* vmexit_guest - the hypervisor bit of cpuid leaf 1 */
bool vmexit_guest(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	return c & (1u << 31);
}

/* vmexit_measure - cpuid round trips on the calling thread, in a guest only */
void vmexit_measure(struct js_vmexit *out, enum tsc_read rd)
{
	uint32_t c[VMEXIT_SAMPLES];
	unsigned int a, b, cx, d;
	uint64_t t0, t1, end;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!vmexit_guest())
		return;
	__cpuid(0, a, b, cx, d); /* the first exit may take a cold path */
	end = js_tsc_read(rd) + VMEXIT_BUDGET_CYCLES;
	while (n < VMEXIT_SAMPLES) {
		t0 = js_tsc_read(rd);
		__cpuid(0, a, b, cx, d);
		t1 = js_tsc_read(rd);
		c[n++] = t1 - t0 > UINT32_MAX ? UINT32_MAX : (uint32_t)(t1 - t0);
		if (t1 > end)
			break;
	}
	vmexit_summarise(out, c, n);
}
