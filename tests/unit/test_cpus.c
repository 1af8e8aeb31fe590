// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_cpus.c - the default measured CPUs (README: "the isolated CPUs, else the last online
 * one"), on the fixture sysroots and on scratch trees: the CPUs isolated by isolcpus=, an
 * isolated cpuset partition or nohz_full= that are online and allowed, and which of the
 * three; else the last online allowed CPU, never CPU 0 alone; --cpu isolated refused when
 * none is.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_cpus.h"
#include "js_sysfs.h"

/* scratch - the scratch tree with these online/isolated files (NULL: no such file) */
static void scratch(const char *online, const char *isolated)
{
	const char *name[2] = { "online", "isolated" }, *val[2] = { online, isolated };
	char rel[64], path[160];

	for (int i = 0; i < 2; i++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/%s", name[i]);
		snprintf(path, sizeof(path), "%s%s", scratch_dir, rel);
		unlink(path);
		if (val[i])
			scratch_put(rel, val[i], strlen(val[i]));
	}
	assert_int_equal(sysfs_set_root(scratch_dir), 0);
}

static void set_of(struct js_cpuset *s, const char *list)
{
	assert_int_equal(cpulist_parse(list, s, NULL, 0), 0);
}

static int sources; /* what isolates the CPUs the last pick() chose (enum cpus_source) */

/* pick_as - the default under the current root with @allowed ("": the online CPUs), the
 * isolated ones only if @isolated (--cpu isolated); the chosen CPUs as a list into out, or
 * "error"; their sources in `sources` */
static const char *pick_as(const char *allowed, bool isolated, char *out, size_t len)
{
	struct js_cpuset online, al, got;
	int cpus[JS_MAX_CPUS];
	size_t n = 7;

	assert_int_equal(cpus_online(&online), 0);
	if (allowed[0])
		set_of(&al, allowed);
	else
		al = online;
	sources = cpus_default(&online, &al, isolated, cpus, &n);
	if (sources < 0) {
		assert_int_equal(sources, -EINVAL);
		assert_int_equal(n, 0);
		snprintf(out, len, "error");
		return out;
	}
	cpuset_zero(&got);
	for (size_t i = 0; i < n; i++)
		cpuset_set(&got, cpus[i]);
	assert_int_equal((size_t)cpuset_count(&got), n); /* each CPU once */
	cpulist_format(&got, out, len);
	return out;
}

/* pick - the default, as without --cpu */
static const char *pick(const char *allowed, char *out, size_t len)
{
	return pick_as(allowed, false, out, len);
}

/** The fixture trees: isolated 2-7 on the tuned box, none on the badly tuned one. */
static void test_fixtures(void **state)
{
	char b[64];
	struct js_cpuset online;

	(void)state;
	assert_int_equal(sysfs_set_root("tests/data/sysroot/tuned"), 0);
	assert_string_equal(pick("", b, sizeof(b)), "2-7");
	assert_string_equal(pick("0-3", b, sizeof(b)), "2-3"); /* a cpuset: the allowed ones */
	assert_string_equal(pick("0-1", b, sizeof(b)), "1");   /* none allowed: the last */
	assert_int_equal(sysfs_set_root("tests/data/sysroot/badly-tuned"), 0);
	assert_string_equal(pick("", b, sizeof(b)), "7");
	assert_string_equal(pick("0-4", b, sizeof(b)), "4");
	assert_string_equal(pick("0", b, sizeof(b)), "error"); /* CPU 0 alone: refused */
	/* an unreadable online list is the caller's error */
	assert_int_equal(sysfs_set_root("tests/data/sysroot/malformed"), 0);
	assert_int_equal(cpus_online(&online), -EINVAL);
}

/** Scratch trees: offline isolated CPUs, a gap in the online list, no isolated file,
 * an unparseable isolated file, "(null)". */
static void test_scratch(void **state)
{
	char b[64];

	(void)state;
	scratch("0-2\n", "2-3\n"); /* 3 is isolated but offline */
	assert_string_equal(pick("", b, sizeof(b)), "2");
	scratch("0-3,5\n", "\n"); /* none isolated: the last online */
	assert_string_equal(pick("", b, sizeof(b)), "5");
	assert_string_equal(pick("0-4", b, sizeof(b)), "3");
	scratch("0-3\n", NULL); /* an older kernel without the file */
	assert_string_equal(pick("", b, sizeof(b)), "3");
	scratch("0-3\n", "garbage\n"); /* unreadable: as if none were isolated */
	assert_string_equal(pick("", b, sizeof(b)), "3");
	scratch("0-3\n", "(null)\n");
	assert_string_equal(pick("", b, sizeof(b)), "3");
	scratch("0\n", "\n"); /* a 1-CPU machine */
	assert_string_equal(pick("", b, sizeof(b)), "error");
	scratch("0-7\n", "1,3,5\n");
	assert_string_equal(pick("", b, sizeof(b)), "1,3,5");
	assert_string_equal(pick("0,3-7", b, sizeof(b)), "3,5");
}

