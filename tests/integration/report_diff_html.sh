#!/bin/bash
# report_diff_html.sh - `jitterscope diff --html` of two real runs of CPU 1 (1 s and 0.5 s)
# renders in headless Chromium without console messages, opens with the diff's verdict line
# (the JSON's), its script runs to the end, both
# runs' histogram bars are in the DOM (A's and B's, by primary cause), the table rows match
# the diff's JSON, and the screenshot shows the cause colours. Skips without chromium (Debian
# chromium; a failure under CI=true). JS_TEST_KEEP=DIR keeps the page and the screenshot.
# cpu1: shared - the diff page is judged against the diff's own JSON, whatever the two runs measured (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_chromium

"$JS" --cpu 1 --duration 1 -q --json "$TMP/A.json" >/dev/null 2>"$TMP/err" ||
	fail "run A exited $? ($(cat "$TMP/err"))"
"$JS" --cpu 1 --duration 0.5 -q --json "$TMP/B.json" >/dev/null 2>"$TMP/err" ||
	fail "run B exited $? ($(cat "$TMP/err"))"
"$JS" diff "$TMP/A.json" "$TMP/B.json" --html "$TMP/d.html" --json "$TMP/d.json" \
	>"$TMP/d.txt" 2>"$TMP/err" || fail "diff --html exited $? ($(cat "$TMP/err"))"
[ -s "$TMP/d.txt" ] || fail "diff --html printed no text report"
render "$TMP/d.html" 1200 2400
grep -q 'data-bars-a="[1-9]' "$TMP/dom.html" || fail "no bars of run A in the DOM"
grep -q 'data-bars-b="[1-9]' "$TMP/dom.html" || fail "no bars of run B in the DOM"
# the rendered page: one row per row of the JSON, with its verdict; the bars per cause of
# each run sum to its gaps per bucket
python3 - "$TMP"/dom.html "$TMP"/d.json "$TMP"/A.json "$TMP"/B.json <<'PY' || fail "page != diff"
import json, re, sys
dom = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
runs = [json.load(open(p))["cpus"][0] for p in sys.argv[3:5]]
c = d["cpus"][0]
# the page opens with the verdict line, the JSON's, coloured by it
v = re.search(r'<h1>jitterscope diff</h1>\s*<p id="verdict" class="d-(\w+)">verdict: ([^<]*)</p>',
              dom)
assert v and v.group(1) == d["summary"]["verdict"], v and v.group(0)
assert v.group(2).replace("&gt;", ">").replace("&amp;", "&") == d["summary"]["verdict_line"], v.group(2)
cells = re.findall(r'<td class="d-(\w+)">(\w+)</td>', dom)
assert all(a == b for a, b in cells), cells
want = [r["verdict"] for r in c["rows"] + c["sources"]]
assert [v for _, v in cells] == want, ([v for _, v in cells], want)
for tag, run in zip("ab", runs):
    titles = re.findall(r'<rect class="c-([\w-]+) ser-%s"[^>]*><title>%s: ([^<]*?) \.\. [^<]*?: '
                        r'(\d+) of (\d+) gaps' % (tag, tag.upper()), dom)
    assert titles, "no bars of run " + tag
    per = {}
    for cause, lo, n, total in titles:
        per.setdefault(lo, [0, int(total)])[0] += int(n)
    assert all(s == t for s, t in per.values()), per
    assert sum(t for _, t in per.values()) == run["gap_count"], (per, run["gap_count"])
print("ok: page: %d verdict cells as in the JSON, bars of A and B add up to %d and %d gaps"
      % (len(cells), runs[0]["gap_count"], runs[1]["gap_count"]))
PY
# the figures were painted: the legend's colours are on the screenshot
painted "$TMP/d.html" 1200 2400 500 1
if [ -n "${JS_TEST_KEEP:-}" ]; then
	mkdir -p "$JS_TEST_KEEP" && cp "$TMP/d.html" "$TMP/d.html.png" "$JS_TEST_KEEP/"
fi
exit 0
