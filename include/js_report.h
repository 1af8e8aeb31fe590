/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* js_report.h - formatters over struct js_run: the human report and the JSON contract. */
#ifndef JS_REPORT_H
#define JS_REPORT_H

#include <stdio.h>

#include "js_result.h"

/* report_text - the human report (stdout) */
void report_text(FILE *fp, const struct js_run *run);
/* out_json_write - the JSON document described in docs/JSON.md */
void out_json_write(FILE *fp, const struct js_run *run);

#endif /* JS_REPORT_H */
