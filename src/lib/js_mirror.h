/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_mirror.h - a ring whose every window is one array: bytes of memory mapped twice, back
 * to back, so that base[i] and base[i + bytes] are the same byte. A window of up to bytes
 * that starts anywhere in the first mapping reads and writes as one contiguous array, and
 * moving its start is an index, not a copy. Why: docs/DESIGN.md, "the drain's window".
 *
 *   size_t n = mirror_round(want, sizeof(struct js_event));
 *   struct js_event *ring = mirror_map(n * sizeof(*ring));
 *   ring[(head + i) % n] is ring[head + i], for head < n and i <= n
 *   mirror_unmap(ring, n * sizeof(*ring));
 */
#ifndef JS_MIRROR_H
#define JS_MIRROR_H

#include <stddef.h>

/* mirror_round - n or more elements of elem bytes whose size is a whole number of pages
 * (for every elem of a power of two times any odd number, as many elements as one page of
 * the power of two holds) */
size_t mirror_round(size_t n, size_t elem);
/* mirror_map - bytes (a whole number of pages) mapped twice; NULL, errno set: none */
void *mirror_map(size_t bytes);
/* mirror_unmap - both mappings of a mirror_map(bytes); harmless for NULL */
void mirror_unmap(void *p, size_t bytes);

#endif /* JS_MIRROR_H */
