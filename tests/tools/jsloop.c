// SPDX-License-Identifier: GPL-2.0
/*
 * jsloop - the CPU's floor for a measuring loop: a bare rdtscp loop pinned to one CPU, that
 * does nothing but read the TSC, take the difference (added up when under the cut, as a
 * measuring loop compares it with its threshold) and test for its end. The benchmark
 * compares jitterscope's loop period (and oslat's) with it on the same CPU, so that a
 * floor row says how far a loop is from what the CPU allows, whatever the CPU.
 *
 *   jsloop --cpu N [--duration SECS] [--cut-ns NS] [--out FILE]
 *
 * The summary on stdout (or in FILE), one key=value a line: cpu iterations duration_ns loop_ns_mean
 * (the mean period of the iterations shorter than --cut-ns, default 1000: the rest are
 * interruptions, taken out as oslat and jitterscope take theirs out) short_iterations
 * cut_ns. The TSC is converted with CLOCK_MONOTONIC read at both ends of the loop.
 * Exit 0, 1 failure, 2 usage.
 */
#include <getopt.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr, "usage: jsloop --cpu N [--duration SECS] [--cut-ns NS] [--out FILE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "cpu", required_argument, 0, 'c' },
					      { "duration", required_argument, 0, 'd' },
					      { "cut-ns", required_argument, 0, 'k' },
					      { "out", required_argument, 0, 'o' },
					      { 0, 0, 0, 0 } };
	double secs = 3, cut_ns = 1000, tick_ns;
	uint64_t n = 0, nshort = 0, busy = 0, prev, t, end, cut, w0, w1, t0;
	unsigned int aux;
	int cpu = -1, c;
	char *e;
	const char *out = NULL;
	FILE *f = stdout;
	cpu_set_t set;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cpu = (int)strtol(optarg, &e, 10);
			if (*e || cpu < 0 || cpu >= CPU_SETSIZE)
				usage();
			break;
		case 'd':
			secs = strtod(optarg, &e);
			if (*e || !(secs > 0 && secs <= 3600))
				usage();
			break;
		case 'k':
			cut_ns = strtod(optarg, &e);
			if (*e || !(cut_ns > 0 && cut_ns <= 1e9))
				usage();
			break;
		case 'o':
			out = optarg;
			break;
		default:
			usage();
		}
	}
	if (cpu < 0 || optind != argc)
		usage();
	if (out && !(f = fopen(out, "w"))) {
		perror(out);
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("jsloop: sched_setaffinity");
		return 1;
	}
	/* the TSC's rate, roughly, for the loop's end and the cut: 20 ms of both clocks */
	w0 = mono_ns();
	t0 = __rdtscp(&aux);
	while (mono_ns() - w0 < 20000000u)
		;
	tick_ns = (double)(mono_ns() - w0) / (double)(__rdtscp(&aux) - t0);
	cut = (uint64_t)(cut_ns / tick_ns);

	w0 = mono_ns();
	prev = t0 = __rdtscp(&aux);
	end = t0 + (uint64_t)(secs * 1e9 / tick_ns);
	do {
		t = __rdtscp(&aux);
		n++;
		if (t - prev < cut) {
			busy += t - prev;
			nshort++;
		}
		prev = t;
	} while (t < end);
	w1 = mono_ns();
	tick_ns = (double)(w1 - w0) / (double)(t - t0); /* the run's own rate */

	fprintf(f,
		"cpu=%d\niterations=%llu\nduration_ns=%llu\nloop_ns_mean=%.3f\n"
		"short_iterations=%llu\ncut_ns=%.0f\n",
		cpu, (unsigned long long)n, (unsigned long long)(w1 - w0),
		nshort ? (double)busy * tick_ns / (double)nshort : 0.0, (unsigned long long)nshort,
		cut_ns);
	if (fclose(f)) {
		perror(out ? out : "stdout");
		return 1;
	}
	return nshort ? 0 : 1;
}
