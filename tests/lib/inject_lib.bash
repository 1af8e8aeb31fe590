# inject_lib.bash - what the injector self-tests share (sourced by inject_selftest*.sh): run
# jsinject modes for DUR s on CPU 1 kept busy by a SCHED_OTHER spin loop, as jitterscope's
# sampler keeps it (on an idle CPU 1 the counts are not exact: haltpoll answers a call-function
# to a polling idle CPU without an IPI, so CAL < ioctls; and cpu-clock samples are not recorded
# while the CPU idles), and check their summaries against the kernel's counters.
# A mode that cannot run on this machine (a managed disk IRQ aimed elsewhere) skips the test.
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need_root
need_cpu1
CPU=1
DUR=2
cd "$ROOT" || exit 1
INJ=build/tools/jsinject
RPS=/sys/class/net/lo/queues/rx-0/rps_cpus
[ -x "$INJ" ] || make -s "$INJ" || exit 1

RPS_SAVED=$(cat "$RPS" 2>/dev/null)
BUSY=
cleanup() {
	[ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null && wait "$BUSY" 2>/dev/null
	# jsinject restores rps_cpus itself; this is the safety net if it got killed
	[ -n "$RPS_SAVED" ] && [ "$(cat "$RPS")" != "$RPS_SAVED" ] && echo "$RPS_SAVED" > "$RPS"
	rm -rf "$TMP"
}
at_exit cleanup
trap 'exit 1' INT TERM

FAILS=0
fail() {
	echo "FAIL: $*"
	FAILS=$((FAILS + 1))
}
ok() {
	echo "ok:   $*"
}

# rps_restored - 1 if rps_cpus holds its value from before the test
rps_restored() {
	[ "$(cat $RPS)" = "$RPS_SAVED" ] && echo 1 || echo 0
}

# val MODE KEY - a key=value from the summary of MODE's run
val() {
	sed -n "s/^$2=//p" "$TMP/$1.out"
}

# check LABEL EXPR - evaluate an arithmetic condition, report it
check() {
	if (($2)); then ok "$1 ($2)"; else fail "$1 ($2)"; fi
}

# check_log MODE - the CSV has the header, one row per action, start <= end, starts increasing
check_log() {
	local m=$1 n err
	n=$(val "$m" actions)
	err=$(awk -F, -v m="$m" -v n="$n" '
		NR == 1 { if ($0 != "mode,seq,start_ns,end_ns") { print "bad header: " $0; exit } next }
		$1 != m || $2 != NR - 2 || $3 + 0 > $4 + 0 || $3 + 0 < prev { print "bad row " NR ": " $0; exit }
		{ prev = $3 + 0 }
		END { if (NR - 1 != n) print "rows " NR - 1 " != actions " n }' "$TMP/$m.csv")
	if [ -z "$err" ]; then ok "$m log: $n rows"; else fail "$m log: $err"; fi
}

# run MODE ARGS... - run one mode for DUR seconds on CPU, keep summary and log
run() {
	local m=$1 rc
	shift
	"$INJ" --mode "$m" --cpu $CPU --duration $DUR --log "$TMP/$m.csv" "$@" > "$TMP/$m.out" \
		2> "$TMP/$m.err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q "cannot steer IRQ" "$TMP/$m.err"; then
		# a managed disk IRQ aimed elsewhere: not the injector's fault, nothing to check
		skip "$m: $(head -n 1 "$TMP/$m.err")"
	elif [ $rc -ne 0 ]; then
		fail "$m: jsinject exited $rc: $(cat "$TMP/$m.err")"
		return 1
	fi
	echo "      $m $*: actions=$(val "$m" actions) skipped=$(val "$m" skipped)" \
	     "cal=$(val "$m" cal_delta) loc=$(val "$m" loc_delta)" \
	     "net_rx=$(val "$m" net_rx_delta) block=$(val "$m" block_delta)"
	check "$m: interrupted=0, no log overflow" \
	      "$(val "$m" interrupted) == 0 && $(val "$m" log_overflow) == 0"
	check_log "$m"
}

# at_least MODE PERIOD_US [COUNT] - actions >= half of what the duration allows
at_least() {
	local m=$1 per=$2 cnt=${3:-1}
	check "$m: enough actions" "$(val "$m" actions) >= $DUR * 1000000 / $per * $cnt / 2"
}

# min_other KEY MODE - the smallest KEY delta among the other modes' runs (the background rate)
min_other() {
	local k=$1 skip=$2 m v min=
	for m in preempt ipi timer softirq irq pf; do
		[ "$m" = "$skip" ] || [ ! -s "$TMP/$m.out" ] && continue
		v=$(val "$m" "$k")
		[ -n "$v" ] && { [ -z "$min" ] || [ "$v" -lt "$min" ]; } && min=$v
	done
	echo "${min:-0}"
}

# busy - keep CPU busy with a spin loop until the test ends
busy() {
	taskset -c $CPU bash -c 'while :; do :; done' &
	BUSY=$!
	echo "== modes, $DUR s each on CPU $CPU (kept busy by a spin loop, pid $BUSY)"
}

# finish NAME - the verdict: exit 1 when a check failed
finish() {
	if [ $FAILS -ne 0 ]; then
		echo "$1: $FAILS check(s) failed"
		exit 1
	fi
	echo "$1: all checks passed"
	exit 0
}
