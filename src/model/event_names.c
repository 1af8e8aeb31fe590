// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * events.c - names of the event enums (see js_event_names.h).
 *
 * The names are the kernel's own, so a user can search for them: the irq_vectors
 * tracepoints without "_entry" (thermal_apic_entry -> "thermal_apic"), /proc/softirqs'
 * rows, and enum tlb_flush_reason without "TLB_" (TLB_REMOTE_SEND_IPI ->
 * "remote_send_ipi"; TLB_FLUSH_ON_TASK_SWITCH -> "task_switch", since the trace already
 * says "tlb flush"). THP and mm steps have no short kernel name a user would look for:
 * they say what happened ("THP collapse", "khugepaged scan_pmd", "compaction").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "js_event_names.h"
#include "js_util.h"

static const char *const kind_names[JS_EV_KIND_MAX] = {
	[JS_EV_NONE] = "none",	       [JS_EV_IRQ] = "irq",	    [JS_EV_VECTOR] = "vector",
	[JS_EV_SOFTIRQ] = "softirq",   [JS_EV_HRTIMER] = "hrtimer", [JS_EV_NMI] = "nmi",
	[JS_EV_FAULT] = "fault",       [JS_EV_TASK] = "task",	    [JS_EV_IDLE] = "idle",
	[JS_EV_WORK] = "work",	       [JS_EV_THP] = "thp",	    [JS_EV_TLB] = "tlb",
	[JS_EV_IPI_SEND] = "ipi_send", [JS_EV_MIGRATE] = "migrate", [JS_EV_USER] = "event",
};

static const char *const vector_names[JS_VEC_MAX] = {
	[JS_VEC_LOCAL_TIMER] = "local_timer",
	[JS_VEC_RESCHEDULE] = "reschedule",
	[JS_VEC_CALL_FUNCTION] = "call_function",
	[JS_VEC_CALL_FUNCTION_SINGLE] = "call_function_single",
	[JS_VEC_IRQ_WORK] = "irq_work",
	[JS_VEC_THERMAL] = "thermal_apic",
	[JS_VEC_PLATFORM_IPI] = "x86_platform_ipi",
	[JS_VEC_ERROR] = "error_apic",
	[JS_VEC_SPURIOUS] = "spurious_apic",
	[JS_VEC_IPI_OTHER] = "ipi_other",
};

static const char *const softirq_names[JS_SOFTIRQ_MAX] = {
	[JS_SOFTIRQ_HI] = "HI",		  [JS_SOFTIRQ_TIMER] = "TIMER",
	[JS_SOFTIRQ_NET_TX] = "NET_TX",	  [JS_SOFTIRQ_NET_RX] = "NET_RX",
	[JS_SOFTIRQ_BLOCK] = "BLOCK",	  [JS_SOFTIRQ_IRQ_POLL] = "IRQ_POLL",
	[JS_SOFTIRQ_TASKLET] = "TASKLET", [JS_SOFTIRQ_SCHED] = "SCHED",
	[JS_SOFTIRQ_HRTIMER] = "HRTIMER", [JS_SOFTIRQ_RCU] = "RCU",
};

static const char *const tlb_names[JS_TLB_REASON_MAX] = {
	[JS_TLB_TASK_SWITCH] = "task_switch",
	[JS_TLB_REMOTE_SHOOTDOWN] = "remote_shootdown",
	[JS_TLB_LOCAL_SHOOTDOWN] = "local_shootdown",
	[JS_TLB_LOCAL_MM_SHOOTDOWN] = "local_mm_shootdown",
	[JS_TLB_REMOTE_SEND_IPI] = "remote_send_ipi",
	[JS_TLB_REMOTE_WRONG_CPU] = "remote_wrong_cpu",
};

static const char *const thp_names[JS_THP_MAX] = {
	[JS_THP_COLLAPSE] = "THP collapse",
	[JS_THP_ISOLATE] = "THP isolate",
	[JS_THP_SCAN_PMD] = "khugepaged scan_pmd",
	[JS_THP_SCAN_FILE] = "khugepaged scan_file",
};

static const char *const mm_names[JS_MM_MAX] = {
	[JS_MM_COMPACT] = "compaction",
	[JS_MM_MIGRATE] = "migration",
};

struct id_table {
	const char *const *names;
	unsigned int n;
};

/* ids_of - the name table of kind's ids; n = 0 when its id is not an enumeration */
static struct id_table ids_of(unsigned int kind)
{
	switch (kind) {
	case JS_EV_VECTOR:
		return (struct id_table){ vector_names, ARRAY_SIZE(vector_names) };
	case JS_EV_SOFTIRQ:
		return (struct id_table){ softirq_names, ARRAY_SIZE(softirq_names) };
	case JS_EV_TLB:
		return (struct id_table){ tlb_names, ARRAY_SIZE(tlb_names) };
	case JS_EV_THP:
		return (struct id_table){ thp_names, ARRAY_SIZE(thp_names) };
	case JS_EV_MIGRATE:
		return (struct id_table){ mm_names, ARRAY_SIZE(mm_names) };
	default:
		return (struct id_table){ NULL, 0 };
	}
}

/* js_ev_kind_name - "irq", "vector", "softirq" ... for enum js_ev_kind; NULL if unknown */
const char *js_ev_kind_name(unsigned int kind)
{
	return kind < JS_EV_KIND_MAX ? kind_names[kind] : NULL;
}

/* js_ev_kind_from_name - the enum js_ev_kind named name; -1 if none */
int js_ev_kind_from_name(const char *name)
{
	return js_name_index(kind_names, JS_EV_KIND_MAX, name);
}

/* js_ev_id_count - how many ids of kind have a name; 0 if its id is not an enumeration */
unsigned int js_ev_id_count(unsigned int kind)
{
	return ids_of(kind).n;
}

/* js_ev_id_name - the name of id for kind; NULL if unnamed */
const char *js_ev_id_name(unsigned int kind, unsigned int id)
{
	struct id_table t = ids_of(kind);

	return id < t.n ? t.names[id] : NULL;
}

/* js_ev_id_from_name - the id of kind named name; -1 if none */
int js_ev_id_from_name(unsigned int kind, const char *name)
{
	struct id_table t = ids_of(kind);

	return js_name_index(t.names, t.n, name);
}

/* js_ev_id_label - js_ev_id_name(), or "KIND:ID" for an id without one; returns buf */
const char *js_ev_id_label(unsigned int kind, unsigned int id, char *buf, size_t len)
{
	const char *s = js_ev_id_name(kind, id), *k = js_ev_kind_name(kind);

	if (s)
		js_scpy(buf, len, s);
	else
		snprintf(buf, len, "%s:%u", k ? k : "event", id);
	return buf;
}

const char *js_ev_fn(const struct js_event *e, const char *sym, char *buf, size_t len)
{
	if (sym && *sym)
		return sym;
	char hex[2 + 16 + 1], *h = hex + sizeof(hex) - 1;
	uint64_t v = e->addr;

	if (!len)
		return buf;
	/* as snprintf("%.*s") and snprintf("0x%" PRIx64) would write them, without its cost
	 * (asked for a callback of every gap where no symbol names it) */
	if (e->name[0]) {
		size_t n = JS_MIN(strnlen(e->name, JS_NAME_LEN), len - 1);

		memcpy(buf, e->name, n);
		buf[n] = '\0';
		return buf;
	}
	*h = '\0';
	do {
		*--h = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--h = 'x';
	*--h = '0';
	js_scpy(buf, len, h);
	return buf;
}
