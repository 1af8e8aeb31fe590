// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_hgrm.c - the --hgrm output: the percentile distribution of the gap durations in
 * HdrHistogram Java's classic format (outputPercentileDistribution, 5 ticks per half
 * distance; hlog.c writes it byte for byte like Java).
 *
 * Values are in ns (unit ratio 1), like the values of --hlog and the JSON's *_ns keys:
 * `HistogramLogProcessor -i run.hlog -outputValueUnitRatio 1` prints the same table.
 * (HistogramLogProcessor's default ratio, 1e6, would show ms.) With several measured
 * CPUs the table is of every CPU's gaps merged, the same as --hlog's untagged lines
 * summed over the run.
 */
#include <errno.h>
#include <stdlib.h>

#include "js_hlog.h"
#include "js_output.h"
#include "js_result.h"

#define HGRM_UNIT_RATIO 1.0 /* ns */
#define HGRM_TICKS 5	    /* Java's default ticks per half distance */

/* hgrm_merged - every CPU's gap histogram added up, into m (initialised here) */
static int hgrm_merged(const struct js_run *run, struct js_hist *m)
{
	int err = hist_init(m, JS_HIST_LOWEST, JS_HIST_HIGHEST_NS, JS_HIST_SIG);

	for (size_t i = 0; !err && i < run->ncpus; i++)
		err = hist_add(m, &run->cpus[i].hist);
	return err;
}

static int hgrm_finish(void *ctx, const struct js_run *run)
{
	struct js_hist m = { 0 };
	int err = hgrm_merged(run, &m);

	if (!err)
		err = hgrm_write(ctx, &m, HGRM_UNIT_RATIO, HGRM_TICKS);
	if (!err)
		err = output_file_flush(ctx);
	hist_free(&m);
	return err;
}

static void hgrm_destroy(void *ctx)
{
	output_file_close(ctx);
}

/* out_hgrm_new - the --hgrm output (see the top of this file) */
int out_hgrm_new(struct js_output *out, const char *path, const struct js_params *params)
{
	FILE *fp = output_file_open(path, "hgrm");

	(void)params; /* no settings */
	if (!fp)
		return -EIO;
	out->name = "HdrHistogram percentile";
	out->ctx = fp;
	out->file = fp;
	out->finish = hgrm_finish;
	out->destroy = hgrm_destroy;
	return 0;
}
