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
python3 - "$TMP/f.json" "$TMP/f.csv" <<'PY' || fail "sampler faults not attributed"
import csv, json, sys
run = json.load(open(sys.argv[1]))
if not run["probes"]["enabled"]:
    print("probes unavailable: %s" % run["probes"]["why_disabled"]); sys.exit(77)
actions = run["test_hook"]["actions"]
rows = list(csv.DictReader(open(sys.argv[2])))
hit = [r for r in rows if "fault:" in r["causes"] and "(sampler)" in r["causes"]]
# one zap, one fault: each lands in its own gap (10 ms apart)
print("zaps %d, gaps with a fault in the sampler %d" % (actions, len(hit)))
assert actions > 300, actions
assert len(hit) >= 0.99 * actions, (len(hit), actions)
# a few more are possible (the kernel may migrate the unlocked hook page), never many
assert len(hit) <= 1.03 * actions + 3, (len(hit), actions)
PY
rc=$?; [ $rc -eq 77 ] && exit 77

# --- THP collapse of the sampler's memory by khugepaged
K=/sys/kernel/mm/transparent_hugepage
if [ ! -w $K/khugepaged/scan_sleep_millisecs ] || grep -q '\[never\]' $K/enabled; then
	echo "skip THP part: THP disabled or khugepaged not tunable"; exit 0
fi
old_sleep=$(cat $K/khugepaged/scan_sleep_millisecs)
old_alloc=$(cat $K/khugepaged/alloc_sleep_millisecs)
trap 'echo "$old_sleep" > $K/khugepaged/scan_sleep_millisecs;
      echo "$old_alloc" > $K/khugepaged/alloc_sleep_millisecs; rm -rf "$TMP"' EXIT
echo 50 > $K/khugepaged/scan_sleep_millisecs
echo 50 > $K/khugepaged/alloc_sleep_millisecs
before=$(awk '/^thp_collapse_alloc /{print $2}' /proc/vmstat)
"$JS" --cpu 1 --duration 6 --test-hook thp --json "$TMP/t.json" --gaps "$TMP/t.csv" -q \
	>/dev/null 2>"$TMP/t.err" || fail "thp-hook run failed: $(cat "$TMP/t.err")"
after=$(awk '/^thp_collapse_alloc /{print $2}' /proc/vmstat)
collapses=$((after - before))
python3 - "$TMP/t.csv" "$collapses" <<'PY' || fail "THP collapse of the sampler's memory not attributed"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
collapses = int(sys.argv[2])
seen = [r for r in rows if "thp:THP collapse" in r["causes"]]
print("kernel collapses %d, gaps with a THP collapse %d" % (collapses, len(seen)))
assert collapses >= 1, "khugepaged did not collapse the region (kernel counter unchanged)"
# other processes' collapses may add to the kernel counter, never the other way round
assert 1 <= len(seen) <= collapses, (len(seen), collapses)
PY
echo "ok: sampler faults and THP collapse attributed"
exit 0
