// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * main.c - the command line, then the command it names (js_commands[], commands.c).
 * Exit codes are in js_util.h and README.md.
 */
#include <stdio.h>

#include "js_params.h"
#include "js_util.h"

int main(int argc, char **argv)
{
	static struct js_params p;

	if (cli_parse(argc, argv, &p))
		return JS_EXIT_USAGE;
	if (p.help)
		return JS_EXIT_OK;
	js_verbose = p.verbose;
	js_quiet = p.quiet;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	return js_commands[p.cmd].run(&p);
}
