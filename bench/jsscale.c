// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * jsscale.c - the scale benchmark's driver (make bench-scale, bench/run.py's scale section):
 * the housekeeping side of a measurement, the real code (evring.c's reads, drain.c's windows
 * and lanes, correlate, steal, entry/exit, the results' models), fed by N simulated measured
 * CPUs. No sampler and no probe runs: each simulated CPU's gaps are pushed into a real gap
 * ring (as its sampler would, TSC = ns) and the events inside them written into a real probe
 * ring (as its programs would: struct js_rec, seq last), the rings sized as pipeline.c sizes
 * them for N CPUs. Simulated time moves a nap at a time, the pipeline's (js_nap_next from
 * what the drain found: JS_NAP_BASE_NS, longer while every ring stays nearly empty); after each, this
 * thread does what the pipeline's does: read every CPU's probe ring into drain_event, then
 * drain_run to PROCESS_LAG before now. Only that is timed (CLOCK_THREAD_CPUTIME_ID).
 *
 *   jsscale --cpus N --rate GAPS_PER_S [--threads T] [--seconds S] [--seed N]
 *           [--durations FILE]
 *
 * --threads: the CPUs split among T drain threads as --drain-threads T splits them
 * (scale_split, drain_shard, drain_threads_start): each drain's work is then this thread's
 * (the probe rings read, its shard) and each other thread's shard, each timed by its own CPU
 * clock; a drain's span is the rings' read plus the slowest shard, as if each thread had a
 * housekeeping CPU of its own. Here they may share one: they then take turns, a whole shard
 * each, as --drain-threads does with more threads than CPUs (drain_threads.c), and their CPU
 * clocks count only their own time.
 *
 * --durations: the gaps' durations, in ns, one a line, # a comment (a recorded run's, e.g.
 * bench/scale-durations.txt), each CPU starting at its own place in the list; without it,
 * uniform from 2 to 20 us. Either is clipped to half the spacing of the gaps at that rate.
 * One line of JSON on stdout: the gaps and events, the housekeeping CPU time per gap (every
 * thread's) and as a share of a core, the slowest drain's span (the lag) against the base nap (a drain longer than that means
 * one housekeeping thread cannot keep up: the rings are sized for it), the mean nap, gaps and events lost to full rings, and the memory per
 * measured CPU (heap in use, mallinfo2, and the rings), the most shards that ran at once
 * (at_once: 0 with one thread). Exit 64 on a bad argument.
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "js_drain.h"
#include "js_evring.h"
#include "js_gapring.h"
#include "js_nap.h"
#include "js_params.h"
#include "js_preflight.h"
#include "js_scale.h"
#include "js_source.h"
#include "js_util.h"

#define S 1000000000ull
#define T0 (1000 * S)		   /* the simulated clock starts here */
#define PROCESS_LAG_NS 20000000ull /* pipeline.c's: gaps attributed once this old */
#define WARM_NS (S / 2) /* simulated first, not timed: the windows and lanes filled once */

struct sim_cpu {
	struct js_evring er;
	struct js_rec *rec;
	__u64 tail_out;
	uint64_t head;	    /* the next record written */
	double carry;	    /* fractional gaps carried to the next nap */
	uint64_t seq;	    /* gaps made */
	uint64_t next_free; /* no gap starts before this (they do not overlap) */
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t *durs; /* --durations */
static size_t ndurs;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static uint64_t rnd_in(uint64_t lo, uint64_t hi)
{
	return lo + rnd() % (hi - lo + 1);
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * S + (uint64_t)ts.tv_nsec;
}

/* read_cost - what reading the thread's CPU clock adds to a span it times (a system call:
 * a microsecond in a guest, a tenth of a quiet drain's work): the least of many pairs */
static uint64_t read_cost(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 1000; i++) {
		uint64_t a = cpu_ns(), b = cpu_ns();

		best = b - a < best ? b - a : best;
	}
	return best;
}

static size_t heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* flush - out of this CPU's caches: what a measured CPU writes is never in the housekeeping
 * CPU's cache when it reads it (written on another core), so neither is what is simulated */
static void flush(const void *p, size_t len)
{
	for (size_t o = 0; o < len; o += 64) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_clflush((const char *)p + o);
#elif defined(__aarch64__)
		__asm__ volatile("dc civac, %0" : : "r"((const char *)p + o) : "memory");
#else
		(void)p; /* no flush: the rings are read warm */
#endif
	}
}

