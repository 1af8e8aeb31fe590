// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_jsonparse.c - the strict JSON parser: valid documents, every class of malformed
 * input (with its line:column), Unicode, numbers, depth, and a random-mutation smoke test. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_jsonparse.h"
#include "js_json.h"

static char err[256];

static const struct jsonp_val *parse_ok(struct jsonp_doc *d, const char *text)
{
	if (jsonp_parse(text, strlen(text), d, err, sizeof(err)))
		fail_msg("parse \"%s\": %s", text, err);
	return d->root;
}

/* parse_bad - must fail with -EINVAL and a message containing want */
static void parse_bad_n(const char *text, size_t len, const char *want)
{
	struct jsonp_doc d;
	int rc = jsonp_parse(text, len, &d, err, sizeof(err));

	if (rc != -EINVAL)
		fail_msg("\"%.*s\" parsed (rc %d), should fail with \"%s\"", (int)len, text, rc,
			 want);
	if (!strstr(err, want))
		fail_msg("\"%.*s\": message \"%s\" lacks \"%s\"", (int)len, text, err, want);
	assert_null(d.root);
	jsonp_free(&d);
}

static void parse_bad(const char *text, const char *want)
{
	parse_bad_n(text, strlen(text), want);
}

/** Scalars, nesting, lookups and the accessors' type checks. */
static void test_valid_document(void **state)
{
	struct jsonp_doc d;
	const struct jsonp_val *r, *a;
	uint64_t u;
	int64_t i;
	double x;
	bool b;

	(void)state;
	r = parse_ok(&d, " {\"a\": [1, -2, 3.5, true, false, null, \"s\", {}, []],\n"
			 "  \"b\": {\"c\": \"d\"}, \"e\": 18446744073709551615 } \r\n\t");
	assert_int_equal(r->type, JSONP_OBJ);
	assert_int_equal(jsonp_len(r), 3);
	a = jsonp_get(r, "a");
	assert_int_equal(jsonp_len(a), 9);
	assert_int_equal(jsonp_u64(jsonp_at(a, 0), &u), 0);
	assert_int_equal(u, 1);
	assert_int_equal(jsonp_u64(jsonp_at(a, 1), &u), -EINVAL);
	assert_int_equal(jsonp_i64(jsonp_at(a, 1), &i), 0);
	assert_int_equal(i, -2);
	assert_int_equal(jsonp_i64(jsonp_at(a, 2), &i), -EINVAL);
	assert_int_equal(jsonp_dbl(jsonp_at(a, 2), &x), 0);
	assert_true(x == 3.5);
	assert_int_equal(jsonp_bool(jsonp_at(a, 3), &b), 0);
	assert_true(b);
	assert_int_equal(jsonp_bool(jsonp_at(a, 4), &b), 0);
	assert_false(b);
	assert_true(jsonp_is(jsonp_at(a, 5), JSONP_NULL));
	assert_string_equal(jsonp_str(jsonp_at(a, 6)), "s");
	assert_null(jsonp_str(jsonp_at(a, 5)));
	assert_true(jsonp_is(jsonp_at(a, 7), JSONP_OBJ));
	assert_int_equal(jsonp_len(jsonp_at(a, 7)), 0);
	assert_true(jsonp_is(jsonp_at(a, 8), JSONP_ARR));
	assert_null(jsonp_at(a, 9));
	assert_string_equal(jsonp_str(jsonp_get(jsonp_get(r, "b"), "c")), "d");
	assert_null(jsonp_get(r, "missing"));
	assert_null(jsonp_get(a, "a")); /* not an object */
	assert_int_equal(jsonp_u64(jsonp_get(r, "e"), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(jsonp_i64(jsonp_get(r, "e"), &i), -EINVAL);
	/* positions */
	assert_int_equal(jsonp_get(r, "b")->line, 2);
	assert_int_equal(jsonp_get(r, "b")->col, 8);
	assert_string_equal(jsonp_member_at(r, 2)->key, "e");
	jsonp_free(&d);
	jsonp_free(&d); /* idempotent */
}

/** Top-level scalars, a BOM, duplicate keys (the last wins). */
static void test_valid_edges(void **state)
{
	struct jsonp_doc d;
	uint64_t u;

	(void)state;
	assert_int_equal(parse_ok(&d, "42")->num.u, 42);
	jsonp_free(&d);
	assert_string_equal(jsonp_str(parse_ok(&d, "\"x\"")), "x");
	jsonp_free(&d);
	assert_true(jsonp_is(parse_ok(&d, "null"), JSONP_NULL));
	jsonp_free(&d);
	assert_true(jsonp_is(parse_ok(&d, "\xef\xbb\xbf[]"), JSONP_ARR));
	jsonp_free(&d);
	assert_int_equal(jsonp_u64(jsonp_get(parse_ok(&d, "{\"k\":1,\"k\":2}"), "k"), &u), 0);
	assert_int_equal(u, 2);
	jsonp_free(&d);
	/* not NUL-terminated: only len bytes are read */
	assert_int_equal(jsonp_parse("[1]garbage", 3, &d, err, sizeof(err)), 0);
	jsonp_free(&d);
}

/** Numbers: integer ranges exact, doubles, exponents, -0. */
static void test_numbers(void **state)
{
	struct jsonp_doc d;
	const struct jsonp_val *v;

	(void)state;
	v = parse_ok(&d,
		     "[9223372036854775807, -9223372036854775808, 9223372036854775808,"
		     " 18446744073709551616, 0, -0, 1e3, 1E-2, -1.25e+2, 0.5, 123456789012345678]");
	assert_true(v->arr.v[0].num.is_int && v->arr.v[0].num.i == INT64_MAX);
	assert_true(v->arr.v[1].num.is_int && v->arr.v[1].num.i == INT64_MIN);
	assert_false(v->arr.v[1].num.is_uint);
	assert_false(v->arr.v[2].num.is_int);
	assert_true(v->arr.v[2].num.is_uint && v->arr.v[2].num.u == 9223372036854775808ull);
	assert_false(v->arr.v[3].num.is_uint || v->arr.v[3].num.is_int); /* > 2^64 - 1 */
	assert_true(v->arr.v[3].num.d == 18446744073709551616.0);
	assert_true(v->arr.v[4].num.is_uint && v->arr.v[5].num.is_int);
	assert_false(v->arr.v[6].num.is_uint); /* exponent form: a double only */
	assert_true(v->arr.v[6].num.d == 1000.0);
	assert_true(v->arr.v[7].num.d == 0.01);
	assert_true(v->arr.v[8].num.d == -125.0);
	assert_true(v->arr.v[9].num.d == 0.5);
	assert_true(v->arr.v[10].num.u == 123456789012345678ull); /* beyond 2^53: exact */
	jsonp_free(&d);
	/* what the writer produces reads back */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);
		struct js_json j;
		double vals[] = { 2299999918.0, 1.5e-7, -0.125, 123.456789, 1e300 };

		json_init(&j, fp);
		json_arr_begin(&j, NULL);
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			json_dbl(&j, NULL, vals[i]);
		json_u64(&j, NULL, UINT64_MAX);
		json_i64(&j, NULL, INT64_MIN);
		json_arr_end(&j);
		fclose(fp);
		v = parse_ok(&d, buf);
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			assert_true(fabs(v->arr.v[i].num.d - vals[i]) <= fabs(vals[i]) * 1e-8);
		assert_true(v->arr.v[5].num.u == UINT64_MAX);
		assert_true(v->arr.v[6].num.i == INT64_MIN);
		jsonp_free(&d);
		free(buf);
	}
}

