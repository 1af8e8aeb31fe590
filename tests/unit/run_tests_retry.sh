#!/bin/bash
# run_tests_retry.sh - scripts/run-tests.sh's retry policy (docs/HACKING.md, "The retry"), on
# stand-in tests: exit 75 (a failure under the test's own noise gauge) of a test that measures
# CPU 1 runs again; no other failure does (a plain one, a crash, a traceback), and every
# measuring test of the suite names its gauge (attrib_*, or a "# noise gauge:" header line);
# a failure then a skip is a failure; the closing line counts the retries, and under CI=true a second retried
# test fails the run; a failed script's FAIL lines are listed as why it failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d /tmp/run_tests_retry.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/integration"
# stand-in NAME FIRST THEN - a test that exits FIRST on its first run and THEN after
stand_in() {
	cat >"$tmp/integration/$1.sh" <<EOT
n=\$(cat "$tmp/count.$1" 2>/dev/null || echo 0); echo \$((n + 1)) >"$tmp/count.$1"
if [ "\$n" -eq 0 ]; then [ $2 -eq 75 ] && echo "noise: stand-in gauge"; echo "FAIL: first"; exit $2; fi
[ $3 -eq 77 ] && echo "skip: gone"
exit $3
EOT
}
bad=0
check() { # check WHAT GREP-PATTERN FILE
	if grep -qE -- "$2" "$3"; then echo "ok: $1"; else echo "FAIL: $1 (no '$2')"; bad=1; fi
}
run() { # run OUT CI TESTS... - the runner on the stand-ins; its exit status in OUT.rc
	local out=$1 ci=$2
	shift 2
	rm -f "$tmp"/count.*
	CI=$ci JS_RETRY_PAUSE=0 JS_TEST_LOGS="$tmp/logs" JS_CPU1_LOCK="$tmp/lock" scripts/run-tests.sh integration \
		"$@" >"$out" 2>&1
	echo $? >"$out.rc"
}
stand_in noise_then_pass 75 0
stand_in noise_then_skip 75 77
stand_in attrib_plain_fail 1 0
stand_in noise_then_pass2 75 0
stand_in crash 139 0
stand_in ungauged 1 1
t=$tmp/integration
printf 'echo "Traceback (most recent call last):"; echo "KeyError: x"; exit 1\n' >"$t/traceback.sh"
# a test that says it has a gauge of its own ("# noise gauge:"), whatever its name
stand_in marked_plain_fail 1 0
sed -i '1i # noise gauge: a stand-in' "$t/marked_plain_fail.sh"
run "$tmp/one" true "$t/noise_then_pass.sh" "$t/attrib_plain_fail.sh" "$t/noise_then_skip.sh"
check "a failure under noise runs again and passes" \
	'^PASS: .*noise_then_pass.sh \([0-9]+s; after a retry\)' "$tmp/one"
check "a gauged test's plain failure is not run again" '^FAIL: .*attrib_plain_fail.sh \(rc 1' \
	"$tmp/one"
[ "$(cat "$tmp/count.attrib_plain_fail")" = 1 ] && echo "ok: plain failure ran once" ||
	{ echo "FAIL: the plain failure ran again"; bad=1; }
run "$tmp/marked" false "$t/marked_plain_fail.sh"
[ "$(cat "$tmp/count.marked_plain_fail")" = 1 ] &&
	echo "ok: a plain failure of a test with a \"# noise gauge:\" line ran once" ||
	{ echo "FAIL: a plain failure of a test with a \"# noise gauge:\" line ran again"; bad=1; }
run "$tmp/five" false "$t/crash.sh" "$t/traceback.sh" "$t/ungauged.sh"
[ "$(cat "$tmp/count.crash")" = 1 ] && echo "ok: a crash is not run again" ||
	{ echo "FAIL: a crash ran again"; bad=1; }
check "a traceback is not run again" '^FAIL: .*traceback.sh \(rc 1, [0-9]+s\)$' "$tmp/five"
[ "$(cat "$tmp/count.ungauged")" = 1 ] && echo "ok: a plain failure without a gauge's 75 ran once" ||
	{ echo "FAIL: a plain failure without a gauge's 75 ran again"; bad=1; }
# every test of the suite that measures CPU 1 (no "# cpu1: none" line) names its gauge, but a
# "# cpu1: shared" one, which says why it judges nothing another run changes (and is never
# retried)
for f in tests/integration/*.sh; do
	grep -q '^# cpu1: none' "$f" && continue
	case ${f##*/} in attrib_*) continue ;; esac
	if grep -q '^# cpu1: shared' "$f"; then
		grep -qE '^# cpu1: shared - .{10,}' "$f" ||
			{ echo "FAIL: $f: its \"# cpu1: shared\" line says no why"; bad=1; }
		continue
	fi
	grep -q '^# noise gauge: ' "$f" || { echo "FAIL: $f measures CPU 1 and names no noise gauge"; bad=1; }
done
# a test that starts lib.bash's gauge (need_cpu1) leaves lib.bash's EXIT trap in place, its own
# clean-up given to at_exit: a trap of its own replaces the one that judges a failure under
# noise (then never 75, never retried) and stops the gauge
for f in tests/integration/*.sh; do
	grep -q '^need_cpu1' "$f" && grep -qE '^[[:space:]]*trap .*EXIT' "$f" &&
		{ echo "FAIL: $f: need_cpu1's gauge, and a trap on EXIT that replaces lib.bash's (use at_exit)"; bad=1; }
done
check "... and failed" '^0 passed, 3 failed' "$tmp/five"
check "a failure then a skip is a failure" '^FAIL: .*noise_then_skip.sh: failed, then skipped' \
	"$tmp/one"
check "the closing line counts the retry" '^1 passed \(1 after a retry\), 2 failed, 0 skipped$' \
	"$tmp/one"
check "the runner fails" '^1$' "$tmp/one.rc"
check "a script's own FAIL line is why it failed" '^    FAIL: first$' "$tmp/one"
check "the retry names the first run's FAIL line" '^RETRY: .*noise_then_pass.sh .*: FAIL: first;' \
	"$tmp/one"
run "$tmp/two" true "$t/noise_then_pass.sh" "$t/noise_then_pass2.sh"
check "CI=true: two retried tests fail the run" '^FAIL: 2 tests passed only after a retry' \
	"$tmp/two"
check "... and the runner exits 1" '^1$' "$tmp/two.rc"
run "$tmp/three" false "$t/noise_then_pass.sh" "$t/noise_then_pass2.sh"
check "outside CI two retried tests pass" '^2 passed \(2 after a retry\), 0 failed' "$tmp/three"
JS_TEST_RETRY=0 run "$tmp/four" false "$t/noise_then_pass.sh"
check "JS_TEST_RETRY=0: noise is a failure" '^0 passed, 1 failed' "$tmp/four"
check "a timing table" '^seconds per test' "$tmp/three"
exit $bad
