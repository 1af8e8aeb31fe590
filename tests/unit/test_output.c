// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_output.c - output files fail fast and lose nothing: the path checks, the first write
 * error kept with its errno (a full device, a FIFO whose reader left), nothing written after
 * it, a FIFO taken only with a reader, one line per failed output, the others still finished.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"

static int setup(void **state)
{
	signal(SIGPIPE, SIG_IGN); /* as commands.c does: a closed FIFO is EPIPE */
	return scratch_setup(state);
}

static const char *in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", scratch_dir, name);
	return buf;
}

static void write_rows(FILE *fp, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(fp, "1,%d,1000,unexplained,,,0,1000\n", i);
}

/** Paths are refused before anything is opened: missing directory, a directory. */
static void test_path_check(void **state)
{
	char p[128];

	(void)state;
	assert_int_equal(output_path_check(NULL, "json"), 0);
	assert_int_equal(output_path_check("-", "json"), 0);
	assert_int_equal(output_path_check(in_dir(p, sizeof(p), "new.json"), "json"), 0);
	assert_int_equal(access(p, F_OK), -1); /* the check creates nothing */
	assert_int_equal(output_path_check(scratch_dir, "gaps"), -EISDIR);
	assert_int_equal(output_path_check("/nonexistent-dir/x", "gaps"), -ENOENT);
	assert_false(output_path_special("-"));
	assert_false(output_path_special(scratch_dir));
	assert_false(output_path_special("/nonexistent-dir/x"));
	assert_true(output_path_special("/dev/null"));
}

static size_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? (size_t)-1 : (size_t)st.st_size;
}

/** SIGHUP's reopen: a file moved away (log rotation) gets a new one at its path, a file
 * still there is appended to; rotation keeps the full file as PATH.1 and leaves nothing
 * aside, and makes PATH when it was moved away. */
static void test_reopen_rotate(void **state)
{
	char p[128], moved[160], old[160], aside[160];
	FILE *fp;

	(void)state;
	fp = output_file_open(in_dir(p, sizeof(p), "log.csv"), "gaps");
	assert_non_null(fp);
	fputs("abc\n", fp);
	assert_int_equal(output_file_reopen(fp), 0); /* still there: appended */
	fputs("def\n", fp);
	assert_int_equal(output_file_flush(fp), 0);
	assert_int_equal(file_size(p), 8);
	snprintf(moved, sizeof(moved), "%s.moved", p);
	assert_int_equal(rename(p, moved), 0);
	assert_int_equal(output_file_reopen(fp), 1); /* a new, empty file */
	fputs("gh\n", fp);
	assert_int_equal(output_file_flush(fp), 0);
	assert_int_equal(file_size(moved), 8);
	assert_int_equal(file_size(p), 3);
	assert_int_equal(output_file_rotate(fp, 1), 0);
	snprintf(old, sizeof(old), "%s.1", p);
	assert_int_equal(file_size(old), 3);
	assert_int_equal(file_size(p), 0);
	snprintf(aside, sizeof(aside), "%s.new", p);
	assert_int_equal(file_size(aside), (size_t)-1); /* exchanged in, nothing left aside */
	assert_int_equal(rename(p, moved), 0);		/* moved away: rotation still makes PATH */
	assert_int_equal(output_file_rotate(fp, 1), 0);
	assert_int_equal(file_size(p), 0);
	fputs("x\n", fp);
	assert_int_equal(output_file_close(fp), 0);
	assert_int_equal(file_size(p), 2);
	fp = output_file_open("/dev/null", "gaps"); /* a device: left as it is */
	assert_non_null(fp);
	assert_int_equal(output_file_reopen(fp), 0);
	assert_int_equal(output_file_rotate(fp, 1), 0);
	assert_int_equal(output_file_close(fp), 0);
}

/** --gaps-max-files: each rotation moves the files before on, FILE.1 the newest, FILE.KEEP
 * the oldest kept (the one beyond replaced); one a reader removed is filled, not skipped. */
