#!/bin/bash
# report_diff.sh - `jitterscope report` re-renders a saved run byte for byte as the run printed
# it; `jitterscope diff` compares two real runs (text: every section; --json: the numbers
# of both files, per second); runs of other CPUs pair in order with a warning; bad files
# exit 1 and bad diff options 64, with one line. The text opens with the verdict line; a
# spinner's run against a thread's is refused (64). What the verdicts say about a real change:
# report_diff_inject.sh.
# cpu1: shared - report and diff are judged against the runs' own files; the verdicts' meaning is report_diff_inject.sh's (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1

# two real runs of 1 s (thousands of gaps each); A also models arrivals (so the saved delay
# histograms are exercised)
"$JS" --cpu 1 --duration 1 --json "$TMP/A.json" -q --arrival-interval 100us,1ms --burst 10 \
	>"$TMP/A.txt" 2>"$TMP/A.err" || fail "run A exited $? ($(cat "$TMP/A.err"))"
"$JS" --cpu 1 --duration 1 --json "$TMP/B.json" -q \
	>"$TMP/B.txt" 2>"$TMP/B.err" || fail "run B exited $? ($(cat "$TMP/B.err"))"
# C: no probes, no worst-gap list, another threshold (the report's other branches)
"$JS" --cpu 1 --duration 0.5 --json "$TMP/C.json" -q --no-probes -n 0 -T 2us \
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
# the first line is the verdict: the JSON's, worse when any change is, the biggest change
# named (a class, else the share), the new sources said
python3 - "$TMP/diff.txt" "$TMP/D.json" <<'PY' || fail "diff's first line is not its verdict"
import json, re, sys
first = open(sys.argv[1]).readline().rstrip("\n")
s = json.load(open(sys.argv[2]))["summary"]
want = "worse" if s["worse"] else "better" if s["better"] else "same"
assert s["verdict"] == want and first == "verdict: " + s["verdict_line"], (first, s)
assert re.match(r"verdict: (same: no change is worse or better|(worse|better): biggest change "
                r"CPU 1: )", first), first
assert re.search(r"; (new sources: .*|no new source)$", first), first
print("ok: " + first)
PY
for s in "^jitterscope diff" "^  A = $TMP/A.json: " "^  B = $TMP/B.json: " \
	"^CPU 1: A [0-9.]* s, [0-9]* gaps, .* lost; B " "^  gaps per second " \
	"^  time lost share " "^  p50 " "^  p90 " "^  p99 " "^  p99.9 " "^  p99.99 " "^  max " \
	"^  causes (per second" "^  [a-z]*: gaps/s " "^  [a-z]*: time lost/s " \
	"^  sources (the 8 largest" "^Isolation audit changes" "^Lower is better" \
	"^summary: [0-9]* worse, [0-9]* better, [0-9]* uncertain, [0-9]* mixed, [0-9]* same$"; do
	grep -q -- "$s" "$TMP/diff.txt" || fail "diff text lacks '$s':
$(cat "$TMP/diff.txt")"
done
python3 - "$TMP/A.json" "$TMP/B.json" "$TMP/D.json" <<'PY' || fail "diff JSON incoherent"
import json, sys
a, b, d = (json.load(open(p)) for p in sys.argv[1:4])
assert d["kind"] == "diff" and d["schema_version"] == 3
assert d["a"]["file"] == sys.argv[1] and d["b"]["file"] == sys.argv[2]
assert d["settings"]["alpha"] == 0.01 and d["settings"]["min_change_pct"] == 10
assert len(d["cpus"]) == 1 and d["cpus"][0]["cpu"] == 1
c = d["cpus"][0]
rows = {r["metric"]: r for r in c["rows"]}
ca, cb = a["cpus"][0], b["cpus"][0]
ta, tb = ca["duration_ns"] / 1e9, cb["duration_ns"] / 1e9
assert (c["a_gaps"], c["b_gaps"]) == (ca["gap_count"], cb["gap_count"])
def near(x, y):
    return abs(x - y) <= 1e-5 * max(abs(x), abs(y), 1)
