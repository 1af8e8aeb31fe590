// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fuzz_budget.c - --budget specs ("max=50us,p99.9=5us,smi=0,irq=0,lost=0.1%"). */
#include "fuzz.h"
#include "js_budget.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct js_budget b;
	char err[160], *s = fuzz_str(data, size);

	budget_parse(s, &b, err, sizeof(err));
	budget_parse(s, &b, err, 1);
	budget_parse(s, &b, NULL, 0);
	free(s);
	return 0;
}
