"""bench/sections/scaling.py - the scaling section: memory, housekeeping CPU, attach and report time
against duration and gap count"""

from lib.common import JS, log, med, ratio
from lib.analysis import (attach_s, heap_mib, housekeeping_pct, js_cpu, post_run_cpu_s, post_run_s,
                          sampling_hwm_mib)
from lib.table import check, dirty, fmt, fmt_ratio


def gap_rate(run):
    """gap_rate - gaps per second of a jitterscope run, None when it has no result"""
    c = js_cpu(run)
    return c['gap_count'] / (c['duration_ns'] / 1e9) if c and c['duration_ns'] else None


def hwm_growth_per_hour(run):
    """hwm_growth_per_hour - how fast VmHWM grew while the run sampled, after its first
    quarter (set-up done), in kB per hour (a long run without end: make soak); None
    without samples"""
    c = js_cpu(run)
    xs = [(t, kb) for t, kb in getattr(run, 'hwm_series', [])
          if c and run.meas_start and t <= run.meas_start + c['duration_ns']]
    if len(xs) < 4:
        return None
    xs = xs[len(xs) // 4:]
    span = (xs[-1][0] - xs[0][0]) / 1e9
    return (xs[-1][1] - xs[0][1]) * 3600.0 / span if span > 0 else None


def sec_scaling(b, t, base_runs, all_js):
    """sec_scaling - cost: RSS, housekeeping CPU, attach, report time; vs duration and gap
    count. The report time is measured on a run that recorded at least big_gaps gaps: its
    length comes from the gap rate of a shorter run with the same settings"""
    P = b.P
    long_r = b.js('scaling-long', P['long_secs'])
    hi = dict(extra=['-T', P['rate_threshold']],
              inject=('timer', ['--period', str(P['rate_timer_us'])]), load=False)
    rate_r = b.js('scaling-rate', P['rate_secs'], **hi)
    # the budget: at 16k gaps/s (a timer every 60 us), at most 2 % of a core; the
    # run as started by default (no --gaps), then with a CSV row per gap, for its cost
    hk16 = dict(extra=['-T', P['hk_threshold']],
                inject=('timer', ['--period', str(P['hk_timer_us'])]), load=False)
    # several of each, alternating: one run of a few seconds moves with the host's minute
    hk16_rs, hk16g_rs = [], []
    for _ in range(P['hk_runs']):
        hk16_rs.append(b.js('scaling-16k', P['hk_secs'], gaps=False, **hk16))
        hk16g_rs.append(b.js('scaling-16k-gaps', P['hk_secs'], **hk16))
    hk16_rs = [r for r in hk16_rs if r and r.json]
    hk16g_rs = [r for r in hk16g_rs if r and r.json]
    r0 = gap_rate(rate_r)
    big_r = None
    if r0:
        big_s = min(P['big_max_secs'], int(1.1 * P['big_gaps'] / r0) + 2)
        log('bench: %d s for %d gaps at %.0f gaps/s' % (big_s, P['big_gaps'], r0))
        big_r = b.js('scaling-big', big_s, **hi)
    hi_runs = [r for r in [rate_r] + hk16_rs + hk16g_rs + [big_r] if r]
    base_ok = [r for r in base_runs if r.json]
    base_s = js_cpu(base_ok[0])['duration_ns'] / 1e9 if base_ok else 0
    rss = med([r.hwm_kb for r in base_ok])
    oslat_runs = [r for r in b.runs if r.name.startswith('floor-oslat')]
    os_rss = med([r.hwm_kb for r in oslat_runs if r.rusage])
    d = dirty(base_ok)
    t.add('cost: max RSS, 1 measured CPU (%.0f s run)' % base_s, fmt(rss and rss / 1024, ' MiB'),
          fmt(os_rss and os_rss / 1024, ' MiB') + ' (oslat)', fmt_ratio(ratio(rss, os_rss)),
          '<= 32 MiB', check(rss and rss / 1024, '<=', 32), d)
    hk = med([housekeeping_pct(r, b.cpu) for r in base_ok])
    os_hk = med([housekeeping_pct(r, b.cpu) for r in oslat_runs])
    t.add('cost: housekeeping CPU while measuring (% of a core)', fmt(hk, ' %', 2),
          fmt(os_hk, ' %', 2) + ' (oslat)', '-', '<= 2 %', check(hk, '<=', 2.0), d)
    att = med([attach_s(r) for r in all_js if r.json and not r.inject and '-T' not in r.cmd])
    os_att = med([attach_s(r) for r in oslat_runs])
    # not the same span: oslat's includes its own pre-heat, so no ratio
    t.add('cost: exec to first sample (attach)', fmt(att, ' s', 3),
          fmt(os_att, ' s', 3) + ' (oslat, to its measuring thread, after its pre-heat)', '-',
          '<= 1 s', check(att, '<=', 1.0), dirty(all_js))
    # report time: the post-run phase (detach, attribution tail, JSON, gaps CSV), measured
    p0 = med([post_run_s(r) for r in base_ok])
    n0 = med([js_cpu(r)['gap_count'] for r in base_ok])
    nb = js_cpu(big_r)['gap_count'] if big_r and big_r.json else None
    pb = post_run_s(big_r) if nb else None
    reached = nb is not None and nb >= P['big_gaps']
    t.add('cost: report time (post-run) at >= %d gaps' % P['big_gaps'],
          ('%s at %d gaps' % (fmt(pb, ' s', 2), nb) if reached else
           'not reached: %s gaps' % ('-' if nb is None else nb)),
          '%s at %s gaps (%.0f s runs)' % (fmt(p0, ' s', 2), fmt(n0, '', 0), base_s),
          fmt_ratio(ratio(pb, p0)) if reached else '-', 'report', 'INFO' if reached else 'n/a',
          dirty([big_r] if big_r else []))
    # scaling: memory flat with duration and with gap count, CPU cost vs both
    rl = long_r.hwm_kb
    t.add('scaling: max RSS, %g s vs %.0f s run' % (P['long_secs'], base_s),
          fmt(rl and rl / 1024, ' MiB'), fmt(rss and rss / 1024, ' MiB'),
          fmt_ratio(ratio(rl, rss)), '<= 1.05x (flat)', check(ratio(rl, rss), '<=', 1.05),
          dirty([long_r] + base_ok))
    gph = hwm_growth_per_hour(long_r)
    t.add('scaling: RSS growth per hour (%g s run, after its first quarter)' % P['long_secs'],
          fmt(gph and gph / 1024, ' MiB/h', 2), fmt(rl and rl / 1024, ' MiB'),
          fmt_ratio(ratio(gph, rl)), '<= 1 % of RSS per hour',
          check(ratio(gph, rl), '<=', 0.01), dirty([long_r]))
    rb = big_r.hwm_kb if nb else None
    t.add('scaling: max RSS, %s gaps vs %s gaps' % (nb if nb is not None else '-',
                                                     fmt(n0, '', 0)),
          fmt(rb and rb / 1024, ' MiB'), fmt(rss and rss / 1024, ' MiB'),
          fmt_ratio(ratio(rb, rss)), '<= 1.05x (flat)', check(ratio(rb, rss), '<=', 1.05),
          dirty(([big_r] if big_r else []) + base_ok))
    hl = housekeeping_pct(long_r, b.cpu)
    t.add('scaling: housekeeping CPU, %g s run vs base' % P['long_secs'], fmt(hl, ' %', 2),
          fmt(hk, ' %', 2), fmt_ratio(ratio(hl, hk)), '<= 2 %', check(hl, '<=', 2.0),
          dirty([long_r]))
    h16 = med([housekeeping_pct(r, b.cpu) for r in hk16_rs])
    g16 = med([gap_rate(r) for r in hk16_rs])
    t.add('cost: housekeeping CPU at %s gaps/s (a timer every %d us; median of %d runs)'
          % (fmt(g16, '', 0), P['hk_timer_us'], len(hk16_rs)), fmt(h16, ' %', 2),
          fmt(hk, ' %', 2) + ' (base)',
          fmt_ratio(ratio(h16, hk)), '<= %g %% at >= %d gaps/s' % (P['hk_pct'], P['hk_rate']),
          check(h16, '<=', P['hk_pct']) if g16 is None or g16 >= P['hk_rate'] * 0.95 else 'n/a',
          dirty(hk16_rs))
    # the cost of one more gap: the slope between the base runs and that run
    g0 = med([gap_rate(r) for r in base_ok])
    per = (h16 - hk) / 100 / (g16 - g0) * 1e6 if None not in (h16, hk, g16, g0) and g16 > g0 \
        else None
    t.add('cost: housekeeping CPU per gap (%s vs %s gaps/s)' % (fmt(g16, '', 0), fmt(g0, '', 0)),
          fmt(per, ' us', 2), '-', '-', '<= %g us' % P['hk_per_gap_us'],
          check(per, '<=', P['hk_per_gap_us']), dirty(hk16_rs + base_ok))
    h16g = med([housekeeping_pct(r, b.cpu) for r in hk16g_rs])
    g16g = med([gap_rate(r) for r in hk16g_rs])
    t.add('cost: housekeeping CPU at %s gaps/s with --gaps (a CSV row a gap; median of %d runs)'
          % (fmt(g16g, '', 0), len(hk16g_rs)),
          fmt(h16g, ' %', 2), fmt(h16, ' %', 2) + ' (without)', fmt_ratio(ratio(h16g, h16)),
          'report', 'INFO', dirty(hk16g_rs))
    hb = housekeeping_pct(big_r, b.cpu) if nb else None
    gb = gap_rate(big_r) if nb else None
    t.add('scaling: housekeeping CPU at %s gaps/s vs base' % fmt(gb, '', 0), fmt(hb, ' %', 2),
          fmt(hk, ' %', 2), fmt_ratio(ratio(hb, hk)), 'report', 'INFO',
          dirty([big_r] if big_r else []))
    shown = base_ok + [long_r] + hi_runs
    t.details.append(('Cost per run (max RSS: the whole run; sampling: the peak when sampling '
                      'ended; heap: [heap] near the end of sampling)',
                      ('run', 'duration s', 'gaps', 'max RSS MiB', 'sampling MiB', 'heap MiB',
                       'housekeeping %', 'attach s', 'post-run s', 'post-run CPU s', 'dropped',
                       'probe events', 'lost'),
                      [(r.name, fmt(js_cpu(r)['duration_ns'] / 1e9), js_cpu(r)['gap_count'],
                        fmt(r.hwm_kb and r.hwm_kb / 1024), fmt(sampling_hwm_mib(r)),
                        fmt(heap_mib(r)), fmt(housekeeping_pct(r, b.cpu), '', 2),
                        fmt(attach_s(r), '', 3), fmt(post_run_s(r), '', 3),
                        fmt(post_run_cpu_s(r), '', 3), js_cpu(r)['dropped'],
                        r.json['probes']['events'], r.json['probes']['lost'])
                       for r in shown if r.json]))
    grown = [x for x in [long_r] + hi_runs if (ratio(x.hwm_kb, rss) or 0) > 1.05]
    for r in grown:
        c = js_cpu(r)
        up = [(tt, kb) for tt, kb in r.hwm_series if kb > 1.05 * rss]
        if c and up:
            t.notes.append('%s: RSS peak %.1f MiB; above 1.05x the base from %+.0f ms after '
                           'sampling ended (sampling peak %s MiB)' %
                           (r.name, r.hwm_kb / 1024, (up[0][0] - c['end_ns']) / 1e6,
                            fmt(sampling_hwm_mib(r))))
    for r in base_ok[:1] + grown:
        if r.smaps:
            t.notes.append('largest mappings of the %s run, near its end (Rss kB): ' % r.name +
                           '; '.join('%d %s' % x for x in r.smaps))
    return [long_r] + hi_runs


def scaling_row(b, t, c):
    """scaling_row - the floor's jitterscope runs as the base (one of its own when the floor did
    not run), every jitterscope run of the invocation as the rest"""
    base = c.base or [b.js('floor-js', b.P['floor_secs'])]
    sec_scaling(b, t, base, [r for r in b.runs if r.cmd[0] == JS])


ROW = ('scaling', 'memory, housekeeping CPU, attach and report time by duration and gaps',
       scaling_row)
