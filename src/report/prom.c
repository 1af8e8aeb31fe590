// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * prom.c - the Prometheus exposition of a run (js_prom.h): text format 0.0.4, a HELP and a
 * TYPE line per family, units in the names (_seconds, _total), counters monotonic from the
 * start, histograms cumulative with fixed le bounds, labels bounded.
 *
 * Every result has its series: a measured CPU's carry cpu="N"; a followed thread's (--pid,
 * --tid) add gap_source="thread" and thread="comm:tid", the marks' (--marks)
 * gap_source="mark" (results_labels()). Results that appear during the run (a thread that
 * starts) get their series from then on.
 *
 * Gap histograms count every gap exactly (le is "at most", as Prometheus defines it): the
 * state keeps its own bucket counts per CPU and primary cause as gaps arrive, with fixed
 * 1-2-5 boundaries from 100 ns to 10 s, so histograms from many machines add up.
 *
 * Sources (the cause table's rows) become a label only through prom_source_label(): no pid,
 * no IPI sender, no kernel thread instance. Per CPU at most JS_PROM_SOURCES labels get a
 * series of their own, re-picked at each exposition by their recent time; the rest of each
 * class counts under source="other" (js_prom_pick.h), so every source series and every
 * "other" only grows.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "js_audit.h"
#include "js_budget.h"
#include "js_prom.h"
#include "js_prom_pick.h"
#include "js_result.h"
#include "js_util.h"

#define PROM_NB 25	 /* finite buckets; +1 for +Inf */
#define PROM_COMM_MAX 16 /* TASK_COMM_LEN: a comm is at most 15 bytes */

/* le boundaries in ns: 1-2-5 from 100 ns to 10 s */
static const uint64_t prom_le_ns[PROM_NB] = {
	100,	    200,	500,	    1000,	 2000,	    5000,      10000,
	20000,	    50000,	100000,	    200000,	 500000,    1000000,   2000000,
	5000000,    10000000,	20000000,   50000000,	 100000000, 200000000, 500000000,
	1000000000, 2000000000, 5000000000, 10000000000,
};

struct prom_cpu {
	uint64_t count[JS_CAUSE_MAX][PROM_NB + 1]; /* per bucket, not cumulative */
	uint64_t sum_ns[JS_CAUSE_MAX];
	uint64_t gaps[JS_CAUSE_MAX];
	struct prom_pick pick; /* its labels with a series of their own */
};

struct js_prom {
	struct prom_cpu *c; /* per result, in run->cpus' order */
	size_t nc;
	const struct js_run *run; /* the run prom_start saw */
	struct js_budget budget;
};

/* prom_new - empty state */
struct js_prom *prom_new(void)
{
	return calloc(1, sizeof(struct js_prom));
}

/* prom_free - release it */
void prom_free(struct js_prom *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nc; i++)
		prom_pick_free(&m->c[i].pick);
	free(m->c);
	free(m);
}

/* prom_start - size the per-result state (the results that appeared since) */
int prom_start(struct js_prom *m, const struct js_run *run)
{
	m->run = run;
	return js_grow(&m->c, &m->nc, run->ncpus, sizeof(*m->c));
}

