"""bench/sections/within.py - the observer section's comparisons within one run (probes paused,
detached and attached at random), the host's drift, the BPF programs' table; no row of its own"""

import statistics

from lib.common import (IPI_PROGS, PAUSE_GUARD_NS, SEND_PROGS, TICK_PROGS, WINDOW_MARGIN_NS, med,
                        ratio)
from lib.runner import PauseToggler
from lib.analysis import ipi_gaps, js_cpu, tick_gaps, toggle_state
from lib.table import check, dirty, fmt, fmt_ratio


def window_medians(gaps, t0, win_ns, min_n):
    """window_medians - the median duration of the gaps (start, duration, ...) in each window
    of win_ns from t0, in time order; windows with fewer than min_n gaps left out"""
    by = {}
    for g in gaps:
        if g[0] >= t0:
            by.setdefault((g[0] - t0) // win_ns, []).append(g[1])
    return [statistics.median(by[k]) for k in sorted(by) if len(by[k]) >= min_n]


def spread(xs):
    """spread - the largest of xs over the smallest (None with fewer than two, or a zero)"""
    xs = [x for x in xs if x is not None]
    return max(xs) / min(xs) if len(xs) >= 2 and min(xs) > 0 else None


def host_drift(t, off, res_off, P):
    """host_drift - what the host alone moves the injected IPI's gap by: the --no-probes runs'
    medians from run to run, and within each run from one window to the next (reported)"""
    meds = [x[0] for x in res_off if x[0] is not None]
    within = []
    for r in off:
        if not r.gaps or not r.inject:
            continue
        got = ipi_gaps(r)
        c = js_cpu(r)
        t0 = c['start_ns'] + WINDOW_MARGIN_NS if c else min((g[0] for g in got), default=0)
        within.append(spread(window_medians(got, t0, P['drift_win_ms'] * 1_000_000,
                                            P['drift_min_n'])))
    within = [x for x in within if x is not None]
    d = dirty(off)
    t.add('observer: host alone, IPI gap median, slowest vs fastest --no-probes run',
          fmt(max(meds) / 1e3 if meds else None, ' us', 2),
          fmt(min(meds) / 1e3 if meds else None, ' us', 2),
          fmt_ratio(spread(meds)), 'report', 'INFO', d)
    t.add('observer: host alone, IPI gap median, slowest vs fastest %g s within a --no-probes '
          'run' % (P['drift_win_ms'] / 1000), '-', '-',
          fmt_ratio(med(within)), 'report', 'INFO', d)
    if within:
        t.notes.append('observer: within each --no-probes run, the slowest %g s over the fastest: '
                       '%s' % (P['drift_win_ms'] / 1000, ', '.join(fmt_ratio(x) for x in within)))


def prog_where(name):
    """prog_where - where and for what a program runs, for the per-program table"""
    if name in IPI_PROGS:
        return 'measured CPU, each call-function IPI'
    if name in TICK_PROGS:
        return 'measured CPU, each tick'
    if name in SEND_PROGS:
        return 'sending CPU, each IPI sent'
    return '-'


def prog_rows(ps):
    """prog_rows - every program that ran, most total time first: (name, where, calls,
    ns/call, ms total)"""
    top = sorted(ps.items(), key=lambda kv: -kv[1][0] * kv[1][1])
    return [(k, prog_where(k), c, fmt(ns, '', 0), fmt(c * ns / 1e6, '', 2)) for k, (c, ns) in top]


def within_series(b, inj, hz, reps, name, kw, state_of, what):
    """within_series - reps runs b.js(name, ..., **kw) whose gaps state_of(run) sorts: a
    function of a gap's start, True with the observer, False without, None near a switch (or
    None for a run without its log). what: (with, without, switch) for the notes. Returns
    {ratios, tdiffs, with, without, tick_with, tick_without (the runs' IPI and tick
    medians), runs, notes}"""
    secs = b.P['within_secs']
    out = {'ratios': [], 'tdiffs': [], 'with': [], 'without': [], 'tick_with': [],
           'tick_without': [], 'runs': [], 'notes': []}
    for i in range(reps):
        r = b.js(name, secs, inject=inj, **kw)
        out['runs'].append(r)
        state = state_of(r)
        if not r.gaps or not r.inject or state is None:
            out['notes'].append('run %d not measured (%s)' % (
                i + 1, r.pause_err or 'no gaps, no injector log or no log of the switches'))
            continue
        by, tk = by_state(r, state, hz)
        rr = ratio(med(by[True]), med(by[False]))
        td = (med(tk[True]) - med(tk[False])) / 1e3 if tk[True] and tk[False] else None
        if rr is not None:
            out['ratios'].append(rr)
            out['with'].append(med(by[True]))
            out['without'].append(med(by[False]))
        if td is not None:
            out['tdiffs'].append(td)
            out['tick_with'].append(med(tk[True]))
            out['tick_without'].append(med(tk[False]))
        out['notes'].append('run %d: %d %s, IPI gaps %d %s / %d %s (%s), tick gaps %d / %d (%s)'
                            % (i + 1, len(r.toggles if r.toggles is not None else r.pauses or []), what[2], len(by[True]),
                               what[0], len(by[False]), what[1], fmt_ratio(rr), len(tk[True]),
                               len(tk[False]), '%+.2f us' % td if td is not None else '-'))
    return out


def within_rows(t, w, what, ipi_target, tick_target):
    """within_rows - the IPI row (judged against ipi_target x) and the tick row (against
    tick_target us) of a within_series() w; a target None: reported only"""
    d = dirty(w['runs'])
    rr, td = med(w['ratios']), med(w['tdiffs'])
    t.add('observer: IPI gap median, %s (same run)' % what,
          fmt(med(w['with']) and med(w['with']) / 1e3, ' us', 2),
          fmt(med(w['without']) and med(w['without']) / 1e3, ' us', 2), fmt_ratio(rr),
          '<= %gx' % ipi_target if ipi_target is not None else 'report',
          check(rr, '<=', ipi_target) if ipi_target is not None else 'INFO', d)
    tw, to = med(w['tick_with']), med(w['tick_without'])
    t.add('observer: tick gap median, %s (same run)' % what,
          fmt(tw and tw / 1e3, ' us', 2), fmt(to and to / 1e3, ' us', 2),
          '%+.2f us' % td if td is not None else '-',
          '<= %+g us' % tick_target if tick_target is not None else 'report',
          check(td, '<=', tick_target) if tick_target is not None else 'INFO', d)


def within_run(b, t, inj, hz, reps):
    """within_run - runs whose probes are paused and resumed at random (PAUSE_S):
    injected-IPI and tick gaps while the programs run vs while they return at once. The
    tracepoints stay attached in both states, so this is the programs' own cost (and what
    they leave behind in caches and TLBs); within_attach adds the dispatch. The figure is
    the median of the runs' ratios, which are returned"""
    def running(r):
        if not r.pauses:
            return None

        def state(t):
            paused = PauseToggler.state(r.pauses, t)
            return None if paused is None else not paused
        return state

    what = ('running', 'paused', 'switches')
    w = within_series(b, inj, hz, reps, 'observer-pause', {'pause': True}, running, what)
    within_rows(t, w, 'probes running vs paused', 1.05, None)
    t.notes.append('observer (within runs of %d s, probes paused at random)%s: %s' % (
        b.P['within_secs'], ' (runs %s)' % ', '.join(fmt_ratio(x) for x in w['ratios'])
        if len(w['ratios']) > 1 else '', '; '.join(w['notes'])))
    return w['ratios']


def by_state(r, state, hz):
    """by_state - the durations of run r's injected-IPI gaps and tick gaps by state(start) (a
    gap whose state is None is left out): ({state: [ns]}, {state: [ns]})"""
    got = ipi_gaps(r)
    by, tk = {}, {}
    for out, gs in ((by, got), (tk, tick_gaps(r.gaps, set(got), hz))):
        for g in gs:
            st = state(g[0])
            if st is not None:
                out.setdefault(st, []).append(g[1])
    return ({k: by.get(k, []) for k in (True, False)}, {k: tk.get(k, []) for k in (True, False)})


def within_attach(b, t, inj, hz, reps):
    """within_attach - runs whose probes the tool detaches and attaches again at random
    (--probe-toggle): injected-IPI and tick gaps with the whole observer (dispatch included)
    vs none, under the same noise; then one such run with every program paused throughout
    (what attached tracepoints cost with programs that return at once). The figures are the
    medians of the runs' ratios and differences"""
    def attached(r):
        if not r.toggles:
            return None
        # the paused run: from the pause on (its hook pauses about 0.5 s after the start)
        since = r.pauses[0][0] + PAUSE_GUARD_NS if r.pauses else 0
        return lambda t: toggle_state(r.toggles, t) if t >= since else None

    what = ('attached', 'detached', 'changes')
    w = within_series(b, inj, hz, reps, 'observer-toggle', {'toggle': True}, attached, what)
    # the tick: reported (issue 29 judges the probes per tick in BPF time: sec_lean)
    within_rows(t, w, 'probes attached vs detached', 1.05, None)
    wp = within_series(b, inj, hz, 1, 'observer-toggle-paused',
                       {'toggle': True, 'pause': 'hold'},
                       lambda r: attached(r) if r.pauses else None, what)
    within_rows(t, wp, 'attached, every program paused, vs detached', None, None)
    t.notes.append('observer (within runs of %d s, probes detached and attached again at '
                   'random)%s: %s; every program paused: %s' % (
                       b.P['within_secs'], ' (runs %s)' % ', '.join(
                           fmt_ratio(x) for x in w['ratios']) if len(w['ratios']) > 1 else '',
                       '; '.join(w['notes']), '; '.join(wp['notes'])))
