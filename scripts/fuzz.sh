#!/bin/sh
# fuzz.sh SECS FUZZER... - run each libFuzzer target for SECS seconds from its seed corpus
# (tests/fuzz/corpus/NAME, committed, read only; new inputs go to a scratch directory), with
# a fixed random seed (FUZZ_SEED, default 1; FUZZ_RUNS=N runs N inputs instead of SECS): the
# same seed, corpus and run count replay the same inputs. A crash, leak,
# sanitizer report or timeout fails the target; its reproducer is kept in
# build-fuzz/artifacts/ (replay: build-fuzz/fuzz_NAME build-fuzz/artifacts/crash-...).
# Exit status: 0 when no target failed.
secs=${1:?usage: fuzz.sh SECS FUZZER...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
art=${FUZZ_ARTIFACTS:-build-fuzz/artifacts}
mkdir -p "$art"
scratch=$(mktemp -d /tmp/jsfuzz.XXXXXX)
trap 'rm -rf "$scratch"' EXIT INT TERM
failed=""
for f in "$@"; do
	name=$(basename "$f")
	seeds=tests/fuzz/corpus/${name#fuzz_}
	mkdir -p "$scratch/$name"
	set -- "$scratch/$name"
	[ -d "$seeds" ] && set -- "$@" "$seeds"
	dict=tests/fuzz/${name#fuzz_}.dict
	[ -f "$dict" ] && set -- -dict="$dict" "$@"
	opts=tests/fuzz/${name#fuzz_}.options	# extra libFuzzer flags, one a line
	[ -f "$opts" ] && set -- $(cat "$opts") "$@"
	start=$(date +%s)
	if [ -n "${FUZZ_RUNS:-}" ]; then limit=-runs=$FUZZ_RUNS; else limit=-max_total_time=$secs; fi
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$f" "$limit" -seed="${FUZZ_SEED:-1}" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -close_fd_mask=3 -artifact_prefix="$art/$name-" "$@" \
		>"$scratch/$name.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$name.log")
	cov=$(grep -o 'cov: [0-9]*' "$scratch/$name.log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "PASS: $name ($(( $(date +%s) - start ))s, ${execs:-?} runs, $cov, seed ${FUZZ_SEED:-1})"
	else
		failed="$failed $name"
		echo "FAIL: $name (rc $rc; seed ${FUZZ_SEED:-1}: FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_RUNS=${execs:-N} replays it)"
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written|^    #[0-9]' \
			"$scratch/$name.log" | head -30
	fi
done
[ -n "$failed" ] && { echo "fuzz failures:$failed"; exit 1; }
exit 0