assert near(rows["gaps_per_s"]["a"], ca["gap_count"] / ta), rows["gaps_per_s"]
assert near(rows["lost_pct"]["b"], 100 * cb["lost_ns"] / cb["duration_ns"]), rows["lost_pct"]
for k in ("p50_ns", "p90_ns", "p99_ns", "p999_ns", "p9999_ns", "max_ns"):
    r = rows[k]
    assert (r["a"], r["b"]) == (ca[k], cb[k]), (k, r, ca[k], cb[k])
    if r["test"] == "quantile":
        lo, hi = r["a_interval_ns"]
        assert lo <= r["a"] and (hi is None or r["a"] <= hi), r
for r in c["rows"] + c["sources"]:
    assert r["verdict"] in ("better", "worse", "same", "uncertain", "mixed"), r
    if r["verdict"] in ("better", "worse"):     # a verdict follows the numbers shown
        assert (r["verdict"] == "better") == (r["b"] < r["a"]), r
        assert r["p_value"] is not None and r["p_value"] < 0.01, r
for cls in set(ca["by_class"]) | set(cb["by_class"]):
    x = ca["by_class"].get(cls, {"gaps": 0, "total_ns": 0})
    y = cb["by_class"].get(cls, {"gaps": 0, "total_ns": 0})
    assert near(rows[cls + ".gaps_per_s"]["a"], x["gaps"] / ta), cls
    assert near(rows[cls + ".lost_ns_per_s"]["b"], y["total_ns"] / tb), cls
srcs = [{(s["cause"], s["detail"]) for s in x["sources"]} for x in (ca, cb)]
for s in c["sources"]:
    for side, det in ((0, s["a_detail"]), (1, s["b_detail"])):
        assert det is None or (s["cause"], det) in srcs[side], s
    assert s["status"] != "new" or s["a_detail"] is None, s
assert d["only_in_a"] == [] and d["only_in_b"] == []
print("ok: diff JSON: %d rows, %d sources, p99 %s, max %s, summary %s" % (len(rows),
      len(c["sources"]), rows["p99_ns"]["verdict"], rows["max_ns"]["verdict"], d["summary"]))
PY

# runs that are not comparable say so, and compare no causes
"$JS" diff "$TMP/B.json" "$TMP/C.json" >"$TMP/diffc.txt" 2>&1 || fail "diff B C exited $?"
grep -q "^warning: thresholds differ (A 1.0 us, B 2.0 us)" "$TMP/diffc.txt" ||
	fail "diff B C: no threshold warning: $(cat "$TMP/diffc.txt")"
grep -q "^warning: probes were off in B: causes and sources are not compared" "$TMP/diffc.txt" ||
	fail "diff B C: no probes warning"
grep -q "^  causes\|^  sources" "$TMP/diffc.txt" && fail "diff B C compares causes without probes"
# the note names each run's own length (a run of 0.5 s beside other tests may last longer)
python3 - "$TMP/B.json" "$TMP/C.json" "$TMP/diffc.txt" <<'PY' || fail "diff B C: no note on the lengths: $(cat "$TMP/diffc.txt")"
import json, re, sys
ln = [l for l in open(sys.argv[3]) if l.startswith("note: the runs' lengths differ")]
assert ln, "no note"
m = re.match(r"note: the runs' lengths differ \(A ([0-9.]+) (s|ms), B ([0-9.]+) (s|ms)\)", ln[0])
assert m, ln[0]
for f, v, u in ((sys.argv[1], m[1], m[2]), (sys.argv[2], m[3], m[4])):
    c = json.load(open(f))["cpus"][0]
    said = float(v) * (1e9 if u == "s" else 1e6)
    assert abs(said - (c["end_ns"] - c["start_ns"])) <= 0.01 * said, (f, ln[0])
PY

# a run against itself: no change anywhere
"$JS" diff "$TMP/A.json" "$TMP/A.json" --json "$TMP/AA.json" >/dev/null 2>&1 ||
	fail "diff A A exited $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["cpus"][0]["rows"] + d["cpus"][0]["sources"]
assert rows, "no rows to compare"
bad = [r for r in rows if r["change"] != 0 or r["verdict"] != "same"]
assert not bad, bad
' "$TMP/AA.json" || fail "diff of a run with itself shows a change"

