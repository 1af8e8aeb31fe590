// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * kbtf.c - the kernel's BTF, as both BPF loaders get it, and where in it the per-CPU
 * variables the probes read are (js_kbtf.h).
 *
 * The tp_btf build (bpf/tp.h) attaches through the kernel's own BTF (libbpf resolves each
 * program's target and each kfunc in it, the kernel checks them against it) and calls the
 * bpf_rdonly_cast kfunc (Linux 6.2) on every interruption: it loads where the kernel exposes
 * its BTF (/sys/kernel/btf/vmlinux) and lists that kfunc. Everywhere else, and whenever the
 * types come from --btf FILE, the raw_tp build loads: the same programs reading the same
 * fields with CO-RE probe reads, relocated against the types given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "js_kbtf.h"
#include "js_util.h"

#define SYSFS_BTF "/sys/kernel/btf/vmlinux"
#define TYPED_KFUNC "bpf_rdonly_cast" /* bpf/probes.bpf.c, steal_read() */

/* exposed - does the kernel expose its own BTF: the sysfs file starts with BTF's magic */
static bool exposed(void)
{
	FILE *f = fopen(SYSFS_BTF, "re");
	__u16 magic = 0;
	bool ok;

	ok = f && fread(&magic, sizeof(magic), 1, f) == 1 && magic == BTF_MAGIC;
	if (f)
		fclose(f);
	return ok;
}

/* choose - the tp_btf build where it loads, else the raw_tp one and why */
static void choose(struct js_kbtf *k)
{
	if (k->path)
		snprintf(k->raw_why, sizeof(k->raw_why), "the kernel's types from --btf %s",
			 k->path);
	else if (!exposed())
		snprintf(k->raw_why, sizeof(k->raw_why),
			 "the kernel exposes no BTF of its own (" SYSFS_BTF ")");
	else if (btf__find_by_name_kind(k->btf, TYPED_KFUNC, BTF_KIND_FUNC) < 0)
		snprintf(k->raw_why, sizeof(k->raw_why),
			 "the kernel has no " TYPED_KFUNC " kfunc (Linux 6.2)");
	else
		k->typed = true;
}

/* file_error - why --btf FILE gave no BTF (btf__parse's -err) */
static void file_error(const char *path, int err, char *why, size_t len)
{
	char buf[128];

	if (err == -ENOENT && !access(path, F_OK))
		snprintf(buf, sizeof(buf), "an ELF file without a .BTF section");
	else if (err == -LIBBPF_ERRNO__FORMAT)
		snprintf(buf, sizeof(buf), "neither raw BTF nor an ELF file");
	else
		libbpf_strerror(err, buf, sizeof(buf));
	snprintf(why, len, "--btf '%s': no BTF read from it: %s", path, buf);
}

int kbtf_open(struct js_kbtf *k, const char *path, char *why, size_t len)
{
	libbpf_print_fn_t print = libbpf_set_print(NULL); /* its reasons are said below */
	int err;

	memset(k, 0, sizeof(*k));
	k->path = path;
	k->btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	err = k->btf ? 0 : -errno;
	libbpf_set_print(print);
	if (err && path)
		file_error(path, err, why, len);
	else if (err) /* libbpf: -ESRCH when no place it looks holds BTF */
		snprintf(why, len,
			 "no kernel BTF (" SYSFS_BTF "): %s; a BTF file for this kernel can stand "
			 "in: --btf FILE",
			 err == -ESRCH ? "none found" : strerror(-err));
	else
		choose(k);
	return err;
}

void kbtf_free_types(struct js_kbtf *k)
{
	btf__free(k->btf);
	k->btf = NULL;
}

bool kbtf_has_tp(const struct btf *btf, const char *tp)
{
	char buf[160];

	snprintf(buf, sizeof(buf), "btf_trace_%s", tp);
	return btf__find_by_name_kind(btf, buf, BTF_KIND_TYPEDEF) >= 0;
}

