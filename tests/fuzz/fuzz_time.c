// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fuzz_time.c - durations (-d, --warm-up), times (-T), priorities (-P), SMI event strings. */
#include "fuzz.h"
#include "js_params.h"
#include "js_sampler.h"
#include "js_smi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	uint64_t ns = 0, cfg;
	int policy, prio;

	/* an accepted value is below llround's range, and non-zero text is never 0 */
	if (cli_parse_duration(s, &ns) == 0 && ns >= 9200000000000000000ull)
		abort();
	if (cli_parse_time_us(s, &ns) == 0 && ns >= 9200000000000000000ull)
		abort();
	if (sampler_parse_priority(s, &policy, &prio) == 0 && (prio < 0 || prio > 99))
		abort();
	smi_parse_event(s, &cfg);
	free(s);
	return 0;
}
