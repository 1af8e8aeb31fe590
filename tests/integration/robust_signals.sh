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
# Each: exit status, time to exit after the signal (strace's own timestamp of the injected
# signal, or the test's clock), JSON parses with the right "interrupted", gaps CSV rows ==
# gap_count, the Prometheus and hlog files are complete, and no BPF program is left: the
# kernel's programs named as jitterscope's (its skeletons' names; tests/lib/bpfobjs.py) after
# the case are those before it. That the run had loaded programs (else "none left" proves
# nothing) is the kernel's word too: strace's BPF_PROG_LOAD calls that returned an fd, or the
# programs the run held (/proc/PID/fdinfo) just before the signal. No case is run twice.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_cmd strace strace

OUTS=(--json "$TMP/run.json" --gaps "$TMP/gaps.csv" --prom "$TMP/run.prom" --hlog "$TMP/run.hlog")

# jitterscope's program names, from the skeletons built beside the binary (and in build/),
# cut to the 15 characters the kernel keeps
NAMES=$(sed -n 's/^[[:space:]]*s->progs\[[0-9]*\]\.name = "\([^"]*\)";$/\1/p' \
	"$(dirname "$JS")"/*.skel.h "$ROOT"/build/*.skel.h 2>/dev/null | cut -c1-15 | sort -u)
[ -n "$NAMES" ] || fail "no build/*.skel.h to take jitterscope's program names from: run make"
# progs - the ids of the loaded programs named as jitterscope's, one a line, sorted as text
# shellcheck disable=SC2086
progs() { python3 -m bpfobjs progs $NAMES | cut -d" " -f1 | sort; }
# before - the programs there before a case (none, unless another run is loading now)
before() { progs >"$TMP/before" || fail "cannot list the kernel's BPF programs"; }

# child_of PID - the first child of PID (jitterscope under strace), waiting for it
child_of() {
	local c
	for _ in $(seq 1 200); do
		c=$(pgrep -P "$1" | head -1)
		[ -n "$c" ] && { echo "$c"; return; }
		sleep 0.01
	done
}

# no_progs_left WHAT - no program named as jitterscope's exists that was not there before the
# case ($TMP/before). The kernel frees a program when its last fd and link are gone, which
# may outlast the exit by a moment: up to 5 s allowed. Callers check the status (a fail
# inside $(...) only ends the subshell)
no_progs_left() {
	local left end=$(($(date +%s%N) + 5000000000))
	while :; do
		left=$(progs | comm -13 "$TMP/before" -)
		[ -z "$left" ] && return 0
		[ "$(date +%s%N)" -lt $end ] || break
		sleep 0.1
	done
	fail "$1: BPF programs left behind 5 s after it ended:" $left
}

# held PID - wait (up to 10 s) until PID holds BPF programs, then their ids (none: fails)
held() {
	local ids
	for _ in $(seq 1 200); do
		ids=$(prog_ids "$1" | sort -u)
		[ -n "$ids" ] && { echo "$ids"; return 0; }
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	fail "no BPF program held by the run (pid $1) within 10 s"
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

clean() { rm -f "$TMP"/run.* "$TMP"/gaps.csv "$TMP/strace.log"; }

# injected SYSCALL N WHAT INTERRUPTED [DURATION] - SIGINT at the Nth SYSCALL, via strace,
# which also logs (with its timestamps) the signal and the programs loaded
injected() {
	local sc=$1 nth=$2 what=$3 dur=${5:-30} spid pid rc t1 tsig ms trace=$1,bpf
	[ "$sc" = bpf ] && trace=bpf
	clean
	before
	# LeakSanitizer cannot run under ptrace (make asan): no leak check for these runs
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -ttt -o "$TMP/strace.log" -e trace="$trace" \
		-e inject="$sc":signal=SIGINT:when="$nth" \
		"$JS" --cpu 1 -d "$dur" -q "${OUTS[@]}" >"$TMP/out.txt" 2>"$TMP/err.txt" &
	spid=$!
	pid=$(child_of $spid)
	[ -n "$pid" ] || { kill $spid; fail "$what: jitterscope not seen under strace"; }
	wait $spid
	rc=$?
	t1=$EPOCHREALTIME
	[ $rc -eq 0 ] || fail "$what: exit $rc ($(cat "$TMP/err.txt"))"
	# the signal strace injected, on its own clock (CLOCK_REALTIME, as EPOCHREALTIME)
	tsig=$(sed -n 's/^[0-9]*  *\([0-9]*\.[0-9]*\) --- SIGINT .*/\1/p' "$TMP/strace.log" | head -1)
	[ -n "$tsig" ] || fail "$what: no SIGINT in strace's log: the injection did not happen"
	ms=$(python3 -c 'import sys; print(round((float(sys.argv[1]) - float(sys.argv[2])) * 1000))' \
		"$t1" "$tsig")
	# a stop is prompt: 2 s, 5 s under strace (each traced call stops the process; a
	# load interrupted midway took 1.7 s here while the machine was busy)
	[ "$ms" -lt 5000 ] || fail "$what: exited $ms ms after the SIGINT at the ${nth}th $sc"
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
	# the programs of the run the kernel accepted: BPF_PROG_LOAD calls that returned an fd
	n=$(sed -n 's/.*bpf(BPF_PROG_LOAD, {.*prog_name="\([^"]*\)".*) = [0-9][0-9]*$/\1/p' \
		"$TMP/strace.log" | grep -Fxc -f <(echo "$NAMES"))
	case $what in
	audit|"opening the outputs")
		[ "$n" -eq 0 ] || fail "$what: $n programs loaded after the stop request";;
	*)	[ "$n" -gt 0 ] || fail "$what: strace saw no program of the run loaded";;
	esac
	no_progs_left "$what" || exit 1
	echo "ok: $what: exit 0 $ms ms after the SIGINT (under strace), $res, $n programs" \
		"loaded, none left"
}

