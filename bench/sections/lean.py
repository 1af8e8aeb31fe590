"""bench/sections/lean.py - the lean section: --probes lean against full, per interruption"""

from bisect import bisect_right

from lib.common import LEAN_NAMED, SET_PROGS, med, med_interval, ratio
from lib.runner import IrqProgStats
from lib.analysis import ipi_gaps, tick_gaps, window_actions
from lib.table import check, dirty, fmt, fmt_ratio


def per_interruption(progs, irqs, names):
    """per_interruption - BPF ns per tick and per call-function IPI on the measured CPU: the
    run time of a probe set's programs for each (names: SET_PROGS entry) over the CPU's LOC and
    CAL counts in the same window; None where no interruption or no program ran"""
    out = {}
    for what, key in (('tick', 'LOC'), ('ipi', 'CAL')):
        n = irqs.get(key, 0)
        ran = [progs[p] for p in names[what] if p in progs and progs[p][0] > 0]
        out[what] = sum(ns for _, ns in ran) / n if n > 0 and ran else None
        # a lower bound: each program's mean run, the other CPUs' filtered runs included
        out[what + '_runs'] = sum(ns / c for c, ns in ran) if ran else None
    return out


def named_by_class(actions, gaps, cls, after_ns, before_ns, missed=None):
    """named_by_class - (named, matched) of actions [(start, end)]: matched, a gap of gaps
    [(start, dur, {classes})] overlaps [start - before_ns, end + after_ns]; named, one of
    them holds class cls among its causes. missed (a list): each matched action not named,
    as (its start, the gaps over it), appended"""
    starts = [g[0] for g in gaps]
    named = matched = 0
    for s, e in actions:
        lo, hi = s - before_ns, e + after_ns
        i = bisect_right(starts, hi) - 1
        hit = []
        while i >= 0 and gaps[i][0] + gaps[i][1] >= lo:
            hit.append(gaps[i])
            i -= 1
        matched += bool(hit)
        named += any(cls in g[2] for g in hit)
        if hit and not any(cls in g[2] for g in hit) and missed is not None:
            missed.append((s, hit))
    return named, matched


MISSED_SHOWN = 5


def missed_rows(missed):
    """missed_rows - named_by_class's misses {(probe set, kind): [(start, gaps)]} as rows,
    at most MISSED_SHOWN a kind: what held the time where the class was not named"""
    rows = []
    for (ps, mode), xs in sorted(missed.items()):
        for s, hit in xs[:MISSED_SHOWN]:
            rows.append((mode, ps, '; '.join('%+.1f us, %.1f us, %s' % (
                (g[0] - s) / 1e3, g[1] / 1e3, '+'.join(sorted(g[2])) or '-')
                for g in sorted(hit))))
    return rows


