"""bench/sections/scale.py - the scale section: housekeeping for many measured CPUs, simulated
(bench/jsscale.c); no root, CPU 1 untouched"""

import json
import subprocess

from lib.common import MIB, SCALE, SCALE_DURATIONS, log, med, ratio
from lib.table import check, fmt, fmt_ratio


def scale_params(a):
    """scale_params - the scale section's parameters (bench/jsscale.c runs with these; the
    method text names them)"""
    return {'scale_cpus': '1, 4, 16, 64, 128', 'scale_tuned': 1000, 'scale_untuned': 16000,
            'scale_tuned_secs': 2 if a.quick else 5, 'scale_untuned_secs': 1 if a.quick else 2,
            'scale_reps': 1 if a.quick else 5, 'scale_flat': 1.5, 'scale_linear': 1.1,
            'scale_shard_cpus': '64, 128, 256', 'scale_threads': '1, 2, 4'}


def scale_run(n, rate, secs, seed, threads=1):
    """scale_run - one run of the driver (threads: its drain threads): its JSON line as a dict,
    None when it failed"""
    p = subprocess.run([SCALE, '--cpus', str(n), '--rate', str(rate), '--seconds', str(secs),
                        '--seed', str(seed), '--durations', SCALE_DURATIONS] +
                       (['--threads', str(threads)] if threads > 1 else []),
                       capture_output=True, text=True)
    if p.returncode != 0:
        log('bench: jsscale --cpus %d --rate %d failed (%d): %s' %
            (n, rate, p.returncode, p.stderr.strip()[:200]))
        return None
    return json.loads(p.stdout)


