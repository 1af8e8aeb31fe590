/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_jsonparse.h - a strict RFC 8259 JSON parser into a read-only tree (the reading side of
 * js_json.h: `jitterscope report` and `diff` load saved runs with it). Any input yields 0
 * or -errno with "line L, column C: what", never a crash or a read outside buf[0..len);
 * every node and string lives in one arena owned by the document. What "strict" means:
 * docs/DESIGN.md, jsonparse.
 *
 *   if (jsonp_parse(buf, len, &d, err, sizeof(err)))  // "line 3, column 7: expected ':'"
 *           ...;
 *   const struct jsonp_val *v = jsonp_get(d.root, "cpus");
 *   for (size_t i = 0; i < jsonp_len(v); i++) ... jsonp_at(v, i) ...
 *   jsonp_free(&d);
 */
#ifndef JS_JSONPARSE_H
#define JS_JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONP_MAX_DEPTH 128

enum jsonp_type { JSONP_NULL, JSONP_BOOL, JSONP_NUM, JSONP_STR, JSONP_ARR, JSONP_OBJ };

struct jsonp_member;

struct jsonp_val {
	enum jsonp_type type;
	uint32_t line, col; /* where the value starts (1-based; col in characters) */
	union {
		bool b;
		struct {
			double d;
			int64_t i;  /* valid when is_int */
			uint64_t u; /* valid when is_uint */
			bool is_int, is_uint;
		} num;
		struct {
			const char *s; /* NUL-terminated UTF-8 */
			size_t len;
		} str;
		struct {
			struct jsonp_val *v;
			size_t n;
		} arr;
		struct {
			struct jsonp_member *m;
			size_t n;
		} obj;
	};
};

struct jsonp_member {
	const char *key; /* NUL-terminated UTF-8 */
	size_t klen;
	struct jsonp_val val;
};

struct jsonp_chunk;

struct jsonp_doc {
	struct jsonp_val *root;
	struct jsonp_chunk *arena;
};

/*
 * jsonp_parse - parse buf[0..len) (need not be NUL-terminated) into out. 0, or -EINVAL
 * (malformed: err gets "line L, column C: what") or -ENOMEM. out needs no jsonp_free on
 * failure (but jsonp_free is harmless on a failed or zeroed doc).
 */
int jsonp_parse(const char *buf, size_t len, struct jsonp_doc *out, char *err, size_t errlen);
/* jsonp_free - release a document (zeroed or failed documents too) */
void jsonp_free(struct jsonp_doc *d);

/* jsonp_pos - "line L, column C" where v starts, into buf (for messages); returns buf */
const char *jsonp_pos(const struct jsonp_val *v, char *buf, size_t len);
/* jsonp_type_name - "null", "boolean", "number", "string", "array", "object" */
const char *jsonp_type_name(enum jsonp_type t);
/* jsonp_get - member key of object o (the last one if repeated); NULL if o is not an
 * object or has no such key */
const struct jsonp_val *jsonp_get(const struct jsonp_val *o, const char *key);
/* jsonp_len - elements of an array or members of an object; 0 for anything else or NULL */
size_t jsonp_len(const struct jsonp_val *v);
/* jsonp_at - element i of array a; NULL if a is not an array or i is out of range */
const struct jsonp_val *jsonp_at(const struct jsonp_val *a, size_t i);
/* jsonp_member_at - member i of object o; NULL if out of range or o is not an object */
const struct jsonp_member *jsonp_member_at(const struct jsonp_val *o, size_t i);

/* jsonp_u64 - an unsigned integer (written without fraction/exponent): 0 or -EINVAL */
int jsonp_u64(const struct jsonp_val *v, uint64_t *out);
/* jsonp_i64 - a signed integer (written without fraction/exponent): 0 or -EINVAL */
int jsonp_i64(const struct jsonp_val *v, int64_t *out);
/* jsonp_dbl - any number: 0 or -EINVAL */
int jsonp_dbl(const struct jsonp_val *v, double *out);
/* jsonp_bool - true/false: 0 or -EINVAL */
int jsonp_bool(const struct jsonp_val *v, bool *out);
/* jsonp_str - the string, or NULL if v is not a string (or NULL) */
const char *jsonp_str(const struct jsonp_val *v);
/* jsonp_is - v is non-NULL and of type t */
bool jsonp_is(const struct jsonp_val *v, enum jsonp_type t);

#endif /* JS_JSONPARSE_H */
