/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_model.h - the result model every formatter reads: gaps, their attribution,
 * per-CPU results and the run. Formatters read these structs only.
 */
#ifndef JS_MODEL_H
#define JS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JS_DETAIL_LEN 64
/*
 * Causes kept per gap (largest net first). A gap with more sources keeps JS_PARTS_MAX - 1
 * of them and folds the rest into one last part whose detail is "(other: N sources)"
 * (JS_FOLDED_FMT); correlate.c's fill_parts() says which are folded first.
 */
#define JS_PARTS_MAX 16
#define JS_FOLDED_FMT "(other: %zu sources)"

/* js_detail_folded - is detail a folded part's "(other: N sources)" */
static inline bool js_detail_folded(const char *detail)
{
	return detail && detail[0] == '(' && !strncmp(detail, "(other: ", 8);
}

/*
 * Cause classes. The order is the report's order. Everything else about a class (name,
 * colour, role, trace track ...) is its row in causes.c's class table (js_cause_info()): to add
 * one, docs/DESIGN.md, Recipes.
 */
enum js_cause {
	JS_CAUSE_UNEXPLAINED = 0, /* no event, no steal, no SMI */
	JS_CAUSE_TASK,		  /* another task ran (preemption) */
	JS_CAUSE_IDLE,		  /* sampler off-CPU, CPU idle (throttled/blocked) */
	JS_CAUSE_IRQ,		  /* device hard IRQ */
	JS_CAUSE_TIMER,		  /* local timer vector (the tick, hrtimers) */
	JS_CAUSE_IPI,		  /* reschedule / call-function / irq_work vectors */
	JS_CAUSE_VECTOR,	  /* other APIC vectors: thermal, platform, error, spurious */
	JS_CAUSE_SOFTIRQ,
	JS_CAUSE_HRTIMER, /* hrtimer callback (nested in the timer vector) */
	JS_CAUSE_NMI,
	JS_CAUSE_FAULT,		/* page fault */
	JS_CAUSE_WORK,		/* workqueue item (nested in a kworker's run) */
	JS_CAUSE_THP,		/* khugepaged / THP collapse */
	JS_CAUSE_TLB,		/* TLB flush hitting the CPU */
	JS_CAUSE_MM,		/* compaction / migration */
	JS_CAUSE_EVENT,		/* a tracepoint the user named (--event): detail "SUBSYS:NAME" */
	JS_CAUSE_STEAL,		/* hypervisor steal (paravirt steal clock): the host's run-queue */
	JS_CAUSE_HOST_RELOAD,	/* the host reloaded the vCPU without steal (js_host.h) */
	JS_CAUSE_HOST_CLOCK,	/* the host updated the vCPU's kvmclock (js_host.h) */
	JS_CAUSE_HOST_PERIODIC, /* periodic gaps with no guest event: the host's (js_host.h) */
	JS_CAUSE_SMI,		/* SMI counter moved */
	JS_CAUSE_MAX
};

/* What a cause class is to the models that treat classes apart (js_cause_info.role). */
enum js_cause_role {
	JS_ROLE_ACCOUNT = 0, /* no event of its own: time the accounting gives a gap
	                           * (unexplained, steal, the host's, smi) */
	JS_ROLE_INTERRUPT,   /* an interruption that enters the kernel from the sampler:
	                           * given its entry/exit (js_entry.h) */
	JS_ROLE_NESTED,	     /* runs inside an interruption (softirq, hrtimer, tlb) */
	JS_ROLE_CONTEXT,     /* kernel work in a task's context (fault, work, thp, mm) */
	JS_ROLE_OFFCPU,	     /* the sampler was off its CPU (task, idle) */
};

/* --trace tracks after "gaps" the class table may use (out_trace's metadata reserve) */
#define JS_TRACKS_MAX 14

/* One cause class: its row in causes.c's class table, the one place its properties are set. */
struct js_cause_info {
	const char *name;   /* "irq": JSON, CSV, reports, --budget, the trace's category */
	const char *colour; /* the HTML pages' "#rrggbb" */
	char letter;	    /* the text report's histogram bars: one per class, in its legend */
	uint8_t role;	    /* enum js_cause_role; a context or off-CPU part keeps a
	                           * gap from being lone (entry.c) */
	uint8_t entry_kind; /* JS_ROLE_INTERRUPT: its enum entry_kind (js_entry.h), the
	                           * place in the entry/exit tables */
	uint8_t track;	    /* --trace: its track's place after "gaps" (1: first; at
	                           * most JS_TRACKS_MAX), 0: not drawn */
	bool track_shared;  /* drawn on the track of the class with the same place,
	                           * which names it (thp on mm's) */
};

/* js_cause_info - the row of class c; an unknown class gets unexplained's */
const struct js_cause_info *js_cause_info(uint32_t c);

