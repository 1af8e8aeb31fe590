/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_preflight.h - the checks a measurement passes before it spins (preflight.c). Each
 * refusal prints one line and returns -errno; warnings never refuse.
 */
#ifndef JS_PREFLIGHT_H
#define JS_PREFLIGHT_H

#include <sched.h>

#include "js_params.h"
#include "js_result.h"

/* preflight_cpus - the measured CPUs (p->cfg.cpus; default chosen when empty) online and
 * allowed, the housekeeping CPUs (p->cfg.hk; default: allowed minus measured) into
 * *hk_set; -EINVAL (a usage error) or -EIO after one line */
int preflight_cpus(struct js_params *p, cpu_set_t *hk_set);
/* preflight_btf - --btf FILE holds BTF; -EINVAL (a usage error) after one line if not */
int preflight_btf(const struct js_params *p);
/* preflight_events - every --event tracepoint exists (tracefs); -EINVAL (a usage error)
 * after one line if not */
int preflight_events(const struct js_params *p);
/* preflight_machine - the machine's facts into *m and the run's TSC read into
 * p->cfg.tsc_read (--clock; auto: rdtscp where it may run, else lfence;rdtsc);
 * -ENOTSUP for --clock rdtscp where it may not run, -EPERM for a real-time -P that cannot be
 * granted, after one line */
int preflight_machine(struct js_params *p, struct js_machine *m);
/* preflight_warnings - what the run will lack (non-invariant TSC, missing capabilities,
 * RT throttling): printed once nothing can refuse the run any more */
void preflight_warnings(const struct js_params *p, const struct js_machine *m);
/* preflight_clock_notice - one notice when --clock auto reads the TSC with lfence;rdtsc (the
 * pipeline says it once the last file that can refuse the run, --probe-toggle's, is open) */
void preflight_clock_notice(const struct js_params *p);
/* preflight_lock_memory - mlockall when the limits allow it, and a heap that never
 * shrinks (freeing memory must not IPI the measured CPUs) */
void preflight_lock_memory(void);

#endif /* JS_PREFLIGHT_H */
