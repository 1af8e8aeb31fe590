// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_text.c - the human report: summary, percentiles, histogram, worst gaps. */
#include <inttypes.h>
#include <string.h>

#include "js_report.h"
#include "js_story.h"
#include "js_util.h"

const struct js_pct js_pcts[] = {
	{ 50.0, "p50_ns", "p50" },       { 90.0, "p90_ns", "p90" },
	{ 99.0, "p99_ns", "p99" },       { 99.9, "p999_ns", "p99.9" },
	{ 99.99, "p9999_ns", "p99.99" },
};
const size_t js_npcts = ARRAY_SIZE(js_pcts);

#define BAR_WIDTH 30

static void header(FILE *fp, const struct js_run *run)
{
	const struct js_machine *m = &run->machine;
	char buf[32];

	fprintf(fp, "jitterscope %s: %zu CPU%s, %s%s\n", JS_VERSION, run->ncpus,
		run->ncpus > 1 ? "s" : "", js_fmt_ns(buf, sizeof(buf), run->wall_ns),
		run->interrupted ? " (interrupted: partial report)" : "");
	fprintf(fp, "machine: %s, %s, %s%s\n", m->kernel, m->cpu_model,
		m->hypervisor ? "virtual machine" : "bare metal",
		m->invariant_tsc ? "" : ", TSC NOT INVARIANT");
	fprintf(fp, "time base: TSC %.6f GHz fitted to CLOCK_MONOTONIC over %zu pairs, "
		"residual max %.1f ns (rms %.1f ns)\n", run->fit.hz / 1e9, run->fit.npairs,
		run->fit.residual_max_ns, run->fit.residual_rms_ns);
	fprintf(fp, "threshold: %s", js_fmt_ns(buf, sizeof(buf), run->params->threshold_ns));
	if (run->probes_on)
		fprintf(fp, "; probes: on, %" PRIu64 " events, %" PRIu64 " lost\n",
			run->probe_events, run->probe_lost);
	else
		fprintf(fp, "; probes: off (%s): gaps are not attributed\n", run->probes_why);
	if (!run->smi_countable)
		fprintf(fp, "SMI: not countable (%s)\n", run->smi_why);
	if (run->clock.rdtscp.samples)
		fprintf(fp, "clock read cost (median/p99): rdtscp %.1f/%.1f ns, lfence;rdtsc "
			"%.1f/%.1f ns, clock_gettime %.1f/%.1f ns\n", run->clock.rdtscp.median_ns,
			run->clock.rdtscp.p99_ns, run->clock.lfence_rdtsc.median_ns,
			run->clock.lfence_rdtsc.p99_ns, run->clock.monotonic.median_ns,
			run->clock.monotonic.p99_ns);
}

static void percentiles(FILE *fp, const struct js_cpu_result *r)
{
	char buf[32];

	fprintf(fp, "  percentiles    ");
	for (size_t i = 0; i < js_npcts; i++)
		fprintf(fp, " %s %s ", js_pcts[i].label,
			js_fmt_ns(buf, sizeof(buf), (uint64_t)hist_value_at_percentile(&r->hist,
										js_pcts[i].p)));
	fprintf(fp, " max %s\n", js_fmt_ns(buf, sizeof(buf), (uint64_t)hist_max(&r->hist)));
}

/* 1-2-5 bucket bounds from 100 ns; the histogram's own slots are finer */
static uint64_t bucket_bound(int i)
{
	static const uint64_t m[3] = { 1, 2, 5 };
	uint64_t v = 100;

	for (int k = 0; k < i / 3; k++)
		v *= 10;
	return v * m[i % 3];
}

