#!/bin/bash
# measure_sigint.sh - Ctrl-C ends an open-ended run with a complete partial report,
# valid outputs, and no BPF program of ours left behind.
. "$(dirname "$0")/lib.sh"
need_root
need_cpu1

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
if command -v bpftool >/dev/null || [ -x /usr/sbin/bpftool ]; then
	BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
	sleep 0.5
	if "$BPFTOOL" prog list 2>/dev/null | grep -q "js_\|jitterscope"; then
		fail "BPF programs left behind: $("$BPFTOOL" prog list | grep 'js_')"
	fi
fi
echo "ok: partial report after SIGINT"
exit 0