static void test_rotate_keep(void **state)
{
	char p[128], k[160], line[32];
	FILE *fp, *in;

	(void)state;
	fp = output_file_open(in_dir(p, sizeof(p), "keep.csv"), "gaps");
	assert_non_null(fp);
	for (int i = 1; i <= 5; i++) { /* file i holds "i": 5 the last, in PATH */
		if (i > 1)
			assert_int_equal(output_file_rotate(fp, 3), 0);
		fprintf(fp, "%d\n", i);
		assert_int_equal(output_file_flush(fp), 0);
	}
	for (int n = 1; n <= 4; n++) { /* PATH.1 holds 4, PATH.2 3, PATH.3 2, no PATH.4 */
		snprintf(k, sizeof(k), "%s.%d", p, n);
		in = fopen(k, "r");
		if (n == 4) {
			assert_null(in);
			break;
		}
		assert_non_null(in);
		assert_non_null(fgets(line, sizeof(line), in));
		assert_int_equal(atoi(line), 5 - n);
		fclose(in);
	}
	snprintf(k, sizeof(k), "%s.1", p); /* a reader took PATH.1: PATH.2, PATH.3 stay */
	assert_int_equal(unlink(k), 0);
	assert_int_equal(output_file_rotate(fp, 3), 0);
	assert_int_equal(file_size(k), 2); /* 5 */
	snprintf(k, sizeof(k), "%s.2", p);
	in = fopen(k, "r");
	assert_non_null(in);
	assert_non_null(fgets(line, sizeof(line), in));
	assert_int_equal(atoi(line), 3);
	fclose(in);
	assert_int_equal(output_file_close(fp), 0);
}

/** --gaps-max-size: no file grows past SIZE, the full one is FILE.1, each starts with the
 * header; a reopened empty file gets the header too. */
static void test_gaps_max_size(void **state)
{
	struct js_params *par = calloc(1, sizeof(*par));
	struct js_output o;
	struct js_gap_rec g;
	char p[128], old[160], line[256];
	FILE *in;
	int rows = 0;

	(void)state;
	assert_non_null(par);
	par->gaps_max_bytes = 4096;
	memset(&o, 0, sizeof(o));
	assert_int_equal(out_gaps_new(&o, in_dir(p, sizeof(p), "cap.csv"), par), 0);
	fx_rec(&g, 1, 1000, 2000);
	for (int i = 0; i < 500; i++) {
		g.gap.start_ns = 1000 + (uint64_t)i * 10000;
		o.on_gap(o.ctx, &g, NULL, 0);
	}
	assert_int_equal(o.finish(o.ctx, NULL), 0);
	snprintf(old, sizeof(old), "%s.1", p);
	assert_true(file_size(p) <= 4096);
	assert_true(file_size(old) <= 4096 && file_size(old) > 3000);
	in = fopen(old, "r");
	assert_non_null(in);
	assert_non_null(fgets(line, sizeof(line), in));
	assert_true(!strncmp(line, "cpu,start_ns,", 13));
	while (fgets(line, sizeof(line), in))
		rows++;
	fclose(in);
	assert_true(rows > 10);
	unlink(p); /* moved away: reopened, empty, the header first */
	assert_int_equal(output_file_reopen(o.file), 1);
	o.on_reopen(o.ctx); /* as outputs_reopen does for an empty new file */
	o.on_gap(o.ctx, &g, NULL, 0);
	assert_int_equal(o.finish(o.ctx, NULL), 0);
	in = fopen(p, "r");
	assert_non_null(in);
	assert_non_null(fgets(line, sizeof(line), in));
	assert_true(!strncmp(line, "cpu,start_ns,", 13));
	fclose(in);
	o.destroy(o.ctx);
	free(par);
}

/** A regular file: written, closed with 0, the content all there. */
static void test_regular(void **state)
{
	char p[128], line[64];
	FILE *fp, *in;
	int n = 0;

	(void)state;
	fp = output_file_open(in_dir(p, sizeof(p), "rows.csv"), "gaps");
	assert_non_null(fp);
	write_rows(fp, 1000);
	assert_int_equal(output_file_flush(fp), 0);
	write_rows(fp, 1000);
	assert_int_equal(output_file_error(fp), 0);
	assert_int_equal(output_file_close(fp), 0);
	in = fopen(p, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in))
		n++;
	fclose(in);
	assert_int_equal(n, 2000);
}

/** A full device (/dev/full): the first failed write keeps ENOSPC, seen by the check
 * without a flush once stdio wrote by itself, and by flush and close. */
static void test_full(void **state)
{
	FILE *fp;

	(void)state;
	fp = output_file_open("/dev/full", "json");
	assert_non_null(fp);
	fputs("{", fp);
	assert_int_equal(output_file_error(fp), 0); /* still in the buffer */
	assert_int_equal(output_file_flush(fp), -ENOSPC);
	assert_int_equal(output_file_error(fp), -ENOSPC);
	write_rows(fp, 1000); /* nothing written after the error */
	assert_int_equal(output_file_flush(fp), -ENOSPC);
	assert_int_equal(output_file_close(fp), -ENOSPC);
	/* a buffer that fills up is written by stdio itself: found without a flush */
	fp = output_file_open("/dev/full", "gaps");
	assert_non_null(fp);
	write_rows(fp, 10000);
	assert_int_equal(output_file_error(fp), -ENOSPC);
	assert_int_equal(output_file_close(fp), -ENOSPC);
}

