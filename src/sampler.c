// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sampler.c - the pinned spin loop. Everything that may sleep, allocate or
 * fault happens before the loop: pinning, scheduling policy, NUMA-local ring
 * allocation and pre-faulting, loop calibration (and in a guest the cost of a VM exit,
 * js_vmexit.h). The loop itself reads the TSC,
 * compares, and stores gaps into the ring: no syscalls, no allocation, no
 * floating point, no printing.
 */
#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "js_sampler.h"
#include "js_sysfs.h"
#include "js_tsc.h"
#include "js_util.h"

#define CAL_ITERATIONS (1u << 20)
#define SAMPLER_STACK_BYTES (256u << 10)

bool ring_push(struct gap_ring *r, uint64_t start, uint64_t end)
{
	uint64_t h = r->head;

	if (h - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) > r->mask)
		return false;
	r->slots[h & r->mask].start_tsc = start;
	r->slots[h & r->mask].end_tsc = end;
	__atomic_store_n(&r->head, h + 1, __ATOMIC_RELEASE);
	return true;
}

size_t ring_pop(struct gap_ring *r, struct gap_raw *out, size_t max)
{
	uint64_t t = r->tail;
	uint64_t h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	size_t n = 0;

	while (t != h && n < max)
		out[n++] = r->slots[t++ & r->mask];
	__atomic_store_n(&r->tail, t, __ATOMIC_RELEASE);
	return n;
}

static int fail(struct sampler *s, int err, const char *what)
{
	s->err = err;
	snprintf(s->errmsg, sizeof(s->errmsg), "CPU %d: %s: %s", s->cfg.cpu, what, strerror(err));
	__atomic_store_n(&s->state, SAMPLER_FAILED, __ATOMIC_RELEASE);
	return -err;
}

static __attribute__((always_inline)) inline uint64_t read_tsc(bool lfence)
{
	return lfence ? js_rdtsc_lfence() : js_rdtscp();
}

/*
 * spin - the hot loop, instantiated for each (lfence, record) pair so neither
 * is a runtime branch. Stops at @until or when *stop is set (checked every
 * 4096 iterations and after each gap).
 */
static __attribute__((always_inline)) inline void spin(struct sampler *s, uint64_t until,
							bool lfence, bool record)
{
	const volatile int *stop = s->cfg.stop;
	const uint64_t thr = s->cfg.threshold_cycles;
	uint64_t iters = s->iterations, dropped = s->dropped;
	uint64_t prev = read_tsc(lfence), now;

	for (;;) {
		now = read_tsc(lfence);
		iters++;
		if (__builtin_expect(now - prev > thr, 0)) {
			if (record) {
				if (!ring_push(&s->ring, prev, now))
					dropped++;
				s->iterations = iters;
				s->dropped = dropped;
			}
			if (now >= until || *stop)
				break;
		} else if (__builtin_expect((iters & 0xfff) == 0, 0) && (now >= until || *stop)) {
			break;
		}
		prev = now;
	}
	s->iterations = record ? iters : 0;
	s->dropped = dropped;
}

/*
 * spin_hook - the test-hook loop: the spin loop plus one access to the hook region per
 * iteration (a store for FAULT, a read walking the region for THP). Never used to measure.
 */
static void spin_hook(struct sampler *s, uint64_t until)
{
	const volatile int *stop = s->cfg.stop;
	const uint64_t thr = s->cfg.threshold_cycles;
	volatile char *mem = s->hook_mem;
	uint64_t iters = s->iterations, dropped = s->dropped, off = 0;
	uint64_t prev = js_rdtscp(), now;

	for (;;) {
		now = js_rdtscp();
		iters++;
		if (s->cfg.hook == SAMPLER_HOOK_FAULT) {
			mem[0] = (char)iters;
		} else {
			(void)mem[off];
			off = (off + 4096) & (SAMPLER_HOOK_BYTES - 1);
		}
		if (now - prev > thr) {
			if (!ring_push(&s->ring, prev, now))
				dropped++;
			s->iterations = iters;
			s->dropped = dropped;
			if (now >= until || *stop)
				break;
		} else if ((iters & 0xfff) == 0 && (now >= until || *stop)) {
			break;
		}
		prev = now;
	}
	s->iterations = iters;
	s->dropped = dropped;
}

