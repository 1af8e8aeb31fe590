#!/bin/bash
# run-tests.sh KIND TEST... - run unit test binaries and integration scripts, print each
# result, then every skip with its reason, and last a "N passed, N failed, N skipped" line.
#
# An integration script (*.sh) exits 0 (pass), 77 (skip) or anything else (fail); a skip
# prints its reason as a line "skip: WHAT IS MISSING" (tests/lib/lib.bash), and the
# "skip: REASON" or "skip PART: REASON" lines of a passing script are parts it did not run.
# A unit binary (cmocka) exits with its number of failed cases, 77 included; its cases that
# called js_skip() (tests/unit/js_test.h: a "skip: REASON" line, then cmocka's skip()) are
# counted: every case skipped makes the binary a SKIP, some make it a PASS saying how many.
# A skip without its reason line, and a test path that does not exist, are failures.
# Each test's output is shown and kept in JS_TEST_LOGS (default build/test-logs) as
# PATH-with-slashes-as-underscores.log.
# Integration scripts measure CPU 1 and need it to themselves: each runs under an exclusive
# lock (JS_CPU1_LOCK, default /tmp/jitterscope-cpu1.lock) that make bench and make soak take
# too, so two checkouts testing on one machine wait for each other instead of colliding;
# one whose header has a "# cpu1: none - WHY" line measures nothing (or takes the lock
# itself around what does). With JS_LANE=1 (make check) the tests that do not measure run
# meanwhile in a second lane, on CPU 0, and are shown and judged at the end.
# Unit binaries that load probes or spin on a CPU, or bound their own waits by the wall clock
# (test_spike: a command's timeout; at SCHED_IDLE in the lane a busy CPU 0 starves them)
# (JS_LOCKED_UNITS) take the lock as well.
# A measuring script whose header has a "# cpu1: shared - WHY" line judges nothing another
# spinner on CPU 1 could change (outputs written and read back, refusals, thread names):
# such tests run first, JS_SHARED_JOBS (3) at a time, each holding the lock shared (flock -s:
# they exclude every exclusive holder, not each other), with no noise gauge and no retry;
# their output is shown as each is judged, in their order.
# The retry (docs/HACKING.md): a test that measures CPU 1 and exits 75 (EX_TEMPFAIL: it
# failed while its own noise gauge was over its documented threshold, a "noise:" line says
# which) runs once more, JS_RETRY_PAUSE (3) seconds on (JS_TEST_RETRY=0: never); no other
# failure does (every measuring test has a gauge: its "# noise gauge:" header line, or
# attrib_*; tests/unit/run_tests_retry.sh checks that each has one). A pass then is
# counted on the closing line ("N passed (R after a retry)") and listed with why its first
# run failed, its first log kept as LOG.first; a failure or a skip then is a failure. Under
# CI (CI=true) more than one test passing after a retry fails the run. 75 without a retry
# is a failure.
# The skips CI allows are listed in tests/skips-allowed.txt (JS_SKIPS_ALLOWED: another list;
# scripts/skips-allowed.py matches them): under CI (CI=true) a skip it records that the list
# does not allow that test is a failure of the test ("FAIL: TEST: skip not in ..."); outside
# CI it is listed with the others, marked "(not on the CI list)".
# At the end: each test's seconds, slowest first; for each failed test, the lines of its log
# that say why (cmocka's error and line, a script's FAIL lines). Exit status: 0 when nothing
# failed.
kind=$1
shift
logs=${JS_TEST_LOGS:-build/test-logs}
if ! mkdir -p "$logs" 2>/dev/null || [ ! -w "$logs" ]; then
	logs=$(mktemp -d /tmp/jstest-logs.XXXXXX) || exit 1
fi
pass=0 fail=0 skip=0 part_cases=0 part_tests=0
failed="" skips=() retried=() timing=()
t_all=$(date +%s)

