// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_csv.c - the --gaps CSV writer, called once per attributed gap. */
#include <inttypes.h>
#include <string.h>

#include <errno.h>

#include "js_csv.h"
#include "js_output.h"

void csv_write_header(FILE *fp)
{
	fputs("cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,unexplained_ns\n", fp);
}

void csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

void csv_write_gap(FILE *fp, const struct js_gap_rec *g)
{
	const struct js_attr *a = &g->attr;
	char causes[JS_PARTS_MAX * (JS_DETAIL_LEN + 40)] = "";
	size_t off = 0;

	for (uint32_t i = 0; i < a->nparts && off < sizeof(causes); i++) {
		const struct js_part *p = &a->parts[i];

		off += (size_t)snprintf(causes + off, sizeof(causes) - off, "%s%s:%s=%" PRIu64,
					i ? ";" : "", js_cause_name(p->cause), p->detail,
					p->net_ns);
	}
	fprintf(fp, "%u,%" PRIu64 ",%" PRIu64 ",%s,", g->gap.cpu, g->gap.start_ns, g->gap.dur_ns,
		js_cause_name(a->primary));
	csv_field(fp, a->detail);
	fputc(',', fp);
	csv_field(fp, causes);
	fprintf(fp, ",%" PRIu64 ",%" PRIu64 "\n", a->steal_ns, a->unexplained_ns);
}

/* the --gaps output: a header now, a row per attributed gap */
static void gaps_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			size_t nev)
{
	(void)ev;
	(void)nev;
	csv_write_gap(ctx, g);
}

static int gaps_finish(void *ctx, const struct js_run *run)
{
	(void)run;
	return fflush(ctx) ? -EIO : 0;
}

static void gaps_destroy(void *ctx)
{
	output_file_close(ctx);
}

int gaps_output_new(struct js_output *out, const char *path)
{
	FILE *fp = output_file_open(path, "gaps CSV");

	if (!fp)
		return -EIO;
	csv_write_header(fp);
	out->name = "gaps CSV";
	out->ctx = fp;
	out->on_gap = gaps_on_gap;
	out->finish = gaps_finish;
	out->destroy = gaps_destroy;
	return 0;
}
