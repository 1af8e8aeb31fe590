// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cpulist.c - CPU sets, cpulists and hex cpumasks (see js_cpulist.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "js_cpulist.h"
#include "js_util.h"

#define NWORDS (JS_MAX_CPUS / 64)

/* cpuset_zero - empty the set */
void cpuset_zero(struct js_cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

/* cpuset_set - add cpu (ignored when out of range) */
void cpuset_set(struct js_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < JS_MAX_CPUS)
		s->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

/* cpuset_clear - remove cpu */
void cpuset_clear(struct js_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < JS_MAX_CPUS)
		s->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

/* cpuset_isset - is cpu in the set (false when out of range) */
bool cpuset_isset(const struct js_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= JS_MAX_CPUS)
		return false;
	return s->bits[cpu / 64] & (1ULL << (cpu % 64));
}

/* cpuset_count - number of CPUs in the set */
int cpuset_count(const struct js_cpuset *s)
{
	int n = 0;

	for (int i = 0; i < NWORDS; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

/* cpuset_empty - true when no CPU is set */
bool cpuset_empty(const struct js_cpuset *s)
{
	for (int i = 0; i < NWORDS; i++)
		if (s->bits[i])
			return false;
	return true;
}

/* cpuset_equal - same members */
bool cpuset_equal(const struct js_cpuset *a, const struct js_cpuset *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

/* cpuset_intersects - a and b share a CPU */
bool cpuset_intersects(const struct js_cpuset *a, const struct js_cpuset *b)
{
	for (int i = 0; i < NWORDS; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

/* cpuset_subset - every CPU of a is in b */
bool cpuset_subset(const struct js_cpuset *a, const struct js_cpuset *b)
{
	for (int i = 0; i < NWORDS; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

/* cpuset_or - dst |= src */
void cpuset_or(struct js_cpuset *dst, const struct js_cpuset *src)
{
	for (int i = 0; i < NWORDS; i++)
		dst->bits[i] |= src->bits[i];
}

/* cpuset_and - dst &= src */
void cpuset_and(struct js_cpuset *dst, const struct js_cpuset *src)
{
	for (int i = 0; i < NWORDS; i++)
		dst->bits[i] &= src->bits[i];
}

/* cpuset_andnot - dst &= ~src */
void cpuset_andnot(struct js_cpuset *dst, const struct js_cpuset *src)
{
	for (int i = 0; i < NWORDS; i++)
		dst->bits[i] &= ~src->bits[i];
}

/* cpuset_next - first CPU >= from in the set, or -1 */
int cpuset_next(const struct js_cpuset *s, int from)
{
	if (from < 0)
		from = 0;
	for (int c = from; c < JS_MAX_CPUS; c++) {
		uint64_t w = s->bits[c / 64] >> (c % 64);

		if (!w) {
			c |= 63; /* skip the rest of this word */
			continue;
		}
		return c + __builtin_ctzll(w);
	}
	return -1;
}

/* trim - the [*b, *e) span of s without surrounding whitespace */
static void trim(const char *s, const char **b, const char **e)
{
	const char *p = s, *q = s + strlen(s);

	while (p < q && isspace((unsigned char)*p))
		p++;
	while (q > p && isspace((unsigned char)q[-1]))
		q--;
	*b = p;
	*e = q;
}

/* parse_num - a decimal CPU number (or "N" = last) at *pp; advances *pp */
static int parse_num(const char **pp, const char *end, int last, int *out, char *err, size_t errlen)
{
	const char *p = *pp;
	long v = 0;

	if (p < end && *p == 'N' && last >= 0) {
		*out = last;
		*pp = p + 1;
		return 0;
	}
	if (p >= end || !isdigit((unsigned char)*p))
		return js_errf(err, errlen, "expected a CPU number at \"%.*s\"", (int)(end - p), p);
	while (p < end && isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v > JS_MAX_CPUS * 16L)
			v = JS_MAX_CPUS * 16L; /* saturate; reported as out of range below */
		p++;
	}
	*out = (int)v;
	*pp = p;
	return 0;
}

/* parse_range - one "A", "A-B" or "A-B:used/group" element in [p, end) */
static int parse_range(const char *p, const char *end, int last, struct js_cpuset *out, char *err,
		       size_t errlen)
{
	const char *s = p;
	int a, b, used = 1, group = 1;

	if (parse_num(&p, end, last, &a, err, errlen))
		return -EINVAL;
	b = a;
	if (p < end && *p == '-') {
		p++;
		if (parse_num(&p, end, last, &b, err, errlen))
			return -EINVAL;
		if (p < end && *p == ':') {
			p++;
			if (parse_num(&p, end, -1, &used, err, errlen))
				return -EINVAL;
			if (p >= end || *p != '/')
				return js_errf(err, errlen, "expected \"/group\" in \"%.*s\"",
					       (int)(end - s), s);
			p++;
			if (parse_num(&p, end, -1, &group, err, errlen))
				return -EINVAL;
			if (!group || !used || used > group)
				return js_errf(err, errlen, "bad stride in \"%.*s\"",
					       (int)(end - s), s);
		}
	}
	if (p != end)
		return js_errf(err, errlen, "unexpected \"%.*s\" in \"%.*s\"", (int)(end - p), p,
			       (int)(end - s), s);
	if (a > b)
		return js_errf(err, errlen, "reversed range \"%.*s\"", (int)(end - s), s);
	if (b > JS_MAX_CPUS - 1)
		return js_errf(err, errlen, "CPU %d out of range (max %d)", b, JS_MAX_CPUS - 1);
	for (int c = a; c <= b; c++)
		if ((c - a) % group < used)
			cpuset_set(out, c);
	return 0;
}

/* cpulist_parse_n - cpulist_parse with "N" = last_cpu and optionally empty = no CPU */
int cpulist_parse_n(const char *str, struct js_cpuset *out, int last_cpu, bool allow_empty,
		    char *err, size_t errlen)
{
	const char *p, *end;
	struct js_cpuset tmp;

	cpuset_zero(&tmp);
	if (!str)
		return js_errf(err, errlen, "no CPU list");
	trim(str, &p, &end);
	if (p == end) {
		if (!allow_empty)
			return js_errf(err, errlen, "empty CPU list");
		*out = tmp;
		return 0;
	}
	while (p <= end) {
		const char *comma = memchr(p, ',', end - p);
		const char *e = comma ? comma : end;

		if (e == p)
			return js_errf(err, errlen, "empty element in CPU list \"%.*s\"",
				       (int)(end - str), str);
		if (parse_range(p, e, last_cpu, &tmp, err, errlen))
			return -EINVAL;
		if (!comma)
			break;
		p = comma + 1;
		if (p == end)
			return js_errf(err, errlen, "trailing comma in CPU list");
	}
	*out = tmp;
	return 0;
}

/* cpulist_parse - strict kernel cpulist ("1,3-5", "0-7:2/4"); -EINVAL + message */
int cpulist_parse(const char *str, struct js_cpuset *out, char *err, size_t errlen)
{
	return cpulist_parse_n(str, out, -1, false, err, errlen);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* mask_digits - set the bits of hex digits [b, e) whose lowest digit is bit `bit` */
static int mask_digits(const char *b, const char *e, int bit, struct js_cpuset *out, char *err,
		       size_t errlen)
{
	for (const char *q = e; q > b; q--, bit += 4) {
		int v = hexval((unsigned char)q[-1]);

		if (v < 0)
			return js_errf(err, errlen, "bad hex digit '%c' in cpumask", q[-1]);
		for (int k = 0; k < 4; k++) {
			if (!(v & (1 << k)))
				continue;
			if (bit + k > JS_MAX_CPUS - 1)
				return js_errf(err, errlen, "cpumask sets CPU %d (max %d)", bit + k,
					       JS_MAX_CPUS - 1);
			cpuset_set(out, bit + k);
		}
	}
	return 0;
}

/* cpumask_parse - strict kernel hex cpumask ("ff,00000001"); -EINVAL + message */
int cpumask_parse(const char *str, struct js_cpuset *out, char *err, size_t errlen)
{
	const char *p, *end, *e;
	struct js_cpuset tmp;
	int bit = 0;
	bool groups;

	cpuset_zero(&tmp);
	if (!str)
		return js_errf(err, errlen, "no cpumask");
	trim(str, &p, &end);
	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == end)
		return js_errf(err, errlen, "empty cpumask");
	groups = memchr(p, ',', end - p) != NULL;
	/* walk the groups from the least significant (last) one */
	for (e = end; e >= p; bit += 32) {
		const char *b = e;

		while (b > p && b[-1] != ',')
			b--;
		if (b == e || (groups && e - b > 8))
			return js_errf(err, errlen, "bad cpumask group \"%.*s\"", (int)(e - b), b);
		if (mask_digits(b, e, bit, &tmp, err, errlen))
			return -EINVAL;
		if (b == p)
			break;
		e = b - 1;
	}
	*out = tmp;
	return 0;
}

/* append - snprintf at buf + *pos; false when it did not fit */
static bool append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *pos) {
		buf[*pos] = '\0';
		return false;
	}
	*pos += n;
	return true;
}

/* cpulist_format - s as a cpulist ("1,3-5"; "" when empty); length or -ENOSPC */
int cpulist_format(const struct js_cpuset *s, char *buf, size_t len)
{
	size_t pos = 0;
	bool ok = true;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (int c = cpuset_next(s, 0); c >= 0 && ok;) {
		int e = c;

		while (e + 1 < JS_MAX_CPUS && cpuset_isset(s, e + 1))
			e++;
		if (e == c)
			ok = append(buf, len, &pos, "%s%d", pos ? "," : "", c);
		else
			ok = append(buf, len, &pos, "%s%d-%d", pos ? "," : "", c, e);
		c = cpuset_next(s, e + 1);
	}
	if (ok)
		return (int)pos;
	if (len >= 4)
		strcpy(buf + (pos + 4 <= len ? pos : len - 4), "...");
	return -ENOSPC;
}

/* cpumask_format - s as a kernel hex cpumask of nbits bits; length or -ENOSPC */
int cpumask_format(const struct js_cpuset *s, int nbits, char *buf, size_t len)
{
	size_t pos = 0;
	int ngroups;

	if (nbits <= 0) {
		int last = -1;

		for (int c = cpuset_next(s, 0); c >= 0; c = cpuset_next(s, c + 1))
			last = c;
		nbits = last + 1;
	}
	if (nbits > JS_MAX_CPUS)
		nbits = JS_MAX_CPUS;
	ngroups = nbits > 0 ? (nbits + 31) / 32 : 1;
	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (int g = ngroups - 1; g >= 0; g--) {
		uint32_t w = (uint32_t)(s->bits[g / 2] >> (32 * (g % 2)));

		int width = g == ngroups - 1 ? (nbits > 0 ? ((nbits - 1) % 32) / 4 + 1 : 1) : 8;

		if (!append(buf, len, &pos, "%s%0*x", g == ngroups - 1 ? "" : ",", width, w))
			return -ENOSPC;
	}
	return (int)pos;
}
