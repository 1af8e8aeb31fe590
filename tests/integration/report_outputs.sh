#!/bin/bash
# report_outputs.sh - `jitterscope report RUN.json` renders what a saved run holds: the text
# report with -n and --by, --json (re-emitted, read back to the same report), --html,
# --prom, --hgrm, and --budget (exit 2 on a violation, as at run time); the outputs a saved
# run cannot feed, and every option a command does not take, are refused by name (exit 64,
# one line). No root, no CPU 1: the saved run is tests/data/runs/cpu1-2s.json. (--folded of
# a saved run: outputs_folded_render.sh; here its place in report --help.)
# cpu1: none - renders a saved run and refusals, measures nothing
. "$(dirname "$0")/../lib/lib.bash"

RUN=$ROOT/tests/data/runs/cpu1-2s.json
[ -r "$RUN" ] || fail "no fixture $RUN"
max_ns=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpus"][0]["max_ns"])' "$RUN")
gaps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpus"][0]["gap_count"])' "$RUN")
[ "$max_ns" -gt 1000 ] || fail "fixture's worst gap $max_ns ns: --budget max=1us would not be exceeded"

# every output at once, with -n 2, --by cgroup and a budget the run exceeds: exit 2
"$JS" report "$RUN" --html "$TMP/r.html" --prom "$TMP/r.prom" --hgrm "$TMP/r.hgrm" \
	--json "$TMP/r.json" -n 2 --by cgroup --budget max=1us >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "report --budget max=1us exited $rc, not 2 ($(cat "$TMP/err"))"
[ -s "$TMP/err" ] && fail "report wrote to stderr: $(cat "$TMP/err")"
grep -q "^budget max=1us on CPU 1: .*EXCEEDED" "$TMP/out" || fail "no EXCEEDED budget line"
grep -q "^  worst 2 gaps" "$TMP/out" || fail "-n 2: $(grep 'worst .* gaps' "$TMP/out")"
[ "$(grep -c '^ *[0-9]*\. .* at .*: ' "$TMP/out")" -eq 2 ] || fail "-n 2 lists other than 2 gaps"
grep -q "top cgroups" "$TMP/out" || fail "--by cgroup: no cgroup table"
# a budget the run keeps: exit 0, the line says ok
"$JS" report "$RUN" --budget max=10s >"$TMP/ok" 2>&1 || fail "report --budget max=10s exited $?"
grep -q "^budget max=10s on CPU 1: .* ok" "$TMP/ok" || fail "no ok budget line"
echo "ok: --budget exit 2 when exceeded, 0 when kept; -n 2, --by cgroup"

# --html: one self-contained page with the run's figures
for f in r.html r.prom r.hgrm r.json; do [ -s "$TMP/$f" ] || fail "report wrote no $f"; done
grep -q "<svg" "$TMP/r.html" || fail "the page has no figure"
grep -q "10 of $gaps gaps drawn: the worst ones the saved run kept" "$TMP/r.html" ||
	fail "the scatter does not say its points are the saved worst gaps"
grep -qi "<script src=\|<link [^>]*href=\"http" "$TMP/r.html" && fail "the page fetches something"
# --prom: the run's gaps, counted from its histogram by cause
grep -q "^jitterscope_gap_duration_seconds_count{cpu=\"1\"} $gaps$" "$TMP/r.prom" ||
	fail "--prom count is not the run's $gaps gaps: $(grep _count "$TMP/r.prom" | head -3)"
grep -q "^jitterscope_budget_violations_total" "$TMP/r.prom" || fail "--prom lacks the budget"
# --hgrm: the percentile table ends with the total count
grep -q "Total count *= *$gaps\]" "$TMP/r.hgrm" || fail "--hgrm total is not $gaps"
# --json: at the current schema, and its report is the original's
python3 - "$TMP/r.json" <<'PY' || fail "re-emitted JSON"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema_version"] == 3, r["schema_version"]
assert r["params"]["top"] == 2 and len(r["cpus"][0]["top"]) == 2
PY
"$JS" report "$RUN" -n 2 --by cgroup >"$TMP/a.txt" || fail "report -n 2 exited $?"
"$JS" report "$TMP/r.json" --by cgroup >"$TMP/b.txt" || fail "report of the re-emitted JSON exited $?"
diff -u "$TMP/a.txt" "$TMP/b.txt" >"$TMP/d" || fail "the re-emitted run reports otherwise: $(head -20 "$TMP/d")"
# an output on stdout: the text report goes to stderr
"$JS" report "$RUN" --json - >"$TMP/j" 2>"$TMP/t" || fail "report --json - exited $?"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/j" || fail "--json - is not JSON"
grep -q "^CPU 1 " "$TMP/t" || fail "--json -: the report is not on stderr"
echo "ok: --html, --prom ($gaps gaps), --hgrm, --json (reads back to the same report)"

