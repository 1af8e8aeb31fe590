// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* out_gaps.c - the --gaps CSV writer, called once per attributed gap. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "js_out_gaps.h"
#include "js_output.h"

void csv_write_header(FILE *fp)
{
	fputs("cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,unexplained_ns,entry_ns,"
	      "entry_causes,source,name\n", fp);
}

/* A row is built in memory and written at once: one stdio call per gap, not one per field
 * (the housekeeping thread writes a row for every gap). */
struct sbuf {
	char *p;
	size_t n, cap;
};

static void put_mem(struct sbuf *b, const char *s, size_t len)
{
	len = len < b->cap - b->n ? len : b->cap - b->n;
	memcpy(b->p + b->n, s, len);
	b->n += len;
}

static void put_str(struct sbuf *b, const char *s)
{
	put_mem(b, s, strlen(s));
}

static void put_u64(struct sbuf *b, uint64_t v)
{
	char t[20];
	size_t i = sizeof(t);

	do
		t[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put_mem(b, t + i, sizeof(t) - i);
}

/* put_field - s as one CSV field (RFC 4180 quoting when needed) */
static void put_field(struct sbuf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		put_str(b, s);
		return;
	}
	put_mem(b, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			put_mem(b, "\"", 1);
		put_mem(b, s, 1);
	}
	put_mem(b, "\"", 1);
}

/* the longest row: every cause with the longest detail and net, each field quoted whole
 * (causes and entry_causes) */
#define CAUSES_MAX (JS_PARTS_MAX * (16 + JS_DETAIL_LEN + 22))
#define ROW_MAX (180 + 2 * JS_DETAIL_LEN + 2 * JS_LABEL_LEN + 4 * CAUSES_MAX)

/* put_causes - "class:detail=ns;..." of the parts, ns their net (entry false) or their
 * entry/exit (entry true: only the parts that have some) */
static void put_causes(struct sbuf *c, const struct js_attr *a, bool entry)
{
	bool first = true;

	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		const struct js_part *p = &a->parts[i];

		if (entry && !p->entry_ns)
			continue;
		if (!first)
			put_mem(c, ";", 1);
		first = false;
		put_str(c, js_cause_name(p->cause));
		put_mem(c, ":", 1);
		put_mem(c, p->detail, strnlen(p->detail, JS_DETAIL_LEN));
		put_mem(c, "=", 1);
		put_u64(c, entry ? p->entry_ns : p->net_ns);
	}
	c->p[c->n] = '\0';
}

void csv_write_gap(FILE *fp, const struct js_gap_rec *g)
{
	const struct js_attr *a = &g->attr;
	char cbuf[CAUSES_MAX + 1], ebuf[CAUSES_MAX + 1], rbuf[ROW_MAX];
	struct sbuf c = { cbuf, 0, CAUSES_MAX }, e = { ebuf, 0, CAUSES_MAX };
	struct sbuf r = { rbuf, 0, sizeof(rbuf) };

	put_causes(&c, a, false);
	put_causes(&e, a, true);
	put_u64(&r, g->gap.cpu);
	put_mem(&r, ",", 1);
	put_u64(&r, g->gap.start_ns);
	put_mem(&r, ",", 1);
	put_u64(&r, g->gap.dur_ns);
	put_mem(&r, ",", 1);
	put_str(&r, js_cause_name(a->primary));
	put_mem(&r, ",", 1);
	put_field(&r, a->detail);
	put_mem(&r, ",", 1);
	put_field(&r, cbuf);
	put_mem(&r, ",", 1);
	put_u64(&r, a->steal_ns);
	put_mem(&r, ",", 1);
	put_u64(&r, a->unexplained_ns);
	put_mem(&r, ",", 1);
	put_u64(&r, a->entry_ns);
	put_mem(&r, ",", 1);
	put_field(&r, ebuf);
	put_mem(&r, ",", 1);
	put_str(&r, js_source_name(g->gap.source));
	put_mem(&r, ",", 1);
	put_field(&r, g->label);
	put_mem(&r, "\n", 1);
	fwrite(rbuf, 1, r.n, fp);
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
	return output_file_flush(ctx);
}

static void gaps_destroy(void *ctx)
{
	output_file_close(ctx);
}

int out_gaps_new(struct js_output *out, const char *path,
		    const struct js_params *params)
{
	FILE *fp = output_file_open(path, "gaps");

	(void)params;  /* no settings */
	if (!fp)
		return -EIO;
	csv_write_header(fp);
	out->name = "gaps CSV";
	out->ctx = fp;
	out->stream = fp;       /* a row per gap as the run goes */
	out->on_gap = gaps_on_gap;
	out->finish = gaps_finish;
	out->destroy = gaps_destroy;
	return 0;
}
