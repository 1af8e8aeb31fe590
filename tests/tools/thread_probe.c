// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * thread_probe.c - exit 0 when a thread can be started and joined. scripts/check-arm64.sh
 * runs it under qemu-user first: Debian 12's qemu-user (7.2) hangs in pthread_create on
 * some host kernels, and the sampler and its drain are threads.
 */
#include <pthread.h>

static void *echo(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;
	void *r = NULL;

	if (pthread_create(&t, NULL, echo, (void *)1) || pthread_join(t, &r))
		return 1;
	return r == (void *)1 ? 0 : 1;
}