# refused: exit 64, one line naming the option and the command (and, for report's outputs
# a saved run cannot feed, why)
n=0
refused() {
	local re=$1
	shift
	"$JS" "$@" >"$TMP/o" 2>"$TMP/e"
	local rc=$?
	n=$((n + 1))
	[ $rc -eq 64 ] || fail "jitterscope $*: exit $rc, not 64"
	[ "$(wc -l <"$TMP/e")" -eq 1 ] || fail "jitterscope $*: not one line: $(cat "$TMP/e")"
	grep -q -- "$re" "$TMP/e" || fail "jitterscope $*: '$(cat "$TMP/e")' lacks '$re'"
	[ -s "$TMP/o" ] && fail "jitterscope $*: wrote to stdout"
	return 0
}
refused "^jitterscope report: --gaps is not an option of report: a saved run keeps its worst gaps" report "$RUN" --gaps "$TMP/g.csv"
refused "^jitterscope report: --hlog is not an option of report: " report "$RUN" --hlog "$TMP/h.hlog"
refused "^jitterscope report: --trace is not an option of report: " report "$RUN" --trace "$TMP/t.json"
refused "^jitterscope report: --spike-dir is not an option of report: " report "$RUN" --spike-dir "$TMP/s"
refused "^jitterscope report: --listen is not an option of report (it is for a measurement)" report "$RUN" --listen 127.0.0.1:9464
refused "^jitterscope report: --prom-interval is not an option of report" report "$RUN" --prom "$TMP/p" --prom-interval 1s
refused "^jitterscope report: --duration is not an option of report" report "$RUN" -d 5
refused "^jitterscope report: --alpha is not an option of report (it is for diff)" report "$RUN" --alpha 0.05
refused "^jitterscope check: --pid is not an option of check (it is for a measurement)" check --pid 1
refused "^jitterscope check: --html is not an option of check" check --html "$TMP/x.html"
refused "^jitterscope check: --budget is not an option of check" check --budget max=1us
refused "^jitterscope check: --duration is not an option of check" check -d 5
refused "^jitterscope diff: --by is not an option of diff" diff "$RUN" "$RUN" --by cgroup
refused "^jitterscope diff: --top is not an option of diff" diff "$RUN" "$RUN" -n 1
refused "^jitterscope diff: --prom is not an option of diff" diff "$RUN" "$RUN" --prom "$TMP/p"
refused "^jitterscope: --sysroot is not an option of a measurement (it is for check)" --sysroot / -d 1
refused "^jitterscope: --min-change is not an option of a measurement (it is for diff)" --min-change 5
for f in g.csv h.hlog t.json x.html p; do [ -e "$TMP/$f" ] && fail "a refused run wrote $f"; done
[ -e "$TMP/s" ] && fail "a refused run made the spike directory"
echo "ok: $n refusals, exit 64, one line each"

# -h and --help everywhere; each command's help lists its own options only
for c in "" check report diff; do
	for h in -h --help; do
		"$JS" $c $h >"$TMP/h" 2>"$TMP/e" || fail "jitterscope $c $h exited $?"
		[ -s "$TMP/e" ] && fail "jitterscope $c $h wrote to stderr"
		grep -q "^Usage: jitterscope${c:+ $c}" "$TMP/h" || fail "jitterscope $c $h: $(head -1 "$TMP/h")"
	done
done
"$JS" check --help >"$TMP/h"
grep -q -- "--sysroot" "$TMP/h" || fail "check --help lacks --sysroot"
grep -q -- "--html\|--duration\|--pid\|--alpha" "$TMP/h" && fail "check --help lists options it refuses"
"$JS" report --help >"$TMP/h"
for o in --html --prom --hgrm --folded --json --top --by --budget; do
	grep -q -- "$o" "$TMP/h" || fail "report --help lacks $o"
done
grep -q -- "--gaps=\|--cpu\|--alpha" "$TMP/h" && fail "report --help lists options it refuses"
"$JS" diff --help >"$TMP/h"
grep -q -- "--fail-on" "$TMP/h" || fail "diff --help lacks --fail-on"
grep -q -- "--cpu\|--budget\|--by" "$TMP/h" && fail "diff --help lists options it refuses"
"$JS" --help >"$TMP/h"
# no heading directly followed by another heading (an empty group)
awk '/^ [A-Z].*:$/ { if (prev) bad = 1; prev = 1; next } NF { prev = 0 } END { exit bad }' "$TMP/h" ||
	fail "--help has an empty heading"
tr '\n' ' ' <"$TMP/h" | tr -s ' ' | grep -q "diff --fail-on worse)" ||
	fail "--help's exit status does not mention diff --fail-on worse"
echo "ok: -h and --help for every command, each its own options"
exit 0
