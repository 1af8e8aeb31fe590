// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * mirror.c - memory mapped twice, back to back (js_mirror.h): one anonymous memory file,
 * mapped shared at base and again at base + bytes inside one reservation.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "js_mirror.h"

size_t mirror_round(size_t n, size_t elem)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), unit = page;

	/* the fewest elements that fill whole pages: the page over elem's power of two */
	while (elem && !(elem & 1) && unit > 1) {
		elem >>= 1;
		unit >>= 1;
	}
	if (!n)
		n = 1;
	return (n + unit - 1) / unit * unit;
}

void *mirror_map(size_t bytes)
{
	int fd = memfd_create("jitterscope-window", MFD_CLOEXEC);
	char *base = MAP_FAILED;
	int err = 0;

	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)bytes))
		goto out;
	/* the reservation holds both addresses, so no other mapping comes between them */
	base = mmap(NULL, 2 * bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		goto out;
	if (mmap(base, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED ||
	    mmap(base + bytes, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED) {
		err = errno;
		munmap(base, 2 * bytes);
		base = MAP_FAILED;
		errno = err;
	}
out:
	err = errno;
	close(fd); /* the mappings keep the memory */
	errno = err;
	return base == MAP_FAILED ? NULL : base;
}

void mirror_unmap(void *p, size_t bytes)
{
	if (p)
		munmap(p, 2 * bytes);
}