# measuring PID - until the run PID measures (lib.bash wait_measuring), or fail
measuring() {
	wait_measuring "$1" "$TMP/gaps.csv" ||
		fail "the run (pid $1) wrote no gap to its CSV within 10 s of holding its programs"
}

# timed SIG AFTER ARGS... - send SIG once the run holds its programs and AFTER seconds later,
# or (AFTER "measuring") once it measures: sets RC, MS (from the signal to the exit) and HELD
# (how many programs it held)
timed() {
	local sig=$1 after=$2 pid t0 ids
	shift 2
	clean
	before
	"$JS" --cpu 1 -q "${OUTS[@]}" "$@" >"$TMP/out.txt" 2>"$TMP/err.txt" &
	pid=$!
	ids=$(held $pid) || { kill $pid; exit 1; }
	HELD=$(echo "$ids" | grep -c .)
	if [ "$after" = measuring ]; then
		measuring $pid || { kill $pid; exit 1; }
	else
		sleep "$after"
	fi
	t0=$(date +%s%N)
	kill -"$sig" $pid
	wait $pid
	RC=$?
	MS=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# where the cases inject: the bpf(), openat() and clone3() calls of one short run
strace -f -qq -o "$TMP/calls.log" -e trace=bpf,openat,clone3 "$JS" --cpu 1 -d 0.1 -q \
	"${OUTS[@]}" >/dev/null 2>&1
# call_no SYSCALL REGEX - which call of SYSCALL (1, 2...: strace's when= counts them so) is
# the first that matches REGEX in that run (a call strace splits is counted where it began)
call_no() {
	grep -E "^([0-9]+ +)?$1\(" "$TMP/calls.log" | grep -n -m1 -E "$2" | cut -d: -f1
}
# where the probes load and attach
first_link=$(call_no bpf 'BPF_LINK_CREATE|BPF_RAW_TRACEPOINT_OPEN')
[ -n "$first_link" ] || fail "no BPF link created in a normal run (probes not working?)"
clone=clone3
grep -qE "^([0-9]+ +)?clone3\(" "$TMP/calls.log" || clone=clone

# the audit (before anything is loaded): its first read of /proc/cmdline
first_cmdline=$(call_no openat '"/proc/cmdline"')
[ -n "$first_cmdline" ] || fail "the audit does not read /proc/cmdline"

json_open=$(call_no openat '/run.json"')
[ -n "$json_open" ] || fail "the JSON output is not opened"

injected openat "$json_open" "opening the outputs" true
injected openat "$first_cmdline" "audit" true
injected bpf $((first_link / 2)) "load" true
injected bpf $((first_link + 2)) "attach" true
injected $clone 1 "sampler start" true
# the reporting phase: the --prom rename is only done once the result is final
injected rename 1 "report" false 0.2

timed INT 1.5 -d 30 --warm-up 5
[ "$RC" -eq 0 ] || fail "warm-up: exit $RC ($(cat "$TMP/err.txt"))"
[ "$MS" -lt 2000 ] || fail "warm-up: exited $MS ms after SIGINT"
res=$(outputs_ok "warm-up" true) || exit 1
python3 -c "
import json,sys; c=json.load(open('$TMP/run.json'))['cpus'][0]
assert c['duration_ns'] < 0.2e9, 'recorded %d ns during the warm-up' % c['duration_ns']" ||
	fail "warm-up: the warm-up was recorded"
no_progs_left warm-up || exit 1
echo "ok: warm-up: exit 0 $MS ms after SIGINT, $res, programs held ($HELD when first seen)," \
	"none left"

timed TERM measuring -d 0
[ "$RC" -eq 0 ] || fail "measure: exit $RC ($(cat "$TMP/err.txt"))"
[ "$MS" -lt 2000 ] || fail "measure: exited $MS ms after SIGTERM"
res=$(outputs_ok "measure" true) || exit 1
grep -q interrupted "$TMP/out.txt" || fail "measure: the text report does not say interrupted"
no_progs_left measure || exit 1
echo "ok: measure: exit 0 $MS ms after SIGTERM, $res, programs held ($HELD when first seen)," \
	"none left"

# two Ctrl-C: the second exits at once with 130 (the kernel closes the BPF fds)
clean
before
"$JS" --cpu 1 -q -d 0 "${OUTS[@]}" >"$TMP/out.txt" 2>"$TMP/err.txt" &
pid=$!
ids=$(held $pid) || { kill $pid; exit 1; }
measuring $pid || { kill $pid; exit 1; }
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
[ $rc -eq 130 ] || fail "twice: exit $rc, want 130"
[ $ms -lt 1000 ] || fail "twice: exited $ms ms after the second SIGINT"
no_progs_left twice || exit 1
echo "ok: twice: exit 130 in $ms ms, programs held ($(echo "$ids" | grep -c .) when first" \
	"seen), none left"
exit 0
