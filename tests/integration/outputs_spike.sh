#!/bin/bash
# outputs_spike.sh - the flight recorder (--spike-threshold, --spike-dir) on the live
# machine, with ground truth from the project's injector (docs/INJECTOR.md):
#   1. one 2 ms preemption of CPU 1 (jsinject preempt) makes exactly one spike over it naming
#      the injected task as the gap's cause (other spikes on a busy machine name other tasks,
#      or jsinject's threads starting),
#      with the probe events of the 100 ms around it, and a trace of that window that parses
#      (its otherData: the TSC fit so far, no wall_ns: the run had not ended);
#   2. many injected spikes under --spike-max 3/min: at most 3 files in DIR (written less
#      replaced: another source's spike may replace a repeat, outputs_spike_keep.sh), the
#      rest counted as skipped (written + skipped = seen, in the JSON run file and the
#      Prometheus output alike);
#      while the run goes on, after the spikes, --listen and --prom FILE --prom-interval
#      already serve those counts (the spike output's sync copies them every drain);
#   3. a full file system under DIR (ENOSPC): the recorder stops with one line, the
#      measurement runs to its end, the skipped spikes are counted, exit 1.
# Root only (77 otherwise); about 13 s. See docs/OUTPUTS.md, "Flight recorder".
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsinject
mkdir -p "$TMP/small"
mount -t tmpfs -o size=64k jsspike "$TMP/small" || skip "cannot mount a tmpfs"
at_exit 'umount "$TMP/small" 2>/dev/null'

# measure NAME DUR ARGS... - jitterscope on CPU 1 for DUR s in the background, outputs in
# $TMP; its pid in JSPID
measure() {
	local name=$1 dur=$2
	shift 2
	"$JS" --cpu 1 -d "$dur" -q --json "$TMP/$name.json" --prom "$TMP/$name.prom" "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null &
	JSPID=$!
}
# injected NAME DUR 'INJECT ARGS' ARGS... - measure NAME DUR ARGS..., with jsinject preempt
# on CPU 1 once jitterscope samples (0.5 s after its probes are attached), to its end
injected() {
	local name=$1 dur=$2 inj=$3
	shift 3
	measure "$name" "$dur" "$@"
	attached $JSPID
	# shellcheck disable=SC2086 # the injector's arguments, split
	"$INJ" --mode preempt --cpu 1 --log "$TMP/$name.inj.csv" $inj >"$TMP/$name.inj" 2>&1 ||
		fail "$name: jsinject failed: $(cat "$TMP/$name.inj")"
	# MIDRUN NAME: a look at the run while it goes, after the injection
	[ -z "${MIDRUN:-}" ] || "$MIDRUN" "$name"
	wait $JSPID || fail "$name: jitterscope exited $?: $(cat "$TMP/$name.err")"
}

# 1. one 2 ms preemption: one spike, naming jsinject
injected one 3 "--duration 1 --period 2000000 --spin 2000" \
	--spike-threshold 1500us --spike-dir "$TMP/one" --spike-max 1000/min \
	--spike-per-source 1000/min
python3 - "$TMP" <<'PY' || fail "one: the spike file"
import glob, json, os, sys
from jsfiles import inject_actions
tmp = sys.argv[1]
acts = inject_actions(tmp + "/one.inj.csv", "preempt")
assert len(acts) == 1, "jsinject acted %d times, want 1" % len(acts)
_, a0, a1 = acts[0]
run = json.load(open(tmp + "/one.json"))
assert run["probes"]["enabled"], "probes off: %s" % run["probes"]["why_disabled"]
sp = run["spikes"]
files = sorted(f for f in glob.glob(tmp + "/one/spike-*.json") if not f.endswith(".trace.json"))
assert sp["seen"] == sp["written"] == len(files) >= 1, \
    "spikes %s, files %s: every spike written" % (sp, [os.path.basename(f) for f in files])
