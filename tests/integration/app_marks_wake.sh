#!/bin/bash
# app_marks_wake.sh - issue 40: with --marks a followed thread holds its CPU from its wake-up,
# so a marked iteration that sleeps keeps what made it wait for its CPU once woken. A stand-in
# application on CPU 1 (SCHED_OTHER) marks each 1 ms sleep, from before it to after it
# (time.sleep: its wake-up then its return); jsinject --mode pipe wakes a SCHED_FIFO reader on
# CPU 1 every 10 ms that spins 600 us, most often while the application sleeps. The oracle is
# the kernel's trace of CPU 1's task switches (tests/lib/attrib_lib.py: Witness): a mark whose
# sleep's timer expired while the reader ran (a run of it began before the mark's start + 1 ms
# and ended after its start + 1.1 ms, inside the mark) waited for the reader once woken, and
# must name it (a `task` cause jsinject:TID in the mark's row of the --gaps CSV) in at least
# 95 % of them, judged from at least 30 (22-218 in the 3 s run here; a 300 us spin gave
# 26-216; fewer than 30: "skip waited:", a listed skip). A follow object that takes the CPU
# only at the switch in (as --pid alone does: mutants.py's marks-wake-hold-off) names the
# reader in few of them: its
# run, begun while no followed thread held the CPU and ended at the switch where the
# application took it, is not recorded. A run of the reader that ends before the timer expires
# delayed nothing, and the mark is not asked to name it. Then a 1.5 s run of the application
# alone: each mark is a sleep CPU 1 spends idle, and its primary cause must be idle in at
# least 80 % of them (the idle run logged for the marks at a wake-up shorter than 10 us,
# js_follow_bh.h, sent at a longer one). Where it was neither sent nor logged, 5 % were in a
# manual run; but this host's wake-ups are sometimes slower than 10 us for a whole run, and
# that build then passes (92 %, 1 run of 2): the check guards the marks' idle where wake-ups
# are quick. Root, kernel BTF, CPU 1 (77 otherwise); about 9 s.
# The kernel's trace not to be had (tests/lib/attrib_lib.py's Witness says why): exit 77.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsinject
app='' inj=''
at_exit '[ -n "$inj" ] && kill "$inj" 2>/dev/null; [ -n "$app" ] && kill "$app" 2>/dev/null'
: >"$TMP/app.marks"
taskset -c 1 python3 - "$TMP/app.marks" 12 <<'PY' >"$TMP/app.out" 2>&1 &
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    t0 = time.monotonic_ns()
    time.sleep(0.001)
    os.write(fd, b"%d,%d\n" % (t0, time.monotonic_ns()))
PY
app=$!
"$INJ" --mode pipe --cpu 1 --helper-cpu 0 --duration 12 --period 10000 --spin 600 \
	>"$TMP/inj.out" 2>&1 &
inj=$!
sleep 0.5
python3 - "$JS" "$TMP" "$app" <<'PY' || fail "the run under the witness"
import subprocess, sys
from attrib_lib import Witness
js, tmp, app = sys.argv[1:4]
w = Witness(1)
w.start()
with open(tmp + "/report.txt", "w") as out, open(tmp + "/err.txt", "w") as err:
    rc = subprocess.call([js, "--pid", app, "--marks", tmp + "/app.marks", "--duration", "3",
                          "-q", "--gaps", tmp + "/gaps.csv", "--json", tmp + "/run.json"],
                         stdout=out, stderr=err)
w.stop(tmp + "/witness.csv")
open(tmp + "/witness.why", "w").write(w.why or "")
if rc:
    sys.exit("run exited %d (%s)" % (rc, open(tmp + "/err.txt").read().strip()))
PY
[ ! -s "$TMP/witness.why" ] || skip "$(cat "$TMP/witness.why")"
python3 - "$TMP" <<'PY' || fail "marks that waited for the reader do not name it (outputs in $TMP)"
import json, sys
from attrib_lib import has_cause, load_gaps, load_witness
tmp = sys.argv[1]
run = json.load(open(tmp + "/run.json"))
assert run["marks_file"]["marks"] >= 1000, run["marks_file"]
runs = [(s, e) for s, e, ev in load_witness(tmp + "/witness.csv")
        if ev.startswith("task:jsinject:")]
# the marks after the probes were attached (those before have no causes: counted early)
start = min(r["start_ns"] for r in run["marks"])
marks = [m for m in load_gaps(tmp + "/gaps.csv", None, "mark") if m.start >= start]
assert runs and marks, (len(runs), len(marks))
# the marks whose wake-up came while the reader ran: a run of it began before the sleep's
# timer could expire (1 ms after the mark's start) and ended after it had (its slack is
# 50 us), inside the mark. One that ran while the application slept and ended before its
# timer delayed nothing: a mark does not name it
judged = named = 0
missed = []
for m in marks:
    if not any(s < m.start + 1000000 and m.start + 1100000 < e <= m.end for s, e in runs):
        continue
    judged += 1
    if has_cause(m, "task", "jsinject:"):
        named += 1
    elif len(missed) < 3:
        missed.append((m.start, m.dur, m.cause, m.detail))
print("marks %d, the reader's runs %d; marks woken while it ran: %d, naming it %d"
      " (%.1f %%, need >= 95 %% of >= 30)" % (len(marks), len(runs), judged, named,
                                              100.0 * named / max(judged, 1)))
# how many wake-ups fall in the reader's runs is the host's timing (22-218 here): fewer than
# 30 cannot be judged, a skip of this part (tests/skips-allowed.txt)
if judged < 30:
    print("skip waited: only %d marks woken while the reader ran (need 30 to judge)" % judged)
else:
    assert named >= 0.95 * judged, "not named: %s" % missed
PY
# the same application alone (the injector gone): each mark is a sleep, which CPU 1 spends
# idle; the mark shows it as idle, from the idle run logged at its short wake-up
kill "$inj"
wait "$inj" 2>/dev/null
inj=''
"$JS" --pid "$app" --marks "$TMP/app.marks" --duration 1.5 -q --json "$TMP/alone.json" \
	>"$TMP/alone.txt" 2>&1 || fail "the run alone: $(cat "$TMP/alone.txt")"
python3 - "$TMP/alone.json" <<'PY' || fail "a mark's sleep is not shown as idle (outputs in $TMP)"
import json, sys
j = json.load(open(sys.argv[1]))
m = j["marks"][0]
n = m["gap_count"]
idle = m["by_primary_cause"].get("idle", {}).get("gaps", 0)
print("alone: %d marks, primary cause idle in %d (%.1f %%, need >= 80 %%); idle runs sent %d"
      " (the rest logged for the marks)" % (n, idle, 100.0 * idle / max(n, 1),
                                           j["probes"]["events_by_kind"].get("idle", 0)))
assert n >= 400 and idle >= 0.8 * n
PY
echo "ok: a marked iteration that waited for its CPU after its wake-up names what ran there"
