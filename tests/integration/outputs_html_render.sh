#!/bin/bash
# outputs_html_render.sh - the --html page of a real run on CPU 1 renders in headless Chromium
# without console messages, its script runs to the end (data-rendered, points and bars in the
# DOM), and the screenshot shows the figures' colours. Skips without chromium (Debian
# chromium; a failure under CI=true). The page's content: outputs_trace_html.sh.
# JS_TEST_KEEP=DIR keeps the page and the screenshot there.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
need_chromium

"$JS" --cpu 1 --duration 2 --html "$TMP/h.html" -q -n 20 >/dev/null 2>"$TMP/err" ||
	fail "run exited $? ($(cat "$TMP/err"))"
render "$TMP/h.html" 1400 1400
grep -q 'data-points="[1-9]' "$TMP/dom.html" || fail "no scatter points in the DOM"
grep -q 'data-bars="[1-9]' "$TMP/dom.html" || fail "no histogram bars in the DOM"
# the figures were painted: the legend's colours are on the screenshot
painted "$TMP/h.html" 1400 1400 2000 2
if [ -n "${JS_TEST_KEEP:-}" ]; then
	mkdir -p "$JS_TEST_KEEP" && cp "$TMP/h.html" "$TMP/h.html.png" "$JS_TEST_KEEP/"
fi
exit 0