/** A FIFO: refused without a reader (no hang), written with one, EPIPE once it left. */
static void test_fifo(void **state)
{
	char p[128], buf[256];
	FILE *fp;
	int rd;

	(void)state;
	in_dir(p, sizeof(p), "fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(output_path_check(p, "gaps"), 0);
	assert_true(output_path_special(p));
	assert_null(output_file_open(p, "gaps")); /* no reader: refused at once */
	rd = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	fp = output_file_open(p, "gaps");
	assert_non_null(fp);
	write_rows(fp, 2);
	assert_int_equal(output_file_flush(fp), 0);
	assert_true(read(rd, buf, sizeof(buf)) > 0);
	assert_memory_equal(buf, "1,0,1000,", 9);
	close(rd); /* the reader leaves */
	write_rows(fp, 2);
	assert_int_equal(output_file_flush(fp), -EPIPE);
	assert_int_equal(output_file_close(fp), -EPIPE);
}

/** "-": standard output through the same stream, its errno kept (EPIPE on a pipe whose
 * reader left), and left open by the close. */
static void test_stdout(void **state)
{
	int saved = dup(STDOUT_FILENO), pfd[2];
	char buf[64];
	FILE *fp;

	(void)state;
	assert_true(saved >= 0);
	assert_int_equal(pipe(pfd), 0);
	fflush(stdout);
	assert_int_equal(dup2(pfd[1], STDOUT_FILENO), STDOUT_FILENO);
	close(pfd[1]);
	fp = output_file_open("-", "gaps");
	assert_non_null(fp);
	write_rows(fp, 1);
	assert_int_equal(output_file_flush(fp), 0);
	assert_true(read(pfd[0], buf, sizeof(buf)) > 0);
	close(pfd[0]); /* the reader leaves */
	write_rows(fp, 1);
	assert_int_equal(output_file_error(fp), 0); /* buffered yet */
	assert_int_equal(output_file_flush(fp), -EPIPE);
	assert_int_equal(output_file_close(fp), -EPIPE);
	assert_true(fcntl(STDOUT_FILENO, F_GETFD) >= 0); /* still open */
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
}

/* a fake output's finish: counts its calls, returns what it is told */
struct fake {
	int calls, ret;
};

static int fake_finish(void *ctx, const struct js_run *run)
{
	struct fake *f = ctx;

	(void)run;
	f->calls++;
	return f->ret;
}

/** A streaming output that fails is found once (its line, into why), written no more,
 * and not finished; the others are still finished; the first error is returned. */
static void test_outputs(void **state)
{
	struct js_outputs o = { .n = 3 };
	struct fake fk[3] = { { 0, 0 }, { 0, 0 }, { 0, -EIO } };
	struct js_run run;
	char why[JS_STOP_WHY_LEN] = "", p[128];
	FILE *ok;

	(void)state;
	memset(&run, 0, sizeof(run));
	ok = output_file_open(in_dir(p, sizeof(p), "ok.hlog"), "hlog");
	assert_non_null(ok);
	o.v[0] = (struct js_output){
		.opt = "gaps", .path = "/dev/full", .ctx = &fk[0], .finish = fake_finish
	};
	o.v[0].stream = output_file_open("/dev/full", "gaps");
	o.v[1] = (struct js_output){
		.opt = "hlog", .path = p, .ctx = &fk[1], .stream = ok, .finish = fake_finish
	};
	o.v[2] = (struct js_output){
		.opt = "json", .path = "x.json", .ctx = &fk[2], .finish = fake_finish
	};
	assert_non_null(o.v[0].stream);
	write_rows(o.v[0].stream, 1);
	write_rows(ok, 1);
	assert_int_equal(outputs_check(&o, false, why, sizeof(why)), 0); /* buffered yet */
	assert_int_equal(outputs_check(&o, true, why, sizeof(why)), -ENOSPC);
	assert_string_equal(why, "cannot write --gaps file '/dev/full': No space left on device");
	assert_int_equal(o.v[0].err, -ENOSPC);
	assert_int_equal(o.v[1].err, 0);
	why[0] = '\0';
	assert_int_equal(outputs_check(&o, true, why, sizeof(why)), 0); /* said once */
	assert_string_equal(why, "");
	/* the end: the failed one is not finished again, the others are */
	assert_int_equal(outputs_finish(&o, &run), -ENOSPC);
	assert_int_equal(fk[0].calls, 0);
	assert_int_equal(fk[1].calls, 1);
	assert_int_equal(fk[2].calls, 1);
	assert_int_equal(o.v[2].err, -EIO);
	assert_int_equal(output_file_close(o.v[0].stream), -ENOSPC);
	assert_int_equal(output_file_close(ok), 0);
}

/** --prom on a FIFO or device is written in place: no FILE.tmp renamed over it. */
static void test_prom_special(void **state)
{
	struct js_output out;
	char p[128], tmp[160];

	(void)state;
	in_dir(p, sizeof(p), "prom-fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", p);
	{
		int rd = open(p, O_RDONLY | O_NONBLOCK);

		assert_true(rd >= 0);
		memset(&out, 0, sizeof(out));
		assert_int_equal(out_prom_new(&out, p, NULL), 0);
		assert_int_equal(access(tmp, F_OK), -1);
		out.destroy(out.ctx);
		close(rd);
	}
	memset(&out, 0, sizeof(out));
	assert_int_equal(out_prom_new(&out, "/dev/null", NULL), 0);
	assert_int_equal(access("/dev/null.tmp", F_OK), -1);
	out.destroy(out.ctx);
}

/* a recording output for the fan-out: which calls it got, with how many events */
struct rec {
	int starts, events, gaps, syncs, ticks;
	size_t nev;
	const struct js_event *ev;
};

static void rec_start(void *ctx, const struct js_run *run)
{
	(void)run;
	((struct rec *)ctx)->starts++;
}

static void rec_event(void *ctx, const struct js_event *ev)
{
	(void)ev;
	((struct rec *)ctx)->events++;
}

static void rec_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev, size_t nev)
{
	struct rec *r = ctx;

	(void)g;
	r->gaps++;
	r->ev = ev;
	r->nev = nev;
}

