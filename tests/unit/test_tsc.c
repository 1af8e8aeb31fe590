// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_tsc.c - the TSC -> CLOCK_MONOTONIC fit, the flag parsing, the gap ring. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "js_sampler.h"
#include "js_tsc.h"
#include "js_util.h"

/** A clean line is recovered exactly: 2.3 GHz, offset, no residual. */
static void test_fit_exact(void **st)
{
	struct tsc_pair p[16];
	struct tsc_fit f;

	(void)st;
	for (int i = 0; i < 16; i++) {
		p[i].tsc = 1000000000000ull + (uint64_t)i * 2300000000ull; /* one per second */
		p[i].ns = 5000000000ull + (uint64_t)i * 1000000000ull;
	}
	assert_int_equal(tsc_fit_pairs(p, 16, &f), 0);
	assert_true(fabs(f.hz - 2.3e9) < 1.0);
	assert_true(f.residual_max_ns < 0.5);
	assert_true(tsc_to_ns(&f, p[7].tsc) == p[7].ns);
	/* 2300 cycles are 1000 ns */
	assert_true(tsc_cycles_to_ns(&f, 2300) == 1000);
	assert_true(tsc_ns_to_cycles(&f, 1000) == 2300);
}

/** Noisy pairs: the fit averages, the residual reports the noise. */
static void test_fit_noise(void **st)
{
	struct tsc_pair p[64];
	struct tsc_fit f;
	double maxnoise = 0;

	(void)st;
	srand(7);
	for (int i = 0; i < 64; i++) {
		int noise = rand() % 21 - 10; /* +-10 ns */

		p[i].tsc = 7ull + (uint64_t)i * 230000000ull; /* every 100 ms */
		p[i].ns = 1000ull + (uint64_t)i * 100000000ull + (uint64_t)(int64_t)noise;
		maxnoise = fmax(maxnoise, fabs((double)noise));
	}
	assert_int_equal(tsc_fit_pairs(p, 64, &f), 0);
	assert_true(fabs(f.hz - 2.3e9) / 2.3e9 < 1e-7);
	assert_true(f.residual_max_ns <= maxnoise + 10);
	assert_true(f.residual_max_ns > 0.5);
	assert_true(f.residual_rms_ns <= f.residual_max_ns);
}

/** Too few pairs, or no span, cannot be fitted. */
static void test_fit_degenerate(void **st)
{
	struct tsc_pair p[2] = { { 100, 100, 0 }, { 100, 200, 0 } };
	struct tsc_fit f;

	(void)st;
	assert_int_not_equal(tsc_fit_pairs(p, 1, &f), 0);
	assert_int_not_equal(tsc_fit_pairs(p, 2, &f), 0);
}

/** The calibration store thins itself when full and keeps its span. */
static void test_cal_thinning(void **st)
{
	static struct tsc_cal c;

	(void)st;
	for (int i = 0; i < 1000; i++)
		tsc_cal_add(&c, (struct tsc_pair){ .tsc = (uint64_t)i * 1000,
						   .ns = (uint64_t)i * 500 });
	assert_true(c.n <= TSC_MAX_PAIRS);
	assert_true(c.pairs[0].tsc == 0);
	assert_true(c.pairs[c.n - 1].tsc == 999000);
	assert_int_equal(tsc_cal_refit(&c), 0);
	assert_true(fabs(c.fit.ns_per_cycle - 0.5) < 1e-9);
}

/** Real reads: a pair's window is small and the clocks move together. */
static void test_pair_read(void **st)
{
	struct tsc_pair a, b;
	struct tsc_fit f;
	struct tsc_pair p[2];

	(void)st;
	a = tsc_pair_read(16, TSC_READ_FENCED);
	for (volatile int i = 0; i < 10000000; i++)
		;
	b = tsc_pair_read(16, TSC_READ_FENCED);
	assert_true(b.tsc > a.tsc);
	assert_true(b.ns > a.ns);
	p[0] = a;
	p[1] = b;
	assert_int_equal(tsc_fit_pairs(p, 2, &f), 0);
#if defined(__aarch64__) /* cntvct_el0: 1 MHz to 1 GHz (qemu-user: 62.5 MHz) */
	assert_true(f.hz > 1e6 && f.hz < 1.1e9);
#else
	assert_true(f.hz > 1e8 && f.hz < 1e10);
#endif
}

