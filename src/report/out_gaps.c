// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* out_gaps.c - the --gaps CSV writer, called once per attributed gap. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "js_json_gap.h"
#include "js_out_gaps.h"
#include "js_output.h"
#include "js_params.h"
#include "js_util.h"
#include "js_waker.h"

/* the columns around the gap's numbers of js_attr_nums (js_json_gap.h) marked csv */
static const char csv_head[] = "cpu,start_ns,duration_ns,cause,detail,causes,";
static const char csv_tail[] = "entry_causes,source,name,kind,own_bh,own_bh_ns,waker\n";

size_t csv_write_header(FILE *fp)
{
	size_t n = sizeof(csv_head) - 1 + sizeof(csv_tail) - 1;

	fputs(csv_head, fp);
	for (size_t i = 0; i < js_attr_nnums; i++)
		if (js_attr_nums[i].flags & JF_CSV)
			n += (size_t)fprintf(fp, "%s,", js_attr_nums[i].key);
	fputs(csv_tail, fp);
	return n;
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

/* put_u64 - v in decimal, two digits a step (six numbers a row, a row a gap) */
static void put_u64(struct sbuf *b, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char t[20];
	size_t i = sizeof(t);

	while (v >= 100) {
		const char *d = pairs + 2 * (v % 100);

		v /= 100;
		t[--i] = d[1];
		t[--i] = d[0];
	}
	if (v >= 10) {
		t[--i] = pairs[2 * v + 1];
		t[--i] = pairs[2 * v];
	} else {
		t[--i] = (char)('0' + v);
	}
	put_mem(b, t + i, sizeof(t) - i);
}

/* put_field - s as one CSV field (RFC 4180 quoting when needed) */
static void put_field(struct sbuf *b, const char *s)
{
	size_t plain = strcspn(s, ",\"\r\n");

	if (!s[plain]) {
		put_mem(b, s, plain);
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
#define WAKER_MAX 128 /* js_waker_format()'s text */
#define ROW_MAX (180 + 2 * JS_DETAIL_LEN + 2 * JS_LABEL_LEN + 4 * CAUSES_MAX + 2 * WAKER_MAX)

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

/* csv_format_gap - g's row into rbuf[ROW_MAX]; its length */
static size_t csv_format_gap(char *rbuf, const struct js_gap_rec *g)
{
	const struct js_attr *a = &g->attr;
	char cbuf[CAUSES_MAX + 1], ebuf[CAUSES_MAX + 1], wbuf[WAKER_MAX];
	struct sbuf c = { cbuf, 0, CAUSES_MAX }, e = { ebuf, 0, CAUSES_MAX };
	struct sbuf r = { rbuf, 0, ROW_MAX };

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
	for (size_t i = 0; i < js_attr_nnums; i++) {
		if (!(js_attr_nums[i].flags & JF_CSV))
			continue;
		put_u64(&r, json_field_u64(&js_attr_nums[i], a));
		put_mem(&r, ",", 1);
	}
	put_field(&r, ebuf);
	put_mem(&r, ",", 1);
	put_str(&r, js_source_name(g->gap.source));
	put_mem(&r, ",", 1);
	put_field(&r, g->label);
	put_mem(&r, ",", 1);
	if (g->gap.source == JS_SRC_THREAD) { /* what kept it, and its own softirqs before */
		put_str(&r, js_gap_kind_name(g->gap.kind));
		put_mem(&r, ",", 1);
		put_u64(&r, g->gap.own_bh);
		put_mem(&r, ",", 1);
		put_u64(&r, g->gap.own_bh_ns);
	} else {
		put_mem(&r, ",,", 2);
	}
	put_mem(&r, ",", 1);
	js_waker_format(wbuf, sizeof(wbuf), &a->waker);
	put_field(&r, wbuf);
	put_mem(&r, "\n", 1);
	return r.n;
}

size_t csv_write_gap(FILE *fp, const struct js_gap_rec *g)
{
	char row[ROW_MAX];
	size_t n = csv_format_gap(row, g);

	fwrite(row, 1, n, fp);
	return n;
}

/*
 * The --gaps output: a header now, a row per attributed gap. With --gaps-max-size the file
 * never grows past SIZE: a row that would is written into a new file, the full one kept as
 * FILE.1, the ones before it as FILE.2 .. FILE.N (--gaps-max-files N, default 1: at most
 * N + 1 times SIZE on disk). SIGHUP reopens it (outputs_reopen), a header starting a new
 * empty file.
 */
#define GAPS_BUF (64 * 1024)

struct gaps_out {
	FILE *fp;
	uint64_t max;	/* bytes per file, 0: no cap */
	unsigned keep;	/* full files kept: FILE.1 .. FILE.keep */
	uint64_t bytes; /* in the file now (counted from its header on) */
	int err;
};

/* gaps_header - the header of a new file, written through at once: a reader of a file just
 * rotated or reopened finds it with its header, not empty until the next flush */
static void gaps_header(struct gaps_out *o)
{
	o->bytes = csv_write_header(o->fp);
	output_file_flush(o->fp); /* an error stays with the file (output_file_error) */
}

static void gaps_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			size_t nev)
{
	char row[ROW_MAX];
	struct gaps_out *o = ctx;
	size_t n = csv_format_gap(row, g);

	(void)ev;
	(void)nev;
	if (o->max && o->bytes + n > o->max && !o->err) {
		o->err = output_file_rotate(o->fp, o->keep);
		if (o->err)
			js_warn("cannot rotate the --gaps file: %s (it grows on)",
				strerror(-o->err));
		else
			gaps_header(o);
	}
	fwrite(row, 1, n, o->fp);
	o->bytes += n;
}

static void gaps_on_reopen(void *ctx)
{
	gaps_header(ctx);
}

static int gaps_finish(void *ctx, const struct js_run *run)
{
	struct gaps_out *o = ctx;

	(void)run;
	return output_file_flush(o->fp);
}

static void gaps_destroy(void *ctx)
{
	struct gaps_out *o = ctx;

	if (!o)
		return;
	output_file_close(o->fp);
	free(o);
}

int out_gaps_new(struct js_output *out, const char *path, const struct js_params *params)
{
	struct gaps_out *o = calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	o->max = params ? params->gaps_max_bytes : 0;
	o->keep = params ? params->gaps_max_files : 0;
	o->fp = output_file_open(path, "gaps");
	if (!o->fp) {
		free(o);
		return -EIO;
	}
	/* a row per gap: 64 KiB between write(2)s, not stdio's 8 KiB (the pipeline flushes
	 * it every 0.5 s all the same) */
	setvbuf(o->fp, NULL, _IOFBF, GAPS_BUF);
	gaps_header(o);
	out->name = "gaps CSV";
	out->ctx = o;
	out->stream = o->fp; /* a row per gap as the run goes */
	out->file = o->fp;
	out->on_reopen = gaps_on_reopen;
	out->on_gap = gaps_on_gap;
	out->finish = gaps_finish;
	out->destroy = gaps_destroy;
	return 0;
}
