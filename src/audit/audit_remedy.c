// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_remedy.c - what is in force already. Every hint and plan item that recommends a
 * setting asks here first, so that the audit never recommends what is set: the running
 * command line's parameters, read as the kernel reads them (isolcpus= flags and CPU lists,
 * '-' = '_', the last key= wins), and the value a sysctl or sysfs file holds now. When the
 * remedy a check would give is in force and the check still deviates, its hint says so
 * and what else explains it (docs/CHECK.md, "never recommends what is set").
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"
#include "js_util.h"

/* the parameters whose value is a CPU list: covered by the running list (a superset gives
 * at least what is asked), or the same list (irqaffinity: more CPUs is not what is asked) */
static const char *const cover_keys[] = { "nohz_full", "rcu_nocbs" };
static const char *const equal_keys[] = { "irqaffinity" };
/* the parameters the kernel takes every occurrence of (tsc=reliable tsc=unstable: both) */
static const char *const every_keys[] = { "tsc", "console" };

/* audit_param_key - the name of "key=value" ('-' as '_', as the kernel compares them) */
void audit_param_key(const char *param, char *key, size_t len)
{
	size_t i = 0;

	for (; param[i] && param[i] != '=' && i + 1 < len; i++)
		key[i] = param[i] == '-' ? '_' : param[i];
	key[i] = '\0';
}

