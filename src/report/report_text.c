// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* report_text.c - the human report: summary, percentiles, histogram, worst gaps. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "js_audit.h"
#include "js_report.h"
#include "js_story.h"
#include "js_util.h"

#define BAR_WIDTH 30

/* probe_cost_line - what the probes themselves cost, from kernel bpf_stats */
static void probe_cost_line(FILE *fp, const struct js_run *run)
{
	char t[32], a[32];

	if (!run->probes_on)
		return;
	if (!run->probe_cost_known) {
		fprintf(fp, "probe cost: not measured (--probe-cost times the programs)\n");
		return;
	}
	fprintf(fp,
		"probe cost: %s of BPF run time over %s attached, every CPU (%.3f %% of one "
		"CPU); %.0f ns per event delivered (an upper bound: filtered runs on other CPUs "
		"count too)\n",
		js_fmt_ns(t, sizeof(t), run->probe_run_ns),
		js_fmt_ns(a, sizeof(a), run->probe_attached_ns),
		run->probe_attached_ns ?
			100.0 * (double)run->probe_run_ns / (double)run->probe_attached_ns :
			0.0,
		run->probe_events ? (double)run->probe_run_ns / (double)run->probe_events : 0.0);
}

/* exit_cost_line - in a guest: one VM exit's cost on each measured CPU (js_vmexit.h) */
static void exit_cost_line(FILE *fp, const struct js_run *run)
{
	const char *sep = "";

	for (size_t i = 0; i < run->ncpus; i++) {
		const struct js_exit_cost *x = &run->cpus[i].vm_exit;

		if (!x->samples)
			continue;
		if (!*sep)
			fprintf(fp, "VM exit cost (cpuid round trip, median/min):");
		fprintf(fp, "%s CPU %d %.2f/%.2f us", sep, run->cpus[i].cpu, x->median_ns / 1e3,
			x->min_ns / 1e3);
		sep = ",";
	}
	if (*sep)
		fputc('\n', fp);
}

/* what - what the run measured: "1 CPU", "process engine (pid 4242)", "threads 4243,4244",
 * "marks from spikes.csv", joined by " + " */
static const char *what(char *buf, size_t len, const struct js_run *run)
{
	size_t n = run_count(run, JS_SRC_SAMPLER), k = 0;
	const struct js_follow_info *f = &run->follow;

	buf[0] = '\0';
	if (n || (!f->on && !run->marks.on))
		k += (size_t)snprintf(buf, len, "%zu CPU%s", n, n == 1 ? "" : "s");
	if (f->on && f->pid && k < len)
		k += (size_t)snprintf(buf + k, len - k, "%sprocess %s (pid %d)", k ? " + " : "",
				      f->comm, f->pid);
	for (size_t i = 0; f->on && !f->pid && i < f->ntids && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d",
				      i ? "," :
				      k ? " + threads " :
					  "threads ",
				      f->tids[i]);
	if (run->marks.on && k < len)
		snprintf(buf + k, len - k, "%smarks from %s", k ? " + " : "", run->marks.path);
	return buf;
}

/* follow_lines - --pid/--tid: what a thread's gaps are, and what they cannot show */
static void follow_lines(FILE *fp, const struct js_run *run)
{
	const struct js_follow_info *f = &run->follow;
	char a[32];

	if (!f->on)
		return;
	fprintf(fp, "threads: %" PRIu64 " followed", f->threads_seen);
	if (f->exited)
		fprintf(fp, "; the %s exited after %s: the run ended there",
			f->pid ? "process" : "threads",
			js_fmt_ns(a, sizeof(a),
				  f->exit_ns > run->start_mono_ns ?
					  f->exit_ns - run->start_mono_ns :
					  0));
	if (f->threads_over)
		fprintf(fp, "; %" PRIu64 " beyond the first %d in \"(other threads)\"",
			f->threads_over, JS_THREADS_MAX);
	if (f->unwatched_gaps)
		fprintf(fp, "; %" PRIu64 " gaps on CPUs not watched (no causes)",
			f->unwatched_gaps);
	if (f->lost)
		fprintf(fp, "; %" PRIu64 " records LOST (follow ring full)", f->lost);
	fputc('\n', fp);
	fprintf(fp,
		"  a thread's gap: preempted (switched out while runnable, until back in), "
		"interrupted (IRQs, IPIs, timers, softirqs, NMIs while it ran: their handlers' "
		"traced time), blocked outside a system call (a page fault's I/O); its own sleeps "
		"and system calls are counted, not gaps\n");
	fprintf(fp,
		"  not seen: time taken while the thread is on its CPU and the kernel traces "
		"nothing (the host: steal and VM exits; SMIs; the interrupts' entry and exit): "
		"for that run the spinner on an idle CPU like it (--cpu N), or let the application "
		"mark its slow iterations (--marks FILE)\n");
}

