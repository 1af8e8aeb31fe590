#!/bin/bash
# app_tid.sh - `--tid TID` end to end: jsapp runs two busy threads on CPU 1 (--threads 2: the
# scheduler hands the CPU from one to the other every few ms), and jitterscope --tid follows
# the first one only. Judged against the kernel's own record of CPU 1 (a tracefs witness:
# attrib_lib.Witness), not against jitterscope:
#   - the run is about that thread alone: follow.tids and the threads of the JSON are it,
#     every --gaps row is a `thread` row named jsapp:TID;
#   - its gaps are its own: every gap of 0.5 ms or more lies where the kernel had the thread
#     off CPU 1 or interrupted (an IRQ, timer or softirq it traced), or where the thread
#     itself saw its loop stall, for at least 90 % of the gap (another task of a shared
#     machine may take part of it), the other thread on the CPU for most of their total;
#     at least 95 % of the times the kernel switched it out for 0.5 ms or more (inside the
#     run, away from its ends) are a gap;
#   - the other thread's are not reported: of the times the followed thread ran 1 ms or more
#     (the other's preemptions, at least 50 of them), none holds 10 % or more of gap time
#     beyond the interruptions the kernel traced and the stalls the thread saw itself.
# The thread's own view (jsapp --log: each iteration of its loop that took 30 us or more,
# on CLOCK_MONOTONIC as the trace and the gaps) is the oracle of the host's stalls, which the
# guest's trace cannot see: a host stall between the kernel's switch tracepoint and
# jitterscope's program moves the gap's end past the kernel's switch-in (seen here: 0.7-1.4
# ms, 1 or 2 gaps in some runs beside the suite's other work, the thread's loop stalled all
# that time), and a hypervisor that reports no steal leaves nothing else to tell it by.
# Root, kernel BTF, 2 CPUs; about 6 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsapp
app=''
at_exit '[ -n "$app" ] && kill "$app" 2>/dev/null'

"$APP" --cpu 1 --duration 6 --threads 2 --ready "$TMP/ready" --log "$TMP/app.csv" \
	>"$TMP/app.out" 2>"$TMP/app.err" &
app=$!
for _ in $(seq 1 200); do [ -e "$TMP/ready" ] && break; sleep 0.02; done
[ -e "$TMP/ready" ] || fail "jsapp did not start: $(cat "$TMP/app.err")"
other=$(ls /proc/$app/task | grep -vx "$app")
[ "$(echo "$other" | grep -c .)" -eq 1 ] || fail "jsapp threads: $(ls /proc/$app/task)"

ROOT=$ROOT python3 - "$JS" "$TMP" "$app" "$other" <<'PY' || fail "--tid (above)"
import bisect, csv, json, os, signal, subprocess, sys, time
js, d, tid, other = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests", "lib"))
import attrib_lib as al
import jsfiles

w = al.Witness(1)
w.start()
rc = subprocess.call([js, "--tid", str(tid), "-d", "3", "-q", "--gaps",
                      os.path.join(d, "gaps.csv"), "--json", os.path.join(d, "run.json")],
                     stdout=subprocess.DEVNULL, stderr=open(os.path.join(d, "js.err"), "w"))
evs = w.stop(os.path.join(d, "witness.csv"))
assert rc == 0, "jitterscope exited %d: %s" % (rc, open(os.path.join(d, "js.err")).read())
assert evs is not None, "no kernel witness: %s" % w.why
# the thread's own log is written when jsapp ends (now, or by itself already)
try:
    os.kill(tid, signal.SIGTERM)
except ProcessLookupError:
    pass
for _ in range(500):
    if "tid=" in open(os.path.join(d, "app.out")).read():
        break
    time.sleep(0.01)
else:
    raise AssertionError("jsapp wrote no summary 5 s after SIGTERM")

r = json.load(open(os.path.join(d, "run.json")))
assert r["follow"]["tids"] == [tid], r["follow"]
assert [t["tid"] for t in r["threads"]] == [tid], [t["tid"] for t in r["threads"]]
th = r["threads"][0]
t0, t1 = th["start_ns"], th["end_ns"]
rows = jsfiles.gap_rows(os.path.join(d, "gaps.csv"))
assert len(rows) == th["gap_count"] > 0, (len(rows), th["gap_count"])
wrong = [g for g in rows if g.get("source") != "thread" or g.get("name") != "jsapp:%d" % tid]
assert not wrong, "rows of something else than jsapp:%d: %s" % (tid, wrong[:3])
gaps = sorted((int(g["start_ns"]), int(g["start_ns"]) + int(g["duration_ns"])) for g in rows)
# the host's steal in each gap (the guest's trace cannot see it): start -> (end, steal ns)


def runs(t):
    """the kernel's runs of thread t on CPU 1, [(start, end)] in order"""
    return sorted((s, e) for s, e, ev in evs if ev.startswith("task:") and
                  ev.rpartition(":")[2] == str(t))


