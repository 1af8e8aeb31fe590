/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_sysfs.h - the one module through which jitterscope reads /proc, /sys (and the few
 * /etc, /boot, /dev files the audit looks at). Paths are given as on the live system;
 * sysfs_set_root(DIR) reads them under DIR instead (--sysroot, the tests). Errors are
 * -errno: -ENOENT (missing), -EACCES (needs root), -EINVAL (malformed), -ENODATA (empty),
 * -ENAMETOOLONG. Nothing here prints. The one write (sysfs_write_str) is for the few
 * settings a run changes and gives back (js_idle_states.h).
 */
#ifndef JS_SYSFS_H
#define JS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "js_cpulist.h"

#define SYSFS_PATH_MAX 512

/*
 * sysfs_set_root - read everything under dir (NULL, "" or "/" = the live system);
 * -ENOENT / -ENOTDIR when dir is not a directory (the root is then unchanged)
 */
int sysfs_set_root(const char *dir);
/* sysfs_root - the current root, "" when live */
const char *sysfs_root(void);
/* sysfs_is_live - true when no sysroot is set */
bool sysfs_is_live(void);

/* sysfs_path - root + path into buf; -ENAMETOOLONG if it does not fit */
int sysfs_path(char *buf, size_t len, const char *path);
/* sysfs_open - open(root + path, flags | O_CLOEXEC); fd or -errno */
int sysfs_open(const char *path, int flags);
/* sysfs_exists - the path exists (file, directory or link) */
bool sysfs_exists(const char *path);

/*
 * sysfs_read_buf - read up to len - 1 bytes of path into buf, NUL-terminated (binary
 * content is kept; embedded NULs end the string view). Returns the byte count or -errno.
 */
ssize_t sysfs_read_buf(const char *path, char *buf, size_t len);
/* sysfs_write_str - write str to path (an existing file: O_WRONLY | O_TRUNC, no create);
 * 0 or -errno (-EIO for a short write) */
int sysfs_write_str(const char *path, const char *str);
/* sysfs_read_file - whole file into a malloc'd NUL-terminated buffer (*len without the NUL) */
int sysfs_read_file(const char *path, char **data, size_t *len);
/* sysfs_read_gz - whole gzip file (/proc/config.gz) uncompressed; plain files read as is */
int sysfs_read_gz(const char *path, char **data, size_t *len);
/* sysfs_read_str - first line of path, without the newline, into buf (truncated to fit) */
int sysfs_read_str(const char *path, char *buf, size_t len);
/* sysfs_read_u64 - a decimal unsigned number (surrounding whitespace allowed) */
int sysfs_read_u64(const char *path, uint64_t *v);
/* sysfs_read_s64 - a decimal signed number (sched_rt_runtime_us can be -1) */
int sysfs_read_s64(const char *path, int64_t *v);
/* sysfs_read_int - a decimal int; -ERANGE if it does not fit */
int sysfs_read_int(const char *path, int *v);
/* sysfs_read_cpulist - a cpulist file; empty or "(null)" is the empty set */
int sysfs_read_cpulist(const char *path, struct js_cpuset *s);
/* sysfs_read_cpumask - a hex cpumask file */
int sysfs_read_cpumask(const char *path, struct js_cpuset *s);
/*
 * sysfs_read_choice - the bracketed word of a sysfs choice file ("always [madvise] never"
 * -> "madvise"); -EINVAL when no word is bracketed.
 */
int sysfs_read_choice(const char *path, char *buf, size_t len);

/*
 * sysfs_cgroup2_mount - where the first cgroup2 file system is mounted, from /proc/self/mounts
 * (under the root): "/sys/fs/cgroup", or "/sys/fs/cgroup/unified" on a hybrid v1/v2 system;
 * -ENOENT when none is (a mount point with an escaped character counts as none), -errno when
 * the file cannot be read, -ENAMETOOLONG when buf is too small.
 */
int sysfs_cgroup2_mount(char *buf, size_t len);

/*
 * sysfs_tracepoint - does the tracepoint "SUBSYS:NAME" exist: its directory under tracefs's
 * events (/sys/kernel/tracing, else /sys/kernel/debug/tracing). 0; -ENOENT when tracefs is
 * there without it; -ENODEV when no tracefs can be read (not mounted, or not root): unknown
 */
int sysfs_tracepoint(const char *spec);

/* A directory listing: numeric names first in numeric order, then the rest by strcmp. */
struct sysfs_dir {
	size_t n;
	char **names;
};

/* sysfs_list_dir - entries of a directory except "." and ".."; -errno */
int sysfs_list_dir(const char *path, struct sysfs_dir *d);
/* sysfs_dir_free - free a listing (accepts a zeroed one) */
void sysfs_dir_free(struct sysfs_dir *d);

/*
 * sysfs_parse_choice - the bracketed word of a choice string into buf; -EINVAL if none.
 * Exposed for callers that already hold the text.
 */
int sysfs_parse_choice(const char *text, char *buf, size_t len);

#endif /* JS_SYSFS_H */
