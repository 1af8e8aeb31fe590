// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fixtures.c - what the unit tests share (see fixtures.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "js_correlate.h"
#include "js_jsonparse.h"
#include "js_params.h"
#include "js_sysfs.h"

/* fx_event - an event of kind on cpu over [s, e] */
struct js_event fx_event(uint32_t kind, uint64_t s, uint64_t e, uint32_t cpu, uint32_t id,
			 const char *name)
{
	struct js_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.start_ns = s;
	ev.end_ns = e;
	ev.cpu = cpu;
	ev.id = id;
	if (name)
		memcpy(ev.name, name, strnlen(name, JS_NAME_LEN));
	return ev;
}

/* fx_rec - r zeroed: a gap of dur at start on cpu */
void fx_rec(struct js_gap_rec *r, uint32_t cpu, uint64_t start, uint64_t dur)
{
	memset(r, 0, sizeof(*r));
	r->gap.start_ns = start;
	r->gap.dur_ns = dur;
	r->gap.cpu = cpu;
}

/* fx_part - a part added to r, its net time covered */
void fx_part(struct js_gap_rec *r, uint32_t cause, const char *detail, uint32_t count, uint64_t net)
{
	struct js_part *p = &r->attr.parts[r->attr.nparts++];

	p->cause = cause;
	p->count = count;
	p->net_ns = net;
	snprintf(p->detail, sizeof(p->detail), "%s", detail);
	r->attr.covered_ns += net;
}

/* fx_primary - r's primary cause and detail, then corr_finish() */
void fx_primary(struct js_gap_rec *r, uint32_t cause, const char *detail)
{
	r->attr.primary = cause;
	snprintf(r->attr.detail, sizeof(r->attr.detail), "%s", detail);
	corr_finish(&r->attr, r->gap.dur_ns);
}

/* fx_run - run over cpus[n] (CPUs 1, 3, 5 ...), each measured over [start_ns, end_ns] */
int fx_run(struct js_run *run, struct js_cpu_result *cpus, size_t n, uint64_t start_ns,
	   uint64_t end_ns)
{
	run->cpus = cpus;
	run->ncpus = n;
	run->probes_on = true;
	run->smi_countable = true;
	for (size_t i = 0; i < n; i++) {
		if (result_cpu_init(&cpus[i], (int)(1 + 2 * i), 4))
			return -ENOMEM;
		cpus[i].start_ns = start_ns;
		cpus[i].end_ns = end_ns;
	}
	return 0;
}

#define KT JS_F_KTHREAD

/* The sequences: a threaded IRQ handler woken by its hard IRQ, a softirq that its handler
 * raised running inside it (RT); ksoftirqd running NET_RX (an IRQ inside) and TIMER; RT's
 * ktimers running the timer softirqs; rcuc; a user task that calls itself ksoftirqd/1. */
const struct fx_thread_seq fx_thread_seqs[] = {
	{ "irq thread",
	  42000,
	  3,
	  { { JS_EV_IRQ, 36, 0, 1000, 2500, "virtio1-req.0" },
	    { JS_EV_TASK, 123, KT, 4000, 40000, "irq/36-virtio1-" },
	    { JS_EV_SOFTIRQ, JS_SOFTIRQ_NET_RX, 0, 30000, 36000, NULL } },
	  JS_CAUSE_IRQ,
	  "irq/36-virtio1-:123",
	  30000,
	  "42.0 us at 1.00 s: preempted by IRQ thread irq/36-virtio1-:123 (30.0 us) + NET_RX "
	  "softirq (6.0 us) + IRQ virtio1-req.0:36 (1.5 us) + 4.5 us unexplained" },
	{ "ksoftirqd",
	  42000,
	  4,
	  { { JS_EV_TASK, 22, KT, 2000, 40000, "ksoftirqd/1" },
	    { JS_EV_SOFTIRQ, JS_SOFTIRQ_NET_RX, 0, 3000, 25000, NULL },
	    { JS_EV_IRQ, 36, 0, 10000, 11000, "virtio1-req.0" },
	    { JS_EV_SOFTIRQ, JS_SOFTIRQ_TIMER, 0, 26000, 30000, NULL } },
	  JS_CAUSE_SOFTIRQ,
	  "ksoftirqd/1:22 NET_RX",
	  12000,
	  "42.0 us at 1.00 s: preempted by softirq thread ksoftirqd/1:22 NET_RX (33.0 us) + "
	  "TIMER softirq (4.0 us) + IRQ virtio1-req.0:36 (1.0 us) + 4.0 us unexplained" },
	{ "ktimers",
	  22000,
	  3,
	  { { JS_EV_TASK, 20, KT, 2000, 20000, "ktimers/1" },
	    { JS_EV_SOFTIRQ, JS_SOFTIRQ_TIMER, 0, 3000, 15000, NULL },
	    { JS_EV_SOFTIRQ, JS_SOFTIRQ_HRTIMER, 0, 15500, 18000, NULL } },
	  JS_CAUSE_TIMER,
	  "ktimers/1:20 TIMER",
	  3500,
	  "22.0 us at 1.00 s: preempted by timer thread ktimers/1:20 TIMER (15.5 us) + "
	  "HRTIMER softirq (2.5 us) + 4.0 us unexplained" },
	{ "rcuc",
	  10000,
	  1,
	  { { JS_EV_TASK, 19, KT, 1000, 9000, "rcuc/1" } },
	  JS_CAUSE_SOFTIRQ,
	  "rcuc/1:19 RCU",
	  8000,
	  "10.0 us at 1.00 s: preempted by softirq thread rcuc/1:19 RCU (8.0 us) + "
	  "2.0 us unexplained" },
	{ "a user task named so",
	  10000,
	  2,
	  { { JS_EV_TASK, 4242, 0, 1000, 9000, "ksoftirqd/1" },
	    { JS_EV_SOFTIRQ, JS_SOFTIRQ_NET_RX, 0, 2000, 3000, NULL } },
	  JS_CAUSE_TASK,
	  "ksoftirqd/1:4242",
	  7000,
	  "10.0 us at 1.00 s: preempted by ksoftirqd/1:4242 (7.0 us) + NET_RX softirq (1.0 us) "
	  "+ 2.0 us unexplained" },
};

