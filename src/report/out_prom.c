// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_prom.c - the --prom output: the run's Prometheus exposition (prom.c, js_prom.h) for
 * node_exporter's textfile collector. The file describes the last run: it is written to
 * FILE.tmp and renamed over FILE at the end, so the collector never reads half a file
 * (a FIFO or a device is written in place: renaming over it would replace it). With
 * --budget, the limits are checked once at the end and their violations exported.
 * Metric names and labels are listed in docs/OUTPUTS.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "js_output.h"
#include "js_params.h"
#include "js_prom.h"
#include "js_result.h"
#include "js_util.h"

struct prom_out {
	FILE *fp;
	char *path, *tmp;       /* tmp NULL for stdout, a FIFO or a device */
	struct js_prom *m;
	bool budget;
	bool renamed;
	int err;
};

static void prom_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			size_t nev)
{
	struct prom_out *p = ctx;

	(void)ev;
	(void)nev;
	prom_add_gap(p->m, g);
}

static void prom_run_start(void *ctx, const struct js_run *run)
{
	struct prom_out *p = ctx;

	if (!p->err)
		p->err = prom_start(p->m, run);
}

static int prom_finish(void *ctx, const struct js_run *run)
{
	struct prom_out *p = ctx;
	int err = p->err;

	if (err || !p->fp)
		goto out;
	if (p->budget)
		prom_count_budget(p->m, run);
	err = prom_write(p->fp, p->m, run);
	if (err == -ENOMEM)
		goto out;
	err = output_file_close(p->fp);
	p->fp = NULL;
	if (!err && p->tmp && rename(p->tmp, p->path))
		err = -errno;   /* outputs_finish names the file */
	if (!err)
		p->renamed = true;
out:
	return err;
}

static void prom_destroy(void *ctx)
{
	struct prom_out *p = ctx;

	if (!p)
		return;
	output_file_close(p->fp);
	if (p->tmp && !p->renamed)
		unlink(p->tmp);
	prom_free(p->m);
	free(p->path);
	free(p->tmp);
	free(p);
}

/* out_prom_new - the --prom output (see the top of this file); params: the budget */
int out_prom_new(struct js_output *out, const char *path,
		    const struct js_params *params)
{
	struct prom_out *p = calloc(1, sizeof(*p));
	int err = -ENOMEM;

	if (!p)
		goto out;
	p->m = prom_new();
	p->path = strdup(path);
	if (!p->m || !p->path)
		goto out;
	if (params && params->budget.n) {
		prom_set_budget(p->m, &params->budget);
		p->budget = true;
	}
	/* a regular file is replaced whole; a FIFO or device (/dev/null) is written in place */
	if (strcmp(path, "-") && !output_path_special(path) &&
	    asprintf(&p->tmp, "%s.tmp", path) < 0) {
		p->tmp = NULL;
		goto out;
	}
	err = -EIO;
	p->fp = output_file_open(p->tmp ? p->tmp : path, "prom");
	if (!p->fp)
		goto out;
	out->name = "Prometheus";
	out->ctx = p;
	out->run_start = prom_run_start;
	out->on_gap = prom_on_gap;
	out->finish = prom_finish;
	out->destroy = prom_destroy;
	return 0;
out:
	if (err == -ENOMEM)
		js_err("out of memory opening the Prometheus output");
	if (p) {
		prom_free(p->m);
		free(p->path);
		free(p->tmp);
		free(p);
	}
	return err;
}
