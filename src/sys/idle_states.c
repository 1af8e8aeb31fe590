// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* idle_states.c - --deepest-idle-state: cpuidle states disabled on the measured CPUs and
 * given back, with a state file for a run killed before it could (js_idle_states.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "js_idle_states.h"
#include "js_sysfs.h"
#include "js_util.h"

#define STATE_FILE_HEAD "jitterscope idle-states 1"
#define STATE_FILE_PREFIX "idle-states."

void idle_states_free(struct idle_states *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* reset - s emptied for a new list, its buffer kept */
static void reset(struct idle_states *s, int deepest)
{
	s->n = 0;
	s->deepest = deepest;
	s->restored = false;
	s->pid = 0;
	s->start = 0;
}

int idle_states_add(struct idle_states *s, int cpu, int state, int orig, const char *name)
{
	struct idle_state *v;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;

		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	v = &s->v[s->n++];
	v->cpu = cpu;
	v->state = state;
	v->orig = orig;
	snprintf(v->name, sizeof(v->name), "%s", name ? name : "");
	return 0;
}

/* state_index - K of a "stateK" directory name; -1 for anything else */
static int state_index(const char *name)
{
	char *end;
	long k;

	if (strncmp(name, "state", 5) || name[5] < '0' || name[5] > '9')
		return -1;
	k = strtol(name + 5, &end, 10);
	return *end || k > 1000 ? -1 : (int)k;
}

static void state_path(char *buf, size_t len, int cpu, int k, const char *file)
{
	snprintf(buf, len, "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s", cpu, k, file);
}

int idle_plan(const int *cpus, size_t n, int deepest, struct idle_states *s)
{
	char path[SYSFS_PATH_MAX], name[JS_IDLE_NAME_LEN];
	bool any = false;
	int err = 0;

	reset(s, deepest);
	for (size_t i = 0; i < n && !err; i++) {
		struct sysfs_dir d;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle", cpus[i]);
		if (sysfs_list_dir(path, &d))
			continue; /* no cpuidle on this CPU */
		for (size_t j = 0; j < d.n && !err; j++) {
			int k = state_index(d.names[j]), orig;

			if (k < 0)
				continue;
			any = true;
			if (k <= deepest)
				continue;
			state_path(path, sizeof(path), cpus[i], k, "disable");
			err = sysfs_read_int(path, &orig);
			if (err || orig)
				continue;
			state_path(path, sizeof(path), cpus[i], k, "name");
			if (sysfs_read_str(path, name, sizeof(name)))
				snprintf(name, sizeof(name), "state%d", k);
			err = idle_states_add(s, cpus[i], k, orig, name);
		}
		sysfs_dir_free(&d);
	}
	if (err)
		return err;
	return any ? 0 : -ENOENT;
}

/* write_state - value into state i's disable file */
static int write_state(const struct idle_state *st, int value)
{
	char path[SYSFS_PATH_MAX], v[16];

	state_path(path, sizeof(path), st->cpu, st->state, "disable");
	snprintf(v, sizeof(v), "%d\n", value);
	return sysfs_write_str(path, v);
}

int idle_file_format(const struct idle_states *s, int pid, uint64_t start, char *buf, size_t len)
{
	size_t off;
	int n;

	n = snprintf(buf, len, "%s\npid %d start %" PRIu64 "\ndeepest %d\n", STATE_FILE_HEAD, pid,
		     start, s->deepest);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	off = (size_t)n;
	for (size_t i = 0; i < s->n; i++) {
		n = snprintf(buf + off, len - off, "%d %d %d\n", s->v[i].cpu, s->v[i].state,
			     s->v[i].orig);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	return (int)off;
}

int idle_file_parse(const char *text, struct idle_states *s)
{
	const char *p = text, *nl;
	int line = 0, err = 0;

	reset(s, 0);
	for (; *p && !err; p = *nl ? nl + 1 : nl, line++) {
		char buf[128], extra;
		int cpu, k, orig;

		nl = strchr(p, '\n');
		if (!nl)
			return -EINVAL; /* a file cut short while it was written */
		if ((size_t)(nl - p) >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, p, (size_t)(nl - p));
		buf[nl - p] = '\0';
		if (line == 0)
			err = strcmp(buf, STATE_FILE_HEAD) ? -EINVAL : 0;
		else if (line == 1)
			err = sscanf(buf, "pid %d start %" SCNu64 " %c", &s->pid, &s->start,
				     &extra) == 2 &&
					      s->pid > 0 ?
				      0 :
				      -EINVAL;
		else if (line == 2)
			err = sscanf(buf, "deepest %d %c", &s->deepest, &extra) == 1 ? 0 : -EINVAL;
		else if (sscanf(buf, "%d %d %d %c", &cpu, &k, &orig, &extra) != 3 || cpu < 0 ||
			 k < 0 || orig < 0)
			err = -EINVAL;
		else
			err = idle_states_add(s, cpu, k, orig, NULL);
	}
	if (!err && line < 3)
		err = -EINVAL;
	return err;
}

/* proc_start - /proc/PID/stat's start time (field 22); -ENOENT when the process is gone */
static int proc_start(int pid, uint64_t *start)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	n = sysfs_read_buf(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	if (!p)
		return -EINVAL;
	for (int field = 2; field < 22; field++) { /* p: the space before field + 1 */
		p = strchr(p + 1, ' ');
		if (!p)
			return -EINVAL;
	}
	return sscanf(p, " %" SCNu64, start) == 1 ? 0 : -EINVAL;
}

/* file_path - dir/idle-states.PID */
static void file_path(char *buf, size_t len, const char *dir, int pid)
{
	snprintf(buf, len, "%s/" STATE_FILE_PREFIX "%d", dir, pid);
}

/* make_dir - dir (a live path) and its parents under the root, as mkdir -p; 0 or -errno */
static int make_dir(const char *dir)
{
	char full[SYSFS_PATH_MAX];
	size_t from = strlen(sysfs_root()) + 1;
	int err = sysfs_path(full, sizeof(full), dir);

	for (size_t i = from; !err && full[i - 1]; i++) {
		char c = full[i];

		if (c != '/' && c)
			continue;
		full[i] = '\0';
		if (mkdir(full, 0755) && errno != EEXIST)
			err = -errno;
		full[i] = c;
	}
	return err;
}

/* save - s as this process's state file, written whole (a temporary renamed into place) */
static int save(const struct idle_states *s, const char *dir)
{
	char rel[SYSFS_PATH_MAX], full[SYSFS_PATH_MAX], tmp[SYSFS_PATH_MAX + 8];
	size_t len = 128 + s->n * 40;
	char *text = malloc(len);
	uint64_t start = 0;
	int n, fd, err = 0;

	if (!text)
		return -ENOMEM;
	proc_start(getpid(), &start);
	n = idle_file_format(s, getpid(), start, text, len);
	if (n < 0) {
		free(text);
		return n;
	}
	err = make_dir(dir);
	file_path(rel, sizeof(rel), dir, getpid());
	if (!err)
		err = sysfs_path(full, sizeof(full), rel);
	snprintf(tmp, sizeof(tmp), "%s.tmp", full);
	fd = err ? -1 : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!err && fd < 0)
		err = -errno;
	if (!err && write(fd, text, (size_t)n) != n)
		err = errno ? -errno : -EIO;
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, full))
		err = -errno;
	if (err && fd >= 0)
		unlink(tmp);
	free(text);
	return err;
}

