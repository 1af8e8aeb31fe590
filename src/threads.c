// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* threads.c - the gap source of the threads followed with --pid/--tid (js_source.h). */
#include <errno.h>

#include "js_source.h"
#include "js_util.h"

int threads_source_open(struct gap_source *s, struct js_pipe *pl)
{
	(void)s;
	(void)pl;
	js_err("--pid and --tid are not available yet");
	return -ENOTSUP;
}
