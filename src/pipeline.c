// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pipeline.c - one measurement, run from the main thread on a housekeeping CPU.
 *
 * Samplers spin on the measured CPUs and push raw gaps into their rings. Every
 * DRAIN_PERIOD this thread (never woken by anything on a measured CPU) consumes
 * the probes' ring buffer (no wakeups), pops the gap rings, converts TSC to
 * CLOCK_MONOTONIC, and attributes each gap that ended at least PROCESS_LAG ago,
 * when every event overlapping it has been consumed. Gaps on a CPU never
 * overlap and come in order, so events ending before the last processed gap
 * cannot matter any more and are dropped: memory stays bounded.
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "js_cgroup.h"
#include "js_correlate.h"
#include "js_ksyms.h"
#include "js_pipeline.h"
#include "js_probes.h"
#include "js_sampler.h"
#include "js_smi.h"
#include "js_sysfs.h"
#include "js_util.h"

#define DRAIN_PERIOD_NS   10000000ull     /* 10 ms */
#define PROCESS_LAG_NS    20000000ull     /* gaps must have ended this long ago */
#define FIT_PERIOD_NS     1000000000ull   /* a TSC/MONOTONIC pair every second */
#define EV_WINDOW_CAP     16384           /* events kept per CPU awaiting their gap */
#define PEND_CAP          16384           /* converted gaps kept per CPU awaiting attribution */
#define READINGS_CAP      16384
#define POP_BATCH         1024
#define SYMCACHE_SLOTS    256
/* 2 MiB (mapped twice: 4 MiB resident): 60 ms of events at 400k/s; drained every 10 ms */
#define PROBE_RINGBUF_BYTES (2u << 20)
#define IPI_KEEP_NS       1000000ull      /* IPI sends kept to name the sender of a later vector */
#define SETTLE_NS         20000000ull     /* asleep after attaching, before measuring */
#define FLUSH_PERIOD_NS   500000000ull    /* streaming outputs flushed (a failed write found) */

volatile sig_atomic_t js_stop_requested;

struct cpu_pipe {
	struct sampler s;
	struct js_cpu_result *res;
	struct js_gap *pend;          /* converted gaps awaiting attribution (PEND_CAP) */
	size_t npend;
	struct js_event *ev;          /* events awaiting their gap */
	size_t nev;
	uint64_t ev_evicted;          /* events dropped because the window was full */
	uint64_t last_end_ns;
	struct steal_log steal;       /* steal clock readings not yet used */
	struct js_smi smi;
	bool smi_ok;
	uint64_t smi_start;
	struct js_gap_rec *recs;      /* scratch for one batch */
};

struct pipeline {
	struct js_run *run;
	const struct js_params *p;
	struct js_outputs *outs;
	bool outs_want_events;
	bool outs_watch_events;       /* an output keeps its own window of them (on_event) */
	struct cpu_pipe *cp;
	size_t n;
	int cpu_index[JS_CPUS_MAX];   /* cpu -> index in cp, -1 if not measured */
	struct js_probes *probes;
	struct sym_slot {
		uint64_t addr;
		const char *name;
	} symcache[SYMCACHE_SLOTS];   /* sym_cb's */
	uint64_t attached_at;         /* CLOCK_MONOTONIC once the probes were attached */
	struct corr_opts copts;
	struct tsc_cal cal;
	volatile int go, stop;
	struct gap_raw *raw;
	struct js_event *evscratch;   /* events of one gap, for outputs that want them */
};

/* sym_cb - kernel symbol of addr, through a small direct-mapped cache: the same few
 * callbacks (tick, work items, IPI functions) are named in gap after gap */
static const char *sym_cb(void *ctx, uint64_t addr)
{
	struct pipeline *pl = ctx;
	struct sym_slot *sl = &pl->symcache[(addr >> 4) % SYMCACHE_SLOTS];

	if (!pl->run->ksyms)
		return NULL;
	if (sl->addr != addr) {         /* address 0 has no name: a zeroed slot is right */
		sl->addr = addr;
		sl->name = run_sym(pl->run, addr);
	}
	return sl->name;
}

/* sleep_ns - this thread asleep for @ns (its CPU may go idle) */
static void sleep_ns(uint64_t ns)
{
	struct timespec d = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	nanosleep(&d, NULL);
}

