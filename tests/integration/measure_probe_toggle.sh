#!/bin/bash
# measure_probe_toggle.sh - the bench's observer instrument (--probe-toggle FILE, hidden):
# during a real 6 s run on CPU 1 the probes are detached and attached again at random, each
# change a row of FILE (attached,start_ns,end_ns) alternating from a detach, each state
# lasting 0.3-0.7 s; the kernel's tick (250 or so a second) is named in the gaps of the
# attached states and nothing is named in the detached ones (20 ms from any change: what
# the change itself sends the CPU); the run ends with exit 0, its probes gone, nothing lost.
# Bad input (--no-probes, an unwritable FILE) is in robust_badinput.sh. Root, about 8 s.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
need_btf

"$JS" --cpu 1 -d 6 -q --probe-toggle "$TMP/toggle.csv" --gaps "$TMP/gaps.csv" \
	--json "$TMP/run.json" >/dev/null 2>"$TMP/err" || fail "run exited $? ($(cat "$TMP/err"))"
[ -s "$TMP/err" ] && fail "stderr not empty: $(head -3 "$TMP/err")"
# the kernel frees programs asynchronously after the last fd closes (their links after an
# RCU grace period): a program of the run may be listed for a moment after it exits
for _ in $(seq 1 50); do
	bpftool prog show 2>/dev/null | grep -q 'name local_timer_ent' || break
	sleep 0.1
done
if bpftool prog show 2>/dev/null | grep -q 'name local_timer_ent'; then
	fail "a probe is still loaded 5 s after the run"
fi
python3 - "$TMP/toggle.csv" "$TMP/gaps.csv" "$TMP/run.json" <<'PY' || fail "toggling not as documented"
import csv, json, statistics, sys
import jsfiles
GUARD = 20_000_000
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["attached", "start_ns", "end_ns"], rows[0]
ch = [(int(a), int(s), int(e)) for a, s, e in rows[1:]]
run = json.load(open(sys.argv[3]))
c = run["cpus"][0]
assert run["probes"]["enabled"] and run["probes"]["lost"] == 0, run["probes"]
# 6 s of states of 0.3-0.7 s: 8 changes at least, 20 at most
assert 8 <= len(ch) <= 20, "%d changes" % len(ch)
assert [a for a, _, _ in ch] == [i % 2 for i in range(len(ch))], "not alternating from a detach"
for i, (a, s, e) in enumerate(ch):
    # begun while measuring (the last one may end after the window closed; a change is
    # begun only while a sampler runs, checked microseconds before: 1 ms of slack)
    assert c["start_ns"] - 2e9 <= s <= min(e, c["end_ns"] + 1e6), "change %d outside the run" % i
    if i:
        held = s - ch[i - 1][2]
        assert 0.29e9 <= held <= 0.75e9, "state %d held %.3f s" % (i, held / 1e9)


def state(t):
    """attached (1/0) at t, None within GUARD of a change"""
    st = 1
    for a, s, e in ch:
        if t < s - GUARD:
            return st
        if t <= e + GUARD:
            return None
        st = a
    return st


gaps = jsfiles.gap_rows(sys.argv[2])
by = {0: [], 1: []}
for g in gaps:
    st = state(int(g["start_ns"]))
    if st is not None and int(g["start_ns"]) >= c["start_ns"]:
        by[st].append(g)
named_off = [g for g in by[0] if g["causes"]]
ticks_on = [g for g in by[1] if g["cause"] in ("timer", "hrtimer")]
on_s = sum(max(0, min(ch[i + 1][1] if i + 1 < len(ch) else c["end_ns"], c["end_ns"]) - e)
           for i, (a, s, e) in enumerate(ch) if a == 1) + ch[0][1] - c["start_ns"]
print("ok: %d changes (detach %.1f ms, attach %.1f ms median); attached %.1f s: %d tick gaps "
      "named; detached: %d gaps, %d with a cause"
      % (len(ch), statistics.median(e - s for a, s, e in ch if a == 0) / 1e6,
         statistics.median(e - s for a, s, e in ch if a == 1) / 1e6, on_s / 1e9,
         len(ticks_on), len(by[0]), len(named_off)))
for g in named_off[:3]:
    print("  named while detached: %s %s %s" % (g["start_ns"], g["cause"], g["causes"]))
assert not named_off, "events while the probes were detached"
# the tick (HZ 100 to 1000) while attached, less what another cause took
assert len(ticks_on) >= 50 * on_s / 1e9, "only %d tick gaps named in %.1f s attached" % (
    len(ticks_on), on_s / 1e9)
assert len(by[0]) >= 10, "too few gaps while detached to judge (%d)" % len(by[0])
PY
exit 0