/* prom_bucket - the first bucket whose le holds dur_ns (PROM_NB: +Inf) */
static int prom_bucket(uint64_t dur_ns)
{
	int lo = 0, hi = PROM_NB;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (dur_ns <= prom_le_ns[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* prom_add_gap - count one attributed gap */
void prom_add_gap(struct js_prom *m, const struct js_gap_rec *g)
{
	uint32_t cause = g->attr.primary < JS_CAUSE_MAX ? g->attr.primary : JS_CAUSE_UNEXPLAINED;
	struct prom_cpu *c;

	if (m->run && g->gap.res >= m->nc)
		prom_start(m, m->run); /* a result that appeared since */
	if (!m->c || g->gap.res >= m->nc)
		return;
	c = &m->c[g->gap.res];
	c->count[cause][prom_bucket(g->gap.dur_ns)]++;
	c->sum_ns[cause] += g->gap.dur_ns;
	c->gaps[cause]++;
}

void prom_add_buckets(struct js_prom *m, size_t res, const struct js_cause_buckets *cb)
{
	struct prom_cpu *c;

	if (m->run && res >= m->nc)
		prom_start(m, m->run);
	if (!m->c || res >= m->nc)
		return;
	c = &m->c[res];
	/* cb's bucket i ends where prom_le_ns[i] is (cbuckets_hi); past 10 s: +Inf */
	for (int i = 0; i < JS_CB_BUCKETS; i++)
		for (int k = 0; k < JS_CAUSE_MAX; k++) {
			c->count[k][JS_MIN(i, PROM_NB)] += cb->count[i][k];
			c->sum_ns[k] += cb->ns[i][k];
			c->gaps[k] += cb->count[i][k];
		}
}

_Static_assert(JS_CB_BUCKETS > PROM_NB, "every finite le is a bound of the 1-2-5 histogram");

/* prom_set_budget - export b's limits */
void prom_set_budget(struct js_prom *m, const struct js_budget *b)
{
	m->budget = *b;
}

/* ---- source labels ---- */

/* cut_cgroup - move a " [name]" at the end of d (or before " (sampler)") into cg */
static void cut_cgroup(char *d, char *cg, size_t clen)
{
	char *open = NULL, *close;

	for (char *p = strstr(d, " ["); p; p = strstr(p + 1, " ["))
		open = p;
	cg[0] = '\0';
	if (!open || !(close = strchr(open, ']')) || (close[1] && strcmp(close + 1, " (sampler)")))
		return;
	snprintf(cg, clen, "%.*s", (int)(close - open - 2), open + 2);
	memmove(open, close + 1, strlen(close + 1) + 1);
}

/* kthread_instance - rest (after a comm's '/') is a per-CPU or pool instance: 1, 1:2,
 * u8:0, 0:1H */
static bool kthread_instance(const char *rest, size_t len)
{
	size_t i = 0;

	if (i < len && rest[i] == 'u')
		i++;
	if (i >= len || !isdigit((unsigned char)rest[i]))
		return false;
	while (i < len && isdigit((unsigned char)rest[i]))
		i++;
	if (i < len && rest[i] == ':') {
		if (++i >= len || !isdigit((unsigned char)rest[i]))
			return false;
		while (i < len && isdigit((unsigned char)rest[i]))
			i++;
	}
	if (i < len && rest[i] == 'H')
		i++;
	return i == len;
}

/*
 * task_name - s starts with "comm:pid": drop the pid, and a kernel thread's instance
 * ("kworker/1:2" -> "kworker"); the pid is the last ":digits" ending at a space or the end
 * within a comm's length (a comm may hold ':' and ' '). Returns the comm's new length
 * (strlen(s) if there is no pid).
 */
static size_t task_name(char *s)
{
	size_t n = strlen(s), at = n, end = n, cut;
	const char *slash;

	for (size_t i = 1; i <= PROM_COMM_MAX && i < n; i++) {
		size_t j = i + 1;

		if (s[i] != ':' || !isdigit((unsigned char)s[j]))
			continue;
		while (isdigit((unsigned char)s[j]))
			j++;
		if (!s[j] || s[j] == ' ') {
			at = i;
			end = j;
		}
	}
	cut = at;
	slash = memchr(s, '/', at);
	if (slash && kthread_instance(slash + 1, at - (size_t)(slash - s) - 1))
		cut = (size_t)(slash - s);
	memmove(s + cut, s + end, n - end + 1);
	return cut;
}

/* hide_addresses - every kernel address "0x" + 8 or more hex digits (a function without
 * its name: no CAP_SYSLOG) becomes "0x?": it changes with every boot (KASLR) */
static void hide_addresses(char *d)
{
	for (char *p = strstr(d, "0x"); p; p = strstr(p + 1, "0x")) {
		size_t n = strspn(p + 2, "0123456789abcdef");

		if (n >= 8) {
			p[2] = '?';
			memmove(p + 3, p + 2 + n, strlen(p + 2 + n) + 1);
		}
	}
}

/* prom_source_label - the bounded label of a source (see js_prom.h) */
void prom_source_label(uint32_t cause, const char *detail, char *src, size_t slen, char *cg,
		       size_t clen)
{
	char d[JS_DETAIL_LEN], *p;

	js_scpy(d, sizeof(d), detail);
	cut_cgroup(d, cg, clen);
	if (!d[0] || !strcmp(d, "(other)") || js_detail_folded(d)) {
		js_scpy(src, slen, JS_PROM_OTHER);
		return;
	}
	if (js_part_thread(cause, d))
		cause = JS_CAUSE_TASK; /* a kernel thread's run: its name, as a task's */
	switch (cause) {
	case JS_CAUSE_TASK:
		d[task_name(d)] = '\0'; /* the comm alone: the work class has the work */
		break;
	case JS_CAUSE_FAULT: /* "fault user|kernel comm:pid[ (sampler)]" */
		p = strchr(d, ' ');
		p = p ? strchr(p + 1, ' ') : NULL;
		if (p)
			task_name(p + 1);
		break;
	case JS_CAUSE_IPI:
	case JS_CAUSE_VECTOR: /* "... from comm:pid": not the sender */
		p = strstr(d, " from ");
		if (p)
			*p = '\0';
		break;
	default:
		break;
	}
	hide_addresses(d);
	js_scpy(src, slen, d);
}

/* ---- the exposition ---- */

/* sec - ns as exact decimal seconds */
static const char *sec(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	return buf;
}

/* count_or_sec - v as a count, or (ns) as seconds */
static const char *count_or_sec(char *buf, size_t len, uint64_t v, bool count)
{
	if (count)
		snprintf(buf, len, "%" PRIu64, v);
	else
		sec(buf, len, v);
	return buf;
}

/* esc - s as a label value: \ " and newline escaped, other control and non-ASCII bytes
 * as '?' (a label value must be UTF-8) */
static const char *esc(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s && o + 3 < len; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\\' || ch == '"') {
			buf[o++] = '\\';
			buf[o++] = (char)ch;
		} else if (ch == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = ch < 0x20 || ch > 0x7e ? '?' : (char)ch;
		}
	}
	buf[o] = '\0';
	return buf;
}

static void family(FILE *fp, const char *name, const char *type, const char *help)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

#define PROM_LABELS (JS_LABEL_LEN * 2 + 64)

/* result_labels - the labels that tell result r's series apart: cpu="N", and a followed
 * thread's or the marks' gap source (a thread's name with it) */
static const char *result_labels(char *buf, size_t len, const struct js_cpu_result *r)
{
	char name[JS_LABEL_LEN * 2];

	switch (r->source) {
	case JS_SRC_THREAD:
		snprintf(buf, len, "cpu=\"%d\",gap_source=\"thread\",thread=\"%s\"", r->cpu,
			 esc(name, sizeof(name), r->name));
		break;
	case JS_SRC_MARK:
		snprintf(buf, len, "cpu=\"%d\",gap_source=\"mark\"", r->cpu);
		break;
	default:
		snprintf(buf, len, "cpu=\"%d\"", r->cpu);
	}
	return buf;
}

/* histogram - _bucket/_sum/_count lines of one series; labels like `cpu="1"` */
static void histogram(FILE *fp, const char *name, const char *labels, const uint64_t *count,
		      uint64_t sum_ns)
{
	uint64_t cum = 0;
	char b[32];

	for (int i = 0; i <= PROM_NB; i++) {
		cum += count[i];
		if (i < PROM_NB)
			fprintf(fp, "%s_bucket{%s,le=\"%.9g\"} %" PRIu64 "\n", name, labels,
				(double)prom_le_ns[i] / 1e9, cum);
		else
			fprintf(fp, "%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", name, labels, cum);
	}
	fprintf(fp, "%s_sum{%s} %s\n", name, labels, sec(b, sizeof(b), sum_ns));
	fprintf(fp, "%s_count{%s} %" PRIu64 "\n", name, labels, cum);
}

static void node_metrics(FILE *fp, const struct js_run *run)
{
	const struct js_machine *mc = &run->machine;
	char k[sizeof(mc->kernel) * 2], m[sizeof(mc->cpu_model) * 2], b[32];

	family(fp, "jitterscope_node_info", "gauge",
	       "Facts of the measured machine, as labels "
	       "(value 1): jitterscope version, kernel, CPU model, hypervisor, invariant TSC.");
	fprintf(fp,
		"jitterscope_node_info{version=\"%s\",kernel=\"%s\",cpu_model=\"%s\","
		"hypervisor=\"%s\",invariant_tsc=\"%s\"} 1\n",
		JS_VERSION, esc(k, sizeof(k), mc->kernel), esc(m, sizeof(m), mc->cpu_model),
		mc->hypervisor ? "true" : "false", mc->invariant_tsc ? "true" : "false");
	family(fp, "jitterscope_gap_threshold_seconds", "gauge",
	       "Shortest interruption "
	       "counted as a gap (-T): gap counts of runs with different thresholds differ.");
	fprintf(fp, "jitterscope_gap_threshold_seconds %s\n",
		sec(b, sizeof(b), run->cfg.threshold_ns));
}

static void gap_histograms(FILE *fp, const struct js_prom *m, const struct js_run *run)
{
	const char *n = "jitterscope_gap_duration_seconds";
	char lr[PROM_LABELS], labels[PROM_LABELS + 64];

	family(fp, n, "histogram",
	       "Durations of the gaps (the measured CPU taken away from "
	       "the sampler) since the run started, per measured CPU.");
	for (size_t i = 0; i < m->nc; i++) {
		uint64_t all[PROM_NB + 1] = { 0 }, sum = 0;

		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			for (int b = 0; b <= PROM_NB; b++)
				all[b] += m->c[i].count[c][b];
			sum += m->c[i].sum_ns[c];
		}
		histogram(fp, n, result_labels(lr, sizeof(lr), &run->cpus[i]), all, sum);
	}
	n = "jitterscope_gap_duration_by_cause_seconds";
	family(fp, n, "histogram",
	       "Durations of the gaps since the run started, per measured "
	       "CPU and primary cause (a cause appears with its first gap).");
	for (size_t i = 0; i < m->nc; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++) {
			if (!m->c[i].gaps[c])
				continue;
			snprintf(labels, sizeof(labels), "%s,cause=\"%s\"",
				 result_labels(lr, sizeof(lr), &run->cpus[i]), js_cause_name(c));
			histogram(fp, n, labels, m->c[i].count[c], m->c[i].sum_ns[c]);
		}
}

