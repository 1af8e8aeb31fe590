#!/bin/bash
# app_run_cmd.sh - `jitterscope [OPTIONS] -- CMD [ARGS...]` end to end (issue 41):
#   - a single-threaded program (jsapp on CPU 1, 1 s): followed from its start to its exit,
#     one thread result jsapp:PID with gaps, measured about 1 s; the report opens with the
#     answer and ends with the command's line and `verdict: clean` under a --budget it keeps;
#     exit 0, its own;
#   - a shell that forks a sleep and a 3-thread jsapp, then exits 3, with a --budget that
#     fails: the forked processes are followed too (three jsapp threads of one process, the
#     sleep under the name it exec'd), `verdict: noisy`, exit 2 (the budget's) while the
#     JSON keeps the command's 3;
#   - spinner mode (--cpu 1): the spinner measures CPU 1 for as long as the command runs
#     (about 1 s), which then kills itself with SIGKILL: exit 137, no thread followed;
#   - a plain exit status passes through (3, --no-probes: quick);
#   - Ctrl-C: SIGINT to jitterscope reaches the command (sleep 30), which dies of it; the run
#     ends there with the report and the JSON written, exit 130, no BPF program left.
# CMD runs with the affinity jitterscope was started with: the script itself stays on CPU 0
# (on_housekeeping), so jitterscope is started with CPUs 0-1 (taskset) for the followed
# command's CPUs to hold CPU 1. Root, kernel BTF, 2 CPUs; about 25 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
on_housekeeping
need_tools jsapp
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
need_cmd "$BPFTOOL" bpftool
js() { taskset -c 0,1 "$JS" "$@"; }

# --- a single-threaded program, followed for its lifetime -----------------------------------
js -q --no-progress --json "$TMP/one.json" --budget gaps=100000000 \
	-- "$APP" --cpu 1 --duration 1 >"$TMP/one.txt" 2>"$TMP/one.err"
rc=$?
[ $rc -eq 0 ] || fail "single-threaded: exit $rc, want 0: $(cat "$TMP/one.err")"
grep -q '^iterations=' "$TMP/one.txt" || fail "single-threaded: CMD's own output is missing"
grep -qE '^answer: ' "$TMP/one.txt" || fail "single-threaded: no answer block"
# CMD's output first (it ran before the report), then the report, its answer first
grep -B1 '^answer: ' "$TMP/one.txt" | head -1 | grep -q '^jitterscope .*: process jsapp' ||
	fail "single-threaded: the answer is not first: $(grep -B1 '^answer: ' "$TMP/one.txt")"
tail -2 "$TMP/one.txt" | head -1 | grep -qE "^command: $APP --cpu 1 --duration 1 \(pid [0-9]+\) exited 0 after" ||
	fail "single-threaded: command line: $(tail -2 "$TMP/one.txt")"
tail -1 "$TMP/one.txt" | grep -qE '^verdict: clean \(lost [0-9.]+ %: .* within --budget gaps=100000000\)$' ||
	fail "single-threaded: verdict: $(tail -1 "$TMP/one.txt")"
python3 - "$TMP/one.json" <<'PY' || fail "single-threaded JSON (above)"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["command"]
assert c["mode"] == "follow" and c["exited"] and c["exit_status"] == 0, c
assert c["signal"] is None and c["exit_ns"] > c["start_ns"] > 0, c
assert r["follow"]["pid"] == c["pid"] and r["follow"]["exited"], r["follow"]
th = r["threads"]
assert [t["thread"] for t in th] == ["jsapp:%d" % c["pid"]], [t["thread"] for t in th]
t = th[0]
assert 0.9e9 <= t["duration_ns"] <= 1.6e9, t["duration_ns"]
assert t["gap_count"] > 0 and t["cpu"] == 1, (t["gap_count"], t["cpu"])
# the command ran inside the window: from its exec to its exit
assert t["start_ns"] <= c["start_ns"] and c["exit_ns"] - c["start_ns"] >= 0.95e9, (t, c)
PY

# --- a shell that forks, a multi-threaded program, exit 3 under a failing --budget -----------
js -q --no-progress --json "$TMP/fork.json" -T 100ns --budget gaps=0 -- sh -c \
	"sleep 0.3 & $APP --cpu 1 --duration 0.8 --threads 3 >/dev/null; wait; exit 3" \
	>"$TMP/fork.txt" 2>"$TMP/fork.err"
rc=$?
[ $rc -eq 2 ] || fail "fork: exit $rc, want 2 (the --budget's over CMD's 3): $(cat "$TMP/fork.err")"
tail -2 "$TMP/fork.txt" | head -1 | grep -qE '^command: sh -c sleep 0.3 & .* \(pid [0-9]+\) exited 3 after' ||
	fail "fork: command line: $(tail -2 "$TMP/fork.txt")"
tail -1 "$TMP/fork.txt" | grep -qE '^verdict: noisy \(lost .*--budget gaps=0 exceeded [0-9]+ times?\)$' ||
	fail "fork: verdict: $(tail -1 "$TMP/fork.txt")"
