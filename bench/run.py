#!/usr/bin/env python3
"""bench/run.py - jitterscope benchmarks, against oslat and against itself.

Every figure is a ratio of two things measured in the same run of this script, on the same
CPU, alternating, because the machines are shared and noisy (see docs/BENCHMARKS.md, which
this script rewrites with the last results). Root only.

  bench/run.py [--cpu 1] [--reps 3] [--quick] [--out docs/BENCHMARKS.md | --no-write]
               [--only floor,agree,observer,ipis,throughput,scaling] [--keep DIR]
"""

import argparse
import csv
import datetime
import gzip
import json
import os
import pickle
import platform
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JS = os.path.join(ROOT, 'build', 'jitterscope')
INJ = os.path.join(ROOT, 'build', 'tools', 'jsinject')
OSLAT = shutil.which('oslat')
# processes that load CPU 1 or send it interference: another one running means contamination
FOREIGN = ('jitterscope', 'oslat', 'jsinject', 'cyclictest', 'hackbench', 'stress-ng', 'stress')
SECTIONS = ('floor', 'agree', 'observer', 'ipis', 'throughput', 'scaling')
IPI_KEYS = ('CAL', 'RES', 'IWI', 'TLB')
# probes that run on the measured CPU for each call-function IPI, and for each tick
IPI_PROGS = ('call_function_single_entry', 'call_function_single_exit')
TICK_PROGS = ('local_timer_entry', 'local_timer_exit', 'hrtimer_expire_entry',
              'hrtimer_expire_exit')
MIB = 1024 * 1024
CLK_TCK = os.sysconf('SC_CLK_TCK')


def mono():
    """mono - CLOCK_MONOTONIC in ns (the clock of jitterscope's and jsinject's timestamps)"""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def med(xs):
    """med - median of the values that exist, None when there are none"""
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


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

    def found(self, share=0.2):
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


def kernel_hz():
    """kernel_hz - CONFIG_HZ from /proc/config.gz, 250 when unknown"""
    try:
        with gzip.open('/proc/config.gz', 'rt') as f:
            for line in f:
                if line.startswith('CONFIG_HZ='):
                    return int(line.split('=')[1])
    except OSError:
        pass
    return 250


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
                time.sleep(0.005)
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
    """parse_kv - jsinject's key=value summary"""
    out = {}
    for line in text.splitlines():
        if '=' in line:
            k, v = line.split('=', 1)
            out[k.strip()] = v.strip()
    return out


def read_inject_log(path):
    """read_inject_log - [(start_ns, end_ns)] of jsinject's CSV log"""
    out = []
    try:
        with open(path) as f:
            for row in csv.DictReader(f):
                out.append((int(row['start_ns']), int(row['end_ns'])))
    except OSError:
        pass
    return out


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

    def _run(self):
        time.sleep(0.1)     # the measuring thread is seen up to 0.1 s before it measures
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
        self.actions = read_inject_log(self.logpath)
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


def bpf_map_ids(pid):
    """bpf_map_ids - ids of the BPF maps a process holds open (from fdinfo)"""
    return fdinfo_ids(pid, 'map_id')


class PauseToggler(OnStart):
    """PauseToggler - on_start hook: pause and resume the probes' programs (their .data.pause
    map, written with bpftool) at random 0.3-0.8 s intervals, logging when (CLOCK_MONOTONIC):
    the same run, the same noise, measured with the probes' bodies running and paused"""

    def __init__(self, inj, secs):
        self.inj, self.secs = inj, secs
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
            time.sleep(0.5)
            mid = self._find(pid)
            if mid is None:
                self.err = 'no .data.pause map in the tool'
                return
            paused = False
            end = time.monotonic() + self.secs - 1.2
            while time.monotonic() < end:
                paused = not paused
                self._set(mid, paused)
                self.log.append((mono(), paused))
                time.sleep(rnd.uniform(0.3, 0.8))
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
    def state(log, t, guard=20_000_000):
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
        for attempt in range(3):
            self._pre()
            run = once()
            if not run.foreign or self.retry_left < secs + 1 or attempt == 2:
                break
            self.retry_left -= secs + 1
            log('  %s: measured again, other work ran: %s' %
                (name, ', '.join(sorted(run.foreign))[:100]))
        self.runs.append(run)
        return run

    def js(self, name, secs, extra=(), inject=None, tasks=True, irqs=False, gaps=True,
           interval=0.1, progstats=False, pause=False):
        """js - one jitterscope run (JSON and optionally gaps CSV), with an optional injector"""
        def once():
            jpath, gpath = self.path(name, 'json'), self.path(name, 'csv')
            cmd = [JS, '--cpu', str(self.cpu), '--duration', '%gs' % secs, '--json', jpath, '-q']
            cmd += (['--gaps', gpath] if gaps else []) + list(extra)
            for _ in range(2):
                run = Run(name, cmd)
                inj = self._injector(inject, secs, name)
                ps = ProgStats(inj, 0.8, secs - 0.8) if progstats else None
                pt = PauseToggler(inj, secs) if pause else None
                hook = ps.start if ps else pt.start if pt else (inj.start if inj else None)
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
                if gaps:
                    run.gaps = load_gaps(gpath, self.cpu)
                    run.sent = load_sent(gpath, self.cpu)
            for p in (jpath, gpath):
                if not self.a.keep and os.path.exists(p):
                    os.unlink(p)
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
            spawn_watch(run, self.cpu, 0.1, True, False, inj.start if inj else None,
                        nth_pinned=2, timeout=secs + 30)
            run.inject = inj.finish() if inj else None
            if run.rc == 0:
                with open(jpath) as f:
                    run.json = json.load(f)
            return run
        return self._attempts(name, secs + 1, once)

    def busy(self, name, secs):
        """busy - a plain busy loop pinned to the CPU (no syscalls), observed like the tools"""
        def once():
            code = ('import os,time\nos.sched_setaffinity(0,[%d])\ne=time.monotonic()+%f\n'
                    'while time.monotonic()<e: pass\n' % (self.cpu, secs))
            run = Run(name, [sys.executable, '-c', code])
            spawn_watch(run, self.cpu, 0.1, True, True, timeout=secs + 30)
            return run
        return self._attempts(name, secs, once)

    def _injector(self, inject, secs, name):
        """_injector - one jsinject (mode, args), or several in parallel (a list of them)"""
        if not inject:
            return None
        if isinstance(inject, tuple):
            inject = [inject]
        # from 0.1 s after the tool's measuring thread is seen (polled every 0.1 s) to about
        # 0.3 s before it stops
        injs = [Injector(self.cpu, mode, max(0.5, secs - 0.6), self.path(name + '-inj', 'csv'),
                         list(extra)) for mode, extra in inject]
        return injs[0] if len(injs) == 1 else Injectors(injs)


