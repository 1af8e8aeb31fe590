// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tsc.c - TSC -> CLOCK_MONOTONIC calibration. CPUID leaves 0x15/0x16 read zero
 * on VMs, so the frequency comes from a least-squares fit of paired reads
 * (TSC; clock_gettime; TSC) taken before, during and after the run. Also the choice of
 * the TSC read (--clock) and the names of its modes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "js_tsc.h"
#include "js_util.h"

static const char *const read_names[] = {
	[TSC_READ_RDTSCP] = "rdtscp",
	[TSC_READ_LFENCE_RDTSC] = "lfence;rdtsc",
	[TSC_READ_CNTVCT] = "isb;cntvct_el0",
};

/* tsc_read_name - "rdtscp", "lfence;rdtsc", "isb;cntvct_el0"; NULL if unknown */
const char *tsc_read_name(enum tsc_read r)
{
	return (unsigned)r < ARRAY_SIZE(read_names) ? read_names[r] : NULL;
}

/* tsc_read_from_name - the enum tsc_read named name; -1 if none */
int tsc_read_from_name(const char *name)
{
	return js_name_index(read_names, ARRAY_SIZE(read_names), name);
}

static const char *const clock_names[] = {
	[TSC_CLOCK_AUTO] = "auto",
	[TSC_CLOCK_RDTSCP] = "rdtscp",
	[TSC_CLOCK_LFENCE] = "lfence",
};

/* tsc_clock_name - "auto", "rdtscp", "lfence"; NULL if unknown */
const char *tsc_clock_name(enum tsc_clock c)
{
	return (unsigned)c < ARRAY_SIZE(clock_names) ? clock_names[c] : NULL;
}

/* tsc_clock_from_name - the enum tsc_clock named name; -1 if none */
int tsc_clock_from_name(const char *name)
{
	return js_name_index(clock_names, ARRAY_SIZE(clock_names), name);
}

/* tsc_read_describe - "lfence;rdtsc (--clock auto)" */
const char *tsc_read_describe(char *buf, size_t len, enum tsc_read r, enum tsc_clock c)
{
	const char *rn = tsc_read_name(r), *cn = tsc_clock_name(c);

	snprintf(buf, len, "%s (--clock %s)", rn ? rn : "?", cn ? cn : "?");
	return buf;
}

/* both reads inlined: the window between them is what the pair's precision rests on */
static __attribute__((always_inline)) inline struct tsc_pair pair_read(int tries, enum tsc_read r)
{
	struct tsc_pair best = { .window = UINT32_MAX };
	struct timespec ts;

	for (int i = 0; i < tries; i++) {
		uint64_t t1 = js_tsc_read(r);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t t2 = js_tsc_read(r);
		uint64_t w = t2 - t1;

		if (w < best.window) {
			best.window = (uint32_t)(w > UINT32_MAX ? UINT32_MAX : w);
			best.tsc = t1 + w / 2;
			best.ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		}
	}
	return best;
}

