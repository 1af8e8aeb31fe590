// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_folded.c - the --folded output: the run's lost time as folded stacks for a flame graph,
 * written at the end from the result (folded.c; js_folded.h says the lines), so a saved run
 * writes it too (report RUN.json --folded FILE).
 */
#include <errno.h>

#include "js_folded.h"
#include "js_output.h"

static int folded_finish(void *ctx, const struct js_run *run)
{
	int err = folded_write(ctx, run);

	return err ? err : output_file_flush(ctx);
}

static void folded_destroy(void *ctx)
{
	output_file_close(ctx);
}

/* out_folded_new - the --folded output (see the top of this file) */
int out_folded_new(struct js_output *out, const char *path, const struct js_params *params)
{
	FILE *fp = output_file_open(path, "folded");

	(void)params; /* no settings */
	if (!fp)
		return -EIO;
	out->name = "folded stacks";
	out->ctx = fp;
	out->file = fp;
	out->finish = folded_finish;
	out->destroy = folded_destroy;
	return 0;
}
