// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* evring.c - reading a CPU's ring of probe records (js_evring.h) */
#include <string.h>

#include "js_evring.h"

/* done - the seq of record t's slot when record t is written, else 0 */
static uint64_t done(const struct js_evring *r, uint64_t t)
{
	/* acquire: the fields were written before seq got JS_REC_DONE */
	uint64_t seq = __atomic_load_n(&r->rec[t & r->mask].seq, __ATOMIC_ACQUIRE);

	return (seq & ~JS_REC_NAMED) == (((t + 1) << JS_REC_SEQ_SHIFT) | JS_REC_DONE) ? seq : 0;
}

int js_evring_read(struct js_evring *r, size_t max, int (*cb)(void *ctx, const struct js_event *e),
		   void *ctx)
{
	uint64_t t = r->tail, seq;
	struct js_event ev;
	int n = 0, err = 0;

	while ((size_t)n < max) {
		seq = done(r, t);
		if (!seq && r->mask && done(r, t + 1) && ++r->held >= JS_EVRING_STUCK_READS) {
			r->held = 0;
			r->skipped++;
			t++; /* never sent: the records after it go on */
			continue;
		}
		if (!seq)
			break; /* not written yet (or not yet reserved) */
		r->held = 0;
		memcpy(&ev, &r->rec[t & r->mask].ev, sizeof(ev));
		if (!(seq & JS_REC_NAMED))
			memset(ev.name, 0, sizeof(ev.name));
		if (!(ev.flags & JS_F_WAKE)) /* the probes clear it only when they fill it */
			memset(&ev.wake, 0, sizeof(ev.wake));
		t++;
		n++;
		err = cb(ctx, &ev);
		if (err < 0)
			break;
	}
	r->tail = t;
	/* release: the records are copied before the programs may write over them */
	__atomic_store_n(r->tail_out, t, __ATOMIC_RELEASE);
	return err < 0 ? err : n;
}
