// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* budget.c - --budget SPEC: parse the limits, check them against a run (see js_budget.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "js_budget.h"
#include "js_result.h"
#include "js_units.h"
#include "js_util.h"

#define ITEM_MAX 256 /* longest item considered */

/* a limit's TIME needs its unit: a bare number is a count (irq=3) */
static const struct js_unit_spec limit_spec = { 0, 0, JS_TIME_MAX, NULL };

/* A decimal number "D+[.D+]" at the start of a string. */
struct num {
	uint64_t ip;   /* integer part */
	uint64_t frac; /* fraction digits as an integer */
	int fdigits;   /* how many */
	size_t len;    /* characters used */
	bool overflow;
};

static bool scan_num(const char *s, struct num *n)
{
	size_t i = 0;

	memset(n, 0, sizeof(*n));
	if (!isdigit((unsigned char)s[0]))
		return false;
	for (; isdigit((unsigned char)s[i]); i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (n->ip > (UINT64_MAX - d) / 10)
			n->overflow = true;
		else
			n->ip = n->ip * 10 + d;
	}
	if (s[i] == '.') {
		if (!isdigit((unsigned char)s[i + 1]))
			return false;
		for (i++; isdigit((unsigned char)s[i]); i++) {
			if (n->fdigits == 18) {
				if (s[i] != '0')
					n->overflow = true; /* more precision than we keep */
				continue;
			}
			n->frac = n->frac * 10 + (uint64_t)(s[i] - '0');
			n->fdigits++;
		}
	}
	n->len = i;
	return true;
}

/* num_double - the number scanned at s, correctly rounded (as the C literal would be) */
static double num_double(const char *s, const struct num *n)
{
	char buf[ITEM_MAX];

	snprintf(buf, sizeof(buf), "%.*s", (int)n->len, s);
	return strtod(buf, NULL);
}

static bool is_count(const char *v)
{
	struct num n;

	return scan_num(v, &n) && !v[n.len] && !n.fdigits;
}

/* parse_time - "50us", "1.5ms": a TIME (js_units.h) */
static int parse_time(const char *item, const char *v, uint64_t *ns, char *err, size_t errlen)
{
	char why[160];

	if (js_parse_time(v, &limit_spec, ns, why, sizeof(why)))
		return js_errf(err, errlen, "'%s': %s", item, why);
	return 0;
}

/* parse_count - a non-negative integer */
static int parse_count(const char *item, const char *v, uint64_t *c, char *err, size_t errlen)
{
	struct num n;

	if (!is_count(v))
		return js_errf(err, errlen, "'%s': '%s' is not a count (a whole number)", item, v);
	scan_num(v, &n);
	if (n.overflow)
		return js_errf(err, errlen, "'%s': too large", item);
	*c = n.ip;
	return 0;
}

/* parse_pct - "0.1%": 0 .. 100 */
static int parse_pct(const char *item, const char *v, double *pct, char *err, size_t errlen)
{
	struct num n;

	if (!scan_num(v, &n) || strcmp(v + n.len, "%"))
		return js_errf(err, errlen, "'%s': '%s' is not a percentage (e.g. 0.1%%)", item, v);
	*pct = num_double(v, &n);
	if (n.overflow || *pct > 100.0)
		return js_errf(err, errlen, "'%s': a percentage is at most 100%%", item);
	return 0;
}

/* parse_pctl_key - "p99.9" -> 99.9, in (0, 100] */
static int parse_pctl_key(const char *item, const char *key, double *p, char *err, size_t errlen)
{
	struct num n;

	if (!scan_num(key + 1, &n) || key[1 + n.len])
		return js_errf(err, errlen, "'%s': a percentile key is pN, e.g. p99 or p99.9",
			       item);
	*p = num_double(key + 1, &n);
	if (n.overflow || !(*p > 0.0) || *p > 100.0)
		return js_errf(err, errlen, "'%s': the percentile must be above 0 and at most 100",
			       item);
	return 0;
}

/* same_key - two items constrain the same thing (lost=% and lost=TIME are one key) */
static bool same_key(const struct js_budget_item *a, const struct js_budget_item *b)
{
	int ga = a->kind == JS_BUDGET_LOST_NS  ? JS_BUDGET_LOST_PCT :
		 a->kind == JS_BUDGET_CLASS_NS ? JS_BUDGET_CLASS_GAPS :
						 (int)a->kind;
	int gb = b->kind == JS_BUDGET_LOST_NS  ? JS_BUDGET_LOST_PCT :
		 b->kind == JS_BUDGET_CLASS_NS ? JS_BUDGET_CLASS_GAPS :
						 (int)b->kind;

	if (ga != gb)
		return false;
	if (ga == JS_BUDGET_PCTL_NS)
		return a->pct == b->pct;
	if (ga == JS_BUDGET_CLASS_GAPS)
		return a->cause == b->cause;
	return true;
}

