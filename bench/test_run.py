#!/usr/bin/env python3
"""bench/test_run.py - tests of the harness's helpers (bench/lib, bench/sections) and of
bench/run.py's rows (no root, no measuring)."""

import contextlib
import os
import random
import sys
import tempfile
import types
import statistics
import subprocess
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc as D  # noqa: E402
import ipitrace as I  # noqa: E402
import run as R  # noqa: E402
from lib import analysis as A, bench as B, common as C, runner as RN, table as T  # noqa: E402
from sections import agree, lean, redis, within  # noqa: E402
import jsfiles as F  # noqa: E402  (tests/lib, on the path through bench/lib)


class FakeRun:
    """FakeRun - just the fields the helpers read"""

    def __init__(self, json=None, gaps=None):
        self.json, self.gaps = json, gaps


class ProgRows(unittest.TestCase):
    def test_every_program_by_total_time_with_where_it_runs(self):
        ps = {'sched_switch': (1000, 50.0), 'call_function_single_exit': (500, 300.0),
              'ipi_send_cpu': (500, 400.0), 'local_timer_entry': (250, 100.0),
              'nmi_handler': (1, 900.0)}
        rows = within.prog_rows(ps)
        self.assertEqual([r[0] for r in rows], ['ipi_send_cpu', 'call_function_single_exit',
                                                'sched_switch', 'local_timer_entry',
                                                'nmi_handler'])
        where = {r[0]: r[1] for r in rows}
        self.assertTrue(where['call_function_single_exit'].startswith('measured CPU'))
        self.assertTrue(where['ipi_send_cpu'].startswith('sending CPU'))
        self.assertIn('tick', where['local_timer_entry'])
        self.assertEqual(where['sched_switch'], '-')
        self.assertEqual(rows[0][2:], (500, '400', '0.20'))


class RedisCost(unittest.TestCase):
    def run_of(self, cost):
        return types.SimpleNamespace(json={'probes': {'cost': cost}})

    def test_per_request_from_probe_cost(self):
        cost = {'attached_ns': 5e9, 'runs': 900, 'run_ns': 300000,
                'programs': [{'name': 'softirq_entry', 'runs': 200, 'run_ns': 40000},
                             {'name': 'sched_switch', 'runs': 100, 'run_ns': 35000},
                             {'name': 'never', 'runs': 0, 'run_ns': 0}]}
        ns, runs, progs = redis.bpf_per_get(self.run_of(cost), 100)
        self.assertEqual((ns, runs), (3000, 9))
        self.assertEqual(progs, [('softirq_entry', 2, 200, 400), ('sched_switch', 1, 350, 350)])

    def test_none_without_statistics_or_requests(self):
        self.assertIsNone(redis.bpf_per_get(self.run_of(None), 100))
        self.assertIsNone(redis.bpf_per_get(types.SimpleNamespace(json=None), 100))
        self.assertIsNone(redis.bpf_per_get(self.run_of({'runs': 5, 'run_ns': 9}), 0))


class RedisPaired(unittest.TestCase):
    """the ratio rows: the median of each round's own ratio, not the ratio of the medians"""

    def run_of(self, p99):
        return types.SimpleNamespace(bench={'p99_latency_ms': p99})

    def test_rounds_paired(self):
        # the host slows down over the rounds: each round's followed run 1.05x its alone
        alone = [0.30, 0.40, 0.50]
        rounds = [{False: self.run_of(a), True: self.run_of(a * 1.05)} for a in alone]
        rounds[1]['shared'] = self.run_of(0.60)
        self.assertAlmostEqual(redis.paired_ratio(rounds, True, False, 'p99_latency_ms'), 1.05)
        # a mode only one round has: that round's ratio
        self.assertAlmostEqual(redis.paired_ratio(rounds, 'shared', False, 'p99_latency_ms'),
                               1.5)
        # a round without its baseline counts for nothing
        del rounds[0][False]
        self.assertAlmostEqual(redis.paired_ratio(rounds, True, False, 'p99_latency_ms'), 1.05)
        self.assertIsNone(redis.paired_ratio(rounds, 'marks', False, 'p99_latency_ms'))


