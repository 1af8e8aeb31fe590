// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* json.c - streaming JSON writer (see js_json.h). */
#include <math.h>
#include <inttypes.h>

#include "js_json.h"

void json_init(struct js_json *j, FILE *fp)
{
	j->fp = fp;
	j->depth = 0;
	j->first[0] = true;
	j->pretty = true;
}

static void indent(struct js_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->fp);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->fp);
}

/* element prefix: separator, newline/indent, key */
static void elem(struct js_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->fp);
		indent(j);
	}
	j->first[j->depth] = false;
	if (key) {
		json_escape(j->fp, key);
		fputs(j->pretty ? ": " : ":", j->fp);
	}
}

static void open(struct js_json *j, const char *key, char c)
{
	elem(j, key);
	fputc(c, j->fp);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct js_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->fp);
	if (j->depth == 0)
		fputc('\n', j->fp);
}

void json_obj_begin(struct js_json *j, const char *key)
{
	open(j, key, '{');
}
void json_obj_end(struct js_json *j)
{
	close_(j, '}');
}
void json_arr_begin(struct js_json *j, const char *key)
{
	open(j, key, '[');
}
void json_arr_end(struct js_json *j)
{
	close_(j, ']');
}

void json_escape(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', fp);
	for (; *p; p++) {
		unsigned char c = *p;

		if (c == '"' || c == '\\') {
			fputc('\\', fp);
			fputc(c, fp);
		} else if (c == '\n') {
			fputs("\\n", fp);
		} else if (c == '\t') {
			fputs("\\t", fp);
		} else if (c < 0x20 || c == 0x7f || c >= 0x80) {
			/* comms and action names are bytes, not UTF-8: keep them lossless */
			fprintf(fp, "\\u%04x", c);
		} else {
			fputc(c, fp);
		}
	}
	fputc('"', fp);
}

void json_str(struct js_json *j, const char *key, const char *s)
{
	elem(j, key);
	if (s)
		json_escape(j->fp, s);
	else
		fputs("null", j->fp);
}

void json_u64(struct js_json *j, const char *key, uint64_t v)
{
	elem(j, key);
	fprintf(j->fp, "%" PRIu64, v);
}

void json_i64(struct js_json *j, const char *key, int64_t v)
{
	elem(j, key);
	fprintf(j->fp, "%" PRId64, v);
}

void json_dbl(struct js_json *j, const char *key, double v)
{
	elem(j, key);
	if (isfinite(v))
		fprintf(j->fp, "%.9g", v);
	else
		fputs("null", j->fp);
}

void json_bool(struct js_json *j, const char *key, bool v)
{
	elem(j, key);
	fputs(v ? "true" : "false", j->fp);
}

void json_null(struct js_json *j, const char *key)
{
	elem(j, key);
	fputs("null", j->fp);
}
