// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * probes.c - loader and consumer of bpf/probes.bpf.c (see js_probes.h).
 *
 * Configuration goes into rodata between open and load: the measured-CPU mask and list,
 * our tgid, and the per-CPU offsets that turn an hrtimer_cpu_base address into the
 * steal_time and hv_clock_per_cpu addresses (docs/DESIGN.md, probes), which kbtf.c finds in
 * the kernel's BTF (js_kbtf.h: --btf FILE or its own, which also picks the tp_btf or the
 * raw_tp build). Programs whose tracepoint is missing from this kernel's BTF (or whose
 * entry/exit partner is) are not loaded; which run in full and in lean is probe_table.c's.
 * Every CPU writes its own ring (parts of one mmap'ed array, js_evring.h): each
 * measured CPU a long one, every other CPU a short one for what it does to a measured CPU
 * (IPI sends, khugepaged). They are read on the housekeeping thread's timer: no probe ever
 * wakes anyone.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "js_bpf_helpers.h"
#include "js_evring.h"
#include "js_follow.h"
#include "js_follow_bh.h"
#include "js_kbtf.h"
#include "js_lblog.h"
#include "js_open_iv.h"
#include "js_probes_arch.h"
#include "js_probes.h"
#include "js_util.h"

/* the skeletons name the rodata types above (js_follow_events.h) */
#include "probes.skel.h"
#include "probes_raw.skel.h"
#include "js_probe_state.h" /* the probes' per-CPU state */
#include "js_probe_table.h"

_Static_assert(sizeof(struct js_event) == 120, "js_event ABI is 120 bytes");
_Static_assert(sizeof(struct js_rec) == PROBES_RECORD_BYTES, "a ring record is 128 bytes");

#define RING_BYTES_DEFAULT (16u << 20)
#define RING_MIN_RECS 16u /* the smallest ring a measured CPU gets */
/* each other CPU's ring, for its records about measured CPUs: SEND_RINGS_BYTES shared out,
 * a power of two from SEND_RING_MIN to SEND_RING_MAX records each (many CPUs, many senders);
 * the least times JS_MAX_CPUS is SEND_RINGS_BYTES: bounded on any machine (a sender writes
 * an IPI send or a THP scan about a measured CPU, a few per drain) */
#define SEND_RINGS_BYTES (8u << 20)
#define SEND_RING_MIN 64u
#define SEND_RING_MAX 1024u
_Static_assert(SEND_RINGS_BYTES / PROBES_RECORD_BYTES / SEND_RING_MIN >= JS_MAX_CPUS,
	       "the senders' rings fit SEND_RINGS_BYTES on JS_MAX_CPUS CPUs");
/* follow_state.bpf.h cannot include js_events.h: its "follow_hold" map spells JS_MAX_CPUS again */
_Static_assert(JS_FOLLOW_HOLD_CPUS == JS_MAX_CPUS,
	       "one slot of follow_hold per CPU the probes watch");

struct js_probes {
	struct probes_bpf *skel;
	struct js_evring *rings; /* nrings: the measured CPUs' (as cpus), then the others' */
	int *ring_cpus;		 /* nrings: the CPU writing each ring */
	size_t nrings;
	void *ring_mem; /* the rings, mapped */
	size_t ring_mem_len;
	const struct js_own_bh *own; /* own_bh_log: the own softirqs' slots, mapped */
	size_t own_len;		     /* ... bytes mapped */
	unsigned own_cpus;	     /* ... CPUs with slots */
	size_t ring_len;	     /* records in each measured CPU's ring */
	size_t send_len;	     /* records in each other CPU's ring */
	size_t fill_recs, fill_len;  /* the fullest ring at the last consume: read, length */
	struct bpf_program **bprogs; /* nprogs, object order */
	struct bpf_link **links;     /* nprogs */
	struct probes_prog *progs;   /* nprogs */
	size_t nprogs;
	size_t *order; /* attach order: exits first */
	int *cpus;
	size_t ncpus;
	int stats_fd; /* BPF_ENABLE_STATS while attached, else -1 */
	bool run_stats_wanted;
	bool run_stats;
	bool attached;
	bool steal;
	char steal_why[128];
	bool clk; /* readings carry the kvmclock version (rodata clk_enabled) */
	char clk_why[128];
	bool no_waker;	/* --no-waker: sched_waking not loaded */
	bool waker;	/* waker tracking on (rodata waker_on) */
	bool waker_ctx; /* ... with the per-CPU offsets of the wake-up's context */
	bool stacks;	/* --stacks: stack ids in records (rodata stacks_on) */
	uint64_t attach_ns, detach_ns;
	uint64_t consumed;
	uint64_t consumed_by_kind[JS_EV_KIND_MAX]; /* the probes keep no sent counter */
	struct open_iv open;			   /* JS_F_OPEN records queued by detach */
	int (*cb)(void *ctx, const struct js_event *ev);
	void *cb_ctx;
	char rejected[16][48]; /* programs the verifier refused: not loaded */
	size_t nrejected;
	bool typed;	   /* the tp_btf build (js_kbtf.h), else the raw_tp one: */
	char raw_why[160]; /* why */
	bool toggled_off;  /* probes_set_attached(false): loaded, no link */
	bool lean;	   /* --probes lean: probe_table's lean programs */
	bool follow;	   /* loaded for followed threads (probes_opts.follow) */
	/* --event: each slot's tracepoints, "SUBSYS:NAME": [0] opens (or is the point), [1]
	 * closes ("" for a point) */
	char user[JS_USER_SLOTS][2][64];
	size_t nuser;
};

/* ---- steal clock (the locator is kbtf.c's: docs/DESIGN.md, probes) --------------- */

/* steal_setup - put &steal_time.steal - &hrtimer_bases into rodata, or say why not */
static void steal_setup(struct js_probes *p, const struct btf *btf)
{
	if (!probes_arch_kvm_steal()) {
		snprintf(p->steal_why, sizeof(p->steal_why), "not a KVM guest with steal time");
		return;
	}
	if (kbtf_steal_delta(btf, &p->skel->rodata->steal_delta)) {
		snprintf(p->steal_why, sizeof(p->steal_why),
			 "steal_time/hrtimer_bases not in the kernel BTF's .data..percpu");
		return;
	}
	p->skel->rodata->steal_enabled = 1;
	p->steal = true;
}

/* clk_setup - put &hv_clock_per_cpu - &hrtimer_bases into rodata (the kvmclock version in
 * the readings: docs/ATTRIBUTION.md, "The host"), or say why not */
static void clk_setup(struct js_probes *p, const struct btf *btf)
{
	if (!probes_arch_kvmclock()) {
		snprintf(p->clk_why, sizeof(p->clk_why), "no kvm-clock clocksource");
		return;
	}
	if (kbtf_clk_delta(btf, &p->skel->rodata->clk_delta)) {
		snprintf(p->clk_why, sizeof(p->clk_why),
			 "hv_clock_per_cpu/hrtimer_bases not in the kernel BTF's .data..percpu");
		return;
	}
	p->skel->rodata->clk_enabled = 1;
	p->clk = true;
}

/* ---- program selection -------------------------------------------------------------- */

static bool is_paired(const char *tp)
{
	char buf[64];

	return bpfh_partner(tp, 0, buf, sizeof(buf));
}

static struct probes_prog *prog_by_name(struct js_probes *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nprogs; i++)
		if (p->progs[i].state != PROBES_PROG_UNUSED && !strcmp(p->progs[i].name, name))
			return &p->progs[i];
	return NULL;
}

