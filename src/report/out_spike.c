// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_spike.c - --spike-dir DIR --spike-threshold TIME: the flight recorder. Each gap at or
 * above the threshold becomes, once the events JS_SPIKE_WINDOW_NS after it were read, two
 * files in DIR, each written to a hidden temporary name and renamed (a reader never sees
 * half a file; the trace first, so a spike's JSON names a trace that is there):
 *   spike-20261129T175423.123456Z-cpu1.json        the gap, its story and causes, every
 *                                                  probe event of its CPU in the window,
 *                                                  the settings that explain its causes
 *   spike-20261129T175423.123456Z-cpu1.trace.json  a --trace file of the window
 * Bounded: the events in a ring per CPU (js_spike.h), the spikes waiting for their window,
 * the rate (--spike-max, --spike-per-source of one source: js_spike.h's spike_keep, which
 * never replaces a spike an --on-spike command was handed) and the size of
 * DIR (--spike-dir-max). A failed write stops the recorder, never the measurement
 * (docs/OUTPUTS.md). Runs on the housekeeping thread.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "js_audit.h"
#include "js_event_names.h"
#include "js_json.h"
#include "js_json_gap.h"
#include "js_output.h"
#include "js_params.h"
#include "js_result.h"
#include "js_spike.h"
#include "js_spike_cmd.h"
#include "js_story.h"
#include "js_util.h"

#define SPIKE_PEND_MAX 64		   /* spikes waiting for the events after them */
#define SPIKE_XCHECK_MAX 16		   /* settings lines per spike */
#define JS_SPIKE_CMD_STOP_NS 1000000000ull /* an --on-spike command's grace after Ctrl-C */

struct spike_out {
	char dir[PATH_MAX];
	uint64_t window_ns;
	struct js_spike_stats st;
	struct spike_keep keep; /* the spikes of the rate window (--spike-max, -per-source) */
	uint64_t next_id;
	struct spike_cap cap;
	struct spike_ring *rings; /* per measured CPU, as run->cpus */
	int *cpus;
	size_t ncpus;
	struct js_event *scratch; /* one window's events */
	struct js_gap_rec pend[SPIKE_PEND_MAX];
	uint64_t pend_id[SPIKE_PEND_MAX]; /* their ids in keep */
	size_t npend;
	const struct js_run *run;
	int err;	       /* a write failed: the recorder stopped (-errno) */
	char absdir[PATH_MAX]; /* DIR, absolute: the --on-spike command's JS_SPIKE_FILE */
	struct spike_cmd cmd;  /* --on-spike; cmd.cmd NULL: none */
	char handed[96];       /* the spike the last command was handed */
};

static struct spike_ring *ring_of(struct spike_out *s, uint32_t cpu)
{
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i] == (int)cpu)
			return &s->rings[i];
	return NULL;
}

/* dir_used - the size of the spike files DIR holds already (an earlier run's count
 * against the cap); temporary files a killed run left are removed */
static uint64_t dir_used(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t sum = 0;
	struct stat st;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (!strncmp(e->d_name, ".spike-", 7) && n > 4 &&
		    !strcmp(e->d_name + n - 4, ".tmp"))
			unlinkat(dirfd(d), e->d_name, 0);
		else if (!strncmp(e->d_name, "spike-", 6) && n > 5 &&
			 !strcmp(e->d_name + n - 5, ".json") &&
			 !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
			 S_ISREG(st.st_mode))
			sum += (uint64_t)st.st_size;
	}
	if (d)
		closedir(d);
	return sum;
}

/* rings_new - a ring per measured CPU and the scratch of one window, allocated and touched
 * before the run (before the pipeline sizes its heap: memory stays flat); -ENOMEM */
static int rings_new(struct spike_out *s, const int *cpus, size_t n)
{
	s->rings = calloc(n ? n : 1, sizeof(*s->rings));
	s->cpus = calloc(n ? n : 1, sizeof(*s->cpus));
	s->scratch = calloc(JS_SPIKE_RING_EVENTS, sizeof(*s->scratch));
	if (!s->rings || !s->cpus || !s->scratch)
		return -ENOMEM;
	memset(s->scratch, 0, JS_SPIKE_RING_EVENTS * sizeof(*s->scratch));
	for (; s->ncpus < n; s->ncpus++) {
		s->cpus[s->ncpus] = cpus[s->ncpus];
		if (spike_ring_init(&s->rings[s->ncpus], JS_SPIKE_RING_EVENTS))
			return -ENOMEM;
	}
	return 0;
}