static void rec_sync(void *ctx, struct js_run *run, uint64_t done_ns)
{
	(void)run;
	(void)done_ns;
	((struct rec *)ctx)->syncs++;
}

static void rec_tick(void *ctx, const struct js_run *run, uint64_t now_ns)
{
	(void)run;
	(void)now_ns;
	((struct rec *)ctx)->ticks++;
}

/** The run's fan-out: every call reaches each output that has the callback and has not
 * failed; a gap's events only those that want them. */
static void test_fanout(void **state)
{
	struct rec r[3] = { { 0 } };
	struct js_outputs o = { .n = 3 };
	struct js_event ev[2] = { { 0 } };
	struct js_gap_rec g = { 0 };
	struct js_run run = { 0 };
	bool events, watch;

	(void)state;
	for (int i = 0; i < 3; i++)
		o.v[i] = (struct js_output){ .ctx = &r[i],
					     .run_start = rec_start,
					     .on_gap = rec_gap,
					     .sync = rec_sync,
					     .on_tick = rec_tick };
	o.v[0].wants_events = true;
	o.v[1].on_event = rec_event;
	outputs_wants(&o, &events, &watch);
	assert_true(events);
	assert_true(watch);
	outputs_run_start(&o, &run);
	o.v[2].err = -EPIPE; /* failed during the run: written no more */
	outputs_event(&o, &ev[0]);
	outputs_gap(&o, &g, ev, 2);
	outputs_tick(&o, &run, 10);
	outputs_sync(&o, &run, UINT64_MAX);
	assert_int_equal(r[0].starts + r[1].starts + r[2].starts, 3);
	assert_int_equal(r[1].events, 1);
	assert_int_equal(r[0].events, 0);
	assert_ptr_equal(r[0].ev, ev);
	assert_int_equal(r[0].nev, 2);
	assert_null(r[1].ev);
	assert_int_equal(r[1].nev, 0);
	assert_int_equal(r[1].gaps, 1);
	assert_int_equal(r[1].syncs, 2);
	assert_int_equal(r[1].ticks, 1);
	assert_int_equal(r[2].gaps + r[2].syncs + r[2].ticks + r[2].events, 0);
	/* no outputs at all */
	outputs_wants(NULL, &events, &watch);
	assert_false(events || watch);
	outputs_gap(NULL, &g, ev, 2);
	outputs_tick(NULL, &run, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_check),    cmocka_unit_test(test_reopen_rotate),
		cmocka_unit_test(test_gaps_max_size), cmocka_unit_test(test_rotate_keep),
		cmocka_unit_test(test_regular),	      cmocka_unit_test(test_full),
		cmocka_unit_test(test_fifo),	      cmocka_unit_test(test_stdout),
		cmocka_unit_test(test_outputs),	      cmocka_unit_test(test_prom_special),
		cmocka_unit_test(test_fanout),
	};

	return cmocka_run_group_tests_name("output", tests, setup, scratch_teardown);
}