/* partner_state - state of a paired program's other half in the object */
static enum probes_prog_state partner_state(struct js_probes *p, const char *tp)
{
	struct probes_prog *o;
	char buf[64];
	size_t i;

	for (i = 0; bpfh_partner_suffix(i); i++) {
		if (!bpfh_has_suffix(tp, bpfh_partner_suffix(i)) ||
		    !bpfh_partner(tp, i, buf, sizeof(buf)))
			continue;
		o = prog_by_name(p, buf);
		if (o)
			return o->state;
	}
	return PROBES_PROG_ABSENT;
}

static bool rejected(const struct js_probes *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nrejected; i++)
		if (!strcmp(p->rejected[i], name))
			return true;
	return false;
}

/* user_prog - an --event program (user_open_N, user_close_N): its tracepoint's "SUBSYS:NAME",
 * "" for a slot not in use; NULL for any other program. *close: it closes a pair */
static const char *user_prog(const struct js_probes *p, const char *fn, bool *close)
{
	unsigned long n;
	char *end;

	*close = !strncmp(fn, "user_close_", 11);
	if (!*close && strncmp(fn, "user_open_", 10))
		return NULL;
	n = strtoul(fn + (*close ? 11 : 10), &end, 10);
	if (*end || n >= p->nuser)
		return "";
	return p->user[n][*close];
}

/* prog_is_exit - a program attached before, detached after the others: an exit, an --event
 * pair's closing one */
static bool prog_is_exit(const struct js_probes *p, size_t i)
{
	bool close;

	if (p->progs[i].user)
		return user_prog(p, bpf_program__name(p->bprogs[i]), &close) && close;
	return bpfh_is_exit(p->progs[i].name);
}

/* the programs that also do follow.bpf.c's work (JS_FOLLOW_BY_*), each loaded instead of the
 * plain one where threads are followed, unless the verifier refused it before */
static const char *const follow_variants[][2] = { { "sched_switch", "sched_switch_follow" },
						  { "sched_waking", "sched_waking_follow" } };

/* variant_wanted - is program fn (a function name) this run's choice of its pair above */
static bool variant_wanted(const struct js_probes *p, const char *fn)
{
	for (size_t i = 0; i < ARRAY_SIZE(follow_variants); i++) {
		bool followed = p->follow && !rejected(p, follow_variants[i][1]);

		if (!strcmp(fn, follow_variants[i][0]))
			return !followed;
		if (!strcmp(fn, follow_variants[i][1]))
			return followed;
	}
	return true;
}

/* select_progs - record every program; do not load those whose tracepoint is missing */
static int select_progs(struct js_probes *p, const struct btf *btf)
{
	struct bpf_program *prog;
	size_t n = 0, k = 0, i;

	bpf_object__for_each_program(prog, p->skel->obj) n++;
	p->bprogs = calloc(n, sizeof(*p->bprogs));
	p->links = calloc(n, sizeof(*p->links));
	p->progs = calloc(n, sizeof(*p->progs));
	p->order = calloc(n, sizeof(*p->order));
	if (!p->bprogs || !p->links || !p->progs || !p->order)
		return -ENOMEM;
	bpf_object__for_each_program(prog, p->skel->obj)
	{
		const char *tp = bpfh_prog_tp(prog), *user;
		unsigned sets = probe_sets(bpf_program__name(prog));
		bool close;

		p->bprogs[p->nprogs] = prog;
		user = user_prog(p, bpf_program__name(prog), &close);
		js_scpy(p->progs[p->nprogs].name, sizeof(p->progs[0].name), user ? user : tp);
		p->progs[p->nprogs].lean_only = sets == PROBE_SET_LEAN;
		p->progs[p->nprogs].user = user != NULL;
		if (user) { /* preflight checked its tracepoint (tracefs); its attach says */
			if (!*user)
				p->progs[p->nprogs].state = PROBES_PROG_UNUSED;
			else if (rejected(p, bpf_program__name(prog)))
				p->progs[p->nprogs].state = PROBES_PROG_REJECTED;
		} else if (!(sets & (p->lean ? PROBE_SET_LEAN : PROBE_SET_FULL))) {
			p->progs[p->nprogs].state = PROBES_PROG_UNUSED;
		} else if (!kbtf_has_tp(btf, tp)) {
			p->progs[p->nprogs].state = PROBES_PROG_ABSENT;
			js_dbg("probe %s: tracepoint not in this kernel", tp);
		} else if (probes_arch_skip(btf, tp)) {
			p->progs[p->nprogs].state = PROBES_PROG_ABSENT;
			js_dbg("probe %s: not this arch's", tp);
		} else if (rejected(p, bpf_program__name(prog))) {
			p->progs[p->nprogs].state = PROBES_PROG_REJECTED;
		} else if (p->no_waker && !strcmp(tp, "sched_waking")) {
			p->progs[p->nprogs].state = PROBES_PROG_UNUSED;
		} else if (!variant_wanted(p, bpf_program__name(prog))) {
			p->progs[p->nprogs].state = PROBES_PROG_UNUSED;
		}
		p->nprogs++;
	}
	for (i = 0; i < n; i++) { /* an entry without its exit (or the reverse) is useless */
		enum probes_prog_state ps;

		/* (lean's exits run alone: their entries are full's) */
		if (p->progs[i].state == PROBES_PROG_LOADED && !p->progs[i].lean_only &&
		    !p->progs[i].user && is_paired(p->progs[i].name)) {
			ps = partner_state(p, p->progs[i].name);
			if (ps != PROBES_PROG_LOADED)
				p->progs[i].state = ps;
		}
		if (p->progs[i].state != PROBES_PROG_LOADED)
			bpf_program__set_autoload(p->bprogs[i], false);
	}
	for (i = 0; i < n; i++) /* exits first: every recorded entry finds its exit */
		if (prog_is_exit(p, i))
			p->order[k++] = i;
	for (i = 0; i < n; i++)
		if (!prog_is_exit(p, i))
			p->order[k++] = i;
	return 0;
}

