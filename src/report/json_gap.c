// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * json_gap.c - one gap's JSON (js_json_gap.h): its key lists, its writers and, beside them,
 * its readers, through the same lists.
 */
#include <stdio.h>
#include <string.h>

#include "js_causes.h"
#include "js_cgroup.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_jsonread.h"
#include "js_run_cfg.h"
#include "js_event_names.h"
#include "js_stacks.h"
#include "js_util.h"
#include "js_waker.h"

const struct json_field js_attr_nums[] = {
	JSON_FIELD(struct js_attr, covered_ns, U64, JF_REQ),
	JSON_FIELD(struct js_attr, steal_ns, U64, JF_REQ | JF_CSV),
	JSON_FIELD(struct js_attr, smi, U64, JF_REQ),
	JSON_FIELD(struct js_attr, unexplained_ns, U64, JF_REQ | JF_CSV),
	JSON_FIELD(struct js_attr, entry_ns, U64, JF_CSV),
	JSON_FIELD(struct js_attr, evidence_lost, U32, 0), /* absent before it: 0 */
};
const size_t js_attr_nnums = ARRAY_SIZE(js_attr_nums);

const struct json_field js_part_nums[] = {
	JSON_FIELD(struct js_part, count, U32, JF_REQ),
	JSON_FIELD(struct js_part, net_ns, U64, JF_REQ),
	JSON_FIELD(struct js_part, entry_ns, U64, 0),
};
const size_t js_part_nnums = ARRAY_SIZE(js_part_nums);

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

/* load_part_cgroup - the cgroup of the task a part names (absent before jitterscope named
 * cgroups), its path into the run's table */
static void load_part_cgroup(struct jr *l, const struct jsonp_val *v, struct js_part *part,
			     struct js_cgroups *cg)
{
	const struct jsonp_val *path = jr_get(l, v, JG_CGROUP, JSONP_STR, JR_NUL);

	jr_u64(l, v, JG_CGROUP_ID, JR_NUL, &part->cgroup);
	if (part->cgroup && path && !cgroups_get(cg, part->cgroup) &&
	    cgroups_add(cg, part->cgroup, path->str.s))
		jr_fail(l, path, JG_CGROUP, "out of memory");
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

/* load_stack - --stacks: the stack under JG_STACK (absent: none) into the run's table; its
 * ref, 0: none */
static uint32_t load_stack(struct jr *l, const struct jsonp_val *o, struct js_stacks *t)
{
	const struct jsonp_val *a = jr_get(l, o, JG_STACK, JSONP_ARR, 0);
	size_t mark = jr_push(l, "." JG_STACK);
	struct js_stack st = { 0 };

	for (size_t i = 0; a && i < a->arr.n && !l->rc; i++) {
		if (i >= JS_STACK_FRAMES || !jsonp_is(&a->arr.v[i], JSONP_STR))
			jr_fail(l, &a->arr.v[i], NULL, "expected a string (at most %d)",
				JS_STACK_FRAMES);
		else
			js_scpy(st.frame[st.n++], JS_FRAME_LEN, a->arr.v[i].str.s);
	}
	jr_pop(l, mark);
	return a && !l->rc && t ? js_stacks_intern(t, &st) : 0;
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

/* load_waker - who woke the primary part's task (absent before it was tracked, null: none) */
static void load_waker(struct jr *l, const struct jsonp_val *v, struct js_waker *w,
		       struct js_stacks *t)
{
	const struct jsonp_val *o = jr_get(l, v, JG_WAKER, JSONP_OBJ, JR_NUL);
	size_t mark = jr_push(l, "." JG_WAKER);
	uint64_t pid = 0, cpu = 0, nr = 0;
	int k;

	memset(w, 0, sizeof(*w));
	w->syscall = -1;
	if (!o) {
		jr_pop(l, mark);
		return;
	}
	k = jr_name(l, o, JG_WAKER_CONTEXT, js_wake_ctx_from_name);
	jr_str(l, o, JG_WAKER_COMM, 0, w->comm, sizeof(w->comm));
	jr_u64(l, o, JG_WAKER_PID, 0, &pid);
	jr_u64(l, o, JG_WAKER_CPU, 0, &cpu);
	if (jr_get(l, o, JG_WAKER_SYSCALL_NR, JSONP_NUM, JR_NUL)) {
		jr_u64(l, o, JG_WAKER_SYSCALL_NR, 0, &nr);
		w->syscall = (int32_t)JS_MIN(nr, (uint64_t)INT32_MAX);
	}
	jr_i64(l, o, JG_WAKER_AT, 0, &w->at_ns);
	w->pid = (uint32_t)JS_MIN(pid, UINT32_MAX);
	w->cpu = (uint16_t)JS_MIN(cpu, UINT16_MAX);
	w->ctx = k < 0 ? 0 : (uint8_t)k;
	w->stack = load_stack(l, o, t);
	jr_pop(l, mark);
}

/*
 * v1_detail - a schema 1 detail in today's spelling. Schema 1 named four APIC vectors and
 * a tlb flush reason its own way ("thermal", "remote_ipi_send") and ids without a name
 * "reason:N" (tlb) and "mm:N"; the detail's first word is that name (CHANGELOG.md).
 */
static void v1_detail(uint32_t cause, char *d, size_t len)
{
	static const struct {
		uint32_t cause, kind, id;
		const char *name;
	} renamed[] = {
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_THERMAL, "thermal" },
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_PLATFORM_IPI, "platform_ipi" },
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_ERROR, "error" },
		{ JS_CAUSE_VECTOR, JS_EV_VECTOR, JS_VEC_SPURIOUS, "spurious" },
		{ JS_CAUSE_TLB, JS_EV_TLB, JS_TLB_REMOTE_SEND_IPI, "remote_ipi_send" },
	};
	char name[JS_DETAIL_LEN], rest[JS_DETAIL_LEN];
	int w = (int)strcspn(d, " "), n = -1;
	unsigned int id;

	name[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(renamed); i++)
		if (cause == renamed[i].cause && (int)strlen(renamed[i].name) == w &&
		    !strncmp(d, renamed[i].name, (size_t)w))
			js_ev_id_label(renamed[i].kind, renamed[i].id, name, sizeof(name));
	if (cause == JS_CAUSE_TLB && sscanf(d, "reason:%u%n", &id, &n) == 1 && n == w)
		js_ev_id_label(JS_EV_TLB, id, name, sizeof(name));
	if (cause == JS_CAUSE_MM && sscanf(d, "mm:%u%n", &id, &n) == 1 && n == w)
		js_ev_id_label(JS_EV_MIGRATE, id, name, sizeof(name));
	if (!name[0])
		return;
	js_scpy(rest, sizeof(rest), d + w);
	snprintf(d, len, "%s%s", name, rest);
}

