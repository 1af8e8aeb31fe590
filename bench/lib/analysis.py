"""bench/lib/analysis.py - per-run figures, and the readers of a run's files (gaps, causes, IPIs
sent, --probe-toggle states)"""

import re
from bisect import bisect_right

from jsfiles import gap_rows, parse_causes  # tests/lib, on the path: bench/lib/__init__.py

from lib.common import IPI_KEYS, PAUSE_GUARD_NS, TICK_BAND_NS, TICK_PHASE_NS, WINDOW_MARGIN_NS


def sampling_hwm_mib(run):
    """sampling_hwm_mib - the peak RSS (VmHWM) at the last sample before sampling ended, MiB"""
    c = js_cpu(run)
    if not c:
        return None
    xs = [kb for t, kb in getattr(run, 'hwm_series', []) if t <= c['end_ns']]
    return xs[-1] / 1024 if xs else None


def heap_mib(run):
    """heap_mib - Rss of [heap] in the run's smaps snapshot, MiB"""
    for rss, name in run.smaps or ():
        if name.startswith('[heap]'):
            return rss / 1024
    return None


def load_toggles(path):
    """load_toggles - --probe-toggle's log: [(attached 1/0, start_ns, end_ns)], [] if none"""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    if not lines or lines[0] != 'attached,start_ns,end_ns':
        return []
    return [tuple(int(x) for x in ln.split(',')) for ln in lines[1:] if ln]


def toggle_state(toggles, t, guard=PAUSE_GUARD_NS):
    """toggle_state - the probes attached (True/False) at t by --probe-toggle's log; None
    within guard ns of a change (the change sends the CPU a burst of IPIs)"""
    st = True
    for a, s0, s1 in toggles:
        if t < s0 - guard:
            return st
        if t <= s1 + guard:
            return None
        st = bool(a)
    return st


def load_sent(path, cpu):
    """load_sent - [(gap start_ns, sender tid, cause, causes)] of the IPI/TLB causes whose
    sender is a jitterscope thread, from the causes column of a --gaps CSV"""
    out = []
    try:
        rows = gap_rows(path, cpu)
    except (OSError, ValueError):
        return out
    for row in rows:
        for cls, det, _ in parse_causes(row['causes']):
            m = re.fullmatch(r'[^;=]* from jitterscope:(\d+)', det)
            if m and cls in ('ipi', 'vector', 'tlb'):
                out.append((int(row['start_ns']), int(m.group(1)), cls + ':' + det,
                            row['causes'][:160]))
    return out


def load_gaps(path, cpu):
    """load_gaps - sorted [(start_ns, duration_ns, cause)] of one CPU from a --gaps CSV (None
    when unreadable)"""
    try:
        rows = gap_rows(path, cpu)
    except (OSError, ValueError):
        return None
    return sorted((int(r['start_ns']), int(r['duration_ns']), r['cause']) for r in rows)


def load_gap_causes(path, cpu):
    """load_gap_causes - sorted [(start_ns, duration_ns, {cause class})] of one CPU from a
    --gaps CSV (None when unreadable)"""
    try:
        rows = gap_rows(path, cpu)
    except (OSError, ValueError):
        return None
    return sorted((int(r['start_ns']), int(r['duration_ns']),
                   {c for c, _, _ in parse_causes(r['causes'])}) for r in rows)


def js_cpu(run):
    """js_cpu - the per-CPU object of a jitterscope JSON"""
    return run.json['cpus'][0] if run.json and 'cpus' in run.json else None


def oslat_thread(run):
    """oslat_thread - (loops, duration s, {bucket: count}) of an oslat JSON"""
    if not run.json:
        return None
    th = list(run.json['thread'].values())[0]
    hist = {int(k): int(v) for k, v in th['histogram'].items()}
    return sum(hist.values()), float(th['duration']), hist


def loop_period(run):
    """loop_period - jsloop's mean period of its iterations under the cut, ns (None: none)"""
    lp = getattr(run, 'loop', None)
    return lp['loop_ns_mean'] if lp and lp.get('short_iterations') else None


def oslat_busy_period(run):
    """oslat_busy_period - ns per loop with loops of >= 1 us taken out (bucket mid-points)"""
    t = oslat_thread(run)
    if not t:
        return None
    loops, dur, hist = t
    top = max(hist)
    lost_us = sum(c * (min(b, top) - 0.5) for b, c in hist.items() if b >= 2)
    small = hist.get(1, 0)
    return (dur * 1e9 - lost_us * 1e3) / small if small else None


