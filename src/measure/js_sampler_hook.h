/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_sampler_hook.h - --test-hook (test only): interference a sampler inflicts on itself,
 * for the attribution tests. sampler_hook.c holds all of it: the hook's loop variant, its
 * memory, and the housekeeping side's actions (sampler_hook_tick every drain period,
 * sampler_hook_end once the samplers are done), which a caller makes for every sampler
 * without knowing the mode. Never used to measure.
 */
#ifndef JS_SAMPLER_HOOK_H
#define JS_SAMPLER_HOOK_H

#include <stdint.h>

#include "js_run_cfg.h" /* enum sampler_hook and its names */

struct sampler;
struct js_run;

#define SAMPLER_HOOK_STALL_NS 250000ull /* the stall hook's stall: 250 us */

#define SAMPLER_HOOK_BYTES (4u << 20) /* the hook region: two 2 MiB huge pages worth */

/* sampler_hook_setup - in the sampler thread, before it measures: the hook region
 * (unlocked, so it can be zapped or collapsed); 0, or -errno with *what failed */
int sampler_hook_setup(struct sampler *s, const char **what);
/* sampler_hook_spin - the measuring loop of a hooked sampler: the spin loop plus one
 * access to the hook region per iteration, until @until or a stop */
void sampler_hook_spin(struct sampler *s, uint64_t until);

/* sampler_hook_tick - housekeeping, every drain period: the hook's action on s (FAULT: zap
 * the page, THP: arm once measuring), counted in run->hook_*; nothing without a hook */
void sampler_hook_tick(struct sampler *s, struct js_run *run);
/* sampler_hook_end - housekeeping, once s is done: THP: the region's huge pages into
 * run->hook_huge_kb_end; nothing otherwise */
void sampler_hook_end(struct sampler *s, struct js_run *run);

/* sampler_hook_arm - SAMPLER_HOOK_THP, from the housekeeping thread, once: when the sampler
 * is in its measuring loop (reading the region), store the region's AnonHugePages in
 * *huge_kb and advise MADV_HUGEPAGE on it (khugepaged may collapse it from then on).
 * 0 when armed now; -EAGAIN before the loop, -EALREADY once armed, -EINVAL without the hook */
int sampler_hook_arm(struct sampler *s, uint64_t *huge_kb);

/* sampler_hook_huge_kb - AnonHugePages (kB) of the mapping holding the hook region, from
 * /proc/self/smaps (not the whole process's); 0 or -errno */
int sampler_hook_huge_kb(const struct sampler *s, uint64_t *kb);

/* sampler_smaps_huge_kb - pure: AnonHugePages (kB) of the VMA containing @addr in the text
 * of a /proc/PID/smaps file; 0, -ENOENT (no such VMA or field) or -EINVAL */
int sampler_smaps_huge_kb(const char *smaps, uint64_t addr, uint64_t *kb);

#endif /* JS_SAMPLER_HOOK_H */