/* js_detail_read - the detail of a part or source of class cause, in today's spelling */
void js_detail_read(struct jr *l, const struct jsonp_val *o, uint32_t cause, char *dst, size_t len)
{
	jr_str(l, o, JG_DETAIL, JR_REQ, dst, len);
	if (l->schema == 1)
		v1_detail(cause, dst, len);
}

static void load_part(struct jr *l, const struct jsonp_val *v, struct js_part *part,
		      struct js_cgroups *cg)
{
	int k = jr_name(l, v, JG_CAUSE, js_cause_from_name);

	part->cause = k < 0 ? 0 : (uint32_t)k;
	js_detail_read(l, v, part->cause, part->detail, sizeof(part->detail));
	jr_fields(l, v, js_part_nums, js_part_nnums, part);
	load_part_cgroup(l, v, part, cg);
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
	json_fields_write(j, js_attr_nums, js_attr_nnums, a);
	json_arr_begin(j, JG_CAUSES);
	for (uint32_t i = 0; i < a->nparts && i < JS_PARTS_MAX; i++) {
		json_obj_begin(j, NULL);
		json_str(j, JG_CAUSE, js_cause_name(a->parts[i].cause));
		json_str(j, JG_DETAIL, a->parts[i].detail);
		json_fields_write(j, js_part_nums, js_part_nnums, &a->parts[i]);
		part_cgroup(j, cg, a->parts[i].cgroup);
		json_obj_end(j);
	}
	json_arr_end(j);
	waker(j, &a->waker, t);
	stack(j, t, a->stack);
}

/* js_attr_read_json - what js_attr_write_json_stacks wrote, back into a: its cgroups into
 * the table cg, its stacks into t */
void js_attr_read_json(struct jr *l, const struct jsonp_val *v, struct js_attr *a,
		       struct js_cgroups *cg, struct js_stacks *t)
{
	const struct jsonp_val *parts;
	int k;

	k = jr_name(l, v, JG_CAUSE, js_cause_from_name);
	a->primary = k < 0 ? 0 : (uint32_t)k;
	js_detail_read(l, v, a->primary, a->detail, sizeof(a->detail));
	jr_fields(l, v, js_attr_nums, js_attr_nnums, a);
	parts = jr_get(l, v, JG_CAUSES, JSONP_ARR, JR_REQ);
	for (size_t i = 0; parts && i < parts->arr.n && !l->rc; i++) {
		size_t m2 = jr_push(l, "." JG_CAUSES "[%zu]", i);

		if (i >= JS_PARTS_MAX || !jsonp_is(&parts->arr.v[i], JSONP_OBJ))
			jr_fail(l, &parts->arr.v[i], NULL, "expected an object (at most %d)",
				JS_PARTS_MAX);
		else
			load_part(l, &parts->arr.v[i], &a->parts[a->nparts++], cg);
		jr_pop(l, m2);
	}
	load_waker(l, v, &a->waker, t);
	a->stack = load_stack(l, v, t);
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

/* js_gap_read_json - where a gap of source src (tid: a thread's) comes from (absent before
 * the other sources: the sampler) */
void js_gap_read_json(struct jr *l, const struct jsonp_val *v, enum js_source src, uint32_t tid,
		      struct js_gap_rec *g)
{
	int64_t cpu_in = -1;
	uint64_t line = 0;
	int k;

	g->gap.source = (uint8_t)src;
	if (src == JS_SRC_THREAD) {
		g->gap.id = tid;
		jr_str(l, v, JG_THREAD, 0, g->label, sizeof(g->label));
		k = jsonp_get(v, JG_KIND) ? jr_name(l, v, JG_KIND, js_gap_kind_from_name) : 0;
		g->gap.kind = (uint8_t)(k < 0 ? 0 : k);
		jr_i64(l, v, JG_RESUMED_ON_CPU, JR_NUL, &cpu_in);
		if (cpu_in >= 0 && cpu_in < JS_CPUS_MAX)
			g->gap.cpu_in = (uint16_t)(cpu_in + 1);
	} else if (src == JS_SRC_MARK) {
		jr_u64(l, v, JG_LINE, 0, &line);
		g->gap.id = (uint32_t)JS_MIN(line, UINT32_MAX);
		jr_str(l, v, JG_LABEL, 0, g->label, sizeof(g->label));
	}
}
