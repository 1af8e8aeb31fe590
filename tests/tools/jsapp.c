// SPDX-License-Identifier: GPL-2.0
/*
 * jsapp - a stand-in application for the tests and benchmarks of --pid and --marks: a busy
 * loop pinned to one CPU, as a polling network stack or a trading engine runs, that times
 * its own iterations and marks the slow ones with include/jitterscope/mark.h.
 *
 *   jsapp --cpu N [--duration SECS] [--work-us US] [--slow-us US] [--marks FILE]
 *         [--log FILE] [--label TEXT] [--threads K] [--ready FILE]
 *
 * Each iteration does a fixed amount of work, calibrated at the start to take --work-us
 * (default 10) when nothing interrupts it: whatever takes the CPU meanwhile lengthens the
 * iteration (a spin to a deadline would absorb an interrupt shorter than the rest of the
 * iteration). Iterations are back to back (one clock read ends one and starts the next), so
 * every instant of the run is in one. An iteration that lasted at least --work-us + --slow-us (default 20) is marked (one
 * write to --marks) and, with --log, recorded in a CSV `start_ns,end_ns,written` (written:
 * 1 when the mark was written, 0 when it was dropped) of every mark tried, for the tests.
 * --threads K runs K-1 more looping threads on the same CPU's affinity (the first thread is
 * the marking one; for following several threads). --ready FILE is created once the loop
 * runs. The summary on stdout, one key=value a line: cpu iterations work_us slow_us marks
 * dropped iter_p50_ns iter_p99_ns iter_p999_ns iter_max_ns tid. The iteration times are
 * the application's own measure of its speed: the benchmark compares them with and without
 * jitterscope watching. Exit 0, 1 failure, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jitterscope/mark.h"

#define FINE_NS 200000u /* 1 ns bins up to 200 us */
#define COARSE 100000u	/* then 1 us bins up to 100 ms (then the last one) */
#define MAX_LOG (1u << 20)

static struct {
	int cpu;
	double duration_s;
	uint64_t work_ns, slow_ns;
	const char *marks, *log, *label, *ready;
	int threads;
} o = {
	.cpu = -1, .duration_s = 5, .work_ns = 10000, .slow_ns = 20000, .label = "iter", .threads = 1
};

static uint32_t *fine, *coarse; /* iteration times */
static volatile uint64_t sink;	/* the work's result, so it is done */
static uint64_t niter, maxiter;
static volatile sig_atomic_t stop;
struct logrec {
	uint64_t s, e;
	int written;
};
static struct logrec *logv;
static size_t nlog;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void record(uint64_t d)
{
	niter++;
	if (d > maxiter)
		maxiter = d;
	if (d < FINE_NS)
		fine[d]++;
	else
		coarse[d / 1000 < COARSE ? d / 1000 : COARSE - 1]++;
}

/* pct - the iteration time at quantile q (nearest rank) */
static uint64_t pct(double q)
{
	uint64_t rank = (uint64_t)(q * (double)niter), seen = 0;

	if (rank >= niter)
		rank = niter ? niter - 1 : 0;
	for (uint64_t d = 0; d < FINE_NS; d++) {
		seen += fine[d];
		if (seen > rank)
			return d;
	}
	for (uint64_t k = 0; k < COARSE; k++) {
		seen += coarse[k];
		if (seen > rank)
			return k * 1000 + 500;
	}
	return maxiter;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* spin - the other threads (--threads): busy, unmarked */
static void *spin(void *arg)
{
	(void)arg;
	while (!stop)
		js_mark_now();
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: jsapp --cpu N [--duration SECS] [--work-us US] [--slow-us US] "
		"[--marks FILE] [--log FILE] [--label TEXT] [--threads K] [--ready FILE]\n");
	exit(2);
}

static void parse(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", 1, NULL, 'c' },     { "duration", 1, NULL, 'd' },
		{ "work-us", 1, NULL, 'w' }, { "slow-us", 1, NULL, 's' },
		{ "marks", 1, NULL, 'm' },   { "log", 1, NULL, 'l' },
		{ "label", 1, NULL, 'L' },   { "threads", 1, NULL, 't' },
		{ "ready", 1, NULL, 'r' },   { NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.cpu = atoi(optarg);
			break;
		case 'd':
			o.duration_s = atof(optarg);
			break;
		case 'w':
			o.work_ns = (uint64_t)(atof(optarg) * 1000);
			break;
		case 's':
			o.slow_ns = (uint64_t)(atof(optarg) * 1000);
			break;
		case 'm':
			o.marks = optarg;
			break;
		case 'l':
			o.log = optarg;
			break;
		case 'L':
			o.label = optarg;
			break;
		case 't':
			o.threads = atoi(optarg);
			break;
		case 'r':
			o.ready = optarg;
			break;
		default:
			usage();
		}
	}
	if (o.cpu < 0 || o.duration_s <= 0 || o.threads < 1 || o.threads > 64 || optind < argc)
		usage();
}

