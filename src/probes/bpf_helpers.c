// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * bpf_helpers.c - the program helpers both loaders share (js_bpf_helpers.h), in the manner
 * of libbpf-tools' trace_helpers.c.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "js_bpf_helpers.h"
#include "js_util.h"

const char *bpfh_prog_tp(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);
	const char *slash = strchr(sec, '/');

	return slash ? slash + 1 : sec;
}

bool bpfh_has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

static const char *const pair_suffix[][2] = {
	{ "_entry", "_exit" }, { "_exit", "_entry" }, { "_start", "_end" },
	{ "_begin", "_end" },  { "_end", "_start" },  { "_end", "_begin" },
};

const char *bpfh_partner_suffix(size_t i)
{
	return i < ARRAY_SIZE(pair_suffix) ? pair_suffix[i][0] : NULL;
}

bool bpfh_partner(const char *tp, size_t i, char *buf, size_t len)
{
	size_t n;

	for (; i < ARRAY_SIZE(pair_suffix); i++) {
		if (!bpfh_has_suffix(tp, pair_suffix[i][0]))
			continue;
		n = strlen(tp) - strlen(pair_suffix[i][0]);
		snprintf(buf, len, "%.*s%s", (int)n, tp, pair_suffix[i][1]);
		return true;
	}
	return false;
}

bool bpfh_is_exit(const char *tp)
{
	return bpfh_has_suffix(tp, "_exit") || bpfh_has_suffix(tp, "_end");
}

int bpfh_prog_run(const struct bpf_program *prog, uint32_t *id, uint64_t *run_cnt,
		  uint64_t *run_time_ns, uint64_t *recursion_misses)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(prog);

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	*id = info.id;
	*run_cnt = info.run_cnt;
	*run_time_ns = info.run_time_ns;
	*recursion_misses = info.recursion_misses;
	return 0;
}
