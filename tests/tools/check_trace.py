#!/usr/bin/env python3
# check_trace.py - structural checks of a jitterscope --trace file (Chrome Trace Event JSON)
# against the run's --json (and optionally its --gaps CSV).
#
#   check_trace.py TRACE.json RUN.json [GAPS.csv]
#
# Checks: the object form and otherData; ph/ts/pid/tid/name on every event, dur on X;
# every X slice of one (pid, tid) track properly nested (no partial overlap, in integer ns);
# track names; gap slices: count <= cap, == gap_count when not capped, args coherent with
# the JSON, the JSON's worst gaps present; event slices: known categories, sensible names;
# counters add up to gap_count; with the CSV and a capped trace: the kept gaps are the
# longest of the run. Exit 0 = pass, 1 = fail (message on stderr).
import csv
import json
import re
import sys
from collections import defaultdict
from decimal import Decimal

CATS = {"irq", "timer", "ipi", "vector", "softirq", "hrtimer", "nmi", "task", "idle", "work",
        "fault", "tlb", "mm", "event"}
CAUSES = {"unexplained", "task", "idle", "irq", "timer", "ipi", "vector", "softirq", "hrtimer",
          "nmi", "fault", "work", "thp", "tlb", "mm", "event", "steal", "host-reload", "host-clock",
          "host-periodic", "smi"}


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def ns(x):
    """µs with 3 decimals -> integer ns, exactly"""
    return int((Decimal(str(x)) * 1000).to_integral_value())


def load(path):
    with open(path) as f:
        return json.load(f, parse_float=Decimal)


def check_envelope(t):
    check(isinstance(t, dict) and isinstance(t.get("traceEvents"), list), "not the object form")
    check(t.get("displayTimeUnit") == "ns", "displayTimeUnit")
    od = t.get("otherData", {})
    for k in ("tool", "version", "cpus", "origin_clock_monotonic_ns", "origin_unix_ns",
              "tsc_hz", "threshold_ns", "max_events", "cap_rule", "per_cpu"):
        check(k in od, "otherData lacks " + k)
    check(od["tool"] == "jitterscope", "otherData.tool")
    return od


def check_fields(ev, wall_ns):
    for e in ev:
        for k in ("ph", "ts", "pid", "tid", "name"):
            check(k in e, "event without %s: %s" % (k, e))
        check(e["ph"] in ("X", "i", "C", "M"), "unexpected phase %s" % e["ph"])
        check(re.fullmatch(r"\d+(\.\d{1,3})?", str(e["ts"])) is not None,
              "ts is not µs with at most 3 decimals: %s" % e["ts"])
        check(0 <= ns(e["ts"]) <= wall_ns + 2 * 10**9, "ts out of the run: %s" % e)
        if e["ph"] == "X":
            check("dur" in e and Decimal(str(e["dur"])) >= 0, "X without dur: %s" % e)
        if e["ph"] == "i":
            check(e.get("s") in ("t", "p", "g"), "instant scope: %s" % e)
        check(isinstance(e["name"], str) and e["name"].strip(), "empty name: %s" % e)
        check("(null)" not in e["name"] and "?" not in e["name"], "odd name: %s" % e["name"])


def check_nesting(ev):
    tracks = defaultdict(list)
    for e in ev:
        if e["ph"] == "X":
            s = ns(e["ts"])
            tracks[(e["pid"], e["tid"])].append((s, s + ns(e["dur"]), e["name"]))
    for key, v in tracks.items():
        v.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for s, e, name in v:
            while stack and stack[-1][1] <= s:
                stack.pop()
            if stack and e > stack[-1][1]:
                fail("track %s: %r overlaps the end of %r" % (key, (s, e, name), stack[-1]))
            stack.append((s, e, name))
    return len(tracks)


def thread_names(ev):
    names = {}
    for e in ev:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    return names


