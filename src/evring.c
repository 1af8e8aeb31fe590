// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* evring.c - reading a measured CPU's ring of probe records (js_evring.h) */
#include <string.h>

#include "js_evring.h"

int js_evring_read(struct js_evring *r, size_t max, int (*cb)(void *ctx, const struct js_event *e),
		   void *ctx)
{
	uint64_t t = r->tail, want, seq;
	struct js_event ev;
	const struct js_rec *rec;
	int n = 0, err = 0;

	while ((size_t)n < max) {
		rec = &r->rec[t & r->mask];
		want = ((t + 1) << JS_REC_SEQ_SHIFT) | JS_REC_DONE;
		/* acquire: the fields were written before seq got JS_REC_DONE */
		seq = __atomic_load_n(&rec->seq, __ATOMIC_ACQUIRE);
		if ((seq & ~JS_REC_NAMED) != want)
			break; /* not written yet (or not yet reserved) */
		memcpy(&ev, &rec->ev, sizeof(ev));
		if (!(seq & JS_REC_NAMED))
			memset(ev.name, 0, sizeof(ev.name));
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