static void cause_counters(FILE *fp, const struct js_prom *m, const struct js_run *run)
{
	char b[32], lr[PROM_LABELS];

	family(fp, "jitterscope_gaps_total", "counter",
	       "Gaps since the run started, per measured CPU and primary cause.");
	for (size_t i = 0; i < m->nc; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			fprintf(fp, "jitterscope_gaps_total{%s,cause=\"%s\"} %" PRIu64 "\n",
				result_labels(lr, sizeof(lr), &run->cpus[i]), js_cause_name(c),
				m->c[i].gaps[c]);
	family(fp, "jitterscope_lost_seconds_total", "counter",
	       "Time lost to each cause "
	       "class since the run started (net: nested causes counted once; an "
	       "interruption's entry/exit included; the classes add up to the gap time).");
	for (size_t i = 0; i < run->ncpus; i++)
		for (int c = 0; c < JS_CAUSE_MAX; c++)
			fprintf(fp, "jitterscope_lost_seconds_total{%s,cause=\"%s\"} %s\n",
				result_labels(lr, sizeof(lr), &run->cpus[i]), js_cause_name(c),
				sec(b, sizeof(b), run->cpus[i].causes.cls[c].total_ns));
}

/* aggregate - the CPU's cause table merged by (class, label, cgroup), sorted by key, into
 * *out (NULL when out of memory); returns how many */
static size_t aggregate(const struct js_causes *t, struct prom_agg **out)
{
	struct prom_agg *a = calloc(t->nsrc ? t->nsrc : 1, sizeof(*a));
	size_t n = 0, k = 0;

	*out = a;
	if (!a)
		return 0;
	for (uint32_t i = 0; i < t->nsrc; i++) {
		const struct js_cause_src *s = &t->src[i];

		a[n].k.cause = s->cause;
		prom_source_label(s->cause, s->other ? "(other)" : s->detail, a[n].k.src,
				  sizeof(a[n].k.src), a[n].k.cg, sizeof(a[n].k.cg));
		a[n].ns = s->total_ns;
		a[n].gaps = s->gaps;
		n++;
	}
	qsort(a, n, sizeof(*a), prom_key_cmp);
	for (size_t i = 0; i < n; i++) {
		if (k && !prom_key_cmp(&a[k - 1], &a[i])) {
			a[k - 1].ns += a[i].ns;
			a[k - 1].gaps += a[i].gaps;
		} else {
			a[k++] = a[i];
		}
	}
	return k;
}

/* source_line - one sample of a source family */
static void source_line(FILE *fp, const char *name, const struct js_cpu_result *r, uint32_t cause,
			const char *src, const char *cg, const char *value)
{
	char s[JS_DETAIL_LEN * 2], g[JS_DETAIL_LEN * 2], lr[PROM_LABELS];

	fprintf(fp, "%s{%s,cause=\"%s\",source=\"%s\"", name, result_labels(lr, sizeof(lr), r),
		js_cause_name(cause), esc(s, sizeof(s), src));
	if (cg[0])
		fprintf(fp, ",cgroup=\"%s\"", esc(g, sizeof(g), cg));
	fprintf(fp, "} %s\n", value);
}

/* sources - one source family (gaps: the gap counts, else the time): per CPU the labels
 * shown (js_prom_pick.h), then per class the rest under "other" */
static void sources(FILE *fp, const struct js_prom *m, const struct js_run *run, bool gaps)
{
	const char *name = gaps ? "jitterscope_source_gaps_total" :
				  "jitterscope_source_lost_seconds_total";
	char v[32];

	for (size_t i = 0; i < m->nc; i++) {
		const struct prom_pick *p = &m->c[i].pick;

		for (size_t s = 0; s < p->n; s++)
			if (p->v[s].shown)
				source_line(fp, name, &run->cpus[i], p->v[s].k.cause, p->v[s].k.src,
					    p->v[s].k.cg,
					    count_or_sec(v, sizeof(v),
							 gaps ? p->v[s].val_gaps : p->v[s].val_ns,
							 gaps));
		for (uint32_t k = 0; k < JS_CAUSE_MAX; k++)
			if (p->seen[k])
				source_line(fp, name, &run->cpus[i], k, JS_PROM_OTHER, "",
					    count_or_sec(v, sizeof(v),
							 gaps ? p->other_gaps[k] : p->other_ns[k],
							 gaps));
	}
}

/* expo_now - the exposition's time: what the run has accounted up to, or its end */
static uint64_t expo_now(const struct js_run *run)
{
	return run->done_ns ? run->done_ns : run->start_mono_ns + run->wall_ns;
}

/* source_counters - the source families; the labels to show are picked first */
static int source_counters(FILE *fp, struct js_prom *m, const struct js_run *run)
{
	int err = 0;

	for (size_t i = 0; !err && i < m->nc; i++) {
		struct prom_agg *a;
		size_t n = aggregate(&run->cpus[i].causes, &a);

		err = a ? prom_pick_update(&m->c[i].pick, a, n, expo_now(run), JS_PROM_SOURCES) :
			  -ENOMEM;
		free(a);
	}
	if (err)
		return err;
	family(fp, "jitterscope_source_lost_seconds_total", "counter",
	       "Time lost to each "
	       "source since the run started, per measured CPU and cause class: the sources of "
	       "most recent time by name (no pid, no kernel thread instance; docs/OUTPUTS.md), "
	       "the rest of the class as source=\"other\".");
	sources(fp, m, run, false);
	family(fp, "jitterscope_source_gaps_total", "counter",
	       "Gaps each source appeared in "
	       "since the run started (the series of jitterscope_source_lost_seconds_total; "
	       "\"other\" adds up the gaps of the sources it stands for).");
	sources(fp, m, run, true);
	return 0;
}

static void cpu_metrics(FILE *fp, const struct js_run *run)
{
	char b[32], lr[PROM_LABELS];

	family(fp, "jitterscope_gap_max_seconds", "gauge",
	       "Longest gap since the run started "
	       "per measured CPU (HdrHistogram, 3 significant digits).");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_gap_max_seconds{%s} %s\n",
			result_labels(lr, sizeof(lr), &run->cpus[i]),
			sec(b, sizeof(b), (uint64_t)hist_max(&run->cpus[i].hist)));
	family(fp, "jitterscope_measured_seconds_total", "counter",
	       "Time measured per "
	       "measured CPU (the share lost: jitterscope_lost_seconds_total over this).");
	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_cpu_result *r = &run->cpus[i];

		fprintf(fp, "jitterscope_measured_seconds_total{%s} %s\n",
			result_labels(lr, sizeof(lr), r), sec(b, sizeof(b), result_window_ns(r)));
	}
	family(fp, "jitterscope_gaps_dropped_total", "counter",
	       "Gaps the sampler could not hand over (full ring); 0 in a healthy run.");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_gaps_dropped_total{%s} %" PRIu64 "\n",
			result_labels(lr, sizeof(lr), &run->cpus[i]), run->cpus[i].dropped);
	family(fp, "jitterscope_steal_seconds_total", "counter",
	       "Hypervisor steal time inside the gaps.");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_steal_seconds_total{%s} %s\n",
			result_labels(lr, sizeof(lr), &run->cpus[i]),
			sec(b, sizeof(b), run->cpus[i].steal_ns));
	if (!run->smi_countable)
		return;
	family(fp, "jitterscope_smi_total", "counter",
	       "System management interrupts counted on the measured CPU.");
	for (size_t i = 0; i < run->ncpus; i++)
		fprintf(fp, "jitterscope_smi_total{%s} %" PRIu64 "\n",
			result_labels(lr, sizeof(lr), &run->cpus[i]), run->cpus[i].smi);
}

