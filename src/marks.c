// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* marks.c - the gap source of the application's marks (--marks FILE, js_source.h). */
#include <errno.h>

#include "js_source.h"
#include "js_util.h"

int marks_source_open(struct gap_source *s, struct js_pipe *pl)
{
	(void)s;
	(void)pl;
	js_err("--marks is not available yet");
	return -ENOTSUP;
}
