// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_prom.c - the --prom output: the run's Prometheus exposition (prom.c, js_prom.h) for
 * node_exporter's textfile collector. The file is written to FILE.tmp and renamed over
 * FILE, so the collector never reads half a file (a FIFO or a device is written in place:
 * renaming over it would replace it): at the end of the run, and with --prom-interval TIME
 * also every TIME while it runs (counters monotonic from one file to the next). The first
 * FILE.tmp is opened before measuring, so a bad path fails at once. With --budget the
 * limits' violations (run->budget_viol) are exported. Names and labels: docs/OUTPUTS.md.
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
	FILE *fp;	  /* the next file to write, open (NULL between interval writes) */
	char *path, *tmp; /* tmp NULL for stdout, a FIFO or a device */
	struct js_prom *m;
	uint64_t interval_ns, next_ns;
	uint64_t writes;
	int err; /* prom_start's; then the last interval write's */
	bool warned;
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
	p->next_ns = run->start_mono_ns + p->interval_ns;
}

/* publish - the exposition of run now into FILE (through FILE.tmp); 0 or -errno */
static int publish(struct prom_out *p, const struct js_run *run)
{
	int err;

	if (!p->fp)
		p->fp = output_file_open(p->tmp ? p->tmp : p->path, "prom");
	if (!p->fp)
		return -EIO;
	err = prom_write(p->fp, p->m, run);
	if (err == -ENOMEM) {
		output_file_close(p->fp);
		p->fp = NULL;
		return err;
	}
	err = output_file_close(p->fp);
	p->fp = NULL;
	if (!err && p->tmp && rename(p->tmp, p->path))
		err = -errno;
	if (err && p->tmp)
		unlink(p->tmp); /* FILE stays the last complete one */
	p->writes++;
	return err;
}

/* prom_on_tick - --prom-interval: the file rewritten every interval; a failed write (a
 * full disk) is said once and tried again at the next one, the run goes on */
static void prom_on_tick(void *ctx, const struct js_run *run, uint64_t now_ns)
{
	struct prom_out *p = ctx;
	int err;

	if (!p->interval_ns || now_ns < p->next_ns || p->err == -ENOMEM)
		return;
	p->next_ns = now_ns + p->interval_ns;
	err = publish(p, run);
	if (err && !p->warned)
		js_warn("cannot rewrite --prom file '%s': %s (trying again every interval)",
			p->path, strerror(-err));
	p->warned |= err != 0;
	p->err = err;
}

/* prom_replay - a saved run's gaps, from each result's histogram by cause */
static void prom_replay(void *ctx, const struct js_run *run)
{
	struct prom_out *p = ctx;

	for (size_t i = 0; i < run->ncpus; i++)
		prom_add_buckets(p->m, i, &run->cpus[i].cb);
}

static int prom_finish(void *ctx, const struct js_run *run)
{
	struct prom_out *p = ctx;

	if (p->err == -ENOMEM)
		return p->err;
	return publish(p, run); /* outputs_finish names the file */
}

static void prom_destroy(void *ctx)
{
	struct prom_out *p = ctx;

	if (!p)
		return;
	if (p->fp && p->tmp)
		unlink(p->tmp); /* opened, never written */
	output_file_close(p->fp);
	prom_free(p->m);
	free(p->path);
	free(p->tmp);
	free(p);
}

/* out_prom_new - the --prom output (see the top of this file); params: the budget and
 * --prom-interval */
int out_prom_new(struct js_output *out, const char *path, const struct js_params *params)
{
	struct prom_out *p = calloc(1, sizeof(*p));
	int err = -ENOMEM;

	if (!p)
		goto out;
	p->m = prom_new();
	p->path = strdup(path);
	if (!p->m || !p->path)
		goto out;
	if (params && params->budget.n)
		prom_set_budget(p->m, &params->budget);
	p->interval_ns = params ? params->prom_interval_ns : 0;
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
	out->on_tick = prom_on_tick;
	out->replay = prom_replay;
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