static void probe_metrics(FILE *fp, const struct js_run *run)
{
	family(fp, "jitterscope_probes_enabled", "gauge",
	       "1 if the eBPF probes attribute "
	       "the gaps to causes, else 0 (every gap is unexplained).");
	fprintf(fp, "jitterscope_probes_enabled %d\n", run->probes_on ? 1 : 0);
	family(fp, "jitterscope_probe_events_total", "counter", "Probe events read.");
	fprintf(fp, "jitterscope_probe_events_total %" PRIu64 "\n", run->probe_events);
	family(fp, "jitterscope_probe_events_lost_total", "counter",
	       "Probe events lost in the "
	       "kernel (full ring buffer): gaps they overlapped may be misattributed.");
	fprintf(fp, "jitterscope_probe_events_lost_total %" PRIu64 "\n", run->probe_lost);
	family(fp, "jitterscope_probe_events_evicted_total", "counter",
	       "Probe events dropped from a full attribution window before their gap was seen.");
	fprintf(fp, "jitterscope_probe_events_evicted_total %" PRIu64 "\n", run->probe_evicted);
	family(fp, "jitterscope_probe_events_shed_total", "counter",
	       "Of the evicted, other tasks' page faults, which hold no time: their tasks' runs "
	       "still name the gap.");
	fprintf(fp, "jitterscope_probe_events_shed_total %" PRIu64 "\n", run->probe_shed);
}

