/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_audit.h - the isolation audit: read-only checks of how the measured CPUs are tuned
 * (docs/DESIGN.md, audit), runtime interrupt deltas around a run, and a cross-check that
 * links observed causes of gaps to the settings behind them.
 *
 *   struct js_audit a;
 *   audit_run(&a, cpus, ncpus, sysroot_or_NULL);    // every check gets a verdict
 *   audit_print_text(stdout, &a, false);            // or audit_write_json(&j, "audit", &a)
 *   rc = audit_exit_status(&a);                     // JS_EXIT_VIOLATION if any check failed
 *   audit_free(&a);
 *
 * Verdicts follow tuned-adm verify's passed/failed/skipped vocabulary plus "warn":
 *   pass - the setting is right for an isolated CPU (or the item is context only);
 *   fail - a deviation of severity med or above: it interrupts the CPU by design;
 *   warn - a deviation of severity low/info, or one that only matters conditionally
 *          (THP "madvise", huge pages not reserved, running under a hypervisor);
 *   skip - could not be checked here: observed says why, hint says what would allow it.
 * Severity is the check's weight if it deviates (the scale: docs/DESIGN.md, audit).
 * All reads go through js_sysfs.h; an unreadable or malformed file yields skip, never
 * an abort. Nothing here needs root except pm_qos (/dev/cpu_dma_latency) and smi.
 */
#ifndef JS_AUDIT_H
#define JS_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_audit_record.h"
#include "js_cpulist.h"

struct js_json;

/* the record itself (struct js_audit, struct audit_deltas, the names of their verdicts,
 * severities and row kinds, audit_free, audit_deltas_free): js_audit_record.h in model/ */

#define AUDIT_CSTATE_BUDGET_US 10 /* deepest allowed C-state exit latency */
#define AUDIT_HK_SERVED 16	  /* measured or isolated CPUs per housekeeping CPU */

/*
 * audit_run - run every check for the measured CPUs. sysroot: read /proc and /sys under
 * it (NULL = the live system); the previous sysfs root is restored afterwards.
 * Returns 0, -EINVAL (no CPUs / CPU out of range), -ENOENT/-ENOTDIR (sysroot is not a
 * directory) or -ENOMEM; on error *a is left empty (audit_free is harmless). Unreadable
 * or malformed items never fail the call: they become skip verdicts.
 */
int audit_run(struct js_audit *a, const int *cpus, size_t ncpus, const char *sysroot);
/* audit_run_for - audit_run for a run whose sampler has scheduling policy (audit_run:
 * SCHED_OTHER, the default measurement's) */
int audit_run_for(struct js_audit *a, const int *cpus, size_t ncpus, const char *sysroot,
		  int policy);

/* audit_count - number of checks with verdict v */
size_t audit_count(const struct js_audit *a, enum audit_verdict v);
/* audit_find - the first check with this id (and cpu, or any cpu when cpu < 0), or NULL */
const struct audit_check *audit_find(const struct js_audit *a, const char *id, int cpu);
/* audit_exit_status - JS_EXIT_OK, or JS_EXIT_VIOLATION (2) when an unwaived check failed */
int audit_exit_status(const struct js_audit *a);

/* ---- waivers (check --waive, --waive-file) and check --fail-on ---- */

/* the check ids (or shell patterns: "irq.*") a user accepts */
struct audit_waivers {
	char (*ids)[AUDIT_ID_LEN];
	size_t n, cap;
};

/* audit_id_known - id names a check the audit can produce (a fixed id or irq.N), or is a
 * pattern that matches one */
bool audit_id_known(const char *id);
/* audit_waivers_add_list - the ids of "ID[,ID...]" into w: 0, -EINVAL (an unknown id or
 * none: err says which) or -ENOMEM */
int audit_waivers_add_list(struct audit_waivers *w, const char *list, char *err, size_t len);
/* audit_waivers_add_file - the ids of FILE, one a line ('#' starts a comment, blank lines
 * allowed): 0, -errno when it cannot be read, -EINVAL (err: "FILE:LINE: ...") */
int audit_waivers_add_file(struct audit_waivers *w, const char *path, char *err, size_t len);
/* audit_waivers_free - free w; accepts a zeroed struct */
void audit_waivers_free(struct audit_waivers *w);
/* audit_waive - mark every check w names waived (still printed, never an exit status);
 * returns the number of waived checks */
