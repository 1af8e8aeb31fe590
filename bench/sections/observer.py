"""bench/sections/observer.py - the observer section: what the probes cost the measured CPU (IPI and
tick gaps, --waker, --stacks)"""

from lib.common import IPI_PROGS, STATS_SKIP_S, TICK_PHASE_NS, TICK_PROGS, med, med_interval, ratio
from lib.analysis import ipi_gaps, tick_gaps, window_actions
from lib.table import check, dirty, fmt, fmt_ratio
from sections.within import host_drift, prog_rows, within_attach, within_run


def observer_waker(b, t, inj, hz):
    """observer_waker - the waker tracking's cost on the measured CPU (issue 28): the paired
    injected-IPI and tick rows again, the probes with the tracking (the default) against
    --no-waker, in pairs of short runs next to each other"""
    P = b.P
    on, off = [], []
    for i in range(P['obs_pairs']):
        for who in (('on', 'off') if i % 2 == 0 else ('off', 'on')):
            if who == 'on':
                on.append(b.js('observer-waker', P['obs_secs'], inject=inj))
            else:
                off.append(b.js('observer-no-waker', P['obs_secs'], extra=['--no-waker'],
                                inject=inj))

    def medians(r):
        if not r.gaps or not r.inject:
            return None, None
        got = ipi_gaps(r)
        return med([g[1] for g in got]), med([g[1] for g in tick_gaps(r.gaps, set(got), hz)])

    pairs = list(zip(map(medians, on), map(medians, off)))
    ipi_r = med([x for x in (ratio(a[0], z[0]) for a, z in pairs) if x is not None])
    diffs = [(a[1] - z[1]) / 1e3 for a, z in pairs if a[1] is not None and z[1] is not None]
    tick_d = med(diffs)
    i_on, i_off = med([a[0] for a, _ in pairs]), med([z[0] for _, z in pairs])
    k_on, k_off = med([a[1] for a, _ in pairs]), med([z[1] for _, z in pairs])
    d = dirty(on + off)
    t.add('observer: injected-IPI gap median, waker tracking vs --no-waker (paired)',
          fmt(i_on and i_on / 1e3, ' us', 2), fmt(i_off and i_off / 1e3, ' us', 2),
          fmt_ratio(ipi_r), '<= 1.05x', check(ipi_r, '<=', 1.05), d)
    t.add('observer: tick gap median, waker tracking vs --no-waker (paired)',
          fmt(k_on and k_on / 1e3, ' us', 2), fmt(k_off and k_off / 1e3, ' us', 2),
          '%+.2f us' % tick_d if tick_d is not None else '-', 'report', 'INFO', d)