/* parse_value - the value of a known key into it */
static int parse_value(const char *item, const char *key, const char *v, struct js_budget_item *it,
		       char *err, size_t errlen)
{
	struct num n;
	int cause;

	if (!strcmp(key, "max")) {
		it->kind = JS_BUDGET_MAX_NS;
		return parse_time(item, v, &it->limit, err, errlen);
	}
	if (key[0] == 'p' && isdigit((unsigned char)key[1])) {
		it->kind = JS_BUDGET_PCTL_NS;
		if (parse_pctl_key(item, key, &it->pct, err, errlen))
			return -EINVAL;
		return parse_time(item, v, &it->limit, err, errlen);
	}
	if (!strcmp(key, "lost")) {
		if (v[strlen(v) - 1] == '%') {
			it->kind = JS_BUDGET_LOST_PCT;
			return parse_pct(item, v, &it->pct, err, errlen);
		}
		if (is_count(v))
			return js_errf(err, errlen,
				       "'%s': lost takes a percentage (0.1%%) or a time (5ms)",
				       item);
		it->kind = JS_BUDGET_LOST_NS;
		return parse_time(item, v, &it->limit, err, errlen);
	}
	if (!strcmp(key, "gaps")) {
		it->kind = JS_BUDGET_GAPS;
		return parse_count(item, v, &it->limit, err, errlen);
	}
	if (!strcmp(key, "smi")) {
		it->kind = JS_BUDGET_SMI;
		return parse_count(item, v, &it->limit, err, errlen);
	}
	cause = js_cause_from_name(key);
	if (cause < 0)
		return js_errf(err, errlen,
			       "'%s': unknown key '%s' (max, pN, lost, gaps, smi or a "
			       "cause class such as irq, timer, task, softirq, steal, unexplained)",
			       item, key);
	it->cause = cause;
	if (is_count(v)) {
		it->kind = JS_BUDGET_CLASS_GAPS;
		return parse_count(item, v, &it->limit, err, errlen);
	}
	it->kind = JS_BUDGET_CLASS_NS;
	if (scan_num(v, &n) && !v[n.len])
		return js_errf(err, errlen,
			       "'%s': %s takes a count of gaps (a whole number) or a "
			       "time with a unit",
			       item, key);
	return parse_time(item, v, &it->limit, err, errlen);
}

/* parse_item - one trimmed, non-empty "KEY=VALUE" */
static int parse_item(const char *item, struct js_budget_item *it, char *err, size_t errlen)
{
	char key[ITEM_MAX];
	const char *eq = strchr(item, '=');
	size_t klen;

	memset(it, 0, sizeof(*it));
	snprintf(it->text, sizeof(it->text), "%.*s", JS_BUDGET_TEXT - 1, item);
	if (!eq)
		return js_errf(err, errlen, "'%s': expected KEY=VALUE", item);
	klen = (size_t)(eq - item);
	if (!klen)
		return js_errf(err, errlen, "'%s': no key before '='", item);
	if (klen >= sizeof(key))
		return js_errf(err, errlen, "'%.40s...': key too long", item);
	memcpy(key, item, klen);
	key[klen] = '\0';
	if (!eq[1])
		return js_errf(err, errlen, "'%s': no value after '='", item);
	if (eq[1] == '-')
		return js_errf(err, errlen, "'%s': a limit cannot be negative", item);
	if (strchr(eq + 1, '='))
		return js_errf(err, errlen, "'%s': one '=' per item (items are separated by ',')",
			       item);
	return parse_value(item, key, eq + 1, it, err, errlen);
}

