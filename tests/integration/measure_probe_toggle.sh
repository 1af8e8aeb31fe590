#!/bin/bash
# measure_probe_toggle.sh - the bench's observer instrument (--probe-toggle FILE, hidden):
# during a real 6 s run on CPU 1 the probes are detached and attached again at random, each
# change a row of FILE (attached,start_ns,end_ns) alternating from a detach, each state
# lasting 0.3-0.7 s. Whether they were attached is the kernel's word, not the log's: a
# watcher (tests/lib/bpfobjs.py, on CPU 0) reads the kernel's list of BPF links every
# ~10 ms and the run counts of the run's programs (run-time stats enabled by the watcher
# itself); in every state of the log, outside its changes, the links of the run's programs
# are all there and the programs run while attached, and there is no link and not one run
# while detached. The kernel's tick (250 or so a second) is named among the causes of at
# least 3 gaps of every attached state and nothing is named in the detached ones (20 ms
# from any change: what the change itself sends the CPU); the run ends with exit 0, its
# programs gone from the kernel, nothing lost. Bad input (--no-probes, an unwritable FILE)
# is in robust_badinput.sh. Root, about 10 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf

# jitterscope is held back until the watcher watches, so that it sees the first state too
(
	for _ in $(seq 1 1000); do [ -e "$TMP/ready" ] && break; sleep 0.01; done
	exec "$JS" --cpu 1 -d 6 -q --probe-toggle "$TMP/toggle.csv" --gaps "$TMP/gaps.csv" \
		--json "$TMP/run.json" >/dev/null 2>"$TMP/err"
) &
pid=$!
taskset -c 0 python3 -m bpfobjs watch $pid "$TMP/kernel.txt" "$TMP/ready" &
watcher=$!
wait $pid
rc=$?
wait $watcher || fail "the kernel never showed a link to a program of the run (rc $rc)"
[ $rc -eq 0 ] || fail "run exited $rc ($(cat "$TMP/err"))"
[ -s "$TMP/err" ] && fail "stderr not empty: $(head -3 "$TMP/err")"
# the kernel frees a program once its last fd and link are gone; allow it 5 s
read -r _ ids < <(head -1 "$TMP/kernel.txt")
end=$(($(date +%s%N) + 5000000000))
while :; do
	left=$(python3 -m bpfobjs exist $ids)
	[ -z "$left" ] || [ "$(date +%s%N)" -ge $end ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "programs of the run still loaded 5 s after it:" $left
python3 - "$TMP/toggle.csv" "$TMP/gaps.csv" "$TMP/run.json" "$TMP/kernel.txt" <<'PY' ||
import csv, json, statistics, sys
import jsfiles
GUARD = 20_000_000
EDGE = 1_000_000  # a kernel sample this close to a change's row is not judged
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["attached", "start_ns", "end_ns"], rows[0]
ch = [(int(a), int(s), int(e)) for a, s, e in rows[1:]]
run = json.load(open(sys.argv[3]))
c = run["cpus"][0]
assert run["probes"]["enabled"] and run["probes"]["lost"] == 0, run["probes"]
# 6 s of states of 0.3-0.7 s, each change itself 0.1-0.3 s here (41 programs attached or
# detached one by one): 6 changes at least, 20 at most
assert 6 <= len(ch) <= 20, "%d changes" % len(ch)
assert [a for a, _, _ in ch] == [i % 2 for i in range(len(ch))], "not alternating from a detach"
for i, (a, s, e) in enumerate(ch):
    # begun while measuring (the last one may end after the window closed; a change is
    # begun only while a sampler runs, checked microseconds before: 1 ms of slack)
    assert c["start_ns"] - 2e9 <= s <= min(e, c["end_ns"] + 1e6), "change %d outside the run" % i
    if i:
        held = s - ch[i - 1][2]
        assert 0.29e9 <= held <= 0.75e9, "state %d held %.3f s" % (i, held / 1e9)

# the kernel's word: samples "T0 T1 LINKS RUNS", after "progs ID..."
kl = open(sys.argv[4]).read().split("\n")
progs = kl[0].split()[1:]
ks = [tuple(map(int, l.split())) for l in kl[1:] if l]
nlinks = max(k[2] for k in ks)
assert nlinks >= 1, "no link seen"
first = next(i for i, k in enumerate(ks) if k[2] == nlinks)  # the end of the attaching
# the states of the log: (attached, from, to); the first from when every link was there,
# the last to the end of the measured window (the run detaches after it)
states = [(1, ks[first][0] - 1, ch[0][1])]
states += [(a, e, ch[i + 1][1] if i + 1 < len(ch) else c["end_ns"])
           for i, (a, s, e) in enumerate(ch)]
judged = {0: 0, 1: 0}
for i, (a, lo, hi) in enumerate(states):
    inside = [k for k in ks if k[0] > lo + EDGE and k[1] < hi - EDGE]
    # the last state ends with the measured window, however soon after its change: it is
    # judged on what samples it has (a state between two changes lasts 0.3-0.7 s)
    if i == len(states) - 1 and hi - lo < 0.29e9 and len(inside) < 2:
        continue
    assert len(inside) >= (5 if i < len(states) - 1 or hi - lo >= 0.29e9 else 2), \
        "state %d (%s): %d kernel samples only" % (i, "attached" if a else "detached",
                                                  len(inside))
    judged[a] += len(inside)
    links = sorted({k[2] for k in inside})
    runs = inside[-1][3] - inside[0][3]
    if a:
        assert links == [nlinks], "attached state %d: the kernel had %s links, not %d" % (
            i, links, nlinks)
        assert runs > 0, "attached state %d: the programs did not run (%d samples)" % (
            i, len(inside))
    else:
        assert links == [0], "detached state %d: the kernel still had %s links" % (i, links)
        assert runs == 0, "detached state %d: the programs ran %d times" % (i, runs)
print("ok: kernel: %d links to the run's %d programs in each attached state (%d samples), "
      "none and no program run in each detached state (%d samples)"
      % (nlinks, len(progs), judged[1], judged[0]))


def state(t):
    """(attached 1/0, state number) at t, None within GUARD of a change"""
    st = 1
    for i, (a, s, e) in enumerate(ch):
        if t < s - GUARD:
            return st, i
        if t <= e + GUARD:
            return None
        st = a
    return st, len(ch)


gaps = jsfiles.gap_rows(sys.argv[2])
by = {0: [], 1: []}
ticks = {i: 0 for i in range(len(ch) + 1) if i % 2 == 0}
for g in gaps:
    st = state(int(g["start_ns"]))
    if st is not None and int(g["start_ns"]) >= c["start_ns"]:
        by[st[0]].append(g)
        # the tick named among the gap's causes (its primary may be a task it woke: other
        # work on a shared machine's CPU 1)
        if st[0] and any(p[0] in ("timer", "hrtimer") for p in jsfiles.parse_causes(g["causes"])):
            ticks[st[1]] += 1
named_off = [g for g in by[0] if g["causes"]]
ticks_on = [g for g in by[1] if any(p[0] in ("timer", "hrtimer")
                                    for p in jsfiles.parse_causes(g["causes"]))]
on_s = sum(max(0, min(ch[i + 1][1] if i + 1 < len(ch) else c["end_ns"], c["end_ns"]) - e)
           for i, (a, s, e) in enumerate(ch) if a == 1) + ch[0][1] - c["start_ns"]
print("ok: %d changes (detach %.1f ms, attach %.1f ms median); attached %.1f s: %d gaps name "
      "the tick (%s in each attached state); detached: %d gaps, %d with a cause"
      % (len(ch), statistics.median(e - s for a, s, e in ch if a == 0) / 1e6,
         statistics.median(e - s for a, s, e in ch if a == 1) / 1e6, on_s / 1e9,
         len(ticks_on), " ".join(map(str, ticks.values())), len(by[0]), len(named_off)))
for g in named_off[:3]:
    print("  named while detached: %s %s %s" % (g["start_ns"], g["cause"], g["causes"]))
assert not named_off, "events while the probes were detached"
# the tick (HZ 100 to 1000: 30 in 0.3 s at least) named again in every attached state,
# less what other work on CPU 1 took (one gap may hold many ticks)
bounds = [c["start_ns"]] + [x for _, s, e in ch for x in (s, e)] + [c["end_ns"]]
few = {i: n for i, n in ticks.items()
       if n < 3 and bounds[2 * i + 1] - bounds[2 * i] - 2 * GUARD >= 0.2e9}
assert not few, "attached states naming the tick in fewer than 3 gaps: %s" % few
assert len(by[0]) >= 10, "too few gaps while detached to judge (%d)" % len(by[0])
PY
	fail "toggling not as documented"
exit 0
