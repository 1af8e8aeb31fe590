"""bench/sections/redis.py - the redis section: what following a real server costs it (redis-server)"""

import os
import shutil

from lib.bench import redis_place
from lib.common import REDIS_BENCH, REDIS_SERVER, med, ratio
from lib.table import check, dirty, fmt, fmt_ratio


def paired_ratio(rounds, w, base, key):
    """paired_ratio - the median over rounds ({mode: run} each) of w's bench[key] over base's
    in the same round; None when no round has both"""
    return med([ratio(g[w].bench.get(key), g[base].bench.get(key))
                for g in rounds if w in g and base in g])


def redis_rates(run):
    """redis_rates - (events/s, evicted/s, records lost (the follow ring's and the probes'),
    own bottom halves/s) of a watched redis run, from jitterscope's JSON over its followed
    main thread's window"""
    j = run.json or {}
    th = [c for c in j.get('threads') or [] if c.get('duration_ns')]
    dur = max((c['duration_ns'] for c in th), default=0) / 1e9
    if not dur:
        return None, None, None, None
    pr = j.get('probes') or {}
    own = sum((c.get('thread_stats') or {}).get('own_bh', 0) for c in th)
    return (pr.get('events', 0) / dur, pr.get('evicted', 0) / dur,
            (j.get('follow') or {}).get('lost', 0) + pr.get('lost', 0), own / dur)


def bpf_per_get(run, gets):
    """bpf_per_get - (BPF run time ns a GET, program runs a GET, [(program, runs a GET, ns a
    run, ns a GET)] largest first) of a --probe-cost run over its gets requests, from
    probes.cost (every CPU: the client's too); None without it"""
    c = ((run.json or {}).get('probes') or {}).get('cost')
    if not c or not gets or not c.get('runs'):
        return None
    progs = [(q['name'], q['runs'] / gets, q['run_ns'] / q['runs'], q['run_ns'] / gets)
             for q in c.get('programs') or [] if q.get('runs')]
    return c['run_ns'] / gets, c['runs'] / gets, progs


