// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* nap.c - the housekeeping thread's sleep between drains (js_nap.h) */
#include "js_nap.h"
#include "js_util.h"

/* quiet - used under 1/JS_NAP_QUIET_FILL of a ring of size cap (no ring: quiet) */
static bool quiet(size_t used, size_t cap)
{
	return used < cap / JS_NAP_QUIET_FILL || (!cap && !used);
}

uint64_t js_nap_late(uint64_t nap, uint64_t asleep)
{
	return asleep >= nap + JS_NAP_LATE_NS ? asleep - nap : 0;
}

uint64_t js_nap_next(uint64_t nap, const struct js_nap_fill *f)
{
	if (f->src_base || f->hook || !quiet(f->gaps, f->ring_entries) ||
	    !quiet(f->ev_bytes, f->ev_ring_bytes) || !quiet(f->src_bytes, f->src_ring_bytes))
		return JS_NAP_BASE_NS;
	return JS_MIN(JS_MAX(2 * nap, JS_NAP_BASE_NS), JS_NAP_QUIET_NS);
}