static void histogram(FILE *fp, const struct js_cpu_result *r)
{
	uint64_t counts[40], maxc = 0;
	int first = -1, last = -1, nb = 0;
	char lo[32], hi[32];

	for (int i = 0; i < 40 && bucket_bound(i) < (uint64_t)JS_HIST_HIGHEST_NS; i++) {
		counts[i] = hist_count_between(&r->hist, (int64_t)bucket_bound(i),
					       (int64_t)bucket_bound(i + 1));
		if (i == 0)
			counts[i] += hist_count_between(&r->hist, 0, (int64_t)bucket_bound(0));
		if (counts[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
		maxc = JS_MAX(maxc, counts[i]);
		nb = i + 1;
	}
	(void)nb;
	if (first < 0)
		return;
	fprintf(fp, "  histogram\n");
	for (int i = first; i <= last; i++) {
		int w = maxc ? (int)((counts[i] * BAR_WIDTH + maxc - 1) / maxc) : 0;

		fprintf(fp, "    %9s - %-9s %10" PRIu64 " |%-*.*s|\n",
			js_fmt_ns(lo, sizeof(lo), bucket_bound(i)),
			js_fmt_ns(hi, sizeof(hi), bucket_bound(i + 1)), counts[i], BAR_WIDTH, w,
			"##############################");
	}
}

static void causes_by_primary(FILE *fp, const struct js_cpu_result *r)
{
	char buf[32];

	if (!r->gap_count)
		return;
	fprintf(fp, "  gaps by primary cause\n");
	for (int c = 0; c < JS_CAUSE_MAX; c++) {
		if (!r->by_primary[c])
			continue;
		fprintf(fp, "    %-12s %10" PRIu64 " gaps %10s  %5.1f %% of lost time\n",
			js_cause_name(c), r->by_primary[c],
			js_fmt_ns(buf, sizeof(buf), r->ns_by_primary[c]),
			r->lost_ns ? 100.0 * r->ns_by_primary[c] / r->lost_ns : 0.0);
	}
}

static void worst(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	struct js_gap_rec recs[1000];
	unsigned n = result_top_sorted(r, recs);
	char line[1024];

	if (!n)
		return;
	fprintf(fp, "  worst %u gaps\n", n);
	for (unsigned i = 0; i < n; i++) {
		story_format(line, sizeof(line), &recs[i], run->start_mono_ns);
		fprintf(fp, "    %2u. %s\n", i + 1, line);
	}
}

static void arrivals(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	char a[32], b[32];

	for (size_t i = 0; i < r->narrivals; i++) {
		const struct js_arrival *ar = &r->arrivals[i];

		fprintf(fp, "  messages every %s: %" PRIu64 " arrivals, %" PRIu64 " delayed "
			"(%.3f %%)\n", js_fmt_ns(a, sizeof(a), ar->interval_ns), ar->arrivals,
			ar->delayed, ar->arrivals ? 100.0 * ar->delayed / ar->arrivals : 0.0);
		fprintf(fp, "    waited  ");
		for (size_t k = 0; k < js_npcts; k++)
			fprintf(fp, " %s %s ", js_pcts[k].label,
				js_fmt_ns(b, sizeof(b), (uint64_t)hist_value_at_percentile(
					&ar->delay, js_pcts[k].p)));
		fprintf(fp, " max %s\n", js_fmt_ns(b, sizeof(b), (uint64_t)hist_max(&ar->delay)));
		if (ar->delayed) {
			fprintf(fp, "    delayed by");
			for (int c = 0; c < JS_CAUSE_MAX; c++)
				if (ar->delayed_by_cause[c])
					fprintf(fp, " %s %.1f %%", js_cause_name(c),
						100.0 * ar->delayed_by_cause[c] / ar->delayed);
			fprintf(fp, "\n");
		}
		for (int k = 0; k < JS_BURST_SIZES && run->params->burst; k++) {
			double pois = arrival_burst_probability(&r->hist, r->end_ns - r->start_ns,
								ar->interval_ns, run->params->burst,
								js_burst_sizes_ns[k]);

			fprintf(fp, "    a burst of %" PRIu64 " meets a gap >= %s: %.4f observed, "
				"%.4f Poisson estimate\n", run->params->burst,
				js_fmt_ns(b, sizeof(b), js_burst_sizes_ns[k]), r->burst_p[i][k], pois);
		}
	}
}

static void intervals(FILE *fp, const struct js_cpu_result *r)
{
	const struct js_intervals *iv = &r->intervals;
	int64_t lo = INT64_MAX, hi = 0;
	size_t at = 0;
	char a[32], b[32], c[32];

	if (iv->n < 2)
		return;
	for (size_t i = 0; i < iv->n; i++) {
		lo = JS_MIN(lo, iv->v[i].max_ns);
		if (iv->v[i].max_ns > hi) {
			hi = iv->v[i].max_ns;
			at = i;
		}
	}
	fprintf(fp, "  per %s: worst gap ranged %s .. %s (worst in interval %zu of %zu)\n",
		js_fmt_ns(c, sizeof(c), iv->len_ns), js_fmt_ns(a, sizeof(a), (uint64_t)lo),
		js_fmt_ns(b, sizeof(b), (uint64_t)hi), at + 1, iv->n);
}

static void cpu_section(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	char a[32], b[32];
	double dur = (double)(r->end_ns - r->start_ns);

	fprintf(fp, "\nCPU %d (NUMA node %d)\n", r->cpu, r->node);
	fprintf(fp, "  measured        %s, %" PRIu64 " loops\n",
		js_fmt_ns(a, sizeof(a), r->end_ns - r->start_ns), r->iterations);
	fprintf(fp, "  loop period     min %.1f ns, median %.1f ns, mean %.1f ns "
		"(the detection floor)\n", r->loop_ns_min, r->loop_ns_median, r->loop_ns_mean);
	fprintf(fp, "  gaps            %" PRIu64 " above %s", r->gap_count,
		js_fmt_ns(a, sizeof(a), run->params->threshold_ns));
	if (r->dropped)
		fprintf(fp, " (+%" PRIu64 " LOST: sampler ring full)", r->dropped);
	fprintf(fp, "\n  time lost       %s (%.3f %%)\n", js_fmt_ns(b, sizeof(b), r->lost_ns),
		dur > 0 ? 100.0 * r->lost_ns / dur : 0.0);
	if (r->gap_count)
		percentiles(fp, r);
	histogram(fp, r);
	if (run->probes_on)
		causes_by_primary(fp, r);
	intervals(fp, r);
	arrivals(fp, run, r);
	worst(fp, run, r);
}

void report_text(FILE *fp, const struct js_run *run)
{
	header(fp, run);
	for (size_t i = 0; i < run->ncpus; i++)
		cpu_section(fp, run, &run->cpus[i]);
}
