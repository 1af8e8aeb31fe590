# SPDX-License-Identifier: GPL-2.0
"""folded_check.py - a --folded file judged against the run's JSON (docs/OUTPUTS.md, "--folded").

  python3 tests/lib/folded_check.py FOLDED RUN.json [--stacked REGEX]

Every line is "FRAME;FRAME;... WEIGHT" with a positive integer weight and no blank or control
character in its frames; its first frame names one of the run's results (cpuN, markN, comm/tid
of a followed thread) and its second a cause class; per result and class the weights add up
to the JSON's by_class[CLASS].total_ns, exactly, and every class there that lost time has
lines. With
--stacked, at least one line whose frames after the source match REGEX (searched in them
joined by ';') carries a kernel stack. Prints one summary line; exits 1 with the reason.
"""
import json
import re
import sys
from collections import defaultdict


def frame(name):
    """name as --folded writes a frame: ';' made ':', blanks and control characters '_'"""
    return "".join(":" if ch == ";" else "_" if ord(ch) <= 32 or ord(ch) == 127 else ch
                   for ch in name)


def result_key(src, r):
    if src == "threads":
        comm, _, tid = r["thread"].rpartition(":")
        return frame("%s/%s" % (comm, tid) if comm and r.get("tid") else r["thread"])
    return "%s%d" % ("mark" if src == "marks" else "cpu", r["cpu"])


def check(folded, run, stacked=None):
    want = {}
    for src in ("cpus", "threads", "marks"):
        for r in run.get(src) or []:
            want[result_key(src, r)] = {k: v["total_ns"] for k, v in r["by_class"].items()
                                        if v["total_ns"]}
    got = defaultdict(lambda: defaultdict(int))
    lines = stacks = 0
    for ln in open(folded):
        lines += 1
        m = re.fullmatch(r"(\S+) ([1-9][0-9]*)\n", ln)
        assert m, "line %d is not FRAMES WEIGHT: %r" % (lines, ln)
        fr = m.group(1).split(";")
        assert len(fr) >= 3 and all(fr), "line %d: frames %r" % (lines, fr)
        assert fr[0] in want, "line %d: %s is none of the run's results %s" % (
            lines, fr[0], sorted(want))
        got[fr[0]][fr[1]] += int(m.group(2))
        if stacked and len(fr) > 3 and re.search(stacked, ";".join(fr[3:])):
            stacks += 1
    for res, classes in want.items():
        assert dict(got[res]) == classes, "%s: the file's weights per class %s, the JSON's %s" % (
            res, dict(got[res]), classes)
    assert not stacked or stacks, "no line with a kernel stack matching %s" % stacked
    print("ok: %s: %d lines, %d results, each class's weights = its time lost in the JSON%s"
          % (folded, lines, len(want), ", %d stacked lines" % stacks if stacked else ""))


def main(argv):
    stacked = None
    if len(argv) == 5 and argv[3] == "--stacked":
        stacked = argv[4]
    elif len(argv) != 3:
        sys.exit(__doc__)
    try:
        check(argv[1], json.load(open(argv[2])), stacked)
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
