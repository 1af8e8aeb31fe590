/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_jsonfield.h - a struct's members listed once, as JSON fields written (js_json.h) and
 * read back (js_jsonread.h) alike, in the manner of perf's feature ops: a member added to
 * a list is written and read with the same key, in the list's order.
 *
 *   static const struct json_field fields[] = {
 *           JSON_FIELD(struct s, count, U64, JF_REQ),          // "count", required
 *           JSON_FIELD_KEY("vm", struct s, hypervisor, BOOL, 0),
 *   };
 *   json_fields_write(j, fields, ARRAY_SIZE(fields), &s);
 *   jr_fields(l, o, fields, ARRAY_SIZE(fields), &s);
 */
#ifndef JS_JSONFIELD_H
#define JS_JSONFIELD_H

#include <stddef.h>
#include <stdint.h>

#include "js_jsonread.h"

struct js_json;

enum json_ftype {
	JF_U64,	 /* uint64_t */
	JF_U32,	 /* uint32_t (or unsigned): read values past it clamp to UINT32_MAX */
	JF_I64,	 /* int64_t */
	JF_DBL,	 /* double: NaN and infinity written as null, null read as the default */
	JF_BOOL, /* bool */
	JF_STR,	 /* char[size]: read truncated */
};

#define JF_REQ JR_REQ /* read: the key must be present */
#define JF_NUL JR_NUL /* read: null accepted (and leaves the default) */
#define JF_NULL0 4u   /* write: 0 (a string: "") as null */
#define JF_CSV 8u     /* the caller's mark: a column of the CSV it writes too */

struct json_field {
	const char *key;
	size_t off;    /* of the member in its struct */
	uint16_t size; /* of the member */
	uint8_t type;  /* enum json_ftype */
	uint8_t flags; /* JF_* */
};

/* JSON_FIELD - member field of struct type st under the key "field"; JSON_FIELD_KEY - under
 * key (field may be a member of a member: stacks.dropped). A member whose size is not its
 * type's does not compile. */
#define JF_SIZE_U64 8
#define JF_SIZE_U32 4
#define JF_SIZE_I64 8
#define JF_SIZE_DBL 8
#define JF_SIZE_BOOL 1
#define JF_SIZE_STR 0 /* any */
#define JF_MSIZE(st, field) sizeof(((st *)0)->field)
#define JF_CHECKED_SIZE(st, field, type) \
	(JF_MSIZE(st, field) +           \
	 0 * sizeof(char[JF_SIZE_##type == 0 || JF_SIZE_##type == JF_MSIZE(st, field) ? 1 : -1]))
#define JSON_FIELD_KEY(key, st, field, type, flags)                                          \
	{                                                                                    \
		key, offsetof(st, field), JF_CHECKED_SIZE(st, field, type), JF_##type, flags \
	}
#define JSON_FIELD(st, field, type, flags) JSON_FIELD_KEY(#field, st, field, type, flags)

/* json_fields_write - the fields f[n] of the struct at base into the open object */
void json_fields_write(struct js_json *j, const struct json_field *f, size_t n, const void *base);
/* jr_fields - the fields f[n] of object o back into the struct at base (absent: left as is) */
void jr_fields(struct jr *l, const struct jsonp_val *o, const struct json_field *f, size_t n,
	       void *base);
/* json_field_u64 - an integer field's value (U64, U32, I64 as its bits, BOOL); 0 else */
uint64_t json_field_u64(const struct json_field *f, const void *base);

#endif /* JS_JSONFIELD_H */
