// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_kbtf.c - the kernel's BTF (js_kbtf.h): releases against the oldest kernel the probes
 * load on, what --btf FILE says of a file without BTF, and which build loads. No root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_bpf_helpers.h"
#include "js_kbtf.h"
#include "js_probes.h"
#include "js_test.h"

#define SYSFS_BTF "/sys/kernel/btf/vmlinux"

/** --probes: the table of each interruption's programs in full and lean names programs both
 * builds hold, and every lean program of the object is in it. */
static void test_probe_table(void **st)
{
	char why[160] = "";

	(void)st;
	if (probes_table_check(why, sizeof(why)))
		fail_msg("%s", why);
}

/** uname -r releases against major.minor: distribution and local suffixes ignored. */
static void test_release_below(void **st)
{
	(void)st;
	assert_true(kbtf_release_below("5.4.0-150-generic", 5, 12));
	assert_true(kbtf_release_below("4.19.0", 5, 12));
	assert_true(kbtf_release_below("4.18.0-553.el8_10.x86_64", 5, 12));
	assert_true(kbtf_release_below("5.11.22-100.fc32.x86_64", 5, 12));
	assert_false(kbtf_release_below("5.12.0", 5, 12));
	assert_false(kbtf_release_below("5.15.0-91-generic", 5, 12));
	assert_false(kbtf_release_below("6.18.44-fc-v1045", 5, 12));
	assert_false(kbtf_release_below("6.2", 5, 12));
	assert_true(kbtf_release_below("6.1.0-27-amd64", 6, 2));
	assert_false(kbtf_release_below("10.0", 6, 2));
	/* a release that says nothing is not refused: the load tries */
	assert_false(kbtf_release_below("", 5, 12));
	assert_false(kbtf_release_below("linux", 5, 12));
	assert_false(kbtf_release_below("6", 5, 12));
	assert_false(kbtf_release_below(NULL, 5, 12));
}

/** Too old: one line naming the release and the oldest the probes load on; new enough: no. */
static void test_too_old(void **st)
{
	char why[256] = "";

	(void)st;
	assert_true(kbtf_too_old("5.4.0-150-generic", why, sizeof(why)));
	assert_string_equal(why, "kernel 5.4.0-150-generic is older than 5.12, the oldest the "
				 "probes load on (their rings take records with BPF's "
				 "compare-and-exchange, new in 5.12)");
	why[0] = '\0';
	assert_false(kbtf_too_old("6.18.44-fc-v1045", why, sizeof(why)));
	assert_false(kbtf_too_old("5.12.0", why, sizeof(why)));
	assert_string_equal(why, "");
}

/* open_fails - kbtf_open(path) fails, and its one line names path and says want */
static void open_fails(const char *path, const char *want)
{
	struct js_kbtf k;
	char why[256] = "";

	assert_true(kbtf_open(&k, path, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, path));
	if (!strstr(why, want))
		fail_msg("%s: '%s' does not say '%s'", path, why, want);
	assert_null(strchr(why, '\n'));
}

/** --btf FILE without BTF: one line each, saying why. */
static void test_bad_files(void **st)
{
	char junk[] = "/tmp/test_kbtf.XXXXXX";
	int fd = mkstemp(junk);

	(void)st;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not BTF at all\n", 15), 15);
	close(fd);
	open_fails("/nonexistent/vmlinux.btf", "No such file");
	open_fails(junk, "neither raw BTF nor an ELF file");
	open_fails("/proc/self/exe", "an ELF file without a .BTF section");
	unlink(junk);
}

/** A BTF file: its tracepoints known, and the raw_tp build chosen (types from --btf). The
 * kernel's own BTF: the tp_btf build where it lists bpf_rdonly_cast (6.2). */
static void test_choice(void **st)
{
	struct js_kbtf k;
	char why[256] = "";
	bool kfunc;

	(void)st;
	if (access(SYSFS_BTF, R_OK))
		js_skip("no kernel BTF (" SYSFS_BTF ") to read as a file");
	assert_int_equal(kbtf_open(&k, SYSFS_BTF, why, sizeof(why)), 0);
	assert_true(kbtf_has_tp(k.btf, "sched_switch"));
	assert_false(kbtf_has_tp(k.btf, "no_such_tracepoint"));
	assert_false(k.typed);
	assert_non_null(strstr(k.raw_why, "--btf " SYSFS_BTF));
	kbtf_free_types(&k);
	assert_null(k.btf);
	assert_int_equal(kbtf_open(&k, NULL, why, sizeof(why)), 0);
	kfunc = !strstr(k.raw_why, "bpf_rdonly_cast");
	assert_true(k.typed == kfunc);
	kbtf_free_types(&k);
}

/* the loaders' shared program helpers: pairs, exits first (js_bpf_helpers.h) */
static void test_pairs(void **state)
{
	char b[64];

	(void)state;
	assert_true(bpfh_partner("softirq_entry", 0, b, sizeof(b)));
	assert_string_equal(b, "softirq_exit");
	assert_true(bpfh_partner("workqueue_execute_start", 0, b, sizeof(b)));
	assert_string_equal(b, "workqueue_execute_end");
	/* _end has two candidates: _start, then _begin */
	assert_true(bpfh_partner("mm_compaction_end", 0, b, sizeof(b)));
	assert_string_equal(b, "mm_compaction_start");
	assert_true(bpfh_partner("mm_compaction_end", 5, b, sizeof(b)));
	assert_string_equal(b, "mm_compaction_begin");
	assert_false(bpfh_partner("sched_switch", 0, b, sizeof(b)));
	assert_string_equal(bpfh_partner_suffix(0), "_entry");
	assert_null(bpfh_partner_suffix(6));
	assert_true(bpfh_is_exit("irq_handler_exit"));
	assert_true(bpfh_is_exit("sched_process_exit"));
	assert_true(bpfh_is_exit("mm_compaction_end"));
	assert_false(bpfh_is_exit("softirq_entry"));
	assert_false(bpfh_has_suffix("exit", "_exit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_table), cmocka_unit_test(test_release_below),
		cmocka_unit_test(test_too_old),	    cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_choice),	    cmocka_unit_test(test_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
