// SPDX-License-Identifier: GPL-2.0
/*
 * jsinject - inject known interference on one CPU, as ground truth for tests.
 *
 * Each mode aims its interference at the target CPU (--cpu N) at a fixed period and logs every
 * action's CLOCK_MONOTONIC start and end.  Helpers run on another CPU (--helper-cpu M).  Missed
 * periods are skipped and counted: an action never starts less than half a period after the
 * previous one ended.  On exit the kernel's own counters for CPU N (/proc/interrupts,
 * /proc/softirqs, rusage) are printed beside the action count, so the counts can be checked.
 *
 * Modes: preempt, ipi, timer, softirq, irq, pf.  See docs/INJECTOR.md.
 *
 * Every setting changed (rps_cpus, IRQ affinity) is restored on exit, on SIGINT/SIGTERM/SIGHUP
 * and by the watchdog (SIGALRM at --duration + 10 s), with async-signal-safe writes.  A SCHED_FIFO
 * thread stops by itself at the end of --duration and is also bounded by RLIMIT_RTTIME.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_SEC 1000000000ULL
#define PAGE 4096UL
#define FIFO_PRIO 50
#define WATCHDOG_GRACE 10 /* s after --duration before the hard stop */
#define MAX_RECS (8UL << 20)
#define IRQ_FILE_SIZE (64UL << 20)
#define RPS_PATH "/sys/class/net/lo/queues/rx-0/rps_cpus"
/* --steer rfs: the global flow table and lo's queue's, entries each */
#define RFS_SOCK_PATH "/proc/sys/net/core/rps_sock_flow_entries"
#define RFS_FLOW_PATH "/sys/class/net/lo/queues/rx-0/rps_flow_cnt"
#define RFS_ENTRIES "4096"
#define RFS_WARMUPS 3

enum exit_code {
	EX_OK = 0,
	EX_FAIL = 1,
	EX_USAGE = 2,
	EX_INTERRUPTED = 3,
	EX_WATCHDOG = 4,
};

enum mode { M_PREEMPT, M_IPI, M_TIMER, M_SOFTIRQ, M_IRQ, M_PF, M_PIPE, M_NR };

static const char *const mode_names[M_NR] = {
	[M_PREEMPT] = "preempt", [M_IPI] = "ipi", [M_TIMER] = "timer", [M_SOFTIRQ] = "softirq",
	[M_IRQ] = "irq",	 [M_PF] = "pf",	  [M_PIPE] = "pipe",
};

/* one action: CLOCK_MONOTONIC start/end, and the period slot it was scheduled for (0: none) */
struct rec {
	uint64_t start;
	uint64_t end;
	uint64_t slot;
};

/* --windows: one window of the schedule, actions taken in it (on) or not (off) */
struct win {
	uint64_t start, end;
	int on;
};

/* kernel counters of the target CPU */
struct counters {
	uint64_t loc, cal, res, tlb, iwi, irq;
	uint64_t net_rx, block, timer, hrtimer;
};

struct inj {
	/* options */
	enum mode mode;
	int cpu;
	int helper;
	double duration;
	uint64_t period_ns;
	uint64_t spin_ns;
	unsigned int count;
	int count_set;
	const char *log_path;
	const char *dir;
	int irq_opt;
	uint64_t win_ns;      /* --windows: on/off windows of about this length; 0: always on */
	const char *win_path; /* --windows-log */

	/* schedule and results */
	uint64_t t_start;
	uint64_t t_end;
	struct rec *recs;
	size_t nrecs;
	size_t caprecs;
	uint64_t overflow;
	uint64_t skipped;
	uint64_t wrong_cpu;
	int worker_err;
	uint64_t thread_cpu_ns;
	uint64_t switches;
	struct counters c0, c1;

	/* mode state */
	int fd;	    /* perf event (ipi, timer) or scratch file (irq) */
	void *ring; /* timer: perf mmap */
	size_t ring_len;
	uint64_t lost;
	uint64_t throttled;
	int tx, rx; /* softirq sockets */
	uint64_t received;
	int rfs;	       /* softirq --steer rfs: a reader on CPU N steers the flow there */
	atomic_ullong rfs_got; /* rfs: datagrams the reader received (warm-ups too) */
	int rfs_err;	       /* rfs: the sender thread's error */
	void *buf;	       /* irq: O_DIRECT buffer */
	uint64_t rnd;
	int irq;
	char irq_name[64];
	int steered;
	int irq_saved;	  /* index of the saved smp_affinity_list in g_saved */
	char irq_eff[64]; /* effective affinity before steering */
	uint64_t faults;
	uint64_t faults_min;
	struct win *wins; /* --windows: the schedule's on/off windows, in order */
	size_t nwins;
	int pipe_err;			  /* pipe: the writer thread's error */
	int pipe_fd[2];			  /* pipe: read end (the FIFO thread), write end */
	uint64_t first_ns;		  /* pipe --first-spin: jsfirst's spin; 0: no jsfirst */
	int first_fd[2];		  /* pipe --first-spin: jsfirst's pipe */
	atomic_int first_running;	  /* jsfirst took CPU N for this slot */
	uint64_t first_missed;		  /* slots written without seeing jsfirst run */
	int (*fifo_loop)(struct inj *in); /* the FIFO thread's loop, instead of run_periodic */
};

/* ---- signals, stop flag and async-signal-safe restore of changed settings ---- */

static atomic_int g_stop;
static atomic_int g_signal;
static atomic_int g_rttime;

struct saved_setting {
	char path[128];
	char value[256];
	size_t len;
	atomic_int armed;
};

static struct saved_setting g_saved[4];
static atomic_int g_nsaved;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* say - print "jsinject: ..." to stderr */
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("jsinject: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* write_str - async-signal-safe write of a whole buffer to a file; 0 or -errno */
static int write_str(const char *path, const char *buf, size_t len)
{
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n != (ssize_t)len)
		err = n < 0 ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* restore_all - write back every saved setting, newest first; async-signal-safe if quiet */
static int restore_all(int quiet)
{
	int i, err, ret = 0;

	for (i = atomic_load(&g_nsaved) - 1; i >= 0; i--) {
		struct saved_setting *s = &g_saved[i];

		if (!atomic_exchange(&s->armed, 0))
			continue;
		err = write_str(s->path, s->value, s->len);
		if (err && !ret)
			ret = err;
		if (err && !quiet)
			say("cannot restore %s to '%s': %s", s->path, s->value, strerror(-err));
		else if (err)
			(void)!write(2, "jsinject: cannot restore a setting\n", 35);
	}
	return ret;
}

/* save_value - remember that @path must be set back to @value on exit */
static int save_value(const char *path, const char *value)
{
	int n = atomic_load(&g_nsaved);
	struct saved_setting *s;

	if (n >= (int)(sizeof(g_saved) / sizeof(g_saved[0])))
		return -ENOSPC;
	s = &g_saved[n];
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(s->value, sizeof(s->value), "%s", value);
	s->len = strlen(s->value);
	atomic_store(&s->armed, 1);
	atomic_store(&g_nsaved, n + 1);
	return 0;
}

/* read_line - read the first line of a small file without its newline; 0 or -errno */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = ferror(f) ? -EIO : -ENODATA;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return err;
}

/* set_setting - save the current content of @path, then write @value to it */
static int set_setting(const char *path, const char *value)
{
	char old[256];
	int err;

	err = read_line(path, old, sizeof(old));
	if (err) {
		say("cannot read %s: %s", path, strerror(-err));
		return err;
	}
	err = save_value(path, old);
	if (err)
		return err;
	err = write_str(path, value, strlen(value));
	if (err) {
		/* nothing changed: forget the saved value */
		atomic_store(&g_saved[atomic_load(&g_nsaved) - 1].armed, 0);
		say("cannot write '%s' to %s: %s", value, path, strerror(-err));
	}
	return err;
}

