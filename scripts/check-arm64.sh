#!/bin/bash
# check-arm64.sh BUILD-DIR - make check-arm64's tests of the aarch64 build under qemu-user
# (docs/ARCH.md): every unit test of BUILD-DIR/tests (but those qemu-user cannot run, each
# named with its reason; with JS_TEST_QUICK=1 their heavy loops, random cases and
# mutations, run a tenth as long: tests/unit/fixtures.h's fx_heavy), then a short
# --no-probes measurement of CPU 1 by BUILD-DIR/jitterscope, checked as a user would: it
# measured, it reports the counter's frequency and step, its JSON is written and loads
# again. Exit 0 when all passed, 1 when
# one failed, 77 when qemu-user is missing (a skip). What qemu-user cannot run is a SKIP
# line with the reason: bpf(2) is not emulated, and where it cannot start a thread (the
# probe tests/tools/thread_probe.c) neither the measurement nor the thread tests run.
set -u
B=${1:-build-arm64}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# the loader and libc the binaries run with: multiarch's libc6:arm64 (/lib/aarch64-linux-gnu,
# installed with the arm64 -dev packages) when it is there. Not the cross toolchain's copy in
# /usr/aarch64-linux-gnu with multiarch's libraries: that loader (2.36-8) with another
# build's libc.so.6 (2.36-9+deb12uN) leaves glibc's stack cache list unset, and the first
# pthread_create walks it for ever (seen as "qemu-user hangs in pthread_create")
if [ -z "${ARM64_SYSROOT:-}" ] && [ -e /lib/ld-linux-aarch64.so.1 ]; then
	SYSROOT=/
else
	SYSROOT=${ARM64_SYSROOT:-/usr/aarch64-linux-gnu}
fi
QEMU=${QEMU_AARCH64:-$(command -v qemu-aarch64-static || command -v qemu-aarch64)}
if [ -z "$QEMU" ]; then
	echo "skip: no qemu-aarch64-static or qemu-aarch64 (Debian package qemu-user-static)"
	exit 77
fi
run() { "$QEMU" -L "$SYSROOT" "$@"; }
# what qemu-user cannot give a unit test, by test
declare -A NOT_UNDER_QEMU=(
	[test_probes_live]="qemu-user does not emulate bpf(2) (ENOSYS): the probes cannot load"
	[test_follow_live]="qemu-user does not emulate bpf(2) (ENOSYS): the probes cannot load"
	[test_sampler_hook]="qemu-user's /proc/self/smaps shows the host's mappings, not the guest's"
)
# where the loader and libc.so.6 do not match (see SYSROOT), a program that only starts a
# thread spins for ever: then what needs a thread cannot run
THREADS_WHY=
if ! timeout -s KILL 10 "$QEMU" -L "$SYSROOT" "$B/tools/thread_probe" >/dev/null 2>&1; then
	THREADS_WHY="a thread cannot start under $QEMU -L $SYSROOT (pthread_create hangs: the loader and libc.so.6 differ?)"
	NOT_UNDER_QEMU[test_thread_names]=$THREADS_WHY
fi
TMP=$(mktemp -d /tmp/jsarm64.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0 skipped=0 fails=
t0=$(date +%s)
for t in "$B"/tests/test_*; do
	n=$(basename "$t")
	case $n in *.o | *.d) continue ;; esac
	if [ -n "${NOT_UNDER_QEMU[$n]:-}" ]; then
		echo "SKIP: $n (${NOT_UNDER_QEMU[$n]})"
		skipped=$((skipped + 1))
		continue
	fi
	if (cd "$ROOT" && JS_TEST_QUICK=1 timeout -s KILL 300 "$QEMU" -L "$SYSROOT" "$ROOT/$t") \
		>"$TMP/$n.log" 2>&1; then
		echo "PASS: $n (aarch64)"
		pass=$((pass + 1))
	else
		echo "FAIL: $n (aarch64, qemu-user)"
		tail -n 20 "$TMP/$n.log" | sed 's/^/    /'
		failed=$((failed + 1))
		fails="$fails $n"
	fi
done

# the measurement: CPU 1 for 2 s, the sampler alone (bpf(2) is not emulated)
m() {
	echo "FAIL: measurement: $*"
	sed 's/^/    /' "$TMP/run.txt"
	failed=$((failed + 1))
	fails="$fails measurement"
}
if [ "$(id -u)" -ne 0 ] || [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	echo "SKIP: measurement (needs root and 2 CPUs)"
	skipped=$((skipped + 1))
elif [ -n "$THREADS_WHY" ]; then
	echo "SKIP: measurement ($THREADS_WHY)"
	skipped=$((skipped + 1))
elif ! (cd "$ROOT" && "$ROOT/scripts/cpu1-lock" timeout -s KILL 60 "$QEMU" -L "$SYSROOT" \
	"$ROOT/$B/jitterscope" --cpu 1 --duration 2 --no-probes --json "$TMP/run.json") \
	>"$TMP/run.txt" 2>&1; then
	m "exit status not 0"
elif ! grep -q "^time base: cntvct_el0 read with isb;cntvct_el0 (--clock auto), .* GHz (stated .* GHz, step [1-9][0-9]* = " "$TMP/run.txt"; then
	m "the report names no counter, frequency and step"
elif ! python3 - "$TMP/run.json" <<'PY' >"$TMP/json.txt" 2>&1; then
import json, sys
r = json.load(open(sys.argv[1]))
m, c = r["machine"], r["cpus"][0]
k = m["counter"]
assert k["name"] == "cntvct_el0", k
assert k["step"] >= 1 and k["nominal_hz"] >= 1e6, k
# the time base is fitted: within 5 % of the stated frequency (a scaled counter states its
# scaled rate)
assert abs(m["tsc_hz"] / k["nominal_hz"] - 1) < 0.05, (m["tsc_hz"], k)
assert m["clock_read_cost"]["isb_cntvct"]["samples"] > 0, m["clock_read_cost"]
assert r["smi"]["why_not"].startswith("arm64 has no SMI counter"), r["smi"]
assert c["cpu"] == 1 and c["iterations"] > 0, c
assert 1.5e9 < c["duration_ns"] < 3e9, c["duration_ns"]
print("measured %.2f s, %d iterations, counter %.1f MHz step %d" %
      (c["duration_ns"] / 1e9, c["iterations"], m["tsc_hz"] / 1e6, k["step"]))
PY
	cat "$TMP/json.txt" >>"$TMP/run.txt"
	m "its JSON is not what the run says"
elif ! (cd "$ROOT" && run "$ROOT/$B/jitterscope" report "$TMP/run.json") >"$TMP/report.txt" 2>&1 ||
	! grep -q "^time base: cntvct_el0" "$TMP/report.txt"; then
	cat "$TMP/report.txt" >>"$TMP/run.txt"
	m "jitterscope report does not load it again"
else
	echo "PASS: measurement (aarch64: $(cat "$TMP/json.txt"))"
	pass=$((pass + 1))
fi
echo "check-arm64: $(($(date +%s) - t0)) s under $QEMU"
[ -n "$fails" ] && echo "failed (arm64):$fails"
echo "$pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
