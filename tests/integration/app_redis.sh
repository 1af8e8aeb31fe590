#!/bin/bash
# app_redis.sh - issue 31: redis-server on CPU 1 under redis-benchmark, followed by
# jitterscope --pid: the NET_RX softirqs of its own loopback replies are its own kernel work
# (thread_stats.own_bh, not gaps), while a remote NET_RX injected by jsinject --mode softirq
# is still a gap taken from it. Root and redis-server/redis-tools (77 otherwise; a failure
# under CI=true), about 10 s. Checks: app_redis.py.
# noise gauge: app_redis.py's (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/app_redis.XXXXXX)
# APP_KEEP=1 keeps the outputs (gaps CSV, JSON, logs) for a look
trap '[ -n "${APP_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
# others' dirty pages written back now, not under the injected disk IRQs (they land on CPU 1)
sync
python3 app_redis.py --dir "$TMP"
