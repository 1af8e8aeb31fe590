// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* period.c - periodicity of event times by phase concentration (see js_period.h). Pure. */
#include <math.h>
#include <string.h>

#include "js_period.h"
#include "js_util.h"

static const uint64_t fixed_ms[] = { 1, 2, 4, 5, 10, 20, 25, 50, 100 };

/*
 * A phase is a 16-bit fraction of its period (100 ms / 65536 = 1.5 us at the longest) and its
 * cosine and sine come from two 256-entry tables by angle addition: cos and sin of every
 * candidate for every unexplained gap were a tenth of the housekeeping at 16k gaps/s.
 */
#define PHASE_STEPS 65536.0
static double cos_hi[256], sin_hi[256], cos_lo[256], sin_lo[256];

__attribute__((constructor)) static void phase_tables(void)
{
	for (int i = 0; i < 256; i++) {
		cos_hi[i] = cos(2 * M_PI * i / 256);
		sin_hi[i] = sin(2 * M_PI * i / 256);
		cos_lo[i] = cos(2 * M_PI * i / PHASE_STEPS);
		sin_lo[i] = sin(2 * M_PI * i / PHASE_STEPS);
	}
}

const uint64_t js_period_band_ns[JS_PERIOD_BANDS] = {
	0, 2000, 5000, 10000, 20000, 50000, 100000, 1000000,
};

static void cand_add(struct js_period *p, uint64_t num, uint64_t den)
{
	struct js_period_cand *c;

	for (uint32_t i = 0; i < p->ncand; i++)
		if (p->cand[i].num * den == num * p->cand[i].den)
			return; /* the tick is already a fixed candidate */
	if (p->ncand >= JS_PERIOD_CANDS)
		return;
	c = &p->cand[p->ncand++];
	memset(c, 0, sizeof(*c));
	c->num = num;
	c->den = den;
	c->phase_scale = PHASE_STEPS / (double)num;
}

/* period_init - candidates 1..100 ms plus the tick */
void period_init(struct js_period *p, uint32_t hz, uint64_t block_ns)
{
	memset(p, 0, sizeof(*p));
	p->block_ns = block_ns ? block_ns : PERIOD_BLOCK_NS;
	p->min_samples = 20;
	p->min_strength = 0.3;
	p->sig_sd = 6.0;
	for (size_t i = 0; i < ARRAY_SIZE(fixed_ms); i++)
		cand_add(p, fixed_ms[i] * 1000000ull, 1);
	if (hz)
		cand_add(p, 1000000000ull, hz);
}

/* phase - t's position in the period num/den, in 1/65536 of it (exact integer steps, then
 * rounded) */
static uint32_t phase(const struct js_period_cand *c, uint64_t t)
{
	uint64_t r = t % c->num;

	if (c->den != 1) /* the tick's 1e9 / HZ */
		r = r * c->den % c->num;

	return (uint32_t)((double)r * c->phase_scale + 0.5) & 0xffff;
}

/* fold - close the current block into the running statistics */
static void fold(struct js_period *p)
{
	double n = (double)p->block_n;

	if (p->block_n >= 2) {
		for (uint32_t i = 0; i < p->ncand; i++) {
			struct js_period_cand *c = &p->cand[i];
			double s2 = c->c * c->c + c->s * c->s;

			c->conc += s2 - n;
			c->z += s2 / n;
		}
		p->pairs += n * (n - 1);
		p->blocks++;
	}
	for (uint32_t i = 0; i < p->ncand; i++)
		p->cand[i].c = p->cand[i].s = 0;
	p->block_n = 0;
}

/* phases - cos and sin of t's phase for every candidate */
static void phases(const struct js_period *p, uint64_t t_ns, double *cs, double *sn)
{
	for (uint32_t i = 0; i < p->ncand; i++) {
		uint32_t q = phase(&p->cand[i], t_ns), h = q >> 8, l = q & 0xff;

		/* cos(a + b), sin(a + b) */
		cs[i] = cos_hi[h] * cos_lo[l] - sin_hi[h] * sin_lo[l];
		sn[i] = sin_hi[h] * cos_lo[l] + cos_hi[h] * sin_lo[l];
	}
}

/* add_phases - one time whose phases (same candidates as p's) are cs, sn */
static void add_phases(struct js_period *p, uint64_t t_ns, const double *cs, const double *sn)
{
	if (!p->block_n || t_ns >= p->block_start + p->block_ns) {
		fold(p);
		p->block_start = t_ns;
	}
	for (uint32_t i = 0; i < p->ncand; i++) {
		struct js_period_cand *c = &p->cand[i];

		c->c += cs[i];
		c->s += sn[i];
		c->gc += cs[i];
		c->gs += sn[i];
	}
	p->block_n++;
	p->n++;
}

