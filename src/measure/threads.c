// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * threads.c - the gap source of the threads followed with --pid or --tid (js_source.h).
 *
 * bpf/follow.bpf.c (through follow.c) says when each followed thread was kept from running
 * its own code: preempted, interrupted, blocked outside a system call. Each such gap goes to
 * the pipeline on the CPU where the thread lost it, where the probes recorded what ran
 * instead; each thread has a result of its own (the first JS_THREADS_MAX; later ones share
 * "(other threads)"), with its own activity (system calls, sleeps, faults, migrations) from
 * the programs' counts. The run ends when the followed process exits (--pid), or every
 * followed thread (--tid): the programs send that exit; every LIVE_CHECK_NS the process
 * (its pidfd) or the threads (/proc) are also looked at, for an exit no program saw (before
 * they were attached, or its record lost). A command started with -- CMD is followed as
 * --pid's process, and the processes it starts with it (their threads, results of their own).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "js_follow.h"
#include "js_probes.h"
#include "js_source.h"
#include "js_tasks.h"
#include "js_util.h"

#define OVER_MAX 4096		       /* threads beyond the cap told apart (their count) */
#define HOLD_SCAN_NS 25000000ull       /* the open gaps read back this often (pipe_hold) */
#define HOLD_SCAN_MANY_NS 100000000ull /* ... with more threads than results */
#define LIVE_CHECK_NS 100000000ull     /* an exit no program saw, looked for this often */

struct thr {
	uint32_t tid;
	int res;
	uint64_t lost_on[64];	    /* its gap time per CPU: its result's CPU */
	uint64_t own_bh, own_bh_ns; /* its own softirqs up to its last gap (the record's) */
};

struct threads_src {
	struct js_pipe *pl;
	struct js_follow *f;
	struct js_follow_info *info;
	struct thr v[JS_THREADS_MAX];
	size_t n;
	int other;		 /* the result "(other threads)", -1 until needed */
	uint32_t over[OVER_MAX]; /* the threads in it */
	size_t nover;
	size_t alive;  /* --tid: the threads named still alive */
	bool gone;     /* the process (every thread named) exited */
	uint64_t held; /* the last pipe_hold */
	int pidfd;     /* --pid: process_watch(), or -errno (then /proc) */
	uint64_t live; /* the last look for an exit no program saw */
};

/* stats_of - the programs' counts of a thread into its result's figures */
static void stats_of(struct js_thread_stats *s, const struct js_follow_counts *c)
{
	s->syscalls = c->syscalls;
	s->syscall_ns = c->syscall_ns;
	s->sleeps = c->sleeps;
	s->sleep_ns = c->sleep_ns;
	s->yields = c->yields;
	s->preempted = c->preempted;
	s->preempted_ns = c->preempted_ns;
	s->interrupted = c->interrupted;
	s->interrupted_ns = c->interrupted_ns;
	s->own_bh = c->own_bh;
	s->own_bh_ns = c->own_bh_ns;
	s->blocked = c->blocked;
	s->blocked_ns = c->blocked_ns;
	s->faults = c->faults;
	s->migrations = c->migrations;
	s->unseen_switches = c->unseen;
	s->short_gaps = c->short_gaps;
	s->short_ns = c->short_ns;
	s->cpus_mask = c->cpus_mask;
}

/* stats_add - the counts of one more thread into "(other threads)" */
static void stats_add(struct js_thread_stats *s, const struct js_follow_counts *c)
{
	struct js_thread_stats t;
	uint64_t *a = &s->syscalls;
	const uint64_t *b = &t.syscalls;

	stats_of(&t, c);
	/* every counter but the CPU mask is a sum: syscalls .. short_ns in order */
	for (size_t i = 0; &a[i] <= &s->short_ns; i++)
		a[i] += b[i];
	s->cpus_mask |= t.cpus_mask;
}

/* first_cpu - the first watched CPU: a result's CPU until its gaps say better */
static int first_cpu(struct threads_src *ts)
{
	return pipe_params(ts->pl)->cfg.cpus[0];
}

/* other - the shared result of the threads beyond JS_THREADS_MAX (counted once each) */
static int other(struct threads_src *ts, uint32_t tid)
{
	struct js_cpu_result *r;
	size_t i;

	for (i = 0; i < ts->nover && ts->over[i] != tid; i++)
		;
	if (i == ts->nover && ts->nover < OVER_MAX)
		ts->over[ts->nover++] = tid;
	if (ts->other >= 0)
		return ts->other;
	ts->other = pipe_result(ts->pl, JS_SRC_THREAD, first_cpu(ts));
	if (ts->other < 0)
		return -1;
	r = &pipe_run(ts->pl)->cpus[ts->other];
	r->node = -1;
	snprintf(r->name, sizeof(r->name), "(other threads)");
	return ts->other;
}

