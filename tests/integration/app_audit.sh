#!/bin/bash
# app_audit.sh - issue 14: with --pid the isolation audit covers every CPU the followed
# threads ran on. A shell loop starts on CPU 1 (the watched CPU: its affinity) and is moved to
# CPU 0 during the run; the JSON's audit then lists CPU 0 and 1, as the thread's ran_on says,
# and the report's audit header names both. Root only (77 otherwise), about 4 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
taskset -c 1 sh -c 'while :; do sleep 0.01; done' &
app=$!
at_exit 'kill $app 2>/dev/null'
sleep 0.2
"$JS" --pid $app --duration 3 --json "$TMP/run.json" >"$TMP/report.txt" 2>"$TMP/err.txt" &
js=$!
# moved once jitterscope follows it (on a loaded machine its probes took over 1.5 s to attach,
# and the thread was seen on CPU 0 alone), then half a second on CPU 1 first
wait_attached $js || fail "jitterscope's probes not attached within 20 s ($(cat "$TMP/err.txt"))"
sleep 0.5
taskset -pc 0 $app >/dev/null || fail "cannot move the application to CPU 0"
wait $js; rc=$?
[ $rc -eq 0 ] || fail "jitterscope exited $rc ($(cat "$TMP/err.txt"))"
python3 - "$TMP/run.json" <<'PY' || fail "the audit does not cover the CPUs the thread ran on"
import json, sys
r = json.load(open(sys.argv[1]))
ran = set()
for t in r["threads"]:
    ran |= set(t["thread_stats"]["ran_on"])
audited = set(r["audit"]["cpus"])
print("ran on %s, audited %s" % (sorted(ran), sorted(audited)))
assert {0, 1} <= ran, ran
assert ran <= audited, (ran, audited)
PY
grep -q "isolation audit of CPU 0-1" "$TMP/report.txt" || fail "the report's audit is not of CPU 0-1"
grep -q "ran outside the watched CPUs" "$TMP/err.txt" || fail "no notice of the extended audit"
echo "PASS"
