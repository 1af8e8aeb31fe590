/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_json.h - a small streaming JSON writer (the one way every module writes JSON).
 *
 *   struct js_json j; json_init(&j, fp);
 *   json_obj_begin(&j, NULL);            // top-level {
 *   json_str(&j, "tool", "jitterscope");
 *   json_u64(&j, "cpu", 1);
 *   json_arr_begin(&j, "top"); json_obj_begin(&j, NULL); ... json_obj_end(&j); json_arr_end(&j);
 *   json_obj_end(&j);
 *
 * Inside an object pass a key; inside an array pass NULL. Strings are escaped
 * (control characters, quotes, backslashes, invalid UTF-8 bytes as \u00XX).
 */
#ifndef JS_JSON_H
#define JS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct js_json {
	FILE *fp;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no element written yet at this depth */
	bool pretty;
};

void json_init(struct js_json *j, FILE *fp);
void json_obj_begin(struct js_json *j, const char *key);
void json_obj_end(struct js_json *j);
void json_arr_begin(struct js_json *j, const char *key);
void json_arr_end(struct js_json *j);
void json_str(struct js_json *j, const char *key, const char *s);
void json_u64(struct js_json *j, const char *key, uint64_t v);
void json_i64(struct js_json *j, const char *key, int64_t v);
void json_dbl(struct js_json *j, const char *key, double v); /* %.6g; NaN/inf -> null */
void json_bool(struct js_json *j, const char *key, bool v);
void json_null(struct js_json *j, const char *key);
/* json_escape - write s as a quoted JSON string to fp */
void json_escape(FILE *fp, const char *s);

#endif /* JS_JSON_H */