const size_t fx_nthread_seqs = sizeof(fx_thread_seqs) / sizeof(fx_thread_seqs[0]);

/* fx_thread_events - sequence q's events on cpu from t0 */
size_t fx_thread_events(const struct fx_thread_seq *q, uint64_t t0, uint32_t cpu,
			struct js_event *ev)
{
	for (size_t i = 0; i < q->nev; i++) {
		const struct fx_seq_ev *x = &q->ev[i];

		ev[i] = fx_event(x->kind, t0 + x->s, t0 + x->e, cpu, x->id, x->name);
		ev[i].flags = x->flags;
	}
	return q->nev;
}

void fx_read_text(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n = fp ? fread(buf, 1, len - 1, fp) : 0;

	buf[n] = 0;
	if (fp)
		fclose(fp);
}

void fx_json_file(const char *path, struct jsonp_doc *doc)
{
	char err[160] = "", *buf;
	FILE *fp = fopen(path, "r");
	long len;

	if (!fp)
		fail_msg("cannot read %s", path);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	if (jsonp_parse(buf, (size_t)len, doc, err, sizeof(err)))
		fail_msg("%s is not valid JSON: %s", path, err);
	free(buf);
}

/* fx_find_part - the part of a with that cause and detail */
const struct js_part *fx_find_part(const struct js_attr *a, uint32_t cause, const char *detail)
{
	for (uint32_t i = 0; i < a->nparts; i++)
		if (a->parts[i].cause == cause && !strcmp(a->parts[i].detail, detail))
			return &a->parts[i];
	return NULL;
}

char scratch_dir[SCRATCH_DIR_LEN];

/* scratch_setup - a cmocka setup: a new tree made */
int scratch_setup(void **state)
{
	(void)state;
	snprintf(scratch_dir, sizeof(scratch_dir), "/tmp/js-scratch.XXXXXX");
	return mkdtemp(scratch_dir) ? 0 : -1;
}

/* scratch_teardown - a cmocka teardown: back to the live root, the tree removed */
int scratch_teardown(void **state)
{
	char cmd[SCRATCH_DIR_LEN + 16];

	(void)state;
	sysfs_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* fx_heavy - n, or a tenth of it under JS_TEST_QUICK=1 */
size_t fx_heavy(size_t n)
{
	const char *q = getenv("JS_TEST_QUICK");

	if (!q || strcmp(q, "1") != 0)
		return n;
	return n / 10 ? n / 10 : 1;
}

/* fx_bpf_refused - not privileged to load BPF, or no kernel BTF */
bool fx_bpf_refused(int err)
{
	unsigned long long eff = 0;
	char line[128];
	FILE *f;

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return true;
	if (err != -EPERM)
		return false;
	f = fopen("/proc/self/status", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	if (f)
		fclose(f);
	return !(eff & (1ull << 39 | 1ull << 21)); /* CAP_BPF, CAP_SYS_ADMIN */
}

/* scratch_put - rel in the tree with len bytes of data, directories made */
void scratch_put(const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", scratch_dir, rel);
	for (char *sl = strchr(path + strlen(scratch_dir) + 1, '/'); sl; sl = strchr(sl + 1, '/')) {
		*sl = '\0';
		mkdir(path, 0755);
		*sl = '/';
	}
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

/* scratch_puts - scratch_put of a string */
void scratch_puts(const char *rel, const char *text)
{
	scratch_put(rel, text, strlen(text));
}

int fx_parse(struct js_params *p, const char *first, ...)
{
	static char store[40][128];
	static char *argv[40]; /* kept: p->run_argv points into it */
	int argc = 0;
	va_list ap;

	snprintf(store[argc], sizeof(store[0]), "jitterscope");
	argv[argc] = store[argc];
	argc++;
	va_start(ap, first);
	for (const char *a = first; a && argc < 39; a = va_arg(ap, const char *)) {
		snprintf(store[argc], sizeof(store[0]), "%s", a);
		argv[argc] = store[argc];
		argc++;
	}
	va_end(ap);
	argv[argc] = NULL;
	return cli_parse(argc, argv, p);
}
