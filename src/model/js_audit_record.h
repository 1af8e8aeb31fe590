/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_audit_record.h - what the isolation audit found, as a run's record (struct js_run,
 * js_result.h) carries it: the checks and the facts of the measured CPUs and of the machine
 * (struct js_audit), the interrupt/softirq deltas around a run (struct audit_deltas), the
 * names of their verdicts, severities and row kinds, and the freeing of both. The audit
 * (audit/, js_audit.h) fills them; the record holds them, a saved run's loader reads them
 * back, and nothing here reads the machine.
 */
#ifndef JS_AUDIT_RECORD_H
#define JS_AUDIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_cpulist.h"

enum audit_verdict { AUDIT_PASS, AUDIT_WARN, AUDIT_FAIL, AUDIT_SKIP, AUDIT_NVERDICTS };
enum audit_severity { SEV_INFO, SEV_LOW, SEV_MED, SEV_HIGH, SEV_CRIT };

#define AUDIT_ID_LEN 32
#define AUDIT_NAME_LEN 64
#define AUDIT_TASKS_KEPT 16 /* offending tasks remembered per measured CPU */
#define AUDIT_MOVABLE 32    /* names of the kthreads taskset moves, per measured CPU */
#define AUDIT_LINE_LEN 256  /* a line of the cross-check (audit_crosscheck) */

struct audit_check {
	char id[AUDIT_ID_LEN]; /* "isolcpus", "irq.36", "thp.enabled" ... */
	enum audit_verdict verdict;
	enum audit_severity severity;
	int cpu;	    /* the measured CPU it is about, -1 if global */
	char observed[320]; /* value read; for skip: why it could not be checked */
	char expected[128];
	char source[128]; /* path(s) or command it read */
	char hint[256];	  /* one-line fix (fail/warn) or how to check (skip) */
	bool waived;	  /* check --waive: shown, never an exit status */
};

/* A device IRQ (from /proc/irq and /proc/interrupts). */
struct audit_irq {
	int irq;
	char name[AUDIT_NAME_LEN];  /* /sys/kernel/irq/N/actions, else /proc/interrupts */
	struct js_cpuset effective; /* effective_affinity_list (smp_affinity_list if absent) */
	struct js_cpuset requested; /* smp_affinity_list */
	bool has_effective;	    /* effective_affinity_list was readable */
	uint64_t *count;	    /* /proc/interrupts count per measured CPU (a->cpus) */
};

/* A task or kernel thread allowed to run on a measured CPU. */
struct audit_task {
	int pid, tid;
	char comm[24];
	bool kthread;
	bool rescuer;	  /* a workqueue's rescuer (kworker/R-*) */
	int last_cpu;	  /* stat field 39 */
	char allowed[48]; /* Cpus_allowed_list */
};

/* What the audit learned about one measured CPU. */
struct audit_cpu {
	int cpu;
	int node; /* NUMA node, -1 unknown */
	bool online, isolated, nohz_full, rcu_nocb;
	bool in_default_irq_affinity, in_unbound_wq, in_watchdog;
	int nirqs;			 /* device IRQs whose effective affinity includes it */
	int ntasks_user, ntasks_kthread; /* allowed on it (excluding its per-CPU kthreads and
					  * the workqueue rescuers) */
	int nrescuers;			 /* workqueue rescuers allowed on it */
	int nrunning;			 /* tasks (any) whose last CPU is it */
	size_t nkept;
	struct audit_task kept[AUDIT_TASKS_KEPT]; /* the first offenders, for the cross-check */
	char movable[AUDIT_MOVABLE][24]; /* the unbound kthreads on it taskset moves (for the
					  * plan), by name */
	size_t nmovable;
	int deepest_cstate_us; /* -1 unknown */
};