def covered(spans, s, e):
    """ns of [s, e] covered by the sorted, disjoint spans"""
    i = max(0, bisect.bisect_left(spans, (s, s)) - 1)
    n = 0
    while i < len(spans) and spans[i][0] < e:
        n += max(0, min(e, spans[i][1]) - max(s, spans[i][0]))
        i += 1
    return n


def minus(spans, cut):
    """the sorted, disjoint spans less the sorted, disjoint cut"""
    out, j = [], 0
    for a, b in spans:
        while j < len(cut) and cut[j][1] <= a:
            j += 1
        k = j
        while k < len(cut) and cut[k][0] < b:
            if cut[k][0] > a:
                out.append((a, cut[k][0]))
            a = max(a, cut[k][1])
            k += 1
        if a < b:
            out.append((a, b))
    return out


def merged(spans):
    """sorted, disjoint union of spans"""
    out = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


mine, its = runs(tid), runs(other)
# what interrupted whichever task ran, as the kernel traced it (IRQs, timers, softirqs)
ints = merged((s, e) for s, e, ev in evs if not ev.startswith("task:"))
# where the thread saw its own loop stall (jsapp --log: iterations >= 30 us)
stalls = merged((int(r["start_ns"]), int(r["end_ns"]))
                for r in csv.DictReader(open(os.path.join(d, "app.csv"))))
# where the kernel had it running, no interruption traced, and its loop going: a gap there
# is not its own
going = minus(minus(mine, ints), stalls)
assert len(mine) >= 50 and len(its) >= 50, "the threads ran %d and %d times" % (len(mine),
                                                                               len(its))
# its own: its long gaps are the other thread's runs
long_gaps = [(s, e) for s, e in gaps if e - s >= 500000]
bad = [(s, e) for s, e in long_gaps if covered(going, s, e) > 0.1 * (e - s)]
for s, e in bad[:5]:
    print("  gap %d +%.3f ms: the other thread ran %.3f ms of it, this one %.3f ms (its loop"
          " going %.3f ms), interruptions %.3f ms"
          % (s, (e - s) / 1e6, covered(its, s, e) / 1e6, covered(mine, s, e) / 1e6,
             covered(going, s, e) / 1e6, covered(ints, s, e) / 1e6))
stalled = sum(1 for s, e in long_gaps
              if covered(mine, s, e) - covered(ints, s, e) > 0.1 * (e - s))
assert long_gaps and not bad, "%d of %d gaps >= 0.5 ms while the thread ran" % (
    len(bad), len(long_gaps))
lg = sum(e - s for s, e in long_gaps)
by_other = sum(covered(its, s, e) for s, e in long_gaps)
assert by_other >= 0.5 * lg, "the other thread ran %.1f of the %.1f ms of long gaps" % (
    by_other / 1e6, lg / 1e6)
# every time the kernel switched it out 0.5 ms or more (well inside the run) is a gap
off = [(a[1], b[0]) for a, b in zip(mine, mine[1:])
       if b[0] - a[1] >= 500000 and a[1] > t0 + 10000000 and b[0] < t1 - 10000000]
seen = [o for o in off if covered(gaps, *o) >= 0.9 * (o[1] - o[0])]
assert len(seen) >= 0.95 * len(off) > 0, "%d of %d preemptions are gaps" % (len(seen), len(off))
# not the other's: the followed thread's own runs hold no gap time to speak of
ran = [(s, e) for s, e in mine if e - s >= 1000000 and s > t0 and e < t1]
# a gap inside one of its runs is an interruption the kernel traced or a stall the thread
# saw (the host's, which the guest's trace cannot see); what is left would be the other's
held = [(s, e) for s, e in ran if covered(minus(merged(gaps), merged(ints + stalls)), s, e)
        >= 0.1 * (e - s)]
for s, e in held[:5]:
    print("  its run %d +%.3f ms holds %.3f ms of gaps (%.3f ms of them interruptions, its"
          " loop stalled %.3f ms)" % (s, (e - s) / 1e6, covered(merged(gaps), s, e) / 1e6,
                                      covered(ints, s, e) / 1e6, covered(stalls, s, e) / 1e6))
assert len(ran) >= 50, "only %d runs of 1 ms or more to judge" % len(ran)
assert not held, "%d of its %d runs hold gaps: the other thread's" % (len(held), len(ran))
print("ok: --tid %d: %d gaps, only its own; its %d gaps >= 0.5 ms while it was off CPU 1, "
      "jsapp:%d on it %.1f %% of that time; %d of %d preemptions (kernel) are gaps; none of "
      "its %d runs >= 1 ms holds gap time; %d long gaps held time the thread ran by the"
      " kernel's trace, its loop stalled then (the host's)"
      % (tid, len(rows), len(long_gaps), other, 100.0 * by_other / lg, len(seen), len(off),
         len(ran), stalled))
PY
wait $app || fail "jsapp exited $?: $(cat "$TMP/app.err")"
app=''
exit 0