python3 - "$TMP/fork.json" <<'PY' || fail "fork JSON (above)"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["command"]
assert c["exit_status"] == 3 and c["exited"], c
names = sorted(t["thread"].split(":")[0] for t in r["threads"])
app = [t for t in r["threads"] if t["thread"].startswith("jsapp:")]
assert names.count("jsapp") == 3 and "sleep" in names and "sh" in names, names
assert all(t["gap_count"] > 0 for t in app), [(t["thread"], t["gap_count"]) for t in app]
assert r["follow"]["threads_seen"] >= 5, r["follow"]
PY

# --- spinner mode: CPU 1 measured while the command runs; killed by SIGKILL ------------------
js -q --no-progress --cpu 1 --json "$TMP/spin.json" -- sh -c 'sleep 1; kill -KILL $$' \
	>"$TMP/spin.txt" 2>"$TMP/spin.err"
rc=$?
[ $rc -eq 137 ] || fail "spinner: exit $rc, want 137 (128 + SIGKILL): $(cat "$TMP/spin.err")"
tail -2 "$TMP/spin.txt" | head -1 | grep -qE '\) killed by signal 9 \(.*\): status 137 after' ||
	fail "spinner: command line: $(tail -2 "$TMP/spin.txt")"
tail -1 "$TMP/spin.txt" | grep -q '^verdict: unjudged (.*no --budget)$' ||
	fail "spinner: verdict: $(tail -1 "$TMP/spin.txt")"
python3 - "$TMP/spin.json" <<'PY' || fail "spinner JSON (above)"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["command"]
assert c["mode"] == "cpus" and c["exit_status"] == 137 and c["signal"] == 9, c
assert r["follow"] is None and not r["threads"], (r["follow"], r["threads"])
assert [x["cpu"] for x in r["cpus"]] == [1], r["cpus"]
d = r["cpus"][0]["duration_ns"]
assert 0.9e9 <= d <= 1.6e9, "CPU 1 measured %.2f s, the command ran 1 s" % (d / 1e9)
PY

# --- a plain exit status passes through ------------------------------------------------------
js -q --cpu 1 --no-probes -- sh -c 'exit 3' >/dev/null 2>"$TMP/plain.err"
rc=$?
[ $rc -eq 3 ] || fail "exit 3: jitterscope exited $rc: $(cat "$TMP/plain.err")"

# --- Ctrl-C: SIGINT to jitterscope ends the command, then the run, with the report ----------
# job control on: a script's background job would ignore SIGINT, and so would its CMD (what
# jitterscope was started with, CMD is: docs/APPLICATION.md)
set -m
taskset -c 0,1 "$JS" --no-progress --json "$TMP/int.json" -- sleep 30 \
	>"$TMP/int.txt" 2>"$TMP/int.err" &
jsp=$!
set +m
cmd=''
for _ in $(seq 1 300); do
	cmd=$(pgrep -P "$jsp" -x sleep | head -1)
	# exec'd: held, it is still jitterscope's image (named sleep already)
	[ -n "$cmd" ] && [ "$(readlink /proc/"$cmd"/exe 2>/dev/null)" != "$(readlink -f "$JS")" ] &&
		[ -n "$(readlink /proc/"$cmd"/exe 2>/dev/null)" ] && break
	cmd=''
	sleep 0.05
done
[ -n "$cmd" ] || { kill -KILL $jsp; fail "Ctrl-C: sleep 30 did not start: $(cat "$TMP/int.err")"; }
ids=$(prog_ids $jsp | sort -un)
t0=$(date +%s%N)
kill -INT $jsp
wait $jsp; rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 130 ] || fail "Ctrl-C: exit $rc, want 130 (CMD killed by SIGINT): $(cat "$TMP/int.err")"
[ $ms -lt 5000 ] || fail "Ctrl-C: jitterscope took $ms ms to end"
kill -0 "$cmd" 2>/dev/null && { kill "$cmd"; fail "Ctrl-C: sleep 30 still runs"; }
tail -2 "$TMP/int.txt" | head -1 | grep -qE '^command: sleep 30 \(pid [0-9]+\) killed by signal 2 ' ||
	fail "Ctrl-C: command line: $(tail -2 "$TMP/int.txt")"
grep -q '^verdict: ' "$TMP/int.txt" || fail "Ctrl-C: no verdict"
python3 - "$TMP/int.json" <<'PY' || fail "Ctrl-C JSON (above)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["command"]["exit_status"] == 130 and r["command"]["signal"] == 2, r["command"]
assert r["threads"] and r["follow"]["exited"], (r["threads"], r["follow"])
PY
[ -n "$ids" ] || fail "Ctrl-C: the run held no BPF program (probes not loaded?)"
# shellcheck disable=SC2086 # one id a word
left=$(progs_left $ids)
[ -z "$left" ] || fail "Ctrl-C: BPF programs left behind:$left"

echo "ok: -- CMD followed (one thread, forks and threads), spinner beside it, exit 0/2/137/3/130"
exit 0
