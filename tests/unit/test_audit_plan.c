// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_plan.c - check --plan safe to paste (issue 39): on copies of the badly tuned
 * fixture with files added or removed, the plan unmerges KSM only where it runs, has no
 * step for a waived check, keeps the operator's clocksource=, tsc= and init arguments,
 * prints the steps of the boot method the tree has, and names the risks of the steps it
 * prints only. Run from the repository root (make unit does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_audit.h"
#include "js_sysfs.h"
#include "js_util.h"
#include "../../src/audit/audit_plan.h"

#define BADLY "tests/data/sysroot/badly-tuned"

static char root[64];

/* copy - a fresh copy of the badly tuned fixture in root */
static int copy(void **state)
{
	char cmd[256];

	(void)state;
	js_scpy(root, sizeof(root), "/tmp/jsplan.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a %s/. %s", BADLY, root);
	return system(cmd) ? -1 : 0;
}

static int drop(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	sysfs_set_root(NULL);
	return system(cmd) ? -1 : 0;
}

/* put - rel (a path on the box) in the copy with text (NULL: a directory) */
static void put(const char *rel, const char *text)
{
	char cmd[512], path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	if (text)
		*strrchr(cmd, '/') = '\0', strcat(cmd, "'");
	assert_int_equal(system(cmd), 0);
	if (!text)
		return;
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* rm - rel removed from the copy */
static void rm(const char *rel)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

/* plan - the plan for CPU 3 of the copy, with the checks of waive ("" none) waived */
static char *plan(const char *waive)
{
	struct audit_waivers w = { 0 };
	struct js_audit a;
	int cpu = 3;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_int_equal(audit_run(&a, &cpu, 1, root), 0);
	if (waive[0]) {
		assert_int_equal(audit_waivers_add_list(&w, waive, err, sizeof(err)), 0);
		audit_waive(&a, &w);
		audit_waivers_free(&w);
	}
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(audit_plan_print(fp, &a), 0);
	fclose(fp);
	audit_free(&a);
	return buf;
}

/* line - the plan's line that starts with prefix (a static copy), NULL if none */
static const char *line(const char *p, const char *prefix)
{
	static char out[PLAN_LINE];

	for (const char *l = p; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix))) {
			snprintf(out, sizeof(out), "%.*s", (int)strcspn(l, "\n"), l);
			return out;
		}
	return NULL;
}

/* has - the plan holds text (anywhere) */
static bool has(const char *p, const char *text)
{
	return strstr(p, text) != NULL;
}

static void test_ksm(void **state)
{
	char *p;

	(void)state;
	/* on (run 1, as the fixture): the warning, then the unmerge and the stop */
	put("/sys/kernel/mm/ksm/pages_sharing", "1234\n");
	p = plan("");
	assert_true(has(p, "# warning: echo 2 unmerges every page KSM merged: each is copied "
			   "back, memory use grows (pages_sharing: 1234 pages more)\n"
			   "echo 2 > /sys/kernel/mm/ksm/run\necho 0 > /sys/kernel/mm/ksm/run\n"));
	assert_non_null(line(p, "#   KSM unmerge (echo 2)"));
	free(p);
	/* off: nothing */
	put("/sys/kernel/mm/ksm/run", "0\n");
	p = plan("");
	assert_false(has(p, "/ksm/"));
	assert_null(line(p, "#   KSM"));
	free(p);
	/* unmerged already (2): stopped, nothing unmerged again */
	put("/sys/kernel/mm/ksm/run", "2\n");
	p = plan("");
	assert_false(has(p, "echo 2 > /sys/kernel/mm/ksm/run"));
	assert_non_null(line(p, "echo 0 > /sys/kernel/mm/ksm/run  # it has unmerged"));
	free(p);
	/* absent: nothing */
	rm("/sys/kernel/mm/ksm");
	p = plan("");
	assert_false(has(p, "/ksm/"));
	free(p);
}

