/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_story.h - the causal story of one gap, rtla timerlat auto-analysis style (pure, no I/O).
 *
 *   "48.2 us at 12.31 s: preempted by kworker/3:1:77 vmstat_update (41.0 us)
 *    + local timer IRQ (3.1 us + 2.6 us entry/exit) + 1.5 us unexplained"
 *
 * The headline lists the primary cause first, then the other parts by net time (at
 * most STORY_TERMS, the rest summed as "N more"), hypervisor steal, SMIs and the
 * unexplained remainder (first, before the parts, when it is the primary: corr_settle);
 * the numbers add up to the gap (covered + entry/exit +
 * steal + unexplained). A preempting kworker's time includes its own work item's part.
 * Both functions return the length of the full text like snprintf (the text is
 * truncated when that is >= len), or -EINVAL.
 */
#ifndef JS_STORY_H
#define JS_STORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_model.h"
#include "js_stacks.h"

#define STORY_TERMS 4 /* event causes named in the headline (primary included) */
/* story_format_stacks' text at most: two stacks of JS_STACK_FRAMES frames and a heading */
#define STORY_STACKS_LEN (2 * (JS_STACK_FRAMES + 1) * (JS_FRAME_LEN + 16) + 2 * JS_DETAIL_LEN)

/* story_format - the one-line story; "at" is the gap start minus run_start_ns */
int story_format(char *buf, size_t len, const struct js_gap_rec *r, uint64_t run_start_ns);

/*
 * story_format_detail - multi-line breakdown: one line with time, size, events and
 * coverage, then one per part (class, source, count, net, share) and after an
 * interruption one for its entry/exit ("SOURCE entry/exit"), then steal, SMI and
 * unexplained lines. Every line starts with indent (may be NULL) and ends in '\n'.
 */
int story_format_detail(char *buf, size_t len, const struct js_gap_rec *r, uint64_t run_start_ns,
			const char *indent);

/*
 * story_format_brief - the one-line story of a gap known only by its start, length, primary
 * cause and detail (an interval's worst, js_intervals.h): "2.0 ms at 3.1 s: preempted by
 * jsinject:812", "30.1 us at 5.0 s: unexplained (no guest event)"
 */
int story_format_brief(char *buf, size_t len, uint64_t start_ns, uint64_t dur_ns, uint32_t cause,
		       const char *detail, uint64_t run_start_ns);

/*
 * story_format_stacks - --stacks: the kernel stacks gap r names in the run's table t, one
 * frame a line under a heading line ("stack of jsinject:812 where it left the CPU:", "stack
 * of its waker jswriter:811 at the wake-up:"); "" when it names none. Every line starts with
 * indent (may be NULL) and ends in '\n'. Like snprintf.
 */
int story_format_stacks(char *buf, size_t len, const struct js_gap_rec *r,
			const struct js_stacks *t, const char *indent);

/* One stretch of a gap's time as its story tells it: a part's net time (entry false) or its
 * entry/exit (true), steal, an SMI's or the unexplained remainder (detail "") */
struct story_seg {
	uint32_t cause;
	const char *detail; /* the part's, inside the record; "" for the others */
	uint64_t ns;
	bool entry;
};
#define STORY_SEGS_MAX (2 * JS_PARTS_MAX + 3)

/*
 * story_segments - gap r's time cut as story_format tells it, in its order (the primary
 * first, a kworker's work item inside it, then the other parts, steal, the unexplained
 * remainder; the remainder first when it is the primary), every part (none summed as
 * "N more"); the stretches add up to the gap as the story's numbers do. The record keeps
 * each part's net time, not when it ran: this is the story's order, not the events'.
 * Returns how many (at most STORY_SEGS_MAX) were written to out.
 */
size_t story_segments(const struct js_gap_rec *r, struct story_seg *out);

/* story_part_label - a part's human name: "local timer IRQ", "NET_RX softirq", "IRQ x:36" */
int story_part_label(char *buf, size_t len, uint32_t cause, const char *detail);

#endif /* JS_STORY_H */