def load_sent(path, cpu):
    """load_sent - [(gap start_ns, sender tid, cause)] of the IPI/TLB causes whose sender is a
    jitterscope thread, from the causes column of a --gaps CSV"""
    out = []
    try:
        with open(path, newline='') as f:
            r = csv.reader(f)
            next(r, None)
            for row in r:
                if len(row) < 6 or row[0] != str(cpu) or ' from jitterscope:' not in row[5]:
                    continue
                for m in re.finditer(r'(?:^|;)((?:ipi|vector|tlb):[^;=]* from jitterscope:(\d+))=',
                                     row[5]):
                    out.append((int(row[1]), int(m.group(2)), m.group(1), row[5][:160]))
    except OSError:
        pass
    return out


def load_gaps(path, cpu):
    """load_gaps - sorted [(start_ns, duration_ns, cause)] of one CPU from a --gaps CSV"""
    out = []
    try:
        with open(path, newline='') as f:
            r = csv.reader(f)
            next(r, None)
            for row in r:
                if row and row[0] == str(cpu):
                    out.append((int(row[1]), int(row[2]), row[3]))
    except OSError:
        return None
    out.sort()
    return out


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


def window(run, margin_ns=100_000_000):
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


def tick_gaps(gaps, exclude, hz):
    """tick_gaps - the gaps starting at the tick's phase (found from the gaps themselves)"""
    period = 1_000_000_000 // hz
    binw = 5_000
    nb = period // binw
    cand = [g for g in gaps if 3_000 <= g[1] <= 300_000 and g not in exclude]
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
        if -15_000 <= off <= 15_000:
            out.append(g)
    return out


# ---------------------------------------------------------------------------------------------
# the table

class Table:
    """Table - rows of metric, jitterscope, baseline, ratio, target, verdict (+ footnotes)"""

    def __init__(self):
        self.rows = []
        self.details = []   # (title, header, rows) sub-tables for the document
        self.notes = []

    def add(self, metric, js, base, rat, target, verdict, contaminated=False):
        if contaminated and verdict in ('PASS', 'FAIL'):
            verdict += '*'
        self.rows.append((metric, js, base, rat, target, verdict))

    def text(self):
        hdr = ('metric', 'jitterscope', 'baseline', 'ratio', 'target', 'verdict')
        rows = [hdr] + [tuple(str(c) for c in r) for r in self.rows]
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

    def markdown(self):
        out = ['| metric | jitterscope | baseline | ratio | target | verdict |',
               '|---|---|---|---|---|---|']
        for r in self.rows:
            out.append('| ' + ' | '.join(str(c).replace('|', '/') for c in r) + ' |')
        return '\n'.join(out)


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
    """sec_floor - loop period of jitterscope vs oslat's, alternating, same CPU"""
    js, os_ = [], []
    secs = 2 if b.a.quick else 3
    for i in range(reps):
        order = ('js', 'os') if i % 2 == 0 else ('os', 'js')
        for who in order:
            if who == 'js':
                js.append(b.js('floor-js', secs))
            elif OSLAT:
                os_.append(b.oslat('floor-oslat', secs))
    cs = [js_cpu(r) for r in js if js_cpu(r)]
    o_raw = med([ot[1] * 1e9 / ot[0] for ot in (oslat_thread(r) for r in os_) if ot])
    o_busy = med([oslat_busy_period(r) for r in os_])
    j_min = med([c['loop_ns_min'] for c in cs])
    j_med = med([c['loop_ns_median'] for c in cs])
    j_mean = med([c['loop_ns_mean'] for c in cs])
    j_raw = med([c['duration_ns'] / c['iterations'] for c in cs])
    d = dirty(js + os_)
    for name, v, base in (('floor: loop period min (calibration) vs oslat ns/loop', j_min, o_raw),
                          ('floor: loop period median (calibration) vs oslat', j_med, o_raw),
                          ('floor: loop period mean, lost time excluded (both)', j_mean, o_busy),
                          ('floor: wall time / loops, lost time included (both)', j_raw, o_raw)):
        r = ratio(v, base)
        # wall / loops moves with each run's lost time: shown, not judged
        judged = 'included' not in name
        t.add(name, fmt(v, ' ns'), fmt(base, ' ns'), fmt_ratio(r),
              '<= 0.70x' if judged else 'report', check(r, '<=', 0.7) if judged else 'INFO', d)
    t.details.append(('Detection floor, per run', ('tool', 'min ns', 'median ns', 'mean ns',
                                                    'wall/loops ns', 'lost %'),
                      [('jitterscope', fmt(c['loop_ns_min']), fmt(c['loop_ns_median']),
                        fmt(c['loop_ns_mean']), fmt(c['duration_ns'] / c['iterations']),
                        fmt(c['lost_pct'], '', 2)) for c in cs] +
                      [('oslat', '-', '-', fmt(oslat_busy_period(r)),
                        fmt(oslat_thread(r)[1] * 1e9 / oslat_thread(r)[0]), '-')
                       for r in os_ if oslat_thread(r)]))
    return js, os_


def band_count_js(run, lo_ns, hi_ns):
    """band_count_js - jitterscope gaps with lo <= duration < hi"""
    return sum(1 for g in run.gaps or () if lo_ns <= g[1] < hi_ns)


def band_count_oslat(run, lo_us, hi_us):
    """band_count_oslat - oslat loops with lo <= latency < hi (bucket N = [N-1, N) us)"""
    t = oslat_thread(run)
    return sum(c for bkt, c in t[2].items() if lo_us <= bkt - 1 and bkt - 1 < hi_us) if t else None


