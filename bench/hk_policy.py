#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""hk_policy.py [--rounds N] [--requests N] - what the housekeeping threads' scheduling policy
does to a followed server and to the observer: redis-server on CPU 1, redis-benchmark -t get
-c 20 on CPU 0 (the one housekeeping CPU of a 2-CPU machine, which the load generator and
jitterscope's drain then share), alone and followed by `jitterscope --pid` (and with an empty
--marks file) started under SCHED_OTHER (the default), `chrt -b 0` (SCHED_BATCH: no wakeup
preemption) and `chrt -i 0` (SCHED_IDLE: only when CPU 0 would idle). The sampler thread sets
its own policy (-P); with --pid there is none. N rounds (default 6), the order rotated in
each. Prints, per mode, the medians of throughput and p99 and their ratios to alone, and the
worst run's probe records lost (probes.lost: the rings overflowed while the drain waited).
Root (the probes); run it under scripts/cpu1-lock, with nothing else on the machine.
docs/OBSERVER.md, "The drain's bursts, and the housekeeping CPU's policy", has a run of it."""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lib.common import JS, REDIS_BENCH, REDIS_SERVER  # noqa: E402

POLICY = {'other': [], 'batch': ['chrt', '-b', '0'], 'idle': ['chrt', '-i', '0']}


def once(mode, requests, tmp):
    """one run: (requests/s, p99 ms, probes.lost or None)"""
    with socket.socket() as so:
        so.bind(('127.0.0.1', 0))
        port = so.getsockname()[1]
    srv = subprocess.Popen(['taskset', '-c', '1', REDIS_SERVER, '--port', str(port), '--bind',
                            '127.0.0.1', '--save', '', '--appendonly', 'no'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    js, jpath = None, os.path.join(tmp, 'run.json')
    try:
        for _ in range(200):
            ping = subprocess.run(['redis-cli', '-p', str(port), 'ping'], capture_output=True,
                                  text=True)
            if ping.stdout.strip() == 'PONG':
                break
            time.sleep(0.05)
        if mode != 'alone':
            what, policy = mode.split('-')
            marks = os.path.join(tmp, 'marks.csv')
            open(marks, 'w').close()
            js = subprocess.Popen(POLICY[policy] + ['taskset', '-c', '0', JS, '--pid',
                                                    str(srv.pid), '-d', '0', '-q', '--json',
                                                    jpath] +
                                  (['--marks', marks] if what == 'marks' else []),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(3)   # attached (the bench waits on its programs; 3 s is well past)
        b = subprocess.run(['taskset', '-c', '0', REDIS_BENCH, '-p', str(port), '-n',
                            str(requests), '-c', '20', '-t', 'get', '-q', '--csv'],
                           capture_output=True, text=True, timeout=600)
    finally:
        if js:
            js.send_signal(2)
            js.wait()
        srv.terminate()
        srv.wait()
    lines = b.stdout.splitlines()
    row = dict(zip([h.strip('"') for h in lines[0].split(',')],
                   [v.strip('"') for v in lines[1].split(',')]))
    lost = json.load(open(jpath))['probes'].get('lost', 0) if js else None
    return float(row['rps']), float(row['p99_latency_ms']), lost


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--rounds', type=int, default=6)
    ap.add_argument('--requests', type=int, default=100000)
    a = ap.parse_args()
    if not REDIS_SERVER or not REDIS_BENCH:
        print('hk_policy.py: no redis-server or redis-benchmark (scripts/install-deps.sh)')
        return 77
    modes = ['alone'] + ['%s-%s' % (w, p) for w in ('pid', 'marks') for p in POLICY]
    got = {m: [] for m in modes}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.rounds):
            for m in modes[i % len(modes):] + modes[:i % len(modes)]:
                got[m].append(once(m, a.requests, tmp))
    base = [statistics.median(r[k] for r in got['alone']) for k in (0, 1)]
    print('| run | k req/s | / alone | p99 ms | / alone | probe records lost (worst run) |')
    print('|---|---|---|---|---|---|')
    for m in modes:
        rps, p99 = (statistics.median(r[k] for r in got[m]) for k in (0, 1))
        lost = max((r[2] for r in got[m] if r[2] is not None), default=None)
        print('| %s | %.1f | %.2fx | %.3f | %.2fx | %s |' %
              (m, rps / 1e3, rps / base[0], p99, p99 / base[1], '-' if lost is None else lost))
    return 0


if __name__ == '__main__':
    sys.exit(main())
