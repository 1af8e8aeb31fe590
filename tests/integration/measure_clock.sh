#!/bin/bash
# measure_clock.sh - the TSC read (--clock) on any x86-64 CPU:
#   1. auto takes rdtscp where the CPU advertises it (the oracle: the kernel's cpuinfo flags),
#      else lfence;rdtsc with one notice line; the choice is in the text report, the JSON,
#      `report`'s re-rendering, the HTML page and the .hlog header
#   2. JITTERSCOPE_NO_RDTSCP=1 masks rdtscp on any CPU: auto falls back and says why;
#      --clock rdtscp is then refused in one line (exit 1); --clock lfence always measures
#   3. on an emulated CPU that really lacks rdtscp (qemu-user, -cpu qemu64,-rdtscp: rdtscp
#      raises SIGILL there, checked first with a program that runs it), no code path runs
#      it: a measurement (calibration, clock-cost table, VM-exit probe, sampler loop), the
#      --test-hook loop, the unit test of the reads and the bench's bare loop all end
#      normally and chose lfence;rdtsc; on an emulated CPU that has it (+rdtscp), auto takes
#      rdtscp: both paths run on every machine
#   4. a representative set of measuring tests (attribution, outputs, --pid) on the
#      fallback: run again with JITTERSCOPE_NO_RDTSCP=1 where the CPU has rdtscp (where it
#      has not, every test of the suite already ran on the fallback: said as a skipped part)
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
O=$TMP
cd "$ROOT" || fail "no $ROOT"
have=0
grep -m1 '^flags' /proc/cpuinfo | grep -qw rdtscp && have=1
want=$([ $have = 1 ] && echo rdtscp || echo 'lfence;rdtsc')

# one_notice FILE WHY - FILE (stderr of a run) says WHY and the fallback in one line
one_notice() {
	[ "$(grep -c 'reading the TSC with lfence;rdtsc' "$1")" -eq 1 ] && grep -q "$2" "$1" ||
		fail "no notice ($2): $(cat "$1")"
}

# 1. auto: rdtscp exactly where the CPU advertises it
"$JS" --cpu 1 -d 0.3 --no-probes --no-progress --json "$O/a.json" >"$O/a.txt" 2>"$O/a.err" ||
	fail "auto run failed: $(cat "$O/a.err")"
json_check "$O/a.json" "r['params']['tsc_read'] == '$want'" "r['params']['clock'] == 'auto'"
grep -q "^time base: TSC read with $want (--clock auto)" "$O/a.txt" ||
	fail "text report: $(grep 'time base' "$O/a.txt")"
if [ $have = 1 ]; then
	! grep -q 'reading the TSC' "$O/a.err" || fail "a notice with rdtscp: $(cat "$O/a.err")"
	"$JS" --cpu 1 -d 0.2 --no-probes -q --clock rdtscp --json "$O/r.json" >/dev/null ||
		fail "--clock rdtscp on a CPU that has it"
	json_check "$O/r.json" "r['params']['tsc_read'] == 'rdtscp'" "r['params']['clock'] == 'rdtscp'"
else
	one_notice "$O/a.err" 'this CPU does not advertise rdtscp'
	"$JS" --cpu 1 -d 0.2 --no-probes -q --clock rdtscp >/dev/null 2>"$O/r.err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$O/r.err")" -eq 1 ] &&
		grep -q -- '--clock rdtscp: this CPU does not advertise rdtscp' "$O/r.err" ||
		fail "--clock rdtscp without it: exit $rc: $(cat "$O/r.err")"
fi
echo "ok: auto chose $want (cpuinfo: rdtscp $([ $have = 1 ] && echo present || echo absent))"

# 2. masked: the fallback everywhere, said in every output
JITTERSCOPE_NO_RDTSCP=1 "$JS" --cpu 1 -d 0.5 --no-progress --json "$O/m.json" \
	--hlog "$O/m.hlog" --html "$O/m.html" >"$O/m.txt" 2>"$O/m.err" ||
	fail "masked run failed: $(cat "$O/m.err")"
one_notice "$O/m.err" 'JITTERSCOPE_NO_RDTSCP is set'
json_check "$O/m.json" "r['params']['tsc_read'] == 'lfence;rdtsc'" "r['params']['clock'] == 'auto'" \
	"r['machine']['clock_read_cost']['rdtscp']['samples'] == 0" \
	"r['machine']['clock_read_cost']['lfence_rdtsc']['samples'] > 0" "c['gap_count'] > 0"
grep -q '^time base: TSC read with lfence;rdtsc (--clock auto)' "$O/m.txt" ||
	fail "text report: $(grep 'time base' "$O/m.txt")"
grep -q 'clock read cost (median/p99): rdtscp not run, lfence;rdtsc' "$O/m.txt" ||
	fail "clock cost line: $(grep 'clock read' "$O/m.txt")"
"$JS" report "$O/m.json" >"$O/rep.txt" 2>&1 || fail "report: $(cat "$O/rep.txt")"
grep -q '^time base: TSC read with lfence;rdtsc (--clock auto)' "$O/rep.txt" ||
	fail "report's time base: $(grep 'time base' "$O/rep.txt")"
