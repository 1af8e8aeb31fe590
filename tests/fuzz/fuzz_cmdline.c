// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_cmdline.c - the kernel command line parser (isolcpus= flags and lists, nohz_full=,
 * rcu_nocbs=, irqaffinity=, console=, "N" for the last CPU, "--" end): the input is
 * /proc/cmdline of the fixture tree, and the whole audit runs on it.
 */
#include "fuzz_sysroot.h"

static int cmdline;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_setup();
	atexit(fz_cleanup);
	cmdline = fz_index("proc/cmdline");
	if (cmdline < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_replace(cmdline, data, size);
	return 0;
}
