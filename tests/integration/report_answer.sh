#!/bin/bash
# report_answer.sh - `jitterscope report RUN.json` opens with the answer: under the title,
# what was lost (time, share of the run), the top three causes with their shares, and the
# first thing to fix. The expected answer is computed here from the JSON itself (the
# classes' total_ns, the CPUs' lost_ns and duration_ns, the audit's checks), not from the
# text: on the saved fixture run (no root needed), then, as root, on a fresh run whose
# report must say the same as `report` of its JSON.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/lib.bash"

# expect FILE.json REPORT.txt - the answer lines of REPORT.txt against FILE.json
expect() {
	python3 - "$1" "$2" <<'PY' || fail "$2: the answer does not match $1"
import json, sys
run = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().split("\n")
sev = ["info", "low", "med", "high", "crit"]
cpus = [c for c in run["cpus"] if c.get("source", "sampler") != "mark"]
lost = sum(c["lost_ns"] for c in cpus)
dur = sum(c["duration_ns"] for c in cpus)
by = {}
for c in cpus:
    for k, v in (c.get("by_class") or {}).items():
        by[k] = by.get(k, 0) + v["total_ns"]
top = sorted(((v, k) for k, v in by.items() if v), key=lambda x: -x[0])[:3]
assert lines[0].startswith("jitterscope "), lines[0]
assert lines[1].startswith("answer:      "), lines[1]
assert " lost " in lines[1] and lines[1].endswith("(%.1f %%)" % (100.0 * lost / dur)), \
    (lines[1], lost, dur)
want = ", ".join("%s %.1f %%" % (k, 100.0 * v / lost) for v, k in top)
assert lines[2].startswith("  lost to:   " + want + " "), (lines[2], want)
assert lines[3].startswith("  fix first: "), lines[3]
checks = [k for k in (run.get("audit") or {}).get("checks", [])
          if k["verdict"] in ("fail", "warn") and k["hint"]]
if checks:
    best = max(checks, key=lambda k: (sev.index(k["severity"]) * 2 + (k["verdict"] == "fail"),
                                      -checks.index(k)))
    assert lines[3] == "  fix first: %s (check %s: %s %s)" % (
        best["hint"], best["id"], best["verdict"].upper(), best["severity"].upper()), \
        (lines[3], best["id"])
elif run.get("audit"):
    assert lines[3] == "  fix first: no setting to fix: the remaining loss is %s (%.1f %%)" % (
        top[0][1], 100.0 * top[0][0] / lost), lines[3]
print("ok: %s: %s | %s | %s" % (sys.argv[1], lines[1].strip(), lines[2].strip(),
                                lines[3].strip()))
PY
}

FIX="$ROOT/tests/data/runs-v1/vm-preempt.json"
"$JS" report "$FIX" >"$TMP/fixture.txt" 2>"$TMP/fixture.err" ||
	fail "report of the fixture exited $? ($(cat "$TMP/fixture.err"))"
expect "$FIX" "$TMP/fixture.txt"

# the test itself must catch a wrong answer: the fixture's text with its top cause swapped
sed '3s/task /timer /' "$TMP/fixture.txt" >"$TMP/wrong.txt"
if (expect "$FIX" "$TMP/wrong.txt") >/dev/null 2>&1; then
	fail "the check accepts an answer that names the wrong top cause"
fi

[ "$(id -u)" -eq 0 ] && [ "$(nproc)" -ge 2 ] || skip "the fresh run needs root and 2 CPUs (the fixture passed)"
need_cpu1 # the noise gauge of the fresh run
"$JS" --cpu 1 --duration 1 -q --json "$TMP/run.json" >"$TMP/run.txt" 2>"$TMP/run.err" ||
	fail "run exited $? ($(cat "$TMP/run.err"))"
expect "$TMP/run.json" "$TMP/run.txt"
"$JS" report "$TMP/run.json" >"$TMP/again.txt" 2>"$TMP/again.err" ||
	fail "report exited $? ($(cat "$TMP/again.err"))"
diff <(head -4 "$TMP/run.txt") <(head -4 "$TMP/again.txt") >&2 ||
	fail "the saved run's answer differs from the run's"
echo "ok: the run and its saved JSON give the same answer"
