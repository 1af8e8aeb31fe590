#!/bin/bash
# outputs_prom.sh - a real 2 s run on CPU 1 writes --json, --gaps and --prom; the .prom
# passes `promtool check metrics` (Debian prometheus), its _count, _sum, +Inf bucket and
# gaps_total per CPU equal the JSON's gap_count and lost_ns, every finite bucket of the gap
# histogram counts exactly the --gaps rows whose duration is at or below its le (seconds,
# inclusive), and no FILE.tmp is left. Then (issue 39, item 6) the source labels are
# re-picked as sources change: a 3.5 s run writes --prom every second; before its first file,
# 12 tasks of as many names start on CPU 1 (with CPU 1's own sources, more than the 10
# labels of a CPU: the first file must have 10); after it, jsinject preempts CPU 1 for 2 ms every 20 ms. A later file
# has source="jsinject" under its own label (the old rule, labels fixed at the first
# exposition, kept it in "other"), never more than 10 labels of CPU 1, and every series
# of the first file that is still there is not smaller. Skips without promtool (a
# failure under CI=true: scripts/install-deps.sh installs it). About 7 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
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

# a neighbour that starts after the first exposition gets its own label at a later one
need_tools jsinject
on_housekeeping # this script's own processes stay off CPU 1: only the named ones go there
mkdir -p "$TMP/bin" "$TMP/snap"
for i in $(seq -w 1 12); do ln -s "$(type -P true)" "$TMP/bin/jsname$i"; done
P2=$TMP/repick.prom
"$JS" --cpu 1 --duration 3.5 --prom "$P2" --prom-interval 1s -q >/dev/null 2>"$TMP/err2.txt" &
run=$!
attached $run
# at once: on CPU 1 each waits for the sampler to give way
for i in $(seq -w 1 12); do taskset -c 1 "$TMP/bin/jsname$i" & done
# snap - a copy of each new file (renamed over: a new inode) while the run lasts
snap() {
	local ino last='' k=0
	while kill -0 $run 2>/dev/null; do
		ino=$(stat -c %i "$P2" 2>/dev/null) || ino=''
		if [ -n "$ino" ] && [ "$ino" != "$last" ]; then
			k=$((k + 1))
			cp "$P2" "$TMP/snap/$k.prom"
			last=$ino
			[ $k -eq 1 ] && touch "$TMP/snap/first"
		fi
		sleep 0.05
	done
}
snap &
snapper=$!
for _ in $(seq 1 80); do [ -e "$TMP/snap/first" ] && break; sleep 0.05; done
[ -e "$TMP/snap/first" ] || fail "no --prom file 4 s into the run ($(cat "$TMP/err2.txt"))"
"$INJ" --mode preempt --cpu 1 --duration 1.5 --period 20000 --spin 2000 >"$TMP/inj.out" 2>&1 ||
	fail "jsinject failed: $(cat "$TMP/inj.out")"
wait $run || fail "the re-pick run exited $? ($(cat "$TMP/err2.txt"))"
wait
cp "$P2" "$TMP/snap/final.prom"
python3 - "$TMP/snap" <<'PY' || fail "the source labels were not re-picked (above)"
import glob, os, re, sys
d = sys.argv[1]
files = sorted((f for f in glob.glob(d + "/*.prom") if not f.endswith("final.prom")),
               key=lambda f: int(os.path.basename(f).split(".")[0])) + [d + "/final.prom"]
pat = re.compile(r'^jitterscope_source_lost_seconds_total\{cpu="1",cause="([^"]+)",'
                 r'source="([^"]*)"(?:,cgroup="([^"]*)")?\} (\S+)$', re.M)
snaps = [{(c, s, g or ""): float(v) for c, s, g, v in pat.findall(open(f).read())}
         for f in files]
labels = [[k for k in x if k[1] != "other"] for x in snaps]
first = labels[0]
print("outputs_prom: %d files; labels of CPU 1: %s" % (
    len(files), " ".join(str(len(x)) for x in labels)))
assert len(first) == 10, "the first file has %d labels of CPU 1, not the 10 of a full " \
    "CPU: nothing to re-pick (%s)" % (len(first), sorted(k[1] for k in first))
assert not [k for k in first if k[1] == "jsinject"], "jsinject in the first file"
assert all(len(x) <= 10 for x in labels), "more than 10 labels: %s" % [len(x) for x in labels]
got = [(i, max(v for k, v in x.items() if k[:2] == ("task", "jsinject")))
       for i, x in enumerate(snaps) if any(k[:2] == ("task", "jsinject") for k in x)]
assert got and max(v for _, v in got) > 0, \
    "jsinject never under its own label (%s)" % sorted(k[1] for k in labels[-1])
for a, b in zip(snaps, snaps[1:]):
    for k, v in a.items():
        assert k not in b or b[k] >= v, "%s went back: %s then %s" % (k, v, b[k])
gone = sorted(k[1] for k in first if k not in snaps[-1])
print("outputs_prom: jsinject under its own label from file %d on (%.3f s at the end); "
      "labels gone since the first file: %s" % (got[0][0] + 1, got[-1][1], gone))
PY
note "PASS"
exit 0
