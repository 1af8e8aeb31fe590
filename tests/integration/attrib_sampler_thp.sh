#!/bin/bash
# attrib_sampler_thp.sh - a THP collapse of the sampler's own memory by khugepaged is named one
# to one: with the test-only --test-hook thp the sampler reads a region of small pages that
# jitterscope advises MADV_HUGEPAGE once it measures. khugepaged is sped up for the run and
# moved to the housekeeping CPU (both restored on exit). The kernel counts the collapses (the
# region's AnonHugePages in /proc/PID/smaps, read by the test while it runs, against
# /proc/vmstat thp_collapse_alloc); each must be its gap's primary cause (>= 99 %, never more).
# Skips (77) when THP is disabled or khugepaged cannot be tuned, or khugepaged never scanned.
# Root only, about 8 s. Counting and figures: sampler_hooks.py.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
K=/sys/kernel/mm/transparent_hugepage
[ -r $K/enabled ] || { echo "skip: no THP ($K/enabled missing)"; exit 77; }
grep -q '\[never\]' $K/enabled && { echo "skip: THP disabled ($K/enabled is never)"; exit 77; }
[ -w $K/khugepaged/scan_sleep_millisecs ] ||
	{ echo "skip: khugepaged not tunable ($K/khugepaged not writable)"; exit 77; }
old_sleep=$(cat $K/khugepaged/scan_sleep_millisecs)
old_alloc=$(cat $K/khugepaged/alloc_sleep_millisecs)
old_pages=$(cat $K/khugepaged/pages_to_scan)
# khugepaged on the housekeeping CPU, as on an isolated setup: on CPU 1 it would preempt the
# sampler and collapse its memory before the sampler touches it (then the task is the gap's
# primary cause; correlate's unit tests cover that case)
khp=$(pgrep -x khugepaged | head -1)
old_aff=$( [ -n "$khp" ] && taskset -pc "$khp" 2>/dev/null | sed 's/.*: //')
at_exit 'echo "$old_sleep" > $K/khugepaged/scan_sleep_millisecs;
      echo "$old_alloc" > $K/khugepaged/alloc_sleep_millisecs;
      echo "$old_pages" > $K/khugepaged/pages_to_scan;
      [ -z "$old_aff" ] || taskset -pc "$old_aff" "$khp" >/dev/null
      [ -z "${ATTRIB_KEEP:-}" ] || { echo "outputs kept in $TMP"; TMP=; }'
[ -n "$old_aff" ] && taskset -pc 0 "$khp" >/dev/null
echo 65536 > $K/khugepaged/pages_to_scan
echo 50 > $K/khugepaged/alloc_sleep_millisecs
echo 50 > $K/khugepaged/scan_sleep_millisecs   # wakes khugepaged at once
python3 "$ROOT/tests/integration/sampler_hooks.py" thp --dir "$TMP"
