#!/bin/bash
# measure_continuous.sh - a --duration 0 run as a service runs it (root, about 12 s):
#  - --listen: GET /metrics is the exposition (text/plain; version=0.0.4), HEAD too, /healthz
#    "ok"; another path 404, another method 405 (Allow: GET, HEAD), a malformed header 400
#    (a line that is no request at all: closed without an answer, libmicrohttpd's way);
#    bound to the given address only (127.0.0.2 is refused); a client that sends half a
#    request and never reads holds no one up: scrapes keep answering and the run measures;
#  - --prom-interval: the textfile is rewritten while the run goes (its duration grows);
#  - --gaps-max-size, --gaps-max-files: no gaps file grows past the size, the full one is
#    FILE.1, those before it FILE.2 ... (the newest first); they, the moved and the last file
#    hold the JSON's gap_count rows, in order of start_ns with no overlap between files: the
#    rotations lose and repeat no row;
#  - SIGHUP: the files moved away (log rotation) are written anew at their paths, headers
#    first, and the run goes on; SIGTERM: the run ends, the report and every output written;
#  - 15 ms preemptions (jsinject, 1/s): each is its interval's worst gap in the JSON's
#    intervals, its story naming jsinject, unless a longer gap (another task, or the host
#    holding the vCPU: 4-9 ms here at times) took it; at least one of the three is.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_tools jsinject
note() { echo "measure_continuous: $*"; }
port=$(free_port)
D=$TMP
run='' inj=''
at_exit '[ -n "$run" ] && kill -KILL "$run" 2>/dev/null; [ -n "$inj" ] && kill "$inj" 2>/dev/null'

# every file the size rotation makes is kept (--gaps-max-files): a test that hard-linked
# each g.csv.1 as it appeared (polling every 10 ms, SCHED_FIFO) missed some, when the run's
# drain caught up after a stall of CPU 0 and wrote several files in a few milliseconds
"$JS" --cpu 1 -d 0 -q -T 500ns --listen "127.0.0.1:$port" --prom "$D/m.prom" \
	--prom-interval 1s --gaps "$D/g.csv" --gaps-max-size 64KiB --gaps-max-files 10000 \
	--hlog "$D/r.hlog" \
	--json "$D/r.json" >"$D/report.txt" 2>"$D/err.txt" &
run=$!
# IPIs into CPU 1 every 200 us: gaps enough to fill 64 KiB files
"$INJ" --mode ipi --cpu 1 --period 200 --duration 12 >"$D/inj.txt" 2>&1 &
inj=$!
python3 - "$port" "$run" "$D" <<'PY' || fail "the HTTP endpoint (above)"
import http.client, os, socket, sys, time
port, pid, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

def req(method, path, raw=None, host="127.0.0.1"):
    if raw is not None:
        s = socket.create_connection((host, port), timeout=5)
        s.sendall(raw)
        data = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
        s.close()
        return (int(data.split(b" ", 2)[1]) if data else None), {}, data
    c = http.client.HTTPConnection(host, port, timeout=5)
    c.request(method, path)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, dict((k.lower(), v) for k, v in r.getheaders()), body

for _ in range(100):
    try:
        st, h, body = req("GET", "/metrics")
        if st == 200:
            break
    except OSError:
        pass
    os.kill(pid, 0)
    time.sleep(0.1)
assert st == 200, "GET /metrics: %s" % st
assert h["content-type"] == "text/plain; version=0.0.4; charset=utf-8", h["content-type"]
assert b"\njitterscope_gap_duration_seconds_bucket{" in body, body[:200]
st, h, body = req("HEAD", "/metrics")
assert st == 200 and body == b"", ("HEAD", st, body[:50])
st, _, body = req("GET", "/healthz")
assert st == 200 and body == b"ok\n", ("healthz", st, body)
st, _, _ = req("GET", "/")
assert st == 404, ("GET /", st)
st, _, _ = req("GET", "/metrics/x")
assert st == 404, ("GET /metrics/x", st)
st, h, _ = req("POST", "/metrics")
assert st == 405 and h.get("allow") == "GET, HEAD", ("POST", st, h)
st, _, _ = req("DELETE", "/healthz")
assert st == 405, ("DELETE", st)
st, _, _ = req(None, None, raw=b"GET /metrics HTTP/1.0\r\nNo colon here\r\n\r\n")
assert st == 400, ("malformed header", st)
st, _, _ = req(None, None, raw=b"GARBAGE\r\n\r\n")   # not a request line: closed
assert st in (None, 400), ("malformed request line", st)
try:
    req("GET", "/healthz", host="127.0.0.2")
    raise AssertionError("answered on 127.0.0.2: not bound to 127.0.0.1 only")