/* same_check - an earlier check has this check's id and CPU (one series each) */
static bool same_check(const struct js_audit *a, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (a->checks[k].cpu == a->checks[i].cpu &&
		    !strcmp(a->checks[k].id, a->checks[i].id))
			return true;
	return false;
}

static void audit_metrics(FILE *fp, const struct js_run *run)
{
	const struct js_audit *a = &run->audit;
	char id[AUDIT_ID_LEN * 2], cpu[32];

	if (!run->audited)
		return;
	family(fp, "jitterscope_audit_checks", "gauge", "Isolation audit checks by verdict.");
	for (int v = 0; v < AUDIT_NVERDICTS; v++)
		fprintf(fp, "jitterscope_audit_checks{verdict=\"%s\"} %zu\n", audit_verdict_name(v),
			audit_count(a, v));
	family(fp, "jitterscope_audit_verdict", "gauge",
	       "Each isolation audit check with its "
	       "verdict and severity as labels (value 1); cpu: the measured CPU it is about.");
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_check *c = &a->checks[i];

		if (same_check(a, i))
			continue;
		cpu[0] = '\0';
		if (c->cpu >= 0)
			snprintf(cpu, sizeof(cpu), ",cpu=\"%d\"", c->cpu);
		fprintf(fp,
			"jitterscope_audit_verdict{check=\"%s\"%s,severity=\"%s\","
			"verdict=\"%s\"} 1\n",
			esc(id, sizeof(id), c->id), cpu, audit_severity_name(c->severity),
			audit_verdict_name(c->verdict));
	}
}

