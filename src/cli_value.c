// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cli_value.c - an option's value, as its row of cli.c's table says: read, checked
 * against its range, stored in its field of struct js_params, or refused in one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_cli_value.h"
#include "js_cpulist.h"
#include "js_params.h"
#include "js_util.h"

int cli_uint(const char *s, unsigned long long max, unsigned long long *n)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*n = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return *n > max ? -ERANGE : 0;
}

/* parse_per_min - "10" or "10/min" into *n, within [min, max] */
static int parse_per_min(const char *s, uint64_t min, uint64_t max, unsigned long long *n)
{
	size_t len = strcspn(s, "/");
	char num[24];

	snprintf(num, sizeof(num), "%.*s", (int)JS_MIN(len, sizeof(num) - 1), s);
	if ((s[len] && strcmp(s + len, "/min")) || len >= sizeof(num) || cli_uint(num, max, n) ||
	    *n < min)
		return -EINVAL;
	return 0;
}

int cli_number(const char *s, bool pct, double lo, double hi, double *d)
{
	char *end;

	if (!s || !*s || *s == ' ')
		return -EINVAL;
	errno = 0;
	*d = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	if (pct && *end == '%')
		end++;
	if (errno || *end || !(*d >= lo && *d <= hi))
		return -EINVAL;
	return 0;
}

/* word_index - the index of s among the words of "a|b|c"; -1 if not one */
static int word_index(const char *words, const char *s)
{
	size_t n = strlen(s);

	for (int i = 0; words && *words; i++) {
		size_t len = strcspn(words, "|");

		if (len == n && !strncmp(words, s, n))
			return i;
		words += len + (words[len] == '|');
	}
	return -1;
}

/* words_text - "a|b|c" as a message says it: "a, b or c" */
static void words_text(const char *words, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	while (*words && at < len) {
		size_t w = strcspn(words, "|");
		bool last = !words[w];

		at += (size_t)snprintf(buf + at, len - at, "%s%.*s",
				       !at  ? "" :
				       last ? " or " :
					      ", ",
				       (int)w, words);
		words += w + !last;
	}
}

/* hint_text - the hint, its "~" the range "MIN..MAX" */
static void hint_text(const struct cli_value *v, char *buf, size_t len)
{
	const char *r = strchr(v->hint, '~');

	if (!r)
		snprintf(buf, len, "%s", v->hint);
	else
		snprintf(buf, len, "%.*s%llu..%llu%s", (int)(r - v->hint), v->hint,
			 (unsigned long long)v->u.min, (unsigned long long)v->u.max, r + 1);
}

/* store - n into the integer field of size bytes at f */
static void store(void *f, size_t size, unsigned long long n)
{
	uint8_t u8 = (uint8_t)n;
	uint32_t u32 = (uint32_t)n;
	uint64_t u64 = n;

	memcpy(f, size == 1 ? (void *)&u8 : size == 4 ? (void *)&u32 : (void *)&u64, size);
}

/* set_cpus - the CPUs of arg into the int array f and its count; -EINVAL with the reason */
static int set_cpus(const struct cli_value *v, const char *arg, void *base, char *err, size_t len)
{
	struct js_cpuset set;
	int *list = (int *)((char *)base + v->off);
	size_t n = 0;

	if (cpulist_parse(arg, &set, err, len))
		return -EINVAL;
	for (int cpu = cpuset_next(&set, 0); cpu >= 0; cpu = cpuset_next(&set, cpu + 1))
		list[n++] = cpu;
	memcpy((char *)base + v->count, &n, sizeof(n));
	return 0;
}

int cli_value_set(const struct cli_value *v, const char *name, const char *words, const char *arg,
		  void *base, char *msg, size_t len)
{
	void *f = (char *)base + v->off;
	unsigned long long n = 0;
	char err[200], hint[160];
	double d;
	int ret = 0;

	switch (v->kind) {
	case CLI_NONE:
		return 0;
	case CLI_FLAG:
		*(bool *)f = true;
		break;
	case CLI_SET:
		store(f, v->size, v->u.min);
		break;
	case CLI_INC:
		(*(int *)f)++;
		break;
	case CLI_TIME:
	case CLI_SIZE:
		ret = v->kind == CLI_TIME ? js_parse_time(arg, &v->u, f, err, sizeof(err)) :
					    js_parse_size(arg, &v->u, f, err, sizeof(err));
		if (ret) {
			snprintf(msg, len, "invalid %s%s '%s': %s", v->bare_name ? "" : "--", name,
				 arg, err);
			return -EINVAL;
		}
		break;
	case CLI_UINT:
	case CLI_POW2:
	case CLI_PER_MIN:
		ret = v->kind == CLI_PER_MIN ? parse_per_min(arg, v->u.min, v->u.max, &n) :
		      cli_uint(arg, v->u.max, &n) || n < v->u.min ? -EINVAL :
		      v->kind == CLI_POW2 && (n & (n - 1))	  ? -EINVAL :
								    0;
		if (!ret)
			store(f, v->size, n);
		break;
	case CLI_PCT:
		ret = cli_number(arg, true, (double)v->u.min, (double)v->u.max, &d);
		if (!ret)
			*(double *)f = d;
		break;
	case CLI_ENUM: {
		int e = v->from_name ? v->from_name(arg) : word_index(words, arg);

		if (e < 0 || (unsigned long long)e < v->u.min) {
			words_text(words, hint, sizeof(hint));
			snprintf(msg, len, "invalid --%s '%s' (%s)", name, arg, hint);
			return -EINVAL;
		}
		store(f, v->size, (unsigned long long)e);
		break;
	}
	case CLI_PATH:
		if (!*arg) {
			snprintf(msg, len, "invalid --%s '' (%s)", name, v->hint);
			return -EINVAL;
		}
		/* fall through */
	case CLI_STR:
		*(const char **)f = arg;
		break;
	case CLI_CPUS:
		if (set_cpus(v, arg, base, err, sizeof(err))) {
			snprintf(msg, len, "invalid CPU list '%s' for --%s: %s", arg, name, err);
			return -EINVAL;
		}
		break;
	}
	if (ret) {
		hint_text(v, hint, sizeof(hint));
		snprintf(msg, len, "invalid --%s '%s' (%s)", name, arg, hint);
		return -EINVAL;
	}
	if (v->given)
		*(bool *)((char *)base + v->given) = true;
	return 0;
}
