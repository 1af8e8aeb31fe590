#!/bin/bash
# outputs_hdr_prom.sh - a real 4 s run on CPU 1 writes --json, --hlog, --hgrm and --prom, and
# each file is read back by its peer tool, not by us:
#  - the .hlog by HdrHistogram Java's HistogramLogProcessor (Debian libhdrhistogram-java):
#    Tag=cpu1 accumulated over the run has the JSON's gap_count, p50..p99.99 and max exactly
#    (same histogram, same semantics); the untagged series too (one CPU); Tag=cpu1-arrival1ms
#    has the JSON's arrival count (and its percentiles unless a gap ran > 100 ms past an
#    interval's end); -listtags lists the tags; interval lines are 1 s apart;
#  - the .hgrm footer (Max, Total count) equals the JSON and Java's own table of the log;
#  - the .prom passes `promtool check metrics` (Debian prometheus) and its _count/_sum per CPU
#    equal gap_count and lost_ns; no FILE.tmp is left.
# --budget end to end: exit 2 and an EXCEEDED line on a violation, 0 and ok lines within limits.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1

JAR=/usr/share/java/hdrhistogram.jar
note() { echo "outputs_hdr_prom: $*"; }

# install_pkgs PKG... - as scripts/install-deps.sh would; a Prometheus server installed here
# is disabled at once (it would be jitter of its own)
install_pkgs() {
	local had_prom
	had_prom=$(dpkg-query -W -f='${Status}' prometheus 2>/dev/null | grep -c 'ok installed')
	command -v apt-get >/dev/null 2>&1 || return 1
	note "installing $* (normally done by scripts/install-deps.sh)"
	DEBIAN_FRONTEND=noninteractive timeout 300 \
		apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
	if [ "$had_prom" = 0 ] && command -v systemctl >/dev/null 2>&1; then
		systemctl disable --now prometheus >/dev/null 2>&1 || true
	fi
}
if ! command -v java >/dev/null 2>&1 || [ ! -r "$JAR" ]; then
	install_pkgs libhdrhistogram-java default-jre-headless
fi
command -v java >/dev/null 2>&1 && [ -r "$JAR" ] || { echo "skip: no java/$JAR"; exit 77; }
command -v promtool >/dev/null 2>&1 || install_pkgs prometheus
command -v promtool >/dev/null 2>&1 || { echo "skip: no promtool (Debian prometheus)"; exit 77; }
[ -x "$JS" ] || make -s -C "$ROOT" >/dev/null || fail "cannot build jitterscope"

J=$TMP/run.json H=$TMP/run.hlog G=$TMP/run.hgrm P=$TMP/run.prom
"$JS" --cpu 1 --duration 4 --json "$J" --hlog "$H" --hgrm "$G" --prom "$P" \
	--arrival-interval 1ms -q >"$TMP/report.txt" 2>"$TMP/err.txt" ||
	fail "run exited $? ($(cat "$TMP/err.txt"))"
for f in "$J" "$H" "$G" "$P"; do [ -s "$f" ] || fail "$(basename "$f") missing or empty"; done
[ ! -e "$P.tmp" ] || fail "$P.tmp left behind"

# our figures, from the JSON
python3 - "$J" >"$TMP/want" <<'PY' || fail "cannot read the JSON"
import json, sys
c = json.load(open(sys.argv[1]))["cpus"][0]
a = [x for x in c.get("arrivals", []) if x["interval_ns"] == 1000000][0]
print("gaps", c["gap_count"], c["p50_ns"], c["p90_ns"], c["p99_ns"], c["p999_ns"],
      c["p9999_ns"], c["max_ns"])
print("lost", c["lost_ns"])
print("arrivals", a["arrivals"], a["p50_ns"], a["p90_ns"], a["p99_ns"], a["p999_ns"],
      a["p9999_ns"], a["max_ns"])
print("topmax", max([t["duration_ns"] for t in c["top"]] or [0]))
PY
want() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$TMP/want"; }
read -r gap_count _ <<<"$(want gaps)"
[ "$gap_count" -gt 0 ] || fail "no gaps in 4 s: nothing to compare"

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
[ "$n" -ge 4 ] && [ "$n" -le 5 ] || fail "$n Tag=cpu1 intervals in a 4 s run"
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

# .prom: promtool, and its numbers
promtool check metrics <"$P" >"$TMP/promtool.out" 2>&1 ||
	{ cat "$TMP/promtool.out" >&2; fail "promtool check metrics failed"; }
read -r lost <<<"$(want lost)"
cnt=$(sed -n 's/^jitterscope_gap_duration_seconds_count{cpu="1"} //p' "$P")
sum=$(sed -n 's/^jitterscope_gap_duration_seconds_sum{cpu="1"} //p' "$P")
[ "$cnt" = "$gap_count" ] || fail ".prom _count '$cnt', JSON gap_count $gap_count"
[ "$sum" = "$(awk -v n="$lost" 'BEGIN { printf "%d.%09d", n / 1e9, n % 1e9 }')" ] ||
	fail ".prom _sum '$sum', JSON lost_ns $lost"
inf=$(sed -n 's/^jitterscope_gap_duration_seconds_bucket{cpu="1",le="+Inf"} //p' "$P")
[ "$inf" = "$gap_count" ] || fail ".prom +Inf bucket '$inf'"
bycause=$(awk '/^jitterscope_gaps_total\{cpu="1",/ { s += $2 } END { print s + 0 }' "$P")
[ "$bycause" = "$gap_count" ] || fail ".prom gaps_total by cause adds up to $bycause"
note ".prom: promtool ok, _count $cnt and _sum $sum s = JSON"

# --budget: a limit below the run's max must exit 2 (main.c applies it: no "not wired yet"
# skip any more, it would pass whatever --budget does)
"$JS" --cpu 1 --duration 1 -q --budget 'gaps=0,max=1ns' >"$TMP/b.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--budget gaps=0,max=1ns exited $rc, want 2: $(tail -3 "$TMP/b.out")"
grep -q '^budget max=1ns on CPU 1: .*  EXCEEDED$' "$TMP/b.out" ||
	fail "no EXCEEDED line: $(grep '^budget' "$TMP/b.out")"
"$JS" --cpu 1 --duration 1 -q --budget 'max=3600s' >"$TMP/b2.out" 2>&1 ||
	fail "--budget max=3600s exited $? ($(tail -3 "$TMP/b2.out"))"
grep -q '^budget max=3600s on CPU 1: .*  ok$' "$TMP/b2.out" ||
	fail "no ok line: $(grep '^budget' "$TMP/b2.out")"
note "--budget: exit 2 on a violation, 0 within limits"
note "PASS"
exit 0