/* marks_lines - --marks: what was read, and what could not be used */
static void marks_lines(FILE *fp, const struct js_run *run)
{
	const struct js_marks_info *m = &run->marks;

	if (!m->on)
		return;
	fprintf(fp, "marks: %" PRIu64 " from %s (%s, %" PRIu64 " lines)", m->marks, m->path,
		m->fifo ? "FIFO" : "file", m->lines);
	if (m->malformed)
		fprintf(fp, "; %" PRIu64 " malformed lines, not marks", m->malformed);
	if (m->late)
		fprintf(fp,
			"; %" PRIu64 " read after their events had left the window, which "
			"grows to twice the lateness it sees, up to %d s (their causes may be gone)",
			m->late, JS_MARKS_KEEP_S);
	if (m->early)
		fprintf(fp, "; %" PRIu64 " ended before the probes were attached (no causes)",
			m->early);
	if (m->truncated)
		fprintf(fp,
			"; the file was truncated %" PRIu64 " times (read again from its start)",
			m->truncated);
	fputc('\n', fp);
	for (size_t i = 0; i < m->nbad; i++)
		fprintf(fp, "  malformed line %" PRIu64 ": %s\n", m->bad[i].line, m->bad[i].why);
	if (m->marks)
		fprintf(fp, "  a mark's time that no event covers is unexplained: the "
			    "application's own work, or time the kernel does not trace\n");
}

/* spike_line - what the flight recorder wrote and skipped, and why */
static void spike_line(FILE *fp, const struct js_spike_stats *s)
{
	char t[32], t2[32];
	const char *sep = " (";

	if (!s->on)
		return;
	fprintf(fp,
		"flight recorder: %" PRIu64 " spike%s at or above %s, %" PRIu64
		" written to %s (%.1f KiB), %" PRIu64 " skipped",
		s->seen, s->seen == 1 ? "" : "s", js_fmt_ns(t, sizeof(t), s->threshold_ns),
		s->written, s->dir, s->bytes / 1024.0, js_spike_skipped(s));
	for (unsigned i = 0; i < JS_SPIKE_SKIP_MAX; i++)
		if (s->skipped[i]) {
			fprintf(fp, "%s%s %" PRIu64, sep, js_spike_skip_name(i), s->skipped[i]);
			sep = ", ";
		}
	fputs(*sep == ',' ? ")" : "", fp);
	if (s->replaced)
		fprintf(fp, ", %" PRIu64 " replaced by a new source or a longer spike",
			s->replaced);
	fputc('\n', fp);
	if (s->cmd.on)
		fprintf(fp,
			"on-spike command: %" PRIu64 " run%s, %" PRIu64 " failed, %" PRIu64
			" timed out (%s), %" PRIu64 " spike%s skipped while one ran; %s in all\n",
			s->cmd.runs, s->cmd.runs == 1 ? "" : "s", s->cmd.failed, s->cmd.timeouts,
			js_fmt_ns(t, sizeof(t), s->cmd.timeout_ns), s->cmd.skipped_busy,
			s->cmd.skipped_busy == 1 ? "" : "s",
			js_fmt_ns(t2, sizeof(t2), s->cmd.run_ns));
}

/* clock_cost_line - what each clock read costs; rdtscp "not run" where the CPU lacks it */
static void clock_cost_line(FILE *fp, const struct js_clockcost *c)
{
	char rdtscp[48] = "not run";

	if (c->isb_cntvct.samples) { /* arm64 */
		fprintf(fp,
			"clock read cost (median/p99): isb;cntvct_el0 %.1f/%.1f ns, "
			"clock_gettime %.1f/%.1f ns\n",
			c->isb_cntvct.median_ns, c->isb_cntvct.p99_ns, c->monotonic.median_ns,
			c->monotonic.p99_ns);
		return;
	}
	if (!c->lfence_rdtsc.samples)
		return; /* not measured */
	if (c->rdtscp.samples)
		snprintf(rdtscp, sizeof(rdtscp), "%.1f/%.1f ns", c->rdtscp.median_ns,
			 c->rdtscp.p99_ns);
	fprintf(fp,
		"clock read cost (median/p99): rdtscp %s, lfence;rdtsc %.1f/%.1f ns, "
		"clock_gettime %.1f/%.1f ns\n",
		rdtscp, c->lfence_rdtsc.median_ns, c->lfence_rdtsc.p99_ns, c->monotonic.median_ns,
		c->monotonic.p99_ns);
}

/* answer - the lines under the title: what was lost, to what, what is outside, what to fix
 * first (answer.c), then a blank line before the details */
