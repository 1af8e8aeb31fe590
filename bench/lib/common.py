"""bench/lib/common.py - the harness's paths and the method's constants (method_params in
bench/run.py reads them), and the small helpers every part uses: the clock, the median and its
interval, ratio, log"""

import os
import random
import shutil
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JS = os.environ.get('JS_BIN') or os.path.join(ROOT, 'build', 'jitterscope')  # JS_BIN: another
MARKFEED = os.path.join(ROOT, 'bench', 'markfeed.py')  # --marks fed at a rate (sec_redis)
INJ = os.path.join(ROOT, 'build', 'tools', 'jsinject')
APP = os.path.join(ROOT, 'build', 'tools', 'jsapp')
LOOP = os.path.join(ROOT, 'build', 'tools', 'jsloop')
SCALE = os.path.join(ROOT, 'build', 'bench', 'jsscale')
# the scale driver's gap durations: a run's, recorded (bench/scale-durations.txt says how)
SCALE_DURATIONS = os.path.join(ROOT, 'bench', 'scale-durations.txt')
OSLAT = shutil.which('oslat')
# processes that load CPU 1 or send it interference: another one running means contamination
FOREIGN = ('jitterscope', 'oslat', 'jsinject', 'jsapp', 'jsloop', 'cyclictest', 'hackbench', 'stress-ng',
           'stress')
REDIS_SERVER = shutil.which('redis-server')
REDIS_BENCH = shutil.which('redis-benchmark')
IPI_KEYS = ('CAL', 'RES', 'IWI', 'TLB')
# one count per IPI: a TLB shootdown comes as a call-function IPI and counts in CAL too
IPI_SUM = ('CAL', 'RES', 'IWI')
# probes that run on the measured CPU for each call-function IPI, and for each tick
IPI_PROGS = ('call_function_single_entry', 'call_function_single_exit')
TICK_PROGS = ('local_timer_entry', 'local_timer_exit', 'hrtimer_expire_entry',
              'hrtimer_expire_exit')
# ... per probe set (--probes, src/probes/probes.c's table): full's, and lean's one each
SET_PROGS = {'full': {'ipi': IPI_PROGS, 'tick': TICK_PROGS},
             'lean': {'ipi': ('lean_call_function_single_exit',),
                      'tick': ('lean_local_timer_exit',)}}
# lean's injected interruptions, the class each must be named by, its injector's arguments
# (the IPIs: the paired runs'), and whether its gap may come after the injector's side of it
# ended (the RPS softirq runs after: lean_after_ms)
LEAN_NAMED = (('ipi', 'ipi', None, False),
              ('preempt', 'task', ['--period', '10000', '--spin', '500'], False),
              ('irq', 'irq', ['--period', '5000', '--count', '1'], False),
              ('softirq', 'softirq', ['--period', '10000'], True))
# ... and on the sending CPU for each IPI towards it
SEND_PROGS = ('csd_queue_cpu', 'ipi_send_cpu', 'ipi_send_cpumask')
MIB = 1024 * 1024
CLK_TCK = os.sysconf('SC_CLK_TCK')
OSLAT_BUCKETS = 1024            # oslat -b: one-microsecond buckets
POLL_S = 0.1                    # /proc sampling while a tool measures
HWM_FAST_S = 0.005              # VmHWM and main-thread CPU polling in the report phase
TP_SEEN_MIN = 0.99  # throughput: faults named on the CPU, at least this share of the kernel's
WINDOW_MARGIN_NS = 100_000_000  # the IPI and housekeeping windows leave out each end
INJ_DELAY_S = 0.1               # injector start after the measuring thread is seen
INJ_SHORT_S = 0.6               # the injector runs this much less than the tool
BASE_SKIP_S = 0.35              # busy loop and idle CPU: their window starts this late
TICK_BAND_NS = (3_000, 300_000)  # tick gaps: duration band
TICK_PHASE_NS = 15_000          # ... and distance from the densest phase
PAUSE_S = (0.3, 0.8)            # PauseToggler: random interval between switches
PAUSE_GUARD_NS = 20_000_000     # gaps this close to a switch belong to neither state
PAUSE_FIRST_S = 0.5             # PauseToggler: from the tool's start to its first switch
TOGGLE_S = (0.3, 0.7)           # --probe-toggle's states (js_probe_toggle.h), for the text
HOG_SHARE = 0.2                 # a process above this share of a CPU contaminates a run
RETRIES = 2                     # a contaminated run is measured again at most this often
STATS_SKIP_S = 0.8              # bpf_stats window: from this long after the start to as long
                                # before the end


def mono():
    """mono - CLOCK_MONOTONIC in ns (the clock of jitterscope's and jsinject's timestamps)"""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def med(xs):
    """med - median of the values that exist, None when there are none"""
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def med_interval(xs, reps=2000):
    """med_interval - the 95 % bootstrap interval of the median of xs (a fixed seed: the same
    values give the same interval), None with fewer than 3 values"""
    xs = [x for x in xs if x is not None]
    if len(xs) < 3:
        return None
    rng = random.Random(1)
    ms = sorted(statistics.median(rng.choice(xs) for _ in xs) for _ in range(reps))
    return ms[int(0.025 * reps)], ms[int(0.975 * reps) - 1]


def ratio(a, b):
    """ratio - a / b, None when either is missing or b is 0"""
    if a is None or b is None or b == 0:
        return None
    return a / b


def log(msg):
    """log - progress on stderr (the table goes to stdout)"""
    print(msg, file=sys.stderr, flush=True)