class RedisPlace(unittest.TestCase):
    """where the load and jitterscope run: never jitterscope at the default priority on a
    CPU the load uses, the load on the same CPUs whether or not jitterscope follows"""

    def test_two_cpus_the_servers_idle_time(self):
        self.assertEqual(B.redis_place(2, 1), ([0], ['chrt', '-i', '0'], ['-H', '1']))

    def test_three_or_more_a_housekeeping_cpu_of_its_own(self):
        self.assertEqual(B.redis_place(4, 1), ([2, 3], [], ['-H', '0']))
        self.assertEqual(B.redis_place(3, 0), ([2], [], ['-H', '1']))

    def test_shared_unpinned_beside_the_same_load(self):
        for n in (2, 3, 8):
            client, pre, place = B.redis_place(n, 1, shared=True)
            self.assertEqual((pre, place), ([], []))
            self.assertEqual(client, B.redis_place(n, 1)[0])

    def test_one_cpu_all_on_it(self):
        self.assertEqual(B.redis_place(1, 0)[0], [0])


class MatchActions(unittest.TestCase):
    def test_each_action_gets_the_gap_over_it(self):
        gaps = [(100, 10, 'x'), (200, 50, 'x'), (300, 5, 'x')]
        acts = [(205, 210), (120, 130), (299, 301), (90, 101)]
        m = A.match_actions(acts, gaps)
        self.assertEqual(m, [gaps[1], None, gaps[2], gaps[0]])

    def test_largest_of_several_overlapping_gaps(self):
        gaps = [(100, 10, 'x'), (115, 30, 'x'), (150, 2, 'x')]
        self.assertEqual(A.match_actions([(105, 151)], gaps), [gaps[1]])

    def test_long_gap_far_before_the_action(self):
        gaps = [(0, 10 ** 9, 'x')] + [(10 ** 9 + i * 100, 5, 'x') for i in range(1000)]
        self.assertEqual(A.match_actions([(5 * 10 ** 8, 5 * 10 ** 8 + 1)], gaps), [gaps[0]])


class ProbeSets(unittest.TestCase):
    def test_per_interruption_over_the_cpu_counts(self):
        progs = {'lean_local_timer_exit': (300, 60000), 'lean_call_function_single_exit':
                 (100, 30000), 'sched_switch': (50, 9999)}
        irqs = {'LOC': 200, 'CAL': 120}
        x = lean.per_interruption(progs, irqs, C.SET_PROGS['lean'])
        self.assertEqual(x, {'tick': 300.0, 'ipi': 250.0, 'tick_runs': 200.0,
                             'ipi_runs': 300.0})
        full = {'local_timer_entry': (10, 1000), 'local_timer_exit': (10, 500),
                'hrtimer_expire_entry': (20, 1500), 'call_function_single_entry': (0, 0)}
        x = lean.per_interruption(full, {'LOC': 10, 'CAL': 0}, C.SET_PROGS['full'])
        self.assertEqual(x, {'tick': 300.0, 'ipi': None, 'tick_runs': 100 + 50 + 75,
                             'ipi_runs': None})
        self.assertEqual(lean.per_interruption({}, irqs, C.SET_PROGS['full']),
                         {'tick': None, 'ipi': None, 'tick_runs': None, 'ipi_runs': None})

    def test_named_by_class_within_the_window(self):
        gaps = [(100, 10, {'ipi'}), (200, 50, {'task', 'timer'}), (400, 5, {'softirq'})]
        acts = [(105, 106), (210, 220), (380, 390), (600, 610)]
        self.assertEqual(lean.named_by_class(acts, gaps, 'ipi', 0, 0), (1, 2))
        self.assertEqual(lean.named_by_class(acts, gaps, 'task', 0, 0), (1, 2))
        # the softirq's gap after the action: only with the time allowed after it
        self.assertEqual(lean.named_by_class(acts, gaps, 'softirq', 0, 0), (0, 2))
        self.assertEqual(lean.named_by_class(acts, gaps, 'softirq', 20, 0), (1, 3))
        # before: a gap ending shortly before the action
        self.assertEqual(lean.named_by_class([(112, 115)], gaps, 'ipi', 0, 5), (1, 1))
        # the matched ones not named: what the gaps over them held
        missed = []
        self.assertEqual(lean.named_by_class(acts, gaps, 'ipi', 0, 0, missed), (1, 2))
        self.assertEqual(missed, [(210, [(200, 50, {'task', 'timer'})])])
        self.assertEqual(lean.missed_rows({('lean', 'ipi'): missed}),
                         [('ipi', 'lean', '-0.0 us, 0.1 us, task+timer')])