/* period_add - one event time */
void period_add(struct js_period *p, uint64_t t_ns)
{
	double cs[JS_PERIOD_CANDS], sn[JS_PERIOD_CANDS];

	phases(p, t_ns, cs, sn);
	add_phases(p, t_ns, cs, sn);
}

/* period_candidate - statistics of candidate i, the open block included */
int period_candidate(const struct js_period *p, unsigned int i, struct js_period_result *out)
{
	const struct js_period_cand *c;
	double conc, z, pairs, blocks, n = (double)p->block_n, ph;

	if (i >= p->ncand)
		return -1;
	c = &p->cand[i];
	conc = c->conc;
	z = c->z;
	pairs = p->pairs;
	blocks = p->blocks;
	if (p->block_n >= 2) {
		double s2 = c->c * c->c + c->s * c->s;

		conc += s2 - n;
		z += s2 / n;
		pairs += n * (n - 1);
		blocks++;
	}
	memset(out, 0, sizeof(*out));
	out->period_ns = (c->num + c->den / 2) / c->den;
	out->strength = pairs > 0 && conc > 0 ? sqrt(JS_MIN(conc / pairs, 1.0)) : 0.0;
	out->z = z;
	out->z_expected = blocks;
	ph = atan2(c->gs, c->gc) / (2 * M_PI);
	out->phase_ns = (ph < 0 ? ph + 1 : ph) * (double)c->num / (double)c->den;
	out->n = p->n;
	out->periodic = p->n >= p->min_samples && out->strength >= p->min_strength &&
			z >= blocks + p->sig_sd * (sqrt(blocks) + 1);
	return 0;
}

/* period_result - the longest periodic candidate within 0.8 of the best strength */
bool period_result(const struct js_period *p, struct js_period_result *out)
{
	struct js_period_result r, best = { 0 };
	double top = 0;

	if (p->saved) {
		*out = p->result;
		return out->periodic;
	}
	for (unsigned int i = 0; i < p->ncand; i++)
		if (!period_candidate(p, i, &r) && r.periodic && r.strength > top)
			top = r.strength;
	for (unsigned int i = 0; i < p->ncand; i++) {
		if (period_candidate(p, i, &r) || !r.periodic || r.strength < 0.8 * top)
			continue;
		if (!best.periodic || r.period_ns > best.period_ns)
			best = r;
	}
	if (!best.periodic) {
		/* not periodic: report the most concentrated candidate anyway */
		for (unsigned int i = 0; i < p->ncand; i++)
			if (!period_candidate(p, i, &r) && (i == 0 || r.strength > best.strength))
				best = r;
		best.n = p->n;
	}
	*out = best;
	return out->periodic;
}

/* period_saved - a detector that gives back a saved verdict */
void period_saved(struct js_period *p, const struct js_period_result *r)
{
	period_init(p, 0, 0);
	p->saved = true;
	p->result = *r;
	p->n = r->n;
}

/* period_classes_init - every class's detector */
void period_classes_init(struct js_period_classes *pc, uint32_t hz, uint64_t block_ns)
{
	for (int i = 0; i < JS_PERIOD_BANDS; i++) {
		period_init(&pc->band[i], hz, block_ns);
		period_init(&pc->ge[i], hz, block_ns);
	}
}

/* period_band_hi - exclusive upper bound of band i */
uint64_t period_band_hi(int i)
{
	return i + 1 < JS_PERIOD_BANDS ? js_period_band_ns[i + 1] : UINT64_MAX;
}

/* period_band - the band of a duration */
int period_band(uint64_t dur_ns)
{
	int b = 0;

	while (b + 1 < JS_PERIOD_BANDS && dur_ns >= js_period_band_ns[b + 1])
		b++;
	return b;
}

/* period_classes_add - into its band and every "at least" class it is in; the phases are
 * computed once (every detector has the same candidates) */
void period_classes_add(struct js_period_classes *pc, uint64_t t_ns, uint64_t dur_ns)
{
	double cs[JS_PERIOD_CANDS], sn[JS_PERIOD_CANDS];
	int b = period_band(dur_ns);

	phases(&pc->band[b], t_ns, cs, sn);
	add_phases(&pc->band[b], t_ns, cs, sn);
	for (int i = 0; i <= b; i++)
		add_phases(&pc->ge[i], t_ns, cs, sn);
}

/* period_classes_headline - the longest tenth */
int period_classes_headline(const struct js_period_classes *pc)
{
	uint64_t tenth = (pc->ge[0].n + 9) / 10;
	int h = 0;

	for (int i = 1; i < JS_PERIOD_BANDS; i++)
		if (pc->ge[i].n && pc->ge[i].n >= tenth)
			h = i;
	return h;
}
