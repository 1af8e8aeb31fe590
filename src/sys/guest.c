// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * guest.c - a virtual machine told by /sys/hypervisor, the device tree or DMI (js_guest.h):
 * what arm64 has in place of x86's CPUID hypervisor bit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "js_guest.h"
#include "js_sysfs.h"
#include "js_util.h"

/* dt_strings - the device-tree property at path (a list of NUL-terminated strings) holds
 * s; all: its first string into first[flen] ("" if none) */
static bool dt_strings(const char *path, const char *s, char *first, size_t flen)
{
	char buf[512];
	ssize_t n = sysfs_read_buf(path, buf, sizeof(buf));

	if (first)
		js_scpy(first, flen, n > 0 ? buf : "");
	for (ssize_t i = 0; s && i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (!strcmp(buf + i, s))
			return true;
	return false;
}

/* the firmware's DMI names of virtual machines: in sys_vendor, or in product_name (Hyper-V
 * and Azure: "Virtual Machine"; KVM on some distributions: "KVM") */
static const char *const vm_vendors[] = { "QEMU",      "Xen",	 "VMware",   "innotek",
					  "Parallels", "Google", "OpenStack" };
static const char *const vm_products[] = { "KVM", "HVM domU", "VirtualBox", "Virtual Machine",
					   "OpenStack" };

static bool holds_one(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(s, list[i]))
			return true;
	return false;
}

/* dmi_guest - the DMI names say a virtual machine: why "DMI VENDOR / PRODUCT" */
static bool dmi_guest(char *why, size_t len)
{
	char vendor[64] = "", product[64] = "";
	bool vm;
	int rv = sysfs_read_str("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	int rp = sysfs_read_str("/sys/class/dmi/id/product_name", product, sizeof(product));

	if (rv && rp) /* no DMI (a device tree's machine, no firmware tables) */
		return false;
	if (!strcmp(vendor, "Amazon EC2")) /* but its .metal instances */
		vm = !strstr(product, ".metal");
	else
		vm = holds_one(vendor, vm_vendors, ARRAY_SIZE(vm_vendors)) ||
		     holds_one(product, vm_products, ARRAY_SIZE(vm_products));
	if (vm)
		snprintf(why, len, "DMI %s / %s", vendor[0] ? vendor : "?",
			 product[0] ? product : "?");
	return vm;
}

bool sys_guest(char *why, size_t len)
{
	char s[64] = "";

	js_scpy(why, len, "");
	if (!sysfs_read_str("/sys/hypervisor/type", s, sizeof(s)) && s[0]) {
		snprintf(why, len, "/sys/hypervisor/type %s", s);
		return true;
	}
	if (sysfs_exists("/proc/device-tree/hypervisor")) {
		dt_strings("/proc/device-tree/hypervisor/compatible", NULL, s, sizeof(s));
		snprintf(why, len, "device tree node /hypervisor%s%s%s", s[0] ? " (" : "", s,
			 s[0] ? ")" : "");
		return true;
	}
	if (dt_strings("/proc/device-tree/compatible", "linux,dummy-virt", NULL, 0)) {
		snprintf(why, len, "device tree compatible linux,dummy-virt");
		return true;
	}
	return dmi_guest(why, len);
}

/* sys_steal_ticks - /proc/stat's first line: "cpu user nice system idle iowait irq softirq
 * steal ..." */
int sys_steal_ticks(uint64_t *ticks)
{
	char buf[512];
	unsigned long long v[8];
	ssize_t n = sysfs_read_buf("/proc/stat", buf, sizeof(buf)); /* its first line */

	if (n < 0)
		return (int)n;
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) != 8)
		return -EINVAL;
	*ticks = v[7];
	return 0;
}