int kbtf_open_skeleton(const struct js_kbtf *k, struct bpf_object_skeleton *s, const void *raw,
		       size_t raw_sz)
{
	LIBBPF_OPTS(bpf_object_open_opts, o, .btf_custom_path = k->path);

	if (!k->typed) {
		s->data = (void *)raw;
		s->data_sz = raw_sz;
	}
	return bpf_object__open_skeleton(s, &o);
}

bool kbtf_release_below(const char *release, int major, int minor)
{
	int a, b;

	if (!release || sscanf(release, "%d.%d", &a, &b) != 2)
		return false;
	return a < major || (a == major && b < minor);
}

bool kbtf_too_old(const char *release, char *why, size_t len)
{
	if (!kbtf_release_below(release, KBTF_MIN_MAJOR, KBTF_MIN_MINOR))
		return false;
	snprintf(why, len,
		 "kernel %s is older than %d.%d, the oldest the probes load on (their rings take "
		 "records with BPF's compare-and-exchange, new in %d.%d)",
		 release, KBTF_MIN_MAJOR, KBTF_MIN_MINOR, KBTF_MIN_MAJOR, KBTF_MIN_MINOR);
	return true;
}

/* ---- where per-CPU variables are: the steal clock locator (docs/DESIGN.md, probes) ---- */

/* percpu_var - offset of a per-CPU variable in .data..percpu and its type id */
static int percpu_var(const struct btf *btf, const char *name, __u32 *off, __u32 *type)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *sec, *var;
	int id, i;

	id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	if (id < 0)
		return -ENOENT;
	sec = btf__type_by_id(btf, id);
	vsi = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vsi++) {
		var = btf__type_by_id(btf, vsi->type);
		if (var && !strcmp(btf__name_by_offset(btf, var->name_off), name)) {
			*off = vsi->offset;
			*type = var->type;
			return 0;
		}
	}
	return -ENOENT;
}

/* member_of - bit offset of a member of a struct type (a bitfield's too; one inside an
 * anonymous struct or union member too, as pcpu_hot's are), and its type id (mtype may be
 * NULL) */
static int member_of(const struct btf *btf, __u32 type, const char *name, __u32 *off, __u32 *mtype)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, type));
	const struct btf_member *m;
	const struct btf_type *mt;
	__u32 inner;
	int i;

	if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
		return -EINVAL;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (!m->name_off) { /* anonymous: look inside */
			mt = btf__type_by_id(btf, btf__resolve_type(btf, m->type));
			if (mt && (btf_is_struct(mt) || btf_is_union(mt)) &&
			    !member_of(btf, m->type, name, &inner, mtype)) {
				*off = btf_member_bit_offset(t, i) + inner;
				return 0;
			}
			continue;
		}
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name)) {
			*off = btf_member_bit_offset(t, i);
			if (mtype)
				*mtype = m->type;
			return 0;
		}
	}
	return -ENOENT;
}

/* member_bitoff - bit offset of a member of a struct type (a bitfield's too) */
static int member_bitoff(const struct btf *btf, __u32 type, const char *name, __u32 *off)
{
	return member_of(btf, type, name, off, NULL);
}

/* member_off - byte offset of a member of a struct type */
static int member_off(const struct btf *btf, __u32 type, const char *name, __u32 *off)
{
	int err = member_bitoff(btf, type, name, off);

	*off /= 8;
	return err;
}

int kbtf_steal_delta(const struct btf *btf, __s64 *delta)
{
	__u32 off_st, off_hb, t_st, t_hb, off_m;

	if (percpu_var(btf, "steal_time", &off_st, &t_st) ||
	    percpu_var(btf, "hrtimer_bases", &off_hb, &t_hb) ||
	    member_off(btf, t_st, "steal", &off_m))
		return -ENOENT;
	*delta = (__s64)off_st + off_m - (__s64)off_hb;
	js_dbg("steal_time at .data..percpu+%u, hrtimer_bases at +%u: delta %lld", off_st, off_hb,
	       (long long)*delta);
	return 0;
}

