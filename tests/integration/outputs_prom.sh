#!/bin/bash
# outputs_prom.sh - a real 2 s run on CPU 1 writes --json, --gaps and --prom; the .prom
# passes `promtool check metrics` (Debian prometheus), its _count, _sum, +Inf bucket and
# gaps_total per CPU equal the JSON's gap_count and lost_ns, every finite bucket of the gap
# histogram counts exactly the --gaps rows whose duration is at or below its le (seconds,
# inclusive), and no FILE.tmp is left. Skips without promtool (a failure under CI=true:
# scripts/install-deps.sh installs it).
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
need_btf
need_cmd promtool prometheus
note() { echo "outputs_prom: $*"; }

J=$TMP/run.json P=$TMP/run.prom
"$JS" --cpu 1 --duration 2 --json "$J" --prom "$P" --gaps "$TMP/gaps.csv" -q >"$TMP/report.txt" 2>"$TMP/err.txt" ||
	fail "run exited $? ($(cat "$TMP/err.txt"))"
for f in "$J" "$P"; do [ -s "$f" ] || fail "$(basename "$f") missing or empty"; done
[ ! -e "$P.tmp" ] || fail "$P.tmp left behind"
want=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["cpus"][0]
print(c["gap_count"], c["lost_ns"])' "$J") || fail "cannot read the JSON"
read -r gap_count lost <<<"$want"
[ "$gap_count" -gt 0 ] || fail "no gaps in 2 s: nothing to compare"

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
# every finite bucket against the CSV's durations: exact counts, le inclusive
python3 - "$P" "$TMP/gaps.csv" <<'PY' || fail ".prom buckets and the --gaps CSV disagree (above)"
import re, sys
from decimal import Decimal
import jsfiles
durs = sorted(int(r["duration_ns"]) for r in jsfiles.gap_rows(sys.argv[2], cpu=1))
le = [(m.group(1), int(m.group(2))) for m in re.finditer(
    r'^jitterscope_gap_duration_seconds_bucket\{cpu="1",le="([^"]+)"\} (\d+)$',
    open(sys.argv[1]).read(), re.M)]
fin = [(Decimal(b) * 10 ** 9, n) for b, n in le if b != "+Inf"]
assert len(fin) >= 20, "only %d finite buckets: %s" % (len(fin), le)
assert [b for b, _ in fin] == sorted({b for b, _ in fin}), "le not increasing: %s" % le
bad = []
for b, n in fin:
    want = sum(d <= b for d in durs)
    if n != want:
        bad.append("le=%s s: %d, the CSV has %d gaps <= %d ns" % (b / 10 ** 9, n, want, b))
for x in bad:
    print("  " + x)
assert not bad, "%d of %d finite buckets wrong" % (len(bad), len(fin))
used = [(b, n) for b, n in fin if 0 < n < len(durs)]
# a histogram moved by one bucket is seen only where neighbouring counts differ
assert len({n for _, n in fin}) >= 3, "too few distinct bucket counts to judge: %s" % fin
print("outputs_prom: %d finite buckets = the %d CSV durations at or below each le (%d "
      "between empty and full, from le=%s ns)" % (len(fin), len(durs), len(used),
                                                  int(used[0][0]) if used else "-"))
PY
note "PASS"
exit 0
