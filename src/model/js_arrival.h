/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_arrival.h - what an application receiving messages at a fixed interval would have
 * waited during the run, derived exactly from the recorded gaps (no coordinated omission);
 * burst exposure; parsing of --arrival-interval and --burst. An arrival inside a gap
 * [s, s + d) waits until s + d, one outside every gap waits floor_ns; handling takes no
 * time. The cost per gap is bounded by histogram slots, not arrivals. The model and the
 * burst estimates: docs/DESIGN.md, arrival.
 */
#ifndef JS_ARRIVAL_H
#define JS_ARRIVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_hist.h"
#include "js_model.h"

#define ARRIVAL_MAX_INTERVALS 16		 /* --arrival-interval LIST entries */
#define ARRIVAL_INTERVAL_MAX_NS 3600000000000ULL /* 1 h, the histogram's range */
#define ARRIVAL_BURST_MAX 1000000000ULL		 /* --burst upper bound */

/* One per (cpu, interval). */
struct js_arrival {
	uint64_t interval_ns;
	uint64_t phase_ns;	    /* arrivals at start + phase + k*interval; set before gaps */
	uint64_t start_ns, end_ns;  /* measured window (CLOCK_MONOTONIC); end set by finish */
	uint64_t floor_ns;	    /* delay of an arrival outside every gap */
	uint64_t cursor_ns;	    /* end of the last gap taken (gaps must not go back) */
	struct js_hist delay;	    /* delay of EVERY arrival in the window */
	uint64_t arrivals, delayed; /* total arrivals, arrivals that fell inside a gap */
	uint64_t delayed_by_cause[JS_CAUSE_MAX];  /* arrivals delayed, by the gap's primary */
	uint64_t delay_ns_by_cause[JS_CAUSE_MAX]; /* total delay by cause (saturating) */
	uint64_t delay_ns_total; /* total delay of the delayed arrivals (saturating) */
	uint64_t clipped;	 /* gaps clipped because they overlapped / preceded */
	bool finished;
};

/* arrival_init - set up for one interval; the window starts at start_ns. 0 or -errno */
int arrival_init(struct js_arrival *a, uint64_t interval_ns, uint64_t start_ns, uint64_t floor_ns);
/* arrival_add_gap - account every arrival in [gap_start, gap_start + dur); gaps in
 * increasing start order (an overlapping part, or a part before start_ns, is clipped) */
void arrival_add_gap(struct js_arrival *a, uint64_t gap_start_ns, uint64_t gap_dur_ns,
		     int primary_cause);
/* arrival_finish - close the window at end_ns (raised to the last gap's end if needed) and
 * record the arrivals outside gaps (floor_ns each) in bulk */
void arrival_finish(struct js_arrival *a, uint64_t end_ns);
/* arrival_free - release the histogram (a zeroed or freed struct is fine) */
void arrival_free(struct js_arrival *a);
/* arrival_delayed_share - delayed / arrivals (0 when there were no arrivals) */
double arrival_delayed_share(const struct js_arrival *a);

/* arrival_bruteforce - the reference: the same result computed one arrival at a time
 * (tests only; a must be freshly initialised; causes may be NULL = unexplained) */
void arrival_bruteforce(struct js_arrival *a, const struct js_gap *gaps, const int *causes,
			size_t ngaps, uint64_t end_ns);

/* Burst exposure: N consecutive arrivals meeting a gap >= size (docs/DESIGN.md, arrival). */
/* arrival_burst_probability - Poisson estimate; -1.0 if window_ns or the inputs are 0 */
double arrival_burst_probability(const struct js_hist *gaps, uint64_t window_ns,
				 uint64_t interval_ns, uint64_t burst_n, uint64_t size_ns);

struct js_burst {
	uint64_t span_ns;  /* burst_n * interval_ns */
	uint64_t size_ns;  /* only gaps >= size count */
	uint64_t start_ns; /* window start */
	uint64_t lo, hi;   /* current merged run of burst-start windows [lo, hi) */
	bool open;
	uint64_t covered_ns; /* closed runs, clipped to the valid burst starts */
	uint64_t gaps;	     /* gaps >= size seen */
	uint64_t lim_ns;     /* set by burst_finish: last valid burst start + 1 */
};

/* burst_init - empirical burst exposure for N arrivals at interval_ns, gaps >= size_ns */
void burst_init(struct js_burst *b, uint64_t start_ns, uint64_t interval_ns, uint64_t burst_n,
		uint64_t size_ns);
/* burst_add_gap - feed one gap (start order) */
void burst_add_gap(struct js_burst *b, uint64_t gap_start_ns, uint64_t gap_dur_ns);
/* burst_finish - probability in [0, 1]; -1.0 if the window is not longer than a burst */
double burst_finish(struct js_burst *b, uint64_t end_ns);

/* arrival_parse_list - "1us,10us,100us" (each a TIME with its unit, js_units.h, 1 ns .. 1 h,
 * no duplicates) into out[max]; 0, or -EINVAL with err set */
int arrival_parse_list(const char *s, uint64_t *out, size_t max, size_t *n, char *err,
		       size_t errlen);
/* arrival_parse_burst - "500": an integer 1 .. ARRIVAL_BURST_MAX; 0, or -EINVAL with err */
int arrival_parse_burst(const char *s, uint64_t *out, char *err, size_t errlen);

#endif /* JS_ARRIVAL_H */