static void answer(FILE *fp, const struct js_run *run)
{
	char lines[JS_ANSWER_LINES][JS_ANSWER_LINE_LEN], label[32];
	struct js_answer ans;

	report_answer(run, &ans);
	report_answer_lines(run, &ans, lines);
	for (int i = 0; i < JS_ANSWER_LINES; i++) {
		if (!lines[i][0])
			continue;
		snprintf(label, sizeof(label), "%s:", report_answer_label(i));
		fprintf(fp, i ? "  %-11s%s\n" : "%-13s%s\n", label, lines[i]);
	}
	fputc('\n', fp);
}

static void header(FILE *fp, const struct js_run *run)
{
	const struct js_machine *m = &run->machine;
	char buf[32], thr[320], w[512], rd[48];

	fprintf(fp, "jitterscope %s: %s, %s", JS_VERSION, what(w, sizeof(w), run),
		js_fmt_ns(buf, sizeof(buf), run->wall_ns));
	if (run->interrupted)
		fprintf(fp, " (interrupted: %s%spartial report)", run->stop_why,
			run->stop_why[0] ? "; " : "");
	fputc('\n', fp);
	answer(fp, run);
	fprintf(fp, "machine: %s, %s, %s%s\n", m->kernel, m->cpu_model,
		m->hypervisor ? "virtual machine" : "bare metal",
		m->invariant_tsc ? "" : ", TSC NOT INVARIANT");
	if (m->counter_step) /* arm64: the counter's stated frequency and its step */
		fprintf(fp,
			"time base: %s read with %s, %.6f GHz (stated %.6f GHz, step %" PRIu64
			" = %.1f ns: the shortest gap it can see) fitted to CLOCK_MONOTONIC over %zu "
			"pairs, residual max %.1f ns (rms %.1f ns)\n",
			m->counter_name,
			tsc_read_describe(rd, sizeof(rd), run->cfg.tsc_read, run->cfg.clock),
			run->fit.hz / 1e9, m->counter_nominal_hz / 1e9, m->counter_step,
			run->fit.hz > 0 ? m->counter_step * 1e9 / run->fit.hz : 0, run->fit.npairs,
			run->fit.residual_max_ns, run->fit.residual_rms_ns);
	else
		fprintf(fp,
			"time base: TSC read with %s, %.6f GHz fitted to CLOCK_MONOTONIC over %zu "
			"pairs, residual max %.1f ns (rms %.1f ns)\n",
			tsc_read_describe(rd, sizeof(rd), run->cfg.tsc_read, run->cfg.clock),
			run->fit.hz / 1e9, run->fit.npairs, run->fit.residual_max_ns,
			run->fit.residual_rms_ns);
	fprintf(fp, "threshold: %s",
		thr_describe(thr, sizeof(thr), run->cfg.threshold_ns, run->cfg.threshold_auto,
			     &run->cfg.thr_auto));
	if (run->probes_on) {
		fprintf(fp, "; probes: on, %" PRIu64 " events, %" PRIu64 " lost", run->probe_events,
			run->probe_lost);
		if (run->probe_evicted)
			fprintf(fp, ", %" PRIu64 " evicted before their gap", run->probe_evicted);
		if (run->probe_shed)
			fprintf(fp, " (%" PRIu64 " of them other tasks' page faults)",
				run->probe_shed);
		if (run->probe_unseen)
			fprintf(fp, ", %" PRIu64 " switches untraced (the kernel's)",
				run->probe_unseen);
		fputc('\n', fp);
	} else {
		fprintf(fp, "; probes: off (%s): gaps are not attributed\n", run->probes_why);
	}
	if (run->probes_on && run->cfg.probes_lean)
		fprintf(fp, "probe set: lean (%s)\n", probe_set_leaves_out(true));
	probe_cost_line(fp, run);
	follow_lines(fp, run);
	marks_lines(fp, run);
	spike_line(fp, &run->spikes);
	if (!run->smi_countable)
		fprintf(fp, "SMI: not countable (%s)\n", run->smi_why);
	exit_cost_line(fp, run);
	clock_cost_line(fp, &run->clock);
}

static void percentiles(FILE *fp, const struct js_cpu_result *r)
{
	char buf[32];

	fprintf(fp, "  percentiles    ");
	for (size_t i = 0; i < js_npcts; i++)
		fprintf(fp, " %s %s ", js_pcts[i].label,
			js_fmt_ns(buf, sizeof(buf),
				  (uint64_t)hist_value_at_percentile(&r->hist, js_pcts[i].p)));
	fprintf(fp, " max %s\n", js_fmt_ns(buf, sizeof(buf), (uint64_t)hist_max(&r->hist)));
}

