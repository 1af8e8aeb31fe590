#!/bin/bash
# measure_thread_names.sh - jitterscope's own threads carry names while it measures: the
# sampler of CPU 1 "js-spin/1", the drain (the main thread) "js-drain", the --listen server
# "js-http" (read from /proc/PID/task/*/comm); none is left as plain "jitterscope", so a
# story of a gap one of them caused names it. Then the run ends normally.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1

port=$(free_port)
"$JS" --cpu 1 --duration 4 --no-probes --listen "127.0.0.1:$port" -q \
	>"$TMP/report.txt" 2>"$TMP/err.txt" &
pid=$!
comms=""
# the names are set once the samplers start (after the set-up): poll up to 3 s for them
for _ in $(seq 30); do
	sleep 0.1
	comms=$(cat /proc/$pid/task/*/comm 2>/dev/null | sort | tr '\n' ' ')
	case "$comms" in *js-spin/1*js-http*) break ;; esac
done
wait "$pid" || fail "run exited $? ($(cat "$TMP/err.txt"))"
echo "threads while measuring: $comms"
for want in js-drain js-http js-spin/1; do
	[[ " $comms" == *" $want "* ]] || fail "no thread named $want among: $comms"
done
for c in $comms; do
	[[ "$c" == js-* ]] || fail "a thread named '$c', not js-*: $comms"
done
grep -q "^CPU 1 " "$TMP/report.txt" || fail "no report after the run"
echo "ok: jitterscope's threads are named: $comms"
