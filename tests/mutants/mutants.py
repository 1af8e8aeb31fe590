#!/usr/bin/env python3
"""mutants.py - `make mutants`: does each test catch the fault it is there for?

Each mutant below is one deliberate fault in the product: an exact piece of one source file
replaced by a wrong one. For each, the whole checkout (with its build) is copied to
build-mutants/NAME, the fault is applied there (it must match exactly once: a mutant that no
longer applies is an error, never a silent pass), the copy is rebuilt (only what the fault
touches), and the tests listed for it run against that copy's binary. A test that fails (any
exit but 0 and 77) killed the mutant; a mutant no listed test kills survived. First every
listed test runs once on the unmutated tree and must pass there, or its kill would mean
nothing.

Prints a table (mutant, what it breaks, each test's verdict) and exits 1 when a mutant
survived or a baseline test failed, 2 on a usage or set-up error. Root (the integration
tests measure CPU 1; run under scripts/cpu1-lock, as make mutants does). About 15 minutes.

  mutants.py [--only NAME[,NAME...]] [--keep] [--list]
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "build-mutants")

# name, what the fault breaks, file, the exact text, its replacement, the tests that must
# catch it (unit binaries by name, integration scripts by file name)
MUTANTS = [
    dict(name="steal-doubled",
         what="every steal increment given to the gaps twice",
         file="src/attrib/account.c",
         old="delta = corr_sat_sub(r[k + 1].steal_ns, r[k].steal_ns);",
         new="delta = 2 * corr_sat_sub(r[k + 1].steal_ns, r[k].steal_ns);",
         tests=["test_correlate", "attrib_cgroup.sh"]),
    dict(name="entry-tripled",
         what="the entry/exit bound three times what the rule gives",
         file="src/model/entry.c",
         old="return JS_MIN(b, entry_cap(m, k));",
         new="return 3 * JS_MIN(b, entry_cap(m, k));",
         tests=["test_entry", "attrib_entry.sh"]),
    dict(name="ipi-sender-dropped",
         what="IPIs never matched with their sender",
         file="src/attrib/correlate.c",
         old="\tmatch_senders(sc, g, o);\n",
         new="\t(void)match_senders;\n",
         tests=["test_correlate", "attrib_ipi.sh"]),
    dict(name="mark-dropped",
         what="every 50th mark of --marks dropped",
         file="src/measure/marks.c",
         old="\tpipe_push(ms->pl, &g, mk.label);\n}",
         new="\tif (number % 50)\n\t\tpipe_push(ms->pl, &g, mk.label);\n}",
         tests=["app_preempt.sh"]),
    dict(name="prom-bucket-shifted",
         what="every gap counted one Prometheus bucket too high",
         file="src/report/prom.c",
         old="c->count[cause][prom_bucket(g->gap.dur_ns)]++;",
         new="c->count[cause][JS_MIN(prom_bucket(g->gap.dur_ns) + 1, PROM_NB)]++;",
         tests=["test_out_prom", "outputs_prom.sh"]),
    dict(name="write-error-ignored",
         what="a failed output write never noticed during the run",
         file="src/report/output.c",
         old="err = flush ? output_file_flush(out->stream) : output_file_error(out->stream);",
         new="err = 0;\n\t\t(void)(flush ? output_file_flush(out->stream) : "
             "output_file_error(out->stream));",
         tests=["robust_failfast.sh"]),
    dict(name="softirq-probe-not-attached",
         what="the softirq_entry program said attached but never attached",
         file="src/probes/probes.c",
         old="\tp->links[k] = bpf_program__attach(p->bprogs[k]);\n",
         new="\tif (!strcmp(pp->name, \"softirq_entry\")) {\n"
             "\t\tpp->state = PROBES_PROG_ACTIVE;\n\t\treturn 0;\n\t}\n"
             "\tp->links[k] = bpf_program__attach(p->bprogs[k]);\n",
         tests=["attrib_softirq.sh"]),
]


def log(msg):
    print("mutants: " + msg, flush=True)


def test_cmd(tree, test):
    """the command running one test in checkout tree"""
    if test.endswith(".sh"):
        return ["bash", os.path.join(tree, "tests", "integration", test)]
    return [os.path.join(tree, "build", "tests", test)]


def run_test(tree, test, logdir):
    """run one test of checkout tree: 'pass', 'skip' or 'fail' (its output in logdir)"""
    env = dict(os.environ, JS_CPU1_LOCK_HELD="1", CMOCKA_MESSAGE_OUTPUT="stdout")
    env.pop("JS_BIN", None)
    path = os.path.join(logdir, test + ".log")
    t0 = time.monotonic()
    with open(path, "w") as f:
        rc = subprocess.call(test_cmd(tree, test), cwd=tree, env=env, stdout=f,
                             stderr=subprocess.STDOUT)
    verdict = "pass" if rc == 0 else "skip" if rc == 77 else "fail"
    log("  %-24s %s (exit %d, %.0f s; %s)" % (test, verdict, rc, time.monotonic() - t0, path))
    return verdict


def apply(tree, m):
    """the fault into checkout tree; an error when its text is not there exactly once"""
    path = os.path.join(tree, m["file"])
    with open(path) as f:
        src = f.read()
    n = src.count(m["old"])
    if n != 1:
        raise SystemExit("mutants: %s: the text to replace is in %s %d times, not once: "
                         "update the mutant" % (m["name"], m["file"], n))
    with open(path, "w") as f:
        f.write(src.replace(m["old"], m["new"]))


def build(tree, m):
    """rebuild the copy (the binary, the unit tests, the tools); False when it fails"""
    units = [t for t in m["tests"] if not t.endswith(".sh")]
    targets = ["all"] + [os.path.join("build", "tests", t) for t in units]
    p = subprocess.run(["make", "-C", tree, "-j%d" % (os.cpu_count() or 1)] + targets,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        log("%s: the build failed:\n%s" % (m["name"], p.stdout[-2000:]))
    return p.returncode == 0


def copy_tree(dst):
    """the checkout with its build (no .git, no other build folders) at dst"""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    skip = {".git", "build-mutants", "build-asan", "build-fuzz"}
    shutil.copytree(ROOT, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if d == ROOT and n in skip])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="these mutants only (comma-separated names)")
    ap.add_argument("--keep", action="store_true", help="keep build-mutants/ afterwards")
    ap.add_argument("--list", action="store_true", help="print the mutants and exit")
    a = ap.parse_args(argv)
    ms = MUTANTS
    if a.only:
        want = set(a.only.split(","))
        unknown = want - {m["name"] for m in MUTANTS}
        if unknown:
            print("mutants: no mutant %s" % ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        ms = [m for m in MUTANTS if m["name"] in want]
    if a.list:
        for m in ms:
            print("%-28s %s (%s); caught by %s" % (m["name"], m["what"], m["file"],
                                                   ", ".join(m["tests"])))
        return 0
    if os.geteuid() != 0:
        print("mutants: needs root (the integration tests measure CPU 1)", file=sys.stderr)
        return 2
    if not os.access(os.path.join(ROOT, "build", "jitterscope"), os.X_OK):
        print("mutants: build first (make all and the unit tests)", file=sys.stderr)
        return 2
    os.makedirs(OUT, exist_ok=True)
    t0 = time.monotonic()
    tests = sorted({t for m in ms for t in m["tests"]})
    log("baseline: %d tests on the unmutated tree" % len(tests))
    base_logs = os.path.join(OUT, "baseline")
    os.makedirs(base_logs, exist_ok=True)
    base = {t: run_test(ROOT, t, base_logs) for t in tests}
    rows, bad = [], [t for t, v in base.items() if v != "pass"]
    for m in ms:
        tree = os.path.join(OUT, m["name"])
        log("%s: %s (%s)" % (m["name"], m["what"], m["file"]))
        copy_tree(tree)
        apply(tree, m)
        if not build(tree, m):
            rows.append((m, {t: "no build" for t in m["tests"]}, False))
            continue
        logs = os.path.join(tree, "mutant-logs")
        os.makedirs(logs, exist_ok=True)
        res = {t: run_test(tree, t, logs) for t in m["tests"]}
        killed = any(v == "fail" and base[t] == "pass" for t, v in res.items())
        rows.append((m, res, killed))
        if not a.keep:
            keep_logs = os.path.join(OUT, m["name"] + "-logs")
            if os.path.exists(keep_logs):
                shutil.rmtree(keep_logs)
            shutil.move(logs, keep_logs)
            shutil.rmtree(tree)
    print()
    print("| mutant | what it breaks | test: verdict | |")
    print("|---|---|---|---|")
    for m, res, killed in rows:
        print("| %s | %s | %s | %s |" % (
            m["name"], m["what"],
            ", ".join("%s: %s" % (t, "caught" if v == "fail" else v) for t, v in res.items()),
            "killed" if killed else "SURVIVED"))
    for t in bad:
        print("baseline: %s did not pass on the unmutated tree (%s): its verdicts mean nothing"
              % (t, base[t]))
    survived = [m["name"] for m, _, k in rows if not k]
    print("%d mutants, %d killed, %d survived%s; %.0f s" % (
        len(rows), len(rows) - len(survived), len(survived),
        (": " + ", ".join(survived)) if survived else "", time.monotonic() - t0))
    return 1 if survived or bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