def observer_stacks(b, t):
    """observer_stacks - --stacks's cost (issue 28): jsinject --mode pipe (a SCHED_FIFO reader
    on the measured CPU woken through a pipe, spinning: method_params) with --stacks
    against without, in pairs of short runs next to each other: the median gap the reader
    caused (a stack is taken inside it, where it leaves the CPU) and the BPF run time per
    run of sched_switch and sched_waking (--probe-cost), all reported"""
    P = b.P
    helper = '0' if b.cpu != 0 else '1'
    inj = ('pipe', ['--helper-cpu', helper, '--period', str(P['stacks_period_ms'] * 1000),
                    '--spin', str(P['stacks_spin_us'])])
    base = ['--probe-cost', '-T', '%dus' % P['stacks_threshold_us'],
            '--top', str(P['stacks_top'])]
    on, off = [], []
    for i in range(P['stacks_pairs']):
        for who in (('on', 'off') if i % 2 == 0 else ('off', 'on')):
            if who == 'on':
                on.append(b.js('observer-stacks', P['stacks_secs'], extra=base + ['--stacks'],
                               inject=inj, gaps=False))
            else:
                off.append(b.js('observer-no-stacks', P['stacks_secs'], extra=base,
                                inject=inj, gaps=False))

    def reader_med(r):
        top = (r.json or {}).get('cpus', [{}])[0].get('top', [])
        return med([g['duration_ns'] for g in top
                    if g['cause'] == 'task' and g['detail'].startswith('jsinject:')])

    def ns_per_run(r, prog):
        cost = ((r.json or {}).get('probes') or {}).get('cost') or {}
        p = [x for x in cost.get('programs', []) if x['name'] == prog and x['runs']]
        return p[0]['run_ns'] / p[0]['runs'] if p else None

    pairs = list(zip(map(reader_med, on), map(reader_med, off)))
    rr = med([x for x in (ratio(a, z) for a, z in pairs) if x is not None])
    r_on, r_off = med([a for a, _ in pairs]), med([z for _, z in pairs])
    d = dirty(on + off)
    t.add('observer: pipe reader\'s gap median, --stacks vs without (paired)',
          fmt(r_on and r_on / 1e3, ' us', 1), fmt(r_off and r_off / 1e3, ' us', 1),
          fmt_ratio(rr), 'report', 'INFO', d)
    for prog in ('sched_switch', 'sched_waking'):
        a = med([x for x in (ns_per_run(r, prog) for r in on) if x is not None])
        z = med([x for x in (ns_per_run(r, prog) for r in off) if x is not None])
        t.add('observer: %s BPF run time per run, --stacks vs without' % prog,
              fmt(a and a / 1e3, ' us', 2), fmt(z and z / 1e3, ' us', 2),
              fmt_ratio(ratio(a, z)) if a and z else '-', 'report', 'INFO', d)


