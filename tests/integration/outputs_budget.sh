#!/bin/bash
# outputs_budget.sh - --budget end to end on real runs on CPU 1: a limit below the run's
# (gaps=0, max=1ns) exits 2 with an EXCEEDED line; one within it (max=3600s) exits 0 with an
# ok line. A run without end (--duration 0, --budget-interval 1s, about 7 s) counts the
# violations per interval: jsinject's 10 ms preemptions for 1 s break max=6ms in an interval
# or more, and once they stop the counter (--listen) stops growing (but for the host's own
# gaps of 6 ms or more after them, which the gaps CSV must then show); at SIGTERM the final
# textfile holds the same count (or more by such late gaps of the host's), the report judges
# the whole run (EXCEEDED, exit 2). A
# result that appears during such a run (here the first mark of --cpu 1 --marks, 5 ms long)
# is checked from the interval it appeared in (about 3 s).
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_tools jsinject
note() { echo "outputs_budget: $*"; }
run=''
at_exit '[ -n "$run" ] && kill -KILL "$run" 2>/dev/null'

# --budget: a limit below the run's max must exit 2 (commands.c applies it: no "not wired yet"
# skip any more, it would pass whatever --budget does)
"$JS" --cpu 1 --duration 0.5 -q --budget 'gaps=0,max=1ns' >"$TMP/b.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--budget gaps=0,max=1ns exited $rc, want 2: $(tail -3 "$TMP/b.out")"
grep -q '^budget max=1ns on CPU 1: .*  EXCEEDED$' "$TMP/b.out" ||
	fail "no EXCEEDED line: $(grep '^budget' "$TMP/b.out")"
"$JS" --cpu 1 --duration 0.5 -q --budget 'max=3600s' >"$TMP/b2.out" 2>&1 ||
	fail "--budget max=3600s exited $? ($(tail -3 "$TMP/b2.out"))"
grep -q '^budget max=3600s on CPU 1: .*  ok$' "$TMP/b2.out" ||
	fail "no ok line: $(grep '^budget' "$TMP/b2.out")"
note "--budget: exit 2 on a violation, 0 within limits"

# a run without end: the limits per interval
port=$(free_port)
"$JS" --cpu 1 -d 0 -q --budget 'max=6ms' --budget-interval 1s --listen "127.0.0.1:$port" \
	--prom "$TMP/c.prom" --gaps "$TMP/c.csv" >"$TMP/c.out" 2>"$TMP/c.err" &
run=$!
# viol [LIMIT] - the counter of LIMIT (max=6ms) served by --listen now (nothing if it does
# not answer)
viol() {
	python3 -c 'import sys, urllib.request
body = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read()
for l in body.decode().splitlines():
    if l.startswith("jitterscope_budget_violations_total{limit=\"%s\"} " % sys.argv[2]):
        print(int(float(l.split()[1])))' "$port" "${1:-max=6ms}" 2>/dev/null
}
for _ in $(seq 100); do
	[ -n "$(viol)" ] && break
	kill -0 $run 2>/dev/null || fail "the run without end ended: $(cat "$TMP/c.err")"
	sleep 0.1
done
v0=$(viol)
[ -n "$v0" ] || fail "--listen serves no jitterscope_budget_violations_total{limit=\"max=6ms\"}"
"$INJ" --mode preempt --cpu 1 --period 200000 --spin 10000 --duration 1 --log "$TMP/inj.csv" \
	>"$TMP/inj.txt" 2>&1 ||
	fail "jsinject: $(cat "$TMP/inj.txt")"
# the interval that held the last spike has closed (1 s, and the drain's lag)
sleep 1.5
v1=$(viol)
sleep 2
v2=$(viol)
kill -TERM $run
wait $run
rc=$?
run=''
note "max=6ms per 1 s interval: $v0 before the spikes, $v1 1.5 s after them, $v2 2 s later;" \
	"$(grep -E '^(actions|dur_max_us)=' "$TMP/inj.txt" | tr '\n' ' ')"
