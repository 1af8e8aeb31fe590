// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * drain_threads.c - the drain threads (js_drain.h): shard k > 0 drained by a thread of its
 * own, woken once a drain, while the main thread drains shard 0; docs/DESIGN.md, "many
 * CPUs". Every probe record was filed into its CPU's window before they are woken (the main
 * thread reads the rings), and none is filed until they are all back: a shard's CPUs are its
 * own while it runs.
 *
 * At most as many shards run at once as the threads have CPUs (the affinity they inherit):
 * the first ones are woken together, and each thread that ends its shard wakes the next one
 * waiting. Threads that outnumber their CPUs so take turns, each a whole shard, one wake-up
 * each, instead of sharing a CPU slice by slice (4 threads on one CPU: 11.7 context switches
 * a drain that way, 8.6 in turns, by perf stat in jsscale).
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "js_drain.h"

struct drain_pool {
	struct js_drain *d;
	sem_t done;	 /* posted by the last thread to end its shard */
	uint64_t cutoff; /* the drain's (set before any thread is woken) */
	size_t pending;	 /* threads still to end their shard (atomic) */
	size_t next;	 /* the next thread to wake, 1 .. n (atomic) */
	size_t slots;	 /* shards that may run at once: the threads' CPUs */
	size_t running;	 /* ... that run now (atomic) */
	size_t most;	 /* the most that ran at once */
	bool quit;
	size_t n; /* threads started: shards 1 .. n */
	struct drain_worker {
		struct drain_pool *pool;
		size_t k;
		sem_t go;
		pthread_t tid;
	} w[];
};

/* wake_next - the next thread waiting for this drain woken, if one is */
static void wake_next(struct drain_pool *pool)
{
	size_t k = __atomic_fetch_add(&pool->next, 1, __ATOMIC_ACQ_REL);

	if (k <= pool->n)
		sem_post(&pool->w[k - 1].go);
}

/* shard_run - shard k drained, counted among those running at once */
static void shard_run(struct drain_pool *pool, size_t k)
{
	size_t now = __atomic_add_fetch(&pool->running, 1, __ATOMIC_ACQ_REL);
	size_t most = __atomic_load_n(&pool->most, __ATOMIC_RELAXED);

	while (now > most && !__atomic_compare_exchange_n(&pool->most, &most, now, false,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	drain_shard_run(&pool->d->sh[k], pool->cutoff);
	__atomic_sub_fetch(&pool->running, 1, __ATOMIC_ACQ_REL);
}

static void *worker(void *arg)
{
	struct drain_worker *w = arg;
	struct drain_pool *pool = w->pool;

	for (;;) {
		while (sem_wait(&w->go) && errno == EINTR)
			;
		if (__atomic_load_n(&pool->quit, __ATOMIC_ACQUIRE))
			return NULL;
		shard_run(pool, w->k);
		wake_next(pool);
		/* the last to end tells the main thread: every thread's shard is then seen by
		 * it (each one's release of the count is acquired by the next one's) */
		if (__atomic_sub_fetch(&pool->pending, 1, __ATOMIC_ACQ_REL) == 0)
			sem_post(&pool->done);
	}
}

int drain_threads_start(struct js_drain *d)
{
	size_t n = d->nsh > 1 ? d->nsh - 1 : 0;
	struct drain_pool *pool;
	sigset_t stop_sigs, old;
	cpu_set_t cpus;
	int err = 0;

	if (!n)
		return 0;
	pool = calloc(1, sizeof(*pool) + n * sizeof(pool->w[0]));
	if (!pool)
		return -ENOMEM;
	pool->d = d;
	pool->slots = sched_getaffinity(0, sizeof(cpus), &cpus) ? n + 1 : (size_t)CPU_COUNT(&cpus);
	sem_init(&pool->done, 0, 0);
	/* every thread allocates from the main arena, which is never trimmed: another arena's
	 * heap is, and an unmap sends a TLB shootdown IPI to the samplers' CPUs */
	mallopt(M_ARENA_MAX, 1);
	/* the stop signals go to the main thread (as the samplers', their mask) */
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_sigs, &old);
	for (; pool->n < n; pool->n++) {
		struct drain_worker *w = &pool->w[pool->n];
		char name[16];

		w->pool = pool;
		w->k = pool->n + 1;
		sem_init(&w->go, 0, 0);
		err = -pthread_create(&w->tid, NULL, worker, w);
		if (err) {
			sem_destroy(&w->go);
			break;
		}
		snprintf(name, sizeof(name), "js-drain%zu", w->k);
		pthread_setname_np(w->tid, name);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	d->pool = pool;
	if (err)
		drain_threads_stop(d);
	return err;
}

void drain_threads_run(struct js_drain *d, uint64_t cutoff)
{
	struct drain_pool *pool = d->pool;

	if (!pool) {
		for (size_t k = 0; k < d->nsh; k++)
			drain_shard_run(&d->sh[k], cutoff);
		return;
	}
	pool->cutoff = cutoff;
	__atomic_store_n(&pool->pending, pool->n, __ATOMIC_RELAXED);
	__atomic_store_n(&pool->next, 1, __ATOMIC_RELEASE);
	/* as many as have a CPU beside this thread's; the others when one ends its shard */
	for (size_t i = 1; i < pool->slots && i <= pool->n; i++)
		wake_next(pool);
	shard_run(pool, 0);
	wake_next(pool);
	while (sem_wait(&pool->done) && errno == EINTR)
		;
}

size_t drain_threads_most(const struct js_drain *d)
{
	return d->pool ? __atomic_load_n(&d->pool->most, __ATOMIC_RELAXED) : 0;
}

int drain_threads_clock(const struct js_drain *d, size_t k, clockid_t *clk)
{
	if (!d->pool || !k || k > d->pool->n)
		return -EINVAL;
	return -pthread_getcpuclockid(d->pool->w[k - 1].tid, clk);
}

void drain_threads_stop(struct js_drain *d)
{
	struct drain_pool *pool = d->pool;

	if (!pool)
		return;
	__atomic_store_n(&pool->quit, true, __ATOMIC_RELEASE);
	for (size_t i = 0; i < pool->n; i++)
		sem_post(&pool->w[i].go);
	for (size_t i = 0; i < pool->n; i++)
		pthread_join(pool->w[i].tid, NULL);
	sem_destroy(&pool->done);
	for (size_t i = 0; i < pool->n; i++)
		sem_destroy(&pool->w[i].go);
	free(pool);
	d->pool = NULL;
}
