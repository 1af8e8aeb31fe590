#!/bin/bash
# outputs_folded_render.sh - issue 41: a flame graph viewer reads --folded. `report --folded`
# of the saved runs tests/data/runs/cpu1-2s.json (CPU 1) and pid-stacks-1s.json (a thread
# followed with --pid --stacks while jsinject's pipe reader preempted it): per result and
# class the weights add up to the time lost in the JSON (tests/lib/folded_check.py), and
# the thread's lines carry the reader's kernel stack. speedscope (the npm package, which
# scripts/install-deps.sh installs) opens the thread's file in headless Chromium the way its
# command line does (speedscope.loadFileFromBase64 from #localProfilePath), in its sandwich
# view: it imports it as collapsed stacks, and its table lists every frame of the file with
# the total and self time the file gives it, so each class's total there is its time lost in
# the JSON and the thread's the run's. Skips without chromium or speedscope (a failure under
# CI=true). About 30-50 s of Chromium (software WebGL) on CPU 0.
# cpu1: none - renders saved runs, measures nothing
. "$(dirname "$0")/../lib/lib.bash"
need_chromium
need_npm speedscope dist/release/index.html

for r in cpu1-2s pid-stacks-1s; do
	RUN=$ROOT/tests/data/runs/$r.json
	stacked=()
	[ $r = pid-stacks-1s ] && stacked=(--stacked "(^|;)(anon_)?pipe_read;.*schedule")
	"$JS" report "$RUN" --folded "$TMP/run.folded" >/dev/null 2>"$TMP/err" ||
		fail "report $r.json --folded exited $? ($(cat "$TMP/err"))"
	python3 "$ROOT/tests/lib/folded_check.py" "$TMP/run.folded" "$RUN" "${stacked[@]}" ||
		fail "--folded of $RUN"
done
grep -q "^jsapp/[0-9]*;task;jsinject:[0-9]*;.*pipe_read;" "$TMP/run.folded" ||
	fail "no jsapp/TID line with the reader's stack: $(head -3 "$TMP/run.folded")"

# the loader speedscope's command line writes for a file it opens
python3 - "$TMP/run.folded" >"$TMP/load.js" <<'PY' || fail "loader"
import base64, json, sys
data = base64.b64encode(open(sys.argv[1], "rb").read()).decode()
print("speedscope.loadFileFromBase64(%s, %s)" % (json.dumps("run.folded"), json.dumps(data)))
PY
# tall enough for the sandwich table to draw a row for every frame (it draws the visible ones)
chrome "$NPM_FILE#localProfilePath=$TMP/load.js&view=sandwich" --allow-file-access-from-files \
	--virtual-time-budget=3000 --window-size=800,3000 --dump-dom >"$TMP/dom.html" \
	2>"$TMP/chr.err" || fail "chromium --dump-dom exited $?"
grep -q '"Importing as collapsed stack format"' "$TMP/chr.err" ||
	fail "speedscope did not import the file as folded stacks: $(grep CONSOLE "$TMP/chr.err" | tail -3)"
python3 - "$TMP/dom.html" "$TMP/run.folded" "$RUN" <<'PY' || fail "speedscope does not show the file's weights"
import html, json, re, sys
from collections import defaultdict
dom, folded, run = sys.argv[1:]
d = open(dom).read()
assert "<title>run.folded - speedscope</title>" in d, "the page did not load the file"
num = lambda s: int(s.replace(",", ""))
shown = {html.unescape(name): (num(tot), num(slf)) for tot, slf, name in re.findall(
    r'<tr class="[^"]*"><td[^>]*>([\d,]+) \([^)]*\).*?<td[^>]*>([\d,]+) \([^)]*\)'
    r'.*?<td[^>]*><span[^>]*></span>(.*?)</td></tr>', d)}
total, self_ = defaultdict(int), defaultdict(int)
for ln in open(folded):
    stack, w = ln.rsplit(" ", 1)
    frames = stack.split(";")
    for f in set(frames):
        total[f] += int(w)
    self_[frames[-1]] += int(w)
want = {f: (total[f], self_[f]) for f in total}
assert shown == want, "speedscope's table differs from the file: %s" % sorted(
    (f, shown.get(f), want.get(f)) for f in set(shown) | set(want) if shown.get(f) != want.get(f))[:5]
r = json.load(open(run))
assert not r["cpus"] and len(r["threads"]) == 1, "not one followed thread"
c = r["threads"][0]
comm, _, tid = c["thread"].rpartition(":")
for cls, v in c["by_class"].items():
    assert not v["total_ns"] or shown[cls][0] == v["total_ns"], (cls, shown.get(cls), v)
assert shown["%s/%s" % (comm, tid)][0] == c["lost_ns"], (shown.get(comm), c["lost_ns"])
print("ok: speedscope shows the %d frames of the file with its weights; %d classes, each its "
      "time lost in the JSON; %s/%s %d ns, the thread's time lost"
      % (len(shown), len(c["by_class"]), comm, tid, c["lost_ns"]))
PY
exit 0
