#!/bin/bash
# app_gone.sh - a followed process whose exit no program saw still ends the run. The
# programs send a process's exit as it happens; one that exited before they were attached
# (or whose record the ring lost) used to leave `--pid PID -d 0` running until Ctrl-C.
# Here the process is a zombie from the start (its parent never reaps it): the run must
# end by itself within seconds, exit 0, say why on stderr, and write its JSON with the
# process exited (follow.exited, ended_by "exit"). Then a process that exits while
# followed: the run ends there too, and without that notice (the programs saw the exit).
# Root, kernel BTF; about 3 s.
# cpu1: shared - it judges that each run ends at its process's exit and what its JSON says of it, not what it measures (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_btf
parent=''
at_exit '[ -n "$parent" ] && kill "$parent" 2>/dev/null'

# a child that exits at once under a parent that exec's a long sleep and never waits
sh -c 'sleep 0.1 & echo $! >"$1"; exec sleep 30' sh "$TMP/child" &
parent=$!
zombie=''
for _ in $(seq 1 100); do
	zombie=$(cat "$TMP/child" 2>/dev/null)
	[ -n "$zombie" ] && [ "$(awk '{print $3}' "/proc/$zombie/stat" 2>/dev/null)" = Z ] && break
	sleep 0.05
done
[ "$(awk '{print $3}' "/proc/$zombie/stat" 2>/dev/null)" = Z ] || fail "no zombie to follow"

start=$(date +%s%N)
timeout 30 "$JS" --pid "$zombie" -d 0 --json "$TMP/z.json" >"$TMP/z.out" 2>"$TMP/z.err"
rc=$?
secs=$(( ($(date +%s%N) - start) / 1000000000 ))
[ "$rc" -ne 124 ] || fail "the run did not end by itself in 30 s: $(tail -2 "$TMP/z.err")"
[ "$rc" -eq 0 ] || fail "exit $rc: $(tail -3 "$TMP/z.err")"
[ "$secs" -le 10 ] || fail "the run took $secs s to notice the exit"
grep -q 'exited with no program seeing it' "$TMP/z.err" || fail "no notice: $(cat "$TMP/z.err")"
python3 - "$TMP/z.json" "$zombie" <<'PY' || fail "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
f = d['follow']
assert f['pid'] == int(sys.argv[2]) and f['exited'] is True and f['exit_ns'], f
assert d['ended_by'] == 'exit', d['ended_by']
PY
echo "ok: a zombie followed: the run ended after $secs s, exit 0, the process exited"

# a process that exits while followed: its exit is the programs' (no notice)
sleep 1.5 &
live=$!
timeout 30 "$JS" --pid "$live" -d 0 --json "$TMP/l.json" >"$TMP/l.out" 2>"$TMP/l.err"
rc=$?
[ "$rc" -eq 0 ] || fail "followed to its exit: exit $rc: $(tail -3 "$TMP/l.err")"
! grep -q 'exited with no program seeing it' "$TMP/l.err" ||
	fail "an exit the programs saw taken for an unseen one"
python3 -c "
import json, sys
d = json.load(open('$TMP/l.json'))
assert d['follow']['exited'] is True and d['ended_by'] == 'exit', (d['follow'], d['ended_by'])
" || fail "JSON of the live process"
echo "ok: a process followed to its exit: the programs saw it, no notice"
exit 0
