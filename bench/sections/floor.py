"""bench/sections/floor.py - the floor section: loop period of jitterscope against oslat's and the
bare loop's"""

from lib.common import OSLAT, med, ratio
from lib.analysis import js_cpu, loop_period, oslat_busy_period, oslat_thread
from lib.table import check, dirty, fmt, fmt_ratio


def sec_floor(b, t, reps):
    """sec_floor - loop period of jitterscope vs oslat's, and vs the CPU's bare TSC loop
    (jsloop), alternating, same CPU. Judged: the same statistic on every side (the loop's
    mean period with the gaps taken out)"""
    js, os_, bare = [], [], []
    secs = b.P['floor_secs']
    for i in range(reps):
        order = ('js', 'os', 'loop') if i % 2 == 0 else ('loop', 'os', 'js')
        for who in order:
            if who == 'js':
                js.append(b.js('floor-js', secs))
            elif who == 'loop':
                bare.append(b.loop('floor-loop', secs))
            elif OSLAT:
                os_.append(b.oslat('floor-oslat', secs))
    cs = [js_cpu(r) for r in js if js_cpu(r)]
    o_raw = med([ot[1] * 1e9 / ot[0] for ot in (oslat_thread(r) for r in os_) if ot])
    o_busy = med([oslat_busy_period(r) for r in os_])
    l_mean = med([loop_period(r) for r in bare])
    j_mean = med([c['loop_ns_mean'] for c in cs])
    j_raw = med([c['duration_ns'] / c['iterations'] for c in cs])
    d = dirty(js + os_)
    r = ratio(j_mean, o_busy)
    t.add('floor: loop period mean, gaps excluded (both)', fmt(j_mean, ' ns'),
          fmt(o_busy, ' ns'), fmt_ratio(r), 'report', 'INFO', d)  # the TSC's floor: OBSERVER.md
    # the CPU's own floor: what no loop that reads the TSC can beat; oslat's side of the
    # row above is its loop against the same floor
    t.add('floor: loop period mean vs the bare TSC loop (jsloop)',
          fmt(j_mean, ' ns'), fmt(l_mean, ' ns'), fmt_ratio(ratio(j_mean, l_mean)), 'report',
          'INFO', dirty(js + bare))
    t.add('floor: oslat\'s loop period mean vs the bare TSC loop', fmt(o_busy, ' ns'),
          fmt(l_mean, ' ns'), fmt_ratio(ratio(o_busy, l_mean)), 'report', 'INFO',
          dirty(os_ + bare))
    # wall / loops is the same statistic too, but moves with each run's lost time: shown
    t.add('floor: wall time / loops, gaps included (both)', fmt(j_raw, ' ns'), fmt(o_raw, ' ns'),
          fmt_ratio(ratio(j_raw, o_raw)), 'report', 'INFO', d)
    for what, key in (('min', 'loop_ns_min'), ('median', 'loop_ns_median')):
        t.add('floor: loop period %s, calibration (jitterscope only)' % what,
              fmt(med([c[key] for c in cs]), ' ns'), '- (oslat has none)', '-', 'report',
              'INFO', d)
    t.details.append(('Detection floor, per run', ('tool', 'calibration min ns',
                                                    'calibration median ns', 'mean ns',
                                                    'wall/loops ns', 'lost %'),
                      [('jitterscope', fmt(c['loop_ns_min']), fmt(c['loop_ns_median']),
                        fmt(c['loop_ns_mean']), fmt(c['duration_ns'] / c['iterations']),
                        fmt(c['lost_pct'], '', 2)) for c in cs] +
                      [('oslat', '-', '-', fmt(oslat_busy_period(r)),
                        fmt(oslat_thread(r)[1] * 1e9 / oslat_thread(r)[0]), '-')
                       for r in os_ if oslat_thread(r)] +
                      [('jsloop', '-', '-', fmt(loop_period(r)),
                        fmt(r.loop['duration_ns'] / r.loop['iterations']), '-')
                       for r in bare if loop_period(r)]))
    return js, os_


ROW = ('floor', 'loop period: jitterscope against oslat and the bare TSC loop',
       lambda b, t, c: c.base.extend(sec_floor(b, t, c.reps)[0]))
