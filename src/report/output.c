// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * output.c - the list of requested outputs (see js_output.h) and their files: every path
 * checked before any is opened, and each file written through a stream that remembers its
 * first write error (the errno of the failed write(2), not a later one).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "js_listen.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_util.h"

/* An output file: a stdio stream over our own write function, so the first failed write's
 * errno is kept and nothing is written after it (a file cut at the failure, no hole). */
struct ofile {
	FILE *fp; /* NULL: the slot is free */
	int fd;
	bool borrowed; /* standard output ("-"): not closed */
	bool special;  /* a FIFO or device: written in place, never reopened */
	int err;       /* first write or close error (errno), 0 if none */
	char *path;    /* what it was opened as (reopen, rotate); NULL for stdout */
};

#define OFILES_MAX (2 * JS_OUTPUTS_MAX)

static struct ofile ofiles[OFILES_MAX];

static ssize_t of_write(void *cookie, const char *buf, size_t n)
{
	struct ofile *f = cookie;
	size_t done = 0;

	while (!f->err && done < n) {
		ssize_t w = write(f->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			f->err = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	return (ssize_t)done; /* short: stdio marks the stream in error */
}

static int of_close(void *cookie)
{
	struct ofile *f = cookie;

	if (!f->borrowed && close(f->fd) && !f->err)
		f->err = errno;
	free(f->path);
	f->path = NULL;
	return f->err ? -1 : 0;
}

static struct ofile *of_find(FILE *fp)
{
	for (size_t i = 0; fp && i < OFILES_MAX; i++)
		if (ofiles[i].fp == fp)
			return &ofiles[i];
	return NULL;
}

/* output_path_special - path names an existing file that is neither regular nor a directory
 * (a FIFO, a character device such as /dev/null or /dev/full) */
bool output_path_special(const char *path)
{
	struct stat st;

	return path && strcmp(path, "-") && stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	       !S_ISDIR(st.st_mode);
}

/* output_path_check - the path can be created or overwritten; one line and -errno if not */
int output_path_check(const char *path, const char *opt)
{
	struct stat st;
	char *copy;
	int err = 0;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			err = EISDIR;
		else if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS))
			err = errno;
	} else if (errno != ENOENT) {
		err = errno;
	} else {
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
		if (faccessat(AT_FDCWD, dirname(copy), W_OK | X_OK, AT_EACCESS))
			err = errno;
		free(copy);
	}
	if (err)
		js_err("cannot write --%s file '%s': %s", opt, path, strerror(err));
	return -err;
}

int output_dir_check(const char *path, const char *opt)
{
	struct stat st;
	int err = 0;

	if (!path)
		return 0;
	if (!strcmp(path, "-"))
		err = ENOTDIR;
	else if (stat(path, &st))
		return output_path_check(path, opt); /* made by its output: the parent */
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS))
		err = errno;
	if (err)
		js_err("cannot write --%s directory '%s': %s", opt, path, strerror(err));
	return -err;
}

FILE *output_file_open(const char *path, const char *opt)
{
	static const cookie_io_functions_t io = { .write = of_write, .close = of_close };
	struct ofile *f = NULL;
	bool borrowed = !strcmp(path, "-"), fifo = false;
	struct stat st;
	int fd;

	for (size_t i = 0; !f && i < OFILES_MAX; i++)
		if (!ofiles[i].fp)
			f = &ofiles[i];
	if (!f) {
		js_err("cannot write --%s file '%s': too many output files", opt, path);
		return NULL;
	}
	if (borrowed) {
		/* standard output, through our stream too (its errno kept): what stdout holds
		 * goes first, and the report is written to stdout after the outputs finished */
		fflush(stdout);
		fd = STDOUT_FILENO;
	} else {
		/* a FIFO is taken only with a reader there now: a blocking open would wait */
		fifo = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
		fd = open(path,
			  fifo ? O_WRONLY | O_NONBLOCK | O_CLOEXEC :
				 O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0666);
	}
	if (fd < 0) {
		js_err("cannot write --%s file '%s': %s", opt, path,
		       fifo && errno == ENXIO ? "a FIFO with no reader (start the reader first)" :
						strerror(errno));
		return NULL;
	}
	if (fifo)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f->fd = fd;
	f->borrowed = borrowed;
	f->special = !borrowed && output_path_special(path);
	f->err = 0;
	f->path = borrowed ? NULL : strdup(path);
	f->fp = !borrowed && !f->path ? NULL : fopencookie(f, "w", io);
	if (!f->fp) {
		js_err("cannot write --%s file '%s': %s", opt, path, strerror(errno));
		if (!borrowed)
			close(fd);
		free(f->path);
		f->path = NULL;
	}
	return f->fp;
}

