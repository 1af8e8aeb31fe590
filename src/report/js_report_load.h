/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_report_load.h - a saved run (the --json document, docs/JSON.md) back into a struct js_run,
 * so `jitterscope report` prints it with the very report_text() a live run uses and
 * `jitterscope diff` compares two of them. Files of schema_version 1 and 2 load; a file
 * that is not JSON, lacks a key the report needs or disagrees with itself is refused with
 * the key's path and position. What is rebuilt, and its limits: docs/DESIGN.md, report_load.
 *
 *   if (report_load_file("run.json", &run, err, sizeof(err)))   // err: "cpus[0].gap_count: ..."
 *           ...;
 *   report_text(stdout, &run);
 *   report_load_free(&run);
 */
#ifndef JS_REPORT_LOAD_H
#define JS_REPORT_LOAD_H

#include <stddef.h>

#include "js_jsonparse.h"
#include "js_result.h"

#define RUN_LOAD_MAX_BYTES (1ull << 30) /* a saved run larger than 1 GiB is refused */

/*
 * report_load_file - read and load path ("-": standard input). 0; -errno when the file cannot
 * be read (err: "cannot read: ..."); -EINVAL when it is not JSON (err: "not JSON: line L,
 * column C: ...") or not a jitterscope run (err: "KEY.PATH: what is wrong"); -ENOMEM.
 * On failure run is left empty (report_load_free is harmless).
 */
int report_load_file(const char *path, struct js_run *run, char *err, size_t errlen);
/* report_load_buf - the same from a buffer (need not be NUL-terminated) */
int report_load_buf(const char *buf, size_t len, struct js_run *run, char *err, size_t errlen);
/* report_load_doc - the same from a parsed document's root */
int report_load_doc(const struct jsonp_val *root, struct js_run *run, char *err, size_t errlen);
/* report_load_free - release what a load allocated (params too); accepts a zeroed run */
void report_load_free(struct js_run *run);

#endif /* JS_REPORT_LOAD_H */
