/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_cli_value.h - one option's value as its row of cli.c's table says it: the field of
 * struct js_params it sets, how its argument is read, its range. cli_value_set() applies
 * a row; it reads no system state and knows no argp (tests/unit/test_cli_value.c).
 * Adding an option: docs/DESIGN.md, Recipes.
 */
#ifndef JS_CLI_VALUE_H
#define JS_CLI_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_units.h"

/* how an argument is read, and the field it fills (at off, of size bytes) */
enum cli_kind {
	CLI_NONE = 0, /* no value here: the row's callback does it all (cli.c) */
	CLI_FLAG,     /* no argument: the bool set */
	CLI_SET,      /* no argument: the integer set to u.min */
	CLI_INC,      /* no argument: the int counts the times given */
	CLI_TIME,     /* a TIME (js_units.h) within u: uint64_t ns */
	CLI_SIZE,     /* a SIZE within u: uint64_t bytes */
	CLI_UINT,     /* decimal digits in [u.min, u.max]: an integer field (bool, int,
		       * unsigned, enum, size_t, uint64_t) */
	CLI_POW2,     /* a CLI_UINT that is a power of two */
	CLI_PER_MIN,  /* "N" or "N/min", N in [u.min, u.max]: an integer field */
	CLI_PCT,      /* "10" or "10%" in [u.min, u.max]: a double */
	CLI_ENUM,     /* a word of the option's argument "a|b|c" (from_name: that lookup,
		       * else its index), at least u.min: an integer field */
	CLI_PATH,     /* a file, FIFO or command: non-empty, const char * (the argument) */
	CLI_STR,      /* any string: const char * */
	CLI_CPUS,     /* a CPU list (js_cpulist.h): int[JS_CPUS_MAX], its count at count */
};

/* one option's value; the option's name (messages) and argument (CLI_ENUM's words) are
 * its argp entry's */
struct cli_value {
	enum cli_kind kind;
	size_t off, size;      /* the field in struct js_params (offsetof, sizeof) */
	size_t given;	       /* a bool set too when the value is taken; 0: none (offset 0
				   * is the command, never such a bool) */
	size_t count;	       /* CLI_CPUS: the size_t count of CPUs */
	struct js_unit_spec u; /* the range (TIME, SIZE: and the unit of a bare number) */
	const char *hint;      /* the refusal's parenthesis, "~" standing for "MIN..MAX":
				   * "microseconds, ~"; PATH: what the value is */
	bool bare_name;	       /* TIME: messages name it without "--" ("invalid duration") */
	int (*from_name)(const char *word); /* CLI_ENUM: the enum's own lookup; -1 if none */
};

/*
 * cli_value_set - arg (NULL for a kind without argument) into the field of base (a struct
 * js_params) that v names, for the option --name whose argp argument is words. 0; else
 * -EINVAL and the one-line refusal, as the user sees it after "jitterscope: ", in msg
 * (len: at least strlen(arg) + 512 for the whole of it). The field is unchanged on error.
 */
int cli_value_set(const struct cli_value *v, const char *name, const char *words, const char *arg,
		  void *base, char *msg, size_t len);

/* cli_uint - decimal digits only (no sign, space or base) into *n: 0, -EINVAL, or -ERANGE
 * above max */
int cli_uint(const char *s, unsigned long long max, unsigned long long *n);
/* cli_number - a decimal number ("0.01"; with pct "10%" too) in [lo, hi] into *d; -EINVAL */
int cli_number(const char *s, bool pct, double lo, double hi, double *d);

#endif /* JS_CLI_VALUE_H */
