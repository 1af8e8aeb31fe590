/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_prom.h - the Prometheus exposition of a run (text format 0.0.4): one writer for every
 * way the metrics leave the process: the --prom textfile (rewritten every --prom-interval in
 * a long run, out_prom.c) and the --listen HTTP /metrics endpoint (out_listen.c). Families,
 * labels and the label rule: docs/OUTPUTS.md.
 *
 *   struct js_prom *m = prom_new();
 *   prom_start(m, run);                 // when the measured CPUs are known
 *   prom_add_gap(m, g);                 // every attributed gap (the output's on_gap)
 *   prom_set_budget(m, &p->budget);     // optional: export run->budget_viol per limit
 *   prom_write(fp, m, run);             // as often as wanted: counters never go back
 *   prom_free(m);
 *
 * The state holds what the run does not: exact bucket counts with Prometheus's "le" (at
 * most) semantics per CPU and primary cause, the budget's limits, and which sources have a
 * series of their own. Counters are monotonic from prom_start on as long as the run's
 * tables (js_causes) only grow. Not thread-safe: one caller at a time.
 */
#ifndef JS_PROM_H
#define JS_PROM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_causes.h"

struct js_run;
struct js_budget;
struct js_gap_rec;

/* sources with a series of their own per measured CPU at once (the most recent time:
 * js_prom_pick.h); the rest of a class is "other" */
#define JS_PROM_SOURCES 10
#define JS_PROM_OTHER "other"

struct js_prom;

/* prom_new - empty state; NULL when out of memory */
struct js_prom *prom_new(void);
/* prom_free - release it; accepts NULL */
void prom_free(struct js_prom *m);
/* prom_start - size the per-result state for run->cpus (again: the results added since);
 * 0 or -ENOMEM */
int prom_start(struct js_prom *m, const struct js_run *run);
/* prom_add_gap - count one attributed gap to its result (g->gap.res) */
void prom_add_gap(struct js_prom *m, const struct js_gap_rec *g);
/* prom_add_buckets - a saved run's gaps of result res (report), from its 1-2-5 histogram
 * by cause: the same bounds, but [lo, hi) where le is "at most", so a gap of exactly a
 * bound counts one bucket higher than the run itself exported it */
void prom_add_buckets(struct js_prom *m, size_t res, const struct js_cause_buckets *cb);
/* prom_set_budget - export b's limits (copied), each with the run's violations of it
 * (run->budget_viol, js_budget.h: budget_count, budget_iv_close) */
void prom_set_budget(struct js_prom *m, const struct js_budget *b);
/*
 * prom_write - the whole exposition of run to fp: a HELP and a TYPE line per family, then
 * its samples. Re-picks the sources that get a series of their own (js_prom_pick.h).
 * 0, -ENOMEM, or the stream's first write error (-errno).
 */
int prom_write(FILE *fp, struct js_prom *m, const struct js_run *run);

/*
 * prom_source_label - the bounded label of a cause table source (class cause, detail as
 * js_causes.h keys it): no pid, no IPI sender, no kernel thread instance
 *   task   "kworker/1:2:123 vmstat_update" -> "kworker", "memfd:x-91:23 [a.service]" ->
 *          "memfd:x-91" with cgroup "a.service"
 *   fault  "fault user bash:27773 (sampler)" -> "fault user bash (sampler)"
 *   ipi, vector  "call_function_single flush_tlb_func from grep:27776" ->
 *          "call_function_single flush_tlb_func"
 *   a kernel address (no symbol): "hrtimer 0xffffffff814332e0" -> "hrtimer 0x?"
 *   "(other)" and folded "(other: N sources)" -> "other"; the rest as it is
 * into src[slen], and the cgroup short name the detail names ("[name]") into cg[clen]
 * ("" if none). Label escaping is the writer's.
 */
void prom_source_label(uint32_t cause, const char *detail, char *src, size_t slen, char *cg,
		       size_t clen);

#endif /* JS_PROM_H */
