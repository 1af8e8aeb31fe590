#!/bin/sh
# install-deps.sh - install every Debian 12 package jitterscope's build, tests and
# benchmarks need. Idempotent, and quick when all are installed (nothing is fetched).
# install-deps.sh --list prints the packages, one a line (no root needed): the tests read
# it to tell a missing install step (a failure under CI=true) from a machine without a tool.
set -eu
PKGS="make gcc pkg-config clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev \
libnuma-dev libcpuid-dev libcmocka-dev python3 rt-tests \
libhdrhistogram-java default-jre-headless prometheus chromium libclang-rt-14-dev strace \
util-linux valgrind clang-format"
if [ "${1:-}" = --list ]; then
	# shellcheck disable=SC2086
	printf '%s\n' $PKGS
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (apt-get install)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | grep -qv 'install ok installed' &&
   [ "$(dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | wc -l)" -eq "$(echo $PKGS | wc -w)" ]; then
	exit 0
fi
# prometheus is here for promtool (tests of --prom): if this script installs it, its server
# is disabled, a daemon on the measured machine being jitter of its own
had_prom=$(dpkg-query -W -f='${Status}' prometheus 2>/dev/null | grep -c 'ok installed' || true)
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $PKGS
if [ "$had_prom" = 0 ] && command -v systemctl >/dev/null 2>&1; then
	systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
