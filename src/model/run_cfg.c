// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * run_cfg.c - the names of what a run records (js_run_cfg.h): the sampler's scheduling
 * policy and priority (-P), the test hook. The reports, the JSON writer and its loader use
 * them without reaching the live code that measured the run.
 */
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_run_cfg.h"
#include "js_util.h"

static const char *const hook_names[] = {
	[SAMPLER_HOOK_FAULT] = "fault",
	[SAMPLER_HOOK_THP] = "thp",
	[SAMPLER_HOOK_STALL] = "stall",
};

static const char *const probe_sets[] = { "full", "lean" };

/* probe_set_name - "full" or "lean" (--probes) */
const char *probe_set_name(bool lean)
{
	return probe_sets[lean];
}

/* probe_set_from_name - 1 for "lean", 0 for "full", -1 for anything else */
int probe_set_from_name(const char *name)
{
	return js_name_index(probe_sets, ARRAY_SIZE(probe_sets), name);
}

/* tp_spec_ok - one "SUBSYS:NAME" of n characters: two non-empty words of [A-Za-z0-9_] */
static bool tp_spec_ok(const char *s, size_t n)
{
	size_t colon = 0, i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == ':' && !colon && i)
			colon = i;
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return colon && colon + 1 < n;
}

int user_event_parse(const char *arg, struct js_user_event *ev, char *why, size_t len)
{
	const char *comma = arg ? strchr(arg, ',') : NULL;
	size_t n1 = comma ? (size_t)(comma - arg) : (arg ? strlen(arg) : 0);
	size_t n2 = comma ? strlen(comma + 1) : 0;

	memset(ev, 0, sizeof(*ev));
	if (!arg || !tp_spec_ok(arg, n1) || (comma && !tp_spec_ok(comma + 1, n2))) {
		snprintf(why, len, "SUBSYS:NAME, or SUBSYS:NAME,SUBSYS:NAME for a pair");
		return -1;
	}
	if (n1 >= JS_USER_EVENT_LEN || n2 >= JS_USER_EVENT_LEN) {
		snprintf(why, len, "a tracepoint of at most %d characters", JS_USER_EVENT_LEN - 1);
		return -1;
	}
	if (comma && n1 == n2 && !strncmp(arg, comma + 1, n1)) {
		snprintf(why, len, "a pair opens and closes at two tracepoints");
		return -1;
	}
	memcpy(ev->open, arg, n1);
	if (comma)
		memcpy(ev->close, comma + 1, n2);
	return 0;
}

const char *user_event_tp(const char *spec)
{
	const char *c = strchr(spec, ':');

	return c ? c + 1 : spec;
}

int user_event_find(const struct js_user_event *ev, size_t n, const char *spec)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ev[i].open, spec))
			return (int)i;
	return -1;
}

/* probe_set_leaves_out - what lean does not see (docs/OBSERVER.md, the probe set) */
const char *probe_set_leaves_out(bool lean)
{
	return lean ? "interruptions seen at their exit only: no hrtimer callback names, nested "
		      "handlers' own times merged, one inside another task counted without time" :
		      NULL;
}

/* sampler_hook_name - "fault", "thp", "stall" (--test-hook) for enum sampler_hook; NULL for none */
const char *sampler_hook_name(enum sampler_hook h)
{
	return (unsigned)h < ARRAY_SIZE(hook_names) ? hook_names[h] : NULL;
}

/* sampler_hook_from_name - the enum sampler_hook named name; -1 if none */
int sampler_hook_from_name(const char *name)
{
	return js_name_index(hook_names, ARRAY_SIZE(hook_names), name);
}

/* the scheduling policies a sampler runs under: -P's letter (rtla's) and the JSON name */
static const struct {
	char letter;
	const char *name;
} policies[] = {
	[SCHED_OTHER] = { 'o', "other" },
	[SCHED_FIFO] = { 'f', "fifo" },
	[SCHED_RR] = { 'r', "rr" },
};

int sampler_parse_priority(const char *str, int *policy, int *priority)
{
	int pol = -1;
	char *end;
	long v = 0;

	if (!str || !str[0] || (str[1] && str[1] != ':'))
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(policies); i++)
		if (str[0] == policies[i].letter)
			pol = (int)i;
	if (pol < 0)
		return -EINVAL;
	*policy = pol;
	if (str[1] == ':') {
		errno = 0;
		v = strtol(str + 2, &end, 10);
		if (errno || end == str + 2 || *end)
			return -EINVAL;
	}
	if (*policy == SCHED_OTHER ? v != 0 : (v < 1 || v > 99))
		return -EINVAL;
	*priority = (int)v;
	return 0;
}

/* sampler_priority_str - "f:95": a policy and priority as -P spells them */
const char *sampler_priority_str(char *buf, size_t len, int policy, int priority)
{
	snprintf(buf, len, "%c:%d",
		 policy >= 0 && (size_t)policy < ARRAY_SIZE(policies) ? policies[policy].letter :
									'?',
		 priority);
	return buf;
}

/* sampler_policy_name - "other", "fifo", "rr" for SCHED_OTHER/FIFO/RR; NULL if another */
const char *sampler_policy_name(int policy)
{
	return policy >= 0 && (size_t)policy < ARRAY_SIZE(policies) ? policies[policy].name : NULL;
}

/* sampler_policy_from_name - SCHED_OTHER/FIFO/RR named name; -1 if none */
int sampler_policy_from_name(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(policies); i++)
		if (!strcmp(name, policies[i].name))
			return (int)i;
	return -1;
}
