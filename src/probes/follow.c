// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * follow.c - loader and consumer of bpf/follow.bpf.c (see js_follow.h): the configuration
 * into rodata between open and load (the process, or the threads into their map after load;
 * the threshold), programs whose tracepoint this kernel lacks not loaded (an interruption's
 * entry whose exit it lacks not attached), the ring drained with ring_buffer__consume() only
 * (the programs submit without wakeups). The kernel's types and the build that loads (tp_btf
 * or raw_tp) come from js_kbtf.h, as the probes' do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "js_bpf_helpers.h"
#include "js_follow.h"
#include "js_kbtf.h"
#include "js_probes.h"
#include "js_probes_arch.h"
#include "js_util.h"

/* the skeletons name the rodata types above (js_follow_events.h) */
#include "follow.skel.h"
#include "follow_raw.skel.h"

_Static_assert(sizeof(struct js_follow_rec) == 208, "js_follow_rec ABI is 208 bytes");

struct js_follow {
	struct follow_bpf *skel;
	struct ring_buffer *rb;
	struct bpf_link **links; /* per program, object order */
	struct bpf_program **progs;
	size_t nprogs;
	void (*cb)(void *ctx, const struct js_follow_rec *r);
	void *cb_ctx;
	size_t batch, batch_max;
	bool syscalls; /* sys_enter/sys_exit loaded (follow_syscalls_traced) */
	struct js_probes *probes;
	bool probes_toggled;
	unsigned by_probes; /* JS_FOLLOW_BY_*: the work the probes' programs did */
	bool lent;	    /* ... and still do (until follow_detach) */
};

/* the maps of bpf/follow_state.bpf.h: the probes', where there are probes */
static const char *const shared_maps[] = { "follow_tids", "follow_threads", "follow_forked",
					   "follow_irq",  "follow_hold",    "follow_records" };

/* syscall_prog - a program of the per-call system-call tracepoints */
static bool syscall_prog(const char *tp)
{
	return !strcmp(tp, "sys_enter") || !strcmp(tp, "sys_exit");
}

/* by_probes - the JS_FOLLOW_BY_* bit of a program's tracepoint, whose work the probes' own
 * program there may do instead (0: none) */
static unsigned by_probes(const char *tp)
{
	if (!strcmp(tp, "softirq_entry") || !strcmp(tp, "softirq_exit"))
		return JS_FOLLOW_BY_SOFTIRQ;
	if (!strcmp(tp, "sched_switch"))
		return JS_FOLLOW_BY_SWITCH;
	if (!strcmp(tp, "sched_waking"))
		return JS_FOLLOW_BY_WAKING;
	return 0;
}

/* tp - the tracepoint of a program */
static const char *tp(const struct bpf_program *prog)
{
	return bpfh_prog_tp(prog);
}

/* open_skel - the skeleton over the build k chose (js_kbtf.h); NULL with errno */
static struct follow_bpf *open_skel(const struct js_kbtf *k)
{
	struct follow_bpf *s = calloc(1, sizeof(*s));
	const void *raw;
	size_t raw_sz;
	int err;

	if (!s)
		return NULL;
	raw = follow_raw_bpf__elf_bytes(&raw_sz);
	err = follow_bpf__create_skeleton(s);
	if (!err)
		err = kbtf_open_skeleton(k, s->skeleton, raw, raw_sz);
	if (err) {
		follow_bpf__destroy(s);
		errno = -err;
		return NULL;
	}
	return s;
}

/* open_obj - open the object and leave out the programs whose tracepoint this kernel lacks
 * (an entry whose exit it lacks is not attached: follow_attach); 0 or -errno with why */
static int open_obj(struct js_follow *f, const struct follow_opts *o, char *why, size_t len)
{
	struct bpf_program *prog;
	struct js_kbtf k;
	int err;

	err = kbtf_open(&k, o->btf_path, why, len);
	if (err)
		return err;
	f->skel = open_skel(&k);
	if (!f->skel) {
		err = -errno;
		snprintf(why, len, "cannot open the BPF object: %s", strerror(-err));
		kbtf_free_types(&k);
		return err;
	}
	follow_cfg_of(o, &k, (struct js_follow_cfg *)&f->skel->rodata->follow_cfg);
	f->syscalls = f->skel->rodata->follow_cfg.trace_syscalls;
	bpf_object__for_each_program(prog, f->skel->obj)
	{
		f->nprogs++;
		if (!kbtf_has_tp(k.btf, tp(prog)) || probes_arch_skip(k.btf, tp(prog))) {
			js_dbg("follow %s: tracepoint not in this kernel or not its arch's",
			       tp(prog));
			bpf_program__set_autoload(prog, false);
		} else if (syscall_prog(tp(prog)) && !f->syscalls) {
			bpf_program__set_autoload(prog, false);
		} else if (!strcmp(tp(prog), "sched_process_fork") && !o->children) {
			bpf_program__set_autoload(prog, false);
		} else if (!strcmp(tp(prog), "sched_waking") && !o->hold_from_waking) {
			bpf_program__set_autoload(prog, false);
		} else if (!strcmp(tp(prog), "softirq_raise") &&
			   f->skel->rodata->follow_cfg.bh_pend_mask) {
			bpf_program__set_autoload(prog, false); /* the pending softirqs read */
		}
	}
	kbtf_free_types(&k);
	return 0;
}