/* js_cause_name - "task", "irq", ... for enum js_cause; "?" if unknown */
const char *js_cause_name(enum js_cause c);
/* js_cause_from_name - the enum js_cause named name; -1 if none */
int js_cause_from_name(const char *name);

/*
 * A kernel thread that runs interrupt work: a threaded IRQ handler (irq/N-name), the timer
 * softirqs' thread of PREEMPT_RT (ktimers/N), the softirq thread (ksoftirqd/N), the RCU
 * callback thread (rcuc/N). Its run is named as the work it carries, not as a task: one row
 * of causes.c's thread table (docs/DESIGN.md, "Interrupt work in threads").
 */
struct js_thread_class {
	const char *prefix;  /* the name up to its CPU or IRQ number: "irq/" */
	uint32_t cause;	     /* enum js_cause of its runs */
	const char *label;   /* the story's word for it: "IRQ thread" */
	const char *softirq; /* the softirq whose work it always does ("RCU"), named in its
	                      * detail; NULL: none, or the one seen inside its run */
	bool vectors;	     /* its detail names the softirq that ran longest in its run */
};

/*
 * js_thread_class - the row of a kernel thread named name (a comm, or a detail that starts
 * with one; at most the prefix and one byte after it are read): its prefix then a digit.
 * NULL for every other name.
 */
const struct js_thread_class *js_thread_class(const char *name);

/*
 * js_part_thread - the row of the kernel thread a part of class cause with this detail
 * names, when that thread's runs are of that class ("ksoftirqd/1:22 NET_RX" in softirq);
 * NULL for a part that is the interruption itself, or a task ("ksoftirqd/1:22" in task: a
 * run from before the threads were told apart, or a user task that calls itself so)
 */
const struct js_thread_class *js_part_thread(uint32_t cause, const char *detail);

/* js_part_role - a part's enum js_cause_role: its class's, but a kernel thread's run
 * (js_part_thread()) is JS_ROLE_OFFCPU: the sampler was preempted, not interrupted */
uint8_t js_part_role(uint32_t cause, const char *detail);

/*
 * js_source_key - a source's name without its pids, into key (len): every ":digits" that ends
 * a word ("jsinject:812 [a.service]" -> "jsinject [a.service]", "kworker/1:2:123 fn" ->
 * "kworker/1:2 fn", "... from bash:12" -> "... from bash"); an IRQ keeps its number
 * ("virtio1-req.0:36"), an IRQ thread loses its tid. What names one source across runs
 * (diff) and across the tasks a shell starts (the flight recorder's spike_keep)
 */
void js_source_key(uint32_t cause, const char *detail, char *key, size_t len);

/*
 * Where a gap comes from: the gap sources feeding the one correlator, result and outputs
 * (docs/DESIGN.md, gap sources). Names: js_source_name() (result.c).
 */
enum js_source {
	JS_SRC_SAMPLER = 0, /* the spin loop on a measured CPU stalled */
	JS_SRC_THREAD,	    /* a followed thread (--pid/--tid) was kept from running */
	JS_SRC_MARK,	    /* the application marked an interval slow (--marks) */
	JS_SRC_MAX
};

/* js_source_name - "sampler", "thread", "mark"; "?" if unknown */
const char *js_source_name(enum js_source s);
/* js_source_from_name - the enum js_source named name; -1 if none */
int js_source_from_name(const char *name);

/* What kept a followed thread from running (a thread gap's js_gap.kind). */
enum js_gap_kind {
	JS_GAP_NONE = 0,    /* a sampler's or a mark's gap */
	JS_GAP_PREEMPTED,   /* switched out while runnable, until switched back in */
	JS_GAP_INTERRUPTED, /* interrupts (IRQ, vector, softirq, NMI) while it was current */
	JS_GAP_BLOCKED,	    /* blocked outside a system call (a page fault's I/O or lock) */
	JS_GAP_KIND_MAX
};

/* js_gap_kind_name - "preempted", "interrupted", "blocked"; "" for none */
const char *js_gap_kind_name(enum js_gap_kind k);
/* js_gap_kind_from_name - the enum js_gap_kind named name; -1 if none */
int js_gap_kind_from_name(const char *name);

#define JS_LABEL_LEN 48 /* a gap's label: "comm:tid" of a thread, a mark's label */

/* One gap, on the CLOCK_MONOTONIC time base (the BPF probes' clock). */
struct js_gap {
	uint64_t start_ns;
	uint64_t dur_ns;
	uint32_t cpu;	 /* the CPU whose events explain it */
	uint8_t source;	 /* enum js_source */
	uint8_t kind;	 /* enum js_gap_kind (thread gaps) */
	uint16_t cpu_in; /* thread gaps: 1 + the CPU it resumed on when that is
	                           * another (it migrated meanwhile), 0: the same */
	uint32_t id;	 /* thread: its tid; mark: its line in the marks file; 0 */
	uint32_t res;	 /* its result: the index in js_run.cpus */
	/* thread gaps: the softirqs the thread ran itself (its own kernel work, not a gap:
	 * js_follow_bh.h) since its previous gap; 0 for other sources */
	uint32_t own_bh;
	uint64_t own_bh_ns;
};