static void spike_run_start(void *ctx, const struct js_run *run)
{
	struct spike_out *s = ctx;

	s->run = run;
}

static void spike_on_event(void *ctx, const struct js_event *ev)
{
	struct spike_out *s = ctx;
	struct spike_ring *r = ring_of(s, ev->cpu);

	if (r)
		spike_ring_push(r, ev);
}

/* spike_file_path - DIR/NAME SUFFIX */
static void spike_file_path(char *buf, size_t len, const struct spike_out *s, const char *name,
			    const char *suffix)
{
	snprintf(buf, len, "%s/%s%s", s->dir, name, suffix);
}

/* drop_victim - a kept spike another replaced: a pending one is not written (skipped,
 * rate: it lost its place in the window before its files were written); a written one's
 * files are removed (replaced) */
static void drop_victim(struct spike_out *s, const struct spike_keep_rec *v)
{
	char path[PATH_MAX + 128];

	for (size_t i = 0; i < s->npend; i++)
		if (s->pend_id[i] == v->id) {
			memmove(&s->pend[i], &s->pend[i + 1],
				(s->npend - i - 1) * sizeof(*s->pend));
			memmove(&s->pend_id[i], &s->pend_id[i + 1],
				(s->npend - i - 1) * sizeof(*s->pend_id));
			s->npend--;
			s->st.skipped[JS_SPIKE_SKIP_RATE]++;
			return;
		}
	if (!v->name[0])
		return;
	spike_file_path(path, sizeof(path), s, v->name, ".json");
	unlink(path);
	spike_file_path(path, sizeof(path), s, v->name, ".trace.json");
	unlink(path);
	spike_cap_give(&s->cap, v->bytes);
	s->st.bytes -= JS_MIN(s->st.bytes, v->bytes);
	s->st.replaced++;
}

static void spike_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			 size_t nev)
{
	struct spike_out *s = ctx;
	struct spike_keep_rec victim;
	enum spike_keep_verdict v;
	struct spike_src src;

	(void)ev;
	(void)nev;
	/* a gap that began before the window opened (a followed thread's, across the probes'
	 * attach) is jitterscope's own setting up, not a spike of the run: not seen */
	if (g->gap.dur_ns < s->st.threshold_ns ||
	    (s->run && g->gap.start_ns < s->run->start_mono_ns))
		return;
	s->st.seen++;
	if (s->err) {
		s->st.skipped[JS_SPIKE_SKIP_ERROR]++;
		return;
	}
	if (s->npend == SPIKE_PEND_MAX) {
		s->st.skipped[JS_SPIKE_SKIP_BACKLOG]++;
		return;
	}
	spike_source(&g->attr, &src);
	v = spike_keep_offer(&s->keep, ++s->next_id, g->gap.start_ns, g->gap.dur_ns, &src, &victim);
	if (v == SPIKE_KEEP_SKIP) {
		s->st.skipped[JS_SPIKE_SKIP_RATE]++;
		return;
	}
	if (v == SPIKE_KEEP_REPLACE)
		drop_victim(s, &victim);
	s->pend_id[s->npend] = s->next_id;
	s->pend[s->npend++] = *g;
}

/* spike_name - "spike-20261129T175423.123456Z-cpu1" of the gap: names sort by time */
static void spike_name(char *buf, size_t len, const struct js_run *run, const struct js_gap *g)
{
	uint64_t off = g->start_ns > run->start_mono_ns ? g->start_ns - run->start_mono_ns : 0;
	uint64_t us = (uint64_t)(run->start_epoch_s * 1e6) + off / 1000;
	time_t sec = (time_t)(us / 1000000);
	struct tm tm;
	char day[32] = "0";

	if (gmtime_r(&sec, &tm))
		strftime(day, sizeof(day), "%Y%m%dT%H%M%S", &tm);
	snprintf(buf, len, "spike-%s.%06uZ-cpu%u", day, (unsigned)(us % 1000000), g->cpu);
}