# runs of other CPUs: compared in the order measured, with a warning
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["cpus"][0]["cpu"] = 0; json.dump(d, open(sys.argv[2], "w"))
' "$TMP/B.json" "$TMP/cpu0.json" || fail "cannot write the altered run"
"$JS" diff "$TMP/A.json" "$TMP/cpu0.json" >"$TMP/diff0.txt" 2>&1 || fail "diff A cpu0 exited $?"
grep -q "^warning: the runs measured different CPUs (A 1, B 0): compared in the order measured" \
	"$TMP/diff0.txt" || fail "diff A cpu0: no CPU warning: $(head -5 "$TMP/diff0.txt")"
grep -q "^CPU 1 (A) and CPU 0 (B): " "$TMP/diff0.txt" || fail "diff A cpu0: CPUs not paired"

# fails RC WANT ARGS... - jitterscope ARGS exits RC with one line on stderr holding WANT,
# and prints nothing on stdout
fails() {
	local rc_want=$1 want=$2 rc
	shift 2
	"$JS" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"; rc=$?
	[ $rc -eq "$rc_want" ] || fail "'$*' exited $rc, want $rc_want ($(cat "$TMP/bad.err"))"
	[ "$(wc -l <"$TMP/bad.err")" -eq 1 ] || fail "'$*': not one line: $(cat "$TMP/bad.err")"
	grep -qF -- "$want" "$TMP/bad.err" || fail "'$*': '$(cat "$TMP/bad.err")' lacks '$want'"
	[ -s "$TMP/bad.out" ] && fail "'$*' printed: $(head -3 "$TMP/bad.out")"
	echo "ok: $* -> $(cat "$TMP/bad.err")"
}
# bad files: exit 1
bad() { fails 1 "$@"; }
echo "hello" >"$TMP/text.json"
sed 's/"schema_version": 3,/"schema_version": 99,/' "$TMP/A.json" >"$TMP/v99.json"
head -c 5000 "$TMP/A.json" >"$TMP/cut.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); del d["cpus"][0]["lost_ns"]; json.dump(d, open(sys.argv[2], "w"))
' "$TMP/B.json" "$TMP/nolost.json" || fail "cannot write the altered runs"
"$JS" check --cpu 1 --json "$TMP/check.json" >/dev/null 2>&1
bad "$TMP/missing.json: cannot read: No such file or directory" report "$TMP/missing.json"
bad "$TMP/text.json: not JSON: line 1, column 1: expected a value, found 'h'" \
	report "$TMP/text.json"
bad "$TMP/v99.json: schema_version: 99 is not supported (this jitterscope reads 1 to 3)" \
	report "$TMP/v99.json"
bad "$TMP/cut.json: not JSON: line " report "$TMP/cut.json"
bad "$TMP/nolost.json: cpus[0].lost_ns: missing" report "$TMP/nolost.json"
bad "written by \`jitterscope check\`" report "$TMP/check.json"
bad "$TMP/v99.json: schema_version: 99" diff "$TMP/A.json" "$TMP/v99.json"
usage() { fails 64 "$@"; }
bad "$TMP/missing.json: cannot read" diff "$TMP/missing.json" "$TMP/B.json"
# a spinner's run against a thread's (--pid): refused, not rated (-96.7 % "better" before)
usage "measured CPU 1 with the spinner, $ROOT/tests/data/runs/pid-1s.json followed thread" \
	diff "$TMP/A.json" "$ROOT/tests/data/runs/pid-1s.json"
usage "followed thread sleep:13102 (--pid/--tid), $TMP/B.json measured CPU 1" \
	diff "$ROOT/tests/data/runs/pid-1s.json" "$TMP/B.json" --json "$TMP/no.json"
[ -e "$TMP/no.json" ] && fail "a refused diff wrote its JSON"

# bad diff options: exit 64
usage "invalid --fail-on 'better' (worse)" diff "$TMP/A.json" "$TMP/B.json" --fail-on better
usage "invalid --alpha '1.5'" diff "$TMP/A.json" "$TMP/B.json" --alpha 1.5
usage "invalid --min-change 'ten'" diff "$TMP/A.json" "$TMP/B.json" --min-change ten
usage "--fail-on is not an option of report (it is for check, diff)" report "$TMP/A.json" --fail-on worse
exit 0