static int on_event(void *ctx, const struct js_event *ev)
{
	struct pipeline *pl = ctx;
	int idx = ev->cpu < JS_CPUS_MAX ? pl->cpu_index[ev->cpu] : -1;
	struct cpu_pipe *c;

	pl->run->probe_events++;
	if (idx < 0)
		return 0;
	c = &pl->cp[idx];
	if (pl->outs_watch_events)
		for (size_t i = 0; i < pl->outs->n; i++)
			if (pl->outs->v[i].on_event && !pl->outs->v[i].err)
				pl->outs->v[i].on_event(pl->outs->v[i].ctx, ev);
	steal_log_add(&c->steal, ev);
	if (ev->kind != JS_EV_IPI_SEND && ev->end_ns < c->last_end_ns)
		return 0;	/* before the last processed gap: cannot overlap a later one */
	if (c->nev == EV_WINDOW_CAP) {
		/* full: drop the oldest quarter at once (one memmove, not one per event) */
		size_t drop = EV_WINDOW_CAP / 4;

		memmove(c->ev, c->ev + drop, (c->nev - drop) * sizeof(*c->ev));
		c->nev -= drop;
		c->ev_evicted += drop;
	}
	c->ev[c->nev++] = *ev;
	return 0;
}

/* feed_outputs - hand a gap (and, if wanted, the events inside it) to the outputs */
static void feed_outputs(struct pipeline *pl, struct cpu_pipe *c, const struct js_gap_rec *g)
{
	uint64_t s = g->gap.start_ns, e = g->gap.start_ns + g->gap.dur_ns;
	size_t k = 0;

	if (!pl->outs || !pl->outs->n)
		return;
	if (pl->outs_want_events) {
		/* the overlapping events, compacted into the scratch array */
		for (size_t i = 0; i < c->nev; i++)
			if (c->ev[i].start_ns <= e && c->ev[i].end_ns >= s &&
			    c->ev[i].kind != JS_EV_IPI_SEND)
				pl->evscratch[k++] = c->ev[i];
	}
	for (size_t i = 0; i < pl->outs->n; i++)
		if (pl->outs->v[i].on_gap && !pl->outs->v[i].err)
			pl->outs->v[i].on_gap(pl->outs->v[i].ctx, g,
					      pl->outs->v[i].wants_events ? pl->evscratch : NULL,
					      pl->outs->v[i].wants_events ? k : 0);
}

static void attribute_batch(struct pipeline *pl, struct cpu_pipe *c, size_t n)
{
	struct js_gap_rec *recs = c->recs;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		recs[i].gap = c->pend[i];       /* the attribution fills (and zeroes) attr */
	/* the batch form sorts the event window once */
	corr_attribute_recs(recs, n, pl->probes ? c->ev : NULL, pl->probes ? c->nev : 0,
			    &pl->copts);
	if (pl->probes)
		steal_log_allocate(&c->steal, recs, n);
	for (size_t i = 0; i < n; i++) {
		corr_finish(&recs[i].attr, recs[i].gap.dur_ns);
		entry_account(&c->res->entry, &recs[i]);
		result_add_gap(c->res, &recs[i]);
		feed_outputs(pl, c, &recs[i]);
	}
	if (n) {
		c->last_end_ns = recs[n - 1].gap.start_ns + recs[n - 1].gap.dur_ns;
		/* drop events that ended before the last processed gap ended */
		for (size_t i = 0; i < c->nev; i++)
			if (c->ev[i].end_ns >= c->last_end_ns ||
			    (c->ev[i].kind == JS_EV_IPI_SEND &&
			     c->ev[i].end_ns + IPI_KEEP_NS >= c->last_end_ns))
				c->ev[k++] = c->ev[i];
		c->nev = k;
	}
	memmove(c->pend, c->pend + n, (c->npend - n) * sizeof(*c->pend));
	c->npend -= n;
}

/* start_result - the CPU's result starts where its sampler started measuring (after the
 * warm-up): before its first gap is attributed */
static void start_result(struct pipeline *pl, struct cpu_pipe *c)
{
	uint64_t start_ns = tsc_to_ns(&pl->cal.fit, c->s.start_tsc);

	if (result_cpu_start(c->res, start_ns, &pl->run->cfg))
		js_warn("CPU %d: cannot allocate the per-second and arrival models", c->res->cpu);
}