def sec_agree(b, t, reps):
    """sec_agree - gaps of the injected size seen by both tools vs the injector's count"""
    inj = ('preempt', ['--period', '10000', '--spin', '200'])
    secs = 3 if b.a.quick else 5
    lo, hi = 150, 500   # a 200 us spin makes a gap of ~240 us; preemptions by others, ms
    js, os_ = [], []
    for i in range(reps):
        order = ('js', 'os') if i % 2 == 0 else ('os', 'js')
        for who in order:
            if who == 'js':
                js.append(b.js('agree-js', secs, inject=inj))
            elif OSLAT:
                os_.append(b.oslat('agree-oslat', secs, inject=inj))
    jr, orr, matched, rows = [], [], [], []
    for r in js:
        if not r.gaps or not r.inject or not r.inject.actions:
            continue
        n = band_count_js(r, lo * 1000, hi * 1000)
        acts = len(window_actions(r))
        m = sum(1 for g in match_actions(window_actions(r), r.gaps) if g and g[1] >= lo * 1000)
        jr.append((n, acts))
        matched.append(m / acts)
        rows.append(('jitterscope', acts, n, band_count_js(r, lo * 1000, 10 ** 12), m,
                     fmt(n / acts, '', 3)))
    for r in os_:
        if not r.json or not r.inject or not r.inject.actions:
            continue
        n = band_count_oslat(r, lo, hi)
        acts = len(r.inject.actions)
        orr.append((n, acts))
        rows.append(('oslat', acts, n, band_count_oslat(r, lo, 10 ** 9), '-',
                     fmt(n / acts, '', 3)))
    jq = med([n / a for n, a in jr])
    oq = med([n / a for n, a in orr])
    d = dirty(js + os_)
    band = '%d-%d us' % (lo, hi)
    t.add('agree: jitterscope gaps %s / injected preempts' % band,
          '%s/%s' % (med([n for n, _ in jr]), med([a for _, a in jr])), 'injector',
          fmt_ratio(jq), '1.00x +-0.05', check(abs(jq - 1) if jq else None, '<=', 0.05), d)
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
    t.details.append(('Agreement, per run (jsinject preempt, period 10 ms, spin 200 us)',
                      ('tool', 'actions', 'gaps %s' % band, 'gaps >= %d us' % lo,
                       'matched (>= %d us)' % lo, 'band/actions'), rows))


