// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_audit.c - the isolation audit's /proc and /sys parsers. Input: "PATH\nCONTENT": the
 * file PATH of the fixture tree (interrupts, softirqs, meminfo, cpulists, masks, task stat
 * and status, irq affinity, sysctls, tuned and irqbalance config ...; an unknown PATH picks
 * one by its hash) is replaced by CONTENT, and the audit runs.
 */
#include "fuzz_sysroot.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_setup();
	atexit(fz_cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t plen = nl ? (size_t)(nl - data) : size;
	char path[256];
	uint32_t h = 2166136261u;
	int i;

	if (plen >= sizeof(path))
		plen = sizeof(path) - 1;
	memcpy(path, data, plen);
	path[plen] = '\0';
	i = fz_index(path);
	if (i < 0) {
		for (size_t k = 0; k < plen; k++)
			h = (h ^ data[k]) * 16777619u;
		i = (int)(h % fz_n);
	}
	/* the rest after the newline (plen may have been cut to fit path) */
	fz_replace(i, nl ? nl + 1 : data + size, nl ? (size_t)(data + size - (nl + 1)) : 0);
	return 0;
}