/* drain - pop gap rings, convert, attribute everything that ended before @cutoff */
static void drain(struct pipeline *pl, uint64_t cutoff)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct cpu_pipe *c = &pl->cp[i];
		size_t got, ready = 0;

		/* the sampler publishes start_tsc before its first gap (ring release) */
		if (!c->res->started && c->s.start_tsc)
			start_result(pl, c);
		do {
			size_t room = PEND_CAP - c->npend;

			got = ring_pop(&c->s.ring, pl->raw, JS_MIN(room, (size_t)POP_BATCH));
			for (size_t k = 0; k < got; k++) {
				struct js_gap *g = &c->pend[c->npend++];

				g->cpu = (uint32_t)c->res->cpu;
				g->start_ns = tsc_to_ns(&pl->cal.fit, pl->raw[k].start_tsc);
				g->dur_ns = tsc_cycles_to_ns(&pl->cal.fit,
							     pl->raw[k].end_tsc - pl->raw[k].start_tsc);
			}
			while (c->npend == PEND_CAP) {
				/* no room: attribute what we hold now rather than stall the ring */
				attribute_batch(pl, c, POP_BATCH);
			}
		} while (got);
		while (ready < c->npend && c->pend[ready].start_ns + c->pend[ready].dur_ns <= cutoff)
			ready++;
		while (ready) {
			size_t b = JS_MIN(ready, (size_t)POP_BATCH);

			attribute_batch(pl, c, b);
			ready -= b;
		}
	}
}

/* sync_outputs - outputs that wait for the events after a gap (the flight recorder) learn
 * how far gaps and events are done, and put their counts into the run */
static void sync_outputs(struct pipeline *pl, uint64_t done_ns)
{
	for (size_t i = 0; pl->outs && i < pl->outs->n; i++)
		if (pl->outs->v[i].sync && !pl->outs->v[i].err)
			pl->outs->v[i].sync(pl->outs->v[i].ctx, pl->run, done_ns);
}

/* tick_outputs - outputs that work by time (interval logs) learn how far gaps are done */
static void tick_outputs(struct pipeline *pl, uint64_t done_ns)
{
	sync_outputs(pl, done_ns);
	for (size_t i = 0; pl->outs && i < pl->outs->n; i++)
		if (pl->outs->v[i].on_tick && !pl->outs->v[i].err)
			pl->outs->v[i].on_tick(pl->outs->v[i].ctx, pl->run, done_ns);
}

static void progress(struct pipeline *pl, uint64_t now, bool final)
{
	char w[32], line[256];
	uint64_t gaps = 0, worst = 0;
	double el = (double)(now - pl->run->start_mono_ns) / 1e9;

	for (size_t i = 0; i < pl->n; i++) {
		gaps += pl->cp[i].res->gap_count;
		worst = JS_MAX(worst, (uint64_t)hist_max(&pl->cp[i].res->hist));
	}
	if (pl->p->cfg.duration_ns)
		snprintf(line, sizeof(line), "%5.1f/%.0f s", el, pl->p->cfg.duration_ns / 1e9);
	else
		snprintf(line, sizeof(line), "%5.1f s", el);
	fprintf(stderr, "\r[%s] %zu CPU%s: %llu gaps, worst %s   %s", line, pl->n,
		pl->n > 1 ? "s" : "", (unsigned long long)gaps, js_fmt_ns(w, sizeof(w), worst),
		final ? "\n" : "");
	fflush(stderr);
}

/*
 * heap_reserve - grow the heap once to what attributing a full event window needs (the
 * sorted window, its prefix maxima and correlate's per-gap scratch) and give it back to
 * the allocator: with preflight.c's no-trim, no-mmap malloc settings those transient
 * blocks are then carved from memory that is already there (locked), so memory stays flat
 * after start.
 */
static void heap_reserve(void)
{
	size_t bytes = (size_t)EV_WINDOW_CAP * (sizeof(struct js_event) + 256) + (2u << 20);
	char *p = malloc(bytes);

	if (p) {
		for (size_t i = 0; i < bytes; i += 4096)
			p[i] = 0;
		free(p);
	}
}