assert not glob.glob(tmp + "/one/.*"), "a temporary file is left"
docs = [(f, json.load(open(f))) for f in files]
# the injected action's spike: one, whatever else jsinject's threads did on CPU 1 while
# they started (on a slow host their set-up alone can take 1.5 ms there)
ours = [(f, d) for f, d in docs if "jsinject" in d["gap"]["story"] and
        d["gap"]["start_ns"] <= a1 and d["gap"]["start_ns"] + d["gap"]["dur_ns"] >= a0]
assert len(ours) == 1, "%d spikes name jsinject over its action, want 1: %s" % (
    len(ours), [d["gap"]["story"] for _, d in docs])
other = len(docs) - 1
f0, d = ours[0]
g = d["gap"]
assert d["kind"] == "spike" and d["cpu"] == 1, (d["kind"], d["cpu"])
assert g["start_ns"] <= a1 and g["start_ns"] + g["dur_ns"] >= a0, \
    "the spike [%d +%d] misses the injected action [%d, %d]" % (g["start_ns"], g["dur_ns"], a0, a1)
assert g["dur_ns"] >= 1500000, g["dur_ns"]
assert g["cause"] == "task" and g["detail"].startswith("jsinject:"), (g["cause"], g["detail"])
assert "jsinject" in g["story"], g["story"]
w = d["window"]
assert w["before_ns"] == w["after_ns"] == 100000000 and w["complete"], w
evs = d["events"]
assert len(evs) == w["events"] and evs, "no events in the window"
assert all(w["from_ns"] <= e["end_ns"] and e["start_ns"] <= w["to_ns"] for e in evs)
assert any(e["kind"] == "task" and e["label"].startswith("jsinject:") and e["in_gap"]
           for e in evs), "the task's event is not in the window"
assert any(e["end_ns"] < g["start_ns"] for e in evs) and \
    any(e["start_ns"] > g["start_ns"] + g["dur_ns"] for e in evs), \
    "no event before and after the gap: the window is not around it"
t = json.load(open(os.path.join(tmp, "one", d["trace"])))
te = t["traceEvents"]
od = t["otherData"]
assert od.get("tsc_hz", 0) > 0 and "wall_ns" not in od, \
    "a trace written mid-run: the fit so far, no run length: %s" % od
for e in te:
    assert {"ph", "pid", "tid", "name"} <= set(e), e
gaps = [e for e in te if e.get("cat") == "gap"]
assert len(gaps) == 1 and "jsinject" in gaps[0]["name"], gaps
assert any(e.get("cat") == "task" and "jsinject" in e["name"] for e in te), "no task slice"
print("  one: %s (%.0f KiB, trace %.0f KiB, %d events; longest write %.2f ms; %d other "
      "spikes)" % (os.path.basename(f0), os.path.getsize(f0) / 1024,
    os.path.getsize(os.path.join(tmp, "one", d["trace"])) / 1024, len(evs),
    sp["write_ns_max"] / 1e6, other))
PY

# 2. 150 preemptions of 300 us in 1.5 s, at most 3 a minute; 1.5 s after them a scrape of
# --listen and a copy of the --prom-interval textfile; the run (without end: a fixed length
# ran out before the look on a loaded machine, whose set-up took seconds) goes on 0.5 s
# more, then SIGINT ends it
port=$(free_port)
midrun() {
	sleep 1.5
	python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
		"http://127.0.0.1:$port/metrics" >"$TMP/$1.mid.scrape" ||
		fail "$1: no answer from --listen during the run"
	cp "$TMP/$1.prom" "$TMP/$1.mid.prom"
	kill -0 $JSPID 2>/dev/null || fail "$1: the run ended before the look at it"
	sleep 0.5
	kill -INT $JSPID
}
MIDRUN=midrun injected many 0 "--duration 1.5 --period 10000 --spin 300" \
	--spike-threshold 200us --spike-dir "$TMP/many" --spike-max 3/min \
	--listen "127.0.0.1:$port" --prom-interval 1s