int sampler_hook_zap(struct sampler *s)
{
	uint64_t it = s->iterations;

	if (!s->hook_mem || s->cfg.hook != SAMPLER_HOOK_FAULT)
		return -EINVAL;
	/* one zap, one fault: only zap again once the sampler has run (and so touched the
	 * page: it publishes its iterations at every gap, the zap's own IPI included) */
	if (it == s->hook_last_iter)
		return -EAGAIN;
	s->hook_last_iter = it;
	return madvise(s->hook_mem, 4096, MADV_DONTNEED) ? -errno : 0;
}

/* smaps_vma_range - true with its [lo, hi) if @line is a VMA header ("lo-hi perms ...") */
static bool smaps_vma_range(const char *line, uint64_t *lo, uint64_t *hi)
{
	char *end;

	errno = 0;
	*lo = strtoull(line, &end, 16);
	if (end == line || *end != '-' || errno)
		return false;
	line = end + 1;
	*hi = strtoull(line, &end, 16);
	return end != line && *end == ' ' && !errno;
}

/* sampler_smaps_huge_kb - AnonHugePages of the VMA containing @addr in smaps text */
int sampler_smaps_huge_kb(const char *smaps, uint64_t addr, uint64_t *kb)
{
	const char *line = smaps, *nl;
	bool inside = false;
	uint64_t lo, hi;

	if (!smaps || !kb)
		return -EINVAL;
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (smaps_vma_range(line, &lo, &hi)) {
			if (inside)
				break;		/* the VMA ended without the field */
			inside = addr >= lo && addr < hi;
		} else if (inside && !strncmp(line, "AnonHugePages:", 14)) {
			*kb = strtoull(line + 14, NULL, 10);
			return 0;
		}
	}
	return -ENOENT;
}

/* sampler_hook_huge_kb - AnonHugePages of the hook region's VMA, from /proc/self/smaps */
int sampler_hook_huge_kb(const struct sampler *s, uint64_t *kb)
{
	char *text = NULL;
	size_t len;
	int err;

	*kb = 0;
	if (!s->hook_mem)
		return -EINVAL;
	err = sysfs_read_file("/proc/self/smaps", &text, &len);
	if (err)
		goto out;
	err = sampler_smaps_huge_kb(text, (uintptr_t)s->hook_mem, kb);
out:
	free(text);
	return err;
}

/* sampler_hook_arm - THP hook: MADV_HUGEPAGE on the region once the sampler measures */
int sampler_hook_arm(struct sampler *s, uint64_t *huge_kb)
{
	int err = -EINVAL;

	*huge_kb = 0;
	if (!s->hook_mem || s->cfg.hook != SAMPLER_HOOK_THP)
		goto out;
	err = -EALREADY;
	if (s->hook_armed)
		goto out;
	/* measuring: start_tsc is set right before the loop that reads the region */
	err = -EAGAIN;
	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SAMPLER_RUNNING || !s->start_tsc)
		goto out;
	sampler_hook_huge_kb(s, huge_kb);
	err = madvise(s->hook_mem, SAMPLER_HOOK_BYTES, MADV_HUGEPAGE) ? -errno : 0;
	s->hook_armed = true;	/* once, even on failure */
out:
	return err;
}

/* hook_setup - the hook region: unlocked so it can be zapped or collapsed */
static int hook_setup(struct sampler *s)
{
	size_t len = SAMPLER_HOOK_BYTES * 2;
	char *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *mem;

	if (raw == MAP_FAILED)
		return fail(s, errno, "mapping the test-hook region");
	mem = (char *)(((uintptr_t)raw + SAMPLER_HOOK_BYTES - 1) & ~(uintptr_t)(SAMPLER_HOOK_BYTES - 1));
	munlock(raw, len);
	if (s->cfg.hook == SAMPLER_HOOK_THP) {
		/* small pages only: the advice comes once the sampler measures (sampler_hook_arm),
		 * else khugepaged, woken by it, may collapse the region before the run starts */
		if (madvise(mem, SAMPLER_HOOK_BYTES, MADV_NOHUGEPAGE))
			return fail(s, errno, "madvise(MADV_NOHUGEPAGE) on the test-hook region");
		memset(mem, 1, SAMPLER_HOOK_BYTES);
	} else {
		mem[0] = 1;
	}
	s->hook_mem = mem;
	return 0;
}

static void spin_dispatch(struct sampler *s, uint64_t until, bool record)
{
	if (record && s->cfg.hook != SAMPLER_HOOK_NONE) {
		spin_hook(s, until);
		return;
	}
	if (s->cfg.lfence) {
		if (record)
			spin(s, until, true, true);
		else
			spin(s, until, true, false);
	} else {
		if (record)
			spin(s, until, false, true);
		else
			spin(s, until, false, false);
	}
}

