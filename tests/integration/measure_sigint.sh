#!/bin/bash
# measure_sigint.sh - Ctrl-C ends an open-ended run with a complete partial report,
# valid outputs, and no BPF program of ours left behind.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1

BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
progs_before=$("$BPFTOOL" prog list 2>/dev/null | grep -c '^[0-9]*:')
"$JS" --cpu 1 --duration 0 --json "$TMP/run.json" --gaps "$TMP/gaps.csv" \
	>"$TMP/report.txt" 2>"$TMP/err.txt" &
pid=$!
sleep 3
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 0 ] || fail "interrupted run exited $rc ($(cat "$TMP/err.txt"))"
grep -q "interrupted" "$TMP/report.txt" || fail "the report does not say it was interrupted"
python3 - "$TMP/run.json" "$TMP/gaps.csv" <<'PY' || fail "partial outputs invalid"
import json, sys
run = json.load(open(sys.argv[1]))
assert run["interrupted"] is True
c = run["cpus"][0]
assert c["duration_ns"] > 1e9, c["duration_ns"]
rows = open(sys.argv[2]).read().splitlines()
assert len(rows) - 1 == c["gap_count"], (len(rows) - 1, c["gap_count"])
PY
# the kernel frees programs asynchronously after the last fd closes
for i in 1 2 3 4 5 6 7 8 9 10; do
	progs_after=$("$BPFTOOL" prog list 2>/dev/null | grep -c '^[0-9]*:')
	[ "$progs_after" -le "$progs_before" ] && break
	sleep 0.5
done
[ "$progs_after" -le "$progs_before" ] ||
	fail "BPF programs left behind: $progs_before before, $progs_after after"
echo "ok: partial report after SIGINT"
exit 0