python3 - "$TMP" <<'PY' || fail "many: the rate limit"
import glob, json, re, sys
from jsfiles import inject_actions, prom_value
tmp = sys.argv[1]
acts = inject_actions(tmp + "/many.inj.csv", "preempt")
sp = json.load(open(tmp + "/many.json"))["spikes"]
sk = sp["skipped"]
files = [f for f in glob.glob(tmp + "/many/spike-*.json") if not f.endswith(".trace.json")]
traces = glob.glob(tmp + "/many/spike-*.trace.json")
assert sp["seen"] >= len(acts) >= 100, "seen %d spikes, %d injected" % (sp["seen"], len(acts))
assert sp["written"] - sp["replaced"] == len(files) == len(traces) == 3, (sp, len(files), len(traces))
assert sp["written"] + sum(sk.values()) == sp["seen"], sp
assert sk["rate"] == sp["seen"] - sp["written"], sk
prom = open(tmp + "/many.prom").read()
def metric(name):
    return prom_value(prom, name)
assert metric("jitterscope_spikes_written_total") == sp["written"]
assert metric("jitterscope_spikes_replaced_total") == sp["replaced"]
assert metric('jitterscope_spikes_skipped_total{reason="rate"}') == sk["rate"]
assert metric('jitterscope_spikes_skipped_total{reason="size"}') == 0
# during the run, after the injected spikes: the same written, every injected spike counted
for mid in ("scrape", "prom"):
    prom = open(tmp + "/many.mid." + mid).read()
    written = metric("jitterscope_spikes_written_total")
    assert 3 <= written <= sp["written"], (mid, prom[-600:])
    # in DIR: never more than --spike-max; fewer while a replacing spike waits for its
    # window's events (its victim's files are gone, its own not written yet)
    assert 1 <= written - metric("jitterscope_spikes_replaced_total") <= 3, (mid, prom[-600:])
    rate = metric('jitterscope_spikes_skipped_total{reason="rate"}')
    assert len(acts) - written <= rate <= sk["rate"], (mid, rate, len(acts), sk)
    print("  many, during the run (%s): %d written, %d skipped (rate)" % (mid, written, rate))
print("  many: %d injected, %d spikes seen, %d written, %d replaced, %d skipped (rate)" % (
    len(acts), sp["seen"], sp["written"], sp["replaced"], sk["rate"]))
PY
grep -q "^flight recorder: .* [0-9]* written to $TMP/many .* skipped (rate " "$TMP/many.out" ||
	fail "many: the text report does not count the spikes: $(grep flight "$TMP/many.out")"

# 3. a full file system: the recorder stops, the measurement does not
measure full 2 --spike-threshold 5us --spike-dir "$TMP/small/spikes"
wait $JSPID
rc=$?
[ $rc -eq 1 ] || fail "full: exit $rc, want 1: $(cat "$TMP/full.err")"
grep -q "^jitterscope: cannot write --spike-dir file '$TMP/small/spikes/spike-.*': No space left on device; the flight recorder stops, the measurement goes on$" \
	"$TMP/full.err" || fail "full: no line naming the file: $(cat "$TMP/full.err")"
python3 - "$TMP" <<'PY' || fail "full: the run"
import glob, json, sys
tmp = sys.argv[1]
r = json.load(open(tmp + "/full.json"))
sp = r["spikes"]
assert not r["interrupted"] and r["wall_ns"] >= 1.9e9, "the run stopped: %s" % r["stop_reason"]
assert sp["skipped"]["error"] >= 1 and sp["written"] + sum(sp["skipped"].values()) == sp["seen"], sp
assert not glob.glob(tmp + "/small/spikes/.*"), "a temporary file is left"
print("  full: %d seen, %d written, %d skipped after ENOSPC; the run lasted %.1f s" % (
    sp["seen"], sp["written"], sp["skipped"]["error"], r["wall_ns"] / 1e9))
PY
echo "ok: one injected spike, one file naming it; the rate limit holds; ENOSPC stops spikes only"
exit 0