/* put - one record into CPU c's probe ring as its programs would write it; false: full */
static bool put(struct sim_cpu *c, const struct js_event *ev, bool named)
{
	struct js_rec *r;

	if (c->head - __atomic_load_n(&c->tail_out, __ATOMIC_ACQUIRE) > c->er.mask)
		return false;
	r = &c->rec[c->head & c->er.mask];
	r->ev = *ev;
	__atomic_store_n(&r->seq,
			 ((c->head + 1) << JS_REC_SEQ_SHIFT) | JS_REC_DONE |
				 (named ? JS_REC_NAMED : 0),
			 __ATOMIC_RELEASE);
	flush(r, sizeof(*r));
	c->head++;
	return true;
}

static struct js_event ev_of(enum js_ev_kind kind, int cpu, uint64_t s, uint64_t e, uint32_t id,
			     uint64_t addr, const char *name)
{
	struct js_event ev = { .start_ns = s,
			       .end_ns = e,
			       .kind = kind,
			       .cpu = (uint32_t)cpu,
			       .id = id,
			       .addr = addr };

	if (name)
		snprintf(ev.name, sizeof(ev.name), "%s", name);
	return ev;
}

/*
 * produce - what CPU cpu's sampler and programs write in the nap [t, t + nap): rate gaps/s,
 * each a tick-like interruption (the local timer vector, an hrtimer callback inside), every
 * 4th with a timer softirq after it, every 16th a preempting task; the untuned rates also
 * get an IRQ. Gaps 2-20 us, in order, never overlapping.
 */
static void produce(struct sim_cpu *c, struct gap_ring *ring, int cpu, double rate, uint64_t t,
		    uint64_t nap, uint64_t *lost_gaps, uint64_t *lost_ev, uint64_t *nev)
{
	double want = rate * (double)nap / S + c->carry;
	uint64_t k = (uint64_t)want, slot;

	c->carry = want - (double)k;
	if (!k)
		return;
	slot = nap / k;
	for (uint64_t i = 0; i < k; i++) {
		uint64_t s = t + i * slot + rnd_in(0, slot / 2), e, m;
		uint64_t dur = ndurs ? durs[(c->seq + (uint64_t)cpu * 7919) % ndurs] :
				       rnd_in(2000, 20000);
		struct js_event ev[5];
		size_t n = 0;
		bool named[5] = { false };

		/* room for the events inside it, and within half the spacing at this rate */
		dur = JS_MAX(JS_MIN(dur, slot / 2), (uint64_t)1000);
		if (s < c->next_free)
			s = c->next_free;
		e = s + dur;
		c->next_free = e + 1000;
		m = s + 300 + (dur - 600) / 2;
		ev[n++] = ev_of(JS_EV_VECTOR, cpu, s + 300, m, JS_VEC_LOCAL_TIMER, 0, NULL);
		ev[n++] =
			ev_of(JS_EV_HRTIMER, cpu, s + 600, m - 300, 0, 0xffffffff81100000ull, NULL);
		if (c->seq % 4 == 0)
			ev[n++] = ev_of(JS_EV_SOFTIRQ, cpu, m + 100, m + 100 + (e - m) / 3, 1, 0,
					NULL);
		if (c->seq % 16 == 0) {
			ev[n] = ev_of(JS_EV_TASK, cpu, m + (e - m) / 2, e - 200,
				      100 + (uint32_t)cpu, 0, "kworker/u:1");
			named[n++] = true;
		}
		if (rate > 4000 && c->seq % 3 == 0)
			ev[n++] = ev_of(JS_EV_IRQ, cpu, e - 250, e - 100, 36, 0, NULL);
		c->seq++;
		for (size_t j = 0; j < n; j++) {
			if (!put(c, &ev[j], named[j]))
				(*lost_ev)++;
			else
				(*nev)++;
		}
		if (!ring_push(ring, s, e))
			(*lost_gaps)++;
		else
			flush(&ring->slots[(ring->head - 1) & ring->mask], sizeof(struct gap_raw));
	}
}

