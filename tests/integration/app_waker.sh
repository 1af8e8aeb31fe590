#!/bin/bash
# app_waker.sh - issue 28, who woke the task that preempted a followed thread: jsapp (one busy
# thread, SCHED_OTHER) runs on CPU 1 and is followed with --pid; a SCHED_FIFO reader pinned to
# CPU 1 blocks in read() on a pipe that a writer (jswriter) pinned to CPU 0 writes a byte to
# every 10 ms, and the reader spins 400 us (jsinject --mode pipe): each write preempts jsapp.
# In the JSON of a 4 s run (--top 1000 -T 150us), among jsapp's gaps whose primary cause is the
# reader, the writer is named as the waker (context task, on CPU 0, via write) in >= 99 %, and
# there are at least half as many such gaps as writes. The thread rows of the --gaps CSV
# (waker column), the text story and the HTML report say the same. `diff` of that run against
# a copy whose reader's waker is renamed says the waker changed (text line, JSON), and against
# itself says nothing of wakers. Then with --no-waker: no gap names a waker and the JSON says
# the tracking was off. Last, the reader woken while another task holds CPU 1 (jsinject
# --first-spin 100: before each write a second SCHED_FIFO task, jsfirst, takes CPU 1 from
# jsapp for 100 us, the reader running after it): the waker filter must keep the wake-up of
# a task that prolongs the followed thread's preemption, so the writer is named in every one
# of those gaps (100 %; a filter that forgot jsapp once it left the CPU, TEST-AUDIT-3 M1,
# names it in none).
# Root, kernel BTF, CPU 1 (77 otherwise); about 13 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsapp jsinject
app='' inj='' inj_extra=()
at_exit '[ -n "$inj" ] && kill "$inj" 2>/dev/null; [ -n "$app" ] && kill "$app" 2>/dev/null'

# run_follow SECONDS OUT [JITTERSCOPE OPTIONS...] - jsapp on CPU 1 followed for SECONDS while
# the injector's reader preempts it (jsinject's options plus inj_extra), from before the run
# starts until it ends
run_follow() {
	local d=$1 out=$2
	shift 2
	rm -f "$TMP/ready"
	"$APP" --cpu 1 --duration $((d + 5)) --ready "$TMP/ready" >"$out.app" 2>&1 &
	app=$!
	for _ in $(seq 1 200); do [ -e "$TMP/ready" ] && break; sleep 0.02; done
	[ -e "$TMP/ready" ] || fail "jsapp did not start: $(cat "$out.app")"
	"$INJ" --mode pipe --cpu 1 --helper-cpu 0 --duration $((d + 5)) --period 10000 --spin 400 \
		"${inj_extra[@]}" >"$out.inj" 2>&1 &
	inj=$!
	sleep 0.5
	"$JS" --pid "$app" -d "${d}s" -T 150us --top 1000 --json "$out.json" --gaps "$out.csv" \
		--html "$out.html" "$@" >"$out.txt" 2>&1 || { cat "$out.txt"; fail "jitterscope $*"; }
	# the run is over: the injector's tail would preempt no one measured (3: interrupted)
	kill -INT "$inj" 2>/dev/null
	wait "$inj"
	case $? in 0 | 3) ;; *) cat "$out.inj"; fail "jsinject --mode pipe" ;; esac
	inj=''
	kill "$app" 2>/dev/null
	wait "$app" 2>/dev/null
	app=''
}

run_follow 4 "$TMP/on"
python3 - "$TMP/on" <<'PY' || fail "the writer is not named as the preemptor's waker (outputs in $TMP)"
import csv, json, sys
from jsfiles import woken_by_writer as by_writer
base = sys.argv[1]
run = json.load(open(base + ".json"))
inj = dict(l.strip().split("=", 1) for l in open(base + ".inj") if "=" in l)
assert run["probes"]["enabled"] and run["probes"]["waker"] is True, run["probes"]
assert len(run["threads"]) == 1, [t["thread"] for t in run["threads"]]
th = run["threads"][0]
writes = int(inj["actions"])
top = th["top"]
mine = [g for g in top if g["cause"] == "task" and g["detail"].startswith("jsinject:")]
named = sum(map(by_writer, mine))
print("writes %d, %s's gaps the reader caused %d (of %d listed), the writer named in %d (%.1f %%)"
      % (writes, th["thread"], len(mine), len(top), named, 100.0 * named / max(len(mine), 1)))
assert len(top) < 1000, "top list full: raise --top or -T"
assert len(mine) >= writes // 2, "too few gaps caused by the reader"
assert named >= 0.99 * len(mine), [g["waker"] for g in mine if not by_writer(g)][:5]
# the CSV: the thread's rows, the same waker in its waker column
rows = [r for r in csv.DictReader(open(base + ".csv"))
        if r["source"] == "thread" and r["cause"] == "task" and r["detail"].startswith("jsinject:")]
