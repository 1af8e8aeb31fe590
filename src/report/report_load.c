// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_load.c - a saved --json run back into a struct js_run (see js_report_load.h): the
 * document's driver; its sections are read beside their writers (js_json_run.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_json_run.h"
#include "js_report_load.h"

/* report_load_doc - a parsed document into run: each section of the table, in its order */
int report_load_doc(const struct jsonp_val *root, struct js_run *run, char *err, size_t errlen)
{
	struct jr l = { .err = err, .errlen = errlen, .ctx = run };

	memset(run, 0, sizeof(*run));
	if (err && errlen)
		err[0] = '\0';
	run->cgroups = cgroups_new();
	if (!run->cgroups) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < js_json_nsections; i++)
		if (js_json_sections[i].read)
			js_json_sections[i].read(&l, root, js_json_sections[i].key, run);
	if (l.rc == -ENOMEM && err && errlen)
		snprintf(err, errlen, "out of memory");
	if (l.rc)
		report_load_free(run);
	return l.rc;
}

/* report_load_buf - parse, then load */
int report_load_buf(const char *buf, size_t len, struct js_run *run, char *err, size_t errlen)
{
	struct jsonp_doc d;
	char e[256];
	int rc;

	memset(run, 0, sizeof(*run));
	rc = jsonp_parse(buf, len, &d, e, sizeof(e));
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "not JSON: %s", e);
		return rc;
	}
	rc = report_load_doc(d.root, run, err, errlen);
	jsonp_free(&d);
	return rc;
}

/* read_all - the whole file ("-": standard input), malloc'd */
static int read_all(const char *path, char **out, size_t *len)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int rc = 0;

	if (!fp)
		return -errno;
	for (;;) {
		if (n == cap) {
			char *nb;

			cap = cap ? cap * 2 : 1 << 16;
			nb = cap <= RUN_LOAD_MAX_BYTES ? realloc(buf, cap) : NULL;
			if (!nb) {
				rc = cap > RUN_LOAD_MAX_BYTES ? -EFBIG : -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		n += fread(buf + n, 1, cap - n, fp);
		if (n < cap)
			break;
	}
	if (ferror(fp))
		rc = errno ? -errno : -EIO;
out:
	if (fp != stdin)
		fclose(fp);
	if (rc)
		free(buf);
	else
		*out = buf, *len = n;
	return rc;
}

/* report_load_file - read path, then load */
int report_load_file(const char *path, struct js_run *run, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	memset(run, 0, sizeof(*run));
	rc = read_all(path, &buf, &len);
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read: %s", strerror(-rc));
		return rc;
	}
	rc = report_load_buf(buf, len, run, err, errlen);
	free(buf);
	return rc;
}

/* report_load_free - everything a load allocated */
void report_load_free(struct js_run *run)
{
	run_free(run);
}