def sec_observer(b, t, reps, hz):
    """sec_observer - injected IPI gaps and tick gaps, probes on vs --no-probes, in pairs of
    short runs next to each other (the noise changes from minute to minute)"""
    inj = ('ipi', ['--period', '1900', '--count', '1'])
    secs = 2
    on, off = [], []
    # the host's noise moves from run to run: 4 pairs per repetition (the median of 6 pairs
    # ranged 1.02-1.10x between invocations minutes apart)
    for i in range(4 * reps):
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
        m = match_actions(acts, r.gaps)
        got = [g for g in m if g]
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
    i_on, i_off = med([x[0] for x in res_on]), med([x[0] for x in res_off])
    k_on, k_off = med([x[1] for x in res_on]), med([x[1] for x in res_off])
    # pair i: the two runs of iteration i, next to each other in time
    pairs = list(zip(res_on, res_off))
    r = med([ratio(a[0], z[0]) for a, z in pairs])
    diff = med([(a[1] - z[1]) / 1e3 for a, z in pairs if a[1] is not None and z[1] is not None])
    d = dirty(on + off)
    t.add('observer: injected-IPI gap median, on vs off (paired)',
          fmt(i_on and i_on / 1e3, ' us', 2), fmt(i_off and i_off / 1e3, ' us', 2),
          fmt_ratio(r), '<= 1.05x', check(r, '<=', 1.05), d)
    t.add('observer: tick gap median (%d ms phase), on vs off (paired)' % (1000 // hz),
          fmt(k_on and k_on / 1e3, ' us', 2), fmt(k_off and k_off / 1e3, ' us', 2),
          '%+.2f us' % diff if diff is not None else '-', 'report', 'INFO', d)
    within_run(b, t, inj, hz, reps)
    # the per-run table in time order
    rows[:] = [row for pair in zip(rows[:len(on)], rows[len(on):]) for row in pair]
    lost = [r_.json['probes']['lost'] for r_ in on if r_.json]
    # where the probes' time goes: kernel bpf_stats of jitterscope's own programs, one more run
    st_secs = 4
    st = b.js('observer-stats', st_secs, inject=inj, gaps=False, progstats=True)
    ps = st.progstats or {}
    if ps:
        ipi = sum(ps[k][1] for k in IPI_PROGS if k in ps)
        tick = sum(ps[k][1] for k in TICK_PROGS if k in ps)
        t.notes.append('observer: BPF run time per call-function IPI on the measured CPU %.2f us '
                       '(%s), per tick %.2f us (%s), from bpf_stats (which jitterscope turns on '
                       'for every run; the tracepoint dispatch is not included)' %
                       (ipi / 1e3, '+'.join(k for k in IPI_PROGS if k in ps), tick / 1e3,
                        '+'.join(k for k in TICK_PROGS if k in ps)))
        top = sorted(ps.items(), key=lambda kv: -kv[1][0] * kv[1][1])[:14]
        t.details.append(('BPF programs of one probes-on run with injected IPIs (bpf_stats over '
                          '%.1f s, every CPU)' % (st_secs - 1.6), ('program', 'calls', 'ns/call',
                                                                'ms total'),
                          [(k, c, fmt(ns, '', 0), fmt(c * ns / 1e6, '', 2)) for k, (c, ns) in top]))
    t.details.append(('Observer effect, per run, by pairs (jsinject ipi every 1.9 ms; tick gaps: '
                      'start within 15 us of the densest %d ms phase)' % (1000 // hz),
                      ('run', 'IPIs', 'matched', 'IPI gap med us', 'tick gaps', 'tick med us',
                       'tick gaps caused by timer'),
                      rows))
    if any(lost):
        t.notes.append('observer: probes lost events in runs with probes: %s' % lost)
    return on


def within_run(b, t, inj, hz, reps, secs=20):
    """within_run - runs whose probes are paused and resumed at random every 0.3-0.8 s:
    injected-IPI and tick gaps while the programs run vs while they return at once. The
    tracepoints stay attached in both states, so this is the programs' own cost (and what
    they leave behind in caches and TLBs); the paired runs add the rest (dispatch, the sender
    side) under run-to-run noise. The figure is the median of the runs' ratios"""
    ratios, tdiffs, notes, runs = [], [], [], []
    meds = {True: [], False: []}
    for i in range(reps):
        r = b.js('observer-pause', secs, inject=inj, pause=True)
        runs.append(r)
        if not r.gaps or not r.inject or not r.pauses:
            notes.append('run %d not measured (%s)' %
                         (i + 1, r.pause_err or 'no gaps or no injector log'))
            continue
        m = match_actions(window_actions(r), r.gaps)
        got = [g for g in m if g]
        by, tk = {True: [], False: []}, {True: [], False: []}
        for g in got:
            st = PauseToggler.state(r.pauses, g[0])
            if st is not None:
                by[st].append(g[1])
        for g in tick_gaps(r.gaps, set(got), hz):
            st = PauseToggler.state(r.pauses, g[0])
            if st is not None:
                tk[st].append(g[1])
        rr = ratio(med(by[False]), med(by[True]))
        if rr is not None:
            ratios.append(rr)
            meds[False].append(med(by[False]))
            meds[True].append(med(by[True]))
        if tk[False] and tk[True]:
            tdiffs.append((med(tk[False]) - med(tk[True])) / 1e3)
        notes.append('run %d: %d switches, IPI gaps %d running / %d paused (%s), tick gaps '
                     '%d / %d' % (i + 1, len(r.pauses), len(by[False]), len(by[True]),
                                  fmt_ratio(rr), len(tk[False]), len(tk[True])))
    rr = med(ratios)
    d = dirty(runs)
    span = ' (runs %s)' % ', '.join(fmt_ratio(x) for x in ratios) if len(ratios) > 1 else ''
    t.add('observer: IPI gap median, probes running vs paused (same run)',
          fmt(med(meds[False]) and med(meds[False]) / 1e3, ' us', 2),
          fmt(med(meds[True]) and med(meds[True]) / 1e3, ' us', 2),
          fmt_ratio(rr), '<= 1.05x', check(rr, '<=', 1.05), d)
    td = med(tdiffs)
    t.add('observer: tick gap median, probes running vs paused (same run)', '-', '-',
          '%+.2f us' % td if td is not None else '-', 'report', 'INFO', d)
    t.notes.append('observer (within runs of %d s, probes paused at random)%s: %s' %
                   (secs, span, '; '.join(notes)))


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


def sec_ipis(b, t, reps):
    """sec_ipis - IPIs and irq_work reaching the CPU: jitterscope vs a plain busy loop"""
    secs = 3
    js_on, js_off, busy = [], [], []
    kinds = ('on', 'busy', 'off')
    for i in range(reps):
        order = kinds if i % 2 == 0 else kinds[::-1]
        for who in order:
            if who == 'on':
                js_on.append(b.js('ipis-on', secs, irqs=True))
            elif who == 'off':
                js_off.append(b.js('ipis-off', secs, extra=['--no-probes'], irqs=True,
                                   gaps=False))
            else:
                busy.append(b.busy('ipis-busy', secs))

    def rates(runs, busy_loop=False):
        out = []
        for r in runs:
            if busy_loop:
                lo = r.t_exec + 350_000_000
                w = (lo, lo + int((secs - 0.55) * 1e9))
            else:
                w = window(r)
            x = irq_rates(r, *w) if w else None
            if x:
                out.append(x[0])
        return out

    ron, roff, rb = rates(js_on), rates(js_off), rates(busy, True)

    def tot(rs, keys=IPI_KEYS):
        # other work only adds IPIs: the quietest run is the best estimate of each side
        return min([sum(x[k] for k in keys) for x in rs], default=None)

    d = dirty(js_on + js_off + busy)
    a, z = tot(ron), tot(rb)
    extra = a - z if a is not None and z is not None else None
    t.add('ipis: CAL+RES+IWI+TLB on CPU 1 /s (min), probes on vs busy', fmt(a, '/s'),
          fmt(z, '/s'), '%+.1f/s' % extra if extra is not None else '-', '+0 (<= +1/s)',
          check(extra, '<=', 1.0), d)
    a2 = tot(roff)
    e2 = a2 - z if a2 is not None and z is not None else None
    t.add('ipis: the same, --no-probes vs busy loop', fmt(a2, '/s'), fmt(z, '/s'),
          '%+.1f/s' % e2 if e2 is not None else '-', '+0 (<= +1/s)', check(e2, '<=', 1.0), d)
    iw, iwb = tot(ron, ('IWI',)), tot(rb, ('IWI',))
    t.add('ipis: IWI (irq_work) on CPU 1 /s (min), probes on vs busy', fmt(iw, '/s', 2),
          fmt(iwb, '/s', 2), '%+.2f/s' % (iw - iwb) if iw is not None and iwb is not None else '-',
          '+0', check(iw - iwb if iw is not None and iwb is not None else None, '<=', 0.0), d)
    own = [self_ipis(r) for r in js_on]
    inwin, edge = [], []
    for r in js_on:
        w = window(r)
        if not w:
            continue
        mine = [x for x in r.sent if x[1] in r.tids]
        inwin += [x for x in mine if w[0] <= x[0] <= w[1]]
        edge += [x for x in mine if not w[0] <= x[0] <= w[1]]
    ok = [r for r in js_on if window(r)]
    t.add('ipis: IPIs sent to CPU 1 by jitterscope while measuring',
          '%d (+%d at the edges)' % (len(inwin), len(edge)) if ok else '-', '-', '-', '0',
          check(len(inwin) if ok else None, '==', 0), d)
    if inwin or edge:
        t.notes.append('ipis: IPIs from jitterscope itself: ' +
                       '; '.join('%s at %.3f s, in a gap of: %s' %
                                 (x[2], (x[0] - js_cpu(r)['start_ns']) / 1e9, x[3])
                                 for r in js_on for x in r.sent if x[1] in r.tids)[:900])
    mw = max([x[1] for x in own if x[1] is not None], default=None)
    t.add('ipis: irq_work events on CPU 1, any sender (probes)', fmt(mw, '', 0), '-',
          '-', 'report', 'INFO', d)
    t.details.append(('IPI counters on CPU 1 while measuring, per run (/s)',
                      ('run',) + IPI_KEYS,
                      [(lbl,) + tuple(fmt(x[k], '', 2) for k in IPI_KEYS)
                       for lbl, rs in (('probes on', ron), ('--no-probes', roff),
                                       ('busy loop', rb)) for x in rs]))
    return js_on + js_off


def sec_throughput(b, t, reps):
    """sec_throughput - probe events per second handled without loss, increasing fault rates"""
    secs = 3
    period = 2000
    # (pages per burst, parallel injectors): 10k, 50k, 100k, 200k, 400k, 600k faults/s asked
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
        rows.append(('%d x %d' % (par, count), fmt(count * par * 1e6 / period / 1e3, '', 0),
                     fmt(faults / inj_dur / 1e3), fmt(ev_s / 1e3), pr['lost'], c['dropped'],
                     fmt(hk, ' %', 2), fmt(c['lost_pct'], ' %')))
        if pr['lost'] == 0 and c['dropped'] == 0:
            best = max(best or 0, ev_s)
        elif first_loss is None or ev_s < first_loss:
            first_loss = ev_s
    d = dirty(runs)
    js_txt = 'no loss up to %s k/s' % fmt(best and best / 1e3, '', 0)
    if first_loss is not None:
        js_txt += '; loss at %s k/s' % fmt(first_loss / 1e3, '', 0)
    ok = best is not None and best >= 100e3 and (first_loss is None or first_loss >= 100e3)
    t.add('throughput: probe events/s on CPU 1 with lost == 0', js_txt, '-', '-', '>= 100k/s',
          'PASS' if ok else ('n/a' if best is None else 'FAIL'), d)
    t.details.append(('Attribution throughput (jsinject pf, period 2 ms, 3 s runs; events/s over '
                      'the whole window)', ('injectors x pages', 'asked faults k/s',
                                            'injected k/s', 'events k/s',
                                            'lost', 'dropped', 'housekeeping CPU', 'CPU 1 lost'),
                      rows))
    return runs


def sec_scaling(b, t, base_runs, all_js):
    """sec_scaling - cost: RSS, housekeeping CPU, attach, report time; vs duration, gap rate"""
    long_s = 6 if b.a.quick else 15
    many_s = b.a.gaps_secs or (6 if b.a.quick else 15)
    long_r = b.js('scaling-long', long_s)
    many = [b.js('scaling-gaps', many_s, extra=['-T', '100ns'],
                 inject=[('timer', ['--period', '100']), ('ipi', ['--period', '40'])])
            for _ in range(1 if b.a.quick else 2)]
    many_r = max(many, key=lambda r: js_cpu(r)['gap_count'] if r.json else -1)
    base_ok = [r for r in base_runs if r.json]
    rss = med([r.hwm_kb for r in base_ok])
    os_rss = med([r.hwm_kb for r in b.runs if r.name.startswith('floor-oslat')
                  and r.rusage])
    d = dirty(base_ok)
    t.add('cost: max RSS, 1 measured CPU (%.0f s run)' % (js_cpu(base_ok[0])['duration_ns'] / 1e9
                                                         if base_ok else 0),
          fmt(rss and rss / 1024, ' MiB'), fmt(os_rss and os_rss / 1024, ' MiB') + ' (oslat)',
          fmt_ratio(ratio(rss, os_rss)), '<= 32 MiB', check(rss and rss / 1024, '<=', 32), d)
    hk = med([housekeeping_pct(r, b.cpu) for r in base_ok])
    os_hk = med([housekeeping_pct(r, b.cpu) for r in b.runs if r.name.startswith('floor-oslat')])
    t.add('cost: housekeeping CPU while measuring (% of a core)', fmt(hk, ' %', 2),
          fmt(os_hk, ' %', 2) + ' (oslat)', '-', '<= 2 %', check(hk, '<=', 2.0), d)
    att = med([attach_s(r) for r in all_js if r.json and not r.inject
               and '-T' not in r.cmd])
    os_att = med([attach_s(r) for r in b.runs if r.name.startswith('floor-oslat')])
    t.add('cost: exec to first sample (attach)', fmt(att, ' s', 3),
          fmt(os_att, ' s', 3) + ' (oslat)', fmt_ratio(ratio(att, os_att)), '<= 1 s',
          check(att, '<=', 1.0), dirty(all_js))
    # report time: the post-run phase (detach, attribution tail, JSON + gaps CSV). Its wall
    # time moves with the load on the housekeeping CPU; its growth with the gap count is taken
    # from the main thread's CPU time in that phase, which waiting does not inflate
    low = [(post_run_s(r), js_cpu(r)['gap_count'], post_run_cpu_s(r)) for r in base_ok]
    high = [(post_run_s(r), js_cpu(r)['gap_count'], post_run_cpu_s(r)) for r in many if r.json]
    est = slope = None
    if low and high:
        (p0, n0, _), (p1, n1, _) = min(low), min(high)
        cl = med([x[2] for x in low])
        ch = med([x[2] for x in high])
        if cl is not None and ch is not None and n1 > n0:
            slope = max(0.0, (ch - cl) / (n1 - n0))
            est = p0 + slope * (1e6 - n0)
    t.add('cost: report time (post-run) for 1M gaps', fmt(est, ' s', 2) +
          (' (%d gaps: %.2f s)' % (n1, p1) if high else ''), '-',
          '%s us/gap' % fmt(slope and slope * 1e6, '', 2), 'report', 'INFO', dirty(many))
    # scaling: memory flat with duration and with gap count, CPU cost vs both
    rl, rm = long_r.hwm_kb, max([r.hwm_kb or 0 for r in many]) or None
    t.add('scaling: max RSS, %g s vs %.0f s run' % (long_s, js_cpu(base_ok[0])['duration_ns'] / 1e9
                                                    if base_ok else 0),
          fmt(rl and rl / 1024, ' MiB'), fmt(rss and rss / 1024, ' MiB'),
          fmt_ratio(ratio(rl, rss)), '<= 1.05x (flat)', check(ratio(rl, rss), '<=', 1.05),
          dirty([long_r] + base_ok))
    ng = js_cpu(many_r)['gap_count'] if many_r.json else None
    t.add('scaling: max RSS, %s gaps vs %s gaps' % (ng, med([js_cpu(r)['gap_count']
                                                           for r in base_ok])),
          fmt(rm and rm / 1024, ' MiB'), fmt(rss and rss / 1024, ' MiB'),
          fmt_ratio(ratio(rm, rss)), '<= 1.05x (flat)', check(ratio(rm, rss), '<=', 1.05),
          dirty([many_r] + base_ok))
    hl, hm = housekeeping_pct(long_r, b.cpu), housekeeping_pct(many_r, b.cpu)
    t.add('scaling: housekeeping CPU, %g s run vs base' % long_s, fmt(hl, ' %', 2),
          fmt(hk, ' %', 2), fmt_ratio(ratio(hl, hk)), '<= 2 %', check(hl, '<=', 2.0),
          dirty([long_r]))
    gps = ng / (js_cpu(many_r)['duration_ns'] / 1e9) if ng else None
    t.add('scaling: housekeeping CPU at %s gaps/s vs base' % fmt(gps, '', 0), fmt(hm, ' %', 2),
          fmt(hk, ' %', 2), fmt_ratio(ratio(hm, hk)), '<= 2 %', check(hm, '<=', 2.0),
          dirty([many_r]))
    t.details.append(('Cost per run (max RSS: the whole run; sampling: the peak when sampling '
                      'ended; heap: [heap] near the end of sampling)',
                      ('run', 'duration s', 'gaps', 'max RSS MiB', 'sampling MiB', 'heap MiB',
                                       'housekeeping %', 'attach s', 'post-run s',
                                       'post-run CPU s', 'dropped',
                                       'probe events', 'lost'),
                      [(r.name, fmt(js_cpu(r)['duration_ns'] / 1e9), js_cpu(r)['gap_count'],
                        fmt(r.hwm_kb and r.hwm_kb / 1024), fmt(sampling_hwm_mib(r)),
                        fmt(heap_mib(r)),
                        fmt(housekeeping_pct(r, b.cpu), '', 2),
                        fmt(attach_s(r), '', 3), fmt(post_run_s(r), '', 3),
                        fmt(post_run_cpu_s(r), '', 3),
                        js_cpu(r)['dropped'], r.json['probes']['events'],
                        r.json['probes']['lost']) for r in base_ok + [long_r] + many
                       if r.json]))
    grown = [x for x in [long_r] + many
             if (ratio(x.hwm_kb, rss) or 0) > 1.05]
    for r in grown:
        c = js_cpu(r)
        up = [(t, kb) for t, kb in r.hwm_series if kb * 1024 > 1.05 * rss * 1024]
        if c and up:
            t.notes.append('%s: RSS peak %.1f MiB; above 1.05x the base from %+.0f ms after '
                           'sampling ended (sampling peak %s MiB)' %
                           (r.name, r.hwm_kb / 1024, (up[0][0] - c['end_ns']) / 1e6,
                            fmt(sampling_hwm_mib(r))))
    for r in base_ok[:1] + grown:
        if r.smaps:
            t.notes.append('largest mappings of the %s run, near its end (Rss kB): ' % r.name +
                           '; '.join('%d %s' % x for x in r.smaps))
    return [long_r] + many


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
            'ncpu': os.cpu_count(), 'hz': kernel_hz(), 'vm': hyper}


def git_rev():
    """git_rev - the tree's commit (and whether the tree has local changes)"""
    try:
        rev = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'],
                             capture_output=True, text=True).stdout.strip()
        st = subprocess.run(['git', '-C', ROOT, 'status', '--porcelain', '--untracked-files=no'],
                            capture_output=True, text=True).stdout.strip()
        return rev + (' (with local changes)' if st else '')
    except OSError:
        return '?'


