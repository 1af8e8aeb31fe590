/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * scratch_tree.h - a scratch sysroot for unit tests: a temporary directory, scratch_dir,
 * whose files stand in for live paths (put "/sys/..." to make scratch_dir/sys/...), made by
 * the group setup scratch_setup and removed by scratch_teardown. Include after <cmocka.h>.
 */
#ifndef SCRATCH_TREE_H
#define SCRATCH_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "js_sysfs.h"

static char scratch_dir[] = "/tmp/js-scratch.XXXXXX";

/* scratch_setup - a cmocka group setup: the tree made */
static inline int scratch_setup(void **state)
{
	(void)state;
	return mkdtemp(scratch_dir) ? 0 : -1;
}

/* scratch_teardown - a cmocka group teardown: back to the live root, the tree removed */
static inline int scratch_teardown(void **state)
{
	char cmd[64];

	(void)state;
	sysfs_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* scratch_put - rel (a live path) in the tree with len bytes of data, directories made */
static inline void scratch_put(const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", scratch_dir, rel);
	for (char *sl = strchr(path + strlen(scratch_dir) + 1, '/'); sl;
	     sl = strchr(sl + 1, '/')) {
		*sl = '\0';
		mkdir(path, 0755);
		*sl = '/';
	}
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

#endif /* SCRATCH_TREE_H */
