// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_json.c - the JSON parser and what reads a saved run with it (`jitterscope report`):
 * jsonp_parse, report_load_buf, and the text and JSON reports of whatever loaded.
 */
#include "fuzz.h"
#include "js_jsonparse.h"
#include "js_report.h"
#include "js_result.h"
#include "js_report_load.h"

static FILE *null;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	null = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonp_doc d;
	struct js_run run;
	char err[256];

	memset(&d, 0, sizeof(d));
	if (jsonp_parse((const char *)data, size, &d, err, sizeof(err)) == 0)
		jsonp_free(&d);
	memset(&run, 0, sizeof(run));
	if (report_load_buf((const char *)data, size, &run, err, sizeof(err)) == 0) {
		report_text(null, &run);
		out_json_write(null, &run);
	}
	report_load_free(&run);
	return 0;
}