static int setup(struct pipeline *pl)
{
	const struct js_params *p = pl->p;
	struct js_run *run = pl->run;

	for (int i = 0; i < JS_CPUS_MAX; i++)
		pl->cpu_index[i] = -1;
	pl->n = p->cfg.ncpus;
	pl->cp = calloc(pl->n, sizeof(*pl->cp));
	run->cpus = calloc(pl->n, sizeof(*run->cpus));
	run->ncpus = pl->n;
	pl->raw = malloc(POP_BATCH * sizeof(*pl->raw));
	for (size_t i = 0; pl->outs && i < pl->outs->n; i++) {
		pl->outs_want_events |= pl->outs->v[i].wants_events;
		pl->outs_watch_events |= pl->outs->v[i].on_event != NULL;
	}
	/* only outputs that draw the events (--trace) need a copy of a gap's events */
	if (pl->outs_want_events)
		pl->evscratch = malloc(EV_WINDOW_CAP * sizeof(*pl->evscratch));
	if (!pl->cp || !run->cpus || !pl->raw || (pl->outs_want_events && !pl->evscratch))
		return -ENOMEM;
	for (size_t i = 0; i < pl->n; i++) {
		struct cpu_pipe *c = &pl->cp[i];
		int err;

		pl->cpu_index[p->cfg.cpus[i]] = (int)i;
		c->res = &run->cpus[i];
		err = result_cpu_init(c->res, p->cfg.cpus[i], p->cfg.top);
		if (err)
			return err;
	}
	return 0;
}

/* setup_buffers - the per-CPU gap, record, event and steal buffers */
static int setup_buffers(struct pipeline *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct cpu_pipe *c = &pl->cp[i];

		c->pend = malloc(PEND_CAP * sizeof(*c->pend));
		c->recs = malloc(POP_BATCH * sizeof(*c->recs));   /* one batch at a time */
		c->ev = malloc(EV_WINDOW_CAP * sizeof(*c->ev));
		if (!c->pend || !c->recs || !c->ev || steal_log_init(&c->steal, READINGS_CAP))
			return -ENOMEM;
	}
	return 0;
}

static void open_probes(struct pipeline *pl)
{
	const struct js_params *p = pl->p;
	struct probes_opts o = {
		.cpus = p->cfg.cpus, .ncpus = p->cfg.ncpus, .sampler_tgid = getpid(),
		.ringbuf_bytes = PROBE_RINGBUF_BYTES, .verbose = p->verbose > 1,
	};
	char why[256] = "";

	if (p->cfg.no_probes) {
		snprintf(pl->run->probes_why, sizeof(pl->run->probes_why), "--no-probes");
		return;
	}
	if (js_stop_requested) {	/* stopped during the audit: no load (nor attach) */
		snprintf(pl->run->probes_why, sizeof(pl->run->probes_why),
			 "interrupted before loading");
		return;
	}
	if (probes_open_load(&pl->probes, &o, why, sizeof(why)) < 0) {
		pl->probes = NULL;
		snprintf(pl->run->probes_why, sizeof(pl->run->probes_why), "%s", why);
		js_notice("eBPF probes unavailable (%s): measuring gaps without attribution", why);
		return;
	}
	pl->run->probes_on = true;
	/* once, for the correlator now and the outputs at the end (run_sym) */
	if (ksyms_load(&pl->run->ksyms) < 0)
		pl->run->ksyms = NULL;
	pl->copts.sym = sym_cb;
	pl->copts.sym_ctx = pl;
	/* the tasks' cgroups: the v2 hierarchy walked now, again on a miss */
	pl->run->cgroups = cgroups_open(NULL);
	pl->copts.cgname = cgroups_resolve_name;
	pl->copts.cg_ctx = pl->run->cgroups;
	pl->copts.self_cgroup = cgroups_self(pl->run->cgroups);
	for (size_t i = 0; i < pl->n; i++)
		pl->cp[i].res->cgroups = pl->run->cgroups;
}

static void open_smi(struct pipeline *pl)
{
	char why[128] = "";

	pl->run->smi_countable = true;
	for (size_t i = 0; i < pl->n; i++) {
		struct cpu_pipe *c = &pl->cp[i];

		if (smi_open(c->res->cpu, &c->smi, why, sizeof(why)) == 0 &&
		    smi_read(&c->smi, &c->smi_start) == 0) {
			c->smi_ok = true;
		} else {
			pl->run->smi_countable = false;
			snprintf(pl->run->smi_why, sizeof(pl->run->smi_why), "%s", why);
		}
	}
}

