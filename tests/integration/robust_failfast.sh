#!/bin/bash
# robust_failfast.sh - a write that fails during the run stops it at once and loses nothing
# else: --gaps on a full tmpfs (ENOSPC), on /proc/version (EIO) and into a FIFO whose
# reader leaves after a few bytes (EPIPE). Each run asks for 30 s; each must exit within
# 1 s of the failed write (STOP_MS, 1.5 s: a loaded 2-CPU machine's margin), timed by the
# test: strace's timestamp of the write(2) that failed (CLOCK_REALTIME) to the test's
# EPOCHREALTIME when the process has exited; for the FIFO also from the reader's own close
# (plus the 0.5 s flush period in which the failing write comes). A write that failed
# before measuring began (EIO: the CSV header, written as /proc/version is opened, before
# the audit and the probes' load) is timed from the sampler thread's creation instead
# (strace's clone3): the run stops once it measures. Each must exit 1 with one
# stderr line naming the file and the error, print the partial report saying why, and
# still write the other outputs (--json parses and says interrupted with the reason,
# --prom and --hlog complete; its end_ns within 1 s of the failure too). Root (tmpfs
# mount), strace; about 12 s. See docs/ROBUSTNESS.md.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_cmd strace strace
need_cmd mkfifo coreutils
need_cmd mount mount
mkdir -p "$TMP/small"
mount -t tmpfs -o size=64k jsfailfast "$TMP/small" || skip "cannot mount a tmpfs"
at_exit 'umount "$TMP/small" 2>/dev/null'

DUR=30 STOP_MS=1500
# run NAME GAPS_PATH - a 30 s run whose --gaps goes to GAPS_PATH, the other outputs in $TMP,
# under strace logging its writes and thread creations (-ttt: CLOCK_REALTIME seconds)
run() {
	local name=$1 gaps=$2 start
	start=$(date +%s%N)
	strace -f -qq -ttt -e trace=write,writev,pwrite64,clone,clone3 \
		-o "$TMP/$name.strace" \
		"$JS" --cpu 1 -d $DUR -T 500ns -q --gaps "$gaps" --json "$TMP/$name.json" \
		--prom "$TMP/$name.prom" --hlog "$TMP/$name.hlog" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
	echo $? >"$TMP/$name.rc"
	echo "$EPOCHREALTIME" >"$TMP/$name.end"
	echo $(( ($(date +%s%N) - start) / 1000000 )) >"$TMP/$name.ms"
}

# exit_after NAME T - ms from T (CLOCK_REALTIME seconds) to NAME's exit
exit_after() {
	python3 -c 'import sys; print(round((float(sys.argv[1]) - float(sys.argv[2])) * 1000))' \
		"$(cat "$TMP/$1.end")" "$2"
}

# judge NAME GAPS_PATH ERROR ERRNO T_FAIL_NS - the common verdict; ERRNO: the failed write's
# errno name in strace's log; T_FAIL_NS: the failure was at or after this CLOCK_MONOTONIC
# time (the JSON's end_ns must be within 1 s of it)
judge() {
	local name=$1 gaps=$2 error=$3 errno=$4 tfail=$5 rc ms line tw ts from
	rc=$(cat "$TMP/$name.rc") ms=$(cat "$TMP/$name.ms")
	line="cannot write --gaps file '$gaps': $error"
	[ "$rc" -eq 1 ] || fail "$name: exit $rc, want 1 ($(head -3 "$TMP/$name.err"))"
	# the failed write, as the kernel returned it, and the exit on the test's clock
	tw=$(sed -n "s/^[0-9]*  *\([0-9]*\.[0-9]*\) \(write\|writev\|pwrite64\)(.* = -1 $errno .*/\1/p" \
		"$TMP/$name.strace" | head -1)
	[ -n "$tw" ] || fail "$name: strace saw no write fail with $errno: $(tail -n 3 "$TMP/$name.strace")"
	# the sampler thread's creation: the start of measuring, if the write failed before
	ts=$(sed -n 's/^[0-9]*  *\([0-9]*\.[0-9]*\) clone3\{0,1\}(.* = [0-9][0-9]*$/\1/p' \
		"$TMP/$name.strace" | head -1)
	[ -n "$ts" ] || fail "$name: strace saw no thread created"
	TS=$ts
	from="the write that failed with $errno"
	if python3 -c 'import sys; sys.exit(float(sys.argv[1]) >= float(sys.argv[2]))' "$tw" "$ts"; then
		from="measuring began (the sampler thread; the write failed with $errno $(
			exit_after "$name" "$tw") ms before the exit)"
		tw=$ts
	fi
	EXIT_MS=$(exit_after "$name" "$tw")
	[ "$EXIT_MS" -le $STOP_MS ] || fail "$name: exited $EXIT_MS ms after $from (at most $STOP_MS)"
	[ "$(wc -l <"$TMP/$name.err")" -eq 1 ] ||
		fail "$name: $(wc -l <"$TMP/$name.err") lines on stderr, want 1: $(cat "$TMP/$name.err")"
	grep -qxF "jitterscope: $line" "$TMP/$name.err" ||
		fail "$name: stderr is not '$line': $(cat "$TMP/$name.err")"
	[ "$ms" -lt $(( DUR * 1000 / 3 )) ] || fail "$name: took $ms ms of a ${DUR} s run"
	head -1 "$TMP/$name.out" | grep -qF "(interrupted: $line; partial report)" ||
		fail "$name: the report does not say it is partial and why: $(head -1 "$TMP/$name.out")"
	grep -q "^CPU 1 " "$TMP/$name.out" || fail "$name: no CPU section in the partial report"
	python3 - "$TMP/$name" "$line" "$tfail" <<'PY' || fail "$name: the other outputs"
