#!/bin/bash
# attrib_ipi.sh - issue 3: synchronous call-function IPIs to CPU 1 (a perf event
# bound to CPU 1, enabled/disabled from CPU 0 every 5 ms: jsinject ipi) are named one-to-one:
# each ioctl's IPI is its gap's only large event, so the gap's primary cause is
# ipi:call_function_single (>= 99 % of the ioctls), and its sender, jsinject, is named (>= 99 %).
# Issue 17, on the same run (it was attrib_account.sh's, word for word): entry and exit
# belong to the interruption. The median unexplained share of the gaps an injected IPI is
# primary of, and of the tick's gaps, is at most 35 % (before the interruptions were given
# their entry/exit: 67-89 % on these VMs, over 2,000 IPIs; after, 0-15 % where a VM exit
# costs what the rule's cap of 20 allows (the tick 15-16 exits at most here), more on a
# host whose interruptions take more, which the cap leaves unexplained: docs/ENTRY.md; attrib_lib.py prints both
# from the run's own CSV, whose entry_ns column is what was given). Medians over >= 100 gaps
# each, robust to this noisy host. Gaps without any event must stay wholly unexplained (or
# steal). The rule's error, a VM exit's cost and the unexplained gaps' periodicity are printed.
# The run is drained by two threads (issue 40, --drain-threads 2: below).
# Root only (77 otherwise), about 9 s. Matching and figures: attrib_lib.py.
# cpu1: after the lane - its entry/exit oracles judge the host's VM exits, slower beside the lane's load (the median unexplained share of its IPIs' gaps: 36 % beside the lane's QEMU, 22 % alone)
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_ipi.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 ../lib/attrib_lib.py run --mode ipi --duration 5 --period 2500 --count 1 --max-share 35 \
	--js-arg=--drain-threads=2 --notices --dir "$TMP" | taskset -c 0 tee "$TMP/attrib.out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || exit "$rc"
# issue 40, on the same run: two drain threads (--drain-threads 2). CPU 1 alone is measured,
# so the split gives it to the second thread (js-drain1) and the main thread none: the main
# thread reads every probe ring (the IPIs' sends are written on CPU 0, about CPU 1) and files
# each record in its CPU's window, then the other thread attributes CPU 1's gaps and writes
# them to the outputs; the sender named above crossed from one to the other. Not exercised
# here: two threads attributing at once (one measured CPU; bench/jsscale.c runs 256
# simulated CPUs on 2 and 4 threads, docs/BENCHMARKS.md).
bad() { echo "FAIL: $*"; exit 1; }
grep 'drain thread' "$TMP/js.err"
grep -q '^jitterscope: 2 drain threads for 1 CPUs (--drain-threads): 1 CPUs each, the main thread.s 0$' \
	"$TMP/js.err" || bad "no '2 drain threads' notice: $(cat "$TMP/js.err")"
grep -q '^jitterscope: drain thread 0: 0 CPUs, 0 gaps attributed$' "$TMP/js.err" ||
	bad "the main thread attributed gaps, or said nothing"
n=$(sed -n 's/^jitterscope: drain thread 1: 1 CPUs, \([0-9]*\) gaps attributed$/\1/p' "$TMP/js.err")
acts=$(sed -n 's/^ipi: actions=\([0-9]*\) .*/\1/p' "$TMP/attrib.out")
[ -n "$acts" ] && [ "$acts" -gt 0 ] || bad "attrib_lib.py counted no IPI"
[ -n "$n" ] && [ "$n" -ge "$acts" ] || bad "thread 1 attributed ${n:-no} gaps for $acts IPIs"
gaps=$(python3 -c 'import json,sys; print(sum(c["gap_count"] for c in json.load(open(sys.argv[1]))["cpus"]))' "$TMP/run.json" 2>/dev/null)
[ "$gaps" = "$n" ] || bad "thread 1 attributed $n gaps, the JSON has ${gaps:-none}"
echo "ok: 2 drain threads, thread 1 attributed $n gaps (the run's $gaps) for $acts IPIs"
