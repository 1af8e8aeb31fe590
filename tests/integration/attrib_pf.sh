#!/bin/bash
# attrib_pf.sh - issue 3: a SCHED_FIFO task on CPU 1 faulting 64 pages every
# 10 ms (jsinject pf) is named one-to-one: each burst's gap names its page faults,
# fault:fault user jsinject:<tid>, and its primary cause is the faulting task (>= 99 %).
# A fault's time is inside its task's interval (nested intervals count once), so a fault is
# named among the causes and never primary: the task is.
# Root only (77 otherwise), about 9 s. Matching and figures: attrib_lib.py.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_pf.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 ../lib/attrib_lib.py run --mode pf --duration 5 --period 5000 --count 64 --dir "$TMP"
