#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# measure_dma_latency.sh - --dma-latency US during a short run on CPU 1: jitterscope holds
# /dev/cpu_dma_latency open (seen in /proc/PID/fd) with US in force (the file reads back the
# kernel's current target, a binary s32), and the request ends with the run; a bad value and
# --dma-latency with check are usage errors (64). The same run has --deepest-idle-state 0:
# where CPU 1 has cpuidle states, those deeper than 0 are disabled during the run and given
# back after it; where it has none (this machine kind), one line says so, the JSON's
# idle_states.why_not too, and the run measures (the VM kernels check the states themselves:
# tests/vm/guest.sh). Needs root (the device is root's).
# Exit 0 pass, 77 skip, else fail.
# cpu1: shared - it judges the device it holds and the idle states it sets, not what it measures (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
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

# idle - CPU 1's cpuidle states' disable values ("" without cpuidle)
idle() { cat /sys/devices/system/cpu/cpu1/cpuidle/state*/disable 2>/dev/null | tr '\n' ' '; }
idle_before=$(idle)
"$JS" --cpu 1 -d 3 --no-probes --no-progress --dma-latency "$want" --deepest-idle-state 0 \
	--json "$TMP/run.json" >"$TMP/out" 2>"$TMP/err" &
pid=$!
held=""
for _ in $(seq 1 40); do
	sleep 0.05
	for fd in /proc/$pid/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$dev" ] && held=yes
	done
	[ -n "$held" ] && grep -q "deepest-idle-state\|idle states deeper" "$TMP/err" && break
done
during=$(current)
idle_during=$(idle)
wait $pid
rc=$?
after=$(current)
[ $rc -eq 0 ] || fail "run exited $rc: $(cat "$TMP/err")"
[ -n "$held" ] || fail "$dev not open in /proc/$pid/fd during the run"
[ "$during" -le "$want" ] || fail "target during the run $during us, not <= $want"
[ "$after" -eq "$before" ] || fail "target after the run $after us, was $before: not released"
grep -q "holding $dev at $want us" "$TMP/err" || fail "no notice of the hold: $(cat "$TMP/err")"
grep -q "^CPU 1 " "$TMP/out" || fail "no report"
idle_after=$(idle)
if [ -z "$idle_before" ]; then
	grep -q "^jitterscope: --deepest-idle-state: no cpuidle states on CPU 1" "$TMP/err" ||
		fail "no line saying CPU 1 has no cpuidle states: $(cat "$TMP/err")"
	why=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["idle_states"]["why_not"])' "$TMP/run.json")
	[[ $why == "no cpuidle states on CPU 1"* ]] || fail "idle_states.why_not: $why"
	idle_said="no cpuidle states on CPU 1: said so, measured"
else
	want_idle=$(echo "$idle_before" | awk '{ for (i = 1; i <= NF; i++) printf "%s ", i == 1 ? $i : 1 }')
	[ "$idle_during" = "$want_idle" ] ||
		fail "CPU 1's idle states during the run: $idle_during, want $want_idle"
	[ "$idle_after" = "$idle_before" ] ||
		fail "CPU 1's idle states after the run: $idle_after, were $idle_before"
	idle_said="CPU 1's idle states $idle_before-> $idle_during-> $idle_after"
fi

for args in "--dma-latency -1" "--dma-latency 10us" "--dma-latency 2000000001"; do
	# shellcheck disable=SC2086
	"$JS" --cpu 1 -d 1 $args >/dev/null 2>"$TMP/e"
	[ $? -eq 64 ] || fail "$args: not a usage error"
done
"$JS" check --dma-latency 0 >/dev/null 2>&1
[ $? -eq 64 ] || fail "check --dma-latency: not refused"
echo "measure_dma_latency: $dev held at $want us during the run ($before -> $during -> $after); $idle_said"