/*
 * cal_loop - back-to-back reads binned by period. rdtscp waits for the instructions before
 * it, so a bins[d]++ per iteration (a load-add-store chain) made this loop slower than the
 * measuring loop it stands for: the periods go to a small buffer (plain stores) and are
 * binned every CAL_BATCH reads, outside the timed stretch.
 */
#define CAL_BATCH 4096u
_Static_assert(SAMPLER_CAL_BINS <= 65536 && CAL_ITERATIONS % CAL_BATCH == 0, "cal_loop buffer");

static __attribute__((always_inline)) inline void cal_loop(uint32_t *bins, bool lfence)
{
	uint16_t buf[CAL_BATCH];

	for (uint32_t done = 0; done < CAL_ITERATIONS; done += CAL_BATCH) {
		uint64_t prev = read_tsc(lfence), now, d;

		for (uint32_t i = 0; i < CAL_BATCH; i++) {
			now = read_tsc(lfence);
			d = now - prev;
			buf[i] = (uint16_t)(d < SAMPLER_CAL_BINS ? d : SAMPLER_CAL_BINS - 1);
			prev = now;
		}
		for (uint32_t i = 0; i < CAL_BATCH; i++)
			bins[buf[i]]++;
	}
}

/* calibrate - loop period distribution of back-to-back reads, in cycles */
static void calibrate(struct sampler *s)
{
	uint32_t *bins = s->cal_bins;
	uint64_t total = 0, half, acc = 0;

	if (s->cfg.lfence)
		cal_loop(bins, true);
	else
		cal_loop(bins, false);
	for (int i = 0; i < SAMPLER_CAL_BINS; i++)
		total += bins[i];
	half = (total + 1) / 2;
	s->loop_min_cycles = 0;
	for (int i = 0; i < SAMPLER_CAL_BINS; i++) {
		if (bins[i] && !s->loop_min_cycles)
			s->loop_min_cycles = (uint32_t)i;
		acc += bins[i];
		if (acc >= half) {
			s->loop_median_cycles = (uint32_t)i;
			break;
		}
	}
}

/* setup - pin, set policy, allocate and pre-fault NUMA-local memory */
static int setup(struct sampler *s)
{
	size_t bytes = s->cfg.ring_entries * sizeof(struct gap_raw);
	cpu_set_t set;

	s->tid = (pid_t)syscall(SYS_gettid);
	CPU_ZERO(&set);
	CPU_SET(s->cfg.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return fail(s, errno, "pinning the sampler");
	sched_yield();	/* be sure we run there before allocating */
	if (sched_getcpu() != s->cfg.cpu)
		return fail(s, EINVAL, "sampler did not migrate");
	if (s->cfg.policy != SCHED_OTHER) {
		struct sched_param sp = { .sched_priority = s->cfg.priority };

		if (sched_setscheduler(0, s->cfg.policy, &sp))
			return fail(s, errno, "setting the sampler's real-time priority");
	}
	/* allocate after pinning: the best chance of node-local memory */
	s->node = numa_available() >= 0 ? numa_node_of_cpu(s->cfg.cpu) : -1;
	if (s->node >= 0)
		s->ring.slots = numa_alloc_onnode(bytes, s->node);
	else
		s->ring.slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!s->ring.slots || s->ring.slots == MAP_FAILED) {
		s->ring.slots = NULL;
		return fail(s, ENOMEM, "allocating the gap ring");
	}
	s->cal_bins = calloc(SAMPLER_CAL_BINS, sizeof(uint32_t));
	if (!s->cal_bins)
		return fail(s, ENOMEM, "allocating calibration bins");
	if (s->cfg.hook != SAMPLER_HOOK_NONE && hook_setup(s))
		return -s->err;
	memset(s->ring.slots, 0, bytes);	/* pre-fault */
	mlock(s->ring.slots, bytes);	/* mlockall(MCL_FUTURE) covers it too; best effort */
	s->ring.mask = s->cfg.ring_entries - 1;
	return 0;
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	uint64_t t0;

	if (setup(s))
		return NULL;
	calibrate(s);
	vmexit_measure(&s->vmexit);
	__atomic_store_n(&s->state, SAMPLER_READY, __ATOMIC_RELEASE);
	while (!*s->cfg.go && !*s->cfg.stop)
		__builtin_ia32_pause();
	if (*s->cfg.stop) {
		s->start_tsc = s->end_tsc = js_rdtscp();
		__atomic_store_n(&s->state, SAMPLER_DONE, __ATOMIC_RELEASE);
		return NULL;
	}
	__atomic_store_n(&s->state, SAMPLER_RUNNING, __ATOMIC_RELEASE);
	t0 = read_tsc(s->cfg.lfence);
	if (s->cfg.warmup_cycles)
		spin_dispatch(s, t0 + s->cfg.warmup_cycles, false);
	s->start_tsc = read_tsc(s->cfg.lfence);
	spin_dispatch(s, s->cfg.duration_cycles ? s->start_tsc + s->cfg.duration_cycles : UINT64_MAX,
		      true);
	s->end_tsc = read_tsc(s->cfg.lfence);
	__atomic_store_n(&s->state, SAMPLER_DONE, __ATOMIC_RELEASE);
	return NULL;
}