/* write_settings - the cross-check of the gap's causes against the audit (audit_xcheck.c):
 * one line per setting that explains one of them */
static void write_settings(struct js_json *j, const struct js_run *run, const struct js_gap_rec *g)
{
	struct audit_observed obs[JS_PARTS_MAX + 1];
	char lines[SPIKE_XCHECK_MAX][AUDIT_LINE_LEN];
	size_t n = 0, k = 0;

	for (uint32_t i = 0; i < g->attr.nparts && i < JS_PARTS_MAX; i++, n++)
		obs[n] = (struct audit_observed){
			.cpu = (int)g->gap.cpu,
			.cause = js_cause_name(g->attr.parts[i].cause),
			.detail = g->attr.parts[i].detail,
			.count = g->attr.parts[i].count,
			.total_ns = g->attr.parts[i].net_ns,
		};
	if (g->attr.unexplained_ns)
		obs[n++] = (struct audit_observed){
			.cpu = (int)g->gap.cpu,
			.cause = js_cause_name(JS_CAUSE_UNEXPLAINED),
			.detail = "",
			.count = 1,
			.total_ns = g->attr.unexplained_ns,
		};
	if (run->audited)
		k = audit_crosscheck(&run->audit, obs, n, lines, SPIKE_XCHECK_MAX);
	json_arr_begin(j, "explained_by_settings");
	for (size_t i = 0; i < k; i++)
		json_str(j, NULL, lines[i]);
	json_arr_end(j);
}

