#!/bin/bash
# outputs_spike_source.sh - a spike's source is a task's name and cgroup, never its pid (issue
# 39, item 6): a shell loop pinned to CPU 1 spawns /bin/true without end (a new pid each time,
# about 100 spikes of 1 ms or more a second), and 1 s into it jsinject preempts CPU 1 for 3 ms
# every 100 ms. The loop's tasks, whatever their pids, keep at most --spike-per-source (3)
# files of one name and cgroup, and the injected task keeps its 3: every one of its first
# spikes is in DIR. Keyed by pid, the loop's "new sources" filled any --spike-max (60 here
# within a second) and the injected task kept one spike at most. written + skipped = seen;
# the run file says the bounds. The loop starts once jitterscope's probes are attached.
# Root only (77 otherwise); about 7 s. See docs/OUTPUTS.md, "Flight recorder".
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsinject
# this script stays on CPU 0 (each of its processes on CPU 1 would be one more source); the
# loop, jitterscope and jsinject reach CPU 1, which the cpuset allows
on_housekeeping

"$JS" --cpu 1 -d 5.5 -q -T 1ms --json "$TMP/run.json" --gaps "$TMP/gaps.csv" \
	--spike-threshold 1ms --spike-dir "$TMP/spikes" --spike-max 60/min \
	>"$TMP/run.out" 2>"$TMP/run.err" </dev/null &
JSPID=$!
attached $JSPID
taskset -c 1 sh -c 'while :; do /bin/true; done' &
LOOP=$!
at_exit 'kill $LOOP 2>/dev/null'
taskset -c 0 sleep 1
"$INJ" --mode preempt --cpu 1 --duration 2 --period 100000 --spin 3000 --log "$TMP/inj.csv" \
	>"$TMP/inj.out" 2>&1 || fail "jsinject failed: $(cat "$TMP/inj.out")"
taskset -c 0 sleep 0.5
kill $LOOP
wait $LOOP 2>/dev/null
wait $JSPID || fail "jitterscope exited $?: $(cat "$TMP/run.err")"
python3 - "$TMP" <<'PY' || fail "the recorder did not keep the injected task's spikes"
import collections, glob, json, re, sys
from jsfiles import gap_rows, inject_actions
tmp = sys.argv[1]
acts = inject_actions(tmp + "/inj.csv", "preempt")
run = json.load(open(tmp + "/run.json"))
assert run["probes"]["enabled"], "probes off: %s" % run["probes"]["why_disabled"]
sp = run["spikes"]
files = sorted(f for f in glob.glob(tmp + "/spikes/spike-*.json") if not f.endswith(".trace.json"))
docs = [json.load(open(f))["gap"] for f in files]

def source(g):
    """the recorder's source: class, detail less pids and cgroup name, the cgroup id"""
    prim = [p for p in g["causes"] if p["cause"] == g["cause"] and p["detail"] == g["detail"]]
    cg = prim[0].get("cgroup_id") if prim else None
    name = g["detail"]
    if g["cause"] != "irq":
        name = re.sub(r":\d+(?=[ )]|$)", "", name)
    if cg and name.endswith("]") and " [" in name:
        name = name[:name.rindex(" [")]
    return (g["cause"], name, cg)

by_src = collections.Counter(source(g) for g in docs)
shown = ", ".join("%s %s x%d" % (s[0], s[1], n) for s, n in by_src.most_common())
loop = [g for g in docs if g["cause"] == "task" and re.match(r"(sh|true):\d+", g["detail"])]
inj = [g for g in docs if g["cause"] == "task" and g["detail"].startswith("jsinject:")]
# the spikes jsinject is the primary source of: every gap of 1 ms or more (-T) is a spike
inj_gaps = [r for r in gap_rows(tmp + "/gaps.csv", cpu=1) if r["cause"] == "task" and
            r["detail"].startswith("jsinject:") and int(r["duration_ns"]) >= 1000000]
assert len(acts) >= 15, "jsinject acted %d times" % len(acts)
assert len(inj_gaps) >= 3, "jsinject was the primary source of %d spikes" % len(inj_gaps)
assert sp["max_per_min"] == 60 and sp["max_per_source"] == 3, sp
assert sp["written"] + sum(sp["skipped"].values()) == sp["seen"], sp
assert len(files) == sp["written"] - sp["replaced"] <= 60, (sp, len(files))
# the loop preempted the sampler with many pids: more spikes than the minute keeps
assert sp["seen"] >= 100 and sp["skipped"]["rate"] >= 30, sp
assert loop, "no spike of the shell loop in DIR: %s" % shown
assert max(by_src.values()) <= 3, "a source kept more than 3: %s" % shown
assert len(inj) == 3, "%d of jsinject's %d spikes in DIR: %s" % (len(inj), len(inj_gaps), shown)
print("  %d injected, %d seen, %d written, %d replaced, %d skipped (rate); in DIR: %s" % (
    len(acts), sp["seen"], sp["written"], sp["replaced"], sp["skipped"]["rate"], shown))
PY
echo "ok: the loop's pids are one source each name; the injected task's spikes are kept"
exit 0