class HostDrift(unittest.TestCase):
    def test_window_medians_in_time_order_sparse_windows_left_out(self):
        gaps = [(1000 + i, 7, 'x') for i in range(5)] + [(1100, 9, 'x')] + \
               [(1200 + i, 20 + i, 'x') for i in range(3)] + [(10, 99, 'x')]
        # windows of 100 from 1000: [1000, 1100) five gaps, [1100, 1200) one, [1200, 1300) three
        self.assertEqual(within.window_medians(gaps, 1000, 100, 3), [7, 21])
        self.assertEqual(within.window_medians(gaps, 1000, 100, 1), [7, 9, 21])

    def test_spread(self):
        self.assertEqual(within.spread([8.0, 4.0, None, 6.0]), 2.0)
        self.assertIsNone(within.spread([5.0]))
        self.assertIsNone(within.spread([0, 3]))


class TickGaps(unittest.TestCase):
    def test_finds_the_tick_phase_among_random_gaps(self):
        rnd = random.Random(7)
        period, phase = 4_000_000, 1_234_000
        ticks = [(k * period + phase + rnd.randrange(0, 3000), 25_000, 'timer')
                 for k in range(1, 500)]
        noise = [(rnd.randrange(0, 500 * period), 10_000, 'x') for _ in range(400)]
        gaps = sorted(ticks + noise)
        got = A.tick_gaps(gaps, set(), 250)
        self.assertGreaterEqual(len(got), len(ticks))
        self.assertLess(len(got), len(ticks) + 20)     # 30 us of 4 ms: ~3 of 400 noise gaps
        self.assertTrue(set(ticks) <= set(got))

    def test_excluded_gaps_are_left_out(self):
        gaps = [(k * 4_000_000 + 500, 20_000, 'timer') for k in range(100)]
        self.assertEqual(len(A.tick_gaps(gaps, set(gaps[:10]), 250)), 90)


class ProbeToggle(unittest.TestCase):
    def test_log_read_and_states_around_changes(self):
        ms = 1_000_000
        with tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False) as f:
            f.write('attached,start_ns,end_ns\n0,%d,%d\n1,%d,%d\n' %
                    (1000 * ms, 1020 * ms, 1500 * ms, 1505 * ms))
        try:
            tog = A.load_toggles(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(tog, [(0, 1000 * ms, 1020 * ms), (1, 1500 * ms, 1505 * ms)])
        st = lambda t: A.toggle_state(tog, t * ms)  # noqa: E731
        # attached from the start, None within 20 ms of a change (its IPI burst), then the
        # state the change left
        self.assertEqual([st(100), st(979), st(981), st(1039), st(1041), st(1479)],
                         [True, True, None, None, False, False])
        self.assertEqual([st(1481), st(1525), st(1526), st(9000)], [None, None, True, True])

    def test_log_missing_or_foreign_is_empty(self):
        self.assertEqual(A.load_toggles('/nonexistent/x.csv'), [])
        with tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False) as f:
            f.write('start_ns,end_ns\n1,2\n')
        try:
            self.assertEqual(A.load_toggles(f.name), [])
        finally:
            os.unlink(f.name)

    def test_by_state_splits_ipi_and_tick_gaps(self):
        # ticks every 4 ms; IPIs injected at 1 ms past every 4th tick; the first half
        # "with", the second "without", nothing near the switch at 1 s
        ticks = [(k * 4_000_000 + 500, 20_000, 'timer') for k in range(500)]
        ipis = [(k * 16_000_000 + 1_000_000, 12_000, 'ipi') for k in range(125)]
        r = FakeRun(gaps=sorted(ticks + ipis))
        r.inject = types.SimpleNamespace(actions=[(g[0] + 1000, g[0] + 5000) for g in ipis])
        state = lambda t: None if abs(t - 1e9) < 2e7 else t < 1e9  # noqa: E731
        by, tk = within.by_state(r, state, 250)
        self.assertEqual((len(by[True]), len(by[False])), (62, 61))   # 993, 1009 ms out
        self.assertEqual(set(by[True] + by[False]), {12_000})
        self.assertEqual(len(tk[True]) + len(tk[False]), 500 - 10)
        self.assertEqual(set(tk[True] + tk[False]), {20_000})


