/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_cgroup.h - the cgroup (v2) of the tasks the probes name, as a user recognises it.
 *
 * The probes record a task's cgroup v2 id (the kernfs node id of its cgroup directory, as
 * bpf_get_current_cgroup_id() gives it). A table maps ids to their path under the v2 root
 * and a short name: a container id, a Kubernetes pod uid, a systemd unit (cgroup_short()).
 * It is filled by walking the v2 hierarchy (wherever cgroup2 is mounted: /sys/fs/cgroup on
 * a pure v2 system, /sys/fs/cgroup/unified on a hybrid one) at start and again on a miss
 * (at most once per second), or from a saved run (cgroups_add()). Memory is bounded:
 * JS_CGROUPS_MAX ids; beyond that new ids replace old ones round robin.
 */
#ifndef JS_CGROUP_H
#define JS_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_CGROUP_NAME_LEN 48 /* a short name: "docker:0123456789ab", "nginx.service" */
#define JS_CGROUPS_MAX 1024

/*
 * cgroup_short - the short name of a v2 cgroup path (relative to the v2 root, "/" for the
 * root): from the innermost component up, the first container (docker-ID.scope, /docker/ID,
 * cri-containerd-ID.scope, crio-ID.scope, libpod-ID.scope and their conmon scopes, a bare
 * 64-hex directory: "docker:ID" with ID its first 12 hex digits), else the first Kubernetes
 * pod (kubepods-...-podUID.slice or podUID: "pod:UID"), else the first systemd unit
 * (.service, .scope, .socket, .mount, .swap, .slice; init.scope inside a unit names that
 * unit, e.g. user@1000.service), else the path without its leading '/'. The root is "/".
 * Returns the name's length like snprintf (truncated to len - 1), or -EINVAL.
 */
int cgroup_short(const char *path, char *buf, size_t len);

/* One known cgroup. */
struct js_cgroup {
	uint64_t id;
	char *path;		       /* under the v2 root ("/" for it); NULL: not found */
	char name[JS_CGROUP_NAME_LEN]; /* cgroup_short(path); "" when not found */
};

struct js_cgroups;

/*
 * cgroups_open - a table for the cgroup2 hierarchy mounted at mount (NULL: the first
 * cgroup2 mount of /proc/self/mountinfo), walked once now. Without a cgroup2 mount the
 * table resolves nothing (cgroups_mount() is NULL). NULL only when out of memory.
 */
struct js_cgroups *cgroups_open(const char *mount);

/* cgroups_new - an empty table that never walks (a saved run's) */
struct js_cgroups *cgroups_new(void);

/* cgroups_free - release the table; accepts NULL */
void cgroups_free(struct js_cgroups *t);

/* cgroups_mount - where the v2 hierarchy the table walks is mounted, or NULL */
const char *cgroups_mount(const struct js_cgroups *t);

/* cgroups_add - record id at path (a saved run's, or a walk's); 0 or -ENOMEM */
int cgroups_add(struct js_cgroups *t, uint64_t id, const char *path);

/* cgroups_get - the entry of id if known (found or not), without walking; NULL otherwise */
const struct js_cgroup *cgroups_get(const struct js_cgroups *t, uint64_t id);

/*
 * cgroups_resolve - the entry of id: known, else found by walking the hierarchy again
 * (at most once per second; an id a walk did not find is kept as not found). NULL while
 * unknown (no walk allowed yet, id 0, or no table).
 */
const struct js_cgroup *cgroups_resolve(struct js_cgroups *t, uint64_t id);

/* cgroups_resolve_name - cgroups_resolve()'s short name, NULL if none: a js_cgfn
 * (js_correlate.h) whose ctx is the table */
const char *cgroups_resolve_name(void *t, uint64_t id);

/* cgroups_name - the short name of a known id, NULL if unknown or not found (no walk) */
const char *cgroups_name(const struct js_cgroups *t, uint64_t id);

/* cgroups_path - the path of a known id, NULL if unknown or not found (no walk) */
const char *cgroups_path(const struct js_cgroups *t, uint64_t id);

/* cgroups_id_of - the id of the cgroup directory at path under the table's mount; 0 if none */
uint64_t cgroups_id_of(const struct js_cgroups *t, const char *path);

/* cgroups_self - this process's v2 cgroup id (/proc/self/cgroup "0::PATH"); 0 if none */
uint64_t cgroups_self(struct js_cgroups *t);

/* cgroups_count - ids known (found or not) */
size_t cgroups_count(const struct js_cgroups *t);

/* cgroups_at - the i-th known entry (i < cgroups_count()), in no particular order */
const struct js_cgroup *cgroups_at(const struct js_cgroups *t, size_t i);

#endif /* JS_CGROUP_H */