/* histogram - 1-2-5 buckets, each bar split by primary cause (letters in the legend) */
static void histogram(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	const struct js_cause_buckets *b = &r->cb;
	uint64_t maxc = 0;
	int first = -1, last = -1;
	char lo[32], hi[32], bar[JS_CB_BUCKETS][BAR_WIDTH + 1];
	bool used[JS_CAUSE_MAX] = { false }, rounded = false;

	for (int i = 0; i < JS_CB_BUCKETS; i++) {
		if (!b->total[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		maxc = JS_MAX(maxc, b->total[i]);
	}
	if (first < 0)
		return;
	for (int i = first; i <= last; i++) {
		int w = (int)((b->total[i] * BAR_WIDTH + maxc - 1) / maxc), k = 0;

		/* each cause gets its share of the bar, drawn with its letter */
		for (int c = 0; c < JS_CAUSE_MAX && k < w; c++) {
			int cw = (int)((b->count[i][c] * (uint64_t)w + b->total[i] / 2) /
				       b->total[i]);

			used[c] |= cw > 0 && run->probes_on;
			for (int x = 0; x < cw && k < w; x++)
				bar[i][k++] = run->probes_on ? js_cause_info(c)->letter : '#';
		}
		rounded |= k < w && run->probes_on;
		while (k < w)
			bar[i][k++] = run->probes_on ? '?' : '#';
		bar[i][k] = 0;
	}
	fprintf(fp, "  histogram%s\n",
		run->probes_on ? " (bar letters: primary cause, shares of each bucket's gaps)" :
				 "");
	if (run->probes_on) {
		const char *sep = "    legend: ";

		for (int c = 0; c < JS_CAUSE_MAX; c++)
			if (used[c]) {
				fprintf(fp, "%s%c %s", sep, js_cause_info(c)->letter,
					js_cause_name(c));
				sep = ", ";
			}
		if (rounded)
			fprintf(fp, "%s? rounding (shares too small to draw)", sep);
		if (*sep == ',')
			fputc('\n', fp);
	}
	for (int i = first; i <= last; i++) {
		fprintf(fp, "    %9s - %-9s %10" PRIu64 " |%-*s|",
			js_fmt_ns(lo, sizeof(lo), cbuckets_lo(i)),
			i == JS_CB_BUCKETS - 1 ? "" : js_fmt_ns(hi, sizeof(hi), cbuckets_hi(i)),
			b->total[i], BAR_WIDTH, bar[i]);
		for (int c = 0; c < JS_CAUSE_MAX && run->probes_on; c++)
			if (b->count[i][c])
				fprintf(fp, " %s %.0f%%", js_cause_name(c),
					100.0 * b->count[i][c] / b->total[i]);
		fputc('\n', fp);
	}
}

/* band_name - "2.0-5.0 us", "< 2.0 us", ">= 1.0 ms": duration band i of the periodicity */
static const char *band_name(char *buf, size_t len, int i)
{
	char a[32], b[32];

	if (!i)
		snprintf(buf, len, "< %s", js_fmt_ns(b, sizeof(b), period_band_hi(0)));
	else if (i == JS_PERIOD_BANDS - 1)
		snprintf(buf, len, ">= %s", js_fmt_ns(a, sizeof(a), js_period_band_ns[i]));
	else
		snprintf(buf, len, "%s-%s", js_fmt_ns(a, sizeof(a), js_period_band_ns[i]),
			 js_fmt_ns(b, sizeof(b), period_band_hi(i)));
	return buf;
}

/*
 * unexplained_evidence - what is left to say about gaps no event explains: the
 * periodicity of the longest tenth (js_period.h), then which duration bands are periodic
 * and which are not
 */
static void unexplained_evidence(FILE *fp, const struct js_cpu_result *r)
{
	const struct js_period_classes *pc = &r->period;
	struct js_period_result pr;
	uint64_t n = r->causes.by_primary[JS_CAUSE_UNEXPLAINED];
	uint64_t hp = r->causes.by_primary[JS_CAUSE_HOST_PERIODIC];
	int h = period_classes_headline(pc);
	char a[32], b[32], c[40];
	const char *sep = "";

	if (!n && !hp)
		return;
	fprintf(fp, "    unexplained gaps (primary: no event in the gap): %" PRIu64, n);
	/* the detector saw them too: the periodic ones it found are the host's */
	if (hp)
		fprintf(fp, " (and %" PRIu64 " named %s)", hp,
			js_cause_name(JS_CAUSE_HOST_PERIODIC));
	/* the gaps without an event that steal took most of are the rest of "no guest event" */
	for (uint32_t i = 0; i < r->causes.nsrc; i++) {
		const struct js_cause_src *s = &r->causes.src[i];

		if (s->cause == JS_CAUSE_UNEXPLAINED && !strcmp(s->detail, CAUSES_NOEVENT_DETAIL) &&
		    s->gaps > n)
			fprintf(fp,
				" (the other %" PRIu64 " of the %" PRIu64 " \"%s\" gaps: steal)",
				s->gaps - n, s->gaps, CAUSES_NOEVENT_DETAIL);
	}
	fputs("; ", fp);
	if (h)
		fprintf(fp, ">= %s (%" PRIu64 ", the longest %.0f %%): ",
			js_fmt_ns(a, sizeof(a), js_period_band_ns[h]), pc->ge[h].n,
			pc->ge[0].n ? 100.0 * pc->ge[h].n / pc->ge[0].n : 0.0);
	if (period_result(&pc->ge[h], &pr) && pr.phase_ns >= 0)
		fprintf(fp, "periodic at %s (phase %s, coherence %.2f)\n",
			js_fmt_ns(a, sizeof(a), pr.period_ns),
			js_fmt_ns(b, sizeof(b), (uint64_t)(pr.phase_ns + 0.5)), pr.strength);
	else if (pr.periodic) /* a file written before the phase was */
		fprintf(fp, "periodic at %s (coherence %.2f)\n",
			js_fmt_ns(a, sizeof(a), pr.period_ns), pr.strength);
	else
		fprintf(fp, "no periodicity found\n");
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < JS_PERIOD_BANDS; i++) {
			bool per = period_result(&pc->band[i], &pr);

			if (!pc->band[i].n || per != !pass)
				continue;
			if (!*sep)
				fprintf(fp, "      %s",
					pass ? "not periodic:" : "periodic by duration:");
			fprintf(fp, "%s %s", sep, band_name(c, sizeof(c), i));
			if (per)
				fprintf(fp, " at %s (%.2f)", js_fmt_ns(a, sizeof(a), pr.period_ns),
					pr.strength);
			sep = ",";
		}
		if (*sep)
			fprintf(fp, "\n");
		sep = "";
	}
}

