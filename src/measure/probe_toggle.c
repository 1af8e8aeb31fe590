// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * probe_toggle.c - --probe-toggle: the probes detached and attached again at random while
 * measuring, each change logged (js_probe_toggle.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "js_probe_toggle.h"
#include "js_util.h"

uint64_t probe_toggle_delay(uint64_t *rnd)
{
	uint64_t x = *rnd ? *rnd : 0x9e3779b97f4a7c15ull;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*rnd = x;
	return PROBE_TOGGLE_MIN_NS + x % PROBE_TOGGLE_SPAN_NS;
}

int probe_toggle_open(struct probe_toggle *t, const char *path, uint64_t seed)
{
	memset(t, 0, sizeof(*t));
	t->rnd = seed ? seed : 1;
	t->f = fopen(path, "we");
	if (!t->f)
		return -errno;
	if (fputs("attached,start_ns,end_ns\n", t->f) < 0 || fflush(t->f)) {
		int err = -errno;

		fclose(t->f);
		t->f = NULL;
		return err ? err : -EIO;
	}
	return 0;
}

/* stop - no more changes, the probes attached again if they were off */
static void stop(struct probe_toggle *t, probe_toggle_set set, void *ctx)
{
	t->done = true;
	if (t->off && set(ctx, true) == 0)
		t->off = false;
}

bool probe_toggle_tick(struct probe_toggle *t, probe_toggle_set set, void *ctx, uint64_t now)
{
	uint64_t t0, t1;
	int err;

	if (!t->f || t->done)
		return false;
	if (!t->next) { /* the first state, attached, lasts as long as any */
		t->next = now + probe_toggle_delay(&t->rnd);
		return false;
	}
	if (now < t->next)
		return false;
	t0 = js_mono_ns();
	err = set(ctx, t->off);
	t1 = js_mono_ns();
	if (err) {
		js_warn("--probe-toggle: %s the probes failed: %s; toggling stopped",
			t->off ? "attaching" : "detaching", strerror(-err));
		stop(t, set, ctx);
		return false;
	}
	t->off = !t->off;
	if (fprintf(t->f, "%d,%" PRIu64 ",%" PRIu64 "\n", !t->off, t0, t1) < 0 || fflush(t->f)) {
		t->err = errno ? -errno : -EIO;
		js_warn("--probe-toggle: writing the log failed: %s; toggling stopped",
			strerror(-t->err));
		stop(t, set, ctx);
		return true;
	}
	/* the state lasts its length from the end of the change */
	t->next = now + (t1 - t0) + probe_toggle_delay(&t->rnd);
	return true;
}

int probe_toggle_close(struct probe_toggle *t)
{
	int err = t->err;

	if (t->f && fclose(t->f) && !err)
		err = -errno;
	t->f = NULL;
	return err;
}
