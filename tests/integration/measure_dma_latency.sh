#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# measure_dma_latency.sh - --dma-latency US during a short run on CPU 1: jitterscope holds
# /dev/cpu_dma_latency open (seen in /proc/PID/fd) with US in force (the file reads back the
# kernel's current target, a binary s32), and the request ends with the run; a bad value and
# --dma-latency with check are usage errors (64). Needs root (the device is root's).
# Exit 0 pass, 77 skip, else fail.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
dev=/dev/cpu_dma_latency
[ -c "$dev" ] || skip "no $dev (a kernel without CPU latency PM QoS)"

# current - the kernel's target now, in us
current() { python3 -c 'import struct,sys; print(struct.unpack("i", open(sys.argv[1], "rb").read(4))[0])' "$dev"; }
before=$(current)
# a value nothing else on this machine holds: 7 us, or 0 when something holds <= 7 already
want=7
[ "$before" -le 7 ] && want=0

"$JS" --cpu 1 -d 3 --no-probes --no-progress --dma-latency "$want" >"$TMP/out" 2>"$TMP/err" &
pid=$!
held=""
for _ in $(seq 1 40); do
	sleep 0.05
	for fd in /proc/$pid/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$dev" ] && held=yes
	done
	[ -n "$held" ] && break
done
during=$(current)
wait $pid
rc=$?
after=$(current)
[ $rc -eq 0 ] || fail "run exited $rc: $(cat "$TMP/err")"
[ -n "$held" ] || fail "$dev not open in /proc/$pid/fd during the run"
[ "$during" -le "$want" ] || fail "target during the run $during us, not <= $want"
[ "$after" -eq "$before" ] || fail "target after the run $after us, was $before: not released"
grep -q "holding $dev at $want us" "$TMP/err" || fail "no notice of the hold: $(cat "$TMP/err")"
grep -q "^CPU 1 " "$TMP/out" || fail "no report"

for args in "--dma-latency -1" "--dma-latency 10us" "--dma-latency 2000000001"; do
	# shellcheck disable=SC2086
	"$JS" --cpu 1 -d 1 $args >/dev/null 2>"$TMP/e"
	[ $? -eq 64 ] || fail "$args: not a usage error"
done
"$JS" check --dma-latency 0 >/dev/null 2>&1
[ $? -eq 64 ] || fail "check --dma-latency: not refused"
echo "measure_dma_latency: $dev held at $want us during the run ($before -> $during -> $after)"