/* notice_of - the line cpus_default_notice() writes on stderr, into out */
static const char *notice_of(const char *doing, const char *list, int src, char *out, size_t len)
{
	struct js_cpuset set;
	int cpus[JS_MAX_CPUS], fd = dup(2);
	FILE *tmp = tmpfile();
	size_t n = 0;

	assert_non_null(tmp);
	set_of(&set, list);
	for (int c = cpuset_next(&set, 0); c >= 0; c = cpuset_next(&set, c + 1))
		cpus[n++] = c;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	cpus_default_notice(doing, cpus, n, src);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	rewind(tmp);
	if (!fgets(out, (int)len, tmp))
		out[0] = '\0';
	fclose(tmp);
	return out;
}

/** One fixture tree per isolation source and one with all three: the CPUs, their sources
 * (the notice's words), the allowed ones only; --cpu isolated. */
static void test_sources(void **state)
{
	static const struct {
		const char *tree, *allowed, *cpus;
		int sources;
		const char *names;
	} v[] = {
		{ "cpus-isolcpus", "", "2-3", CPUS_ISOLCPUS, "isolcpus" },
		/* cgroup v2 at /sys/fs/cgroup/unified: its file, not /sys/fs/cgroup's */
		{ "cpus-partition", "", "4-5", CPUS_PARTITION, "cpuset partition" },
		{ "cpus-nohz", "", "6-7", CPUS_NOHZ_FULL, "nohz_full" },
		/* the union, 7 offline; each source named once */
		{ "cpus-union", "", "2-3,5", CPUS_ISOLCPUS | CPUS_PARTITION | CPUS_NOHZ_FULL,
		  "isolcpus, cpuset partition, nohz_full" },
		/* only the sources of allowed CPUs are named */
		{ "cpus-union", "0-3", "2-3", CPUS_ISOLCPUS | CPUS_NOHZ_FULL,
		  "isolcpus, nohz_full" },
		{ "cpus-union", "0-1,3", "3", CPUS_NOHZ_FULL, "nohz_full" },
		{ "cpus-union", "0-1,4,6", "6", 0, "" }, /* none allowed: the last one */
		{ "tuned", "", "2-7", CPUS_ISOLCPUS | CPUS_NOHZ_FULL, "isolcpus, nohz_full" },
		{ "badly-tuned", "", "7", 0, "" },
	};
	char b[64], dir[160], names[160];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(dir, sizeof(dir), "tests/data/sysroot/%s", v[i].tree);
		print_message("%s allowed '%s'\n", v[i].tree, v[i].allowed);
		assert_int_equal(sysfs_set_root(dir), 0);
		assert_string_equal(pick(v[i].allowed, b, sizeof(b)), v[i].cpus);
		assert_int_equal(sources, v[i].sources);
		assert_string_equal(cpus_sources_str((unsigned int)sources, names, sizeof(names)),
				    v[i].names);
		if (v[i].sources)
			snprintf(dir, sizeof(dir),
				 "jitterscope: measuring CPU%s %s: isolated (%s)\n",
				 strpbrk(v[i].cpus, ",-") ? "s" : "", v[i].cpus, v[i].names);
		else
			snprintf(dir, sizeof(dir),
				 "jitterscope: measuring CPU %s: none is isolated (isolcpus=, "
				 "cpuset partition, nohz_full=), the last online allowed CPU\n",
				 v[i].cpus);
		assert_string_equal(notice_of("measuring", b, sources, names, sizeof(names)), dir);
		/* --cpu isolated: the same CPUs, refused when none is isolated */
		assert_string_equal(pick_as(v[i].allowed, true, b, sizeof(b)),
				    v[i].sources ? v[i].cpus : "error");
	}
}

/* mounts - the scratch tree's /proc/self/mounts (NULL: none) and a partition file at dir */
static void mounts(const char *text, const char *dir, const char *isolated)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/proc/self/mounts", scratch_dir);
	unlink(path);
	if (text)
		scratch_puts("/proc/self/mounts", text);
	if (dir) {
		snprintf(path, sizeof(path), "%s/cpuset.cpus.isolated", dir);
		scratch_puts(path, isolated);
	}
}

