#!/bin/bash
# attrib_stacks.sh - issue 28, --stacks: the kernel stacks of the worst gaps' preempting task
# (where it left the CPU) and of its waker (at the wake-up). jsinject --mode pipe: a
# SCHED_FIFO reader pinned to CPU 1 blocks in read() on a pipe that jswriter, pinned to CPU 0,
# writes every 10 ms; the reader spins 400 us (as attrib_waker.sh). Asserted from the JSON:
#   - with --stacks (3 s, --top 1000 -T 150us): in >= 95 % of the gaps the reader caused,
#     top[].stack holds a schedule frame and a pipe_read frame (the reader blocking again),
#     and top[].waker.stack a pipe_write frame and a try_to_wake_up/__wake_up frame; the
#     story prints both under it; probes.stacks is there; the spike files
#     (--spike-dir, 300 us) carry the same stacks; report --json of the run keeps them;
#     --folded (issue 41): each class's weights add up to its time lost in the JSON, the
#     reader's lines carry its stack, and report --folded of the run writes the same file;
#   - the same with the raw-tracepoint build (--btf FILE) and with --probes lean;
#   - --stacks --no-waker: the reader's stacks, no waker's;
#   - a thread followed with --pid (jsapp on CPU 1, preempted by the reader): its gaps the
#     reader caused carry both stacks too, in >= 95 % of them; its --folded lines start
#     comm/tid and add up per class to the JSON's;
#   - without --stacks (attrib_waker.sh's run of the same injector): no stack anywhere,
#     probes.stacks null, no stack in the story;
#   - --stacks with --no-probes: one line, exit 64.
# Root only (77 otherwise), about 25 s.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
. "$(dirname "$0")/../lib/lib.bash"

# bad input first: no root needed
out=$("$JS" --cpu 1 -d 1 --stacks --no-probes 2>&1)
rc=$?
[ "$rc" -eq 64 ] || fail "--stacks --no-probes exited $rc, not 64: $out"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [[ $out == *"--stacks"*"--no-probes"* ]] ||
	fail "--stacks --no-probes: not one line naming both: $out"

need_root
need_cpu1
need_btf
# check OUT WAKER(1|0) - the reader's gaps carry its stack (and its waker's, or none)
check() {
	python3 - "$1" "$2" <<'PY' || fail "stacks missing or wrong in $1.json (outputs in $TMP)"
import json, re, sys
f, waker = sys.argv[1] + ".json", sys.argv[2] == "1"
run = json.load(open(f))
st = run["probes"]["stacks"]
assert st and st["depth"] == 32 and st["map_buckets"] == 4096 and st["dropped"] == 0, st
top = run["cpus"][0]["top"]
assert len(top) < 1000, "top list full: raise --top or -T"
mine = [g for g in top if g["cause"] == "task" and g["detail"].startswith("jsinject:")]
assert len(mine) >= 50, "too few gaps caused by the reader: %d" % len(mine)
def has(s, pat):
    return any(re.match(pat, x) for x in s or [])
def reader(g):
    s = g.get("stack")
    return has(s, r"(__)?schedule\+0x") and has(s, r"(anon_)?pipe_read\+0x")
def writer(g):
    s = (g.get("waker") or {}).get("stack")
    return has(s, r"(anon_)?pipe_write\+0x") and has(s, r"(try_to_wake_up|__wake_up\w*)\+0x")
nr, nw = sum(map(reader, mine)), sum(map(writer, mine))
print("%s: %d gaps the reader caused, its stack in %d, the writer's in %d; stacks %s"
      % (f, len(mine), nr, nw, st))
assert nr >= 0.95 * len(mine), [g.get("stack") for g in mine if not reader(g)][:3]
if waker:
    assert nw >= 0.95 * len(mine), [g.get("waker") for g in mine if not writer(g)][:3]
else:
    assert not [g for g in top if (g.get("waker") or {}).get("stack")], "a waker's stack"
# every frame is "symbol+0xoff" or an address, at most 32
for g in top:
    for s in (g.get("stack"), (g.get("waker") or {}).get("stack")):
        assert s is None or (0 < len(s) <= 32 or s == []), s
        assert all(re.fullmatch(r"[\w.$]+\+0x[0-9a-f]+|0x[0-9a-f]+", x) for x in s or []), s
PY
}

run_pipe 3 "$TMP/on" --stacks --spike-dir "$TMP/spk" --spike-threshold 300us --spike-max 20 \
	--spike-per-source 20 \
	--folded "$TMP/on.folded"
check "$TMP/on" 1
python3 "$ROOT/tests/lib/folded_check.py" "$TMP/on.folded" "$TMP/on.json" \
	--stacked "(^|;)(anon_)?pipe_read;.*schedule($|;)" || fail "--folded of the run"
grep -q "^cpu1;task;jsinject:[0-9]*;.*;\(anon_\)\?pipe_read;.*schedule [0-9]*$" "$TMP/on.folded" ||
	fail "--folded: no line of the reader with its stack: $(grep -m3 jsinject "$TMP/on.folded")"
"$JS" report "$TMP/on.json" --folded "$TMP/re.folded" >/dev/null || fail "report --folded exited $?"
cmp "$TMP/on.folded" "$TMP/re.folded" || fail "report --folded of the run is not the run's file"
grep -A12 "preempted by jsinject:" "$TMP/on.txt" | grep -q "stack of jsinject:[0-9]* where it left the CPU:" ||
	fail "no story prints the reader's stack: $(grep -m2 -A3 'preempted by' "$TMP/on.txt")"
