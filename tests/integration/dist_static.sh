#!/bin/bash
# dist_static.sh - issue 24, one file to copy: `make static` links build/static/jitterscope,
# one executable that needs nothing from the machine but the kernel's files.
#  - file and readelf: statically linked x86-64, no program interpreter, no NEEDED entry;
#    --version prints the Makefile's VERSION;
#  - in an empty root, a directory holding only that file and the mount points /proc, /sys,
#    /dev (bind-mounted there, with /sys/kernel/btf and /sys/fs/cgroup as the DaemonSet mounts
#    them, in a private mount namespace: unshare -m, chroot; the mounts end with it, whatever
#    happens), it measures CPU 1 with the probes for 5 s while build/tools/jsinject, outside
#    the root, runs a SCHED_FIFO task there 500 us every 10 ms (preempt, as attrib_cgroup.sh):
#    the JSON it writes inside the root names that task (source task jsinject:TID) as a cause
#    of gaps, as many as half the injector's spins at least, with 40 % of their time at least;
#  - --listen 127.0.0.1:PORT (numeric: no name service in a static binary) answers /metrics
#    and /healthz during the run;
#  - the root holds afterwards only what it held and the JSON, and no mount is left.
# Root only (77 otherwise), about 8 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
. "$(dirname "$0")/../lib/dist_lib.bash"
need_root
need_cpu1
need_btf
need_cmd file file
need_cmd readelf binutils
need_cmd unshare util-linux
need_cmd findmnt util-linux
need_cmd python3 python3
cd "$ROOT" || exit 1
need_static_build
dist_make static build/tools/jsinject
INJ=$ROOT/build/tools/jsinject

# ---- one executable, nothing to load
ftype=$(file -b "$STATIC")
case "$ftype" in
*"ELF 64-bit"*x86-64*"statically linked"*) echo "ok: file: $ftype" ;;
*) fail "file says: $ftype" ;;
esac
readelf -lW "$STATIC" | grep -q 'INTERP' && fail "readelf -l: a program interpreter"
readelf -dW "$STATIC" | grep -q 'NEEDED' && fail "readelf -d: $(readelf -dW "$STATIC" | grep NEEDED)"
echo "ok: readelf: no INTERP, no NEEDED; $(stat -c %s "$STATIC") bytes"
v=$("$STATIC" --version) || fail "--version exited $?"
[ "$v" = "jitterscope $VERSION" ] || fail "--version: '$v', want 'jitterscope $VERSION'"
echo "ok: $v"

# ---- the empty root
R=$TMP/root
JSPID= INJPID=
cleanup() {
	[ -n "$INJPID" ] && kill "$INJPID" 2>/dev/null && wait "$INJPID" 2>/dev/null
	[ -n "$JSPID" ] && kill "$JSPID" 2>/dev/null && wait "$JSPID" 2>/dev/null
	# the mounts were never this namespace's; --one-file-system all the same
	rm -rf --one-file-system "$TMP"
}
at_exit cleanup
trap 'exit 1' INT TERM
mkdir -p "$R/proc" "$R/sys" "$R/dev" || fail "mkdir $R"
cp "$STATIC" "$R/jitterscope" || fail "cp"
PORT=$(free_port)
# in a mount namespace of its own whose only process becomes jitterscope: the bind mounts go
# when it exits, even if it is killed
unshare --mount --propagation private -- /bin/sh -ec '
R=$1
shift
mount --bind /proc "$R/proc"
mount --bind /sys "$R/sys"
mount --bind /sys/kernel/btf "$R/sys/kernel/btf"
[ ! -d /sys/fs/cgroup ] || mount --bind /sys/fs/cgroup "$R/sys/fs/cgroup"
mount --rbind /dev "$R/dev"
exec chroot "$R" /jitterscope "$@"' sh "$R" --cpu 1 --duration 5 -q --json /run.json \
	--listen "127.0.0.1:$PORT" >"$TMP/js.out" 2>"$TMP/js.err" &
JSPID=$!

# the injector, outside: from 1.5 s (the probes attached, measuring) for 2 s
sleep 1.5
"$INJ" --mode preempt --cpu 1 --duration 2 --period 10000 --spin 500 --log "$TMP/inj.csv" \
	>"$TMP/inj.out" 2>"$TMP/inj.err" &
INJPID=$!
sleep 0.5
python3 - "$PORT" <<'PY' || fail "--listen 127.0.0.1:$PORT in the static binary"
import sys, urllib.request
base = "http://127.0.0.1:%s" % sys.argv[1]
m = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
assert "jitterscope_node_info{" in m, m[:300]
h = urllib.request.urlopen(base + "/healthz", timeout=5).read().decode()
assert h == "ok\n", h
print("ok: --listen 127.0.0.1:%s: /metrics (%d bytes), /healthz" % (sys.argv[1], len(m)))
PY
wait "$INJPID"
rc=$?
INJPID=
[ $rc -eq 0 ] || fail "jsinject exited $rc: $(cat "$TMP/inj.err")"
wait "$JSPID"
rc=$?
JSPID=
[ $rc -eq 0 ] || fail "jitterscope in the empty root exited $rc: $(cat "$TMP/js.err")"
actions=$(sed -n 's/^actions=//p' "$TMP/inj.out")
echo "ok: jitterscope in the empty root exited 0; jsinject: $actions spins of 500 us"

# ---- what it wrote, where
[ -s "$R/run.json" ] || fail "no /run.json inside the root"
left=$(cd "$R" && find . -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')
[ "$left" = "./dev ./jitterscope ./proc ./run.json ./sys " ] ||
	fail "the root holds: $left"
for d in proc sys dev; do
	[ -z "$(ls -A "$R/$d")" ] || fail "$R/$d is not empty outside the namespace"
done
findmnt -rn -o TARGET | grep -qF "$R" && fail "a mount left under $R"
echo "ok: the root holds only the binary, the mount points and run.json; no mount left"
python3 - "$R/run.json" "$actions" <<'PY' || fail "the JSON does not name the injected task"
import json, sys
r = json.load(open(sys.argv[1]))
actions = int(sys.argv[2])
assert r["probes"]["enabled"], "probes not enabled: %s" % r["probes"]
c = r["cpus"][0]
assert c["cpu"] == 1, c["cpu"]
assert actions >= 100, "only %d injected spins" % actions
src = [s for s in c["sources"] if s["cause"] == "task" and s["detail"].startswith("jsinject:")]
assert src, "no task jsinject:TID among the sources: %s" % [
    (s["cause"], s["detail"]) for s in c["sources"][:10]]
gaps = sum(s["gaps"] for s in src)
ns = sum(s["total_ns"] for s in src)
assert gaps >= actions / 2, "%d gaps name jsinject, %d spins" % (gaps, actions)
assert ns >= 0.4 * actions * 500000, "%.1f ms named jsinject, %d spins of 0.5 ms" % (
    ns / 1e6, actions)
top = [t for t in c["top"] if t["cause"] == "task" and t["detail"].startswith("jsinject:")]
print("ok: JSON: probes on, %s: %d gaps, %.1f ms (%d spins); %d of the %d worst gaps" % (
    ", ".join(sorted({s["detail"] for s in src})), gaps, ns / 1e6, actions, len(top),
    len(c["top"])))
PY
exit 0
