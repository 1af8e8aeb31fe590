// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_smi.c - SMI counter: PMU event string parsing, the closed-counter paths, both
 * sources on a scratch sysroot (no source, no smi event, /dev/cpu/N/msr read and masked to
 * 32 bits), and live as root: the perf path opened and read through the msr PMU (with its
 * tsc event standing in for smi where smi is missing), then the real smi event.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_test.h"

#include "js_smi.h"
#include "js_sysfs.h"

#define PMU "/sys/bus/event_source/devices/msr"

static __attribute__((unused)) void put_str(const char *rel, const char *s)
{
	scratch_put(rel, s, strlen(s));
}

static __attribute__((unused)) void wipe(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys %s/dev", scratch_dir, scratch_dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sysfs_set_root(scratch_dir), 0);
}

/** Check that perf PMU event strings parse into the config value. */
static void test_parse(void **state)
{
	uint64_t c = 0;

	(void)state;
	assert_int_equal(smi_parse_event("event=0x04", &c), 0);
	assert_int_equal(c, 4);
	assert_int_equal(smi_parse_event("event=0x34,umask=0x1\n", &c), 0);
	assert_int_equal(c, 0x34);
	assert_int_equal(smi_parse_event("event=12", &c), 0);
	assert_int_equal(c, 12);
	assert_int_equal(smi_parse_event("umask=0x1", &c), -EINVAL);
	assert_int_equal(smi_parse_event("event=", &c), -EINVAL);
	assert_int_equal(smi_parse_event("event=0x4z", &c), -EINVAL);
}

/** Check that a zeroed or closed counter is refused by read and harmless to close. */
static void test_closed(void **state)
{
	struct js_smi s;
	uint64_t v = 7;

	(void)state;
	memset(&s, 0, sizeof(s));
	smi_close(&s); /* must not close fd 0 */
	assert_int_equal(s.fd, -1);
	assert_int_equal(smi_read(&s, &v), -EBADF);
	assert_int_equal(v, 7);
	smi_close(NULL);
	assert_string_equal(smi_src_name(JS_SMI_NONE), "none");
	assert_string_equal(smi_src_name(JS_SMI_PERF), "perf msr/smi");
}

