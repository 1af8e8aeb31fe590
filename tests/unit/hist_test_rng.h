/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* hist_test_rng.h - deterministic splitmix64 stream for the histogram tests. */
#ifndef HIST_TEST_RNG_H
#define HIST_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state;

/* rnd - next pseudo-random 64-bit value (seed by assigning rng_state) */
static inline uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* rnd_value - log-uniform value in [0, 2^max_bits) so every bucket gets exercised */
static inline int64_t rnd_value(int max_bits)
{
	int bits = (int)(rnd() % (uint64_t)(max_bits + 1));

	return bits ? (int64_t)(rnd() & ((1ULL << bits) - 1)) : 0;
}

#endif /* HIST_TEST_RNG_H */
