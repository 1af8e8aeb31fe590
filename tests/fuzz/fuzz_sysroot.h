/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fuzz_sysroot.h - the audit against a scratch copy of a fixture tree
 * (tests/data/sysroot/tuned, or $JS_FUZZ_SYSROOT) in which one file is replaced by the
 * fuzz input: every /proc and /sys reader and parser of the audit sees arbitrary bytes.
 */
#ifndef JS_FUZZ_SYSROOT_H
#define JS_FUZZ_SYSROOT_H

#include <ftw.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "js_audit.h"
#include "js_json.h"

#define FZ_MAX_FILES 512

static char fz_root[256];
static char *fz_files[FZ_MAX_FILES]; /* relative paths of the regular files */
static char *fz_orig[FZ_MAX_FILES];  /* their original contents */
static size_t fz_len[FZ_MAX_FILES];
static size_t fz_n;
static FILE *fz_null;

static char *fz_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		buf = realloc(buf, cap + 4096);
		if (!buf)
			abort();
		size_t got = fread(buf + cap, 1, 4096, f);

		cap += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	*len = cap;
	return buf;
}

static void fz_write(const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fz_root, rel);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (len && fwrite(data, 1, len, f) != len)
		abort();
	fclose(f);
}

static const char *fz_src;

static int fz_copy(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *rel = path + strlen(fz_src);
	char dst[512];

	(void)ftw;
	while (*rel == '/')
		rel++;
	snprintf(dst, sizeof(dst), "%s/%s", fz_root, rel);
	if (flag == FTW_D) {
		mkdir(dst, st->st_mode | 0700);
	} else if (flag == FTW_F && fz_n < FZ_MAX_FILES) {
		fz_files[fz_n] = strdup(rel);
		fz_orig[fz_n] = fz_read(path, &fz_len[fz_n]);
		fz_write(rel, fz_orig[fz_n], fz_len[fz_n]);
		fz_n++;
	}
	return 0;
}

/* fz_setup - copy the fixture tree into a scratch directory (once) */
static void fz_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	fz_src = getenv("JS_FUZZ_SYSROOT");
	if (!fz_src)
		fz_src = "tests/data/sysroot/tuned";
	snprintf(fz_root, sizeof(fz_root), "%s/jsfuzz-sysroot.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (tmp ? tmp : "/tmp"));
	if (!mkdtemp(fz_root) || nftw(fz_src, fz_copy, 16, FTW_PHYS) || !fz_n) {
		fprintf(stderr,
			"fuzz: cannot copy the fixture tree %s (run from the repository "
			"root or set JS_FUZZ_SYSROOT)\n",
			fz_src);
		abort();
	}
	fz_null = fopen("/dev/null", "w");
}

static int fz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* fz_cleanup - remove the scratch tree at exit */
static void fz_cleanup(void)
{
	if (fz_root[0])
		nftw(fz_root, fz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* fz_index - the fixture file named rel, or -1 */
static int fz_index(const char *rel)
{
	for (size_t i = 0; i < fz_n; i++)
		if (!strcmp(fz_files[i], rel))
			return (int)i;
	return -1;
}

/* fz_audit - run the audit on the scratch tree (one or two CPUs) and render it */
static void fz_audit(bool two_cpus)
{
	static const int one[] = { 3 }, two[] = { 2, 5 };
	struct js_audit a;
	struct js_json j;

	memset(&a, 0, sizeof(a));
	if (audit_run(&a, two_cpus ? two : one, two_cpus ? 2 : 1, fz_root) == 0) {
		audit_print_text(fz_null, &a, false);
		json_init(&j, fz_null);
		audit_write_json(&j, "audit", &a);
		audit_exit_status(&a);
	}
	audit_free(&a);
}

/* fz_replace - write data over file i, audit, restore the original */
static void fz_replace(int i, const uint8_t *data, size_t size)
{
	fz_write(fz_files[i], data, size);
	fz_audit(size & 1);
	fz_write(fz_files[i], fz_orig[i], fz_len[i]);
}

#endif /* JS_FUZZ_SYSROOT_H */