head -n 1 "$O/m.hlog" | grep -q '; TSC lfence;rdtsc;' || fail ".hlog header: $(head -n 1 "$O/m.hlog")"
grep -q 'TSC read</th><td>lfence;rdtsc (--clock auto)' "$O/m.html" ||
	fail "HTML: no TSC read fact: $(grep -o 'TSC read.\{0,60\}' "$O/m.html")"
JITTERSCOPE_NO_RDTSCP=1 "$JS" --cpu 1 -d 0.2 --no-probes -q --clock rdtscp >/dev/null 2>"$O/x.err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$O/x.err")" -eq 1 ] &&
	grep -q -- '--clock rdtscp: JITTERSCOPE_NO_RDTSCP is set' "$O/x.err" ||
	fail "masked --clock rdtscp: exit $rc: $(cat "$O/x.err")"
"$JS" --cpu 1 -d 0.2 --no-probes --no-progress --lfence --json "$O/l.json" >/dev/null 2>"$O/l.err" ||
	fail "--lfence failed: $(cat "$O/l.err")"
! grep -q 'reading the TSC' "$O/l.err" || fail "a notice when lfence was asked for: $(cat "$O/l.err")"
json_check "$O/l.json" "r['params']['tsc_read'] == 'lfence;rdtsc'" "r['params']['clock'] == 'lfence'"
echo "ok: masked: lfence;rdtsc with one notice, in the text, JSON, report, HTML and .hlog; --clock rdtscp refused"

# 3. an emulated CPU without rdtscp: nothing runs it
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
	if [ "${CI:-}" = true ] && scripts/install-deps.sh --list | grep -qx qemu-user; then
		fail "no qemu-x86_64 (Debian package qemu-user): CI=true and install-deps installs it"
	fi
	echo "skip emulated CPU: no qemu-x86_64 (Debian package qemu-user)"
else
	Q="qemu-x86_64 -cpu qemu64,-rdtscp"
	printf '#include <x86intrin.h>\nint main(void){unsigned a; return (int)(__rdtscp(&a) & 0);}\n' |
		gcc -x c - -o "$O/ud" || fail "cannot build the rdtscp probe program"
	rc=$( ($Q "$O/ud") 2>/dev/null; echo $?) # in a subshell: bash's own "Illegal instruction"
	[ "$rc" -eq 132 ] || fail "the emulated CPU runs rdtscp (exit $rc, want SIGILL 132): no oracle"
	$Q "$JS" --cpu 1 -d 0.3 --no-probes --no-progress --json "$O/q.json" >"$O/q.txt" 2>"$O/q.err" ||
		fail "measuring on the emulated CPU: exit $?: $(tail -n 3 "$O/q.err")"
	one_notice "$O/q.err" 'this CPU does not advertise rdtscp'
	json_check "$O/q.json" "r['params']['tsc_read'] == 'lfence;rdtsc'" "c['duration_ns'] > 0.2e9" \
		"r['machine']['clock_read_cost']['rdtscp']['samples'] == 0"
	$Q "$JS" --cpu 1 -d 0.2 --no-probes -q --test-hook fault >/dev/null 2>"$O/h.err" ||
		fail "the test-hook loop on the emulated CPU: exit $?: $(tail -n 3 "$O/h.err")"
	$Q build/tests/test_tsc >"$O/tsc.log" 2>&1 ||
		fail "test_tsc on the emulated CPU: exit $?: $(grep -E 'ERROR|LINE' "$O/tsc.log")"
	$Q build/tools/jsloop --cpu 1 --duration 0.1 --out "$O/loop.txt" ||
		fail "jsloop on the emulated CPU: exit $?"
	grep -qx 'rdtscp=0' "$O/loop.txt" || fail "jsloop: $(cat "$O/loop.txt")"
	echo "ok: emulated CPU without rdtscp (SIGILL checked): measurement, hook loop, unit tests, jsloop ran"
	# and one that has it: auto takes rdtscp, whatever this machine's CPU advertises
	P="qemu-x86_64 -cpu qemu64,+rdtscp"
	$P "$JS" --cpu 1 -d 0.3 --no-probes --no-progress --json "$O/p.json" >/dev/null 2>"$O/p.err" ||
		fail "measuring on the emulated CPU with rdtscp: exit $?: $(tail -n 3 "$O/p.err")"
	! grep -q 'reading the TSC' "$O/p.err" || fail "a notice with rdtscp: $(cat "$O/p.err")"
	json_check "$O/p.json" "r['params']['tsc_read'] == 'rdtscp'" \
		"r['machine']['clock_read_cost']['rdtscp']['samples'] > 0"
	echo "ok: emulated CPU with rdtscp: auto chose rdtscp and measured"
fi

# 4. the measuring tests on the fallback
if [ $have = 0 ]; then
	echo "skip fallback set: this CPU lacks rdtscp, so every test of the suite ran on lfence;rdtsc"
	exit 0
fi
for t in attrib_ipi.sh outputs_hdr.sh app_preempt.sh; do
	JITTERSCOPE_NO_RDTSCP=1 bash "tests/integration/$t" >"$O/$t.log" 2>&1
	rc=$?
	case $rc in
	0) echo "ok: $t on lfence;rdtsc" ;;
	77) echo "skip fallback $t: $(sed -n 's/^skip: //p' "$O/$t.log" | tail -n 1)" ;;
	*) cat "$O/$t.log"; fail "$t on lfence;rdtsc: exit $rc" ;;
	esac
done
exit 0
