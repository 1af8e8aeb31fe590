// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_sampler_hook.c - sampler_hook.c: the housekeeping tick, and the THP test hook's
 * huge-page count: smaps parsing, and live on this process's own memory (no root:
 * MADV_HUGEPAGE and smaps of itself). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_result.h"
#include "js_sampler.h"
#include "js_sysfs.h"
#include "js_test.h"

/* STALL: with a threshold of 0 every iteration is a gap, and each one goes on for the stall
 * before its end is read: every gap holds at least the stall, none is lost */
static void test_stall_loop(void **state)
{
	static struct gap_raw slots[4096], out[4096];
	struct sampler s;
	int stop = 0;
	uint64_t t0;
	size_t n;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.cfg.hook = SAMPLER_HOOK_STALL;
	s.cfg.read = TSC_READ_LFENCE_RDTSC;
	s.cfg.hook_stall_cycles = 20000;
	s.cfg.stop = &stop;
	s.ring.slots = slots;
	s.ring.mask = 4095;
	assert_int_equal(sampler_hook_setup(&s, &(const char *){ "" }), 0);
	assert_null(s.hook_mem); /* no region for this hook */
	t0 = js_tsc_read(TSC_READ_LFENCE_RDTSC);
	sampler_hook_spin(&s, t0 + 2000000);
	n = ring_pop(&s.ring, out, 4096);
	assert_true(n >= 10 && n <= 101); /* 2e6 cycles / 2e4 a gap, and the first one */
	for (size_t i = 0; i < n; i++)
		assert_true(out[i].end_tsc - out[i].start_tsc >= 20000);
	assert_int_equal(s.dropped, 0);
	assert_string_equal(sampler_hook_name(SAMPLER_HOOK_STALL), "stall");
	assert_int_equal(sampler_hook_from_name("stall"), SAMPLER_HOOK_STALL);
}

/* three VMAs as the kernel prints them; the middle one holds 2 MiB of huge pages */
static const char smaps[] = "55d0a0000000-55d0a0021000 r-xp 00000000 fe:01 1234    /usr/bin/x\n"
			    "Size:                132 kB\nAnonHugePages:         0 kB\n"
			    "VmFlags: rd ex mr mw me\n"
			    "7f6300000000-7f6300400000 rw-p 00000000 00:00 0 \n"
			    "Size:               4096 kB\nRss:                4096 kB\n"
			    "Anonymous:          4096 kB\nAnonHugePages:      2048 kB\n"
			    "FilePmdMapped:         0 kB\nVmFlags: rd wr mr mw me ac hg\n"
			    "7f6300400000-7f6300800000 rw-p 00000000 00:00 0 \n"
			    "Size:               4096 kB\nAnonHugePages:      4096 kB\n"
			    "VmFlags: rd wr mr mw me ac\n";

