#!/bin/bash
# robust_degraded.sh - missing privileges: jitterscope says what is
# missing and what still works, and still measures (exit 0) in sampler-only mode:
#   - an unprivileged user (nobody): one warning naming CAP_BPF, CAP_PERFMON, CAP_IPC_LOCK
#     and their consequences; BPF not permitted -> no attribution; SMIs not countable
#   - -P f:N without CAP_SYS_NICE: refused before measuring (exit 1, one line)
#   - root without capabilities (empty bounding set, as in a container)
# Missing kernel features: robust_degraded_kernel.sh.
# cpu1: shared - it judges what a run says and does without privileges, not what it measures (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_cmd setpriv util-linux

chmod 755 "$TMP"
cp "$JS" "$TMP/js" && chmod 755 "$TMP/js"
mkdir -m 1777 "$TMP/out"
O=$TMP/out
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# 1. nobody: measures without attribution, says why
nobody "$TMP/js" --cpu 1 -d 1 --json "$O/u.json" --gaps "$O/u.csv" >"$TMP/u.txt" 2>"$TMP/u.err";
rc=$?
[ $rc -eq 0 ] || fail "unprivileged run exited $rc: $(cat "$TMP/u.err")"
want='warning: not root, missing CAP_BPF, CAP_PERFMON, CAP_IPC_LOCK: no eBPF attribution, '
want+='SMIs not counted, memory not locked.*the gaps are still measured'
grep -q "$want" "$TMP/u.err" || fail "no privileges warning: $(cat "$TMP/u.err")"
[ "$(grep -c 'missing CAP' "$TMP/u.err")" -eq 1 ] || fail "privileges named more than once"
grep -q 'eBPF probes unavailable (BPF not permitted' "$TMP/u.err" ||
	fail "no notice of the BPF refusal: $(cat "$TMP/u.err")"
grep -q 'probes: off' "$TMP/u.txt" || fail "the report does not say the probes are off"
grep -q 'SMI: not countable' "$TMP/u.txt" || fail "the report does not say SMIs are not countable"
json_check "$O/u.json" 'not r["probes"]["enabled"]' '"not permitted" in r["probes"]["why_disabled"]' \
	'not r["smi"]["countable"]' '0.9e9 < c["duration_ns"] < 1.5e9' \
	'c["gap_count"] == len(open(sys.argv[1].replace("u.json", "u.csv")).read().splitlines()) - 1'

# 2. nobody, --no-probes: BPF is not missing then
nobody "$TMP/js" --cpu 1 -d 0.3 --no-probes -q --json "$O/n.json" >/dev/null 2>"$TMP/n.err" ||
	fail "unprivileged --no-probes run failed: $(cat "$TMP/n.err")"
grep -q 'missing CAP_PERFMON, CAP_IPC_LOCK: SMIs not counted, memory not locked' "$TMP/n.err" ||
	fail "--no-probes warning: $(cat "$TMP/n.err")"
grep -q 'eBPF' "$TMP/n.err" && fail "--no-probes still talks about eBPF: $(cat "$TMP/n.err")"
json_check "$O/n.json" 'r["probes"]["why_disabled"] == "--no-probes"'

# 3. nobody, a real-time sampler: refused at once, naming CAP_SYS_NICE
start=$(date +%s%N)
nobody "$TMP/js" --cpu 1 -d 5 -P f:10 >/dev/null 2>"$TMP/p.err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc -eq 1 ] || fail "-P f:10 as nobody exited $rc"
grep -q 'f:10 needs root or CAP_SYS_NICE' "$TMP/p.err" || fail "-P f:10: $(cat "$TMP/p.err")"
[ "$(grep -vc warning "$TMP/p.err")" -eq 1 ] || fail "-P f:10: more than one error line"
[ $ms -lt 2000 ] || fail "-P f:10 refused after $ms ms"

# 4. nobody, an output it may not write: refused before measuring
nobody "$TMP/js" --cpu 1 -d 5 --json /root/forbidden.json >/dev/null 2>"$TMP/w.err"; rc=$?
[ $rc -eq 1 ] && grep -q "cannot write --json file '/root/forbidden.json': Permission denied" \
	"$TMP/w.err" || fail "unwritable --json as nobody: exit $rc: $(cat "$TMP/w.err")"

# 5. root without capabilities (an empty bounding set, as in a locked-down container)
setpriv --bounding-set=-all --inh-caps=-all "$TMP/js" --cpu 1 -d 0.3 -q --json "$O/c.json" \
	>/dev/null 2>"$TMP/c.err" || fail "root without capabilities failed: $(cat "$TMP/c.err")"
grep -q 'root without capabilities, missing CAP_BPF, CAP_PERFMON' "$TMP/c.err" ||
	fail "no capabilities warning for root: $(cat "$TMP/c.err")"
json_check "$O/c.json" 'not r["probes"]["enabled"]' 'not r["smi"]["countable"]'

echo "ok: unprivileged and capability-less runs degrade as documented"
exit 0
