#!/bin/bash
# robust_signals.sh - a stop signal at any point of a run ends it promptly with a valid
# (possibly empty) report and every output flushed, and leaves no BPF program behind:
#   outputs   SIGINT while the output files are opened (before the audit)
#   audit     SIGINT during the isolation audit, before anything is loaded
#   load      SIGINT while the probes load (strace injects it at a bpf() call mid-load)
#   attach    SIGINT while they attach (at the 3rd BPF_LINK_CREATE)
#   start     SIGINT while the sampler thread is created (clone3)
#   warm-up   SIGINT during --warm-up 5
#   measure   SIGTERM while measuring (-d 0)
#   report    SIGINT while the outputs are written (at the --prom rename)
#   twice     two SIGINTs: exit 130 at once
# Each: exit status, time to exit, JSON parses with the right "interrupted", gaps CSV rows
# == gap_count, the Prometheus and hlog files are complete, and the kernel program ids the
# run held (read from /proc/PID/fdinfo while it ran) no longer exist afterwards.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
need_btf
need_cmd strace strace
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
need_cmd "$BPFTOOL" bpftool

OUTS=(--json "$TMP/run.json" --gaps "$TMP/gaps.csv" --prom "$TMP/run.prom" --hlog "$TMP/run.hlog")

# watch PID - collect the BPF program ids PID holds until it exits (into $TMP/ids), and
# how many times it looked over how long (into $TMP/polls, for a failure's message)
watch() {
	local pid=$1 n=0 t0
	t0=$(date +%s%N)
	: >"$TMP/ids"
	while kill -0 "$pid" 2>/dev/null; do
		prog_ids "$pid" >>"$TMP/ids"
		n=$((n + 1))
		sleep 0.05
	done
	echo "$n looks over $(( ($(date +%s%N) - t0) / 1000000 )) ms" >"$TMP/polls"
}

# child_of PID - the first child of PID (jitterscope under strace), waiting for it
child_of() {
	local c
	for _ in $(seq 1 200); do
		c=$(pgrep -P "$1" | head -1)
		[ -n "$c" ] && { echo "$c"; return; }
		sleep 0.01
	done
}

# no_progs_left WHAT [LOADED] - none of the ids collected by watch exists any more (prints how
# many; callers check its status: a fail inside $(...) only ends the subshell). LOADED: the run
# loaded its probes, so watch must have seen programs (none seen would prove nothing)
no_progs_left() {
	local ids left
	ids=$(sort -un "$TMP/ids")
	[ -z "${2:-}" ] || [ -n "$ids" ] ||
		fail "$1: no BPF program of the run seen while it ran ($(cat "$TMP/polls" 2>/dev/null))"
	for _ in $(seq 1 50); do
		left=""
		for id in $ids; do
			"$BPFTOOL" prog show id "$id" >/dev/null 2>&1 && left="$left $id"
		done
		[ -z "$left" ] && { echo "$(echo "$ids" | grep -c .)"; return 0; }
		sleep 0.1
	done
	fail "$1: BPF programs left behind:$left"
}

# outputs_ok WHAT INTERRUPTED - every output valid, JSON interrupted == INTERRUPTED
outputs_ok() {
	python3 - "$TMP" "$2" <<'PY' || fail "$1: outputs invalid"
import json, sys, os
d, want = sys.argv[1], sys.argv[2] == "true"
r = json.load(open(os.path.join(d, "run.json")))
assert r["interrupted"] is want, "interrupted %s, want %s" % (r["interrupted"], want)
for c in r["cpus"]:
    rows = open(os.path.join(d, "gaps.csv")).read().splitlines()
    assert rows and rows[0].startswith("cpu,"), "no CSV header"
    assert len(rows) - 1 == c["gap_count"], (len(rows) - 1, c["gap_count"])
    assert c["end_ns"] >= c["start_ns"], ("end before start", c["start_ns"], c["end_ns"])
prom = open(os.path.join(d, "run.prom")).read()
assert "# TYPE" in prom and prom.endswith("\n"), "prom file incomplete"
assert not os.path.exists(os.path.join(d, "run.prom.tmp")), "prom temporary left"
hlog = open(os.path.join(d, "run.hlog")).read()
assert hlog.startswith("#"), "hlog without header"
print("%s gaps, %.3f s" % (sum(c["gap_count"] for c in r["cpus"]),
                           max(c["duration_ns"] for c in r["cpus"]) / 1e9))
PY
}