/** --clock: auto takes rdtscp only where it may run; rdtscp asked for where it may not is
 * refused; the environment variable masks rdtscp on any CPU; the descriptions. */
static void test_clock_choice(void **st)
{
	enum tsc_read r = TSC_READ_RDTSCP;
	char buf[48];

	(void)st;
#if defined(__aarch64__)
	/* one read, isb;cntvct_el0, for auto and lfence; no rdtscp */
	assert_int_equal(tsc_read_choose(TSC_CLOCK_AUTO, tsc_rdtscp_usable(), &r), 0);
	assert_int_equal(r, TSC_READ_CNTVCT);
	assert_int_equal(tsc_read_choose(TSC_CLOCK_LFENCE, false, &r), 0);
	assert_int_equal(r, TSC_READ_CNTVCT);
	assert_int_equal(tsc_read_choose(TSC_CLOCK_RDTSCP, tsc_rdtscp_usable(), &r), -ENOTSUP);
	assert_int_equal(tsc_rdtscp_state(), TSC_RDTSCP_ARCH);
	assert_string_equal(tsc_read_describe(buf, sizeof(buf), r, TSC_CLOCK_AUTO),
			    "isb;cntvct_el0 (--clock auto)");
	assert_int_equal(tsc_read_from_name("isb;cntvct_el0"), TSC_READ_CNTVCT);
	return;
#endif
	assert_int_equal(tsc_read_choose(TSC_CLOCK_AUTO, true, &r), 0);
	assert_int_equal(r, TSC_READ_RDTSCP);
	assert_int_equal(tsc_read_choose(TSC_CLOCK_AUTO, false, &r), 0);
	assert_int_equal(r, TSC_READ_LFENCE_RDTSC);
	assert_int_equal(tsc_read_choose(TSC_CLOCK_LFENCE, true, &r), 0);
	assert_int_equal(r, TSC_READ_LFENCE_RDTSC);
	r = TSC_READ_LFENCE_RDTSC;
	assert_int_equal(tsc_read_choose(TSC_CLOCK_RDTSCP, true, &r), 0);
	assert_int_equal(r, TSC_READ_RDTSCP);
	r = TSC_READ_LFENCE_RDTSC;
	assert_int_equal(tsc_read_choose(TSC_CLOCK_RDTSCP, false, &r), -ENOTSUP);
	assert_int_equal(r, TSC_READ_LFENCE_RDTSC); /* untouched */
	assert_int_equal(tsc_read_choose((enum tsc_clock)7, true, &r), -EINVAL);

	assert_int_equal(setenv(TSC_NO_RDTSCP_ENV, "1", 1), 0);
	assert_int_equal(tsc_rdtscp_state(), TSC_RDTSCP_MASKED);
	assert_false(tsc_rdtscp_usable());
	assert_int_equal(setenv(TSC_NO_RDTSCP_ENV, "0", 1), 0);
	assert_int_not_equal(tsc_rdtscp_state(), TSC_RDTSCP_MASKED);
	assert_int_equal(setenv(TSC_NO_RDTSCP_ENV, "", 1), 0);
	assert_int_not_equal(tsc_rdtscp_state(), TSC_RDTSCP_MASKED);
	unsetenv(TSC_NO_RDTSCP_ENV);
	print_message("this CPU: rdtscp %s\n", tsc_rdtscp_usable() ? "usable" : "not advertised");

	assert_string_equal(tsc_read_describe(buf, sizeof(buf), TSC_READ_LFENCE_RDTSC,
					      TSC_CLOCK_AUTO),
			    "lfence;rdtsc (--clock auto)");
	assert_string_equal(tsc_clock_name(TSC_CLOCK_LFENCE), "lfence");
	assert_int_equal(tsc_clock_from_name("rdtscp"), TSC_CLOCK_RDTSCP);
	assert_int_equal(tsc_clock_from_name("lfence;rdtsc"), -1);
}

