/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_lblog.h - libbpf's messages while the probes load: all of them on stderr with -vv, its
 * warnings as debug messages (-v) otherwise; the last warning (the reason a load failed: the
 * verifier's refusal, the line before "processed N insns" in its log) and the program the
 * last "failed to load" names are kept for the one-line reason.
 */
#ifndef JS_LBLOG_H
#define JS_LBLOG_H

#include <stdbool.h>

/* lblog_start - libbpf's messages come here from now on (verbose: -vv); the last warning is
 * forgotten */
void lblog_start(bool verbose);
/* lblog_forget - forget the last warning and the program named */
void lblog_forget(void);
/* lblog_last - the last warning kept, "" if none */
const char *lblog_last(void);
/* lblog_prog - the program named by the last "failed to load" warning, "" if none */
const char *lblog_prog(void);

#endif /* JS_LBLOG_H */
