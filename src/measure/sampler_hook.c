// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sampler_hook.c - --test-hook, all of it (see js_sampler_hook.h): the hooked loop the
 * sampler runs instead of its own, the hook region, and the housekeeping side's actions.
 * Test only: sampler.c's measuring loop stays inert.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "js_result.h"
#include "js_sampler.h"
#include "js_sysfs.h"
#include "js_tsc.h"
#include "js_util.h"

/*
 * sampler_hook_spin - the test-hook loop: sampler.c's spin loop plus one access to the hook
 * region per iteration (a store for FAULT, a read walking the region for THP).
 */
void sampler_hook_spin(struct sampler *s, uint64_t until)
{
	const volatile int *stop = s->cfg.stop;
	const uint64_t thr = s->cfg.threshold_cycles;
	volatile char *mem = s->hook_mem;
	uint64_t iters = s->iterations, dropped = s->dropped, off = 0;
	const enum tsc_read rd = s->cfg.read;
	uint64_t prev = js_tsc_read(rd), now;

	for (;;) {
		now = js_tsc_read(rd);
		iters++;
		if (s->cfg.hook == SAMPLER_HOOK_FAULT) {
			mem[0] = (char)iters;
		} else if (s->cfg.hook == SAMPLER_HOOK_THP) {
			(void)mem[off];
			off = (off + 4096) & (SAMPLER_HOOK_BYTES - 1);
		}
		if (now - prev > thr) {
			if (s->cfg.hook == SAMPLER_HOOK_STALL) /* the gap goes on, untraced */
				for (uint64_t end = now + s->cfg.hook_stall_cycles; now < end;)
					now = js_tsc_read(rd);
			dropped = sampler_push_gap(s, prev, now, iters, dropped);
			if (now >= until || *stop)
				break;
		} else if ((iters & 0xfff) == 0 && (now >= until || *stop)) {
			break;
		}
		prev = now;
	}
	s->iterations = iters;
	s->dropped = dropped;
	s->last_tsc = now;
}

/* hook_zap - FAULT: drop the page the loop touches, so its next touch faults (in the
 * sampler, on the measured CPU) */
static int hook_zap(struct sampler *s)
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
				break; /* the VMA ended without the field */
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
	s->hook_armed = true; /* once, even on failure */
out:
	return err;
}

/* sampler_hook_setup - the hook region (FAULT, THP): unlocked so it can be zapped or
 * collapsed; STALL needs none */
int sampler_hook_setup(struct sampler *s, const char **what)
{
	size_t len = SAMPLER_HOOK_BYTES * 2;
	char *raw, *mem;

	if (s->cfg.hook == SAMPLER_HOOK_STALL)
		return 0;
	raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		*what = "mapping the test-hook region";
		return -errno;
	}
	mem = (char *)(((uintptr_t)raw + SAMPLER_HOOK_BYTES - 1) &
		       ~(uintptr_t)(SAMPLER_HOOK_BYTES - 1));
	munlock(raw, len);
	if (s->cfg.hook == SAMPLER_HOOK_THP) {
		/* small pages only: the advice comes once the sampler measures (sampler_hook_arm),
		 * else khugepaged, woken by it, may collapse the region before the run starts */
		if (madvise(mem, SAMPLER_HOOK_BYTES, MADV_NOHUGEPAGE)) {
			*what = "madvise(MADV_NOHUGEPAGE) on the test-hook region";
			return -errno;
		}
		memset(mem, 1, SAMPLER_HOOK_BYTES);
	} else {
		mem[0] = 1;
	}
	s->hook_mem = mem;
	return 0;
}

/* sampler_hook_tick - the housekeeping side's action of the sampler's hook */
void sampler_hook_tick(struct sampler *s, struct js_run *run)
{
	uint64_t kb;

	switch (s->cfg.hook) {
	case SAMPLER_HOOK_FAULT:
		if (hook_zap(s) == 0)
			run->hook_actions++;
		break;
	case SAMPLER_HOOK_THP:
		if (sampler_hook_arm(s, &kb) == 0) {
			run->hook_huge_kb_arm += kb;
			run->hook_actions++;
		}
		break;
	default:
		break;
	}
}

/* sampler_hook_end - the THP hook's huge pages once the sampler is done */
void sampler_hook_end(struct sampler *s, struct js_run *run)
{
	uint64_t kb;

	if (s->cfg.hook == SAMPLER_HOOK_THP && sampler_hook_huge_kb(s, &kb) == 0)
		run->hook_huge_kb_end += kb;
}
