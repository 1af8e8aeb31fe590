#!/usr/bin/env python3
"""timing-doc.py [TIMING [DOC [COMMIT]]] - put a run's timing table (scripts/run-tests.sh keeps it in
build/test-logs/timing.txt) into docs/HACKING.md between its timing markers, with the commit
and the day of the run (COMMIT: the commit it ran on, when HEAD has moved since): the figures
come from that run, never typed. Exit 0 written, 1 no table or no markers."""
import datetime
import os
import subprocess
import sys

timing = sys.argv[1] if len(sys.argv) > 1 else "build/test-logs/timing.txt"
doc = sys.argv[2] if len(sys.argv) > 2 else "docs/HACKING.md"
BEGIN = "<!-- timing table: scripts/timing-doc.py writes it from make check's run -->"
END = "<!-- end of the timing table -->"

try:
    lines = open(timing).read().splitlines()
except OSError as e:
    sys.exit("timing-doc.py: %s: %s" % (timing, e.strerror))
if not lines or not lines[0].startswith("seconds per test (all,"):
    sys.exit("timing-doc.py: %s is not make check's timing table" % timing)
text = open(doc).read()
if BEGIN not in text or END not in text:
    sys.exit("timing-doc.py: %s has no timing markers" % doc)
commit = sys.argv[3] if len(sys.argv) > 3 else (
    subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                   text=True).stdout.strip() or "unknown")
day = datetime.date.fromtimestamp(os.stat(timing).st_mtime).isoformat()
block = [BEGIN, "", "From `make check` at commit %s on %s (%s):" % (commit, day, lines[0].rstrip(":")),
         "", "```"] + [l.strip() for l in lines[1:]] + ["```", "", END]
a = text.index(BEGIN)
b = text.index(END) + len(END)
open(doc, "w").write(text[:a] + "\n".join(block) + text[b:])
print("timing-doc.py: %d tests into %s" % (len(lines) - 1, doc))