def sec_scale(b, t):
    """sec_scale - housekeeping for many measured CPUs, simulated (bench/jsscale.c): the drain,
    attribution and models fed by N CPUs' gap and event rings at a tuned and an untuned gap
    rate. Per gap: flat from 1 to 128 CPUs; one thread keeps up or not; memory per CPU. Then
    the tuned rate on up to 256 CPUs split among 1, 2 and 4 drain threads (--drain-threads):
    the most CPUs each keeps up with, the lag (slowest drain), per gap against 1 CPU"""
    P = b.P
    cpus = [int(x) for x in P['scale_cpus'].split(',')]
    shard_cpus = [int(x) for x in P.get('scale_shard_cpus', '64, 128, 256').split(',')]
    threads = [int(x) for x in P.get('scale_threads', '1, 2, 4').split(',')]
    rows, res, got = [], {}, {}
    streams = ((P['scale_tuned'], P['scale_tuned_secs'], 'tuned'),
               (P['scale_untuned'], P['scale_untuned_secs'], 'untuned'))
    # (rate, CPUs, threads): one thread at every N of both streams, then the tuned stream's
    # many CPUs on each thread count
    runs = [(rate, secs, what, n, 1) for rate, secs, what in streams for n in cpus]
    runs += [(P['scale_tuned'], P['scale_tuned_secs'], 'tuned', n, th) for th in threads
             for n in shard_cpus if (th > 1 or n not in cpus)]
    # the repetitions go round every N in turn: the host's minute weighs on each N alike
    for k in range(P['scale_reps']):
        for rate, secs, what, n, th in runs:
            got.setdefault((rate, n, th), []).append(scale_run(n, rate, secs, 1 + k, th))
    for rate, secs, what, n, th in runs:
        rs = [r for r in got.get((rate, n, th), []) if r]
        if not rs:
            continue
        r = dict(rs[0])
        for key in ('hk_ns_per_gap', 'hk_core_pct', 'drain_max_ns', 'heap_per_cpu',
                    'nap_mean_ns'):
            r[key] = med([x[key] for x in rs])
        r['lost'] = sum(x['lost_gaps'] + x['lost_events'] for x in rs)
        # judged on the medians, as the other figures: one run's slowest drain moves with
        # what else the housekeeping CPU ran then
        r['within_budget'] = r['drain_max_ns'] < r['nap_ns'] and not r['lost']
        res[(rate, n, th)] = r
        if th == 1:
            res[(rate, n)] = r
        rows.append((what, n, th, rate, r['gaps'], fmt(r['hk_ns_per_gap'], '', 0),
                     fmt(r['hk_core_pct'], '', 2), fmt(r['drain_max_ns'] / 1e6, '', 2),
                     fmt(r['nap_mean_ns'] / 1e6, '', 1),
                     'yes' if r['within_budget'] else 'NO',
                     r['lost'], fmt(r['heap_per_cpu'] / MIB, '', 2),
                     fmt((r['gap_ring_per_cpu'] + r['probe_ring_per_cpu']) / MIB, '', 2)))
    lo, hi = cpus[0], cpus[-1]
    for rate, what in ((P['scale_tuned'], 'tuned'), (P['scale_untuned'], 'untuned')):
        a, z = res.get((rate, lo)), res.get((rate, hi))
        rat = ratio(z and z['hk_ns_per_gap'], a and a['hk_ns_per_gap'])
        t.add('scale: housekeeping CPU per gap, %d vs %d CPUs (%s, %d gaps/s per CPU)'
              % (hi, lo, what, rate), fmt(z and z['hk_ns_per_gap'] / 1000, ' us', 2),
              fmt(a and a['hk_ns_per_gap'] / 1000, ' us', 2), fmt_ratio(rat),
              '<= %gx (flat)' % P['scale_flat'], check(rat, '<=', P['scale_flat']))
        ok = [n for n in cpus if res.get((rate, n)) and res[(rate, n)]['within_budget']]
        most = max(ok) if ok else None
        z = res.get((rate, most)) if most else None
        t.add('scale: most CPUs one housekeeping thread drains within the nap (%s, %d gaps/s '
              'per CPU)' % (what, rate), '%s CPUs' % (most if most else 'no'),
              '%s %% of a core' % fmt(z and z['hk_core_pct'], '', 1), '-', 'report', 'INFO')
    # drain threads: the tuned stream's many CPUs on 1, 2, 4 threads
    rate, big, top = P['scale_tuned'], shard_cpus[-1], threads[-1]
    for th in threads:
        ns = sorted(set(cpus + shard_cpus))
        ok = [n for n in ns if res.get((rate, n, th)) and res[(rate, n, th)]['within_budget']]
        most = max(ok) if ok else None
        z = res.get((rate, most, th)) if most else None
        t.add('scale: most CPUs %d drain thread%s keep%s up with within the nap (tuned, %d '
              'gaps/s per CPU; lag: the slowest drain)' % (th, 's' if th > 1 else '',
                                                          '' if th > 1 else 's', rate),
              '%s CPUs' % (most if most else 'no'),
              'lag %s ms' % fmt(z and z['drain_max_ns'] / 1e6, '', 2), '-', 'report', 'INFO')
    z, a = res.get((rate, big, top)), res.get((rate, cpus[0]))
    t.add('scale: %d tuned CPUs on %d drain threads: the lag (slowest drain) against the nap'
          % (big, top), fmt(z and z['drain_max_ns'] / 1e6, ' ms', 2),
          fmt(z and z['nap_ns'] / 1e6, ' ms', 0), '-', '< nap, none lost',
          'PASS' if z and z['within_budget'] else 'FAIL')
    rat = ratio(z and z['hk_ns_per_gap'], a and a['hk_ns_per_gap'])
    t.add('scale: housekeeping CPU per gap, %d CPUs on %d drain threads vs %d CPU (tuned, '
          'every thread\'s)' % (big, top, cpus[0]), fmt(z and z['hk_ns_per_gap'] / 1000, ' us', 2),
          fmt(a and a['hk_ns_per_gap'] / 1000, ' us', 2), fmt_ratio(rat),
          '<= %gx' % P['scale_flat'], check(rat, '<=', P['scale_flat']))
    # memory: the heap the drain and results hold per CPU, flat in N when it grows linearly
    m_lo, m_hi = res.get((P['scale_tuned'], cpus[1])), res.get((P['scale_tuned'], hi))
    rat = ratio(m_hi and m_hi['heap_per_cpu'], m_lo and m_lo['heap_per_cpu'])
    rings = m_hi and m_hi['gap_ring_per_cpu'] + m_hi['probe_ring_per_cpu']
    t.add('scale: memory per measured CPU at %d vs %d CPUs (heap: drain, results)'
          % (hi, cpus[1]), fmt(m_hi and m_hi['heap_per_cpu'] / MIB, ' MiB', 2),
          fmt(m_lo and m_lo['heap_per_cpu'] / MIB, ' MiB', 2), fmt_ratio(rat),
          '<= %gx (linear)' % P['scale_linear'], check(rat, '<=', P['scale_linear']))
    t.add('scale: rings per measured CPU at %d CPUs (sampler ring + probe ring; senders\' '
          'rings %s MiB in all)' % (hi, fmt(m_hi and m_hi['send_rings'] / MIB, '', 2)),
          fmt(rings and rings / MIB, ' MiB', 2),
          fmt(m_lo and (m_lo['gap_ring_per_cpu'] + m_lo['probe_ring_per_cpu']) / MIB, ' MiB', 2)
          + ' (%d CPUs)' % cpus[1], '-', 'report', 'INFO')
    t.details.append(('Scale: the drain fed by N simulated CPUs (bench/jsscale.c; medians of '
                      '%d runs)' % P['scale_reps'],
                      ('stream', 'CPUs', 'drain threads', 'gaps/s per CPU', 'gaps',
                       'housekeeping ns/gap', '% of a core', 'slowest drain (lag) ms',
                       'mean nap ms', 'within the nap',
                       'lost', 'heap MiB/CPU', 'rings MiB/CPU'), rows))


ROW = ('scale', 'housekeeping for many measured CPUs, simulated (jsscale; no root)',
       lambda b, t, c: sec_scale(b, t))