/** Strings: every escape, \u to UTF-8, surrogate pairs, raw UTF-8, embedded NUL. */
static void test_strings(void **state)
{
	struct jsonp_doc d;
	const struct jsonp_val *v;

	(void)state;
	v = parse_ok(&d, "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20AC\", "
			 "\"\\ud83d\\ude00\", \"h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\", "
			 "\"a\\u0000b\", \"\"]");
	assert_string_equal(v->arr.v[0].str.s, "\"\\/\b\f\n\r\t");
	assert_string_equal(v->arr.v[1].str.s, "A\xc3\xa9\xe2\x82\xac");
	assert_string_equal(v->arr.v[2].str.s, "\xf0\x9f\x98\x80");
	assert_int_equal(v->arr.v[2].str.len, 4);
	assert_string_equal(v->arr.v[3].str.s, "h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	assert_int_equal(v->arr.v[4].str.len, 3);
	assert_memory_equal(v->arr.v[4].str.s, "a\0b", 4);
	assert_int_equal(v->arr.v[5].str.len, 0);
	jsonp_free(&d);
	/* what the writer escapes reads back */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		json_escape(fp, "tab\there \"q\" back\\slash\nnl \x01 end");
		fclose(fp);
		v = parse_ok(&d, buf);
		assert_string_equal(v->str.s, "tab\there \"q\" back\\slash\nnl \x01 end");
		jsonp_free(&d);
		free(buf);
	}
}

