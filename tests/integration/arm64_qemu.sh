#!/bin/bash
# arm64_qemu.sh - make check-arm64 (docs/ARCH.md): the aarch64 cross build's unit tests and
# a short --no-probes measurement of CPU 1 by the aarch64 binary, under qemu-user. A skip
# where the cross compiler, the arm64 libraries or qemu-user are missing; under CI (CI=true)
# a failure, scripts/install-deps.sh installing them. About a minute on 2 cores once make
# check-build built the aarch64 tree (it does where the cross compiler and libraries are
# there), 2 minutes with the build (only the binary and the unit tests).
# cpu1: none - cross-builds and runs unit tests under qemu-user; its run takes the CPU 1 lock
. "$(dirname "$0")/../lib/lib.bash"

need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need_cmd qemu-aarch64-static qemu-user-static
need_file /usr/lib/aarch64-linux-gnu/pkgconfig/libbpf.pc libbpf-dev:arm64
need_file /usr/lib/aarch64-linux-gnu/libcmocka.so libcmocka-dev:arm64
need_root
need_cpu1
start=$(date +%s)
make -C "$ROOT" --no-print-directory -s check-arm64 >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
[ $rc -eq 0 ] || fail "make check-arm64 exited $rc"
# a run that tested nothing must not pass: the unit tests and the measurement both ran
grep -q '^PASS: test_tsc (aarch64)' "$TMP/out" || fail "the aarch64 unit tests did not run"
# the measurement runs, or is skipped for the one reason check-arm64.sh knows (qemu-user
# cannot start a thread on this host), which it says
grep -q '^PASS: measurement (aarch64' "$TMP/out" ||
	grep -q '^SKIP: measurement (.*cannot start a thread' "$TMP/out" ||
	fail "the aarch64 measurement neither ran nor was skipped for a known reason"
echo "arm64 under qemu-user: $(($(date +%s) - start)) s"
