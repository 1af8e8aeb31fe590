#!/bin/bash
# outputs_prom.sh - a real 4 s run on CPU 1 writes --json and --prom; the .prom passes
# `promtool check metrics` (Debian prometheus), its _count, _sum, +Inf bucket and gaps_total
# per CPU equal the JSON's gap_count and lost_ns, and no FILE.tmp is left. Skips without
# promtool (a failure under CI=true: scripts/install-deps.sh installs it).
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
need_cmd promtool prometheus
note() { echo "outputs_prom: $*"; }

J=$TMP/run.json P=$TMP/run.prom
"$JS" --cpu 1 --duration 4 --json "$J" --prom "$P" -q >"$TMP/report.txt" 2>"$TMP/err.txt" ||
	fail "run exited $? ($(cat "$TMP/err.txt"))"
for f in "$J" "$P"; do [ -s "$f" ] || fail "$(basename "$f") missing or empty"; done
[ ! -e "$P.tmp" ] || fail "$P.tmp left behind"
want=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["cpus"][0]
print(c["gap_count"], c["lost_ns"])' "$J") || fail "cannot read the JSON"
read -r gap_count lost <<<"$want"
[ "$gap_count" -gt 0 ] || fail "no gaps in 4 s: nothing to compare"

promtool check metrics <"$P" >"$TMP/promtool.out" 2>&1 ||
	{ cat "$TMP/promtool.out" >&2; fail "promtool check metrics failed"; }
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
note "PASS"
exit 0
