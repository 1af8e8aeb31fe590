// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pipeline.c - one measurement, run from the main thread on a housekeeping CPU: the run's
 * lifecycle (set-up, probes, SMI counters, samplers, the loop, finish).
 *
 * Samplers spin on the measured CPUs and push raw gaps into their rings; or, with --pid,
 * --tid or --marks, no sampler runs and gap sources (js_source.h, handed in by the command
 * as the outputs are) hand over the gaps of the followed threads and the application's
 * marks. After each nap (js_nap.h) this thread (never woken by anything on a measured CPU)
 * consumes the probes' rings (no wakeups), polls the sources, and drains (js_drain.h): the
 * gap rings popped, TSC converted to CLOCK_MONOTONIC, each gap that ended at least
 * PROCESS_LAG ago attributed, when every event overlapping it has been consumed.
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "js_cgroup.h"
#include "js_correlate.h"
#include "js_drain.h"
#include "js_follow.h"
#include "js_ksyms.h"
#include "js_pipeline.h"
#include "js_preflight.h"
#include "js_nap.h"
#include "js_probes.h"
#include "js_probe_toggle.h"
#include "js_sampler.h"
#include "js_scale.h"
#include "js_smi.h"
#include "js_source.h"
#include "js_sysfs.h"
#include "js_util.h"

#define PROCESS_LAG_NS 20000000ull   /* gaps must have ended this long ago */
#define FIT_PERIOD_NS 1000000000ull  /* a TSC/MONOTONIC pair every second */
#define SETTLE_NS 20000000ull	     /* asleep after attaching, before measuring */
#define FLUSH_PERIOD_NS 500000000ull /* streaming outputs flushed (a failed write found) */
#define SOURCES_MAX 3

volatile sig_atomic_t js_stop_requested;
volatile sig_atomic_t js_reopen_requested;

struct js_pipe {
	struct js_run *run;
	const struct js_params *p;
	struct js_outputs *outs;
	struct js_drain d; /* the CPUs, their events and lanes (drain.c) */
	struct js_probes *probes;
	uint64_t attached_at; /* CLOCK_MONOTONIC once the probes were attached */
	struct tsc_cal cal;
	volatile int go, stop;
	struct gap_source src[SOURCES_MAX];
	size_t nsrc;
	bool late_said; /* the notice of a drain that woke JS_NAP_LATE_NS late, once */
	uint64_t window_end;
	struct js_budget_iv iv;	    /* --duration 0 with --budget: the limits per interval */
	struct probe_toggle toggle; /* --probe-toggle */
	const struct pipe_window_hook *hook; /* the command's, around the window; NULL: none */
	uint64_t drained_at;		     /* the last drain's time */
};

/* The events lost since the last drain were written after it (a record is written when its
 * interval ends) and end by now; one may have begun a little before that drain */
#define LOSS_SLACK_NS 1000000ull

/* consume - the probes' records into their CPUs' windows; events about a CPU lost in the
 * kernel since the last drain mark the time since then lost on it (drain_lost) */
static void consume(struct js_pipe *pl)
{
	uint64_t now, from;

	probes_consume(pl->probes, drain_event, &pl->d);
	now = js_mono_ns();
	from = pl->drained_at > LOSS_SLACK_NS ? pl->drained_at - LOSS_SLACK_NS : 0;
	for (size_t i = 0; i < pl->d.n; i++)
		drain_lost(&pl->d, i, probes_lost_on(pl->probes, pl->d.cp[i].cpu), from, now);
	pl->drained_at = now;
}

/* sleep_ns - this thread asleep for @ns (its CPU may go idle) */
static void sleep_ns(uint64_t ns)
{
	struct timespec d = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	nanosleep(&d, NULL);
}

bool pipe_push(struct js_pipe *pl, const struct js_gap *g, const char *label)
{
	return drain_push(&pl->d, g, label);
}

int pipe_result(struct js_pipe *pl, enum js_source src, int cpu)
{
	return drain_result(&pl->d, src, cpu);
}

struct js_run *pipe_run(struct js_pipe *pl)
{
	return pl->run;
}

const struct js_params *pipe_params(const struct js_pipe *pl)
{
	return pl->p;
}

struct js_probes *pipe_probes(struct js_pipe *pl)
{
	return pl->probes;
}

bool pipe_watched(const struct js_pipe *pl, uint32_t cpu)
{
	return cpu < JS_CPUS_MAX && pl->d.cpu_index[cpu] >= 0;
}

void pipe_hold(struct js_pipe *pl, uint64_t since_ns)
{
	pl->d.hold_ns = since_ns;
}

uint64_t pipe_window_start(const struct js_pipe *pl)
{
	return pl->d.window_start;
}

/* sync_outputs - outputs that wait for the events after a gap (the flight recorder) learn
 * how far gaps and events are done, and put their counts into the run */
static void sync_outputs(struct js_pipe *pl, uint64_t done_ns)
{
	outputs_sync(pl->outs, pl->run, done_ns);
}

/* tick_outputs - outputs that work by time (interval logs) learn how far gaps are done */
static void tick_outputs(struct js_pipe *pl, uint64_t done_ns)
{
	outputs_tick(pl->outs, pl->run, done_ns);
}