static int rb_sample(void *ctx, void *data, size_t size)
{
	struct js_follow *f = ctx;

	if (size < sizeof(struct js_follow_rec))
		return 0;
	f->cb(f->cb_ctx, data);
	return ++f->batch >= f->batch_max ? -ECANCELED : 0;
}

void follow_cfg_of(const struct follow_opts *o, const struct js_kbtf *k, struct js_follow_cfg *c)
{
	*c = (struct js_follow_cfg){
		.tgid = (__u32)o->pid,
		.ntids = (__u32)o->ntids,
		.children = o->pid && o->children,
		.threshold_ns = o->threshold_ns,
		.join_ns = o->join_ns ? o->join_ns : JS_FOLLOW_JOIN_NS,
		.bh_join_ns = JS_FOLLOW_BH_JOIN_NS,
		/* the raw_tp build cannot read a task's registers at a switch: it traces them */
		.trace_syscalls = o->syscalls || !k->typed,
		.hold_from_waking = o->hold_from_waking,
	};
	if (kbtf_bh_pending(k->btf, &c->bh_pend_off, &c->bh_pend_mask))
		c->bh_pend_mask = 0; /* unknown: softirq_raise traced */
}

int follow_open(struct js_follow **out, const struct follow_opts *o, char *why, size_t len)
{
	struct js_follow *f = calloc(1, sizeof(*f));
	struct bpf_program *prog;
	__u32 one = 1;
	int err;

	*out = NULL;
	if (!f)
		return -ENOMEM;
	err = open_obj(f, o, why, len);
	if (err)
		goto fail;
	f->probes_toggled = o->probes_toggled;
	for (size_t i = 0; o->probes && i < ARRAY_SIZE(shared_maps); i++) {
		int fd = probes_map_fd(o->probes, shared_maps[i]);

		err = fd < 0 ? -ENOENT :
			       bpf_map__reuse_fd(bpf_object__find_map_by_name(f->skel->obj,
									      shared_maps[i]),
						 fd);
		if (err) {
			snprintf(why, len, "sharing the map %s with the probes: %s", shared_maps[i],
				 strerror(-err));
			goto fail;
		}
	}
	f->links = calloc(f->nprogs, sizeof(*f->links));
	f->progs = calloc(f->nprogs, sizeof(*f->progs));
	if (!f->links || !f->progs) {
		err = -ENOMEM;
		goto fail;
	}
	f->nprogs = 0;
	bpf_object__for_each_program(prog, f->skel->obj) f->progs[f->nprogs++] = prog;
	err = follow_bpf__load(f->skel);
	if (err) {
		snprintf(why, len, "BPF load failed: %s", strerror(-err));
		goto fail;
	}
	for (size_t i = 0; i < o->ntids; i++) {
		__u32 tid = (__u32)o->tids[i];

		err = bpf_map__update_elem(f->skel->maps.follow_tids, &tid, sizeof(tid), &one,
					   sizeof(one), BPF_ANY);
		if (err) {
			snprintf(why, len, "the threads' map: %s", strerror(-err));
			goto fail;
		}
	}
	f->rb = ring_buffer__new(bpf_map__fd(f->skel->maps.follow_records), rb_sample, f, NULL);
	if (!f->rb) {
		err = -errno;
		snprintf(why, len, "ring buffer: %s", strerror(-err));
		goto fail;
	}
	*out = f;
	return 0;
fail:
	follow_destroy(f);
	return err;
}

bool follow_syscalls_traced(const struct js_follow *f)
{
	return f->syscalls;
}

/* attach_one - program i; its link, or NULL (a warning) */
static struct bpf_link *attach_one(struct js_follow *f, size_t i)
{
	struct bpf_link *l;

	if (!bpf_program__autoload(f->progs[i]) || (f->by_probes & by_probes(tp(f->progs[i]))))
		return NULL;
	l = bpf_program__attach(f->progs[i]);
	if (!l)
		js_warn("follow %s: attach failed: %s", tp(f->progs[i]), strerror(errno));
	return l;
}

