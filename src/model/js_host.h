/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_host.h - the host, named with evidence: the time of a gap no guest event, steal or SMI
 * explains (attr.unexplained_ns, once settled) is given to a host class where the
 * hypervisor left a signal (docs/ATTRIBUTION.md, "The host"). Pure.
 *
 * In this order, the first that holds:
 *   host-reload    the readings put a steal_time.version move without steal in the gap
 *                  (attr.host_reloads, steal_allocate(): the host re-loaded the vCPU: it
 *                  slept, exited to its VMM or faulted on guest memory)
 *   host-clock     a kvmclock version move (attr.host_clock: KVM_REQ_CLOCK_UPDATE)
 *   host-periodic  a gap with no guest event whose start lies on the phase of the period
 *                  the run's own detector finds among such gaps of its band of durations
 *                  (js_period.h, struct js_period_classes' band[]) while it says periodic
 *                  at a tick's period (at most HOST_TICK_MAX_NS), once it holds
 *                  HOST_MIN_GAPS gaps and its times span HOST_SPAN_PERIODS periods, when
 *                  the probes ran: no
 *                  guest tick lies inside, so the period is the host's (its tick on that
 *                  pCPU)
 * else the time stays unexplained. The class's time becomes one part of the gap (its
 * count the signal's moves, its detail HOST_*_DETAIL), its unexplained_ns 0, and a gap
 * whose primary was unexplained gets the class as its primary. The stories say "host: "
 * and the detail (story.c).
 */
#ifndef JS_HOST_H
#define JS_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "js_model.h"
#include "js_period.h"

#define HOST_RELOAD_DETAIL "vCPU reloaded without steal"
#define HOST_CLOCK_DETAIL "clock update"

/* the gaps a band's detector must have seen before its period names one: its verdict on
 * 20 (its own minimum) can still move to another period by the run's end */
#define HOST_MIN_GAPS 100

/* the span of times the detector must have seen, in periods, before its period names a
 * gap: over a shorter one the times are concentrated modulo every longer candidate too
 * (20 stalls 1 ms apart lie in a fifth of 100 ms) */
#define HOST_SPAN_PERIODS 100

/* the longest period named: the slowest kernel tick's (HZ=100). Longer ones, found among a
 * band's gaps while they come, were bursts of the host's (a few ms of dense gaps are
 * concentrated modulo 100 ms) on this machine kind */
#define HOST_TICK_MAX_NS 10000000ull

/* the widest phase window a periodic gap may start in: a quarter of the period either
 * side would take half of random gaps; an eighth takes a quarter at most */
#define HOST_PHASE_MAX_FRAC 0.125

/*
 * host_phase_window_ns - how far from the period's mean phase a gap may start and still be
 * its: three standard deviations of the phase the strength s implies
 * (s = exp(-(2 pi sd / P)^2 / 2)), at most HOST_PHASE_MAX_FRAC of the period
 */
double host_phase_window_ns(const struct js_period_result *pr);

/*
 * host_on_phase - does time t start on the period pr found (pr->periodic, its phase known)
 */
bool host_on_phase(const struct js_period_result *pr, uint64_t t_ns);

/*
 * host_name - give g's unexplained time to the host class its evidence names (the order
 * above). pc: the run's detector of the gaps with no guest event, already fed with g when
 * it is one; periodic: whether the periodic class may be named (the probes ran). Returns
 * the class given, JS_CAUSE_UNEXPLAINED when none.
 */
enum js_cause host_name(struct js_gap_rec *g, const struct js_period_classes *pc, bool periodic);

/* host_periodic_detail - the periodic part's detail: "every 1.0 ms (host tick)" */
void host_periodic_detail(char *buf, size_t len, uint64_t period_ns);

#endif /* JS_HOST_H */
