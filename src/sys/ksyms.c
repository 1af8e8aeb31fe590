// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* ksyms.c - /proc/kallsyms loaded once, nearest-symbol lookups (see js_ksyms.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_ksyms.h"

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset into the string pool */
	uint32_t seq;  /* file order: ties keep the first alias */
};

struct js_ksyms {
	struct ksym *syms;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
	bool any_addr; /* at least one non-zero address */
};

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 1024;
	void *nb;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nb = realloc(*buf, ncap * elem);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

/* only code symbols: callbacks and callsites are functions */
static bool keep_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

static int add_sym(struct js_ksyms *ks, uint64_t addr, const char *name)
{
	size_t len = strlen(name) + 1;
	int err;

	err = grow((void **)&ks->syms, &ks->cap, ks->n + 1, sizeof(*ks->syms));
	if (!err)
		err = grow((void **)&ks->pool, &ks->pool_cap, ks->pool_len + len, 1);
	if (err)
		return err;
	memcpy(ks->pool + ks->pool_len, name, len);
	ks->syms[ks->n].addr = addr;
	ks->syms[ks->n].name = (uint32_t)ks->pool_len;
	ks->syms[ks->n].seq = (uint32_t)ks->n;
	ks->pool_len += len;
	ks->n++;
	if (addr)
		ks->any_addr = true;
	return 0;
}

/* parse_line - "ffffffff81000000 T _stext [module]"; 1 kept, 0 skipped, <0 error */
static int parse_line(struct js_ksyms *ks, const char *line)
{
	unsigned long long addr;
	char type, name[256];

	if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
		return 0;
	if (!keep_type(type))
		return 0;
	return add_sym(ks, addr, name) < 0 ? -ENOMEM : 1;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static int read_all(struct js_ksyms *ks, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	while (getline(&line, &cap, f) > 0) {
		err = parse_line(ks, line);
		if (err < 0)
			break;
		err = 0;
	}
	free(line);
	return err;
}

/* shrink - give back the growth slack: the table stays for the whole run, locked in memory
 * (mlockall) with its unused tail */
static void shrink(struct js_ksyms *ks)
{
	void *p = realloc(ks->syms, ks->n * sizeof(*ks->syms));

	if (p) {
		ks->syms = p;
		ks->cap = ks->n;
	}
	p = realloc(ks->pool, ks->pool_len);
	if (p) {
		ks->pool = p;
		ks->pool_cap = ks->pool_len;
	}
}

/* ksyms_load_file - load a kallsyms-format file ("addr type name [module]" lines) */
int ksyms_load_file(struct js_ksyms **out, const char *path)
{
	struct js_ksyms *ks;
	FILE *f;
	int err;

	*out = NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		err = -errno;
		goto out;
	}
	err = read_all(ks, f);
	fclose(f);
	if (err)
		goto out;
	if (!ks->n) {
		err = -ENOENT;
		goto out;
	}
	if (!ks->any_addr) {
		err = -EPERM; /* kptr_restrict: every address reads as 0 */
		goto out;
	}
	qsort(ks->syms, ks->n, sizeof(*ks->syms), cmp_sym);
	shrink(ks);
	*out = ks;
	return 0;
out:
	ksyms_free(ks);
	return err;
}

/* ksyms_load - load /proc/kallsyms; 0 or negative errno (-EPERM when addresses are hidden) */
int ksyms_load(struct js_ksyms **out)
{
	return ksyms_load_file(out, "/proc/kallsyms");
}

/* ksyms_free - release the table; accepts NULL */
void ksyms_free(struct js_ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->pool);
	free(ks);
}

/* ksyms_count - number of symbols kept */
size_t ksyms_count(const struct js_ksyms *ks)
{
	return ks ? ks->n : 0;
}

/* ksyms_lookup - nearest symbol at or below addr, offset into *off (may be NULL); NULL if none */
const char *ksyms_lookup(const struct js_ksyms *ks, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi, mid;

	if (!ks || !ks->n || !addr || addr < ks->syms[0].addr)
		return NULL;
	hi = ks->n; /* invariant: syms[lo].addr <= addr, answer in [lo, hi) */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* first alias at that address */
	while (lo > 0 && ks->syms[lo - 1].addr == ks->syms[lo].addr)
		lo--;
	if (off)
		*off = addr - ks->syms[lo].addr;
	return ks->pool + ks->syms[lo].name;
}

/* ksyms_name - nearest symbol name at or below addr, or NULL */
const char *ksyms_name(const struct js_ksyms *ks, uint64_t addr)
{
	return ksyms_lookup(ks, addr, NULL);
}

/* ksyms_addr - address of the first symbol called name, 0 if absent (linear scan: slow) */
uint64_t ksyms_addr(const struct js_ksyms *ks, const char *name)
{
	size_t i;

	for (i = 0; ks && i < ks->n; i++)
		if (!strcmp(ks->pool + ks->syms[i].name, name))
			return ks->syms[i].addr;
	return 0;
}