clean() { rm -f "$TMP"/run.* "$TMP"/gaps.csv "$TMP/ids" "$TMP/polls"; }

# injected SYSCALL N WHAT INTERRUPTED [DURATION] - SIGINT at the Nth SYSCALL, via strace
injected() {
	local sc=$1 nth=$2 what=$3 dur=${5:-30} start spid pid rc ms
	clean
	start=$(date +%s%N)
	# LeakSanitizer cannot run under ptrace (make asan): no leak check for these runs
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -o /dev/null -e trace="$sc" -e inject="$sc":signal=SIGINT:when="$nth" \
		"$JS" --cpu 1 -d "$dur" -q "${OUTS[@]}" >"$TMP/out.txt" 2>"$TMP/err.txt" &
	spid=$!
	pid=$(child_of $spid)
	[ -n "$pid" ] || { kill $spid; fail "$what: jitterscope not seen under strace"; }
	watch "$pid"
	wait $spid; rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	[ $rc -eq 0 ] || fail "$what: exit $rc ($(cat "$TMP/err.txt"))"
	[ $ms -lt 20000 ] || fail "$what: took $ms ms for a $dur s run stopped at the ${nth}th $sc"
	local res n
	res=$(outputs_ok "$what" "$4") || exit 1
	# stopped before attaching: the probes are never attached (no IPIs to every CPU)
	case $what in
	audit|"opening the outputs")
		grep -q '"why_disabled": *"interrupted before loading"' "$TMP/run.json" ||
			fail "$what: the probes were loaded after the stop request";;
	load|"sampler start")
		grep -q '"why_disabled": *"interrupted before attaching"' "$TMP/run.json" ||
			fail "$what: the probes were attached after the stop request";;
	esac
	local loaded=1
	case $what in audit|"opening the outputs") loaded="";; esac
	# a watch that saw none of the programs the run loaded cannot tell whether they are
	# gone: it happened once in CI (a stalled poller?); say so and run the case once more
	if [ -n "$loaded" ] && [ ! -s "$TMP/ids" ] && [ -z "${AGAIN:-}" ]; then
		echo "note: $what: no BPF program seen while it ran ($(cat "$TMP/polls")): once more"
		AGAIN=1 injected "$@"
		return
	fi
	n=$(no_progs_left "$what" $loaded) || exit 1
	echo "ok: $what: exit 0 in $ms ms (under strace), $res, $n programs gone"
}

# timed SIG AFTER WHAT ARGS... - send SIG AFTER seconds into a run
timed() {
	local sig=$1 after=$2 what=$3 pid rc t0 ms
	shift 3
	clean
	"$JS" --cpu 1 -q "${OUTS[@]}" "$@" >"$TMP/out.txt" 2>"$TMP/err.txt" &
	pid=$!
	watch $pid &
	sleep "$after"
	t0=$(date +%s%N)
	kill -"$sig" $pid
	wait $pid; rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	wait
	echo "$rc $ms"
}

# where the probes load and attach: the bpf() calls of a short run
strace -f -qq -o "$TMP/bpf.log" -e trace=bpf "$JS" --cpu 1 -d 0.2 -q >/dev/null 2>&1
first_link=$(grep -n 'BPF_LINK_CREATE\|BPF_RAW_TRACEPOINT_OPEN' "$TMP/bpf.log" | head -1 | cut -d: -f1)
[ -n "$first_link" ] || fail "no BPF link created in a normal run (probes not working?)"
clone=clone3
strace -f -qq -o "$TMP/clone.log" -e trace=clone3 "$JS" --cpu 1 -d 0.1 -q --no-probes \
	>/dev/null 2>&1
