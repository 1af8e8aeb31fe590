// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* jsonread.c - a typed reader of a parsed JSON document (js_jsonread.h) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "js_jsonread.h"
#include "js_util.h"

size_t jr_push(struct jr *l, const char *fmt, ...)
{
	size_t mark = l->plen;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->path + l->plen, sizeof(l->path) - l->plen, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->plen = JS_MIN(l->plen + (size_t)n, sizeof(l->path) - 1);
	return mark;
}

void jr_pop(struct jr *l, size_t mark)
{
	l->plen = mark;
	l->path[mark] = '\0';
}

/* jr_fail - "PATH.key: what (line L, column C)"; the first error wins; returns -EINVAL */
int jr_fail(struct jr *l, const struct jsonp_val *at, const char *key, const char *fmt, ...)
{
	char msg[256], where[64] = "", pos[48];
	const char *path = l->path[0] == '.' ? l->path + 1 : l->path;
	va_list ap;

	if (l->rc)
		return l->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at)
		snprintf(where, sizeof(where), " (%s)", jsonp_pos(at, pos, sizeof(pos)));
	l->rc = js_errf(l->err, l->errlen, "%s%s%s%s%s%s", path, key && path[0] ? "." : "",
			key ? key : "", path[0] || key ? ": " : "", msg, where);
	return l->rc;
}

const char *jr_a_type(enum jsonp_type t)
{
	return t == JSONP_ARR || t == JSONP_OBJ ? "an" : "a";
}

/* jr_get - member key of o with type t; NULL when absent or null */
const struct jsonp_val *jr_get(struct jr *l, const struct jsonp_val *o, const char *key,
			       enum jsonp_type t, unsigned flags)
{
	const struct jsonp_val *v;

	if (l->rc || !o)
		return NULL;
	v = jsonp_get(o, key);
	if (!v) {
		if (flags & JR_REQ)
			jr_fail(l, NULL, key, "missing");
		return NULL;
	}
	if (v->type == JSONP_NULL && (flags & JR_NUL))
		return NULL;
	if (v->type != t) {
		jr_fail(l, v, key, "expected %s %s, found %s %s", jr_a_type(t), jsonp_type_name(t),
			jr_a_type(v->type), jsonp_type_name(v->type));
		return NULL;
	}
	return v;
}

void jr_u64(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, uint64_t *out)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_NUM, flags);

	if (v && jsonp_u64(v, out))
		jr_fail(l, v, key, "expected an unsigned integer, found %.15g", v->num.d);
}

void jr_i64(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, int64_t *out)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_NUM, flags);

	if (v && jsonp_i64(v, out))
		jr_fail(l, v, key, "expected an integer, found %.15g", v->num.d);
}

/* jr_int - an integer in [lo, hi] */
void jr_int(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, int64_t lo,
	    int64_t hi, int *out)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_NUM, flags);
	int64_t x = 0;

	if (!v)
		return;
	if (jsonp_i64(v, &x))
		jr_fail(l, v, key, "expected an integer, found %.15g", v->num.d);
	else if (x < lo || x > hi)
		jr_fail(l, v, key, "%lld is out of range [%lld, %lld]", (long long)x, (long long)lo,
			(long long)hi);
	else
		*out = (int)x;
}

/* jr_dbl - a number; null (a NaN or infinity when written) always leaves the default */
void jr_dbl(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, double *out)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_NUM, flags | JR_NUL);

	if (v)
		*out = v->num.d;
}

void jr_bool(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, bool *out)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_BOOL, flags);

	if (v)
		*out = v->b;
}

/* jr_latin1 - decoded UTF-8 whose code points are all <= U+00FF back to the bytes the writer
 * escaped as \u00XX (js_json.h writes every byte >= 0x80 so); else the UTF-8 as it is */
void jr_latin1(char *dst, size_t len, const char *s, size_t slen)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + slen;
	size_t o = 0;

	for (const unsigned char *q = p; q < end; q++)
		if (*q >= 0xc4 && *q < 0xf8) { /* a code point above U+00FF */
			snprintf(dst, len, "%.*s", (int)JS_MIN(slen, len - 1), s);
			return;
		}
	while (p < end && o + 1 < len) {
		if (*p >= 0xc2 && *p <= 0xc3 && p + 1 < end) {
			dst[o++] = (char)(((*p & 0x03) << 6) | (p[1] & 0x3f));
			p += 2;
		} else {
			dst[o++] = (char)*p++;
		}
	}
	dst[o] = '\0';
}

/* jr_str - a string into dst[len] (truncated); null leaves dst as it is when JR_NUL */
void jr_str(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, char *dst,
	    size_t len)
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_STR, flags);

	if (v)
		jr_latin1(dst, len, v->str.s, v->str.len);
}

/* jr_name - a string from() knows (an enum's name -> value lookup): its value, or -1 */
int jr_name(struct jr *l, const struct jsonp_val *o, const char *key, int (*from)(const char *name))
{
	const struct jsonp_val *v = jr_get(l, o, key, JSONP_STR, JR_REQ);
	int x;

	if (!v)
		return -1;
	x = from(v->str.s);
	if (x < 0)
		jr_fail(l, v, key, "unknown value \"%.40s\"", v->str.s);
	return x;
}

/* jr_objs - the array key of o, each element checked to be an object */
const struct jsonp_val *jr_objs(struct jr *l, const struct jsonp_val *o, const char *key,
				unsigned flags)
{
	const struct jsonp_val *a = jr_get(l, o, key, JSONP_ARR, flags);

	for (size_t i = 0; a && i < a->arr.n; i++)
		if (!jsonp_is(&a->arr.v[i], JSONP_OBJ)) {
			jr_fail(l, &a->arr.v[i], key, "element %zu is not an object", i);
			return NULL;
		}
	return a;
}

/* jr_cpus - an array of CPU numbers in [0, max) */
void jr_cpus(struct jr *l, const struct jsonp_val *o, const char *key, int *out, size_t *n, int max)
{
	const struct jsonp_val *a = jr_get(l, o, key, JSONP_ARR, JR_REQ);
	size_t mark = jr_push(l, ".%s", key);

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		int64_t c = 0;

		if (i >= (size_t)max || jsonp_i64(&a->arr.v[i], &c) || c < 0 || c >= max)
			jr_fail(l, &a->arr.v[i], NULL, "element %zu is not a CPU number", i);
		else
			out[(*n)++] = (int)c;
	}
	jr_pop(l, mark);
}
