// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cgroup.c - cgroup v2 ids to paths and short names (js_cgroup.h): a bounded table filled
 * by walking the v2 hierarchy. A directory's id is its kernfs node id, which
 * name_to_handle_at() returns as the file handle (and stat() as st_ino on 64-bit kernels,
 * the fallback).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "js_cgroup.h"
#include "js_util.h"

#define FILEID_KERNFS 0xfe	     /* include/linux/exportfs.h: the handle is the id */
#define WALK_PERIOD_NS 1000000000ull /* a miss walks again at most this often */
#define WALK_DEPTH 32
#define WALK_DIRS_MAX 65536 /* directories visited per walk */
#define HASH_SLOTS (2 * JS_CGROUPS_MAX)

struct js_cgroups {
	char *mount; /* the cgroup2 mount, NULL: none */
	struct js_cgroup e[JS_CGROUPS_MAX];
	size_t n, next;		   /* entries used; next to replace once full */
	uint32_t hash[HASH_SLOTS]; /* entry index + 1, open addressing; 0 = empty */
	uint64_t last_walk;	   /* CLOCK_MONOTONIC of the last walk, 0 = none */
	bool can_walk;
};

static size_t slot_of(uint64_t id)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 40) % HASH_SLOTS;
}

/* find - the hash slot of id, or of the empty slot where it would go */
static size_t find(const struct js_cgroups *t, uint64_t id)
{
	size_t h = slot_of(id);

	while (t->hash[h] && t->e[t->hash[h] - 1].id != id)
		h = (h + 1) % HASH_SLOTS;
	return h;
}

/* rehash - rebuild the index (after an entry was replaced: open addressing has no delete) */
static void rehash(struct js_cgroups *t)
{
	memset(t->hash, 0, sizeof(t->hash));
	for (size_t i = 0; i < t->n; i++)
		t->hash[find(t, t->e[i].id)] = (uint32_t)i + 1;
}

/* put - the entry of id, created (or a full table's next victim reused) */
static struct js_cgroup *put(struct js_cgroups *t, uint64_t id)
{
	size_t h = find(t, id);
	struct js_cgroup *e;

	if (t->hash[h])
		return &t->e[t->hash[h] - 1];
	if (t->n < JS_CGROUPS_MAX) {
		e = &t->e[t->n++];
		t->hash[h] = (uint32_t)t->n;
		e->id = id;
		return e;
	}
	e = &t->e[t->next];
	t->next = (t->next + 1) % JS_CGROUPS_MAX;
	free(e->path);
	memset(e, 0, sizeof(*e));
	e->id = id;
	rehash(t);
	return e;
}

/* cgroups_add - record id at path */
int cgroups_add(struct js_cgroups *t, uint64_t id, const char *path)
{
	struct js_cgroup *e;
	char *p;

	if (!t || !id)
		return -EINVAL;
	p = path ? strdup(path) : NULL;
	if (path && !p)
		return -ENOMEM;
	e = put(t, id);
	free(e->path);
	e->path = p;
	e->name[0] = '\0';
	if (p)
		cgroup_short(p, e->name, sizeof(e->name));
	return 0;
}

const struct js_cgroup *cgroups_get(const struct js_cgroups *t, uint64_t id)
{
	size_t h;

	if (!t || !id)
		return NULL;
	h = find(t, id);
	return t->hash[h] ? &t->e[t->hash[h] - 1] : NULL;
}

const char *cgroups_name(const struct js_cgroups *t, uint64_t id)
{
	const struct js_cgroup *e = cgroups_get(t, id);

	return e && e->path ? e->name : NULL;
}

const char *cgroups_path(const struct js_cgroups *t, uint64_t id)
{
	const struct js_cgroup *e = cgroups_get(t, id);

	return e ? e->path : NULL;
}

size_t cgroups_count(const struct js_cgroups *t)
{
	return t ? t->n : 0;
}

const struct js_cgroup *cgroups_at(const struct js_cgroups *t, size_t i)
{
	return t && i < t->n ? &t->e[i] : NULL;
}

const char *cgroups_mount(const struct js_cgroups *t)
{
	return t ? t->mount : NULL;
}

/* dir_id - the cgroup id of directory name under dirfd; 0 if it has none */
static uint64_t dir_id(int dirfd, const char *name)
{
	struct {
		struct file_handle fh;
		unsigned char id[8];
	} h;
	struct stat st;
	uint64_t id;
	int mnt;

	h.fh.handle_bytes = sizeof(h.id);
	if (!name_to_handle_at(dirfd, name, &h.fh, &mnt, 0) && h.fh.handle_type == FILEID_KERNFS &&
	    h.fh.handle_bytes == sizeof(id)) {
		memcpy(&id, h.fh.f_handle, sizeof(id));
		return id;
	}
	return fstatat(dirfd, name, &st, 0) ? 0 : (uint64_t)st.st_ino;
}