static void budget_metrics(FILE *fp, const struct js_prom *m, const struct js_run *run)
{
	char l[JS_BUDGET_TEXT * 2];

	if (!m->budget.n)
		return;
	family(fp, "jitterscope_budget_violations_total", "counter",
	       "Violations of each "
	       "--budget limit (EXCEEDED or NOT CHECKED, one per measured CPU: checked after "
	       "a finite run; in a --duration 0 run, on each --budget-interval's own values).");
	for (size_t i = 0; i < m->budget.n; i++)
		fprintf(fp, "jitterscope_budget_violations_total{limit=\"%s\"} %" PRIu64 "\n",
			esc(l, sizeof(l), m->budget.v[i].text), run->budget_viol[i]);
}

/* spike_metrics - the flight recorder's files, when it is on */
static void spike_metrics(FILE *fp, const struct js_spike_stats *s)
{
	if (!s->on)
		return;
	family(fp, "jitterscope_spikes_written_total", "counter",
	       "Gaps at or above "
	       "--spike-threshold written to --spike-dir (a JSON file and a trace each).");
	fprintf(fp, "jitterscope_spikes_written_total %" PRIu64 "\n", s->written);
	family(fp, "jitterscope_spikes_skipped_total", "counter",
	       "Gaps at or above "
	       "--spike-threshold not written, by reason (rate, size, backlog, error).");
	for (unsigned i = 0; i < JS_SPIKE_SKIP_MAX; i++)
		fprintf(fp, "jitterscope_spikes_skipped_total{reason=\"%s\"} %" PRIu64 "\n",
			js_spike_skip_name(i), s->skipped[i]);
	family(fp, "jitterscope_spikes_replaced_total", "counter",
	       "Spikes written to --spike-dir, then removed for a spike of a new source or a "
	       "longer one (--spike-max).");
	fprintf(fp, "jitterscope_spikes_replaced_total %" PRIu64 "\n", s->replaced);
	if (!s->cmd.on)
		return;
	family(fp, "jitterscope_on_spike_runs_total", "counter", "--on-spike commands started.");
	fprintf(fp, "jitterscope_on_spike_runs_total %" PRIu64 "\n", s->cmd.runs);
	family(fp, "jitterscope_on_spike_failures_total", "counter",
	       "--on-spike commands that exited non-zero, died of a signal or did not start.");
	fprintf(fp, "jitterscope_on_spike_failures_total %" PRIu64 "\n", s->cmd.failed);
	family(fp, "jitterscope_on_spike_timeouts_total", "counter",
	       "--on-spike commands killed at --on-spike-timeout.");
	fprintf(fp, "jitterscope_on_spike_timeouts_total %" PRIu64 "\n", s->cmd.timeouts);
	family(fp, "jitterscope_on_spike_skipped_busy_total", "counter",
	       "Spikes written while an --on-spike command still ran: no command for them.");
	fprintf(fp, "jitterscope_on_spike_skipped_busy_total %" PRIu64 "\n", s->cmd.skipped_busy);
	family(fp, "jitterscope_on_spike_seconds_total", "counter",
	       "Time the --on-spike commands ran, start to end.");
	fprintf(fp, "jitterscope_on_spike_seconds_total %.6f\n", s->cmd.run_ns / 1e9);
}