# python3 with no version manager's shim in front: the tests call it some 500 times, and a
# pyenv shim (a chain of bash scripts) took 0.35 s of CPU 0 a call on this machine kind
# against 0.03 s for the interpreter it picks. The same interpreter, reached directly
# (its own symlink in build/test-logs/bin, first on the PATH of every test)
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && [ "$(command -v python3)" != "$py" ] &&
	mkdir -p "$logs/bin" && ln -sfn "$py" "$logs/bin/python3"; then
	PATH=$(cd "$logs/bin" && pwd):$PATH
	export PATH
fi

# the shield (scripts/cpu1-shield): while integration tests run as root, the machine's other
# tasks are kept off CPU 1 (what isolcpus does on a tuned box), and given their CPUs back at
# the end, Ctrl-C and SIGTERM included; this script and what it starts keep theirs (a
# run-tests.sh started by a test shields nothing more). JS_TEST_SHIELD=0: not. The masks
# live in /run (JS_SHIELD_FILE), as long as the kernel state they record: a run killed
# before its end (SIGKILL) left them there, and the next run on the machine, in any
# checkout, gives them back first. This script, started with fewer CPUs than are online (it
# inherited a shield's mask, or a housekeeping CPUAffinity=), takes them all: its tests
# need CPU 1 and the CPU beside it.
shield=
if [ "$kind" != unit ] && [ "${JS_TEST_SHIELD:-1}" != 0 ] && [ "$(id -u)" = 0 ] &&
	[ -d /sys/devices/system/cpu/cpu1 ]; then
	shield=${JS_SHIELD_FILE:-/run/jitterscope-shield.masks}
	export JS_TEST_SHIELD=0
	[ ! -e "$shield" ] || scripts/cpu1-shield off "$shield"
	online=$(cat /sys/devices/system/cpu/online)
	mine=$(taskset -pc $$ | sed 's/.*: //')
	if [ "$mine" != "$online" ]; then
		echo "run-tests: started on CPUs $mine of $online online: takes them all"
		taskset -apc "$online" $$ >/dev/null
	fi
	scripts/cpu1-shield on "$shield" --keep $$ || shield=
	trap '[ -z "$shield" ] || scripts/cpu1-shield off "$shield"' EXIT
fi

# skip_lines LOG - the reasons of a script's "skip: REASON" (or "skip PART: REASON") lines
skip_lines() {
	sed -n '/^skip\( [^:]*\)\{0,1\}: /s/^skip:\{0,1\} //p' "$1"
}

# skip_reasons LOG - "CASE<tab>REASON" per cmocka case skipped in LOG: the last "skip: "
# line printed inside that case, or nothing after the tab when it printed none
skip_reasons() {
	awk '/^\[  SKIPPED \] [0-9]+ test\(s\), listed below:/ { exit }
	     /^\[ RUN +\] / { why = "" }
	     /^skip: / { why = substr($0, 7) }
	     /^\[  SKIPPED \] / { print $4 "\t" why }' "$1"
}

# unit_result LOG - "RUN SKIPPED NOREASON" counts of cmocka's output in LOG
unit_result() {
	local run
	run=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\.$/\1/p' "$1" | tail -n 1)
	skip_reasons "$1" | awk -F'\t' -v run="${run:-0}" '
		{ n++ } $2 == "" { bad++ } END { print run, n + 0, bad + 0 }'
}

# grouped LOG - one line per distinct skip reason: "N case(s) (NAMES): REASON"
grouped() {
	skip_reasons "$1" | awk -F'\t' '
		!($2 in n) { order[++k] = $2 }
		{ n[$2]++; names[$2] = names[$2] (n[$2] > 1 ? " " : "") $1 }
		END { for (i = 1; i <= k; i++)
			printf "%d case(s) (%s): %s\n", n[order[i]], names[order[i]], order[i] }'
}

