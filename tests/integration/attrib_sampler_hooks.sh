#!/bin/bash
# attrib_sampler_hooks.sh - interference the sampler inflicts on itself through the
# test-only hooks, named one-to-one: a page fault in the sampler every 10 ms, and a THP
# collapse of the sampler's own memory by khugepaged (scan interval shortened, restored).
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1

# --- page faults in the sampler itself
"$JS" --cpu 1 --duration 4 --test-hook fault --json "$TMP/f.json" --gaps "$TMP/f.csv" -q \
	>/dev/null 2>"$TMP/f.err" || fail "fault-hook run failed: $(cat "$TMP/f.err")"
# (no `|| fail` here: it would turn the skip, 77, into a failure)
python3 - "$TMP/f.json" "$TMP/f.csv" <<'PY'
import csv, json, sys
run = json.load(open(sys.argv[1]))
if not run["probes"]["enabled"]:
    print("probes unavailable: %s" % run["probes"]["why_disabled"]); sys.exit(77)
actions = run["test_hook"]["actions"]
rows = list(csv.DictReader(open(sys.argv[2])))

def causes(r):
    """(class, detail, net_ns) of every cause in a row's `causes` (class:detail=net;...)"""
    for c in filter(None, r["causes"].split(";")):
        cls, rest = c.split(":", 1)
        detail, net = rest.rsplit("=", 1)
        yield cls, detail, int(net)

hit = [r for r in rows if any(c == "fault" and "(sampler)" in d for c, d, _ in causes(r))]
# one zap, one fault: each lands in its own gap (10 ms apart)
print("zaps %d, gaps with a fault in the sampler %d" % (actions, len(hit)))
assert actions > 300, actions
# a sampler fault is never folded into a gap's "(other: N sources)" part, however many
# sources the gap has: 99-100 % are named (392 of 393 here, the last zap may fall after
# the run): the issue's 99 %
assert len(hit) >= 0.99 * actions, (len(hit), actions)
# a few more are possible (compaction may migrate the unlocked hook page: 18 more of 385
# once while compilers ran on the machine), never many
assert len(hit) <= 1.05 * actions + 5, (len(hit), actions)
PY
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "sampler faults not attributed"

# --- THP collapse of the sampler's memory by khugepaged
# The hook region is small pages (MADV_NOHUGEPAGE) until the sampler measures; jitterscope
# then advises MADV_HUGEPAGE on it from its housekeeping thread, and reports the region's own
# huge pages (its AnonHugePages in /proc/self/smaps) at that moment and at the end: the
# growth is the collapses during the run, 2 MiB each. khugepaged is sped up for the run
# (restored on exit). Each collapse must be named one to one: a gap whose primary cause is
# the THP collapse of the sampler's memory (the sampler faulted on the region whose PMD
# khugepaged cleared and waited until the collapse ended).
K=/sys/kernel/mm/transparent_hugepage
if [ ! -w $K/khugepaged/scan_sleep_millisecs ] || grep -q '\[never\]' $K/enabled; then
	echo "skip THP part: THP disabled or khugepaged not tunable"; exit 0
fi
old_sleep=$(cat $K/khugepaged/scan_sleep_millisecs)
old_alloc=$(cat $K/khugepaged/alloc_sleep_millisecs)
old_pages=$(cat $K/khugepaged/pages_to_scan)
# khugepaged on the housekeeping CPU, as on an isolated setup: on CPU 1 it would preempt the
# sampler and collapse its memory before the sampler touches it (then the task is the gap's
# primary cause; correlate's unit tests cover that case)
khp=$(pgrep -x khugepaged | head -1)
old_aff=$( [ -n "$khp" ] && taskset -pc "$khp" 2>/dev/null | sed 's/.*: //')
trap 'echo "$old_sleep" > $K/khugepaged/scan_sleep_millisecs;
      echo "$old_alloc" > $K/khugepaged/alloc_sleep_millisecs;
      echo "$old_pages" > $K/khugepaged/pages_to_scan;
      [ -n "$old_aff" ] && taskset -pc "$old_aff" "$khp" >/dev/null; rm -rf "$TMP"' EXIT