grep -q clone3 "$TMP/clone.log" || clone=clone

# the audit (before anything is loaded): its first read of /proc/cmdline
strace -f -qq -o "$TMP/open.log" -e trace=openat "$JS" --cpu 1 -d 0.1 -q "${OUTS[@]}" \
	>/dev/null 2>&1
first_cmdline=$(grep -n '"/proc/cmdline"' "$TMP/open.log" | head -1 | cut -d: -f1)
[ -n "$first_cmdline" ] || fail "the audit does not read /proc/cmdline"

json_open=$(grep -n '/run.json"' "$TMP/open.log" | head -1 | cut -d: -f1)
[ -n "$json_open" ] || fail "the JSON output is not opened"

injected openat "$json_open" "opening the outputs" true
injected openat "$first_cmdline" "audit" true
injected bpf $((first_link / 2)) "load" true
injected bpf $((first_link + 2)) "attach" true
injected $clone 1 "sampler start" true
# the reporting phase: the --prom rename is only done once the result is final
injected rename 1 "report" false 1

read -r rc ms < <(timed INT 1.5 "warm-up" -d 30 --warm-up 5)
[ "$rc" -eq 0 ] || fail "warm-up: exit $rc ($(cat "$TMP/err.txt"))"
[ "$ms" -lt 2000 ] || fail "warm-up: exited $ms ms after SIGINT"
res=$(outputs_ok "warm-up" true) || exit 1
python3 -c "
import json,sys; c=json.load(open('$TMP/run.json'))['cpus'][0]
assert c['duration_ns'] < 0.2e9, 'recorded %d ns during the warm-up' % c['duration_ns']" ||
	fail "warm-up: the warm-up was recorded"
n=$(no_progs_left warm-up loaded) || exit 1
echo "ok: warm-up: exit 0 $ms ms after SIGINT, $res, $n programs gone"

read -r rc ms < <(timed TERM 2.5 "measure" -d 0)
[ "$rc" -eq 0 ] || fail "measure: exit $rc ($(cat "$TMP/err.txt"))"
[ "$ms" -lt 2000 ] || fail "measure: exited $ms ms after SIGTERM"
res=$(outputs_ok "measure" true) || exit 1
grep -q interrupted "$TMP/out.txt" || fail "measure: the text report does not say interrupted"
n=$(no_progs_left measure loaded) || exit 1
echo "ok: measure: exit 0 $ms ms after SIGTERM, $res, $n programs gone"

# two Ctrl-C: the second exits at once with 130 (the kernel closes the BPF fds)
clean
"$JS" --cpu 1 -q -d 0 "${OUTS[@]}" >"$TMP/out.txt" 2>"$TMP/err.txt" &
pid=$!
watch $pid &
sleep 2
t0=$(date +%s%N)
# signals are not queued: the second must come after the first was taken, i.e. once the
# sampler thread has ended (the stop began); the run then needs 17-30 ms more (final drain,
# detach, report). Polled every ms without a fork (a fork on the busy housekeeping CPU can
# delay the first signal's delivery until the two merge).
exec 9<> <(:)
kill -INT $pid
for _ in {1..3000}; do
	t=(/proc/$pid/task/*)
	[ ${#t[@]} -le 1 ] && break
	read -r -t 0.001 -u 9
done
kill -INT $pid
wait $pid; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
wait
[ $rc -eq 130 ] || fail "twice: exit $rc, want 130"
[ $ms -lt 1000 ] || fail "twice: exited $ms ms after the second SIGINT"
n=$(no_progs_left twice loaded) || exit 1
echo "ok: twice: exit 130 in $ms ms, $n programs gone"
exit 0