/* thread_of - the record of tid (its result made on first sight, named comm:tid); NULL when
 * it shares "(other threads)" (its result then in *res) or out of memory (*res < 0) */
static struct thr *thread_of(struct threads_src *ts, uint32_t tid, const char *comm, int *res)
{
	struct js_cpu_result *r;

	for (size_t i = 0; i < ts->n; i++)
		if (ts->v[i].tid == tid) {
			*res = ts->v[i].res;
			return &ts->v[i];
		}
	if (ts->n == JS_THREADS_MAX) {
		*res = other(ts, tid);
		return NULL;
	}
	*res = pipe_result(ts->pl, JS_SRC_THREAD, first_cpu(ts));
	if (*res < 0)
		return NULL;
	r = &pipe_run(ts->pl)->cpus[*res];
	r->tid = tid;
	r->node = -1;
	snprintf(r->name, sizeof(r->name), "%.*s:%u", JS_COMM_MAX, comm, tid);
	ts->v[ts->n] = (struct thr){ .tid = tid, .res = *res };
	return &ts->v[ts->n++];
}

/* named - is tid one of the --tid threads */
static bool named(const struct threads_src *ts, uint32_t tid)
{
	const struct js_params *p = pipe_params(ts->pl);

	for (size_t i = 0; i < p->nfollow_tids; i++)
		if ((uint32_t)p->follow_tids[i] == tid)
			return true;
	return false;
}

/* counts - a thread's final counts (it exited, or the run ended) into its result */
static void counts(struct threads_src *ts, uint32_t tid, const char *comm,
		   const struct js_follow_counts *c, bool exited, uint64_t exit_ns)
{
	int res;
	struct thr *t = thread_of(ts, tid, comm, &res);
	struct js_cpu_result *r;

	if (res < 0)
		return;
	r = &pipe_run(ts->pl)->cpus[res];
	r->ts.syscalls_traced = follow_syscalls_traced(ts->f);
	if (!t) {
		stats_add(&r->ts, c);
		return;
	}
	if (r->ts.exited)
		return; /* its final counts are in */
	if (exited)	/* the name it exited with (a child that exec'd since it was named) */
		snprintf(r->name, sizeof(r->name), "%.*s:%u", JS_COMM_MAX, comm, tid);
	stats_of(&r->ts, c);
	r->ts.exited = exited;
	r->ts.exit_ns = exit_ns;
}

/* on_gap - a gap of a thread to the pipeline, on the CPU where it lost the CPU */
static void on_gap(struct threads_src *ts, const struct js_follow_rec *rec)
{
	int res;
	struct thr *t = thread_of(ts, rec->tid, rec->comm, &res);
	struct js_gap g = {
		.start_ns = rec->start_ns,
		.dur_ns = rec->end_ns - rec->start_ns,
		.cpu = rec->cpu,
		.source = JS_SRC_THREAD,
		.kind = (uint8_t)rec->kind,
		.id = rec->tid,
		.cpu_in = rec->cpu_in != rec->cpu && rec->cpu_in < 0xffff ?
				  (uint16_t)(rec->cpu_in + 1) :
				  0,
	};
	char label[JS_LABEL_LEN];

	if (res < 0 || rec->end_ns < rec->start_ns)
		return;
	g.res = (uint32_t)res;
	if (t && rec->c.own_bh >= t->own_bh && rec->c.own_bh_ns >= t->own_bh_ns) {
		g.own_bh = (uint32_t)JS_MIN(rec->c.own_bh - t->own_bh, UINT32_MAX);
		g.own_bh_ns = rec->c.own_bh_ns - t->own_bh_ns;
		t->own_bh = rec->c.own_bh;
		t->own_bh_ns = rec->c.own_bh_ns;
	}
	snprintf(label, sizeof(label), "%.*s:%u", JS_COMM_MAX, rec->comm, rec->tid);
	if (!pipe_push(ts->pl, &g, label)) {
		ts->info->unwatched_gaps++;
		return;
	}
	if (t && rec->cpu < 64)
		t->lost_on[rec->cpu] += g.dur_ns;
}