size_t audit_waive(struct js_audit *a, const struct audit_waivers *w);
/* audit_count_waived - number of waived checks */
size_t audit_count_waived(const struct js_audit *a);
/*
 * audit_exit_for - JS_EXIT_VIOLATION for an unwaived problem, else JS_EXIT_OK. fail_on < 0
 * (no --fail-on): a check that failed (a deviation of severity med or above, as
 * audit_exit_status); else a fail or warn whose severity is fail_on or above.
 */
int audit_exit_for(const struct js_audit *a, int fail_on);
/* audit_irqs_on_cpu - device IRQs whose effective affinity includes cpu, up to max; count */
size_t audit_irqs_on_cpu(const struct js_audit *a, int cpu, const struct audit_irq **out,
			 size_t max);

/*
 * audit_hint_recommends_set - the kernel parameters hint recommends (after "boot with " or
 * "add ", or the one it starts with unless it says it "is set") that the audited command
 * line (facts.cmdline) has in force already, space separated into buf; their number. The
 * audit writes none: a hint whose remedy is in force says what else explains the deviation.
 */
size_t audit_hint_recommends_set(const struct js_audit *a, const char *hint, char *buf, size_t len);

/*
 * audit_print_text - one aligned line per check (VERDICT SEV ID CPU OBSERVED, expected
 * for non-pass), a hint line under fail/warn/skip, then "audit: N pass, N warn, N fail,
 * N skip". Sorted: fail, warn, skip, pass, each from the highest severity down (ties in
 * run order); checks alike on several CPUs (same id, verdict, severity and texts but for
 * the CPU number) share one line whose CPU column is a list ("cpu2-5"), the CPU number in
 * the texts replaced by that list. A waived check's line ends in "[waived]", and the summary
 * then adds ", N waived". only_problems prints fail and warn checks only (the summary
 * always).
 */
void audit_print_text(FILE *fp, const struct js_audit *a, bool only_problems);
/*
 * audit_write_json - the audit as an object under key (NULL inside an array):
 * { cpus, sysroot, elapsed_ns, summary{pass,warn,fail,skip,waived}, facts{...},
 *   checks[{id, verdict, severity, cpu, observed, expected, source, hint, waived}],
 *   irqs[{irq, name, effective, requested, count{"cpuN": n}}] (those on measured CPUs) }
 */
void audit_write_json(struct js_json *j, const char *key, const struct js_audit *a);

/*
 * audit_plan_print - check --plan: one plan that isolates the measured CPUs (and those
 * isolated already), from what audit_run read: a "# covers:" line (the check ids the plan
 * makes pass), a "# risks:" block (what the steps it prints cost beyond isolation), the
 * kernel command line merged with the running one, keeping the operator's clocksource=,
 * tsc= and init's arguments after "--", with the steps of the boot method found under
 * a->sysroot (grubby, GRUB's /etc/default/grub, systemd-boot's /etc/kernel/cmdline; none:
 * the whole line for the VMM's config), a sysctl.d file, runtime commands (IRQ affinity,
 * workqueue masks, THP, KSM where it runs, governor, C-states), irqbalance and systemd
 * CPUAffinity, and the tuned cpu-partitioning alternative. A waived check gets no step.
 * What is in force already (a parameter of the running line, a sysctl or sysfs value, read
 * under a->sysroot) is named on a "# in force already:" line, never written again. Returns
 * 0, or -1 when no online CPU is left for housekeeping or the sysroot cannot be read
 * (nothing printed).
 */
int audit_plan_print(FILE *fp, const struct js_audit *a);

/* ---- runtime deltas: /proc/interrupts, /proc/softirqs and IRQ affinity around a run ---- */

struct audit_row {
	char key[16];		   /* "36", "LOC", "NET_RX" */
	char name[AUDIT_NAME_LEN]; /* "virtio1-req.0", "Local timer interrupts", "" */
	int irq;		   /* IRQ number, -1 for arch and softirq rows */
	enum audit_row_kind kind;
	uint64_t *count; /* per measured CPU */
};

struct audit_irq_aff {
	int irq;
	struct js_cpuset effective;
};

struct audit_snapshot {
	uint64_t t_ns; /* CLOCK_MONOTONIC when taken */
	size_t ncpus;
	int *cpus;
	struct audit_row *rows;
	size_t nrows;
	struct audit_irq_aff *aff;
	size_t naff;
};

/*
 * audit_snapshot_take - read the measured CPUs' columns of /proc/interrupts and
 * /proc/softirqs and every IRQ's effective affinity. Cheap, sends no IPI (safe during a
 * run, from a housekeeping CPU). Returns 0 or -errno.
 */
