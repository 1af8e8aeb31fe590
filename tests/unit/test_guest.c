// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_guest.c - a virtual machine told without a CPU flag (js_guest.h, arm64's way): by
 * /sys/hypervisor, the device tree or DMI, on scratch trees of those files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "js_guest.h"
#include "js_sysfs.h"
#include "fixtures.h"
#include "js_util.h"

#define DT_VIRT "linux,dummy-virt\0"
#define DT_PI "raspberrypi,4-model-b\0brcm,bcm2711\0"

struct file {
	const char *path; /* NULL: the end of the list */
	const char *data;
	size_t len;
};

/* F - a file holding the string literal s, its inner NULs too (a device-tree list) */
#define F(path, s)                     \
	{                              \
		path, s, sizeof(s) - 1 \
	}

static const struct {
	const char *what;
	struct file files[4];
	bool guest;
	const char *why; /* what the evidence says (a substring); NULL: "" */
} cases[] = {
	{ "QEMU's virt board, booted with a device tree (no DMI without firmware)",
	  { F("/proc/device-tree/compatible", DT_VIRT) },
	  true,
	  "device tree compatible linux,dummy-virt" },
	{ "linux,dummy-virt as the second compatible string",
	  { F("/proc/device-tree/compatible", "vendor,board\0linux,dummy-virt\0") },
	  true,
	  "linux,dummy-virt" },
	{ "a Raspberry Pi's device tree: bare metal",
	  { F("/proc/device-tree/compatible", DT_PI) },
	  false,
	  NULL },
	{ "a compatible that only begins like it",
	  { F("/proc/device-tree/compatible", "linux,dummy-virtual\0") },
	  false,
	  NULL },
	{ "Xen: /sys/hypervisor/type",
	  { F("/sys/hypervisor/type", "xen\n"), F("/proc/device-tree/compatible", DT_PI) },
	  true,
	  "/sys/hypervisor/type xen" },
	{ "an empty /sys/hypervisor (the directory every kernel has): nothing said",
	  { F("/sys/hypervisor/type", "") },
	  false,
	  NULL },
	{ "a device tree /hypervisor node",
	  { F("/proc/device-tree/hypervisor/compatible", "xen,xen-4.17\0xen,xen\0"),
	    F("/proc/device-tree/compatible", DT_PI) },
	  true,
	  "device tree node /hypervisor (xen,xen-4.17)" },
	{ "QEMU with UEFI firmware (ACPI, no device tree): DMI",
	  { F("/sys/class/dmi/id/sys_vendor", "QEMU\n"),
	    F("/sys/class/dmi/id/product_name", "KVM Virtual Machine\n") },
	  true,
	  "DMI QEMU / KVM Virtual Machine" },
	{ "Azure (Hyper-V): DMI product",
	  { F("/sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n"),
	    F("/sys/class/dmi/id/product_name", "Virtual Machine\n") },
	  true,
	  "Virtual Machine" },
	{ "EC2 Graviton instance",
	  { F("/sys/class/dmi/id/sys_vendor", "Amazon EC2\n"),
	    F("/sys/class/dmi/id/product_name", "m7g.large\n") },
	  true,
	  "DMI Amazon EC2 / m7g.large" },
	{ "EC2 .metal instance: bare metal",
	  { F("/sys/class/dmi/id/sys_vendor", "Amazon EC2\n"),
	    F("/sys/class/dmi/id/product_name", "m7g.metal\n") },
	  false,
	  NULL },
	{ "an Ampere server: bare metal",
	  { F("/sys/class/dmi/id/sys_vendor", "GIGABYTE\n"),
	    F("/sys/class/dmi/id/product_name", "R152-P31-00\n") },
	  false,
	  NULL },
	{ "nothing at all", { { NULL, NULL, 0 } }, false, NULL },
};

/** Each tree says guest or not, and the evidence is named. */
static void test_cases(void **st)
{
	char root[SCRATCH_DIR_LEN + 16], path[SYSFS_PATH_MAX], why[128];

	(void)st;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		for (const struct file *f = cases[i].files; f->path; f++) {
			snprintf(path, sizeof(path), "/c%zu%s", i, f->path);
			scratch_put(path, f->data, f->len);
		}
		snprintf(root, sizeof(root), "%s/c%zu", scratch_dir, i);
		snprintf(path, sizeof(path), "/c%zu/empty", i);
		scratch_puts(path, ""); /* the case's root exists even with no file */
		assert_int_equal(sysfs_set_root(root), 0);
		memset(why, 'x', sizeof(why));
		bool g = sys_guest(why, sizeof(why));

		if (g != cases[i].guest || (cases[i].why && !strstr(why, cases[i].why)) ||
		    (!cases[i].why && why[0]))
			fail_msg("%s: guest %d, why \"%s\"", cases[i].what, g, why);
	}
}

/** The evidence is cut to the room it is given. */
static void test_short(void **st)
{
	char why[8];

	(void)st;
	scratch_put("/proc/device-tree/compatible", DT_VIRT, sizeof(DT_VIRT) - 1);
	assert_int_equal(sysfs_set_root(scratch_dir), 0);
	assert_true(sys_guest(why, sizeof(why)));
	assert_string_equal(why, "device ");
}

/** The steal the kernel counted: /proc/stat's "cpu" line, its eighth value. */
static void test_steal_ticks(void **st)
{
	char root[SCRATCH_DIR_LEN + 16];
	uint64_t t = 7;

	(void)st;
	scratch_puts("/a/proc/stat", "cpu  1273550 380 308147 916180 3536 0 15336 0 0 0\n"
				     "cpu0 515090 178 168574 565564 1291 0 8177 0 0 0\n");
	scratch_puts("/b/proc/stat", "cpu  10 0 20 30 0 0 1 4242 0 0\n");
	scratch_puts("/c/proc/stat", "cpu  10 0 20 30 0 0 1\n"); /* before steal (2.6.11) */
	snprintf(root, sizeof(root), "%s/a", scratch_dir);
	assert_int_equal(sysfs_set_root(root), 0);
	assert_int_equal(sys_steal_ticks(&t), 0);
	assert_int_equal(t, 0);
	snprintf(root, sizeof(root), "%s/b", scratch_dir);
	assert_int_equal(sysfs_set_root(root), 0);
	assert_int_equal(sys_steal_ticks(&t), 0);
	assert_int_equal(t, 4242);
	snprintf(root, sizeof(root), "%s/c", scratch_dir);
	assert_int_equal(sysfs_set_root(root), 0);
	assert_int_equal(sys_steal_ticks(&t), -EINVAL);
	scratch_puts("/d/empty", ""); /* no /proc/stat */
	snprintf(root, sizeof(root), "%s/d", scratch_dir);
	assert_int_equal(sysfs_set_root(root), 0);
	assert_true(sys_steal_ticks(&t) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cases, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_short, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_steal_ticks, scratch_setup, scratch_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
