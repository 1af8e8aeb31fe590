#!/bin/sh
# install-deps.sh - install every Debian 12 package jitterscope's build, tests and
# benchmarks need. Idempotent, and quick when all are installed (nothing is fetched).
# install-deps.sh --list prints the packages, one a line (no root needed): the tests read
# it to tell a missing install step (a failure under CI=true) from a machine without a tool.
# Besides Debian's, the npm packages of NPM_PKGS, pinned, into npm's global root.
set -eu
PKGS="make gcc pkg-config clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev \
libnuma-dev libcpuid-dev libcmocka-dev libmicrohttpd-dev python3 rt-tests \
libhdrhistogram-java default-jre-headless prometheus prometheus-node-exporter python3-yaml \
python3-jsonschema \
chromium libclang-rt-14-dev strace util-linux valgrind clang-format qemu-user"
# make static links every library in (the static archives: GnuTLS's and libunistring's for
# libmicrohttpd, p11-kit's headers for the shim); make deb and image, and their tests, use
# file, readelf, man-db and buildah (docs/INSTALL.md)
PKGS="$PKGS libgnutls28-dev libp11-kit-dev libunistring-dev file binutils man-db buildah"
# make bench's redis section (bench/run.py) starts its own redis-server on 127.0.0.1 and
# loads it with redis-benchmark (redis-tools)
PKGS="$PKGS redis-server redis-tools"
# make ARCH=arm64 (a cross build, docs/ARCH.md) and make check-arm64 (its tests under
# qemu-user): the cross compiler and the arm64 libraries through multiarch (no libcpuid:
# x86 only)
ARM64_PKGS="libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libnuma-dev:arm64 \
libmicrohttpd-dev:arm64 libcmocka-dev:arm64"
PKGS="$PKGS gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static $ARM64_PKGS"
# make check-kernels and make check's vm_kernels.sh (tests/vm/): Debian's kernel packages
# booted under QEMU with a busybox initramfs, its modules found by kmod's depmod, fetched
# with the archive's keyring (the arm64 kernel's busybox, busybox-static:arm64, cannot be
# co-installed with this one: vm.py fetches it with apt-get download)
PKGS="$PKGS qemu-system-x86 qemu-system-arm busybox-static kmod cpio debian-archive-keyring"
# the --folded test's flame graph viewer (tests/integration/outputs_folded_render.sh, in
# headless chromium): speedscope from the npm registry (Debian packages no folded-stack
# renderer), installed with npm: Debian's nodejs and npm, unless an npm is here already (a
# NodeSource nodejs carries its own, and conflicts with Debian's npm package)
command -v npm >/dev/null 2>&1 || PKGS="$PKGS nodejs npm"
NPM_PKGS="speedscope@1.25.0"
if [ "${1:-}" = --list ]; then
	# shellcheck disable=SC2086
	printf '%s\n' $PKGS
	# shellcheck disable=SC2086
	printf '%s\n' $NPM_PKGS | sed 's/@[^@]*$//'
	exit 0
fi
# npm_ok - every package of NPM_PKGS installed at its version in npm's global root
npm_ok() {
	command -v npm >/dev/null 2>&1 || return 1
	root=$(npm root -g 2>/dev/null) || return 1
	for p in $NPM_PKGS; do
		grep -q "\"version\": *\"${p##*@}\"" "$root/${p%@*}/package.json" 2>/dev/null ||
			return 1
	done
}
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (apt-get install)" >&2
	exit 1
fi
# the kernel's trace (tracefs), which the tests' noise gauges (tests/lib/noise_gauge.py) and
# witnesses read, where the machine's init did not mount it: systemd does, a minimal VM's
# init may not, and the gauges are then blind to other tasks on CPU 1
if [ -d /sys/kernel/tracing ] && ! [ -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		echo "install-deps.sh: cannot mount tracefs: the tests' noise gauges will not see other tasks" >&2
fi
export DEBIAN_FRONTEND=noninteractive
# the arm64 packages need the architecture (once; apt-get update below then lists them)
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
# shellcheck disable=SC2086
if ! dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | grep -qv 'install ok installed' &&
   [ "$(dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | wc -l)" -eq "$(echo $PKGS | wc -w)" ] &&
   npm_ok; then
	exit 0
fi
# prometheus (promtool, and the server the fleet tests start themselves) and
# prometheus-node-exporter are here for the tests of --prom, redis-server for the bench: if
# this script installs them, their services are disabled, a daemon on the measured machine being jitter of its own
# (the tests start and stop their own servers on 127.0.0.1)
daemons="prometheus prometheus-node-exporter redis-server"
new_daemons=
for d in $daemons; do
	dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q 'ok installed' ||
		new_daemons="$new_daemons $d"
done
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $PKGS
# shellcheck disable=SC2086
npm_ok || npm install -g --no-audit --no-fund --loglevel=error $NPM_PKGS
for d in $new_daemons; do
	if command -v systemctl >/dev/null 2>&1; then
		systemctl disable --now "$d" >/dev/null 2>&1 || true
	fi
	# without systemd as PID 1 the package's init script may have started it
	if [ -x "/etc/init.d/$d" ]; then
		"/etc/init.d/$d" stop >/dev/null 2>&1 || true
		update-rc.d "$d" disable >/dev/null 2>&1 || true
	fi
done
