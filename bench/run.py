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
"""

import argparse
import datetime
import json
import os
import pickle
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from bisect import bisect_right

import doc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'lib'))
from jsfiles import gap_rows, inject_actions, parse_causes  # noqa: E402
from kernel_hz import kernel_hz  # noqa: E402  (CONFIG_HZ, else measured)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
SECTIONS = ('floor', 'agree', 'observer', 'lean', 'ipis', 'throughput', 'app', 'redis',
            'scaling', 'scale')
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
        'redis_tail': 'p99', 'redis_feed': 10000,
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


# ---------------------------------------------------------------------------------------------
# /proc readers

def read_irqs(cpu):
    """read_irqs - {key: count} of /proc/interrupts for one CPU (arch rows and numbered IRQs)"""
    out = {}
    with open('/proc/interrupts') as f:
        f.readline()
        for line in f:
            parts = line.split()
            if len(parts) <= cpu + 1 or not parts[0].endswith(':'):
                continue
            try:
                out[parts[0][:-1]] = int(parts[1 + cpu])
            except ValueError:
                pass
    return out


def read_tasks(pid):
    """read_tasks - {tid: (on-CPU ns from schedstat, Cpus_allowed_list)} of a live process"""
    out = {}
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return out
    for tid in tids:
        base = '/proc/%d/task/%s/' % (pid, tid)
        try:
            with open(base + 'schedstat') as f:
                run_ns = int(f.read().split()[0])
            with open(base + 'status') as f:
                allowed = re.search(r'^Cpus_allowed_list:\s*(\S+)', f.read(), re.M).group(1)
        except (OSError, AttributeError, ValueError):
            continue
        out[int(tid)] = (run_ns, allowed)
    return out


def read_status_kb(pid, key):
    """read_status_kb - a 'kB' field of /proc/PID/status, None when gone"""
    try:
        with open('/proc/%d/status' % pid) as f:
            m = re.search(r'^%s:\s*(\d+) kB' % key, f.read(), re.M)
        return int(m.group(1)) if m else None
    except OSError:
        return None


def sampling_hwm_mib(run):
    """sampling_hwm_mib - the peak RSS (VmHWM) at the last sample before sampling ended, MiB"""
    c = js_cpu(run)
    if not c:
        return None
    xs = [kb for t, kb in getattr(run, 'hwm_series', []) if t <= c['end_ns']]
    return xs[-1] / 1024 if xs else None


def heap_mib(run):
    """heap_mib - Rss of [heap] in the run's smaps snapshot, MiB"""
    for rss, name in run.smaps or ():
        if name.startswith('[heap]'):
            return rss / 1024
    return None


def read_smaps_top(pid, n=6):
    """read_smaps_top - the n largest mappings by Rss: [(rss_kb, name)]"""
    maps, cur = [], None
    try:
        with open('/proc/%d/smaps' % pid) as f:
            for line in f:
                if re.match(r'^[0-9a-f]+-[0-9a-f]+ ', line):
                    p = line.split()
                    lo, hi = (int(x, 16) for x in p[0].split('-'))
                    cur = [0, (p[5] if len(p) > 5 else '[anon]'), (hi - lo) // 1024]
                    maps.append(cur)
                elif line.startswith('Rss:') and cur is not None:
                    cur[0] = int(line.split()[1])
    except OSError:
        return []
    maps.sort(key=lambda m: -m[0])
    return [(m[0], '%s (%d kB mapped)' % (m[1], m[2])) for m in maps[:n]]


def descendants(pids):
    """descendants - the given PIDs and every process below them"""
    kids = {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % d) as f:
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(d))
    out, todo = set(), list(pids)
    while todo:
        p = todo.pop()
        if p not in out:
            out.add(p)
            todo.extend(kids.get(p, []))
    return out


def proc_scan():
    """proc_scan - {pid: (comm, start s since boot, utime+stime ticks)} of every process"""
    out = {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % d) as f:
                raw = f.read()
        except OSError:
            continue
        comm = raw[raw.index('(') + 1:raw.rindex(')')]
        f = raw.rsplit(')', 1)[1].split()
        out[int(d)] = (comm, int(f[19]) / CLK_TCK, int(f[11]) + int(f[12]))
    return out


def foreign_procs(max_age=None, scan=None):
    """foreign_procs - 'comm:pid' of measurement tools and tests not started by this script
    (only those younger than max_age seconds, when given)"""
    ours = descendants([os.getpid()])
    now = time.clock_gettime(time.CLOCK_BOOTTIME)
    found = set()
    for pid, (comm, start, _) in (scan or proc_scan()).items():
        if pid in ours or not (comm in FOREIGN or comm.startswith('test_')):
            continue
        if max_age is None or now - start <= max_age:
            found.add('%s:%d' % (comm, pid))
    return found


class Hogs:
    """Hogs - processes not ours that used more than a share of a CPU while a run went on"""

    def __init__(self):
        self.first = None
        self.t0 = None
        self.last = None
        self.t1 = None

    def sample(self, scan):
        """sample - remember the first and the latest scan"""
        t = time.monotonic()
        if self.first is None:
            self.first, self.t0 = scan, t
        self.last, self.t1 = scan, t

    def found(self, share=HOG_SHARE):
        """found - 'comm:pid (NN %)' of the processes above share of one CPU"""
        if not self.first or self.t1 - self.t0 < 0.5:
            return set()
        ours = descendants([os.getpid()])
        out = set()
        for pid, (comm, _, ticks) in self.last.items():
            if pid in ours or pid not in self.first:
                continue
            use = (ticks - self.first[pid][2]) / CLK_TCK / (self.t1 - self.t0)
            if use > share:
                out.add('%s:%d (%.0f %% CPU)' % (comm, pid, 100 * use))
        return out


def wait_quiet(budget):
    """wait_quiet - wait (from a shared budget, seconds) until no foreign tool runs; tools
    running for more than 5 minutes are not waited for (hung), only reported"""
    while True:
        f = foreign_procs(max_age=300)
        if not f or budget['left'] <= 0:
            return f
        time.sleep(0.5)
        budget['left'] -= 0.5


def fdinfo_ids(pid, key):
    """fdinfo_ids - the ids of the BPF objects (key: prog_id, map_id) a process holds open"""
    ids = set()
    try:
        fds = os.listdir('/proc/%d/fdinfo' % pid)
    except OSError:
        return ids
    for fd in fds:
        try:
            with open('/proc/%d/fdinfo/%s' % (pid, fd)) as f:
                m = re.search(r'^%s:\s*(\d+)' % key, f.read(), re.M)
        except OSError:
            continue
        if m:
            ids.add(int(m.group(1)))
    return ids


def bpf_prog_ids(pid):
    """bpf_prog_ids - ids of the BPF programs a process holds open (from fdinfo)"""
    return fdinfo_ids(pid, 'prog_id')


