/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_out_gaps.h - the --gaps CSV: one row per gap (documented in docs/JSON.md, "--gaps FILE"). */
#ifndef JS_OUT_GAPS_H
#define JS_OUT_GAPS_H

#include <stdio.h>

#include "js_model.h"

/* csv_write_header - "cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,unexplained_ns,
 * entry_ns,entry_causes" */
void csv_write_header(FILE *fp);
/* csv_write_gap - one row; causes = "class:detail=net_ns;..." (quoted as CSV needs),
 * entry_causes the same with each interruption's entry/exit (js_entry.h) */
void csv_write_gap(FILE *fp, const struct js_gap_rec *g);

#endif /* JS_OUT_GAPS_H */