# why_lines LOG - the lines of LOG that say why it failed: cmocka's error and line, a
# script's FAIL lines (deduplicated)
why_lines() {
	grep -E '^\[ +(ERROR|LINE|FAILED) +\]|Failure!|: error: |(^|: )FAIL(:| |$)|^not ok' "$1" |
		grep -v 'listed below' | awk '!seen[$0]++'
}

# off_list TEST LOG RC - the skips TEST's run records (a script's last skip line when it
# exits 77, each one when it passes; a passing unit binary's skipped cases) that
# tests/skips-allowed.txt does not allow, one a line as they are listed ("REASON",
# "PART: REASON"), in OFF; under CI (CI=true) each is a FAIL line, kept in LOG too, status 1
off_list() {
	local t=$1 log=$2 rc=$3 lines
	OFF=
	lines=$(case "$t:$rc" in
		*.sh:77) grep '^skip\( [^:]*\)\{0,1\}: ' "$log" | tail -n 1 ;;
		*.sh:0) grep '^skip\( [^:]*\)\{0,1\}: ' "$log" ;;
		*.sh:*) ;;
		*:0) skip_reasons "$log" | awk -F'\t' '$2 != "" { print "skip: " $2 }' ;;
		esac)
	[ -n "$lines" ] || return 0
	OFF=$(python3 scripts/skips-allowed.py match "$t" <<<"$lines")
	if [ $? -gt 1 ]; then
		echo "FAIL: $t: scripts/skips-allowed.py cannot read the list of skips" | tee -a "$log"
		return 1
	fi
	[ -n "$OFF" ] && [ "${CI:-}" = true ] || return 0
	while read -r l; do
		echo "FAIL: $t: skip not in ${JS_SKIPS_ALLOWED:-tests/skips-allowed.txt}: $l"
	done <<<"$OFF" | tee -a "$log"
	return 1
}
# marked REASON - " (not on the CI list)" when off_list found REASON
marked() { grep -qxF -- "$1" <<<"$OFF" && echo " (not on the CI list)"; }

# retryable RC - may a test that measures CPU 1 and failed with RC run again: only 75 (its
# noise gauge was over its threshold)
retryable() { [ "$1" -eq 75 ]; }

# measures TEST - does TEST measure CPU 1 (or inject into it), and so run under the CPU 1
# lock: an integration script, unless its header has a "# cpu1: none" line (it measures
# nothing, or takes the lock itself around what does), and the unit binaries in
# JS_LOCKED_UNITS (they load probes, spin on a CPU or time their own waits)
measures() {
	case "$1" in
	*/integration/*.sh) ! grep -qm1 '^# cpu1: none' "$1" ;;
	*.sh | *.py) return 1 ;;
	*) case " ${JS_LOCKED_UNITS:-test_probes_live test_follow_live test_spike} " in
		*" ${1##*/} "*) return 0 ;;
		esac
		return 1 ;;
	esac
}

