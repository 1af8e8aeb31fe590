#!/usr/bin/env python3
"""bench/run.py - jitterscope benchmarks, against oslat and against itself.

Every figure is a ratio of two things measured in the same run of this script, on the same
CPU, alternating, because the machines are shared and noisy (see docs/BENCHMARKS.md, which
this script rewrites with the last results). Root only.

  bench/run.py [--cpu 1] [--reps 3] [--quick] [--out docs/BENCHMARKS.md | --no-write]
               [--only floor,agree,observer,lean,ipis,throughput,app,redis,scaling,scale]
               [--keep DIR]
               [--big-gaps 1000000] [--big-max-secs 240]

The document is written by bench/doc.py: the run's figures, and the method text of
bench/BENCHMARKS.md.in filled from method_params(), the parameters the sections run with.
This file is the driver: each section is a row (name, summary, fn) in bench/sections/NAME.py,
and run_bench walks ROWS, as perf's builtin-bench.c walks its struct bench rows; the harness's
library is bench/lib/ (bench/README.md).
"""

import argparse
import datetime
import os
import pickle
import platform
import re
import shutil
import subprocess
import sys
import time
import traceback
import types

import doc
from lib.common import (BASE_SKIP_S, FOREIGN, HOG_SHARE, HWM_FAST_S, INJ, INJ_DELAY_S, INJ_SHORT_S,
                        JS, OSLAT, OSLAT_BUCKETS, PAUSE_FIRST_S, PAUSE_GUARD_NS, PAUSE_S, POLL_S,
                        RETRIES, ROOT, SCALE, STATS_SKIP_S, TICK_BAND_NS, TICK_PHASE_NS, TOGGLE_S,
                        WINDOW_MARGIN_NS, log)
from lib.bench import Bench
from lib.runner import Run  # noqa: F401  (--replay of runs saved before the split: __main__.Run)
from lib.table import Table
from sections import agree, app, floor, ipis, lean, observer, redis, scale, scaling, throughput
from sections.scale import scale_params
from kernel_hz import kernel_hz  # tests/lib, on the path through lib (CONFIG_HZ, else measured)

# the sections, in the order they run: scale before scaling, which reads every run before it
ROWS = (floor.ROW, agree.ROW, observer.ROW, lean.ROW, ipis.ROW, throughput.ROW, app.ROW, redis.ROW,
        scale.ROW, scaling.ROW)
# --only's default, as the document's header names it (bench/test_run.py holds it to ROWS)
SECTIONS = ('floor', 'agree', 'observer', 'lean', 'ipis', 'throughput', 'app', 'redis',
            'scaling', 'scale')


