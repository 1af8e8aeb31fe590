#!/bin/bash
# run_tests_lane.sh - scripts/run-tests.sh's lane (JS_LANE=1, make check), on stand-in tests:
# a script whose header says "# cpu1: none" runs meanwhile, on CPU 0 only at SCHED_IDLE, without the
# CPU 1 lock, while the measuring ones run one by one under the lock; its output and its
# verdict come after theirs; its failure fails the run; a measuring test marked "# cpu1: after
# the lane" runs once the lane is done, but for a lane test marked "# lane: beside the late
# tests", which runs last in the lane while the late tests run; "# cpu1: shared" tests run
# first, side by side, holding the lock shared; JS_LANE=0 runs every test in order.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d /tmp/run_tests_lane.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
t=$tmp/integration
mkdir -p "$t"
bad=0
check() { # check WHAT GREP-PATTERN FILE
	if grep -qE -- "$2" "$3"; then echo "ok: $1"; else echo "FAIL: $1 (no '$2')"; bad=1; fi
}
# the measuring stand-in: holds the lock until the lane's test has run (at most 10 s: the
# lane, at SCHED_IDLE, waits for whatever else keeps CPU 0 busy; STANDIN_WAIT tenths of a
# second), and says whether it did
cat >"$t/measuring.sh" <<EOT
for _ in \$(seq \${STANDIN_WAIT:-100}); do [ -e "$tmp/lane.ran" ] && break; sleep 0.1; done
[ -e "$tmp/lane.ran" ] && echo "lane ran meanwhile" || echo "lane did not run meanwhile"
exit 0
EOT
cat >"$t/quiet.sh" <<EOT
# cpu1: none - a stand-in
echo "affinity: \$(taskset -pc \$\$ | sed 's/.*: //')"
echo "policy: \$(chrt -p \$\$ | sed -n 's/.*policy: //p')"
echo "lock held: \${JS_CPU1_LOCK_HELD:-no}"
touch "$tmp/lane.ran"
exit 0
EOT
cat >"$t/quiet_fail.sh" <<EOT
# cpu1: none - a stand-in that fails
echo "FAIL: the lane's failure"
touch "$tmp/lane.ran"
exit 1
EOT
run() { # run OUT LANE TESTS... - the runner on the stand-ins; its exit status in OUT.rc
	local out=$1 lane=$2
	shift 2
	rm -f "$tmp/lane.ran" "$tmp/lane.done"
	JS_LANE=$lane JS_TEST_LOGS="$tmp/logs" JS_CPU1_LOCK="$tmp/lock" JS_TEST_RETRY=0 \
		scripts/run-tests.sh integration "$@" >"$out" 2>&1
	echo $? >"$out.rc"
}
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	echo "skip: the lane runs on CPU 0 beside CPU 1: needs 2 CPUs"
	exit 77
fi
cat >"$t/late.sh" <<EOT
# cpu1: after the lane - a stand-in
[ -e "$tmp/lane.done" ] && echo "late: after the lane" || echo "late: before the lane ended"
EOT
# the lane's last stand-in: marks its end
cat >"$t/quiet_last.sh" <<EOT
# cpu1: none - a stand-in
sleep 0.5; touch "$tmp/lane.done"
EOT
run "$tmp/one" 1 "$t/late.sh" "$t/measuring.sh" "$t/quiet.sh" "$t/quiet_last.sh"
check "the lane's test ran while the measuring one held the lock" '^lane ran meanwhile$' "$tmp/one"
check "... on CPU 0 only" '^affinity: 0$' "$tmp/one"
check "... at SCHED_IDLE" '^policy: SCHED_IDLE' "$tmp/one"
check "... without the CPU 1 lock" '^lock held: no$' "$tmp/one"
check "its verdict comes after the measuring ones" \
	'^lane: the tests run on CPU 0 meanwhile' "$tmp/one"
