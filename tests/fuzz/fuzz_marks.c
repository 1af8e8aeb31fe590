// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fuzz_marks.c - the marks file's lines (js_marks.h): any bytes, a mark or a reason. */
#include <errno.h>

#include "fuzz.h"
#include "js_marks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct js_mark m;
	char why[80];
	int rc = marks_parse_line((const char *)data, size, &m, why, sizeof(why));

	if (rc == 0 && (m.end_ns < m.start_ns || strlen(m.label) >= JS_LABEL_LEN))
		abort();
	if (rc < 0 && (rc != -EINVAL || !why[0]))
		abort();
	marks_parse_line((const char *)data, size, &m, why, 1);
	marks_parse_line((const char *)data, size, &m, NULL, 0);
	return 0;
}
