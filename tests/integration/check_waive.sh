#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# check_waive.sh - `check --waive/--waive-file/--fail-on` on the fixture trees (no root, no
# CPU 1): the exit status follows the unwaived problems only, waived checks are still shown
# (text and JSON) and marked, a bad id or file is one line and exit 64; identical per-CPU
# lines fold into one. Exit 0 pass, 77 skip, else fail.
# cpu1: none - check on fixture trees and refusals, measures nothing
. "$(dirname "$0")/../lib/lib.bash"
BADLY=$ROOT/tests/data/sysroot/badly-tuned
TUNED=$ROOT/tests/data/sysroot/tuned
[ -x "$JS" ] || fail "no $JS"
chk() { "$JS" check -q --sysroot "$BADLY" --cpu 3 "$@"; }

# the badly tuned box fails; the tuned one passes
chk >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] || fail "badly-tuned: exit not 2"
"$JS" check -q --sysroot "$TUNED" --cpu 3 >/dev/null 2>&1 || fail "tuned: exit not 0"

# waive every failing id: exit 0, each still printed, marked
ids=$(grep '^FAIL' "$TMP/out" | awk '{print $3}' | sort -u | paste -sd,)
[ -n "$ids" ] || fail "no FAIL line in the badly-tuned audit"
chk --waive "$ids" >"$TMP/w" 2>"$TMP/err" || fail "all fails waived, exit $?: $(cat "$TMP/err")"
nfail=$(grep -c '^FAIL' "$TMP/out")
nwaived=$(grep '^FAIL' "$TMP/w" | grep -c ' \[waived\]$')
[ "$nfail" -eq "$nwaived" ] || fail "$nfail FAIL lines, $nwaived of them marked waived"
grep -qE '^audit: .*, [0-9]+ waived$' "$TMP/w" || fail "no waived count in the summary"

# all but one: exit 2 again; the same through a waiver file with comments
one=${ids%%,*}
rest=${ids#*,}
chk --waive "$rest" >/dev/null 2>&1
[ $? -eq 2 ] || fail "$one left unwaived, yet exit not 2"
{
	echo "# accepted on this fleet"
	echo
	echo "$rest" | tr , '\n' | sed 's/$/   # reviewed/'
} >"$TMP/waivers"
chk --waive-file "$TMP/waivers" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--waive-file without $one: exit not 2"
chk --waive-file "$TMP/waivers" --waive "$one" >/dev/null 2>&1 || fail "--waive-file + --waive: exit not 0"

# --fail-on: crit finds nothing on this box for a SCHED_OTHER run, low finds warns
chk --fail-on crit >/dev/null 2>&1 || fail "--fail-on crit: exit $? (no crit problem for SCHED_OTHER)"
chk -P f:10 --fail-on crit >/dev/null 2>&1
[ $? -eq 2 ] || fail "-P f:10 --fail-on crit: sched_rt_runtime_us should be a crit fail"
chk --waive "$ids" --fail-on low >/dev/null 2>&1
[ $? -eq 2 ] || fail "--fail-on low with the low warns unwaived: exit not 2"

# JSON: the mark on each check and the count
chk --waive "sched_rt_runtime_us,irq.*" --json "$TMP/a.json" >/dev/null 2>&1
python3 - "$TMP/a.json" <<'PY' || fail "JSON waivers"
import json, sys
a = json.load(open(sys.argv[1]))["audit"]
w = [c["id"] for c in a["checks"] if c["waived"]]
assert "sched_rt_runtime_us" in w and "irq.130" in w and "irq.affinity" in w, w
assert all(c["waived"] is False for c in a["checks"] if c["id"] not in w)
assert a["summary"]["waived"] == len(w), a["summary"]
PY

# refusals: one line, exit 64
for args in "--waive nosuch" "--waive isolcpus,bogus" "--waive-file $TMP/none" \
	"--fail-on worse" "--fail-on 2"; do
	# shellcheck disable=SC2086
	chk $args >"$TMP/o" 2>"$TMP/e"
	rc=$?
	[ $rc -eq 64 ] || fail "check $args: exit $rc, not 64"
	[ "$(wc -l <"$TMP/e")" -eq 1 ] || fail "check $args: not one line: $(cat "$TMP/e")"
	[ -s "$TMP/o" ] && fail "check $args printed an audit"
done
echo "bogus_id" >"$TMP/bad"
chk --waive-file "$TMP/bad" >/dev/null 2>"$TMP/e"
[ $? -eq 64 ] && grep -q "bad:1: unknown check id 'bogus_id'" "$TMP/e" || fail "bad waiver file: $(cat "$TMP/e")"
"$JS" --waive isolcpus -d 1 >/dev/null 2>&1
[ $? -eq 64 ] || fail "--waive outside check not refused"

# folding: four CPUs alike share one line
"$JS" check -q --sysroot "$BADLY" --cpu 2-5 >"$TMP/f" 2>/dev/null
grep -qE '^FAIL HIGH nohz_full +cpu2-5 ' "$TMP/f" || fail "nohz_full of CPUs 2-5 not one line"
[ "$(grep -cE '^[A-Z]+ +[A-Z]+ +nohz_full ' "$TMP/f")" -eq 1 ] || fail "nohz_full printed more than once"
echo "check_waive: waivers, --fail-on, refusals and folding as documented"