/* the VMA containing the address is the one read, from its first to its last byte */
static void test_smaps_parse(void **state)
{
	uint64_t kb = 99;

	(void)state;
	assert_int_equal(sampler_smaps_huge_kb(smaps, 0x7f6300000000ull, &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(sampler_smaps_huge_kb(smaps, 0x7f63003fffffull, &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(sampler_smaps_huge_kb(smaps, 0x7f6300400000ull, &kb), 0);
	assert_int_equal(kb, 4096);
	assert_int_equal(sampler_smaps_huge_kb(smaps, 0x55d0a0000010ull, &kb), 0);
	assert_int_equal(kb, 0);
	/* outside every VMA, or a VMA without the field */
	assert_int_equal(sampler_smaps_huge_kb(smaps, 0x7f6300800000ull, &kb), -ENOENT);
	assert_int_equal(sampler_smaps_huge_kb(smaps, 0x1000, &kb), -ENOENT);
	assert_int_equal(sampler_smaps_huge_kb("7f00-7f10 rw-p 0 00:00 0\nSize: 4 kB\n"
					       "8000-9000 rw-p 0 00:00 0\nAnonHugePages: 8 kB\n",
					       0x7f08, &kb),
			 -ENOENT);
	assert_int_equal(sampler_smaps_huge_kb("", 0x1000, &kb), -ENOENT);
	assert_int_equal(sampler_smaps_huge_kb(NULL, 0x1000, &kb), -EINVAL);
	/* field lines starting with hex letters (Anonymous, FilePmdMapped) are no headers */
	assert_int_equal(sampler_smaps_huge_kb("a000-b000 rw-p 0 00:00 0\nAnonymous: 4 kB\n"
					       "FilePmdMapped: 0 kB\nAnonHugePages: 12 kB\n",
					       0xa000, &kb),
			 0);
	assert_int_equal(kb, 12);
}

/* region - a 2 MiB-aligned anonymous region of 2 MiB in *raw (4 MiB mapped), faulted in as
 * small pages */
static char *region(char **raw)
{
	const size_t huge = 2u << 20;
	char *mem;

	*raw = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(*raw != MAP_FAILED);
	mem = (char *)(((uintptr_t)*raw + huge - 1) & ~(uintptr_t)(huge - 1));
	assert_int_equal(madvise(mem, huge, MADV_NOHUGEPAGE), 0);
	memset(mem, 1, huge);
	return mem;
}

/* arm - sampler_hook_arm on a measuring sampler; skips the case on a kernel without THP */
static void arm(struct sampler *s, uint64_t *kb, char *raw)
{
	int err;

	s->state = SAMPLER_RUNNING;
	s->start_tsc = 1;
	s->cfg.hook = SAMPLER_HOOK_THP;
	err = sampler_hook_arm(s, kb);
	if (err == -EINVAL && !sysfs_exists("/sys/kernel/mm/transparent_hugepage")) {
		munmap(raw, 4u << 20);
		js_skip("a kernel without THP (no /sys/kernel/mm/transparent_hugepage)");
	}
	assert_int_equal(err, 0);
	assert_true(s->hook_armed);
}

/* live: this process's own region, counted alone (not the process), before and after */
static void test_hook_region_live(void **state)
{
	struct sampler s;
	char *raw, *mem;
	uint64_t kb = 1;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.cfg.hook = SAMPLER_HOOK_THP;
	assert_int_equal(sampler_hook_huge_kb(&s, &kb), -EINVAL); /* no region */
	mem = region(&raw);
	s.hook_mem = mem;
	assert_int_equal(sampler_hook_huge_kb(&s, &kb), 0);
	assert_int_equal(kb, 0);
	/* not measuring yet: not armed, and arming is for the THP hook only */
	assert_int_equal(sampler_hook_arm(&s, &kb), -EAGAIN);
	assert_false(s.hook_armed);
	s.state = SAMPLER_RUNNING;
	s.start_tsc = 1;
	s.cfg.hook = SAMPLER_HOOK_FAULT;
	assert_int_equal(sampler_hook_arm(&s, &kb), -EINVAL);
	arm(&s, &kb, raw);
	assert_int_equal(kb, 0);
	assert_int_equal(sampler_hook_arm(&s, &kb), -EALREADY);
	munmap(raw, 4u << 20);
}

/* live: the armed region collapsed here (MADV_COLLAPSE, 6.1+): the count sees 2048 kB */
static void test_hook_collapse_live(void **state)
{
	struct sampler s;
	char *raw;
	uint64_t kb = 1;
	int err = 0;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.hook_mem = region(&raw);
	arm(&s, &kb, raw);
	if (madvise(s.hook_mem, 2u << 20, 25 /* MADV_COLLAPSE */))
		err = -errno;
	if (err)
		munmap(raw, 4u << 20);
	js_collapse_failed(err);
	assert_int_equal(sampler_hook_huge_kb(&s, &kb), 0);
	assert_int_equal(kb, 2048);
	munmap(raw, 4u << 20);
}

/* the housekeeping tick: FAULT zaps once per sampler run between ticks (each zap, a
 * fault); without a hook it does nothing */
static void test_hook_tick(void **state)
{
	struct js_run run;
	struct sampler s;
	char *raw;

	(void)state;
	memset(&run, 0, sizeof(run));
	memset(&s, 0, sizeof(s));
	s.hook_mem = region(&raw);
	s.iterations = 10;
	sampler_hook_tick(&s, &run); /* SAMPLER_HOOK_NONE */
	sampler_hook_end(&s, &run);
	assert_int_equal(run.hook_actions, 0);
	assert_int_equal(run.hook_huge_kb_end, 0);
	s.cfg.hook = SAMPLER_HOOK_FAULT;
	sampler_hook_tick(&s, &run);
	assert_int_equal(run.hook_actions, 1);
	sampler_hook_tick(&s, &run); /* the sampler has not run since */
	assert_int_equal(run.hook_actions, 1);
	s.iterations = 11;
	sampler_hook_tick(&s, &run);
	assert_int_equal(run.hook_actions, 2);
	assert_int_equal(run.hook_huge_kb_arm, 0);
	munmap(raw, 4u << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smaps_parse),	   cmocka_unit_test(test_hook_tick),
		cmocka_unit_test(test_stall_loop),	   cmocka_unit_test(test_hook_region_live),
		cmocka_unit_test(test_hook_collapse_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
