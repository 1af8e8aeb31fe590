/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_event_names.h - the names of js_events.h's enums: event kinds and the ids of the kinds
 * whose id is an enumeration (APIC vector, softirq, tlb flush reason, THP step, mm step).
 * The one place these strings are spelled: the correlator's details, the trace's labels
 * and the tests all come here. User space only (js_events.h stays the BPF ABI).
 */
#ifndef JS_EVENT_NAMES_H
#define JS_EVENT_NAMES_H

#include <linux/types.h>
#include <stddef.h>

#include "js_events.h"

/* js_ev_kind_name - "irq", "vector", "softirq" ... for enum js_ev_kind; NULL if unknown */
const char *js_ev_kind_name(unsigned int kind);
/* js_ev_kind_from_name - the enum js_ev_kind named name; -1 if none */
int js_ev_kind_from_name(const char *name);

/* js_ev_id_count - how many ids of kind have a name (VECTOR, SOFTIRQ, TLB, THP, MIGRATE);
 * 0 for the kinds whose id is not an enumeration (an irq number, a pid) */
unsigned int js_ev_id_count(unsigned int kind);
/* js_ev_id_name - the name of id for kind: "thermal_apic" (VECTOR), "NET_RX" (SOFTIRQ),
 * "remote_send_ipi" (TLB), "THP collapse" (THP), "compaction" (MIGRATE); NULL if unnamed */
const char *js_ev_id_name(unsigned int kind, unsigned int id);
/* js_ev_id_from_name - the id of kind named name; -1 if none */
int js_ev_id_from_name(unsigned int kind, const char *name);
/* js_ev_id_label - js_ev_id_name(), or "KIND:ID" ("vector:12") for an id without one,
 * into buf; returns buf */
const char *js_ev_id_label(unsigned int kind, unsigned int id, char *buf, size_t len);

/* js_ev_fn - the function an event names, as every text shows it (the causes' details, the
 * trace's slices): sym (its symbol, resolved by the caller; NULL or "" when unknown), else
 * the name the probe read, else its address "0x..."; returns sym, or buf[len] */
const char *js_ev_fn(const struct js_event *e, const char *sym, char *buf, size_t len);

/* js_ev_cgroup - the cgroup v2 id an event carries: a TASK's (addr), an IPI_SEND's sender's
 * (cgroup); 0 for the other kinds and when unknown */
static inline __u64 js_ev_cgroup(const struct js_event *e)
{
	return e->kind == JS_EV_TASK ? e->addr : e->kind == JS_EV_IPI_SEND ? e->cgroup : 0;
}

#endif /* JS_EVENT_NAMES_H */
