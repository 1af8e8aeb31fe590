"""bench/lib/procfs.py - /proc readers: interrupt counts, threads, memory, other processes
(contamination), BPF programs' ids and run-time statistics"""

import json
import os
import re
import shutil
import subprocess
import time

from lib.common import CLK_TCK, FOREIGN, HOG_SHARE


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