/* swap_fd - f writes to a new open(2) of its path with @flags from now on; 1 if that file is
 * empty, 0 if not, -errno (f unchanged) */
static int swap_fd(struct ofile *f, int flags)
{
	struct stat st;
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0666);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (close(f->fd) && !f->err)
		f->err = errno;
	f->fd = fd;
	return st.st_size == 0;
}

/* output_file_reopen - fp writes to its path opened again (appending) */
int output_file_reopen(FILE *fp)
{
	struct ofile *f = of_find(fp);
	int err;

	if (!f || f->borrowed || f->special)
		return 0;
	err = output_file_flush(fp);
	return err ? err : swap_fd(f, O_APPEND);
}

/* rotate_kept - PATH.K-1 becomes PATH.K for each K from the first missing (or keep) down to
 * 2: the files before stay in order, the oldest beyond keep replaced; as many renames as
 * files, not as keep. 0 or -errno */
static int rotate_kept(const char *path, unsigned keep)
{
	char from[PATH_MAX], to[PATH_MAX];
	unsigned n = 0;

	if (snprintf(to, sizeof(to), "%s.%u", path, keep) >= (int)sizeof(to))
		return -ENAMETOOLONG;
	while (n + 1 < keep) { /* PATH.1 .. PATH.n there */
		snprintf(from, sizeof(from), "%s.%u", path, n + 1);
		if (access(from, F_OK))
			break;
		n++;
	}
	for (unsigned k = n + 1; k >= 2; k--) {
		snprintf(from, sizeof(from), "%s.%u", path, k - 1);
		snprintf(to, sizeof(to), "%s.%u", path, k);
		if (rename(from, to) && errno != ENOENT)
			return -errno;
	}
	return 0;
}

/* output_file_rotate - fp's file becomes PATH.1 (those before it moved on), fp writes to a
 * new empty PATH. Where the file system can exchange two names (renameat2
 * RENAME_EXCHANGE), the new file is made aside and exchanged in, so that PATH never goes
 * missing for a reader (tail -F, a test); else, or when PATH is gone (moved by logrotate),
 * rename and create */
int output_file_rotate(FILE *fp, unsigned keep)
{
	struct ofile *f = of_find(fp);
	char old[PATH_MAX], aside[PATH_MAX];
	int err, fd;

	if (!f || f->borrowed || f->special)
		return 0;
	err = output_file_flush(fp);
	if (err)
		return err;
	if (snprintf(old, sizeof(old), "%s.1", f->path) >= (int)sizeof(old) ||
	    snprintf(aside, sizeof(aside), "%s.new", f->path) >= (int)sizeof(aside))
		return -ENAMETOOLONG;
	err = rotate_kept(f->path, keep);
	if (err)
		return err;
	fd = open(aside, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd >= 0 && !renameat2(AT_FDCWD, aside, AT_FDCWD, f->path, RENAME_EXCHANGE)) {
		if (close(f->fd) && !f->err)
			f->err = errno;
		f->fd = fd; /* PATH is the new file; ASIDE the full one */
		return rename(aside, old) ? -errno : 0;
	}
	if (fd >= 0) {
		close(fd);
		unlink(aside);
	}
	if (rename(f->path, old) && errno != ENOENT)
		return -errno;
	err = swap_fd(f, O_TRUNC);
	return err < 0 ? err : 0;
}

int output_file_error(FILE *fp)
{
	struct ofile *f = of_find(fp);

	if (f)
		return -f->err;
	return fp && ferror(fp) ? -EIO : 0;
}

int output_file_flush(FILE *fp)
{
	if (!fp)
		return 0;
	errno = 0;
	if (fflush(fp) && !of_find(fp))
		return errno ? -errno : -EIO; /* not ours (stdout): the failed write's errno */
	return output_file_error(fp);
}

int output_file_close(FILE *fp)
{
	struct ofile *f = of_find(fp);
	int err;

	if (!fp)
		return 0;
	err = output_file_flush(fp);
	if (fclose(fp) && !err)
		err = -EIO;
	if (f) {
		err = -f->err;
		f->fp = NULL;
	}
	return err;
}

/* say_failed - the one line naming a file and its write error (-err), also into why[len] */
static void say_failed(const char *path, const char *opt, int err, char *why, size_t len)
{
	char line[JS_STOP_WHY_LEN];

	if (!strcmp(path, "-"))
		snprintf(line, sizeof(line), "cannot write --%s to standard output: %s", opt,
			 strerror(-err));
	else
		snprintf(line, sizeof(line), "cannot write --%s file '%s': %s", opt, path,
			 strerror(-err));
	js_err("%s", line);
	if (why && len)
		js_scpy(why, len, line);
}

