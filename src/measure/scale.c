// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* scale.c - a run's memory and housekeeping load for many CPUs (js_scale.h) */
#include <errno.h>

#include "js_drain.h"
#include "js_gapring.h"
#include "js_probes.h"
#include "js_scale.h"
#include "js_threshold.h"
#include "js_util.h"

size_t scale_probe_ring_bytes(size_t ncpus)
{
	return JS_MIN((size_t)PROBE_RING_BYTES_PER_CPU * ncpus, (size_t)PROBE_RING_BYTES_MAX);
}

size_t scale_probe_ring_recs(size_t ncpus)
{
	return probes_ring_recs(scale_probe_ring_bytes(ncpus), ncpus);
}

void scale_mem(struct scale_mem *m, size_t ncpus, size_t nall, size_t ring_entries)
{
	size_t others = nall > ncpus ? nall - ncpus : 0;

	m->gap_ring = ring_entries * sizeof(struct gap_raw);
	m->probe_ring = scale_probe_ring_recs(ncpus) * PROBES_RECORD_BYTES;
	m->drain = drain_cpu_bytes(SCALE_EV_WINDOW_CAP);
	m->per_cpu = m->gap_ring + m->probe_ring + m->drain;
	m->send_rings = others * probes_send_ring_recs(others) * PROBES_RECORD_BYTES;
	m->total = m->per_cpu * ncpus + m->send_rings;
}

bool scale_trial_wanted(size_t ncpus)
{
	return (double)ncpus * SCALE_UNTUNED_RATE * JS_HK_GAP_NS / 1e9 * 100.0 > SCALE_KEEPUP_PCT;
}

int scale_load(size_t ncpus, uint64_t threshold_ns, const uint64_t *cand_ns, const uint64_t *counts,
	       size_t n, double trial_s, struct scale_load *l)
{
	size_t k = 0;

	if (!n || !(trial_s > 0) || !ncpus)
		return -EINVAL;
	while (k + 1 < n && cand_ns[k + 1] <= threshold_ns)
		k++;
	l->max_rate = SCALE_KEEPUP_PCT / 100.0 * 1e9 / JS_HK_GAP_NS / (double)ncpus;
	l->rate = (double)counts[k] / trial_s;
	l->core_pct = l->rate * (double)ncpus * JS_HK_GAP_NS / 1e9 * 100.0;
	l->keeps_up = l->core_pct <= SCALE_KEEPUP_PCT;
	l->suggest_ns = 0;
	for (; !l->keeps_up && k < n; k++)
		if ((double)counts[k] / trial_s <= l->max_rate) {
			l->suggest_ns = cand_ns[k];
			break;
		}
	return 0;
}

size_t scale_shard_cpus(double rate)
{
	double k = rate > 0 ? SCALE_SHARD_RATE / rate : (double)JS_CPUS_MAX;

	return k >= 1 ? (size_t)JS_MIN(k, (double)JS_CPUS_MAX) : 1;
}

size_t scale_split(size_t ncpus, double rate, size_t nhk, size_t forced,
		   size_t count[SCALE_SHARDS_MAX])
{
	size_t k = scale_shard_cpus(rate), t;

	if (forced)
		t = JS_MIN(forced, (size_t)SCALE_SHARDS_MAX);
	else
		t = JS_MAX(JS_MIN(JS_MIN((ncpus + k - 1) / k, nhk), (size_t)SCALE_SHARDS_MAX),
			   (size_t)1);
	/* the remainder to the worker threads first: the main thread has the serial work */
	for (size_t i = 0; i < t; i++)
		count[i] = ncpus / t + (i && i <= ncpus % t ? 1 : 0);
	return t;
}
