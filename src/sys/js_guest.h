/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_guest.h - is this machine a virtual machine, told where no CPU flag tells it: arm64
 * has no CPUID hypervisor bit (x86's cpuinfo flag "hypervisor" is read in tsc.c and the
 * audit). Read through js_sysfs.h, so a sysroot answers too.
 */
#ifndef JS_GUEST_H
#define JS_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * sys_guest - true when the machine names a hypervisor, with the evidence in why[len]
 * (e.g. "device tree compatible linux,dummy-virt"); false and why "" when nothing does.
 * In order: /sys/hypervisor/type (Xen); the device tree's /hypervisor node (Xen, a
 * hypervisor describing itself); its root compatible "linux,dummy-virt" (the generic
 * virtual machine of QEMU's virt board, crosvm, Firecracker, cloud-hypervisor booted with
 * a device tree); the firmware's DMI names (QEMU, KVM, Xen, VMware, VirtualBox, Hyper-V
 * and Azure, Google; EC2 but its .metal instances), which ACPI-booted guests have instead
 */
bool sys_guest(char *why, size_t len);

/*
 * sys_steal_ticks - the hypervisor steal the kernel has counted since boot on every CPU
 * (/proc/stat's "cpu" line, its steal column, in USER_HZ ticks): 0 when no steal clock ever
 * moved, as in a guest whose hypervisor reports none (KVM without its steal-time feature)
 * and on bare metal. 0 or -errno (-EINVAL: no such column).
 */
int sys_steal_ticks(uint64_t *ticks);

#endif /* JS_GUEST_H */
