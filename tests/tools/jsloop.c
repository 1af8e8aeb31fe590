// SPDX-License-Identifier: GPL-2.0
/*
 * jsloop - the CPU's floor for a measuring loop: a bare TSC loop pinned to one CPU, that
 * does nothing but read the TSC, take the difference (added up when under the cut, as a
 * measuring loop compares it with its threshold) and test for its end. The benchmark
 * compares jitterscope's loop period (and oslat's) with it on the same CPU, so that a
 * floor row says how far a loop is from what the CPU allows, whatever the CPU. The TSC is
 * read as jitterscope's --clock auto reads it (js_tsc.h: rdtscp where it may run, else
 * lfence;rdtsc), so no instruction runs that the CPU does not advertise.
 *
 *   jsloop --cpu N [--duration SECS] [--cut-ns NS] [--out FILE]
 *
 * The summary on stdout (or in FILE), one key=value a line: cpu iterations duration_ns loop_ns_mean
 * (the mean period of the iterations shorter than --cut-ns, default 1000: the rest are
 * interruptions, taken out as oslat and jitterscope take theirs out) short_iterations
 * cut_ns rdtscp (1: the loop read the TSC with rdtscp, 0: with lfence;rdtsc). The TSC is converted with CLOCK_MONOTONIC read at both ends of the loop.
 * Exit 0, 1 failure, 2 usage.
 */
#include <getopt.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "js_tsc.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct loop {
	uint64_t n, nshort, busy, t0, t;
};

/* run - the bare loop from now until @end cycles, read as @rd says (inlined per read) */
static __attribute__((always_inline)) inline void run(struct loop *l, enum tsc_read rd,
						      uint64_t cycles, uint64_t cut)
{
	uint64_t prev, t, end, n = 0, nshort = 0, busy = 0;

	prev = l->t0 = js_tsc_read(rd);
	end = l->t0 + cycles;
	do {
		t = js_tsc_read(rd);
		n++;
		if (t - prev < cut) {
			busy += t - prev;
			nshort++;
		}
		prev = t;
	} while (t < end);
	l->n = n;
	l->nshort = nshort;
	l->busy = busy;
	l->t = t;
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
	uint64_t cut, cycles, w0, w1, t0;
	struct loop l;
	enum tsc_read rd;
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
	tsc_read_choose(TSC_CLOCK_AUTO, tsc_rdtscp_usable(), &rd);
	/* the TSC's rate, roughly, for the loop's end and the cut: 20 ms of both clocks */
	w0 = mono_ns();
	t0 = js_tsc_read(rd);
	while (mono_ns() - w0 < 20000000u)
		;
	tick_ns = (double)(mono_ns() - w0) / (double)(js_tsc_read(rd) - t0);
	cut = (uint64_t)(cut_ns / tick_ns);
	cycles = (uint64_t)(secs * 1e9 / tick_ns);

	w0 = mono_ns();
	if (rd == TSC_READ_LFENCE_RDTSC)
		run(&l, TSC_READ_LFENCE_RDTSC, cycles, cut);
	else
		run(&l, TSC_READ_RDTSCP, cycles, cut);
	w1 = mono_ns();
	tick_ns = (double)(w1 - w0) / (double)(l.t - l.t0); /* the run's own rate */

	fprintf(f,
		"cpu=%d\niterations=%llu\nduration_ns=%llu\nloop_ns_mean=%.3f\n"
		"short_iterations=%llu\ncut_ns=%.0f\nrdtscp=%d\n",
		cpu, (unsigned long long)l.n, (unsigned long long)(w1 - w0),
		l.nshort ? (double)l.busy * tick_ns / (double)l.nshort : 0.0,
		(unsigned long long)l.nshort, cut_ns, rd == TSC_READ_RDTSCP);
	if (fclose(f)) {
		perror(out ? out : "stdout");
		return 1;
	}
	return l.nshort ? 0 : 1;
}