import json, sys
base, line, tfail = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = json.load(open(base + ".json"))
# a failure before measuring began (the FIFO's reader gone after the header) counts from then
tfail = max(tfail, r["time_base"]["start_mono_ns"])
assert r["interrupted"] is True, "json: interrupted %r" % r["interrupted"]
assert r["stop_reason"] == line, "json: stop_reason %r" % r["stop_reason"]
c = r["cpus"][0]
assert c["cpu"] == 1 and c["duration_ns"] > 0, "json: no measured window"
stop = c["end_ns"]
assert stop - tfail <= 1e9, "stopped %.3f s after the failure" % ((stop - tfail) / 1e9)
prom = open(base + ".prom").read()
assert prom.endswith("\n") and "\njitterscope_run_interrupted 1\n" in prom, "prom incomplete"
assert "jitterscope_gap_duration_seconds_count" in prom, "prom: no gap histogram"
hlog = open(base + ".hlog").read()
assert hlog.startswith("#[") and hlog.endswith("\n"), "hlog incomplete"
iv = [l for l in hlog.splitlines() if l and l[0].isdigit()]
assert iv, "hlog: no interval"
print("  %s: measuring stopped %.3f s after the failure (its end_ns), %d gaps measured" %
      (base.rsplit("/", 1)[1], (stop - tfail) / 1e9, c["gap_count"]))
PY
	echo "  $name: exited $EXIT_MS ms after $from (strace; the test's clock)"
}

# 1. a full file system: the gaps fill 64 KiB, then ENOSPC. The failure came after the last
# complete row on the disk was written, so that row's end bounds it from below.
run tmpfs "$TMP/small/gaps.csv"
size=$(stat -c %s "$TMP/small/gaps.csv")
[ "$size" -ge 60000 ] || fail "tmpfs: only $size bytes written before the run stopped"
tfail=$(python3 - "$TMP/small/gaps.csv" <<'PY'
import sys
rows = open(sys.argv[1]).read().split("\n")[1:-1]     # header; a cut last row
print(max(int(r.split(",")[1]) + int(r.split(",")[2]) for r in rows))
PY
) || fail "tmpfs: the CSV before the failure does not parse"
judge tmpfs "$TMP/small/gaps.csv" "No space left on device" ENOSPC "$tfail"

# 2. a file that cannot be written (EIO): the first write fails, at most a flush period
# after sampling started: the start bounds the failure from below.
run proc /proc/version
tfail=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["time_base"]["start_mono_ns"])' \
	"$TMP/proc.json") || fail "proc: no JSON"
judge proc /proc/version "Input/output error" EIO "$tfail"

# 3. a FIFO whose reader leaves after 100 bytes (EPIPE, not SIGPIPE); the reader prints
# when it closed (CLOCK_MONOTONIC, the clock of the JSON's times, and CLOCK_REALTIME)
mkfifo "$TMP/fifo"
python3 - "$TMP/fifo" "$TMP/ready" >"$TMP/closed" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)  # a reader now: jitterscope's open works
open(sys.argv[2], "w").close()
got, deadline = b"", time.monotonic() + 20
while len(got) < 100 and time.monotonic() < deadline:
    try:
        got += os.read(fd, 100 - len(got))
    except BlockingIOError:
        pass
    time.sleep(0.001)
os.close(fd)
print(time.monotonic_ns(), "%.6f" % time.time())
PY
reader=$!
for _ in $(seq 100); do [ -e "$TMP/ready" ] && break; sleep 0.05; done
[ -e "$TMP/ready" ] || fail "fifo: the reader did not start"
run fifo "$TMP/fifo"
wait $reader || fail "fifo: the reader failed"
read -r tclose treal <"$TMP/closed"
[ -n "$treal" ] || fail "fifo: the reader did not say when it closed"
judge fifo "$TMP/fifo" "Broken pipe" EPIPE "$tclose"
# from the reader's close, an event of its own (or from when measuring began, if it read the
# header and left before): the failing write comes at the next flush, 0.5 s at most later
from="the reader closed the FIFO"
if python3 -c 'import sys; sys.exit(float(sys.argv[1]) >= float(sys.argv[2]))' "$treal" "$TS"; then
	from="measuring began (the reader closed the FIFO $(exit_after fifo "$treal") ms before the exit)"
	treal=$TS
fi
ms=$(exit_after fifo "$treal")
[ "$ms" -le $((STOP_MS + 500)) ] ||
	fail "fifo: exited $ms ms after $from (at most $STOP_MS + a 500 ms flush)"
echo "  fifo: exited $ms ms after $from (the test's clock)"

echo "ok: ENOSPC, EIO and EPIPE on --gaps each ended a ${DUR} s run within $STOP_MS ms of" \
	"the failed write, exit 1, one line, other outputs written"
exit 0