class Oslat(unittest.TestCase):
    def oslat(self, hist, dur):
        return FakeRun(json={'thread': {'0': {'duration': dur,
                                               'histogram': {str(k): v for k, v in hist.items()}}}})

    def test_bucket_n_is_n_minus_1_to_n_us(self):
        r = self.oslat({1: 1000, 150: 3, 151: 4, 200: 5, 1024: 6}, 1.0)
        self.assertEqual(agree.band_count_oslat(r, 150, 10 ** 9), 15)   # buckets 151, 200, 1024
        self.assertEqual(agree.band_count_oslat(r, 149, 150), 3)

    def test_busy_period_takes_the_long_loops_out(self):
        # 1e6 loops < 1 us, and 1000 loops of [9, 10) us (9.5 us each): 9.5 ms of 1 s lost
        r = self.oslat({1: 10 ** 6, 10: 1000}, 1.0)
        self.assertAlmostEqual(A.oslat_busy_period(r), (1e9 - 9.5e6) / 1e6)


class Agree(unittest.TestCase):
    def test_band_count_without_a_cause(self):
        r = FakeRun(gaps=[(0, 200000, 'task'), (1, 300000, 'steal'), (2, 100000, 'steal'),
                          (3, 600000, 'task')])
        self.assertEqual(agree.band_count_js(r, 150000, 500000), 2)
        self.assertEqual(agree.band_count_js(r, 150000, 500000, but='steal'), 1)


class JsLoop(unittest.TestCase):
    def test_period_from_the_summary(self):
        r = FakeRun()
        r.loop = {'loop_ns_mean': 19.5, 'short_iterations': 10.0}
        self.assertEqual(A.loop_period(r), 19.5)
        r.loop['short_iterations'] = 0.0    # every iteration interrupted: no period
        self.assertIsNone(A.loop_period(r))
        self.assertIsNone(A.loop_period(FakeRun()))     # the run failed: no summary

    def test_the_tool_measures_a_period(self):
        # the real tool, for 50 ms on a CPU this process may use (built by make before)
        cpu = min(os.sched_getaffinity(0))
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'loop.txt')
            p = subprocess.run([C.LOOP, '--cpu', str(cpu), '--duration', '0.05', '--out', out])
            self.assertEqual(p.returncode, 0)
            kv = {k: float(v) for k, v in RN.parse_kv(open(out).read()).items()}
        self.assertEqual(kv['cpu'], cpu)
        self.assertGreater(kv['short_iterations'], 0)
        self.assertLessEqual(kv['short_iterations'], kv['iterations'])
        # a TSC read takes from a few ns to a few hundred, never 0 or over the cut
        self.assertGreater(kv['loop_ns_mean'], 1)
        self.assertLess(kv['loop_ns_mean'], kv['cut_ns'])
        self.assertGreater(kv['duration_ns'], 0.04e9)
        # the read jitterscope's --clock auto makes on this CPU (no rdtscp where masked)
        self.assertIn(kv['rdtscp'], (0, 1))
        env = dict(os.environ, JITTERSCOPE_NO_RDTSCP='1')
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'loop.txt')
            p = subprocess.run([C.LOOP, '--cpu', str(cpu), '--duration', '0.05', '--out', out],
                               env=env)
            self.assertEqual(p.returncode, 0)
            self.assertEqual(RN.parse_kv(open(out).read())['rdtscp'], '0')
        bad = subprocess.run([C.LOOP, '--cpu', 'x'], stderr=subprocess.PIPE, text=True)
        self.assertEqual(bad.returncode, 2)
        self.assertIn('usage: jsloop', bad.stderr)