/*
 * waker_setup - turn the waker tracking on (rodata), with the per-CPU offsets sched_waking
 * finds this CPU's preempt count and running hrtimer by, from its run queue: without them
 * it names the waking task but not whether an interrupt it was in woke the task
 */
static void waker_setup(struct js_probes *p, const struct btf *btf, bool off)
{
	struct probes_prog *w = prog_by_name(p, "sched_waking");
	struct probes_bpf__rodata *ro = p->skel->rodata;

	if (off || !w || w->state != PROBES_PROG_LOADED)
		return;
	ro->waker_on = 1;
	p->waker = true;
	p->waker_ctx = !kbtf_wake_offs(btf, &ro->wake_pc_off, &ro->wake_hr_off, &ro->wake_hr_bit);
}

/* probes_table_check - probe_table against both builds (js_probes.h) */
int probes_table_check(char *why, size_t len)
{
	const void *elf;
	size_t sz;

	elf = probes_bpf__elf_bytes(&sz);
	if (probe_table_check_obj(elf, sz, "tp_btf", why, len))
		return -1;
	elf = probes_raw_bpf__elf_bytes(&sz);
	return probe_table_check_obj(elf, sz, "raw_tp", why, len);
}

/* prog_index - the index of the program whose function is fn, or -1 */
static ssize_t prog_index(const struct js_probes *p, const char *fn)
{
	for (size_t i = 0; i < p->nprogs; i++)
		if (!strcmp(bpf_program__name(p->bprogs[i]), fn))
			return (ssize_t)i;
	return -1;
}

/* prog_unused - leave the program whose function is fn out of this run */
static void prog_unused(struct js_probes *p, const char *fn)
{
	ssize_t i = prog_index(p, fn);

	if (i < 0)
		return;
	p->progs[i].state = PROBES_PROG_UNUSED;
	bpf_program__set_autoload(p->bprogs[i], false);
}

/* ---- open / load --------------------------------------------------------------------- */

size_t probes_ring_recs(size_t want, size_t ncpus)
{
	size_t n = RING_MIN_RECS;

	if (!want)
		want = RING_BYTES_DEFAULT;
	while (2 * n * ncpus * sizeof(struct js_rec) <= want && 2 * n * ncpus <= (1u << 24))
		n <<= 1;
	return n;
}

size_t probes_send_ring_recs(size_t nothers)
{
	size_t n = SEND_RING_MAX;

	while (n > SEND_RING_MIN && n * nothers * sizeof(struct js_rec) > SEND_RINGS_BYTES)
		n /= 2;
	return n;
}

/* ring_first, ring_recs - ring k's first record in the map, and its length */
static size_t ring_first(const struct js_probes *p, size_t k)
{
	return k < p->ncpus ? k * p->ring_len :
			      p->ncpus * p->ring_len + (k - p->ncpus) * p->send_len;
}

/* rings_bytes - the first n rings in all: the measured CPUs' (ncpus), every one (nrings) */
static size_t rings_bytes(const struct js_probes *p, size_t n)
{
	return ring_first(p, n) * sizeof(struct js_rec);
}

static size_t ring_recs(const struct js_probes *p, size_t k)
{
	return k < p->ncpus ? p->ring_len : p->send_len;
}

/* ring_layout - a ring for each measured CPU, then one for every other possible CPU the
 * programs can index (below JS_MAX_CPUS; beyond, a CPU records nothing about the others);
 * after the measured CPUs' mask is set */
static int ring_layout(struct js_probes *p)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t k = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	ncpu = JS_MIN(ncpu, JS_MAX_CPUS);
	p->ring_cpus = calloc((size_t)ncpu + p->ncpus, sizeof(*p->ring_cpus));
	if (!p->ring_cpus)
		return -ENOMEM;
	for (size_t i = 0; i < p->ncpus; i++)
		p->ring_cpus[k++] = p->cpus[i];
	for (int c = 0; c < ncpu; c++)
		if (!((p->skel->rodata->cpu_mask[c / 64] >> (c % 64)) & 1))
			p->ring_cpus[k++] = c;
	p->nrings = k;
	p->send_len = probes_send_ring_recs(k - p->ncpus);
	return 0;
}

/* follow_maps - the followed threads' state (bpf/follow_state.bpf.h, shared with
 * follow.bpf.c): what o follows into rodata; nothing followed, each map at its least */
static int follow_maps(struct js_probes *p, const struct follow_opts *o, const struct js_kbtf *k)
{
	long page = sysconf(_SC_PAGESIZE);
	int err;

	if (o) {
		follow_cfg_of(o, k, (struct js_follow_cfg *)&p->skel->rodata->follow_cfg);
		return 0;
	}
	err = bpf_map__set_max_entries(p->skel->maps.follow_tids, 1);
	err = err ? err : bpf_map__set_max_entries(p->skel->maps.follow_threads, 1);
	err = err ? err : bpf_map__set_max_entries(p->skel->maps.follow_forked, 1);
	err = err ? err :
		    bpf_map__set_max_entries(p->skel->maps.follow_records,
					     (__u32)(page > 0 ? page : 4096));
	return err;
}

