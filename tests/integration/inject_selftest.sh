#!/bin/bash
# inject_selftest.sh - verify the interference injector (build/tools/jsinject) by itself, without
# jitterscope: run the preempt, ipi, timer, softirq (steered by RPS, then by RFS) and pf modes
# for 1 s on CPU 1 and check their action counts against the kernel's own counters for CPU 1
# (docs/INJECTOR.md), their CSV logs, and that it restores what it changes when interrupted.
# Root only. About 10 s.
# The irq mode: inject_selftest_irq.sh. Shared code and the busy CPU 1: inject_lib.bash.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/inject_lib.bash"
# 1 s a mode: at 100 to 1000 actions a second (the ipi mode 400 IPIs) the counts and their
# excess over the background are as clear as in 2 s
DUR=1

# steered PID - wait (up to 5 s) until jsinject PID has set rps_cpus to CPU (its softirq
# mode steers lo's packets there); status 1 if it did not
steered() {
	for _ in $(seq 100); do
		(( 0x$(tr -d , <$RPS) == 1 << CPU )) && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
# fifo_thread PID - wait (up to 5 s) until jsinject PID runs a SCHED_FIFO thread; prints how
# many it runs (0: none)
fifo_thread() {
	local n=0
	for _ in $(seq 100); do
		n=$(ps -L -o policy= -o comm= -p "$1" | grep -c 'FF *jsinject')
		[ "$n" -ge 1 ] && break
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	echo "$n"
}

busy
if run preempt --period 10000 --spin 200; then
	a=$(val preempt actions)
	at_least preempt 10000
	check "preempt: all spins on CPU $CPU" "$(val preempt wrong_cpu) == 0"
	check "preempt: thread switched out after every spin" "$(val preempt switches) >= $a"
	check "preempt: spin median 200 us (within 10 %)" \
	      "$(val preempt dur_med_us | tr -d .) >= 20000 && $(val preempt dur_med_us | tr -d .) <= 22000"
	check "preempt: thread CPU time covers the spins" \
	      "$(val preempt thread_cpu_us) >= $a * 200 / 2"
fi
if run ipi --period 5000 --count 2; then
	at_least ipi 5000 2
	check "ipi: CAL >= ioctls" "$(val ipi cal_delta) >= $(val ipi actions)"
fi
# 1 ms, or shorter on a faster tick: 4 expiries a tick at least (the background check below)
TIMER_US=$(tick_hz timer-period) || exit 1
if run timer --period $TIMER_US; then
	at_least timer $TIMER_US
	check "timer: LOC >= expiries" "$(val timer loc_delta) >= $(val timer actions)"
	check "timer: no lost samples, no irq_work wakeups" \
	      "$(val timer lost) == 0 && $(val timer iwi_delta) <= 2"
	check "timer: median interval $TIMER_US us" \
	      "$(val timer ivl_med_us | tr -d .) >= 99 * $TIMER_US && $(val timer ivl_med_us | tr -d .) <= 101 * $TIMER_US"
fi
if run softirq --period 10000; then
	at_least softirq 10000
	check "softirq: NET_RX >= packets" "$(val softirq net_rx_delta) >= $(val softirq actions)"
	check "softirq: every packet received" "$(val softirq received) == $(val softirq actions)"
	check "softirq: rps_cpus restored" "$(rps_restored) == 1"
fi
if run pf --period 10000 --count 64; then
	at_least pf 10000
	check "pf: faults >= 64 x bursts" "$(val pf faults) >= 64 * $(val pf actions)"
	check "pf: every burst faulted 64 pages" "$(val pf faults_min_burst) >= 64"
	check "pf: all bursts on CPU $CPU" "$(val pf wrong_cpu) == 0"
fi

# The >= checks above would pass on background noise alone; the excess over the quietest other
# run (same duration) must account for the actions.
echo "== counts above the background (quietest other run)"
[ -s "$TMP/ipi.out" ] && check "ipi: CAL above background >= 90 % of ioctls" \
	"$(val ipi cal_delta) - $(min_other cal_delta ipi) >= $(val ipi actions) * 9 / 10"
# the tick can run in an expiry's interrupt (a 1 ms timer in phase with a 4 ms tick: every
# tick did, once: 2015 LOC for 2000 expiries and 503 ticks), so no excess is owed: LOC >=
# expiries (above) holds, and the quietest other run's LOC (about the tick's HZ a second)
# must fall well short of it: hence 4 expiries a tick at least
[ -s "$TMP/timer.out" ] && check "timer: background LOC short of 90 % of expiries" \
	"$(min_other loc_delta timer) < $(val timer actions) * 9 / 10"
[ -s "$TMP/softirq.out" ] && check "softirq: NET_RX above background >= 90 % of packets" \
	"$(val softirq net_rx_delta) - $(min_other net_rx_delta softirq) >= $(val softirq actions) * 9 / 10"

# --steer rfs: RFS, not rps_cpus, steers each packet to CPU 1 (where isolcpus= or nohz_full=
# keep it out of rps_cpus); a SCHED_FIFO reader there takes them; both flow tables restored
RFS_SOCK=/proc/sys/net/core/rps_sock_flow_entries
RFS_FLOW=/sys/class/net/lo/queues/rx-0/rps_flow_cnt
rfs_saved="$(cat $RFS_SOCK) $(cat $RFS_FLOW)"
if run softirq --period 10000 --steer rfs; then
	at_least softirq 10000
	check "softirq rfs: steered by RFS, rps_cpus untouched" \
	      "$(val softirq steer | grep -c rfs) == 1 && $(rps_restored) == 1"
	check "softirq rfs: NET_RX >= packets" "$(val softirq net_rx_delta) >= $(val softirq actions)"
	check "softirq rfs: every packet received on CPU $CPU" \
	      "$(val softirq received) == $(val softirq actions) && $(val softirq wrong_cpu) == 0"
	check "softirq rfs: flow tables restored" \
	      "$([ "$(cat $RFS_SOCK) $(cat $RFS_FLOW)" = "$rfs_saved" ] && echo 1 || echo 0) == 1"
fi

echo "== robustness"
# SIGINT: stops early, restores rps_cpus, still writes log and summary, exit 3
"$INJ" --mode softirq --cpu $CPU --duration 5 --log "$TMP/int.csv" > "$TMP/int.out" 2>&1 &
pid=$!
sleep 0.7
changed=$(cat $RPS)
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 3" "$rc == 3"
check "SIGINT: rps_cpus was set, then restored" \
      "0x$(echo "$changed" | tr -d ,) == 1 << $CPU && $(rps_restored) == 1"
check "SIGINT: summary and log written" \
      "$(sed -n 's/^interrupted=//p' "$TMP/int.out") == 1 && $(wc -l < "$TMP/int.csv") - 1 == $(sed -n 's/^actions=//p' "$TMP/int.out")"

# SIGALRM is the watchdog's hard stop: the async-signal-safe restore path, exit 4
"$INJ" --mode softirq --cpu $CPU --duration 5 > /dev/null 2>&1 &
pid=$!
steered $pid && set=1 || set=0
kill -ALRM $pid
wait $pid
rc=$?
check "watchdog (SIGALRM): rps_cpus was set, exit 4, rps_cpus restored" \
      "$set == 1 && $rc == 4 && $(rps_restored) == 1"

# SIGTERM on the SCHED_FIFO spinner: the whole process is gone at once
"$INJ" --mode preempt --cpu $CPU --duration 5 --period 2000 --spin 100 > /dev/null 2>&1 &
pid=$!
fifo=$(fifo_thread $pid)
t0=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
t1=$(date +%s%N)
# (wait returns once every thread of the process has exited: the time covers them all; a
# "no thread left" ps after the wait could never fail, the process is reaped by then)
check "SIGTERM: a FIFO jsinject thread was running, all threads gone in < 1 s (else it runs its 4.5 s left), exit 3" \
      "$fifo == 1 && $rc == 3 && ($t1 - $t0) < 1000000000"

# usage errors
"$INJ" --mode preempt --cpu $CPU --spin 6000 --period 10000 > /dev/null 2>&1
check "usage error: exit 2" "$? == 2"
"$INJ" --mode timer --cpu $CPU --count 3 > /dev/null 2>&1
check "--count on a mode without it: exit 2" "$? == 2"

finish inject_selftest