int output_file_done(FILE *fp, const char *path, const char *opt)
{
	int err = output_file_close(fp);

	if (err)
		say_failed(path, opt, err, NULL, 0);
	return err;
}

/* output_failed - a failed output's one line; it is written no more */
static void output_failed(struct js_output *out, int err, char *why, size_t len)
{
	out->err = err;
	say_failed(out->path, out->opt, err, why, len);
}

#define KIND(name, field, new, cmds_, help)                                              \
	{                                                                                \
		.opt = name, .doc = help, .path_off = offsetof(struct js_params, field), \
		.ctor = new, .cmds = cmds_                                               \
	}
/* an output written as the run goes, which report cannot write: why */
#define LIVE_KIND(name, field, new, why, help)                                           \
	{                                                                                \
		.opt = name, .doc = help, .path_off = offsetof(struct js_params, field), \
		.ctor = new, .cmds = CMDS_MEASURE, .saved = why                          \
	}
#define DIR_KIND(name, field, new, why, help)                                               \
	{                                                                                   \
		.opt = name, .doc = help, .path_off = offsetof(struct js_params, field),    \
		.ctor = new, .arg = "DIR", .check = output_dir_check, .cmds = CMDS_MEASURE, \
		.saved = why                                                                \
	}

/* Every output file kind, in the order they are opened: the one list the command line
 * (options, the commands that take them, collisions), the preflight (paths) and the
 * pipeline (constructors) go by. */
const struct js_output_kind js_output_kinds[] = {
	KIND("json", json_path, out_json_new, CMDS_MEASURE | CMDS_CHECK | CMDS_REPORT | CMDS_DIFF,
	     "write the result as JSON ('-' = stdout)"),
	LIVE_KIND("gaps", gaps_path, out_gaps_new,
		  "a saved run keeps its worst gaps, not a row for every gap",
		  "write one CSV row per gap"),
	LIVE_KIND("hlog", hlog_path, out_hlog_new,
		  "a saved run keeps one histogram per CPU, not one per interval",
		  "HdrHistogram interval log (format 1.3, ns, Tag=cpuN)"),
	KIND("hgrm", hgrm_path, out_hgrm_new, CMDS_MEASURE | CMDS_REPORT,
	     "HdrHistogram percentile distribution (.hgrm)"),
	KIND("folded", folded_path, out_folded_new, CMDS_MEASURE | CMDS_REPORT,
	     "folded stacks of the time lost, in ns, for a flame graph"),
	KIND("prom", prom_path, out_prom_new, CMDS_MEASURE | CMDS_REPORT,
	     "Prometheus text exposition (node_exporter textfile)"),
	LIVE_KIND("trace", trace_path, out_trace_new,
		  "a saved run keeps no probe events, which the trace draws",
		  "Chrome/Perfetto trace JSON of the gaps and their causes"),
	KIND("html", html_path, out_html_new, CMDS_MEASURE | CMDS_REPORT | CMDS_DIFF,
	     "a self-contained HTML report"),
	DIR_KIND("spike-dir", spike_dir, out_spike_new,
		 "the flight recorder keeps the probe events around each gap as the run goes",
		 "flight recorder: a JSON file and a trace per gap over --spike-threshold"),
};
const size_t js_noutput_kinds = ARRAY_SIZE(js_output_kinds);

_Static_assert(ARRAY_SIZE(js_output_kinds) <= JS_OUTPUTS_MAX, "every kind fits js_outputs");

const char *outputs_collision(const struct js_params *p)
{
	for (size_t i = 0; i < js_noutput_kinds; i++) {
		const char *a = output_kind_path(&js_output_kinds[i], p);

		for (size_t k = i + 1; a && k < js_noutput_kinds; k++) {
			const char *b = output_kind_path(&js_output_kinds[k], p);

			if (b && !strcmp(a, b))
				return a;
		}
	}
	return NULL;
}

/* check_paths - every requested path can be written (one line and -EINVAL if not) */
static int check_paths(const struct js_params *p)
{
	for (size_t i = 0; i < js_noutput_kinds; i++) {
		const struct js_output_kind *k = &js_output_kinds[i];

		if ((k->check ? k->check : output_path_check)(output_kind_path(k, p), k->opt))
			return -EINVAL;
	}
	return 0;
}

static int add(struct js_outputs *o, const struct js_output_kind *k, const struct js_params *p)
{
	const char *path = output_kind_path(k, p);
	int err;

	if (o->n == JS_OUTPUTS_MAX)
		return -ENOSPC;
	memset(&o->v[o->n], 0, sizeof(o->v[o->n]));
	err = k->ctor(&o->v[o->n], path, p);
	if (err)
		return err;
	o->v[o->n].opt = k->opt;
	o->v[o->n].path = path;
	o->n++;
	return 0;
}

