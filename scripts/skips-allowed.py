#!/usr/bin/env python3
"""skips-allowed.py - the skips CI allows, as tests/skips-allowed.txt lists them.

The list (JS_SKIPS_ALLOWED, else tests/skips-allowed.txt) has one allowed skip a line, four
fields separated by tabs: TESTS PART REASON LACKS. TESTS: the tests' source paths from the
repository's root, separated by spaces, each may be a glob (tests/integration/attrib_*.sh;
a unit binary by its source, tests/unit/test_smi.c). PART: "-" for a "skip: REASON" line (a
whole test skipped, or a part of a passing one its line does not name), else the PART of a
"skip PART: REASON" line. REASON: a Python regular expression the reason must match from its
start (re.match). LACKS: what the machine lacks, for docs/HACKING.md. '#' starts a comment
line.

    scripts/skips-allowed.py match TEST      skip lines ("skip: R", "skip P: R") on stdin;
                                             prints each one the list does not allow TEST,
                                             as run-tests.sh shows it ("R", "P: R")
    scripts/skips-allowed.py doc [--write]   the docs/HACKING.md table; --write puts it
                                             between its markers
    scripts/skips-allowed.py check           the list is well formed, every test it names
                                             exists and, for an entry of a part, prints
                                             "skip PART: " and the reason's literal start
                                             (its sources or tests/lib), docs/HACKING.md's
                                             table is current

A test matches an entry when its file name matches one of the entry's file names (a unit
source's ".c" dropped: build/tests/test_smi is tests/unit/test_smi.c). --doc-file FILE (before
the command): another markdown file. Exit 0 all allowed / fine, 1 not, 64 usage or a bad list.
"""
import argparse
import fnmatch
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- skips table: scripts/skips-allowed.py doc --write writes it -->"
END = "<!-- end of the skips table -->"
SKIP_RE = re.compile(r"^skip(?: ([^:]*))?: (.*)$")


def die(msg):
    print("skips-allowed: %s" % msg, file=sys.stderr)
    sys.exit(64)


def list_path():
    return os.environ.get("JS_SKIPS_ALLOWED") or os.path.join(ROOT, "tests/skips-allowed.txt")


def read_list(path):
    """the entries of the list at path: dicts of tests, part, reason (compiled), lacks, line"""
    entries = []
    try:
        f = open(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = [x.strip() for x in re.split(r"\t+", line)]
            if len(fields) != 4 or not all(fields):
                die("%s:%d: not four tab-separated fields (TESTS PART REASON LACKS)" % (path, n))
            tests, part, reason, lacks = fields
            try:
                rx = re.compile(reason)
            except re.error as e:
                die("%s:%d: REASON %r: %s" % (path, n, reason, e))
            entries.append({"tests": tests.split(), "part": "" if part == "-" else part,
                            "reason": rx, "lacks": lacks, "line": n})
    return entries


def key(name):
    """a test's name as entries and run-tests.sh's arguments are compared: the file name, a
    unit source's .c dropped"""
    b = os.path.basename(name)
    return b[:-2] if b.endswith(".c") else b


def allowed(entries, test, part, reason):
    return any(e["part"] == part and e["reason"].match(reason) and
               any(fnmatch.fnmatchcase(key(test), key(p)) for p in e["tests"])
               for e in entries)


def do_match(entries, test):
    bad = 0
    for line in sys.stdin:
        m = SKIP_RE.match(line.rstrip("\n"))
        if not m:
            continue
        part, reason = m.group(1) or "", m.group(2)
        if not allowed(entries, test, part, reason):
            print("%s: %s" % (part, reason) if part else reason)
            bad = 1
    return bad


def table(entries):
    rows = ["| test | part | the reason matches | the machine lacks |", "|---|---|---|---|"]
    for e in entries:
        tests = ", ".join("`%s`" % os.path.basename(p) for p in e["tests"])
        part = "`skip %s:`" % e["part"] if e["part"] else "`skip:`"
        rx = e["reason"].pattern.replace("|", "\\|")
        rows.append("| %s | %s | `%s` | %s |" % (tests, part, rx, e["lacks"]))
    return "\n".join(rows) + "\n"


def literal_start(rx):
    """the start of regular expression rx that is plain text ("the kernel saw " of
    "the kernel saw [0-4] gaps")"""
    m = re.match(r"[^\\\[\](){}.*+?^$|]*", rx.pattern)
    return m.group(0)


def printed(e):
    """whether a part entry's "skip PART: REASON" is written in its tests' sources (the
    files of a test's name, any extension: attrib_entry.sh runs attrib_entry.py) or the
    shared test libraries. A part the tests spell otherwise is never allowed: its skip
    fails CI."""
    want = "skip %s: %s" % (e["part"], literal_start(e["reason"]))
    files = [f for p in e["tests"] for t in glob.glob(os.path.join(ROOT, p))
             for f in glob.glob(os.path.splitext(t)[0] + ".*")]
    files += glob.glob(os.path.join(ROOT, "tests/lib/*"))
    for f in files:
        try:
            with open(f, errors="replace") as src:
                if want in src.read():
                    return True
        except OSError:
            pass
    return False


def with_table(text, tab, path):
    """text with the table between its markers"""
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        die("%s: no %s ... %s markers" % (path, BEGIN, END))
    return text[:i + len(BEGIN)] + "\n\n" + tab + "\n" + text[j:]


def main(argv):
    ap = argparse.ArgumentParser(prog="scripts/skips-allowed.py")
    ap.add_argument("--doc-file", default=os.path.join(ROOT, "docs/HACKING.md"))
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("match").add_argument("test")
    sub.add_parser("doc").add_argument("--write", action="store_true")
    sub.add_parser("check")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 64 if e.code else 0
    path = list_path()
    entries = read_list(path)
    if a.cmd == "match":
        return do_match(entries, a.test)
    tab = table(entries)
    if a.cmd == "doc" and not a.write:
        sys.stdout.write(tab)
        return 0
    with open(a.doc_file) as f:
        text = f.read()
    if a.cmd == "doc":
        with open(a.doc_file, "w") as f:
            f.write(with_table(text, tab, a.doc_file))
        return 0
    bad = 0
    for e in entries:
        for p in e["tests"]:
            if not glob.glob(os.path.join(ROOT, p)):
                print("%s:%d: no test %s" % (path, e["line"], p))
                bad = 1
        if e["part"] and not printed(e):
            print("%s:%d: no test of it prints \"skip %s: %s\"" %
                  (path, e["line"], e["part"], literal_start(e["reason"])))
            bad = 1
    if with_table(text, tab, a.doc_file) != text:
        print("%s: its skips table is not what %s gives: run scripts/skips-allowed.py"
              " doc --write" % (a.doc_file, path))
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
