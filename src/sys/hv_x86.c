// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* hv_x86.c - the hypervisor's CPUID leaves (js_hv.h): 0x40000000's signature, KVM's feature
 * and hint bits (Documentation/virt/kvm/x86/cpuid.rst), Hyper-V's privileges; kvmclock. */
#include <cpuid.h>
#include <string.h>

#include "js_hv.h"
#include "js_sysfs.h"

void sys_hv_read(struct js_hv *h)
{
	unsigned int a, b, c, d, max;

	memset(h, 0, sizeof(*h));
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31))) /* no hypervisor */
		return;
	h->cpuid = true;
	__cpuid(0x40000000, max, b, c, d);
	memcpy(h->sig, &b, 4);
	memcpy(h->sig + 4, &c, 4);
	memcpy(h->sig + 8, &d, 4);
	h->sig[12] = '\0';
	if (!strcmp(h->sig, "KVMKVMKVM")) {
		h->kvm = true;
		__cpuid(0x40000001, a, b, c, d);
		h->steal_time = a & (1u << 5); /* KVM_FEATURE_STEAL_TIME */
		h->hints_realtime = d & 1u;    /* KVM_HINTS_REALTIME */
	} else if (!strcmp(h->sig, "Microsoft Hv") && max >= 0x40000003) {
		__cpuid(0x40000003, a, b, c, d);
		h->vp_runtime = a & 1u; /* HV_MSR_VP_RUNTIME_AVAILABLE */
	}
}

bool sys_hv_kvm_steal(void)
{
	struct js_hv h;

	sys_hv_read(&h);
	return h.kvm && h.steal_time;
}

int sys_hv_kvmclock(void)
{
	char buf[256], *w, *save = NULL;
	int err = sysfs_read_str("/sys/devices/system/clocksource/clocksource0/"
				 "available_clocksource",
				 buf, sizeof(buf));

	if (err < 0)
		return err;
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!strcmp(w, "kvm-clock"))
			return 1;
	return 0;
}