/* configure - cpu mask, sampler tgid, the rings' size (between open and load) */
static int configure(struct js_probes *p, const struct probes_opts *o, char *why, size_t len)
{
	struct probes_bpf__rodata *ro = p->skel->rodata;
	size_t i;
	int cpu, err;

	if (!o->ncpus || o->ncpus > JS_MAX_CPUS) {
		snprintf(why, len, "bad number of CPUs to probe (%zu)", o->ncpus);
		return -EINVAL;
	}
	p->cpus = calloc(o->ncpus, sizeof(*p->cpus));
	if (!p->cpus)
		return -ENOMEM;
	for (i = 0; i < o->ncpus; i++) {
		cpu = o->cpus[i];
		if (cpu < 0 || cpu >= JS_MAX_CPUS) {
			snprintf(why, len, "CPU %d out of the probes' range (max %d)", cpu,
				 JS_MAX_CPUS - 1);
			return -EINVAL;
		}
		p->cpus[p->ncpus++] = cpu;
		ro->cpu_mask[cpu / 64] |= 1ull << (cpu % 64);
		ro->measured_cpus[i] = (__u32)cpu;
	}
	ro->nr_measured = (__u32)o->ncpus;
	ro->sampler_tgid = (__u32)o->sampler_tgid;
	ro->stacks_on = o->stacks;
	p->stacks = o->stacks;
	/* off: one bucket, not JS_STACKS_MAX of JS_STACK_DEPTH frames (1.1 MiB) */
	if (!o->stacks && bpf_map__set_max_entries(p->skel->maps.stacks, 1))
		js_dbg("stacks: cannot shrink the unused map");
	ro->own_bh_unsent = o->own_bh_unsent || o->own_bh_log;
	ro->own_bh_logged = o->own_bh_log;
	if (o->own_bh_log) {
		int np = libbpf_num_possible_cpus();

		p->own_cpus = np > 0 ? (unsigned)JS_MIN(np, JS_MAX_CPUS) : 0;
	}
	if (bpf_map__set_max_entries(p->skel->maps.own_bh,
				     p->own_cpus ? p->own_cpus * JS_OWN_BH_LOG : 1)) {
		snprintf(why, len, "own softirq log of %u CPUs refused", p->own_cpus);
		return -EINVAL;
	}
	ro->held_only = o->held_only;
	if (o->nuser > JS_USER_SLOTS) {
		snprintf(why, len, "at most %d --event tracepoints", JS_USER_SLOTS);
		return -EINVAL;
	}
	p->nuser = o->nuser;
	for (i = 0; i < o->nuser; i++) {
		js_scpy(p->user[i][0], sizeof(p->user[i][0]), o->user[i].open);
		js_scpy(p->user[i][1], sizeof(p->user[i][1]),
			o->user[i].close ? o->user[i].close : "");
		if (o->user[i].close)
			ro->user_pairs |= 1u << i;
	}
	p->ring_len = probes_ring_recs(o->ring_bytes, p->ncpus);
	err = ring_layout(p);
	if (err) {
		snprintf(why, len, "laying out the CPUs' rings: %s", strerror(-err));
		return err;
	}
	err = bpf_map__set_max_entries(p->skel->maps.ring, (__u32)ring_first(p, p->nrings));
	if (err)
		snprintf(why, len, "ring size %zu refused", rings_bytes(p, p->nrings));
	return err;
}

static void load_reason(int err, char *why, size_t len)
{
	if (err == -EPERM)
		snprintf(why, len, "BPF not permitted: needs root, or CAP_BPF and CAP_PERFMON");
	else
		snprintf(why, len, "BPF load failed: %s%s%s", strerror(-err),
			 lblog_last()[0] ? ": " : "", lblog_last());
}

/* reset_obj - forget a skeleton whose load failed, keeping the list of rejected programs */
static void reset_obj(struct js_probes *p)
{
	probes_bpf__destroy(p->skel);
	p->skel = NULL;
	free(p->bprogs);
	free(p->links);
	free(p->progs);
	free(p->order);
	free(p->cpus);
	free(p->ring_cpus);
	p->bprogs = NULL;
	p->links = NULL;
	p->progs = NULL;
	p->order = NULL;
	p->cpus = NULL;
	p->ring_cpus = NULL;
	p->nprogs = 0;
	p->ncpus = 0;
	p->nrings = 0;
}

/* open_skel - the skeleton over the build k chose (js_kbtf.h); NULL with errno */
static struct probes_bpf *open_skel(const struct js_kbtf *k)
{
	struct probes_bpf *s = calloc(1, sizeof(*s));
	const void *raw;
	size_t raw_sz;
	int err;

	if (!s)
		return NULL;
	raw = probes_raw_bpf__elf_bytes(&raw_sz);
	err = probes_bpf__create_skeleton(s);
	if (!err)
		err = kbtf_open_skeleton(k, s->skeleton, raw, raw_sz);
	if (err) {
		probes_bpf__destroy(s);
		errno = -err;
		return NULL;
	}
	return s;
}

/* load_once - open the skeleton, configure it, choose programs, load it */
static int load_once(struct js_probes *p, const struct probes_opts *o, char *why, size_t len)
{
	struct js_kbtf k;
	int err;

	/* the kernel's BTF (5.5 MB here) is freed before the load parses its own copy: both
	 * at once were a third of the peak RSS */
	err = kbtf_open(&k, o->btf_path, why, len);
	if (err)
		return err;
	p->typed = k.typed;
	p->no_waker = o->no_waker;
	p->follow = o->follow != NULL;
	js_scpy(p->raw_why, sizeof(p->raw_why), k.raw_why);
	p->skel = open_skel(&k);
	if (!p->skel) {
		err = -errno;
		snprintf(why, len, "cannot open the BPF object: %s", strerror(-err));
		kbtf_free_types(&k);
		return err;
	}
	err = configure(p, o, why, len);
	if (!err)
		err = select_progs(p, k.btf);
	if (!err && (err = follow_maps(p, o->follow, &k)))
		snprintf(why, len, "the followed threads' maps refused: %s", strerror(-err));
	if (!err) {
		steal_setup(p, k.btf);
		clk_setup(p, k.btf);
		waker_setup(p, k.btf, o->no_waker);
	}
	if (!err && p->lean && !p->steal && !p->clk) /* no host reading to learn */
		prog_unused(p, "lean_learn");
	kbtf_free_types(&k);
	if (err)
		return err;
	lblog_forget();
	err = probes_bpf__load(p->skel);
	if (err)
		load_reason(err, why, len);
	return err;
}

