// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* out_json.c - the --json output: the document of js_json_run.h's sections (docs/JSON.md) */
#include <errno.h>
#include <stdlib.h>

#include "js_json.h"
#include "js_json_run.h"
#include "js_output.h"
#include "js_report.h"

/* out_json_write - the document: each section of the table, in its order */
void out_json_write(FILE *fp, const struct js_run *run)
{
	struct js_json j;

	json_init(&j, fp);
	json_obj_begin(&j, NULL);
	for (size_t i = 0; i < js_json_nsections; i++)
		js_json_sections[i].write(&j, js_json_sections[i].key, run);
	json_obj_end(&j);
}

/* the --json output: written once, from the final result */
static int json_finish(void *ctx, const struct js_run *run)
{
	out_json_write(ctx, run);
	return output_file_flush(ctx);
}

static void json_destroy(void *ctx)
{
	output_file_close(ctx);
}

int out_json_new(struct js_output *out, const char *path, const struct js_params *params)
{
	FILE *fp = output_file_open(path, "json");

	(void)params; /* no settings */
	if (!fp)
		return -EIO;
	out->name = "JSON";
	out->ctx = fp;
	out->file = fp;
	out->finish = json_finish;
	out->destroy = json_destroy;
	return 0;
}