static void on_stop_signal(int sig)
{
	if (atomic_exchange(&g_signal, sig)) {
		/* second signal: something hangs, stop hard */
		restore_all(1);
		(void)!write(2, "jsinject: second signal, settings restored, exiting\n", 52);
		_exit(EX_INTERRUPTED);
	}
	atomic_store(&g_stop, 1);
}

static void on_watchdog(int sig)
{
	(void)sig;
	restore_all(1);
	(void)!write(2, "jsinject: watchdog: run overran --duration, settings restored, exiting\n",
		     71);
	_exit(EX_WATCHDOG);
}

static void on_rttime(int sig)
{
	(void)sig;
	atomic_store(&g_rttime, 1);
	atomic_store(&g_stop, 1);
}

static int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGXCPU };

/* install_signals - stop/watchdog handlers; no SA_RESTART so sleeps return EINTR */
static int install_signals(void)
{
	struct sigaction sa = { 0 };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	sa.sa_handler = on_stop_signal;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL))
		return -errno;
	sa.sa_handler = on_watchdog;
	if (sigaction(SIGALRM, &sa, NULL))
		return -errno;
	sa.sa_handler = on_rttime;
	if (sigaction(SIGXCPU, &sa, NULL))
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* block_stop_signals - block (or unblock) the stop signals in the calling thread */
static void block_stop_signals(int how)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(how, &set, NULL);
}

static int stopped(void)
{
	return atomic_load_explicit(&g_stop, memory_order_relaxed);
}

/* ---- time, schedule, records ---- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* sleep_until - absolute CLOCK_MONOTONIC sleep; returns early (0) when stopped */
static int sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NSEC_PER_SEC),
			       .tv_nsec = (long)(t % NSEC_PER_SEC) };
	int err;

	do {
		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	} while (err == EINTR && !stopped());
	return err == EINTR ? 0 : -err;
}

/* rec_add - log one action; never allocates (the array is pre-faulted) */
static void rec_add(struct inj *in, uint64_t start, uint64_t end, uint64_t slot)
{
	if (in->nrecs >= in->caprecs) {
		in->overflow++;
		return;
	}
	in->recs[in->nrecs++] = (struct rec){ start, end, slot };
}

typedef int (*action_fn)(struct inj *in, uint64_t slot);

/*
 * run_periodic - call @act once per period slot from t_start to t_end.  A slot whose start is
 * less than half a period after the previous action ended is skipped and counted.
 */
static int run_periodic(struct inj *in, action_fn act)
{
	uint64_t slot = in->t_start, half = in->period_ns / 2, now;
	size_t w = 0;
	int err = 0;

	while (!stopped() && slot < in->t_end) {
		err = sleep_until(slot);
		if (err || stopped())
			break;
		while (w + 1 < in->nwins && slot >= in->wins[w].end)
			w++;
		err = in->nwins && !in->wins[w].on ? 0 : act(in, slot);
		if (err)
			break;
		now = mono_ns();
		slot += in->period_ns;
		while (slot < now + half) {
			slot += in->period_ns;
			if (slot - in->period_ns < in->t_end)
				in->skipped++;
		}
	}
	return err;
}

/*
 * make_windows - --windows: [t_start, t_end) cut into windows of uniform random length in
 * [0.6, 1.4] x win_ns, on and off in turn from a random first state (xorshift on in->rnd)
 */
static int make_windows(struct inj *in)
{
	size_t cap = (size_t)((in->t_end - in->t_start) / (in->win_ns * 6 / 10)) + 2;
	uint64_t t = in->t_start;
	int on;

	in->wins = calloc(cap, sizeof(*in->wins));
	if (!in->wins)
		return -ENOMEM;
	in->rnd ^= in->rnd << 13;
	in->rnd ^= in->rnd >> 7;
	in->rnd ^= in->rnd << 17;
	on = (int)(in->rnd & 1);
	while (t < in->t_end && in->nwins < cap) {
		uint64_t len;

		in->rnd ^= in->rnd << 13;
		in->rnd ^= in->rnd >> 7;
		in->rnd ^= in->rnd << 17;
		len = in->win_ns * 6 / 10 + in->rnd % (in->win_ns * 8 / 10 + 1);
		in->wins[in->nwins++] =
			(struct win){ t, t + len < in->t_end ? t + len : in->t_end, on };
		t += len;
		on = !on;
	}
	return 0;
}

/* write_windows - --windows-log: CSV 'state,start_ns,end_ns' (on/off), a window a line */
static int write_windows(const struct inj *in)
{
	FILE *f = fopen(in->win_path, "w");

	if (!f) {
		say("cannot write the windows log %s: %s", in->win_path, strerror(errno));
		return -errno;
	}
	fputs("state,start_ns,end_ns\n", f);
	for (size_t i = 0; i < in->nwins; i++)
		fprintf(f, "%s,%llu,%llu\n", in->wins[i].on ? "on" : "off",
			(unsigned long long)in->wins[i].start, (unsigned long long)in->wins[i].end);
	if (fclose(f)) {
		say("cannot write the windows log %s: %s", in->win_path, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* ---- /proc/interrupts and /proc/softirqs ---- */

/* cpulist_has - does a cpulist string ("0-3,5") contain @cpu */
static int cpulist_has(const char *s, int cpu)
{
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s)
			return 0;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return 1;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return 0;
}

typedef void (*table_cb)(void *ctx, const char *label, uint64_t value, const char *rest);

/*
 * read_percpu_table - parse a /proc/interrupts-style table and call @cb with the row label and
 * the value in the column of @cpu, plus the text after the per-CPU columns
 */
static int read_percpu_table(const char *path, int cpu, table_cb cb, void *ctx)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *p, *end;
	size_t len = 0;
	int ncpu = 0, col = -1, err = 0, i;
	uint64_t v, val;

	if (!f)
		return -errno;
	if (getline(&line, &len, f) < 0) {
		err = -EIO;
		goto out;
	}
	for (p = strtok(line, " \t\n"); p; p = strtok(NULL, " \t\n"), ncpu++)
		if (atoi(p + 3) == cpu && !strncmp(p, "CPU", 3))
			col = ncpu;
	if (col < 0) {
		err = -ENOENT;
		goto out;
	}
	while (getline(&line, &len, f) >= 0) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		p = line + strspn(line, " ");
		end = colon + 1;
		val = 0;
		for (i = 0; i < ncpu; i++) {
			char *q;

			v = strtoull(end, &q, 10);
			if (q == end)
				break;
			if (i == col)
				val = v;
			end = q;
		}
		if (i < ncpu)
			continue;
		end[strcspn(end, "\n")] = '\0';
		cb(ctx, p, val, end + strspn(end, " "));
	}
out:
	free(line);
	fclose(f);
	return err;
}

struct ctr_ctx {
	struct counters *c;
	int irq;
};

static void interrupts_cb(void *ctx, const char *label, uint64_t v, const char *rest)
{
	struct ctr_ctx *x = ctx;
	char num[16];

	(void)rest;
	if (!strcmp(label, "LOC"))
		x->c->loc = v;
	else if (!strcmp(label, "CAL"))
		x->c->cal = v;
	else if (!strcmp(label, "RES"))
		x->c->res = v;
	else if (!strcmp(label, "TLB"))
		x->c->tlb = v;
	else if (!strcmp(label, "IWI"))
		x->c->iwi = v;
	snprintf(num, sizeof(num), "%d", x->irq);
	if (x->irq >= 0 && !strcmp(label, num))
		x->c->irq = v;
}

static void softirqs_cb(void *ctx, const char *label, uint64_t v, const char *rest)
{
	struct ctr_ctx *x = ctx;

	(void)rest;
	if (!strcmp(label, "NET_RX"))
		x->c->net_rx = v;
	else if (!strcmp(label, "BLOCK"))
		x->c->block = v;
	else if (!strcmp(label, "TIMER"))
		x->c->timer = v;
	else if (!strcmp(label, "HRTIMER"))
		x->c->hrtimer = v;
}

