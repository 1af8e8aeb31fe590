// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* model.c - names of the result model's enums (see js_model.h). */
#include <string.h>

#include "js_model.h"

static const char *const cause_names[JS_CAUSE_MAX] = {
	[JS_CAUSE_UNEXPLAINED] = "unexplained",
	[JS_CAUSE_TASK] = "task",
	[JS_CAUSE_IDLE] = "idle",
	[JS_CAUSE_IRQ] = "irq",
	[JS_CAUSE_TIMER] = "timer",
	[JS_CAUSE_IPI] = "ipi",
	[JS_CAUSE_VECTOR] = "vector",
	[JS_CAUSE_SOFTIRQ] = "softirq",
	[JS_CAUSE_HRTIMER] = "hrtimer",
	[JS_CAUSE_NMI] = "nmi",
	[JS_CAUSE_FAULT] = "fault",
	[JS_CAUSE_WORK] = "work",
	[JS_CAUSE_THP] = "thp",
	[JS_CAUSE_TLB] = "tlb",
	[JS_CAUSE_MM] = "mm",
	[JS_CAUSE_STEAL] = "steal",
	[JS_CAUSE_SMI] = "smi",
};

const char *js_cause_name(enum js_cause c)
{
	return (unsigned)c < JS_CAUSE_MAX ? cause_names[c] : "?";
}

int js_cause_from_name(const char *name)
{
	for (int i = 0; i < JS_CAUSE_MAX; i++)
		if (!strcmp(name, cause_names[i]))
			return i;
	return -1;
}
