// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fuzz_arrival.c - --arrival-interval lists and --burst counts. */
#include "fuzz.h"
#include "js_arrival.h"
#include "js_params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t v[JS_MAX_ARRIVALS], burst;
	char err[128], *s = fuzz_str(data, size);
	size_t n = 0, max = size ? data[0] % (JS_MAX_ARRIVALS + 1) : JS_MAX_ARRIVALS;

	if (arrival_parse_list(s, v, max, &n, err, sizeof(err)) == 0 && n > max)
		abort();
	arrival_parse_list(s, v, JS_MAX_ARRIVALS, &n, NULL, 0);
	arrival_parse_burst(s, &burst, err, sizeof(err));
	arrival_parse_burst(s, &burst, err, 1);
	free(s);
	return 0;
}
