/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_ksyms.h - kernel symbol table (/proc/kallsyms) for naming the function addresses the
 * probes report (hrtimer callbacks, workqueue functions, NMI handlers, IPI callsites).
 *
 * Loaded once into a sorted array; lookups are a binary search (nearest symbol at or
 * below the address). Addresses are only real for root (kernel.kptr_restrict): a table
 * whose addresses are all zero is refused with -EPERM.
 */
#ifndef JS_KSYMS_H
#define JS_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct js_ksyms;

/* ksyms_load - load /proc/kallsyms; 0 or negative errno (-EPERM when addresses are hidden) */
int ksyms_load(struct js_ksyms **out);
/* ksyms_load_file - load a kallsyms-format file ("addr type name [module]" lines) */
int ksyms_load_file(struct js_ksyms **out, const char *path);
/* ksyms_free - release the table; accepts NULL */
void ksyms_free(struct js_ksyms *ks);
/* ksyms_count - number of symbols kept */
size_t ksyms_count(const struct js_ksyms *ks);
/* ksyms_lookup - nearest symbol at or below addr, offset into *off (may be NULL); NULL if none */
const char *ksyms_lookup(const struct js_ksyms *ks, uint64_t addr, uint64_t *off);
/* ksyms_name - nearest symbol name at or below addr, or NULL */
const char *ksyms_name(const struct js_ksyms *ks, uint64_t addr);
/* ksyms_addr - address of the first symbol called name, 0 if absent (linear scan: slow) */
uint64_t ksyms_addr(const struct js_ksyms *ks, const char *name);

#endif /* JS_KSYMS_H */
