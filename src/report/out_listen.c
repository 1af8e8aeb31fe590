// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * out_listen.c - the --listen output: GET /metrics and GET /healthz over HTTP, served by
 * libmicrohttpd (Debian's libmicrohttpd12) from its own thread. See js_listen.h for what
 * is answered, docs/DESIGN.md (out_listen) for why this library and how a client is kept
 * away from the measurement.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "js_listen.h"
#include "js_output.h"
#include "js_params.h"
#include "js_prom.h"
#include "js_result.h"
#include "js_util.h"

#define LISTEN_RENDER_NS 1000000000ull /* the page is rendered again every second */
#define LISTEN_BACKLOG 16
#define LISTEN_CONNS 16	   /* connections at once, all clients */
#define LISTEN_PER_IP 4	   /* ... from one address */
#define LISTEN_TIMEOUT_S 5 /* an idle or slow connection is closed after this */
#define LISTEN_MEM 16384   /* request buffer per connection (headers) */

static const char content_type[] = "text/plain; version=0.0.4; charset=utf-8";

struct listen_out {
	char *addr; /* as given, for messages */
	int fd;	    /* bound, listening; the daemon owns it once started */
	struct MHD_Daemon *d;
	struct js_prom *m;
	uint64_t next_ns;
	int err;	      /* prom_start's, or rendering out of memory */
	pthread_mutex_t lock; /* page, len: the drain thread swaps, the server copies */
	char *page;
	size_t len;
	int http[4]; /* the daemon's threads (named js-http) */
	size_t nhttp;
};

static int parse_port(const char *s, in_port_t *port)
{
	unsigned long v = 0;

	if (!*s || strlen(s) > 5)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v < 1 || v > 65535)
		return -EINVAL;
	*port = htons((in_port_t)v);
	return 0;
}

/* listen_parse - ADDR:PORT (see js_listen.h) */
int listen_parse(const char *s, struct sockaddr_storage *sa, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon, *port;
	size_t hl;

	memset(&ss, 0, sizeof(ss));
	colon = s[0] == '[' ? strstr(s, "]:") : strrchr(s, ':');
	if (!colon) {
		js_errf(err, errlen, "want ADDR:PORT, e.g. 127.0.0.1:9464 or [::1]:9464");
		return -EINVAL;
	}
	port = colon + (s[0] == '[' ? 2 : 1);
	hl = (size_t)(colon - s) - (s[0] == '[');
	if (hl >= sizeof(host)) {
		js_errf(err, errlen, "not an IPv4 address or a bracketed IPv6 address");
		return -EINVAL;
	}
	memcpy(host, s + (s[0] == '['), hl);
	host[hl] = '\0';
	if (s[0] == '[' ? inet_pton(AF_INET6, host, &in6->sin6_addr) != 1 :
			  inet_pton(AF_INET, host, &in4->sin_addr) != 1) {
		js_errf(err, errlen,
			"'%s' is not an IPv4 address or a bracketed IPv6 address (no host names)",
			host);
		return -EINVAL;
	}
	if (parse_port(port, s[0] == '[' ? &in6->sin6_port : &in4->sin_port)) {
		js_errf(err, errlen, "port '%s' is not 1..65535", port);
		return -EINVAL;
	}
	ss.ss_family = s[0] == '[' ? AF_INET6 : AF_INET;
	if (sa)
		*sa = ss;
	return 0;
}

