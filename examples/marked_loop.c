// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * marked_loop - how an application tells jitterscope when its loop was slow, with the
 * header-only include/jitterscope/mark.h (installed by `make install`).
 *
 *   marked_loop FILE [SLOW_US [SECONDS [STALL_EVERY]]]
 *
 * A loop of small units of work, timed back to back; every iteration that took SLOW_US
 * (default 50) or more is appended to FILE as "start_ns,end_ns,label". FILE may be a
 * regular file or a FIFO (start jitterscope first: `jitterscope --pid PID --marks FILE`).
 * STALL_EVERY (default 0: never) sleeps 200 us every that many iterations, a stall to see.
 * At the end: "iterations=N marks=N dropped=N" on stdout.
 *
 * Build: cc -O2 -I/usr/local/include marked_loop.c -o marked_loop
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jitterscope/mark.h"

/* work - a unit of the application's work: a little arithmetic */
static uint64_t work(uint64_t x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

int main(int argc, char **argv)
{
	struct js_marker mk;
	uint64_t slow_us = argc > 2 ? strtoull(argv[2], NULL, 10) : 50;
	double secs = argc > 3 ? atof(argv[3]) : 10;
	unsigned long stall_every = argc > 4 ? strtoul(argv[4], NULL, 10) : 0;
	uint64_t t0, t1, end, n = 0, x = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: marked_loop FILE [SLOW_US [SECONDS [STALL_EVERY]]]\n");
		return 2;
	}
	if (js_marker_open(&mk, argv[1], slow_us * 1000)) {
		fprintf(stderr,
			"marked_loop: %s: cannot open for marks (a FIFO needs its reader first)\n",
			argv[1]);
		return 1;
	}
	t0 = js_mark_now();
	end = t0 + (uint64_t)(secs * 1e9);
	while (t0 < end) {
		x = work(x);
		if (++n % (stall_every ? stall_every : UINT64_MAX) == 0)
			nanosleep(&(struct timespec){ 0, 200000 }, NULL);
		t1 = js_mark_now();
		js_mark_slow(&mk, t0, t1, "iteration"); /* one write(), when slow */
		t0 = t1;
	}
	js_marker_close(&mk);
	printf("iterations=%llu marks=%llu dropped=%llu\n", (unsigned long long)n,
	       (unsigned long long)mk.written, (unsigned long long)mk.dropped);
	return (int)(x & 0);
}