static int write_log(void)
{
	FILE *fp = fopen(o.log, "w");

	if (!fp)
		return -1;
	fprintf(fp, "start_ns,end_ns,written\n");
	for (size_t i = 0; i < nlog; i++)
		fprintf(fp, "%llu,%llu,%d\n", (unsigned long long)logv[i].s,
			(unsigned long long)logv[i].e, logv[i].written);
	return fclose(fp);
}

/* work - steps of a dependent multiply chain: a fixed time on a CPU nothing takes away */
static void work(uint64_t steps)
{
	uint64_t x = sink;

	for (uint64_t i = 0; i < steps; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* calibrate - the steps of work that take ns: from the median of 31 timed runs */
static uint64_t calibrate(uint64_t ns)
{
	const uint64_t probe = 20000;
	uint64_t t[31];

	for (int i = 0; i < 31; i++) {
		uint64_t a = js_mark_now();

		work(probe);
		t[i] = js_mark_now() - a;
	}
	qsort(t, 31, sizeof(t[0]), cmp_u64);
	return t[15] ? ns * probe / t[15] : 1;
}

int main(int argc, char **argv)
{
	struct js_marker mk = { .fd = -1 };
	pthread_t th[64];
	uint64_t t0, t1, end, steps;
	int fd;

	parse(argc, argv);
	fine = calloc(FINE_NS, sizeof(*fine));
	coarse = calloc(COARSE, sizeof(*coarse));
	logv = o.log ? calloc(MAX_LOG, sizeof(*logv)) : NULL;
	if (!fine || !coarse || (o.log && !logv))
		return 1;
	if (pin(o.cpu)) {
		perror("jsapp: sched_setaffinity");
		return 1;
	}
	mlockall(MCL_CURRENT | MCL_FUTURE); /* best effort: its own faults stay out */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (o.marks && js_marker_open(&mk, o.marks, o.work_ns + o.slow_ns)) {
		fprintf(stderr, "jsapp: --marks %s: %s\n", o.marks, strerror(mk.last_errno));
		return 1;
	}
	mk.slow_ns = o.work_ns + o.slow_ns;
	steps = calibrate(o.work_ns);
	for (int i = 1; i < o.threads; i++)
		pthread_create(&th[i], NULL, spin, NULL);
	if (o.ready && (fd = open(o.ready, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0)
		close(fd);
	t0 = js_mark_now();
	end = t0 + (uint64_t)(o.duration_s * 1e9);
	while (!stop && t0 < end) {
		work(steps);
		t1 = js_mark_now();
		record(t1 - t0);
		if (t1 - t0 >= mk.slow_ns) {
			int rc = o.marks ? js_mark(&mk, t0, t1, o.label) : 0;

			if (logv && nlog < MAX_LOG)
				logv[nlog++] = (struct logrec){ t0, t1, rc == 0 && o.marks };
		}
		t0 = t1; /* back to back: the mark's write is in the next iteration */
	}
	stop = 1;
	for (int i = 1; i < o.threads; i++)
		pthread_join(th[i], NULL);
	js_marker_close(&mk);
	if (o.log && write_log()) {
		perror("jsapp: --log");
		return 1;
	}
	printf("cpu=%d\niterations=%llu\nwork_us=%.1f\nslow_us=%.1f\nmarks=%llu\ndropped=%llu\n"
	       "iter_p50_ns=%llu\niter_p99_ns=%llu\niter_p999_ns=%llu\niter_max_ns=%llu\ntid=%ld\n",
	       o.cpu, (unsigned long long)niter, o.work_ns / 1e3, o.slow_ns / 1e3,
	       (unsigned long long)mk.written, (unsigned long long)mk.dropped,
	       (unsigned long long)pct(0.50), (unsigned long long)pct(0.99),
	       (unsigned long long)pct(0.999), (unsigned long long)maxiter,
	       (long)syscall(SYS_gettid));
	return 0;
}
