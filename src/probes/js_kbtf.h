/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_kbtf.h - the kernel's BTF, as both BPF loaders (probes.c, follow.c) get it: one source
 * of types for the programs' CO-RE relocations and for what jitterscope looks up itself
 * (which tracepoints exist, where the steal clock is): --btf FILE, else the kernel's own.
 * And which build of the programs loads (bpf/tp.h): tp_btf programs where the kernel exposes
 * its own BTF with everything they call, else raw_tp programs, which need no BTF from the
 * kernel. Whether the kernel is older than any the probes load on. Last, where the per-CPU
 * variables the probes read are (the steal clock locator).
 */
#ifndef JS_KBTF_H
#define JS_KBTF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct btf;
struct bpf_object_skeleton;

/* the oldest kernel the probes load on: the rings take their records with BPF's
 * compare-and-exchange (BPF_ATOMIC, Linux 5.12); the tp_btf build needs 6.2 (kbtf.c) */
#define KBTF_MIN_MAJOR 5
#define KBTF_MIN_MINOR 12

struct js_kbtf {
	struct btf *btf;   /* the kernel's types, until kbtf_free_types() */
	const char *path;  /* --btf FILE, or NULL: the kernel's own */
	bool typed;	   /* the tp_btf build loads; else the raw_tp one */
	char raw_why[160]; /* why not the tp_btf build, when !typed */
};

/* kbtf_open - the kernel's types: path's BTF (--btf FILE, raw or in an ELF file's .BTF), else
 * the kernel's own (libbpf's search: /sys/kernel/btf/vmlinux first); and which build loads.
 * 0, or -errno with a one-line reason in why */
int kbtf_open(struct js_kbtf *k, const char *path, char *why, size_t len);
/* kbtf_free_types - give the types back (5 MB and more) once looked up, before the load */
void kbtf_free_types(struct js_kbtf *k);
/* kbtf_has_tp - does the kernel have tracepoint tp (its btf_trace_TP type) */
bool kbtf_has_tp(const struct btf *btf, const char *tp);
/* kbtf_open_skeleton - open skeleton s (its typed object) or, when the typed build does not
 * load here, the raw_tp object raw (raw_sz bytes: the same programs, maps and sections),
 * relocated against k's types; 0 or -errno */
int kbtf_open_skeleton(const struct js_kbtf *k, struct bpf_object_skeleton *s, const void *raw,
		       size_t raw_sz);
/* kbtf_release_below - is kernel release (uname -r: "5.4.0-150-generic") older than
 * major.minor; false when it does not start with MAJOR.MINOR (unknown: not refused) */
bool kbtf_release_below(const char *release, int major, int minor);
/* kbtf_too_old - is kernel release (uname -r) older than KBTF_MIN_MAJOR.KBTF_MIN_MINOR: true
 * with the one-line reason in why */
bool kbtf_too_old(const char *release, char *why, size_t len);

/* Where per-CPU variables are, from the types' .data..percpu (the probes find this CPU's
 * by its hrtimer_cpu_base, which its first hrtimer expiry shows: docs/DESIGN.md, probes).
 * Each 0 (its offsets set, and said with -v), or -ENOENT when the types lack one. */
/* kbtf_steal_delta - &steal_time.steal - &hrtimer_bases: the paravirt steal clock */
int kbtf_steal_delta(const struct btf *btf, __s64 *delta);
/* kbtf_clk_delta - &hv_clock_per_cpu - &hrtimer_bases: the pointer to the kvmclock page */
int kbtf_clk_delta(const struct btf *btf, __s64 *delta);
/* kbtf_wake_offs - from &runqueues: the preempt count (*pc_off), and the 32-bit word (*hr_off)
 * and bit (*hr_bit) of hrtimer_bases.in_hrtirq; -ENOENT said with -v (context unknown) */
int kbtf_wake_offs(const struct btf *btf, __s64 *pc_off, __s64 *hr_off, __u32 *hr_bit);
/* kbtf_bh_pending - from &runqueues: this CPU's pending softirq vectors
 * (local_softirq_pending()), *mask the bits of its size; -ENOENT when the types lack it */
int kbtf_bh_pending(const struct btf *btf, __s64 *off, __u32 *mask);

#endif /* JS_KBTF_H */
