// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_cli.c - the whole command line: the input split at NUL bytes is argv[1..] (so option
 * names, values, subcommands and their cross-checks all get arbitrary text).
 */
#include "fuzz.h"
#include "js_params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct js_params p;
	char *argv[34], *s;
	int argc = 0;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	argv[argc++] = "jitterscope";
	for (char *a = s; argc < 33 && a <= s + size; a += strlen(a) + 1)
		argv[argc++] = a;
	argv[argc] = NULL;
	if (cli_parse(argc, argv, &p) == 0) {
		if (p.cfg.ncpus > JS_CPUS_MAX || p.cfg.nhk > JS_CPUS_MAX || p.ninputs > 2)
			abort();
		if (!p.help && p.cfg.duration_ns && p.cfg.threshold_ns >= p.cfg.duration_ns)
			abort();
	}
	free(s);
	return 0;
}