grep -q "stack of its waker jswriter:[0-9]* at the wake-up:" "$TMP/on.txt" ||
	fail "no story prints the writer's stack"
python3 - "$TMP/spk" <<'PY' || fail "the spike files carry no stacks ($TMP/spk)"
import glob, json, re, sys
files = [f for f in glob.glob(sys.argv[1] + "/spike-*.json") if not f.endswith(".trace.json")]
assert files, "no spike file"
gaps = [json.load(open(f))["gap"] for f in files]
mine = [g for g in gaps if g["cause"] == "task" and g["detail"].startswith("jsinject:")]
ok = [g for g in mine if any(re.match(r"(anon_)?pipe_read\+", x) for x in g.get("stack") or [])
      and any(re.match(r"(anon_)?pipe_write\+", x) for x in g["waker"].get("stack") or [])]
print("%d spike files, %d of the reader, %d with both stacks" % (len(files), len(mine), len(ok)))
assert mine and len(ok) >= 0.9 * len(mine)
PY
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "$ROOT/docs/schema" "$TMP/on.json" "$TMP/spk" <<'PY' || fail "--stacks output not valid against the schemas"
import glob, json, sys
import jsonschema
d, run, spk = sys.argv[1:]
jsonschema.validate(json.load(open(run)), json.load(open(d + "/run.schema.json")))
for f in glob.glob(spk + "/spike-*[0-9]-cpu*.json"):
    jsonschema.validate(json.load(open(f)), json.load(open(d + "/spike.schema.json")))
PY
else
	echo "skip PART: schema validation: no python3 jsonschema"
fi
"$JS" report "$TMP/on.json" --json "$TMP/re.json" >"$TMP/re.txt" || fail "report exited $?"
python3 - "$TMP/on.json" "$TMP/re.json" <<'PY' || fail "report --json lost the stacks"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
ta, tb = a["cpus"][0]["top"], b["cpus"][0]["top"]
key = lambda g: (g.get("stack"), (g.get("waker") or {}).get("stack"))
assert len(ta) == len(tb) and [key(g) for g in ta] == [key(g) for g in tb]
assert b["probes"]["stacks"] == a["probes"]["stacks"], (a["probes"]["stacks"], b["probes"]["stacks"])
PY
grep -q "stack of its waker jswriter:" "$TMP/re.txt" || fail "report's text prints no stack"

# the raw-tracepoint build, and --probes lean
run_pipe 2 "$TMP/raw" --stacks --btf /sys/kernel/btf/vmlinux
check "$TMP/raw" 1
run_pipe 2 "$TMP/lean" --stacks --probes lean
check "$TMP/lean" 1

# the preemptor's stack needs no waker
run_pipe 2 "$TMP/nowaker" --stacks --no-waker
check "$TMP/nowaker" 0

# a followed thread: jsapp on CPU 1, followed with --pid while the reader preempts it
python3 - "$ROOT/build" "$JS" "$TMP" <<'PY' || fail "a followed thread's gaps lack the stacks (outputs in $TMP)"
import json, os, re, subprocess, sys, time
build, js, tmp = sys.argv[1:]
ready = tmp + "/ready"
app = subprocess.Popen([build + "/tools/jsapp", "--cpu", "1", "--duration", "6", "--ready", ready],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
inj = None
try:
    for _ in range(200):
        if os.path.exists(ready):
            break
        time.sleep(0.02)
    assert os.path.exists(ready), "jsapp did not start"
    inj = subprocess.Popen([build + "/tools/jsinject", "--mode", "pipe", "--cpu", "1",
                            "--helper-cpu", "0", "--duration", "4", "--period", "10000",
                            "--spin", "400"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    r = subprocess.run([js, "--pid", str(app.pid), "-d", "2s", "-T", "150us", "--top", "1000",
                        "--json", tmp + "/follow.json", "--stacks", "--folded",
                        tmp + "/follow.folded"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert inj.wait() == 0, "jsinject --mode pipe failed"
finally:
    for p in (inj, app):
        if p and p.poll() is None:
            p.kill()
            p.wait()
run = json.load(open(tmp + "/follow.json"))
assert run["probes"]["stacks"], run["probes"]
th = [t for t in run["threads"] if t["top"]]
assert th, "no followed thread with gaps"
mine = [g for t in th for g in t["top"] if g["cause"] == "task" and g["detail"].startswith("jsinject:")]
has = lambda s, pat: any(re.match(pat, x) for x in s or [])
nr = sum(has(g.get("stack"), r"(anon_)?pipe_read\+0x") for g in mine)
nw = sum(has((g.get("waker") or {}).get("stack"), r"(anon_)?pipe_write\+0x") for g in mine)
print("followed: %d gaps the reader caused, its stack in %d, the writer's in %d" % (len(mine), nr, nw))
assert len(mine) >= 50 and nr >= 0.95 * len(mine) and nw >= 0.95 * len(mine)
PY
python3 "$ROOT/tests/lib/folded_check.py" "$TMP/follow.folded" "$TMP/follow.json" \
	--stacked "(anon_)?pipe_read" || fail "--folded of the followed thread"
grep -q "^jsapp/[0-9]*;task;jsinject:" "$TMP/follow.folded" ||
	fail "--folded: no jsapp/TID line of the reader: $(head -3 "$TMP/follow.folded")"

echo "ok: the reader's and the writer's stacks with --stacks (tp_btf, raw, lean, --no-waker, --pid)"
