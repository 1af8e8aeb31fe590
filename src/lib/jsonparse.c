// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* jsonparse.c - strict RFC 8259 recursive-descent JSON parser into an arena DOM. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_jsonparse.h"
#include "js_util.h"

#define ARENA_CHUNK (64 * 1024)

struct jsonp_chunk {
	struct jsonp_chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

/* the parser's state; p only moves forward, never past end */
struct ps {
	const unsigned char *p, *end;
	const unsigned char *line_start;
	uint32_t line;
	size_t cont, cont_line; /* UTF-8 continuation bytes consumed: in all, before the line */
	int depth;
	int rc;
	struct jsonp_doc *doc;
	char *err;
	size_t errlen;
};

static void *arena_alloc(struct jsonp_doc *d, size_t n)
{
	struct jsonp_chunk *c = d->arena;
	size_t need = (n + 15) & ~(size_t)15;
	void *r;

	if (need < n)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t size = need > ARENA_CHUNK ? need : ARENA_CHUNK;

		if (size > SIZE_MAX - sizeof(*c))
			return NULL;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = d->arena;
		d->arena = c;
	}
	r = c->data + c->used;
	c->used += need;
	return r;
}

static uint32_t col_of(const struct ps *s, const unsigned char *at)
{
	size_t bytes = (size_t)(at - s->line_start), cont = s->cont - s->cont_line;

	return (uint32_t)(bytes >= cont ? bytes - cont : 0) + 1;
}

/* jsonp_pos - "line L, column C" of v into buf; returns buf */
const char *jsonp_pos(const struct jsonp_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "line %u, column %u", v->line, v->col);
	return buf;
}

/* fail - record the first error at position at; returns -EINVAL */
static int __attribute__((format(printf, 3, 4)))
fail(struct ps *s, const unsigned char *at, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	struct jsonp_val where = { .line = s->line, .col = col_of(s, at) };
	char pos[48];

	if (s->rc)
		return s->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->rc = js_errf(s->err, s->errlen, "%s: %s", jsonp_pos(&where, pos, sizeof(pos)), msg);
	return s->rc;
}

static int oom(struct ps *s)
{
	if (!s->rc) {
		js_errf(s->err, s->errlen, "out of memory");
		s->rc = -ENOMEM;
	}
	return s->rc;
}

