// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_report.c - `jitterscope report` and `jitterscope diff`: saved runs in, reports out. */
#include <string.h>

#include "js_cmds.h"
#include "js_diff.h"
#include "js_output.h"
#include "js_report.h"
#include "js_run_load.h"
#include "js_util.h"

/* load - one saved run, or one line on stderr */
static int load(const char *path, struct js_run *run)
{
	char err[512];

	if (run_load_file(path, run, err, sizeof(err)) == 0)
		return 0;
	js_err("%s: %s", path, err);
	return -1;
}

/* finish - flush stdout; a write error (a full disk, a closed pipe) is an error */
static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		js_err("writing the report failed");
		return JS_EXIT_ERROR;
	}
	return rc;
}

/* cmd_report - the saved run's human report */
int cmd_report(const struct js_params *p)
{
	struct js_run run;

	if (load(p->inputs[0], &run))
		return JS_EXIT_ERROR;
	report_text(stdout, &run);
	run_load_free(&run);
	return finish(JS_EXIT_OK);
}

/* write_file - one rendering of the comparison into path ("-": stdout) */
static int write_file(const char *path, const char *what, const struct js_diff *d,
		      void (*render)(FILE *fp, const struct js_diff *d))
{
	FILE *fp = output_file_open(path, what);

	if (!fp)
		return -1;
	render(fp, d);
	return output_file_done(fp, path, what) ? -1 : 0;
}

/* diff_outputs - the text (stdout, or stderr when a file goes to stdout), the JSON and
 * HTML files, and with --fail-on worse the verdict as the last line of the text */
static int diff_outputs(const struct js_params *p, const struct js_diff *d)
{
	bool to_stdout = (p->json_path && !strcmp(p->json_path, "-")) ||
			 (p->html_path && !strcmp(p->html_path, "-"));
	FILE *text = to_stdout ? stderr : stdout;

	if (!d->ncpus && d->a->ncpus && d->b->ncpus) {
		js_err("%s and %s have no measured CPU to compare", p->inputs[0], p->inputs[1]);
		return JS_EXIT_ERROR;
	}
	if (!to_stdout || !p->quiet)
		report_diff_text(text, d);
	if (p->json_path && write_file(p->json_path, "json", d, report_diff_json))
		return JS_EXIT_ERROR;
	if (p->html_path && write_file(p->html_path, "html", d, report_diff_html))
		return JS_EXIT_ERROR;
	if (!p->fail_on_worse)
		return JS_EXIT_OK;
	fflush(stdout);
	if (!d->count[DIFF_WORSE]) {
		fprintf(text, "fail-on worse: no change is significantly worse\n");
		return JS_EXIT_OK;
	}
	fprintf(text, "fail-on worse: %zu change%s worse, the first: %s\n", d->count[DIFF_WORSE],
		d->count[DIFF_WORSE] == 1 ? " is" : "s are", d->first_worse);
	return JS_EXIT_VIOLATION;
}

/* cmd_diff - two saved runs compared */
int cmd_diff(const struct js_params *p)
{
	const struct js_diff_opts o = { p->alpha, p->min_change_pct / 100 };
	struct js_run a, b;
	struct js_diff d;
	int rc = JS_EXIT_ERROR;

	if (load(p->inputs[0], &a))
		return JS_EXIT_ERROR;
	if (load(p->inputs[1], &b))
		goto out;
	if (diff_compute(&d, &a, p->inputs[0], &b, p->inputs[1], &o))
		js_err("out of memory");
	else
		rc = diff_outputs(p, &d);
	diff_free(&d);
	run_load_free(&b);
out:
	run_load_free(&a);
	return finish(rc);
}
