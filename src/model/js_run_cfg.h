/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_run_cfg.h - what a measurement was asked to do, as its result records it (the JSON
 * "params" object). cli.c fills it inside struct js_params; the pipeline copies it into
 * struct js_run; report_load.c rebuilds it from a saved run. Plain data, no CLI types.
 * The names of what it records (run_cfg.c) sit here too, so that the reports and the loader
 * name a run without reaching the code that measured it.
 */
#ifndef JS_RUN_CFG_H
#define JS_RUN_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_threshold.h"
#include "js_tsc.h"

#define JS_CPUS_MAX 1024 /* = JS_MAX_CPUS of js_events.h */
#define JS_MAX_ARRIVALS 8
#define JS_FOLLOW_TIDS_MAX 64 /* --tid given at most this many times */
#define JS_USER_EVENTS_MAX 8  /* --event given at most this many times (= JS_USER_SLOTS) */
#define JS_USER_EVENT_LEN 64  /* "SUBSYS:NAME" and its NUL: a part's detail (JS_DETAIL_LEN) */

/* --event SUBSYS:NAME[,SUBSYS:NAME]: a tracepoint the user made a cause, class "event" */
struct js_user_event {
	char open[JS_USER_EVENT_LEN];  /* "SUBSYS:NAME": the point, or the pair's opening one;
	                                * the part's detail */
	char close[JS_USER_EVENT_LEN]; /* the pair's closing one; "" for a point */
};

/* the sampler's self-interference, --test-hook (test only; sampler_hook.c, js_sampler_hook.h) */
enum sampler_hook {
	SAMPLER_HOOK_NONE = 0,
	SAMPLER_HOOK_FAULT, /* a page the loop touches is zapped every period: a fault in the sampler */
	SAMPLER_HOOK_THP,   /* the loop reads a region of small pages, advised MADV_HUGEPAGE once
	                       * it measures (sampler_hook_arm), so khugepaged collapses it then */
	SAMPLER_HOOK_STALL, /* after each gap it sees, the loop spins SAMPLER_HOOK_STALL_NS more
	                       * before it takes the gap's end: a stall no tracepoint sees, inside
	                       * every recorded gap (the entry/exit oracle, attrib_entry.py) */
};

/* how the cause table groups its sources (--by) */
enum js_by {
	JS_BY_SOURCE = 0, /* each source: class + detail ("task nginx:812 [nginx.service]") */
	JS_BY_CGROUP,	  /* the sources naming a task merged per class and cgroup */
};

struct js_run_cfg {
	int cpus[JS_CPUS_MAX];
	size_t ncpus; /* 0 = default (isolated CPUs, else the last online) */
	int hk[JS_CPUS_MAX];
	size_t nhk;	       /* 0 = default (allowed CPUs minus measured) */
	uint64_t duration_ns;  /* 0 = until Ctrl-C */
	uint64_t threshold_ns; /* with threshold_auto: 0 until the pipeline chose it */
	bool threshold_auto;   /* -T auto: calibrated, thr_auto says how (js_threshold.h) */
	struct js_thr_auto thr_auto;
	uint64_t warmup_ns;
	int policy, priority; /* -P: SCHED_OTHER/FIFO/RR and its priority */
	unsigned top;	      /* worst gaps listed */
	enum js_by by;	      /* --by: how the report and the HTML page group the cause table's
	                         * sources; not in the JSON (a way of showing the run: `report
	                         * --by` chooses it again for a saved one) */
	bool no_probes;
	bool probes_lean;	/* --probes lean: one program per interruption (probe_set_*) */
	enum tsc_clock clock;	/* --clock asked (auto unless given) */
	enum tsc_read tsc_read; /* the read every TSC read of the run makes: preflight chooses
	                         * it from clock (tsc_read_choose) */
	uint64_t arrival_ns[JS_MAX_ARRIVALS];
	size_t narrivals;
	uint64_t burst;
	enum sampler_hook test_hook; /* test-only self-interference (js_sampler_hook.h) */
	struct js_user_event events[JS_USER_EVENTS_MAX]; /* --event, in the order given: the
	                                                  * probes' slot is the index */
	size_t nevents;
	bool idle_limit;	/* --deepest-idle-state given: */
	int deepest_idle_state; /* ... its N (states deeper disabled while measuring) */
};

/* probe_set_name - "full" or "lean" (--probes), as the run's lean flag says */
const char *probe_set_name(bool lean);
/* probe_set_from_name - 1 for "lean", 0 for "full", -1 for anything else */
int probe_set_from_name(const char *name);
/* probe_set_leaves_out - what --probes lean does not see, one line for the reports; NULL for
 * full (docs/OBSERVER.md, the probe set) */
const char *probe_set_leaves_out(bool lean);

/*
 * user_event_parse - --event's argument: "SUBSYS:NAME" (a point) or "SUBSYS:NAME,SUBSYS:NAME"
 * (a pair: the first opens, the second closes), each part letters, digits and '_', at most
 * JS_USER_EVENT_LEN - 1 characters. 0, or -1 with a reason (for "invalid --event 'ARG': ")
 */
int user_event_parse(const char *arg, struct js_user_event *ev, char *why, size_t len);
/* user_event_tp - the tracepoint's NAME of "SUBSYS:NAME" (after the colon) */
const char *user_event_tp(const char *spec);
/* user_event_find - the index of the event whose opening tracepoint is spec among n, or -1 */
int user_event_find(const struct js_user_event *ev, size_t n, const char *spec);

/* sampler_hook_name - "fault", "thp", "stall" (--test-hook) for enum sampler_hook; NULL for none */
const char *sampler_hook_name(enum sampler_hook h);
/* sampler_hook_from_name - the enum sampler_hook named name; -1 if none */
int sampler_hook_from_name(const char *name);
/* sampler_parse_priority - "o:0", "f:95", "r:10" (rtla -P) -> policy/priority; -EINVAL */
int sampler_parse_priority(const char *s, int *policy, int *priority);
/* sampler_priority_str - the reverse: "f:95" into buf[len]; returns buf */
const char *sampler_priority_str(char *buf, size_t len, int policy, int priority);
/* sampler_policy_name - "other", "fifo", "rr" for SCHED_OTHER/FIFO/RR; NULL if another */
const char *sampler_policy_name(int policy);
/* sampler_policy_from_name - SCHED_OTHER/FIFO/RR named name; -1 if none */
int sampler_policy_from_name(const char *name);

#endif /* JS_RUN_CFG_H */