def md_table(header, rows):
    """md_table - a markdown table"""
    out = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    out += ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]
    return '\n'.join(out)


READING = """\
## Reading the results (causes found on 2026-11-29)

* **Loop period median.** Up to 7face3d the calibration pass stored a bin per read
  (`bins[d]++` right before each rdtscp, which waits for it): its median (20.0-23.5 ns) sat
  above the measuring loop's own mean (16.7-18.2 ns), 0.72-0.88x of oslat. The calibration
  now stores each period in a small buffer and bins it every 4096 reads: median 18.3 ns
  (0.67x) in quiet minutes, 20.9 ns (0.78x) while the host was loaded (IPI gaps 20 us
  instead of 12.5), against the measuring loop's mean of 16.9-17.2 ns over the whole run.
  The periods are multimodal (14.8, 18.3, 20.9 ns: 34, 42, 48 TSC cycles) and the
  calibration's 20 ms at start sees whichever mode the host allows then.
* **Injected-IPI gaps with probes.** Before this session's probe changes: 1.08-1.15x paired,
  0.8-1.1 us of BPF per call-function IPI (csd_function entry/exit traced the same IPI a
  second time). Now the function an IPI runs is named on the sender's CPU (csd_queue_cpu),
  sends and other remote events go through their own ring, and the measured CPU's programs
  write no shared counter: 0.4-0.6 us of BPF per IPI (two programs; 1.0 us while the host
  was loaded). Within one run (probes paused and resumed at random) the IPI gaps are
  0.97-1.09x, most often 1.02-1.04x (+0.3 us), over ten such runs; the paired runs' median
  moved between 1.02x and 1.10x between invocations minutes apart: run-to-run noise on this
  host is larger than the effect. bpf_stats
  (kernel.bpf_stats_enabled, on for every run) costs nothing measurable: toggled every
  0.3-0.8 s inside one run, IPI and tick gaps were not longer with it on (0.90-0.97x).
* **Memory.** Before 7face3d: 75-90 MiB, flat, mostly a 16 MiB BPF ring buffer counted twice
  in RSS (its data pages are mapped twice), a heap of buffers faulted in by mlockall and an
  8 MiB thread stack locked whole. Then 33.4 MiB; with 16 causes per gap record 35.2 MiB; now
  31.2-31.8 MiB: the per-CPU buffers are allocated after the probes' BTF parsing is trimmed
  from the heap (they fill its holes) and the kernel symbol table gives back its growth
  slack. The 2 MiB ring still counts as 4 MiB. oslat: 10.6 MiB.
* **Throughput.** No probe event lost up to 336-466 k/s when the housekeeping CPU is free. One
  loss (7-43k events at about 100k/s) happened while a fuzzer kept the housekeeping CPU busy:
  the consumer drains every 10 ms, and the ring holds 2 MiB / 96 B = 22k events since 7face3d
  (65 ms at 336k/s), 175k before.
* **Housekeeping CPU** grows with the gap rate and with the event rate (about 0.5 us per
  event: 9 % at 170k events/s); under 1 % at this machine's usual 1-2k gaps/s. Per gap it
  was 3.5-5 us (5.7-7.9 % of a core at 14-21k gaps/s); since 4d3fd8f about 3 us (4.75 % at
  16k gaps/s): each gaps-CSV row is built in memory and written with one call, the
  correlation makes one pass over a gap's events with a scratch reused across the batch,
  and kernel symbols are named through a small cache.
* **IPIs from jitterscope.** None from the probes (no IWI: the ring buffer never wakes). Now
  and then one reschedule IPI from jitterscope's housekeeping thread reaches CPU 1: mid-run in
  2 of 12 probe runs of the benchmarks, at the very start in 1, none in 6 more runs checked by
  hand. The row names each one and the gap around it. The counter rows (CAL, RES, TLB against
  a busy loop) are dominated by the other work on this machine: compare their minima only.
* **Report time** does not grow with gaps (0.16 s at 1.57M gaps). The report phase uses
  11-16 ms of CPU whatever the gap count; the rest of its 0.02-0.6 s of wall time is waiting,
  and grows with the load on the housekeeping CPU (4.6 s once, while fuzzers ran there).
"""


