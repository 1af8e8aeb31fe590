#!/bin/bash
# attrib_ksoftirqd.sh - a kernel thread that runs interrupt work is named as that work: bursts
# of loopback UDP packets, RPS-steered to CPU 1 (5000 every 100 ms from CPU 0), are more
# NET_RX than CPU 1 handles on its interrupts' exits, and the kernel defers its softirqs to
# ksoftirqd/1 (a non-RT kernel's softirq thread; a PREEMPT_RT kernel's irq/N and ktimers/N
# threads are named by the same table, tested on recorded events in tests/unit). The oracle
# is the kernel's own trace of CPU 1's task switches over the run (a private tracefs
# instance: tests/lib/ktrace.py), each ksoftirqd/1 run judged on its own:
#  - at least 20 runs of ksoftirqd/1 inside the measured window, else skip: the kernel did
#    not defer (the oracle: jitterscope is not asked for it);
#  - no cause names ksoftirqd as a task; every one is softirq "ksoftirqd/1:PID[ VECTOR]",
#    PID the thread's own, VECTOR a softirq's name;
#  - each run preempts the sampler: at least 99 % of them lie in a gap that names it (a run
#    is microseconds, the threshold 1 us; two runs may share a gap);
#  - where the kernel saw it lead a gap (its run, with the softirqs it ran, the largest thing
#    that ran there, 1.5 times the next, and the gap not mostly the host's remainder), it is
#    that gap's primary cause in at least 95 % of them, judged from 20 such gaps: a 95 % of
#    fewer can miss none, and 1-2 % of them named another cause here (26-64 gaps a run; the
#    misses seen, 2026-12-06: a softirq or IPI part larger than the thread's net time, its
#    inclusive time not counted; the NET_RX it ran merged with an interrupt's into one part
#    larger than its run). The witness traces x86's IPI vectors too (2026-12-07): without
#    them, 2 of 3 misses in 8 runs (2 of 44 gaps in one run, which failed it) were gaps whose
#    RPS IPIs jitterscope measured at 28 and 72 us, the largest part, where a witness blind
#    to IPIs saw ksoftirqd/1 lead. With them, gaps where the IPIs' handlers rival the thread
#    are no longer counted as its lead: 1 miss in 8 runs (56 of 57), and 5 of those 8 runs
#    had under 20 such gaps (skip primary, said so). A count of primaries, as
#    before (at least 10), is the host's to take: a CI host's unseen stalls made the gaps
#    theirs, and it failed;
#  - the cause table of the JSON has it in class softirq.
# lo's rps_cpus is set for the run and restored. Root only (77 otherwise), about 8 s.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
rps=/sys/class/net/lo/queues/rx-0/rps_cpus
[ -w "$rps" ] || skip "no $rps (a kernel without CONFIG_RPS)"
pid=$(pgrep -x ksoftirqd/1) || skip "no ksoftirqd/1 thread"
old=$(cat "$rps")
fpid=
at_exit 'echo "$old" >"$rps"; [ -z "$fpid" ] || kill "$fpid" 2>/dev/null'
echo 2 >"$rps" || fail "cannot steer lo's packets to CPU 1"

# flood SECONDS - 5000 loopback UDP packets every 100 ms from CPU 0 (lo steers them to CPU 1)
flood() {
	python3 - "$1" <<'PY'
import os, socket, sys, time
os.sched_setaffinity(0, {0})
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.bind(("127.0.0.1", 0))
rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
rx.setblocking(False)
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    t = time.monotonic()
    for _ in range(5000):
        tx.sendto(b"x" * 16, rx.getsockname())
    try:
        while True:
            rx.recv(64)
    except BlockingIOError:
        pass
    time.sleep(max(0.0, 0.1 - (time.monotonic() - t)))
PY
}

flood 7 &
fpid=$!
# the run under the kernel's witness of CPU 1: its task switches, IRQs, softirqs and the tick
# (tests/lib/attrib_lib.py: Witness)
python3 - "$JS" "$TMP" <<'PY' || fail "the run under the witness"
import subprocess, sys
from attrib_lib import Witness
from ktrace import IPI_EVENTS
js, tmp = sys.argv[1:3]
# the flood's softirqs: 150,000 intervals in the 5 s here; its RPS IPIs (x86) too
w = Witness(1, buffer_kb=32768, optional=IPI_EVENTS)
w.start()
with open(tmp + "/report.txt", "w") as out, open(tmp + "/err.txt", "w") as err:
    rc = subprocess.call([js, "--cpu", "1", "--duration", "5", "-q", "--gaps", tmp + "/gaps.csv",
                          "--json", tmp + "/run.json"], stdout=out, stderr=err)
evs = w.stop(tmp + "/witness.csv")
open(tmp + "/witness.why", "w").write(w.why or "")
if rc:
    sys.exit("run exited %d (%s)" % (rc, open(tmp + "/err.txt").read().strip()))
PY
wait "$fpid"
[ ! -s "$TMP/witness.why" ] || skip "$(cat "$TMP/witness.why")"

