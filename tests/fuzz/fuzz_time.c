// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fuzz_time.c - TIME and SIZE values (js_units.h), priorities (-P), SMI event strings. */
#include "fuzz.h"
#include "js_sampler.h"
#include "js_smi.h"
#include "js_units.h"

/* the shapes the options use: bare s from 0, bare us from 1, a unit required up to 1 h */
static const struct js_unit_spec specs[] = {
	{ JS_SEC, 0, JS_TIME_MAX, "0 = until Ctrl-C" },
	{ JS_US, 1, JS_TIME_MAX, NULL },
	{ 0, 1, 3600 * JS_SEC, NULL },
	{ JS_SEC, JS_MS, JS_TIME_MAX, NULL },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[200], *s = fuzz_str(data, size);
	uint64_t v, cfg;
	int policy, prio, ret;

	/* an accepted value is in its range; a refused one leaves a message and no value */
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		v = 7;
		ret = js_parse_time(s, &specs[i], &v, err, sizeof(err));
		if (!ret && (v < specs[i].min || v > specs[i].max))
			abort();
		if (ret && (v != 7 || !err[0] || strchr(err, '\n')))
			abort();
		js_parse_time(s, &specs[i], &v, err, 1);
	}
	v = 7;
	ret = js_parse_size(s, &(struct js_unit_spec){ 1, 0, UINT64_MAX, NULL }, &v, NULL, 0);
	if (ret && v != 7)
		abort();
	if (sampler_parse_priority(s, &policy, &prio) == 0 && (prio < 0 || prio > 99))
		abort();
	smi_parse_event(s, &cfg);
	free(s);
	return 0;
}