/** Both reads return a moving TSC, where each may run. */
static void test_reads(void **st)
{
	uint64_t a, b;

	(void)st;
	a = js_tsc_read(TSC_READ_FENCED);
	b = js_tsc_read(TSC_READ_FENCED);
	/* a coarse counter (arm64) may read the same twice within one step: not backwards */
	for (int i = 0; i < 1000000 && b == a; i++)
		b = js_tsc_read(TSC_READ_FENCED);
	assert_true(b > a);
	if (!tsc_rdtscp_usable()) {
		print_message("skip rdtscp read: the CPU does not advertise it\n");
		return;
	}
	a = js_tsc_read(TSC_READ_RDTSCP);
	b = js_tsc_read(TSC_READ_RDTSCP);
	assert_true(b > a);
}

/** cpuinfo flags decide invariance; libcpuid may add to it. */
static void test_caps(void **st)
{
	const char *good = "processor\t: 0\nflags\t\t: fpu tsc rdtscp constant_tsc nonstop_tsc "
			   "hypervisor tsc_known_freq\nmodel name\t: X\n";
	const char *bad = "processor\t: 0\nflags\t\t: fpu tsc constant_tsc_x\n";
	struct tsc_caps c;

	(void)st;
	tsc_caps_detect(&c, good);
	assert_true(!c.model[0] || c.model[strlen(c.model) - 1] != ' '); /* CPUID pads it */
	assert_true(c.constant_tsc && c.nonstop_tsc && c.hypervisor);
	assert_true(tsc_caps_invariant(&c));
#if defined(__aarch64__) /* the generic timer is invariant whatever cpuinfo says */
	tsc_caps_detect(&c, bad);
	assert_true(tsc_caps_invariant(&c));
	/* arm64's cpuinfo has no model name: the implementer and part are named */
	char m[64] = "", v[16] = "";
	arm64_cpu_name("CPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0c\n", m,
		       sizeof(m), v, sizeof(v));
	assert_string_equal(m, "ARM Neoverse-N1");
	assert_string_equal(v, "ARM");
	arm64_cpu_name("CPU implementer\t: 0xc0\nCPU part\t: 0x123\n", m, sizeof(m), v, sizeof(v));
	assert_string_equal(m, "Ampere part 0x123");
	arm64_cpu_name("CPU implementer\t: 0x99\nCPU part\t: 0x001\n", m, sizeof(m), v, sizeof(v));
	assert_string_equal(m, "0x99 part 0x001");
	/* QEMU's -cpu max under TCG: implementer 0 (software), part 'Q' */
	arm64_cpu_name("CPU implementer\t: 0x00\nCPU architecture: 8\nCPU variant\t: 0x0\n"
		       "CPU part\t: 0x051\n",
		       m, sizeof(m), v, sizeof(v));
	assert_string_equal(m, "QEMU max (TCG)");
	assert_string_equal(v, "QEMU");
	arm64_cpu_name("CPU implementer\t: 0x00\nCPU part\t: 0x052\n", m, sizeof(m), v, sizeof(v));
	assert_string_equal(m, "0x00 part 0x052");
	m[0] = 0;
	arm64_cpu_name(bad, m, sizeof(m), v, sizeof(v));
	assert_string_equal(m, "");
#else
	tsc_caps_detect(&c, bad);
	assert_false(c.constant_tsc);
	assert_false(c.nonstop_tsc);
#endif
}

/** The counter's step: the gcd of the reads' nonzero differences (a TSC steps by 1, a 1 GHz
 * counter scaled from 24 MHz by ~42), and the live counter's. */
