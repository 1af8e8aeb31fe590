#!/bin/bash
# robust_fuzz.sh - every libFuzzer target (tests/fuzz/, one per parser: CPU lists, durations,
# arrival lists, budget specs, the command line, the kernel command line, the audit's /proc
# and /sys files, single /proc files, JSON and saved runs, HdrHistogram payloads) built with
# ASan+UBSan and run for FUZZ_RUNS (default 2000) inputs from its committed seed corpus with
# a fixed seed (FUZZ_SEED, default 1: a failure replays): no crash, leak, sanitizer report or
# timeout. `make fuzz` runs them longer (FUZZ_SECS=20 by default). Never retried.
# cpu1: none - fuzzes the parsers, measures nothing
. "$(dirname "$0")/../lib/lib.bash"
need_cmd "${CLANG:-clang}" clang
echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' >"$TMP/t.c"
"${CLANG:-clang}" -fsanitize=fuzzer,address "$TMP/t.c" -o "$TMP/t" 2>/dev/null ||
	missing libclang-rt-14-dev "no libFuzzer for ${CLANG:-clang}"
cd "$ROOT" || exit 1
# a tree this user cannot write (root's checkout, run as another user): build elsewhere
# its own tree, at -O0 -g1 (a fixed number of runs: compiling is most of the time; the line
# tables stay for a report), apart from make fuzz's build-fuzz at -O1
out=build-fuzz-check
if ! { mkdir -p "$out" && [ -w "$out" ]; } 2>/dev/null; then
	out=$(mktemp -d /tmp/jsfuzz-build.XXXXXX) || fail "no scratch directory for the fuzzers"
	export FUZZ_ARTIFACTS=$out/artifacts
	echo "note: $ROOT/build-fuzz-check is not writable: building and keeping reproducers in $out"
fi
export FUZZ_ARTIFACTS=${FUZZ_ARTIFACTS:-$out/artifacts}
make -s -j"$(nproc)" FUZZ_OUTPUT="$out" FUZZ_OPT="-O0 -g1" fuzz-build >"$TMP/build.log" 2>&1 ||
	{ tail -20 "$TMP/build.log"; fail "building the fuzzers"; }
n=$(ls "$out"/fuzz_* | wc -l)
[ "$n" -ge 10 ] || fail "only $n fuzz targets built"
FUZZ_RUNS=${FUZZ_RUNS:-2000} scripts/fuzz.sh "${FUZZ_SECS:-2}" "$out"/fuzz_* ||
	fail "a fuzz target failed"
[ "$out" = build-fuzz-check ] || rm -rf "$out"
exit 0
