// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fuzz_cpulist.c - CPU lists ("1,3-5", "0-N:2/4", "N") and hex cpumasks ("ff,00000001"). */
#include "fuzz.h"
#include "js_cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct js_cpuset set;
	char err[128], out[8192];
	char *s = fuzz_str(data, size);
	int last = size ? data[0] % 8 * 150 - 1 : -1; /* -1 (no "N"), 149, 299 ... 1049 */

	if (cpulist_parse(s, &set, err, sizeof(err)) == 0) {
		/* what parses formats and parses back to the same set */
		struct js_cpuset again;

		if (cpulist_format(&set, out, sizeof(out)) > 0 &&
		    (cpulist_parse(out, &again, NULL, 0) || memcmp(&set, &again, sizeof(set))))
			abort();
		for (int c = cpuset_next(&set, 0); c >= 0; c = cpuset_next(&set, c + 1))
			if (c >= JS_MAX_CPUS)
				abort();
	}
	cpulist_parse_n(s, &set, last, size & 1, err, sizeof(err));
	cpulist_parse_n(s, &set, last, false, NULL, 0);
	cpumask_parse(s, &set, err, sizeof(err));
	cpumask_parse(s, &set, err, 1);
	free(s);
	return 0;
}
