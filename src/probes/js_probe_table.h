/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_probe_table.h - which programs each kind of interruption of a measured CPU runs under
 * --probes full and lean (probe_table.c holds the table; probes.c selects by it).
 */
#ifndef JS_PROBE_TABLE_H
#define JS_PROBE_TABLE_H

#include <stddef.h>

/* PROBE_SET_* of a program (by its function's name): the sets it belongs to */
#define PROBE_SET_FULL 0x1u
#define PROBE_SET_LEAN 0x2u

/* probe_sets - the PROBE_SET_* a program (by its function's name fn) belongs to: a program in
 * no row of the table runs in both */
unsigned probe_sets(const char *fn);
/* probe_table_check_obj - the table against one build's object (elf, sz bytes; build names
 * it in why): each program it names is there, each lean_ program there is in it (as lean's);
 * 0, or -1 with why */
int probe_table_check_obj(const void *elf, size_t sz, const char *build, char *why, size_t len);

#endif /* JS_PROBE_TABLE_H */
