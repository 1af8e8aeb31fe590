"""bench/sections/ipis.py - the ipis section: IPIs reaching the measured CPU, counted by
/proc/interrupts"""

import re

from lib.common import BASE_SKIP_S, IPI_KEYS, IPI_SUM, JS, WINDOW_MARGIN_NS
from lib.analysis import irq_rates, js_cpu, window
from lib.table import check, dirty, fmt


def self_ipis(run):
    """self_ipis - (IPIs the probes attribute to this jitterscope process as the sender,
    irq_work events on the CPU from any sender)"""
    c = js_cpu(run)
    if not c or not run.json['probes']['enabled']:
        return None, None
    own, iw = 0, 0
    for s in c.get('sources', []):
        det = s.get('detail') or ''
        m = re.search(r' from jitterscope:(\d+)$', det)
        if s['cause'] in ('ipi', 'vector', 'tlb') and m and int(m.group(1)) in run.tids:
            own += s['events']
        if 'irq_work' in det:
            iw += s['events']
    return own, iw


def sec_ipis(b, t):
    """sec_ipis - IPIs reaching the measured CPU, counted by its own /proc/interrupts rows:
    jitterscope with and without probes against a plain busy loop pinned there, and the CPU
    left alone. jitterscope's own attribution of senders is shown apart, for information"""
    secs = b.P['ipis_secs']
    span = int((secs - 2 * WINDOW_MARGIN_NS / 1e9) * 1e9)    # jitterscope's window length
    kinds = ('on', 'busy', 'off', 'idle')
    runs = {k: [] for k in kinds}
    for i in range(b.P['ipis_runs']):     # many short runs: a better chance of quiet ones
        for who in (kinds if i % 2 == 0 else kinds[::-1]):
            if who == 'on':
                runs[who].append(b.js('ipis-on', secs, irqs=True))
            elif who == 'off':
                runs[who].append(b.js('ipis-off', secs, extra=['--no-probes'], irqs=True,
                                      gaps=False))
            else:   # long enough for a window as long as jitterscope's, from BASE_SKIP_S
                runs[who].append(b.busy('ipis-' + who, secs + BASE_SKIP_S, idle=who == 'idle'))

    def counted(r):
        """({key: count}, seconds) over the run's window, None when not measured"""
        if r.cmd[0] == JS:
            w = window(r)
        else:
            lo = r.t_exec + int(BASE_SKIP_S * 1e9)
            w = (lo, lo + span)
        x = irq_rates(r, *w) if w else None
        return ({k: round(v * x[1]) for k, v in x[0].items()}, x[1]) if x else None

    cnt = {k: [c for c in (counted(r) for r in runs[k]) if c] for k in kinds}

    def quiet(k, keys=IPI_SUM):
        # other work only adds IPIs: the quietest run is the best estimate of each side
        return min([sum(c[x] for x in keys) / dt for c, dt in cnt[k]], default=None)

    def diff(a, z, nd=1):
        return ('%+.' + str(nd) + 'f/s') % (a - z) if a is not None and z is not None else None

    d = dirty(runs['on'] + runs['off'] + runs['busy'])
    keys = '+'.join(IPI_SUM)
    z = quiet('busy')
    for k, what in (('on', 'probes on'), ('off', '--no-probes')):
        a = quiet(k)
        ex = a - z if a is not None and z is not None else None
        t.add('ipis: %s on CPU %d /s, jitterscope %s vs busy loop (quietest runs)' %
              (keys, b.cpu, what), fmt(a, '/s'), fmt(z, '/s'), diff(a, z) or '-',
              '<= +1.0/s', check(ex, '<=', 1.0), d)
    iw, iwb = quiet('on', ('IWI',)), quiet('busy', ('IWI',))
    t.add('ipis: IWI (irq_work) on CPU %d /s, probes on vs busy loop (quietest runs)' % b.cpu,
          fmt(iw, '/s', 2), fmt(iwb, '/s', 2), diff(iw, iwb, 2) or '-', '<= +0.00/s',
          check(iw - iwb if iw is not None and iwb is not None else None, '<=', 0.0), d)
    zi = quiet('idle')
    t.add('ipis: %s on CPU %d /s, CPU left alone vs busy loop (quietest runs)' % (keys, b.cpu),
          fmt(zi, '/s'), fmt(z, '/s'), diff(zi, z) or '-', 'report', 'INFO',
          dirty(runs['idle'] + runs['busy']))
    # what the probes say: IPI causes whose sender is a thread of that jitterscope process
    inwin, edge = [], []
    for r in runs['on']:
        w = window(r)
        if not w:
            continue
        mine = [x for x in r.sent if x[1] in r.tids]
        inwin += [x for x in mine if w[0] <= x[0] <= w[1]]
        edge += [x for x in mine if not w[0] <= x[0] <= w[1]]
    ok = [r for r in runs['on'] if window(r)]
    t.add('ipis: IPIs to CPU %d named by the probes as sent by jitterscope, while measuring'
          % b.cpu, '%d in %d runs (+%d at the edges)' % (len(inwin), len(ok), len(edge))
          if ok else '-', '-', '-', 'report', 'INFO', d)
    if inwin or edge:
        t.notes.append('ipis: IPIs the probes name as sent by jitterscope itself: ' +
                       '; '.join('%s at %.3f s, in a gap of: %s' %
                                 (x[2], (x[0] - js_cpu(r)['start_ns']) / 1e9, x[3])
                                 for r in runs['on'] for x in r.sent if x[1] in r.tids)[:900])
    own = [self_ipis(r) for r in runs['on']]
    mw = max([x[1] for x in own if x[1] is not None], default=None)
    t.add('ipis: irq_work events on CPU %d, any sender (probes)' % b.cpu, fmt(mw, '', 0), '-',
          '-', 'report', 'INFO', d)
    t.details.append(('IPI counters of CPU %d over each run\'s window (counts)' % b.cpu,
                      ('run', 'window s') + IPI_KEYS + ('%s /s' % keys,),
                      [(lbl, fmt(dt, '', 2)) + tuple(c[k] for k in IPI_KEYS) +
                       (fmt(sum(c[x] for x in IPI_SUM) / dt, '', 2),)
                       for k, lbl in (('on', 'probes on'), ('off', '--no-probes'),
                                      ('busy', 'busy loop'), ('idle', 'CPU left alone'))
                       for c, dt in cnt[k]]))
    return runs['on'] + runs['off']


ROW = ('ipis', 'IPIs reaching the measured CPU: jitterscope, a busy loop, the CPU alone',
       lambda b, t, c: sec_ipis(b, t))
