// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_hdr.c - HdrHistogram decoding (the "HISTF..." base64 of --json histograms and
 * --hlog lines, read back by `jitterscope report`): base64, compressed and V2 payloads.
 */
#include "fuzz.h"
#include "js_hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct js_hist h;
	uint8_t *raw = NULL;
	size_t len;
	char *s = fuzz_str(data, size);

	memset(&h, 0, sizeof(h));
	if (hist_decode_v2(data, size, &h) == 0) {
		hist_value_at_percentile(&h, 99.9);
		hist_max(&h);
	}
	hist_free(&h);
	memset(&h, 0, sizeof(h));
	if (hist_decode_compressed_b64(s, &h) == 0)
		hist_value_at_percentile(&h, 50);
	hist_free(&h);
	if (js_b64_decode(s, &raw, &len) == 0)
		free(raw);
	free(s);
	return 0;
}