/* drop - remove the state file of pid */
static void drop(const char *dir, int pid)
{
	char rel[SYSFS_PATH_MAX], full[SYSFS_PATH_MAX];

	file_path(rel, sizeof(rel), dir, pid);
	if (!sysfs_path(full, sizeof(full), rel))
		unlink(full);
}

int idle_disable(struct idle_states *s, const char *dir)
{
	int err;

	s->restored = false;
	if (!s->n)
		return 0;
	err = save(s, dir);
	for (size_t i = 0; i < s->n && !err; i++) {
		err = write_state(&s->v[i], 1);
		if (err) {
			for (size_t j = 0; j < i; j++)
				write_state(&s->v[j], s->v[j].orig);
			drop(dir, getpid());
		}
	}
	return err;
}

/* give_back - each state's original value written; the first -errno */
static int give_back(const struct idle_states *s)
{
	int err = 0;

	for (size_t i = 0; i < s->n; i++) {
		int e = write_state(&s->v[i], s->v[i].orig);

		if (e && !err)
			err = e;
	}
	return err;
}

int idle_restore(struct idle_states *s, const char *dir)
{
	int err;

	if (!s->n || s->restored)
		return 0;
	err = give_back(s);
	if (err)
		return err;
	drop(dir, getpid());
	s->restored = true;
	return 0;
}