static void on_record(void *ctx, const struct js_follow_rec *rec)
{
	struct threads_src *ts = ctx;

	switch (rec->type) {
	case JS_FREC_GAP:
		on_gap(ts, rec);
		break;
	case JS_FREC_EXIT:
		counts(ts, rec->tid, rec->comm, &rec->c, true, rec->end_ns);
		if (named(ts, rec->tid) && ts->alive && !--ts->alive) {
			ts->gone = true;
			ts->info->exit_ns = rec->end_ns;
		}
		break;
	case JS_FREC_GONE:
		ts->gone = true;
		ts->info->exit_ns = rec->end_ns;
		break;
	}
}

static int threads_start(void *ctx, struct js_pipe *pl)
{
	struct threads_src *ts = ctx;

	if (follow_attach(ts->f, pipe_probes(pl))) {
		js_err("cannot attach the programs that follow the threads (sched_switch)");
		return -ENOENT;
	}
	return 0;
}

/* open_gap - the start of thread t's gap in progress (switched out preempted or blocked)
 * into *ctx when earlier */
static void open_gap(void *ctx, uint32_t tid, const struct js_follow_thread *t)
{
	uint64_t *since = ctx;

	(void)tid;
	if (t->off_start &&
	    (t->off_kind == JS_FOLLOW_PREEMPTED || t->off_kind == JS_FOLLOW_BLOCKED))
		*since = JS_MIN(*since, t->gap_start);
}

/* exited_unseen - has the process (--pid) or every thread named (--tid) exited, as the
 * system says (the programs may not have seen it) */
static bool exited_unseen(const struct threads_src *ts, const struct js_params *p)
{
	int tgid;

	if (ts->pidfd >= 0)
		return process_exited(ts->pidfd);
	if (p->follow_pid) /* no pidfd: gone once reaped */
		return ts->pidfd == -ESRCH || task_status(p->follow_pid, &tgid, NULL, 0);
	for (size_t i = 0; i < p->nfollow_tids; i++)
		if (!task_status(p->follow_tids[i], &tgid, NULL, 0))
			return false;
	return true;
}

static bool threads_poll(void *ctx, struct js_pipe *pl, uint64_t now_ns)
{
	struct threads_src *ts = ctx;
	uint64_t since = now_ns;
	bool unseen = false;

	/* looked at before the records are read: an exit the programs saw is among them */
	if (!ts->gone && now_ns - ts->live >= LIVE_CHECK_NS) {
		unseen = exited_unseen(ts, pipe_params(pl));
		ts->live = now_ns;
	}

	/* the gaps still open: their events are kept (pipe_hold: from the earliest open
	 * gap's start, and never after this scan, so that a gap opened since is covered);
	 * every HOLD_SCAN_NS, the map read back a thread at a time (less often with many) */
	if (now_ns - ts->held >= (ts->nover ? HOLD_SCAN_MANY_NS : HOLD_SCAN_NS)) {
		follow_threads(ts->f, open_gap, &since);
		pipe_hold(pl, since);
		ts->held = now_ns;
	}
	follow_consume(ts->f, on_record, ts);
	if (unseen && !ts->gone) {
		ts->gone = true;
		ts->info->exit_ns = now_ns;
		js_notice("the followed %s exited with no program seeing it (before they were "
			  "attached, or its record lost): the run ends now",
			  pipe_params(pl)->follow_pid ? "process" : "threads");
	}
	ts->info->exited = ts->gone;
	return ts->gone;
}

static void threads_fill(void *ctx, size_t *used, size_t *size)
{
	follow_fill(((struct threads_src *)ctx)->f, used, size);
}

static void alive_counts(void *ctx, uint32_t tid, const struct js_follow_thread *t)
{
	counts(ctx, tid, t->comm, &t->c, false, 0);
}

/* add_prog - a follow program's run time beside the probes' (the run's probe cost) */
static void add_prog(void *ctx, const char *name, uint64_t runs, uint64_t run_ns, uint64_t misses)
{
	struct js_run *run = ctx;
	struct js_probe_prog *o;

	(void)misses;
	if (!runs || run->nprobe_progs >= JS_PROBE_PROGS_MAX)
		return;
	o = &run->probe_progs[run->nprobe_progs++];
	js_scpy(o->name, sizeof(o->name), name);
	o->runs = runs;
	o->run_ns = run_ns;
	run->probe_runs += runs;
	run->probe_run_ns += run_ns;
}

