// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* util.c - diagnostics and small helpers (see js_util.h). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "js_util.h"

int js_verbose;
bool js_quiet;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "jitterscope: %s%s\n", prefix, buf);
}

void js_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void js_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void js_notice(const char *fmt, ...)
{
	va_list ap;

	if (js_quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void js_dbg(const char *fmt, ...)
{
	va_list ap;

	if (!js_verbose)
		return;
	va_start(ap, fmt);
	vmsg("debug: ", fmt, ap);
	va_end(ap);
}

int js_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

const char *js_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

/* js_name_index - the index of name in names[n] (NULL entries skipped); -1 if absent */
int js_name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	return -1;
}

int js_grow(void *vp, size_t *n, size_t want, size_t size)
{
	void **v = vp;
	char *p;

	if (*v && *n >= want)
		return 0;
	p = realloc(*v, (want ? want : 1) * size);
	if (!p)
		return -ENOMEM;
	memset(p + *n * size, 0, ((want ? want : 1) - *n) * size);
	*v = p;
	*n = want;
	return 0;
}

size_t js_scpy(char *dst, size_t len, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (len) {
		size_t k = JS_MIN(n, len - 1);

		memcpy(dst, src ? src : "", k);
		dst[k] = '\0';
	}
	return n;
}

uint64_t js_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int js_thread_name(const char *name)
{
	return prctl(PR_SET_NAME, name, 0, 0, 0) ? -errno : 0;
}

long js_threads_list(int *tids, size_t max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	long n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
			if ((size_t)n < max)
				tids[n] = atoi(e->d_name);
			n++;
		}
	closedir(d);
	return n;
}

size_t js_threads_new(const int *before, size_t n, int *out, size_t max)
{
	int now[256];
	long k = js_threads_list(now, 256);
	size_t m = 0;

	for (long i = 0; i < k && i < 256 && m < max; i++) {
		bool old = false;

		for (size_t j = 0; j < n && !old; j++)
			old = before[j] == now[i];
		if (!old)
			out[m++] = now[i];
	}
	return m;
}

int js_thread_name_tid(int tid, const char *name)
{
	char path[64], cur[32] = "";
	FILE *fp;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	fp = fopen(path, "r+");
	if (!fp)
		return -errno;
	if (fgets(cur, sizeof(cur), fp))
		cur[strcspn(cur, "\n")] = '\0';
	if (strcmp(cur, name)) {
		rewind(fp);
		if (fputs(name, fp) < 0)
			err = -EIO;
	}
	if (fclose(fp) && !err)
		err = -errno;
	return err;
}
