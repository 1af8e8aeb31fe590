/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* gap_parts.h - what the unit tests that build a gap's attribution by hand share. */
#ifndef GAP_PARTS_H
#define GAP_PARTS_H

#include <stdint.h>
#include <stdio.h>

#include "js_model.h"

/* add - a part (cause, detail, count, net time) to gap r; its net time is covered */
static inline void add(struct js_gap_rec *r, uint32_t cause, const char *detail, uint32_t count,
		       uint64_t net)
{
	struct js_part *p = &r->attr.parts[r->attr.nparts++];

	p->cause = cause;
	p->count = count;
	p->net_ns = net;
	snprintf(p->detail, sizeof(p->detail), "%s", detail);
	r->attr.covered_ns += net;
}

#endif /* GAP_PARTS_H */