class GapsCsv(unittest.TestCase):
    def test_senders_parsed_from_the_causes_column(self):
        rows = ['cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,unexplained_ns',
                '1,100,5000,ipi,x,"ipi:reschedule from jitterscope:42=300;timer:local_timer=9",0,0',
                '1,200,5000,ipi,x,ipi:call_function_single from bash:7=300,0,0',
                '0,300,5000,ipi,x,ipi:reschedule from jitterscope:43=300,0,0',
                '1,400,5000,task,x,task:jitterscope:44=4000;tlb:flush from jitterscope:45=1,0,0']
        with tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False) as f:
            f.write('\n'.join(rows) + '\n')
        try:
            self.assertEqual(A.load_sent(f.name, 1),
                             [(100, 42, 'ipi:reschedule from jitterscope:42',
                               'ipi:reschedule from jitterscope:42=300;timer:local_timer=9'),
                              (400, 45, 'tlb:flush from jitterscope:45',
                               'task:jitterscope:44=4000;tlb:flush from jitterscope:45=1')])
            self.assertEqual([g[:2] for g in A.load_gaps(f.name, 1)],
                             [(100, 5000), (200, 5000), (400, 5000)])
        finally:
            os.unlink(f.name)


def temp_csv(rows):
    """temp_csv - a file holding rows (lines); the caller unlinks it"""
    with tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False) as f:
        f.write('\n'.join(rows) + '\n')
    return f.name


class SharedReaders(unittest.TestCase):
    """tests/lib/jsfiles.py: the readers bench/run.py and the integration tests share"""

    GAPS = ['cpu,start_ns,duration_ns,cause,detail,causes,steal_ns,unexplained_ns,entry_ns,'
            'entry_causes',
            '1,300,5,ipi,x,"ipi:call_function from a=b:7=300;timer:local_timer=9",0,0,0,',
            '0,100,5,task,x,task:x:1=5,0,0,0,',
            '1,200,7,unexplained,,,0,7,0,']

    def test_causes_column(self):
        self.assertEqual(F.parse_causes('ipi:call_function from a=b:7=300;timer:local_timer=9'),
                         [('ipi', 'call_function from a=b:7', 300),
                          ('timer', 'local_timer', 9)])
        self.assertEqual(F.parse_causes('task:x:1=?'), [('task', 'x:1', 0)])
        self.assertEqual(F.parse_causes(''), [])

    def test_gap_rows_by_cpu_with_their_lines(self):
        path = temp_csv(self.GAPS)
        try:
            rows = F.gap_rows(path, 1)
            self.assertEqual([(r['start_ns'], r['line']) for r in rows], [('300', 2), ('200', 4)])
            self.assertEqual(len(F.gap_rows(path)), 3)
            self.assertEqual(A.load_gaps(path, 1), [(200, 7, 'unexplained'), (300, 5, 'ipi')])
        finally:
            os.unlink(path)

    def test_a_header_without_the_columns_is_refused(self):
        path = temp_csv(['cpu,start_ns,duration_ns', '1,2,3'])
        try:
            self.assertRaises(ValueError, F.gap_rows, path)
            self.assertIsNone(A.load_gaps(path, 1))
            self.assertEqual(A.load_sent(path, 1), [])
        finally:
            os.unlink(path)
        self.assertIsNone(A.load_gaps('/nonexistent/gaps.csv', 1))

    def test_inject_log(self):
        path = temp_csv(['mode,seq,start_ns,end_ns', 'ipi,0,500,510', 'ipi,1,100,120'])
        try:
            self.assertEqual(F.inject_actions(path), [(0, 500, 510), (1, 100, 120)])
            self.assertEqual(F.inject_actions(path, 'ipi'), [(0, 500, 510), (1, 100, 120)])
            self.assertRaises(ValueError, F.inject_actions, path, 'pf')
            self.assertEqual(RN.read_inject_log(path), [(500, 510), (100, 120)])
        finally:
            os.unlink(path)
        path = temp_csv(['seq,start_ns,end_ns', '0,1,2'])
        try:
            self.assertRaises(ValueError, F.inject_actions, path)
            self.assertEqual(RN.read_inject_log(path), [])
        finally:
            os.unlink(path)
        self.assertEqual(RN.read_inject_log('/nonexistent/inject.csv'), [])