#if !defined(__aarch64__) /* x86-64's counter: the msr PMU, /dev/cpu/N/msr */
/** No source, a PMU without an smi event, a malformed one: not countable, both reasons. */
static void test_no_source(void **state)
{
	struct js_smi s;
	char why[256];

	(void)state;
	wipe();
	assert_int_equal(smi_open(1, &s, why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "SMIs cannot be counted on CPU 1: no msr PMU (No such file or "
				 "directory); /dev/cpu/1/msr: No such file or directory");
	assert_int_equal(s.src, JS_SMI_NONE);
	assert_int_equal(s.fd, -1);
	put_str(PMU "/type", "9\n");
	put_str(PMU "/events/tsc", "event=0x00\n");
	assert_true(smi_open(1, &s, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, "msr PMU has no smi event; /dev/cpu/1/msr: No such file"));
	put_str(PMU "/events/smi", "umask=0x1\n");
	assert_true(smi_open(1, &s, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, "msr PMU has no smi event"));
	sysfs_set_root(NULL);
}

/** /dev/cpu/N/msr: MSR 0x34 read at its offset, 32 bits wide; too short: unreadable. */
static void test_msr_file(void **state)
{
	unsigned char msr[0x34 + 8];
	uint64_t v = 0x100000005ull, c = 0;
	struct js_smi s;
	char why[256] = "";

	(void)state;
	wipe();
	memset(msr, 0xee, sizeof(msr));
	memcpy(msr + 0x34, &v, sizeof(v));
	scratch_put("/dev/cpu/2/msr", msr, sizeof(msr));
	assert_int_equal(smi_open(2, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, JS_SMI_MSR);
	assert_int_equal(s.cpu, 2);
	assert_int_equal(smi_read(&s, &c), 0);
	assert_int_equal(c, 5); /* the upper 32 bits are not the count */
	smi_close(&s);
	assert_int_equal(s.fd, -1);
	scratch_put("/dev/cpu/2/msr", msr, 0x34 + 4);
	assert_int_equal(smi_open(2, &s, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "/dev/cpu/2/msr: MSR 0x34 unreadable"));
	sysfs_set_root(NULL);
}

/* live_pmu - the live msr PMU's type and an event string (smi, else tsc); false if none */
static bool live_pmu(char *type, size_t tlen, char *ev, size_t elen, const char **name)
{
	if (sysfs_read_str(PMU "/type", type, tlen))
		return false;
	*name = "smi";
	if (sysfs_read_str(PMU "/events/smi", ev, elen) == 0)
		return true;
	*name = "tsc";
	return sysfs_read_str(PMU "/events/tsc", ev, elen) == 0;
}

/** As root: the perf path opens the live msr PMU on CPU 0 and reads a running counter
 * (the PMU's tsc event named smi in a sysroot when the PMU has no smi event). */
static void test_live_perf_path(void **state)
{
	char type[32], ev[64], why[256] = "", line[96];
	const char *name;
	uint64_t c0 = 0, c1 = 0;
	struct js_smi s;

	(void)state;
	sysfs_set_root(NULL);
	if (geteuid()) {
		js_skip("the live perf path needs root");
	}
	if (!live_pmu(type, sizeof(type), ev, sizeof(ev), &name)) {
		js_skip("no msr PMU with an smi or tsc event");
	}
	wipe();
	snprintf(line, sizeof(line), "%s\n", type);
	put_str(PMU "/type", line);
	snprintf(line, sizeof(line), "%s\n", ev);
	put_str(PMU "/events/smi", line);
	assert_int_equal(smi_open(0, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, JS_SMI_PERF);
	assert_int_equal(smi_read(&s, &c0), 0);
	if (!strcmp(name, "tsc")) {
		usleep(1000);
		assert_int_equal(smi_read(&s, &c1), 0);
		assert_true(c1 > c0); /* the counter behind the fd runs */
	}
	smi_close(&s);
	sysfs_set_root(NULL);
}

/** As root on a machine whose msr PMU has the smi event: it opens and reads (inside a VM
 * the count stays 0). Skipped, with the reason, where the event or the driver is missing. */
static void test_live_smi(void **state)
{
	uint64_t c0 = 1, c1 = 1;
	struct js_smi s;
	char why[256] = "";

	(void)state;
	sysfs_set_root(NULL);
	if (smi_open(0, &s, why, sizeof(why))) {
		js_skip("%s", why);
	}
	assert_int_equal(smi_read(&s, &c0), 0);
	assert_int_equal(smi_read(&s, &c1), 0);
	assert_true(c1 >= c0);
	smi_close(&s);
}

#endif

#if defined(__aarch64__)
/** arm64 has no SMI counter: open says why, in one line, and read refuses. */
static void test_arm64_none(void **state)
{
	uint64_t c = 7;
	struct js_smi s;
	char why[256] = "";

	(void)state;
	assert_int_equal(smi_open(1, &s, why, sizeof(why)), -EOPNOTSUPP);
	assert_string_equal(why, "arm64 has no SMI counter (firmware time at EL3 is not counted)");
	assert_int_equal(s.src, JS_SMI_NONE);
	assert_int_equal(smi_read(&s, &c), -EBADF);
	assert_int_equal(c, 7);
	smi_close(&s);
}
#endif

int main(void)
{
#if defined(__aarch64__)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_closed),
		cmocka_unit_test(test_arm64_none),
	};
#else
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),	       cmocka_unit_test(test_closed),
		cmocka_unit_test(test_no_source),      cmocka_unit_test(test_msr_file),
		cmocka_unit_test(test_live_perf_path), cmocka_unit_test(test_live_smi),
	};
#endif

	return cmocka_run_group_tests_name("smi", tests, scratch_setup, scratch_teardown);
}
