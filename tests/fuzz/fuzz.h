/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fuzz.h - shared helpers of the libFuzzer targets (tests/fuzz/fuzz_*.c, `make fuzz`).
 * Every target feeds one parser arbitrary bytes; ASan+UBSan turn any memory or
 * undefined-behaviour bug into a crash, which libFuzzer reports and saves.
 */
#ifndef JS_FUZZ_H
#define JS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fuzz_str - data[0..size) as a malloc'd NUL-terminated string (stops at an inner NUL) */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif /* JS_FUZZ_H */