struct tsc_pair tsc_pair_read(int tries, enum tsc_read r)
{
	if (r == TSC_READ_LFENCE_RDTSC)
		return pair_read(tries, TSC_READ_LFENCE_RDTSC);
	if (r == TSC_READ_CNTVCT)
		return pair_read(tries, TSC_READ_CNTVCT);
	return pair_read(tries, TSC_READ_RDTSCP);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* tsc_step_of - the gcd of the nonzero differences of consecutive reads */
uint64_t tsc_step_of(const uint64_t *v, size_t n)
{
	uint64_t g = 0;

	for (size_t i = 1; i < n && g != 1; i++)
		if (v[i] != v[i - 1])
			g = gcd_u64(g, v[i] - v[i - 1]);
	return g;
}

/* both reads inlined, as in pair_read: the loop reads as fast as the sampler's */
static __attribute__((always_inline)) inline void step_reads(uint64_t *v, size_t n, enum tsc_read r)
{
	for (size_t i = 0; i < n; i++)
		v[i] = js_tsc_read(r);
}

uint64_t tsc_counter_step(enum tsc_read r)
{
	static uint64_t v[TSC_STEP_READS];

	if (r == TSC_READ_LFENCE_RDTSC)
		step_reads(v, TSC_STEP_READS, TSC_READ_LFENCE_RDTSC);
	else if (r == TSC_READ_CNTVCT)
		step_reads(v, TSC_STEP_READS, TSC_READ_CNTVCT);
	else
		step_reads(v, TSC_STEP_READS, TSC_READ_RDTSCP);
	return tsc_step_of(v, TSC_STEP_READS);
}

void tsc_cal_add(struct tsc_cal *c, struct tsc_pair p)
{
	if (c->n == TSC_MAX_PAIRS) {
		/* keep the first pair, thin the rest: the span is what makes the fit */
		size_t k = 1;

		for (size_t i = 2; i < c->n; i += 2)
			c->pairs[k++] = c->pairs[i];
		c->n = k;
	}
	c->pairs[c->n++] = p;
}

int tsc_fit_pairs(const struct tsc_pair *p, size_t n, struct tsc_fit *out)
{
	long double sx = 0, sy = 0, sxx = 0, sxy = 0;
	uint64_t tsc0, ns0;
	long double a, b, den, sq = 0, mx = 0;

	if (n < 2)
		return -EINVAL;
	tsc0 = p[0].tsc;
	ns0 = p[0].ns;
	/* relative coordinates keep long double exact enough at ns scale */
	for (size_t i = 0; i < n; i++) {
		long double x = (long double)(int64_t)(p[i].tsc - tsc0);
		long double y = (long double)(int64_t)(p[i].ns - ns0);

		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	den = n * sxx - sx * sx;
	if (den <= 0)
		return -EINVAL;
	b = (n * sxy - sx * sy) / den;
	a = (sy - b * sx) / n;
	if (b <= 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		long double x = (long double)(int64_t)(p[i].tsc - tsc0);
		long double y = (long double)(int64_t)(p[i].ns - ns0);
		long double r = fabsl(a + b * x - y);

		sq += r * r;
		if (r > mx)
			mx = r;
	}
	/* fold the intercept into the origin so tsc_to_ns is one multiply */
	out->tsc0 = tsc0;
	out->ns0 = ns0 + (int64_t)llroundl(a);
	out->ns_per_cycle = (double)b;
	out->hz = 1e9 / (double)b;
	out->residual_max_ns = (double)mx;
	out->residual_rms_ns = sqrt((double)(sq / n));
	out->npairs = n;
	return 0;
}

int tsc_cal_refit(struct tsc_cal *c)
{
	return tsc_fit_pairs(c->pairs, c->n, &c->fit);
}

static bool has_flag(const char *cpuinfo, const char *flag)
{
	const char *line = cpuinfo ? strstr(cpuinfo, "\nflags") : NULL;
	size_t fl = strlen(flag);

	if (!line)
		return false;
	const char *end = strchr(line + 1, '\n');
	const char *p = strchr(line, ':');

	if (!p)
		return false;
	for (p++; p && (!end || p < end);) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, flag, fl) && (p[fl] == ' ' || p[fl] == '\n' || !p[fl]))
			return true;
		p = strchr(p, ' ');
	}
	return false;
}

void tsc_caps_detect(struct tsc_caps *c, const char *cpuinfo)
{
	memset(c, 0, sizeof(*c));
	c->constant_tsc = has_flag(cpuinfo, "constant_tsc");
	c->nonstop_tsc = has_flag(cpuinfo, "nonstop_tsc");
	c->known_freq = has_flag(cpuinfo, "tsc_known_freq");
	c->hypervisor = has_flag(cpuinfo, "hypervisor");
	tsc_caps_arch(c, cpuinfo);
	if (!c->model[0] && cpuinfo) {
		const char *m = strstr(cpuinfo, "model name");
		const char *colon = m ? strchr(m, ':') : NULL;

		if (colon) {
			size_t k = 0;

			for (colon += 2; *colon && *colon != '\n' && k < sizeof(c->model) - 1;)
				c->model[k++] = *colon++;
		}
	}
	/* brand strings are padded with blanks (CPUID's 48 bytes) */
	for (size_t k = strlen(c->model); k && (c->model[k - 1] == ' ' || c->model[k - 1] == '\t');)
		c->model[--k] = 0;
}

bool tsc_caps_invariant(const struct tsc_caps *c)
{
	return c->invariant_cpuid || (c->constant_tsc && c->nonstop_tsc);
}
