/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_test.h - what the cmocka unit tests share: a skip that says why.
 * Include after <cmocka.h>. scripts/run-tests.sh counts the skipped cases and lists each
 * with the "skip: REASON" line printed just before cmocka's [  SKIPPED ] line; a case skipped
 * without that line fails the run. Skip only for what the machine lacks and a user would
 * accept (not root, a kernel without BTF or THP ...), never for a failure of what it has. */
#ifndef JS_TEST_H
#define JS_TEST_H

#include <errno.h>
#include <string.h>

/* js_skip - print "skip: FMT..." and skip the running case (FMT: a string literal) */
#define js_skip(...)                                 \
	do {                                         \
		print_message("skip: " __VA_ARGS__); \
		print_message("\n");                 \
		skip();                              \
	} while (0)

/* js_collapse_failed - after MADV_COLLAPSE returned err (0 or -errno): skip the case when the
 * machine cannot collapse (EINVAL: THP set to never or a kernel before 6.1; ENOMEM, EAGAIN:
 * no free huge page now); fail it on any other error */
static inline void js_collapse_failed(int err)
{
	if (err == -EINVAL)
		js_skip("MADV_COLLAPSE refused (%s): THP set to never, or a kernel before 6.1",
			strerror(-err));
	if (err == -ENOMEM || err == -EAGAIN)
		js_skip("MADV_COLLAPSE: no huge page to collapse into (%s)", strerror(-err));
	if (err)
		fail_msg("MADV_COLLAPSE failed: %s", strerror(-err));
}

#endif /* JS_TEST_H */