int kbtf_clk_delta(const struct btf *btf, __s64 *delta)
{
	__u32 off_hv, off_hb, t_hv, t_hb;

	if (percpu_var(btf, "hv_clock_per_cpu", &off_hv, &t_hv) ||
	    percpu_var(btf, "hrtimer_bases", &off_hb, &t_hb))
		return -ENOENT;
	*delta = (__s64)off_hv - (__s64)off_hb;
	js_dbg("hv_clock_per_cpu at .data..percpu+%u: delta %lld", off_hv, (long long)*delta);
	return 0;
}

int kbtf_wake_offs(const struct btf *btf, __s64 *pc_off, __s64 *hr_off, __u32 *hr_bit)
{
	__u32 off_rq, off_pc, off_hb, bit, t_rq, t_pc, t_hb, m = 0;

	if (percpu_var(btf, "runqueues", &off_rq, &t_rq) ||
	    percpu_var(btf, "hrtimer_bases", &off_hb, &t_hb) ||
	    member_bitoff(btf, t_hb, "in_hrtirq", &bit)) {
		js_dbg("waker: runqueues/hrtimer_bases.in_hrtirq not in the kernel BTF: context "
		       "unknown");
		return -ENOENT;
	}
	/* x86: __preempt_count (6.1, 6.15+), or pcpu_hot.preempt_count (6.2 to 6.14) */
	if (percpu_var(btf, "__preempt_count", &off_pc, &t_pc) &&
	    (percpu_var(btf, "pcpu_hot", &off_pc, &t_pc) ||
	     member_off(btf, t_pc, "preempt_count", &m))) {
		js_dbg("waker: no per-CPU preempt count in the kernel BTF: context unknown");
		return -ENOENT;
	}
	*pc_off = (__s64)off_pc + m - (__s64)off_rq;
	/* the 32-bit word of hrtimer_bases.in_hrtirq (little endian: bit % 32 in it) */
	*hr_off = (__s64)off_hb + (bit / 32) * 4 - (__s64)off_rq;
	*hr_bit = bit % 32;
	js_dbg("waker: preempt count at runqueues%+lld, in_hrtirq bit %u at %+lld",
	       (long long)*pc_off, *hr_bit, (long long)*hr_off);
	return 0;
}

int kbtf_bh_pending(const struct btf *btf, __s64 *off, __u32 *mask)
{
	__u32 off_rq, off_v, t_rq, t_v, m = 0, t_se;
	__s64 sz;
	int se;

	/* the run queue is found from the current task's se.cfs_rq (bpf/tp.h, current_rq) */
	se = btf__find_by_name_kind(btf, "sched_entity", BTF_KIND_STRUCT);
	if (percpu_var(btf, "runqueues", &off_rq, &t_rq) || se < 0 ||
	    member_bitoff(btf, (__u32)se, "cfs_rq", &t_se))
		return -ENOENT;
	/* x86: __softirq_pending (6.15+), pcpu_hot.softirq_pending (6.2 to 6.14), else
	 * irq_stat.__softirq_pending (x86 6.1, and the generic irq_cpustat_t: arm64) */
	if (percpu_var(btf, "__softirq_pending", &off_v, &t_v) &&
	    (percpu_var(btf, "pcpu_hot", &off_v, &t_v) ||
	     member_of(btf, t_v, "softirq_pending", &m, &t_v)) &&
	    (percpu_var(btf, "irq_stat", &off_v, &t_v) ||
	     member_of(btf, t_v, "__softirq_pending", &m, &t_v)))
		return -ENOENT;
	sz = btf__resolve_size(btf, t_v);
	if (m % 8 || (sz != 2 && sz != 4))
		return -ENOENT;
	*off = (__s64)off_v + m / 8 - (__s64)off_rq;
	*mask = sz == 2 ? 0xffffu : 0xffffffffu;
	js_dbg("softirq pending: runqueues%+lld, %lld bytes", (long long)*off, (long long)sz);
	return 0;
}
