# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""jsfiles.py - the one reader of the files the bench and the integration tests read back:
jitterscope's --gaps CSV (docs/JSON.md, "--gaps FILE") and jsinject's --log CSV
(docs/INJECTOR.md). bench/lib, tests/lib/attrib_lib.py and tests/integration/sampler_hooks.py
import it; a script elsewhere puts this folder on sys.path first.

Both readers check the header and raise ValueError when it is not what they read (OSError
when the file cannot be opened): a changed file format fails loudly, never as zeros.
"""
import csv
import re

# the --gaps columns every reader needs; later ones (entry_ns, entry_causes) are optional
GAPS_COLUMNS = ["cpu", "start_ns", "duration_ns", "cause", "detail", "causes", "steal_ns",
                "unexplained_ns"]
INJECT_COLUMNS = ["mode", "seq", "start_ns", "end_ns"]


def parse_causes(s):
    """a gap's causes column, `class:detail=net_ns;...` -> [(class, detail, net_ns)] (a net
    time that is not a number reads as 0)"""
    out = []
    for part in s.split(";") if s else []:
        head, _, net = part.rpartition("=")
        cls, _, detail = head.partition(":")
        try:
            out.append((cls, detail, int(net)))
        except ValueError:
            out.append((cls, detail, 0))
    return out


def gap_rows(path, cpu=None, source=None):
    """the --gaps CSV's rows, as dicts by column, of one CPU (every CPU when cpu is None) and
    one source (sampler, thread or mark; every source when None; a file without the source
    column is all sampler), in file order; each row's "line" is its line in the file (the
    first row is line 2)"""
    rows = []
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        if not rd.fieldnames or not set(GAPS_COLUMNS) <= set(rd.fieldnames):
            raise ValueError("%s: header %s lacks %s" % (path, rd.fieldnames, GAPS_COLUMNS))
        for n, r in enumerate(rd, 2):
            if (cpu is None or int(r["cpu"]) == cpu) and \
                    (source is None or (r.get("source") or "sampler") == source):
                r["line"] = n
                rows.append(r)
    return rows


def inject_actions(path, mode=None):
    """jsinject's log -> [(seq, start_ns, end_ns)] in file order (CLOCK_MONOTONIC); with
    mode, every row must be of that mode"""
    acts = []
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        if rd.fieldnames != INJECT_COLUMNS:
            raise ValueError("%s: unexpected header %s" % (path, rd.fieldnames))
        for r in rd:
            if mode and r["mode"] != mode:
                raise ValueError("%s: mode %s, expected %s" % (path, r["mode"], mode))
            acts.append((int(r["seq"]), int(r["start_ns"]), int(r["end_ns"])))
    return acts


def prom_value(text, name):
    """the value of sample NAME (with its labels, as written) in a Prometheus text exposition,
    an int; an AssertionError when it is not there"""
    m = re.search(r"^%s (\d+)$" % re.escape(name), text, re.M)
    assert m, "no %s in the exposition" % name
    return int(m.group(1))


def woken_by_writer(g):
    """is gap g's waker jsinject's pipe writer: jswriter, a task on CPU 0, in write(2)"""
    w = g.get("waker")
    return (w is not None and w["comm"] == "jswriter" and w["context"] == "task"
            and w["cpu"] == 0 and w["syscall"] == "write"
            and w["text"].startswith("jswriter:%d on CPU 0 via write " % w["pid"]))