static void write_events(struct js_json *j, const struct js_run *run, const struct js_gap *g,
			 const struct js_event *ev, size_t nev)
{
	uint64_t end = g->start_ns + g->dur_ns;
	char label[JS_NAME_LEN + 96];

	json_arr_begin(j, "events");
	for (size_t i = 0; i < nev; i++) {
		const struct js_event *e = &ev[i];

		trace_event_label(run, e, label, sizeof(label));
		json_obj_begin(j, NULL);
		json_str(j, "kind", js_ev_kind_name(e->kind));
		json_str(j, "label", label);
		json_u64(j, "cpu", e->cpu);
		json_u64(j, "id", e->id);
		json_u64(j, "start_ns", e->start_ns);
		json_u64(j, "end_ns", e->end_ns);
		json_i64(j, "offset_ns", (int64_t)(e->start_ns - g->start_ns));
		json_bool(j, "in_gap", e->start_ns <= end && e->end_ns >= g->start_ns);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* write_spike_json - the spike's JSON document (docs/JSON.md, "The spike file") */
static void write_spike_json(FILE *fp, const struct spike_out *s, const struct js_gap_rec *g,
			     const char *name, const struct js_event *ev, size_t nev, bool complete)
{
	const struct js_run *run = s->run;
	char story[512], detail[4096], trace[NAME_MAX];
	struct js_json j;

	story_format(story, sizeof(story), g, run->start_mono_ns);
	story_format_detail(detail, sizeof(detail), g, run->start_mono_ns, NULL);
	snprintf(trace, sizeof(trace), "%s.trace.json", name);
	json_init(&j, fp);
	j.pretty = false; /* a third smaller; one line per file */
	json_obj_begin(&j, NULL);
	json_u64(&j, "schema_version", JS_SCHEMA_VERSION);
	json_str(&j, "tool", "jitterscope");
	json_str(&j, "version", JS_VERSION);
	json_str(&j, "kind", "spike");
	json_str(&j, "hostname", run->machine.hostname);
	json_u64(&j, "cpu", g->gap.cpu);
	json_u64(&j, "threshold_ns", s->st.threshold_ns);
	json_u64(&j, "run_start_mono_ns", run->start_mono_ns);
	json_u64(&j, "run_start_unix_ns", (uint64_t)(run->start_epoch_s * 1e9));
	json_obj_begin(&j, "gap");
	json_u64(&j, "start_ns", g->gap.start_ns);
	json_u64(&j, "dur_ns", g->gap.dur_ns);
	json_u64(&j, "at_ns", g->gap.start_ns - JS_MIN(g->gap.start_ns, run->start_mono_ns));
	js_attr_write_json_stacks(&j, &g->attr, run->cgroups, &run->stacks);
	json_str(&j, "story", story);
	json_str(&j, "story_detail", detail);
	json_u64(&j, "events", g->attr.nevents);
	json_obj_end(&j);
	json_obj_begin(&j, "window");
	json_u64(&j, "before_ns", s->window_ns);
	json_u64(&j, "after_ns", s->window_ns);
	json_u64(&j, "from_ns", g->gap.start_ns - JS_MIN(g->gap.start_ns, s->window_ns));
	json_u64(&j, "to_ns", g->gap.start_ns + g->gap.dur_ns + s->window_ns);
	json_u64(&j, "events", nev);
	json_bool(&j, "complete", complete);
	json_obj_end(&j);
	write_events(&j, run, &g->gap, ev, nev);
	write_settings(&j, run, g);
	json_str(&j, "trace", trace);
	json_obj_end(&j);
}

/* put - write one file of the spike under a temporary name; its size into *size. 0 or
 * -errno (said in one line; the temporary file removed) */
static int put(struct spike_out *s, const char *tmp, const char *final, uint64_t *size,
	       int (*write)(FILE *fp, void *arg), void *arg)
{
	FILE *fp = output_file_open(tmp, "spike-dir");
	struct stat st;
	int err;

	if (!fp)
		return -EIO;
	err = write(fp, arg);
	err = output_file_close(fp) ?: err;
	if (!err && stat(tmp, &st))
		err = -errno;
	if (!err)
		*size = (uint64_t)st.st_size;
	if (err) {
		unlink(tmp);
		js_err("cannot write --spike-dir file '%s/%s': %s; the flight recorder stops, the "
		       "measurement goes on",
		       s->dir, final, strerror(-err));
	}
	return err;
}

struct spike_job {
	struct spike_out *s;
	const struct js_gap_rec *g;
	const char *name;
	size_t nev;
	bool complete;
};

static int put_trace(FILE *fp, void *arg)
{
	const struct spike_job *b = arg;

	return trace_write_window(fp, b->s->run, b->g, b->s->scratch, b->nev, b->s->window_ns);
}

static int put_json(FILE *fp, void *arg)
{
	const struct spike_job *b = arg;

	write_spike_json(fp, b->s, b->g, b->name, b->s->scratch, b->nev, b->complete);
	return output_file_flush(fp);
}

/* on_spike - --on-spike for the spike just written (id, name): run now if none runs, else
 * counted as skipped (busy); none once a command exited 99 (the run ends). Files handed to a command are never replaced (a command may
 * log their path, or leave a job running that reads them later) */
static void on_spike(struct spike_out *s, const struct js_gap_rec *g, uint64_t id, const char *name)
{
	char v[7][PATH_MAX + 160];
	char *vars[7];

	if (!s->cmd.cmd || s->cmd.ended) /* one exited 99: the run ends, no command more */
		return;
	if (spike_cmd_busy(&s->cmd, &s->st.cmd)) {
		s->st.cmd.skipped_busy++;
		return;
	}
	snprintf(v[0], sizeof(v[0]), "JS_SPIKE_FILE=%s/%s.json", s->absdir, name);
	snprintf(v[1], sizeof(v[1]), "JS_SPIKE_TRACE=%s/%s.trace.json", s->absdir, name);
	snprintf(v[2], sizeof(v[2]), "JS_SPIKE_DURATION_NS=%" PRIu64, g->gap.dur_ns);
	snprintf(v[3], sizeof(v[3]), "JS_SPIKE_CAUSE=%s", js_cause_name(g->attr.primary));
	snprintf(v[4], sizeof(v[4]), "JS_SPIKE_DETAIL=%s", g->attr.detail);
	snprintf(v[5], sizeof(v[5]), "JS_SPIKE_CPU=%u", g->gap.cpu);
	snprintf(v[6], sizeof(v[6]), "JS_SPIKE_START_NS=%" PRIu64, g->gap.start_ns);
	for (int i = 0; i < 7; i++)
		vars[i] = v[i];
	spike_cmd_start(&s->cmd, &s->st.cmd, vars, 7);
	if (s->cmd.pid) {
		spike_keep_hand(&s->keep, id);
		js_scpy(s->handed, sizeof(s->handed), name);
	}
}

/* end_asked - a command exited 99 while the run goes on: the run is asked to end (the
 * pipeline ends it as Ctrl-C would, JS_END_ON_SPIKE); once the run has ended, nothing */
static void end_asked(struct spike_out *s, struct js_run *run, uint64_t done_ns)
{
	if (!s->cmd.ended || run->end_asked[0] || run->interrupted || done_ns == UINT64_MAX)
		return;
	snprintf(run->end_asked, sizeof(run->end_asked), "the --on-spike command exited %d for %s",
		 JS_ON_SPIKE_END_STATUS, s->handed);
}

/* write_spike - the spike's two files, or the reason it has none counted (and its place in
 * the window given back) */
static void write_spike(struct spike_out *s, const struct js_gap_rec *g, uint64_t id)
{
	struct spike_keep_rec *kept;
	struct spike_ring *r = ring_of(s, g->gap.cpu);
	uint64_t lo = g->gap.start_ns - JS_MIN(g->gap.start_ns, s->window_ns);
	uint64_t hi = g->gap.start_ns + g->gap.dur_ns + s->window_ns, t0 = js_mono_ns();
	uint64_t tsize = 0, jsize = 0;
	char name[96], tmp[2][PATH_MAX + 128], fin[2][PATH_MAX + 128];
	struct spike_job b = { .s = s, .g = g, .name = name };
	int err;

	spike_name(name, sizeof(name), s->run, &g->gap);
	b.nev = r ? spike_ring_window(r, lo, hi, s->scratch) : 0;
	b.complete = r && spike_ring_complete(r, lo);
	snprintf(fin[0], sizeof(fin[0]), "%s/%s.trace.json", s->dir, name);
	snprintf(fin[1], sizeof(fin[1]), "%s/%s.json", s->dir, name);
	snprintf(tmp[0], sizeof(tmp[0]), "%s/.%s.trace.json.tmp", s->dir, name);
	snprintf(tmp[1], sizeof(tmp[1]), "%s/.%s.json.tmp", s->dir, name);
	err = put(s, tmp[0], fin[0] + strlen(s->dir) + 1, &tsize, put_trace, &b);
	if (!err) {
		err = put(s, tmp[1], fin[1] + strlen(s->dir) + 1, &jsize, put_json, &b);
		if (err)
			unlink(tmp[0]);
	}
	if (err) {
		s->err = err;
		s->st.skipped[JS_SPIKE_SKIP_ERROR]++;
		spike_keep_forget(&s->keep, id);
		return;
	}
	if (!spike_cap_take(&s->cap, tsize + jsize)) {
		unlink(tmp[0]);
		unlink(tmp[1]);
		s->st.skipped[JS_SPIKE_SKIP_SIZE]++;
		spike_keep_forget(&s->keep, id);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (rename(tmp[i], fin[i]) && !err) {
			err = -errno;
			js_err("cannot write --spike-dir file '%s': %s; the flight recorder stops, "
			       "the measurement goes on",
			       fin[i], strerror(errno));
		}
	if (err) {
		unlink(tmp[0]);
		unlink(tmp[1]);
		s->err = err;
		s->st.skipped[JS_SPIKE_SKIP_ERROR]++;
		spike_keep_forget(&s->keep, id);
		return;
	}
	kept = spike_keep_find(&s->keep, id);
	if (kept) { /* a later spike may replace it: its files, their size */
		js_scpy(kept->name, sizeof(kept->name), name);
		kept->bytes = tsize + jsize;
	}
	s->st.written++;
	s->st.bytes += tsize + jsize;
	s->st.write_ns_max = JS_MAX(s->st.write_ns_max, js_mono_ns() - t0);
	on_spike(s, g, id, name);
}

static void spike_sync(void *ctx, struct js_run *run, uint64_t done_ns)
{
	struct spike_out *s = ctx;
	size_t k = 0;

	if (s->cmd.cmd)
		spike_cmd_poll(&s->cmd, &s->st.cmd);
	for (size_t i = 0; i < s->npend; i++) {
		const struct js_gap_rec *g = &s->pend[i];

		if (done_ns != UINT64_MAX &&
		    g->gap.start_ns + g->gap.dur_ns + s->window_ns > done_ns) {
			s->pend_id[k] = s->pend_id[i];
			s->pend[k++] = *g; /* its window is not all read yet */
			continue;
		}
		if (s->err)
			s->st.skipped[JS_SPIKE_SKIP_ERROR]++;
		else
			write_spike(s, g, s->pend_id[i]);
	}
	s->npend = k;
	end_asked(s, run, done_ns);
	/* the end: within the rest of its timeout; 1 s at most after Ctrl-C or SIGTERM */
	if (s->cmd.cmd && done_ns == UINT64_MAX)
		spike_cmd_wait(&s->cmd, &s->st.cmd,
			       run->interrupted ? JS_SPIKE_CMD_STOP_NS : UINT64_MAX);
	run->spikes = s->st;
}

/* spike_finish - every spike was written by the last sync: a failed write is the error */
static int spike_finish(void *ctx, const struct js_run *run)
{
	struct spike_out *s = ctx;

	(void)run;
	return s->err;
}

static void spike_destroy(void *ctx)
{
	struct spike_out *s = ctx;

	if (s->cmd.pid) { /* the run ended without its last sync: no command outlives it */
		spike_cmd_wait(&s->cmd, &s->st.cmd, 0);
	}
	for (size_t i = 0; s->rings && i < s->ncpus; i++)
		spike_ring_free(&s->rings[i]);
	free(s->rings);
	free(s->cpus);
	free(s->scratch);
	spike_keep_free(&s->keep);
	free(s);
}

int out_spike_new(struct js_output *out, const char *path, const struct js_params *p)
{
	struct spike_out *s = calloc(1, sizeof(*s));

	if (!s || spike_keep_init(&s->keep, p && p->spike_max ? p->spike_max : JS_DEFAULT_SPIKE_MAX,
				  p && p->spike_per_source ? p->spike_per_source :
							     JS_DEFAULT_SPIKE_PER_SOURCE)) {
		free(s);
		return -ENOMEM;
	}
	if (rings_new(s, p ? p->cfg.cpus : NULL, p ? p->cfg.ncpus : 0)) {
		js_err("cannot allocate the flight recorder's event rings: %s", strerror(ENOMEM));
		spike_destroy(s);
		return -ENOMEM;
	}
	if (mkdir(path, 0777) && errno != EEXIST) {
		js_err("cannot write --spike-dir directory '%s': %s", path, strerror(errno));
		spike_destroy(s);
		return -EIO;
	}
	js_scpy(s->dir, sizeof(s->dir), path);
	if (!realpath(path, s->absdir))
		js_scpy(s->absdir, sizeof(s->absdir), path);
	if (p && p->on_spike) {
		s->cmd = (struct spike_cmd){
			.cmd = p->on_spike,
			.opt = "on-spike",
			.env_prefix = "JS_SPIKE_",
			.timeout_ns = p->on_spike_timeout_ns ?: JS_DEFAULT_ON_SPIKE_TIMEOUT_NS,
			.measured = s->cpus,
			.nmeasured = s->ncpus,
		};
		s->st.cmd.on = true;
		js_scpy(s->st.cmd.cmd, sizeof(s->st.cmd.cmd), p->on_spike);
		s->st.cmd.timeout_ns = s->cmd.timeout_ns;
	}
	s->window_ns = JS_SPIKE_WINDOW_NS;
	s->st.on = true;
	js_scpy(s->st.dir, sizeof(s->st.dir), path);
	s->st.threshold_ns = p ? p->spike_threshold_ns : 0;
	s->st.max_per_min = s->keep.max;
	s->st.max_per_source = s->keep.per_source;
	s->st.dir_max_bytes = p && p->spike_dir_max ? p->spike_dir_max : JS_DEFAULT_SPIKE_DIR_MAX;
	s->cap = (struct spike_cap){ .max = s->st.dir_max_bytes, .used = dir_used(path) };
	out->name = "flight recorder";
	out->ctx = s;
	out->run_start = spike_run_start;
	out->on_event = spike_on_event;
	out->on_gap = spike_on_gap;
	out->sync = spike_sync;
	out->finish = spike_finish;
	out->destroy = spike_destroy;
	return 0;
}
