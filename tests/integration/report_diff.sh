#!/bin/bash
# report_diff.sh - `jitterscope report` re-renders a saved run byte for byte as the run printed
# it; `jitterscope diff` compares two real runs (text: every section; --json: the numbers
# of both files); bad files exit 1 with one line.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1

# two real runs; A also models arrivals (so the saved delay histograms are exercised)
"$JS" --cpu 1 --duration 2 --json "$TMP/A.json" -q --arrival-interval 100us,1ms --burst 10 \
	>"$TMP/A.txt" 2>"$TMP/A.err" || fail "run A exited $? ($(cat "$TMP/A.err"))"
"$JS" --cpu 1 --duration 2 --json "$TMP/B.json" -q \
	>"$TMP/B.txt" 2>"$TMP/B.err" || fail "run B exited $? ($(cat "$TMP/B.err"))"
# C: no probes, no worst-gap list, another threshold (the report's other branches)
"$JS" --cpu 1 --duration 1 --json "$TMP/C.json" -q --no-probes -n 0 -T 2us \
	>"$TMP/C.txt" 2>"$TMP/C.err" || fail "run C exited $? ($(cat "$TMP/C.err"))"
grep -q "^CPU 1 " "$TMP/A.txt" || fail "run A printed no report"

# report: the very text the run printed
for r in A B C; do
	"$JS" report "$TMP/$r.json" >"$TMP/$r.rep" 2>"$TMP/$r.rep.err" ||
		fail "report $r.json exited $? ($(cat "$TMP/$r.rep.err"))"
	[ -s "$TMP/$r.rep.err" ] && fail "report $r.json wrote to stderr: $(cat "$TMP/$r.rep.err")"
	diff -u "$TMP/$r.txt" "$TMP/$r.rep" >"$TMP/$r.diff" ||
		fail "report $r.json differs from the run's own report:
$(head -40 "$TMP/$r.diff")"
done
grep -q "messages every 100.0 us" "$TMP/A.rep" || fail "report A lacks the arrivals"
grep -q "probes: off (--no-probes)" "$TMP/C.rep" || fail "report C does not say probes were off"
echo "ok: report of each run equals its original report ($(wc -l <"$TMP/A.rep")," \
	"$(wc -l <"$TMP/B.rep") and $(wc -l <"$TMP/C.rep") lines)"

# diff: every section, and the numbers of both files
"$JS" diff "$TMP/A.json" "$TMP/B.json" --json "$TMP/D.json" >"$TMP/diff.txt" 2>"$TMP/diff.err" ||
	fail "diff exited $? ($(cat "$TMP/diff.err"))"
for s in "^jitterscope diff" "^  A = $TMP/A.json: " "^  B = $TMP/B.json: " \
	"^CPU 1: A measured " "^  gaps  " "^  gaps per second " "^  time lost  " \
	"^  time lost share " "^  p50 " "^  p90 " "^  p99 " "^  p99.9 " "^  p99.99 " "^  max " \
	"^  causes (gaps each class" "^  task: gaps " "^  task: time lost " \
	"^Isolation audit changes" "^Lower is better"; do
	grep -q -- "$s" "$TMP/diff.txt" || fail "diff text lacks '$s':