def bpf_prog_stats(ids):
    """bpf_prog_stats - {name: (run_cnt, run_time_ns)} of these programs (bpftool)"""
    tool = shutil.which('bpftool') or '/usr/sbin/bpftool'
    try:
        p = subprocess.run([tool, 'prog', 'show', '--json'], capture_output=True, text=True,
                           timeout=10)
        progs = json.loads(p.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return {}
    return {x.get('name', str(x['id'])): (x.get('run_cnt', 0), x.get('run_time_ns', 0))
            for x in progs if x['id'] in ids}


# ---------------------------------------------------------------------------------------------
# running a tool under observation

class Run:
    """Run - one child process: its exec time, exit, rusage and /proc samples while it ran"""

    def __init__(self, name, cmd):
        self.name, self.cmd = name, cmd
        self.t_exec = self.t_exit = None
        self.rc = None
        self.rusage = None
        self.samples = []       # [(t_ns, irqs or None, tasks or None)]
        self.hwm_kb = None
        self.hwm_series = []    # [(t_ns, VmHWM kB)] while it ran
        self.main_cpu = []      # [(t_ns, main thread on-CPU ns)] in the report phase
        self.smaps = []
        self.foreign = set()
        self.json = None
        self.gaps = None
        self.inject = None      # jsinject summary + log
        self.meas_start = None  # when the measuring thread was first seen (polling)
        self.killed = False
        self.tids = set()       # every thread of the process seen while it ran
        self.pid = None
        self.sent = []          # [(gap start, sender tid, detail)] of IPIs sent by jitterscope
        self.progstats = None   # {BPF program: (calls, ns per call)} when asked for
        self.toggles = None     # [(attached, start_ns, end_ns)] of --probe-toggle


def child_setup():
    """child_setup - children start on every CPU, like from a shell (the harness avoids CPU 1)"""
    os.sched_setaffinity(0, range(os.cpu_count()))


def spawn_watch(run, cpu, interval, tasks, irqs, on_start=None, nth_pinned=1, smaps_at=None,
                timeout=60, fast_after=None):
    """spawn_watch - start run.cmd and sample /proc until it exits (killed after timeout s)"""
    run.t_exec = mono()
    try:
        st = os.stat(run.cmd[0])
        run.binary = (run.cmd[0], st.st_ino, st.st_mtime_ns)
    except OSError:
        run.binary = None
    p = subprocess.Popen(run.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=child_setup)
    run.pid = p.pid
    pinned, fired, n = [], False, 0
    hogs = Hogs()
    while True:
        t = mono()
        ir = read_irqs(cpu) if irqs else None
        tk = read_tasks(p.pid) if (tasks or on_start) else None
        hwm = read_status_kb(p.pid, 'VmHWM')
        if hwm:
            run.hwm_kb = max(run.hwm_kb or 0, hwm)
            run.hwm_series.append((t, hwm))
        run.samples.append((t, ir, tk if tasks else None))
        if tk:
            run.tids |= set(tk)
            for tid, (_, allowed) in tk.items():
                if allowed == str(cpu) and tid != p.pid and tid not in pinned:
                    pinned.append(tid)
        if not fired and len(pinned) >= nth_pinned:
            fired = True
            run.meas_start = t
            if on_start:
                on_start(run)
        if smaps_at is not None and not run.smaps and t - run.t_exec > smaps_at * 1e9:
            run.smaps = read_smaps_top(p.pid, 8)
        if n % 5 == 0:
            scan = proc_scan()
            hogs.sample(scan)
            run.foreign |= foreign_procs(scan=scan)
        n += 1
        try:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        except ChildProcessError:
            break
        if pid:
            run.t_exit = mono()
            run.rc = os.waitstatus_to_exitcode(status)
            run.rusage = ru
            break
        if t - run.t_exec > timeout * 1e9 and not run.killed:
            log('  %s: still running after %d s: killed' % (run.name, timeout))
            p.kill()
            run.killed = True
        # after sampling (the report phase) only VmHWM is followed, every 5 ms
        if fast_after is not None and t - run.t_exec > fast_after * 1e9:
            while True:
                hwm = read_status_kb(p.pid, 'VmHWM')
                if hwm is None:
                    break
                now = mono()
                run.hwm_series.append((now, hwm))
                try:
                    with open('/proc/%d/task/%d/schedstat' % (p.pid, p.pid)) as f:
                        run.main_cpu.append((now, int(f.read().split()[0])))
                except (OSError, ValueError, IndexError):
                    pass
                run.hwm_kb = max(run.hwm_kb or 0, hwm)
                pid, status, ru = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    run.t_exit = mono()
                    run.rc = os.waitstatus_to_exitcode(status)
                    run.rusage = ru
                    break
                time.sleep(HWM_FAST_S)
            if run.rusage:
                break
        time.sleep(interval)
    hogs.sample(proc_scan())
    run.foreign |= hogs.found()
    err = p.stderr.read().decode(errors='replace')
    p.stderr.close()
    if run.rc != 0:
        log('  %s: exit %s: %s' % (run.name, run.rc, err.strip()[-300:]))
    return run


def parse_kv(text):
    """parse_kv - a key=value summary (jsinject, jsapp, jsloop)"""
    out = {}
    for line in text.splitlines():
        if '=' in line:
            k, v = line.split('=', 1)
            out[k.strip()] = v.strip()
    return out


def read_inject_log(path):
    """read_inject_log - [(start_ns, end_ns)] of jsinject's CSV log ([] when unreadable)"""
    try:
        return [(s, e) for _, s, e in inject_actions(path)]
    except (OSError, ValueError):
        return []


class Injector:
    """Injector - runs jsinject in a thread once the measured tool has started measuring"""

    def __init__(self, cpu, mode, secs, logpath, extra):
        self.cmd = [INJ, '--mode', mode, '--cpu', str(cpu), '--duration', '%.3f' % secs,
                    '--log', logpath] + extra
        self.logpath = logpath
        self.secs = secs
        self.thread = None
        self.summary = {}
        self.actions = []
        self.rc = None
        self.load = True        # read the log back when finished

    def _run(self):
        time.sleep(INJ_DELAY_S)     # the measuring thread is seen up to a poll before it measures
        try:
            p = subprocess.run(self.cmd, capture_output=True, text=True,
                               preexec_fn=child_setup, timeout=self.secs + 30)
        except subprocess.TimeoutExpired:
            log('  jsinject: killed after %.0f s' % (self.secs + 30))
            return
        self.rc = p.returncode
        self.summary = parse_kv(p.stdout)
        if p.returncode != 0:
            log('  jsinject: exit %d: %s' % (p.returncode, p.stderr.strip()[-300:]))

    def start(self, _run=None):
        """start - on_start hook of spawn_watch"""
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def finish(self):
        """finish - wait for jsinject and read its log"""
        if self.thread:
            self.thread.join()
        self.thread = None
        self.actions = read_inject_log(self.logpath) if self.load else []
        return self


class Injectors:
    """Injectors - several jsinject at once; behaves as the first one once finished"""

    def __init__(self, injs):
        self.injs = injs

    def start(self, run=None):
        """start - on_start hook of spawn_watch"""
        for i in self.injs:
            i.start(run)

    def finish(self):
        """finish - wait for all; the first one stands for the group"""
        for i in self.injs:
            i.finish()
        self.injs[0].others = self.injs[1:]
        return self.injs[0]


class OnStart:
    """OnStart - a tool-start hook: starts the injector, then self._run(pid) in a thread"""

    inj = None
    thread = None

    def start(self, run):
        """start - start the injector and the hook's thread"""
        if self.inj:
            self.inj.start(run)
        self.thread = threading.Thread(target=self._run, args=(run.pid,))
        self.thread.start()

    def join(self):
        """join - wait for the hook's thread"""
        if self.thread:
            self.thread.join()
        self.thread = None


class ProgStats(OnStart):
    """ProgStats - on_start hook: two snapshots of the tool's BPF run-time statistics"""

    def __init__(self, inj, first=0.8, second=2.8):
        self.inj, self.first, self.second = inj, first, second
        self.a = self.b = None
        self.thread = None

    def _run(self, pid):
        time.sleep(self.first)
        ids = bpf_prog_ids(pid)
        self.a = bpf_prog_stats(ids)
        time.sleep(self.second - self.first)
        self.b = bpf_prog_stats(ids)

    def finish(self):
        """finish - {name: (calls, ns per call)} between the snapshots"""
        self.join()
        out = {}
        for name, (cnt, ns) in (self.b or {}).items():
            c0, n0 = (self.a or {}).get(name, (0, 0))
            if cnt > c0:
                out[name] = (cnt - c0, (ns - n0) / (cnt - c0))
        return out


class IrqProgStats(ProgStats):
    """IrqProgStats - ProgStats, with the measured CPU's /proc/interrupts read at the same two
    instants: the interruptions the programs' run time was spent on"""

    def __init__(self, inj, first, second, cpu):
        super().__init__(inj, first, second)
        self.cpu = cpu
        self.ia = self.ib = None

    def _run(self, pid):
        time.sleep(self.first)
        ids = bpf_prog_ids(pid)
        self.ia = read_irqs(self.cpu)
        self.a = bpf_prog_stats(ids)
        time.sleep(self.second - self.first)
        self.b = bpf_prog_stats(ids)
        self.ib = read_irqs(self.cpu)

    def finish(self):
        """finish - ({name: (calls, ns in all)}, {irq key: count}) between the snapshots"""
        self.join()
        progs = {}
        for name, (cnt, ns) in (self.b or {}).items():
            c0, n0 = (self.a or {}).get(name, (0, 0))
            progs[name] = (cnt - c0, ns - n0)
        irqs = {k: v - (self.ia or {}).get(k, 0) for k, v in (self.ib or {}).items()}
        return progs, irqs


def bpf_map_ids(pid):
    """bpf_map_ids - ids of the BPF maps a process holds open (from fdinfo)"""
    return fdinfo_ids(pid, 'map_id')


class PauseToggler(OnStart):
    """PauseToggler - on_start hook: pause and resume the probes' programs (their .data.pause
    map, written with bpftool) at random 0.3-0.8 s intervals, logging when (CLOCK_MONOTONIC):
    the same run, the same noise, measured with the probes' bodies running and paused"""

    def __init__(self, inj, secs, hold=False):
        self.inj, self.secs, self.hold = inj, secs, hold
        self.log = []
        self.thread = None
        self.err = None

    def _set(self, mid, on):
        tool = shutil.which('bpftool') or '/usr/sbin/bpftool'
        subprocess.run([tool, 'map', 'update', 'id', str(mid), 'key', '0', '0', '0', '0',
                        'value', '1' if on else '0', '0', '0', '0'], check=True,
                       capture_output=True, timeout=10)

    def _find(self, pid):
        tool = shutil.which('bpftool') or '/usr/sbin/bpftool'
        mine = bpf_map_ids(pid)
        maps = json.loads(subprocess.run([tool, 'map', 'show', '--json'], capture_output=True,
                                         text=True, timeout=10).stdout)
        for m in maps:
            if m.get('id') in mine and m.get('name', '').endswith('.data.pause'):
                return m['id']
        return None

    def _run(self, pid):
        import random
        rnd = random.Random(pid)
        try:
            time.sleep(PAUSE_FIRST_S)
            mid = self._find(pid)
            if mid is None:
                self.err = 'no .data.pause map in the tool'
                return
            paused = False
            if self.hold:       # paused once, for the whole run
                self._set(mid, True)
                self.log.append((mono(), True))
                return
            end = time.monotonic() + self.secs - 1.2
            while time.monotonic() < end:
                paused = not paused
                self._set(mid, paused)
                self.log.append((mono(), paused))
                time.sleep(rnd.uniform(*PAUSE_S))
            if paused:
                self._set(mid, False)
                self.log.append((mono(), False))
        except (OSError, ValueError, subprocess.SubprocessError) as e:
            self.err = str(e)

    def finish(self):
        """finish - [(mono_ns, paused)] in time order"""
        self.join()
        return self.log

    @staticmethod
    def state(log, t, guard=PAUSE_GUARD_NS):
        """state - paused (True/False) at t, None near a switch (within guard ns) or before"""
        st = None
        for tt, p in log:
            if abs(t - tt) < guard:
                return None
            if tt <= t:
                st = p
        return st


class Bench:
    """Bench - the runs of one invocation and the helpers that start each kind of run"""

    def __init__(self, args):
        self.a = args
        self.P = {}             # method_params(), set by main
        self.cpu = args.cpu
        self.tmp = args.keep or tempfile.mkdtemp(prefix='jsbench.')
        os.makedirs(self.tmp, exist_ok=True)
        self.n = 0
        self.runs = []
        self.quiet = {'left': args.wait_quiet}
        self.waited_foreign = set()
        self.retry_left = args.retry_budget
        self.saved = None
        if args.replay:
            with open(args.replay, 'rb') as f:
                self.saved = pickle.load(f)

    def path(self, stem, ext):
        """path - a fresh file name in the scratch directory"""
        self.n += 1
        return os.path.join(self.tmp, '%03d-%s.%s' % (self.n, stem, ext))

    def drop(self, *paths):
        """drop - remove a run's scratch files (kept with --keep)"""
        for p in paths:
            if not self.a.keep and os.path.exists(p):
                os.unlink(p)

    def _pre(self):
        self.waited_foreign |= wait_quiet(self.quiet)

    def replayed(self, name):
        """replayed - with --replay, the next saved run (the sections ask in the same order)"""
        if self.saved is None:
            return None
        run = self.saved.pop(0)
        if run.name != name:
            sys.exit('bench/run.py: --replay: expected %s, saved %s' % (name, run.name))
        self.runs.append(run)
        return run

    def _attempts(self, name, secs, once):
        """_attempts - run once(); measure again (from a shared time budget) while another
        measurement tool or a CPU hog ran at the same time"""
        if self.saved is not None:
            return self.replayed(name)
        for attempt in range(RETRIES + 1):
            self._pre()
            run = once()
            if not run.foreign or self.retry_left < secs + 1 or attempt == RETRIES:
                break
            self.retry_left -= secs + 1
            log('  %s: measured again, other work ran: %s' %
                (name, ', '.join(sorted(run.foreign))[:100]))
        self.runs.append(run)
        return run

    def js(self, name, secs, extra=(), inject=None, tasks=True, irqs=False, gaps=True,
           interval=POLL_S, progstats=False, pause=False, load=True, toggle=False,
           causes=False):
        """js - one jitterscope run (JSON and optionally gaps CSV), with an optional injector;
        load=False: the gaps CSV and the injector's log are written but not read back;
        pause: the probes paused at random ('hold': paused the whole run); toggle: detached
        and attached again at random by the tool (--probe-toggle, run.toggles)"""
        def once():
            jpath, gpath = self.path(name, 'json'), self.path(name, 'csv')
            tpath = self.path(name + '-toggle', 'csv')
            cmd = [JS, '--cpu', str(self.cpu), '--duration', '%gs' % secs, '--json', jpath, '-q']
            cmd += (['--gaps', gpath] if gaps else []) + list(extra)
            cmd += ['--probe-toggle', tpath] if toggle else []
            for _ in range(2):
                run = Run(name, cmd)
                inj = self._injector(inject, secs, name, load)
                # progstats: True, or a factory of a ProgStats (IrqProgStats)
                ps = (progstats if callable(progstats) else ProgStats)(
                    inj, STATS_SKIP_S, secs - STATS_SKIP_S) if progstats else None
                # with both, the statistics' hook starts the injector
                pt = PauseToggler(None if ps else inj, secs, hold=pause == 'hold') \
                    if pause else None
                hook = ps.start if ps else pt.start if pt else (inj.start if inj else None)
                if ps and pt:
                    def hook(run_, hooks=(ps.start, pt.start)):
                        for h in hooks:
                            h(run_)
                # the mappings near the end of sampling (exec + set-up ~0.3 s + duration - 0.6)
                spawn_watch(run, self.cpu, interval, tasks, irqs, hook, smaps_at=secs - 0.3,
                            timeout=secs + 30, fast_after=secs)
                run.inject = inj.finish() if inj else None
                run.progstats = ps.finish() if ps else None
                run.pauses = pt.finish() if pt else None
                run.pause_err = pt.err if pt else None
                if run.rc == 0 and os.path.exists(jpath):
                    break
                log('  %s: exit %s, once more' % (name, run.rc))
            if run.rc == 0:
                with open(jpath) as f:
                    run.json = json.load(f)
                if gaps and load:
                    run.gaps = load_gaps(gpath, self.cpu)
                    run.sent = load_sent(gpath, self.cpu)
                if gaps and causes:
                    run.causes = load_gap_causes(gpath, self.cpu)
                if toggle:
                    run.toggles = load_toggles(tpath)
            self.drop(jpath, gpath, tpath)
            return run
        return self._attempts(name, secs, once)

    def oslat(self, name, secs, inject=None):
        """oslat - one oslat run (JSON, 1024 one-microsecond buckets), optional injector"""
        def once():
            jpath = self.path(name, 'json')
            cmd = [OSLAT, '--cpu-list', str(self.cpu), '-D', str(int(secs)), '-q', '-b', '1024',
                   '--json', jpath]
            run = Run(name, cmd)
            inj = self._injector(inject, secs, name)
            # oslat's first thread on the CPU is the ~1 s pre-heat; the second one measures
            spawn_watch(run, self.cpu, POLL_S, True, False, inj.start if inj else None,
                        nth_pinned=2, timeout=secs + 30)
            run.inject = inj.finish() if inj else None
            if run.rc == 0:
                with open(jpath) as f:
                    run.json = json.load(f)
            return run
        return self._attempts(name, secs + 1, once)

    def loop(self, name, secs):
        """loop - the CPU's bare TSC loop (jsloop: the read jitterscope makes) for secs; run.loop:
        its summary"""
        def once():
            opath = self.path(name, 'txt')
            run = Run(name, [LOOP, '--cpu', str(self.cpu), '--duration', '%g' % secs,
                             '--out', opath])
            spawn_watch(run, self.cpu, POLL_S, True, False, timeout=secs + 30)
            run.loop = None
            if run.rc == 0:
                with open(opath) as f:
                    run.loop = {k: float(v) for k, v in parse_kv(f.read()).items()}
            self.drop(opath)
            return run
        return self._attempts(name, secs, once)

    def busy(self, name, secs, idle=False):
        """busy - a plain busy loop pinned to the CPU (no syscalls), observed like the tools;
        idle: a process that sleeps off the CPU instead, leaving it alone"""
        def once():
            if idle:
                code = ('import os,time\nos.sched_setaffinity(0,[c for c in os.sched_getaffinity'
                        '(0) if c!=%d])\ntime.sleep(%f)\n' % (self.cpu, secs))
            else:
                code = ('import os,time\nos.sched_setaffinity(0,[%d])\ne=time.monotonic()+%f\n'
                        'while time.monotonic()<e: pass\n' % (self.cpu, secs))
            run = Run(name, [sys.executable, '-c', code])
            spawn_watch(run, self.cpu, POLL_S, True, True, timeout=secs + 30)
            return run
        return self._attempts(name, secs, once)

    def app(self, name, secs, watched):
        """app - the stand-in application (jsapp) on the CPU for secs, marking its slow
        iterations to a file; watched: followed by jitterscope --pid APP --marks FILE from its
        first iteration until it exits. run.app: jsapp's summary (its iteration times)"""
        def once():
            mpath, rpath = self.path(name, 'marks'), self.path(name + '-ready', 'flag')
            jpath = self.path(name, 'json')
            open(mpath, 'w').close()
            cmd = [APP, '--cpu', str(self.cpu), '--duration', '%g' % secs,
                   '--work-us', str(self.P['app_work_us']),
                   '--slow-us', str(self.P['app_slow_us']), '--marks', mpath, '--ready', rpath]
            run = Run(name, cmd)
            run.t_exec = mono()
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=child_setup)
            run.pid, js = p.pid, None
            if watched:
                for _ in range(500):
                    if os.path.exists(rpath) or p.poll() is not None:
                        break
                    time.sleep(0.01)
                js = subprocess.Popen([JS, '--pid', str(p.pid), '--marks', mpath, '-d', '0',
                                       '-q', '--json', jpath], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True, preexec_fn=child_setup)
            hogs = Hogs()
            hogs.sample(proc_scan())
            try:
                out, err = p.communicate(timeout=secs + 30)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
            hogs.sample(proc_scan())
            run.foreign |= foreign_procs() | hogs.found()
            run.t_exit, run.rc = mono(), p.returncode
            run.app = parse_kv(out)
            if js:
                try:
                    js.wait(30)
                except subprocess.TimeoutExpired:
                    js.kill()
                    js.wait()
                if js.returncode != 0 or not os.path.exists(jpath):
                    log('  %s: jitterscope exit %s: %s' % (name, js.returncode,
                                                          js.stderr.read().strip()[-300:]))
                    run.rc = run.rc or 1
                else:
                    with open(jpath) as f:
                        run.json = json.load(f)
                js.stderr.close()
            if run.rc != 0:
                log('  %s: exit %s: %s' % (name, run.rc, err.strip()[-300:]))
            self.drop(mpath, rpath, jpath)
            return run
        return self._attempts(name, secs, once)

    def redis(self, name, watched, marks=False, feed=0):
        """redis - redis-server pinned to the measured CPU (127.0.0.1, a free port, no
        persistence) loaded by redis-benchmark on the other CPUs (-t get, --csv); watched:
        followed by jitterscope --pid from before the load until the server exits (marks: with
        --marks on an empty file nothing writes, as a user who tries it; feed: fed that many
        marks a second by bench/markfeed.py on the other CPUs while the load runs, also
        unwatched: the feeder's own cost on the load's CPUs). run.bench:
        redis-benchmark's CSV row (rps, p50/p99 latency); run.json: jitterscope's JSON;
        run.js_cpu_s: jitterscope's own CPU time (rusage)"""
        P = self.P
        secs = P['redis_n'] / 10000.0   # a rough length, for the retry budget only

        def once():
            import socket
            with socket.socket() as so:
                so.bind(('127.0.0.1', 0))
                port = so.getsockname()[1]
            jpath = self.path(name, 'json')
            others = ','.join(str(c) for c in range(os.cpu_count()) if c != self.cpu) or '0'
            srv = ['taskset', '-c', str(self.cpu), REDIS_SERVER, '--port', str(port), '--bind',
                   '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no']
            cmd = ['taskset', '-c', others, REDIS_BENCH, '-h', '127.0.0.1', '-p', str(port),
                   '-n', str(P['redis_n']), '-c', str(P['redis_clients']), '-t', 'get', '-q',
                   '--csv']
            run = Run(name, cmd)
            run.bench, run.js_cpu_s = None, None
            p = subprocess.Popen(srv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 preexec_fn=child_setup)
            run.pid, js = p.pid, None
            ping = ['redis-cli', '-h', '127.0.0.1', '-p', str(port), 'ping']
            try:
                for _ in range(200):
                    if subprocess.run(ping, capture_output=True, text=True).stdout.strip() == \
                            'PONG' or p.poll() is not None:
                        break
                    time.sleep(0.05)
                mk = []
                if marks or feed:
                    mk = ['--marks', self.path(name + '-marks', 'csv')]
                    open(mk[1], 'w').close()
                if watched:
                    js = subprocess.Popen([JS, '--pid', str(p.pid), '-d', '0', '-q', '--json',
                                           jpath] + (mk if marks else []),
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True,
                                          preexec_fn=child_setup)
                    # attached: its follow programs are loaded (then a little more)
                    for _ in range(300):
                        if len(bpf_prog_ids(js.pid)) > 10 or js.poll() is not None:
                            break
                        time.sleep(0.05)
                    time.sleep(0.5)
                hogs = Hogs()
                hogs.sample(proc_scan())
                if feed:
                    fed = subprocess.Popen(['taskset', '-c', others, sys.executable, MARKFEED,
                                            mk[1], str(feed)], preexec_fn=child_setup)
                run.t_exec = mono()
                b = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
                run.t_exit, run.rc = mono(), b.returncode
                if feed:
                    fed.kill()
                    fed.wait()
                hogs.sample(proc_scan())
                # the server and jitterscope are this script's own: left out already
                run.foreign |= foreign_procs() | hogs.found()
                rows = [ln for ln in b.stdout.splitlines() if ln.startswith('"GET')]
                if rows:
                    hdr = [h.strip('"') for h in b.stdout.splitlines()[0].split(',')]
                    vals = [v.strip('"') for v in rows[0].split(',')]
                    run.bench = {h: float(v) for h, v in zip(hdr[1:], vals[1:])}
                elif run.rc == 0:
                    run.rc = 1
                    log('  %s: no CSV row from redis-benchmark: %s' % (name, b.stdout[-200:]))
            finally:
                subprocess.run(['redis-cli', '-h', '127.0.0.1', '-p', str(port), 'shutdown',
                                'nosave'], capture_output=True)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                if js:
                    try:
                        _, status, ru = os.wait4(js.pid, 0) if js.returncode is None \
                            else (0, 0, None)
                        if ru is not None:
                            js.returncode = os.waitstatus_to_exitcode(status)
                            run.js_cpu_s = ru.ru_utime + ru.ru_stime
                    except ChildProcessError:
                        js.wait()
                    if js.returncode != 0 or not os.path.exists(jpath):
                        log('  %s: jitterscope exit %s: %s' % (name, js.returncode,
                                                              js.stderr.read().strip()[-300:]))
                        run.rc = run.rc or 1
                    else:
                        run.js_err = js.stderr.read()
                        with open(jpath) as f:
                            run.json = json.load(f)
                    js.stderr.close()
                self.drop(jpath)
            return run
        return self._attempts(name, secs, once)

    def _injector(self, inject, secs, name, load=True):
        """_injector - one jsinject (mode, args), or several in parallel (a list of them)"""
        if not inject:
            return None
        if isinstance(inject, tuple):
            inject = [inject]
        # from INJ_DELAY_S after the tool's measuring thread is seen (polled every POLL_S),
        # INJ_SHORT_S shorter than the tool
        injs = [Injector(self.cpu, mode, max(0.5, secs - INJ_SHORT_S),
                         self.path(name + '-inj', 'csv'), list(extra)) for mode, extra in inject]
        for i in injs:
            i.load = load
        return injs[0] if len(injs) == 1 else Injectors(injs)