static void progress(struct js_pipe *pl, uint64_t now, bool final)
{
	char w[32], line[256];
	uint64_t gaps = 0, worst = 0;
	double el = (double)(now - pl->run->start_mono_ns) / 1e9;

	for (size_t i = 0; i < pl->run->ncpus; i++) {
		gaps += pl->run->cpus[i].gap_count;
		worst = JS_MAX(worst, (uint64_t)hist_max(&pl->run->cpus[i].hist));
	}
	if (pl->p->cfg.duration_ns)
		snprintf(line, sizeof(line), "%5.1f/%.0f s", el, pl->p->cfg.duration_ns / 1e9);
	else
		snprintf(line, sizeof(line), "%5.1f s", el);
	fprintf(stderr, "\r[%s] %zu CPU%s: %llu %s, worst %s   %s", line, pl->d.n,
		pl->d.n > 1 ? "s" : "", (unsigned long long)gaps,
		pl->d.spinner || pl->p->follow_pid || pl->p->nfollow_tids ? "gaps" : "marks",
		js_fmt_ns(w, sizeof(w), worst), final ? "\n" : "");
	fflush(stderr);
}

/*
 * heap_reserve - grow the heap once to what attributing a full event window needs (the
 * sorted window, its prefix maxima and correlate's per-gap scratch) and give it back to
 * the allocator: with preflight.c's no-trim, no-mmap malloc settings those transient
 * blocks are then carved from memory that is already there (locked), so memory stays flat
 * after start.
 */
static void heap_reserve(size_t evcap)
{
	size_t bytes = evcap * (sizeof(struct js_event) + 256) + (2u << 20);
	char *p = malloc(bytes);

	if (p) {
		for (size_t i = 0; i < bytes; i += 4096)
			p[i] = 0;
		free(p);
	}
}

/* evcap - the events kept per CPU at first: seconds of them when marks come late; a source's
 * window is a ring its appends go round (drain.c), so the threads' alone is a small one */
static size_t evcap(const struct js_pipe *pl)
{
	if (pl->d.spinner)
		return SCALE_EV_WINDOW_CAP;
	return pl->p->marks_path ? SCALE_EV_KEEP_CAP : SCALE_EV_THREAD_CAP;
}

static int setup(struct js_pipe *pl)
{
	const struct js_params *p = pl->p;
	struct js_run *run = pl->run;
	int err;

	pl->d.run = run;
	pl->d.outs = pl->outs;
	pl->d.spinner = params_spinner(p);
	pl->d.probes = &pl->probes;
	/* --probe-toggle detaches them at times: a gap then has no event for want of probes */
	pl->d.probes_steady = !p->probe_toggle;
	pl->d.fit = &pl->cal.fit;
	pl->d.top = p->cfg.top;
	pl->d.stacks = p->stacks;
	pl->d.stack_spike_ns = p->spike_dir ? p->spike_threshold_ns : 0;
	err = drain_setup(&pl->d, p->cfg.cpus, p->cfg.ncpus, evcap(pl));
	if (err)
		return err;
	for (size_t i = 0; i < pl->d.n; i++) {
		struct cpu_pipe *c = &pl->d.cp[i];

		if (pl->d.spinner) {
			c->res = run_add_result(run, JS_SRC_SAMPLER, c->cpu, p->cfg.top);
			if (c->res < 0)
				return c->res;
		}
		c->lane[JS_SRC_SAMPLER].on = pl->d.spinner;
		c->lane[JS_SRC_THREAD].on = params_follows(p);
		c->lane[JS_SRC_MARK].on = p->marks_path != NULL;
	}
	return 0;
}

/* setup_buffers - the per-CPU gap, record, event and steal buffers, and the sources' */
static int setup_buffers(struct js_pipe *pl)
{
	if (drain_setup_buffers(&pl->d))
		return -ENOMEM;
	/* a run without end checks its limits per --budget-interval (js_budget.h) */
	if (params_budget_intervals(pl->p) && budget_iv_init(&pl->iv, pl->run))
		return -ENOMEM;
	return 0;
}

/* sampler_tgid - whose threads the probes treat as the measured ones: ours (the samplers)
 * or the followed process's; none for marks alone (the application's own task intervals are
 * told apart by the marks: correlate's rule) */
static pid_t sampler_tgid(const struct js_params *p)
{
	if (params_spinner(p))
		return getpid();
	return p->follow_pid;
}

_Static_assert(JS_USER_EVENTS_MAX == JS_USER_SLOTS, "one probe slot per --event");