/* open_socket - bound to sa only (IPv6: not IPv4 too), listening; fd or -errno */
static int open_socket(const struct sockaddr_storage *sa)
{
	int fd = socket(sa->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), on = 1;
	socklen_t len = sa->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
						    sizeof(struct sockaddr_in);

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (sa->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
	if (bind(fd, (const struct sockaddr *)sa, len) || listen(fd, LISTEN_BACKLOG)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/*
 * The HTTP library is loaded for --listen only (dlopen): linked in, it and the TLS libraries
 * it depends on (gnutls, nettle, p11-kit ...) were mapped in every run, and mlockall made
 * their ~7 MiB resident (max RSS of one CPU 31.8 -> 38.9 MiB). Six functions are used.
 */
#define MHD_SONAME "libmicrohttpd.so.12"

static struct {
	struct MHD_Response *(*create)(size_t, void *, enum MHD_ResponseMemoryMode);
	enum MHD_Result (*add_header)(struct MHD_Response *, const char *, const char *);
	enum MHD_Result (*queue)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
	void (*destroy)(struct MHD_Response *);
	struct MHD_Daemon *(*start)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
				    MHD_AccessHandlerCallback, void *, ...);
	void (*stop)(struct MHD_Daemon *);
} mhd;

/* mhd_load - the library's functions into mhd (once); 0, or -ENOENT with why */
static int mhd_load(char *why, size_t len)
{
	static const char *const names[] = { "MHD_create_response_from_buffer",
					     "MHD_add_response_header",
					     "MHD_queue_response",
					     "MHD_destroy_response",
					     "MHD_start_daemon",
					     "MHD_stop_daemon" };
	void **slot[] = { (void **)&mhd.create,	 (void **)&mhd.add_header, (void **)&mhd.queue,
			  (void **)&mhd.destroy, (void **)&mhd.start,	   (void **)&mhd.stop };
	void *h;

	if (mhd.stop)
		return 0;
	h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, len, "%s (Debian package libmicrohttpd12)", dlerror());
		return -ENOENT;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		*slot[i] = dlsym(h, names[i]);
		if (!*slot[i]) {
			snprintf(why, len, "%s: no %s", MHD_SONAME, names[i]);
			dlclose(h);
			memset(&mhd, 0, sizeof(mhd));
			return -ENOENT;
		}
	}
	return 0;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *body,
			     size_t len, const char *type)
{
	struct MHD_Response *r = mhd.create(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	mhd.add_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue(conn, status, r);
	mhd.destroy(r);
	return ret;
}

static enum MHD_Result metrics(struct listen_out *l, struct MHD_Connection *conn)
{
	enum MHD_Result ret;

	pthread_mutex_lock(&l->lock);
	if (l->page)
		ret = reply(conn, MHD_HTTP_OK, l->page, l->len, content_type);
	else
		ret = reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "not measuring yet\n", 18,
			    "text/plain");
	pthread_mutex_unlock(&l->lock);
	return ret;
}

/* handle - one request, answered at its first call (headers read; a body is not read) */
static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_len, void **con_cls)
{
	struct listen_out *l = cls;
	bool get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);
	bool is_metrics = !strcmp(url, "/metrics"), is_health = !strcmp(url, "/healthz");

	(void)version;
	(void)upload;
	if (*con_cls) { /* a body arriving after the answer: dropped */
		*upload_len = 0;
		return MHD_YES;
	}
	*con_cls = l;
	if (!is_metrics && !is_health)
		return reply(conn, MHD_HTTP_NOT_FOUND, "not found: /metrics or /healthz\n", 32,
			     "text/plain");
	if (!get)
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n", 19,
			     "text/plain");
	if (is_health)
		return reply(conn, MHD_HTTP_OK, "ok\n", 3, "text/plain");
	return metrics(l, conn);
}

/* render - the exposition of run now into a new page, swapped in for the served one */
static void render(struct listen_out *l, const struct js_run *run)
{
	char *buf = NULL, *old;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int err;

	if (!fp) {
		l->err = -ENOMEM;
		return;
	}
	err = prom_write(fp, l->m, run);
	if (fclose(fp) || err) {
		l->err = -ENOMEM;
		free(buf);
		return;
	}
	pthread_mutex_lock(&l->lock);
	old = l->page;
	l->page = buf;
	l->len = len;
	pthread_mutex_unlock(&l->lock);
	free(old);
}

static void listen_on_gap(void *ctx, const struct js_gap_rec *g, const struct js_event *ev,
			  size_t nev)
{
	struct listen_out *l = ctx;

	(void)ev;
	(void)nev;
	prom_add_gap(l->m, g);
}

/* name_http - the daemon's threads named js-http (again: libmicrohttpd may name its thread
 * itself once it runs, after listen_run_start named it) */
