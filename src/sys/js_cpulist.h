/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_cpulist.h - CPU sets, kernel cpulist syntax ("1,3-5", "0-7:2/4") and kernel hex
 * cpumasks ("ff,00000001"), as used in /sys, /proc, the kernel command line and --cpu.
 *
 * Parsers are strict: empty input, malformed numbers, reversed ranges, CPUs above
 * JS_MAX_CPUS - 1 and trailing junk all return -EINVAL with a message in err.
 * Surrounding whitespace (a file's trailing newline) is ignored.
 */
#ifndef JS_CPULIST_H
#define JS_CPULIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_MAX_CPUS 1024

struct js_cpuset {
	uint64_t bits[JS_MAX_CPUS / 64];
};

/* cpuset_zero - empty the set */
void cpuset_zero(struct js_cpuset *s);
/* cpuset_set - add cpu (ignored when out of range) */
void cpuset_set(struct js_cpuset *s, int cpu);
/* cpuset_clear - remove cpu */
void cpuset_clear(struct js_cpuset *s, int cpu);
/* cpuset_isset - is cpu in the set (false when out of range) */
bool cpuset_isset(const struct js_cpuset *s, int cpu);
/* cpuset_count - number of CPUs in the set */
int cpuset_count(const struct js_cpuset *s);
/* cpuset_empty - true when no CPU is set */
bool cpuset_empty(const struct js_cpuset *s);
/* cpuset_equal - same members */
bool cpuset_equal(const struct js_cpuset *a, const struct js_cpuset *b);
/* cpuset_intersects - a and b share a CPU */
bool cpuset_intersects(const struct js_cpuset *a, const struct js_cpuset *b);
/* cpuset_subset - every CPU of a is in b */
bool cpuset_subset(const struct js_cpuset *a, const struct js_cpuset *b);
/* cpuset_or - dst |= src */
void cpuset_or(struct js_cpuset *dst, const struct js_cpuset *src);
/* cpuset_and - dst &= src */
void cpuset_and(struct js_cpuset *dst, const struct js_cpuset *src);
/* cpuset_andnot - dst &= ~src */
void cpuset_andnot(struct js_cpuset *dst, const struct js_cpuset *src);
/*
 * cpuset_next - first CPU >= from in the set, or -1. Iterate with
 * for (c = cpuset_next(s, 0); c >= 0; c = cpuset_next(s, c + 1))
 */
int cpuset_next(const struct js_cpuset *s, int from);

/*
 * cpulist_parse - parse a kernel cpulist: "N", "A-B", "A-B:used/group", comma separated.
 * Returns 0, or -EINVAL with a message in err (err may be NULL).
 */
int cpulist_parse(const char *str, struct js_cpuset *out, char *err, size_t errlen);

/*
 * cpulist_parse_n - cpulist_parse that also accepts "N" as an alias of last_cpu
 * (kernel command line syntax, e.g. "nohz_full=1-N"); last_cpu < 0 rejects "N".
 * allow_empty makes an empty string a valid empty set (sysfs "isolated" is empty).
 */
int cpulist_parse_n(const char *str, struct js_cpuset *out, int last_cpu, bool allow_empty,
		    char *err, size_t errlen);

/*
 * cpumask_parse - parse a kernel hex cpumask: comma separated 32-bit groups, most
 * significant first ("ff,00000001"); an optional "0x" prefix; one group without commas
 * may be longer than 8 digits. Returns 0 or -EINVAL with a message in err.
 */
int cpumask_parse(const char *str, struct js_cpuset *out, char *err, size_t errlen);

/*
 * cpulist_format - write s as a cpulist ("1,3-5"; "" when empty) into buf.
 * Returns the length, or -ENOSPC when buf is too small (buf then holds a truncated
 * list ending in "...").
 */
int cpulist_format(const struct js_cpuset *s, char *buf, size_t len);

/*
 * cpumask_format - write s as a kernel hex cpumask of nbits bits (groups of 32 bits;
 * nbits <= 0 uses the highest set CPU) into buf, like the kernel prints it: "3" for 2
 * CPUs, "1,00000000" for CPU 32. Returns the length or -ENOSPC.
 */
int cpumask_format(const struct js_cpuset *s, int nbits, char *buf, size_t len);

#endif /* JS_CPULIST_H */