/* main_cpu - where a thread lost the most time (where it ran, when it lost none) */
static int main_cpu(const struct thr *t, const struct js_cpu_result *r, int dflt)
{
	int best = -1;

	for (int c = 0; c < 64; c++)
		if (t->lost_on[c] && (best < 0 || t->lost_on[c] > t->lost_on[best]))
			best = c;
	for (int c = 0; best < 0 && c < 64; c++)
		if (r->ts.cpus_mask >> c & 1)
			best = c;
	return best < 0 ? dflt : best;
}

static void threads_stop(void *ctx, struct js_pipe *pl, uint64_t end_ns)
{
	struct threads_src *ts = ctx;
	struct js_run *run = pipe_run(pl);
	uint64_t threads_lost = 0;

	(void)end_ns;
	follow_detach(ts->f);
	follow_consume(ts->f, on_record, ts);
	follow_threads(ts->f, alive_counts, ts);
	follow_lost(ts->f, &ts->info->lost, &threads_lost);
	follow_progs(ts->f, add_prog, run);
	ts->info->exited = ts->gone;
	ts->info->threads_seen = ts->n + ts->nover + threads_lost;
	ts->info->threads_over = ts->nover + threads_lost;
	for (size_t i = 0; i < ts->n; i++) {
		struct js_cpu_result *r = &run->cpus[ts->v[i].res];

		r->cpu = main_cpu(&ts->v[i], r, r->cpu);
	}
}

static void threads_destroy(void *ctx)
{
	struct threads_src *ts = ctx;

	follow_destroy(ts->f);
	if (ts->pidfd >= 0)
		close(ts->pidfd);
	free(ts);
}

/* existing - a result for every thread there now (the others when they show up) */
static void existing(struct threads_src *ts, const struct js_params *p)
{
	int tids[JS_THREADS_MAX], n, res;
	char comm[JS_COMM_MAX];
	int tgid;

	n = p->follow_pid ? process_threads(p->follow_pid, tids, JS_THREADS_MAX) :
			    (int)p->nfollow_tids;
	for (int i = 0; i < n && i < JS_THREADS_MAX; i++) {
		int tid = p->follow_pid ? tids[i] : p->follow_tids[i];

		if (task_status(tid, &tgid, comm, sizeof(comm)))
			continue; /* gone meanwhile: its exit is not ours to see */
		thread_of(ts, (uint32_t)tid, comm, &res);
	}
}

void threads_follow_opts(const struct js_params *p, struct follow_opts *o)
{
	*o = (struct follow_opts){
		.pid = p->follow_pid,
		.children = p->follow_cmd,
		.tids = p->follow_tids,
		.ntids = p->nfollow_tids,
		.threshold_ns = p->cfg.threshold_ns,
		.btf_path = p->btf_path,
		.syscalls = p->follow_syscalls,
		.hold_from_waking = p->marks_path != NULL,
		.probes_toggled = p->probe_toggle != NULL,
	};
}

static int threads_open(struct gap_source *s, struct js_pipe *pl)
{
	const struct js_params *p = pipe_params(pl);
	struct follow_opts o;
	struct threads_src *ts = calloc(1, sizeof(*ts));
	struct js_follow_info *f = &pipe_run(pl)->follow;
	char why[160] = "";
	int err, tgid;

	if (!ts)
		return -ENOMEM;
	threads_follow_opts(p, &o);
	o.probes = pipe_probes(pl);
	err = follow_open(&ts->f, &o, why, sizeof(why));
	if (err) {
		js_err("cannot load the programs that follow the threads: %s", why);
		free(ts);
		return err;
	}
	ts->pl = pl;
	ts->info = f;
	ts->other = -1;
	ts->alive = p->nfollow_tids;
	ts->pidfd = p->follow_pid ? process_watch(p->follow_pid) : -ENOENT;
	f->on = true;
	f->pid = p->follow_pid;
	for (size_t i = 0; i < p->nfollow_tids; i++)
		f->tids[f->ntids++] = p->follow_tids[i];
	task_status(p->follow_pid ? p->follow_pid : p->follow_tids[0], &tgid, f->comm,
		    sizeof(f->comm));
	existing(ts, p);
	s->ctx = ts;
	return 0;
}

void threads_source(struct gap_source *s)
{
	*s = (struct gap_source){ .name = "threads",
				  .open = threads_open,
				  .start = threads_start,
				  .poll = threads_poll,
				  .stop = threads_stop,
				  .destroy = threads_destroy,
				  .fill = threads_fill };
}
