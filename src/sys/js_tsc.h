/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_tsc.h - ordered TSC reads (safe in the sampler's hot loop) and the
 * TSC -> CLOCK_MONOTONIC fit. "TSC" is the CPU's counter: the TSC on x86-64, the generic
 * timer's virtual count cntvct_el0 on arm64; the reads themselves are the arch's
 * (js_counter_x86.h, js_counter_arm64.h), everything else here is common.
 */
#ifndef JS_TSC_H
#define JS_TSC_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* How every TSC read of a run is made (the sampler's loop, the calibration, the VM-exit and
 * clock-cost probes, the test hooks): tsc_read_choose() picks it once, at start. x86-64
 * has the first two, arm64 the third. */
enum tsc_read { TSC_READ_RDTSCP = 0, TSC_READ_LFENCE_RDTSC, TSC_READ_CNTVCT };

/* The environment variable that makes tsc_rdtscp_usable() false on any CPU: the tests run
 * the lfence;rdtsc path with it on machines that have rdtscp. */
#define TSC_NO_RDTSCP_ENV "JITTERSCOPE_NO_RDTSCP"

/* Whether rdtscp may run, and if not why (ARCH: not an x86 CPU). */
enum tsc_rdtscp { TSC_RDTSCP_USABLE = 0, TSC_RDTSCP_ABSENT, TSC_RDTSCP_MASKED, TSC_RDTSCP_ARCH };

/*
 * The arch's counter, one header each: js_tsc_read(r), the fenced read
 * js_counter_fenced() (what --clock auto falls back to, TSC_READ_FENCED), tsc_rdtscp_state(),
 * js_cpu_relax() (a spin-wait's pause), tsc_counter_nominal_hz() (the frequency the CPU states, 0 when it states none) and the
 * name TSC_COUNTER_NAME, and TSC_FENCED_COST, the fenced read's member of js_clockcost.
 */
#if defined(__aarch64__)
#include "js_counter_arm64.h"
#else
#include "js_counter_x86.h"
#endif

/* tsc_rdtscp_usable - rdtscp may run (tsc_rdtscp_state) */
static inline bool tsc_rdtscp_usable(void)
{
	return tsc_rdtscp_state() == TSC_RDTSCP_USABLE;
}

/* What --clock asks for; auto takes rdtscp where tsc_rdtscp_usable(), else lfence;rdtsc. */
enum tsc_clock { TSC_CLOCK_AUTO = 0, TSC_CLOCK_RDTSCP, TSC_CLOCK_LFENCE };

/* tsc_clock_name - "auto", "rdtscp", "lfence"; NULL if unknown */
const char *tsc_clock_name(enum tsc_clock c);
/* tsc_clock_from_name - the enum tsc_clock named name; -1 if none */
int tsc_clock_from_name(const char *name);

/* tsc_read_choose - the read for --clock @want on a CPU where rdtscp is (not) @usable into
 * *out; -ENOTSUP when rdtscp is asked for and not usable (-EINVAL: no such want) */
static inline int tsc_read_choose(enum tsc_clock want, bool usable, enum tsc_read *out)
{
	switch (want) {
	case TSC_CLOCK_RDTSCP:
		if (!usable)
			return -ENOTSUP;
		*out = TSC_READ_RDTSCP;
		return 0;
	case TSC_CLOCK_LFENCE:
		*out = TSC_READ_FENCED;
		return 0;
	case TSC_CLOCK_AUTO:
		*out = usable ? TSC_READ_RDTSCP : TSC_READ_FENCED;
		return 0;
	}
	return -EINVAL;
}
/* tsc_read_describe - "lfence;rdtsc (--clock auto)": the read and how it was chosen */
const char *tsc_read_describe(char *buf, size_t len, enum tsc_read r, enum tsc_clock c);

/* tsc_read_name - "rdtscp", "lfence;rdtsc", "isb;cntvct_el0"; NULL if unknown */
const char *tsc_read_name(enum tsc_read r);
/* tsc_read_from_name - the enum tsc_read named name; -1 if none */
int tsc_read_from_name(const char *name);

#define TSC_MAX_PAIRS 256

