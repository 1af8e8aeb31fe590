#!/bin/bash
# robust_starved.sh - a housekeeping thread that gets no CPU says so. jitterscope at idle
# priority (chrt -i 0, as docs/APPLICATION.md suggests beside a busy server) with its
# housekeeping on CPU 0 (-H 0) runs only when CPU 0 has idle time: busy loops there at the
# default priority take nearly all of it (SCHED_IDLE's weight is 3 of a loop's 1024; a
# thread at idle priority that sleeps 10 ms at a time woke 0.11 s late at worst beside one
# loop, 1.9 s beside four, here on 2026-12-07). The run starts at the default priority (a
# setup at idle priority beside make check's lane on CPU 0 could take minutes); once its
# sampler runs, its housekeeping thread goes to idle priority (chrt -p: that thread alone),
# and four 2 s loops on CPU 0 must make it wake over JS_NAP_LATE_NS (0.5 s) late; then it is
# given the default back to finish. One notice on stderr, once,
# and the run still ends at its duration, exit 0, its JSON valid. A run at the default
# priority beside nothing of the kind says nothing of it. Root; about 9 s.
# cpu1: shared - it judges the housekeeping thread on CPU 0, not what CPU 1 lost (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
command -v chrt >/dev/null || skip "no chrt (util-linux)"
hog=''
at_exit '[ -z "$hog" ] || kill $hog 2>/dev/null'
late='the housekeeping thread woke'

"$JS" --cpu 1 -H 0 -d 5 --json "$TMP/s.json" >"$TMP/s.out" 2>"$TMP/s.err" &
js=$!
threads() { ls "/proc/$js/task" 2>/dev/null | wc -l; }
for _ in $(seq 1 200); do
	[ "$(threads)" -ge 2 ] && break
	kill -0 "$js" 2>/dev/null || break
	sleep 0.05
done
[ "$(threads)" -ge 2 ] || fail "the run did not start its sampler in 10 s: $(tail -2 "$TMP/s.err")"
sleep 0.3
chrt -i -p 0 "$js" || fail "cannot set the housekeeping thread's policy"
for _ in 1 2 3 4; do
	taskset -c 0 timeout 2 sh -c 'while :; do :; done' &
	hog="$hog $!"
done
wait $hog
hog=''
chrt -o -p 0 "$js" 2>/dev/null
start=$(date +%s)
wait "$js"
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(tail -3 "$TMP/s.err")"
[ $(( $(date +%s) - start )) -le 20 ] || fail "the run took over 20 s to end after the loop"
n=$(grep -c "$late" "$TMP/s.err")
[ "$n" -eq 1 ] || fail "$n notices of the late wake (want 1): $(cat "$TMP/s.err")"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["cpus"][0]["gap_count"] > 0' \
	"$TMP/s.json" || fail "JSON"
echo "ok: starved: $(grep "$late" "$TMP/s.err" | cut -c1-100)..."

"$JS" --cpu 1 -H 0 -d 2 --json "$TMP/n.json" >"$TMP/n.out" 2>"$TMP/n.err" ||
	fail "the control run: exit $?: $(tail -2 "$TMP/n.err")"
! grep -q "$late" "$TMP/n.err" || fail "the control run said it woke late: $(cat "$TMP/n.err")"
echo "ok: a run with CPU 0 to itself says nothing of it"
echo "robust_starved: PASS"
