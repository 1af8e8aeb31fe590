// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_smi.c - SMI counter: PMU event string parsing and the closed-counter paths. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "js_smi.h"

/** Check that perf PMU event strings parse into the config value. */
static void test_parse(void **state)
{
	uint64_t c = 0;

	(void)state;
	assert_int_equal(smi_parse_event("event=0x04", &c), 0);
	assert_int_equal(c, 4);
	assert_int_equal(smi_parse_event("event=0x34,umask=0x1\n", &c), 0);
	assert_int_equal(c, 0x34);
	assert_int_equal(smi_parse_event("event=12", &c), 0);
	assert_int_equal(c, 12);
	assert_int_equal(smi_parse_event("umask=0x1", &c), -EINVAL);
	assert_int_equal(smi_parse_event("event=", &c), -EINVAL);
	assert_int_equal(smi_parse_event("event=0x4z", &c), -EINVAL);
}

/** Check that a zeroed or closed counter is refused by read and harmless to close. */
static void test_closed(void **state)
{
	struct js_smi s;
	uint64_t v = 7;

	(void)state;
	memset(&s, 0, sizeof(s));
	smi_close(&s);          /* must not close fd 0 */
	assert_int_equal(s.fd, -1);
	assert_int_equal(smi_read(&s, &v), -EBADF);
	assert_int_equal(v, 7);
	smi_close(NULL);
	assert_string_equal(smi_src_name(JS_SMI_NONE), "none");
	assert_string_equal(smi_src_name(JS_SMI_PERF), "perf msr/smi");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_closed),
	};

	return cmocka_run_group_tests_name("smi", tests, NULL, NULL);
}
