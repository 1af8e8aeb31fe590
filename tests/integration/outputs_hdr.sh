#!/bin/bash
# outputs_hdr.sh - a real 2 s run on CPU 1 writes --json, --hlog and --hgrm, and the .hlog is
# read back by HdrHistogram Java's HistogramLogProcessor (Debian libhdrhistogram-java), not
# by us:
#  - Tag=cpu1 accumulated over the run has the JSON's gap_count, p50..p99.99 and max exactly
#    (same histogram, same semantics); the untagged series too (one CPU); Tag=cpu1-arrival1ms
#    has the JSON's arrival count (and its percentiles unless a gap ran > 100 ms past an
#    interval's end); -listtags lists the tags; interval lines are 1 s apart;
#  - the .hgrm footer (Max, Total count) equals the JSON and Java's own table of the log.
# Skips without Java (a failure under CI=true: scripts/install-deps.sh installs it).
# The .prom file: outputs_prom.sh; --budget: outputs_budget.sh.
# cpu1: shared - the .hlog and .hgrm are judged against the run's own JSON, whatever gaps it holds (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
JAR=/usr/share/java/hdrhistogram.jar
need_cmd java default-jre-headless
need_file "$JAR" libhdrhistogram-java
note() { echo "outputs_hdr: $*"; }

J=$TMP/run.json H=$TMP/run.hlog G=$TMP/run.hgrm
"$JS" --cpu 1 --duration 2 --json "$J" --hlog "$H" --hgrm "$G" \
	--arrival-interval 1ms -q >"$TMP/report.txt" 2>"$TMP/err.txt" ||
	fail "run exited $? ($(cat "$TMP/err.txt"))"
for f in "$J" "$H" "$G"; do [ -s "$f" ] || fail "$(basename "$f") missing or empty"; done

# our figures, from the JSON
python3 - "$J" >"$TMP/want" <<'PY' || fail "cannot read the JSON"
import json, sys
c = json.load(open(sys.argv[1]))["cpus"][0]
a = [x for x in c.get("arrivals", []) if x["interval_ns"] == 1000000][0]
print("gaps", c["gap_count"], c["p50_ns"], c["p90_ns"], c["p99_ns"], c["p999_ns"],
      c["p9999_ns"], c["max_ns"])
print("arrivals", a["arrivals"], a["p50_ns"], a["p90_ns"], a["p99_ns"], a["p999_ns"],
      a["p9999_ns"], a["max_ns"])
print("topmax", max([t["duration_ns"] for t in c["top"]] or [0]))
PY
want() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$TMP/want"; }
read -r gap_count _ <<<"$(want gaps)"
[ "$gap_count" -gt 0 ] || fail "no gaps in 2 s: nothing to compare"

# hlp NAME ARGS... - HistogramLogProcessor, values in ns; CSV intervals in $TMP/NAME
hlp() {
	local name=$1 rc
	shift
	java -cp "$JAR" org.HdrHistogram.HistogramLogProcessor -i "$H" -outputValueUnitRatio 1 \
		-csv -o "$TMP/$name" "$@" >"$TMP/$name.stdout" 2>"$TMP/$name.stderr" ||
		{ rc=$?; cat "$TMP/$name.stderr" >&2; fail "HistogramLogProcessor $* exited $rc"; }
	! grep -q Exception "$TMP/$name.stderr" ||
		{ cat "$TMP/$name.stderr" >&2; fail "HistogramLogProcessor $* threw"; }
	[ -s "$TMP/$name" ] || fail "HistogramLogProcessor $* wrote nothing"
}
# totals NAME - "count p50 p90 p99 p99.9 p99.99 max" of the last CSV line (accumulated)
totals() {
	tail -n 1 "$TMP/$1" | awk -F, '{ for (i = 6; i <= 12; i++) { v = $i; sub(/\.0+$/, "", v);
		printf "%s%s", v, i < 12 ? " " : "\n" } }'
}

