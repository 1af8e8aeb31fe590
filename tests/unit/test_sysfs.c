// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_sysfs.c - the /proc and /sys reader, on a scratch sysroot and on the live system. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_sysfs.h"

static int setup(void **state)
{
	if (scratch_setup(state))
		return -1;
	scratch_puts("/proc/cmdline", "quiet isolcpus=1\n");
	scratch_puts("/proc/sys/vm/stat_interval", "10\n");
	scratch_puts("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	scratch_puts("/proc/sys/kernel/bad", "12abc\n");
	scratch_puts("/proc/sys/kernel/empty", "");
	scratch_puts("/proc/sys/kernel/big", "99999999999999999999999\n");
	scratch_puts("/sys/devices/system/cpu/isolated", "\n");
	scratch_puts("/sys/devices/system/cpu/nohz_full", "(null)\n");
	scratch_puts("/sys/devices/system/cpu/online", "0-3,5\n");
	scratch_puts("/sys/devices/system/cpu/badlist", "0-x\n");
	scratch_puts("/proc/irq/default_smp_affinity", "f\n");
	scratch_puts("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	scratch_puts("/sys/kernel/mm/transparent_hugepage/defrag", "always madvise never\n");
	scratch_puts("/proc/irq/10/x", "");
	scratch_puts("/proc/irq/9/x", "");
	scratch_puts("/proc/irq/100/x", "");
	scratch_puts("/proc/irq/1a/x", "");
	return 0;
}

/** Reads come from under the root; the root is normalised. */
static void test_root(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(sysfs_set_root("/"), 0);
	assert_true(sysfs_is_live());
	assert_string_equal(sysfs_root(), "");
	snprintf(buf, sizeof(buf), "%s///", scratch_dir);
	assert_int_equal(sysfs_set_root(buf), 0);
	assert_false(sysfs_is_live());
	assert_string_equal(sysfs_root(), scratch_dir);
	assert_int_equal(sysfs_read_str("/proc/cmdline", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "quiet isolcpus=1");
	assert_true(sysfs_exists("/proc/irq/10"));
	assert_false(sysfs_exists("/proc/irq/11"));
	assert_int_equal(sysfs_path(buf, sizeof(buf), "relative"), -EINVAL);
	assert_int_equal(sysfs_path(buf, 8, "/proc/cmdline"), -ENAMETOOLONG);
}

/** Numbers: strict, signed where needed, errors distinguished. */
static void test_numbers(void **state)
{
	uint64_t u;
	int64_t s;
	int i;

	(void)state;
	sysfs_set_root(scratch_dir);
	assert_int_equal(sysfs_read_u64("/proc/sys/vm/stat_interval", &u), 0);
	assert_int_equal(u, 10);
	assert_int_equal(sysfs_read_int("/proc/sys/vm/stat_interval", &i), 0);
	assert_int_equal(i, 10);
	assert_int_equal(sysfs_read_s64("/proc/sys/kernel/sched_rt_runtime_us", &s), 0);
	assert_int_equal(s, -1);
	assert_int_equal(sysfs_read_u64("/proc/sys/kernel/sched_rt_runtime_us", &u), -EINVAL);
	assert_int_equal(sysfs_read_u64("/proc/sys/kernel/bad", &u), -EINVAL);
	assert_int_equal(sysfs_read_s64("/proc/sys/kernel/bad", &s), -EINVAL);
	assert_int_equal(sysfs_read_u64("/proc/sys/kernel/empty", &u), -ENODATA);
	assert_int_equal(sysfs_read_int("/proc/sys/kernel/empty", &i), -ENODATA);
	assert_int_equal(sysfs_read_u64("/proc/sys/kernel/big", &u), -ERANGE);
	assert_int_equal(sysfs_read_u64("/proc/sys/kernel/missing", &u), -ENOENT);
}

/** CPU lists and masks, including the kernel's "empty" spellings. */
static void test_cpus(void **state)
{
	struct js_cpuset s;
	char buf[64];

	(void)state;
	sysfs_set_root(scratch_dir);
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/online", &s), 0);
	cpulist_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,5");
	cpuset_set(&s, 7);
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/isolated", &s), 0);
	assert_true(cpuset_empty(&s));
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/nohz_full", &s), 0);
	assert_true(cpuset_empty(&s));
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/badlist", &s), -EINVAL);
	assert_int_equal(sysfs_read_cpumask("/proc/irq/default_smp_affinity", &s), 0);
	cpulist_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3");
	assert_int_equal(sysfs_read_cpumask("/proc/cmdline", &s), -EINVAL);
}

/** Choice files: the bracketed word. */
static void test_choice(void **state)
{
	char buf[32];

	(void)state;
	sysfs_set_root(scratch_dir);
	assert_int_equal(sysfs_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", buf,
					   sizeof(buf)),
			 0);
	assert_string_equal(buf, "madvise");
	assert_int_equal(sysfs_read_choice("/sys/kernel/mm/transparent_hugepage/defrag", buf,
					   sizeof(buf)),
			 -EINVAL);
	assert_int_equal(sysfs_parse_choice("a [] b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysfs_parse_choice("a [b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysfs_parse_choice("[defer+madvise] x", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "defer+madvise");
	assert_int_equal(sysfs_parse_choice("[defer+madvise] x", buf, 4), -ENAMETOOLONG);
}

/** Directory listings sort numbers numerically. */
static void test_list_dir(void **state)
{
	struct sysfs_dir d;

	(void)state;
	sysfs_set_root(scratch_dir);
	assert_int_equal(sysfs_list_dir("/proc/irq", &d), 0);
	assert_int_equal(d.n, 5);
	assert_string_equal(d.names[0], "9");
	assert_string_equal(d.names[1], "10");
	assert_string_equal(d.names[2], "100");
	assert_string_equal(d.names[3], "1a");
	assert_string_equal(d.names[4], "default_smp_affinity");
	sysfs_dir_free(&d);
	assert_int_equal(d.n, 0);
	assert_int_equal(sysfs_list_dir("/proc/nope", &d), -ENOENT);
	sysfs_dir_free(&d);
}

/** Whole files, large and gzip'd. */
static void test_whole_files(void **state)
{
	char path[512], *data, line[64];
	size_t len;
	gzFile gz;

	(void)state;
	sysfs_set_root(scratch_dir);
	snprintf(path, sizeof(path), "%s/proc/config.gz", scratch_dir);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	for (int i = 0; i < 5000; i++) {
		snprintf(line, sizeof(line), "CONFIG_X%d=y\n", i);
		gzputs(gz, line);
	}
	gzputs(gz, "CONFIG_HZ=250\n");
	gzclose(gz);
	assert_int_equal(sysfs_read_gz("/proc/config.gz", &data, &len), 0);
	assert_non_null(strstr(data, "\nCONFIG_HZ=250\n"));
	assert_int_equal(strlen(data), len);
	free(data);
	/* the same file read raw is larger than one read() and binary */
	assert_int_equal(sysfs_read_file("/proc/config.gz", &data, &len), 0);
	assert_true(len > 100);
	free(data);
	/* plain files around the first buffer's size (4095 bytes + NUL) read whole */
	for (size_t i = 0; i < 4; i++) {
		static const size_t sizes[] = { 4094, 4095, 4096, 10000 };
		char *big = malloc(sizes[i] + 1);

		assert_non_null(big);
		for (size_t k = 0; k < sizes[i]; k++)
			big[k] = 'a' + k % 26;
		big[sizes[i]] = '\0';
		scratch_puts("/proc/big", big);
		assert_int_equal(sysfs_read_file("/proc/big", &data, &len), 0);
		assert_int_equal(len, sizes[i]);
		assert_string_equal(data, big);
		free(data);
		free(big);
	}
	/* a plain-text file is not gzip */
	assert_int_equal(sysfs_read_gz("/proc/cmdline", &data, &len) == 0 ? 0 : -1, 0);
	free(data);
	assert_int_equal(sysfs_read_gz("/proc/none.gz", &data, &len), -ENOENT);
	assert_null(data);
}

/** The live system: /proc is readable through the module. */
static void test_live(void **state)
{
	char buf[64], *data;
	size_t len;
	struct js_cpuset s;

	(void)state;
	sysfs_set_root(NULL);
	assert_int_equal(sysfs_read_cpulist("/sys/devices/system/cpu/online", &s), 0);
	assert_true(cpuset_isset(&s, 0));
	assert_int_equal(sysfs_read_file("/proc/self/status", &data, &len), 0);
	assert_non_null(strstr(data, "Cpus_allowed_list:"));
	free(data);
	assert_true(sysfs_read_buf("/proc/self/stat", buf, sizeof(buf)) > 0);
	assert_true(strlen(buf) == sizeof(buf) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root),	 cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_cpus),	 cmocka_unit_test(test_choice),
		cmocka_unit_test(test_list_dir), cmocka_unit_test(test_whole_files),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests_name("sysfs", tests, setup, scratch_teardown);
}