/* budget_parse - parse SPEC (see js_budget.h); 0 or -EINVAL with a reason in err */
int budget_parse(const char *spec, struct js_budget *b, char *err, size_t errlen)
{
	const char *p = spec;
	char item[ITEM_MAX];

	memset(b, 0, sizeof(*b));
	if (!spec || !spec[strspn(spec, " \t")])
		return js_errf(err, errlen, "empty budget (e.g. max=50us,p99.9=5us,lost=0.1%%)");
	for (;;) {
		const char *end = strchr(p, ','), *s = p, *e;
		struct js_budget_item it;

		if (!end)
			end = p + strlen(p);
		e = end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (s == e)
			return js_errf(err, errlen, "empty item in '%s' (a stray ',')", spec);
		if ((size_t)(e - s) >= sizeof(item))
			return js_errf(err, errlen, "item too long: '%.40s...'", s);
		memcpy(item, s, (size_t)(e - s));
		item[e - s] = '\0';
		if (parse_item(item, &it, err, errlen))
			return -EINVAL;
		for (size_t i = 0; i < b->n; i++)
			if (same_key(&b->v[i], &it))
				return js_errf(err, errlen, "'%s': the same key as '%s'", item,
					       b->v[i].text);
		if (b->n == JS_BUDGET_MAX)
			return js_errf(err, errlen, "more than %d limits", JS_BUDGET_MAX);
		b->v[b->n++] = it;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

enum verdict { V_OK, V_EXCEEDED, V_UNCHECKED };

/* fmt_time - human time; exact ns too when it would print like the limit */
static void fmt_time(char *buf, size_t len, uint64_t v, uint64_t limit)
{
	char a[32], l[32];

	js_fmt_ns(a, sizeof(a), v);
	js_fmt_ns(l, sizeof(l), limit);
	if (v != limit && !strcmp(a, l))
		snprintf(buf, len, "%s (%" PRIu64 " ns)", a, v);
	else
		js_scpy(buf, len, a);
}

/* check_one - one limit against one CPU's numbers (its run or an interval of it): the
 * value as text, and the verdict; run says what could be measured */
static enum verdict check_one(const struct js_budget_item *it, const struct js_run *run,
			      const struct js_budget_vals *vals, char *val, size_t len)
{
	uint64_t v;
	double pct;

	switch (it->kind) {
	case JS_BUDGET_MAX_NS:
	case JS_BUDGET_PCTL_NS:
		v = (uint64_t)(it->kind == JS_BUDGET_MAX_NS ?
				       hist_max(vals->hist) :
				       hist_value_at_percentile(vals->hist, it->pct));
		fmt_time(val, len, v, it->limit);
		return v <= it->limit ? V_OK : V_EXCEEDED;
	case JS_BUDGET_LOST_PCT:
		pct = lost_pct(vals->lost_ns, vals->window_ns);
		snprintf(val, len, "%.4f %%", pct);
		return pct <= it->pct ? V_OK : V_EXCEEDED;
	case JS_BUDGET_LOST_NS:
		fmt_time(val, len, vals->lost_ns, it->limit);
		return vals->lost_ns <= it->limit ? V_OK : V_EXCEEDED;
	case JS_BUDGET_GAPS:
		snprintf(val, len, "%" PRIu64 " gaps", vals->gaps);
		return vals->gaps <= it->limit ? V_OK : V_EXCEEDED;
	case JS_BUDGET_SMI:
		if (!run->smi_countable) {
			snprintf(val, len, "SMIs not countable (%.120s)", run->smi_why);
			return V_UNCHECKED;
		}
		snprintf(val, len, "%" PRIu64 " SMIs", vals->smi);
		return vals->smi <= it->limit ? V_OK : V_EXCEEDED;
	case JS_BUDGET_CLASS_GAPS:
	case JS_BUDGET_CLASS_NS:
		if (!run->probes_on && it->cause != JS_CAUSE_UNEXPLAINED) {
			snprintf(val, len, "causes unknown, probes off (%.160s)", run->probes_why);
			return V_UNCHECKED;
		}
		if (it->kind == JS_BUDGET_CLASS_GAPS) {
			v = vals->class_gaps[it->cause];
			snprintf(val, len, "%" PRIu64 " gaps", v);
		} else {
			v = vals->class_ns[it->cause];
			fmt_time(val, len, v, it->limit);
		}
		return v <= it->limit ? V_OK : V_EXCEEDED;
	}
	snprintf(val, len, "?");
	return V_UNCHECKED;
}

/* budget_vals_of - r's numbers so far */
void budget_vals_of(const struct js_cpu_result *r, struct js_budget_vals *v)
{
	memset(v, 0, sizeof(*v));
	v->hist = &r->hist;
	v->window_ns = result_window_ns(r);
	v->lost_ns = r->lost_ns;
	v->gaps = r->gap_count;
	v->smi = r->smi;
	for (uint32_t c = 0; c < JS_CAUSE_MAX; c++) {
		v->class_gaps[c] = causes_by_primary(&r->causes, c);
		v->class_ns[c] = causes_class(&r->causes, c)->total_ns;
	}
}

/* budget_count_vals - every limit against one CPU's numbers; violations added to viol */
void budget_count_vals(const struct js_budget *b, const struct js_run *run,
		       const struct js_budget_vals *v, uint64_t *viol)
{
	char val[256];

	for (size_t i = 0; i < b->n; i++)
		if (check_one(&b->v[i], run, v, val, sizeof(val)) != V_OK)
			viol[i]++;
}

/* budget_count - every limit on every CPU's whole run; violations added to viol */
void budget_count(const struct js_budget *b, const struct js_run *run, uint64_t *viol)
{
	struct js_budget_vals v;

	for (size_t c = 0; c < run->ncpus; c++) {
		budget_vals_of(&run->cpus[c], &v);
		budget_count_vals(b, run, &v, viol);
	}
}

/* budget_check - every limit on every CPU; one line each; the number of violations */
int budget_check(const struct js_budget *b, const struct js_run *run, FILE *report)
{
	static const char *const word[] = { "ok", "EXCEEDED", "NOT CHECKED" };
	struct js_budget_vals vals;
	char val[256], label[JS_LABEL_LEN + 16];
	int bad = 0;

	for (size_t i = 0; i < b->n; i++)
		for (size_t c = 0; c < run->ncpus; c++) {
			enum verdict v;

			budget_vals_of(&run->cpus[c], &vals);
			v = check_one(&b->v[i], run, &vals, val, sizeof(val));
			if (v != V_OK)
				bad++;
			if (report)
				fprintf(report, "budget %s on %s: %s  %s\n", b->v[i].text,
					result_label(&run->cpus[c], label, sizeof(label)), val,
					word[v]);
		}
	return bad;
}
