/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_jsonread.h - a typed reader of a parsed JSON document (js_jsonparse.h): each *_at
 * reads one member into a C field and, when it is missing, of the wrong type or out of
 * range, records the first error as "PATH.key: what (line L, column C)".
 *
 *   struct jr l = { .err = err, .errlen = sizeof(err) };
 *   size_t mark = jr_push(&l, ".params");
 *   jr_u64(&l, o, "duration_ns", JR_REQ, &p->duration_ns);
 *   jr_pop(&l, mark);
 *   if (l.rc) ...;                      // err: "params.duration_ns: missing"
 *
 * Every reader is a no-op once an error is recorded, so a section reads on without checks.
 */
#ifndef JS_JSONREAD_H
#define JS_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_jsonparse.h"

#define JR_REQ 1u /* the key must be present */
#define JR_NUL 2u /* null is accepted (and leaves the default) */

/* the reader's state: where in the document it is, the first error */
struct jr {
	char path[256];
	size_t plen;
	char *err;
	size_t errlen;
	int rc;		 /* 0, or the first error's -errno */
	uint64_t schema; /* the document's version, for readers of older spellings */
	void *ctx;	 /* the caller's: what its readers fill beside the struct they read */
};

/* jr_push - append printf(fmt) to the path; returns the mark jr_pop restores */
size_t __attribute__((format(printf, 2, 3))) jr_push(struct jr *l, const char *fmt, ...);
void jr_pop(struct jr *l, size_t mark);
/* jr_fail - "PATH.key: what (line L, column C)" (at, key may be NULL); the first error
 * wins; returns -EINVAL (or the first error's code) */
int __attribute__((format(printf, 4, 5)))
jr_fail(struct jr *l, const struct jsonp_val *at, const char *key, const char *fmt, ...);
/* jr_a_type - "a" or "an", the article of a type's name */
const char *jr_a_type(enum jsonp_type t);

/* jr_get - member key of o with type t; NULL when absent (error if JR_REQ) or null (error
 * unless JR_NUL), or after an error */
const struct jsonp_val *jr_get(struct jr *l, const struct jsonp_val *o, const char *key,
			       enum jsonp_type t, unsigned flags);
void jr_u64(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags,
	    uint64_t *out);
void jr_i64(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, int64_t *out);
/* jr_int - an integer in [lo, hi] */
void jr_int(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, int64_t lo,
	    int64_t hi, int *out);
/* jr_dbl - a number; null (a NaN or infinity when written) always leaves the default */
void jr_dbl(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, double *out);
void jr_bool(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, bool *out);
/* jr_str - a string into dst[len] (truncated, as jr_latin1); null leaves dst when JR_NUL */
void jr_str(struct jr *l, const struct jsonp_val *o, const char *key, unsigned flags, char *dst,
	    size_t len);
/* jr_latin1 - decoded UTF-8 whose code points are all <= U+00FF back to the bytes the
 * writer escaped as \u00XX (js_json.h writes every byte >= 0x80 so); else the UTF-8 as is */
void jr_latin1(char *dst, size_t len, const char *s, size_t slen);
/* jr_name - a required string from() knows (an enum's name -> value lookup): its value, or
 * -1 (an error) */
int jr_name(struct jr *l, const struct jsonp_val *o, const char *key,
	    int (*from)(const char *name));
/* jr_objs - the array key of o, each element checked to be an object; NULL if absent */
const struct jsonp_val *jr_objs(struct jr *l, const struct jsonp_val *o, const char *key,
				unsigned flags);
/* jr_cpus - the required array key of CPU numbers, each in [0, max), at most max of them,
 * appended to out[*n] */
void jr_cpus(struct jr *l, const struct jsonp_val *o, const char *key, int *out, size_t *n,
	     int max);

#endif /* JS_JSONREAD_H */