assert len(rows) >= len(mine), (len(rows), len(mine))
assert sum(r["waker"].startswith("jswriter:") for r in rows) >= 0.99 * len(rows)
PY
story='preempted by jsinject:[0-9]* ([^)]*), woken by jswriter:[0-9]* on CPU 0 via write'
grep -q "$story" "$TMP/on.txt" || fail "no story names the writer: $(grep -m3 'preempted by' "$TMP/on.txt")"
grep -q "$story" "$TMP/on.html" || fail "no story of the HTML report names the writer"

# diff by waker: the same run against a copy whose reader was woken by another task
python3 - "$TMP/on.json" "$TMP/other.json" <<'PY' || fail "cannot write the copy"
import json, sys
run = json.load(open(sys.argv[1]))
for g in run["threads"][0]["top"]:
    if g.get("waker") and g["waker"]["comm"] == "jswriter":
        g["waker"]["comm"] = "jsother"
        g["waker"]["text"] = g["waker"]["text"].replace("jswriter", "jsother")
json.dump(run, open(sys.argv[2], "w"))
PY
"$JS" diff "$TMP/on.json" "$TMP/other.json" --json "$TMP/diff.json" >"$TMP/diff.txt" 2>&1 ||
	fail "diff exited $?: $(tail -3 "$TMP/diff.txt")"
grep -q "^    woken by jswriter in A ([0-9]* of [0-9]* listed gaps), by jsother in B" \
	"$TMP/diff.txt" || fail "the diff does not tell the wakers apart: $(grep -m3 jsinject "$TMP/diff.txt")"
python3 - "$TMP/diff.json" <<'PY' || fail "the diff JSON does not tell the wakers apart"
import json, sys
src = [s for c in json.load(open(sys.argv[1]))["cpus"] for s in c["sources"]
       if (s["b_detail"] or "").startswith("jsinject:")]
assert src and src[0]["waker_changed"], src
assert src[0]["a_waker"] == "jswriter" and src[0]["b_waker"] == "jsother", src
assert src[0]["b_woken"] >= 0.99 * src[0]["b_listed"] > 0, src
PY
"$JS" diff "$TMP/on.json" "$TMP/on.json" >"$TMP/self.txt" 2>&1 || fail "diff of a run with itself"
grep -q "woken by" "$TMP/self.txt" && fail "a run against itself: a waker is said to differ"

# (1 s: one gap of the reader is enough to judge that no waker is named)
run_follow 1 "$TMP/off" --no-waker
python3 - "$TMP/off" <<'PY' || fail "--no-waker: a waker is still named (outputs in $TMP)"
import csv, json, sys
run = json.load(open(sys.argv[1] + ".json"))
assert run["probes"]["waker"] is False, run["probes"]
top = run["threads"][0]["top"]
assert [g for g in top if g["detail"].startswith("jsinject:")], "no gap of the reader"
assert not [g for g in top if g.get("waker")], [g["waker"] for g in top if g.get("waker")][:3]
assert not [r for r in csv.DictReader(open(sys.argv[1] + ".csv")) if r["waker"]]
PY
grep -q "woken by" "$TMP/off.txt" && fail "--no-waker: a story still names a waker"

inj_extra=(--first-spin 100)
# (2 s: some 200 writes, 50 gaps of the reader at least judged)
run_follow 2 "$TMP/first"
python3 - "$TMP/first" <<'PY' || fail "--first-spin: the writer is not named in every gap (outputs in $TMP)"
import json, sys
from jsfiles import woken_by_writer as by_writer
base = sys.argv[1]
run = json.load(open(base + ".json"))
inj = dict(l.strip().split("=", 1) for l in open(base + ".inj") if "=" in l)
th = run["threads"][0]
mine = [g for g in th["top"] if g["cause"] == "task" and g["detail"].startswith("jsinject:")]
# the setting happened: jsfirst held the CPU in the reader's gaps, the writer saw it run
first = [g for g in mine if any(p["detail"].startswith("jsfirst:") for p in g["causes"])]
named = [g for g in mine if by_writer(g)]
writes = int(inj["actions"])
print("--first-spin: writes %d (jsfirst not seen running before %s of them), gaps the reader "
      "caused %d, jsfirst in %d of them, the writer named in %d (%.1f %%, need 100 %%)"
      % (writes, inj["first_missed"], len(mine), len(first), len(named),
         100.0 * len(named) / max(len(mine), 1)))
assert int(inj["first_missed"]) <= writes // 100, "jsfirst did not run before the writes"
# (a gap another task took over, the machine's other work on CPU 1, is that task's: not
# judged; the judgement is of every gap the reader caused, at least 50 of them)
assert len(mine) >= 50, "too few gaps caused by the reader"
assert len(first) >= 0.9 * len(mine), "jsfirst is not in the reader's gaps"
assert len(named) == len(mine), [g.get("waker") for g in mine if not by_writer(g)][:5]
PY
echo "ok: the writer named as the waker of the task that preempted the followed thread, also behind jsfirst"
