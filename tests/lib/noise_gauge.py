# SPDX-License-Identifier: GPL-2.0
"""noise_gauge.py - the noise gauge of a test that measures CPU 1 (docs/HACKING.md, "The
retry"): what else used CPU 1 while the test ran, read apart from jitterscope.

  python3 -m noise_gauge start DIR OWNER   from now on, record (OWNER: the test's shell)
  python3 -m noise_gauge judge DIR         print "noise: ..." and exit 0 when a gauge crossed
                                           its threshold, else exit 1 (also when it cannot
                                           judge: it says why on a "note:" line)
  python3 -m noise_gauge stop DIR          remove the kernel's trace instances

Two gauges, each a share of the test's wall time since start:
  - other tasks on CPU 1 (NOISE_FOREIGN_SHARE): the kernel's own record of the task switches
    on CPU 1 (a private tracefs instance), less the tasks of the test itself: OWNER and every
    process and thread it started since (the kernel's sched_process_fork records, on every
    CPU, in a second instance). Kernel threads are others;
  - the host's steal of CPU 1 (NOISE_STEAL_SHARE), from /proc/stat.
tests/lib/lib.bash starts it in need_cpu1 (as root) and judges a failure at exit:
the test then exits 75 instead, and scripts/run-tests.sh runs it once more.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktrace import Instance, TRACEFS, forks, parse_trace  # noqa: E402

CPU = 1
NOISE_FOREIGN_SHARE = 0.01  # as tests/lib/attrib_lib.py's
NOISE_STEAL_SHARE = 0.01
USER_HZ = os.sysconf("SC_CLK_TCK")


def steal_ns(cpu=CPU):
    """CPU's steal so far (/proc/stat, USER_HZ ticks -> ns)"""
    with open("/proc/stat") as f:
        for line in f:
            w = line.split()
            if w[0] == "cpu%d" % cpu:
                return int(w[8]) * 10 ** 9 // USER_HZ if len(w) > 8 else 0
    return 0


def instances(owner):
    return (Instance("noise_gauge.cpu%d" % CPU, {CPU}, ("sched/sched_switch",), owner, 16384),
            Instance("noise_gauge.fork", None, ("sched/sched_process_fork",), owner, 2048))


def start(d, owner):
    os.makedirs(d, exist_ok=True)
    st = {"owner": owner, "t0": time.monotonic(), "steal0": steal_ns(), "why": None}
    if not os.path.isdir(os.path.join(TRACEFS, "instances")):
        st["why"] = "no tracefs at %s" % TRACEFS
    else:
        made = []
        try:
            for i in instances(owner):
                i.start()
                made.append(i)
        except OSError as e:
            for i in made:
                i.remove()
            st["why"] = "no trace instance (%s: %s)" % (e.filename, e.strerror)
    with open(os.path.join(d, "state.json"), "w") as f:
        json.dump(st, f)
    return 0


def own_pids(owner, pairs):
    """owner and every pid it started, directly or not ([(parent, child)] in time order)"""
    own = {owner}
    for parent, child in pairs:
        if parent in own:
            own.add(child)
    return own


def judge(d):
    try:
        with open(os.path.join(d, "state.json")) as f:
            st = json.load(f)
    except (OSError, ValueError) as e:
        print("note: noise gauge: not started (%s)" % e)
        return 1
    secs = time.monotonic() - st["t0"]
    stolen = steal_ns() - st["steal0"]
    if secs > 0 and stolen / (secs * 1e9) >= NOISE_STEAL_SHARE:
        print("noise: the host stole %.1f %% of CPU 1 over the test (/proc/stat; threshold "
              "%.0f %%): exit 75, to be run again" % (100 * stolen / (secs * 1e9),
                                                      100 * NOISE_STEAL_SHARE))
        return 0
    if st["why"]:
        print("note: noise gauge: other tasks on CPU 1 not gauged: %s" % st["why"])
        return 1
    sw, fk = instances(st["owner"])
    try:
        text, lost = sw.read()
        ftext, flost = fk.read()
    except OSError as e:
        print("note: noise gauge: the kernel's trace unreadable (%s)" % e.strerror)
        return 1
    if lost or flost:
        print("note: noise gauge: the kernel's trace overran (%d task switches, %d forks "
              "lost): other tasks not gauged" % (lost, flost))
        return 1
    own = own_pids(st["owner"], forks(ftext))
    other = {}
    for a, b, ev in parse_trace(text):
        pid = int(ev.rpartition(":")[2])
        if pid not in own:
            name = ev[len("task:"):]
            other[name] = other.get(name, 0) + b - a
    ns = sum(other.values())
    if secs > 0 and ns / (secs * 1e9) >= NOISE_FOREIGN_SHARE:
        top = sorted(other.items(), key=lambda x: -x[1])[:3]
        print("noise: other tasks ran %.1f %% of the test's %.1f s on CPU 1 (the kernel's "
              "trace; threshold %.0f %%: %s): exit 75, to be run again"
              % (100 * ns / (secs * 1e9), secs, 100 * NOISE_FOREIGN_SHARE,
                 ", ".join("%s %.1f ms" % (n, v / 1e6) for n, v in top)))
        return 0
    print("note: noise gauge: other tasks ran %.2f %% of the test on CPU 1, the host stole "
          "%.2f %%: under the thresholds" % (100 * ns / (secs * 1e9) if secs > 0 else 0,
                                             100 * stolen / (secs * 1e9) if secs > 0 else 0))
    return 1


def stop(d):
    try:
        with open(os.path.join(d, "state.json")) as f:
            owner = json.load(f)["owner"]
    except (OSError, ValueError, KeyError):
        return 0
    for i in instances(owner):
        i.remove()
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "start":
        return start(argv[1], int(argv[2]))
    if len(argv) == 2 and argv[0] == "judge":
        return judge(argv[1])
    if len(argv) == 2 and argv[0] == "stop":
        return stop(argv[1])
    print(__doc__.strip().splitlines()[0], file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