/* entry_col - the cause table's entry/exit column: "" when there is none */
static const char *entry_col(char *buf, size_t len, uint64_t ns)
{
	char t[32];

	if (!ns)
		return "";
	snprintf(buf, len, " %10s", js_fmt_ns(t, sizeof(t), ns));
	return buf;
}

/*
 * entry_evidence - per interruption kind: its entry/exit per interrupt (the median of its
 * lone gaps' remainders, js_entry.h), in a guest in VM exits of the cost measured on the
 * CPU, the bound the rule gave it, and what it was given
 */
static void entry_evidence(FILE *fp, const struct js_cpu_result *r)
{
	const struct js_entry *m = &r->entry;
	double x = r->vm_exit.samples ? r->vm_exit.median_ns : 0;
	char a[32], b[32], c[32];
	bool any = false;

	for (int k = 0; k < ENTRY_KINDS; k++) {
		const struct js_entry_kind *e = &m->k[k];

		if (!e->entries)
			continue;
		if (!any)
			fprintf(fp,
				"    entry/exit (the interruption's time outside its tracepoints; "
				"bound: p%d of its lone gaps' remainder)\n",
				ENTRY_PCT);
		any = true;
		fprintf(fp, "      %-7s", entry_kind_name(k));
		if (e->lone)
			fprintf(fp, " %s per interrupt", js_fmt_ns(a, sizeof(a), e->median_ns));
		if (e->lone && x > 0)
			fprintf(fp, " (about %.1f exits of %s here)", (double)e->median_ns / x,
				js_fmt_ns(b, sizeof(b), (uint64_t)(x + 0.5)));
		if (e->lone >= ENTRY_MIN_LONE && e->floor_ns)
			fprintf(fp, ", floor %s", js_fmt_ns(a, sizeof(a), e->floor_ns));
		fprintf(fp, "%s bound %s%s", e->lone ? "," : "",
			js_fmt_ns(a, sizeof(a), entry_bound(m, k)),
			e->lone >= ENTRY_MIN_LONE ? "" : " (the prior)");
		if (e->lone >= ENTRY_MIN_LONE && e->bound_ns > entry_cap(m, k))
			fprintf(fp, " (capped: p%d %s; at most %s, or %d floors)", ENTRY_PCT,
				js_fmt_ns(b, sizeof(b), e->bound_ns),
				js_fmt_ns(c, sizeof(c), m->cap_ns), ENTRY_FLOOR_MULT);
		fprintf(fp, ", %" PRIu64 " interrupts given %s\n", e->entries,
			js_fmt_ns(c, sizeof(c), e->entry_ns));
	}
}

/* src_name - "task kworker/1:6:4661", "hrtimer tick_nohz_handler": the class, then the
 * detail unless the detail starts with the class's name already */
