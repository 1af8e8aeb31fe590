/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fixtures.h - what the unit tests share (the libssh torture.c idea): builders of probe
 * events, gaps and their attributions, a lookup of a part, and a scratch sysroot.
 * fixtures.c is linked into every unit test binary. Include after <cmocka.h>.
 */
#ifndef FIXTURES_H
#define FIXTURES_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "js_events.h"
#include "js_model.h"
#include "js_result.h"

/* fx_event - an event of kind on cpu over [s, e], its id and name (NULL: none; a name of
 * JS_NAME_LEN characters is kept without its NUL, as the probes may send it) */
struct js_event fx_event(uint32_t kind, uint64_t s, uint64_t e, uint32_t cpu, uint32_t id,
			 const char *name);

/* fx_rec - r zeroed: a gap of dur at start on cpu, no attribution yet */
void fx_rec(struct js_gap_rec *r, uint32_t cpu, uint64_t start, uint64_t dur);

/* fx_part - a part (cause, detail, count, net time) added to r; its net time is covered */
void fx_part(struct js_gap_rec *r, uint32_t cause, const char *detail, uint32_t count,
	     uint64_t net);

/* fx_primary - r's primary cause and detail, then corr_finish(): unexplained = the rest */
void fx_primary(struct js_gap_rec *r, uint32_t cause, const char *detail);

/* fx_run - run over the results cpus[n] (CPUs 1, 3, 5 ...), each with a top list of 4
 * and the window [start_ns, end_ns]; probes on, SMIs countable. 0 or -ENOMEM */
int fx_run(struct js_run *run, struct js_cpu_result *cpus, size_t n, uint64_t start_ns,
	   uint64_t end_ns);

/*
 * Recorded sequences of kernel threads that run interrupt work (PREEMPT_RT; threadirqs;
 * softirqs deferred to ksoftirqd): the probes' events of one gap of gap_ns from t0, the
 * sampler switched out to the thread (a JS_EV_TASK of a kernel thread) and back, with what
 * ran inside it; and what the correlator and the story make of them.
 */
struct fx_seq_ev {
	uint32_t kind, id, flags;
	uint64_t s, e; /* from t0 */
	const char *name;
};

struct fx_thread_seq {
	const char *what;
	uint64_t gap_ns;
	size_t nev;
	struct fx_seq_ev ev[6];
	uint32_t primary; /* the gap's primary class and detail, its part's net time */
	const char *detail;
	uint64_t net_ns;
	const char *story; /* story_format() of the gap at 1 s into the run */
};

extern const struct fx_thread_seq fx_thread_seqs[];
extern const size_t fx_nthread_seqs;

/* fx_thread_events - sequence q's events on cpu from t0 into ev (room for q->nev); their
 * count */
size_t fx_thread_events(const struct fx_thread_seq *q, uint64_t t0, uint32_t cpu,
			struct js_event *ev);

/* fx_read_text - the file at path into buf (at most len - 1 bytes, NUL-terminated), "" if
 * it cannot be read */
void fx_read_text(const char *path, char *buf, size_t len);

struct jsonp_doc;
/* fx_json_file - the file at path parsed with the strict JSON parser into doc (the test
 * fails when it cannot be read or is not JSON); jsonp_free(doc) after */
void fx_json_file(const char *path, struct jsonp_doc *doc);

/* fx_find_part - the part of a with that cause and detail, NULL if none */
const struct js_part *fx_find_part(const struct js_attr *a, uint32_t cause, const char *detail);

/* fx_bpf_refused - loading BPF failed with err (-errno) because this machine may not: not
 * privileged (EPERM without CAP_BPF or CAP_SYS_ADMIN) or no kernel BTF; a live case skips
 * then, and fails on any other error */
bool fx_bpf_refused(int err);

/* fx_heavy - how many times a heavy loop (random cases, mutations) runs: n, or n / 10 (at
 * least 1) with JS_TEST_QUICK=1, which scripts/check-arm64.sh sets under qemu-user (there each
 * case costs 10-30 times more; docs/ARCH.md). Native runs, make asan and valgrind keep n. */
size_t fx_heavy(size_t n);

/*
 * The scratch sysroot: a temporary directory, scratch_dir, whose files stand in for live
 * paths (scratch_put("/sys/...") makes scratch_dir/sys/...). scratch_setup and
 * scratch_teardown are a cmocka group's or test's setup and teardown (a new tree each
 * time); the teardown also points sysfs back at the live root.
 */
#define SCRATCH_DIR_LEN 32
extern char scratch_dir[SCRATCH_DIR_LEN];
int scratch_setup(void **state);
int scratch_teardown(void **state);
/* scratch_put - rel (a live path) in the tree with len bytes of data, directories made */
void scratch_put(const char *rel, const void *data, size_t len);
/* scratch_puts - scratch_put of a string */
void scratch_puts(const char *rel, const char *text);

struct js_params;
/* fx_parse - cli_parse of "jitterscope" and the NULL-terminated arguments after first (at
 * most 38), into p; the strings stay valid until the next call (p keeps pointers into them) */
int fx_parse(struct js_params *p, const char *first, ...);

#endif /* FIXTURES_H */
