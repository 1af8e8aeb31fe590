// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * marks.c - the application's marks (--marks FILE, js_marks.h): the line's parser, the
 * reader that follows the file as it grows, and the gap source that hands each mark to the
 * pipeline (js_source.h) as a gap of its own, start and duration exactly the application's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "js_marks.h"
#include "js_source.h"
#include "js_util.h"

#define MARKS_POLL_BYTES (1u << 20) /* read per drain period at most */
#define MARKS_FIFO_BYTES (1u << 20) /* a FIFO's capacity asked for: 25k marks */
#define MARKS_FUTURE_NS \
	1000000000ull /* a mark ending later than this after now is not
                                         * CLOCK_MONOTONIC (CLOCK_REALTIME: decades ahead) */

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* number - an unsigned decimal at s[*i] (spaces around it skipped); false if none or too big */
static bool number(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t k = *i, digits = 0;

	while (k < len && blank(s[k]))
		k++;
	*v = 0;
	for (; k < len && s[k] >= '0' && s[k] <= '9'; k++, digits++) {
		uint64_t d = (uint64_t)(s[k] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	while (k < len && blank(s[k]))
		k++;
	*i = k;
	return digits > 0;
}

static int bad(char *why, size_t wlen, const char *msg)
{
	if (why && wlen)
		js_scpy(why, wlen, msg);
	return -EINVAL;
}

int marks_parse_line(const char *line, size_t len, struct js_mark *m, char *why, size_t wlen)
{
	size_t i = 0, k = 0;

	memset(m, 0, sizeof(*m));
	if (len && line[len - 1] == '\r')
		len--;
	while (i < len && (blank(line[i])))
		i++;
	if (i == len || line[i] == '#' || (len - i >= 8 && !strncmp(line + i, "start_ns", 8)))
		return 1; /* blank, a comment, a header */
	if (len >= MARKS_LINE_MAX)
		return bad(why, wlen, "longer than 4095 bytes");
	if (!number(line, len, &i, &m->start_ns))
		return bad(why, wlen, "start_ns is not an unsigned decimal integer");
	if (i == len || line[i] != ',')
		return bad(why, wlen, "no comma after start_ns (start_ns,end_ns[,label])");
	i++;
	if (!number(line, len, &i, &m->end_ns))
		return bad(why, wlen, "end_ns is not an unsigned decimal integer");
	if (i < len && line[i] != ',')
		return bad(why, wlen, "end_ns is followed by something else than ',label'");
	if (m->end_ns < m->start_ns)
		return bad(why, wlen, "end_ns is before start_ns");
	/* the label: the rest, commas included, control characters shown */
	for (i++; i < len && k + 1 < sizeof(m->label); i++)
		m->label[k++] = (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i];
	m->label[k] = '\0';
	return 0;
}

/* ---- the reader ---------------------------------------------------------------------- */

/* skip_partial - a regular file opened at its end mid-line: that line is not ours */
static void skip_partial(struct marks_reader *r)
{
	char c;

	if (r->off > 0 && pread(r->fd, &c, 1, r->off - 1) == 1 && c != '\n')
		r->skipping = true;
}

int marks_reader_open(struct marks_reader *r, const char *path, char *why, size_t wlen)
{
	struct stat st;
	int fd;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (stat(path, &st)) {
		js_scpy(why, wlen, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(why, wlen, "not a regular file or a FIFO");
		return -EINVAL;
	}
	r->fifo = S_ISFIFO(st.st_mode);
	/* a FIFO read-write: never end-of-file when a writer closes, and a writer's open never
	 * fails (ENXIO) for want of a reader */
	fd = open(path, (r->fifo ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		js_scpy(why, wlen, strerror(errno));
		return -errno;
	}
	r->fd = fd;
	if (r->fifo) {
		fcntl(fd, F_SETPIPE_SZ, MARKS_FIFO_BYTES); /* best effort: room for bursts */
		return 0;
	}
	r->off = lseek(fd, 0, SEEK_END);
	if (r->off < 0) {
		js_scpy(why, wlen, strerror(errno));
		close(fd);
		r->fd = -1;
		return -EIO;
	}
	skip_partial(r);
	return 0;
}

/* feed - bytes into lines: each complete one to cb */
static int feed(struct marks_reader *r, const char *p, size_t n,
		void (*cb)(void *ctx, uint64_t number, const char *line, size_t len), void *ctx)
{
	int lines = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			if (!r->skipping) {
				cb(ctx, ++r->line, r->buf, r->len);
				lines++;
			}
			r->skipping = false;
			r->len = 0;
			continue;
		}
		if (r->skipping)
			continue;
		if (r->len == sizeof(r->buf)) {
			/* overlong: delivered cut (the parser says so), the rest dropped */
			cb(ctx, ++r->line, r->buf, r->len);
			lines++;
			r->skipping = true;
			r->len = 0;
			continue;
		}
		r->buf[r->len++] = p[i];
	}
	return lines;
}

/* grown - a regular file: has it grown since we read it? One shorter than where we are was
 * truncated (or replaced): read again from 0. A FIFO: read it (EAGAIN says nothing came) */
static bool grown(struct marks_reader *r)
{
	struct stat st;

	if (r->fifo || fstat(r->fd, &st))
		return true;
	if (st.st_size == r->off)
		return false; /* the drain's usual tick: one fstat, nothing read or parsed */
	if (st.st_size > r->off)
		return true;
	r->off = 0;
	r->len = 0;
	r->skipping = false;
	r->truncated++;
	return true;
}

int marks_reader_poll(struct marks_reader *r, size_t max_bytes, bool at_end,
		      void (*cb)(void *ctx, uint64_t number, const char *line, size_t len),
		      void *ctx)
{
	char chunk[16384];
	size_t done = 0;
	int lines = 0;
	bool more;

	if (r->fd < 0)
		return 0;
	more = grown(r);
	while (more && done < max_bytes) {
		size_t want = JS_MIN(sizeof(chunk), max_bytes - done);
		ssize_t got = r->fifo ? read(r->fd, chunk, want) :
					pread(r->fd, chunk, want, r->off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		if (got < 0)
			return -errno;
		if (!got)
			break;
		if (!r->fifo)
			r->off += got;
		done += (size_t)got;
		lines += feed(r, chunk, (size_t)got, cb, ctx);
	}
	if (at_end && r->len && !r->skipping) {
		cb(ctx, ++r->line, r->buf, r->len);
		lines++;
		r->len = 0;
	}
	return lines;
}

void marks_reader_close(struct marks_reader *r)
{
	if (r->fd > 0)
		close(r->fd);
	r->fd = -1;
}

/* ---- the gap source -------------------------------------------------------------------- */

struct marks_src {
	struct marks_reader rd;
	struct js_pipe *pl;
	struct js_marks_info *info;
	uint64_t now; /* when the lines being read were read */
};

/* bad_line - a malformed line: counted, the first few kept for the report */
static void bad_line(struct js_marks_info *m, uint64_t line, const char *why)
{
	m->malformed++;
	if (m->nbad < JS_MARKS_BAD_MAX) {
		m->bad[m->nbad].line = line;
		js_scpy(m->bad[m->nbad].why, sizeof(m->bad[m->nbad].why), why);
		m->nbad++;
	}
}

/* on_line - one line read: a mark becomes a gap; anything else is said */
static void on_line(void *ctx, uint64_t number, const char *line, size_t len)
{
	struct marks_src *ms = ctx;
	struct js_marks_info *m = ms->info;
	struct js_mark mk;
	struct js_gap g = { .source = JS_SRC_MARK, .cpu = JS_CPU_ANY };
	char why[80];
	int rc = marks_parse_line(line, len, &mk, why, sizeof(why));

	m->lines = number;
	if (rc > 0)
		return;
	if (rc < 0) {
		bad_line(m, number, why);
		return;
	}
	if (mk.end_ns > ms->now + MARKS_FUTURE_NS) {
		bad_line(m, number, "ends in the future: not CLOCK_MONOTONIC nanoseconds?");
		return;
	}
	m->marks++; /* late ones are the drain's to count (mark_keep) */
	if (pipe_window_start(ms->pl) && mk.end_ns < pipe_run(ms->pl)->start_mono_ns)
		m->early++;
	g.start_ns = mk.start_ns;
	g.dur_ns = mk.end_ns - mk.start_ns;
	g.id = (uint32_t)JS_MIN(number, UINT32_MAX);
	pipe_push(ms->pl, &g, mk.label);
}

static void marks_read(struct marks_src *ms, uint64_t now, bool at_end)
{
	int n;

	ms->now = now;
	n = marks_reader_poll(&ms->rd, at_end ? SIZE_MAX : MARKS_POLL_BYTES, at_end, on_line, ms);
	ms->info->truncated = ms->rd.truncated;
	if (n < 0)
		js_warn("reading --marks file '%s': %s", ms->info->path, strerror(-n));
}

static bool marks_poll(void *ctx, struct js_pipe *pl, uint64_t now_ns)
{
	(void)pl;
	marks_read(ctx, now_ns, false);
	return false;
}

static void marks_stop(void *ctx, struct js_pipe *pl, uint64_t end_ns)
{
	(void)pl;
	/* what was written until the window closed: the last line even without its newline */
	marks_read(ctx, JS_MAX(end_ns, js_mono_ns()), true);
}

static void marks_destroy(void *ctx)
{
	struct marks_src *ms = ctx;

	marks_reader_close(&ms->rd);
	free(ms);
}

static int marks_open(struct gap_source *s, struct js_pipe *pl)
{
	const char *path = pipe_params(pl)->marks_path;
	struct marks_src *ms = calloc(1, sizeof(*ms));
	struct js_marks_info *m = &pipe_run(pl)->marks;
	char why[128];
	int err;

	if (!ms)
		return -ENOMEM;
	err = marks_reader_open(&ms->rd, path, why, sizeof(why));
	if (err) {
		js_err("cannot read --marks file '%s': %s", path, why);
		free(ms);
		return err;
	}
	ms->pl = pl;
	ms->info = m;
	m->on = true;
	m->fifo = ms->rd.fifo;
	js_scpy(m->path, sizeof(m->path), path);
	s->ctx = ms;
	return 0;
}

void marks_source(struct gap_source *s)
{
	*s = (struct gap_source){ .name = "marks",
				  .open = marks_open,
				  .poll = marks_poll,
				  .stop = marks_stop,
				  .destroy = marks_destroy,
				  .base_nap = true };
}
