#!/bin/bash
# outputs_folded_render.sh - issue 41: a flame graph viewer reads --folded. `report --folded`
# of the saved run tests/data/runs/cpu1-2s.json: each class's weights add up to its time lost
# in the JSON (tests/lib/folded_check.py). speedscope (the npm package, which
# scripts/install-deps.sh installs) opens the file in headless Chromium the way its command
# line does (speedscope.loadFileFromBase64 from #localProfilePath), in its sandwich view: it
# imports it as collapsed stacks, and its table lists every frame of the file with the total
# and self time the file gives it, so each class's total there is its time lost in the JSON
# and CPU 1's the run's. Skips without chromium or speedscope (a failure under CI=true).
# About 30-50 s of Chromium (software WebGL) on CPU 0.
# cpu1: none - renders a saved run, measures nothing
. "$(dirname "$0")/lib.bash"
need_chromium
need_npm speedscope dist/release/index.html

RUN=$ROOT/tests/data/runs/cpu1-2s.json
"$JS" report "$RUN" --folded "$TMP/run.folded" >/dev/null 2>"$TMP/err" ||
	fail "report --folded exited $? ($(cat "$TMP/err"))"
python3 "$ROOT/tests/lib/folded_check.py" "$TMP/run.folded" "$RUN" || fail "--folded of $RUN"

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
c = json.load(open(run))["cpus"][0]
for cls, v in c["by_class"].items():
    assert not v["total_ns"] or shown[cls][0] == v["total_ns"], (cls, shown.get(cls), v)
assert shown["cpu1"][0] == c["lost_ns"], (shown["cpu1"], c["lost_ns"])
print("ok: speedscope shows the %d frames of the file with its weights; %d classes, each its "
      "time lost in the JSON; cpu1 %d ns, the run's time lost" % (len(shown), len(c["by_class"]),
                                                                  c["lost_ns"]))
PY
exit 0
