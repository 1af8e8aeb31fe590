#!/bin/bash
# outputs_trace_html.sh - --trace and --html from real runs on CPU 1.
# Trace: valid Chrome Trace Event JSON, required fields, properly nested slices per track,
# gaps coherent with --json (all of them when not capped; the longest when capped).
# HTML: self-contained (nothing fetched), with every part and as many points and stories as
# the JSON says (its rendering in Chromium: outputs_html_render.sh).
# JS_TEST_KEEP=DIR keeps the trace and the page there.
# cpu1: shared - its runs' trace and page are judged against their own JSON, whatever gaps they hold (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
TOOLS=$ROOT/tests/tools

"$JS" --cpu 1 --duration 2 --trace "$TMP/t.json" --html "$TMP/h.html" --json "$TMP/j.json" \
	-q -n 20 >/dev/null 2>"$TMP/err" || fail "run exited $? ($(cat "$TMP/err"))"
python3 "$TOOLS/check_trace.py" "$TMP/t.json" "$TMP/j.json" || fail "trace (uncapped run)"

# a small cap: bounded, and what is kept are the longest gaps with their events
"$JS" --cpu 1 --duration 2 --trace "$TMP/t2.json" --trace-max-events 300 --json "$TMP/j2.json" \
	--gaps "$TMP/g2.csv" -q -n 20 >/dev/null 2>"$TMP/err" || fail "capped run exited $?"
python3 "$TOOLS/check_trace.py" "$TMP/t2.json" "$TMP/j2.json" "$TMP/g2.csv" ||
	fail "trace (capped run)"
python3 - "$TMP/t2.json" "$TMP/j2.json" <<'PY' || fail "cap not applied"
import json, sys
t, j = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
pc, n = t["otherData"]["per_cpu"][0], j["cpus"][0]["gap_count"]
assert len(t["traceEvents"]) <= 300, len(t["traceEvents"])
if n > 300:
    assert pc["capped"] and pc["gaps_in_trace"] < n, pc
print("ok: cap 300: %d events, %d of %d gaps" % (len(t["traceEvents"]), pc["gaps_in_trace"], n))
PY

# the page: self-contained, with every part
python3 - "$TMP/h.html" "$TMP/j.json" <<'PY' || fail "HTML content"
import json, re, sys
h, j = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
c = j["cpus"][0]
for bad in (r"\bsrc\s*=", r"<link\b", r"url\(", r"@import", r"https?://"):
    assert not re.search(bad, h, re.I), "fetches something: " + bad
for part in ("Gap histogram by primary cause", "Gaps over time", "Worst gaps", "Causes",
             "<svg class=\"fig hist\"", "<svg class=\"fig scatter\"", "</html>"):
    assert part in h, "missing " + part
if "audit" in j:
    assert "Isolation audit" in h, "no audit section"
pts = len(re.findall(r'<circle class="pt ', h))
assert min(c["gap_count"], 2000) <= pts <= min(c["gap_count"], 7000), (pts, c["gap_count"])
stories = len(re.findall(r'<li class="c-', h))
assert stories == len(c["top"]), (stories, len(c["top"]))
print("ok: page of %d KB, %d points, %d stories" % (len(h) // 1024, pts, stories))
PY

if [ -n "${JS_TEST_KEEP:-}" ]; then
	mkdir -p "$JS_TEST_KEEP" && cp "$TMP/t.json" "$TMP/h.html" "$JS_TEST_KEEP/"
fi
exit 0