def load_toggles(path):
    """load_toggles - --probe-toggle's log: [(attached 1/0, start_ns, end_ns)], [] if none"""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    if not lines or lines[0] != 'attached,start_ns,end_ns':
        return []
    return [tuple(int(x) for x in ln.split(',')) for ln in lines[1:] if ln]


def toggle_state(toggles, t, guard=PAUSE_GUARD_NS):
    """toggle_state - the probes attached (True/False) at t by --probe-toggle's log; None
    within guard ns of a change (the change sends the CPU a burst of IPIs)"""
    st = True
    for a, s0, s1 in toggles:
        if t < s0 - guard:
            return st
        if t <= s1 + guard:
            return None
        st = bool(a)
    return st


def load_sent(path, cpu):
    """load_sent - [(gap start_ns, sender tid, cause, causes)] of the IPI/TLB causes whose
    sender is a jitterscope thread, from the causes column of a --gaps CSV"""
    out = []
    try:
        rows = gap_rows(path, cpu)
    except (OSError, ValueError):
        return out
    for row in rows:
        for cls, det, _ in parse_causes(row['causes']):
            m = re.fullmatch(r'[^;=]* from jitterscope:(\d+)', det)
            if m and cls in ('ipi', 'vector', 'tlb'):
                out.append((int(row['start_ns']), int(m.group(1)), cls + ':' + det,
                            row['causes'][:160]))
    return out


