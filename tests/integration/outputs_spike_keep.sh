#!/bin/bash
# outputs_spike_keep.sh - the flight recorder keeps what matters (issue 28): --spike-max 8/min
# filled by one repeated source first (jsinject preempt: 60 preemptions of 1.5 ms of CPU 1 in
# 1.5 s, one task, from 0.5 s after jitterscope's probes are attached), then a new source
# 1.5 s later (a task of another name, jsnewsrc, spinning 2 ms on CPU 1 under SCHED_FIFO,
# once): the new source's spike is in DIR, it replaced one
# of the repeats (files removed, counted as replaced in JSON, Prometheus and the text), the
# files in DIR are still at most 8, and written + skipped = seen. --spike-per-source 8: one
# source may fill the window (outputs_spike_source.sh checks the bound of one source).
# Root only (77 otherwise); about 7 s. See docs/OUTPUTS.md, "Flight recorder".
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsinject
# this script and all it starts stay off CPU 1 (its affinity is CPU 0, as a tuned box's shell
# is; jitterscope and jsinject still reach CPU 1, which the cpuset allows): each of its
# processes there would be one more source, and 8 slots full of distinct sources leave the
# new one no repeat to replace
on_housekeeping

"$JS" --cpu 1 -d 6.5 -q --json "$TMP/run.json" --prom "$TMP/run.prom" --spike-threshold 1ms \
	--spike-dir "$TMP/spikes" --spike-max 8/min --spike-per-source 8 >"$TMP/run.out" \
	2>"$TMP/run.err" </dev/null &
JSPID=$!
attached $JSPID
"$INJ" --mode preempt --cpu 1 --duration 1.5 --period 25000 --spin 1500 --log "$TMP/inj.csv" \
	>"$TMP/inj.out" 2>&1 || fail "jsinject failed: $(cat "$TMP/inj.out")"
taskset -c 0 sleep 1.5
# the new source: named before it moves to CPU 1, one 2 ms spin there at SCHED_FIFO 50
python3 - "$TMP/new.csv" <<'PY' || fail "the new source did not run"
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(15, b"jsnewsrc", 0, 0, 0)  # PR_SET_NAME
os.sched_setaffinity(0, {1})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
while time.clock_gettime_ns(time.CLOCK_MONOTONIC) - t0 < 2000000:
    pass
t1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
os.sched_setaffinity(0, {0})
open(sys.argv[1], "w").write("%d,%d,%d\n" % (os.getpid(), t0, t1))
PY
wait $JSPID || fail "jitterscope exited $?: $(cat "$TMP/run.err")"
python3 - "$TMP" <<'PY' || fail "the recorder did not keep the new source"
import glob, json, re, sys
from jsfiles import inject_actions, prom_value
tmp = sys.argv[1]
acts = inject_actions(tmp + "/inj.csv", "preempt")
pid, n0, n1 = (int(x) for x in open(tmp + "/new.csv").read().split(","))
run = json.load(open(tmp + "/run.json"))
assert run["probes"]["enabled"], "probes off: %s" % run["probes"]["why_disabled"]
sp = run["spikes"]
sk = sp["skipped"]
files = sorted(f for f in glob.glob(tmp + "/spikes/spike-*.json") if not f.endswith(".trace.json"))
traces = glob.glob(tmp + "/spikes/spike-*.trace.json")
docs = [json.load(open(f)) for f in files]
srcs = [(d["gap"]["cause"], d["gap"]["detail"]) for d in docs]
assert len(acts) >= 40, "jsinject acted %d times" % len(acts)
assert sp["seen"] >= 40, "seen %d spikes: the repeated source did not fill the window" % sp["seen"]
assert sp["written"] + sum(sk.values()) == sp["seen"], sp
assert len(files) == len(traces) == sp["written"] - sp["replaced"] <= 8, (sp, len(files), len(traces))
assert sp["replaced"] >= 1 and sk["rate"] >= 30, sp
new = [d for d in docs if d["gap"]["cause"] == "task" and
       d["gap"]["detail"].startswith("jsnewsrc:%d" % pid) and
       d["gap"]["start_ns"] <= n1 and d["gap"]["start_ns"] + d["gap"]["dur_ns"] >= n0]
assert len(new) == 1, "the new source's spike is not in DIR: %s" % srcs
assert any(d["gap"]["detail"].startswith("jsinject:") for d in docs), \
    "no jsinject spike left: %s" % srcs
prom = open(tmp + "/run.prom").read()
def metric(name):
    return prom_value(prom, name)
assert metric("jitterscope_spikes_replaced_total") == sp["replaced"]
assert metric("jitterscope_spikes_written_total") == sp["written"]
assert metric('jitterscope_spikes_skipped_total{reason="rate"}') == sk["rate"]
print("  %d injected, %d seen, %d written, %d replaced, %d skipped (rate); in DIR: %s" % (
    len(acts), sp["seen"], sp["written"], sp["replaced"], sk["rate"],
    ", ".join("%s %s" % s for s in srcs)))
PY
grep -q "^flight recorder: .* written to $TMP/spikes .* skipped (rate [0-9]*), [0-9]* replaced by a new source or a longer spike$" \
	"$TMP/run.out" || fail "the text report does not count the replaced: $(grep flight "$TMP/run.out")"
echo "ok: a new source's spike replaces a repeat once the window is full"
exit 0
