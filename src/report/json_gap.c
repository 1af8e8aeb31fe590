// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * json_gap.c - one gap's JSON (js_json_gap.h): its key lists and its writers; report_load.c
 * reads it back through the same lists.
 */
#include "js_causes.h"
#include "js_cgroup.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_stacks.h"
#include "js_util.h"
#include "js_waker.h"

#define NUM(type, field, req)                                                  \
	{                                                                      \
#field, offsetof(type, field), sizeof(((type *)0)->field), req \
	}

const struct js_json_num js_attr_nums[] = {
	NUM(struct js_attr, covered_ns, true), NUM(struct js_attr, steal_ns, true),
	NUM(struct js_attr, smi, true),	       NUM(struct js_attr, unexplained_ns, true),
	NUM(struct js_attr, entry_ns, false),
};
const size_t js_attr_nnums = ARRAY_SIZE(js_attr_nums);

const struct js_json_num js_part_nums[] = {
	NUM(struct js_part, count, true),
	NUM(struct js_part, net_ns, true),
	NUM(struct js_part, entry_ns, false),
};
const size_t js_part_nnums = ARRAY_SIZE(js_part_nums);

uint64_t js_json_num_get(const struct js_json_num *n, const void *base)
{
	const char *p = (const char *)base + n->off;

	return n->width == 4 ? *(const uint32_t *)(const void *)p :
			       *(const uint64_t *)(const void *)p;
}

void js_json_num_set(const struct js_json_num *n, void *base, uint64_t v)
{
	char *p = (char *)base + n->off;

	if (n->width == 4)
		*(uint32_t *)(void *)p = (uint32_t)JS_MIN(v, UINT32_MAX);
	else
		*(uint64_t *)(void *)p = v;
}

static void write_nums(struct js_json *j, const struct js_json_num *n, size_t nn, const void *base)
{
	for (size_t i = 0; i < nn; i++)
		json_u64(j, n[i].key, js_json_num_get(&n[i], base));
}

/* part_cgroup - the cgroup of the task a part names: its id, full path and short name
 * (null when it names none, or the path is unknown: a cgroup gone before it was looked up) */
static void part_cgroup(struct js_json *j, const struct js_cgroups *cg, uint64_t id)
{
	const char *path = cgroups_path(cg, id);

	if (id)
		json_u64(j, JG_CGROUP_ID, id);
	else
		json_null(j, JG_CGROUP_ID);
	if (path) {
		json_str(j, JG_CGROUP, path);
		json_str(j, JG_CGROUP_NAME, cgroups_name(cg, id));
	} else {
		json_null(j, JG_CGROUP);
		json_null(j, JG_CGROUP_NAME);
	}
}

/* stack - --stacks: key, an array of "symbol+0xoff" (innermost first), when ref names one */
static void stack(struct js_json *j, const struct js_stacks *t, uint32_t ref)
{
	const struct js_stack *st = js_stacks_get(t, ref);

	if (!st)
		return;
	json_arr_begin(j, JG_STACK);
	for (uint32_t i = 0; i < st->n && i < JS_STACK_FRAMES; i++)
		json_str(j, NULL, st->frame[i]);
	json_arr_end(j);
}

/* waker - who woke the primary part's task (null: not known) */
static void waker(struct js_json *j, const struct js_waker *w, const struct js_stacks *t)
{
	const char *sc = w->syscall >= 0 ? js_syscall_name(w->syscall) : NULL;
	char txt[128];

	if (!w->ctx) {
		json_null(j, JG_WAKER);
		return;
	}
	json_obj_begin(j, JG_WAKER);
	json_str(j, JG_WAKER_CONTEXT, js_wake_ctx_name(w->ctx));
	json_str(j, JG_WAKER_COMM, w->comm);
	json_u64(j, JG_WAKER_PID, w->pid);
	json_u64(j, JG_WAKER_CPU, w->cpu);
	if (sc)
		json_str(j, JG_WAKER_SYSCALL, sc);
	else
		json_null(j, JG_WAKER_SYSCALL);
	if (w->syscall >= 0)
		json_u64(j, JG_WAKER_SYSCALL_NR, (uint64_t)w->syscall);
	else
		json_null(j, JG_WAKER_SYSCALL_NR);
	json_i64(j, JG_WAKER_AT, w->at_ns);
	js_waker_format(txt, sizeof(txt), w);
	json_str(j, JG_WAKER_TEXT, txt);
	stack(j, t, w->stack);
	json_obj_end(j);
}

void js_attr_write_json(struct js_json *j, const struct js_attr *a, const struct js_cgroups *cg)
{
	js_attr_write_json_stacks(j, a, cg, NULL);
}

void js_attr_write_json_stacks(struct js_json *j, const struct js_attr *a,
			       const struct js_cgroups *cg, const struct js_stacks *t)
{
	json_str(j, JG_CAUSE, js_cause_name(a->primary));
	json_str(j, JG_DETAIL, a->detail);
	write_nums(j, js_attr_nums, js_attr_nnums, a);
	json_arr_begin(j, JG_CAUSES);
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		json_obj_begin(j, NULL);
		json_str(j, JG_CAUSE, js_cause_name(a->parts[i].cause));
		json_str(j, JG_DETAIL, a->parts[i].detail);
		write_nums(j, js_part_nums, js_part_nnums, &a->parts[i]);
		part_cgroup(j, cg, a->parts[i].cgroup);
		json_obj_end(j);
	}
	json_arr_end(j);
	waker(j, &a->waker, t);
	stack(j, t, a->stack);
}

void js_gap_write_json(struct js_json *j, const struct js_gap_rec *g)
{
	json_str(j, JG_SOURCE, js_source_name(g->gap.source));
	if (g->gap.source == JS_SRC_THREAD) {
		json_str(j, JG_THREAD, g->label);
		json_str(j, JG_KIND, js_gap_kind_name(g->gap.kind));
		if (g->gap.cpu_in)
			json_u64(j, JG_RESUMED_ON_CPU, g->gap.cpu_in - 1u);
		else
			json_null(j, JG_RESUMED_ON_CPU);
	} else if (g->gap.source == JS_SRC_MARK) {
		json_u64(j, JG_LINE, g->gap.id);
		json_str(j, JG_LABEL, g->label);
	}
}