METHODS = """\
## How it is measured

`make bench` (root) runs `bench/run.py`, which builds nothing itself and writes this file.
Every comparison is made inside one invocation, alternating the two sides run by run on the
same CPU (`--reps` repetitions, default 3), and the table shows medians over the runs. Absolute
figures on these shared VMs move from minute to minute; the ratios are the result.

* **Detection floor.** jitterscope's calibration pass gives the loop period's min and median
  (`loop_ns_min`, `loop_ns_median`); `loop_ns_mean` is the measuring loop's mean with the gaps
  taken out. oslat's period is its duration divided by its loops (every loop lands in one
  histogram bucket), as the issue defines it; "lost time excluded" takes oslat's loops of 1 us
  and more out of the time (bucket N = [N-1, N) us, mid-points), the same definition as
  `loop_ns_mean`; "wall / loops" divides the whole window by the loops for both tools.
* **Agreement.** `jsinject --mode preempt --period 10000 --spin 200` runs on the measured CPU
  while each tool measures (from 0.1 s after the tool's measuring thread appears to about 0.3 s
  before the tool stops; for jitterscope only actions inside its window count). Both tools count
  their gaps of 150 to 500 us (oslat: buckets 151 to 500 of 1024), the size each 200 us spin
  makes (about 240 us here). Other noise of that size counts for both; a spin merged into a
  longer gap (a time slice of another task on the CPU) counts for neither. The per-run table
  also gives the counts of 150 us and more. jitterscope's gaps are also matched one to one to
  the injector's log (CLOCK_MONOTONIC).
* **Observer effect.** `jsinject --mode ipi --period 1900` during 2 s runs with probes and with
  `--no-probes`, in 12 pairs of runs next to each other (on/off, off/on, ...). Each injected
  IPI inside the window is matched to the gap overlapping its [start, end] in `--gaps`
  (CLOCK_MONOTONIC). The ratio is the median over the pairs of (median IPI gap with probes /
  median without); the tick figure the median of the pairs' differences. Within one run: a
  20 s run (one per repetition; the median of their ratios) with the same injector whose
  probes are paused and resumed from outside (bpftool
  writes the probes' `.data.pause` map; every program then returns at once) at random every
  0.3-0.8 s; IPI and tick gaps more than 20 ms from a switch are split by the state they fell
  in. Same run, same noise; the tracepoints stay attached in both states, so this is the
  programs' own cost (the dispatch, ~20-40 ns a program, is in neither). Tick gaps are the gaps
  (3-300 us, not injected) starting within 15 us of the densest phase modulo the tick period
  (CONFIG_HZ), found per run: the same method with and without probes. IPIs: /proc/interrupts
  CAL, RES, IWI and TLB of the measured CPU, sampled every 100 ms, over the measuring window
  (from 0.1 s after the JSON's `start_ns` to 0.1 s before `end_ns`) for jitterscope with and
  without probes, and over the same window of a plain busy loop (python, no syscalls) pinned to
  the CPU. Other work on the machine only adds IPIs, so these rows compare the quietest run of
  each side (the minimum), not the median. The probes also name the sender of every IPI: the row
  "sent by jitterscope" counts the IPI causes in `--gaps` whose sender is a thread of that
  jitterscope process, inside the window (and, apart, in its first and last 0.1 s).
* **Throughput.** `jsinject --mode pf --period 2000 --count N` (one traced page fault per page)
  at increasing rates; events/s is `probes.events` over the whole window (the injection covers
  about 85 % of it, so the peak rate is higher), loss is `probes.lost` or `dropped` > 0.
* **Cost.** Max RSS is the process's own `VmHWM` (/proc/PID/status), read every 100 ms while it
  samples and every 5 ms in its report phase, here for one measured CPU. Not `ru_maxrss` from
  wait4: the kernel carries the RSS of the image before exec into it, so a child exec'd from
  this python harness reports at least the harness's own size (oslat showed 17 MiB that way
  against 10.6 MiB under `/usr/bin/time -v`, and jitterscope up to 116 MiB). Housekeeping CPU:
  the on-CPU time (`/proc/PID/task/*/schedstat`) of every thread not pinned to the measured CPU,
  over the measuring window, per second. Attach: from a CLOCK_MONOTONIC stamp taken just before
  exec to the JSON's `cpus[0].start_ns` (oslat: until its measuring thread is seen, 0.1 s
  polling). Report time: from the end of sampling (`end_ns`) to the process's exit, with
  `--json` and `--gaps` written. Its wall time moves with the load on the housekeeping CPU (0.02
  s to 4.6 s for the same kind of run here), so the cost per gap comes from the main thread's
  CPU time in that phase (its schedstat, polled every 5 ms): the median of the 3 s runs against
  the median of two high gap-rate runs (`-T 100ns` plus `jsinject --mode timer --period 100` and
  `--mode ipi --period 40` at once, 15 s, 10-15k gaps/s), slope clamped at >= 0. The 1M figure
  is the quickest 3 s run's wall time plus that slope times the extra gaps; the quickest
  high-rate run's measured wall time is shown next to it. A real 1M-gap run takes about 2
  minutes here: `bench/run.py --quick --only scaling --gaps-secs 100`. Run on 2026-11-29 after
  7face3d: 1,572,160 gaps in 100 s, report time 0.16 s, max RSS 33.4 MiB as for 3 s, 0 dropped,
  0 events lost, housekeeping CPU 6.4 % at 15.7k gaps/s (before 7face3d: 1,394,132 gaps, 0.20 s,
  90.4 MiB as for 3 s).
* **Scaling.** The same figures for a longer run and for the high gap-rate run.
* **Contamination.** Before each run the harness waits (up to 45 s in all) while other
  measurement tools or tests run (jitterscope, oslat, jsinject, test_*, ...). A run during which
  one ran, or another process used more than 20 % of a CPU, is measured again (at most twice,
  and up to 45 s of runs in all). A verdict marked `*` still had such work during at least one
  of its runs; the processes are listed below the table.
"""