/* load_durations - --durations FILE into durs (lines starting with # are comments); exit
 * 64 when unreadable, malformed or empty */
static void load_durations(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], *end;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "jsscale: --durations '%s': %s\n", path, strerror(errno));
		exit(64);
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		v = strtoull(line, &end, 10);
		if (end == line || (*end && *end != '\n')) {
			fprintf(stderr, "jsscale: --durations '%s': not a duration in ns: %s", path,
				line);
			exit(64);
		}
		if (ndurs == cap) {
			cap = cap ? 2 * cap : 4096;
			durs = realloc(durs, cap * sizeof(*durs));
			if (!durs)
				exit(1);
		}
		durs[ndurs++] = v;
	}
	fclose(f);
	if (!ndurs) {
		fprintf(stderr, "jsscale: --durations '%s': no duration in it\n", path);
		exit(64);
	}
}

/* thread_ns - the CPU time of drain thread k (> 0) so far */
static uint64_t thread_ns(const struct js_drain *d, size_t k)
{
	struct timespec ts;
	clockid_t clk;

	if (drain_threads_clock(d, k, &clk) || clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * S + (uint64_t)ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr, "usage: jsscale --cpus N --rate GAPS_PER_S [--threads T] [--seconds S] "
			"[--seed N] [--durations FILE]\n");
	exit(64);
}

