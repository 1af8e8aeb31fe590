/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_out_gaps.h - the --gaps CSV: one row per gap (documented in docs/JSON.md, "--gaps FILE"). */
#ifndef JS_OUT_GAPS_H
#define JS_OUT_GAPS_H

#include <stdio.h>

#include "js_model.h"

/* csv_write_header - (its length in bytes) "cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,unexplained_ns,
 * entry_ns,entry_causes" */
size_t csv_write_header(FILE *fp);
/* csv_write_gap - one row (its length in bytes); causes = "class:detail=net_ns;..." (quoted as CSV needs),
 * entry_causes the same with each interruption's entry/exit (js_entry.h) */
size_t csv_write_gap(FILE *fp, const struct js_gap_rec *g);

#endif /* JS_OUT_GAPS_H */
