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

#endif /* JS_GUEST_H */
