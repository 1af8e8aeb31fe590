#!/usr/bin/env python3
"""bench/ipitrace.py - what reaches the measured CPU from jitterscope's housekeeping thread.

The kernel's own tracepoints, not jitterscope's probes: a tracefs instance records every IPI
sent to the measured CPU (ipi:ipi_send_cpu, ipi:ipi_send_cpumask) and every task woken onto
it (sched:sched_wakeup), each with its kernel stack, while jitterscope runs there. For each
run, the records whose task is jitterscope's main (housekeeping) thread, on another CPU,
inside the measuring window (the JSON's start_ns to end_ns, CLOCK_MONOTONIC) are sorted by
what the stack shows:

  pull       the scheduler's newidle balance as the thread went to sleep (it moved a task
             another process had queued on the measured CPU, and rescheduled that CPU)
  interrupt  an interrupt or softirq that came while the thread ran on its CPU
  syscall    the thread's own system call: what jitterscope itself does

Root; run it under scripts/cpu1-lock. Needs tracefs at /sys/kernel/tracing. Exit 0 when no
record is of the syscall kind, 2 when one is, 1 on error.

  bench/ipitrace.py [--runs 12] [--secs 2] [--cpu 1] [-- JITTERSCOPE-OPTION...]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JS = os.path.join(ROOT, 'build', 'jitterscope')
TRACEFS = '/sys/kernel/tracing'
INSTANCE = os.path.join(TRACEFS, 'instances', 'jitterscope-ipitrace')
IRQ_FRAMES = ('handle_softirqs', '__irq_exit_rcu', 'asm_sysvec_', 'asm_common_interrupt',
              'run_timer_softirq', 'irq_exit')
LINE = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): '
                  r'(<stack trace>|\w+)(?:: ?(.*))?$')


def events(cpu):
    """events - (event dir, filter) of what is recorded, with a stack for each"""
    return (('ipi/ipi_send_cpu', 'cpu == %d' % cpu),
            ('ipi/ipi_send_cpumask', 'cpumask & CPUS{%d}' % cpu),
            ('sched/sched_wakeup', 'target_cpu == %d' % cpu))


def write(path, text):
    """write - one tracefs file"""
    with open(os.path.join(INSTANCE, path), 'w') as f:
        f.write(text)


def setup(cpu):
    """setup - the instance: CLOCK_MONOTONIC time stamps, the events, their stacks"""
    if not os.path.isdir(os.path.join(TRACEFS, 'instances')):
        sys.exit('ipitrace: no tracefs at %s (mount -t tracefs nodev %s)' % (TRACEFS, TRACEFS))
    os.makedirs(INSTANCE, exist_ok=True)
    write('tracing_on', '0')
    write('trace_clock', 'mono')
    write('buffer_size_kb', '16384')
    for ev, filt in events(cpu):
        write('events/%s/filter' % ev, filt)
        write('events/%s/enable' % ev, '1')
        with open(os.path.join(INSTANCE, 'events', ev, 'trigger')) as f:
            if 'stacktrace' not in f.read():
                write('events/%s/trigger' % ev, 'stacktrace')


def teardown(cpu):
    """teardown - triggers off, then the instance removed"""
    for ev, _ in events(cpu):
        try:
            write('events/%s/trigger' % ev, '!stacktrace')
            write('events/%s/enable' % ev, '0')
        except OSError:
            pass
    try:
        os.rmdir(INSTANCE)
    except OSError as e:
        print('ipitrace: %s left in place: %s' % (INSTANCE, e), file=sys.stderr)


def parse(text):
    """parse - [(t_ns, pid, cpu, event, fields, [stack frames])] of a trace; a stack belongs
    to the last record of its task on its CPU (another CPU's record may come in between)"""
    out, last, cur = [], {}, None
    for line in text.splitlines():
        if line.startswith('#'):
            continue
        if line.startswith(' => '):
            if cur is not None:
                cur[5].append(line[4:].strip().split('+')[0])
            continue
        m = LINE.match(line)
        if not m:
            cur = None
            continue
        _, pid, cpu, s, frac, ev, fields = m.groups('')
        key = (int(pid), int(cpu))
        if ev == '<stack trace>':
            cur = last.get(key)
            continue
        t = int(s) * 1_000_000_000 + int(frac.ljust(9, '0')[:9])
        cur = None
        last[key] = (t, key[0], key[1], ev, fields, [])
        out.append(last[key])
    return out


def kind(stack):
    """kind - pull, interrupt or syscall, from a record's kernel stack"""
    if 'sched_balance_newidle' in stack:
        return 'pull'
    if any(f.startswith(IRQ_FRAMES) for f in stack):
        return 'interrupt'
    return 'syscall' if any(f.startswith('entry_SYSCALL') for f in stack) else 'other'


def one_run(i, a, tmp):
    """one_run - run jitterscope once with the instance recording: [(s, kind, record)]"""
    jpath = os.path.join(tmp, 'run.json')
    write('trace', '')
    write('tracing_on', '1')
    p = subprocess.Popen([JS, '--cpu', str(a.cpu), '--duration', '%gs' % a.secs, '--json', jpath,
                          '-q'] + a.extra, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, err = p.communicate()
    write('tracing_on', '0')
    with open(os.path.join(INSTANCE, 'trace')) as f:
        recs = parse(f.read())
    if p.returncode != 0:
        sys.exit('ipitrace: run %d: jitterscope exit %d: %s' % (i, p.returncode,
                                                             err.decode().strip()[-200:]))
    with open(jpath) as f:
        c = json.load(f)['cpus'][0]
    return [((r[0] - c['start_ns']) / 1e9, kind(r[5]), r) for r in recs
            if r[1] == p.pid and r[2] != a.cpu and c['start_ns'] <= r[0] <= c['end_ns']]


def main():
    """main - the runs, one line per record found, the summary"""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--runs', type=int, default=12)
    ap.add_argument('--secs', type=float, default=2.0)
    ap.add_argument('--cpu', type=int, default=1)
    ap.add_argument('extra', nargs='*', help='more jitterscope options (after --)')
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit('ipitrace: needs root (tracefs, BPF probes)')
    if not os.access(JS, os.X_OK):
        sys.exit('ipitrace: %s missing: run make first' % JS)
    setup(a.cpu)
    found = Counter()
    try:
        with tempfile.TemporaryDirectory(prefix='ipitrace.') as tmp:
            for i in range(1, a.runs + 1):
                for s, k, r in one_run(i, a, tmp):
                    found[k] += 1
                    print('run %d at %.4f s: %s %s (%s): %s' %
                          (i, s, r[3], r[4][:70], k, ' < '.join(r[5][2:9])))
    finally:
        teardown(a.cpu)
    print('%d runs of %g s: %d records to CPU %d from jitterscope\'s housekeeping thread '
          'while measuring: %d scheduler pull, %d interrupt, %d its own system call, %d other'
          % (a.runs, a.secs, sum(found.values()), a.cpu, found['pull'], found['interrupt'],
             found['syscall'], found['other']))
    return 2 if found['syscall'] else 0


if __name__ == '__main__':
    sys.exit(main())