static bool key_in(const char *key, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* last_online - the CPU "N" stands for in a command line list: the last online one */
static int last_online(const struct js_audit *a)
{
	int last = -1;

	for (int c = cpuset_next(&a->f.online, 0); c >= 0; c = cpuset_next(&a->f.online, c + 1))
		last = c;
	return last;
}

/* isolcpus_covers - run (an isolcpus= value) has at least want's flags and CPUs */
static bool isolcpus_covers(const char *run, const char *want, int last)
{
	struct js_cpuset rs, ws;
	int rf, wf;

	if (audit_parse_isolcpus(run, &rs, &rf, last) || audit_parse_isolcpus(want, &ws, &wf, last))
		return false;
	return !(wf & ~rf) && cpuset_subset(&ws, &rs);
}

/* audit_param_in_force - the running command line has param in force (see audit_priv.h) */
bool audit_param_in_force(const struct js_audit *a, const char *param)
{
	const char *want = strchr(param, '=');
	char key[64], run[512];
	struct js_cpuset rs, ws;
	int last = last_online(a);

	audit_param_key(param, key, sizeof(key));
	if (!key[0])
		return false;
	if (!want)
		return audit_cmdline_has(a, key);
	want++;
	if (key_in(key, every_keys, ARRAY_SIZE(every_keys))) {
		char vals[8][64];
		size_t n = audit_cmdline_get_all(a, key, vals, ARRAY_SIZE(vals));

		for (size_t i = 0; i < n; i++)
			if (!strcmp(vals[i], want))
				return true;
		return false;
	}
	if (!audit_cmdline_get(a, key, run, sizeof(run)))
		return false;
	if (!strcmp(key, "isolcpus"))
		return isolcpus_covers(run, want, last);
	if (key_in(key, cover_keys, ARRAY_SIZE(cover_keys)) ||
	    key_in(key, equal_keys, ARRAY_SIZE(equal_keys))) {
		if (cpulist_parse_n(run, &rs, last, false, NULL, 0) ||
		    cpulist_parse_n(want, &ws, last, false, NULL, 0))
			return false;
		return key_in(key, cover_keys, ARRAY_SIZE(cover_keys)) ? cpuset_subset(&ws, &rs) :
									 cpuset_equal(&ws, &rs);
	}
	return !strcmp(run, want);
}

/* audit_next_word - the next space-separated word of *p into w; false at the end */
bool audit_next_word(const char **p, char *w, size_t len)
{
	size_t n;

	*p += strspn(*p, " ");
	n = strcspn(*p, " ");
	if (!n)
		return false;
	snprintf(w, len, "%.*s", (int)n, *p);
	*p += n;
	return true;
}

/* params_where - the words of params in force (or not), into buf; returns buf */
static const char *params_where(const struct js_audit *a, const char *params, bool in_force,
				char *buf, size_t len)
{
	const char *p = params;
	char w[256];
	size_t pos = 0;

	buf[0] = '\0';
	while (audit_next_word(&p, w, sizeof(w)) && pos < len)
		if (audit_param_in_force(a, w) == in_force)
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", pos ? " " : "", w);
	return buf;
}

/* audit_params_unset - the words of params not in force, into buf; returns buf */
const char *audit_params_unset(const struct js_audit *a, const char *params, char *buf, size_t len)
{
	return params_where(a, params, false, buf, len);
}

/* audit_params_set - the words of params in force, into buf; returns buf */
const char *audit_params_set(const struct js_audit *a, const char *params, char *buf, size_t len)
{
	return params_where(a, params, true, buf, len);
}

/* audit_ck_hint_boot - "boot with UNSET<rest>", or "PARAMS is set; <if_set>" once all are */
void audit_ck_hint_boot(struct audit_check *c, const struct js_audit *a, const char *params,
			const char *rest, const char *if_set)
{
	char unset[256];

	if (audit_params_unset(a, params, unset, sizeof(unset))[0]) {
		audit_ck_hint(c, "boot with %s%s", unset, rest ? rest : "");
		return;
	}
	audit_ck_hint(c, "%s %s set; %s", params, strchr(params, ' ') ? "are" : "is",
		      if_set ? if_set : "the kernel does not apply it here (see dmesg)");
}

/* audit_kernel_at_least - facts.release is MAJOR.MINOR or later */
bool audit_kernel_at_least(const struct js_audit *a, int major, int minor)
{
	int ma = -1, mi = -1;

	if (sscanf(a->f.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

/* same_text - a and b equal as words, or as numbers */
static bool same_text(const char *a, const char *b)
{
	char *ea, *eb;
	long long x = strtoll(a, &ea, 0), y = strtoll(b, &eb, 0);

	if (ea != a && eb != b && !*ea && !*eb)
		return x == y;
	return !strcmp(a, b);
}

/* audit_value_in_force - path holds value already (see audit_priv.h) */
bool audit_value_in_force(const char *path, enum audit_vkind kind, const char *value)
{
	struct js_cpuset have, want;
	char buf[256], word[64];

	switch (kind) {
	case AUDIT_V_LIST:
		return !sysfs_read_cpulist(path, &have) &&
		       !cpulist_parse_n(value, &want, -1, true, NULL, 0) &&
		       cpuset_equal(&have, &want);
	case AUDIT_V_MASK:
		return !sysfs_read_cpumask(path, &have) && !cpumask_parse(value, &want, NULL, 0) &&
		       cpuset_equal(&have, &want);
	case AUDIT_V_TEXT:
		break;
	}
	if (sysfs_read_str(path, buf, sizeof(buf)))
		return false;
	if (!strchr(buf, '['))
		return same_text(buf, value);
	return !sysfs_parse_choice(buf, word, sizeof(word)) && !strcmp(word, value);
}

/* param_shaped - w looks like a kernel parameter: a lower-case name, an optional =value */
static bool param_shaped(const char *w)
{
	const char *eq = strchr(w, '=');
	size_t n = eq ? (size_t)(eq - w) : strlen(w);

	if (!n || !islower((unsigned char)w[0]) || (eq && !eq[1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)w[i]) && !isdigit((unsigned char)w[i]) &&
		    !strchr("_-.", w[i]))
			return false;
	return true;
}

/* set_words - of the parameter words at p (at most max, up to the first word that is not
 * one, or one that ends the list with ',' ';' ':' ')'), append those in force to buf; their
 * number */
static size_t set_words(const struct js_audit *a, const char *p, size_t max, char *buf, size_t len,
			size_t *pos)
{
	char w[256];
	size_t n = 0;

	while (max-- && audit_next_word(&p, w, sizeof(w))) {
		size_t l = strlen(w);
		bool last = l && strchr(",;:)", w[l - 1]);

		if (last)
			w[l - 1] = '\0';
		if (!param_shaped(w))
			break;
		if (audit_param_in_force(a, w) && *pos < len) {
			*pos += (size_t)snprintf(buf + *pos, len - *pos, "%s%s", *pos ? " " : "",
						 w);
			n++;
		}
		if (last)
			break;
	}
	return n;
}

/*
 * audit_hint_recommends_set - the parameters hint recommends that are in force already:
 * those after "boot with " or "add ", and one the hint starts with unless it says it "is
 * set" (see js_audit.h)
 */
size_t audit_hint_recommends_set(const struct js_audit *a, const char *hint, char *buf, size_t len)
{
	static const char *const verbs[] = { "boot with ", "add " };
	const char *p;
	size_t n = 0, pos = 0;

	buf[0] = '\0';
	for (size_t v = 0; v < ARRAY_SIZE(verbs); v++)
		for (p = strstr(hint, verbs[v]); p; p = strstr(p + 1, verbs[v]))
			if (p == hint || !isalpha((unsigned char)p[-1]))
				n += set_words(a, p + strlen(verbs[v]), SIZE_MAX, buf, len, &pos);
	p = hint + strcspn(hint, " ");
	if (strncmp(p, " is set", 7) && strncmp(p, " are set", 8) && strncmp(p, " and ", 5))
		n += set_words(a, hint, 1, buf, len, &pos);
	return n;
}
