// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * open_iv.c - the intervals still open when the probes detach (js_open_iv.h): read from each
 * measured CPU's probe state (js_probe_state.h) once no program runs, queued as JS_F_OPEN
 * records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

#include "js_events.h"
#include "js_open_iv.h"
#include "js_probe_state.h"
#include "js_util.h"

/* pending_open - queue an interval of kind on cpu, still open at now; NULL when out of memory */
static struct js_event *pending_open(struct open_iv *q, int cpu, __u32 kind, __u32 id, __u64 start,
				     __u64 now)
{
	struct js_event *np, *e;

	if (q->pos == q->n) /* all delivered: start over */
		q->n = q->pos = 0;
	if (q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 64;

		np = realloc(q->ev, ncap * sizeof(*np));
		if (!np)
			return NULL;
		q->ev = np;
		q->cap = ncap;
	}
	e = &q->ev[q->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->cpu = (__u32)cpu;
	e->id = id;
	e->start_ns = start;
	e->end_ns = JS_MAX(now, start);
	e->flags = JS_F_OPEN;
	return e;
}

static void task_comm(pid_t pid, int cpu, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	if (!pid) {
		snprintf(buf, len, "swapper/%d", cpu);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)len, f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* open_cpu - queue the intervals open on one CPU: its interrupt stack and current task */
static void open_cpu(struct open_iv *q, int cpu, const struct js_cpu_state *s, uint64_t now)
{
	struct js_event *e;
	__u32 i;

	for (i = 0; i < s->depth && i < JS_STACK; i++) {
		e = pending_open(q, cpu, s->stack[i].kind, s->stack[i].id, s->stack[i].start, now);
		if (!e)
			return;
		e->addr = s->stack[i].addr;
	}
	for (i = 0; i < JS_USER_SLOTS; i++) /* --event pairs */
		if (s->user[i].start && !pending_open(q, cpu, JS_EV_USER, i, s->user[i].start, now))
			return;
	if ((s->cur_flags & (JS_CUR_VALID | JS_CUR_SAMPLER)) != JS_CUR_VALID)
		return;
	e = pending_open(q, cpu, s->cur_pid ? JS_EV_TASK : JS_EV_IDLE, s->cur_pid, s->cur_start,
			 now);
	if (!e)
		return;
	e->addr = s->cur_cgroup;
	if (s->cur_flags & JS_CUR_KTHREAD)
		e->flags |= JS_F_KTHREAD;
	if (s->cur_flags & JS_CUR_WAKE) {
		e->wake = s->cur_wake;
		e->flags |= JS_F_WAKE;
	}
	task_comm((pid_t)s->cur_pid, cpu, e->name, sizeof(e->name));
}

/* open_work - queue the work item still running on one CPU: its current task's, from no
 * earlier than its switch in (a slot left by a worker that moved is not running here) */
static void open_work(struct open_iv *q, int cpu, const struct js_cpu_state *s, uint64_t now)
{
	struct js_event *e;
	int i;

	if (!(s->cur_flags & JS_CUR_VALID) || !s->cur_pid)
		return;
	for (i = 0; i < JS_WORK_SLOTS; i++) {
		if (!s->work[i].start || s->work[i].tid != s->cur_pid)
			continue;
		e = pending_open(q, cpu, JS_EV_WORK, s->work[i].tid,
				 JS_MAX(s->work[i].start, s->cur_start), now);
		if (!e)
			return;
		e->addr = s->work[i].addr;
	}
}

/* open_iv_queue - after detach (js_open_iv.h) */
int open_iv_queue(struct open_iv *q, struct bpf_map *cpu_state, const int *cpus, size_t ncpus,
		  bool fresh)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t now = js_mono_ns();
	struct js_cpu_state *st;
	__u32 zero = 0;
	int err;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	st = calloc((size_t)ncpu, sizeof(*st));
	if (!st)
		return -ENOMEM;
	err = bpf_map__lookup_elem(cpu_state, &zero, sizeof(zero), st, (size_t)ncpu * sizeof(*st),
				   0);
	for (size_t i = 0; !err && i < ncpus; i++) {
		struct js_cpu_state *s = &st[cpus[i]];

		if (cpus[i] >= ncpu)
			continue;
		open_cpu(q, cpus[i], s, now);
		open_work(q, cpus[i], s, now);
		if (fresh) {
			s->depth = 0;
			s->cur_flags = 0;
			memset(s->work, 0, sizeof(s->work));
			memset(s->user, 0, sizeof(s->user));
		}
	}
	if (!err && fresh)
		err = bpf_map__update_elem(cpu_state, &zero, sizeof(zero), st,
					   (size_t)ncpu * sizeof(*st), BPF_ANY);
	free(st);
	return err;
}

void open_iv_free(struct open_iv *q)
{
	free(q->ev);
	*q = (struct open_iv){ 0 };
}