[ -n "$old_aff" ] && taskset -pc 0 "$khp" >/dev/null
echo 65536 > $K/khugepaged/pages_to_scan
echo 50 > $K/khugepaged/alloc_sleep_millisecs
echo 50 > $K/khugepaged/scan_sleep_millisecs   # wakes khugepaged at once
scans0=$(cat $K/khugepaged/full_scans)
"$JS" --cpu 1 --duration 6 --test-hook thp --top 1000 --json "$TMP/t.json" \
	--gaps "$TMP/t.csv" -q >/dev/null 2>"$TMP/t.err" || fail "thp-hook run failed: $(cat "$TMP/t.err")"
scans=$(( $(cat $K/khugepaged/full_scans) - scans0 ))
python3 - "$TMP/t.json" "$TMP/t.csv" "$scans" <<'PY'
import csv, json, sys
run = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
scans = int(sys.argv[3])
if not run["probes"]["enabled"]:
    print("probes unavailable: %s" % run["probes"]["why_disabled"]); sys.exit(77)
th = run["test_hook"]
arm, end = th["huge_kb_at_arm"], th["huge_kb_at_end"]
collapses = (end - arm) // 2048
print("region armed %d, huge pages at arm %d KiB, at end %d KiB: %d collapses during the run"
      " (khugepaged full scans %d, probe events lost %d)"
      % (th["actions"], arm, end, collapses, scans, run["probes"]["lost"]))
assert th["actions"] == 1, "the THP hook region was never armed"
assert arm == 0, "the region had huge pages before it was advised: %d KiB" % arm
if collapses == 0 and scans == 0:
    print("skip THP part: khugepaged never completed a scan during the run"); sys.exit(77)
assert collapses >= 1, "khugepaged scanned (%d full scans) but never collapsed the region" % scans

SAMPLER = "THP collapse (sampler)"
top = {int(g["start_ns"]): g for g in run["cpus"][0]["top"]}
def collapses_in(row):
    """collapse events of the sampler's memory in this gap (the top list has the counts)"""
    g = top.get(int(row["start_ns"]))
    if g is None:
        return 1
    return sum(c["count"] for c in g["causes"]
               if c["cause"] == "thp" and c["detail"].startswith(SAMPLER))
def sampler_fault(r):
    return any(p.startswith("fault:") and "(sampler)" in p for p in r["causes"].split(";"))
primary = [r for r in rows if r["cause"] == "thp" and r["detail"].startswith(SAMPLER)]
mentioned = [r for r in rows if "thp:" + SAMPLER in r["causes"]]
failed = [r for r in rows if "THP collapse failed" in r["causes"] and "(sampler)" in r["causes"]]
# a collapse while another task held CPU 1 the whole time (no fault of the sampler in the gap:
# it never touched the region while it was collapsed) is no cause of the gap, the task is
# (and is named); on a quiet machine this does not happen, under load it may
preempted = [r for r in mentioned
             if r not in primary and r["cause"] == "task" and not sampler_fault(r)]
named, excused = sum(map(collapses_in, primary)), sum(map(collapses_in, preempted))
for r in mentioned + failed:
    print("  gap %s ns: %s %s | %s" % (r["duration_ns"], r["cause"], r["detail"], r["causes"]))
print("collapses named as a gap's primary cause %d (%d gaps), while the sampler was preempted"
      " %d, in gaps mentioning one %d; gaps with a failed collapse %d"
      % (named, len(primary), excused, sum(map(collapses_in, mentioned)), len(failed)))
if excused:
    print("NOTE: %d collapses happened while another task held CPU 1 (machine not quiet?)"
          % excused)
if named == 0 and excused == collapses:
    print("skip THP part: every collapse happened while the sampler was preempted"); sys.exit(77)
# one to one: every collapse the sampler met named as the primary cause of its gap (>= 99 %:
# all of them for small counts), and never more collapses named than happened. (A collapse
# may overlap two gaps - preempted through its start, the sampler ran a few us, then faulted
# on it - so the parts' mentions may count one twice; the primary cause names it once.)
judged = max(collapses - excused, 0)
assert named >= -(-99 * judged // 100), ("collapses not named", named, judged)
assert named <= collapses, ("more collapses named than happened", named, collapses)
PY
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "THP collapse of the sampler's memory not named one to one"
echo "ok: sampler faults and THP collapse attributed"
exit 0