/* file_pid - PID of a name "idle-states.PID"; 0 for anything else */
static int file_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, STATE_FILE_PREFIX, strlen(STATE_FILE_PREFIX)))
		return 0;
	name += strlen(STATE_FILE_PREFIX);
	pid = strtol(name, &end, 10);
	return *end || pid <= 0 || pid > INT32_MAX ? 0 : (int)pid;
}

/* recover_one - file of pid undone when its run is gone: 1, 0 (alive), -errno */
static int recover_one(const char *dir, int pid, struct idle_states *done)
{
	char rel[SYSFS_PATH_MAX], *text;
	struct idle_states s = { 0 };
	uint64_t start;
	size_t len;
	int err;

	if (pid == getpid())
		return 0;
	file_path(rel, sizeof(rel), dir, pid);
	err = sysfs_read_file(rel, &text, &len);
	if (err)
		return err == -ENOENT ? 0 : err; /* its run removed it meanwhile */
	err = idle_file_parse(text, &s);
	free(text);
	if (err || s.pid != pid) { /* not ours to read: dropped, nothing written */
		drop(dir, pid);
		idle_states_free(&s);
		return 0;
	}
	if (!proc_start(pid, &start) && start == s.start) {
		idle_states_free(&s);
		return 0; /* that run still measures */
	}
	err = give_back(&s);
	for (size_t i = 0; i < s.n && !err; i++)
		err = idle_states_add(done, s.v[i].cpu, s.v[i].state, s.v[i].orig, NULL);
	if (!err) {
		done->pid = s.pid;
		done->start = s.start;
		drop(dir, pid);
	}
	idle_states_free(&s);
	return err ? err : 1;
}

int idle_recover(const char *dir, struct idle_states *done)
{
	struct sysfs_dir d;
	int err = 0, undone = 0;

	reset(done, 0);
	if (sysfs_list_dir(dir, &d))
		return 0; /* no directory: no run ever disabled a state */
	for (size_t i = 0; i < d.n && !err; i++) {
		int pid = file_pid(d.names[i]), r;

		if (!pid)
			continue;
		r = recover_one(dir, pid, done);
		if (r < 0)
			err = r;
		else
			undone += r;
	}
	sysfs_dir_free(&d);
	return err ? err : undone;
}

/* put - printf at buf + *off, *off advanced (clamped at len) */
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	*off = n < 0 ? len : JS_MIN(*off + (size_t)n, len);
}

const char *idle_states_str(const struct idle_states *s, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		const struct idle_state *v = &s->v[i];

		if (!i || s->v[i - 1].cpu != v->cpu)
			put(buf, len, &off, "%sCPU %d: ", i ? "; " : "", v->cpu);
		else
			put(buf, len, &off, ", ");
		put(buf, len, &off, "state%d", v->state);
		if (v->name[0])
			put(buf, len, &off, " (%s)", v->name);
	}
	return buf;
}