/** Where cgroup v2 is mounted: the first cgroup2 line; none, an escaped mount point, no
 * mounts file or an unreadable partition file isolate nothing. */
static void test_partition_mount(void **state)
{
	struct js_cpuset s;
	char b[64], path[SYSFS_PATH_MAX], mnt[SYSFS_PATH_MAX];

	(void)state;
	scratch("0-7\n", "\n");
	mounts("cgroup2 /a cgroup2 rw 0 0\ncgroup2 /b cgroup2 rw 0 0\n", "/a", "1-2\n");
	assert_int_equal(sysfs_cgroup2_mount(mnt, sizeof(mnt)), 0);
	assert_string_equal(mnt, "/a");
	assert_int_equal(sysfs_cgroup2_mount(mnt, 2), -ENAMETOOLONG); /* "/a" and its NUL */
	assert_int_equal(cpus_partition(&s, path, sizeof(path)), 0);
	assert_string_equal(path, "/a/cpuset.cpus.isolated");
	assert_string_equal(pick("", b, sizeof(b)), "1-2");
	assert_int_equal(sources, CPUS_PARTITION);
	mounts("none /x tmpfs rw 0 0\ncgroup2 /my\\040cg cgroup2 rw 0 0\n", NULL, NULL);
	assert_int_equal(sysfs_cgroup2_mount(mnt, sizeof(mnt)), -ENOENT);
	assert_string_equal(pick("", b, sizeof(b)), "7");
	mounts(NULL, NULL, NULL); /* no /proc/self/mounts */
	assert_int_equal(cpus_partition(&s, path, sizeof(path)), -ENOENT);
	assert_true(cpuset_empty(&s));
	assert_string_equal(pick_as("", true, b, sizeof(b)), "error");
	mounts("cgroup2 /a cgroup2 rw 0 0\n", "/a", "garbage\n");
	assert_string_equal(pick("", b, sizeof(b)), "7");
	assert_int_equal(sources, 0);
	mounts("cgroup2 /a cgroup2 rw 0 0\n", "/a", "\n"); /* no isolated partition */
	assert_string_equal(pick_as("", true, b, sizeof(b)), "error");
}

/* narrowed - cpus_permitted() from a thread whose affinity is its first permitted CPU alone
 * (a shell on a box booted with isolcpus=): the set it gets, and its affinity after */
struct narrowed {
	struct js_cpuset first, permitted, after;
	int ret;
};

static void *narrowed_thread(void *arg)
{
	struct narrowed *nw = arg;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpuset_next(&nw->first, 0), &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		nw->ret = -errno;
		return NULL;
	}
	nw->ret = cpus_permitted(&nw->permitted);
	cpus_affinity(&nw->after);
	return NULL;
}

/** The CPUs a sampler may be pinned to are the cpuset's, not the affinity we were started
 * with: a thread narrowed to one CPU still finds every permitted CPU, and keeps its own
 * affinity (the probe restores it at once). The live kernel's answer. */
static void test_permitted(void **state)
{
	struct js_cpuset perm, aff;
	struct narrowed nw = { .ret = -1 };
	pthread_t t;

	(void)state;
	assert_int_equal(cpus_affinity(&aff), 0);
	assert_int_equal(cpus_permitted(&perm), 0);
	for (int c = cpuset_next(&aff, 0); c >= 0; c = cpuset_next(&aff, c + 1))
		assert_true(cpuset_isset(&perm, c)); /* the affinity is within the cpuset */
	cpuset_zero(&nw.first);
	cpuset_set(&nw.first, cpuset_next(&perm, 0));
	assert_int_equal(pthread_create(&t, NULL, narrowed_thread, &nw), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(nw.ret, 0);
	assert_memory_equal(&nw.permitted, &perm, sizeof(perm));
	assert_memory_equal(&nw.after, &nw.first, sizeof(nw.first));
	/* and ours is as it was */
	assert_int_equal(cpus_affinity(&perm), 0);
	assert_memory_equal(&perm, &aff, sizeof(aff));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),  cmocka_unit_test(test_scratch),
		cmocka_unit_test(test_sources),	  cmocka_unit_test(test_partition_mount),
		cmocka_unit_test(test_permitted),
	};

	return cmocka_run_group_tests_name("cpus", tests, scratch_setup, scratch_teardown);
}