sed -n '/^lane: the tests run/,$p' "$tmp/one" >"$tmp/one.after"
check "... with its output" '^affinity: 0$' "$tmp/one.after"
check "... and its PASS line" '^PASS: .*quiet.sh' "$tmp/one.after"
check "the timing table marks it L" '^ +[0-9]+ L .*quiet.sh$' "$tmp/one"
check "all pass" '^4 passed, 0 failed' "$tmp/one"
check "a test marked 'after the lane' waits for its end" '^late: after the lane$' "$tmp/one"
# a lane test beside the late ones: it runs after the lane's others, and the late test starts
# while it runs (it waits, at most 10 s, for the late test's mark)
cat >"$t/beside.sh" <<EOT
# cpu1: none - a stand-in
# lane: beside the late tests - a stand-in
[ -e "$tmp/lane.done" ] && echo "beside: after the lane's others" || echo "beside: too early"
for _ in \$(seq 100); do [ -e "$tmp/late.ran" ] && break; sleep 0.1; done
[ -e "$tmp/late.ran" ] && echo "beside: the late test ran meanwhile" || echo "beside: alone"
EOT
cat >"$t/late2.sh" <<EOT
# cpu1: after the lane - a stand-in
[ -e "$tmp/lane.done" ] && echo "late2: after the lane's others" || echo "late2: too early"
touch "$tmp/late.ran"
EOT
rm -f "$tmp/late.ran"
run "$tmp/four" 1 "$t/beside.sh" "$t/late2.sh" "$t/quiet_last.sh"
check "a lane test beside the late tests runs after the lane's others" \
	"^beside: after the lane's others$" "$tmp/four"
check "... and the late tests run meanwhile" '^beside: the late test ran meanwhile$' "$tmp/four"
check "... after the lane's others" "^late2: after the lane's others$" "$tmp/four"
check "... all pass" '^3 passed, 0 failed' "$tmp/four"
# two "# cpu1: shared" stand-ins: each waits (at most 10 s) for the other to start, so they
# pass only side by side; each holds the lock shared (an exclusive flock of it fails); the
# exclusive measuring stand-in after them finds neither running
for n in 1 2; do
	cat >"$t/shared$n.sh" <<EOT
# cpu1: shared - a stand-in that waits for its sibling
touch "$tmp/shared$n.on"
for _ in \$(seq 100); do [ -e "$tmp/shared\$((3 - $n)).on" ] && break; sleep 0.1; done
[ -e "$tmp/shared\$((3 - $n)).on" ] && echo "shared$n: beside its sibling" || echo "shared$n: alone"
flock -n -x "$tmp/lock" true && echo "shared$n: lock not held" || echo "shared$n: lock held shared"
echo "shared$n: JS_CPU1_SHARED=\${JS_CPU1_SHARED:-}"
touch "$tmp/shared$n.done"
EOT
done
cat >"$t/excl.sh" <<EOT
[ -e "$tmp/shared1.done" ] && [ -e "$tmp/shared2.done" ] && echo "excl: after the shared ones" ||
	echo "excl: beside them"
EOT
run "$tmp/five" 1 "$t/excl.sh" "$t/shared1.sh" "$t/shared2.sh"
check "two shared tests run side by side" '^shared1: beside its sibling$' "$tmp/five"
check "... both" '^shared2: beside its sibling$' "$tmp/five"
check "... each holding the lock shared" '^shared2: lock held shared$' "$tmp/five"
check "... told so (no noise gauge)" '^shared1: JS_CPU1_SHARED=1$' "$tmp/five"
check "an exclusive measuring test runs after them, alone" '^excl: after the shared ones$' "$tmp/five"
check "... all pass" '^3 passed, 0 failed' "$tmp/five"
run "$tmp/two" 1 "$t/measuring.sh" "$t/quiet_fail.sh"
check "a lane test's failure fails the run" '^1$' "$tmp/two.rc"
check "... named with its FAIL line" '^    FAIL: the lane.s failure$' "$tmp/two"
# in order: the measuring stand-in waits 2 s for a lane that must not run (a lane would
# run quiet.sh at once; the "lane:" line and the timing table's L say so whatever the wait)
STANDIN_WAIT=20 run "$tmp/three" 0 "$t/measuring.sh" "$t/quiet.sh"
check "JS_LANE=0: in order, nothing meanwhile" '^lane did not run meanwhile$' "$tmp/three"
check "... and no lane" '^2 passed, 0 failed' "$tmp/three"
grep -q '^lane:' "$tmp/three" && { echo "FAIL: JS_LANE=0 printed a lane"; bad=1; }
grep -qE '^ +[0-9]+ L ' "$tmp/three" && { echo "FAIL: JS_LANE=0 marked a test L"; bad=1; }
exit $bad