/* reject - remember a program the verifier refused, so the next attempt leaves it out */
static bool reject(struct js_probes *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nrejected; i++)
		if (!strcmp(p->rejected[i], name))
			return false; /* refused again: give up */
	if (p->nrejected == ARRAY_SIZE(p->rejected))
		return false;
	js_scpy(p->rejected[p->nrejected++], sizeof(p->rejected[0]), name);
	js_warn("probe %s refused by this kernel's verifier (%s): continuing without it", name,
		lblog_last()[0] ? lblog_last() : "see -vv");
	return true;
}

/* mark_measured - set the measured CPUs' flag and every CPU's ring in their state
 * (cpu_state, one value per CPU): the programs on a CPU check it in the state they use
 * anyway */
static int mark_measured(struct js_probes *p, char *why, size_t len)
{
	int ncpu = libbpf_num_possible_cpus();
	struct js_cpu_state *st;
	__u32 zero = 0;
	int err;

	if (ncpu <= 0) {
		snprintf(why, len, "cannot count the possible CPUs");
		return ncpu ? ncpu : -EINVAL;
	}
	st = calloc((size_t)ncpu, sizeof(*st));
	if (!st)
		return -ENOMEM;
	for (size_t k = 0; k < p->nrings; k++) {
		struct js_cpu_state *s = &st[p->ring_cpus[k]];

		if (p->ring_cpus[k] >= ncpu)
			continue;
		s->measured = k < p->ncpus;
		s->ring_base = (__u32)ring_first(p, k);
		s->ring_mask = (__u32)(ring_recs(p, k) - 1);
		s->ring_limit = ring_recs(p, k);
	}
	err = bpf_map__update_elem(p->skel->maps.cpu_state, &zero, sizeof(zero), st,
				   (size_t)ncpu * sizeof(*st), BPF_ANY);
	free(st);
	if (err)
		snprintf(why, len, "setting the measured CPUs: %s", strerror(-err));
	return err;
}

/* map_rings - map every CPU's ring (read only) */
static int map_rings(struct js_probes *p, char *why, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	int err;

	p->ring_mem_len = (rings_bytes(p, p->nrings) + page - 1) / page * page;
	p->ring_mem = mmap(NULL, p->ring_mem_len, PROT_READ, MAP_SHARED,
			   bpf_map__fd(p->skel->maps.ring), 0);
	if (p->ring_mem == MAP_FAILED) {
		err = -errno;
		p->ring_mem = NULL;
		snprintf(why, len, "mapping the rings: %s", strerror(-err));
		return err;
	}
	p->rings = calloc(p->nrings, sizeof(*p->rings));
	if (!p->rings)
		return -ENOMEM;
	for (i = 0; i < p->nrings; i++) {
		p->rings[i].rec = (const struct js_rec *)p->ring_mem + ring_first(p, i);
		p->rings[i].mask = ring_recs(p, i) - 1;
		p->rings[i].tail_out = &p->skel->data_tail->ring_tail[p->ring_cpus[i]];
	}
	return 0;
}

/* map_own - map the own softirqs' slots (read only), when they are logged */
static int map_own(struct js_probes *p, char *why, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m;

	if (!p->own_cpus)
		return 0;
	p->own_len =
		((size_t)p->own_cpus * JS_OWN_BH_LOG * sizeof(*p->own) + page - 1) / page * page;
	m = mmap(NULL, p->own_len, PROT_READ, MAP_SHARED, bpf_map__fd(p->skel->maps.own_bh), 0);
	if (m == MAP_FAILED) {
		int err = -errno;

		snprintf(why, len, "mapping the own softirq log: %s", strerror(-err));
		return err;
	}
	p->own = m;
	return 0;
}

size_t probes_own_bh(const struct js_probes *p, int cpu, uint64_t lo, uint64_t hi,
		     struct js_event *ev, size_t room)
{
	const __u64 *headp;
	const struct js_own_bh *slots;
	uint64_t head, now_head, i;
	size_t n = 0;

	if (!p || !p->own || cpu < 0 || (unsigned)cpu >= p->own_cpus)
		return 0;
	headp = &p->skel->bss->own_bh_head[cpu];
	slots = p->own + (size_t)cpu * JS_OWN_BH_LOG;
	head = __atomic_load_n(headp, __ATOMIC_ACQUIRE);
	/* newest first, until one ended before lo (they end in order: one CPU writes them) */
	for (i = head; i > 0 && head - i < JS_OWN_BH_LOG && n < room; i--) {
		const struct js_own_bh *e = &slots[(i - 1) & (JS_OWN_BH_LOG - 1)];
		uint64_t end = e->end_ns, start = end - e->dur_ns;

		if (end < lo)
			break;
		if (start > hi)
			continue;
		ev[n] = (struct js_event){ .start_ns = start,
					   .end_ns = end,
					   .kind = e->vec == JS_OWN_BH_IDLE ? JS_EV_IDLE :
									      JS_EV_SOFTIRQ,
					   .cpu = (uint32_t)cpu,
					   .id = e->vec == JS_OWN_BH_IDLE ? 0 : e->vec };
		ev[n++].addr = i - 1; /* its slot's count, until checked below */
	}
	/* the slots the program wrote again meanwhile are not theirs any more: the oldest,
	 * the last ones found */
	now_head = __atomic_load_n(headp, __ATOMIC_ACQUIRE);
	while (n && ev[n - 1].addr + JS_OWN_BH_LOG <= now_head)
		n--;
	for (size_t k = 0; k < n; k++)
		ev[k].addr = 0;
	return n;
}

/* open_load - load, leaving out programs the verifier refuses; then map the rings. On a
 * kernel older than any the probes load on (js_kbtf.h), a failure is said as its age, once:
 * no program is left out one by one (a kernel with what they need backported loads them) */
static int open_load(struct js_probes *p, const struct probes_opts *o, char *why, size_t len)
{
	char age[200];
	struct utsname u;
	bool old = !uname(&u) && kbtf_too_old(u.release, age, sizeof(age));
	int err;

	for (;;) {
		err = load_once(p, o, why, len);
		if (err && err != -EPERM && old)
			js_scpy(why, len, age);
		if (!err || err == -EPERM || old || !lblog_prog()[0] || !reject(p, lblog_prog()))
			break;
		reset_obj(p);
	}
	if (!err)
		err = mark_measured(p, why, len);
	if (!err)
		err = map_rings(p, why, len);
	if (!err)
		err = map_own(p, why, len);
	return err;
}

