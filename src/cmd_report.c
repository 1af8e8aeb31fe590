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
	((struct js_params *)run.params)->by = p->by;   /* the loaded run's params, ours */
	report_text(stdout, &run);
	run_load_free(&run);
	return finish(JS_EXIT_OK);
}

/* diff_outputs - the text (stdout, or stderr when the JSON goes to stdout) and the JSON */
static int diff_outputs(const struct js_params *p, const struct js_run *a,
			const struct js_run *b)
{
	bool json_stdout = p->json_path && !strcmp(p->json_path, "-");
	FILE *json = NULL;
	size_t ncmp = 0;

	if (p->json_path && !(json = output_file_open(p->json_path, "json")))
		return JS_EXIT_ERROR;
	if (!json_stdout || !p->quiet)
		ncmp = report_diff_text(json_stdout ? stderr : stdout, a, p->inputs[0], b,
					p->inputs[1]);
	if (json) {
		ncmp = report_diff_json(json, a, p->inputs[0], b, p->inputs[1]);
		if (output_file_done(json, p->json_path, "json"))
			return JS_EXIT_ERROR;
	}
	if (!ncmp && a->ncpus && b->ncpus) {
		js_err("%s and %s have no measured CPU in common", p->inputs[0], p->inputs[1]);
		return JS_EXIT_ERROR;
	}
	return JS_EXIT_OK;
}

/* cmd_diff - two saved runs side by side */
int cmd_diff(const struct js_params *p)
{
	struct js_run a, b;
	int rc = JS_EXIT_ERROR;

	if (load(p->inputs[0], &a))
		return JS_EXIT_ERROR;
	if (load(p->inputs[1], &b))
		goto out;
	rc = diff_outputs(p, &a, &b);
	run_load_free(&b);
out:
	run_load_free(&a);
	return finish(rc);
}
