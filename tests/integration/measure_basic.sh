#!/bin/bash
# measure_basic.sh - the foundation end to end: a real run on CPU 1, its report,
# JSON and CSV coherent with each other; the probes loaded (root, kernel BTF: they must) and
# their cost reported (--probe-cost); the steal line and the interrupt counters' deltas
# free of the probes' attach (issue 39); bad input refused quickly.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf

"$JS" --cpu 1 --duration 3 --probe-cost --json "$TMP/run.json" --gaps "$TMP/gaps.csv" -n 5 \
	>"$TMP/report.txt" 2>"$TMP/err.txt" || fail "run exited $? ($(cat "$TMP/err.txt"))"
grep -q "^CPU 1 " "$TMP/report.txt" || fail "no CPU 1 section in the report"
grep -q "loop period" "$TMP/report.txt" || fail "no loop period in the report"
grep -q "percentiles" "$TMP/report.txt" || fail "no percentiles in the report"
grep -q "probes: on" "$TMP/report.txt" ||
	fail "the probes did not load as root: $(grep -o 'probes: off.*' "$TMP/report.txt")"
grep -q "^probe cost: .* of BPF run time" "$TMP/report.txt" || fail "no probe cost line"

python3 - "$TMP/run.json" "$TMP/gaps.csv" <<'PY' || fail "JSON/CSV incoherent"
import json, sys
import jsfiles
run = json.load(open(sys.argv[1]))
assert run["schema_version"] == 3, "schema_version"
assert run["params"]["cpus"] == [1], run["params"]["cpus"]
c = run["cpus"][0]
for k in ("cpu", "loop_ns_min", "loop_ns_median", "gap_count", "lost_ns", "p50_ns", "p90_ns",
          "p99_ns", "p999_ns", "p9999_ns", "max_ns", "dropped", "top"):
    assert k in c, "missing " + k
ps = [c[k] for k in ("p50_ns", "p90_ns", "p99_ns", "p999_ns", "p9999_ns", "max_ns")]
assert ps == sorted(ps), "percentiles not monotone: %s" % ps
assert c["max_ns"] >= c["p9999_ns"]
assert 0 < c["loop_ns_min"] <= c["loop_ns_median"] < 1000, (c["loop_ns_min"], c["loop_ns_median"])
assert 2.5e9 < c["duration_ns"] < 3.5e9, c["duration_ns"]
# the header, with or without rows (jsfiles checks it before reading any)
rows = jsfiles.gap_rows(sys.argv[2])
assert len(rows) == c["gap_count"], "CSV rows %d != gap_count %d" % (len(rows), c["gap_count"])
assert sum(int(r["duration_ns"]) for r in rows) == c["lost_ns"], "lost_ns != sum of CSV durations"
assert all(int(r["duration_ns"]) >= run["params"]["threshold_ns"] for r in rows)
starts = [int(r["start_ns"]) for r in rows]
assert starts == sorted(starts), "CSV rows not in time order"
assert all(c["start_ns"] <= s <= c["end_ns"] for s in starts), "gap outside the measured window"
top = c["top"]
assert len(top) == min(5, c["gap_count"])
assert [t["duration_ns"] for t in top] == sorted([t["duration_ns"] for t in top], reverse=True)
if top:
    # the max is the worst gap, within HdrHistogram's precision (3 digits)
    assert abs(top[0]["duration_ns"] - c["max_ns"]) <= c["max_ns"] / 1000 + 1
