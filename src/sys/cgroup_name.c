// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cgroup_name.c - a cgroup v2 path shortened to what a user recognises (js_cgroup.h).
 * Pure: no I/O. Layouts: systemd's (units, docker-ID.scope, cri-containerd-ID.scope,
 * crio-ID.scope, libpod-ID.scope, kubepods-QOS-podUID.slice) and the cgroupfs drivers'
 * (/docker/ID, /kubepods/QOS/podUID/ID).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "js_cgroup.h"

#define CID_LEN 64  /* a container id: 64 hex digits */
#define CID_SHOW 12 /* shown as `docker ps` does */

/* A path component: [s, s + n). */
struct comp {
	const char *s;
	size_t n;
};

static bool has_prefix(struct comp c, const char *p)
{
	size_t k = strlen(p);

	return c.n >= k && !memcmp(c.s, p, k);
}

static bool has_suffix(struct comp c, const char *p)
{
	size_t k = strlen(p);

	return c.n >= k && !memcmp(c.s + c.n - k, p, k);
}

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/* container runtimes' scopes: the prefix before the id, the label shown */
static const struct {
	const char *prefix, *label;
} scopes[] = {
	{ "docker-", "docker" }, { "cri-containerd-", "containerd" }, { "crio-conmon-", "conmon" },
	{ "crio-", "crio" },	 { "libpod-conmon-", "conmon" },      { "libpod-", "podman" },
};

/*
 * container - is c a container's cgroup? "docker-ID.scope" and the like, or a bare 64-hex
 * directory (cgroupfs driver: labelled by its parent "docker", "libpod_parent" or else
 * "container"). Writes "label:ID12".
 */
static bool container(struct comp c, const struct comp *parent, char *buf, size_t len, int *n)
{
	const char *label = NULL, *id = NULL;

	if (c.n == CID_LEN && is_hex(c.s, c.n)) {
		id = c.s;
		label = parent && parent->n == 6 && !memcmp(parent->s, "docker", 6) ? "docker" :
										      "container";
	}
	for (size_t i = 0; !id && i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		size_t k = strlen(scopes[i].prefix);

		if (has_prefix(c, scopes[i].prefix) && has_suffix(c, ".scope") &&
		    c.n == k + CID_LEN + 6 && is_hex(c.s + k, CID_LEN)) {
			id = c.s + k;
			label = scopes[i].label;
		}
	}
	if (!id)
		return false;
	*n = snprintf(buf, len, "%s:%.*s", label, CID_SHOW, id);
	return true;
}

/*
 * pod - is c a Kubernetes pod's cgroup? "kubepods-QOS-podUID.slice" (systemd driver: the
 * uid's '-' written '_') or "podUID" (cgroupfs driver). Writes "pod:UID" (with '-').
 */
static bool pod(struct comp c, char *buf, size_t len, int *n)
{
	const char *p = NULL;
	size_t end = c.n, k;
	char uid[40];

	if (has_prefix(c, "kubepods") && has_suffix(c, ".slice")) {
		end -= 6;
		for (size_t i = end; i >= 4 && !p; i--)
			if (!memcmp(c.s + i - 4, "-pod", 4))
				p = c.s + i;
	} else if (has_prefix(c, "pod")) {
		p = c.s + 3;
	}
	if (!p)
		return false;
	k = (size_t)(c.s + end - p);
	if (k < 32 || k > 36)
		return false;
	for (size_t i = 0; i < k; i++) {
		char ch = p[i] == '_' ? '-' : p[i];

		if (ch != '-' && !is_hex(&ch, 1))
			return false;
		uid[i] = ch;
	}
	*n = snprintf(buf, len, "pod:%.*s", (int)k, uid);
	return true;
}

/* unit - is c a systemd unit's cgroup? */
static bool unit(struct comp c)
{
	static const char *const suffix[] = { ".service", ".scope", ".socket",
					      ".mount",	  ".swap",  ".slice" };

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if (has_suffix(c, suffix[i]) && c.n > strlen(suffix[i]))
			return true;
	return false;
}

#define DEPTH_MAX 64 /* components looked at, from the innermost */

/* cgroup_short - the short name of a v2 cgroup path */
int cgroup_short(const char *path, char *buf, size_t len)
{
	struct comp c[DEPTH_MAX];
	size_t nc = 0, i;
	const char *s;
	int n = 0;

	if (!path || !buf || !len)
		return -EINVAL;
	/* the components, keeping the innermost DEPTH_MAX */
	for (s = path; *s;) {
		size_t k;

		s += strspn(s, "/");
		k = strcspn(s, "/");
		if (!k)
			break;
		if (nc == DEPTH_MAX) {
			memmove(c, c + 1, (DEPTH_MAX - 1) * sizeof(c[0]));
			nc--;
		}
		c[nc++] = (struct comp){ s, k };
		s += k;
	}
	if (!nc)
		return snprintf(buf, len, "/");
	for (i = nc; i-- > 0;)
		if (container(c[i], i ? &c[i - 1] : NULL, buf, len, &n))
			return n;
	for (i = nc; i-- > 0;)
		if (pod(c[i], buf, len, &n))
			return n;
	for (i = nc; i-- > 0;) {
		if (!unit(c[i]))
			continue;
		/* init.scope holds a service manager: name the unit it manages for */
		if (i && c[i].n == 10 && !memcmp(c[i].s, "init.scope", 10) && unit(c[i - 1]) &&
		    !has_suffix(c[i - 1], ".slice"))
			i--;
		return snprintf(buf, len, "%.*s", (int)c[i].n, c[i].s);
	}
	return snprintf(buf, len, "%s", path + strspn(path, "/"));
}