static void src_name(char *buf, size_t len, const struct js_cause_src *s)
{
	const char *cls = js_cause_name(s->cause);
	size_t n = strlen(cls);

	if (!strncmp(s->detail, cls, n) && s->detail[n] == ' ')
		snprintf(buf, len, "%s", s->detail);
	else
		snprintf(buf, len, "%s %s", cls, s->detail);
}

/* cause_table - per class and per source (or, --by cgroup, per class and cgroup): count,
 * time lost, share, max */
static void cause_table(FILE *fp, const struct js_cpu_result *r, enum js_by by)
{
	const struct js_causes *top = by == JS_BY_CGROUP ? &r->by_cgroup : &r->causes;
	const struct js_cause_src *src[JS_CAUSES_SRC_MAX];
	size_t n = causes_sorted(top, src, JS_CAUSES_SRC_MAX);
	char a[32], b[32], e[40];
	bool noevent = false, unknown = false;

	if (!r->gap_count)
		return;
	fprintf(fp, "  causes                                     in gaps   primary     time lost"
		    "  share        max  of which entry/exit\n");
	for (int c = 0; c < JS_CAUSE_MAX; c++) {
		const struct js_cause_class *cl = causes_class(&r->causes, (uint32_t)c);

		if (!cl || !cl->gaps)
			continue;
		fprintf(fp, "    %-40s %9" PRIu64 " %9" PRIu64 " %13s %5.1f%% %10s%s\n",
			js_cause_name(c), cl->gaps, r->causes.by_primary[c],
			js_fmt_ns(a, sizeof(a), cl->total_ns),
			100.0 * causes_share(&r->causes, cl->total_ns),
			js_fmt_ns(b, sizeof(b), cl->max_ns), entry_col(e, sizeof(e), cl->entry_ns));
	}
	fprintf(fp,
		"    (in gaps: the gaps a class took part in, several classes a gap; primary: "
		"the gaps it took most of, %" PRIu64 " in all)\n",
		r->causes.ngaps);
	unexplained_evidence(fp, r);
	entry_evidence(fp, r);
	if (by == JS_BY_CGROUP)
		fprintf(fp, "  top cgroups (the sources naming a task, per class and cgroup)%s\n",
			n ? "" : ": none named");
	else
		fprintf(fp, "  top sources\n");
	for (size_t i = 0; i < n && i < 15; i++) {
		char name[80];

		src_name(name, sizeof(name), src[i]);
		noevent |= src[i]->cause == JS_CAUSE_UNEXPLAINED;
		unknown |= src[i]->cause == JS_CAUSE_UNEXPLAINED &&
			   !strcmp(src[i]->detail, CAUSES_UNKNOWN_DETAIL);
		fprintf(fp, "    %-40.40s %9" PRIu64 " %9s %13s %5.1f%% %10s%s\n", name,
			src[i]->gaps, "", js_fmt_ns(a, sizeof(a), src[i]->total_ns),
			100.0 * causes_share(top, src[i]->total_ns),
			js_fmt_ns(b, sizeof(b), src[i]->max_ns),
			entry_col(e, sizeof(e), src[i]->entry_ns));
	}
	if (noevent && by != JS_BY_CGROUP)
		fprintf(fp,
			"    (unexplained \"%s\": gaps in which no probe saw an event; \"%s\": the "
			"time of gaps with events that no event's window covers)\n",
			CAUSES_NOEVENT_DETAIL, CAUSES_RESIDUAL_DETAIL);
	if (unknown && by != JS_BY_CGROUP)
		fprintf(fp,
			"    (unexplained \"%s\": gaps whose events the probes' rings lost or "
			"the window evicted before the gap was attributed: not known)\n",
			CAUSES_UNKNOWN_DETAIL);
}

/* worst - the worst gaps' stories, largest first (a sorted copy on the heap: up to 1000
 * records of a few KiB each do not belong on the stack) */
static void worst(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	struct js_gap_rec *recs = NULL;
	char line[1024], stacks[STORY_STACKS_LEN];
	unsigned n;

	if (!r->top.n)
		goto out;
	recs = malloc(r->top.n * sizeof(*recs));
	if (!recs) {
		fprintf(fp, "  worst %zu gaps: not listed (out of memory)\n", r->top.n);
		goto out;
	}
	n = result_top_sorted(r, recs);
	fprintf(fp, "  worst %u gaps\n", n);
	for (unsigned i = 0; i < n; i++) {
		story_format(line, sizeof(line), &recs[i], run->start_mono_ns);
		fprintf(fp, "    %2u. %s\n", i + 1, line);
		if (story_format_stacks(stacks, sizeof(stacks), &recs[i], &run->stacks,
					"        ") > 0)
			fputs(stacks, fp);
	}
out:
	free(recs);
}