def load_gaps(path, cpu):
    """load_gaps - sorted [(start_ns, duration_ns, cause)] of one CPU from a --gaps CSV (None
    when unreadable)"""
    try:
        rows = gap_rows(path, cpu)
    except (OSError, ValueError):
        return None
    return sorted((int(r['start_ns']), int(r['duration_ns']), r['cause']) for r in rows)


def load_gap_causes(path, cpu):
    """load_gap_causes - sorted [(start_ns, duration_ns, {cause class})] of one CPU from a
    --gaps CSV (None when unreadable)"""
    try:
        rows = gap_rows(path, cpu)
    except (OSError, ValueError):
        return None
    return sorted((int(r['start_ns']), int(r['duration_ns']),
                   {c for c, _, _ in parse_causes(r['causes'])}) for r in rows)


# ---------------------------------------------------------------------------------------------
# per-run figures

def js_cpu(run):
    """js_cpu - the per-CPU object of a jitterscope JSON"""
    return run.json['cpus'][0] if run.json and 'cpus' in run.json else None


def oslat_thread(run):
    """oslat_thread - (loops, duration s, {bucket: count}) of an oslat JSON"""
    if not run.json:
        return None
    th = list(run.json['thread'].values())[0]
    hist = {int(k): int(v) for k, v in th['histogram'].items()}
    return sum(hist.values()), float(th['duration']), hist


def loop_period(run):
    """loop_period - jsloop's mean period of its iterations under the cut, ns (None: none)"""
    lp = getattr(run, 'loop', None)
    return lp['loop_ns_mean'] if lp and lp.get('short_iterations') else None


def oslat_busy_period(run):
    """oslat_busy_period - ns per loop with loops of >= 1 us taken out (bucket mid-points)"""
    t = oslat_thread(run)
    if not t:
        return None
    loops, dur, hist = t
    top = max(hist)
    lost_us = sum(c * (min(b, top) - 0.5) for b, c in hist.items() if b >= 2)
    small = hist.get(1, 0)
    return (dur * 1e9 - lost_us * 1e3) / small if small else None


def window(run, margin_ns=WINDOW_MARGIN_NS):
    """window - [lo, hi] CLOCK_MONOTONIC of a run's measuring window, shrunk by a margin"""
    c = js_cpu(run)
    if c:
        return c['start_ns'] + margin_ns, c['end_ns'] - margin_ns
    if run.meas_start:
        return run.meas_start + margin_ns, run.t_exit - 2 * margin_ns
    return None


def samples_in(run, lo, hi):
    """samples_in - first and last /proc sample inside [lo, hi]"""
    s = [x for x in run.samples if lo <= x[0] <= hi]
    return (s[0], s[-1]) if len(s) >= 2 else (None, None)


def housekeeping_pct(run, cpu):
    """housekeeping_pct - CPU time of the threads not pinned to the measured CPU, % of a core"""
    w = window(run)
    if not w:
        return None
    a, b = samples_in(run, *w)
    if not a or a[2] is None or b[2] is None:
        return None
    used = 0
    for tid, (ns, allowed) in b[2].items():
        if allowed == str(cpu):
            continue
        used += ns - a[2].get(tid, (ns, None))[0] if tid in a[2] else ns
    return 100.0 * used / (b[0] - a[0])


def irq_rates(run, lo, hi):
    """irq_rates - {key: per second} of the CPU's IPI counters between two samples"""
    a, b = samples_in(run, lo, hi)
    if not a or a[1] is None:
        return None
    dt = (b[0] - a[0]) / 1e9
    return {k: (b[1].get(k, 0) - a[1].get(k, 0)) / dt for k in IPI_KEYS}, dt


def post_run_cpu_s(run):
    """post_run_cpu_s - on-CPU seconds of the main thread from the end of sampling to its last
    sample before exit (5 ms polling): the report phase's work, without its waiting"""
    c = js_cpu(run)
    xs = [x for x in getattr(run, 'main_cpu', []) if c and x[0] >= c['end_ns']]
    return (xs[-1][1] - xs[0][1]) / 1e9 if len(xs) >= 2 else None


def post_run_s(run):
    """post_run_s - seconds from the end of sampling to the process's exit"""
    c = js_cpu(run)
    return (run.t_exit - c['end_ns']) / 1e9 if c else None


def attach_s(run):
    """attach_s - seconds from exec to the first sample (jitterscope: its JSON's start)"""
    c = js_cpu(run)
    if c:
        return (c['start_ns'] - run.t_exec) / 1e9
    return (run.meas_start - run.t_exec) / 1e9 if run.meas_start else None


def window_actions(run):
    """window_actions - the injector's actions that lie inside a jitterscope run's window"""
    c = js_cpu(run)
    acts = run.inject.actions if run.inject else []
    if not c:
        return acts
    return [a for a in acts if c['start_ns'] <= a[0] and a[1] <= c['end_ns']]


def match_actions(actions, gaps):
    """match_actions - for each [start, end] action, the largest gap overlapping it (or None)"""
    starts = [g[0] for g in gaps]
    out = []
    for s, e in actions:
        best = None
        i = bisect_right(starts, e) - 1     # the last gap starting before the action's end
        while i >= 0 and gaps[i][0] + gaps[i][1] >= s:  # gaps are disjoint: ends are sorted
            if best is None or gaps[i][1] > best[1]:
                best = gaps[i]
            i -= 1
        out.append(best)
    return out


def ipi_gaps(run):
    """ipi_gaps - the gaps of run that hold one of its injector's actions inside its window"""
    return [g for g in match_actions(window_actions(run), run.gaps) if g]


