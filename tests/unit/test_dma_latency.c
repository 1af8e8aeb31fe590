// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_dma_latency.c - --dma-latency's request: a binary s32 written, the file held open. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_dma_latency.h"

/** The value goes out as 4 bytes in host order, and the fd stays open until released. */
static void test_hold(void **st)
{
	char path[] = "/tmp/js-dma-XXXXXX";
	int tmp = mkstemp(path), fd;
	int32_t v = -1;

	(void)st;
	assert_true(tmp >= 0);
	fd = dma_latency_hold_at(path, 12);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) >= 0); /* held */
	assert_int_equal(pread(tmp, &v, sizeof(v), 0), sizeof(v));
	assert_int_equal(v, 12);
	assert_int_equal(lseek(tmp, 0, SEEK_END), 4);
	dma_latency_release(fd);
	assert_int_equal(fcntl(fd, F_GETFD), -1); /* released */
	fd = dma_latency_hold_at(path, 0);
	assert_true(fd >= 0);
	assert_int_equal(pread(tmp, &v, sizeof(v), 0), sizeof(v));
	assert_int_equal(v, 0);
	dma_latency_release(fd);
	dma_latency_release(-1); /* harmless */
	close(tmp);
	unlink(path);
}

/** No device, a negative value: -errno, nothing held. */
static void test_errors(void **st)
{
	(void)st;
	assert_int_equal(dma_latency_hold_at("/nonexistent/cpu_dma_latency", 0), -ENOENT);
	assert_int_equal(dma_latency_hold_at("/dev/null", -1), -EINVAL);
	assert_int_equal(dma_latency_hold_at("/", 0), -EISDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