/* read_counters - snapshot the target CPU's interrupt and softirq counters */
static int read_counters(const struct inj *in, struct counters *c)
{
	struct ctr_ctx x = { .c = c, .irq = in->irq };
	int err;

	memset(c, 0, sizeof(*c));
	err = read_percpu_table("/proc/interrupts", in->cpu, interrupts_cb, &x);
	if (!err)
		err = read_percpu_table("/proc/softirqs", in->cpu, softirqs_cb, &x);
	if (err)
		say("cannot read the counters of CPU %d: %s", in->cpu, strerror(-err));
	return err;
}

/* ---- FIFO worker on the target CPU (preempt, pf) ---- */

struct worker {
	struct inj *in;
	action_fn act;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct inj *in = w->in;
	volatile char stack[32 * 1024];
	struct timespec ts;
	struct rusage ru;

	/* pre-fault the stack so that page faults inside actions are only the injected ones */
	memset((char *)stack, 0, sizeof(stack));
	pthread_setname_np(pthread_self(), "jsinject");
	if (sched_getcpu() != in->cpu) {
		in->worker_err = -EXDEV;
		return NULL;
	}
	in->worker_err = in->fifo_loop ? in->fifo_loop(in) : run_periodic(in, w->act);
	if (!clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		in->thread_cpu_ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	if (!getrusage(RUSAGE_THREAD, &ru))
		in->switches = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
	return NULL;
}

/*
 * run_fifo_worker - run @act in a SCHED_FIFO thread pinned to the target CPU.  RLIMIT_RTTIME
 * bounds any stretch of CPU time without sleeping: soft -> SIGXCPU (stop), hard -> SIGKILL.
 */
/* start_fifo - a SCHED_FIFO FIFO_PRIO thread pinned to the target CPU running fn(arg) */
static int start_fifo(struct inj *in, pthread_t *tid, void *(*fn)(void *), void *arg)
{
	struct sched_param sp = { .sched_priority = FIFO_PRIO };
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(in->cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	block_stop_signals(SIG_BLOCK);
	err = -pthread_create(tid, &attr, fn, arg);
	block_stop_signals(SIG_UNBLOCK);
	pthread_attr_destroy(&attr);
	return err;
}

static int run_fifo_worker(struct inj *in, action_fn act)
{
	struct worker w = { .in = in, .act = act };
	uint64_t soft_us = in->spin_ns / NSEC_PER_USEC + 200000;
	struct rlimit rl = { .rlim_cur = soft_us, .rlim_max = soft_us + 1000000 };
	pthread_t tid;
	int err;

	if (setrlimit(RLIMIT_RTTIME, &rl))
		say("warning: cannot set RLIMIT_RTTIME: %s", strerror(errno));
	if (mlockall(MCL_CURRENT))
		say("warning: mlockall: %s", strerror(errno));
	err = start_fifo(in, &tid, worker_main, &w);
	if (err) {
		say("cannot start a SCHED_FIFO %d thread on CPU %d: %s", FIFO_PRIO, in->cpu,
		    strerror(-err));
		goto out;
	}
	pthread_join(tid, NULL);
	err = in->worker_err;
	if (err == -EXDEV)
		say("the worker thread did not run on CPU %d", in->cpu);
	else if (err)
		say("%s action failed: %s", mode_names[in->mode], strerror(-err));
out:
	munlockall();
	return err;
}

/* ---- preempt ---- */

static int act_preempt(struct inj *in, uint64_t slot)
{
	uint64_t s = mono_ns(), e;

	do {
		e = mono_ns();
	} while (e - s < in->spin_ns && !stopped());
	if (sched_getcpu() != in->cpu)
		in->wrong_cpu++;
	rec_add(in, s, e, slot);
	return 0;
}

static int run_preempt(struct inj *in)
{
	return run_fifo_worker(in, act_preempt);
}

/* ---- pipe: a writer on the helper CPU wakes a reader on CPU N ---- */

/* pipe_read_loop - the FIFO thread: block in read(), spin --spin us per byte, until EOF */
static int pipe_read_loop(struct inj *in)
{
	uint64_t s;
	char b;
	ssize_t n;

	for (;;) {
		n = read(in->pipe_fd[0], &b, 1);
		if (n == 0)
			return 0; /* the writer is done */
		if (n < 0) {
			if (errno == EINTR && !stopped())
				continue;
			return stopped() ? 0 : -errno;
		}
		s = mono_ns();
		while (mono_ns() - s < in->spin_ns && !stopped())
			;
		if (sched_getcpu() != in->cpu)
			in->wrong_cpu++;
	}
}

/*
 * first_main - --first-spin: jsfirst, a second SCHED_FIFO thread on CPU N at the reader's
 * priority: woken through its own pipe before each write, it says it runs and spins
 * first_ns, so the reader is woken while another task holds CPU N (and runs after it)
 */
static void *first_main(void *arg)
{
	struct inj *in = arg;
	uint64_t s;
	char b;
	ssize_t n;

	pthread_setname_np(pthread_self(), "jsfirst");
	for (;;) {
		n = read(in->first_fd[0], &b, 1);
		if (n == 0 || (n < 0 && (errno != EINTR || stopped())))
			return NULL; /* the writer is done */
		if (n < 0)
			continue;
		atomic_store(&in->first_running, 1);
		s = mono_ns();
		while (mono_ns() - s < in->first_ns && !stopped())
			;
	}
}

/* first_wake - --first-spin: wake jsfirst and wait (at most 10 ms) until it runs on CPU N */
static int first_wake(struct inj *in)
{
	uint64_t t = mono_ns();
	char b = 'f';

	atomic_store(&in->first_running, 0);
	if (write(in->first_fd[1], &b, 1) != 1)
		return -errno;
	while (!atomic_load(&in->first_running) && !stopped())
		if (mono_ns() - t > 10000000) {
			in->first_missed++;
			break;
		}
	return 0;
}

/* act_pipe - the writer: one byte, the action's start and end around the write() (after
 * jsfirst took CPU N, with --first-spin) */
static int act_pipe(struct inj *in, uint64_t slot)
{
	uint64_t s, e;
	char b = 'w';
	int err = in->first_ns ? first_wake(in) : 0;

	if (err)
		return err;
	s = mono_ns();
	if (write(in->pipe_fd[1], &b, 1) != 1)
		return -errno;
	e = mono_ns();
	rec_add(in, s, e, slot);
	return 0;
}

static void *pipe_writer(void *arg)
{
	struct inj *in = arg;

	pthread_setname_np(pthread_self(), "jswriter");
	in->pipe_err = run_periodic(in, act_pipe);
	close(in->pipe_fd[1]); /* EOF: the reader ends */
	in->pipe_fd[1] = -1;
	if (in->first_fd[1] >= 0) {
		close(in->first_fd[1]); /* and jsfirst */
		in->first_fd[1] = -1;
	}
	return NULL;
}

static int setup_pipe(struct inj *in)
{
	if (pipe2(in->pipe_fd, O_CLOEXEC) || (in->first_ns && pipe2(in->first_fd, O_CLOEXEC)))
		return -errno;
	in->fifo_loop = pipe_read_loop;
	return 0;
}

/* run_pipe - the writer thread (the helper CPU's, inherited) and the reader (FIFO, on N) */
static int run_pipe(struct inj *in)
{
	pthread_t wt, ft;
	int err, werr;

	if (in->first_ns) {
		err = start_fifo(in, &ft, first_main, in);
		if (err) {
			say("cannot start jsfirst, a SCHED_FIFO %d thread on CPU %d: %s", FIFO_PRIO,
			    in->cpu, strerror(-err));
			return err;
		}
	}
	block_stop_signals(SIG_BLOCK);
	err = -pthread_create(&wt, NULL, pipe_writer, in);
	block_stop_signals(SIG_UNBLOCK);
	if (err) {
		say("cannot start the writer thread: %s", strerror(-err));
		if (in->first_ns) {
			close(in->first_fd[1]);
			in->first_fd[1] = -1;
			pthread_join(ft, NULL);
		}
		return err;
	}
	err = run_fifo_worker(in, NULL);
	pthread_join(wt, NULL);
	if (in->first_ns)
		pthread_join(ft, NULL);
	werr = in->pipe_err;
	if (werr)
		say("pipe write failed: %s", strerror(-werr));
	return err ? err : werr;
}

/* ---- pf ---- */

static int act_pf(struct inj *in, uint64_t slot)
{
	size_t len = (size_t)in->count * PAGE, i;
	struct rusage r0, r1;
	volatile char *p;
	uint64_t s, e, n;

	getrusage(RUSAGE_THREAD, &r0);
	s = mono_ns();
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (len >= (2UL << 20))
		madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (i = 0; i < len; i += PAGE)
		p[i] = 1;
	munmap((void *)p, len);
	e = mono_ns();
	getrusage(RUSAGE_THREAD, &r1);
	n = (uint64_t)(r1.ru_minflt - r0.ru_minflt + r1.ru_majflt - r0.ru_majflt);
	in->faults += n;
	if (n < in->faults_min || in->nrecs == 0)
		in->faults_min = n;
	if (sched_getcpu() != in->cpu)
		in->wrong_cpu++;
	rec_add(in, s, e, slot);
	return 0;
}

static int run_pf(struct inj *in)
{
	return run_fifo_worker(in, act_pf);
}

/* ---- ipi ---- */

static int perf_open(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int setup_ipi(struct inj *in)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
	};

	in->fd = perf_open(&attr, in->cpu);
	if (in->fd < 0) {
		say("perf_event_open(dummy, cpu %d): %s", in->cpu, strerror(errno));
		return -errno;
	}
	return 0;
}

/* act_ipi - each ioctl is one synchronous smp_call_function_single() to the target CPU */
static int act_ipi(struct inj *in, uint64_t slot)
{
	static int enabled;
	unsigned int i;
	uint64_t s, e;

	for (i = 0; i < in->count; i++) {
		s = mono_ns();
		if (ioctl(in->fd, enabled ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
		e = mono_ns();
		enabled = !enabled;
		rec_add(in, s, e, slot);
	}
	return 0;
}

static int run_ipi(struct inj *in)
{
	int err = run_periodic(in, act_ipi);

	if (err)
		say("ioctl on the perf event: %s", strerror(-err));
	return err;
}

/* ---- timer ---- */

/* setup_timer - a cpu-clock hrtimer event on the target CPU with a sample ring never woken */
static int setup_timer(struct inj *in)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = in->period_ns,
		.sample_type = PERF_SAMPLE_TIME,
		.disabled = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.watermark = 1,
	};
	uint64_t expect = (uint64_t)(in->duration * 1e9) / in->period_ns + 64;
	size_t pages = 16;

	/* the wakeup watermark is the whole ring: size it above the run's output, no wakeups */
	while (pages * PAGE < expect * 24 + 65536 && pages < 16384)
		pages *= 2;
	if (pages * PAGE < expect * 24)
		say("warning: the run outgrows the ring, expect a few irq_work wakeups on CPU %d",
		    in->cpu);
	attr.wakeup_watermark = (uint32_t)(pages * PAGE);
	in->fd = perf_open(&attr, in->cpu);
	if (in->fd < 0) {
		say("perf_event_open(cpu-clock, cpu %d): %s", in->cpu, strerror(errno));
		return -errno;
	}
	in->ring_len = (pages + 1) * PAGE;
	in->ring = mmap(NULL, in->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, in->fd, 0);
	if (in->ring == MAP_FAILED) {
		in->ring = NULL;
		say("mmap of the perf ring (%zu pages): %s", pages, strerror(errno));
		return -errno;
	}
	return 0;
}

/* ring_drain - read every record of the sample ring (from the helper CPU) */
static void ring_drain(struct inj *in)
{
	struct perf_event_mmap_page *pg = in->ring;
	char *data = (char *)in->ring + PAGE;
	uint64_t size = in->ring_len - PAGE;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	union {
		struct perf_event_header h;
		uint64_t u[8];
	} r;

	while (tail + sizeof(r.h) <= head) {
		size_t off = tail % size, n, i;

		for (i = 0; i < sizeof(r.h); i++)
			((char *)&r)[i] = data[(off + i) % size];
		n = r.h.size < sizeof(r) ? r.h.size : sizeof(r);
		for (i = sizeof(r.h); i < n; i++)
			((char *)&r)[i] = data[(off + i) % size];
		if (r.h.type == PERF_RECORD_SAMPLE && n >= 16)
			rec_add(in, r.u[1], r.u[1], 0);
		else if (r.h.type == PERF_RECORD_LOST && n >= 24)
			in->lost += r.u[2];
		else if (r.h.type == PERF_RECORD_THROTTLE)
			in->throttled++;
		if (!r.h.size)
			break;
		tail += r.h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

static int run_timer(struct inj *in)
{
	uint64_t t;
	size_t i;
	int err = sleep_until(in->t_start);

	if (err || stopped())
		return err;
	if (ioctl(in->fd, PERF_EVENT_IOC_ENABLE, 0)) {
		err = -errno;
		say("enable the cpu-clock event: %s", strerror(errno));
		return err;
	}
	for (t = mono_ns() + 50000000; !stopped() && t < in->t_end; t += 50000000) {
		sleep_until(t);
		ring_drain(in);
	}
	sleep_until(in->t_end);
	if (ioctl(in->fd, PERF_EVENT_IOC_DISABLE, 0)) {
		err = -errno;
		say("disable the cpu-clock event: %s", strerror(errno));
	}
	ring_drain(in);
	/* overruns the hrtimer merged into one expiry */
	for (i = 1; i < in->nrecs; i++) {
		uint64_t d = in->recs[i].start - in->recs[i - 1].start;
		uint64_t k = (d + in->period_ns / 2) / in->period_ns;

		if (k > 1)
			in->skipped += k - 1;
	}
	return err;
}

/* ---- softirq ---- */

/* cpu_hexmask - the /sys cpumask format for one CPU, e.g. "2" or "1,00000000" */
static void cpu_hexmask(int cpu, char *buf, size_t len)
{
	int groups = cpu / 32 + 1, g;
	size_t off = 0;

	for (g = groups - 1; g >= 0 && off < len; g--) {
		unsigned int v = g == cpu / 32 ? 1U << (cpu % 32) : 0;

		off += (size_t)snprintf(buf + off, len - off, g == groups - 1 ? "%x" : ",%08x", v);
	}
}

static int setup_softirq(struct inj *in)
{
	struct sockaddr_in a = { .sin_family = AF_INET }, b;
	socklen_t alen = sizeof(a);
	char mask[64];
	int err;

	if (access(in->rfs ? RFS_FLOW_PATH : RPS_PATH, W_OK)) {
		say("%s: %s (needs CONFIG_RPS and root)", in->rfs ? RFS_FLOW_PATH : RPS_PATH,
		    strerror(errno));
		return -errno;
	}
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	b = a;
	/* rfs: the reader blocks in recv() on CPU N; both ends connected, so that the flow
	 * is the reader's (a connected socket records its flow's CPU in recvmsg()) */
	in->rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | (in->rfs ? 0 : SOCK_NONBLOCK), 0);
	in->tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (in->rx < 0 || in->tx < 0 || bind(in->rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(in->rx, (struct sockaddr *)&a, &alen) ||
	    bind(in->tx, (struct sockaddr *)&b, sizeof(b)) ||
	    getsockname(in->tx, (struct sockaddr *)&b, &alen) ||
	    connect(in->tx, (struct sockaddr *)&a, sizeof(a)) ||
	    (in->rfs && connect(in->rx, (struct sockaddr *)&b, sizeof(b)))) {
		err = -errno;
		say("loopback UDP sockets: %s", strerror(errno));
		return err;
	}
	if (in->rfs) {
		err = set_setting(RFS_SOCK_PATH, RFS_ENTRIES);
		return err ? err : set_setting(RFS_FLOW_PATH, RFS_ENTRIES);
	}
	cpu_hexmask(in->cpu, mask, sizeof(mask));
	return set_setting(RPS_PATH, mask);
}

static void softirq_drain(struct inj *in)
{
	char buf[64];

	while (recv(in->rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		in->received++;
}

static int act_softirq(struct inj *in, uint64_t slot)
{
	uint64_t seq = in->nrecs, s, e;

	if (!in->rfs) /* rfs: the reader on CPU N takes them */
		softirq_drain(in);
	s = mono_ns();
	if (send(in->tx, &seq, sizeof(seq), 0) != sizeof(seq))
		return -errno;
	e = mono_ns();
	rec_add(in, s, e, slot);
	return 0;
}

/* rfs_read_loop - the FIFO reader on CPU N: each recv() records the flow's CPU (RFS), so the
 * next datagram's NET_RX is queued there, with an IPI; until the sender shuts it down */
static int rfs_read_loop(struct inj *in)
{
	uint64_t seq;
	ssize_t n;

	for (;;) {
		n = recv(in->rx, &seq, sizeof(seq), 0);
		if (n == 0)
			return 0; /* shut down: the sender is done */
		if (n < 0) {
			if (errno == EINTR && !stopped())
				continue;
			return stopped() ? 0 : -errno;
		}
		atomic_fetch_add(&in->rfs_got, 1);
		if (sched_getcpu() != in->cpu)
			in->wrong_cpu++;
	}
}

/* rfs_wait - wait (at most @ns) until the reader has @n datagrams */
static int rfs_wait(struct inj *in, uint64_t n, uint64_t ns)
{
	uint64_t end = mono_ns() + ns;

	while (atomic_load(&in->rfs_got) < n && mono_ns() < end && !stopped())
		usleep(1000);
	return atomic_load(&in->rfs_got) >= n ? 0 : -ETIMEDOUT;
}

/* rfs_sender - warm-up datagrams until the flow table points at CPU N (the reader must have
 * received one there), then the schedule, from now; then shut the reader down */
static void *rfs_sender(void *arg)
{
	struct inj *in = arg;
	uint64_t warm = 0, len = in->t_end - in->t_start;
	int err = 0;

	pthread_setname_np(pthread_self(), "jssender");
	for (int i = 0; i < RFS_WARMUPS && !err && !stopped(); i++) {
		err = send(in->tx, &warm, sizeof(warm), 0) == sizeof(warm) ? 0 : -errno;
		if (!err)
			err = rfs_wait(in, (uint64_t)i + 1, 2 * NSEC_PER_SEC);
	}
	if (err == -ETIMEDOUT)
		say("the reader on CPU %d received no warm-up datagram in 2 s", in->cpu);
	in->t_start = mono_ns() + 20000000;
	in->t_end = in->t_start + len;
	if (!err)
		err = run_periodic(in, act_softirq);
	if (!err) /* the last datagrams, as run_softirq collects them */
		(void)rfs_wait(in, RFS_WARMUPS + in->nrecs, 200000000);
	in->rfs_err = err;
	shutdown(in->rx, SHUT_RD); /* the reader's recv() returns 0 */
	return NULL;
}

/* run_softirq_rfs - the sender thread (the helper CPU's, inherited), the reader (FIFO, on N) */
static int run_softirq_rfs(struct inj *in)
{
	pthread_t st;
	int err;

	in->fifo_loop = rfs_read_loop;
	block_stop_signals(SIG_BLOCK);
	err = -pthread_create(&st, NULL, rfs_sender, in);
	block_stop_signals(SIG_UNBLOCK);
	if (err) {
		say("cannot start the sender thread: %s", strerror(-err));
		return err;
	}
	err = run_fifo_worker(in, NULL);
	if (err)
		shutdown(in->rx, SHUT_RD);
	pthread_join(st, NULL);
	in->received = atomic_load(&in->rfs_got);
	in->received -= in->received >= RFS_WARMUPS ? RFS_WARMUPS : in->received;
	if (in->rfs_err)
		say("send on loopback: %s", strerror(-in->rfs_err));
	return err ? err : in->rfs_err;
}

static int run_softirq(struct inj *in)
{
	struct pollfd p = { .fd = in->rx, .events = POLLIN };
	uint64_t deadline;
	int err;

	if (in->rfs)
		return run_softirq_rfs(in);
	err = run_periodic(in, act_softirq);

	if (err)
		say("send on loopback: %s", strerror(-err));
	/* collect the last packets (the receiver is on the helper CPU) */
	deadline = mono_ns() + 200000000;
	softirq_drain(in);
	while (in->received < in->nrecs && mono_ns() < deadline && !stopped()) {
		poll(&p, 1, 20);
		softirq_drain(in);
	}
	return err;
}

/* ---- irq ---- */

/* disk_basename - the device name of the disk behind @dev, e.g. "virtio1" or "nvme0" */
static int disk_basename(dev_t dev, char *name, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], dpath[PATH_MAX + 16];
	struct stat st;
	char *base;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(path, real))
		return -errno;
	snprintf(dpath, sizeof(dpath), "%s/partition", real);
	if (!stat(dpath, &st))
		*strrchr(real, '/') = '\0';
	snprintf(dpath, sizeof(dpath), "%s/device", real);
	if (!realpath(dpath, path))
		return -errno;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(name, base, strlen(base) + 1);
	return 0;
}

struct irq_find {
	const char *dev;
	int irq;
	char name[64];
	int cpu;
	int on_cpu;
};

static int irq_effective_has(int irq, int cpu, char *list, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list", irq);
	if (read_line(path, list, len)) {
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
		if (read_line(path, list, len))
			return 0;
		return !strchr(list, ',') && !strchr(list, '-') && atoi(list) == cpu;
	}
	return cpulist_has(list, cpu);
}

static void irq_find_cb(void *ctx, const char *label, uint64_t v, const char *rest)
{
	struct irq_find *f = ctx;
	size_t n = strlen(f->dev);
	const char *name = strrchr(rest, ' ');
	char list[64];
	int irq, on;

	(void)v;
	name = name ? name + 1 : rest;
	if (strncmp(name, f->dev, n) || (name[n] >= '0' && name[n] <= '9') ||
	    strstr(name, "config"))
		return;
	irq = atoi(label);
	on = irq_effective_has(irq, f->cpu, list, sizeof(list));
	if (f->irq >= 0 && (f->on_cpu || !on))
		return;
	f->irq = irq;
	f->on_cpu = on;
	snprintf(f->name, sizeof(f->name), "%s", name);
}

struct irq_name {
	int irq;
	char *name;
	size_t len;
};

static void irq_name_cb(void *ctx, const char *label, uint64_t v, const char *rest)
{
	struct irq_name *x = ctx;
	const char *name = strrchr(rest, ' ');

	(void)v;
	if (atoi(label) == x->irq && label[0] >= '0' && label[0] <= '9')
		snprintf(x->name, x->len, "%s", name ? name + 1 : rest);
}

/* find_disk_irq - the disk's queue IRQ, preferring one already aimed at the target CPU */
static int find_disk_irq(struct inj *in, dev_t dev)
{
	struct irq_find f = { .irq = -1, .cpu = in->cpu };
	struct irq_name x = { .irq = in->irq_opt,
			      .name = in->irq_name,
			      .len = sizeof(in->irq_name) };
	char dname[64];
	int err;

	if (in->irq_opt >= 0) {
		in->irq = in->irq_opt;
		return read_percpu_table("/proc/interrupts", in->cpu, irq_name_cb, &x);
	}
	err = disk_basename(dev, dname, sizeof(dname));
	if (err) {
		say("cannot find the disk device behind %s (%u:%u): %s; use --irq N", in->dir,
		    major(dev), minor(dev), strerror(-err));
		return err;
	}
	f.dev = dname;
	err = read_percpu_table("/proc/interrupts", in->cpu, irq_find_cb, &f);
	if (!err && f.irq < 0) {
		say("no IRQ named after disk device %s in /proc/interrupts; use --irq N", dname);
		err = -ENOENT;
	}
	in->irq = f.irq;
	snprintf(in->irq_name, sizeof(in->irq_name), "%s", f.name);
	return err;
}

/*
 * steer_irq - make sure the IRQ's effective affinity includes the target CPU.  To restore,
 * the old effective CPU is written first, then the old mask: x86 keeps a vector whose CPU is in
 * the new mask, so the effective affinity comes back too (see irq_restore for the wait between
 * the two; the signal-safe fallback in restore_all cannot wait).
 */
static int steer_irq(struct inj *in)
{
	char path[64], list[64], eff[64], val[16];
	int err, i;

	if (irq_effective_has(in->irq, in->cpu, eff, sizeof(eff)))
		return 0;
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", in->irq);
	snprintf(val, sizeof(val), "%d", in->cpu);
	in->irq_saved = atomic_load(&g_nsaved);
	err = set_setting(path, val);
	if (!err && eff[0])
		err = save_value(path, eff);
	if (err)
		goto out;
	snprintf(in->irq_eff, sizeof(in->irq_eff), "%s", eff);
	in->steered = 1;
	/* without interrupt remapping an MSI moves at its next interrupt: make some */
	for (i = 0; i < 250 && !irq_effective_has(in->irq, in->cpu, list, sizeof(list)); i++) {
		if (pread(in->fd, in->buf, PAGE, (off_t)(i * PAGE)) < 0)
			break;
		usleep(2000);
	}
	if (!irq_effective_has(in->irq, in->cpu, list, sizeof(list))) {
		say("IRQ %d (%s) did not move to CPU %d within 0.5 s (effective %s)", in->irq,
		    in->irq_name, in->cpu, list);
		return -EIO;
	}
	return 0;
out:
	say("cannot steer IRQ %d (%s) to CPU %d (a managed IRQ?); pick --cpu %s", in->irq,
	    in->irq_name, in->cpu, eff);
	return err;
}

/* make_scratch - an unlinked 64 MiB file in --dir, written with O_DIRECT so reads hit the disk */
static int make_scratch(struct inj *in)
{
	char path[PATH_MAX];
	uint64_t off;
	int err = 0;

	snprintf(path, sizeof(path), "%s/jsinject.XXXXXX", in->dir);
	in->fd = mkostemp(path, O_DIRECT | O_CLOEXEC);
	if (in->fd < 0) {
		err = -errno;
		say("cannot create an O_DIRECT scratch file in %s: %s", in->dir, strerror(errno));
		return err;
	}
	unlink(path);
	if (posix_memalign(&in->buf, PAGE, 1UL << 20))
		return -ENOMEM;
	memset(in->buf, 0x5a, 1UL << 20);
	for (off = 0; off < IRQ_FILE_SIZE && !err; off += 1UL << 20)
		if (pwrite(in->fd, in->buf, 1UL << 20, (off_t)off) != (ssize_t)(1UL << 20))
			err = errno ? -errno : -EIO;
	if (!err && fdatasync(in->fd))
		err = -errno;
	if (err)
		say("cannot write the scratch file in %s: %s", in->dir, strerror(-err));
	return err;
}

static int setup_irq(struct inj *in)
{
	struct stat st;
	int err;

	err = make_scratch(in);
	if (err)
		return err;
	if (fstat(in->fd, &st))
		return -errno;
	err = find_disk_irq(in, st.st_dev);
	if (err)
		return err;
	return steer_irq(in);
}

/* wait_irq_move - make interrupts until the IRQ's effective affinity is @want (<= ~0.5 s) */
static int wait_irq_move(struct inj *in, const char *want)
{
	char path[64], list[64];
	int i;

	snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list", in->irq);
	for (i = 0; i < 250; i++) {
		if (read_line(path, list, sizeof(list)) || !strcmp(list, want))
			return 0;
		if (in->fd >= 0 && pread(in->fd, in->buf, PAGE, (off_t)(i * PAGE)) < 0)
			break;
		usleep(2000);
	}
	say("warning: IRQ %d still has effective affinity %s, not %s (it moves at its next "
	    "interrupt)",
	    in->irq, list, want);
	return -EAGAIN;
}

/*
 * irq_restore - put the IRQ's affinity back: the old effective CPU, wait until the IRQ has
 * moved there (an MSI without remapping moves at its next interrupt), then the old mask
 */
static int irq_restore(struct inj *in)
{
	struct saved_setting *mask = &g_saved[in->irq_saved];
	struct saved_setting *eff = &g_saved[in->irq_saved + 1];
	int err = 0;

	if (!in->steered)
		return 0;
	if (atomic_exchange(&eff->armed, 0)) {
		err = write_str(eff->path, eff->value, eff->len);
		if (!err)
			wait_irq_move(in, in->irq_eff);
	}
	if (!err && atomic_exchange(&mask->armed, 0))
		err = write_str(mask->path, mask->value, mask->len);
	if (err)
		say("cannot restore the affinity of IRQ %d: %s", in->irq, strerror(-err));
	return err;
}

static int act_irq(struct inj *in, uint64_t slot)
{
	unsigned int i;
	uint64_t s, e;
	off_t off;

	for (i = 0; i < in->count; i++) {
		in->rnd = in->rnd * 6364136223846793005ULL + 1442695040888963407ULL;
		off = (off_t)((in->rnd >> 33) % (IRQ_FILE_SIZE / PAGE) * PAGE);
		s = mono_ns();
		if (pread(in->fd, in->buf, PAGE, off) != (ssize_t)PAGE)
			return errno ? -errno : -EIO;
		e = mono_ns();
		rec_add(in, s, e, slot);
	}
	return 0;
}

static int run_irq(struct inj *in)
{
	int err = run_periodic(in, act_irq);

	if (err)
		say("O_DIRECT pread: %s", strerror(-err));
	return err;
}

/* ---- modes ---- */

struct mode_ops {
	int (*setup)(struct inj *in);
	int (*run)(struct inj *in);
	unsigned int count; /* default --count; 0: --count not used */
};

static const struct mode_ops ops[M_NR] = {
	[M_PREEMPT] = { NULL, run_preempt, 0 },	   [M_IPI] = { setup_ipi, run_ipi, 1 },
	[M_TIMER] = { setup_timer, run_timer, 0 }, [M_SOFTIRQ] = { setup_softirq, run_softirq, 0 },
	[M_IRQ] = { setup_irq, run_irq, 1 },	   [M_PF] = { NULL, run_pf, 64 },
	[M_PIPE] = { setup_pipe, run_pipe, 0 },
};

static void teardown(struct inj *in)
{
	irq_restore(in);
	if (in->ring)
		munmap(in->ring, in->ring_len);
	if (in->fd >= 0)
		close(in->fd);
	if (in->tx >= 0)
		close(in->tx);
	for (int i = 0; i < 2; i++) {
		if (in->pipe_fd[i] >= 0)
			close(in->pipe_fd[i]);
		if (in->first_fd[i] >= 0)
			close(in->first_fd[i]);
	}
	in->pipe_fd[0] = in->pipe_fd[1] = in->first_fd[0] = in->first_fd[1] = -1;
	if (in->rx >= 0)
		close(in->rx);
	free(in->buf);
	in->ring = NULL;
	in->fd = in->tx = in->rx = -1;
	in->buf = NULL;
}

/* ---- output ---- */

static int write_log(const struct inj *in)
{
	FILE *f = fopen(in->log_path, "w");
	size_t i;

	if (!f) {
		say("cannot write the log %s: %s", in->log_path, strerror(errno));
		return -errno;
	}
	fputs("mode,seq,start_ns,end_ns\n", f);
	for (i = 0; i < in->nrecs; i++)
		fprintf(f, "%s,%zu,%llu,%llu\n", mode_names[in->mode], i,
			(unsigned long long)in->recs[i].start, (unsigned long long)in->recs[i].end);
	if (fclose(f)) {
		say("cannot write the log %s: %s", in->log_path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* print_stats - min/median/p90/p99/max (nearest rank) of @n values, in µs */
static void print_stats(const char *key, uint64_t *v, size_t n)
{
	static const struct {
		const char *name;
		double q;
	} qs[] = {
		{ "min", 0 }, { "med", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "max", 1 },
	};
	size_t i, k;

	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		k = qs[i].q ? (size_t)ceil(qs[i].q * (double)n) - 1 : 0;
		printf("%s_%s_us=%.2f\n", key, qs[i].name, (double)v[k] / 1e3);
	}
}

static void print_summary(struct inj *in)
{
	const struct counters *a = &in->c0, *b = &in->c1;
	uint64_t *v = calloc(in->nrecs + 1, sizeof(*v));
	size_t i, n = 0;

	printf("mode=%s\ncpu=%d\nhelper_cpu=%d\nperiod_us=%llu\nduration_s=%.3f\n",
	       mode_names[in->mode], in->cpu, in->helper,
	       (unsigned long long)(in->period_ns / NSEC_PER_USEC), in->duration);
	if (in->mode == M_PREEMPT || in->mode == M_PIPE)
		printf("spin_us=%llu\n", (unsigned long long)(in->spin_ns / NSEC_PER_USEC));
	if (ops[in->mode].count)
		printf("count=%u\n", in->count);
	printf("actions=%zu\nskipped=%llu\nlog_overflow=%llu\n", in->nrecs,
	       (unsigned long long)in->skipped, (unsigned long long)in->overflow);
	printf("loc_delta=%llu\ncal_delta=%llu\nres_delta=%llu\ntlb_delta=%llu\niwi_delta=%llu\n",
	       (unsigned long long)(b->loc - a->loc), (unsigned long long)(b->cal - a->cal),
	       (unsigned long long)(b->res - a->res), (unsigned long long)(b->tlb - a->tlb),
	       (unsigned long long)(b->iwi - a->iwi));
	printf("net_rx_delta=%llu\nblock_delta=%llu\ntimer_softirq_delta=%llu\n",
	       (unsigned long long)(b->net_rx - a->net_rx),
	       (unsigned long long)(b->block - a->block),
	       (unsigned long long)(b->timer - a->timer));
	switch (in->mode) {
	case M_PREEMPT:
	case M_PIPE:
	case M_PF:
		printf("wrong_cpu=%llu\nswitches=%llu\nthread_cpu_us=%llu\n",
		       (unsigned long long)in->wrong_cpu, (unsigned long long)in->switches,
		       (unsigned long long)(in->thread_cpu_ns / NSEC_PER_USEC));
		if (in->mode == M_PF)
			printf("faults=%llu\nfaults_min_burst=%llu\n",
			       (unsigned long long)in->faults, (unsigned long long)in->faults_min);
		if (in->first_ns)
			printf("first_spin_us=%llu\nfirst_missed=%llu\n",
			       (unsigned long long)(in->first_ns / NSEC_PER_USEC),
			       (unsigned long long)in->first_missed);
		break;
	case M_TIMER:
		printf("lost=%llu\nthrottled=%llu\n", (unsigned long long)in->lost,
		       (unsigned long long)in->throttled);
		break;
	case M_SOFTIRQ:
		printf("steer=%s\nreceived=%llu\n", in->rfs ? "rfs" : "rps",
		       (unsigned long long)in->received);
		if (in->rfs)
			printf("wrong_cpu=%llu\n", (unsigned long long)in->wrong_cpu);
		break;
	case M_IRQ:
		printf("irq=%d\nirq_name=%s\nirq_steered=%d\nirq_delta=%llu\n", in->irq,
		       in->irq_name, in->steered, (unsigned long long)(b->irq - a->irq));
		break;
	default:
		break;
	}
	if (v && in->mode != M_TIMER) {
		for (i = 0; i < in->nrecs; i++)
			v[i] = in->recs[i].end - in->recs[i].start;
		print_stats("dur", v, in->nrecs);
		for (i = 0, n = 0; i < in->nrecs; i++)
			if (in->recs[i].slot &&
			    (i == 0 || in->recs[i].slot != in->recs[i - 1].slot))
				v[n++] = in->recs[i].start - in->recs[i].slot;
		print_stats("late", v, n);
	}
	if (v && in->mode == M_TIMER) {
		for (i = 1; i < in->nrecs; i++)
			v[n++] = in->recs[i].start - in->recs[i - 1].start;
		print_stats("ivl", v, n);
	}
	printf("interrupted=%d\n", atomic_load(&g_signal) || atomic_load(&g_rttime));
	if (in->log_path)
		printf("log=%s\n", in->log_path);
	free(v);
	fflush(stdout);
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fputs("usage: jsinject --mode MODE --cpu N [--duration SECS] [--period US] [--spin US]\n"
	      "                [--count N] [--log FILE] [--helper-cpu M] [--dir DIR] [--irq N]\n"
	      "                [--windows MS --windows-log FILE] [--steer rps|rfs]\n"
	      "                [--first-spin US]\n"
	      "modes:\n  preempt  SCHED_FIFO 50 thread on CPU N spins --spin us every period\n"
	      "  ipi      --count perf enable/disable ioctls per period, one IPI each to CPU N\n"
	      "  timer    perf cpu-clock hrtimer on CPU N expiring every period\n"
	      "  softirq  one loopback UDP packet per period, RPS-steered to CPU N (NET_RX);\n"
	      "           --steer rfs: RFS-steered to a SCHED_FIFO reader on CPU N (a CPU\n"
	      "           isolcpus= or nohz_full= keeps out of rps_cpus)\n"
	      "  irq      --count O_DIRECT 4 KiB preads per period; disk IRQ aimed at CPU N\n"
	      "  pf       SCHED_FIFO thread on CPU N maps, touches, unmaps --count pages\n"
	      "  pipe     a writer (jswriter) writes a byte to a pipe every period; a SCHED_FIFO\n"
	      "           reader on CPU N wakes from read() and spins --spin us; --first-spin US:\n"
	      "           before each write a second SCHED_FIFO thread (jsfirst) takes CPU N\n"
	      "           and spins US us, so the reader wakes while another task holds it\n"
	      "defaults: --duration 5 --period 10000 --spin 200; --count 1 (ipi, irq), 64 (pf);\n"
	      "          --helper-cpu: the first other allowed CPU; --dir /var/tmp\n"
	      "log: CSV 'mode,seq,start_ns,end_ns' (CLOCK_MONOTONIC); summary: key=value on stdout\n"
	      "--windows MS: ipi/softirq/irq act only in 'on' windows of 0.6-1.4 x MS, on and off\n"
	      "          in turn, logged to --windows-log as CSV 'state,start_ns,end_ns'\n"
	      "exit: 0 ok, 1 failure, 2 usage, 3 interrupted, 4 watchdog\n",
	      f);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' ? -EINVAL : 0;
}

static int parse_args(struct inj *in, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' },
		{ "period", required_argument, NULL, 'p' },
		{ "spin", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "log", required_argument, NULL, 'l' },
		{ "helper-cpu", required_argument, NULL, 'H' },
		{ "dir", required_argument, NULL, 'D' },
		{ "irq", required_argument, NULL, 'i' },
		{ "windows", required_argument, NULL, 'w' },
		{ "windows-log", required_argument, NULL, 'W' },
		{ "steer", required_argument, NULL, 'S' },
		{ "first-spin", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t v;
	char *end;
	int c, m, bad = 0, steer_set = 0;

	while ((c = getopt_long(argc, argv, "m:c:d:p:s:n:l:H:D:i:w:W:S:F:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			for (m = 0; m < M_NR && strcmp(optarg, mode_names[m]); m++)
				;
			bad |= m == M_NR;
			in->mode = (enum mode)m;
			break;
		case 'c':
			bad |= parse_u64(optarg, &v) || v > 4095;
			in->cpu = (int)v;
			break;
		case 'H':
			bad |= parse_u64(optarg, &v) || v > 4095;
			in->helper = (int)v;
			break;
		case 'd':
			in->duration = strtod(optarg, &end);
			bad |= *end || !(in->duration > 0 && in->duration <= 3600);
			break;
		case 'p':
			bad |= parse_u64(optarg, &v) || v < 10 || v > 10000000;
			in->period_ns = v * NSEC_PER_USEC;
			break;
		case 's':
			bad |= parse_u64(optarg, &v) || v < 1 || v > 100000;
			in->spin_ns = v * NSEC_PER_USEC;
			break;
		case 'n':
			bad |= parse_u64(optarg, &v) || v < 1 || v > 65536;
			in->count = (unsigned int)v;
			in->count_set = 1;
			break;
		case 'l':
			in->log_path = optarg;
			break;
		case 'D':
			in->dir = optarg;
			break;
		case 'i':
			bad |= parse_u64(optarg, &v) || v > 65535;
			in->irq_opt = (int)v;
			break;
		case 'w':
			bad |= parse_u64(optarg, &v) || v < 10 || v > 60000;
			in->win_ns = v * 1000000ull;
			break;
		case 'W':
			in->win_path = optarg;
			break;
		case 'S':
			bad |= strcmp(optarg, "rps") && strcmp(optarg, "rfs");
			in->rfs = !strcmp(optarg, "rfs");
			steer_set = 1;
			break;
		case 'F':
			bad |= parse_u64(optarg, &v) || v < 1 || v > 100000;
			in->first_ns = v * NSEC_PER_USEC;
			break;
		case 'h':
			usage(stdout);
			exit(EX_OK);
		default:
			bad = 1;
		}
		if (bad) {
			if (c != '?')
				say("invalid value for -%c/--%s: '%s'", c,
				    lo[strchr("mcdpsnlHDiwWSF", c) - "mcdpsnlHDiwWSF"].name,
				    optarg);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		say("unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (in->mode == M_NR || in->cpu < 0) {
		say("--mode and --cpu are required");
		return -EINVAL;
	}
	if (in->count_set && !ops[in->mode].count) {
		say("--count is not used by mode %s", mode_names[in->mode]);
		return -EINVAL;
	}
	if (!in->count_set)
		in->count = ops[in->mode].count;
	if (steer_set && in->mode != M_SOFTIRQ) {
		say("--steer is used by mode softirq only");
		return -EINVAL;
	}
	if (in->rfs && in->win_ns) {
		say("--windows is not used with --steer rfs");
		return -EINVAL;
	}
	if ((in->win_ns || in->win_path) &&
	    (!in->win_ns || !in->win_path ||
	     (in->mode != M_IPI && in->mode != M_SOFTIRQ && in->mode != M_IRQ))) {
		say("--windows and --windows-log go together, with mode ipi, softirq or irq");
		return -EINVAL;
	}
	if ((in->mode == M_PREEMPT || in->mode == M_PIPE) && in->spin_ns * 2 > in->period_ns) {
		say("--spin must be at most half of --period");
		return -EINVAL;
	}
	if (in->first_ns &&
	    (in->mode != M_PIPE || (in->first_ns + in->spin_ns) * 2 > in->period_ns)) {
		say("--first-spin goes with mode pipe, with --first-spin + --spin at most half of "
		    "--period");
		return -EINVAL;
	}
	return 0;
}

/*
 * pick_cpus - check the target CPU and choose the helper CPU, pin the main thread to it. The
 * target may be outside the affinity we were started with: a box booted with isolcpus= gives
 * every shell the housekeeping CPUs, and a thread may still be pinned to an isolated CPU
 * (only a cpuset forbids it), so the kernel is asked by pinning this thread there once.
 */
static int pick_cpus(struct inj *in)
{
	cpu_set_t allowed, set;
	int c;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	CPU_ZERO(&set);
	if (in->cpu < CPU_SETSIZE)
		CPU_SET(in->cpu, &set);
	if (!CPU_ISSET(in->cpu, &allowed) && sched_setaffinity(0, sizeof(set), &set)) {
		say("CPU %d is offline or not in this process's cpuset", in->cpu);
		return -EINVAL;
	}
	for (c = 0; in->helper < 0 && c < CPU_SETSIZE; c++)
		if (c != in->cpu && CPU_ISSET(c, &allowed))
			in->helper = c;
	if (in->helper < 0 || in->helper == in->cpu || !CPU_ISSET(in->helper, &allowed)) {
		say("need a helper CPU other than CPU %d (--helper-cpu)", in->cpu);
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET(in->helper, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	return 0;
}

/* alloc_recs - the action log, sized for the whole run and pre-faulted */
static int alloc_recs(struct inj *in)
{
	double periods = in->duration * 1e9 / (double)in->period_ns + 2;

	in->caprecs = (size_t)(periods * (in->count ? in->count : 1)) + 64;
	if (in->caprecs > MAX_RECS) {
		say("too many actions for one run (%zu > %lu): raise --period or lower --duration",
		    in->caprecs, MAX_RECS);
		return -E2BIG;
	}
	in->recs = calloc(in->caprecs, sizeof(*in->recs));
	if (!in->recs)
		return -ENOMEM;
	memset(in->recs, 0xff, in->caprecs * sizeof(*in->recs));
	return 0;
}

int main(int argc, char **argv)
{
	struct inj in = {
		.mode = M_NR,
		.cpu = -1,
		.helper = -1,
		.duration = 5,
		.period_ns = 10000 * NSEC_PER_USEC,
		.spin_ns = 200 * NSEC_PER_USEC,
		.dir = "/var/tmp",
		.irq_opt = -1,
		.irq = -1,
		.fd = -1,
		.tx = -1,
		.pipe_fd = { -1, -1 },
		.first_fd = { -1, -1 },
		.rx = -1,
		.rnd = 0x9e3779b97f4a7c15ULL,
	};
	int err, rc = EX_FAIL;

	if (parse_args(&in, argc, argv)) {
		fputs("try 'jsinject --help'\n", stderr);
		return EX_USAGE;
	}
	err = install_signals();
	if (!err)
		err = pick_cpus(&in);
	if (!err)
		err = alloc_recs(&in);
	if (err)
		goto out;
	if (ops[in.mode].setup) {
		err = ops[in.mode].setup(&in);
		if (err)
			goto out;
	}
	if (stopped())
		goto out;
	err = read_counters(&in, &in.c0);
	if (err)
		goto out;
	alarm((unsigned int)ceil(in.duration) + WATCHDOG_GRACE);
	in.t_start = mono_ns() + 20000000;
	in.t_end = in.t_start + (uint64_t)(in.duration * 1e9);
	err = in.win_ns ? make_windows(&in) : 0;
	if (!err)
		err = ops[in.mode].run(&in);
	if (read_counters(&in, &in.c1) && !err)
		err = -EIO;
	alarm(0);
	teardown(&in);
	if (restore_all(0) && !err)
		err = -EIO;
	if (in.log_path && write_log(&in) && !err)
		err = -EIO;
	if (in.win_path && write_windows(&in) && !err)
		err = -EIO;
	print_summary(&in);
	if (atomic_load(&g_rttime))
		say("stopped by RLIMIT_RTTIME: the SCHED_FIFO thread ran too long without sleeping");
	rc = err					      ? EX_FAIL :
	     atomic_load(&g_signal) || atomic_load(&g_rttime) ? EX_INTERRUPTED :
								EX_OK;
out:
	teardown(&in);
	if (restore_all(0))
		rc = EX_FAIL;
	if (atomic_load(&g_signal) && rc == EX_FAIL && !err)
		rc = EX_INTERRUPTED;
	free(in.recs);
	free(in.wins);
	return rc;
}
