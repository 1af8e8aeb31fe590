// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* on_end.c - --on-end CMD: the run's facts in JS_RUN_* variables, its JSON in a file, the
 * command run and waited for (js_on_end.h). Runs on the housekeeping thread, after the
 * report. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "js_on_end.h"
#include "js_output.h"
#include "js_params.h"
#include "js_report.h"
#include "js_spike_cmd.h"
#include "js_util.h"

size_t on_end_vars(const struct on_end_facts *f, char v[ON_END_VARS][ON_END_VAR_LEN])
{
	const char *by = js_end_name(f->ended_by);
	double pct = f->measured_ns ? 100.0 * (double)f->lost_ns / (double)f->measured_ns : 0.0;

	snprintf(v[0], ON_END_VAR_LEN, "JS_RUN_JSON=%s", f->json ? f->json : "");
	snprintf(v[1], ON_END_VAR_LEN, "JS_RUN_EXIT_STATUS=%d", f->status);
	snprintf(v[2], ON_END_VAR_LEN, "JS_RUN_ENDED_BY=%s", by ? by : "");
	snprintf(v[3], ON_END_VAR_LEN, "JS_RUN_LOST_NS=%" PRIu64, f->lost_ns);
	snprintf(v[4], ON_END_VAR_LEN, "JS_RUN_MEASURED_NS=%" PRIu64, f->measured_ns);
	snprintf(v[5], ON_END_VAR_LEN, "JS_RUN_LOST_PCT=%.4f", pct);
	snprintf(v[6], ON_END_VAR_LEN, "JS_RUN_VERDICT=%s", f->verdict ? f->verdict : "");
	return ON_END_VARS;
}

/* temp_json - the run's JSON document (as --json writes it) into a new temporary file in
 * $TMPDIR (else /tmp), its path into path; 0, or -1 after one line (path "") */
static int temp_json(const struct js_run *run, char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	FILE *fp = NULL;
	int fd, err;

	dir = dir && *dir ? dir : "/tmp";
	snprintf(path, len, "%s/jitterscope-run-XXXXXX.json", dir);
	fd = mkstemps(path, 5);
	if (fd >= 0 && !(fp = fdopen(fd, "w")))
		close(fd);
	if (fp) {
		out_json_write(fp, run);
		err = fflush(fp) || ferror(fp) ? (errno ?: EIO) : 0;
		if (fclose(fp) && !err)
			err = errno;
		if (!err)
			return 0;
		errno = err;
	}
	err = errno;
	if (fd >= 0)
		unlink(path);
	js_warn("--on-end: cannot write the run's JSON into %s: %s (JS_RUN_JSON is empty)", dir,
		strerror(err));
	path[0] = '\0';
	return -1;
}

/* said - how the command ended, when not well: one line (jitterscope's status stays) */
static void said(const struct spike_cmd *c, const struct js_spike_cmd_stats *st, int status)
{
	char t[32];

	if (st->timeouts)
		js_warn("the --on-end command was killed at its timeout (%s); exit status %d stays",
			js_fmt_ns(t, sizeof(t), c->timeout_ns), status);
	else if (c->status < 0)
		return; /* not started: said by spike_cmd_start */
	else if (WIFSIGNALED(c->status))
		js_warn("the --on-end command was killed by signal %d; exit status %d stays",
			WTERMSIG(c->status), status);
	else if (WIFEXITED(c->status) && WEXITSTATUS(c->status))
		js_warn("the --on-end command exited %d; exit status %d stays",
			WEXITSTATUS(c->status), status);
}

void on_end_run(const struct js_params *p, const struct js_run *run, bool json_ok, int status,
		int viol)
{
	struct spike_cmd c = {
		.cmd = p->on_end,
		.opt = "on-end",
		.env_prefix = "JS_RUN_",
		.timeout_ns = p->on_end_timeout_ns ?: JS_DEFAULT_ON_END_TIMEOUT_NS,
		.measured = p->cfg.cpus,
		.nmeasured = p->cfg.ncpus,
		.status = -1,
	};
	struct js_spike_cmd_stats st = { .on = true };
	char v[ON_END_VARS][ON_END_VAR_LEN], json[PATH_MAX] = "", tmp[PATH_MAX] = "";
	char *vars[ON_END_VARS];
	struct on_end_facts f;
	struct js_answer a;
	size_t n;

	if (!p->on_end)
		return;
	/* the --json file when it is a regular file written whole; else a copy for the command */
	if (p->json_path && json_ok && strcmp(p->json_path, "-") &&
	    !output_path_special(p->json_path)) {
		if (!realpath(p->json_path, json))
			js_scpy(json, sizeof(json), p->json_path);
	} else if (temp_json(run, tmp, sizeof(tmp)) == 0) {
		js_scpy(json, sizeof(json), tmp);
	}
	report_answer(run, &a);
	f = (struct on_end_facts){
		.json = json,
		.status = status,
		.ended_by = run->ended_by,
		.lost_ns = a.lost_ns,
		.measured_ns = a.measured_ns,
		.verdict = report_verdict_word(&p->budget, viol),
	};
	n = on_end_vars(&f, v);
	for (size_t i = 0; i < n; i++)
		vars[i] = v[i];
	spike_cmd_start(&c, &st, vars, n);
	spike_cmd_wait(&c, &st, UINT64_MAX);
	if (tmp[0])
		unlink(tmp);
	said(&c, &st, status);
}