static void arrivals(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	char a[32], b[32];

	for (size_t i = 0; i < r->narrivals; i++) {
		const struct js_arrival *ar = &r->arrivals[i];

		fprintf(fp,
			"  messages every %s: %" PRIu64 " arrivals, %" PRIu64 " delayed "
			"(%.3f %%)\n",
			js_fmt_ns(a, sizeof(a), ar->interval_ns), ar->arrivals, ar->delayed,
			ar->arrivals ? 100.0 * ar->delayed / ar->arrivals : 0.0);
		fprintf(fp, "    waited  ");
		for (size_t k = 0; k < js_npcts; k++)
			fprintf(fp, " %s %s ", js_pcts[k].label,
				js_fmt_ns(b, sizeof(b),
					  (uint64_t)hist_value_at_percentile(&ar->delay,
									     js_pcts[k].p)));
		fprintf(fp, " max %s\n", js_fmt_ns(b, sizeof(b), (uint64_t)hist_max(&ar->delay)));
		if (ar->delayed) {
			fprintf(fp, "    delayed by");
			for (int c = 0; c < JS_CAUSE_MAX; c++)
				if (ar->delayed_by_cause[c])
					fprintf(fp, " %s %.1f %%", js_cause_name(c),
						100.0 * ar->delayed_by_cause[c] / ar->delayed);
			fprintf(fp, "\n");
		}
		for (int k = 0; k < JS_BURST_SIZES && run->cfg.burst; k++) {
			double pois = arrival_burst_probability(&r->hist, r->end_ns - r->start_ns,
								ar->interval_ns, run->cfg.burst,
								js_burst_sizes_ns[k]);

			fprintf(fp,
				"    a burst of %" PRIu64 " meets a gap >= %s: %.4f observed, "
				"%.4f Poisson estimate\n",
				run->cfg.burst, js_fmt_ns(b, sizeof(b), js_burst_sizes_ns[k]),
				r->burst_p[i][k], pois);
		}
	}
}

#define INTERVALS_LAST 3 /* the last intervals whose worst gap's story is shown */

/* intervals - the range of the intervals' worst gaps, then the story of the worst one and
 * of the last INTERVALS_LAST (a run without end: what happened lately) */
static void intervals(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	const struct js_intervals *iv = &r->intervals;
	int64_t lo = INT64_MAX, hi = 0;
	size_t at = 0;
	char a[32], b[32], c[32], line[256];

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
	for (size_t i = 0; i < iv->n; i++) {
		const struct js_interval_worst *w = &iv->v[i].worst;

		if (!w->dur_ns || (i != at && i + INTERVALS_LAST < iv->n))
			continue;
		story_format_brief(line, sizeof(line), w->start_ns, w->dur_ns, w->cause, w->detail,
				   run->start_mono_ns);
		fprintf(fp, "    interval %zu: %s\n", i + 1, line);
	}
}

/* ran_on - "1", "0,1": the CPUs (0-63) of mask */
static const char *ran_on(char *buf, size_t len, uint64_t mask)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int c = 0; c < 64 && k < len; c++)
		if (mask >> c & 1)
			k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", c);
	return buf;
}

/* thread_lines - a followed thread's own activity, and the gaps too short to record */
static void thread_lines(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	const struct js_thread_stats *t = &r->ts;
	char a[32], b[32], c[32], cpus[200];

	fprintf(fp, "  ran on CPU      %s%s\n", ran_on(cpus, sizeof(cpus), t->cpus_mask),
		t->exited ? " (exited during the run)" : "");
	if (t->syscalls_traced)
		fprintf(fp, "  its own         %" PRIu64 " system calls (%s inside), ", t->syscalls,
			js_fmt_ns(a, sizeof(a), t->syscall_ns));
	else
		fputs("  its own         system calls not traced (--follow-syscalls), ", fp);
	fprintf(fp,
		"%" PRIu64 " sleeps in them (%s), %" PRIu64 " yields, %" PRIu64
		" page faults, %" PRIu64 " migrations\n",
		t->sleeps, js_fmt_ns(b, sizeof(b), t->sleep_ns), t->yields, t->faults,
		t->migrations);
	if (t->unseen_switches)
		fprintf(fp,
			"  untraced        %" PRIu64 " of its switches never reached the probes "
			"(the kernel's): its figures may miss as many sleeps' times and gaps\n",
			t->unseen_switches);
	fprintf(fp,
		"  its own kernel  %" PRIu64 " softirqs it ran itself (%s): bottom halves its own "
		"code enabled, not gaps\n",
		t->own_bh, js_fmt_ns(a, sizeof(a), t->own_bh_ns));
	fprintf(fp,
		"  kept from it    preempted %" PRIu64 " times (%s), interrupted %" PRIu64
		" (%s), blocked %" PRIu64 " (%s)",
		t->preempted, js_fmt_ns(a, sizeof(a), t->preempted_ns), t->interrupted,
		js_fmt_ns(b, sizeof(b), t->interrupted_ns), t->blocked,
		js_fmt_ns(c, sizeof(c), t->blocked_ns));
	if (t->short_gaps)
		fprintf(fp, "; %" PRIu64 " of these below %s (%s): counted, not recorded",
			t->short_gaps, js_fmt_ns(a, sizeof(a), run->cfg.threshold_ns),
			js_fmt_ns(b, sizeof(b), t->short_ns));
	fputc('\n', fp);
}

