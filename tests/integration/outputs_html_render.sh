#!/bin/bash
# outputs_html_render.sh - the --html page of a real run on CPU 1 renders in headless Chromium
# without console messages, its script runs to the end (data-rendered, points and bars in the
# DOM), and the screenshot shows the figures' colours. What a user reads off the pictures,
# on the rendered DOM: each class's time-lost bar is its share of the linear axis (as
# rendered: a 17 % share is 17 % of the axis), one time-lost bar per interval (second) of
# the run, one timeline per worst gap whose stretches add up to the gap; a second run with a
# SCHED_FIFO task stalling CPU 1 every 5 ms (jsinject, probes off: unexplained) draws its
# gaps folded by the 5 ms period as one column at the phase the detector found. Skips
# without chromium (Debian chromium; a failure under CI=true). The page's content:
# outputs_trace_html.sh. JS_TEST_KEEP=DIR keeps the pages and the screenshot there.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_chromium

"$JS" --cpu 1 --duration 2 --html "$TMP/h.html" --json "$TMP/h.json" -q -n 20 >/dev/null \
	2>"$TMP/err" || fail "run exited $? ($(cat "$TMP/err"))"
render "$TMP/h.html" 1400 1400
grep -q 'data-points="[1-9]' "$TMP/dom.html" || fail "no scatter points in the DOM"
grep -q 'data-bars="[1-9]' "$TMP/dom.html" || fail "no histogram bars in the DOM"
python3 - "$TMP/dom.html" "$TMP/h.json" <<'PY' || fail "the pictures do not show the run"
import json, re, sys
dom = open(sys.argv[1]).read()
c = json.load(open(sys.argv[2]))["cpus"][0]
# time lost by cause: linear, a bar's rendered width is its share of the axis
bars = re.findall(r'<rect class="lc c-([\w-]+)" data-share="([\d.]+)"[^>]*data-drawn="([\d.]+)"',
                  dom)
assert bars, "no time-lost-by-cause bars"
lost = sum(v["total_ns"] for v in c["by_class"].values())
for cause, share, drawn in bars:
    want = 100.0 * c["by_class"][cause]["total_ns"] / lost
    assert abs(float(share) - want) < 0.01, (cause, share, want)
    assert abs(float(drawn) - float(share)) < 0.5, (cause, share, drawn)
# time lost per second: one bar per interval, as many as the seconds measured
n = int(re.search(r'data-ps-bars="(\d+)"', dom).group(1))
secs = -(-c["duration_ns"] // c["intervals"]["length_ns"])
assert n == len(c["intervals"]["list"]) == secs, (n, len(c["intervals"]["list"]), secs)
# one timeline per worst gap; its stretches add up to the gap, each its share of it
tls = re.findall(r'<svg class="timeline"[^>]*data-dur-ns="(\d+)">(.*?)</svg>', dom)
stories = len(re.findall(r'<ol class="stories">|<li class="c-', dom)) - 1
assert len(tls) == stories == min(20, c["gap_count"]), (len(tls), stories)
for dur, body in tls:
    segs = re.findall(r'data-ns="(\d+)" x="[\d.]+" y="0" width="([\d.]+)"', body)
    assert segs and abs(sum(float(w) for _, w in segs) - 600) < 6, (dur, segs)
    assert all(abs(float(w) - 600 * int(ns) / int(dur)) < 0.02 for ns, w in segs), segs
print("ok: pictures: %d cause bars as drawn (%s), %d per-second bars, %d timelines"
      % (len(bars), ", ".join("%s %s %%" % (b[0], b[2]) for b in bars[:3]), n, len(tls)))
PY
# the figures were painted: the legend's colours are on the screenshot
painted "$TMP/h.html" 1400 1400 2000 2

# a stall every 5 ms (1.5 ms long) no probe names: folded by its period, one column
need_tools jsinject
"$INJ" --mode preempt --cpu 1 --helper-cpu 0 --period 5000 --spin 1500 \
	--duration 3 >"$TMP/inj.txt" 2>&1 &
inj=$!
sleep 0.3
"$JS" --cpu 1 --duration 2 --no-probes -T 1ms --html "$TMP/f.html" --json "$TMP/f.json" -q \
	>/dev/null 2>"$TMP/err" || fail "folded run exited $? ($(cat "$TMP/err"))"
wait "$inj" || { cat "$TMP/inj.txt"; fail "jsinject --mode preempt"; }
chrome "$TMP/f.html" --dump-dom >"$TMP/fdom.html" 2>"$TMP/chr3.err" || fail "chromium exited $?"
grep -q 'data-rendered="ok"' "$TMP/fdom.html" || fail "the folded page's script did not run"
python3 - "$TMP/fdom.html" "$TMP/f.json" <<'PY' || fail "the folded picture is wrong"
import json, re, sys
dom = open(sys.argv[1]).read()
p = json.load(open(sys.argv[2]))["cpus"][0]["unexplained_periodicity"]
assert p["periodic"] and p["period_ns"] == 5000000, p
svg = re.search(r'<svg class="fig folded"[^>]*data-period-ns="(\d+)">(.*?)</svg>', dom, re.S)
if p["strength"] < 0.8:
    assert not svg, "folded at coherence %.2f" % p["strength"]
    sys.exit("coherence %.2f < 0.8 with a stall every 5 ms: %s" % (p["strength"], p))
assert svg and int(svg.group(1)) == 5000000, "no folded picture at coherence %.2f" % p["strength"]
bins = [(int(lo), int(hi), float(n)) for lo, hi, n in re.findall(
    r'data-lo-ns="(\d+)" data-hi-ns="(\d+)" data-n="([\d.]+)"', svg.group(2))]
assert len(bins) == 50, len(bins)
top = max(range(50), key=lambda i: bins[i][2])
at = int(p["phase_ns"] * 50 // 5000000)
assert min((top - at) % 50, (at - top) % 50) <= 1, (top, at, bins)
assert bins[top][2] >= 0.5 * sum(b[2] for b in bins), bins
print("ok: folded at 5 ms: column %d (%.0f of %.0f gaps) at the phase %.0f us, coherence %.2f"
      % (top, bins[top][2], sum(b[2] for b in bins), p["phase_ns"] / 1e3, p["strength"]))
PY
if [ -n "${JS_TEST_KEEP:-}" ]; then
	mkdir -p "$JS_TEST_KEEP" && cp "$TMP/h.html" "$TMP/h.html.png" "$TMP/f.html" "$JS_TEST_KEEP/"
fi
exit 0