$(cat "$TMP/diff.txt")"
done
python3 - "$TMP/A.json" "$TMP/B.json" "$TMP/D.json" <<'PY' || fail "diff JSON incoherent"
import json, sys
a, b, d = (json.load(open(p)) for p in sys.argv[1:4])
assert d["kind"] == "diff" and d["schema_version"] == 2
assert d["a"]["file"] == sys.argv[1] and d["b"]["file"] == sys.argv[2]
assert len(d["cpus"]) == 1 and d["cpus"][0]["cpu"] == 1
rows = {r["metric"]: r for r in d["cpus"][0]["rows"]}
ca, cb = a["cpus"][0], b["cpus"][0]
for k in ("gap_count", "lost_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "p9999_ns", "max_ns"):
    r = rows[k]
    assert (r["a"], r["b"]) == (ca[k], cb[k]), (k, r, ca[k], cb[k])
    assert r["change"] == cb[k] - ca[k], r
    assert r["verdict"] in ("better", "worse", "same"), r
    if r["verdict"] != "same":
        assert (r["verdict"] == "better") == (cb[k] < ca[k]), r
for cls in set(ca["by_class"]) | set(cb["by_class"]):
    x = ca["by_class"].get(cls, {"gaps": 0, "total_ns": 0})
    y = cb["by_class"].get(cls, {"gaps": 0, "total_ns": 0})
    assert (rows[cls + ".gaps"]["a"], rows[cls + ".gaps"]["b"]) == (x["gaps"], y["gaps"]), cls
    assert rows[cls + ".total_ns"]["b"] == y["total_ns"], cls
assert d["only_in_a"] == [] and d["only_in_b"] == []
print("ok: diff JSON: %d rows, p99 %s, max %s" % (len(rows), rows["p99_ns"]["verdict"],
      rows["max_ns"]["verdict"]))
PY

# runs that are not comparable say so, and compare no causes
"$JS" diff "$TMP/B.json" "$TMP/C.json" >"$TMP/diffc.txt" 2>&1 || fail "diff B C exited $?"
grep -q "^note: thresholds differ (A 1.0 us, B 2.0 us)" "$TMP/diffc.txt" ||
	fail "diff B C: no threshold note: $(cat "$TMP/diffc.txt")"
grep -q "^note: probes were off in B: causes are not compared" "$TMP/diffc.txt" ||
	fail "diff B C: no probes note"
grep -q "^  causes" "$TMP/diffc.txt" && fail "diff B C compares causes without probes"

# a run against itself: no change anywhere
"$JS" diff "$TMP/A.json" "$TMP/A.json" --json "$TMP/AA.json" >/dev/null 2>&1 ||
	fail "diff A A exited $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["cpus"][0]["rows"]
assert rows, "no rows to compare"
bad = [r for r in rows if r["change"] != 0 or r["verdict"] != "same"]
assert not bad, bad
' "$TMP/AA.json" || fail "diff of a run with itself shows a change"

# bad files: exit 1, one line on stderr naming the file, nothing on stdout
bad() { # bad WANT ARGS...
	local want=$1 rc
	shift
	"$JS" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"; rc=$?
	[ $rc -eq 1 ] || fail "'$*' exited $rc, want 1 ($(cat "$TMP/bad.err"))"
	[ "$(wc -l <"$TMP/bad.err")" -eq 1 ] || fail "'$*': not one line: $(cat "$TMP/bad.err")"
	grep -qF -- "$want" "$TMP/bad.err" || fail "'$*': '$(cat "$TMP/bad.err")' lacks '$want'"
	[ -s "$TMP/bad.out" ] && [ "$1" = report ] && fail "'$*' printed a report"
	echo "ok: $* -> $(cat "$TMP/bad.err")"
}
echo "hello" >"$TMP/text.json"
sed 's/"schema_version": 2,/"schema_version": 99,/' "$TMP/A.json" >"$TMP/v99.json"
head -c 5000 "$TMP/A.json" >"$TMP/cut.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); del d["cpus"][0]["lost_ns"]; json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1])); d["cpus"][0]["cpu"] = 0; json.dump(d, open(sys.argv[3], "w"))
' "$TMP/B.json" "$TMP/nolost.json" "$TMP/cpu0.json" || fail "cannot write the altered runs"
"$JS" check --cpu 1 --json "$TMP/check.json" >/dev/null 2>&1
bad "$TMP/missing.json: cannot read: No such file or directory" report "$TMP/missing.json"
bad "$TMP/text.json: not JSON: line 1, column 1: expected a value, found 'h'" \
	report "$TMP/text.json"
bad "$TMP/v99.json: schema_version: 99 is not supported (this jitterscope reads 1 to 2)" \
	report "$TMP/v99.json"
bad "$TMP/cut.json: not JSON: line " report "$TMP/cut.json"
bad "$TMP/nolost.json: cpus[0].lost_ns: missing" report "$TMP/nolost.json"
bad "written by \`jitterscope check\`" report "$TMP/check.json"
bad "$TMP/v99.json: schema_version: 99" diff "$TMP/A.json" "$TMP/v99.json"
bad "$TMP/missing.json: cannot read" diff "$TMP/missing.json" "$TMP/B.json"
bad "have no measured CPU in common" diff "$TMP/A.json" "$TMP/cpu0.json"
exit 0
