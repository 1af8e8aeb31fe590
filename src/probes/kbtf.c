// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * kbtf.c - the kernel's BTF, as both BPF loaders get it (js_kbtf.h).
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