/* exit_of - the index of the _exit program paired with entry program i, or SIZE_MAX */
static size_t exit_of(const struct js_follow *f, size_t i)
{
	char x[64];

	if (!bpfh_partner(tp(f->progs[i]), 0, x, sizeof(x)))
		return SIZE_MAX;
	for (size_t k = 0; k < f->nprogs; k++)
		if (!strcmp(tp(f->progs[k]), x))
			return k;
	return SIZE_MAX;
}

int follow_attach(struct js_follow *f, struct js_probes *probes)
{
	/* one program at a tracepoint, not two: the probes' (attached, and staying attached)
	 * do this object's work at a softirq, a switch and a wake-up where they can */
	f->probes = probes;
	f->by_probes = probes && !f->probes_toggled ? probes_follow_take(probes, true) : 0;
	f->lent = f->by_probes != 0;
	/* exits first, then the entries whose exit is attached: an interruption's entry
	 * counted without its exit would never close */
	for (size_t i = 0; i < f->nprogs; i++)
		if (bpfh_is_exit(tp(f->progs[i])))
			f->links[i] = attach_one(f, i);
	for (size_t i = 0; i < f->nprogs; i++) {
		size_t x = bpfh_has_suffix(tp(f->progs[i]), "_entry") ? exit_of(f, i) : i;

		if (!bpfh_is_exit(tp(f->progs[i])) && x != SIZE_MAX && (x == i || f->links[x]))
			f->links[i] = attach_one(f, i);
	}
	for (size_t i = 0; i < f->nprogs; i++)
		if (!strcmp(tp(f->progs[i]), "sched_switch") && !f->links[i] &&
		    !(f->by_probes & JS_FOLLOW_BY_SWITCH))
			return -ENOENT;
	return 0;
}

int follow_consume(struct js_follow *f, void (*cb)(void *ctx, const struct js_follow_rec *r),
		   void *ctx)
{
	int err;

	f->cb = cb;
	f->cb_ctx = ctx;
	f->batch = 0;
	/* at most a ring's worth: a callback slower than the writers still returns */
	f->batch_max = bpf_map__max_entries(f->skel->maps.follow_records) /
			       (sizeof(struct js_follow_rec) + 8) +
		       1;
	err = ring_buffer__consume(f->rb);
	if (err < 0 && err != -ECANCELED)
		return err;
	return (int)f->batch;
}

void follow_fill(const struct js_follow *f, size_t *used, size_t *size)
{
	*used = f->batch * (sizeof(struct js_follow_rec) + 8); /* 8: a record's header */
	*size = bpf_map__max_entries(f->skel->maps.follow_records);
}

void follow_threads(struct js_follow *f,
		    void (*cb)(void *ctx, uint32_t tid, const struct js_follow_thread *t),
		    void *ctx)
{
	int fd = bpf_map__fd(f->skel->maps.follow_threads);
	__u32 key, next, *prev = NULL;
	struct js_follow_thread t;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		if (!bpf_map_lookup_elem(fd, &next, &t))
			cb(ctx, next, &t);
		key = next;
		prev = &key;
	}
}

void follow_lost(const struct js_follow *f, uint64_t *records, uint64_t *threads)
{
	*records = __atomic_load_n(&f->skel->bss->follow_lost, __ATOMIC_RELAXED);
	*threads = __atomic_load_n(&f->skel->bss->follow_untracked, __ATOMIC_RELAXED);
	if (f->by_probes)
		probes_follow_lost(f->probes, records, threads);
}

void follow_progs(struct js_follow *f,
		  void (*cb)(void *ctx, const char *name, uint64_t runs, uint64_t run_ns,
			     uint64_t misses),
		  void *ctx)
{
	for (size_t i = 0; i < f->nprogs; i++) {
		uint32_t id;
		uint64_t runs, run_ns, miss;

		if (!bpfh_prog_run(f->progs[i], &id, &runs, &run_ns, &miss))
			cb(ctx, bpf_program__name(f->progs[i]), runs, run_ns, miss);
	}
}

void follow_detach(struct js_follow *f)
{
	/* entries first: no interruption begins that its exit would not close */
	for (int pass = 0; f->links && pass < 2; pass++)
		for (size_t i = 0; i < f->nprogs; i++) {
			if (bpfh_is_exit(tp(f->progs[i])) == !pass)
				continue;
			bpf_link__destroy(f->links[i]);
			f->links[i] = NULL;
		}
	if (f->lent)
		probes_follow_take(f->probes, false);
	f->lent = false;
}

void follow_destroy(struct js_follow *f)
{
	if (!f)
		return;
	follow_detach(f);
	ring_buffer__free(f->rb);
	follow_bpf__destroy(f->skel);
	free(f->links);
	free(f->progs);
	free(f);
}