# run_one TEST LOG - run TEST once, its output kept in LOG and shown (unless QUIET: the
# lane shows it when it is judged); RC its exit status, MEASURING non-empty when it
# measures CPU 1 (measures())
run_one() {
	local t=$1 log=$2 lock= bin
	MEASURING=
	if measures "$t"; then MEASURING=1 lock=scripts/cpu1-lock; fi
	if [ -n "${SHARED:-}" ]; then MEASURING= lock="env JS_CPU1_SHARED=1 scripts/cpu1-lock"; fi
	case "$t" in
	*.sh) set -- bash "$t" ;;
	/*) set -- "$t" ;;
	*) set -- "./$t" ;;
	esac
	if [ -n "${QUIET:-}" ]; then
		CMOCKA_MESSAGE_OUTPUT=stdout $lock "$@" >"$log" 2>&1
		RC=$?
	else
		CMOCKA_MESSAGE_OUTPUT=stdout $lock "$@" 2>&1 | tee -i "$log"
		RC=${PIPESTATUS[0]}
	fi
}

# judge TEST RC SECONDS AGAIN - count TEST's result, from its exit status and its log, and
# say it: PASS (with its skipped parts), SKIP with the reason, or FAIL
judge() {
	local t=$1 rc=$2 secs=$3 again=$4 log why nsk run bad l
	log=$logs/$(echo "$t" | tr / _).log
	timing+=("$secs $t")
	if ! off_list "$t" "$log" $rc; then
		fail=$((fail + 1)); failed="$failed $t"
		return
	fi
	case "$t" in
	*.sh)
		why=$(skip_lines "$log" | tail -n 1)
		if [ $rc -eq 77 ] && [ -n "$why" ]; then
			skip=$((skip + 1)); skips+=("$t: $why$(marked "$why")"); echo "SKIP: $t: $why"
			return
		elif [ $rc -eq 77 ]; then
			fail=$((fail + 1)); failed="$failed $t"
			echo "FAIL: $t (exit 77 without a 'skip: REASON' line)"
			return
		fi
		# a passing script's "skip:" lines: parts of it that did not run, said so
		nsk=$(skip_lines "$log" | wc -l)
		run=0 bad=0
		;;
	*)
		read -r run nsk bad <<<"$(unit_result "$log")"
		;;
	esac
	if [ $rc -ne 0 ]; then
		fail=$((fail + 1)); failed="$failed $t"; echo "FAIL: $t (rc $rc, ${secs}s)"
	elif [ "$bad" -gt 0 ]; then
		fail=$((fail + 1)); failed="$failed $t"
		echo "FAIL: $t ($bad case(s) skipped without a 'skip: REASON' line)"
	elif [ "$run" -gt 0 ] && [ "$nsk" -eq "$run" ]; then
		skip=$((skip + 1)); echo "SKIP: $t (all $run cases skipped)"
		while read -r l; do skips+=("$t: $l$(marked "${l#*): }")"); done < <(grouped "$log")
	elif [ "$nsk" -gt 0 ]; then
		pass=$((pass + 1)); part_tests=$((part_tests + 1)); part_cases=$((part_cases + nsk))
		if [ "$run" -gt 0 ]; then
			echo "PASS: $t (${secs}s${again}; $nsk of $run cases skipped)"
			while read -r l; do skips+=("$t (passed, in part): $l$(marked "${l#*): }")"); done \
				< <(grouped "$log")
		else
			echo "PASS: $t (${secs}s${again}; $nsk part(s) skipped)"
			while read -r l; do skips+=("$t (passed, in part): $l$(marked "$l")"); done \
				< <(skip_lines "$log")
		fi
	else
		pass=$((pass + 1)); echo "PASS: $t (${secs}s${again})"
	fi
}

# the lane (JS_LANE=1, make check's default; 0: none): the tests that do not measure CPU 1
# run meanwhile in a second lane, one by one on CPU 0 (taskset) at SCHED_IDLE, as a tuned box's
# housekeeping work would; each one's output is shown when it is judged, after the
# measuring tests. Its results: "RC SECONDS TEST" lines in LANE_RESULTS
# A measuring test whose header has a "# cpu1: after the lane - WHY" line runs once the lane
# is done: the lane's disk writes raise the disk's IRQ, which this untuned machine delivers
# to CPU 1, and a test that injects that IRQ and counts it needs the disk to itself. A lane
# test whose header has a "# lane: beside the late tests - WHY" line (CPU load on CPU 0, its
# writes on a tmpfs) runs last in the lane, and the late tests do not wait for it: they start
# once the lane's other tests are done (LANE_EARLY is written then)
lane=() measuring=() late=() beside=() shared=()
for t in "$@"; do
	if [ "${JS_LANE:-0}" = 1 ] && [ -e "$t" ] && measures "$t" && grep -qm1 '^# cpu1: shared' "$t"; then
		shared+=("$t")
	elif [ "${JS_LANE:-0}" = 1 ] && [ -e "$t" ] && ! measures "$t"; then
		if grep -qm1 '^# lane: beside the late tests' "$t"; then
			beside+=("$t")
		else
			lane+=("$t")
		fi
	elif [ "${JS_LANE:-0}" = 1 ] && [ -e "$t" ] && grep -qm1 '^# cpu1: after the lane' "$t"; then
		late+=("$t")
	else
		measuring+=("$t")
	fi
done
LANE_RESULTS=$logs/lane.results LANE_EARLY=$logs/lane.early-done
: >"$LANE_RESULTS"
rm -f "$LANE_EARLY"
lane+=(${beside[@]+"${beside[@]}"})
lane_pid=
if [ ${#lane[@]} -gt 0 ]; then
	echo "lane: ${#lane[@]} tests that do not measure CPU 1 run meanwhile on CPU 0; shown at the end"
	(
		# CPU 0, at SCHED_IDLE: the kernel's own work and jitterscope's housekeeping
		# threads keep CPU 0 first (a busy CPU 0 pushed unbound kernel work onto CPU 1,
		# into the measuring tests' gaps); the lane takes what CPU 0 has left
		taskset -pc 0 $BASHPID >/dev/null 2>&1
		chrt --idle -p 0 $BASHPID >/dev/null 2>&1
		QUIET=1
		for t in "${lane[@]}"; do
			[[ " ${beside[*]} " == *" $t "* ]] && touch "$LANE_EARLY"
			start=$(date +%s)
			run_one "$t" "$logs/$(echo "$t" | tr / _).log"
			echo "$RC $(( $(date +%s) - start )) $t" >>"$LANE_RESULTS"
		done
		touch "$LANE_EARLY"
	) &
	lane_pid=$!
fi

# run_measuring TEST - run TEST (and once more under its retry rules) and judge it
run_measuring() {
	local t=$1 log rc again start first noise
	log=$logs/$(echo "$t" | tr / _).log
	if [ ! -e "$t" ]; then
		fail=$((fail + 1)); failed="$failed $t"; echo "FAIL: $t (no such test)"
		return
	fi
	start=$(date +%s)
	run_one "$t" "$log"
	rc=$RC
	again=
	if [ -n "$MEASURING" ] && [ "${JS_TEST_RETRY:-1}" -gt 0 ] && retryable $rc; then
		# it failed under its own noise gauge (its "noise:" line): once more, a few
		# seconds on, and passing then is said on its line and counted at the end
		mv "$log" "$log.first"
		first=$(why_lines "$log.first" | head -n 1)
		noise=$(grep -m1 '^noise: ' "$log.first")
		echo "RETRY: $t failed under noise (${noise:-rc 75}): ${first:-no FAIL line}; running it once more"
		sleep "${JS_RETRY_PAUSE:-3}"
		run_one "$t" "$log"
		rc=$RC
		again="; after a retry"
		if [ $rc -eq 0 ]; then
			retried+=("$t: its first run failed under noise (${noise:-rc 75}): ${first:-no FAIL line}")
		elif [ $rc -eq 77 ]; then
			rc=1 # a failure, then a skip: a failure
			echo "FAIL: $t: failed, then skipped on its second run"
		fi
	fi
	[ $rc -eq 75 ] && rc=1 # noise with no retry left: a failure
	judge "$t" "$rc" $(( $(date +%s) - start )) "$again"
}

# the shared tests first, JS_SHARED_JOBS at a time (each writes "RC SECONDS" to its result
# file), judged in their order once all are done
if [ ${#shared[@]} -gt 0 ]; then
	echo "shared: ${#shared[@]} tests that judge nothing another run on CPU 1 changes," \
		"${JS_SHARED_JOBS:-3} at a time"
	for t in "${shared[@]}"; do
		while [ "$(jobs -rp | grep -vcx "${lane_pid:-x}")" -ge "${JS_SHARED_JOBS:-3}" ]; do
			wait -n 2>/dev/null || true
		done
		log=$logs/$(echo "$t" | tr / _).log
		(
			start=$(date +%s)
			QUIET=1 SHARED=1 run_one "$t" "$log"
			echo "$RC $(( $(date +%s) - start ))" >"$log.result"
		) &
	done
	for p in $(jobs -rp); do [ "$p" = "${lane_pid:-x}" ] || wait "$p"; done
	for t in "${shared[@]}"; do
		log=$logs/$(echo "$t" | tr / _).log
		cat "$log"
		read -r rc secs <"$log.result" 2>/dev/null || { rc=1 secs=0; echo "FAIL: $t (no result)"; }
		rm -f "$log.result"
		judge "$t" "$rc" "$secs" ""
	done
fi
for t in "${measuring[@]}"; do run_measuring "$t"; done
# the late tests wait for the lane (but its tests beside them); the lane's writes, still
# dirty, would be written back under them (the disk's IRQ lands on CPU 1 here): out first
if [ -n "$lane_pid" ]; then
	while [ ! -e "$LANE_EARLY" ] && kill -0 "$lane_pid" 2>/dev/null; do sleep 0.5; done
fi
[ ${#late[@]} -eq 0 ] || sync
for t in "${late[@]}"; do run_measuring "$t"; done
[ -z "$lane_pid" ] || wait "$lane_pid"
if [ -n "$lane_pid" ]; then
	echo "lane: the tests run on CPU 0 meanwhile, in their order:"
	while read -r rc secs t; do
		cat "$logs/$(echo "$t" | tr / _).log"
		judge "$t" "$rc" "$secs" ""
	done <"$LANE_RESULTS"
	for t in "${lane[@]}"; do
		grep -q " $t\$" "$LANE_RESULTS" ||
			{ fail=$((fail + 1)); failed="$failed $t"; echo "FAIL: $t (the lane did not run it)"; }
	done
fi
if [ ${#skips[@]} -gt 0 ]; then
	echo "skipped ($kind), with the reason:"
	printf '  %s\n' "${skips[@]}"
fi
if [ ${#retried[@]} -gt 0 ]; then
	echo "passed after a retry, its first run failed under noise:"
	printf '  %s\n' "${retried[@]}"
	if [ "${CI:-}" = true ] && [ ${#retried[@]} -gt 1 ]; then
		fail=$((fail + 1)); failed="$failed (retries)"
		echo "FAIL: ${#retried[@]} tests passed only after a retry (CI=true allows one)"
	fi
fi
# the timing table, also kept as $logs/timing.txt (scripts/timing-doc.py puts make check's
# into docs/HACKING.md)
if [ ${#timing[@]} -gt 1 ]; then
	{
		echo "seconds per test ($kind, $(( $(date +%s) - t_all )) s in all${lane_pid:+; "L": in the lane, meanwhile}), slowest first:"
		printf '%s\n' "${timing[@]}" | sort -rn | awk -v lane=" ${lane[*]} " '
			{ printf "  %5d %s %s\n", $1, index(lane, " " $2 " ") ? "L" : " ", $2 }'
	} | tee "$logs/timing.txt"
fi
if [ -n "$failed" ]; then
	# what each failure said, here at the end where a CI log's tail shows it: cmocka's
	# error and line, a script's FAIL lines (at most 8 a test; the whole log is in $logs)
	echo "why each failed (from its log in $logs):"
	for t in $failed; do
		log=$logs/$(echo "$t" | tr / _).log
		[ -e "$log" ] || continue
		echo "  $t:"
		why_lines "$log" | head -n 8 | sed 's/^/    /'
	done
	echo "failed ($kind):$failed"
fi
[ $part_cases -gt 0 ] && part="; $part_cases case(s) skipped inside $part_tests passing test(s)"
[ ${#retried[@]} -gt 0 ] && after=" (${#retried[@]} after a retry)"
echo "$pass passed${after:-}, $fail failed, $skip skipped${part:-}"
[ $fail -eq 0 ]
