/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_entry.h - entry and exit belong to the interruption (pure, bounded memory).
 *
 * A gap's remainder R = dur - covered - steal holds what its interruptions' tracepoints do
 * not cover (the kernel's entry and exit; in a guest the VM exits and the injection). Per
 * measured CPU, entry_account() gives the gap's interruptions (its timer, ipi, irq, vector
 * and nmi parts, count = interrupts) E = min(R, sum of count x B_k), shared by count x B_k,
 * and leaves R - E unexplained. B_k is the ENTRY_PCT percentile of R over the kind's
 * recent lone gaps (one interruption alone: no steal, SMI, task, idle, fault, work, thp or
 * mm part; a decaying histogram), or, until ENTRY_MIN_LONE of them, the prior (in a guest
 * ENTRY_PRIOR_EXITS VM exits, js_vmexit.h; ENTRY_PRIOR_BARE_NS on bare metal). B_k is
 * capped by what the run measured apart from the remainders' upper percentiles: at most
 * ENTRY_CAP_EXITS VM exits (ENTRY_CAP_BARE_NS on bare metal) and ENTRY_FLOOR_MULT times
 * the kind's floor (the ENTRY_FLOOR_PCT percentile of its lone remainders), so host noise
 * in many lone gaps cannot raise it without bound. A gap without an interruption gets
 * nothing. The rule, why, and its measured error: docs/ENTRY.md; docs/DESIGN.md, entry.
 */
#ifndef JS_ENTRY_H
#define JS_ENTRY_H

#include <stdint.h>

#include "js_model.h"

#define ENTRY_BIN_NS 100ull
#define ENTRY_BINS 1024		    /* 0 .. 102.4 us; the last bin holds all above */
#define ENTRY_PCT 90		    /* the bound: this percentile of lone remainders */
#define ENTRY_MIN_LONE 32	    /* lone gaps of a kind before its bound is its own */
#define ENTRY_WINDOW 4096	    /* a kind's histogram is halved at this many */
#define ENTRY_REFRESH 16	    /* bound and median recomputed every N lone gaps */
#define ENTRY_PRIOR_EXITS 3	    /* the prior in a guest, in VM exits */
#define ENTRY_PRIOR_BARE_NS 1000ull /* the prior on bare metal */
#define ENTRY_CAP_EXITS 20	    /* the cap in a guest, in VM exits */
#define ENTRY_CAP_BARE_NS 2000ull   /* the cap on bare metal */
#define ENTRY_FLOOR_PCT 10	    /* a kind's floor: this percentile of lone remainders */
#define ENTRY_FLOOR_MULT 3	    /* and its bound at most this many floors */

/* Interruption kinds, in the entry/exit tables' order: one per cause class of role
 * JS_ROLE_INTERRUPT, whose row in the class table (causes.c) names its kind. */
enum entry_kind { ENTRY_TIMER = 0, ENTRY_IPI, ENTRY_IRQ, ENTRY_VECTOR, ENTRY_NMI, ENTRY_KINDS };

struct js_entry_kind {
	uint32_t bins[ENTRY_BINS]; /* lone remainders (decaying window) */
	uint32_t n;		   /* in bins */
	uint32_t since;		   /* lone gaps since bound/median were computed */
	uint64_t lone;		   /* lone gaps learned over the run */
	uint64_t bound_ns;	   /* the learned bound, before the cap (valid once lone >=
	                            * MIN_LONE) */
	uint64_t median_ns;	   /* median lone remainder (same) */
	uint64_t floor_ns;	   /* ENTRY_FLOOR_PCT of the lone remainders (same) */
	uint64_t gaps;		   /* gaps it was given entry/exit in */
	uint64_t entries;	   /* interruptions in those gaps */
	uint64_t entry_ns;	   /* entry/exit given to it over the run */
};

struct js_entry {
	uint64_t prior_ns; /* the bound before a kind has learned */
	uint64_t cap_ns;   /* no bound above it (the VM exits' cap, or bare metal's) */
	struct js_entry_kind k[ENTRY_KINDS];
};

/* entry_init - an empty model; exit_ns: one VM exit's cost on this CPU (0: bare metal or
 * not measured: the bare-metal prior) */
void entry_init(struct js_entry *m, double exit_ns);

/* entry_kind_of - the interruption kind of a cause class, or -1 if it is none */
int entry_kind_of(uint32_t cause);

/* entry_kind_name - "timer", "ipi", ... (the cause class's name); NULL out of range */
const char *entry_kind_name(int kind);

/* entry_kind_from_name - the kind named so ("timer" ...), or -1 */
int entry_kind_from_name(const char *name);

/* entry_cap - the cap of kind k now: cap_ns, and once learned ENTRY_FLOOR_MULT floors */
uint64_t entry_cap(const struct js_entry *m, int k);

/* entry_bound - the bound of kind k now: learned, or the prior; at most entry_cap() */
uint64_t entry_bound(const struct js_entry *m, int k);

/*
 * entry_account - learn from one attributed gap (after corr_finish(), steal and SMI) and
 * give its interruptions their entry/exit: sets parts[].entry_ns, attr.entry_ns and lowers
 * attr.unexplained_ns by as much. A gap already accounted (entry_ns set) is left alone.
 */
void entry_account(struct js_entry *m, struct js_gap_rec *g);

/* entry_finish - bound and median of every kind from its histogram as it ends the run */
void entry_finish(struct js_entry *m);

#endif /* JS_ENTRY_H */