static void open_probes(struct js_pipe *pl)
{
	const struct js_params *p = pl->p;
	struct probes_user_event user[JS_USER_EVENTS_MAX];
	struct follow_opts fo;
	struct probes_opts o = {
		.cpus = p->cfg.cpus,
		.ncpus = p->cfg.ncpus,
		.sampler_tgid = sampler_tgid(p),
		.ring_bytes = scale_probe_ring_bytes(p->cfg.ncpus),
		.verbose = p->verbose > 1,
		.prog_stats = p->probe_cost,
		.btf_path = p->btf_path,
		/* the followed threads' own softirqs explain no thread's gap: not sent, and
		 * with --marks logged for the marks that overlap them */
		.follow = params_follows(p) ? &fo : NULL,
		.own_bh_unsent = params_follows(p),
		.own_bh_log = params_follows(p) && p->marks_path,
		.no_waker = p->no_waker,
		/* ... and, watched alone, only what happens on a CPU while one holds it (a
		 * marked iteration may span the time it sleeps in a system call) */
		.held_only = params_follows(p),
		.lean = p->cfg.probes_lean,
		.stacks = p->stacks,
		.user = user,
		.nuser = p->cfg.nevents,
	};
	char why[256] = "";

	/* the threads' maps are the probes': sized, and set as follow.bpf.c's are */
	threads_follow_opts(p, &fo);
	for (size_t i = 0; i < p->cfg.nevents; i++) {
		user[i].open = p->cfg.events[i].open;
		user[i].close = p->cfg.events[i].close[0] ? p->cfg.events[i].close : NULL;
	}

	if (p->cfg.no_probes) {
		snprintf(pl->run->probes_why, sizeof(pl->run->probes_why), "--no-probes");
		return;
	}
	if (js_stop_requested) { /* stopped during the audit: no load (nor attach) */
		snprintf(pl->run->probes_why, sizeof(pl->run->probes_why),
			 "interrupted before loading");
		return;
	}
	if (probes_open_load(&pl->probes, &o, why, sizeof(why)) < 0) {
		pl->probes = NULL;
		js_scpy(pl->run->probes_why, sizeof(pl->run->probes_why), why);
		js_notice("eBPF probes unavailable (%s): measuring gaps without attribution", why);
		return;
	}
	pl->run->probes_on = true;
	/* --tid: the followed threads are the measured ones (--pid: every one of the tgid) */
	for (size_t i = 0; i < p->nfollow_tids; i++)
		probes_add_sampler_tid(pl->probes, -1, p->follow_tids[i]);
	/* once, for the correlator now and the outputs at the end (run_sym) */
	if (ksyms_load(&pl->run->ksyms) < 0)
		pl->run->ksyms = NULL;
	/* kernel symbols named through a small cache per drain thread (drain_sym): the same
	 * few callbacks (tick, work items, IPI functions) are named in gap after gap */
	pl->d.copts.sym = drain_sym;
	pl->d.copts.self_pid = (uint32_t)getpid();
	pl->d.copts.events = p->cfg.events; /* --event: its records' details */
	pl->d.copts.nevents = p->cfg.nevents;
	/* the tasks' cgroups: the v2 hierarchy walked now, again on a miss */
	pl->run->cgroups = cgroups_open(NULL);
	pl->d.copts.cgname = cgroups_resolve_name;
	pl->d.copts.cg_ctx = pl->run->cgroups;
	/* the samplers' faults are in our cgroup; a followed application's in its own,
	 * which its parts name as any task's */
	pl->d.copts.self_cgroup = pl->d.spinner ? cgroups_self(pl->run->cgroups) : 0;
	pl->d.copts.app = !pl->d.spinner;
	pl->d.mopts = pl->d.copts;
	pl->d.mopts.marked = true;
	for (size_t i = 0; i < pl->run->ncpus; i++)
		pl->run->cpus[i].cgroups = pl->run->cgroups;
}

