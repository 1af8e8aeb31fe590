// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* vmexit.c - the round trips' summary (see js_vmexit.h); the round trips themselves are the
 * arch's: vmexit_x86.c, vmexit_arm64.c. */
#include <stdlib.h>
#include <string.h>

#include "js_tsc.h"
#include "js_vmexit.h"

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

/* rank - nearest rank: the smallest value with at least pct % of the n sorted values */
static uint32_t rank(const uint32_t *v, size_t n, unsigned int pct)
{
	size_t k = (n * pct + 99) / 100;

	return v[(k ? k : 1) - 1];
}

/* vmexit_summarise - min, median and p90 of n round trips */
void vmexit_summarise(struct js_vmexit *out, uint32_t *c, size_t n)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	qsort(c, n, sizeof(*c), cmp_u32);
	out->samples = (uint32_t)n;
	out->min_cycles = c[0];
	out->median_cycles = rank(c, n, 50);
	out->p90_cycles = rank(c, n, 90);
}