def method_params(a, hz):
    """method_params - every parameter of the method: the sections run with these, and the
    document's method text is filled from them (no figure of its own)"""
    q = a.quick
    lo, hi = 150, 500
    return {
        'cpu': a.cpu, 'reps': a.reps, 'hz': hz, 'tick_ms': 1000 // hz,
        'poll_s': POLL_S, 'hwm_fast_ms': round(HWM_FAST_S * 1000),
        'margin_s': WINDOW_MARGIN_NS / 1e9, 'inj_delay_s': INJ_DELAY_S,
        'inj_short_s': INJ_SHORT_S, 'base_skip_s': BASE_SKIP_S,
        'oslat_buckets': OSLAT_BUCKETS,
        'floor_secs': 2 if q else 3,
        'agree_secs': 3 if q else 5, 'agree_period_us': 10000, 'agree_spin_us': 200,
        'agree_lo_us': lo, 'agree_hi_us': hi, 'agree_lo_bucket': lo + 1, 'agree_hi_bucket': hi,
        'obs_secs': 2, 'obs_period_us': 1900, 'obs_pairs': 4 * a.reps,
        'stacks_secs': 3, 'stacks_pairs': a.reps, 'stacks_period_ms': 10, 'stacks_spin_us': 400,
        'stacks_threshold_us': 150, 'stacks_top': 1000,
        'within_secs': 20, 'drift_win_ms': 500, 'drift_min_n': 50, 'pause_min_s': PAUSE_S[0], 'pause_max_s': PAUSE_S[1],
        'pause_first_s': PAUSE_FIRST_S, 'toggle_min_s': TOGGLE_S[0], 'toggle_max_s': TOGGLE_S[1],
        'stats_secs': 4, 'stats_skip_s': STATS_SKIP_S,
        'lean_target': 0.6, 'lean_named_secs': 4, 'lean_stats_runs': 3 * a.reps,
        'lean_named_pct': 100, 'lean_before_us': 100, 'lean_after_ms': 2, 'ci_pct': 95,
        'pause_guard_ms': PAUSE_GUARD_NS // 1_000_000,
        'tick_min_us': TICK_BAND_NS[0] // 1000, 'tick_max_us': TICK_BAND_NS[1] // 1000,
        'tick_phase_us': TICK_PHASE_NS // 1000,
        'ipis_secs': 3, 'ipis_runs': 2 * a.reps,
        'tp_secs': 3, 'tp_period_us': 2000,
        'app_secs': 4 if q else 8, 'app_pairs': 2 * a.reps, 'app_work_us': 10,
        'app_slow_us': 20, 'app_target': 1.05, 'app_tail': 99,
        'app_js': 'jitterscope --pid APP --marks FILE -d 0',
        'redis_pairs': 2 * a.reps, 'redis_n': 60000 if q else 150000, 'redis_clients': 20,
        'redis_tp_target': 0.95, 'redis_p99_target': 1.10, 'redis_lat': 'p50, p99',
        'redis_tail': 'p99', 'redis_feed': 10000, 'redis_cost_runs': 3,
        'redis_js': 'jitterscope --pid REDIS -d 0 -q --json FILE',
        'long_secs': 6 if q else 15,
        'rate_threshold': '100ns', 'rate_timer_us': 20, 'rate_secs': 4 if q else 10,
        'hk_rate': 16000, 'hk_timer_us': 60, 'hk_threshold': '1us', 'hk_secs': 4 if q else 8,
        'hk_per_gap_us': 1.0, 'hk_runs': max(3, a.reps),  # judged on a median of >= 3
        'hk_pct': 2,
        'big_gaps': a.big_gaps, 'big_max_secs': a.big_max_secs,
        'wait_quiet_s': '%g' % a.wait_quiet, 'retry_s': '%g' % a.retry_budget,
        'hog_pct': round(HOG_SHARE * 100), 'retries': RETRIES,
        'foreign_tools': ', '.join(FOREIGN),
        **scale_params(a),
    }


def machine():
    """machine - uname, CPU model, CPUs, HZ, hypervisor flag"""
    model = '?'
    hyper = False
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('model name') and model == '?':
                model = line.split(':', 1)[1].strip()
            if line.startswith('flags') and ' hypervisor' in line:
                hyper = True
    return {'uname': ' '.join(platform.uname()[:3] + platform.uname()[4:5]), 'cpu': model,
            'ncpu': os.cpu_count(), 'hz': kernel_hz() or sys.exit('bench: tick rate unknown'),
            'vm': hyper}


def header(m, started, elapsed, args, tree0, tree1):
    """header - the document's header lines: date, machine, the exact tree, the run"""
    ver = '-'
    if OSLAT:
        p = subprocess.run([OSLAT, '-v'], capture_output=True, text=True)
        ver = (p.stdout.strip() or p.stderr.strip() or '-').splitlines()[0]
    return ['date: %s' % started.strftime('%Y-%m-%d %H:%M UTC'),
            'machine: %s; %s; %d CPUs; HZ=%d%s' % (m['uname'], m['cpu'], m['ncpu'], m['hz'],
                                                  '; virtual machine' if m['vm'] else ''),
            'tree (git, at the start of the run): %s' % doc.tree_text(tree0, tree1),
            'run: measured CPU %d; %d repetitions; sections %s; %.0f s (the harness itself used '
            '%.1f s of CPU, off CPU %d)' % (args.cpu, args.reps, args.only, elapsed,
                                            sum(os.times()[:2]), args.cpu),
            'oslat: %s' % (ver if OSLAT else 'not installed')]