int sampler_start(struct sampler *s, const struct sampler_cfg *cfg)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (!cfg->ring_entries || (cfg->ring_entries & (cfg->ring_entries - 1)))
		return -EINVAL;
	/* a small stack: under mlockall(MCL_FUTURE) a thread's whole stack is resident */
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SAMPLER_STACK_BYTES);
	err = pthread_create(&s->thread, &attr, sampler_main, s);
	pthread_attr_destroy(&attr);
	if (err) {
		s->err = err;
		snprintf(s->errmsg, sizeof(s->errmsg), "CPU %d: creating the sampler thread: %s",
			 cfg->cpu, strerror(err));
		return -err;
	}
	return 0;
}

int sampler_wait_ready(struct sampler *s)
{
	int st;

	while ((st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE)) == SAMPLER_INIT)
		usleep(1000);
	return st == SAMPLER_FAILED ? -(s->err ? s->err : EINVAL) : 0;
}

void sampler_join(struct sampler *s)
{
	if (s->thread) {
		pthread_join(s->thread, NULL);
		s->thread = 0;
	}
}

void sampler_free(struct sampler *s)
{
	if (s->ring.slots) {
		if (s->node >= 0)
			numa_free(s->ring.slots, s->cfg.ring_entries * sizeof(struct gap_raw));
		else
			munmap(s->ring.slots, s->cfg.ring_entries * sizeof(struct gap_raw));
		s->ring.slots = NULL;
	}
	free(s->cal_bins);
	s->cal_bins = NULL;
	/* the hook region is left mapped: it is test-only and freed with the process */
}

int sampler_parse_priority(const char *str, int *policy, int *priority)
{
	char *end;
	long v = 0;

	if (!str || !str[0] || (str[1] && str[1] != ':'))
		return -EINVAL;
	switch (str[0]) {
	case 'o': *policy = SCHED_OTHER; break;
	case 'f': *policy = SCHED_FIFO; break;
	case 'r': *policy = SCHED_RR; break;
	default: return -EINVAL;
	}
	if (str[1] == ':') {
		errno = 0;
		v = strtol(str + 2, &end, 10);
		if (errno || end == str + 2 || *end)
			return -EINVAL;
	}
	if (*policy == SCHED_OTHER ? v != 0 : (v < 1 || v > 99))
		return -EINVAL;
	*priority = (int)v;
	return 0;
}

static const char *const policy_names[] = {
	[SCHED_OTHER] = "other", [SCHED_FIFO] = "fifo", [SCHED_RR] = "rr",
};

static const char *const hook_names[] = {
	[SAMPLER_HOOK_FAULT] = "fault", [SAMPLER_HOOK_THP] = "thp",
};

/* sampler_policy_name - "other", "fifo", "rr" for SCHED_OTHER/FIFO/RR; NULL if another */
const char *sampler_policy_name(int policy)
{
	return policy >= 0 && (size_t)policy < ARRAY_SIZE(policy_names) ? policy_names[policy] :
									     NULL;
}

/* sampler_policy_from_name - SCHED_OTHER/FIFO/RR named name; -1 if none */
int sampler_policy_from_name(const char *name)
{
	return js_name_index(policy_names, ARRAY_SIZE(policy_names), name);
}

/* sampler_hook_name - "fault", "thp" (--test-hook) for enum sampler_hook; NULL for none */
const char *sampler_hook_name(enum sampler_hook h)
{
	return (unsigned)h < ARRAY_SIZE(hook_names) ? hook_names[h] : NULL;
}

/* sampler_hook_from_name - the enum sampler_hook named name; -1 if none */
int sampler_hook_from_name(const char *name)
{
	return js_name_index(hook_names, ARRAY_SIZE(hook_names), name);
}
