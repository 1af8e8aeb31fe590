#!/bin/bash
# report_answer.sh - `jitterscope report RUN.json` opens with the answer: under the title,
# what was lost (time, share of the run), the top three causes with their shares (the
# unexplained one with its period), what of it is outside the guest, and the first thing to
# fix: the finding whose causes lost the most, with that time. The expected answer is computed here from the JSON itself (the
# classes' total_ns, the CPUs' lost_ns and duration_ns, the audit's checks), not from the
# text: on the saved fixture run (no root needed), then, as root, on a fresh run whose
# report must say the same as `report` of its JSON.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"

# expect FILE.json REPORT.txt - the answer lines of REPORT.txt against FILE.json: what was
# lost, the top causes (the unexplained share with its period, in a guest the host's, not known
# in the gaps whose events the probes lost or evicted), the
# outside line when the largest share is outside the guest, and fix first: the problem whose
# tied causes (each result's explained_by_checks) lost the most, with that time, never a
# parameter the audited command line has; a run saved before the ties: the most severe
expect() {
	python3 - "$1" "$2" <<'PY' || fail "$2: the answer does not match $1"
import json, sys
run = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\n")
sev = ["info", "low", "med", "high", "crit"]
marks = run.get("marks") or []
# with marks the answer is theirs: their time, of the longest marks window
cpus = marks or [c for c in run["cpus"] + (run.get("threads") or [])
                 if c.get("source", "sampler") != "mark"]
lost = sum(c["lost_ns"] for c in cpus)
dur = max(c["duration_ns"] for c in cpus) if marks else sum(c["duration_ns"] for c in cpus)
by = {}
for c in cpus:
    for k, v in (c.get("by_class") or {}).items():
        by[k] = by.get(k, 0) + v["total_ns"]
top = sorted(((v, k) for k, v in by.items() if v), key=lambda x: -x[0])[:3]
audit = run.get("audit") or {}
host = run["machine"].get("vm", run["machine"].get("hypervisor")) or \
    (audit.get("facts") or {}).get("hypervisor")
# the unexplained time of gaps whose events were lost in the kernel or evicted before their
# gap (the source "events lost or evicted") is not known; the rest, in a guest, the host's
pr = run.get("probes") or {}
unknown_ns = sum(s["total_ns"] for c in cpus for s in c.get("sources") or []
                 if s["cause"] == "unexplained" and s["detail"] == "events lost or evicted")
unknown = None
if pr.get("enabled") and unknown_ns:
    unknown = "events lost in the kernel" if pr.get("lost") else \
        "events evicted before their gap" if (pr.get("evicted") or 0) > (pr.get("shed") or 0) \
        else "events lost or evicted"


def fmt_ns(ns):  # js_fmt_ns
    return "%d ns" % ns if ns < 1e3 else "%.1f us" % (ns / 1e3) if ns < 1e6 else \
        "%.1f ms" % (ns / 1e6) if ns < 1e9 else "%.2f s" % (ns / 1e9)
assert text[0].startswith("jitterscope "), text[0]
labels = {}
for line in text[1:]:
    if not line:
        break
    key = line.strip().split(":", 1)[0]
    labels[key] = line[13:]
assert text[1].startswith("answer:      "), text[1]
if marks:
    n = sum(c["gap_count"] for c in marks)
    assert text[1].startswith("answer:      %d mark%s lost up to " % (n, "" if n == 1 else "s")) \
        and "(%.1f %%): " % (100.0 * lost / dur) in text[1], (text[1], n, lost, dur)
else:
    assert " lost " in text[1] and text[1].endswith("(%.1f %%)" % (100.0 * lost / dur)), \
        (text[1], lost, dur)

def note(k):
    if k != "unexplained":
        return ""
    most = max(cpus, key=lambda c: (c.get("by_class") or {}).get("unexplained", {})
               .get("total_ns", 0))
    per = most.get("unexplained_periodicity") or {}
    guest = "no guest event: the host" if host and not marks else ""
    h = guest
    if unknown and unknown_ns >= by["unexplained"]:
        h = unknown + ": not known"
    elif unknown:
        h = "%s: %s of it not known%s" % (unknown, fmt_ns(unknown_ns),
                                           "; the rest " + guest if guest else "")
    if per.get("periodic"):
        ms = per["period_ns"] / 1e6
        return " (every %s, coherence %.2f%s)" % (
            ("%.1f ms" % ms) if ms >= 1 else ("%.1f us" % (ms * 1e3)), per["strength"],
            "; " + h if h else "")
    return " (%s)" % h if h else ""

want = ", ".join("%s %.1f %%%s" % (k, 100.0 * v / lost, note(k)) for v, k in top)
assert labels["lost to"] == "%s (shares of the %s)" % (
    want, "time in marks" if marks else "time lost"), (labels["lost to"], want)
# outside the guest: the host's steal and classes (host-*), and unexplained time but a mark's
HOST = ("steal", "host-reload", "host-clock", "host-periodic")
out_of = lambda k: k in HOST or (k == "unexplained" and not marks and  # noqa: E731
                                   unknown_ns <= by["unexplained"] // 2)
outside = bool(top) and out_of(top[0][1])
assert ("outside" in labels) == outside, (labels, top)
if outside and host:
    share = sum(v - (min(unknown_ns, v) if k == "unexplained" else 0)
                for v, k in top if out_of(k)) * 100.0 / lost
    assert labels["outside"].startswith("%.1f %% of it is the host's" % share), labels
    assert "no guest setting removes it" in labels["outside"], labels
fix = labels["fix first"]
checks = audit.get("checks", [])
problem = lambda k: k["verdict"] in ("fail", "warn") and k["hint"] and not k.get("waived")
rank = lambda k: sev.index(k["severity"]) * 2 + (k["verdict"] == "fail")
tied = any("explained_by_checks" in c for c in cpus)
cands = {}
for c in cpus if tied else []:
    for t in c["explained_by_checks"]:
        k = next((k for k in checks if k["id"] == t["check"] and k["cpu"] == c["cpu"]), None) \
            or next((k for k in checks if k["id"] == t["check"] and k["cpu"] is None), None)
        if k and problem(k) and t["ns"]:
            e = cands.setdefault(id(k), [k, 0, len(cands)])
            e[1] += t["ns"]
cmdline = set((audit.get("facts") or {}).get("cmdline", "").split())
if cands:
    k, ns, _ = max(cands.values(), key=lambda e: (e[1], rank(e[0]), -e[2]))
    assert fix.startswith("%s (check %s: %s %s): recovers up to " % (
        k["hint"], k["id"], k["verdict"].upper(), k["severity"].upper())), (fix, k["id"], ns)
    assert fix.endswith(" %s (%s)" % ("in marks" if marks else "lost",
                                      ", ".join(run["answer"]["fix_first"]["causes"]))), fix
    assert run["answer"]["fix_first"]["check"] == k["id"], run["answer"]["fix_first"]
    assert run["answer"]["fix_first"]["recovers_ns"] == ns, (run["answer"]["fix_first"], ns)
    # never a parameter in force
    for w in k["hint"].replace(",", " ").split():
        assert "=" not in w or w not in cmdline, ("recommends what is set", w)
elif [k for k in checks if problem(k)]:
    best = max((k for k in checks if problem(k)), key=lambda k: (rank(k), -checks.index(k)))
    tail = "%s (check %s: %s %s)" % (best["hint"], best["id"], best["verdict"].upper(),
                                     best["severity"].upper())
    assert fix == tail or fix.endswith("the audit's most severe problem: " + tail), \
        (fix, best["id"])
elif audit:
    assert fix == "no setting to fix: the remaining loss is %s (%.1f %%)" % (
        top[0][1], 100.0 * top[0][0] / lost), fix
print("ok: %s: %s" % (sys.argv[1], " | ".join(l.strip() for l in text[1:len(labels) + 1])))
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

[ "$(id -u)" -eq 0 ] && [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "the fresh run needs root and 2 CPUs (the fixture passed)"
need_cpu1 # the noise gauge of the fresh run
"$JS" --cpu 1 --duration 1 -q --json "$TMP/run.json" >"$TMP/run.txt" 2>"$TMP/run.err" ||
	fail "run exited $? ($(cat "$TMP/run.err"))"
expect "$TMP/run.json" "$TMP/run.txt"
# the live guest's answer: its CPU's ties are made, the tick's to nohz_full (this kernel
# ticks at HZ on CPU 1, nohz_full or not: a tick that stayed stopped has no time to tie)
python3 - "$TMP/run.json" <<'PY' || fail "the live run's ties"
import json, sys
run = json.load(open(sys.argv[1]))
ties = run["cpus"][0]["explained_by_checks"]
timer = [t for t in ties if "timer" in t["causes"]]
assert all(t["check"] == "nohz_full" for t in timer), ties
assert run["answer"]["fix_first"] is None or run["answer"]["fix_first"]["check"], run["answer"]
print("ok: the live ties: %s" % ", ".join("%s %d ns" % (t["check"], t["ns"]) for t in ties))
PY
"$JS" report "$TMP/run.json" >"$TMP/again.txt" 2>"$TMP/again.err" ||
	fail "report exited $? ($(cat "$TMP/again.err"))"
diff <(sed '/^$/q' "$TMP/run.txt") <(sed '/^$/q' "$TMP/again.txt") >&2 ||
	fail "the saved run's answer differs from the run's"
echo "ok: the run and its saved JSON give the same answer"

# --pid with --marks: the answer is the application's marks' (their time, their causes), not
# the followed thread's: marked_loop on CPU 1 marks every iteration of 20 us or more
LOOP=$ROOT/build/examples/marked_loop
[ -x "$LOOP" ] || fail "no $LOOP (make builds it)"
: >"$TMP/marks.csv"
taskset -c 1 "$LOOP" "$TMP/marks.csv" 20 3 >"$TMP/loop.out" &
loop=$!
sleep 0.3
"$JS" --pid "$loop" --marks "$TMP/marks.csv" --duration 2 -q --json "$TMP/pm.json" \
	--gaps "$TMP/pm.csv" >"$TMP/pm.txt" 2>"$TMP/pm.err" &
jspid=$!
# one mark written 1 s late, once the run measures: its events had left the window (250 ms
# while the loop's marks come at once), so it is counted late, and the report says so
wait_measuring "$jspid" "$TMP/pm.csv" || fail "--pid --marks wrote no gap to its CSV"
sleep 1.1
python3 -c 'import time; t = time.monotonic_ns() - 1000000000; print("%d,%d,late" % (t, t + 50000))' \
	>>"$TMP/marks.csv"
wait "$jspid" || fail "--pid --marks exited $? ($(cat "$TMP/pm.err"))"
wait "$loop" || fail "marked_loop exited $?"
grep -q "marks lost up to " "$TMP/pm.txt" || fail "--pid --marks does not answer for the marks"
expect "$TMP/pm.json" "$TMP/pm.txt"
python3 - "$TMP/pm.json" "$TMP/pm.txt" <<'PY' || fail "the mark written 1 s late is not counted late"
import json, sys
late = json.load(open(sys.argv[1]))["marks_file"]["late"]
line = [l for l in open(sys.argv[2]) if l.startswith("marks: ")]
assert late >= 1, "marks_file.late %d" % late
want = "; %d read after their events had left the window, which grows" % late
assert line and want in line[0], (want, line)
print("ok: the mark written 1 s late: marks_file.late %d, said: %s" % (late, want.lstrip("; ")))
PY