/* steal_line - the steal allocated to the gaps, or why there is none to show */
static void steal_line(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	const char *none = result_no_steal(run, r);
	char b[32];

	if (none)
		fprintf(fp, "  steal           %s\n", none);
	else
		fprintf(fp, "  steal           %s allocated to gaps\n",
			js_fmt_ns(b, sizeof(b), r->steal_ns));
}

static void cpu_section(FILE *fp, const struct js_run *run, const struct js_cpu_result *r)
{
	char a[32], b[32], label[JS_LABEL_LEN + 16];
	double dur = (double)(r->end_ns - r->start_ns);

	fprintf(fp, "\n%s", result_label(r, label, sizeof(label)));
	if (r->source == JS_SRC_SAMPLER)
		fprintf(fp, " (NUMA node %d)", r->node);
	fputc('\n', fp);
	fprintf(fp, "  measured        %s", js_fmt_ns(a, sizeof(a), r->end_ns - r->start_ns));
	if (r->source == JS_SRC_SAMPLER) {
		fprintf(fp, ", %" PRIu64 " loops\n", r->iterations);
		/* two passes, two loops: the mean is the measuring loop's (the window less the
		 * gaps, over its loops), min and median the calibration loop's before it,
		 * which also stores each period and can be slower than the mean */
		fprintf(fp,
			"  loop period     mean %.1f ns while measuring (the detection floor); "
			"calibration pass: min %.1f ns, median %.1f ns%s\n",
			r->loop_ns_mean, r->loop_ns_min, r->loop_ns_median,
			r->loop_ns_mean && r->loop_ns_mean < r->loop_ns_min ?
				" (a slower loop: it also stores each period)" :
				"");
	} else {
		fputc('\n', fp);
	}
	if (r->source == JS_SRC_THREAD)
		thread_lines(fp, run, r);
	if (r->source == JS_SRC_MARK)
		fprintf(fp, "  marks           %" PRIu64, r->gap_count);
	else
		fprintf(fp, "  gaps            %" PRIu64 " above %s", r->gap_count,
			js_fmt_ns(a, sizeof(a), run->cfg.threshold_ns));
	if (r->dropped)
		fprintf(fp, " (+%" PRIu64 " LOST: sampler ring full)", r->dropped);
	/* a mark's duration holds the application's own work too: not all of it was lost */
	fprintf(fp, "\n  %-15s %s (%.3f %%)\n", r->source == JS_SRC_MARK ? "in marks" : "time lost",
		js_fmt_ns(b, sizeof(b), r->lost_ns), dur > 0 ? 100.0 * r->lost_ns / dur : 0.0);
	if (run->smi_countable && r->source != JS_SRC_THREAD)
		fprintf(fp, "  SMIs            %" PRIu64 " during the run%s\n", r->smi,
			run->machine.hypervisor ? " (in a VM the counter is emulated: host SMIs "
						  "are invisible)" :
						  "");
	if (run->probes_on)
		steal_line(fp, run, r);
	if (r->gap_count)
		percentiles(fp, r);
	histogram(fp, run, r);
	if (run->probes_on)
		cause_table(fp, r, run->cfg.by);
	intervals(fp, run, r);
	arrivals(fp, run, r);
	worst(fp, run, r);
}

/* isolation - the audit's problems, what moved during the run, and what it explains */
static void isolation(FILE *fp, const struct js_run *run)
{
	if (!run->audited)
		return;
	fprintf(fp, "\nIsolation audit (problems only; `jitterscope check` shows every check)\n");
	audit_print_text(fp, &run->audit, true);
	if (run->have_deltas) {
		fprintf(fp, "\nInterrupts and softirqs on the measured CPUs during the run\n");
		audit_deltas_print_text(fp, &run->deltas);
	}
	if (run->nxcheck) {
		fprintf(fp, "\nWhat the settings explain\n");
		for (size_t i = 0; i < run->nxcheck; i++)
			fprintf(fp, "  - %s\n", run->xcheck[i]);
	}
}

void report_text(FILE *fp, const struct js_run *run)
{
	header(fp, run);
	for (size_t i = 0; i < run->ncpus; i++)
		cpu_section(fp, run, &run->cpus[i]);
	isolation(fp, run);
}
