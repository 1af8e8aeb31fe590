#!/bin/bash
# measure_sigint.sh - Ctrl-C ends an open-ended run with a complete partial report,
# valid outputs, and no BPF program of ours left behind.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
need_cmd "$BPFTOOL" bpftool
"$JS" --cpu 1 --duration 0 --json "$TMP/run.json" --gaps "$TMP/gaps.csv" \
	>"$TMP/report.txt" 2>"$TMP/err.txt" &
pid=$!
sleep 3
# the BPF programs the run holds (a count of `bpftool prog list` before and after compared 0
# with 0 when bpftool failed, and missed a leak when another tool unloaded programs meanwhile)
ids=$(prog_ids $pid | sort -un)
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
[ -n "$ids" ] || fail "the run held no BPF program after 3 s (probes not loaded?)"
# shellcheck disable=SC2086 # one id a word
left=$(progs_left $ids)
[ -z "$left" ] || fail "BPF programs left behind:$left"
echo "ok: partial report after SIGINT, $(echo "$ids" | wc -l) BPF programs gone"
exit 0