/** Syntax errors: each names what was expected and where (line, column). */
static void test_invalid_syntax(void **state)
{
	(void)state;
	parse_bad("", "line 1, column 1: expected a value, found end of input");
	parse_bad("   ", "line 1, column 4: expected a value");
	parse_bad("{", "line 1, column 2: expected a string key, found end of input");
	parse_bad("{\"a\" 1}", "line 1, column 6: expected ':' after a key, found '1'");
	parse_bad("{\"a\":1,}", "column 8: expected a string key, found '}'");
	parse_bad("[1,]", "column 4: expected a value, found ']'");
	parse_bad("[1 2]", "column 4: expected ',' or ']' in an array, found '2'");
	parse_bad("{\"a\":1 \"b\":2}", "column 8: expected ',' or '}' in an object");
	parse_bad("{a:1}", "column 2: expected a string key, found 'a'");
	parse_bad("['x']", "column 2: expected a value, found '''");
	parse_bad("[1]\n [2]",
		  "line 2, column 2: expected the end of the document after the value");
	parse_bad("// c\n1", "line 1, column 1: expected a value, found '/'");
	parse_bad("[1] /* c */", "expected the end of the document");
	parse_bad("tru", "expected a value");
	parse_bad("nul", "expected a value");
	parse_bad("True", "expected a value, found 'T'");
	parse_bad("[NaN]", "found 'N'");
	parse_bad("[Infinity]", "found 'I'");
	parse_bad("\v1", "found byte 0x0b");
	parse_bad("\xef\xbb\xbf\xef\xbb\xbf"
		  "1",
		  "line 1, column 1: expected a value, found byte 0xef");
	parse_bad_n("[1,\0]", 5, "found byte 0x00");
	parse_bad("[\n\n   1,\n  x]", "line 4, column 3: expected a value, found 'x'");
	/* columns count characters, not bytes */
	parse_bad("[\"\xc3\xa9\xc3\xa9\", x]", "line 1, column 8: expected a value");
}

/** Numbers outside the grammar. */
static void test_invalid_numbers(void **state)
{
	(void)state;
	parse_bad("01", "column 2: leading zeros are not allowed");
	parse_bad("-01", "leading zeros");
	parse_bad("+1", "expected a value, found '+'");
	parse_bad("-", "column 2: a number needs a digit here");
	parse_bad("-a", "a number needs a digit");
	parse_bad("1.", "column 3: a digit must follow the decimal point");
	parse_bad(".5", "expected a value, found '.'");
	parse_bad("1.e5", "a digit must follow the decimal point");
	parse_bad("1e", "a digit must follow the exponent");
	parse_bad("1e+", "a digit must follow the exponent");
	parse_bad("0x10", "expected the end of the document");
	parse_bad("1e999", "number out of range");
	parse_bad("-1e400", "number out of range");
	parse_bad("[1.5.3]", "expected ',' or ']'");
}

/** Strings outside the grammar or not valid UTF-8. */
static void test_invalid_strings(void **state)
{
	(void)state;
	parse_bad("\"abc", "column 1: unterminated string");
	parse_bad("\"abc\\", "unterminated string");
	parse_bad("\"abc\\\"", "unterminated string");
	parse_bad("\"a\tb\"", "column 3: control character 0x09 in a string");
	parse_bad("\"a\nb\"", "control character 0x0a");
	parse_bad("\"\\x41\"", "column 2: invalid escape");
	parse_bad("\"\\'\"", "invalid escape");
	parse_bad("\"\\u12\"", "\\u needs 4 hex digits");
	parse_bad("\"\\u12G4\"", "\\u needs 4 hex digits");
	parse_bad("\"\\ud800\"", "high surrogate \\ud800 without a low surrogate");
	parse_bad("\"\\ud800\\u0041\"", "without a low surrogate");
	parse_bad("\"\\ud800x\"", "without a low surrogate");
	parse_bad("\"\\udc00\"", "lone low surrogate \\udc00");
	parse_bad("\"\\ud83d\\ud83d\"", "without a low surrogate");
	parse_bad("\"\x80\"", "invalid UTF-8 byte 0x80");
	parse_bad("\"\xc0\xaf\"", "invalid UTF-8 byte 0xc0");	      /* overlong '/' */
	parse_bad("\"\xc3\"", "invalid UTF-8 byte 0xc3");	      /* truncated */
	parse_bad("\"\xe0\x80\xaf\"", "invalid UTF-8 byte 0xe0");     /* overlong */
	parse_bad("\"\xed\xa0\x80\"", "invalid UTF-8 byte 0xed");     /* encoded surrogate */
	parse_bad("\"\xf4\x90\x80\x80\"", "invalid UTF-8 byte 0xf4"); /* > U+10FFFF */
	parse_bad("\"\xf5\x80\x80\x80\"", "invalid UTF-8 byte 0xf5");
	parse_bad("\"\xff\"", "invalid UTF-8 byte 0xff");
	parse_bad("{\"k\xff\":1}", "invalid UTF-8");
}

