/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_marks.h - the application's marks (--marks FILE): one slow interval a line,
 * "start_ns,end_ns[,label]" in CLOCK_MONOTONIC nanoseconds, appended to a regular file or
 * written into a FIFO while jitterscope runs (include/jitterscope/mark.h writes them).
 *
 * The line's rules (docs/JSON.md, marks): two unsigned decimal integers, end >= start,
 * spaces and tabs allowed around them; the label is the rest of the line after the second
 * comma (commas included), a trailing CR dropped, control characters shown as '?', cut to
 * JS_LABEL_LEN - 1 bytes. A blank line, a line starting with '#' and a header line starting
 * with "start_ns" are not marks and not errors. Anything else is malformed: counted and
 * reported, never fatal.
 *
 * The reader follows the file as it grows (tail -f): a regular file from its end at open
 * (a partial last line there is skipped), read again from its start when it shrinks; a
 * FIFO opened read-write, so that it never reports end-of-file when a writer closes and a
 * writer opening it never fails for want of a reader. Nothing here blocks.
 */
#ifndef JS_MARKS_H
#define JS_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "js_model.h"

#define MARKS_LINE_MAX 4096 /* a longer line is malformed (and skipped to its end) */

struct js_mark {
	uint64_t start_ns, end_ns;
	char label[JS_LABEL_LEN];
};

/* marks_parse_line - one line (len bytes, no newline) into m: 0 a mark, 1 not a mark and not
 * an error (blank, comment, header), -EINVAL malformed with the reason in why */
int marks_parse_line(const char *line, size_t len, struct js_mark *m, char *why, size_t wlen);

struct marks_reader {
	int fd;
	bool fifo;
	off_t off;		  /* a regular file: where the next read starts */
	char buf[MARKS_LINE_MAX]; /* the line being assembled */
	size_t len;
	bool skipping;	    /* the rest of an overlong or partial line is dropped */
	uint64_t line;	    /* lines seen (the number of the last one) */
	uint64_t truncated; /* times the file shrank and was read from its start */
};

/* marks_reader_open - open path (a regular file or a FIFO); 0, or -errno with why */
int marks_reader_open(struct marks_reader *r, const char *path, char *why, size_t wlen);
/*
 * marks_reader_poll - read what was written since, at most max_bytes: each complete line to
 * cb(ctx, number, line, len), an overlong one as it is (len > MARKS_LINE_MAX - 1 means cut:
 * the caller says it is too long). With at_end, a last line without its newline is complete
 * too. Returns the lines delivered, or -errno (a read error).
 */
int marks_reader_poll(struct marks_reader *r, size_t max_bytes, bool at_end,
		      void (*cb)(void *ctx, uint64_t number, const char *line, size_t len),
		      void *ctx);
/* marks_reader_close - close it (accepts a reader never opened: fd < 0 or 0-initialised) */
void marks_reader_close(struct marks_reader *r);

#endif /* JS_MARKS_H */
