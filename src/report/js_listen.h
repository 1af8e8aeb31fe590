/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_listen.h - --listen ADDR:PORT: the run's Prometheus exposition served over HTTP
 * (out_listen.c, libmicrohttpd). GET /metrics answers the same families as --prom (the one
 * writer, prom.c), GET /healthz "ok"; 404 for another path, 405 for another method, 400
 * for a malformed request (libmicrohttpd's). The socket is bound to the given address only
 * when the output is opened (before measuring: an address in use fails at once); the
 * server thread starts with the run, on a housekeeping CPU. Clients never touch the
 * measurement's state: the drain thread renders the exposition every second into a page,
 * and a request copies the latest page under a lock held for a pointer swap or that copy.
 */
#ifndef JS_LISTEN_H
#define JS_LISTEN_H

#include <stddef.h>
#include <sys/socket.h>

struct js_output;
struct js_params;

/*
 * listen_parse - "ADDR:PORT" into *sa (NULL: only checked): ADDR an IPv4 address
 * (127.0.0.1, 0.0.0.0) or an IPv6 one in brackets ([::1]), PORT 1..65535; no host names
 * (nothing is looked up). 0, or -EINVAL with the reason in err.
 */
int listen_parse(const char *s, struct sockaddr_storage *sa, char *err, size_t errlen);

/* out_listen_new - the --listen output on p->listen: bound and listening now; 0, or < 0
 * after one line ("cannot listen on ADDR:PORT: why") */
int out_listen_new(struct js_output *out, const char *addr, const struct js_params *p);

#endif /* JS_LISTEN_H */