int outputs_open(struct js_outputs *o, const struct js_params *p)
{
	int err = 0;

	o->n = 0;
	/* every path first: a refused one leaves no file created behind it */
	if (check_paths(p))
		return -EINVAL;
	/* then FIFOs and devices, which can still refuse (a FIFO with no reader), before
	 * the regular files are created */
	for (int pass = 0; pass < 2 && !err; pass++)
		for (size_t i = 0; i < js_noutput_kinds && !err; i++) {
			const struct js_output_kind *k = &js_output_kinds[i];
			const char *path = output_kind_path(k, p);

			if (path && output_path_special(path) == (pass == 0))
				err = add(o, k, p);
		}
	/* not a file: the socket is bound now, its server thread starts with the run */
	if (!err && p->listen) {
		if (o->n == JS_OUTPUTS_MAX) {
			err = -ENOSPC;
		} else {
			memset(&o->v[o->n], 0, sizeof(o->v[o->n]));
			err = out_listen_new(&o->v[o->n], p->listen, p);
			if (!err) {
				o->v[o->n].opt = "listen";
				o->v[o->n].path = p->listen;
				o->n++;
			}
		}
	}
	if (err)
		outputs_destroy(o);
	return err;
}

int outputs_check(struct js_outputs *o, bool flush, char *why, size_t len)
{
	int first = 0;

	for (size_t i = 0; o && i < o->n; i++) {
		struct js_output *out = &o->v[i];
		int err;

		if (!out->stream || out->err)
			continue;
		err = flush ? output_file_flush(out->stream) : output_file_error(out->stream);
		if (err && !first) {
			output_failed(out, err, why, len);
			first = err;
		} else if (err) {
			output_failed(out, err, NULL, 0);
		}
	}
	return first;
}

int outputs_reopen(struct js_outputs *o)
{
	int first = 0;

	for (size_t i = 0; o && i < o->n; i++) {
		struct js_output *out = &o->v[i];
		int r;

		if (!out->file || out->err)
			continue;
		r = output_file_reopen(out->file);
		if (r < 0) {
			js_warn("cannot reopen --%s file '%s': %s (still writing the old one)",
				out->opt, out->path, strerror(-r));
			first = first ? first : r;
		} else if (r == 1 && out->on_reopen) {
			out->on_reopen(out->ctx);
		}
	}
	return first;
}

void outputs_replay(struct js_outputs *o, const struct js_run *run)
{
	for (size_t i = 0; i < o->n; i++) {
		if (o->v[i].run_start)
			o->v[i].run_start(o->v[i].ctx, run);
		if (o->v[i].replay)
			o->v[i].replay(o->v[i].ctx, run);
	}
}

int outputs_finish(struct js_outputs *o, const struct js_run *run)
{
	int first = 0;

	for (size_t i = 0; i < o->n; i++) {
		struct js_output *out = &o->v[i];
		int err = out->err;

		/* one that failed during the run said so then; the others are still written */
		if (!err && out->finish) {
			err = out->finish(out->ctx, run);
			if (err)
				output_failed(out, err, NULL, 0);
		}
		if (err && !first)
			first = err;
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

void outputs_wants(const struct js_outputs *o, bool *events, bool *watch)
{
	*events = *watch = false;
	for (size_t i = 0; o && i < o->n; i++) {
		*events |= o->v[i].wants_events;
		*watch |= o->v[i].on_event != NULL;
	}
}

/* live - out has callback cb and has not failed: the fan-out's one test */
#define live(out, cb) ((out)->cb && !(out)->err)

void outputs_run_start(struct js_outputs *o, const struct js_run *run)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (live(&o->v[i], run_start))
			o->v[i].run_start(o->v[i].ctx, run);
}

void outputs_event(struct js_outputs *o, const struct js_event *ev)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (live(&o->v[i], on_event))
			o->v[i].on_event(o->v[i].ctx, ev);
}

void outputs_gap(struct js_outputs *o, const struct js_gap_rec *g, const struct js_event *ev,
		 size_t nev)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (live(&o->v[i], on_gap))
			o->v[i].on_gap(o->v[i].ctx, g, o->v[i].wants_events ? ev : NULL,
				       o->v[i].wants_events ? nev : 0);
}

void outputs_sync(struct js_outputs *o, struct js_run *run, uint64_t done_ns)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (live(&o->v[i], sync))
			o->v[i].sync(o->v[i].ctx, run, done_ns);
}

void outputs_tick(struct js_outputs *o, struct js_run *run, uint64_t done_ns)
{
	outputs_sync(o, run, done_ns);
	for (size_t i = 0; o && i < o->n; i++)
		if (live(&o->v[i], on_tick))
			o->v[i].on_tick(o->v[i].ctx, run, done_ns);
}
