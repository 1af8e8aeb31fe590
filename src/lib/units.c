// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* units.c - TIME and SIZE values with a unit, exact (see js_units.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "js_units.h"
#include "js_util.h"

typedef unsigned __int128 u128;

struct unit {
	const char *name;
	uint64_t mult;
};

/* one kind of value: its units (the first of each multiple is the one messages use) */
struct kind {
	const struct unit *units;
	size_t n;
	const char *list; /* the units named in messages */
};

static const struct unit time_units[] = {
	{ "ns", JS_NS },	{ "us", JS_US },  { "\xc2\xb5s", JS_US },
	{ "\xce\xbcs", JS_US }, { "ms", JS_MS },  { "s", JS_SEC },
	{ "m", JS_MINUTE },	{ "h", JS_HOUR }, { "d", JS_DAY },
};

static const struct unit size_units[] = {
	{ "B", 1 },	   { "KiB", JS_KIB }, { "K", JS_KIB },	 { "MiB", JS_MIB }, { "M", JS_MIB },
	{ "GiB", JS_GIB }, { "G", JS_GIB },   { "TiB", JS_TIB }, { "T", JS_TIB },
};

static const struct kind time_kind = {
	time_units,
	ARRAY_SIZE(time_units),
	"ns, us, ms, s, m, h or d",
};

static const struct kind size_kind = {
	size_units,
	ARRAY_SIZE(size_units),
	"B, KiB, MiB, GiB or TiB",
};

/* unit_name - the name messages use for mult (NULL if no unit has it) */
static const char *unit_name(const struct kind *k, uint64_t mult)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->units[i].mult == mult)
			return k->units[i].name;
	return NULL;
}

/* fmt_amount - v in the largest unit that divides it exactly: "1ms", "90s", "1GiB" */
static const char *fmt_amount(char *buf, size_t len, const struct kind *k, uint64_t v)
{
	const struct unit *best = &k->units[0];

	for (size_t i = 0; i < k->n; i++)
		if (v && v % k->units[i].mult == 0 && k->units[i].mult > best->mult)
			best = &k->units[i];
	snprintf(buf, len, "%llu%s", (unsigned long long)(v / best->mult), best->name);
	return buf;
}

/* bad - "<reason> (a number and a unit: ...)"; returns -EINVAL */
static int bad(const struct kind *k, const struct js_unit_spec *spec, char *err, size_t errlen,
	       const char *reason)
{
	const char *bare = spec->bare ? unit_name(k, spec->bare) : NULL;

	return js_errf(err, errlen, "%s (a number and a unit: %s%s%s%s%s)", reason, k->list,
		       bare ? "; a bare number is " : "", bare ? bare : "", spec->note ? "; " : "",
		       spec->note ? spec->note : "");
}

/* out_of_range - "out of range: at most 1h" and the like; returns -ERANGE */
static int out_of_range(const struct kind *k, char *err, size_t errlen, const char *what,
			uint64_t bound)
{
	char b[48];

	js_errf(err, errlen, "out of range: %s %s", what, fmt_amount(b, sizeof(b), k, bound));
	return -ERANGE;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* a decimal number: whole + frac / scale */
struct number {
	u128 whole, frac, scale;
	bool digits;  /* at least one */
	bool nonzero; /* a non-zero digit */
	bool big;     /* whole part past 2^64 */
	bool precise; /* a non-zero digit past JS_UNITS_DECIMALS decimals */
};

/* scan_number - digits with at most one '.' at p into *n; returns what follows */
static const char *scan_number(const char *p, struct number *n)
{
	unsigned nfrac = 0, zeros = 0;

	memset(n, 0, sizeof(*n));
	n->scale = 1;
	for (; is_digit(*p); p++) {
		n->digits = true;
		n->nonzero |= *p != '0';
		if (n->whole >> 64)
			n->big = true; /* keep reading: the unit may be wrong too */
		else
			n->whole = n->whole * 10 + (unsigned)(*p - '0');
	}
	if (*p != '.')
		return p;
	for (p++; is_digit(*p); p++) {
		n->digits = true;
		if (*p == '0') {
			zeros++; /* counts only if a non-zero digit follows */
			continue;
		}
		n->nonzero = true;
		if (nfrac + zeros + 1 > JS_UNITS_DECIMALS) {
			n->precise = true;
			continue;
		}
		for (; zeros; zeros--, nfrac++)
			n->frac *= 10, n->scale *= 10;
		n->frac = n->frac * 10 + (unsigned)(*p - '0');
		n->scale *= 10;
		nfrac++;
	}
	return p;
}

/* parse - the value at s, in the kind's base unit (ns, B) */
static int parse(const char *s, const struct kind *k, const struct js_unit_spec *spec,
		 uint64_t *out, char *err, size_t errlen)
{
	struct number n;
	uint64_t mult = 0;
	const char *p;
	char why[64];
	u128 v;

	if (!s || !*s)
		return bad(k, spec, err, errlen, "empty");
	if (*s == '-')
		return bad(k, spec, err, errlen, "negative");
	p = scan_number(s, &n);
	if (!n.digits)
		return bad(k, spec, err, errlen, "not a number");
	if ((*p == 'e' || *p == 'E') &&
	    (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2]))))
		return bad(k, spec, err, errlen, "no exponents");
	if (*p == ' ' || *p == '\t')
		return bad(k, spec, err, errlen, "a space in the value");
	if (!*p) {
		mult = spec->bare;
		if (!mult)
			return bad(k, spec, err, errlen, "no unit");
	}
	for (size_t i = 0; *p && i < k->n; i++)
		if (!strcmp(p, k->units[i].name))
			mult = k->units[i].mult;
	if (!mult) {
		snprintf(why, sizeof(why), "unknown unit '%.24s'", p);
		for (char *c = why; *c; c++)
			if ((unsigned char)*c < ' ' || *c == 0x7f)
				*c = '?'; /* the message stays one line */
		return bad(k, spec, err, errlen, why);
	}
	if (n.precise) {
		snprintf(why, sizeof(why), "more than %d decimals", JS_UNITS_DECIMALS);
		return bad(k, spec, err, errlen, why);
	}
	/* whole < 2^68, mult < 2^47, frac < 10^24: no product passes 2^128; halves round up */
	v = n.whole * mult + (2 * n.frac * mult + n.scale) / (2 * n.scale);
	if (n.big || v > spec->max)
		return out_of_range(k, err, errlen, "at most", spec->max);
	if (!v && n.nonzero)
		return out_of_range(k, err, errlen, "below", 1);
	if (v < spec->min) {
		if (spec->min > 1)
			return out_of_range(k, err, errlen, "at least", spec->min);
		js_errf(err, errlen, "must be > 0");
		return -ERANGE;
	}
	*out = (uint64_t)v;
	return 0;
}

/* js_parse_time - a TIME into ns (see js_units.h) */
int js_parse_time(const char *s, const struct js_unit_spec *spec, uint64_t *ns, char *err,
		  size_t errlen)
{
	return parse(s, &time_kind, spec, ns, err, errlen);
}

/* js_parse_size - a SIZE into bytes (see js_units.h) */
int js_parse_size(const char *s, const struct js_unit_spec *spec, uint64_t *bytes, char *err,
		  size_t errlen)
{
	return parse(s, &size_kind, spec, bytes, err, errlen);
}