static void name_http(struct listen_out *l)
{
	for (size_t i = 0; i < l->nhttp; i++)
		js_thread_name_tid(l->http[i], JS_THREAD_HTTP);
}

/* listen_run_start - the first page, then the server thread: started from the drain thread
 * (on the housekeeping CPUs, as its own thread then is) with the stop signals blocked, so
 * they reach the thread that handles them */
static void listen_run_start(void *ctx, const struct js_run *run)
{
	struct listen_out *l = ctx;
	sigset_t sigs, old;
	int before[256];
	long nbefore;

	l->err = prom_start(l->m, run);
	if (l->err)
		return;
	render(l, run);
	l->next_ns = run->start_mono_ns + LISTEN_RENDER_NS;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	nbefore = js_threads_list(before, ARRAY_SIZE(before));
	l->d = mhd.start(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, handle, l,
			 MHD_OPTION_LISTEN_SOCKET, l->fd, MHD_OPTION_CONNECTION_LIMIT,
			 (unsigned)LISTEN_CONNS, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
			 (unsigned)LISTEN_PER_IP, MHD_OPTION_CONNECTION_TIMEOUT,
			 (unsigned)LISTEN_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
			 (size_t)LISTEN_MEM, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!l->d)
		js_warn("cannot serve --listen %s: the HTTP server did not start", l->addr);
	else
		l->fd = -1; /* the daemon's now */
	/* the daemon's thread is new: named, a story of a gap it caused says so */
	if (l->d && nbefore >= 0 && (size_t)nbefore <= ARRAY_SIZE(before))
		l->nhttp = js_threads_new(before, (size_t)nbefore, l->http, ARRAY_SIZE(l->http));
	name_http(l);
}

static void listen_on_tick(void *ctx, const struct js_run *run, uint64_t now_ns)
{
	struct listen_out *l = ctx;

	if (l->err || now_ns < l->next_ns)
		return;
	l->next_ns = now_ns + LISTEN_RENDER_NS;
	render(l, run);
	name_http(l);
}

/* listen_finish - the final page (served until the process exits) */
static int listen_finish(void *ctx, const struct js_run *run)
{
	struct listen_out *l = ctx;

	if (!l->err)
		render(l, run);
	return l->err;
}

static void listen_destroy(void *ctx)
{
	struct listen_out *l = ctx;

	if (!l)
		return;
	if (l->d)
		mhd.stop(l->d);
	if (l->fd >= 0)
		close(l->fd);
	pthread_mutex_destroy(&l->lock);
	prom_free(l->m);
	free(l->page);
	free(l->addr);
	free(l);
}

int out_listen_new(struct js_output *out, const char *addr, const struct js_params *p)
{
	struct sockaddr_storage sa;
	struct listen_out *l;
	char why[160];
	int fd;

	if (listen_parse(addr, &sa, why, sizeof(why))) {
		js_err("invalid --listen '%s': %s", addr, why);
		return -EINVAL;
	}
	if (mhd_load(why, sizeof(why))) {
		js_err("cannot serve --listen %s: %s", addr, why);
		return -ENOENT;
	}
	fd = open_socket(&sa);
	if (fd < 0) {
		js_err("cannot listen on %s: %s", addr, strerror(-fd));
		return fd;
	}
	l = calloc(1, sizeof(*l));
	if (l) {
		l->m = prom_new();
		l->addr = strdup(addr);
	}
	if (!l || !l->m || !l->addr) {
		js_err("out of memory opening --listen");
		close(fd);
		if (l) {
			prom_free(l->m);
			free(l->addr);
		}
		free(l);
		return -ENOMEM;
	}
	l->fd = fd;
	pthread_mutex_init(&l->lock, NULL);
	if (p && p->budget.n)
		prom_set_budget(l->m, &p->budget);
	out->name = "HTTP /metrics";
	out->ctx = l;
	out->run_start = listen_run_start;
	out->on_gap = listen_on_gap;
	out->on_tick = listen_on_tick;
	out->finish = listen_finish;
	out->destroy = listen_destroy;
	return 0;
}
