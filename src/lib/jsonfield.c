// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* jsonfield.c - a struct's members as JSON fields, written and read alike (js_jsonfield.h) */
#include <stdbool.h>
#include <string.h>

#include "js_json.h"
#include "js_jsonfield.h"
#include "js_util.h"

#define AT(type, f, base) ((type *)(void *)((char *)(base) + (f)->off))

uint64_t json_field_u64(const struct json_field *f, const void *base)
{
	switch (f->type) {
	case JF_U64:
	case JF_I64:
		return *AT(const uint64_t, f, base);
	case JF_U32:
		return *AT(const uint32_t, f, base);
	case JF_BOOL:
		return *AT(const bool, f, base);
	default:
		return 0;
	}
}

void json_fields_write(struct js_json *j, const struct json_field *f, size_t n, const void *base)
{
	for (size_t i = 0; i < n; i++, f++) {
		if ((f->flags & JF_NULL0) &&
		    (f->type == JF_STR ? !AT(const char, f, base)[0] : !json_field_u64(f, base))) {
			json_null(j, f->key);
			continue;
		}
		switch (f->type) {
		case JF_U64:
		case JF_U32:
			json_u64(j, f->key, json_field_u64(f, base));
			break;
		case JF_I64:
			json_i64(j, f->key, *AT(const int64_t, f, base));
			break;
		case JF_DBL:
			json_dbl(j, f->key, *AT(const double, f, base));
			break;
		case JF_BOOL:
			json_bool(j, f->key, *AT(const bool, f, base));
			break;
		case JF_STR:
			json_str(j, f->key, AT(const char, f, base));
			break;
		}
	}
}

void jr_fields(struct jr *l, const struct jsonp_val *o, const struct json_field *f, size_t n,
	       void *base)
{
	for (size_t i = 0; i < n; i++, f++) {
		unsigned flags = f->flags & (JF_REQ | JF_NUL);
		uint64_t v;

		switch (f->type) {
		case JF_U64:
			jr_u64(l, o, f->key, flags, AT(uint64_t, f, base));
			break;
		case JF_U32:
			v = *AT(uint32_t, f, base);
			jr_u64(l, o, f->key, flags, &v);
			*AT(uint32_t, f, base) = (uint32_t)JS_MIN(v, UINT32_MAX);
			break;
		case JF_I64:
			jr_i64(l, o, f->key, flags, AT(int64_t, f, base));
			break;
		case JF_DBL:
			jr_dbl(l, o, f->key, flags, AT(double, f, base));
			break;
		case JF_BOOL:
			jr_bool(l, o, f->key, flags, AT(bool, f, base));
			break;
		case JF_STR:
			jr_str(l, o, f->key, flags, AT(char, f, base), f->size);
			break;
		}
	}
}