def write_doc(path, t, m, started, elapsed, foreign, args):
    """write_doc - docs/BENCHMARKS.md with the last results"""
    parts = ['# Benchmarks', '',
             'Last results of `make bench` (`bench/run.py`). Rewritten by every run.', '',
             '* date: %s' % started.strftime('%Y-%m-%d %H:%M UTC'),
             '* machine: %s; %s; %d CPUs; HZ=%d%s' % (m['uname'], m['cpu'], m['ncpu'], m['hz'],
                                                     '; virtual machine' if m['vm'] else ''),
             '* tree: %s; measured CPU %d; %d repetitions; %.0f s (the harness itself used '
             '%.1f s of CPU, off CPU %d)' % (git_rev(), args.cpu, args.reps, elapsed,
                                             sum(os.times()[:2]), args.cpu),
             '* oslat: %s' % (subprocess.run([OSLAT, '-v'], capture_output=True, text=True)
                              .stdout.strip() or subprocess.run([OSLAT, '-v'],
                              capture_output=True, text=True).stderr.strip()
                              if OSLAT else 'not installed'),
             '', '## Results', '', t.markdown(), '']
    if foreign:
        parts += ['`*` other measurement tools ran during these runs: %s.' %
                  ', '.join(sorted(foreign)[:12]), '']
    for title, hdr, rows in t.details:
        parts += ['### ' + title, '', md_table(hdr, rows), '']
    fails = [r for r in t.rows if r[5].startswith('FAIL')]
    if fails:
        parts += ['### Targets missed in this run', '']
        parts += ['* %s: %s against %s (target %s)' % (r[0], r[1], r[2], r[4]) for r in fails]
        parts += ['']
    if t.notes:
        parts += ['### Notes', ''] + ['* ' + n for n in t.notes] + ['']
    parts += [READING, METHODS]
    with open(path, 'w') as f:
        f.write('\n'.join(parts))


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
    ap.add_argument('--gaps-secs', type=float, default=0,
                    help='length of the high gap-rate run (default 30 s; 120 s reaches ~1M gaps)')
    ap.add_argument('--keep', help='keep every output file in this directory')
    ap.add_argument('--save', help='save the runs (pickle) to recompute the table later')
    ap.add_argument('--replay', help='recompute the table from --save output, measuring nothing')
    ap.add_argument('--wait-quiet', type=float, default=45.0,
                    help='seconds in all to wait for other tools to finish (default 45)')
    ap.add_argument('--retry-budget', type=float, default=45.0,
                    help='seconds in all of runs measured again because other work ran during '
                         'them (default 45; at most twice per run)')
    args = ap.parse_args()
    if os.geteuid() != 0 and not args.replay:
        sys.exit('bench/run.py: needs root (BPF probes, SCHED_FIFO injector, /proc of others)')
    for exe in (JS, INJ):
        if not os.access(exe, os.X_OK):
            sys.exit('bench/run.py: %s missing: run make first' % exe)
    if not OSLAT:
        log('bench: oslat not found (rt-tests): the oslat rows are skipped')
    if args.quick:
        args.reps = 1
    # the harness itself stays off the measured CPU
    os.sched_setaffinity(0, [c for c in os.sched_getaffinity(0) if c != args.cpu] or [0])
    started, t0 = datetime.datetime.now(datetime.timezone.utc), time.monotonic()
    m = machine()
    b, t = Bench(args), Table()
    try:
        run_bench(args, b, t, m, started, t0)
    finally:
        if not args.keep:
            shutil.rmtree(b.tmp, ignore_errors=True)


def run_bench(args, b, t, m, started, t0):
    """run_bench - the sections, the table on stdout, the document"""
    only = args.only.split(',')
    log('bench: CPU %d, %d repetitions, scratch %s' % (args.cpu, args.reps, b.tmp))
    base = []
    steps = [('floor', lambda: sec_floor(b, t, args.reps)),
             ('agree', lambda: sec_agree(b, t, args.reps)),
             ('observer', lambda: sec_observer(b, t, args.reps, m['hz'])),
             ('ipis', lambda: sec_ipis(b, t, args.reps)),
             ('throughput', lambda: sec_throughput(b, t, args.reps))]
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
    if 'scaling' in only:
        log('bench: scaling (%.0f s so far)' % (time.monotonic() - t0))
        if not base:
            base = [b.js('floor-js', 3)]
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
        write_doc(args.out, t, m, started, elapsed, foreign, args)


if __name__ == '__main__':
    main()
