/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_counter_arm64.h - the arm64 side of js_tsc.h: the generic timer's virtual count
 * (cntvct_el0), read between two isb (the first keeps it from being read early, the second
 * keeps later instructions from starting before it: the kernel's __arch_counter_get_cntvct
 * ordering), its stated frequency cntfrq_el0. The count may step by more than one (Armv8.6
 * scales a 1 GHz count from a slower one): tsc_counter_step() measures the step. A kernel
 * that traps the read for an erratum makes it slow, which the clock read cost measured at
 * start shows. Included by js_tsc.h only.
 */
#ifndef JS_COUNTER_ARM64_H
#define JS_COUNTER_ARM64_H

#define TSC_READ_FENCED TSC_READ_CNTVCT
#define TSC_COUNTER_NAME "cntvct_el0"
#define TSC_FENCED_COST isb_cntvct

/* js_counter_fenced - isb; mrs cntvct_el0; isb */
static inline uint64_t js_counter_fenced(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0; isb" : "=r"(v)::"memory");
	return v;
}

/* js_tsc_read - the one read there is: @r is always TSC_READ_CNTVCT here */
static __attribute__((always_inline)) inline uint64_t js_tsc_read(enum tsc_read r)
{
	(void)r;
	return js_counter_fenced();
}

/* tsc_rdtscp_state - there is no rdtscp on arm64 */
static inline enum tsc_rdtscp tsc_rdtscp_state(void)
{
	return TSC_RDTSCP_ARCH;
}

/* js_cpu_relax - a spin-wait's pause (the kernel's cpu_relax) */
static inline void js_cpu_relax(void)
{
	__asm__ __volatile__("yield" ::: "memory");
}

/* tsc_counter_nominal_hz - cntfrq_el0: the frequency firmware states for the count */
static inline double tsc_counter_nominal_hz(void)
{
	uint64_t f;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
	return (double)f;
}

/* arm64_cpu_name - "ARM Neoverse-N1" (or "ARM part 0xd0c") and "ARM", from the implementer
 * and part of @cpuinfo, into model[mlen] and vendor[vlen]; untouched without them. Pure */
void arm64_cpu_name(const char *cpuinfo, char *model, size_t mlen, char *vendor, size_t vlen);

#endif /* JS_COUNTER_ARM64_H */
