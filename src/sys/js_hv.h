/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_hv.h - what this machine's hypervisor says of itself to the guest (x86: CPUID's
 * hypervisor leaves, hv_x86.c; arm64 has none to read from user space, hv_arm64.c): the
 * signals the host classes (model/js_host.h) and `check` (hypervisor.signals) go by.
 * The live CPU only: a sysroot has no CPUID.
 */
#ifndef JS_HV_H
#define JS_HV_H

#include <stdbool.h>

struct js_hv {
	bool cpuid;	     /* the CPUID hypervisor leaves were read (x86, a hypervisor bit) */
	char sig[13];	     /* CPUID 0x40000000's signature: "KVMKVMKVM", "Microsoft Hv" ... */
	bool kvm;	     /* sig is KVM's */
	bool steal_time;     /* KVM_FEATURE_STEAL_TIME (CPUID 0x40000001 EAX bit 5) */
	bool hints_realtime; /* KVM_HINTS_REALTIME (CPUID 0x40000001 EDX bit 0): the host
	                      * promises dedicated pCPUs */
	bool vp_runtime;     /* Hyper-V: HV_MSR_VP_RUNTIME_AVAILABLE (CPUID 0x40000003 EAX
	                      * bit 0) */
};

/* sys_hv_read - the hypervisor's leaves; all false ("" sig) on bare metal and on arm64 */
void sys_hv_read(struct js_hv *h);

/* sys_hv_kvm_steal - a KVM guest with the paravirt steal clock (the probes read it) */
bool sys_hv_kvm_steal(void);

/* sys_hv_kvmclock - the kernel registered the kvm-clock clocksource (/sys/devices/system/
 * clocksource/clocksource0/available_clocksource, under the sysroot if set): every CPU has
 * its kvmclock page (hv_clock_per_cpu), whose version the host moves on each clock update,
 * whatever the CPUID signature says. 1: yes, 0: no (always on arm64), -errno: unknown */
int sys_hv_kvmclock(void);

#endif /* JS_HV_H */
