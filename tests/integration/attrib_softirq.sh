#!/bin/bash
# attrib_softirq.sh - issue 3: loopback UDP packets steered to CPU 1 by RPS every 10 ms
# (jsinject softirq) are named one-to-one: each packet's gap names softirq:NET_RX, and its
# primary cause is NET_RX or the RPS IPI that raised it (ipi:call_function_single
# rps_trigger_softirq): the two events of one action (>= 99 %).
# jsinject sets lo's rps_cpus and restores it (attrib_lib.py checks it too).
# Root only (77 otherwise), about 9 s. Matching and figures: attrib_lib.py.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_softirq.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 ../lib/attrib_lib.py run --mode softirq --duration 5 --period 5000 --dir "$TMP"