static void test_waived(void **state)
{
	char *p = plan("");

	(void)state;
	/* not waived: the steps are there (else this test could not fail) */
	assert_true(has(p, "transparent_hugepage=never"));
	assert_true(has(p, "kernel.numa_balancing = 0"));
	assert_true(has(p, "IRQBALANCE_BANNED_CPULIST"));
	assert_true(has(p, "/proc/irq/120/"));
	free(p);
	p = plan("thp.enabled,numa_balancing,irqbalance,ksm,irq.120,tuned");
	assert_false(has(p, "transparent_hugepage=never"));
	assert_false(has(p, "transparent_hugepage/enabled"));
	assert_false(has(p, "hugepages-2048kB/enabled"));
	assert_false(has(p, "numa_balancing = "));
	assert_false(has(p, "IRQBALANCE_BANNED_CPULIST"));
	assert_false(has(p, "/ksm/"));
	assert_false(has(p, "/proc/irq/120/"));
	assert_false(has(p, "tuned-adm"));
	assert_true(has(p, "/proc/irq/9/")); /* an IRQ not waived still moves */
	assert_false(has(line(p, "# covers:"), " thp.enabled "));
	assert_false(has(line(p, "# covers:"), " numa_balancing "));
	assert_false(has(line(p, "# covers:"), "irq.120"));
	assert_true(has(line(p, "# covers:"), " irq.9 "));
	assert_string_equal(line(p, "# waived"),
			    "# waived, so no step for them: irq.120 irqbalance tuned "
			    "thp.enabled ksm numa_balancing");
	assert_null(line(p, "#   transparent huge pages"));
	assert_null(line(p, "#   KSM"));
	free(p);
}

static void test_operator_clock(void **state)
{
	char *p;

	(void)state;
	/* an invariant TSC in a guest: without the operator's words, tsc=reliable */
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc "
			     "hypervisor\n");
	p = plan("");
	assert_true(has(line(p, "# planned: "), " tsc=reliable clocksource=tsc "));
	assert_non_null(line(p, "#   tsc=reliable: in a VM it disables the clocksource watchdog"));
	free(p);
	/* with them: both kept, init's arguments last, and why no tsc=reliable */
	put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro clocksource=kvm-clock "
			     "tsc=unstable isolcpus=nohz,5 -- single user\n");
	p = plan("");
	assert_true(has(line(p, "# planned: "), " clocksource=kvm-clock tsc=unstable "));
	assert_false(has(line(p, "# planned: "), "tsc=reliable"));
	assert_false(has(line(p, "# planned: "), "clocksource=tsc"));
	assert_true(has(line(p, "# planned: "), "=1000 nmi_watchdog=0 transparent_hugepage=never "
						"-- single user"));
	assert_string_equal(line(p, "# kept as"), "# kept as the operator set them: "
						  "clocksource=kvm-clock tsc=unstable; init's "
						  "arguments -- single user");
	assert_non_null(line(p, "# no tsc=reliable over the operator's tsc=unstable: in a VM it "
				"would turn off the clocksource watchdog"));
	assert_non_null(line(p, "# no clocksource=tsc over the operator's clocksource=kvm-clock"));
	assert_null(line(p, "#   tsc=reliable"));
	assert_false(has(line(p, "# covers:"), "clocksource"));
	free(p);
}

/* assert_boot - the copy's plan names the boot method want (a prefix of its line; the whole
 * line when want ends in a newline), has a
 * line that starts with each of steps, none with one of not */
static void assert_boot(const char *want, const char *const *steps, const char *const * not )
{
	char *p = plan("");
	const char *l = line(p, "# boot method: ");
	size_t n = strlen(want);
	bool exact = n && want[n - 1] == '\n'; /* the whole line */

	if (!l || strncmp(l, want, n - exact) || (exact && l[n - 1]))
		fail_msg("%s, not %s", l ? l : "no boot method", want);
	for (; *steps; steps++)
		if (!line(p, *steps))
			fail_msg("%s: no line %s", want, *steps);
	for (; *not ; not ++)
		if (line(p, *not ))
			fail_msg("%s: %s", want, line(p, *not ));
	free(p);
}

/* the lines of each boot method's steps */
#define GRUBBY "grubby --update-kernel=ALL --args=\"isolcpus=managed_irq,domain,3 "
#define GRUB "echo 'GRUB_CMDLINE_LINUX=\"console=ttyS0,115200 isolcpus=managed_irq,domain,3 "
#define SDBOOT "kernel-install add "
#define VMM "# vmm cmdline: BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro console=ttyS0,115200 "

