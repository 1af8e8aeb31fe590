// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* output.c - the list of requested outputs (see js_output.h) and file helpers. */
#include <errno.h>
#include <string.h>

#include "js_output.h"
#include "js_params.h"
#include "js_util.h"

FILE *output_file_open(const char *path, const char *what)
{
	FILE *fp;

	if (!strcmp(path, "-"))
		return stdout;
	fp = fopen(path, "w");
	if (!fp)
		js_err("cannot write %s file '%s': %s", what, path, strerror(errno));
	return fp;
}

int output_file_close(FILE *fp)
{
	int err = 0;

	if (!fp)
		return 0;
	if (fflush(fp) || ferror(fp))
		err = -EIO;
	if (fp != stdout && fclose(fp))
		err = -EIO;
	return err;
}

static int add(struct js_outputs *o, int (*ctor)(struct js_output *, const char *),
	       const char *path)
{
	int err;

	if (!path)
		return 0;
	if (o->n == JS_OUTPUTS_MAX)
		return -ENOSPC;
	memset(&o->v[o->n], 0, sizeof(o->v[o->n]));
	err = ctor(&o->v[o->n], path);
	if (err)
		return err;
	o->n++;
	return 0;
}

int outputs_open(struct js_outputs *o, const struct js_params *p)
{
	int err;

	o->n = 0;
	err = add(o, json_output_new, p->json_path);
	if (!err)
		err = add(o, gaps_output_new, p->gaps_path);
	if (!err)
		err = add(o, hlog_output_new, p->hlog_path);
	if (!err)
		err = add(o, hgrm_output_new, p->hgrm_path);
	if (!err)
		err = add(o, prom_output_new, p->prom_path);
	if (!err)
		err = add(o, trace_output_new, p->trace_path);
	if (!err)
		err = add(o, html_output_new, p->html_path);
	if (err)
		outputs_destroy(o);
	return err;
}

int outputs_finish(struct js_outputs *o, const struct js_run *run)
{
	int first = 0;

	for (size_t i = 0; i < o->n; i++) {
		int err = o->v[i].finish ? o->v[i].finish(o->v[i].ctx, run) : 0;

		if (err) {
			js_err("writing the %s output failed: %s", o->v[i].name, strerror(-err));
			if (!first)
				first = err;
		}
	}
	return first;
}

void outputs_destroy(struct js_outputs *o)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->v[i].destroy)
			o->v[i].destroy(o->v[i].ctx);
	o->n = 0;
}
