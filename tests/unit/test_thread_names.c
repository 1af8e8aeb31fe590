// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_thread_names.c - jitterscope's threads' names (js_util.h): the calling thread named,
 * a library's new thread found among the process's threads and named through its comm file,
 * and named again after it renamed itself. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "js_util.h"

static void comm_of(int tid, char *buf, size_t len)
{
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, (int)len, fp));
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go, done;

/* a "library's" thread: names itself as libmicrohttpd does, then waits */
static void *lib_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "MHD-single", 0, 0, 0);
	pthread_mutex_lock(&mu);
	go = 1;
	pthread_cond_broadcast(&cv);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void test_self(void **state)
{
	char c[32];
	int me = (int)syscall(SYS_gettid);

	(void)state;
	assert_int_equal(js_thread_name(JS_THREAD_DRAIN), 0);
	comm_of(me, c, sizeof(c));
	assert_string_equal(c, "js-drain");
	snprintf(c, sizeof(c), JS_THREAD_SPIN, 127);
	assert_true(strlen(c) <= 15); /* a comm holds 15 characters */
	assert_int_equal(js_thread_name(JS_THREAD_PROCESS), 0);
}

static void test_new_thread(void **state)
{
	int before[64], rest[64], found[4], tid;
	long n;
	size_t k;
	pthread_t t;
	char c[32];

	(void)state;
	n = js_threads_list(before, 64);
	assert_true(n >= 1 && n <= 64);
	assert_int_equal(pthread_create(&t, NULL, lib_thread, NULL), 0);
	pthread_mutex_lock(&mu);
	while (!go)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	k = js_threads_new(before, (size_t)n, found, 4);
	assert_int_equal(k, 1);
	tid = found[0];
	comm_of(tid, c, sizeof(c));
	assert_string_equal(c, "MHD-single");
	assert_int_equal(js_thread_name_tid(tid, JS_THREAD_HTTP), 0);
	comm_of(tid, c, sizeof(c));
	assert_string_equal(c, "js-http");
	/* named already: nothing written, still 0 */
	assert_int_equal(js_thread_name_tid(tid, JS_THREAD_HTTP), 0);
	/* against the new thread alone, the new ones are the n that were there before it */
	assert_int_equal(js_threads_new(found, 1, rest, 64), (size_t)n);
	assert_int_equal(js_thread_name_tid(999999999, "x"), -ENOENT);
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_new_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