class Verdicts(unittest.TestCase):
    def test_check_and_marks(self):
        self.assertEqual(T.check(0.7, '<=', 0.7), 'PASS')
        self.assertEqual(T.check(0.71, '<=', 0.7), 'FAIL')
        self.assertEqual(T.check(None, '<=', 0.7), 'n/a')
        t = T.Table()
        t.add('m', '1', '2', '0.5x', '<= 1', 'FAIL', contaminated=True)
        self.assertEqual(t.rows[0][5], 'FAIL*')

    def test_med_interval(self):
        # the median's bootstrap interval holds the median, within the values' range; it
        # is narrow for tight values, wide for spread ones, and the same from one call to
        # the next; fewer than 3 values give none
        tight = [1.0 + 0.001 * i for i in range(12)]
        spread = [0.72, 0.89, 1.81, 1.06, 1.085, 0.95, 0.83, 1.16, 1.21, 0.92, 1.055, 1.20]
        for xs in (tight, spread):
            lo, hi = C.med_interval(xs)
            self.assertTrue(min(xs) <= lo <= statistics.median(xs) <= hi <= max(xs))
            self.assertEqual(C.med_interval(xs), (lo, hi))
        self.assertLess(C.med_interval(tight)[1] - C.med_interval(tight)[0], 0.01)
        self.assertGreater(C.med_interval(spread)[1] - C.med_interval(spread)[0], 0.1)
        self.assertIsNone(C.med_interval([1.0, None, 2.0]))


def args(**kw):
    """args - the options method_params reads, as bench/run.py's defaults"""
    a = dict(quick=False, cpu=1, reps=3, big_gaps=1_000_000, big_max_secs=240, wait_quiet=45.0,
             retry_budget=45.0)
    a.update(kw)
    return types.SimpleNamespace(**a)


class Rows(unittest.TestCase):
    """bench/run.py walks bench/sections' (name, summary, fn) rows"""

    def test_every_section_is_one_row_and_the_default_runs_them_all(self):
        names = [name for name, _, _ in R.ROWS]
        self.assertEqual(sorted(names), sorted(R.SECTIONS))
        self.assertEqual(len(set(names)), len(names))
        for name, summary, fn in R.ROWS:
            self.assertTrue(summary and callable(fn), name)
        # scaling reads every jitterscope run before it
        self.assertEqual(names[-1], 'scaling')

    def test_the_driver_runs_the_rows_asked_for_and_survives_a_broken_one(self):
        seen = []

        def ok(name):
            return lambda b, t, c: (seen.append((name, list(c.base))),
                                    t.add(name, 1, 1, 1, '-', 'PASS'))

        def broken(b, t, c):
            raise ValueError('x')

        rows = (('floor', 's', lambda b, t, c: (c.base.append('js'), seen.append(('floor', [])))),
                ('agree', 's', broken), ('lean', 's', ok('lean')), ('scaling', 's', ok('scaling')))
        a = types.SimpleNamespace(only='floor,agree,scaling', cpu=1, reps=1, save=None,
                                  details=False, no_write=True, out='-')
        b = types.SimpleNamespace(tmp='/nonexistent', runs=[])
        t = T.Table()
        saved, R.ROWS = R.ROWS, rows
        try:
            with open(os.devnull, 'w') as null, \
                    contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
                R.run_bench(a, b, t, {'hz': 250}, None, 0)
        finally:
            R.ROWS = saved
        self.assertEqual(seen, [('floor', []), ('scaling', ['js'])])
        self.assertEqual([r[0] for r in t.rows],
                         ['agree: the harness failed (see stderr)', 'scaling'])
        self.assertEqual(t.rows[0][5], 'ERROR')


