"""bench/lib/runner.py - running a tool under observation: Run, spawn_watch (its /proc samples), the
injectors, and what runs at a tool's start (ProgStats, PauseToggler)"""

import json
import os
import random
import shutil
import subprocess
import threading
import time

from jsfiles import inject_actions  # tests/lib, on the path: bench/lib/__init__.py

from lib.common import (HWM_FAST_S, INJ, INJ_DELAY_S, PAUSE_FIRST_S, PAUSE_GUARD_NS, PAUSE_S, log,
                        mono)
from lib.procfs import (Hogs, bpf_prog_ids, bpf_prog_stats, fdinfo_ids, foreign_procs, proc_scan,
                        read_irqs, read_smaps_top, read_status_kb, read_tasks)


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