static void open_smi(struct js_pipe *pl)
{
	char why[128] = "";

	pl->run->smi_countable = true;
	for (size_t i = 0; i < pl->d.n; i++) {
		struct cpu_pipe *c = &pl->d.cp[i];

		if (smi_open(c->cpu, &c->smi, why, sizeof(why)) == 0 &&
		    smi_read(&c->smi, &c->smi_start) == 0) {
			c->smi_ok = true;
		} else {
			pl->run->smi_countable = false;
			js_scpy(pl->run->smi_why, sizeof(pl->run->smi_why), why);
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

/* auto_threshold - --threshold auto: each CPU's choice from its trial (js_threshold.h); the
 * run takes the largest, so that no CPU overloads housekeeping, and tells a raised floor */
static void auto_threshold(struct js_pipe *pl)
{
	struct js_run_cfg *rc = &pl->run->cfg;
	double max_rate = thr_auto_max_rate(pl->d.n, pl->p->ring_entries, JS_NAP_BASE_NS);
	double ns_per_cycle = pl->cal.fit.ns_per_cycle;
	uint64_t cand_ns[JS_THR_AUTO_STEPS], cyc;
	char a[32], b[32];

	rc->threshold_ns = 0;
	for (size_t i = 0; i < pl->d.n; i++) {
		const struct sampler *s = &pl->d.cp[i].s;
		struct js_thr_auto t = { .cpu = s->cfg.cpu };

		for (unsigned k = 0; k < JS_THR_AUTO_STEPS; k++)
			cand_ns[k] = (uint64_t)(s->trial_cand[k] * ns_per_cycle + 0.5);
		t.loop_min_ns = s->loop_min_cycles * ns_per_cycle;
		if (thr_auto_choose(cand_ns, s->trial_counts, JS_THR_AUTO_STEPS,
				    s->trial_span * ns_per_cycle / 1e9, max_rate,
				    &t) > rc->threshold_ns) {
			rc->threshold_ns = t.chosen_ns;
			rc->thr_auto = t;
		}
	}
	if (!rc->threshold_ns)
		rc->threshold_ns = rc->thr_auto.chosen_ns = 1;
	cyc = cycles(&pl->cal.fit, rc->threshold_ns);
	for (size_t i = 0; i < pl->d.n; i++)
		pl->d.cp[i].s.cfg.threshold_cycles = cyc;
	if (rc->thr_auto.raised_because[0])
		js_notice("CPU %d: --threshold auto raised the floor from %s to %s: %s",
			  rc->thr_auto.cpu, js_fmt_ns(a, sizeof(a), rc->thr_auto.floor_ns),
			  js_fmt_ns(b, sizeof(b), rc->threshold_ns), rc->thr_auto.raised_because);
}

/* check_load - many CPUs at a threshold they chose: whether one housekeeping thread keeps
 * up with the gaps their trial counted (the busiest CPU's rate taken for every one), said
 * before measuring, with the threshold that would fit; the samplers' rings drop (and count)
 * what it cannot drain */
static bool worst_load(const struct js_pipe *pl, struct scale_load *worst);

static void check_load(struct js_pipe *pl)
{
	struct scale_load worst;
	char a[32], b[32];

	if (!worst_load(pl, &worst) || worst.keeps_up) /* no trial: nothing to say */
		return;
	if (worst.suggest_ns)
		snprintf(b, sizeof(b), "raise --threshold to %s",
			 js_fmt_ns(a, sizeof(a), worst.suggest_ns));
	else
		snprintf(b, sizeof(b), "measure fewer CPUs");
	js_warn("%zu CPUs at up to %.0f gaps/s each (trial) need about %.0f %% of the "
		"housekeeping thread's core, which keeps up with %.0f gaps/s per CPU: %s; what "
		"it cannot drain is dropped from the rings and reported",
		pl->d.n, worst.rate, worst.core_pct, worst.max_rate, b);
}

/* worst_load - the load of the busiest CPU's trial at the run's threshold; false: no trial */
static bool worst_load(const struct js_pipe *pl, struct scale_load *worst)
{
	double ns_per_cycle = pl->cal.fit.ns_per_cycle;
	uint64_t cand_ns[JS_THR_AUTO_STEPS];
	struct scale_load l;
	bool any = false;

	*worst = (struct scale_load){ .keeps_up = true };
	for (size_t i = 0; i < pl->d.n; i++) {
		const struct sampler *s = &pl->d.cp[i].s;

		for (unsigned k = 0; k < JS_THR_AUTO_STEPS; k++)
			cand_ns[k] = (uint64_t)(s->trial_cand[k] * ns_per_cycle + 0.5);
		if (!scale_load(pl->d.n, pl->run->cfg.threshold_ns, cand_ns, s->trial_counts,
				JS_THR_AUTO_STEPS, s->trial_span * ns_per_cycle / 1e9, &l) &&
		    l.rate >= worst->rate) {
			*worst = l;
			any = true;
		}
	}
	return any;
}

/*
 * start_drain_threads - the samplers' CPUs split among drain threads (scale_split):
 * --drain-threads N, or one per K CPUs at the busiest CPU's trial rate at the threshold,
 * at most one per housekeeping CPU; without a trial (fewer CPUs than an untuned rate would
 * overload one thread with: scale_trial_wanted, and a fixed threshold) one. Threads that do
 * not start leave the main thread draining every shard in turn.
 */
static void start_drain_threads(struct js_pipe *pl)
{
	struct scale_load worst;
	size_t count[SCALE_SHARDS_MAX], t, nhk = 1;
	cpu_set_t hk;
	double rate = 0; /* no trial: one thread */
	char why[64];
	int err;

	if (!pl->d.spinner)
		return;
	if (!sched_getaffinity(0, sizeof(hk), &hk))
		nhk = (size_t)CPU_COUNT(&hk);
	if (pl->d.cp[0].s.cfg.trial_cycles && worst_load(pl, &worst))
		rate = worst.rate;
	t = scale_split(pl->d.n, rate, nhk, pl->p->drain_threads, count);
	if (t <= 1)
		return;
	err = drain_shard(&pl->d, count, t);
	if (!err)
		err = drain_threads_start(&pl->d);
	if (err) {
		js_warn("cannot start %zu drain threads (%s): one thread drains the shards in turn",
			t, strerror(-err));
		return;
	}
	if (pl->p->drain_threads)
		snprintf(why, sizeof(why), "--drain-threads");
	else
		snprintf(why, sizeof(why), "%.0f gaps/s each in the trial", rate);
	js_notice("%zu drain threads for %zu CPUs (%s): %zu CPUs each, the main thread's %zu", t,
		  pl->d.n, why, count[1], count[0]);
}

/* drain_thread_gaps - what each drain thread attributed, when there were several */
static void drain_thread_gaps(const struct js_pipe *pl)
{
	for (size_t k = 0; pl->d.nsh > 1 && k < pl->d.nsh; k++)
		js_notice("drain thread %zu: %zu CPUs, %llu gaps attributed", k, pl->d.sh[k].n,
			  (unsigned long long)pl->d.sh[k].gaps);
}

/* state_memory - what a run of many CPUs takes, said before measuring (all of it locked) */
static void state_memory(struct js_pipe *pl)
{
	long nall = sysconf(_SC_NPROCESSORS_CONF);
	struct scale_mem m;

	if (pl->d.n <= SCALE_STATE_CPUS || !pl->d.spinner)
		return;
	scale_mem(&m, pl->d.n, nall > 0 ? (size_t)nall : pl->d.n, pl->p->ring_entries);
	if (!pl->probes) { /* no probe rings */
		m.per_cpu -= m.probe_ring;
		m.total -= m.probe_ring * pl->d.n + m.send_rings;
		m.probe_ring = m.send_rings = 0;
	}
	js_notice("%zu CPUs: about %.1f MiB each (gap ring %.2f, probe ring %.2f, event window "
		  "and lane %.2f) and %.1f MiB of the other CPUs' rings, %.0f MiB in all, locked",
		  pl->d.n, m.per_cpu / 1048576.0, m.gap_ring / 1048576.0, m.probe_ring / 1048576.0,
		  m.drain / 1048576.0, m.send_rings / 1048576.0, m.total / 1048576.0);
}

static int start_samplers(struct js_pipe *pl)
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
	for (size_t i = 0; i < pl->d.n; i++) {
		struct sampler_cfg cfg = {
			.cpu = p->cfg.cpus[i],
			.policy = p->cfg.policy,
			.priority = p->cfg.priority,
			.threshold_cycles = cycles(&pl->cal.fit, p->cfg.threshold_ns),
			.warmup_cycles = cycles(&pl->cal.fit, p->cfg.warmup_ns),
			.duration_cycles = cycles(&pl->cal.fit, p->cfg.duration_ns),
			.trial_cycles = p->cfg.threshold_auto || scale_trial_wanted(pl->d.n) ?
						cycles(&pl->cal.fit, JS_THR_AUTO_TRIAL_NS) :
						0,
			.ring_entries = p->ring_entries,
			.read = p->cfg.tsc_read,
			.hook = p->cfg.test_hook,
			.hook_stall_cycles = cycles(&pl->cal.fit, SAMPLER_HOOK_STALL_NS),
			.go = &pl->go,
			.stop = &pl->stop,
		};
		int err = sampler_start(&pl->d.cp[i].s, &cfg);

		if (err) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			js_err("%s", pl->d.cp[i].s.errmsg);
			return err;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (size_t i = 0; i < pl->d.n; i++) {
		struct sampler *s = &pl->d.cp[i].s;
		int err = sampler_wait_ready(s);
		struct js_cpu_result *r;

		if (err) {
			js_err("%s", s->errmsg);
			return err;
		}
		r = &pl->run->cpus[pl->d.cp[i].res];

		r->node = s->node;
		r->loop_ns_min = s->loop_min_cycles * 1000.0 / per_us;
		r->loop_ns_median = s->loop_median_cycles * 1000.0 / per_us;
		exit_cost(r, &s->vmexit, 1000.0 / per_us);
		if (pl->probes)
			probes_add_sampler_tid(pl->probes, s->cfg.cpu, s->tid);
	}
	if (p->cfg.threshold_auto)
		auto_threshold(pl);
	else if (pl->d.n && pl->d.cp[0].s.cfg.trial_cycles)
		check_load(pl);
	return 0;
}

/* measuring - the window is open: a sampler still measures; without samplers, until the
 * duration, a stop signal, a failed output or a source that ended the run */
static bool measuring(struct js_pipe *pl, uint64_t now)
{
	const uint64_t d = pl->p->cfg.duration_ns;

	if (!pl->d.spinner)
		return !pl->stop && (!d || now < pl->d.window_start + d);
	for (size_t i = 0; i < pl->d.n; i++)
		if (__atomic_load_n(&pl->d.cp[i].s.state, __ATOMIC_ACQUIRE) != SAMPLER_DONE)
			return true;
	return false;
}

/* stop_early - end the run now, as a stop signal would, for by (enum js_end); why (if any)
 * goes into the report */
static void stop_early(struct js_pipe *pl, const char *why, enum js_end by)
{
	__atomic_store_n(&pl->stop, 1, __ATOMIC_RELEASE);
	pl->run->interrupted = true;
	pl->run->ended_by = by;
	if (why && !pl->run->stop_why[0])
		js_scpy(pl->run->stop_why, sizeof(pl->run->stop_why), why);
}

/* check_outputs - a streaming output whose write failed stops the run (at once: what was
 * measured is reported, every other output is still written); flushed every FLUSH_PERIOD */
static void check_outputs(struct js_pipe *pl, bool flush)
{
	char why[JS_STOP_WHY_LEN];

	if (outputs_check(pl->outs, flush, why, sizeof(why)) && !pl->stop)
		stop_early(pl, why, JS_END_OUTPUT);
	/* the --on-spike command exited 99: ended as by Ctrl-C, with its why */
	if (pl->run->end_asked[0] && !pl->stop)
		stop_early(pl, pl->run->end_asked, JS_END_ON_SPIKE);
}

/* open_window - the sources' results measure from start_ns (the samplers' from their own
 * start, after the warm-up) */
static void open_window(struct js_pipe *pl, uint64_t start_ns)
{
	pl->d.window_start = start_ns;
	pl->d.now = start_ns;
	for (size_t i = 0; i < pl->run->ncpus; i++) {
		struct js_cpu_result *r = &pl->run->cpus[i];

		if (r->source != JS_SRC_SAMPLER && !r->started &&
		    result_cpu_start(r, start_ns, &pl->run->cfg))
			js_warn("cannot allocate the per-second and arrival models");
	}
}

/* measure - the drain loop, from go until every sampler is done (or the window closes) */
/* cal_add - one more calibration pair, the TSC read as every read of the run */
static void cal_add(struct js_pipe *pl, int tries)
{
	tsc_cal_add(&pl->cal, tsc_pair_read(tries, pl->p->cfg.tsc_read));
}

/* refit - the calibration fitted again with its pairs so far, and published in the run (what
 * outputs written during the run read: a spike's trace, js_run's fit) */
static int refit(struct js_pipe *pl)
{
	int err = tsc_cal_refit(&pl->cal);

	pl->run->fit = pl->cal.fit;
	return err;
}

/* next_nap - js_nap_next() from what this drain found: the samplers' rings by the gaps
 * popped, the probes' by their fullest ring, the sources' by theirs */
static uint64_t next_nap(const struct js_pipe *pl, uint64_t nap)
{
	struct js_nap_fill f = {
		.gaps = pl->d.popped,
		.ring_entries = pl->p->ring_entries,
		.hook = pl->p->cfg.test_hook != SAMPLER_HOOK_NONE,
	};
	size_t used, size;

	probes_fill(pl->probes, &f.ev_bytes, &f.ev_ring_bytes);
	for (size_t i = 0; i < pl->nsrc; i++) {
		f.src_base |= pl->src[i].base_nap;
		if (!pl->src[i].fill)
			continue;
		pl->src[i].fill(pl->src[i].ctx, &used, &size);
		/* the fullest by share: used/size against src_bytes/src_ring_bytes (rings of
		 * MiBs: the products fit) */
		if (!f.src_ring_bytes ||
		    (uint64_t)used * f.src_ring_bytes > (uint64_t)f.src_bytes * size) {
			f.src_bytes = used;
			f.src_ring_bytes = size;
		}
	}
	return js_nap_next(nap, &f);
}

/* woke - a sleep of nap that lasted asleep ns: one notice, the first time one ends over
 * JS_NAP_LATE_NS late (docs/ROBUSTNESS.md, "A starved housekeeping thread") */
static void woke(struct js_pipe *pl, uint64_t nap, uint64_t asleep)
{
	uint64_t late = js_nap_late(nap, asleep);
	char a[32], b[32];

	if (!late || pl->late_said)
		return;
	pl->late_said = true;
	js_notice("the housekeeping thread woke %s after a %s sleep: it got no CPU meanwhile "
		  "(its CPUs busy while it runs at idle priority, or the machine paused); records "
		  "may be lost: give it a CPU with idle time (-H)",
		  js_fmt_ns(a, sizeof(a), asleep), js_fmt_ns(b, sizeof(b), nap));
}

/* toggle_probes - --probe-toggle's way to the probes */
static int toggle_probes(void *ctx, bool on)
{
	return probes_set_attached(ctx, on);
}

static void measure(struct js_pipe *pl)
{
	const struct js_params *p = pl->p;
	bool show = !p->quiet && !p->no_progress && isatty(2);
	uint64_t next_fit, next_progress, next_flush, next_budget, now;
	uint64_t budget_ns = p->budget_interval_ns ? p->budget_interval_ns :
						     JS_DEFAULT_BUDGET_INTERVAL_NS;
	uint64_t nap = JS_NAP_BASE_NS;
	struct timespec ts;

	pl->run->start_mono_ns = js_mono_ns();
	clock_gettime(CLOCK_REALTIME, &ts);
	pl->run->start_epoch_s = ts.tv_sec + ts.tv_nsec / 1e9;
	outputs_run_start(pl->outs, pl->run);
	if (js_stop_requested)
		stop_early(pl, NULL, JS_END_SIGNAL); /* stopped while setting up: an empty window */
	__atomic_store_n(&pl->go, 1, __ATOMIC_RELEASE);
	open_window(pl, pl->run->start_mono_ns);
	next_fit = pl->run->start_mono_ns + FIT_PERIOD_NS;
	next_progress = pl->run->start_mono_ns + 1000000000ull;
	next_flush = pl->run->start_mono_ns + FLUSH_PERIOD_NS;
	next_budget = pl->run->start_mono_ns + budget_ns;
	while (measuring(pl, (now = js_mono_ns()))) {
		sleep_ns(nap);
		if (js_stop_requested && !pl->stop)
			stop_early(pl, NULL, JS_END_SIGNAL);
		woke(pl, nap, js_mono_ns() - now);
		now = pl->d.now = js_mono_ns();
		if (pl->probes) {
			consume(pl);
			/* --probe-toggle only; none once the samplers are done: the nap may end
			 * after the measuring window */
			if (measuring(pl, now))
				probe_toggle_tick(&pl->toggle, toggle_probes, pl->probes, now);
		}
		for (size_t i = 0; i < pl->nsrc; i++)
			if (pl->src[i].poll(pl->src[i].ctx, pl, now) && !pl->stop) {
				__atomic_store_n(&pl->stop, 1, __ATOMIC_RELEASE); /* ended */
				pl->run->ended_by = JS_END_EXIT;
			}
		if (now >= next_fit) {
			cal_add(pl, 32);
			refit(pl);
			next_fit = now + FIT_PERIOD_NS;
		}
		for (size_t i = 0; pl->d.spinner && i < pl->d.n; i++)
			sampler_hook_tick(&pl->d.cp[i].s, pl->run); /* --test-hook only */
		drain_run(&pl->d, now - PROCESS_LAG_NS);
		nap = next_nap(pl, nap);
		if (js_reopen_requested) {
			js_reopen_requested = 0;
			outputs_reopen(pl->outs);
		}
		/* a run without end never ends on a limit: each interval's violations are
		 * counted (what was accounted by now - PROCESS_LAG_NS) */
		if (pl->iv.on && now >= next_budget) {
			budget_iv_close(&pl->iv, &p->budget, pl->run, pl->run->budget_viol);
			next_budget = now + budget_ns;
		}
		tick_outputs(pl, now - PROCESS_LAG_NS);
		check_outputs(pl, now >= next_flush);
		if (now >= next_flush)
			next_flush = now + FLUSH_PERIOD_NS;
		if (show && now >= next_progress) {
			progress(pl, now, false);
			next_progress += 1000000000ull;
		}
	}
	pl->window_end = js_mono_ns();
	if (!pl->run->ended_by)
		pl->run->ended_by = JS_END_DURATION;
	if (show)
		progress(pl, pl->window_end, true);
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
		js_scpy(o->name, sizeof(o->name), pp->name);
		o->runs = pp->run_cnt;
		o->run_ns = pp->run_time_ns;
		run->probe_runs += pp->run_cnt;
		run->probe_run_ns += pp->run_time_ns;
	}
	qsort(run->probe_progs, run->nprobe_progs, sizeof(run->probe_progs[0]), prog_cost_cmp);
}

/* finish_result_smi - close r, then the counter's delta (read at start and end only: a read
 * may IPI the CPU) goes to the largest gaps no event explains, among the worst */
static void finish_result_smi(struct js_cpu_result *r, const struct js_cpu_end *end)
{
	result_cpu_finish(r, end);
	if (r->smi)
		corr_smi_allocate(r->top.v, r->top.n, r->smi);
}

/* finish_results - close every result: a sampler's where it stopped measuring, a thread's
 * where it exited or the window closed, the marks' where the window closed; a CPU's SMI
 * count goes to its sampler's or marks' gaps (a thread's gaps end at tracepoints, inside
 * which an SMI does not fall) */
static void finish_results(struct js_pipe *pl)
{
	struct js_run *run = pl->run;

	for (size_t i = 0; i < pl->d.n; i++) {
		struct cpu_pipe *c = &pl->d.cp[i];
		uint64_t smi = 0, smi_end;

		if (c->smi_ok && smi_read(&c->smi, &smi_end) == 0)
			smi = smi_end - c->smi_start;
		if (c->res >= 0) {
			struct js_cpu_end end = {
				.end_ns = tsc_to_ns(&run->fit, c->s.end_tsc),
				.iterations = c->s.iterations,
				.dropped = c->s.dropped,
				.smi = smi,
			};

			if (!run->cpus[c->res].started)
				drain_start_result(&pl->d, c);
			finish_result_smi(&run->cpus[c->res], &end);
		}
		if (c->mark_res >= 0)
			finish_result_smi(&run->cpus[c->mark_res],
					  &(struct js_cpu_end){ .end_ns = pl->window_end,
								.smi = smi });
		run->probe_evicted += c->ev_evicted;
		run->probe_shed += c->ev_shed;
		if (c->ev_evicted > c->ev_shed)
			js_warn("CPU %d: %llu events evicted before their gap was seen (%llu of "
				"them other tasks' page faults, which hold no time)",
				c->cpu, (unsigned long long)c->ev_evicted,
				(unsigned long long)c->ev_shed);
		else if (c->ev_evicted)
			js_warn("CPU %d: %llu page faults of other tasks dropped before their gap "
				"was seen (a full window; their tasks' time is still named)",
				c->cpu, (unsigned long long)c->ev_evicted);
	}
	for (size_t i = 0; i < run->ncpus; i++) {
		struct js_cpu_result *r = &run->cpus[i];

		if (r->source != JS_SRC_THREAD)
			continue;
		if (!r->started)
			result_cpu_start(r, pl->d.window_start, &run->cfg);
		result_cpu_finish(r,
				  &(struct js_cpu_end){
					  .end_ns = r->ts.exited && r->ts.exit_ns ?
							    JS_MIN(r->ts.exit_ns, pl->window_end) :
							    pl->window_end });
	}
}

/* finish - detach, last consume, attribute everything left, fill the result */
static void finish(struct js_pipe *pl)
{
	struct js_run *run = pl->run;
	struct probes_stats st;

	for (size_t i = 0; pl->d.spinner && i < pl->d.n; i++) {
		sampler_join(&pl->d.cp[i].s);
		sampler_hook_end(&pl->d.cp[i].s, run); /* --test-hook only */
	}
	for (size_t i = 0; i < pl->nsrc; i++)
		pl->src[i].stop(pl->src[i].ctx, pl, pl->window_end);
	if (pl->hook && pl->hook->closed)
		pl->hook->closed(pl->hook->ctx); /* before the detach's IPIs */
	if (pl->probes) {
		run->probe_attached_ns = js_mono_ns() - pl->attached_at;
		probes_detach(pl->probes);
		consume(pl);
		if (probes_stats(pl->probes, &st) == 0) {
			run->probe_lost = st.lost;
			run->probe_unseen = st.sched_mismatch;
			run->probes_waker = st.waker;
			run->probes_stacks = st.stacks;
			run->stack_full = st.stack_full;
			run->stack_fail = st.stack_fail;
			probe_cost(run, &st);
		}
	}
	cal_add(pl, 64);
	refit(pl);
	pl->d.now = UINT64_MAX;
	drain_run(&pl->d, UINT64_MAX);
	sync_outputs(pl, UINT64_MAX); /* every event is in: what waited is written now */
	run->wall_ns = js_mono_ns() - run->start_mono_ns;
	finish_results(pl);
}

static void teardown(struct js_pipe *pl)
{
	for (size_t i = 0; i < pl->nsrc; i++)
		pl->src[i].destroy(pl->src[i].ctx);
	probes_destroy(pl->probes);
	probe_toggle_close(&pl->toggle);
	for (size_t i = 0; pl->d.cp && i < pl->d.n; i++) {
		struct cpu_pipe *c = &pl->d.cp[i];

		if (c->smi_ok)
			smi_close(&c->smi);
		if (pl->d.spinner)
			sampler_free(&c->s);
	}
	drain_threads_stop(&pl->d);
	drain_free(&pl->d);
	budget_iv_free(&pl->iv);
}

/* open_toggle - --probe-toggle's log, before anything is measured; < 0 after one line */
static int open_toggle(struct js_pipe *pl)
{
	const char *path = pl->p->probe_toggle;
	int err;

	if (!path)
		return 0;
	err = probe_toggle_open(&pl->toggle, path, (uint64_t)getpid() ^ js_mono_ns());
	if (err)
		js_err("cannot write --probe-toggle file '%s': %s", path, strerror(-err));
	return err;
}

/* open_sources - the gap sources the command handed in, in order; those opened count in
 * nsrc (teardown destroys them); < 0 after one line */
static int open_sources(struct js_pipe *pl, const struct gap_source *srcs, size_t n)
{
	for (size_t i = 0; i < n && i < SOURCES_MAX; i++) {
		int err;

		pl->src[pl->nsrc] = srcs[i];
		err = pl->src[pl->nsrc].open(&pl->src[pl->nsrc], pl);
		if (err)
			return err;
		pl->nsrc++;
	}
	return 0;
}

/* start_sources - once the probes are attached; < 0 after one line */
static int start_sources(struct js_pipe *pl)
{
	for (size_t i = 0; i < pl->nsrc; i++) {
		int err = pl->src[i].start ? pl->src[i].start(pl->src[i].ctx, pl) : 0;

		if (err)
			return err;
	}
	return 0;
}

int pipeline_run(struct js_run *run, const struct js_params *p, struct js_outputs *outs,
		 const struct gap_source *srcs, size_t nsrcs, const struct pipe_window_hook *hook)
{
	struct js_pipe pl = { .run = run, .p = p, .outs = outs, .hook = hook };
	int err;

	run->cfg = p->cfg;
	err = setup(&pl);
	if (err) {
		js_err("cannot allocate the measurement's buffers: %s", strerror(-err));
		goto out;
	}
	/* pairs spread over the set-up time give the first fit its span */
	cal_add(&pl, 64);
	err = open_toggle(&pl);
	if (err)
		goto out;
	preflight_clock_notice(p);
	open_probes(&pl);
	if (!pl.d.spinner && !pl.probes && params_follows(p)) {
		js_err("--pid and --tid need the eBPF probes (%s)", run->probes_why);
		err = -ENOTSUP;
		goto out;
	}
	if (p->probe_toggle && !pl.probes)
		js_warn("--probe-toggle: no probes to toggle (%s)", run->probes_why);
	err = open_sources(&pl, srcs, nsrcs);
	if (err)
		goto out;
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
	heap_reserve(evcap(&pl));
	state_memory(&pl);
	sleep_ns(50000000ull);
	cal_add(&pl, 64);
	err = refit(&pl);
	if (err) {
		js_err("cannot calibrate the TSC against CLOCK_MONOTONIC");
		goto out;
	}
	/* what reading each clock costs bounds every figure (measured here, on housekeeping) */
	clockcost_measure(&run->clock, pl.cal.fit.hz, tsc_rdtscp_usable());
	/* this thread drains the rings and the events while measuring; it keeps the process's
	 * name (pidof, killall), and the correlator names it JS_THREAD_DRAIN (copts.self_pid) */
	err = pl.d.spinner ? start_samplers(&pl) : 0;
	if (err)
		goto out_stop;
	start_drain_threads(&pl);
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
		pl.attached_at = pl.drained_at = js_mono_ns();
	}
	/* a source attaches its own programs now too (the threads'); it may refuse */
	err = start_sources(&pl);
	if (err)
		goto out_stop;
	if (pl.probes) {
		/* attaching kept this CPU busy (text poking IPIs every CPU): tasks woken meanwhile
		 * (the RCU kthread, kworkers) were placed on a measured CPU and wait there. Asleep,
		 * this CPU goes idle and the scheduler pulls them over, with a reschedule IPI to the
		 * measured CPU: before the window opens, not in its first milliseconds */
		sleep_ns(SETTLE_NS);
	}
	cal_add(&pl, 64);
	refit(&pl);
	if (hook && hook->opened)
		hook->opened(hook->ctx);
	measure(&pl);
	finish(&pl);
	drain_thread_gaps(&pl);
	/* the last, partial interval, on the CPUs' final numbers (before the outputs) */
	if (pl.iv.on)
		budget_iv_close(&pl.iv, &p->budget, run, run->budget_viol);
	goto out;
out_stop:
	__atomic_store_n(&pl.stop, 1, __ATOMIC_RELEASE);
	for (size_t i = 0; pl.d.spinner && i < pl.d.n; i++)
		sampler_join(&pl.d.cp[i].s);
out:
	teardown(&pl);
	return err;
}
