// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * smi_arm64.c - arm64 has no System Management Interrupt: its firmware runs at EL3 (the
 * secure monitor, SDEI, RAS firmware-first handling) and takes the CPU without a counter
 * the kernel exposes, so what it takes shows as an unexplained gap (see js_smi.h).
 */
#include <errno.h>
#include <stdio.h>

#include "js_smi.h"

#define SMI_ARM64_WHY "arm64 has no SMI counter (firmware time at EL3 is not counted)"

int smi_open(int cpu, struct js_smi *s, char *why, size_t len)
{
	s->fd = -1;
	s->cpu = cpu;
	s->src = JS_SMI_NONE;
	if (why && len)
		snprintf(why, len, "%s", SMI_ARM64_WHY);
	return -EOPNOTSUPP;
}

int smi_read(struct js_smi *s, uint64_t *count)
{
	(void)s;
	(void)count;
	return -EBADF;
}