static void test_boot_vmm(void **state)
{
	(void)state;
	assert_boot("# boot method: none found (no /etc/default/grub, /boot/grub/grub.cfg, "
		    "/boot/grub2/grub.cfg, grubby on the PATH, /boot/loader/entries, "
		    "/boot/efi/loader, /efi/loader or /etc/kernel/cmdline under /tmp/jsplan.",
		    (const char *const[]){ "# change the command line where the VM is defined", VMM,
					   NULL },
		    (const char *const[]){ "grubby", "echo 'GRUB", "grub", "kernel-install",
					   NULL });
}

static void test_boot_grub(void **state)
{
	(void)state;
	put("/etc/default/grub", "GRUB_CMDLINE_LINUX=\"console=ttyS0,115200\"\n"
				 "GRUB_CMDLINE_LINUX_DEFAULT='isolcpus=nohz,5 mitigations=off'\n");
	assert_boot("# boot method: GRUB (found /etc/default/grub)\n",
		    (const char *const[]){ GRUB,
					   "echo 'GRUB_CMDLINE_LINUX_DEFAULT=\"mitigations=off\"' "
					   ">> /etc/default/grub  # without isolcpus=nohz,5",
					   "grub-mkconfig -o /boot/grub/grub.cfg", NULL },
		    (const char *const[]){ "grubby", "kernel-install", "# vmm", NULL });
	/* a grub.cfg alone (no /etc/default/grub): the linux line to write, by hand */
	rm("/etc/default/grub");
	put("/boot/grub2/grub.cfg", "menuentry\n");
	assert_boot("# boot method: GRUB (found /boot/grub2/grub.cfg)\n",
		    (const char *const[]){ "# GRUB without /etc/default/grub: in its grub.cfg, "
					   "each entry's linux line, after the kernel and root=: "
					   "console=ttyS0,115200 mitigations=off isolcpus=",
					   NULL },
		    (const char *const[]){ "grubby", "echo 'GRUB", "grub", "kernel-install",
					   "# vmm", NULL });
	/* an expansion in it: no line rewrites it */
	put("/etc/default/grub", "GRUB_CMDLINE_LINUX=\"$EXTRA console=ttyS0,115200\"\n");
	assert_boot(
		"# boot method: GRUB (found /etc/default/grub)\n",
		(const char *const[]){ "# GRUB: /etc/default/grub's GRUB_CMDLINE_LINUX(_DEFAULT) "
				       "is not a plain list of words",
				       NULL },
		(const char *const[]){ "echo 'GRUB", "grub", NULL });
}

static void test_boot_grubby(void **state)
{
	const char *l;
	char *p;

	(void)state;
	/* BLS entries without systemd-boot: grubby's */
	put("/boot/loader/entries", NULL);
	assert_boot("# boot method: grubby (found /boot/loader/entries)\n",
		    (const char *const[]){ GRUBBY, "# (init's arguments, -- single, must stay last",
					   NULL },
		    (const char *const[]){ "echo 'GRUB", "kernel-install", "# vmm", NULL });
	/* only the parameters not in force: none it replaces, none the loader adds */
	p = plan("");
	l = line(p, "grubby ");
	assert_non_null(l);
	assert_null(strstr(l, "isolcpus=nohz,5"));
	assert_null(strstr(l, "BOOT_IMAGE"));
	assert_null(strstr(l, "console="));
	free(p);
	/* grubby on the PATH, GRUB 2 beside it: both, from the same parameters */
	put("/usr/bin/grubby", "");
	put("/etc/default/grub", "GRUB_CMDLINE_LINUX=\"console=ttyS0,115200 isolcpus=nohz,5 "
				 "mitigations=off\"\n");
	put("/boot/grub2", NULL);
	assert_boot("# boot method: GRUB (found /etc/default/grub), grubby (found "
		    "/usr/bin/grubby): the steps of each give the planned line\n",
		    (const char *const[]){ GRUBBY,
					   "echo 'GRUB_CMDLINE_LINUX=\"console=ttyS0,115200 "
					   "mitigations=off isolcpus=managed_irq,domain,3 ",
					   "grub2-mkconfig -o /boot/grub2/grub.cfg", NULL },
		    (const char *const[]){ "kernel-install", "# vmm", "grub-mkconfig", NULL });
}

