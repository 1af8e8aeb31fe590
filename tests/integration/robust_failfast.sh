#!/bin/bash
# robust_failfast.sh - a write that fails during the run stops it at once and loses nothing
# else: --gaps on a full tmpfs (ENOSPC), on /proc/version (EIO) and into a FIFO whose
# reader leaves after a few bytes (EPIPE). Each run asks for 30 s; each must stop within
# 1 s of the failure, exit 1 with one stderr line naming the file and the error, print
# the partial report saying why, and still write the other outputs (--json parses and
# says interrupted with the reason, --prom and --hlog complete). Root (tmpfs mount);
# about 15 s. See docs/ROBUSTNESS.md.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
for c in python3 mkfifo mount umount; do
	command -v "$c" >/dev/null || { echo "skip: needs $c"; exit 77; }
done
mkdir -p "$TMP/small"
mount -t tmpfs -o size=64k jsfailfast "$TMP/small" ||
	{ echo "skip: cannot mount a tmpfs"; exit 77; }
trap 'umount "$TMP/small" 2>/dev/null; rm -rf "$TMP"' EXIT

DUR=30
# run NAME GAPS_PATH - a 30 s run whose --gaps goes to GAPS_PATH, the other outputs in $TMP
run() {
	local name=$1 gaps=$2 start end
	start=$(date +%s%N)
	"$JS" --cpu 1 -d $DUR -T 500ns -q --gaps "$gaps" --json "$TMP/$name.json" \
		--prom "$TMP/$name.prom" --hlog "$TMP/$name.hlog" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
	echo $? >"$TMP/$name.rc"
	end=$(date +%s%N)
	echo $(( (end - start) / 1000000 )) >"$TMP/$name.ms"
}

# judge NAME GAPS_PATH ERROR T_FAIL_NS - the common verdict; T_FAIL_NS: the failure was
# at or after this CLOCK_MONOTONIC time (the run must stop within 1 s of it)
judge() {
	local name=$1 gaps=$2 error=$3 tfail=$4 rc ms line
	rc=$(cat "$TMP/$name.rc") ms=$(cat "$TMP/$name.ms")
	line="cannot write --gaps file '$gaps': $error"
	[ "$rc" -eq 1 ] || fail "$name: exit $rc, want 1 ($(head -3 "$TMP/$name.err"))"
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
print("  %s: stopped %.3f s after the failure, %d gaps measured" %
      (base.rsplit("/", 1)[1], (stop - tfail) / 1e9, c["gap_count"]))
PY
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
judge tmpfs "$TMP/small/gaps.csv" "No space left on device" "$tfail"

# 2. a file that cannot be written (EIO): the first write fails, at most a flush period
# after sampling started: the start bounds the failure from below.
run proc /proc/version
tfail=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["time_base"]["start_mono_ns"])' \
	"$TMP/proc.json") || fail "proc: no JSON"
judge proc /proc/version "Input/output error" "$tfail"

# 3. a FIFO whose reader leaves after 100 bytes (EPIPE, not SIGPIPE); the reader prints
# when it closed (CLOCK_MONOTONIC, the clock of the JSON's times)
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
print(time.monotonic_ns())
PY
reader=$!
for _ in $(seq 100); do [ -e "$TMP/ready" ] && break; sleep 0.05; done
[ -e "$TMP/ready" ] || fail "fifo: the reader did not start"
run fifo "$TMP/fifo"
wait $reader || fail "fifo: the reader failed"
tclose=$(cat "$TMP/closed")
[ -n "$tclose" ] || fail "fifo: the reader did not say when it closed"
judge fifo "$TMP/fifo" "Broken pipe" "$tclose"

echo "ok: ENOSPC, EIO and EPIPE on --gaps each stopped a ${DUR} s run within 1 s, exit 1, one line, other outputs written"
exit 0