def tick_gaps(gaps, exclude, hz):
    """tick_gaps - the gaps starting at the tick's phase (found from the gaps themselves)"""
    period = 1_000_000_000 // hz
    binw = 5_000
    nb = period // binw
    cand = [g for g in gaps if TICK_BAND_NS[0] <= g[1] <= TICK_BAND_NS[1] and g not in exclude]
    if len(cand) < 20:
        return []
    hist = [0] * nb
    for g in cand:
        hist[(g[0] % period) // binw] += 1
    peak = max(range(nb), key=lambda i: hist[i] + hist[(i + 1) % nb])
    center = peak * binw + binw
    out = []
    for g in cand:
        off = (g[0] % period - center + period // 2) % period - period // 2
        if -TICK_PHASE_NS <= off <= TICK_PHASE_NS:
            out.append(g)
    return out


# ---------------------------------------------------------------------------------------------
# the table

class Table:
    """Table - rows of metric, jitterscope, baseline, ratio, target, verdict (+ footnotes)"""

    HEADER = ('metric', 'jitterscope', 'baseline', 'ratio', 'target', 'verdict')

    def __init__(self):
        self.rows = []
        self.details = []   # (title, header, rows) sub-tables for the document
        self.notes = []

    def add(self, metric, js, base, rat, target, verdict, contaminated=False):
        if contaminated and verdict in ('PASS', 'FAIL'):
            verdict += '*'
        self.rows.append((metric, js, base, rat, target, verdict))

    def text(self):
        rows = [self.HEADER] + [tuple(str(c) for c in r) for r in self.rows]
        w = [max(len(r[i]) for r in rows) for i in range(6)]
        w[0] = min(w[0], 58)
        lines = []
        for j, r in enumerate(rows):
            lines.append('  '.join(r[i][:w[i]].ljust(w[i]) if i == 0 else r[i].ljust(w[i])
                                   for i in range(6)).rstrip())
            if j == 0:
                lines.append('  '.join('-' * x for x in w))
        return '\n'.join(lines)

    @staticmethod
    def plain(hdr, rows):
        """plain - a sub-table as aligned text"""
        rows = [tuple(str(c) for c in hdr)] + [tuple(str(c) for c in r) for r in rows]
        w = [max(len(r[i]) for r in rows) for i in range(len(hdr))]
        return '\n'.join('  '.join(r[i].ljust(w[i]) for i in range(len(hdr))).rstrip()
                         for r in rows)

def fmt(x, unit='', nd=1):
    """fmt - a number with a unit, '-' for None"""
    if x is None:
        return '-'
    return ('%.' + str(nd) + 'f%s') % (x, unit)


def fmt_ratio(x):
    """fmt_ratio - a ratio as 0.62x"""
    return '-' if x is None else '%.2fx' % x


def check(value, op, target):
    """check - PASS/FAIL of value op target, '-' when not measured"""
    if value is None:
        return 'n/a'
    ok = {'<=': value <= target, '>=': value >= target, '==': value == target}[op]
    return 'PASS' if ok else 'FAIL'


def dirty(runs):
    """dirty - True when another measurement tool ran during any of these runs"""
    return any(r.foreign for r in runs)


# ---------------------------------------------------------------------------------------------
# the sections

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


def band_count_js(run, lo_ns, hi_ns, but=None):
    """band_count_js - jitterscope gaps with lo <= duration < hi (but: not of that cause)"""
    return sum(1 for g in run.gaps or () if lo_ns <= g[1] < hi_ns and g[2] != but)


def band_count_oslat(run, lo_us, hi_us):
    """band_count_oslat - oslat loops with lo <= latency < hi (bucket N = [N-1, N) us)"""
    t = oslat_thread(run)
    return sum(c for bkt, c in t[2].items() if lo_us <= bkt - 1 and bkt - 1 < hi_us) if t else None


def sec_agree(b, t, reps):
    """sec_agree - gaps of the injected size seen by both tools vs the injector's count"""
    P = b.P
    inj = ('preempt', ['--period', str(P['agree_period_us']), '--spin', str(P['agree_spin_us'])])
    secs = P['agree_secs']
    lo, hi = P['agree_lo_us'], P['agree_hi_us']     # around one spin; others' slices are longer
    js, os_ = [], []
    for i in range(reps):
        order = ('js', 'os') if i % 2 == 0 else ('os', 'js')
        for who in order:
            if who == 'js':
                js.append(b.js('agree-js', secs, inject=inj))
            elif OSLAT:
                os_.append(b.oslat('agree-oslat', secs, inject=inj))
    jr, jh, orr, matched, rows = [], [], [], [], []
    for r in js:
        if not r.gaps or not r.inject or not r.inject.actions:
            continue
        n = band_count_js(r, lo * 1000, hi * 1000)
        h = n - band_count_js(r, lo * 1000, hi * 1000, but='steal')
        acts = len(window_actions(r))
        m = sum(1 for g in match_actions(window_actions(r), r.gaps) if g and g[1] >= lo * 1000)
        jr.append((n, acts))
        jh.append(h)
        matched.append(m / acts)
        rows.append(('jitterscope', acts, n, h, band_count_js(r, lo * 1000, 10 ** 12), m,
                     fmt(n / acts, '', 3)))
    for r in os_:
        if not r.json or not r.inject or not r.inject.actions:
            continue
        n = band_count_oslat(r, lo, hi)
        acts = len(r.inject.actions)
        orr.append((n, acts))
        rows.append(('oslat', acts, n, '-', band_count_oslat(r, lo, 10 ** 9), '-',
                     fmt(n / acts, '', 3)))
    jq = med([n / a for n, a in jr])
    oq = med([n / a for n, a in orr])
    d = dirty(js + os_)
    band = '%d-%d us' % (lo, hi)
    t.add('agree: jitterscope gaps %s / injected preempts' % band,
          '%s/%s' % (med([n for n, _ in jr]), med([a for _, a in jr])), 'injector',
          fmt_ratio(jq), '1.00x +-0.05', check(abs(jq - 1) if jq else None, '<=', 0.05), d)
    # the host's own stalls of that size count against both tools; jitterscope names those
    # that are mostly steal (the other tool cannot): reported, the judged row is unchanged
    jq_host = med([(n - h) / a for (n, a), h in zip(jr, jh)])
    t.add('agree: jitterscope gaps %s not named steal / injected preempts' % band,
          '%s/%s' % (med([n - h for (n, _), h in zip(jr, jh)]), med([a for _, a in jr])),
          'injector', fmt_ratio(jq_host), 'report', 'INFO', d)
    t.add('agree: oslat loops %s / injected preempts' % band,
          '-', '%s/%s' % (med([n for n, _ in orr]), med([a for _, a in orr])),
          fmt_ratio(oq), '1.00x +-0.05', check(abs(oq - 1) if oq else None, '<=', 0.05), d)
    rq = ratio(jq, oq)
    t.add('agree: jitterscope vs oslat (count per injected action)', fmt(jq, '', 3),
          fmt(oq, '', 3), fmt_ratio(rq), '1.00x +-0.05',
          check(abs(rq - 1) if rq else None, '<=', 0.05), d)
    mm = min(matched) if matched else None
    t.add('agree: injected preempts inside a jitterscope gap >= %d us' % lo,
          fmt(mm and mm * 100, ' %'), '-', '-', '100 %', check(mm, '>=', 1.0), d)
    t.details.append(('Agreement, per run (jsinject preempt, period %g ms, spin %d us)' %
                      (P['agree_period_us'] / 1000, P['agree_spin_us']),
                      ('tool', 'actions', 'gaps %s' % band, 'of them steal', 'gaps >= %d us' % lo,
                       'matched (>= %d us)' % lo, 'band/actions'), rows))


def observer_waker(b, t, inj, hz):
    """observer_waker - the waker tracking's cost on the measured CPU (issue 28): the paired
    injected-IPI and tick rows again, the probes with the tracking (the default) against
    --no-waker, in pairs of short runs next to each other"""
    P = b.P
    on, off = [], []
    for i in range(P['obs_pairs']):
        for who in (('on', 'off') if i % 2 == 0 else ('off', 'on')):
            if who == 'on':
                on.append(b.js('observer-waker', P['obs_secs'], inject=inj))
            else:
                off.append(b.js('observer-no-waker', P['obs_secs'], extra=['--no-waker'],
                                inject=inj))

    def medians(r):
        if not r.gaps or not r.inject:
            return None, None
        got = ipi_gaps(r)
        return med([g[1] for g in got]), med([g[1] for g in tick_gaps(r.gaps, set(got), hz)])

    pairs = list(zip(map(medians, on), map(medians, off)))
    ipi_r = med([x for x in (ratio(a[0], z[0]) for a, z in pairs) if x is not None])
    diffs = [(a[1] - z[1]) / 1e3 for a, z in pairs if a[1] is not None and z[1] is not None]
    tick_d = med(diffs)
    i_on, i_off = med([a[0] for a, _ in pairs]), med([z[0] for _, z in pairs])
    k_on, k_off = med([a[1] for a, _ in pairs]), med([z[1] for _, z in pairs])
    d = dirty(on + off)
    t.add('observer: injected-IPI gap median, waker tracking vs --no-waker (paired)',
          fmt(i_on and i_on / 1e3, ' us', 2), fmt(i_off and i_off / 1e3, ' us', 2),
          fmt_ratio(ipi_r), '<= 1.05x', check(ipi_r, '<=', 1.05), d)
    t.add('observer: tick gap median, waker tracking vs --no-waker (paired)',
          fmt(k_on and k_on / 1e3, ' us', 2), fmt(k_off and k_off / 1e3, ' us', 2),
          '%+.2f us' % tick_d if tick_d is not None else '-', 'report', 'INFO', d)


def observer_stacks(b, t):
    """observer_stacks - --stacks's cost (issue 28): jsinject --mode pipe (a SCHED_FIFO reader
    on the measured CPU woken through a pipe, spinning: method_params) with --stacks
    against without, in pairs of short runs next to each other: the median gap the reader
    caused (a stack is taken inside it, where it leaves the CPU) and the BPF run time per
    run of sched_switch and sched_waking (--probe-cost), all reported"""
    P = b.P
    helper = '0' if b.cpu != 0 else '1'
    inj = ('pipe', ['--helper-cpu', helper, '--period', str(P['stacks_period_ms'] * 1000),
                    '--spin', str(P['stacks_spin_us'])])
    base = ['--probe-cost', '-T', '%dus' % P['stacks_threshold_us'],
            '--top', str(P['stacks_top'])]
    on, off = [], []
    for i in range(P['stacks_pairs']):
        for who in (('on', 'off') if i % 2 == 0 else ('off', 'on')):
            if who == 'on':
                on.append(b.js('observer-stacks', P['stacks_secs'], extra=base + ['--stacks'],
                               inject=inj, gaps=False))
            else:
                off.append(b.js('observer-no-stacks', P['stacks_secs'], extra=base,
                                inject=inj, gaps=False))

    def reader_med(r):
        top = (r.json or {}).get('cpus', [{}])[0].get('top', [])
        return med([g['duration_ns'] for g in top
                    if g['cause'] == 'task' and g['detail'].startswith('jsinject:')])

    def ns_per_run(r, prog):
        cost = ((r.json or {}).get('probes') or {}).get('cost') or {}
        p = [x for x in cost.get('programs', []) if x['name'] == prog and x['runs']]
        return p[0]['run_ns'] / p[0]['runs'] if p else None

    pairs = list(zip(map(reader_med, on), map(reader_med, off)))
    rr = med([x for x in (ratio(a, z) for a, z in pairs) if x is not None])
    r_on, r_off = med([a for a, _ in pairs]), med([z for _, z in pairs])
    d = dirty(on + off)
    t.add('observer: pipe reader\'s gap median, --stacks vs without (paired)',
          fmt(r_on and r_on / 1e3, ' us', 1), fmt(r_off and r_off / 1e3, ' us', 1),
          fmt_ratio(rr), 'report', 'INFO', d)
    for prog in ('sched_switch', 'sched_waking'):
        a = med([x for x in (ns_per_run(r, prog) for r in on) if x is not None])
        z = med([x for x in (ns_per_run(r, prog) for r in off) if x is not None])
        t.add('observer: %s BPF run time per run, --stacks vs without' % prog,
              fmt(a and a / 1e3, ' us', 2), fmt(z and z / 1e3, ' us', 2),
              fmt_ratio(ratio(a, z)) if a and z else '-', 'report', 'INFO', d)


def sec_observer(b, t, reps, hz):
    """sec_observer - injected IPI gaps and tick gaps, probes on vs --no-probes, in pairs of
    short runs next to each other (the noise changes from minute to minute)"""
    P = b.P
    inj = ('ipi', ['--period', str(P['obs_period_us']), '--count', '1'])
    secs = P['obs_secs']
    on, off = [], []
    # the host's noise moves from run to run: several pairs per repetition
    for i in range(P['obs_pairs']):
        order = ('on', 'off') if i % 2 == 0 else ('off', 'on')
        for who in order:
            if who == 'on':
                on.append(b.js('observer-on', secs, inject=inj))
            else:
                off.append(b.js('observer-off', secs, extra=['--no-probes'], inject=inj))
    rows = []

    def per_run(r, label):
        if not r.gaps or not r.inject:
            return None, None
        acts = window_actions(r)
        got = ipi_gaps(r)
        ipi_med = med([g[1] for g in got])
        ticks = tick_gaps(r.gaps, set(got), hz)
        tick_med = med([g[1] for g in ticks])
        timer = '-'
        if r.json and r.json['probes']['enabled'] and ticks:
            timer = fmt(100.0 * sum(1 for g in ticks if g[2] == 'timer') / len(ticks), ' %', 0)
        rows.append((label, len(acts), len(got), fmt(ipi_med and ipi_med / 1e3, '', 2),
                     len(ticks), fmt(tick_med and tick_med / 1e3, '', 2), timer))
        return ipi_med, tick_med

    res_on = [per_run(r, 'probes on') for r in on]
    res_off = [per_run(r, '--no-probes') for r in off]
    host_drift(t, off, res_off, P)
    i_on, i_off = med([x[0] for x in res_on]), med([x[0] for x in res_off])
    k_on, k_off = med([x[1] for x in res_on]), med([x[1] for x in res_off])
    # pair i: the two runs of iteration i, next to each other in time
    pairs = list(zip(res_on, res_off))
    pr = [x for x in (ratio(a[0], z[0]) for a, z in pairs) if x is not None]
    r = med(pr)
    diffs = [(a[1] - z[1]) / 1e3 for a, z in pairs if a[1] is not None and z[1] is not None]
    diff = med(diffs)
    d = dirty(on + off)
    t.add('observer: injected-IPI gap median, on vs off (paired)',
          fmt(i_on and i_on / 1e3, ' us', 2), fmt(i_off and i_off / 1e3, ' us', 2),
          fmt_ratio(r), '<= 1.05x', check(r, '<=', 1.05), d)
    t.add('observer: tick gap median (%d ms phase), on vs off (paired)' % (1000 // hz),
          fmt(k_on and k_on / 1e3, ' us', 2), fmt(k_off and k_off / 1e3, ' us', 2),
          '%+.2f us' % diff if diff is not None else '-', 'report', 'INFO', d)
    wr = within_run(b, t, inj, hz, reps)
    within_attach(b, t, inj, hz, reps)
    observer_waker(b, t, inj, hz)
    observer_stacks(b, t)
    if pr:
        ci, cd = med_interval(pr), med_interval(diffs)
        t.notes.append('observer: the paired ratios ranged %s to %s over %d pairs (median %s%s); '
                       'the tick differences %s (median %s%s); the within-run ratios: %s' %
                       (fmt_ratio(min(pr)), fmt_ratio(max(pr)), len(pr), fmt_ratio(r),
                        ', 95 %% bootstrap interval %s to %s' % (fmt_ratio(ci[0]), fmt_ratio(ci[1]))
                        if ci else '',
                        '%+.2f to %+.2f us' % (min(diffs), max(diffs)) if diffs else 'none',
                        '%+.2f us' % diff if diff is not None else '-',
                        ', 95 %% bootstrap interval %+.2f to %+.2f us' % cd if cd else '',
                        ', '.join(fmt_ratio(x) for x in wr) or 'none measured'))
    # the per-run table in time order
    rows[:] = [row for pair in zip(rows[:len(on)], rows[len(on):]) for row in pair]
    lost = [r_.json['probes']['lost'] for r_ in on if r_.json]
    # where the probes' time goes: kernel bpf_stats of jitterscope's own programs, one more run
    # (--probe-cost: the statistics slow every program down, so only this run pays for them)
    st_secs = P['stats_secs']
    st = b.js('observer-stats', st_secs, extra=['--probe-cost'], inject=inj, gaps=False,
              progstats=True)
    ps = st.progstats or {}
    if ps:
        ipi = sum(ps[k][1] for k in IPI_PROGS if k in ps)
        tick = sum(ps[k][1] for k in TICK_PROGS if k in ps)
        t.notes.append('observer: BPF run time per call-function IPI on the measured CPU %.2f us '
                       '(%s), per tick %.2f us (%s), from bpf_stats (a run with --probe-cost, '
                       'which turns them on; the tracepoint dispatch is not included)' %
                       (ipi / 1e3, '+'.join(k for k in IPI_PROGS if k in ps), tick / 1e3,
                        '+'.join(k for k in TICK_PROGS if k in ps)))
        t.details.append(('BPF cost per program: one probes-on run with injected IPIs and '
                          '--probe-cost (bpf_stats over %.1f s, every CPU)' %
                          (st_secs - 2 * STATS_SKIP_S),
                          ('program', 'runs where', 'calls', 'ns/call', 'ms total'),
                          prog_rows(ps)))
    t.details.append(('Observer effect, per run, by pairs (jsinject ipi every %g ms; tick gaps: '
                      'start within %d us of the densest %d ms phase)' %
                      (P['obs_period_us'] / 1000, TICK_PHASE_NS // 1000, 1000 // hz),
                      ('run', 'IPIs', 'matched', 'IPI gap med us', 'tick gaps', 'tick med us',
                       'tick gaps caused by timer'),
                      rows))
    if any(lost):
        t.notes.append('observer: probes lost events in runs with probes: %s' % lost)
    return on


def per_interruption(progs, irqs, names):
    """per_interruption - BPF ns per tick and per call-function IPI on the measured CPU: the
    run time of a probe set's programs for each (names: SET_PROGS entry) over the CPU's LOC and
    CAL counts in the same window; None where no interruption or no program ran"""
    out = {}
    for what, key in (('tick', 'LOC'), ('ipi', 'CAL')):
        n = irqs.get(key, 0)
        ran = [progs[p] for p in names[what] if p in progs and progs[p][0] > 0]
        out[what] = sum(ns for _, ns in ran) / n if n > 0 and ran else None
        # a lower bound: each program's mean run, the other CPUs' filtered runs included
        out[what + '_runs'] = sum(ns / c for c, ns in ran) if ran else None
    return out


def named_by_class(actions, gaps, cls, after_ns, before_ns):
    """named_by_class - (named, matched) of actions [(start, end)]: matched, a gap of gaps
    [(start, dur, {classes})] overlaps [start - before_ns, end + after_ns]; named, one of
    them holds class cls among its causes"""
    starts = [g[0] for g in gaps]
    named = matched = 0
    for s, e in actions:
        lo, hi = s - before_ns, e + after_ns
        i = bisect_right(starts, hi) - 1
        hit = []
        while i >= 0 and gaps[i][0] + gaps[i][1] >= lo:
            hit.append(gaps[i])
            i -= 1
        matched += bool(hit)
        named += any(cls in g[2] for g in hit)
    return named, matched


def sec_lean(b, t, reps, hz):
    """sec_lean - issue 29: --probes lean against full, per interruption. BPF run time per tick
    and per injected IPI on the measured CPU (bpf_stats, --probe-cost runs), with the
    statistics' own share (the same runs with every program paused); the paired IPI and tick
    rows of full and lean against --no-probes; lean's injected IPIs, preemptions, IRQs and
    softirqs named by class"""
    P = b.P
    inj = ('ipi', ['--period', str(P['obs_period_us']), '--count', '1'])
    stats = {}
    for i in range(P['lean_stats_runs']):
        for ps in (('full', 'lean') if i % 2 == 0 else ('lean', 'full')):
            for paused in (False, 'hold'):
                r = b.js('lean-stats-%s%s' % (ps, '-paused' if paused else ''),
                         P['stats_secs'], extra=['--probe-cost', '--probes', ps], inject=inj,
                         gaps=False, pause=paused,
                         progstats=lambda i_, a_, z_: IrqProgStats(i_, a_, z_, b.cpu))
                if r.progstats and r.progstats[0]:
                    stats.setdefault((ps, bool(paused)), []).append(
                        per_interruption(*r.progstats, SET_PROGS[ps]))
    fig = {}
    for (ps, paused), xs in stats.items():
        for what in ('tick', 'ipi', 'tick_runs', 'ipi_runs'):
            fig[(ps, paused, what)] = med([x[what] for x in xs if x[what] is not None])
    for what, label in (('tick', 'tick'), ('ipi', 'injected IPI')):
        full, lean = fig.get(('full', False, what)), fig.get(('lean', False, what))
        r = ratio(lean, full)
        # per IPI a reported row: a program that only returns is most of it (OBSERVER.md)
        judged = what == 'tick'
        t.add('lean: BPF time per %s on the measured CPU, lean vs full (bpf_stats)' % label,
              fmt(lean, ' ns', 0), fmt(full, ' ns', 0), fmt_ratio(r),
              '<= %gx' % P['lean_target'] if judged else 'report',
              check(r, '<=', P['lean_target']) if judged else 'INFO')
        fp, lp = fig.get(('full', True, what)), fig.get(('lean', True, what))
        t.add('lean: ... of which bpf_stats and program entry (every program paused)',
              fmt(lp, ' ns', 0), fmt(fp, ' ns', 0), fmt_ratio(ratio(lp, fp)), 'report',
              'INFO')
        ln = lean - lp if lean is not None and lp is not None else None
        fn = full - fp if full is not None and fp is not None else None
        t.add('lean: ... the programs\' own work (running less paused)',
              fmt(ln, ' ns', 0), fmt(fn, ' ns', 0), fmt_ratio(ratio(ln, fn)), 'report', 'INFO')
        fr, lr = fig.get(('full', False, what + '_runs')), fig.get(('lean', False, what + '_runs'))
        t.add('lean: ... per %s as the programs\' mean runs (a lower bound)' % label,
              fmt(lr, ' ns', 0), fmt(fr, ' ns', 0), fmt_ratio(ratio(lr, fr)), 'report', 'INFO')
    t.details.append(('Probe sets, BPF time per interruption on the measured CPU (bpf_stats '
                      'of runs with injected IPIs and --probe-cost, medians of %d runs each; '
                      'the housekeeping CPU\'s filtered runs of the same programs included)'
                      % P['lean_stats_runs'],
                      ('probe set', 'programs', 'per tick ns', 'per IPI ns',
                       'paused: per tick ns', 'paused: per IPI ns'),
                      [(ps, '+'.join(SET_PROGS[ps]['tick'] + SET_PROGS[ps]['ipi']),
                        fmt(fig.get((ps, False, 'tick')), '', 0),
                        fmt(fig.get((ps, False, 'ipi')), '', 0),
                        fmt(fig.get((ps, True, 'tick')), '', 0),
                        fmt(fig.get((ps, True, 'ipi')), '', 0)) for ps in ('full', 'lean')]))
    # paired: full, lean and --no-probes next to each other, the order turning
    sets = ('full', 'lean', 'off')
    runs = {k: [] for k in sets}
    for i in range(P['obs_pairs']):
        for k in sets[i % 3:] + sets[:i % 3]:
            extra = ['--no-probes'] if k == 'off' else ['--probes', k]
            runs[k].append(b.js('lean-pair-' + k, P['obs_secs'], extra=extra, inject=inj,
                                causes=k != 'off'))
    meds = {}
    for k in sets:
        meds[k] = []
        for r in runs[k]:
            if not r.gaps or not r.inject:
                meds[k].append((None, None))
                continue
            got = ipi_gaps(r)
            ticks = tick_gaps(r.gaps, set(got), hz)
            meds[k].append((med([g[1] for g in got]), med([g[1] for g in ticks])))
    d = dirty(runs['full'] + runs['lean'] + runs['off'])
    for k in ('full', 'lean'):
        prs = [ratio(a[0], z[0]) for a, z in zip(meds[k], meds['off'])]
        prs = [x for x in prs if x is not None]
        dfs = [(a[1] - z[1]) / 1e3 for a, z in zip(meds[k], meds['off'])
               if a[1] is not None and z[1] is not None]
        ci, cd = med_interval(prs), med_interval(dfs)
        on = med([x[0] for x in meds[k]])
        off = med([x[0] for x in meds['off']])
        t.add('lean: injected-IPI gap median, %s vs --no-probes (paired)' % k,
              fmt(on and on / 1e3, ' us', 2), fmt(off and off / 1e3, ' us', 2),
              fmt_ratio(med(prs)) + (' (%s-%s)' % (fmt_ratio(ci[0]), fmt_ratio(ci[1]))
                                     if ci else ''), 'report', 'INFO', d)
        on = med([x[1] for x in meds[k]])
        off = med([x[1] for x in meds['off']])
        t.add('lean: tick gap median (%d ms phase), %s vs --no-probes (paired)'
              % (1000 // hz, k), fmt(on and on / 1e3, ' us', 2), fmt(off and off / 1e3, ' us', 2),
              ('%+.2f us' % med(dfs) if dfs else '-') +
              (' (%+.2f to %+.2f)' % cd if cd else ''), 'report', 'INFO', d)
    # named by class: the paired runs' injected IPIs, and lean's other injectors
    rows = []
    named = {}
    for k in ('full', 'lean'):
        n = m = 0
        for r in runs[k]:
            if getattr(r, 'causes', None) and r.inject:
                a, z = named_by_class(window_actions(r), r.causes, 'ipi', 0,
                                      P['lean_before_us'] * 1000)
                n, m = n + a, m + z
        named[(k, 'ipi')] = (n, m)
    for mode, cls, args, late in LEAN_NAMED[1:]:
        r = b.js('lean-named-' + mode, P['lean_named_secs'], extra=['--probes', 'lean'],
                 inject=(mode, args), causes=True)
        n = m = 0
        if getattr(r, 'causes', None) and r.inject:
            n, m = named_by_class(window_actions(r), r.causes, cls,
                                  P['lean_after_ms'] * 1_000_000 if late else 0,
                                  P['lean_before_us'] * 1000)
        named[('lean', mode)] = (n, m)
    for mode, cls, _, _ in LEAN_NAMED:
        n, m = named[('lean', mode)]
        pct = 100.0 * n / m if m else None
        t.add('lean: injected %s named %s by class' % (mode, cls), fmt(pct, ' %', 2),
              '%d of %d' % (n, m), '-', '%d %%' % P['lean_named_pct'],
              check(pct, '>=', P['lean_named_pct']))
        fn, fm = named.get(('full', mode), (None, None))
        rows.append((mode, cls, '%d of %d' % (n, m),
                     '%d of %d' % (fn, fm) if fm is not None else '-'))
    t.details.append(('Probe sets, injected interruptions named by class (a gap over the '
                      'action holds the class among its causes)',
                      ('injected', 'class', 'lean', 'full'), rows))


def window_medians(gaps, t0, win_ns, min_n):
    """window_medians - the median duration of the gaps (start, duration, ...) in each window
    of win_ns from t0, in time order; windows with fewer than min_n gaps left out"""
    by = {}
    for g in gaps:
        if g[0] >= t0:
            by.setdefault((g[0] - t0) // win_ns, []).append(g[1])
    return [statistics.median(by[k]) for k in sorted(by) if len(by[k]) >= min_n]


def spread(xs):
    """spread - the largest of xs over the smallest (None with fewer than two, or a zero)"""
    xs = [x for x in xs if x is not None]
    return max(xs) / min(xs) if len(xs) >= 2 and min(xs) > 0 else None


def host_drift(t, off, res_off, P):
    """host_drift - what the host alone moves the injected IPI's gap by: the --no-probes runs'
    medians from run to run, and within each run from one window to the next (reported)"""
    meds = [x[0] for x in res_off if x[0] is not None]
    within = []
    for r in off:
        if not r.gaps or not r.inject:
            continue
        got = ipi_gaps(r)
        c = js_cpu(r)
        t0 = c['start_ns'] + WINDOW_MARGIN_NS if c else min((g[0] for g in got), default=0)
        within.append(spread(window_medians(got, t0, P['drift_win_ms'] * 1_000_000,
                                            P['drift_min_n'])))
    within = [x for x in within if x is not None]
    d = dirty(off)
    t.add('observer: host alone, IPI gap median, slowest vs fastest --no-probes run',
          fmt(max(meds) / 1e3 if meds else None, ' us', 2),
          fmt(min(meds) / 1e3 if meds else None, ' us', 2),
          fmt_ratio(spread(meds)), 'report', 'INFO', d)
    t.add('observer: host alone, IPI gap median, slowest vs fastest %g s within a --no-probes '
          'run' % (P['drift_win_ms'] / 1000), '-', '-',
          fmt_ratio(med(within)), 'report', 'INFO', d)
    if within:
        t.notes.append('observer: within each --no-probes run, the slowest %g s over the fastest: '
                       '%s' % (P['drift_win_ms'] / 1000, ', '.join(fmt_ratio(x) for x in within)))


def prog_where(name):
    """prog_where - where and for what a program runs, for the per-program table"""
    if name in IPI_PROGS:
        return 'measured CPU, each call-function IPI'
    if name in TICK_PROGS:
        return 'measured CPU, each tick'
    if name in SEND_PROGS:
        return 'sending CPU, each IPI sent'
    return '-'


def prog_rows(ps):
    """prog_rows - every program that ran, most total time first: (name, where, calls,
    ns/call, ms total)"""
    top = sorted(ps.items(), key=lambda kv: -kv[1][0] * kv[1][1])
    return [(k, prog_where(k), c, fmt(ns, '', 0), fmt(c * ns / 1e6, '', 2)) for k, (c, ns) in top]


def within_series(b, inj, hz, reps, name, kw, state_of, what):
    """within_series - reps runs b.js(name, ..., **kw) whose gaps state_of(run) sorts: a
    function of a gap's start, True with the observer, False without, None near a switch (or
    None for a run without its log). what: (with, without, switch) for the notes. Returns
    {ratios, tdiffs, with, without, tick_with, tick_without (the runs' IPI and tick
    medians), runs, notes}"""
    secs = b.P['within_secs']
    out = {'ratios': [], 'tdiffs': [], 'with': [], 'without': [], 'tick_with': [],
           'tick_without': [], 'runs': [], 'notes': []}
    for i in range(reps):
        r = b.js(name, secs, inject=inj, **kw)
        out['runs'].append(r)
        state = state_of(r)
        if not r.gaps or not r.inject or state is None:
            out['notes'].append('run %d not measured (%s)' % (
                i + 1, r.pause_err or 'no gaps, no injector log or no log of the switches'))
            continue
        by, tk = by_state(r, state, hz)
        rr = ratio(med(by[True]), med(by[False]))
        td = (med(tk[True]) - med(tk[False])) / 1e3 if tk[True] and tk[False] else None
        if rr is not None:
            out['ratios'].append(rr)
            out['with'].append(med(by[True]))
            out['without'].append(med(by[False]))
        if td is not None:
            out['tdiffs'].append(td)
            out['tick_with'].append(med(tk[True]))
            out['tick_without'].append(med(tk[False]))
        out['notes'].append('run %d: %d %s, IPI gaps %d %s / %d %s (%s), tick gaps %d / %d (%s)'
                            % (i + 1, len(r.toggles if r.toggles is not None else r.pauses or []), what[2], len(by[True]),
                               what[0], len(by[False]), what[1], fmt_ratio(rr), len(tk[True]),
                               len(tk[False]), '%+.2f us' % td if td is not None else '-'))
    return out


def within_rows(t, w, what, ipi_target, tick_target):
    """within_rows - the IPI row (judged against ipi_target x) and the tick row (against
    tick_target us) of a within_series() w; a target None: reported only"""
    d = dirty(w['runs'])
    rr, td = med(w['ratios']), med(w['tdiffs'])
    t.add('observer: IPI gap median, %s (same run)' % what,
          fmt(med(w['with']) and med(w['with']) / 1e3, ' us', 2),
          fmt(med(w['without']) and med(w['without']) / 1e3, ' us', 2), fmt_ratio(rr),
          '<= %gx' % ipi_target if ipi_target is not None else 'report',
          check(rr, '<=', ipi_target) if ipi_target is not None else 'INFO', d)
    tw, to = med(w['tick_with']), med(w['tick_without'])
    t.add('observer: tick gap median, %s (same run)' % what,
          fmt(tw and tw / 1e3, ' us', 2), fmt(to and to / 1e3, ' us', 2),
          '%+.2f us' % td if td is not None else '-',
          '<= %+g us' % tick_target if tick_target is not None else 'report',
          check(td, '<=', tick_target) if tick_target is not None else 'INFO', d)


def within_run(b, t, inj, hz, reps):
    """within_run - runs whose probes are paused and resumed at random (PAUSE_S):
    injected-IPI and tick gaps while the programs run vs while they return at once. The
    tracepoints stay attached in both states, so this is the programs' own cost (and what
    they leave behind in caches and TLBs); within_attach adds the dispatch. The figure is
    the median of the runs' ratios, which are returned"""
    def running(r):
        if not r.pauses:
            return None

        def state(t):
            paused = PauseToggler.state(r.pauses, t)
            return None if paused is None else not paused
        return state

    what = ('running', 'paused', 'switches')
    w = within_series(b, inj, hz, reps, 'observer-pause', {'pause': True}, running, what)
    within_rows(t, w, 'probes running vs paused', 1.05, None)
    t.notes.append('observer (within runs of %d s, probes paused at random)%s: %s' % (
        b.P['within_secs'], ' (runs %s)' % ', '.join(fmt_ratio(x) for x in w['ratios'])
        if len(w['ratios']) > 1 else '', '; '.join(w['notes'])))
    return w['ratios']


def by_state(r, state, hz):
    """by_state - the durations of run r's injected-IPI gaps and tick gaps by state(start) (a
    gap whose state is None is left out): ({state: [ns]}, {state: [ns]})"""
    got = ipi_gaps(r)
    by, tk = {}, {}
    for out, gs in ((by, got), (tk, tick_gaps(r.gaps, set(got), hz))):
        for g in gs:
            st = state(g[0])
            if st is not None:
                out.setdefault(st, []).append(g[1])
    return ({k: by.get(k, []) for k in (True, False)}, {k: tk.get(k, []) for k in (True, False)})


def within_attach(b, t, inj, hz, reps):
    """within_attach - runs whose probes the tool detaches and attaches again at random
    (--probe-toggle): injected-IPI and tick gaps with the whole observer (dispatch included)
    vs none, under the same noise; then one such run with every program paused throughout
    (what attached tracepoints cost with programs that return at once). The figures are the
    medians of the runs' ratios and differences"""
    def attached(r):
        if not r.toggles:
            return None
        # the paused run: from the pause on (its hook pauses about 0.5 s after the start)
        since = r.pauses[0][0] + PAUSE_GUARD_NS if r.pauses else 0
        return lambda t: toggle_state(r.toggles, t) if t >= since else None

    what = ('attached', 'detached', 'changes')
    w = within_series(b, inj, hz, reps, 'observer-toggle', {'toggle': True}, attached, what)
    # the tick: reported (issue 29 judges the probes per tick in BPF time: sec_lean)
    within_rows(t, w, 'probes attached vs detached', 1.05, None)
    wp = within_series(b, inj, hz, 1, 'observer-toggle-paused',
                       {'toggle': True, 'pause': 'hold'},
                       lambda r: attached(r) if r.pauses else None, what)
    within_rows(t, wp, 'attached, every program paused, vs detached', None, None)
    t.notes.append('observer (within runs of %d s, probes detached and attached again at '
                   'random)%s: %s; every program paused: %s' % (
                       b.P['within_secs'], ' (runs %s)' % ', '.join(
                           fmt_ratio(x) for x in w['ratios']) if len(w['ratios']) > 1 else '',
                       '; '.join(w['notes']), '; '.join(wp['notes'])))


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
                     fmt(faults / inj_dur / 1e3), fmt(ev_s / 1e3), pr['lost'], c['dropped'],
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
                      'gaps over the faults the injectors\' rusage counted)'
                      % (period / 1000, secs, b.cpu),
                      ('injectors x pages', 'asked faults k/s', 'injected k/s', 'events k/s',
                       'lost', 'dropped', 'named', 'housekeeping CPU', 'CPU %d lost' % b.cpu),
                      rows))
    return runs


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


def redis_rates(run):
    """redis_rates - (events/s, evicted/s, ring records lost, own bottom halves/s) of a
    watched redis run, from jitterscope's JSON over its followed main thread's window"""
    j = run.json or {}
    th = [c for c in j.get('threads') or [] if c.get('duration_ns')]
    dur = max((c['duration_ns'] for c in th), default=0) / 1e9
    if not dur:
        return None, None, None, None
    pr = j.get('probes') or {}
    own = sum((c.get('thread_stats') or {}).get('own_bh', 0) for c in th)
    return (pr.get('events', 0) / dur, pr.get('evicted', 0) / dur,
            (j.get('follow') or {}).get('lost', 0), own / dur)


def sec_redis(b, t, reps):
    """sec_redis - what following a real server costs it: redis-server on the measured CPU,
    redis-benchmark elsewhere, alone and followed by jitterscope --pid, alternating"""
    P = b.P
    tp_t, p99_t = P['redis_tp_target'], P['redis_p99_target']
    if not REDIS_SERVER or not REDIS_BENCH or not shutil.which('redis-cli'):
        t.add('redis: redis-benchmark throughput, --pid / alone (redis-server, redis-tools '
              'not installed: scripts/install-deps.sh)', '-', '-', '-', '>= %gx' % tp_t, 'n/a')
        return []
    runs, side = [], {True: [], False: [], 'marks': [], 'feed': [], 'alone-feed': []}
    # alone, followed, followed with --marks fed by nothing, and fed by bench/markfeed.py
    # (against the server alone beside the same feeder): rotated so each comes first
    order = (False, True, 'marks', 'feed', 'alone-feed')
    feed, n = P['redis_feed'], len(order)
    for i in range(P['redis_pairs']):
        for mode in order[i % n:] + order[:i % n]:
            name = {False: 'alone', True: 'watched'}.get(mode, mode)
            watched = mode in (True, 'marks', 'feed')
            r = b.redis('redis-%s' % name, watched, marks=mode in ('marks', 'feed'),
                        feed=feed if mode in ('feed', 'alone-feed') else 0)
            runs.append(r)
            if r.rc == 0 and r.bench and (not watched or r.json):
                side[mode].append(r)
    d = dirty(runs)

    def m(w, key):
        return med([r.bench[key] for r in side[w]]) if side[w] else None
    # each pair's ratio, then their median (the host drifts between pairs)
    pairs = list(zip(side[True], side[False]))
    rps = ratio(m(True, 'rps'), m(False, 'rps'))
    t.add('redis: redis-benchmark GET throughput, --pid following / alone',
          fmt(m(True, 'rps') and m(True, 'rps') / 1e3, ' k/s'),
          fmt(m(False, 'rps') and m(False, 'rps') / 1e3, ' k/s'), fmt_ratio(rps),
          '>= %gx' % tp_t, check(rps, '>=', tp_t), d)
    for q, target in (('p50', None), ('p99', p99_t)):
        k = '%s_latency_ms' % q
        rat = ratio(m(True, k), m(False, k))
        t.add('redis: redis-benchmark GET latency %s, --pid following / alone' % q,
              fmt(m(True, k), ' ms', 3), fmt(m(False, k), ' ms', 3), fmt_ratio(rat),
              '<= %gx' % target if target else 'report',
              check(rat, '<=', target) if target else 'INFO', d)
    for q, target in (('rps', tp_t), ('p99_latency_ms', p99_t)):
        rat = ratio(m('marks', q), m(False, q))
        scale, unit, nd = (1e3, ' k/s', 1) if q == 'rps' else (1, ' ms', 3)
        t.add('redis: redis-benchmark GET %s, --pid --marks (fed by nothing) / alone'
              % ('throughput' if q == 'rps' else 'latency p99'),
              fmt(m('marks', q) and m('marks', q) / scale, unit, nd),
              fmt(m(False, q) and m(False, q) / scale, unit, nd), fmt_ratio(rat),
              ('>= %gx' if q == 'rps' else '<= %gx') % target,
              check(rat, '>=' if q == 'rps' else '<=', target), d)
    for q in ('rps', 'p99_latency_ms'):
        rat = ratio(m('feed', q), m('alone-feed', q))
        scale, unit, nd = (1e3, ' k/s', 1) if q == 'rps' else (1, ' ms', 3)
        t.add('redis: redis-benchmark GET %s, --pid --marks fed %dk marks/s / alone, the '
              'same feeder' % ('throughput' if q == 'rps' else 'latency p99', feed // 1000),
              fmt(m('feed', q) and m('feed', q) / scale, unit, nd),
              fmt(m('alone-feed', q) and m('alone-feed', q) / scale, unit, nd),
              fmt_ratio(rat), 'report', 'INFO', d)
    if (os.cpu_count() or 1) < 3:
        t.add('redis: --pid with the spinner on another CPU', '-', '-', '-', 'report',
              'n/a (%d CPUs: the server, the load and the spinner need three)'
              % (os.cpu_count() or 1), d)
    rates = [redis_rates(r) for r in side[True]]
    ev = med([x[0] for x in rates if x[0] is not None]) if rates else None
    evi = max((x[1] for x in rates if x[1] is not None), default=None)
    lost = max((x[2] for x in rates if x[2] is not None), default=None)
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
    t.add('redis: events evicted before their gap, per second (worst run)',
          fmt(evi, '/s', 0), '-', '-', '== 0', check(evi, '==', 0), d)
    t.add('redis: follow records lost (worst run)', '-' if lost is None else str(lost), '-',
          '-', '== 0', check(lost, '==', 0), d)
    rows = []
    for mode in (False, 'alone-feed', True, 'marks', 'feed'):
        for r in side[mode]:
            watched = mode not in (False, 'alone-feed')
            e = redis_rates(r) if watched else (None,) * 4
            th = ((r.json or {}).get('threads') or [{}])[0] if watched else {}
            rows.append(({False: 'alone', True: 'following',
                          'alone-feed': 'alone, marks fed %dk/s' % (feed // 1000),
                          'marks': 'following, --marks',
                          'feed': 'following, --marks fed %dk/s' % (feed // 1000)}[mode],
                         fmt(r.bench['rps'] / 1e3, '', 1),
                         fmt(r.bench.get('p50_latency_ms'), '', 3),
                         fmt(r.bench.get('p99_latency_ms'), '', 3),
                         fmt(e[0] and e[0] / 1e3, '', 1), fmt(e[1], '', 0),
                         '-' if e[2] is None else e[2], fmt(e[3], '', 0),
                         fmt(th.get('lost_pct'), ' %', 2) if watched else '-',
                         fmt(r.js_cpu_s, ' s', 2) if watched else '-'))
    t.details.append(('redis-server on CPU %d, redis-benchmark -t get -n %d -c %d on the other '
                      'CPUs, alone and followed by `%s`' % (b.cpu, P['redis_n'],
                                                            P['redis_clients'], P['redis_js']),
                      ('run', 'k req/s', 'p50 ms', 'p99 ms', 'events k/s', 'evicted/s',
                       'records lost', 'own bottom halves/s', 'main thread time lost',
                       'jitterscope CPU'), rows))
    if pairs:
        t.notes.append('redis: per-pair throughput ratios (following / alone): %s' %
                       ', '.join(fmt_ratio(ratio(w.bench['rps'], a.bench['rps']))
                                 for w, a in pairs))
    return runs


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
    # the issue's budget: at 16k gaps/s (a timer every 60 us), at most 2 % of a core; the
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


def scale_params(a):
    """scale_params - the scale section's parameters (bench/jsscale.c runs with these; the
    method text names them)"""
    return {'scale_cpus': '1, 4, 16, 64, 128', 'scale_tuned': 1000, 'scale_untuned': 16000,
            'scale_tuned_secs': 2 if a.quick else 5, 'scale_untuned_secs': 1 if a.quick else 2,
            'scale_reps': 1 if a.quick else 5, 'scale_flat': 1.5, 'scale_linear': 1.1}


def scale_run(n, rate, secs, seed):
    """scale_run - one run of the driver: its JSON line as a dict, None when it failed"""
    p = subprocess.run([SCALE, '--cpus', str(n), '--rate', str(rate), '--seconds', str(secs),
                        '--seed', str(seed), '--durations', SCALE_DURATIONS],
                       capture_output=True, text=True)
    if p.returncode != 0:
        log('bench: jsscale --cpus %d --rate %d failed (%d): %s' %
            (n, rate, p.returncode, p.stderr.strip()[:200]))
        return None
    return json.loads(p.stdout)


def sec_scale(b, t):
    """sec_scale - housekeeping for many measured CPUs, simulated (bench/jsscale.c): the drain,
    attribution and models fed by N CPUs' gap and event rings at a tuned and an untuned gap
    rate. Per gap: flat from 1 to 128 CPUs; one thread keeps up or not; memory per CPU"""
    P = b.P
    cpus = [int(x) for x in P['scale_cpus'].split(',')]
    rows, res, got = [], {}, {}
    streams = ((P['scale_tuned'], P['scale_tuned_secs'], 'tuned'),
               (P['scale_untuned'], P['scale_untuned_secs'], 'untuned'))
    # the repetitions go round every N in turn: the host's minute weighs on each N alike
    for k in range(P['scale_reps']):
        for rate, secs, what in streams:
            for n in cpus:
                got.setdefault((rate, n), []).append(scale_run(n, rate, secs, 1 + k))
    for rate, secs, what in streams:
        for n in cpus:
            rs = [r for r in got.get((rate, n), []) if r]
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
            res[(rate, n)] = r
            rows.append((what, n, rate, r['gaps'], fmt(r['hk_ns_per_gap'], '', 0),
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
                      ('stream', 'CPUs', 'gaps/s per CPU', 'gaps', 'housekeeping ns/gap',
                       '% of a core', 'slowest drain ms', 'mean nap ms', 'within the nap',
                       'lost', 'heap MiB/CPU', 'rings MiB/CPU'), rows))


# ---------------------------------------------------------------------------------------------
# machine, document

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
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
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
    """run_bench - the sections, the table on stdout, the document"""
    only = args.only.split(',')
    tree0 = doc.git_tree(ROOT)
    log('bench: CPU %d, %d repetitions, scratch %s' % (args.cpu, args.reps, b.tmp))
    base = []
    steps = [('floor', lambda: sec_floor(b, t, args.reps)),
             ('agree', lambda: sec_agree(b, t, args.reps)),
             ('observer', lambda: sec_observer(b, t, args.reps, m['hz'])),
             ('lean', lambda: sec_lean(b, t, args.reps, m['hz'])),
             ('ipis', lambda: sec_ipis(b, t)),
             ('throughput', lambda: sec_throughput(b, t, args.reps)),
             ('app', lambda: sec_app(b, t, args.reps)),
             ('redis', lambda: sec_redis(b, t, args.reps))]
    for name, fn in steps:
        if name not in only:
            continue
        log('bench: %s (%.0f s so far)' % (name, time.monotonic() - t0))
        try:
            res = fn()
        except Exception:   # one broken section must not lose the others' minutes
            log(traceback.format_exc())
            t.add('%s: the harness failed (see stderr)' % name, '-', '-', '-', '-', 'ERROR')
            continue
        if name == 'floor':
            base = res[0]
    if 'scale' in only:
        log('bench: scale (%.0f s so far)' % (time.monotonic() - t0))
        try:
            sec_scale(b, t)
        except Exception:
            log(traceback.format_exc())
            t.add('scale: the harness failed (see stderr)', '-', '-', '-', '-', 'ERROR')
    if 'scaling' in only:
        log('bench: scaling (%.0f s so far)' % (time.monotonic() - t0))
        if not base:
            base = [b.js('floor-js', b.P['floor_secs'])]
        try:
            sec_scaling(b, t, base, [r for r in b.runs if r.cmd[0] == JS])
        except Exception:
            log(traceback.format_exc())
            t.add('scaling: the harness failed (see stderr)', '-', '-', '-', '-', 'ERROR')
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