static void test_boot_sdboot(void **state)
{
	(void)state;
	/* its loader on the ESP: BLS entries there are its own, not grubby's; no
	 * /etc/kernel/cmdline: the running line, without what the loader adds */
	put("/boot/efi/loader/entries", NULL);
	put("/boot/loader/entries", NULL);
	assert_boot("# boot method: systemd-boot (found /boot/efi/loader)\n",
		    (const char *const[]){ "root=/dev/sda1 ro console=ttyS0,115200 mitigations=off "
					   "isolcpus=managed_irq,domain,3 ",
					   SDBOOT, NULL },
		    (const char *const[]){ "grubby", "echo 'GRUB", "BOOT_IMAGE", "# vmm", NULL });
	/* /etc/kernel/cmdline alone tells too, and is the line the plan changes */
	rm("/boot/efi");
	put("/etc/kernel/cmdline", "root=UUID=1 quiet -- single\n");
	assert_boot("# boot method: systemd-boot (found /etc/kernel/cmdline)\n",
		    (const char *const[]){ "root=UUID=1 isolcpus=managed_irq,domain,3 ", SDBOOT,
					   NULL },
		    (const char *const[]){ "grubby", "# vmm", NULL });
}

static void test_risks_printed_only(void **state)
{
	char *p;

	(void)state;
	/* every risky step printed: each named */
	p = plan("");
	assert_non_null(line(p, "# risks: what the steps below cost beyond isolation"));
	assert_non_null(line(p, "#   isolcpus=domain: no load balancing on CPU 3"));
	assert_non_null(line(p, "#   nohz_full=3: needs rcu_nocbs=3 (set by this plan) and "
				"housekeeping CPUs 0-2,4-7"));
	assert_non_null(line(p, "#   transparent huge pages off"));
	assert_null(line(p, "#   tsc=reliable")); /* no invariant TSC here: no tsc= step */
	assert_null(line(p, "#   kernel.sched_rt_runtime_us")); /* not a FIFO plan */
	free(p);
	/* what is in force or waived is no step, and has no risk line */
	put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro "
			     "isolcpus=managed_irq,domain,3 nohz_full=3 transparent_hugepage=never "
			     "nmi_watchdog=0\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	put("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
	    "always inherit madvise [never]\n");
	put("/proc/sys/kernel/nmi_watchdog", "0\n");
	p = plan("rcu_nocbs,ksm,cpufreq.governor,cstates,tasks.user");
	assert_null(line(p, "#   isolcpus=domain"));
	assert_null(line(p, "#   nohz_full"));
	assert_null(line(p, "#   transparent huge pages"));
	assert_null(line(p, "#   nmi_watchdog"));
	assert_null(line(p, "#   KSM"));
	assert_null(line(p, "#   performance governor"));
	assert_null(line(p, "#   CPUAffinity"));
	assert_non_null(line(p, "# risks: none: no step below has a cost beyond isolation"));
	free(p);
}

static void test_line_merge(void **state)
{
	char out[256], rep[256];

	(void)state;
	plan_line_merge("BOOT_IMAGE=/v root=/dev/x ro tsc=unstable isolcpus=5 -- single -x",
			"isolcpus=3 nohz-full=3", "isolcpus=3 nohz_full=3", "BOOT_IMAGE root ro",
			out, sizeof(out), rep, sizeof(rep));
	assert_string_equal(out, "tsc=unstable isolcpus=3 nohz_full=3 -- single -x");
	assert_string_equal(rep, "isolcpus=5");
	/* keys compare as the kernel's do; nothing added */
	plan_line_merge("quiet nohz-full=1 splash", "nohz_full=3", "", NULL, out, sizeof(out), rep,
			sizeof(rep));
	assert_string_equal(out, "quiet splash");
	assert_string_equal(rep, "nohz-full=1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ksm, copy, drop),
		cmocka_unit_test_setup_teardown(test_waived, copy, drop),
		cmocka_unit_test_setup_teardown(test_operator_clock, copy, drop),
		cmocka_unit_test_setup_teardown(test_boot_vmm, copy, drop),
		cmocka_unit_test_setup_teardown(test_boot_grub, copy, drop),
		cmocka_unit_test_setup_teardown(test_boot_grubby, copy, drop),
		cmocka_unit_test_setup_teardown(test_boot_sdboot, copy, drop),
		cmocka_unit_test_setup_teardown(test_risks_printed_only, copy, drop),
		cmocka_unit_test(test_line_merge),
	};

	return cmocka_run_group_tests_name("audit_plan", tests, NULL, NULL);
}
