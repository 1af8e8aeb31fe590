// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fuzz_procfiles.c - the readers of single /proc and /sys files, on a memfd holding the
 * input: /proc/interrupts and /proc/softirqs tables, /proc/kallsyms, /proc/cpuinfo (TSC
 * flags), and the sysfs helpers (cpulists, numbers, strings, gzip). The first input byte
 * picks the reader.
 */
#include <sys/mman.h>

#include "fuzz.h"
#include "js_audit.h"
#include "js_ksyms.h"
#include "js_sysfs.h"
#include "js_tsc.h"
#include "../../src/audit/audit_priv.h"

static char path[64];
static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fd = memfd_create("jsfuzz", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

static void put(const uint8_t *data, size_t size)
{
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
}

static void table(const char *text, enum audit_row_kind kind)
{
	static const int cpus[][3] = { { 0 }, { 1, 3 }, { 0, 2, 7 } };
	struct audit_row *rows = NULL;
	size_t n = 0, k = strlen(text) % 3;

	if (audit_parse_table(text, cpus[k], k + 1, kind, &rows, &n) == 0)
		audit_rows_free(rows, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[256], *s, *d = NULL;
	struct js_ksyms *ks = NULL;
	struct js_cpuset set;
	struct tsc_caps caps;
	uint64_t u;
	int64_t i64;
	size_t len;
	int v;

	if (!size)
		return 0;
	put(data + 1, size - 1);
	s = fuzz_str(data + 1, size - 1);
	switch (data[0] % 8) {
	case 0:
		table(s, AUDIT_ROW_IRQ);
		break;
	case 1:
		table(s, AUDIT_ROW_SOFTIRQ);
		break;
	case 2:
		if (ksyms_load_file(&ks, path) == 0) {
			ksyms_name(ks, 0);
			ksyms_name(ks, ~0ull);
			ksyms_name(ks, 0xffffffff81000000ull);
		}
		ksyms_free(ks);
		break;
	case 3:
		tsc_caps_detect(&caps, s);
		tsc_caps_invariant(&caps);
		break;
	case 4:
		sysfs_read_cpulist(path, &set);
		break;
	case 5:
		sysfs_read_u64(path, &u);
		sysfs_read_s64(path, &i64);
		sysfs_read_int(path, &v);
		break;
	case 6:
		sysfs_read_str(path, buf, sizeof(buf));
		sysfs_read_str(path, buf, 1);
		sysfs_read_buf(path, buf, sizeof(buf));
		break;
	case 7:
		if (sysfs_read_gz(path, &d, &len) == 0)
			free(d);
		break;
	}
	free(s);
	return 0;
}
