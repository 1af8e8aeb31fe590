#!/bin/bash
# attrib_ipi.sh - issue 3: synchronous call-function IPIs to CPU 1 (a perf event
# bound to CPU 1, enabled/disabled from CPU 0 every 5 ms: jsinject ipi) are named one-to-one:
# each ioctl's IPI is its gap's only large event, so the gap's primary cause is
# ipi:call_function_single (>= 99 % of the ioctls), and its sender, jsinject, is named (>= 99 %).
# Root only (77 otherwise), about 13 s.  Matching and figures: attrib_lib.py.
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_ipi.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 attrib_lib.py run --mode ipi --duration 12 --period 5000 --count 1 --dir "$TMP"
