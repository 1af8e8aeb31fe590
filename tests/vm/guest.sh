#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# guest.sh - what tests/vm/matrix.py runs inside each x86 kernel, from the checkout (vm.py
# run ... -- sh tests/vm/guest.sh [noidle] [inject]). Runs the real binary as a user on that box
# would, from the shell the box gives (on a tuned box its affinity is the housekeeping
# CPUs), and leaves every output in $JS_VM_OUT for the host to judge (matrix.py):
#   default.{json,txt,err}   jitterscope -d 3 -v (no option: the box's isolated CPU, else the
#                            last; -v: its probes' messages, inside.sh's census of the
#                            kernel's pick)
#   cpu1.{json,txt,err}      jitterscope --cpu 1 -d 0, ended by SIGINT 2 s after loc1's reads
#   loc1                     CPU 1's local timer count and the uptime 1 s and 4 s after that
#                            run measures (cpu1.csv: its first gap row) ("COUNT UPTIME COUNT
#                            UPTIME")
#   follow.{json,txt,err}    jitterscope --pid PID --marks follow.marks -d 2 on a process
#                            sleeping 10 ms at a time on CPU 1 (follow.pid: PID) that marks
#                            each sleep: the threads' programs load (the wake-up's with
#                            --marks) and follow it, and its marks are read
#   check.{json,txt}         jitterscope check --json (what the audit says of this box)
#   plan.txt                 jitterscope check --plan (what it would change on this box)
#   idle.states              --deepest-idle-state 0 on CPU 1 (--no-probes, short runs; not
#                            with "noidle", make check's other kernels: matrix.py): each
#                            line "WHEN cpuN: stateK=DISABLE ..." of CPUs 0 and 1, read before,
#                            then during each run ended by a signal (once it said so) and
#                            after each: one killed
#                            by SIGKILL (idle_kill.err; idle.files: /run/jitterscope after it),
#                            the next, which ends by itself (idle.{json,txt,err}), one ended
#                            by SIGINT (idle_int.err), one that fails (--json /dev/full,
#                            idle_fail.err); idle.times, idle.uptime: when each ran. The two
#                            that end by themselves measure 1 s: what is judged of them is
#                            what they do as they end, not what they measured
#   affinity, cmdline, rc.*  this shell's CPUs, /proc/cmdline, each command's exit status
#   inject/                  with "inject [KIND...]": tests/vm/inside.sh's outputs (when it
#                            exists), of those kinds (default: all)
# Exit 0 once everything ran (the verdicts are matrix.py's).
set -u
out=${JS_VM_OUT:?run me through tests/vm/vm.py}
idle=1
[ "${1:-}" = noidle ] && idle=0 && shift
js=${JS_BIN:-build/jitterscope}
taskset -pc $$ | sed 's/.*: //' >"$out/affinity"
cat /proc/cmdline >"$out/cmdline"
uname -r >"$out/release"
$js -d 3 -v --json "$out/default.json" >"$out/default.txt" 2>"$out/default.err"
echo $? >"$out/rc.default"
# --cpu 1 until SIGINT; meanwhile the local timer's count on CPU 1 over 3 s from 1 s after it
# measures, read from /proc/interrupts apart from the product
# (shell builtins only, the uptime read with each count: a guest starved by its host, TCG
# under load, takes seconds over an exec, and sleep 3 is then longer than 3 s)
loc1() {
	while read -r name c0 c1 _; do
		[ "$name" = LOC: ] && break
	done </proc/interrupts
	read -r t _ </proc/uptime
	echo "$c1 $t"
}
# measuring - has the run written a gap row to its CSV (a header, then rows, flushed every
# 0.5 s once it measures; its sampler thread exists well before that, while it starts)?
measuring() {
	k=0
	while read -r _; do
		k=$((k + 1))
		[ $k -ge 2 ] && return 0
	done <"$out/cpu1.csv" 2>/dev/null
	return 1
}
# the run has no end of its own: a starved guest's start takes seconds, so the window opens
# 1 s after it measures, and the run is stopped (SIGINT) 2 s after the window closed
$js --cpu 1 -d 0 --json "$out/cpu1.json" --gaps "$out/cpu1.csv" >"$out/cpu1.txt" \
	2>"$out/cpu1.err" &