except ConnectionRefusedError:
    pass
# hostile clients: half a request each, never read; then scrapes must still answer quickly
slow = []
for _ in range(3):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    slow.append(s)
t0 = time.time()
durs = []
for _ in range(5):
    st, _, body = req("GET", "/metrics")
    assert st == 200
    durs.append(float(body.split(b"\njitterscope_run_duration_seconds ")[1].split()[0]))
    time.sleep(0.5)
took = time.time() - t0
assert took < 4.5, "5 scrapes beside 3 stalled clients took %.1f s" % took
assert durs == sorted(durs) and durs[-1] > durs[0], "the run did not go on: %s" % durs
print("measure_continuous: HTTP 200/HEAD/404/405/400 right, 127.0.0.2 refused, 5 scrapes "
      "beside 3 stalled clients in %.1f s, run duration %.1f -> %.1f s" % (took, durs[0], durs[-1]))
for s in slow:
    s.close()
PY
# 15 ms preemptions, one a second: their intervals' worst gaps (2 ms ones lost all three
# intervals to the host's own gaps of 4.7-9.4 ms in one make check)
"$INJ" --mode preempt --cpu 1 --spin 15000 --period 1000000 --duration 3 \
	--log "$D/preempt.csv" >"$D/preempt.txt" 2>&1 || fail "jsinject preempt: $(cat "$D/preempt.txt")"
# the textfile rewritten (every 1 s): its run duration grows, waited for up to 5 s
p1=$(sed -n 's/^jitterscope_run_duration_seconds //p' "$D/m.prom")
for _ in $(seq 50); do
	sleep 0.1
	p2=$(sed -n 's/^jitterscope_run_duration_seconds //p' "$D/m.prom")
	[ "$p2" != "$p1" ] && break
done
python3 -c 'import sys; a, b = map(float, sys.argv[1:]); assert 0 < a < b' "${p1:-0}" "${p2:-0}" ||
	fail "--prom-interval: the textfile's run duration went from '$p1' to '$p2' in 5 s"
# log rotation: move the files away, SIGHUP, new ones appear at the paths
mv "$D/g.csv" "$D/g.csv.rot"
mv "$D/r.hlog" "$D/r.hlog.rot"
kill -HUP $run
# the new files fill as their writers flush; each starts with its header (a g.csv rotated
# by size too, written through at the rotation): wait up to 5 s for both
fresh() {
	head -1 "$D/g.csv" 2>/dev/null | grep -q '^cpu,start_ns,' &&
		grep -q '^#\[StartTime: ' "$D/r.hlog" 2>/dev/null
}
for _ in $(seq 50); do
	fresh && break
	sleep 0.1
done
fresh || fail "SIGHUP: no new g.csv / r.hlog with its header: [$(head -c 60 "$D/g.csv")] [$(head -c 60 "$D/r.hlog")] $(ls -l "$D" | tr -s " " |
	cut -d" " -f5,9 | tr "\n" " ")"
# the run goes on after SIGHUP (and its exit status below is SIGTERM's): 1 s more of gaps
# into the new files, g.csv rotated by size again meanwhile
sleep 1
kill -0 $run 2>/dev/null || fail "SIGHUP ended the run: $(cat "$D/err.txt")"
kill -TERM $run
wait $run
rc=$?
run=''
# the IPIs were for the run's gaps: no longer needed
kill $inj 2>/dev/null
wait $inj 2>/dev/null
inj=''
[ $rc -eq 0 ] || fail "SIGTERM: exit $rc, want 0: $(cat "$D/err.txt")"
grep -q 'interrupted' "$D/report.txt" || fail "SIGTERM: no report"
[ ! -e "$D/m.prom.tmp" ] || fail "m.prom.tmp left behind"
python3 - "$D" <<'PY' || fail "the outputs after SIGTERM (above)"
import glob, json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "r.json")))
n = r["cpus"][0]["gap_count"]
files = sorted(glob.glob(os.path.join(d, "g.csv*")))
rows = 0
for f in files:
    lines = open(f).read().splitlines()
    assert lines[0].startswith("cpu,start_ns,"), "%s: no header" % f
    rows += len(lines) - 1
    sz = os.path.getsize(f)
    assert sz <= 65536, "%s: %d bytes, over --gaps-max-size 64KiB" % (f, sz)