def sec_lean(b, t, reps, hz):
    """sec_lean - issue 29: --probes lean against full, per interruption. BPF run time per tick
    and per injected IPI on the measured CPU (bpf_stats, --probe-cost runs), with the
    statistics' own share (the same runs with every program paused); the paired IPI and tick
    rows of full and lean against --no-probes; lean's injected IPIs, preemptions, IRQs and
    softirqs named by class"""
    P = b.P
    inj = ('ipi', ['--period', str(P['obs_period_us']), '--count', '1'])
    stats = {}
    for i in range(P['lean_stats_runs']):
        for ps in (('full', 'lean') if i % 2 == 0 else ('lean', 'full')):
            for paused in (False, 'hold'):
                r = b.js('lean-stats-%s%s' % (ps, '-paused' if paused else ''),
                         P['stats_secs'], extra=['--probe-cost', '--probes', ps], inject=inj,
                         gaps=False, pause=paused,
                         progstats=lambda i_, a_, z_: IrqProgStats(i_, a_, z_, b.cpu))
                if r.progstats and r.progstats[0]:
                    stats.setdefault((ps, bool(paused)), []).append(
                        per_interruption(*r.progstats, SET_PROGS[ps]))
    fig = {}
    for (ps, paused), xs in stats.items():
        for what in ('tick', 'ipi', 'tick_runs', 'ipi_runs'):
            fig[(ps, paused, what)] = med([x[what] for x in xs if x[what] is not None])
    for what, label in (('tick', 'tick'), ('ipi', 'injected IPI')):
        full, lean = fig.get(('full', False, what)), fig.get(('lean', False, what))
        r = ratio(lean, full)
        # per IPI a reported row: a program that only returns is most of it (OBSERVER.md)
        judged = what == 'tick'
        t.add('lean: BPF time per %s on the measured CPU, lean vs full (bpf_stats)' % label,
              fmt(lean, ' ns', 0), fmt(full, ' ns', 0), fmt_ratio(r),
              '<= %gx' % P['lean_target'] if judged else 'report',
              check(r, '<=', P['lean_target']) if judged else 'INFO')
        fp, lp = fig.get(('full', True, what)), fig.get(('lean', True, what))
        t.add('lean: ... of which bpf_stats and program entry (every program paused)',
              fmt(lp, ' ns', 0), fmt(fp, ' ns', 0), fmt_ratio(ratio(lp, fp)), 'report',
              'INFO')
        ln = lean - lp if lean is not None and lp is not None else None
        fn = full - fp if full is not None and fp is not None else None
        t.add('lean: ... the programs\' own work (running less paused)',
              fmt(ln, ' ns', 0), fmt(fn, ' ns', 0), fmt_ratio(ratio(ln, fn)), 'report', 'INFO')
        fr, lr = fig.get(('full', False, what + '_runs')), fig.get(('lean', False, what + '_runs'))
        t.add('lean: ... per %s as the programs\' mean runs (a lower bound)' % label,
              fmt(lr, ' ns', 0), fmt(fr, ' ns', 0), fmt_ratio(ratio(lr, fr)), 'report', 'INFO')
    t.details.append(('Probe sets, BPF time per interruption on the measured CPU (bpf_stats '
                      'of runs with injected IPIs and --probe-cost, medians of %d runs each; '
                      'the housekeeping CPU\'s filtered runs of the same programs included)'
                      % P['lean_stats_runs'],
                      ('probe set', 'programs', 'per tick ns', 'per IPI ns',
                       'paused: per tick ns', 'paused: per IPI ns'),
                      [(ps, '+'.join(SET_PROGS[ps]['tick'] + SET_PROGS[ps]['ipi']),
                        fmt(fig.get((ps, False, 'tick')), '', 0),
                        fmt(fig.get((ps, False, 'ipi')), '', 0),
                        fmt(fig.get((ps, True, 'tick')), '', 0),
                        fmt(fig.get((ps, True, 'ipi')), '', 0)) for ps in ('full', 'lean')]))
    # paired: full, lean and --no-probes next to each other, the order turning
    sets = ('full', 'lean', 'off')
    runs = {k: [] for k in sets}
    for i in range(P['obs_pairs']):
        for k in sets[i % 3:] + sets[:i % 3]:
            extra = ['--no-probes'] if k == 'off' else ['--probes', k]
            runs[k].append(b.js('lean-pair-' + k, P['obs_secs'], extra=extra, inject=inj,
                                causes=k != 'off'))
    meds = {}
    for k in sets:
        meds[k] = []
        for r in runs[k]:
            if not r.gaps or not r.inject:
                meds[k].append((None, None))
                continue
            got = ipi_gaps(r)
            ticks = tick_gaps(r.gaps, set(got), hz)
            meds[k].append((med([g[1] for g in got]), med([g[1] for g in ticks])))
    d = dirty(runs['full'] + runs['lean'] + runs['off'])
    for k in ('full', 'lean'):
        prs = [ratio(a[0], z[0]) for a, z in zip(meds[k], meds['off'])]
        prs = [x for x in prs if x is not None]
        dfs = [(a[1] - z[1]) / 1e3 for a, z in zip(meds[k], meds['off'])
               if a[1] is not None and z[1] is not None]
        ci, cd = med_interval(prs), med_interval(dfs)
        on = med([x[0] for x in meds[k]])
        off = med([x[0] for x in meds['off']])
        t.add('lean: injected-IPI gap median, %s vs --no-probes (paired)' % k,
              fmt(on and on / 1e3, ' us', 2), fmt(off and off / 1e3, ' us', 2),
              fmt_ratio(med(prs)) + (' (%s-%s)' % (fmt_ratio(ci[0]), fmt_ratio(ci[1]))
                                     if ci else ''), 'report', 'INFO', d)
        on = med([x[1] for x in meds[k]])
        off = med([x[1] for x in meds['off']])
        t.add('lean: tick gap median (%d ms phase), %s vs --no-probes (paired)'
              % (1000 // hz, k), fmt(on and on / 1e3, ' us', 2), fmt(off and off / 1e3, ' us', 2),
              ('%+.2f us' % med(dfs) if dfs else '-') +
              (' (%+.2f to %+.2f)' % cd if cd else ''), 'report', 'INFO', d)
    # named by class: the paired runs' injected IPIs, and lean's other injectors
    rows = []
    named = {}
    missed = {}
    for k in ('full', 'lean'):
        n = m = 0
        for r in runs[k]:
            if getattr(r, 'causes', None) and r.inject:
                a, z = named_by_class(window_actions(r), r.causes, 'ipi', 0,
                                      P['lean_before_us'] * 1000,
                                      missed.setdefault((k, 'ipi'), []))
                n, m = n + a, m + z
        named[(k, 'ipi')] = (n, m)
    for mode, cls, args, late in LEAN_NAMED[1:]:
        r = b.js('lean-named-' + mode, P['lean_named_secs'], extra=['--probes', 'lean'],
                 inject=(mode, args), causes=True)
        n = m = 0
        if getattr(r, 'causes', None) and r.inject:
            n, m = named_by_class(window_actions(r), r.causes, cls,
                                  P['lean_after_ms'] * 1_000_000 if late else 0,
                                  P['lean_before_us'] * 1000,
                                  missed.setdefault(('lean', mode), []))
        named[('lean', mode)] = (n, m)
    for mode, cls, _, _ in LEAN_NAMED:
        n, m = named[('lean', mode)]
        pct = 100.0 * n / m if m else None
        t.add('lean: injected %s named %s by class' % (mode, cls), fmt(pct, ' %', 2),
              '%d of %d' % (n, m), '-', '%d %%' % P['lean_named_pct'],
              check(pct, '>=', P['lean_named_pct']))
        fn, fm = named.get(('full', mode), (None, None))
        rows.append((mode, cls, '%d of %d' % (n, m),
                     '%d of %d' % (fn, fm) if fm is not None else '-'))
    t.details.append(('Probe sets, injected interruptions named by class (a gap over the '
                      'action holds the class among its causes)',
                      ('injected', 'class', 'lean', 'full'), rows))
    miss_rows = missed_rows(missed)
    if miss_rows:
        t.details.append(('Probe sets, the injected interruptions a gap overlapped but not '
                          'of their class (at most %d a kind): the gaps over each, their '
                          'start from the action\'s, duration and classes' % MISSED_SHOWN,
                          ('injected', 'probe set', 'gaps over it'), miss_rows))


ROW = ('lean', '--probes lean against full, per interruption',
       lambda b, t, c: sec_lean(b, t, c.reps, c.hz))