def sec_redis_cost(b, t, runs):
    """the programs' own run time per request: separate --probe-cost runs (the statistics
    cost time of their own, so none of the judged runs has them), the median one's table"""
    P = b.P
    cost = []
    for i in range(P['redis_cost_runs']):
        r = b.redis('redis-cost', True, extra=['--probe-cost'])
        runs.append(r)
        per = bpf_per_get(r, P['redis_n']) if r.rc == 0 else None
        if per:
            cost.append(per)
    cost.sort(key=lambda x: x[0])
    mid = cost[len(cost) // 2] if cost else None
    d = dirty(runs[-P['redis_cost_runs']:])
    t.add('redis: BPF run time a GET, --pid (every CPU; --probe-cost runs, median of %d)'
          % len(cost), fmt(mid and mid[0], ' ns', 0), '-', '-', 'report', 'INFO', d)
    t.add('redis: program runs a GET, --pid (every CPU; the same run)',
          fmt(mid and mid[1], '', 2), '-', '-', 'report', 'INFO', d)
    if mid:
        t.details.append(('the programs\' own run time per GET, the median --probe-cost run '
                          '(kernel.bpf_stats_enabled; the tracepoints\' dispatch around them '
                          'not included), the largest first',
                          ('program', 'runs a GET', 'ns a run', 'ns a GET'),
                          [(n, fmt(k, '', 2), fmt(ns, '', 0), fmt(g, '', 1))
                           for n, k, ns, g in mid[2][:12]]))


def sec_redis(b, t, reps):
    """sec_redis - what following a real server costs it: redis-server on the measured CPU,
    redis-benchmark elsewhere, alone and followed by jitterscope --pid, alternating; the
    judged runs place jitterscope off the load's CPUs (redis_place), 'shared' where a user's
    unpinned start puts it (reported)"""
    P = b.P
    tp_t, p99_t = P['redis_tp_target'], P['redis_p99_target']
    if not REDIS_SERVER or not REDIS_BENCH or not shutil.which('redis-cli'):
        t.add('redis: redis-benchmark throughput, --pid / alone (redis-server, redis-tools '
              'not installed: scripts/install-deps.sh)', '-', '-', '-', '>= %gx' % tp_t, 'n/a')
        return []
    runs, side = [], {True: [], False: [], 'marks': [], 'feed': [], 'alone-feed': [],
                      'shared': []}
    # alone, followed, followed with --marks fed by nothing, and fed by bench/markfeed.py
    # (against the server alone beside the same feeder), and followed by jitterscope
    # started unpinned: rotated so each comes first
    order = (False, True, 'marks', 'feed', 'alone-feed', 'shared')
    feed, n = P['redis_feed'], len(order)
    rounds = []  # each round's runs that succeeded, by mode
    for i in range(P['redis_pairs']):
        rounds.append({})
        for mode in order[i % n:] + order[:i % n]:
            name = {False: 'alone', True: 'watched'}.get(mode, mode)
            watched = mode in (True, 'marks', 'feed', 'shared')
            r = b.redis('redis-%s' % name, watched, marks=mode in ('marks', 'feed'),
                        feed=feed if mode in ('feed', 'alone-feed') else 0,
                        shared=mode == 'shared')
            runs.append(r)
            if r.rc == 0 and r.bench and (not watched or r.json):
                side[mode].append(r)
                rounds[-1][mode] = r
    d = dirty(runs)

    def m(w, key):
        return med([r.bench[key] for r in side[w]]) if side[w] else None

    def paired(w, key, base=False):
        """the median over the rounds of w's value over base's in the same round"""
        return paired_ratio(rounds, w, base, key)
    # the rows: each side's median over its rounds, and the median of the rounds' own
    # ratios (a round's runs are a minute apart; the host drifts between rounds), listed
    # in the notes
    pairs = [(g[True], g[False]) for g in rounds if True in g and False in g]
    rps = paired(True, 'rps')
    t.add('redis: redis-benchmark GET throughput, --pid following / alone',
          fmt(m(True, 'rps') and m(True, 'rps') / 1e3, ' k/s'),
          fmt(m(False, 'rps') and m(False, 'rps') / 1e3, ' k/s'), fmt_ratio(rps),
          '>= %gx' % tp_t, check(rps, '>=', tp_t), d)
    for q, target in (('p50', None), ('p99', p99_t)):
        k = '%s_latency_ms' % q
        rat = paired(True, k)
        t.add('redis: redis-benchmark GET latency %s, --pid following / alone' % q,
              fmt(m(True, k), ' ms', 3), fmt(m(False, k), ' ms', 3), fmt_ratio(rat),
              '<= %gx' % target if target else 'report',
              check(rat, '<=', target) if target else 'INFO', d)
    for q, target in (('rps', tp_t), ('p99_latency_ms', p99_t)):
        rat = paired('marks', q)
        scale, unit, nd = (1e3, ' k/s', 1) if q == 'rps' else (1, ' ms', 3)
        t.add('redis: redis-benchmark GET %s, --pid --marks (fed by nothing) / alone'
              % ('throughput' if q == 'rps' else 'latency p99'),
              fmt(m('marks', q) and m('marks', q) / scale, unit, nd),
              fmt(m(False, q) and m(False, q) / scale, unit, nd), fmt_ratio(rat),
              ('>= %gx' if q == 'rps' else '<= %gx') % target,
              check(rat, '>=' if q == 'rps' else '<=', target), d)
    for q in ('rps', 'p99_latency_ms'):
        rat = paired('feed', q, 'alone-feed')
        scale, unit, nd = (1e3, ' k/s', 1) if q == 'rps' else (1, ' ms', 3)
        t.add('redis: redis-benchmark GET %s, --pid --marks fed %dk marks/s / alone, the '
              'same feeder' % ('throughput' if q == 'rps' else 'latency p99', feed // 1000),
              fmt(m('feed', q) and m('feed', q) / scale, unit, nd),
              fmt(m('alone-feed', q) and m('alone-feed', q) / scale, unit, nd),
              fmt_ratio(rat), 'report', 'INFO', d)
    for q in ('rps', 'p99_latency_ms'):
        rat = paired('shared', q)
        scale, unit, nd = (1e3, ' k/s', 1) if q == 'rps' else (1, ' ms', 3)
        t.add('redis: redis-benchmark GET %s, --pid started unpinned at the default priority%s '
              '/ alone' % ('throughput' if q == 'rps' else 'latency p99',
                           ' (its drain then shares the load\'s CPU)'
                           if (os.cpu_count() or 1) < 3 else ''),
              fmt(m('shared', q) and m('shared', q) / scale, unit, nd),
              fmt(m(False, q) and m(False, q) / scale, unit, nd), fmt_ratio(rat), 'report',
              'INFO', d)
    if (os.cpu_count() or 1) < 3:
        t.add('redis: --pid with the spinner on another CPU', '-', '-', '-', 'report',
              'n/a (%d CPUs: the server, the load and the spinner need three)'
              % (os.cpu_count() or 1), d)
    rates = [redis_rates(r) for r in side[True]]
    ev = med([x[0] for x in rates if x[0] is not None]) if rates else None
    every = [redis_rates(r) for w in (True, 'marks', 'feed', 'shared') for r in side[w]]
    evi = max((x[1] for x in every if x[1] is not None), default=None)
    lost = max((x[2] for x in every if x[2] is not None), default=None)
    t.add('redis: probe events/s on CPU %d while following (median)' % b.cpu,
          fmt(ev and ev / 1e3, ' k/s'), '-', '-', 'report', 'INFO', d)
    # what --marks adds to --pid, in the observer's own terms (the host's noise moves the
    # server's figures more than these)
    evm = med([x[0] for x in (redis_rates(r) for r in side['marks']) if x[0] is not None])
    t.add('redis: probe events/s, --pid --marks (fed by nothing) / --pid (medians)',
          fmt(evm and evm / 1e3, ' k/s'), fmt(ev and ev / 1e3, ' k/s'),
          fmt_ratio(ratio(evm, ev)), 'report', 'INFO', d)
    cpu = {w: med([r.js_cpu_s for r in side[w] if r.js_cpu_s is not None]) for w in
           (True, 'marks', 'feed')}
    t.add('redis: jitterscope CPU a run, --pid --marks (fed by nothing) / --pid (medians)',
          fmt(cpu['marks'], ' s', 2), fmt(cpu[True], ' s', 2),
          fmt_ratio(ratio(cpu['marks'], cpu[True])), 'report', 'INFO', d)
    t.add('redis: jitterscope CPU a run, --pid --marks fed %dk marks/s / --pid (medians)'
          % (feed // 1000), fmt(cpu['feed'], ' s', 2), fmt(cpu[True], ' s', 2),
          fmt_ratio(ratio(cpu['feed'], cpu[True])), 'report', 'INFO', d)
    t.add('redis: events evicted before their gap, per second (worst followed run)',
          fmt(evi, '/s', 0), '-', '-', '== 0', check(evi, '==', 0), d)
    t.add('redis: records lost, the follow ring\'s and the probes\' (worst followed run)',
          '-' if lost is None else str(lost), '-',
          '-', '== 0', check(lost, '==', 0), d)
    rows = []
    for mode in (False, 'alone-feed', True, 'marks', 'feed', 'shared'):
        for r in side[mode]:
            watched = mode not in (False, 'alone-feed')
            e = redis_rates(r) if watched else (None,) * 4
            th = ((r.json or {}).get('threads') or [{}])[0] if watched else {}
            rows.append(({False: 'alone', True: 'following',
                          'alone-feed': 'alone, marks fed %dk/s' % (feed // 1000),
                          'marks': 'following, --marks',
                          'feed': 'following, --marks fed %dk/s' % (feed // 1000),
                          'shared': 'following, jitterscope unpinned'}[mode],
                         fmt(r.bench['rps'] / 1e3, '', 1),
                         fmt(r.bench.get('p50_latency_ms'), '', 3),
                         fmt(r.bench.get('p99_latency_ms'), '', 3),
                         fmt(e[0] and e[0] / 1e3, '', 1), fmt(e[1], '', 0),
                         '-' if e[2] is None else e[2], fmt(e[3], '', 0),
                         fmt(th.get('lost_pct'), ' %', 2) if watched else '-',
                         fmt(r.js_cpu_s, ' s', 2) if watched else '-'))
    client, pre, place = redis_place(os.cpu_count() or 1, b.cpu)
    t.details.append(('redis-server on CPU %d, redis-benchmark -t get -n %d -c %d on CPU %s, '
                      'alone and followed by `%s`' % (b.cpu, P['redis_n'], P['redis_clients'],
                                                      ','.join(map(str, client)),
                                                      ' '.join(pre + [P['redis_js']] + place)),
                      ('run', 'k req/s', 'p50 ms', 'p99 ms', 'events k/s', 'evicted/s',
                       'records lost', 'own bottom halves/s', 'main thread time lost',
                       'jitterscope CPU'), rows))
    sec_redis_cost(b, t, runs)
    if pairs:
        t.notes.append('redis: per-pair throughput ratios (following / alone): %s' %
                       ', '.join(fmt_ratio(ratio(w.bench['rps'], a.bench['rps']))
                                 for w, a in pairs))
    return runs


ROW = ('redis', 'what following a real server costs it (redis-server, --pid)',
       lambda b, t, c: sec_redis(b, t, c.reps))