int audit_snapshot_take(struct audit_snapshot *s, const int *cpus, size_t n);
/* audit_snapshot_free - free a snapshot; accepts a zeroed struct */
void audit_snapshot_free(struct audit_snapshot *s);
/* audit_snapshot_diff - after - before (same CPUs) into out; 0, -EINVAL or -ENOMEM */
int audit_snapshot_diff(const struct audit_snapshot *before, const struct audit_snapshot *after,
			struct audit_deltas *out);
/* audit_deltas_get - delta of row key ("LOC", "36", "NET_RX") on cpu; 0 if absent */
uint64_t audit_deltas_get(const struct audit_deltas *d, int cpu, const char *key);
/* audit_deltas_print_text - per CPU table of non-zero deltas with rates; affinity changes */
void audit_deltas_print_text(FILE *fp, const struct audit_deltas *d);
/*
 * audit_deltas_write_json - { seconds, cpus:[{cpu, rows:[{key, name, irq?, kind, delta,
 * per_s}]}], affinity_changes:[{irq, name, before, after}] } under key
 */
void audit_deltas_write_json(struct js_json *j, const char *key, const struct audit_deltas *d);
/*
 * audit_read_json, audit_deltas_read_json - what audit_write_json and
 * audit_deltas_write_json wrote (the object o) back into a zeroed a or d, through the
 * typed reader l (js_jsonread.h: its first error, with the key's path, in l)
 */
struct jr;
struct jsonp_val;
void audit_read_json(struct jr *l, const struct jsonp_val *o, struct js_audit *a);
void audit_deltas_read_json(struct jr *l, const struct jsonp_val *o, struct audit_deltas *d);

/* ---- cross-check: observed causes -> the settings behind them ---- */

struct audit_observed {
	int cpu;
	const char *cause;  /* js_cause_name(): "timer", "irq", "task", "softirq", ... */
	const char *detail; /* "virtio1-req.0:36", "kworker/1:2:123 vmstat_update", "NET_RX" */
	uint64_t count;
	uint64_t total_ns;
	double seconds; /* run length, for rates (0: no rate) */
};

/*
 * audit_crosscheck - one explanation per setting and cause, linking the observations to the
 * setting that would have prevented them, e.g. "local timer fired 250/s on CPU 1: CPU 1 is
 * not in nohz_full (kernel built without NO_HZ_FULL)", in the order of each one's first
 * observation. Observations explained alike on one CPU share a line: their times add up,
 * their counts add up within a class and take the largest class across classes (nested
 * views of one occurrence: the tick hrtimer in the local timer IRQ, a work item in its
 * kworker). Observations with nothing to say (zero counts) are skipped. Returns the number
 * of lines written (at most max_lines).
 */
size_t audit_crosscheck(const struct js_audit *a, const struct audit_observed *obs, size_t n,
			char (*lines)[AUDIT_LINE_LEN], size_t max_lines);

/*
 * audit_ties - for the observations of one result (one CPU), each check whose finding
 * explains some of them (the branch of audit_crosscheck()'s explanation that names the
 * setting: "local timer fired ... not in nohz_full" ties the tick to check nohz_full, a task
 * run to isolcpus, an IRQ to irq.N), with their time summed and their classes: at most max,
 * largest first. Observations whose explanation names no one setting (the host, a page
 * fault, THP's several knobs) tie to none. Returns the number written.
 */
size_t audit_ties(const struct js_audit *a, const struct audit_observed *obs, size_t n,
		  struct audit_tie *ties, size_t max);

/* audit_deltas_local_timer - the local timer's interrupts on cpu in the deltas: x86's LOC
 * row, or the IRQ named arch_timer (arm64's per-CPU timer) */
uint64_t audit_deltas_local_timer(const struct audit_deltas *d, int cpu);

/*
 * audit_tick_line - what the tick did on nohz_full CPU cpu: ticks local timer interrupts in
 * seconds, counted by what (e.g. "while measuring", the probes' count; "over the run",
 * /proc/interrupts'): "the tick stayed stopped on CPU 1 (nohz_full): 0.4 local timer
 * interrupts/s while measuring (stopped: 2/s at most ...)". false (no line) when cpu is not
 * in nohz_full, there is no rate, or the tick ran faster (audit_crosscheck()'s local timer
 * line says so: "local timer fired 250/s on CPU 1 although it is in nohz_full ...").
 */
#define AUDIT_TICK_STOPPED_PER_S 2.0
bool audit_tick_line(const struct js_audit *a, int cpu, uint64_t ticks, double seconds,
		     const char *what, char *line);

#endif /* JS_AUDIT_H */
