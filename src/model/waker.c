// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* waker.c - who woke a preempting task: named and told (js_waker.h) */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "js_util.h"
#include "js_waker.h"

static const char *const ctx_names[JS_WAKE_CTX_MAX] = {
	[JS_WAKE_TASK] = "task",   [JS_WAKE_HARDIRQ] = "hardirq", [JS_WAKE_SOFTIRQ] = "softirq",
	[JS_WAKE_TIMER] = "timer", [JS_WAKE_NMI] = "nmi",	  [JS_WAKE_UNKNOWN] = "unknown",
};

/* the story's word for an interrupt context */
static const char *const ctx_labels[JS_WAKE_CTX_MAX] = {
	[JS_WAKE_HARDIRQ] = "hard IRQ",
	[JS_WAKE_SOFTIRQ] = "softirq",
	[JS_WAKE_TIMER] = "timer",
	[JS_WAKE_NMI] = "NMI",
};

const char *js_wake_ctx_name(uint32_t ctx)
{
	return ctx < JS_WAKE_CTX_MAX && ctx_names[ctx] ? ctx_names[ctx] : "";
}

int js_wake_ctx_from_name(const char *name)
{
	for (int c = JS_WAKE_NONE + 1; name && c < JS_WAKE_CTX_MAX; c++)
		if (!strcmp(ctx_names[c], name))
			return c;
	return -1;
}

/* the system calls a task wakes another from, this build's numbers (<sys/syscall.h>): the
 * waker's path where the kernel says it. Others are told by number. */
#define SC(n)               \
	{                   \
		SYS_##n, #n \
	}
static const struct {
	int nr;
	const char *name;
} syscalls[] = {
	SC(read),
	SC(write),
	SC(readv),
	SC(writev),
	SC(pread64),
	SC(pwrite64),
	SC(close),
	SC(ioctl),
	SC(futex),
	SC(sendto),
	SC(sendmsg),
	SC(recvfrom),
	SC(recvmsg),
	SC(sendfile),
	SC(splice),
	SC(tee),
	SC(vmsplice),
	SC(kill),
	SC(tkill),
	SC(tgkill),
	SC(rt_sigqueueinfo),
	SC(exit),
	SC(exit_group),
	SC(wait4),
	SC(waitid),
	SC(clone),
	SC(execve),
	SC(nanosleep),
	SC(clock_nanosleep),
	SC(sched_yield),
	SC(sched_setaffinity),
	SC(sched_setscheduler),
	SC(sched_setattr),
	SC(ppoll),
	SC(pselect6),
	SC(epoll_ctl),
	SC(epoll_pwait),
	SC(timerfd_settime),
	SC(eventfd2),
	SC(mq_timedsend),
	SC(mq_timedreceive),
	SC(msgsnd),
	SC(msgrcv),
	SC(semop),
	SC(semtimedop),
	SC(fsync),
	SC(fdatasync),
	SC(mmap),
	SC(munmap),
	SC(mprotect),
	SC(madvise),
	SC(connect),
	SC(accept4),
	SC(shutdown),
	SC(openat),
	SC(unlinkat),
	SC(membarrier),
	SC(io_submit),
	SC(io_getevents),
	SC(getrandom),
#ifdef SYS_poll
	SC(poll),
#endif
#ifdef SYS_select
	SC(select),
#endif
#ifdef SYS_epoll_wait
	SC(epoll_wait),
#endif
#ifdef SYS_fork
	SC(fork),
#endif
#ifdef SYS_vfork
	SC(vfork),
#endif
#ifdef SYS_accept
	SC(accept),
#endif
#ifdef SYS_clone3
	SC(clone3),
#endif
#ifdef SYS_io_uring_enter
	SC(io_uring_enter),
#endif
#ifdef SYS_pidfd_send_signal
	SC(pidfd_send_signal),
#endif
#ifdef SYS_futex_waitv
	SC(futex_waitv),
#endif
#ifdef SYS_futex_wake
	SC(futex_wake),
#endif
#ifdef SYS_epoll_pwait2
	SC(epoll_pwait2),
#endif
};
#undef SC

const char *js_syscall_name(int nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(syscalls); i++)
		if (syscalls[i].nr == nr)
			return syscalls[i].name;
	return NULL;
}

int js_syscall_from_name(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(syscalls); i++)
		if (!strcmp(syscalls[i].name, name))
			return syscalls[i].nr;
	return -1;
}

bool js_waker_from_event(const struct js_event *e, uint64_t gap_start, struct js_waker *w)
{
	uint64_t at;

	memset(w, 0, sizeof(*w));
	w->syscall = -1;
	if (!e || e->kind != JS_EV_TASK || !(e->flags & JS_F_WAKE) || !e->wake.ctx ||
	    e->wake.ctx >= JS_WAKE_CTX_MAX)
		return false;
	at = e->start_ns - JS_MIN((uint64_t)e->wake.lead_ns, e->start_ns);
	w->at_ns = (int64_t)(at - gap_start); /* two's complement: before the gap is < 0 */
	w->pid = e->wake.pid;
	w->cpu = e->wake.cpu;
	w->ctx = e->wake.ctx;
	w->syscall = e->wake.syscall == JS_WAKE_NOSYS ? -1 : (int32_t)e->wake.syscall;
	w->stack = e->wake.stack; /* the probes' id + 1: the drain makes it a ref */
	memcpy(w->comm, e->wake.comm, sizeof(w->comm));
	w->comm[sizeof(w->comm) - 1] = '\0';
	return true;
}

int js_waker_who(char *buf, size_t len, const struct js_waker *w)
{
	if (w->ctx < JS_WAKE_CTX_MAX && ctx_labels[w->ctx])
		return snprintf(buf, len, "%s", ctx_labels[w->ctx]);
	return snprintf(buf, len, "%.16s:%u", w->comm[0] ? w->comm : "?", w->pid);
}

int js_waker_format(char *buf, size_t len, const struct js_waker *w)
{
	char who[48], via[40] = "", t[32];
	const char *sc;
	uint64_t d;

	if (!w->ctx) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	js_waker_who(who, sizeof(who), w);
	if (w->ctx == JS_WAKE_TASK && w->syscall >= 0) {
		sc = js_syscall_name(w->syscall);
		if (sc)
			snprintf(via, sizeof(via), " via %s", sc);
		else
			snprintf(via, sizeof(via), " via syscall %d", (int)w->syscall);
	}
	d = w->at_ns < 0 ? (uint64_t)0 - (uint64_t)w->at_ns : (uint64_t)w->at_ns;
	return snprintf(buf, len, "%s on CPU %u%s %s %s", who, w->cpu, via,
			js_fmt_ns(t, sizeof(t), d), w->at_ns < 0 ? "before" : "into the gap");
}
