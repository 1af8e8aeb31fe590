#!/bin/bash
# attrib_sampler_fault.sh - page faults the sampler takes on its own memory are named one to
# one: with the test-only --test-hook fault the housekeeping thread zaps the sampler's hook
# page every 10 ms; the kernel's count of the sampler thread's faults (its minflt + majflt in
# /proc/PID/task/TID/stat, read by the test while it runs) must equal the gaps naming a fault
# of the sampler (>= 99 %, never more), as their primary cause. Root only (77 otherwise),
# about 6 s.
# Counting and figures: sampler_hooks.py.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON) for a look
at_exit '[ -z "${ATTRIB_KEEP:-}" ] || { echo "outputs kept in $TMP"; TMP=; }'
python3 "$ROOT/tests/integration/sampler_hooks.py" fault --dir "$TMP"