/* cycles - @ns in TSC cycles, saturated at 2^62 (decades: "until stopped" in effect), so a
 * huge -d/-T/--warm-up neither overflows the conversion nor start_tsc + duration */
static uint64_t cycles(const struct tsc_fit *fit, uint64_t ns)
{
	if ((double)ns / fit->ns_per_cycle >= 0x1p62)
		return 1ull << 62;
	return tsc_ns_to_cycles(fit, ns);
}

/* exit_cost - a VM exit's cost measured by the CPU's sampler, in ns; the entry/exit model's
 * prior is that many exits (js_entry.h): set before the first gap */
static void exit_cost(struct js_cpu_result *r, const struct js_vmexit *v, double ns_per_cycle)
{
	r->vm_exit = (struct js_exit_cost){ v->samples, v->min_cycles * ns_per_cycle,
					    v->median_cycles * ns_per_cycle,
					    v->p90_cycles * ns_per_cycle };
	entry_init(&r->entry, r->vm_exit.median_ns);
}

static int start_samplers(struct pipeline *pl)
{
	const struct js_params *p = pl->p;
	uint64_t per_us = tsc_ns_to_cycles(&pl->cal.fit, 1000);
	sigset_t stop_sigs, old;

	/* the samplers inherit a mask without the stop signals: they go to this thread,
	 * not to a measured CPU (and a second Ctrl-C finds a thread that takes it) */
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_sigs, &old);
	for (size_t i = 0; i < pl->n; i++) {
		struct sampler_cfg cfg = {
			.cpu = p->cfg.cpus[i], .policy = p->cfg.policy, .priority = p->cfg.priority,
			.threshold_cycles = cycles(&pl->cal.fit, p->cfg.threshold_ns),
			.warmup_cycles = cycles(&pl->cal.fit, p->cfg.warmup_ns),
			.duration_cycles = cycles(&pl->cal.fit, p->cfg.duration_ns),
			.ring_entries = p->ring_entries, .lfence = p->cfg.lfence,
			.hook = p->cfg.test_hook,
			.go = &pl->go, .stop = &pl->stop,
		};
		int err = sampler_start(&pl->cp[i].s, &cfg);

		if (err) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			js_err("%s", pl->cp[i].s.errmsg);
			return err;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (size_t i = 0; i < pl->n; i++) {
		struct sampler *s = &pl->cp[i].s;
		int err = sampler_wait_ready(s);

		if (err) {
			js_err("%s", s->errmsg);
			return err;
		}
		pl->cp[i].res->node = s->node;
		pl->cp[i].res->loop_ns_min = s->loop_min_cycles * 1000.0 / per_us;
		pl->cp[i].res->loop_ns_median = s->loop_median_cycles * 1000.0 / per_us;
		exit_cost(pl->cp[i].res, &s->vmexit, 1000.0 / per_us);
		if (pl->probes)
			probes_add_sampler_tid(pl->probes, s->cfg.cpu, s->tid);
	}
	return 0;
}

static bool all_done(struct pipeline *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		if (__atomic_load_n(&pl->cp[i].s.state, __ATOMIC_ACQUIRE) != SAMPLER_DONE)
			return false;
	return true;
}

/* stop_early - end the run now, as a stop signal would; why (if any) goes into the report */
static void stop_early(struct pipeline *pl, const char *why)
{
	__atomic_store_n(&pl->stop, 1, __ATOMIC_RELEASE);
	pl->run->interrupted = true;
	if (why && !pl->run->stop_why[0])
		snprintf(pl->run->stop_why, sizeof(pl->run->stop_why), "%s", why);
}

/* check_outputs - a streaming output whose write failed stops the run (at once: what was
 * measured is reported, every other output is still written); flushed every FLUSH_PERIOD */
static void check_outputs(struct pipeline *pl, bool flush)
{
	char why[JS_STOP_WHY_LEN];

	if (outputs_check(pl->outs, flush, why, sizeof(why)) && !pl->stop)
		stop_early(pl, why);
}

