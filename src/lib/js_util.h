/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_util.h - diagnostics, exit codes and small helpers shared by every module. */
#ifndef JS_UTIL_H
#define JS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes (documented in README.md). */
#define JS_EXIT_OK 0
#define JS_EXIT_ERROR 1	    /* runtime error */
#define JS_EXIT_VIOLATION 2 /* a --budget was exceeded / check found failures */
#define JS_EXIT_ENDED 3	    /* the --on-spike command ended the run (exit 99) */
#define JS_EXIT_USAGE 64    /* bad command line (argp's EX_USAGE) */
#define JS_EXIT_SIGNAL 130  /* a second Ctrl-C: exited at once */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define JS_MIN(a, b) ((a) < (b) ? (a) : (b))
#define JS_MAX(a, b) ((a) > (b) ? (a) : (b))

extern int js_verbose; /* -v: debug messages */
extern bool js_quiet;  /* -q: no notices */

/* js_err - "jitterscope: <msg>" on stderr, always */
void js_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* js_warn - "jitterscope: warning: <msg>" on stderr, always */
void js_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* js_notice - "jitterscope: <msg>" on stderr unless --quiet */
void js_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* js_dbg - debug message when -v */
void js_dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* js_errf - a one-line message into err[errlen] (nothing if err is NULL or errlen 0);
 * returns -EINVAL, so a parser can `return js_errf(err, errlen, "...", ...);` */
int js_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* js_fmt_ns - human duration ("812 ns", "48.2 us", "11.9 ms", "2.50 s") into buf */
const char *js_fmt_ns(char *buf, size_t len, uint64_t ns);

/* js_name_index - the index of name in names[n] (NULL entries skipped); -1 if absent:
 * the name -> value lookup beside each enum's name table */
int js_name_index(const char *const *names, size_t n, const char *name);

/* js_grow - the array *vp of *n elements of size bytes grown to want (nothing when it holds
 * that many), the new elements zeroed: the outputs' per-result state as results appear
 * (threads, marks). 0, or -ENOMEM with *vp and *n unchanged */
int js_grow(void *vp, size_t *n, size_t want, size_t size);

/* js_scpy - src (NULL: "") into dst[len], cut to fit and NUL-terminated; strlen(src).
 * snprintf(dst, len, "%s", src) without the format parser: a tenth of its cost, and the
 * correlator names every part of every gap */
size_t js_scpy(char *dst, size_t len, const char *src);

/* js_mono_ns - CLOCK_MONOTONIC now, in ns */
uint64_t js_mono_ns(void);

/*
 * jitterscope's threads carry names (their comm, at most 15 characters), so that a gap's
 * story says which one took the CPU: "js-spin/N" the sampler of CPU N, "js-drain" the
 * thread that drains the samplers' rings and the probes' events while measuring,
 * "js-http" the --listen server. docs/jitterscope.8, OUTPUT.
 */
#define JS_THREAD_DRAIN "js-drain"
#define JS_THREAD_HTTP "js-http"
#define JS_THREAD_SPIN "js-spin/%d"
#define JS_THREAD_PROCESS "jitterscope" /* the main thread's comm, the drain: kept for pidof */
/* js_thread_name - name the calling thread; 0 or -errno */
int js_thread_name(const char *name);
/* js_threads_list - the ids of this process's threads (/proc/self/task) into tids[max]; how
 * many there are (more than max: the rest not stored), or -errno */
long js_threads_list(int *tids, size_t max);
/* js_threads_new - the threads of this process not in before[n] (those a library just
 * started) into out[max]; how many were stored */
size_t js_threads_new(const int *before, size_t n, int *out, size_t max);
/* js_thread_name_tid - name thread tid of this process (its /proc/self/task/TID/comm) unless
 * it has that name already: a library's thread that names itself after it starts is named
 * again on the next call. 0, or -errno */
int js_thread_name_tid(int tid, const char *name);

#endif /* JS_UTIL_H */