def check_tracks(ev, names, cpu):
    procs = [e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"]
    check("jitterscope cpu%d" % cpu in procs, "no process named jitterscope cpu%d" % cpu)
    for e in ev:
        if e["ph"] not in ("X", "i"):
            continue
        tn = names.get((e["pid"], e["tid"]))
        check(tn is not None, "event on an unnamed track: %s" % e)
        cat = e.get("cat")
        want = "cpu%d %s" % (cpu, "gaps" if cat == "gap" else cat)
        check(tn == want, "event of category %s on track %s" % (cat, tn))
        if cat != "gap":
            check(cat in CATS, "unknown category %s" % cat)


def check_event_names(evs):
    for e in evs:
        cat, n = e["cat"], e["name"]
        if cat == "irq":
            check(re.match(r"irq \d+", n), "irq name %s" % n)
        elif cat in ("hrtimer", "work", "nmi"):
            check(n.startswith(cat + " ") and len(n) > len(cat) + 1, "%s name %s" % (cat, n))
        elif cat == "fault":
            check(re.match(r"fault (user|kernel) .+:\d+$", n), "fault name %s" % n)
        elif cat == "task":
            check(re.match(r".+:\d+$", n), "task name %s" % n)
        elif cat == "timer":
            check(n == "local_timer", "timer name %s" % n)
        elif cat == "tlb":
            check(n.startswith("tlb flush "), "tlb name %s" % n)


def check_gaps(gaps, c, pc, threshold):
    for g in gaps:
        a = g["args"]
        check(g["name"].startswith("gap "), "gap name %s" % g["name"])
        for k in ("gap_ns", "start_ns", "cause", "detail", "story", "causes", "steal_ns",
                  "unexplained_ns"):
            check(k in a, "gap args lack %s" % k)
        check(a["cause"] in CAUSES, "gap cause %s" % a["cause"])
        check(a["gap_ns"] >= threshold, "gap below the threshold")
        check(0 <= a["gap_ns"] - ns(g["dur"]) <= 2, "dur %s vs gap_ns %s" % (g["dur"], a["gap_ns"]))
        check(a["unexplained_ns"] + a["steal_ns"] <= a["gap_ns"], "gap parts exceed it")
        check(all(p["cause"] in CAUSES for p in a["causes"]), "part cause")
    check(len(gaps) == pc["gaps_in_trace"], "gaps_in_trace %d vs %d slices"
          % (pc["gaps_in_trace"], len(gaps)))
    check(pc["gaps_total"] == c["gap_count"], "gaps_total %d != JSON gap_count %d"
          % (pc["gaps_total"], c["gap_count"]))


def check_counters(ev, pid, c):
    """the gaps-per-second counter times each bin's length adds up to gap_count"""
    samples = sorted((ns(e["ts"]), float(e["args"]["gaps"])) for e in ev
                     if e["ph"] == "C" and e["pid"] == pid and e["name"] == "gaps per s")
    if not samples:
        check(c["gap_count"] == 0, "no gaps-per-second counter for %d gaps" % c["gap_count"])
        return
    check(samples[-1][1] == 0, "no closing counter sample")
    total = sum(v * (samples[i + 1][0] - ts) / 1e9 for i, (ts, v) in enumerate(samples[:-1]))
    check(abs(total - c["gap_count"]) < 0.5 + 1e-3 * c["gap_count"],
          "counters add up to %.1f gaps, JSON says %d" % (total, c["gap_count"]))


def check_longest(gaps, csv_path):
    rows = list(csv.DictReader(open(csv_path)))
    kept = {g["args"]["start_ns"] for g in gaps}
    kept_d = [int(r["duration_ns"]) for r in rows if int(r["start_ns"]) in kept]
    left_d = [int(r["duration_ns"]) for r in rows if int(r["start_ns"]) not in kept]
    check(len(kept_d) == len(gaps), "trace gaps not found in the CSV")
    if kept_d and left_d:
        check(min(kept_d) >= max(left_d), "a left-out gap (%d ns) is longer than a kept one "
              "(%d ns)" % (max(left_d), min(kept_d)))
    return len(rows)


def main():
    t, run = load(sys.argv[1]), load(sys.argv[2])
    od = check_envelope(t)
    ev = t["traceEvents"]
    check(len(ev) <= od["max_events"], "%d events > cap %d" % (len(ev), od["max_events"]))
    check_fields(ev, run["wall_ns"])
    ntracks = check_nesting(ev)
    names = thread_names(ev)
    c = run["cpus"][0]
    cpu = c["cpu"]
    pc = od["per_cpu"][0]
    check_tracks(ev, names, cpu)
    gaps = [e for e in ev if e.get("cat") == "gap"]
    others = [e for e in ev if e["ph"] in ("X", "i") and e.get("cat") != "gap"]
    check_event_names(others)
    check_gaps(gaps, c, pc, run["params"]["threshold_ns"])
    check(len(gaps) <= od["max_events"], "more gaps than the cap")
    if not pc["capped"]:
        check(len(gaps) == c["gap_count"], "not capped but %d gap slices != gap_count %d"
              % (len(gaps), c["gap_count"]))
        check(sum(g["args"]["gap_ns"] for g in gaps) == c["lost_ns"], "sum of gaps != lost_ns")
    else:
        check(pc["gaps_left_out"] + pc["gaps_in_trace"] == pc["gaps_total"], "capped counts")
    starts = {g["args"]["start_ns"]: g for g in gaps}
    worst = c["top"][:min(len(c["top"]), len(gaps))]
    for w in worst:
        g = starts.get(w["start_ns"])
        check(g is not None, "worst gap at %d not in the trace" % w["start_ns"])
        check(g["args"]["cause"] == w["cause"], "worst gap cause differs")
    pid = [e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"
           and e["args"]["name"] == "jitterscope cpu%d" % cpu][0]
    check_counters(ev, pid, c)
    rows = check_longest(gaps, sys.argv[3]) if len(sys.argv) > 3 else None
    print("ok: %d events on %d tracks, %d of %d gaps%s, %d event slices/instants%s" %
          (len(ev), ntracks, len(gaps), c["gap_count"], " (capped)" if pc["capped"] else "",
           len(others), ", kept gaps are the longest of %d" % rows if rows else ""))


if __name__ == "__main__":
    main()
