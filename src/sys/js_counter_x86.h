/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_counter_x86.h - the x86-64 side of js_tsc.h: the TSC read with rdtscp or lfence;rdtsc.
 * Included by js_tsc.h only.
 */
#ifndef JS_COUNTER_X86_H
#define JS_COUNTER_X86_H

#include <cpuid.h>

/* js_rdtscp - TSC read ordered after all previous instructions (rdtscp); only where
 * tsc_rdtscp_usable() */
static inline uint64_t js_rdtscp(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* js_rdtsc_lfence - lfence; rdtsc (the kernel's rdtsc_ordered) */
static inline uint64_t js_rdtsc_lfence(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* js_tsc_read - one read the way @r says (a constant @r inlines to one instruction) */
static __attribute__((always_inline)) inline uint64_t js_tsc_read(enum tsc_read r)
{
	return r == TSC_READ_LFENCE_RDTSC ? js_rdtsc_lfence() : js_rdtscp();
}

/*
 * tsc_rdtscp_state - the one place that decides whether rdtscp may run: USABLE where the CPU
 * advertises it (CPUID 0x80000001 EDX[27]) and JITTERSCOPE_NO_RDTSCP is unset, empty or "0";
 * MASKED when that variable says otherwise; else ABSENT. Inline so that the test tools,
 * which link nothing of ours, decide the same way.
 */
static inline enum tsc_rdtscp tsc_rdtscp_state(void)
{
	unsigned int a, b, c, d;
	const char *no = getenv(TSC_NO_RDTSCP_ENV);

	if (no && *no && (no[0] != '0' || no[1]))
		return TSC_RDTSCP_MASKED;
	if (__get_cpuid(0x80000001u, &a, &b, &c, &d) && (d & (1u << 27)))
		return TSC_RDTSCP_USABLE;
	return TSC_RDTSCP_ABSENT;
}

/* the fenced read: --clock auto's fallback and lfence */
#define TSC_READ_FENCED TSC_READ_LFENCE_RDTSC
#define TSC_COUNTER_NAME "TSC"
/* the fenced read's member of struct js_clockcost */
#define TSC_FENCED_COST lfence_rdtsc

/* js_counter_fenced - lfence; rdtsc (lfence is in every x86-64 CPU: SSE2) */
static inline uint64_t js_counter_fenced(void)
{
	return js_rdtsc_lfence();
}

/* js_cpu_relax - a spin-wait's pause */
static inline void js_cpu_relax(void)
{
	__builtin_ia32_pause();
}

/* tsc_counter_nominal_hz - 0: the TSC's frequency is fitted, CPUID 0x15 reads zero on VMs */
static inline double tsc_counter_nominal_hz(void)
{
	return 0;
}

#endif /* JS_COUNTER_X86_H */
