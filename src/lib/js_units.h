/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_units.h - the one parser of TIME and SIZE values: every option that takes a time
 * (-T, --duration, --warm-up, --hlog-interval, --budget limits, --arrival-interval items)
 * or a size accepts the same spellings and refuses the same nonsense.
 *
 * A value is a number and a unit, with nothing between or around them:
 *   number  digits with at most one '.', at least one digit: 5, 1.5, .5, 5.
 *           (no sign, exponent, space or digit separator)
 *   TIME    ns, us (or µs, either U+00B5 or U+03BC), ms, s, m, h, d
 *   SIZE    B, K or KiB, M or MiB, G or GiB, T or TiB (powers of 1024)
 * Units are case-sensitive. A bare number is in the option's default unit; an option
 * without one (budget limits, where a bare number is a count) needs the unit.
 *
 * Exact: integer arithmetic throughout. Digits below 1 ns (1 B) round to the nearest
 * ns, halves up (0.5ns -> 1 ns, 1.0004us -> 1000 ns, 1.0005us -> 1001 ns); a non-zero
 * value that rounds to 0 is out of range, never 0. At most JS_UNITS_DECIMALS decimals
 * after the last non-zero one (trailing zeros are free).
 */
#ifndef JS_UNITS_H
#define JS_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define JS_NS 1ull
#define JS_US 1000ull
#define JS_MS 1000000ull
#define JS_SEC 1000000000ull
#define JS_MINUTE (60 * JS_SEC)
#define JS_HOUR (60 * JS_MINUTE)
#define JS_DAY (24 * JS_HOUR)
#define JS_TIME_MAX ((uint64_t)INT64_MAX) /* 292 years: a signed 64-bit ns count */

#define JS_KIB 1024ull
#define JS_MIB (1024 * JS_KIB)
#define JS_GIB (1024 * JS_MIB)
#define JS_TIB (1024 * JS_GIB)

#define JS_UNITS_DECIMALS 24

/* js_unit_spec - how one option reads its value */
struct js_unit_spec {
	uint64_t bare;	   /* unit of a bare number (JS_US, JS_SEC, JS_KIB, ...); 0: none */
	uint64_t min, max; /* accepted range, inclusive (min 1: "must be > 0") */
	const char *note;  /* added to the spelling hint, e.g. "0 = until Ctrl-C"; or NULL */
};

/*
 * js_parse_time - s into *ns. 0; -EINVAL when s is not a TIME ("<reason> (<accepted
 * spellings>)" in err); -ERANGE when it is outside [min, max] ("out of range: at most 1h",
 * "must be > 0"). *ns is untouched on error; err may be NULL.
 */
int js_parse_time(const char *s, const struct js_unit_spec *spec, uint64_t *ns, char *err,
		  size_t errlen);
/* js_parse_size - the same for a SIZE, in bytes */
int js_parse_size(const char *s, const struct js_unit_spec *spec, uint64_t *bytes, char *err,
		  size_t errlen);

#endif /* JS_UNITS_H */
