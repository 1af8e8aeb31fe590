// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_cgroup.c - cgroup v2 paths shortened (real-world layouts), the id table and its walk. */
#include <errno.h>
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

#include "js_cgroup.h"

#define CID "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708"

/* paths seen on real systems (systemd, docker, containerd, CRI-O, podman, kubelet with the
 * systemd and the cgroupfs drivers) and what a user calls them */
static const struct {
	const char *path, *name;
} cases[] = {
	{ "/", "/" },
	{ "", "/" },
	{ "/init.scope", "init.scope" },
	{ "/system.slice/nginx.service", "nginx.service" },
	{ "/system.slice/systemd-journald.service", "systemd-journald.service" },
	/* a delegated subtree inside a service */
	{ "/system.slice/nginx.service/workers/w1", "nginx.service" },
	{ "/user.slice/user-1000.slice/user@1000.service/init.scope", "user@1000.service" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox-1234.scope",
	  "app-firefox-1234.scope" },
	{ "/user.slice/user-1000.slice/session-3.scope", "session-3.scope" },
	{ "/user.slice", "user.slice" },
	{ "/system.slice/docker-" CID ".scope", "docker:3f2a1b4c5d6e" },
	{ "/docker/" CID, "docker:3f2a1b4c5d6e" },
	{ "/system.slice/containerd.service", "containerd.service" },
	{ "/machine.slice/libpod-" CID ".scope", "podman:3f2a1b4c5d6e" },
	{ "/machine.slice/libpod-" CID ".scope/container", "podman:3f2a1b4c5d6e" },
	{ "/machine.slice/libpod-conmon-" CID ".scope", "conmon:3f2a1b4c5d6e" },
	{ "/system.slice/crio-" CID ".scope", "crio:3f2a1b4c5d6e" },
	{ "/kubepods.slice/kubepods-burstable.slice/"
	  "kubepods-burstable-pod8c3f9a1e_2b4d_4e6f_8a0b_1c2d3e4f5a6b.slice/"
	  "cri-containerd-" CID ".scope",
	  "containerd:3f2a1b4c5d6e" },
	{ "/kubepods.slice/kubepods-besteffort.slice/"
	  "kubepods-besteffort-pod8c3f9a1e_2b4d_4e6f_8a0b_1c2d3e4f5a6b.slice",
	  "pod:8c3f9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b" },
	{ "/kubepods.slice/kubepods-pod8c3f9a1e_2b4d_4e6f_8a0b_1c2d3e4f5a6b.slice",
	  "pod:8c3f9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b" },
	{ "/kubepods.slice/kubepods-besteffort.slice", "kubepods-besteffort.slice" },
	{ "/kubepods/burstable/pod8c3f9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b/" CID,
	  "container:3f2a1b4c5d6e" },
	{ "/kubepods/burstable/pod8c3f9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b",
	  "pod:8c3f9a1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b" },
	/* docker in docker: the innermost container */
	{ "/docker/" CID "/docker/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	  "docker:0123456789ab" },
	/* not a container: a short or non-hex id, a scope without an id */
	{ "/system.slice/docker-3f2a.scope", "docker-3f2a.scope" },
	{ "/system.slice/docker.service", "docker.service" },
	{ "/podman", "podman" },
	/* no systemd: the path itself */
	{ "/jstest/inject", "jstest/inject" },
	{ "/jstest.slice/jsinject-test.scope", "jsinject-test.scope" },
	{ "//a//b/", "a//b/" },
};

static void test_short_names(void **state)
{
	char buf[JS_CGROUP_NAME_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = cgroup_short(cases[i].path, buf, sizeof(buf));

		if (strcmp(buf, cases[i].name))
			fail_msg("%s: \"%s\", want \"%s\"", cases[i].path, buf, cases[i].name);
		assert_int_equal(n, (int)strlen(cases[i].name));
	}
	/* truncated like snprintf */
	assert_int_equal(cgroup_short("/system.slice/nginx.service", buf, 6), 13);
	assert_string_equal(buf, "nginx");
	assert_int_equal(cgroup_short(NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(cgroup_short("/", NULL, 0), -EINVAL);
}

/* the table: added ids, lookups, replacement once full */
static void test_table(void **state)
{
	struct js_cgroups *t = cgroups_new();

	(void)state;
	assert_non_null(t);
	assert_null(cgroups_mount(t));
	assert_int_equal(cgroups_add(t, 42, "/system.slice/nginx.service"), 0);
	assert_int_equal(cgroups_add(t, 1, "/"), 0);
	assert_int_equal(cgroups_add(t, 0, "/x"), -EINVAL);
	assert_string_equal(cgroups_name(t, 42), "nginx.service");
	assert_string_equal(cgroups_path(t, 42), "/system.slice/nginx.service");
	assert_string_equal(cgroups_name(t, 1), "/");
	assert_null(cgroups_name(t, 43));
	assert_null(cgroups_get(t, 0));
	/* a table that cannot walk resolves only what it holds */
	assert_null(cgroups_resolve(t, 43));
	assert_non_null(cgroups_resolve(t, 42));
	/* an id not found is known as such */
	assert_int_equal(cgroups_add(t, 44, NULL), 0);
	assert_non_null(cgroups_get(t, 44));
	assert_null(cgroups_name(t, 44));
	assert_null(cgroups_path(t, 44));
	/* re-adding replaces the path */
	assert_int_equal(cgroups_add(t, 42, "/system.slice/sshd.service"), 0);
	assert_string_equal(cgroups_name(t, 42), "sshd.service");
	assert_int_equal(cgroups_count(t), 3);
	/* full: the oldest entries give way, every lookup still right */
	for (uint64_t id = 100; id < 100 + JS_CGROUPS_MAX; id++) {
		char p[32];

		snprintf(p, sizeof(p), "/c%llu", (unsigned long long)id);
		assert_int_equal(cgroups_add(t, id, p), 0);
	}
	assert_int_equal(cgroups_count(t), JS_CGROUPS_MAX);
	assert_null(cgroups_get(t, 42));
	assert_string_equal(cgroups_name(t, 100 + JS_CGROUPS_MAX - 1), "c1123");
	assert_string_equal(cgroups_name(t, 100), "c100");
	for (size_t i = 0; i < cgroups_count(t); i++)
		assert_ptr_equal(cgroups_get(t, cgroups_at(t, i)->id), cgroups_at(t, i));
	cgroups_free(t);
	cgroups_free(NULL);
}

static char tree[] = "/tmp/js-cgroup.XXXXXX";

static uint64_t ino(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", tree, rel);
	assert_int_equal(stat(p, &st), 0);
	return st.st_ino;
}

static void mk(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s%s", tree, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

/* the walk over a directory tree standing in for the hierarchy (ids: its inode numbers, as
 * stat gives a cgroup directory's on 64-bit kernels) */
static void test_walk(void **state)
{
	struct js_cgroups *t;
	uint64_t late;
	char cmd[64];

	(void)state;
	assert_non_null(mkdtemp(tree));
	mk("/system.slice");
	mk("/system.slice/nginx.service");
	mk("/system.slice/docker-" CID ".scope");
	t = cgroups_open(tree);
	assert_non_null(t);
	assert_string_equal(cgroups_mount(t), tree);
	assert_string_equal(cgroups_path(t, ino("")), "/");
	assert_string_equal(cgroups_path(t, ino("/system.slice/nginx.service")),
			    "/system.slice/nginx.service");
	assert_string_equal(cgroups_name(t, ino("/system.slice/docker-" CID ".scope")),
			    "docker:3f2a1b4c5d6e");
	assert_int_equal(cgroups_id_of(t, "/system.slice"), ino("/system.slice"));
	assert_int_equal(cgroups_count(t), 4);
	/* made after the walk: found by the next one, at most once a second */
	mk("/late.scope");
	late = ino("/late.scope");
	assert_null(cgroups_get(t, late));
	assert_null(cgroups_resolve(t, late)); /* walked less than a second ago */
	sleep(1);
	assert_non_null(cgroups_resolve(t, late));
	assert_string_equal(cgroups_name(t, late), "late.scope");
	/* one that is nowhere: walked for once, then known as not found */
	sleep(1);
	assert_non_null(cgroups_resolve(t, 987654321987ull));
	assert_null(cgroups_name(t, 987654321987ull));
	cgroups_free(t);
	/* no hierarchy there: nothing resolves */
	t = cgroups_open("/nonexistent/cgroup2");
	assert_non_null(t);
	assert_null(cgroups_resolve(t, 1));
	assert_int_equal(cgroups_id_of(t, "/"), 0);
	cgroups_free(t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
