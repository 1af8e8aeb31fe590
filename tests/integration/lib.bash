# lib.bash - shared helpers for the integration tests (sourced, not run).
# Each test: exit 0 pass, 77 skip, anything else fail.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JS=${JS_BIN:-$ROOT/build/jitterscope}   # make asan: the sanitized binary
TMP=$(mktemp -d /tmp/jstest.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }; }
need_cpu1() { [ "$(nproc)" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 77; }; }