def sec_observer(b, t, reps, hz):
    """sec_observer - injected IPI gaps and tick gaps, probes on vs --no-probes, in pairs of
    short runs next to each other (the noise changes from minute to minute)"""
    P = b.P
    inj = ('ipi', ['--period', str(P['obs_period_us']), '--count', '1'])
    secs = P['obs_secs']
    on, off = [], []
    # the host's noise moves from run to run: several pairs per repetition
    for i in range(P['obs_pairs']):
        order = ('on', 'off') if i % 2 == 0 else ('off', 'on')
        for who in order:
            if who == 'on':
                on.append(b.js('observer-on', secs, inject=inj))
            else:
                off.append(b.js('observer-off', secs, extra=['--no-probes'], inject=inj))
    rows = []

    def per_run(r, label):
        if not r.gaps or not r.inject:
            return None, None
        acts = window_actions(r)
        got = ipi_gaps(r)
        ipi_med = med([g[1] for g in got])
        ticks = tick_gaps(r.gaps, set(got), hz)
        tick_med = med([g[1] for g in ticks])
        timer = '-'
        if r.json and r.json['probes']['enabled'] and ticks:
            timer = fmt(100.0 * sum(1 for g in ticks if g[2] == 'timer') / len(ticks), ' %', 0)
        rows.append((label, len(acts), len(got), fmt(ipi_med and ipi_med / 1e3, '', 2),
                     len(ticks), fmt(tick_med and tick_med / 1e3, '', 2), timer))
        return ipi_med, tick_med

    res_on = [per_run(r, 'probes on') for r in on]
    res_off = [per_run(r, '--no-probes') for r in off]
    host_drift(t, off, res_off, P)
    i_on, i_off = med([x[0] for x in res_on]), med([x[0] for x in res_off])
    k_on, k_off = med([x[1] for x in res_on]), med([x[1] for x in res_off])
    # pair i: the two runs of iteration i, next to each other in time
    pairs = list(zip(res_on, res_off))
    pr = [x for x in (ratio(a[0], z[0]) for a, z in pairs) if x is not None]
    r = med(pr)
    diffs = [(a[1] - z[1]) / 1e3 for a, z in pairs if a[1] is not None and z[1] is not None]
    diff = med(diffs)
    d = dirty(on + off)
    t.add('observer: injected-IPI gap median, on vs off (paired)',
          fmt(i_on and i_on / 1e3, ' us', 2), fmt(i_off and i_off / 1e3, ' us', 2),
          fmt_ratio(r), '<= 1.05x', check(r, '<=', 1.05), d)
    t.add('observer: tick gap median (%d ms phase), on vs off (paired)' % (1000 // hz),
          fmt(k_on and k_on / 1e3, ' us', 2), fmt(k_off and k_off / 1e3, ' us', 2),
          '%+.2f us' % diff if diff is not None else '-', 'report', 'INFO', d)
    wr = within_run(b, t, inj, hz, reps)
    within_attach(b, t, inj, hz, reps)
    observer_waker(b, t, inj, hz)
    observer_stacks(b, t)
    if pr:
        ci, cd = med_interval(pr), med_interval(diffs)
        t.notes.append('observer: the paired ratios ranged %s to %s over %d pairs (median %s%s); '
                       'the tick differences %s (median %s%s); the within-run ratios: %s' %
                       (fmt_ratio(min(pr)), fmt_ratio(max(pr)), len(pr), fmt_ratio(r),
                        ', 95 %% bootstrap interval %s to %s' % (fmt_ratio(ci[0]), fmt_ratio(ci[1]))
                        if ci else '',
                        '%+.2f to %+.2f us' % (min(diffs), max(diffs)) if diffs else 'none',
                        '%+.2f us' % diff if diff is not None else '-',
                        ', 95 %% bootstrap interval %+.2f to %+.2f us' % cd if cd else '',
                        ', '.join(fmt_ratio(x) for x in wr) or 'none measured'))
    # the per-run table in time order
    rows[:] = [row for pair in zip(rows[:len(on)], rows[len(on):]) for row in pair]
    lost = [r_.json['probes']['lost'] for r_ in on if r_.json]
    # where the probes' time goes: kernel bpf_stats of jitterscope's own programs, one more run
    # (--probe-cost: the statistics slow every program down, so only this run pays for them)
    st_secs = P['stats_secs']
    st = b.js('observer-stats', st_secs, extra=['--probe-cost'], inject=inj, gaps=False,
              progstats=True)
    ps = st.progstats or {}
    if ps:
        ipi = sum(ps[k][1] for k in IPI_PROGS if k in ps)
        tick = sum(ps[k][1] for k in TICK_PROGS if k in ps)
        t.notes.append('observer: BPF run time per call-function IPI on the measured CPU %.2f us '
                       '(%s), per tick %.2f us (%s), from bpf_stats (a run with --probe-cost, '
                       'which turns them on; the tracepoint dispatch is not included)' %
                       (ipi / 1e3, '+'.join(k for k in IPI_PROGS if k in ps), tick / 1e3,
                        '+'.join(k for k in TICK_PROGS if k in ps)))
        t.details.append(('BPF cost per program: one probes-on run with injected IPIs and '
                          '--probe-cost (bpf_stats over %.1f s, every CPU)' %
                          (st_secs - 2 * STATS_SKIP_S),
                          ('program', 'runs where', 'calls', 'ns/call', 'ms total'),
                          prog_rows(ps)))
    t.details.append(('Observer effect, per run, by pairs (jsinject ipi every %g ms; tick gaps: '
                      'start within %d us of the densest %d ms phase)' %
                      (P['obs_period_us'] / 1000, TICK_PHASE_NS // 1000, 1000 // hz),
                      ('run', 'IPIs', 'matched', 'IPI gap med us', 'tick gaps', 'tick med us',
                       'tick gaps caused by timer'),
                      rows))
    if any(lost):
        t.notes.append('observer: probes lost events in runs with probes: %s' % lost)
    return on


ROW = ('observer', 'what the probes cost the measured CPU: IPI and tick gaps, --waker, --stacks',
       lambda b, t, c: sec_observer(b, t, c.reps, c.hz))
