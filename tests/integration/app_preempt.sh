#!/bin/bash
# app_preempt.sh - issue 14: jitterscope --pid APP --marks FILE on a stand-in application
# (jsapp) looping on CPU 1 while a SCHED_FIFO task spins 500 us every 10 ms there (jsinject
# preempt): each spin is a `thread` gap and a `mark` row naming the task jsinject:<tid>
# (>= 99 %), every mark written is reported once, and the application's exit ends the run.
# Root only (77 otherwise), about 12 s. Matching and figures: app_lib.py, attrib_lib.py.
# noise gauge: attrib_lib.noise_exit (app_lib.py) - the host's steal, other tasks than jsapp on CPU 1, the host's stalls in its gaps, a CPU 1 never quiet
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/app_preempt.XXXXXX)
# APP_KEEP=1 keeps the outputs (gaps CSV, JSON, logs) for a look
trap '[ -n "${APP_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 ../lib/app_lib.py run --mode preempt --duration 6 --period 5000 --dir "$TMP"