static void skip_ws(struct ps *s)
{
	while (s->p < s->end) {
		unsigned char c = *s->p;

		if (c == '\n') {
			s->line++;
			s->line_start = s->p + 1;
			s->cont_line = s->cont;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		s->p++;
	}
}

/* describe - the character at p for a message */
static const char *describe(const struct ps *s, char *buf, size_t len)
{
	unsigned char c;

	if (s->p >= s->end)
		return "end of input";
	c = *s->p;
	if (c >= 0x21 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static int unexpected(struct ps *s, const char *what)
{
	char b[16];

	return fail(s, s->p, "expected %s, found %s", what, describe(s, b, sizeof(b)));
}

static int parse_value(struct ps *s, struct jsonp_val *v);

/* literal - true, false, null */
static int parse_literal(struct ps *s, struct jsonp_val *v, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return unexpected(s, "a value");
	s->p += n;
	v->type = word[0] == 'n' ? JSONP_NULL : JSONP_BOOL;
	v->b = word[0] == 't';
	return 0;
}

static bool is_digit(const struct ps *s, const unsigned char *q)
{
	return q < s->end && *q >= '0' && *q <= '9';
}

/* int_value - the exact integer of an integer-form token [a, b) (optional '-') */
static void int_value(const unsigned char *a, const unsigned char *b, struct jsonp_val *v)
{
	bool neg = *a == '-';
	uint64_t m = 0;

	for (const unsigned char *q = a + neg; q < b; q++) {
		unsigned d = (unsigned)(*q - '0');

		if (m > (UINT64_MAX - d) / 10)
			return; /* too large for 64 bits: a double only */
		m = m * 10 + d;
	}
	if (!neg) {
		v->num.is_uint = true;
		v->num.u = m;
		if (m <= (uint64_t)INT64_MAX) {
			v->num.is_int = true;
			v->num.i = (int64_t)m;
		}
	} else if (m <= (uint64_t)INT64_MAX + 1) {
		v->num.is_int = true;
		v->num.i = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
		if (m == 0) {
			v->num.is_uint = true; /* -0 */
			v->num.u = 0;
		}
	}
}

/* to_double - strtod of the token [a, b) (copied: buf is not NUL-terminated) */
static int to_double(struct ps *s, const unsigned char *a, const unsigned char *b, double *d)
{
	size_t n = (size_t)(b - a);
	char small[64], *tmp = small;

	if (n >= sizeof(small)) {
		tmp = malloc(n + 1);
		if (!tmp)
			return oom(s);
	}
	memcpy(tmp, a, n);
	tmp[n] = '\0';
	*d = strtod(tmp, NULL);
	if (tmp != small)
		free(tmp);
	if (*d > 1.7976931348623157e308 || *d < -1.7976931348623157e308)
		return fail(s, a, "number out of range");
	return 0;
}

/* parse_number - -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int parse_number(struct ps *s, struct jsonp_val *v)
{
	const unsigned char *a = s->p, *q = s->p;
	bool integral = true;

	if (*q == '-')
		q++;
	if (!is_digit(s, q))
		return fail(s, q, "a number needs a digit here");
	if (*q == '0') {
		q++;
		if (is_digit(s, q))
			return fail(s, q, "leading zeros are not allowed in a number");
	} else {
		while (is_digit(s, q))
			q++;
	}
	if (q < s->end && *q == '.') {
		integral = false;
		if (!is_digit(s, ++q))
			return fail(s, q, "a digit must follow the decimal point");
		while (is_digit(s, q))
			q++;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		integral = false;
		q++;
		if (q < s->end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit(s, q))
			return fail(s, q, "a digit must follow the exponent");
		while (is_digit(s, q))
			q++;
	}
	v->type = JSONP_NUM;
	v->num.is_int = v->num.is_uint = false;
	if (integral)
		int_value(a, q, v);
	s->p = q;
	return to_double(s, a, q, &v->num.d);
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* hex4 - the 4 hex digits at q (q + 4 <= lim checked); -1 if not hex */
static long hex4(const unsigned char *q, const unsigned char *lim)
{
	long u = 0;

	if (lim - q < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int h = hexval(q[i]);

		if (h < 0)
			return -1;
		u = u * 16 + h;
	}
	return u;
}

static size_t put_utf8(unsigned char *o, unsigned long cp)
{
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* utf8_len - length of the valid UTF-8 sequence at q (< lim), 0 if invalid (RFC 3629) */
static size_t utf8_len(const unsigned char *q, const unsigned char *lim)
{
	unsigned char c = q[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0; /* overlong */
	else if (c == 0xed)
		hi = 0x9f; /* surrogates */
	else if (c == 0xf0)
		lo = 0x90; /* overlong */
	else if (c == 0xf4)
		hi = 0x8f; /* above U+10FFFF */
	if ((size_t)(lim - q) < n || q[1] < lo || q[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (q[i] < 0x80 || q[i] > 0xbf)
			return 0;
	return n;
}

/* escape - decode the escape at q (q[0] == '\\', q < close) into o; advances *q and *o */
static int escape(struct ps *s, const unsigned char **q, const unsigned char *close,
		  unsigned char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const unsigned char *e = *q + 1;
	const char *k = e < close && *e ? strchr(from, *e) : NULL;
	long u, lo = 0;

	if (k) {
		*(*o)++ = (unsigned char)to[k - from];
		*q = e + 1;
		return 0;
	}
	if (e >= close || *e != 'u')
		return fail(s, *q,
			    "invalid escape in a string (valid: \\\" \\\\ \\/ \\b \\f "
			    "\\n \\r \\t \\uXXXX)");
	u = hex4(e + 1, close);
	if (u < 0)
		return fail(s, *q, "\\u needs 4 hex digits");
	if (u >= 0xdc00 && u <= 0xdfff)
		return fail(s, *q, "lone low surrogate \\u%04lx", u);
	e += 5;
	if (u >= 0xd800 && u <= 0xdbff) {
		if (close - e < 6 || e[0] != '\\' || e[1] != 'u' ||
		    (lo = hex4(e + 2, close)) < 0xdc00 || lo > 0xdfff)
			return fail(s, *q, "high surrogate \\u%04lx without a low surrogate", u);
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		e += 6;
	}
	*o += put_utf8(*o, (unsigned long)u);
	*q = e;
	return 0;
}

/* decode - validate and unescape the string body [a, close) into a NUL-terminated copy */
static int decode(struct ps *s, const unsigned char *a, const unsigned char *close,
		  const char **out, size_t *outlen)
{
	unsigned char *buf = arena_alloc(s->doc, (size_t)(close - a) + 1), *o = buf;
	const unsigned char *q = a;

	if (!buf)
		return oom(s);
	while (q < close) {
		size_t n;

		if (*q == '\\') {
			if (escape(s, &q, close, &o))
				return s->rc;
			continue;
		}
		if (*q < 0x20)
			return fail(s, q, "control character 0x%02x in a string: escape it", *q);
		n = utf8_len(q, close);
		if (!n)
			return fail(s, q, "invalid UTF-8 byte 0x%02x in a string", *q);
		memcpy(o, q, n);
		o += n;
		q += n;
		s->cont += n - 1;
	}
	*o = '\0';
	*out = (const char *)buf;
	*outlen = (size_t)(o - buf);
	return 0;
}

/* parse_string - s->p at the opening quote */
static int parse_string(struct ps *s, const char **out, size_t *len)
{
	const unsigned char *a = s->p + 1, *q = a;

	while (q < s->end && *q != '"')
		q += *q == '\\' && q + 1 < s->end ? 2 : 1;
	if (q >= s->end)
		return fail(s, s->p, "unterminated string");
	if (decode(s, a, q, out, len))
		return s->rc;
	s->p = q + 1;
	return 0;
}

/* grow - make room for one more element of size sz in the temporary vector *vec */
static int grow(struct ps *s, void **vec, size_t *cap, size_t n, size_t sz)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	if (nc > SIZE_MAX / sz)
		return oom(s);
	nv = realloc(*vec, nc * sz);
	if (!nv)
		return oom(s);
	*vec = nv;
	*cap = nc;
	return 0;
}

/* settle - move the temporary vector into the arena */
static void *settle(struct ps *s, void *vec, size_t n, size_t sz)
{
	void *r;

	if (!n)
		return NULL;
	r = arena_alloc(s->doc, n * sz);
	if (!r) {
		oom(s);
		return NULL;
	}
	memcpy(r, vec, n * sz);
	return r;
}

/*
 * parse_seq - an array's elements or an object's members, from the opening bracket at s->p
 * to close, each parsed by elem into a vector of sz-byte items that ends in the arena;
 * *n is their count (0 on error)
 */
static void *parse_seq(struct ps *s, char close, size_t sz, int (*elem)(struct ps *, void *),
		       const char *what, size_t *n)
{
	char *vec = NULL;
	void *r = NULL;
	size_t k = 0, cap = 0;

	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		*n = 0;
		return NULL;
	}
	for (;;) {
		if (grow(s, (void **)&vec, &cap, k, sz) || elem(s, vec + k * sz))
			break;
		k++;
		skip_ws(s);
		if (s->p < s->end && *s->p == ',') {
			s->p++;
			continue;
		}
		if (s->p < s->end && *s->p == close) {
			s->p++;
			break;
		}
		unexpected(s, what);
		break;
	}
	if (!s->rc)
		r = settle(s, vec, k, sz);
	*n = s->rc ? 0 : k;
	free(vec);
	return s->rc ? NULL : r;
}

static int array_elem(struct ps *s, void *v)
{
	return parse_value(s, v);
}

static int parse_array(struct ps *s, struct jsonp_val *v)
{
	v->type = JSONP_ARR;
	v->arr.v = parse_seq(s, ']', sizeof(*v->arr.v), array_elem, "',' or ']' in an array",
			     &v->arr.n);
	return s->rc;
}

static int parse_member(struct ps *s, void *p)
{
	struct jsonp_member *m = p;

	skip_ws(s);
	if (s->p >= s->end || *s->p != '"')
		return unexpected(s, "a string key");
	if (parse_string(s, &m->key, &m->klen))
		return s->rc;
	skip_ws(s);
	if (s->p >= s->end || *s->p != ':')
		return unexpected(s, "':' after a key");
	s->p++;
	return parse_value(s, &m->val);
}

static int parse_object(struct ps *s, struct jsonp_val *v)
{
	v->type = JSONP_OBJ;
	v->obj.m = parse_seq(s, '}', sizeof(*v->obj.m), parse_member, "',' or '}' in an object",
			     &v->obj.n);
	return s->rc;
}

static int parse_value(struct ps *s, struct jsonp_val *v)
{
	int rc;

	skip_ws(s);
	memset(v, 0, sizeof(*v));
	v->line = s->line;
	v->col = col_of(s, s->p);
	if (s->p >= s->end)
		return unexpected(s, "a value");
	switch (*s->p) {
	case '{':
	case '[':
		if (s->depth >= JSONP_MAX_DEPTH)
			return fail(s, s->p, "nesting deeper than %d levels", JSONP_MAX_DEPTH);
		s->depth++;
		rc = *s->p == '{' ? parse_object(s, v) : parse_array(s, v);
		s->depth--;
		return rc;
	case '"':
		v->type = JSONP_STR;
		return parse_string(s, &v->str.s, &v->str.len);
	case 't':
		return parse_literal(s, v, "true");
	case 'f':
		return parse_literal(s, v, "false");
	case 'n':
		return parse_literal(s, v, "null");
	default:
		if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
			return parse_number(s, v);
		return unexpected(s, "a value");
	}
}

/* jsonp_parse - parse a whole document */
int jsonp_parse(const char *buf, size_t len, struct jsonp_doc *out, char *err, size_t errlen)
{
	struct ps s = { .line = 1, .doc = out, .err = err, .errlen = errlen };

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	s.p = s.line_start = (const unsigned char *)(buf ? buf : "");
	s.end = s.p + (buf ? len : 0);
	if (s.end - s.p >= 3 && !memcmp(s.p, "\xef\xbb\xbf", 3))
		s.p = s.line_start = s.p + 3;
	out->root = arena_alloc(out, sizeof(*out->root));
	if (!out->root)
		oom(&s);
	else if (!parse_value(&s, out->root)) {
		skip_ws(&s);
		if (s.p < s.end)
			unexpected(&s, "the end of the document after the value");
	}
	if (s.rc)
		jsonp_free(out);
	return s.rc;
}

/* jsonp_free - release the arena */
void jsonp_free(struct jsonp_doc *d)
{
	struct jsonp_chunk *c, *next;

	if (!d)
		return;
	for (c = d->arena; c; c = next) {
		next = c->next;
		free(c);
	}
	d->arena = NULL;
	d->root = NULL;
}

/* jsonp_type_name - the type's JSON name */
const char *jsonp_type_name(enum jsonp_type t)
{
	static const char *const names[] = { "null",   "boolean", "number",
					     "string", "array",	  "object" };

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* jsonp_get - the last member named key */
const struct jsonp_val *jsonp_get(const struct jsonp_val *o, const char *key)
{
	size_t kl;

	if (!jsonp_is(o, JSONP_OBJ) || !key)
		return NULL;
	kl = strlen(key);
	for (size_t i = o->obj.n; i-- > 0;)
		if (o->obj.m[i].klen == kl && !memcmp(o->obj.m[i].key, key, kl))
			return &o->obj.m[i].val;
	return NULL;
}

/* jsonp_len - element or member count */
size_t jsonp_len(const struct jsonp_val *v)
{
	if (jsonp_is(v, JSONP_ARR))
		return v->arr.n;
	if (jsonp_is(v, JSONP_OBJ))
		return v->obj.n;
	return 0;
}

/* jsonp_at - array element */
const struct jsonp_val *jsonp_at(const struct jsonp_val *a, size_t i)
{
	return jsonp_is(a, JSONP_ARR) && i < a->arr.n ? &a->arr.v[i] : NULL;
}

/* jsonp_member_at - object member */
const struct jsonp_member *jsonp_member_at(const struct jsonp_val *o, size_t i)
{
	return jsonp_is(o, JSONP_OBJ) && i < o->obj.n ? &o->obj.m[i] : NULL;
}

/* jsonp_u64 - unsigned integer value */
int jsonp_u64(const struct jsonp_val *v, uint64_t *out)
{
	if (!jsonp_is(v, JSONP_NUM) || !v->num.is_uint)
		return -EINVAL;
	*out = v->num.u;
	return 0;
}

/* jsonp_i64 - signed integer value */
int jsonp_i64(const struct jsonp_val *v, int64_t *out)
{
	if (!jsonp_is(v, JSONP_NUM) || !v->num.is_int)
		return -EINVAL;
	*out = v->num.i;
	return 0;
}

/* jsonp_dbl - number value */
int jsonp_dbl(const struct jsonp_val *v, double *out)
{
	if (!jsonp_is(v, JSONP_NUM))
		return -EINVAL;
	*out = v->num.d;
	return 0;
}

/* jsonp_bool - boolean value */
int jsonp_bool(const struct jsonp_val *v, bool *out)
{
	if (!jsonp_is(v, JSONP_BOOL))
		return -EINVAL;
	*out = v->b;
	return 0;
}

/* jsonp_str - string value */
const char *jsonp_str(const struct jsonp_val *v)
{
	return jsonp_is(v, JSONP_STR) ? v->str.s : NULL;
}

/* jsonp_is - type test */
bool jsonp_is(const struct jsonp_val *v, enum jsonp_type t)
{
	return v && v->type == t;
}