pid=$!
n=0
while ! measuring && [ $n -lt 600 ] && kill -0 $pid 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
sleep 1
a=$(loc1)
sleep 3
b=$(loc1)
# 2 s more before the stop: the product judges the tick over all it measured, its start's
# restarted tick included, and 6 s keep that start a small part (as the -d 6 run did)
sleep 2
kill -INT $pid 2>/dev/null
wait $pid
echo $? >"$out/rc.cpu1"
echo "$a $b" >"$out/loc1"
# --pid --marks: the threads' programs load here too (with the wake-up's, which --marks
# adds), and follow a process sleeping 10 ms at a time on CPU 1 (follow.pid: its pid) that
# marks each sleep. Not a shell looping on sleep(1): its vforks raise irq_work
# on the nohz_full CPU, and under TCG the detach's text patching of the irq_work tracepoint
# then waits for good on a CPU 1 that never leaves that vector (soft lockup; 6.1 under QEMU
# TCG, the old build too: issue 40's note)
: >"$out/follow.marks"
taskset -c 1 python3 -c 'import sys, time
f = open(sys.argv[1], "a", buffering=1)
while True:
    t = time.monotonic_ns()
    time.sleep(0.01)
    f.write("%d,%d\n" % (t, time.monotonic_ns()))' "$out/follow.marks" &
app=$!
echo $app >"$out/follow.pid"
$js --pid $app --marks "$out/follow.marks" -d 2 --json "$out/follow.json" >"$out/follow.txt" \
	2>"$out/follow.err"
echo $? >"$out/rc.follow"
kill $app
wait $app 2>/dev/null
$js check --json "$out/check.json" >"$out/check.txt" 2>&1
echo $? >"$out/rc.check"
$js check --plan >"$out/plan.txt" 2>&1
echo $? >"$out/rc.plan"
# --deepest-idle-state 0 on CPU 1: disabled during each run, CPU 0's untouched, given back
# after a normal exit, a SIGINT, a failure, and after a SIGKILL by the next run's start
# (shell builtins only: under TCG each exec over 9p takes a good part of a second)
snap() {
	for c in 0 1; do
		printf '%s cpu%s:' "$1" $c
		for d in /sys/devices/system/cpu/cpu$c/cpuidle/state*; do
			[ -r "$d/disable" ] && read -r v <"$d/disable" && printf ' %s=%s' "${d##*/}" "$v"
		done
		echo
	done >>"$out/idle.states"
}
# said FILE - wait (at most about 30 s) until the run writing FILE said what it did with the
# idle states
said() {
	i=0
	while [ $i -lt 300 ]; do
		[ -f "$1" ] && while IFS= read -r l; do
			case $l in *"idle states deeper than"* | *--deepest-idle-state*) return ;; esac
		done <"$1"
		sleep 0.1
		i=$((i + 1))
	done
}
# idle NAME SIGNAL ARGS - a run of --deepest-idle-state 0 on CPU 1, read while it measures,
# then sent SIGNAL ("-": none, it ends by itself), read after; rc.NAME its exit status
idle() {
	name=$1 sig=$2
	shift 2
	read -r t _ </proc/uptime
	echo "$name start $t" >>"$out/idle.times"
	$js --cpu 1 --no-probes --deepest-idle-state 0 "$@" >"$out/$name.txt" 2>"$out/$name.err" &
	pid=$!
	said "$out/$name.err"
	# read while it measures only where a signal ends it: a guest starved by its host (TCG
	# under load) may read a run that ends by itself after it gave the states back
	[ "$sig" = - ] || { snap "$name:during" && kill -s "$sig" $pid; }
	wait $pid
	echo $? >"$out/rc.$name"
	read -r t _ </proc/uptime
	echo "$name end $t" >>"$out/idle.times"
	snap "$name:after"
}
if [ $idle = 1 ]; then
	: >"$out/idle.states"
	read -r t0 _ </proc/uptime
	snap before
	idle idle_kill KILL -d 30
	ls /run/jitterscope >"$out/idle.files" 2>&1
	idle idle - -d 1 --json "$out/idle.json"
	idle idle_int INT -d 30
	idle idle_fail - -d 1 --json /dev/full
	read -r t1 _ </proc/uptime
	echo "$t0 $t1" >"$out/idle.uptime"
fi
# below the probes' 5.12 floor there is nothing to name: no injection (matrix.py says so)
below_floor() { uname -r | awk -F. '{ exit !($1 < 5 || ($1 == 5 && $2 < 12)) }'; }
if [ "${1:-}" = inject ] && [ -f tests/vm/inside.sh ] && ! below_floor; then
	shift
	mkdir -p "$out/inject"
	JS_VM_OUT="$out/inject" JS_INSIDE_PICKED=$out sh tests/vm/inside.sh "$@" \
		>"$out/inject.txt" 2>&1
	echo $? >"$out/rc.inject"
fi
exit 0