/* One cause inside a gap: net time (nested intervals subtracted). */
struct js_part {
	uint32_t cause; /* enum js_cause */
	uint32_t count; /* events of this (cause, detail) in the gap */
	uint64_t net_ns;
	uint64_t entry_ns;	    /* the entry/exit around it (interruptions only: js_entry.h) */
	uint64_t cgroup;	    /* cgroup v2 id of the task it names (a task, an IPI's sender,
	                           * a fault's task), 0: none; the run's cgroup table
	                           * (js_cgroup.h) has its path and short name */
	char detail[JS_DETAIL_LEN]; /* "kworker/1:2:123 vmstat_update", "virtio1-req.0:36",
	                               * "nginx:812 [nginx.service]" (the cgroup's short name
	                               * after a task, unless the root) */
};

/*
 * Who woke the task a gap's primary part names (a preempting task or kernel thread): the
 * wake-up the probes saw before its run on the gap's CPU (js_events.h, struct js_wake).
 * js_waker.h names and formats it.
 */
struct js_waker {
	int64_t at_ns;	 /* the wake-up's time minus the gap's start: < 0 before the gap */
	uint32_t pid;	 /* the waking task's tid (in an interrupt: the task it interrupted) */
	int32_t syscall; /* the system call the waking task was in; -1: none or unknown */
	uint16_t cpu;	 /* the CPU it was woken from */
	uint8_t ctx;	 /* enum js_wake_ctx (js_events.h): 0 (JS_WAKE_NONE): no waker known */
	char comm[16];
	uint32_t stack; /* --stacks: its kernel stack at the wake-up, a ref into the run's
	                 * table (js_stacks.h), 0: none (the probes' id + 1 until the drain) */
};

/* What explains one gap. */
struct js_attr {
	uint32_t primary; /* enum js_cause */
	uint32_t nparts;
	char detail[JS_DETAIL_LEN];	    /* the primary cause's detail */
	struct js_part parts[JS_PARTS_MAX]; /* [0, nparts): past it, undefined */
	uint64_t covered_ns;		    /* union of event intervals clipped to the gap */
	uint64_t steal_ns;		    /* hypervisor steal allocated to this gap */
	uint64_t smi;			    /* SMIs allocated to this gap */
	uint64_t entry_ns;	 /* entry/exit given to its interruptions (sum of the parts') */
	uint64_t unexplained_ns; /* dur - covered - steal - entry, never negative; 0 once
	                          * host_name() gave it to a host class (js_host.h) */
	uint16_t host_reloads;	 /* the host's signals the readings put in this gap
	                          * (steal_allocate): vCPU reloads without steal ... */
	uint16_t host_clock;	 /* ... and kvmclock updates */
	uint32_t nevents;	 /* events that overlapped the gap */
	uint32_t tail_part;	 /* 1 + index of the sampler's page fault part, 0: none */
	uint32_t evidence_lost;	 /* 1: its unexplained time is not known: events that
	                          * may have held it were lost in the kernel or evicted
	                          * from the window before it was attributed (drain.c) */
	uint64_t tail_ns;	 /* time after the sampler faulted that no event covers: the
	                           * fault's own handling, given to it by corr_finish() once
	                           * steal has been allocated (then 0) */
	struct js_waker waker;	 /* who woke the primary part's task (ctx 0: not known) */
	uint32_t stack;		 /* --stacks: the primary part's task's kernel stack where it
	                          * left the CPU (its longest run that has one), as
	                          * waker.stack */
};

/* A gap with its attribution: what the worst-N list and the CSV rows carry. */
struct js_gap_rec {
	struct js_gap gap;
	struct js_attr attr;
	char label[JS_LABEL_LEN]; /* a thread gap's "comm:tid", a mark's label; "" */
};

/*
 * The host's readings of a measured CPU over the run (steal_log_allocate(), js_correlate.h):
 * how many were read, and the version moves between consecutive ones, whether or not a
 * gap got them (docs/ATTRIBUTION.md, "The host"). has 0: no reading held a version.
 */
#define STEAL_HAS_ST_VERSION 1u	 /* steal_time.version was read */
#define STEAL_HAS_CLK_VERSION 2u /* the kvmclock version was read */

struct js_host_moves {
	uint64_t readings; /* readings with a version (2 an event) */
	uint8_t has;	   /* STEAL_HAS_* of the readings: which versions were read */
	uint64_t reloads;  /* steal_time.version moves where the steal did not move */
	uint64_t clocks;   /* kvmclock version moves */
};

#endif /* JS_MODEL_H */