[ "${v1:-0}" -gt "${v0:-0}" ] || fail "5 preemptions of 10 ms: max=6ms violated ${v1:-no} times"
# the spikes span 0.81 s: at most 2 intervals of 1 s hold one; each gap of 6 ms or more of
# the host's own (not the injector's: the gaps CSV) until the counter was read may add one
host=$(python3 -c 'import csv, sys
acts = [(int(r["start_ns"]), int(r["end_ns"])) for r in csv.DictReader(open(sys.argv[1]))]
end = max(e for _, e in acts)
print(sum(1 for r in csv.DictReader(open(sys.argv[2]))
          if int(r["duration_ns"]) >= 6000000 and int(r["start_ns"]) < end + 1500000000
          and not any(s - 1000000 <= int(r["start_ns"]) <= e + 1000000 for s, e in acts)))' \
	"$TMP/inj.csv" "$TMP/c.csv") || fail "reading the gaps CSV"
[ $((v1 - v0)) -le $((2 + host)) ] ||
	fail "1 s of spikes: $((v1 - v0)) violations of max=6ms, at most 2 intervals hold one (+$host of the host's own gaps)"
[ -n "$v2" ] || fail "--listen did not answer 2 s after the spikes"
# a gap of 6 ms or more after the spikes that is not theirs (the host holds this VM's vCPUs
# that long at times) is a violation too: the counter may grow by as many as there are, up
# to the final textfile (whose last, partial interval may hold one)
late=$(python3 -c 'import csv, sys
end = max(int(r["end_ns"]) for r in csv.DictReader(open(sys.argv[1])))
print(sum(1 for r in csv.DictReader(open(sys.argv[2]))
          if int(r["start_ns"]) > end + 1000000 and int(r["duration_ns"]) >= 6000000))' \
	"$TMP/inj.csv" "$TMP/c.csv") || fail "reading the gaps CSV"
v3=$(sed -n 's/^jitterscope_budget_violations_total{limit="max=6ms"} //p' "$TMP/c.prom")
[ -n "$v3" ] || fail "the final textfile has no jitterscope_budget_violations_total{limit=\"max=6ms\"}"
[ "$v2" -ge "$v1" ] && [ "$v3" -ge "$v2" ] ||
	fail "the counter went back: $v1, then $v2, then $v3 in the final textfile"
[ $((v3 - v1)) -le "$late" ] ||
	fail "the counter grew from $v1 to $v2 (--listen), then $v3 (the final textfile) after the" \
		"spikes stopped, with $late gap(s) of 6 ms or more after them"
[ "$v3" = "$v1" ] ||
	note "the counter grew from $v1 to $v2 (--listen), $v3 (the final textfile) after the" \
		"spikes: $late gap(s) of 6 ms or more after them, not the injector's (the host's)"
[ $rc -eq 2 ] || fail "SIGTERM: exit $rc, want 2 (the run is over max=6ms): $(cat "$TMP/c.err")"
grep -q '^budget max=6ms on CPU 1: .*  EXCEEDED$' "$TMP/c.out" ||
	fail "the final report does not judge the whole run: $(grep '^budget' "$TMP/c.out")"
note "a run without end: the counter stopped at $v3 once the spikes (and the host's late gaps) stopped"

# a result that appears during the run: the marks' (none exists at the start)
port=$(free_port)
: >"$TMP/marks.csv"
"$JS" --cpu 1 --marks "$TMP/marks.csv" -d 0 -q --budget 'max=1ms' --budget-interval 1s \
	--listen "127.0.0.1:$port" >"$TMP/m.out" 2>"$TMP/m.err" &
run=$!
for _ in $(seq 100); do
	[ -n "$(viol max=1ms)" ] && break
	kill -0 $run 2>/dev/null || fail "the marks' run ended: $(cat "$TMP/m.err")"
	sleep 0.1
done
m0=$(viol max=1ms)
python3 -c 'import time; t = time.monotonic_ns(); print("%d,%d,slow" % (t - 6000000, t - 1000000))' \
	>>"$TMP/marks.csv"
sleep 2
m1=$(viol max=1ms)
kill -TERM $run
wait $run
rc=$?
run=''
note "max=1ms per 1 s interval with --marks: $m0 before a 5 ms mark, $m1 2 s after it"
[ "$m0" = 0 ] || fail "max=1ms violated ${m0:-no answer} times before any mark"
[ "${m1:-0}" -eq 1 ] || fail "a 5 ms mark: max=1ms violated ${m1:-no} times, want 1"
[ $rc -eq 2 ] || fail "SIGTERM after a 5 ms mark: exit $rc, want 2: $(cat "$TMP/m.err")"
note "PASS"
exit 0
