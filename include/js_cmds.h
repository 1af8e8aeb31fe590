/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_cmds.h - the subcommands that read saved runs instead of measuring:
 *   jitterscope report RUN.json          the human report again, exactly as the run printed it
 *   jitterscope diff A.json B.json       two runs compared (--json, --html FILE: also as
 *                                        JSON, as a page; js_diff.h)
 * Each returns an exit status (js_util.h): JS_EXIT_OK, or JS_EXIT_ERROR after one line on
 * stderr when a file is unreadable, not JSON, not a jitterscope run, or (diff) when a run
 * has no measured CPU; diff --fail-on worse: JS_EXIT_VIOLATION when a change is worse.
 */
#ifndef JS_CMDS_H
#define JS_CMDS_H

#include "js_params.h"

/* cmd_report - `jitterscope report p->inputs[0]` */
int cmd_report(const struct js_params *p);
/* cmd_diff - `jitterscope diff p->inputs[0] p->inputs[1] [--json FILE] [--html FILE]
 * [--alpha P] [--min-change PCT] [--fail-on worse]` */
int cmd_diff(const struct js_params *p);

#endif /* JS_CMDS_H */
