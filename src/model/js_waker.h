/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_waker.h - who woke a preempting task (struct js_waker, js_model.h): taken from its
 * run's event, named and told (pure, no I/O). docs/ATTRIBUTION.md, "Who woke it".
 *
 *   "jswriter:811 on CPU 0 via write 3.0 us before"    a task, in a system call
 *   "timer on CPU 1 2.1 us into the gap"                an hrtimer callback (the tick...)
 */
#ifndef JS_WAKER_H
#define JS_WAKER_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "js_model.h"

/* js_wake_ctx_name - "task", "hardirq", "softirq", "timer", "nmi", "unknown"; "" for
 * JS_WAKE_NONE and out of range */
const char *js_wake_ctx_name(uint32_t ctx);
/* js_wake_ctx_from_name - the enum js_wake_ctx named name (not JS_WAKE_NONE); -1 if none */
int js_wake_ctx_from_name(const char *name);

/* js_syscall_name - the name of system call nr of this build's architecture ("write"),
 * NULL if not in the table */
const char *js_syscall_name(int nr);
/* js_syscall_from_name - the number of a system call named by js_syscall_name; -1 */
int js_syscall_from_name(const char *name);

/*
 * js_waker_from_event - the waker of a task's run e (JS_EV_TASK with JS_F_WAKE), with its
 * time against a gap starting at gap_start; false (w cleared) when e names none
 */
bool js_waker_from_event(const struct js_event *e, uint64_t gap_start, struct js_waker *w);

/* js_waker_who - "comm:pid" of a waking task (context task, or unknown), else the context's
 * label: "hard IRQ", "softirq", "timer", "NMI"; like snprintf */
int js_waker_who(char *buf, size_t len, const struct js_waker *w);

/* js_waker_format - "WHO on CPU N[ via SYSCALL] T before|into the gap" ("" when w->ctx is
 * 0); returns the length of the full text like snprintf */
int js_waker_format(char *buf, size_t len, const struct js_waker *w);

#endif /* JS_WAKER_H */