class Document(unittest.TestCase):
    def template(self):
        with open(D.TEMPLATE) as f:
            return f.read()

    def test_template_holds_no_figure(self):
        self.assertEqual(D.fixed_figures(self.template()), [])
        self.assertEqual(D.fixed_figures('a {x1} b\nthe 2 runs\n@@ floor'), ['the 2 runs'])

    def test_every_placeholder_filled_from_the_run_parameters(self):
        P = R.method_params(args(), 250)
        text = D.render(self.template(), P, R.SECTIONS)
        self.assertNotIn('{', text)
        self.assertNotIn('@@', text)
        # the figures come from the parameters: another run, other figures
        P2 = R.method_params(args(reps=5, cpu=3), 1000)
        text2 = D.render(self.template(), P2, R.SECTIONS)
        self.assertIn('CPU 3 (5 repetitions)', text2)
        self.assertIn('%d pairs' % P2['obs_pairs'], text2)
        self.assertIn('CONFIG_HZ=1000', text2)

    def test_blocks_of_sections_not_run_are_left_out(self):
        P = R.method_params(args(), 250)
        only_floor = D.render(self.template(), P, ['floor'])
        self.assertIn('Detection floor', only_floor)
        self.assertIn('Contamination', only_floor)
        self.assertNotIn('Agreement', only_floor)
        self.assertNotIn('/proc/interrupts', only_floor)
        with self.assertRaises(KeyError):
            D.render('@@ floor\n{nope}\n', P, ['floor'])

    def test_tree_line_says_clean_or_names_the_changes(self):
        clean = {'commit': 'a' * 40, 'changes': []}
        dirty = {'commit': 'a' * 40, 'changes': [' M src/x.c', '?? new.c']}
        self.assertEqual(D.tree_text(clean), 'a' * 40 + ', clean (no uncommitted change)')
        self.assertEqual(D.tree_text(dirty),
                         'a' * 40 + ', dirty: 2 uncommitted changes ( M src/x.c; ?? new.c)')
        self.assertIn('at the end of the run: ' + 'a' * 40 + ', dirty', D.tree_text(clean, dirty))
        self.assertNotIn('end of the run', D.tree_text(clean, dict(clean)))
        self.assertTrue(D.tree_text({'error': 'not a git tree'}).startswith('unknown'))

    def test_document_has_the_header_table_and_missed_targets(self):
        t = T.Table()
        t.add('floor: x', '1 ns', '2 ns', '0.50x', '<= 0.70x', 'PASS')
        t.add('cost: y', '3 %', '-', '-', '<= 2 %', 'FAIL')
        t.notes.append('computed')
        text = D.document(['tree (git, at the start of the run): abc, clean'], t,
                          R.method_params(args(), 250), ['floor'], set())
        self.assertIn('* tree (git, at the start of the run): abc, clean', text)
        self.assertIn('| cost: y | 3 % | - | - | <= 2 % | FAIL |', text)
        self.assertIn('* cost: y: 3 % against - (target <= 2 %)', text)
        self.assertIn('* computed', text)


TRACE = """# tracer: nop
     jitterscope-100   [000] d..2.   12.000000100: ipi_send_cpu: cpu=1 callsite=update_curr+0x80/0x140 callback=0x0
     jitterscope-101   [001] d.h..   12.000000150: sched_wakeup: comm=rcu_preempt pid=15 prio=120 target_cpu=001
     jitterscope-100   [000] d..2.   12.000000200: <stack trace>
 => trace_event_raw_event_ipi_send_cpu
 => __traceiter_ipi_send_cpu
 => __resched_curr
 => update_curr
 => detach_task
 => sched_balance_newidle
 => __schedule
 => __x64_sys_clock_nanosleep
 => entry_SYSCALL_64_after_hwframe
           <...>-100   [000] dNs5.   12.5: sched_wakeup: comm=rcu_preempt pid=15 prio=120 target_cpu=001
           <...>-100   [000] dNs5.   12.500000001: <stack trace>
 => try_to_wake_up
 => rcu_core
 => handle_softirqs
 => __irq_exit_rcu
 => asm_sysvec_apic_timer_interrupt
 => entry_SYSCALL_64_after_hwframe
     jitterscope-100   [000] ...1.   13.000000000: ipi_send_cpu: cpu=1 callsite=on_each_cpu_cond_mask+0x20/0x60 callback=x
     jitterscope-100   [000] ...1.   13.000000001: <stack trace>
 => flush_tlb_mm_range
 => __x64_sys_munmap
 => entry_SYSCALL_64_after_hwframe
"""


class IpiTrace(unittest.TestCase):
    def test_records_stacks_and_kinds(self):
        r = I.parse(TRACE)
        self.assertEqual([(x[0], x[1], x[2], x[3]) for x in r],
                         [(12_000_000_100, 100, 0, 'ipi_send_cpu'),
                          (12_000_000_150, 101, 1, 'sched_wakeup'),
                          (12_500_000_000, 100, 0, 'sched_wakeup'),
                          (13_000_000_000, 100, 0, 'ipi_send_cpu')])
        # the first record's stack, though CPU 1's record came in between
        self.assertEqual(r[0][5][:3], ['trace_event_raw_event_ipi_send_cpu',
                                       '__traceiter_ipi_send_cpu', '__resched_curr'])
        self.assertEqual(r[1][5], [])
        self.assertEqual([I.kind(x[5]) for x in r], ['pull', 'other', 'interrupt', 'syscall'])


if __name__ == '__main__':
    unittest.main()
