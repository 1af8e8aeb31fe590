// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * lblog.c - libbpf's messages while the probes load (js_lblog.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "js_lblog.h"
#include "js_util.h"

static bool lb_verbose;
static char lb_last[256]; /* last libbpf warning: the reason a load failed */
static char lb_prog[64];  /* program named by the last "failed to load" warning */

/* verifier_reason - the line before "processed N insns" in a verifier log: the refusal */
static void verifier_reason(const char *log)
{
	const char *end = strstr(log, "\nprocessed "), *start;

	if (!end)
		return;
	while (end > log && end[-1] == '\n')
		end--;
	for (start = end; start > log && start[-1] != '\n'; start--)
		;
	snprintf(lb_last, sizeof(lb_last), "%.*s", (int)(end - start), start);
}

static int lb_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[4096];
	va_list aq;
	size_t n;

	if (level == LIBBPF_DEBUG && !lb_verbose)
		return 0;
	va_copy(aq, ap);
	if (lb_verbose)
		vfprintf(stderr, fmt, aq);
	va_end(aq);
	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if (strstr(buf, "-- BEGIN PROG LOAD LOG --")) {
		verifier_reason(buf);
		return 0;
	}
	if (!strncmp(buf, "libbpf: prog '", 14) && strstr(buf, "': failed to load"))
		snprintf(lb_prog, sizeof(lb_prog), "%.*s", (int)strcspn(buf + 14, "'"), buf + 14);
	else if (!strstr(buf, "failed to load") && !strstr(buf, "BPF program load failed"))
		js_scpy(lb_last, sizeof(lb_last), buf);
	if (!lb_verbose)
		js_dbg("%s", buf);
	return 0;
}

void lblog_start(bool verbose)
{
	lb_verbose = verbose;
	lb_last[0] = '\0';
	libbpf_set_print(lb_print);
}

void lblog_forget(void)
{
	lb_last[0] = lb_prog[0] = '\0';
}

const char *lblog_last(void)
{
	return lb_last;
}

const char *lblog_prog(void)
{
	return lb_prog;
}