/* measure - the drain loop, from go until every sampler is done */
static void measure(struct pipeline *pl)
{
	const struct js_params *p = pl->p;
	bool show = !p->quiet && !p->no_progress && isatty(2);
	uint64_t next_fit, next_progress, next_flush, now;
	struct timespec ts;

	pl->run->start_mono_ns = js_mono_ns();
	clock_gettime(CLOCK_REALTIME, &ts);
	pl->run->start_epoch_s = ts.tv_sec + ts.tv_nsec / 1e9;
	for (size_t i = 0; pl->outs && i < pl->outs->n; i++)
		if (pl->outs->v[i].run_start)
			pl->outs->v[i].run_start(pl->outs->v[i].ctx, pl->run);
	if (js_stop_requested)
		stop_early(pl, NULL);   /* stopped while setting up: an empty window */
	__atomic_store_n(&pl->go, 1, __ATOMIC_RELEASE);
	next_fit = pl->run->start_mono_ns + FIT_PERIOD_NS;
	next_progress = pl->run->start_mono_ns + 1000000000ull;
	next_flush = pl->run->start_mono_ns + FLUSH_PERIOD_NS;
	while (!all_done(pl)) {
		sleep_ns(DRAIN_PERIOD_NS);
		if (js_stop_requested && !pl->stop)
			stop_early(pl, NULL);
		now = js_mono_ns();
		if (pl->probes)
			probes_consume(pl->probes, on_event, pl);
		if (now >= next_fit) {
			tsc_cal_add(&pl->cal, tsc_pair_read(32));
			tsc_cal_refit(&pl->cal);
			next_fit = now + FIT_PERIOD_NS;
		}
		for (size_t i = 0; i < pl->n; i++)
			sampler_hook_tick(&pl->cp[i].s, pl->run);	/* --test-hook only */
		drain(pl, now - PROCESS_LAG_NS);
		tick_outputs(pl, now - PROCESS_LAG_NS);
		check_outputs(pl, now >= next_flush);
		if (now >= next_flush)
			next_flush = now + FLUSH_PERIOD_NS;
		if (show && now >= next_progress) {
			progress(pl, now, false);
			next_progress += 1000000000ull;
		}
	}
	if (show)
		progress(pl, js_mono_ns(), true);
}