static double num(const char *opt, const char *v, double lo, double hi)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end || !(x >= lo && x <= hi)) {
		fprintf(stderr, "jsscale: %s '%s': want a number from %g to %g\n", opt, v, lo, hi);
		exit(64);
	}
	return x;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = { { "cpus", 1, 0, 'n' },	{ "rate", 1, 0, 'r' },
					    { "seconds", 1, 0, 's' },	{ "seed", 1, 0, 'x' },
					    { "durations", 1, 0, 'f' }, { "threads", 1, 0, 't' },
					    { "help", 0, 0, 'h' },	{ 0, 0, 0, 0 } };
	size_t ncpus = 0, evring_recs, heap0, heap_set, heap_peak;
	double rate = -1, secs = 5;
	uint64_t nap = JS_NAP_BASE_NS, lost_gaps = 0, lost_ev = 0, nev = 0, hk = 0, worst = 0;
	uint64_t clock_cost, napped = 0, gaps = 0, gaps0 = 0, gaps_all = 0, matched = 0,
			     ndrains = 0;
	struct js_run run;
	struct js_drain d;
	struct js_probes *probes;
	struct tsc_fit fit = { .tsc0 = 0, .ns0 = 0, .ns_per_cycle = 1.0, .hz = 1e9 };
	struct sim_cpu *sc;
	int *cpus, o;
	size_t nthreads = 1, count[SCALE_SHARDS_MAX], at_once;
	size_t ring_entries = JS_DEFAULT_RING;
	bool timed = false;

	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (o) {
		case 'n':
			ncpus = (size_t)num("--cpus", optarg, 1, JS_CPUS_MAX);
			break;
		case 'r':
			rate = num("--rate", optarg, 0, 1e7);
			break;
		case 's':
			secs = num("--seconds", optarg, 0.1, 3600);
			break;
		case 'x':
			rng_state = (uint64_t)num("--seed", optarg, 1, 1e18);
			break;
		case 'f':
			load_durations(optarg);
			break;
		case 't':
			nthreads = (size_t)num("--threads", optarg, 1, SCALE_SHARDS_MAX);
			break;
		default:
			usage();
		}
	}
	if (!ncpus || rate < 0 || optind != argc)
		usage();
	/* the pipeline's memory: locked when allowed, a heap that never shrinks */
	preflight_lock_memory();
	heap0 = heap_bytes();
	memset(&run, 0, sizeof(run));
	memset(&d, 0, sizeof(d));
	run.cfg.duration_ns = (uint64_t)(secs * S);
	run.cfg.threshold_ns = 1000;
	run.cfg.top = 10;
	probes = (struct js_probes *)&fit; /* the drain only asks whether probes are on */
	d.run = &run;
	d.probes = &probes;
	d.fit = &fit;
	d.top = run.cfg.top;
	d.spinner = true;
	cpus = calloc(ncpus, sizeof(*cpus));
	sc = calloc(ncpus, sizeof(*sc));
	if (!cpus || !sc)
		return 1;
	for (size_t i = 0; i < ncpus; i++)
		cpus[i] = (int)i;
	evring_recs = scale_probe_ring_recs(ncpus);
	if (drain_setup(&d, cpus, ncpus, SCALE_EV_WINDOW_CAP))
		return 1;
	for (size_t i = 0; i < ncpus; i++) {
		struct cpu_pipe *c = &d.cp[i];

		c->res = run_add_result(&run, JS_SRC_SAMPLER, c->cpu, d.top);
		if (c->res < 0)
			return 1;
		c->lane[JS_SRC_SAMPLER].on = true;
		c->s.ring.mask = ring_entries - 1;
		c->s.ring.slots = calloc(ring_entries, sizeof(struct gap_raw));
		sc[i].rec = aligned_alloc(64, evring_recs * sizeof(struct js_rec));
		if (!c->s.ring.slots || !sc[i].rec)
			return 1;
		memset(sc[i].rec, 0, evring_recs * sizeof(struct js_rec));
		sc[i].er.rec = sc[i].rec;
		sc[i].er.mask = evring_recs - 1;
		sc[i].er.tail_out = &sc[i].tail_out;
		c->s.start_tsc = T0;
	}
	if (drain_setup_buffers(&d))
		return 1;
	nthreads = scale_split(ncpus, rate, 1, nthreads, count);
	if (drain_shard(&d, count, nthreads) || drain_threads_start(&d))
		return 1;
	d.window_start = d.now = T0;
	heap_set = heap_peak = heap_bytes();
	clock_cost = read_cost();
	for (uint64_t t = T0, step; t < T0 + WARM_NS + run.cfg.duration_ns; t += step) {
		struct js_nap_fill fill = { .ring_entries = ring_entries,
					    .ev_ring_bytes = evring_recs * sizeof(struct js_rec) };
		uint64_t c0, c1, cm, span, w0[SCALE_SHARDS_MAX];

		if (!timed && t >= T0 + WARM_NS) { /* the timed window opens: before, warm-up */
			for (size_t i = 0; i < run.ncpus; i++)
				gaps0 += run.cpus[i].gap_count;
			hk = worst = ndrains = napped = 0;
			timed = true;
		}
		/* the measured CPUs' nap's worth, then the drain the pipeline makes after it */
		step = nap;
		for (size_t i = 0; i < ncpus; i++)
			produce(&sc[i], &d.cp[i].s.ring, (int)i, rate, t, step, &lost_gaps,
				&lost_ev, &nev);
		d.now = t + step;
		for (size_t k = 1; k < nthreads; k++)
			w0[k] = thread_ns(&d, k);
		c0 = cpu_ns();
		for (size_t i = 0; i < ncpus; i++) {
			int got = js_evring_read(&sc[i].er, evring_recs, drain_event, &d);

			fill.ev_bytes = JS_MAX(fill.ev_bytes,
					       (size_t)JS_MAX(got, 0) * sizeof(struct js_rec));
		}
		cm = nthreads > 1 ? cpu_ns() : c0;
		drain_run(&d, d.now - PROCESS_LAG_NS);
		c1 = cpu_ns();
		/* the clock's own reads */
		c1 = c1 - c0 > clock_cost * (nthreads > 1 ? 2 : 1) ?
			     c1 - clock_cost * (nthreads > 1 ? 2 : 1) :
			     c0;
		hk += c1 - c0;
		/* the span: the rings' read, then the slowest shard (thread 0's the rest) */
		span = c1 - c0;
		for (size_t k = 1; k < nthreads; k++) {
			uint64_t w = thread_ns(&d, k) - w0[k];

			hk += w;
			span = JS_MAX(span, cm - c0 + w);
		}
		worst = span > worst ? span : worst;
		ndrains++;
		napped += step;
		/* the pipeline's rhythm: 10 ms, up to 40 ms while every ring stays nearly empty */
		fill.gaps = d.popped;
		nap = js_nap_next(nap, &fill);
		if (ndrains % 16 == 0) {
			size_t h = heap_bytes();

			heap_peak = h > heap_peak ? h : heap_peak;
		}
	}
	{
		uint64_t c0 = cpu_ns(), w0[SCALE_SHARDS_MAX];

		for (size_t k = 1; k < nthreads; k++)
			w0[k] = thread_ns(&d, k);
		d.now = UINT64_MAX;
		drain_run(&d, UINT64_MAX);
		hk += cpu_ns() - c0;
		for (size_t k = 1; k < nthreads; k++)
			hk += thread_ns(&d, k) - w0[k];
	}
	at_once = drain_threads_most(&d);
	drain_threads_stop(&d);
	for (size_t i = 0; i < run.ncpus; i++) {
		gaps_all += run.cpus[i].gap_count;
		matched += run.cpus[i].events;
	}
	{
		struct scale_mem m;
		size_t rings;

		scale_mem(&m, ncpus, ncpus + 1, ring_entries);
		gaps = gaps_all - gaps0;
		/* the heap measured holds the simulated rings too: what the drain and the
		 * results take is the rest */
		rings = (m.gap_ring + evring_recs * sizeof(struct js_rec)) * ncpus;
		printf("{\"cpus\": %zu, \"threads\": %zu, \"rate\": %.0f, \"seconds\": %g, \"gaps\": %llu, "
		       "\"events\": %llu, \"events_in_gaps\": %llu, \"lost_gaps\": %llu, "
		       "\"lost_events\": %llu, \"evicted\": %llu, \"hk_ns\": %llu, "
		       "\"hk_ns_per_gap\": %.1f, \"hk_core_pct\": %.3f, \"drains\": %llu, "
		       "\"drain_max_ns\": %llu, \"nap_ns\": %llu, \"nap_mean_ns\": %.0f, \"clock_read_ns\": %llu, \"within_budget\": %s, "
		       "\"heap_per_cpu\": %.0f, \"heap_peak_per_cpu\": %.0f, "
		       "\"gap_ring_per_cpu\": %zu, \"probe_ring_per_cpu\": %zu, "
		       "\"send_rings\": %zu, \"stated_per_cpu\": %zu, \"at_once\": %zu}\n",
		       ncpus, nthreads, rate, secs, (unsigned long long)gaps,
		       (unsigned long long)nev, (unsigned long long)matched,
		       (unsigned long long)lost_gaps, (unsigned long long)lost_ev,
		       (unsigned long long)run.probe_evicted, (unsigned long long)hk,
		       gaps ? (double)hk / (double)gaps : 0.0,
		       100.0 * (double)hk / (double)run.cfg.duration_ns,
		       (unsigned long long)ndrains, (unsigned long long)worst,
		       (unsigned long long)JS_NAP_BASE_NS,
		       ndrains ? (double)napped / (double)ndrains : 0.0,
		       (unsigned long long)clock_cost,
		       worst < JS_NAP_BASE_NS && !lost_gaps && !lost_ev ? "true" : "false",
		       (double)(heap_set - heap0 - rings) / (double)ncpus,
		       (double)(heap_peak - heap0 - rings) / (double)ncpus, m.gap_ring,
		       m.probe_ring, m.send_rings, m.per_cpu, at_once);
	}
	for (size_t i = 0; i < ncpus; i++) {
		free(d.cp[i].s.ring.slots);
		free(sc[i].rec);
	}
	drain_free(&d);
	run_free(&run);
	free(sc);
	free(cpus);
	return 0;
}
