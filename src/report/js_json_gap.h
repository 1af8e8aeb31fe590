/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_json_gap.h - one gap in the JSON (a run's "top" lists, a spike file's "gap", a trace
 * slice's args): where it comes from, its attribution and its parts. The keys are said once,
 * here: json_gap.c writes them and reads them back from the same names and the same field
 * lists (a key added to a list is written and read alike).
 */
#ifndef JS_JSON_GAP_H
#define JS_JSON_GAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_jsonfield.h"
#include "js_model.h"

/* where a gap comes from (js_gap_write_json) */
#define JG_SOURCE "source"
#define JG_THREAD "thread"		   /* a thread's gap: "comm:tid" */
#define JG_KIND "kind"			   /* ... enum js_gap_kind's name */
#define JG_RESUMED_ON_CPU "resumed_on_cpu" /* ... null: where it lost the CPU */
#define JG_LINE "line"			   /* a mark's: its line in the marks file */
#define JG_LABEL "label"		   /* ... and its label */
/* its attribution and each of its parts (js_attr_write_json) */
#define JG_CAUSE "cause"
#define JG_DETAIL "detail"
#define JG_CAUSES "causes" /* the parts */
#define JG_CGROUP_ID "cgroup_id"
#define JG_CGROUP "cgroup"
#define JG_CGROUP_NAME "cgroup_name"
/* who woke the primary part's task: null, or an object of these (js_waker.h) */
#define JG_WAKER "waker"
#define JG_WAKER_CONTEXT "context" /* "task", "hardirq", "softirq", "timer", "nmi", "unknown" */
#define JG_WAKER_COMM "comm"
#define JG_WAKER_PID "pid"
#define JG_WAKER_CPU "cpu"
#define JG_WAKER_SYSCALL "syscall"	 /* its name, null: none or unknown, or "#N" */
#define JG_WAKER_SYSCALL_NR "syscall_nr" /* null: none or unknown */
#define JG_WAKER_AT "at_ns"		 /* its time minus the gap's start: < 0 before */
#define JG_WAKER_TEXT "text"		 /* as the story tells it */
/* --stacks: a kernel stack, an array of "symbol+0xoff" innermost first (js_stacks.h): the
 * waker's at the wake-up (in the waker object), the primary part's task's where it left the
 * CPU (beside the waker); absent when the gap has none */
#define JG_STACK "stack"

/* the numbers of struct js_attr, in the order they are written after cause and detail;
 * JF_CSV: a --gaps column too (out_gaps.c, named by the key, in the list's order) */
extern const struct json_field js_attr_nums[];
extern const size_t js_attr_nnums;
/* the numbers of struct js_part, in the order they are written after cause and detail */
extern const struct json_field js_part_nums[];
extern const size_t js_part_nnums;

struct js_json;
struct js_cgroups;
/*
 * js_attr_write_json - a's members into the open JSON object: cause, detail, covered_ns,
 * steal_ns, smi, unexplained_ns, entry_ns and the "causes" array of its parts, each with the
 * cgroup of the task it names (cgroup_id, and its path and short name from cg; null when
 * none or unknown; cg may be NULL)
 */
void js_attr_write_json(struct js_json *j, const struct js_attr *a, const struct js_cgroups *cg);
/* js_attr_write_json_stacks - the same, with the stacks a names in the run's table t
 * ("stack" arrays, JG_STACK; t may be NULL: none) */
struct js_stacks;
void js_attr_write_json_stacks(struct js_json *j, const struct js_attr *a,
			       const struct js_cgroups *cg, const struct js_stacks *t);

/*
 * js_gap_write_json - where gap g comes from, into the open JSON object: "source", and for a
 * thread's gap "thread" ("comm:tid"), "kind" and "resumed_on_cpu" (null: where it lost the
 * CPU), for a mark "line" (in the marks file) and "label"
 */
void js_gap_write_json(struct js_json *j, const struct js_gap_rec *g);

/* the readers (json_gap.c, js_jsonread.h): what the writers above wrote, back */
struct jr;
struct jsonp_val;
/* js_detail_read - the "detail" of a part or source of class cause, in today's spelling
 * (a file of schema 1 named some of them its own way) */
void js_detail_read(struct jr *l, const struct jsonp_val *o, uint32_t cause, char *dst, size_t len);
/* js_attr_read_json - js_attr_write_json_stacks's members back into a; each part's cgroup
 * path into the table cg, the stacks into t (NULL: not kept) */
void js_attr_read_json(struct jr *l, const struct jsonp_val *v, struct js_attr *a,
		       struct js_cgroups *cg, struct js_stacks *t);
/* js_gap_read_json - js_gap_write_json's members of a gap of source src (tid: a thread's
 * id) back into g */
void js_gap_read_json(struct jr *l, const struct jsonp_val *v, enum js_source src, uint32_t tid,
		      struct js_gap_rec *g);

#endif /* JS_JSON_GAP_H */
