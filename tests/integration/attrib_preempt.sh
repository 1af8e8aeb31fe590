#!/bin/bash
# attrib_preempt.sh - issue 3: a SCHED_FIFO task spinning 500 us every
# 10 ms on CPU 1 (jsinject preempt) is named one-to-one: each spin is a gap whose primary cause is
# the task jsinject:<tid>, with the task's net time plus its share of the gap's steal within 10 %
# of the spin (>= 99 % of spins): the host's steal during the spin is the gap's, not the task's,
# and steal before the task woke is not the task's either.
# Root only (77 otherwise), about 13 s.  Matching and figures: attrib_lib.py.
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_preempt.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 attrib_lib.py run --mode preempt --duration 12 --period 10000 --spin 500 --dir "$TMP"