def window(run, margin_ns=WINDOW_MARGIN_NS):
    """window - [lo, hi] CLOCK_MONOTONIC of a run's measuring window, shrunk by a margin"""
    c = js_cpu(run)
    if c:
        return c['start_ns'] + margin_ns, c['end_ns'] - margin_ns
    if run.meas_start:
        return run.meas_start + margin_ns, run.t_exit - 2 * margin_ns
    return None


def samples_in(run, lo, hi):
    """samples_in - first and last /proc sample inside [lo, hi]"""
    s = [x for x in run.samples if lo <= x[0] <= hi]
    return (s[0], s[-1]) if len(s) >= 2 else (None, None)


def housekeeping_pct(run, cpu):
    """housekeeping_pct - CPU time of the threads not pinned to the measured CPU, % of a core"""
    w = window(run)
    if not w:
        return None
    a, b = samples_in(run, *w)
    if not a or a[2] is None or b[2] is None:
        return None
    used = 0
    for tid, (ns, allowed) in b[2].items():
        if allowed == str(cpu):
            continue
        used += ns - a[2].get(tid, (ns, None))[0] if tid in a[2] else ns
    return 100.0 * used / (b[0] - a[0])


def irq_rates(run, lo, hi):
    """irq_rates - {key: per second} of the CPU's IPI counters between two samples"""
    a, b = samples_in(run, lo, hi)
    if not a or a[1] is None:
        return None
    dt = (b[0] - a[0]) / 1e9
    return {k: (b[1].get(k, 0) - a[1].get(k, 0)) / dt for k in IPI_KEYS}, dt


def post_run_cpu_s(run):
    """post_run_cpu_s - on-CPU seconds of the main thread from the end of sampling to its last
    sample before exit (5 ms polling): the report phase's work, without its waiting"""
    c = js_cpu(run)
    xs = [x for x in getattr(run, 'main_cpu', []) if c and x[0] >= c['end_ns']]
    return (xs[-1][1] - xs[0][1]) / 1e9 if len(xs) >= 2 else None


def post_run_s(run):
    """post_run_s - seconds from the end of sampling to the process's exit"""
    c = js_cpu(run)
    return (run.t_exit - c['end_ns']) / 1e9 if c else None


def attach_s(run):
    """attach_s - seconds from exec to the first sample (jitterscope: its JSON's start)"""
    c = js_cpu(run)
    if c:
        return (c['start_ns'] - run.t_exec) / 1e9
    return (run.meas_start - run.t_exec) / 1e9 if run.meas_start else None


def window_actions(run):
    """window_actions - the injector's actions that lie inside a jitterscope run's window"""
    c = js_cpu(run)
    acts = run.inject.actions if run.inject else []
    if not c:
        return acts
    return [a for a in acts if c['start_ns'] <= a[0] and a[1] <= c['end_ns']]


def match_actions(actions, gaps):
    """match_actions - for each [start, end] action, the largest gap overlapping it (or None)"""
    starts = [g[0] for g in gaps]
    out = []
    for s, e in actions:
        best = None
        i = bisect_right(starts, e) - 1     # the last gap starting before the action's end
        while i >= 0 and gaps[i][0] + gaps[i][1] >= s:  # gaps are disjoint: ends are sorted
            if best is None or gaps[i][1] > best[1]:
                best = gaps[i]
            i -= 1
        out.append(best)
    return out


def ipi_gaps(run):
    """ipi_gaps - the gaps of run that hold one of its injector's actions inside its window"""
    return [g for g in match_actions(window_actions(run), run.gaps) if g]


def tick_gaps(gaps, exclude, hz):
    """tick_gaps - the gaps starting at the tick's phase (found from the gaps themselves)"""
    period = 1_000_000_000 // hz
    binw = 5_000
    nb = period // binw
    cand = [g for g in gaps if TICK_BAND_NS[0] <= g[1] <= TICK_BAND_NS[1] and g not in exclude]
    if len(cand) < 20:
        return []
    hist = [0] * nb
    for g in cand:
        hist[(g[0] % period) // binw] += 1
    peak = max(range(nb), key=lambda i: hist[i] + hist[(i + 1) % nb])
    center = peak * binw + binw
    out = []
    for g in cand:
        off = (g[0] % period - center + period // 2) % period - period // 2
        if -TICK_PHASE_NS <= off <= TICK_PHASE_NS:
            out.append(g)
    return out
