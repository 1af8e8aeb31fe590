"""bench/sections/app.py - the app section: what watching an application costs it (jsapp)"""

import os

from lib.common import APP, med, ratio
from lib.table import check, dirty, fmt, fmt_ratio


def sec_app(b, t, reps):
    """sec_app - what watching an application costs it: the stand-in application's own
    iteration time, median and p99, followed by jitterscope --pid --marks and not, alternating"""
    secs, target = b.P['app_secs'], b.P['app_target']
    if not os.access(APP, os.X_OK):
        t.add('app: jsapp iteration p50/p99, watched / not', '-', '-', '-', '<= %gx' % target,
              'n/a')
        return []
    runs, side = [], {True: [], False: []}
    for i in range(b.P['app_pairs']):
        for watched in ((True, False) if i % 2 else (False, True)):
            r = b.app('app-%s' % ('watched' if watched else 'alone'), secs, watched)
            runs.append(r)
            if r.rc == 0 and 'iter_p50_ns' in getattr(r, 'app', {}):
                side[watched].append(r)
    d = dirty(runs)
    rows = []
    for q in ('p50', 'p%d' % b.P['app_tail']):      # jsapp's summary: p50, p99, p999
        w = med([int(r.app['iter_%s_ns' % q]) for r in side[True]]) if side[True] else None
        a = med([int(r.app['iter_%s_ns' % q]) for r in side[False]]) if side[False] else None
        rat = ratio(w, a)
        t.add('app: jsapp iteration %s, --pid --marks watching / not' % q,
              fmt(w and w / 1e3, ' us', 2), fmt(a and a / 1e3, ' us', 2), fmt_ratio(rat),
              '<= %gx' % target, check(rat, '<=', target), d)
    for watched in (False, True):
        for r in side[watched]:
            th = (r.json or {}).get('threads') or [{}]
            rows.append(('watched' if watched else 'alone', r.app.get('iterations'),
                         fmt(int(r.app['iter_p50_ns']) / 1e3, '', 2),
                         fmt(int(r.app['iter_p99_ns']) / 1e3, '', 2),
                         fmt(int(r.app['iter_p999_ns']) / 1e3, '', 1), r.app.get('marks'),
                         th[0].get('gap_count', '-') if watched else '-'))
    t.details.append(('Stand-in application cost (jsapp, %g s runs, work %d us, marks from %d us '
                      'slow)' % (secs, b.P['app_work_us'], b.P['app_slow_us']),
                      ('run', 'iterations', 'p50 us', 'p99 us', 'p99.9 us', 'marks',
                       'thread gaps'), rows))
    return runs


ROW = ('app', 'what watching an application costs it (jsapp, --pid --marks)',
       lambda b, t, c: sec_app(b, t, c.reps))
