// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * drain_threads.c - the drain threads (js_drain.h): shard k > 0 drained by a thread of its
 * own, woken once a drain, while the main thread drains shard 0; docs/DESIGN.md, "many
 * CPUs". Every probe record was filed into its CPU's window before they are woken (the main
 * thread reads the rings), and none is filed until they are all back: a shard's CPUs are its
 * own while it runs.
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "js_drain.h"

struct drain_pool {
	struct js_drain *d;
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint64_t gen;	 /* drains asked for */
	uint64_t cutoff; /* ... the last one's */
	size_t pending;	 /* threads still draining it */
	bool quit;
	size_t n; /* threads started: shards 1 .. n */
	struct drain_worker {
		struct drain_pool *pool;
		size_t k;
		pthread_t tid;
	} w[];
};

static void *worker(void *arg)
{
	struct drain_worker *w = arg;
	struct drain_pool *pool = w->pool;
	uint64_t seen = 0;

	for (;;) {
		uint64_t cutoff;

		pthread_mutex_lock(&pool->mu);
		while (pool->gen == seen && !pool->quit)
			pthread_cond_wait(&pool->go, &pool->mu);
		if (pool->quit) {
			pthread_mutex_unlock(&pool->mu);
			return NULL;
		}
		seen = pool->gen;
		cutoff = pool->cutoff;
		pthread_mutex_unlock(&pool->mu);
		drain_shard_run(&pool->d->sh[w->k], cutoff);
		pthread_mutex_lock(&pool->mu);
		if (--pool->pending == 0)
			pthread_cond_signal(&pool->done);
		pthread_mutex_unlock(&pool->mu);
	}
}

int drain_threads_start(struct js_drain *d)
{
	size_t n = d->nsh > 1 ? d->nsh - 1 : 0;
	struct drain_pool *pool;
	sigset_t stop_sigs, old;
	int err = 0;

	if (!n)
		return 0;
	pool = calloc(1, sizeof(*pool) + n * sizeof(pool->w[0]));
	if (!pool)
		return -ENOMEM;
	pool->d = d;
	pthread_mutex_init(&pool->mu, NULL);
	pthread_cond_init(&pool->go, NULL);
	pthread_cond_init(&pool->done, NULL);
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
		err = -pthread_create(&w->tid, NULL, worker, w);
		if (err)
			break;
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
	pthread_mutex_lock(&pool->mu);
	pool->cutoff = cutoff;
	pool->pending = pool->n;
	pool->gen++;
	pthread_cond_broadcast(&pool->go);
	pthread_mutex_unlock(&pool->mu);
	drain_shard_run(&d->sh[0], cutoff);
	pthread_mutex_lock(&pool->mu);
	while (pool->pending)
		pthread_cond_wait(&pool->done, &pool->mu);
	pthread_mutex_unlock(&pool->mu);
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
	pthread_mutex_lock(&pool->mu);
	pool->quit = true;
	pthread_cond_broadcast(&pool->go);
	pthread_mutex_unlock(&pool->mu);
	for (size_t i = 0; i < pool->n; i++)
		pthread_join(pool->w[i].tid, NULL);
	pthread_cond_destroy(&pool->go);
	pthread_cond_destroy(&pool->done);
	pthread_mutex_destroy(&pool->mu);
	free(pool);
	d->pool = NULL;
}