static void run_metrics(FILE *fp, const struct js_run *run)
{
	char b[32];

	family(fp, "jitterscope_run_interrupted", "gauge",
	       "1 if Ctrl-C, SIGTERM, a failed output or the --on-spike command ended the run early.");
	fprintf(fp, "jitterscope_run_interrupted %d\n", run->interrupted ? 1 : 0);
	family(fp, "jitterscope_run_duration_seconds", "gauge", "How long the run has lasted.");
	fprintf(fp, "jitterscope_run_duration_seconds %s\n",
		sec(b, sizeof(b),
		    run->wall_ns		      ? run->wall_ns :
		    run->done_ns > run->start_mono_ns ? run->done_ns - run->start_mono_ns :
							0));
	family(fp, "jitterscope_run_start_timestamp_seconds", "gauge",
	       "When the run started, seconds since the epoch.");
	fprintf(fp, "jitterscope_run_start_timestamp_seconds %.3f\n", run->start_epoch_s);
}

/* prom_write - the whole exposition of one run */
int prom_write(FILE *fp, struct js_prom *m, const struct js_run *run)
{
	int err = prom_start(m, run);

	if (err)
		return err;
	node_metrics(fp, run);
	gap_histograms(fp, m, run);
	cause_counters(fp, m, run);
	err = source_counters(fp, m, run);
	if (err)
		return err;
	cpu_metrics(fp, run);
	probe_metrics(fp, run);
	audit_metrics(fp, run);
	budget_metrics(fp, m, run);
	spike_metrics(fp, &run->spikes);
	run_metrics(fp, run);
	return ferror(fp) ? -EIO : 0;
}