/* One paired read: the TSC midpoint of a short window around clock_gettime. */
struct tsc_pair {
	uint64_t tsc;
	uint64_t ns;	 /* CLOCK_MONOTONIC */
	uint32_t window; /* cycles between the two TSC reads */
};

/* The fit: ns = ns0 + (tsc - tsc0) * ns_per_cycle. */
struct tsc_fit {
	uint64_t tsc0, ns0;
	double ns_per_cycle;
	double hz;		/* 1e9 / ns_per_cycle */
	double residual_max_ns; /* max |fit - pair| over the pairs used */
	double residual_rms_ns;
	size_t npairs;
};

/* The calibration state: pairs collected before, during and after the run. */
struct tsc_cal {
	struct tsc_pair pairs[TSC_MAX_PAIRS];
	size_t n;
	struct tsc_fit fit;
};

/* tsc_pair_read - take the best (narrowest window) of @tries paired reads, the TSC read
 * as @r says */
struct tsc_pair tsc_pair_read(int tries, enum tsc_read r);
/* tsc_cal_add - add a pair (when full, every other pair is dropped, keeping the span) */
void tsc_cal_add(struct tsc_cal *c, struct tsc_pair p);
/* tsc_fit_pairs - least-squares fit of ns on tsc; -EINVAL with < 2 pairs or no span */
int tsc_fit_pairs(const struct tsc_pair *p, size_t n, struct tsc_fit *out);
/* tsc_cal_refit - refit c->fit from all pairs */
int tsc_cal_refit(struct tsc_cal *c);

/* tsc_to_ns - a TSC value on the CLOCK_MONOTONIC time base */
static inline uint64_t tsc_to_ns(const struct tsc_fit *f, uint64_t tsc)
{
	int64_t d = (int64_t)(tsc - f->tsc0);

	return f->ns0 + (int64_t)((double)d * f->ns_per_cycle);
}

/* tsc_cycles_to_ns / tsc_ns_to_cycles - durations */
static inline uint64_t tsc_cycles_to_ns(const struct tsc_fit *f, uint64_t cyc)
{
	return (uint64_t)((double)cyc * f->ns_per_cycle + 0.5);
}

static inline uint64_t tsc_ns_to_cycles(const struct tsc_fit *f, uint64_t ns)
{
	return (uint64_t)((double)ns / f->ns_per_cycle + 0.5);
}

/* TSC_STEP_READS - the reads tsc_counter_step() looks at (a few ms under emulation) */
#define TSC_STEP_READS 4096
/*
 * tsc_step_of - the counter's real step: the greatest common divisor of the nonzero
 * differences between the n consecutive reads v[] (a 1 GHz counter scaled from 24 MHz,
 * Armv8.6, steps by about 42; a TSC by 1). 0 when no two reads differ. Pure
 */
uint64_t tsc_step_of(const uint64_t *v, size_t n);
/* tsc_counter_step - tsc_step_of TSC_STEP_READS back-to-back reads made as @r says */
uint64_t tsc_counter_step(enum tsc_read r);

/* What we know about the TSC's trustworthiness. */
struct tsc_caps {
	bool constant_tsc;    /* cpuinfo flag */
	bool nonstop_tsc;     /* cpuinfo flag */
	bool invariant_cpuid; /* CPUID 0x80000007 EDX[8] (libcpuid) */
	bool known_freq;      /* cpuinfo tsc_known_freq */
	bool hypervisor;
	char model[64]; /* CPU brand string */
	char vendor[16];
};

/* tsc_caps_detect - read cpuinfo flags (via @cpuinfo text) and the arch's own facts
 * (tsc_caps_arch) */
void tsc_caps_detect(struct tsc_caps *c, const char *cpuinfo);
/* tsc_caps_invariant - constant and nonstop, by either source */
bool tsc_caps_invariant(const struct tsc_caps *c);
/* tsc_caps_arch - the arch's CPU facts into c (cpuid_x86.c: libcpuid's brand, vendor and
 * invariant TSC; cpuid_arm64.c: the implementer and part of @cpuinfo, the generic timer
 * always invariant) */
void tsc_caps_arch(struct tsc_caps *c, const char *cpuinfo);

#endif /* JS_TSC_H */
