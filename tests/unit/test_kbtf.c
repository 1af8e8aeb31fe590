// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_kbtf.c - the kernel's BTF (js_kbtf.h): releases against the oldest kernel the probes
 * load on, what --btf FILE says of a file without BTF, which build loads, and where the
 * per-CPU variables the programs read are in each x86 layout (made-up types). No root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
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

/* The per-CPU layouts the x86 kernels have had: where the preempt count and the pending
 * softirqs live, beside runqueues and hrtimer_bases in .data..percpu */
enum layout {
	L_6_1,	/* __preempt_count; irq_stat.__softirq_pending */
	L_6_12, /* pcpu_hot { union { struct { ...preempt_count, ...softirq_pending } } } */
	L_6_18, /* __preempt_count; __softirq_pending */
};

#define OFF_RQ 8192   /* runqueues in .data..percpu */
#define OFF_HB 4096   /* hrtimer_bases */
#define OFF_HOT 1024  /* pcpu_hot, irq_stat, __preempt_count */
#define OFF_PEND 2048 /* __softirq_pending */

/* a per-CPU variable: its name, type and offset in .data..percpu */
struct pvar {
	const char *name;
	int type;
	__u32 off, sz;
};

/* percpu - the variables v (n), then the section that places them (btf__add_datasec_var_info
 * appends to the type added last) */
static void percpu(struct btf *b, const struct pvar *v, size_t n)
{
	int id[8];

	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++) {
		id[i] = btf__add_var(b, v[i].name, BTF_VAR_GLOBAL_ALLOCATED, v[i].type);
		assert_true(id[i] > 0);
	}
	assert_true(btf__add_datasec(b, ".data..percpu", 16384) > 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(btf__add_datasec_var_info(b, id[i], v[i].off, v[i].sz), 0);
}

/* synth - a kernel's types of layout l, as far as kbtf_wake_offs and kbtf_bh_pending read */
static struct btf *synth(enum layout l)
{
	struct btf *b = btf__new_empty();
	int u16, i32, u64, ptr, se, hb, hot, un, st, stat, rq;

	assert_non_null(b);
	u16 = btf__add_int(b, "u16", 2, 0);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u64 = btf__add_int(b, "u64", 8, 0);
	ptr = btf__add_ptr(b, u64);
	se = btf__add_struct(b, "sched_entity", 16);
	btf__add_field(b, "load", u64, 0, 0);
	btf__add_field(b, "cfs_rq", ptr, 64, 0);
	hb = btf__add_struct(b, "hrtimer_cpu_base", 8);
	btf__add_field(b, "cpu", i32, 0, 0);
	btf__add_field(b, "in_hrtirq", i32, 33, 1);
	rq = btf__add_struct(b, "rq", 8);
	btf__add_field(b, "cpu", i32, 0, 0);
	/* pcpu_hot: its members inside an anonymous struct inside an anonymous union */
	st = btf__add_struct(b, NULL, 48);
	btf__add_field(b, "current_task", ptr, 0, 0);
	btf__add_field(b, "preempt_count", i32, 64, 0);
	btf__add_field(b, "cpu_number", i32, 96, 0);
	btf__add_field(b, "softirq_pending", u16, 320, 0);
	un = btf__add_union(b, NULL, 64);
	btf__add_field(b, NULL, st, 0, 0);
	hot = btf__add_struct(b, "pcpu_hot", 64);
	btf__add_field(b, NULL, un, 0, 0);
	stat = btf__add_struct(b, NULL, 16); /* irq_cpustat_t */
	btf__add_field(b, "__softirq_pending", u16, 0, 0);
	btf__add_field(b, "__nmi_count", i32, 32, 0);
	assert_true(se > 0 && hb > 0 && rq > 0 && hot > 0 && stat > 0);
	struct pvar v[4] = { { "runqueues", rq, OFF_RQ, 8 }, { "hrtimer_bases", hb, OFF_HB, 8 } };
	size_t n = 2;

	if (l == L_6_12)
		v[n++] = (struct pvar){ "pcpu_hot", hot, OFF_HOT, 64 };
	else
		v[n++] = (struct pvar){ "__preempt_count", i32, OFF_HOT, 4 };
	if (l == L_6_1)
		v[n++] = (struct pvar){ "irq_stat", stat, OFF_HOT + 64, 16 };
	if (l == L_6_18)
		v[n++] = (struct pvar){ "__softirq_pending", u16, OFF_PEND, 2 };
	percpu(b, v, n);
	return b;
}

/* the pending softirqs and the preempt count found in each layout, relative to runqueues;
 * none in types without them */
static void test_percpu_layouts(void **state)
{
	const __s64 pend[] = { OFF_HOT + 64 - OFF_RQ, OFF_HOT + 40 - OFF_RQ, OFF_PEND - OFF_RQ };
	const __s64 pc[] = { OFF_HOT - OFF_RQ, OFF_HOT + 8 - OFF_RQ, OFF_HOT - OFF_RQ };
	struct btf *empty = btf__new_empty();
	__s64 off, pc_off, hr_off;
	__u32 mask, bit;

	(void)state;
	for (int l = L_6_1; l <= L_6_18; l++) {
		struct btf *b = synth((enum layout)l);

		assert_int_equal(kbtf_bh_pending(b, &off, &mask), 0);
		assert_int_equal(off, pend[l]);
		assert_int_equal(mask, 0xffffu);
		assert_int_equal(kbtf_wake_offs(b, &pc_off, &hr_off, &bit), 0);
		assert_int_equal(pc_off, pc[l]);
		assert_int_equal(hr_off, OFF_HB + 4 - OFF_RQ);
		assert_int_equal(bit, 1);
		btf__free(b);
	}
	assert_non_null(empty);
	assert_int_equal(kbtf_bh_pending(empty, &off, &mask), -ENOENT);
	btf__free(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_table),    cmocka_unit_test(test_release_below),
		cmocka_unit_test(test_too_old),	       cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_choice),	       cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_percpu_layouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