def main():
    """main - run the sections, print the table, write the document"""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog='sections (--only):\n' + '\n'.join(
                                     '  %-11s %s' % (name, summary) for name, summary, _ in ROWS))
    ap.add_argument('--cpu', type=int, default=1)
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--quick', action='store_true', help='1 repetition, shorter runs')
    ap.add_argument('--only', default=','.join(SECTIONS))
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs', 'BENCHMARKS.md'))
    ap.add_argument('--no-write', action='store_true')
    ap.add_argument('--details', action='store_true', help='print the per-run tables too')
    ap.add_argument('--big-gaps', type=int, default=1_000_000,
                    help='gaps the report-time run must record (default 1000000; --quick: '
                         '200000)')
    ap.add_argument('--big-max-secs', type=float, default=240,
                    help='longest that run may last (default 240 s)')
    ap.add_argument('--keep', help='keep every output file in this directory')
    ap.add_argument('--save', help='save the runs (pickle) to recompute the table later')
    ap.add_argument('--replay', help='recompute the table from --save output, measuring nothing')
    ap.add_argument('--wait-quiet', type=float, default=45.0,
                    help='seconds in all to wait for other tools to finish (default 45)')
    ap.add_argument('--retry-budget', type=float, default=45.0,
                    help='seconds in all of runs measured again because other work ran during '
                         'them (default 45; at most twice per run)')
    args = ap.parse_args()
    if os.geteuid() != 0 and not args.replay and args.only != 'scale':
        sys.exit('bench/run.py: needs root (BPF probes, SCHED_FIFO injector, /proc of others)')
    for exe in (JS, INJ) + ((SCALE,) if 'scale' in args.only.split(',') else ()):
        if not os.access(exe, os.X_OK):
            sys.exit('bench/run.py: %s missing: run make first' % exe)
    if not OSLAT:
        log('bench: oslat not found (rt-tests): the oslat rows are skipped')
    if args.quick:
        args.reps = 1
        if '--big-gaps' not in ' '.join(sys.argv):
            args.big_gaps = 200_000
    # the harness itself stays off the measured CPU
    os.sched_setaffinity(0, [c for c in os.sched_getaffinity(0) if c != args.cpu] or [0])
    started, t0 = datetime.datetime.now(datetime.timezone.utc), time.monotonic()
    m = machine()
    b, t = Bench(args), Table()
    b.P = method_params(args, m['hz'])
    try:
        run_bench(args, b, t, m, started, t0)
    finally:
        if not args.keep:
            shutil.rmtree(b.tmp, ignore_errors=True)


def run_bench(args, b, t, m, started, t0):
    """run_bench - the sections' rows, the table on stdout, the document"""
    only = args.only.split(',')
    tree0 = doc.git_tree(ROOT)
    log('bench: CPU %d, %d repetitions, scratch %s' % (args.cpu, args.reps, b.tmp))
    c = types.SimpleNamespace(reps=args.reps, hz=m['hz'], base=[])
    for name, _, fn in ROWS:
        if name not in only:
            continue
        log('bench: %s (%.0f s so far)' % (name, time.monotonic() - t0))
        try:
            fn(b, t, c)
        except Exception:   # one broken section must not lose the others' minutes
            log(traceback.format_exc())
            t.add('%s: the harness failed (see stderr)' % name, '-', '-', '-', '-', 'ERROR')
    elapsed = time.monotonic() - t0
    builds = {r.binary for r in b.runs if getattr(r, 'binary', None) and r.binary[0] == JS}
    if len(builds) > 1:
        t.notes.insert(0, 'build/jitterscope was rebuilt %d times during this benchmark: the '
                       'runs mix versions (run `make bench` again)' % (len(builds) - 1))
    if args.save:
        with open(args.save, 'wb') as f:
            pickle.dump(b.runs, f)
    foreign = {re.sub(r' \(\d+ % CPU\)$', ' (CPU hog)', f)
               for r in b.runs for f in r.foreign}
    print(t.text())
    if args.details:
        for title, hdr, rows in t.details:
            print('\n' + title)
            print(Table.plain(hdr, rows))
    if foreign:
        print('* other measurement tools ran during these runs: %s' %
              ', '.join(sorted(foreign)[:12]))
    for n in t.notes:
        print('note: ' + n)
    print('(%.0f s; %s)' % (elapsed, 'not written' if args.no_write else args.out))
    if not args.no_write:
        text = doc.document(header(m, started, elapsed, args, tree0, doc.git_tree(ROOT)), t,
                            b.P, only, foreign)
        with open(args.out, 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