hlp cpu1 -tag cpu1
got=$(totals cpu1)
[ "$got" = "$(want gaps)" ] ||
	fail "Tag=cpu1 in Java: count p50 p90 p99 p99.9 p99.99 max = '$got', JSON '$(want gaps)'"
note "Java Tag=cpu1: $got (count p50 p90 p99 p99.9 p99.99 max, ns) = JSON"
hlp all
[ "$(totals all)" = "$(want gaps)" ] || fail "untagged series in Java: '$(totals all)'"
# one line per second: timestamps 1.000, 2.000, ... (HistogramLogProcessor: interval ends)
n=$(grep -c '^Tag=cpu1,' "$H")
[ "$n" -ge 2 ] && [ "$n" -le 3 ] || fail "$n Tag=cpu1 intervals in a 2 s run"
awk -F, '/^Tag=cpu1,/ { if ($2 + 0 != k) { print "interval " k ": start " $2; exit 1 } k++ }' \
	"$H" || fail "Tag=cpu1 interval starts are not 0, 1, 2 ... s"

hlp arr -tag cpu1-arrival1ms
read -r acount _ <<<"$(want arrivals)"
got=$(totals arr)
read -r topmax <<<"$(want topmax)"
if [ "$got" = "$(want arrivals)" ]; then
	note "Java Tag=cpu1-arrival1ms: $got = JSON"
elif [ "${got%% *}" = "$acount" ] && [ "$topmax" -gt 100000000 ]; then
	note "Tag=cpu1-arrival1ms: count $acount = JSON; delays differ after a ${topmax} ns gap"
else
	fail "Tag=cpu1-arrival1ms in Java: '$got', JSON '$(want arrivals)'"
fi
java -cp "$JAR" org.HdrHistogram.HistogramLogProcessor -i "$H" -listtags >"$TMP/tags" 2>&1 ||
	fail "-listtags exited $?"
for t in cpu1 cpu1-arrival1ms; do
	grep -qx "$t" "$TMP/tags" || { cat "$TMP/tags" >&2; fail "-listtags lacks $t"; }
done

# .hgrm: footer = JSON; the whole table = Java's table of the .hlog (numerically)
read -r _ _ _ _ _ _ max <<<"$(want gaps)"
grep -qE "^#\[Max *= *$max\.000, Total count *= *$gap_count\]$" "$G" ||
	fail ".hgrm footer '$(grep '^#\[Max' "$G")', want Max $max, Total count $gap_count"
# (Java's status checked and its table non-empty: with an empty first file the awk below
# would read ours as Java's and compare nothing)
java -cp "$JAR" org.HdrHistogram.HistogramLogProcessor -i "$H" -outputValueUnitRatio 1 \
	-tag cpu1 >"$TMP/java.out" 2>"$TMP/java.err" ||
	fail "HistogramLogProcessor -tag cpu1 (table) exited $?: $(cat "$TMP/java.err")"
grep -v '^#\[\(Overall\|StartTime\)' "$TMP/java.out" >"$TMP/java.hgrm"
grep -q '^#\[Max' "$TMP/java.hgrm" || fail "Java printed no .hgrm table: $(cat "$TMP/java.err")"
awk 'function abs(x) { return x < 0 ? -x : x }
	NR == FNR { j[FNR] = $0; nj = FNR; next }
	{ if ($0 == j[FNR]) next
	  split(j[FNR], a)
	  if ($0 ~ /^#/ || NF != length(a) || abs($1 - a[1]) > 0.0011 ||
	      abs($2 - a[2]) > 1.001e-12 || $3 != a[3]) {
		printf "line %d: java [%s] ours [%s]\n", FNR, j[FNR], $0; err = 1 } }
	END { if (FNR != nj) { print "line count differs"; err = 1 } exit err }' \
	"$TMP/java.hgrm" "$G" || fail ".hgrm differs from Java's table of the .hlog"
note ".hgrm: Max $max, Total count $gap_count; table = Java's"
note "PASS"
exit 0