python3 - "$TMP" "$pid" <<'PY'
import bisect, json, re, sys
from attrib_lib import load_gaps, load_witness, mostly_unexplained
tmp, pid = sys.argv[1], sys.argv[2]
run = json.load(open(tmp + "/run.json"))
c = run["cpus"][0]
runs = [(s, e) for s, e, ev in load_witness(tmp + "/witness.csv")
        if ev == "task:ksoftirqd/1:%s" % pid and c["start_ns"] <= s and e <= c["end_ns"]]
if len(runs) < 20:
    print("skip: ksoftirqd/1 ran %d times while measured under the flood (the kernel did not"
          " defer NET_RX to it)" % len(runs))
    sys.exit(77)
gaps = load_gaps(tmp + "/gaps.csv", 1)
vec = "HI|TIMER|NET_TX|NET_RX|BLOCK|IRQ_POLL|TASKLET|SCHED|HRTIMER|RCU"
name = re.compile(r"ksoftirqd/1:%s( (%s))?$" % (pid, vec))
mine = [(cl, d) for g in gaps for cl, d, _ in g.causes if d.startswith("ksoftirqd/")]
bad = [(cl, d) for cl, d in mine if cl != "softirq" or not name.match(d)]
if bad:
    sys.exit("FAIL: named otherwise: %s" % sorted(set(bad))[:5])
US = 1000
starts = [g.start for g in gaps]


def holding(s, e):
    """the gaps the run [s, e] lies in (within the trace's 1 us)"""
    i = max(0, bisect.bisect_right(starts, s + US) - 1)
    while i > 0 and gaps[i - 1].end >= s - US:
        i -= 1
    out = []
    while i < len(gaps) and gaps[i].start <= e + US:
        if gaps[i].end >= s - US:
            out.append(gaps[i])
        i += 1
    return out


def names_it(g):
    return any(cl == "softirq" and name.match(d) for cl, d, _ in g.causes)


evs = load_witness(tmp + "/witness.csv")
ev_starts = [e[0] for e in evs]
longest = max((e[1] - e[0] for e in evs), default=0)


def kernel_parts(g):
    """{event: ns} of what the kernel saw run in gap g, clipped to it: not the sampler's
    threads, its runs of ksoftirqd/1 holding the softirqs they ran, the tick holding its
    hrtimer callbacks"""
    i = bisect.bisect_left(ev_starts, g.start - US - longest)
    inside = []
    while i < len(evs) and evs[i][0] <= g.end + US:
        st, en, ev = evs[i]
        i += 1
        if en >= g.start - US and not ev.startswith(("task:js-", "task:jitterscope:",
                                                     "hrtimer:")):
            inside.append((max(st, g.start), min(en, g.end), ev))
    ks = [x for x in inside if x[2] == own]
    per = {}
    for st, en, ev in inside:
        if ev == own or not any(k[0] <= st and en <= k[1] for k in ks):
            per[ev] = per.get(ev, 0) + en - st
    return per


own = "task:ksoftirqd/1:%s" % pid
named, unseen, held = 0, [], set()
for s, e in runs:
    gs = holding(s, e)
    held.update(g.row for g in gs)
    if any(names_it(g) for g in gs):
        named += 1
    else:
        unseen.append((s, e, [(g.start, g.dur, g.cause, g.detail) for g in gs]))
# the gaps the kernel saw it lead: its run the largest part, 1.5 times the next, and the gap
# not mostly the host's (its remainder outweighs every part: unexplained is the primary then,
# and no guest trace sees it)
big = []
for g in gaps:
    if g.row not in held or mostly_unexplained(g):
        continue
    parts = sorted(kernel_parts(g).items(), key=lambda kv: -kv[1])
    if parts and parts[0][0] == own and (len(parts) == 1 or parts[0][1] >= 1.5 * parts[1][1]):
        big.append((g, parts[:3]))
prim = [g for g, _ in big if g.cause == "softirq" and name.match(g.detail)]
print("ksoftirqd/1 (pid %s) ran %d times on CPU 1 while measured (the kernel's trace): %d in a"
      " gap naming it (%.1f %%, need >= 99 %%); %d causes name it, all softirq; primary of %d of"
      " the %d gaps the kernel saw it lead (need >= 95 %%)" %
      (pid, len(runs), named, 100.0 * named / len(runs), len(mine), len(prim), len(big)))
if named < 0.99 * len(runs):
    sys.exit("FAIL: runs not named: %s" % unseen[:3])
if len(big) < 20:
    print("skip primary: the kernel saw ksoftirqd/1 lead only %d gaps (the others' larger"
          " parts were other work, or the host's)" % len(big))
elif len(prim) < 0.95 * len(big):
    # (the kernel's largest parts beside jitterscope's: its causes with their net ns)
    sys.exit("FAIL: primary elsewhere: %s" % [(g.start, g.dur, g.cause, g.detail, p, g.causes)
                                             for g, p in big if g not in prim][:3])
src = [x for x in c["sources"] if x["detail"].startswith("ksoftirqd/")]
if not src or not all(x["cause"] == "softirq" for x in src):
    sys.exit("FAIL: the cause table: %s" % src)
PY
rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "ksoftirqd/1 misnamed"
echo "attrib_ksoftirqd: PASS"
