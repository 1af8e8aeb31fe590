// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* hv_arm64.c - arm64 has no hypervisor leaves user space can read (js_hv.h): its PV time
 * (SMCCC ARM_SMCCC_HV_PV_TIME_FEATURES) is the kernel's to ask; the audit tells it by the
 * steal the kernel counts. */
#include <string.h>

#include "js_hv.h"

void sys_hv_read(struct js_hv *h)
{
	memset(h, 0, sizeof(*h));
}

bool sys_hv_kvm_steal(void)
{
	return false;
}

int sys_hv_kvmclock(void)
{
	return 0;
}
