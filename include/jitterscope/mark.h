/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * jitterscope/mark.h - tell jitterscope when your loop was slow (header only, C and C++).
 *
 * Your application times its own iterations and appends each slow one, as a line
 * "start_ns,end_ns,label" in CLOCK_MONOTONIC nanoseconds, to a file or a FIFO that
 * `jitterscope --pid PID --marks FILE` (or `--cpu LIST --marks FILE`) reads as it grows;
 * jitterscope then tells what the kernel, other tasks or the host did during each one.
 *
 *	struct js_marker mk;
 *	uint64_t t0, t1;
 *
 *	js_marker_open(&mk, "/run/app.marks", 50000);   // slow: 50 us or more
 *	t0 = js_mark_now();
 *	for (;;) {
 *		poll_once();
 *		t1 = js_mark_now();
 *		js_mark_slow(&mk, t0, t1, "poll");       // one write() when t1 - t0 >= 50 us
 *		t0 = t1;                                // back to back: no instant is missed
 *	}
 *
 * Costs: js_mark_now() is one clock_gettime(CLOCK_MONOTONIC) (the vDSO: no system call);
 * js_mark_slow() on a fast iteration is a subtraction; a mark is formatted on the stack and
 * written with one write(2): no allocation, no lock, no stdio. A line is at most
 * JS_MARK_LINE_MAX bytes, less than PIPE_BUF, so the marks of several threads sharing one
 * marker never interleave. The file is opened non-blocking: when a FIFO is full (jitterscope
 * is not reading fast enough, or is gone) the mark is dropped and counted in `dropped`,
 * the loop never waits. A FIFO can be opened only while a reader has it open (start
 * jitterscope first); a regular file is created if needed and appended to.
 *
 * Labels: at most JS_MARK_LABEL_MAX bytes are written (jitterscope keeps 47); a newline or
 * carriage return in a label is written as a space. The format is documented in
 * jitterscope's docs/JSON.md ("marks").
 */
#ifndef JITTERSCOPE_MARK_H
#define JITTERSCOPE_MARK_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define JS_MARK_LABEL_MAX 47
/* "18446744073709551615,18446744073709551615," + label + "\n" */
#define JS_MARK_LINE_MAX (2 * 20 + 2 + JS_MARK_LABEL_MAX + 1)

struct js_marker {
	int fd;		  /* -1: closed */
	uint64_t slow_ns; /* js_mark_slow(): an iteration this long or longer is marked */
	uint64_t written; /* marks written */
	uint64_t dropped; /* marks not written (a full FIFO, an error): see last_errno */
	int last_errno;
};

/* js_mark_now - CLOCK_MONOTONIC in nanoseconds (the clock jitterscope's events use) */
static inline uint64_t js_mark_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* js_marker_open - open path to append marks (a FIFO: only while a reader has it open);
 * slow_ns for js_mark_slow(). 0, or -errno (the marker stays closed: marks are dropped) */
static inline int js_marker_open(struct js_marker *m, const char *path, uint64_t slow_ns)
{
	m->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
	m->slow_ns = slow_ns;
	m->written = 0;
	m->dropped = 0;
	m->last_errno = m->fd < 0 ? errno : 0;
	return m->fd < 0 ? -m->last_errno : 0;
}

/* js_mark__u64 - v in decimal at p, returns the end (no allocation, no locale) */
static inline char *js_mark__u64(char *p, uint64_t v)
{
	char t[20];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
}

/* js_mark - write the mark [start_ns, end_ns] with label (NULL: none): one write(2).
 * 0, or -errno when it was dropped (counted in m->dropped) */
static inline int js_mark(struct js_marker *m, uint64_t start_ns, uint64_t end_ns,
			  const char *label)
{
	char line[JS_MARK_LINE_MAX], *p = line;
	ssize_t w;
	int i;

	if (m->fd < 0) {
		m->dropped++;
		return -EBADF;
	}
	p = js_mark__u64(p, start_ns);
	*p++ = ',';
	p = js_mark__u64(p, end_ns);
	if (label && *label) {
		*p++ = ',';
		for (i = 0; label[i] && i < JS_MARK_LABEL_MAX; i++)
			*p++ = label[i] == '\n' || label[i] == '\r' ? ' ' : label[i];
	}
	*p++ = '\n';
	do
		w = write(m->fd, line, (size_t)(p - line));
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)(p - line)) {
		m->last_errno = w < 0 ? errno : EIO;
		m->dropped++;
		return -m->last_errno;
	}
	m->written++;
	return 0;
}

/* js_mark_slow - mark [start_ns, end_ns] when it lasted m->slow_ns or more: 1 written, 0 not
 * slow, -errno dropped */
static inline int js_mark_slow(struct js_marker *m, uint64_t start_ns, uint64_t end_ns,
			       const char *label)
{
	if (end_ns - start_ns < m->slow_ns)
		return 0;
	return js_mark(m, start_ns, end_ns, label) ? -m->last_errno : 1;
}

/* js_marker_close - close it (marks after are dropped) */
static inline void js_marker_close(struct js_marker *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

#endif /* JITTERSCOPE_MARK_H */