assert os.path.exists(os.path.join(d, "g.csv.1")), "never rotated: %s" % files
# every file the run wrote: g.csv.1 (the newest full one) to g.csv.K, numbered without a
# hole, the one moved away before SIGHUP and the last g.csv
def seq(f):
    """N of g.csv.N, else None"""
    n = f.rpartition(".")[2]
    return int(n) if n.isdigit() else None


num = sorted(seq(f) for f in files if seq(f))
assert num == list(range(1, len(num) + 1)), "the rotated files are not g.csv.1..%d: %s" % (
    len(num), num)
spans, total = [], 0
for f in files:
    st = [int(l.split(",")[1]) for l in open(f).read().splitlines()[1:]]
    assert st, "%s: no row" % f
    assert st == sorted(st), "%s: rows out of order" % f
    spans.append((st[0], st[-1], len(st), f))
    total += len(st)
spans.sort()
for (a0, a1, _, fa), (b0, b1, _, fb) in zip(spans, spans[1:]):
    assert a1 < b0, "%s (%d..%d) and %s (%d..%d) overlap" % (fa, a0, a1, fb, b0, b1)
if total != n:
    # where rows are missing: the widest steps from one file's last row to the next's first
    steps = sorted(((b0 - a1, fa, fb) for (_, a1, _, fa), (b0, _, _, fb) in
                    zip(spans, spans[1:])), reverse=True)[:5]
    for w, fa, fb in steps:
        print("  %.3f ms from the last row of %s to the first of %s" % (
            w / 1e6, os.path.basename(fa), os.path.basename(fb)))
    c0 = r["cpus"][0]
    print("  the run measured %d..%d; the files hold %d (%s, %d rows)..%d (%s)" % (
        c0["start_ns"], c0["end_ns"], spans[0][0], os.path.basename(spans[0][3]),
        spans[0][2], spans[-1][1], os.path.basename(spans[-1][3])))
assert total == n, "%d rows in the %d files the run wrote, JSON gap_count %d" % (
    total, len(spans), n)
# the newest first: g.csv.K the oldest rows, g.csv.1 the newest of them
order = [seq(f) for _, _, _, f in spans if seq(f)]
assert order == sorted(order, reverse=True), "g.csv.N not oldest first by their rows: %s" % order
print("measure_continuous: the %d files the run wrote (g.csv.1..%d, g.csv.rot, g.csv) hold "
      "the %d gaps, in order, none twice" % (len(spans), len(num), n))
prom = open(os.path.join(d, "m.prom")).read()
assert "jitterscope_run_interrupted 1" in prom, "the final textfile is not the end's"
print("measure_continuous: %d gaps; %d files, each <= 64 KiB with its header (the largest "
      "%d B)" % (n, len(files), max(os.path.getsize(f) for f in files)))
# each injected preemption is the worst gap of the interval it started in, unless a longer
# gap (another task on this shared machine) won that interval
c = r["cpus"][0]
iv = c["intervals"]
acts = [l.split(",") for l in open(os.path.join(d, "preempt.csv")).read().splitlines()[1:]]
assert acts, "jsinject logged no preemption"
named = []
for act in acts:
    a0, a1 = int(act[2]), int(act[3])
    k = (a0 - c["start_ns"]) // iv["length_ns"]
    w = iv["list"][k]["worst"]
    assert w is not None, "interval %d: no worst gap, a preemption at %d" % (k, a0)
    if w["start_ns"] <= a1 and w["start_ns"] + w["duration_ns"] >= a0:
        assert w["duration_ns"] >= 14000000, w
        assert w["duration_ns"] <= iv["list"][k]["max_ns"], (w, iv["list"][k])
        assert w["cause"] == "task" and "jsinject" in w["detail"], w
        assert "preempted by jsinject" in w["story"], w["story"]
        named.append("interval %d: %s" % (k + 1, w["story"]))
    else:
        assert w["duration_ns"] > a1 - a0, \
            "interval %d: worst %s, shorter than the preemption %d..%d" % (k, w, a0, a1)
        print("measure_continuous: interval %d: a longer gap won: %s" % (k + 1, w["story"]))
assert named, "no preemption was its interval's worst gap"
print("measure_continuous: %d of %d preemptions their interval's worst: %s"
      % (len(named), len(acts), "; ".join(named)))
PY
note "PASS"
exit 0
