/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_run_load.h - a saved run (the --json document, docs/JSON.md) back into a struct js_run,
 * so `jitterscope report` prints it with the very report_text() the measurement used and
 * `jitterscope diff` compares two of them.
 *
 *   struct js_run run;
 *   char err[512];
 *   if (run_load_file("run.json", &run, err, sizeof(err)))   // err: "cpus[0].gap_count: ..."
 *           ...;
 *   report_text(stdout, &run);
 *   run_load_free(&run);
 *
 * What is rebuilt: params (allocated, run->params), machine, time base, clock read costs,
 * probes, SMI, per CPU the counts, loop statistics, the gap histogram (hist_hdr_b64), the
 * cause table (by_class, sources, by_primary_cause), the cause-annotated histogram
 * (histogram_by_cause), the periodicity verdict, per-interval statistics, arrivals (with
 * their delay histogram) and burst exposure, the worst gaps with their causes; the audit
 * (checks, facts, IRQs on the measured CPUs), counter deltas and explained_by_settings.
 *
 * Limits: the cause table is rebuilt read-only (its source index is not: do not add gaps
 * to it; causes_merge() from it is fine). The periodicity state is one synthetic candidate
 * that reproduces the saved verdict (period, strength, gap count), not the phase sums. The
 * audit's per-CPU details (struct audit_cpu) are not in the JSON: they are zeroed (cpu and
 * node set, node -1). Keys added after schema 1's first release (histogram_by_cause,
 * delay_hdr_b64 ...) are optional: without them that part stays empty.
 *
 * Validation: schema_version must be 1 and tool "jitterscope"; every key the report needs
 * must be present with its type; the histogram must agree with the saved gap_count,
 * percentiles and max (a file edited by hand or truncated is rejected, not half-shown).
 */
#ifndef JS_RUN_LOAD_H
#define JS_RUN_LOAD_H

#include <stddef.h>

#include "js_jsonparse.h"
#include "js_result.h"

#define RUN_LOAD_MAX_BYTES (1ull << 30)    /* a saved run larger than 1 GiB is refused */

/*
 * run_load_file - read and load path ("-": standard input). 0; -errno when the file cannot be read (err:
 * "cannot read: ..."); -EINVAL when it is not JSON (err: "not JSON: line L, column C:
 * ...") or not a jitterscope run (err: "KEY.PATH: what is wrong"); -ENOMEM.
 * On failure run is left empty (run_load_free is harmless).
 */
int run_load_file(const char *path, struct js_run *run, char *err, size_t errlen);
/* run_load_buf - the same from a buffer (need not be NUL-terminated) */
int run_load_buf(const char *buf, size_t len, struct js_run *run, char *err, size_t errlen);
/* run_load_doc - the same from a parsed document's root */
int run_load_doc(const struct jsonp_val *root, struct js_run *run, char *err, size_t errlen);
/* run_load_free - release what a load allocated (params too); accepts a zeroed run */
void run_load_free(struct js_run *run);

#endif /* JS_RUN_LOAD_H */