/** Nesting: JSONP_MAX_DEPTH levels parse, one more is rejected (no stack overflow). */
static void test_depth(void **state)
{
	size_t n = 100000;
	char *buf = malloc(2 * n + 1);
	struct jsonp_doc d;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < JSONP_MAX_DEPTH; i++) {
		buf[i] = '[';
		buf[2 * JSONP_MAX_DEPTH - 1 - i] = ']';
	}
	assert_int_equal(jsonp_parse(buf, 2 * JSONP_MAX_DEPTH, &d, err, sizeof(err)), 0);
	jsonp_free(&d);
	memset(buf, '[', n);
	memset(buf + n, ']', n);
	buf[2 * n] = '\0';
	assert_int_equal(jsonp_parse(buf, 2 * n, &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nesting deeper than 128 levels"));
	assert_non_null(strstr(err, "column 129"));
	memset(buf, '{', 10);
	assert_int_equal(jsonp_parse(buf, 10, &d, err, sizeof(err)), -EINVAL);
	free(buf);
}

/** Big flat containers (the vectors grow) and a long string. */
static void test_large(void **state)
{
	size_t n = 200000, pos = 0, cap = n * 16 + 64;
	char *buf = malloc(cap);
	struct jsonp_doc d;
	const struct jsonp_val *v;

	(void)state;
	assert_non_null(buf);
	buf[pos++] = '{';
	for (size_t i = 0; i < n; i++)
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s\"k%zu\":%zu", i ? "," : "", i, i);
	buf[pos++] = '}';
	assert_int_equal(jsonp_parse(buf, pos, &d, err, sizeof(err)), 0);
	assert_int_equal(jsonp_len(d.root), n);
	v = jsonp_get(d.root, "k199999");
	assert_non_null(v);
	assert_int_equal(v->num.u, 199999);
	jsonp_free(&d);
	memset(buf, 'a', cap);
	buf[0] = '"';
	buf[cap - 1] = '"';
	assert_int_equal(jsonp_parse(buf, cap, &d, err, sizeof(err)), 0);
	assert_int_equal(d.root->str.len, cap - 2);
	jsonp_free(&d);
	free(buf);
}

/** Random mutations of a valid document: every outcome is 0 or -EINVAL with a message
 * (run under ASan/valgrind to check memory; the dedicated fuzzer goes further). */
static void test_mutations(void **state)
{
	static const char seed[] = "{\"schema_version\": 1, \"a\": [1, -2.5e3, true, null, "
				   "\"\\u00e9\\ud83d\\ude00x\"], \"b\": {\"c\": {}}, \"d\": \"\"}";
	const char alphabet[] = "{}[]\",:\\u0123456789eE+-.tfnlasr \n\x80\xc3\xff";
	size_t len = sizeof(seed) - 1, ok = 0;
	unsigned rng = 12345;
	char buf[sizeof(seed) + 8];

	(void)state;
	for (int iter = 0; iter < (int)fx_heavy(200000); iter++) {
		struct jsonp_doc d;
		size_t l = len;
		int rc;

		memcpy(buf, seed, len);
		for (int k = 0; k < 1 + iter % 4; k++) {
			rng = rng * 1103515245u + 12345u;
			size_t at = (rng >> 8) % l;

			rng = rng * 1103515245u + 12345u;
			switch ((rng >> 16) % 3) {
			case 0:
				buf[at] = alphabet[(rng >> 4) % (sizeof(alphabet) - 1)];
				break;
			case 1: /* truncate */
				l = at;
				break;
			default: /* delete one byte */
				memmove(buf + at, buf + at + 1, l - at - 1);
				l--;
			}
			if (!l)
				break;
		}
		err[0] = '\0';
		rc = jsonp_parse(buf, l, &d, err, sizeof(err));
		if (rc == 0)
			ok++;
		else if (rc != -EINVAL || strncmp(err, "line ", 5))
			fail_msg("rc %d, err \"%s\"", rc, err);
		jsonp_free(&d);
	}
	assert_true(ok > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_document),	cmocka_unit_test(test_valid_edges),
		cmocka_unit_test(test_numbers),		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_invalid_syntax),	cmocka_unit_test(test_invalid_numbers),
		cmocka_unit_test(test_invalid_strings), cmocka_unit_test(test_depth),
		cmocka_unit_test(test_large),		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
