#!/bin/bash
# measure_thread_names.sh - jitterscope's own threads carry names while it measures: the
# sampler of CPU 1 "js-spin/1", the --listen server "js-http" (read from
# /proc/PID/task/*/comm); the main thread, which drains, keeps the process's name so that
# `pidof jitterscope` finds the run (a story names it js-drain: tests/unit/test_correlate.c),
# and it is the only one so named. Then the run ends normally.
# cpu1: shared - it reads its run's thread names, which another run on CPU 1 does not change (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
on_housekeeping # its polls of /proc, while the sampler spins on CPU 1

port=$(free_port)
"$JS" --cpu 1 --duration 4 --no-probes --listen "127.0.0.1:$port" -q \
	>"$TMP/report.txt" 2>"$TMP/err.txt" &
pid=$!
comms="" seen=""
# the names are set once the samplers start (after the set-up): poll up to 3 s for them, and
# ask pidof while the run is there (sorted, js-http comes before js-spin/1: a pattern in
# the other order never matched, and the polls outlasted the 4 s run on a busy CPU 0)
for _ in $(seq 30); do
	sleep 0.1
	comms=$(cat /proc/$pid/task/*/comm 2>/dev/null | sort | tr '\n' ' ')
	if [[ " $comms" == *" js-spin/1 "* && " $comms" == *" js-http "* ]]; then
		seen=$(pidof jitterscope)
		break
	fi
done
wait "$pid" || fail "run exited $? ($(cat "$TMP/err.txt"))"
echo "threads while measuring: $comms"
[[ " $seen " == *" $pid "* ]] || fail "pidof jitterscope did not find the run ($pid): $seen"
main=$(echo "$comms" | tr ' ' '\n' | grep -cx jitterscope)
[ "$main" -eq 1 ] || fail "$main threads named jitterscope, want the main thread alone: $comms"
for want in jitterscope js-http js-spin/1; do
	[[ " $comms" == *" $want "* ]] || fail "no thread named $want among: $comms"
done
for c in $comms; do
	[[ "$c" == js-* || "$c" == jitterscope ]] || fail "a thread named '$c': $comms"
done
grep -q "^CPU 1 " "$TMP/report.txt" || fail "no report after the run"
echo "ok: jitterscope's threads are named: $comms"