/* probes_open_load - open and load the probes for o->cpus; < 0 with a human reason in why
 * when BPF, BTF or privileges are missing (the caller then measures without probes) */
int probes_open_load(struct js_probes **out, const struct probes_opts *o, char *why, size_t whylen)
{
	char dummy[8];
	struct js_probes *p;
	int err;

	if (!why || !whylen) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	*out = NULL;
	lblog_start(o->verbose);
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->stats_fd = -1;
	p->run_stats_wanted = o->prog_stats;
	p->lean = o->lean;
	err = open_load(p, o, why, whylen);
	if (err) {
		probes_destroy(p);
		return err;
	}
	if (!p->typed)
		js_notice("eBPF probes as raw tracepoints (%s): the same events, each field read "
			  "with a helper call",
			  p->raw_why);
	*out = p;
	return 0;
}

int probes_map_fd(const struct js_probes *p, const char *name)
{
	const struct bpf_map *m = p ? bpf_object__find_map_by_name(p->skel->obj, name) : NULL;

	return m ? bpf_map__fd(m) : -1;
}

/* active - is the program whose function is fn attached */
static bool active(const struct js_probes *p, const char *fn)
{
	ssize_t i = prog_index(p, fn);

	return i >= 0 && p->progs[i].state == PROBES_PROG_ACTIVE;
}

unsigned probes_follow_take(struct js_probes *p, bool on)
{
	unsigned by = 0;

	if (on && p->follow && !p->toggled_off) {
		if (active(p, "softirq_entry") && active(p, "softirq_exit"))
			by |= JS_FOLLOW_BY_SOFTIRQ;
		if (active(p, "sched_switch_follow"))
			by |= JS_FOLLOW_BY_SWITCH;
		if (active(p, "sched_waking_follow"))
			by |= JS_FOLLOW_BY_WAKING;
	}
	__atomic_store_n(&p->skel->bss->follow_on, by, __ATOMIC_RELEASE);
	return by;
}

void probes_follow_lost(const struct js_probes *p, uint64_t *records, uint64_t *threads)
{
	*records += __atomic_load_n(&p->skel->bss->follow_lost, __ATOMIC_RELAXED);
	*threads += __atomic_load_n(&p->skel->bss->follow_untracked, __ATOMIC_RELAXED);
}

int probes_add_sampler_tid(struct js_probes *p, int cpu, pid_t tid)
{
	__u32 key = (__u32)tid, val = (__u32)cpu, old;
	int err;

	if (!p || tid <= 0)
		return -EINVAL;
	if (!bpf_map__lookup_elem(p->skel->maps.sampler_tids, &key, sizeof(key), &old, sizeof(old),
				  0))
		return 0;
	err = bpf_map__update_elem(p->skel->maps.sampler_tids, &key, sizeof(key), &val, sizeof(val),
				   BPF_ANY);
	if (err)
		return err;
	__atomic_add_fetch(&p->skel->bss->nr_sampler_tids, 1, __ATOMIC_RELEASE);
	return 0;
}

/* ---- attach / detach ----------------------------------------------------------------- */

/* bpf_stats_on - kernel.bpf_stats_enabled is set (the programs are timed whoever set it) */
static bool bpf_stats_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > 0;
}

/* link_prog - attach program k: ACTIVE, or FAILED with its error (said); 0 or -errno */
static int link_prog(struct js_probes *p, size_t k)
{
	struct probes_prog *pp = &p->progs[k];
	const char *tp = strchr(pp->name, ':');

	/* an --event's program: by the tracepoint's NAME, as a raw tracepoint */
	if (pp->user && tp)
		p->links[k] = bpf_program__attach_raw_tracepoint(p->bprogs[k], tp + 1);
	else
		p->links[k] = bpf_program__attach(p->bprogs[k]);
	if (!p->links[k]) {
		pp->state = PROBES_PROG_FAILED;
		pp->err = -errno;
		js_warn("probe %s: attach failed: %s", pp->name, strerror(-pp->err));
		return pp->err;
	}
	pp->state = PROBES_PROG_ACTIVE;
	return 0;
}

/* steal_learned - every measured CPU knows where its host readings are (lean_learn's work) */
static bool steal_learned(struct js_probes *p)
{
	int ncpu = libbpf_num_possible_cpus();
	struct js_cpu_state *st;
	bool all = true;
	__u32 zero = 0;

	if (ncpu <= 0)
		return true;
	st = calloc((size_t)ncpu, sizeof(*st));
	if (!st || bpf_map__lookup_elem(p->skel->maps.cpu_state, &zero, sizeof(zero), st,
					(size_t)ncpu * sizeof(*st), 0)) {
		free(st);
		return true; /* cannot tell: do not wait */
	}
	for (size_t i = 0; i < p->ncpus; i++)
		if (p->cpus[i] < ncpu && !st[p->cpus[i]].steal_addr && !st[p->cpus[i]].clk_addr)
			all = false;
	free(st);
	return all;
}

/* expire_timers - on CPU *arg, sleep a microsecond a few times: each sleep's hrtimer expires
 * there, which lean_learn sees */