static int prog_cost_cmp(const void *pa, const void *pb)
{
	const struct js_probe_prog *a = pa, *b = pb;

	if (a->run_ns != b->run_ns)
		return a->run_ns > b->run_ns ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* probe_cost - the programs' own run time (kernel bpf_stats), when it was collected */
static void probe_cost(struct js_run *run, const struct probes_stats *st)
{
	run->probe_cost_known = st->run_stats;
	if (!st->run_stats)
		return;
	for (size_t i = 0; i < st->nprogs; i++) {
		const struct probes_prog *pp = &st->progs[i];
		struct js_probe_prog *o;

		if (!pp->run_cnt || run->nprobe_progs >= JS_PROBE_PROGS_MAX)
			continue;
		o = &run->probe_progs[run->nprobe_progs++];
		snprintf(o->name, sizeof(o->name), "%s", pp->name);
		o->runs = pp->run_cnt;
		o->run_ns = pp->run_time_ns;
		run->probe_runs += pp->run_cnt;
		run->probe_run_ns += pp->run_time_ns;
	}
	qsort(run->probe_progs, run->nprobe_progs, sizeof(run->probe_progs[0]), prog_cost_cmp);
}

/* finish - detach, last consume, attribute everything left, fill the result */
static void finish(struct pipeline *pl)
{
	struct js_run *run = pl->run;
	struct probes_stats st;

	for (size_t i = 0; i < pl->n; i++) {
		sampler_join(&pl->cp[i].s);
		sampler_hook_end(&pl->cp[i].s, run);	/* --test-hook only */
	}
	if (pl->probes) {
		run->probe_attached_ns = js_mono_ns() - pl->attached_at;
		probes_detach(pl->probes);
		probes_consume(pl->probes, on_event, pl);
		if (probes_stats(pl->probes, &st) == 0) {
			run->probe_lost = st.lost;
			probe_cost(run, &st);
		}
	}
	tsc_cal_add(&pl->cal, tsc_pair_read(64));
	tsc_cal_refit(&pl->cal);
	run->fit = pl->cal.fit;
	drain(pl, UINT64_MAX);
	sync_outputs(pl, UINT64_MAX);   /* every event is in: what waited is written now */
	run->wall_ns = js_mono_ns() - run->start_mono_ns;
	for (size_t i = 0; i < pl->n; i++) {
		struct cpu_pipe *c = &pl->cp[i];
		struct js_cpu_end end = {
			.end_ns = tsc_to_ns(&run->fit, c->s.end_tsc),
			.iterations = c->s.iterations, .dropped = c->s.dropped,
		};
		uint64_t smi_end;

		if (!c->res->started)
			start_result(pl, c);
		if (c->smi_ok && smi_read(&c->smi, &smi_end) == 0)
			end.smi = smi_end - c->smi_start;
		result_cpu_finish(c->res, &end);
		run->probe_evicted += c->ev_evicted;
		if (c->ev_evicted)
			js_warn("CPU %d: %llu events evicted before their gap was seen",
				c->res->cpu, (unsigned long long)c->ev_evicted);
	}
}

static void teardown(struct pipeline *pl)
{
	probes_destroy(pl->probes);
	for (size_t i = 0; pl->cp && i < pl->n; i++) {
		struct cpu_pipe *c = &pl->cp[i];

		if (c->smi_ok)
			smi_close(&c->smi);
		sampler_free(&c->s);
		free(c->pend);
		free(c->recs);
		free(c->ev);
		steal_log_free(&c->steal);
	}
	free(pl->cp);
	free(pl->raw);
	free(pl->evscratch);
}

int pipeline_run(struct js_run *run, const struct js_params *p, struct js_outputs *outs)
{
	struct pipeline pl = { .run = run, .p = p, .outs = outs };
	int err;

	run->cfg = p->cfg;
	err = setup(&pl);
	if (err) {
		js_err("cannot allocate the measurement's buffers: %s", strerror(-err));
		goto out;
	}
	/* pairs spread over the set-up time give the first fit its span */
	tsc_cal_add(&pl.cal, tsc_pair_read(64));
	open_probes(&pl);
	open_smi(&pl);
	/* loading the probes parsed the kernel's BTF: give that back before sampling (a trim
	 * later would IPI the measured CPUs), then reserve what attribution will need */
	malloc_trim(0);
	/* the per-CPU buffers go into the holes the BTF left (mlockall keeps them resident) */
	err = setup_buffers(&pl);
	if (err) {
		js_err("cannot allocate the measurement's buffers: %s", strerror(-err));
		goto out;
	}
	heap_reserve();
	sleep_ns(50000000ull);
	tsc_cal_add(&pl.cal, tsc_pair_read(64));
	err = tsc_cal_refit(&pl.cal);
	if (err) {
		js_err("cannot calibrate the TSC against CLOCK_MONOTONIC");
		goto out;
	}
	/* what reading each clock costs bounds every figure (measured here, on housekeeping) */
	clockcost_measure(&run->clock, pl.cal.fit.hz);
	err = start_samplers(&pl);
	if (err)
		goto out_stop;
	/* attach before sampling starts: attaching sends IPIs to every CPU; not after a stop */
	if (pl.probes && js_stop_requested) {
		snprintf(run->probes_why, sizeof(run->probes_why), "interrupted before attaching");
		probes_destroy(pl.probes);
		pl.probes = NULL;
		run->probes_on = false;
	} else if (pl.probes && probes_attach(pl.probes) < 0) {
		js_warn("attaching the eBPF probes failed: measuring without attribution");
		snprintf(run->probes_why, sizeof(run->probes_why), "attach failed");
		probes_destroy(pl.probes);
		pl.probes = NULL;
		run->probes_on = false;
	} else if (pl.probes) {
		pl.attached_at = js_mono_ns();
		/* attaching kept this CPU busy (text poking IPIs every CPU): tasks woken meanwhile
		 * (the RCU kthread, kworkers) were placed on a measured CPU and wait there. Asleep,
		 * this CPU goes idle and the scheduler pulls them over, with a reschedule IPI to the
		 * measured CPU: before the window opens, not in its first milliseconds */
		sleep_ns(SETTLE_NS);
	}
	tsc_cal_add(&pl.cal, tsc_pair_read(64));
	tsc_cal_refit(&pl.cal);
	measure(&pl);
	finish(&pl);
	goto out;
out_stop:
	__atomic_store_n(&pl.stop, 1, __ATOMIC_RELEASE);
	for (size_t i = 0; i < pl.n; i++)
		sampler_join(&pl.cp[i].s);
out:
	teardown(&pl);
	return err;
}