# the probes' own cost (kernel bpf_stats): every program that ran is listed, the totals add up
pr = run["probes"]
assert pr["enabled"], "probes off: %s" % pr["why_disabled"]
cost = pr["cost"]
assert cost is not None, "probes on, their cost not measured"
progs = cost["programs"]
names = {p["name"] for p in progs}
assert {"local_timer_entry", "local_timer_exit", "sched_switch"} <= names, names
assert sum(p["runs"] for p in progs) == cost["runs"] > 0
assert sum(p["run_ns"] for p in progs) == cost["run_ns"] > 0
assert [p["run_ns"] for p in progs] == sorted((p["run_ns"] for p in progs), reverse=True)
assert 2.5e9 < cost["attached_ns"] < 4e9, cost["attached_ns"]
print("probe cost: %.2f ms of BPF over %.1f s, %.0f ns per event" %
      (cost["run_ns"] / 1e6, cost["attached_ns"] / 1e9, cost["run_ns"] / max(pr["events"], 1)))
print("ok: %d gaps, lost %.3f %%, loop median %.1f ns" % (c["gap_count"], c["lost_pct"], c["loop_ns_median"]))
PY

# steal (issue 39): where the kernel never counted any (/proc/stat's steal column 0), the
# report says the hypervisor reports none (or that there is none), not "0 ns allocated"
steal=$(awk '$1 == "cpu" { print $9 }' /proc/stat)
if [ "$steal" = 0 ]; then
	grep -Eq '^  steal +(not reported by this hypervisor|none: not a virtual machine)$' \
		"$TMP/report.txt" || fail "steal: $(grep -m1 '^  steal ' "$TMP/report.txt")"
else
	grep -Eq '^  steal +.* allocated to gaps$' "$TMP/report.txt" ||
		fail "steal: $(grep -m1 '^  steal ' "$TMP/report.txt")"
fi
echo "ok: $(grep -m1 '^  steal ' "$TMP/report.txt" | tr -s ' ') (/proc/stat steal $steal)"

# jitterscope out of its own evidence (issue 39): the counters' deltas start once the probes
# are attached and end before they are detached (attaching text-pokes every CPU: 890
# function-call interrupts on CPU 1 in a 2 s run when the snapshot came first, 1 without
# the probes; 0 and 2 since). With probes, the CAL delta is of the order of --no-probes'.
"$JS" --cpu 1 --duration 2 --no-probes --json "$TMP/np.json" >/dev/null 2>"$TMP/np.err" ||
	fail "--no-probes run exited $? ($(cat "$TMP/np.err"))"
python3 - "$TMP/run.json" "$TMP/np.json" <<'PY' || fail "the counters hold jitterscope's own attach"
import json, sys
def cal(path):
    d = json.load(open(path))["counter_deltas"]
    assert d, "%s: no counter_deltas" % path
    rows = [c["rows"] for c in d["cpus"] if c["cpu"] == 1][0]
    return sum(r["delta"] for r in rows if r["key"] == "CAL")
probes, bare = cal(sys.argv[1]), cal(sys.argv[2])
print("CAL on CPU 1: %d with the probes (3 s), %d with --no-probes (2 s)" % (probes, bare))
assert probes < 50 and bare < 50, "CAL %d with probes, %d without: want < 50 both" % (probes, bare)
PY

# bad input: a one-line message and exit 64, before any measuring
start=$(date +%s%N)
"$JS" --cpu 4096 -d 1 >/dev/null 2>"$TMP/e1"; rc=$?
[ $rc -eq 64 ] || fail "--cpu 4096 exited $rc, want 64"
[ "$(wc -l <"$TMP/e1")" -ge 1 ] || fail "no message for --cpu 4096"
"$JS" --cpu 1 -d 1 --json /nonexistent/dir/run.json >/dev/null 2>"$TMP/e2"; rc=$?
[ $rc -eq 1 ] || fail "unwritable --json exited $rc, want 1"
grep -q "cannot write" "$TMP/e2" || fail "no message for unwritable --json"
"$JS" --duration 5x >/dev/null 2>"$TMP/e3"; rc=$?
[ $rc -eq 64 ] || fail "--duration 5x exited $rc, want 64"
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
[ $elapsed -lt 3000 ] || fail "bad input took ${elapsed} ms: checks must come before measuring"
echo "ok: bad input refused in ${elapsed} ms"
exit 0