struct walk {
	struct js_cgroups *t;
	uint64_t want; /* stop once found (0: walk everything) */
	bool found;    /* want found, or (want 0) the table is full */
	size_t dirs;
	char path[4096]; /* under the mount, "" for the root */
};

/* visit - record the directory at w->path (fd open on it), then its children */
static void visit(struct walk *w, int fd, int depth)
{
	size_t len = strlen(w->path);
	struct dirent *d;
	DIR *dir;
	uint64_t id = dir_id(fd, ".");

	if (id && (!w->want || id == w->want) && !cgroups_get(w->t, id))
		cgroups_add(w->t, id, len ? w->path : "/");
	if (!w->want && w->t->n >= JS_CGROUPS_MAX)
		w->found = true; /* a first walk fills the table, never churns it */
	if (id && id == w->want) {
		w->found = true;
		close(fd);
		return;
	}
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while (!w->found && depth < WALK_DEPTH && w->dirs < WALK_DIRS_MAX && (d = readdir(dir))) {
		int cfd;

		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		if (len + 1 + strlen(d->d_name) >= sizeof(w->path))
			continue;
		cfd = openat(dirfd(dir), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cfd < 0)
			continue;
		w->dirs++;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", d->d_name);
		visit(w, cfd, depth + 1);
		w->path[len] = '\0';
	}
	closedir(dir);
}

/* walk - the hierarchy, for want (0: every cgroup, while the table has room) */
static bool walk(struct js_cgroups *t, uint64_t want)
{
	struct walk *w;
	bool found;
	int fd;

	if (!t->mount)
		return false;
	w = calloc(1, sizeof(*w));
	if (!w)
		return false;
	t->last_walk = js_mono_ns();
	w->t = t;
	w->want = want;
	fd = open(t->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		visit(w, fd, 0);
	found = w->found;
	free(w);
	return found;
}

/* v2_mount - the first cgroup2 mount point of /proc/self/mountinfo, or NULL */
static char *v2_mount(void)
{
	char line[4096], mnt[4096], *dash, *res = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return NULL;
	while (!res && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || strncmp(dash + 3, "cgroup2 ", 8))
			continue;
		/* id parent major:minor root mount-point ... (octal escapes: \040 = space) */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && !strchr(mnt, '\\'))
			res = strdup(mnt);
	}
	fclose(f);
	return res;
}

struct js_cgroups *cgroups_new(void)
{
	return calloc(1, sizeof(struct js_cgroups));
}

struct js_cgroups *cgroups_open(const char *mount)
{
	struct js_cgroups *t = cgroups_new();

	if (!t)
		return NULL;
	t->mount = mount ? strdup(mount) : v2_mount();
	t->can_walk = t->mount != NULL;
	if (t->can_walk)
		walk(t, 0);
	return t;
}

void cgroups_free(struct js_cgroups *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->e[i].path);
	free(t->mount);
	free(t);
}

const struct js_cgroup *cgroups_resolve(struct js_cgroups *t, uint64_t id)
{
	const struct js_cgroup *e = cgroups_get(t, id);

	if (e || !t || !id || !t->can_walk)
		return e;
	if (t->last_walk && js_mono_ns() - t->last_walk < WALK_PERIOD_NS)
		return NULL;
	if (!walk(t, id))
		cgroups_add(t, id, NULL); /* gone, or never there: not walked for again */
	return cgroups_get(t, id);
}

const char *cgroups_resolve_name(void *t, uint64_t id)
{
	const struct js_cgroup *e = cgroups_resolve(t, id);

	return e && e->path ? e->name : NULL;
}

uint64_t cgroups_id_of(const struct js_cgroups *t, const char *path)
{
	char full[4096];

	if (!t || !t->mount || !path)
		return 0;
	snprintf(full, sizeof(full), "%s/%s", t->mount, path + strspn(path, "/"));
	return dir_id(AT_FDCWD, full);
}

uint64_t cgroups_self(struct js_cgroups *t)
{
	char line[4096];
	uint64_t id = 0;
	FILE *f;

	if (!t || !t->mount)
		return 0;
	f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return 0;
	while (!id && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		id = cgroups_id_of(t, line + 3);
		if (id && !cgroups_get(t, id))
			cgroups_add(t, id, line + 3);
	}
	fclose(f);
	return id;
}
