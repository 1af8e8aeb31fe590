/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_json_run.h - a saved run's JSON (docs/JSON.md) as a table of sections, perf header.c's
 * FEAT_OPR style: each row names a top-level key, its writer and its reader, which sit side
 * by side (json_run.c; the results in json_cpu.c, a gap in json_gap.c, the audit in
 * audit/audit_json.c). out_json_write walks the rows writing, report_load_doc reading, in
 * the same order. A new section is a row; a new key is said in its section's pair.
 */
#ifndef JS_JSON_RUN_H
#define JS_JSON_RUN_H

#include <stddef.h>

#include "js_jsonread.h"
#include "js_result.h"

struct js_json;

struct js_json_section {
	const char *key; /* the member's key (NULL: the writer and reader name theirs) */
	/* write - the member(s) into the open top-level object (may write none) */
	void (*write)(struct js_json *j, const char *key, const struct js_run *run);
	/* read - the member(s) of root back into run (NULL: written only); errors in l,
	 * whose ctx is run */
	void (*read)(struct jr *l, const struct jsonp_val *root, const char *key,
		     struct js_run *run);
};

extern const struct js_json_section js_json_sections[];
extern const size_t js_json_nsections;

/* json_results_write, json_results_read - every result in the array of its source
 * (js_result_array: "cpus", "threads", "marks"; json_cpu.c) */
void json_results_write(struct js_json *j, const char *key, const struct js_run *run);
void json_results_read(struct jr *l, const struct jsonp_val *root, const char *key,
		       struct js_run *run);

#endif /* JS_JSON_RUN_H */