static void test_step(void **st)
{
	const uint64_t tsc[] = { 1000, 1023, 1051, 1051, 1090 };
	const uint64_t scaled[] = { 42, 42, 84, 84, 84, 210, 252, 252, 378 };
	const uint64_t same[] = { 7, 7, 7 };
	uint64_t step;

	(void)st;
	assert_int_equal(tsc_step_of(tsc, ARRAY_SIZE(tsc)), 1);
	assert_int_equal(tsc_step_of(scaled, ARRAY_SIZE(scaled)), 42);
	assert_int_equal(tsc_step_of(same, ARRAY_SIZE(same)), 0);
	assert_int_equal(tsc_step_of(tsc, 1), 0);
	step = tsc_counter_step(TSC_READ_FENCED);
	print_message("this counter (%s): step %" PRIu64 ", stated %.0f Hz\n", TSC_COUNTER_NAME,
		      step, tsc_counter_nominal_hz());
	assert_true(step >= 1);
#if defined(__aarch64__)
	assert_true(tsc_counter_nominal_hz() >= 1e6);
#else
	assert_true(tsc_counter_nominal_hz() == 0);
#endif
}

/** The SPSC ring: FIFO order, full is reported (never silent), wrap-around. */
static void test_ring(void **st)
{
	struct gap_raw slots[8], out[16];
	struct gap_ring r = { .mask = 7, .slots = slots };
	size_t n;

	(void)st;
	for (uint64_t i = 0; i < 8; i++)
		assert_true(ring_push(&r, i, i + 100));
	assert_false(ring_push(&r, 8, 108));
	n = ring_pop(&r, out, 3);
	assert_int_equal(n, 3);
	assert_true(out[0].start_tsc == 0 && out[2].end_tsc == 102);
	for (uint64_t i = 8; i < 11; i++)
		assert_true(ring_push(&r, i, i + 100));
	n = ring_pop(&r, out, 16);
	assert_int_equal(n, 8);
	assert_true(out[0].start_tsc == 3 && out[7].start_tsc == 10);
	assert_int_equal(ring_pop(&r, out, 16), 0);
}

/** -P parsing. */
static void test_priority(void **st)
{
	int pol, prio;
	char buf[16];

	(void)st;
	assert_int_equal(sampler_parse_priority("f:50", &pol, &prio), 0);
	assert_int_equal(prio, 50);
	assert_int_not_equal(sampler_parse_priority("r:0", &pol, &prio), 0);
	assert_int_not_equal(sampler_parse_priority(NULL, &pol, &prio), 0);
	assert_int_not_equal(sampler_parse_priority("x:5", &pol, &prio), 0);
	/* what -P reads, sampler_priority_str writes back */
	assert_int_equal(sampler_parse_priority("f:50", &pol, &prio), 0);
	assert_string_equal(sampler_priority_str(buf, sizeof(buf), pol, prio), "f:50");
	assert_int_equal(sampler_parse_priority("r:7", &pol, &prio), 0);
	assert_string_equal(sampler_priority_str(buf, sizeof(buf), pol, prio), "r:7");
	assert_int_equal(sampler_parse_priority("o", &pol, &prio), 0);
	assert_int_equal(pol, SCHED_OTHER);
	assert_string_equal(sampler_priority_str(buf, sizeof(buf), pol, prio), "o:0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_exact),      cmocka_unit_test(test_fit_noise),
		cmocka_unit_test(test_fit_degenerate), cmocka_unit_test(test_cal_thinning),
		cmocka_unit_test(test_pair_read),      cmocka_unit_test(test_caps),
		cmocka_unit_test(test_clock_choice),   cmocka_unit_test(test_reads),
		cmocka_unit_test(test_ring),	       cmocka_unit_test(test_priority),
		cmocka_unit_test(test_step),
	};

	return cmocka_run_group_tests_name("tsc", tests, NULL, NULL);
}