static void *expire_timers(void *arg)
{
	struct timespec ts = { 0, 1000 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(*(int *)arg, &set);
	if (!pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		for (int i = 0; i < 4; i++)
			nanosleep(&ts, NULL);
	return NULL;
}

/*
 * lean_learn - --probes lean: the steal clock's address of each measured CPU is learned from
 * an hrtimer expiring there (learn_steal), which lean traces no more: lean_learn is attached
 * with the others, a thread sleeps briefly on each measured CPU (before the measurement), and
 * the program is detached once they all know it (or after LEARN_TRIES rounds: those that do
 * not read no steal clock, said once)
 */
#define LEARN_TRIES 20
static void lean_learn(struct js_probes *p)
{
	ssize_t k = prog_index(p, "lean_learn");
	int tries = 0;

	if (k < 0 || !p->links[k])
		return;
	while (!steal_learned(p) && tries++ < LEARN_TRIES) {
		for (size_t i = 0; i < p->ncpus; i++) {
			pthread_t t;
			int cpu = p->cpus[i];

			if (!pthread_create(&t, NULL, expire_timers, &cpu))
				pthread_join(t, NULL);
		}
	}
	if (tries > LEARN_TRIES)
		js_notice("--probes lean: the steal clock or kvmclock of some measured CPU was not "
			  "found: its interruptions carry no host reading");
	bpf_link__destroy(p->links[k]);
	p->links[k] = NULL;
	p->progs[k].state = PROBES_PROG_DETACHED;
}

/* probes_attach - attach every loaded program (exits before entries); 0 if at least one */
int probes_attach(struct js_probes *p)
{
	size_t i, n = 0;
	uint64_t t0;
	int err = 0, e;

	if (!p || p->attached)
		return -EINVAL;
	if (p->run_stats_wanted && p->stats_fd < 0) {
		p->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		p->run_stats = p->stats_fd >= 0;
		if (!p->run_stats)
			js_warn("--probe-cost: the kernel's BPF run-time statistics are "
				"unavailable (%s)",
				strerror(errno));
	}
	if (!p->run_stats) /* switched on by someone else: the counts are there anyway */
		p->run_stats = bpf_stats_on();
	t0 = js_mono_ns();
	for (i = 0; i < p->nprogs; i++) {
		if (p->progs[p->order[i]].state != PROBES_PROG_LOADED)
			continue;
		e = link_prog(p, p->order[i]);
		if (e)
			err = e;
		else
			n++;
	}
	if (p->lean && n)
		lean_learn(p);
	p->attach_ns = js_mono_ns() - t0;
	p->attached = n > 0;
	js_dbg("attached %zu of %zu probes in %.1f ms", n, p->nprogs, p->attach_ns / 1e6);
	return n ? 0 : (err ? err : -ENOENT);
}

/* wait_programs - return once every program that was running has returned: an update of
 * a map-in-map makes the kernel wait for running programs (an RCU grace period, on every
 * kernel, nohz_full or not); 0, or -errno */
static int wait_programs(void)
{
	int inner, outer, err = 0;
	__u32 key = 0;

	inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "js_wait_in", 4, 4, 1, NULL);
	if (inner < 0)
		return -errno;
	LIBBPF_OPTS(bpf_map_create_opts, o, .inner_map_fd = inner);
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "js_wait", 4, 4, 1, &o);
	if (outer < 0 || bpf_map_update_elem(outer, &key, &inner, BPF_ANY))
		err = -errno;
	if (outer >= 0)
		close(outer);
	close(inner);
	return err;
}

/* unlink_all - destroy every link (entries first: every recorded entry finds its exit),
 * then wait for the programs that were running */
static void unlink_all(struct js_probes *p)
{
	int werr;

	for (size_t i = p->nprogs; i-- > 0;) {
		bpf_link__destroy(p->links[p->order[i]]);
		p->links[p->order[i]] = NULL;
	}
	/* a program running on a CPU when its link went (e.g. a guest's vCPU held by the host
	 * mid-program) would still write an event and the CPU state read after this */
	werr = wait_programs();
	if (werr) {
		js_dbg("probes: cannot wait for running programs (map-in-map: %s); sleeping 10 ms",
		       strerror(-werr));
		usleep(10000);
	}
}

/* probes_detach - detach all programs, wait for those still running, and queue the
 * still-open intervals (JS_F_OPEN) for the next probes_consume() */
void probes_detach(struct js_probes *p)
{
	uint64_t t0;
	size_t i;

	if (!p || !p->attached)
		return;
	t0 = js_mono_ns();
	for (i = 0; i < p->nprogs; i++)
		if (p->progs[i].state == PROBES_PROG_ACTIVE) /* linked, or toggled off */
			p->progs[i].state = PROBES_PROG_DETACHED;
	unlink_all(p);
	p->detach_ns = js_mono_ns() - t0;
	p->attached = false;
	open_iv_queue(&p->open, p->skel->maps.cpu_state, p->cpus, p->ncpus, false);
	if (p->stats_fd >= 0) { /* the run counters survive; stop paying for them */
		close(p->stats_fd);
		p->stats_fd = -1;
	}
}

/* probes_set_attached - detach every program (entries first; the intervals still open are
 * queued as at the end, the CPUs' state made fresh) or attach them again (exits first) */
int probes_set_attached(struct js_probes *p, bool on)
{
	size_t i;
	int err = 0;

	if (!p || !p->attached || p->toggled_off == !on)
		return -EINVAL;
	if (!on) {
		unlink_all(p);
		p->toggled_off = true;
		return open_iv_queue(&p->open, p->skel->maps.cpu_state, p->cpus, p->ncpus, true);
	}
	for (i = 0; i < p->nprogs; i++) {
		int e;

		if (p->progs[p->order[i]].state != PROBES_PROG_ACTIVE)
			continue;
		e = link_prog(p, p->order[i]);
		err = err ? err : e;
	}
	p->toggled_off = false;
	return err;
}

/* probes_destroy - free everything (detaches if needed); accepts NULL */
void probes_destroy(struct js_probes *p)
{
	size_t i;

	if (!p)
		return;
	if (p->attached)
		probes_detach(p);
	for (i = 0; p->links && i < p->nprogs; i++)
		bpf_link__destroy(p->links[i]);
	if (p->stats_fd >= 0)
		close(p->stats_fd);
	if (p->ring_mem)
		munmap(p->ring_mem, p->ring_mem_len);
	if (p->own)
		munmap((void *)p->own, p->own_len);
	free(p->rings);
	free(p->ring_cpus);
	probes_bpf__destroy(p->skel);
	free(p->bprogs);
	free(p->links);
	free(p->progs);
	free(p->order);
	free(p->cpus);
	open_iv_free(&p->open);
	free(p);
}

/* ---- consume ------------------------------------------------------------------------- */

static int deliver(struct js_probes *p, const struct js_event *e)
{
	p->consumed++;
	return p->cb(p->cb_ctx, e);
}

/* count_deliver - deliver a record to the pipeline's callback, counted by kind */
static int count_deliver(void *ctx, const struct js_event *e)
{
	struct js_probes *p = ctx;

	if (e->kind < JS_EV_KIND_MAX)
		p->consumed_by_kind[e->kind]++;
	return deliver(p, e);
}

/* probes_consume - deliver the buffered events to cb (never blocks, never polls, at most a
 * ring's worth per call); returns the number delivered, or a negative errno / negative cb
 * return (which stops delivery) */
