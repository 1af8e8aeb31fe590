"""bench/sections/throughput.py - the throughput section: probe events per second handled without
loss"""

from lib.common import TP_SEEN_MIN
from lib.analysis import housekeeping_pct, js_cpu
from lib.table import dirty, fmt


def sec_throughput(b, t, reps):
    """sec_throughput - probe events per second handled without loss, increasing fault rates"""
    secs = b.P['tp_secs']
    period = b.P['tp_period_us']
    # (pages per burst, parallel injectors), rising
    ladder = ((20, 1), (100, 1), (200, 1), (400, 1), (400, 2), (400, 3))
    if b.a.quick:
        ladder = ((200, 1), (400, 2))
    rows, best, first_loss = [], None, None
    runs = []
    for count, par in ladder:
        inj = [('pf', ['--period', str(period), '--count', str(count)])] * par
        r = b.js('throughput-%dx%d' % (count, par), secs, gaps=False, inject=inj)
        runs.append(r)
        c = js_cpu(r)
        if not c or not r.inject:
            continue
        pr = r.json['probes']
        ev_s = pr['events'] / (c['duration_ns'] / 1e9)
        injs = [r.inject] + getattr(r.inject, 'others', [])
        inj_dur = float(r.inject.summary.get('duration_s', secs))
        faults = sum(int(i.summary.get('faults', 0)) for i in injs)
        hk = housekeeping_pct(r, b.cpu)
        # judged against the kernel: the injectors' faults (their rusage) must be named as
        # faults on the CPU, not merely no loss counted by jitterscope itself
        named = (c.get('by_class') or {}).get('fault', {}).get('events', 0)
        seen = named / faults if faults else None
        rows.append(('%d x %d' % (par, count), fmt(count * par * 1e6 / period / 1e3, '', 0),
                     fmt(faults / inj_dur / 1e3), fmt(ev_s / 1e3), pr['lost'],
                     '%d (%d)' % (pr.get('evicted', 0), pr.get('shed', 0)), c['dropped'],
                     fmt(seen and seen * 100, ' %', 1), fmt(hk, ' %', 2),
                     fmt(c['lost_pct'], ' %')))
        rate = faults / inj_dur
        if pr['lost'] == 0 and c['dropped'] == 0 and seen is not None and seen >= TP_SEEN_MIN:
            best = max(best or 0, rate)
        elif first_loss is None or rate < first_loss:
            first_loss = rate
    d = dirty(runs)
    js_txt = 'all named up to %s k/s' % fmt(best and best / 1e3, '', 0)
    if first_loss is not None:
        js_txt += '; not at %s k/s' % fmt(first_loss / 1e3, '', 0)
    ok = best is not None and best >= 100e3 and (first_loss is None or first_loss >= 100e3)
    t.add('throughput: injected faults/s on CPU %d all named (>= %g %% of the kernel\'s count, '
          'lost == 0)' % (b.cpu, TP_SEEN_MIN * 100), js_txt, '-', '-',
          '>= 100k/s', 'PASS' if ok else ('n/a' if best is None else 'FAIL'), d)
    t.details.append(('Attribution throughput (jsinject pf, period %g ms, %g s runs; events/s '
                      'over the whole window; named: the fault events jitterscope gave CPU %d\'s '
                      'gaps over the faults the injectors\' rusage counted; evicted: events '
                      'dropped from the window before their gap, of them the faults shed, which '
                      'hold no time)'
                      % (period / 1000, secs, b.cpu),
                      ('injectors x pages', 'asked faults k/s', 'injected k/s', 'events k/s',
                       'lost', 'evicted (faults shed)', 'dropped', 'named', 'housekeeping CPU',
                       'CPU %d lost' % b.cpu),
                      rows))
    return runs


ROW = ('throughput', 'probe events per second handled without loss, rising fault rates',
       lambda b, t, c: sec_throughput(b, t, c.reps))
