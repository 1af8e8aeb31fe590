// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* smi.c - the SMI counter's common part (see js_smi.h); opening and reading it is the
 * arch's: smi_x86.c, smi_arm64.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "js_smi.h"

/* smi_parse_event - parse a PMU event string ("event=0x04") into a perf config */
int smi_parse_event(const char *str, uint64_t *config)
{
	const char *p = strstr(str, "event=");
	unsigned long long v;
	char *end;

	if (!p)
		return -EINVAL;
	errno = 0;
	v = strtoull(p + 6, &end, 0);
	if (errno || end == p + 6 || (*end && *end != ',' && *end != '\n'))
		return -EINVAL;
	*config = v;
	return 0;
}

/* smi_close - close the counter; accepts a closed/zeroed struct */
void smi_close(struct js_smi *s)
{
	if (!s)
		return;
	if (s->src != JS_SMI_NONE && s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->src = JS_SMI_NONE;
}

/* smi_src_name - "perf msr/smi", "/dev/cpu/N/msr" or "none" */
const char *smi_src_name(enum js_smi_src src)
{
	switch (src) {
	case JS_SMI_PERF:
		return "perf msr/smi";
	case JS_SMI_MSR:
		return "/dev/cpu/N/msr";
	default:
		return "none";
	}
}
