// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* sysfs.c - all /proc and /sys reads, optionally under a captured sysroot (see js_sysfs.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "js_sysfs.h"

static char root[SYSFS_PATH_MAX];

/* sysfs_set_root - read everything under dir (NULL, "" or "/" = live) */
int sysfs_set_root(const char *dir)
{
	struct stat st;
	size_t n;

	if (!dir || !dir[0] || !strcmp(dir, "/")) {
		root[0] = '\0';
		return 0;
	}
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= sizeof(root) - 64)
		return -ENAMETOOLONG;
	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	memcpy(root, dir, n);
	root[n] = '\0';
	return 0;
}

/* sysfs_root - the current root, "" when live */
const char *sysfs_root(void)
{
	return root;
}

/* sysfs_is_live - true when no sysroot is set */
bool sysfs_is_live(void)
{
	return !root[0];
}

/* sysfs_path - root + path into buf; -ENAMETOOLONG if it does not fit */
int sysfs_path(char *buf, size_t len, const char *path)
{
	int n;

	if (!path || path[0] != '/')
		return -EINVAL;
	n = snprintf(buf, len, "%s%s", root, path);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* sysfs_open - open(root + path, flags | O_CLOEXEC); fd or -errno */
int sysfs_open(const char *path, int flags)
{
	char full[SYSFS_PATH_MAX];
	int ret, fd;

	ret = sysfs_path(full, sizeof(full), path);
	if (ret)
		return ret;
	fd = open(full, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* sysfs_exists - the path exists (file, directory or link) */
bool sysfs_exists(const char *path)
{
	char full[SYSFS_PATH_MAX];
	struct stat st;

	if (sysfs_path(full, sizeof(full), path))
		return false;
	return lstat(full, &st) == 0;
}

int sysfs_tracepoint(const char *spec)
{
	static const char *const roots[] = { "/sys/kernel/tracing/events",
					     "/sys/kernel/debug/tracing/events" };
	const char *colon = strchr(spec, ':');
	char path[SYSFS_PATH_MAX];

	if (!colon)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		if (!sysfs_exists(roots[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%.*s/%s", roots[i], (int)(colon - spec), spec,
			 colon + 1);
		return sysfs_exists(path) ? 0 : -ENOENT;
	}
	return -ENODEV;
}

/* read_full - read fd into buf until EOF or len bytes (EINTR retried); count or -errno */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t total = 0;

	while (total < len) {
		ssize_t n = read(fd, buf + total, len - total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		total += n;
	}
	return total;
}

/* sysfs_read_buf - up to len - 1 bytes of path into buf, NUL-terminated; count or -errno */
ssize_t sysfs_read_buf(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	fd = sysfs_open(path, O_RDONLY);
	if (fd < 0)
		return fd;
	n = read_full(fd, buf, len - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* sysfs_write_str - str into the existing file path (a sysfs setting); 0 or -errno */
int sysfs_write_str(const char *path, const char *str)
{
	size_t len = strlen(str);
	ssize_t n;
	int fd, err = 0;

	fd = sysfs_open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	do
		n = write(fd, str, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* read_fd_all - read fd to EOF into a growing malloc'd buffer */
static int read_fd_all(int fd, char **data, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap), *nb;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - used < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read_full(fd, buf + used, cap - used - 1);
		if (n < 0) {
			free(buf);
			return (int)n;
		}
		used += n;
		if (used < cap - 1)
			break; /* read_full stops short only at EOF */
	}
	buf[used] = '\0';
	*data = buf;
	if (len)
		*len = used;
	return 0;
}

/* sysfs_read_file - whole file into a malloc'd NUL-terminated buffer (*len without the NUL) */
int sysfs_read_file(const char *path, char **data, size_t *len)
{
	int fd = sysfs_open(path, O_RDONLY), ret;

	*data = NULL;
	if (fd < 0)
		return fd;
	ret = read_fd_all(fd, data, len);
	close(fd);
	return ret;
}

/* sysfs_cgroup2_mount - the first cgroup2 mount point of /proc/self/mounts */
int sysfs_cgroup2_mount(char *buf, size_t len)
{
	char *data, *line, *save = NULL, mnt[SYSFS_PATH_MAX], type[32];
	int ret = sysfs_read_file("/proc/self/mounts", &data, NULL);

	if (ret)
		return ret;
	ret = -ENOENT;
	/* "device mount-point type options 0 0", octal escapes in the fields (\040: space) */
	for (line = strtok_r(data, "\n", &save); line && ret == -ENOENT;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%*s %511s %31s", mnt, type) != 2 || strcmp(type, "cgroup2") ||
		    strchr(mnt, '\\'))
			continue;
		ret = strlen(mnt) < len ? 0 : -ENAMETOOLONG;
		if (!ret)
			memcpy(buf, mnt, strlen(mnt) + 1);
	}
	free(data);
	return ret;
}

/* sysfs_read_gz - whole gzip file (/proc/config.gz) uncompressed; plain files read as is */
int sysfs_read_gz(const char *path, char **data, size_t *len)
{
	size_t cap = 65536, used = 0;
	char *buf, *nb;
	int fd, n, ret = 0;
	gzFile gz;

	*data = NULL;
	fd = sysfs_open(path, O_RDONLY);
	if (fd < 0)
		return fd;
	gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return -ENOMEM;
	}
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (cap - used < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = gzread(gz, buf + used, (unsigned)(cap - used - 1));
		if (n < 0) {
			ret = -EINVAL; /* not gzip, or corrupt */
			goto out;
		}
		if (n == 0)
			break;
		used += n;
	}
	buf[used] = '\0';
	*data = buf;
	buf = NULL;
	if (len)
		*len = used;
out:
	free(buf);
	gzclose(gz);
	return ret;
}

/* sysfs_read_str - first line of path, without the newline, into buf (truncated to fit) */
int sysfs_read_str(const char *path, char *buf, size_t len)
{
	char tmp[4096];
	ssize_t n = sysfs_read_buf(path, tmp, sizeof(tmp));
	size_t k;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (n < 0)
		return (int)n;
	k = strcspn(tmp, "\n");
	while (k > 0 && isspace((unsigned char)tmp[k - 1]))
		k--;
	if (k >= len)
		k = len - 1;
	memcpy(buf, tmp, k);
	buf[k] = '\0';
	return 0;
}

/*
 * read_dec - a whole-file decimal number, whitespace around allowed: into *s when
 * is_signed (a leading '-' allowed), else into *u
 */
static int read_dec(const char *path, bool is_signed, int64_t *s, uint64_t *u)
{
	char buf[128], *end;
	ssize_t n = sysfs_read_buf(path, buf, sizeof(buf));
	const char *p = buf;
	unsigned long long ux = 0;
	long long sx = 0;

	if (n < 0)
		return (int)n;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return -ENODATA;
	if (!isdigit((unsigned char)*p) && !(is_signed && *p == '-'))
		return -EINVAL;
	errno = 0;
	if (is_signed)
		sx = strtoll(p, &end, 10);
	else
		ux = strtoull(p, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == p)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	if (is_signed)
		*s = sx;
	else
		*u = ux;
	return 0;
}

/* sysfs_read_u64 - a decimal unsigned number (surrounding whitespace allowed) */
int sysfs_read_u64(const char *path, uint64_t *v)
{
	return read_dec(path, false, NULL, v);
}

/* sysfs_read_s64 - a decimal signed number (sched_rt_runtime_us can be -1) */
int sysfs_read_s64(const char *path, int64_t *v)
{
	return read_dec(path, true, v, NULL);
}

/* sysfs_read_int - a decimal int; -ERANGE if it does not fit */
int sysfs_read_int(const char *path, int *v)
{
	int64_t x;
	int ret = sysfs_read_s64(path, &x);

	if (ret)
		return ret;
	if (x < -2147483647LL - 1 || x > 2147483647LL)
		return -ERANGE;
	*v = (int)x;
	return 0;
}

/* sysfs_read_cpulist - a cpulist file; empty or "(null)" is the empty set */
int sysfs_read_cpulist(const char *path, struct js_cpuset *s)
{
	char buf[8192];
	ssize_t n = sysfs_read_buf(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (!strncmp(buf, "(null)", 6) && !buf[6 + strspn(buf + 6, " \n")]) {
		cpuset_zero(s);
		return 0;
	}
	return cpulist_parse_n(buf, s, -1, true, NULL, 0);
}

/* sysfs_read_cpumask - a hex cpumask file */
int sysfs_read_cpumask(const char *path, struct js_cpuset *s)
{
	char buf[8192];
	ssize_t n = sysfs_read_buf(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return cpumask_parse(buf, s, NULL, 0);
}

/* sysfs_parse_choice - the bracketed word of a choice string; -EINVAL if none */
int sysfs_parse_choice(const char *text, char *buf, size_t len)
{
	const char *b = strchr(text, '['), *e;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (!b)
		return -EINVAL;
	e = strchr(b + 1, ']');
	if (!e || e == b + 1 || memchr(b + 1, '[', e - b - 1))
		return -EINVAL;
	if ((size_t)(e - b - 1) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, b + 1, e - b - 1);
	buf[e - b - 1] = '\0';
	return 0;
}

/* sysfs_read_choice - the bracketed word of a choice file ("always [madvise] never") */
int sysfs_read_choice(const char *path, char *buf, size_t len)
{
	char tmp[1024];
	ssize_t n = sysfs_read_buf(path, tmp, sizeof(tmp));

	if (len)
		buf[0] = '\0';
	if (n < 0)
		return (int)n;
	return sysfs_parse_choice(tmp, buf, len);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int name_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	bool dx = all_digits(x), dy = all_digits(y);

	if (dx != dy)
		return dx ? -1 : 1; /* numbers first */
	if (dx) {
		size_t lx = strlen(x), ly = strlen(y);

		if (lx != ly)
			return lx < ly ? -1 : 1;
	}
	return strcmp(x, y);
}

/* dir_add - append a copy of name to d */
static int dir_add(struct sysfs_dir *d, size_t *cap, const char *name)
{
	char **nn;

	if (d->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		nn = realloc(d->names, *cap * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		d->names = nn;
	}
	d->names[d->n] = strdup(name);
	if (!d->names[d->n])
		return -ENOMEM;
	d->n++;
	return 0;
}

/* sysfs_list_dir - entries of a directory except "." and ".."; -errno */
int sysfs_list_dir(const char *path, struct sysfs_dir *d)
{
	char full[SYSFS_PATH_MAX];
	struct dirent *de;
	size_t cap = 0;
	int ret;
	DIR *dir;

	d->n = 0;
	d->names = NULL;
	ret = sysfs_path(full, sizeof(full), path);
	if (ret)
		return ret;
	dir = opendir(full);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = dir_add(d, &cap, de->d_name);
		if (ret)
			goto out;
	}
	qsort(d->names, d->n, sizeof(*d->names), name_cmp);
out:
	closedir(dir);
	if (ret)
		sysfs_dir_free(d);
	return ret;
}

/* sysfs_dir_free - free a listing (accepts a zeroed one) */
void sysfs_dir_free(struct sysfs_dir *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	d->names = NULL;
	d->n = 0;
}