int probes_consume(struct js_probes *p, int (*cb)(void *ctx, const struct js_event *ev), void *ctx)
{
	uint64_t before;
	size_t i;
	int err;

	if (!p || !cb)
		return -EINVAL;
	before = p->consumed;
	p->cb = cb;
	p->cb_ctx = ctx;
	/* at most what each ring holds when full: a callback slower than the producers would
	 * otherwise never return */
	p->fill_recs = 0;
	p->fill_len = p->nrings ? ring_recs(p, 0) : 0;
	for (i = 0; i < p->nrings; i++) {
		uint64_t skipped = p->rings[i].skipped;

		err = js_evring_read(&p->rings[i], ring_recs(p, i), count_deliver, p);
		if (err > 0 && (size_t)err * p->fill_len > p->fill_recs * ring_recs(p, i)) {
			p->fill_recs = (size_t)err;
			p->fill_len = ring_recs(p, i);
		}
		if (p->rings[i].skipped > skipped)
			js_warn("probes: CPU %d: a record taken and never sent held its ring; skipped "
				"(%" PRIu64 " so far: a probe's bug)",
				p->ring_cpus[i], p->rings[i].skipped);
		if (err < 0)
			return err;
	}
	while (p->open.pos < p->open.n) {
		err = deliver(p, &p->open.ev[p->open.pos++]);
		if (err < 0)
			return err;
	}
	return (int)JS_MIN(p->consumed - before, (uint64_t)0x7fffffff);
}

/* ---- statistics ---------------------------------------------------------------------- */

static void prog_run_stats(struct js_probes *p)
{
	for (size_t i = 0; i < p->nprogs; i++) {
		struct probes_prog *pp = &p->progs[i];
		uint32_t id;
		uint64_t cnt, ns, miss;

		if (pp->state == PROBES_PROG_ABSENT || pp->state == PROBES_PROG_REJECTED ||
		    pp->state == PROBES_PROG_UNUSED)
			continue;
		if (bpfh_prog_run(p->bprogs[i], &id, &cnt, &ns, &miss))
			continue;
		pp->id = id;
		pp->run_cnt = cnt;
		pp->run_time_ns = ns;
		pp->recursion_misses = miss;
	}
}

static uint64_t stack_overflow(struct js_probes *p)
{
	int ncpu = libbpf_num_possible_cpus();
	struct js_cpu_state *st;
	uint64_t sum = 0;
	__u32 zero = 0;
	int i;

	if (ncpu <= 0)
		return 0;
	st = calloc((size_t)ncpu, sizeof(*st));
	if (st && !bpf_map__lookup_elem(p->skel->maps.cpu_state, &zero, sizeof(zero), st,
					(size_t)ncpu * sizeof(*st), 0))
		for (i = 0; i < ncpu; i++)
			sum += st[i].overflow;
	free(st);
	return sum;
}

/* probes_lost_on - the events about cpu lost in the kernel so far (the BPF side's per-CPU
 * count, read through the mmap'ed .bss: no system call) */
uint64_t probes_lost_on(const struct js_probes *p, int cpu)
{
	if (!p || cpu < 0 || cpu >= JS_MAX_CPUS)
		return 0;
	return __atomic_load_n(&p->skel->bss->ev_lost_cpu[cpu], __ATOMIC_RELAXED);
}

/* probes_stats - counters and per-program statistics (valid until the next call) */
int probes_stats(struct js_probes *p, struct probes_stats *st)
{
	const struct probes_bpf__bss *bss;
	size_t i;

	if (!p || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	bss = p->skel->bss;
	for (i = 0; i < JS_EV_KIND_MAX; i++) {
		st->events_by_kind[i] = p->consumed_by_kind[i];
		st->lost_by_kind[i] = __atomic_load_n(&bss->ev_lost[i], __ATOMIC_RELAXED);
		st->events += st->events_by_kind[i];
		st->lost += st->lost_by_kind[i];
	}
	st->consumed = p->consumed;
	st->sched_mismatch = __atomic_load_n(&bss->sched_mismatch, __ATOMIC_RELAXED);
	st->stack_overflow = stack_overflow(p);
	prog_run_stats(p); /* ids always; run counters are 0 unless bpf_stats was on */
	for (i = 0; i < p->nprogs; i++)
		if (p->progs[i].state == PROBES_PROG_ACTIVE ||
		    p->progs[i].state == PROBES_PROG_DETACHED)
			st->nactive++;
	st->nprogs = p->nprogs;
	st->progs = p->progs;
	st->run_stats = p->run_stats;
	st->steal_available = p->steal;
	st->waker = p->waker;
	st->waker_ctx = p->waker_ctx;
	st->stacks = p->stacks;
	st->stack_full = __atomic_load_n(&bss->stack_full, __ATOMIC_RELAXED);
	st->stack_fail = __atomic_load_n(&bss->stack_fail, __ATOMIC_RELAXED);
	st->steal_why = p->steal ? NULL : p->steal_why;
	st->clk_available = p->clk;
	st->clk_why = p->clk ? NULL : p->clk_why;
	st->attach_ns = p->attach_ns;
	st->detach_ns = p->detach_ns;
	st->ring_bytes = rings_bytes(p, p->ncpus);
	st->all_rings_bytes = rings_bytes(p, p->nrings);
	return 0;
}

int probes_stack(const struct js_probes *p, uint32_t id1, uint64_t *ips, size_t max)
{
	__u64 v[JS_STACK_DEPTH] = { 0 };
	__u32 id = id1 - 1;
	size_t n = 0;

	if (!p || !p->skel || !p->stacks || !id1 || id1 > JS_STACKS_MAX)
		return 0;
	if (bpf_map__lookup_elem(p->skel->maps.stacks, &id, sizeof(id), v, sizeof(v), 0))
		return errno == ENOENT ? 0 : -errno;
	/* the value is zero-padded past the stack's last frame */
	while (n < JS_STACK_DEPTH && n < max && v[n]) {
		ips[n] = v[n];
		n++;
	}
	return (int)n;
}

void probes_fill(const struct js_probes *p, size_t *used, size_t *size)
{
	*used = p ? p->fill_recs * sizeof(struct js_rec) : 0;
	*size = p ? p->fill_len * sizeof(struct js_rec) : 0;
}