/* Global facts (for the cross-check and the report). -1 = unknown for ints. */
struct audit_facts {
	char release[64];      /* /proc/sys/kernel/osrelease */
	char version[128];     /* /proc/sys/kernel/version (uname -v) */
	bool hypervisor;       /* cpuinfo flag "hypervisor" */
	int hz;		       /* CONFIG_HZ, 0 unknown */
	char preempt[32];      /* "none", "voluntary", "full", "lazy", "rt" or "" */
	int nohz_full_capable; /* CONFIG_NO_HZ_FULL (/sys/devices/system/cpu/nohz_full) */
	int nohz_full_err;     /* reading the nohz_full list failed (-errno), else 0 */
	int rcu_nocb_capable;  /* CONFIG_RCU_NOCB_CPU */
	int64_t rt_runtime_us, rt_period_us; /* INT64_MIN unknown; -1 = no throttling */
	int stat_interval;
	int timer_migration, nmi_watchdog, watchdog, soft_watchdog;
	int numa_balancing, ksm_run, khugepaged_defrag, swap_devices, swappiness;
	bool irqbalance_running;
	bool invariant_tsc;
	bool arm64; /* cpuinfo names an implementer, not flags: the generic timer, no SMI */
	char clocksource[32];
	char thp_enabled[24], thp_defrag[24];
	struct js_cpuset online, isolated, nohz_full, rcu_nocbs, default_irq_affinity, unbound_wq;
	struct js_cpuset watchdog_cpumask;
	char cmdline[4096];	/* the kernel's part: /proc/cmdline up to a "--" */
	char cmdline_init[512]; /* init's part: the words after that "--" ("" when none) */
	int cmdline_err;	/* /proc/cmdline unreadable (-errno), else 0 */
};

struct js_audit {
	struct audit_check *checks;
	size_t n, cap;
	int *cpus; /* measured CPUs, as given */
	size_t ncpus;
	struct audit_cpu *cpu;	/* per measured CPU, same order */
	struct audit_irq *irqs; /* every device IRQ with a handler */
	size_t nirqs;
	struct audit_facts f;
	char sysroot[256];	    /* "" = live */
	int policy;		    /* the run's sampler policy (SCHED_OTHER, SCHED_FIFO ...):
				     * RT throttling matters to FIFO/RR only */
	uint64_t elapsed_ns;	    /* how long audit_run took */
	bool oom;		    /* a check could not be stored */
	struct audit_check scratch; /* sink for checks when out of memory */
};

/*
 * A finding tied to a result's observed causes (audit_ties(), from the same branches as the
 * report's "What the settings explain" lines): the check, and the time lost to the causes its
 * setting explains (what fixing it recovers, at most), largest first.
 */
#define AUDIT_TIES_MAX 16
struct audit_tie {
	char check[AUDIT_ID_LEN]; /* the check's id: for the result's CPU, else global */
	uint64_t ns;		  /* the time of the causes it explains */
	uint32_t causes;	  /* which: a bit per enum js_cause */
};

/* audit_free - free everything audit_run allocated and zero a; accepts a zeroed struct */
void audit_free(struct js_audit *a);

/* audit_verdict_name - "pass", "warn", "fail", "skip"; "?" if unknown */
const char *audit_verdict_name(enum audit_verdict v);
/* audit_verdict_from_name - the enum audit_verdict named name; -1 if none */
int audit_verdict_from_name(const char *name);
/* audit_severity_name - "info", "low", "med", "high", "crit"; "?" if unknown */
const char *audit_severity_name(enum audit_severity s);
/* audit_severity_from_name - the enum audit_severity named name; -1 if none */
int audit_severity_from_name(const char *name);

enum audit_row_kind { AUDIT_ROW_IRQ, AUDIT_ROW_ARCH, AUDIT_ROW_SOFTIRQ };

/* audit_row_kind_name - "irq", "arch", "softirq"; "?" if unknown */
const char *audit_row_kind_name(enum audit_row_kind k);
/* audit_row_kind_from_name - the enum audit_row_kind named name; -1 if none */
int audit_row_kind_from_name(const char *name);

struct audit_delta_row {
	char key[16];
	char name[AUDIT_NAME_LEN];
	int irq;
	enum audit_row_kind kind;
	uint64_t *delta; /* per measured CPU */
	uint64_t total;	 /* sum over the measured CPUs */
};

struct audit_aff_change {
	int irq;
	char name[AUDIT_NAME_LEN];
	struct js_cpuset before, after;
	bool touches; /* before or after includes a measured CPU */
};

struct audit_deltas {
	size_t ncpus;
	int *cpus;
	double seconds;
	struct audit_delta_row *rows; /* rows with a non-zero delta on a measured CPU */
	size_t nrows;
	struct audit_aff_change *changes; /* IRQs whose effective affinity changed */
	size_t nchanges;
};

/* audit_deltas_free - free deltas; accepts a zeroed struct */
void audit_deltas_free(struct audit_deltas *d);

#endif /* JS_AUDIT_RECORD_H */
