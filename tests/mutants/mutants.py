#!/usr/bin/env python3
"""mutants.py - `make mutants`: does the integration test there for each fault catch it?

Each mutant below is one deliberate fault in the product: an exact piece of one source file
replaced by a wrong one, and the integration test that must catch it (its killer; some also
list unit tests, whose verdicts are shown but kill nothing: a fault only a unit test sees is
one the product's real runs never judge). For each, the whole checkout (with its build) is
copied to build-mutants/NAME, the fault is applied there (it must match exactly once: a
mutant that no longer applies is an error, never a silent pass), the copy is rebuilt (only
what the fault touches), and the killer and the unit tests run against that copy. First
every listed test runs once on the unmutated tree and must pass there, or its kill would
mean nothing.

The suite's retry policy applies (scripts/run-tests.sh, docs/HACKING.md "The retry"): a test
that measures CPU 1 and exits 75 (a failure under its own noise gauge) runs once more, 3 s
later, and only that second run counts; a skip then is a failure; 75 with no retry left is
a failure. So a kill counts only if it survives the retry, as a fault must to turn CI red.

Verdicts: killed (the killer failed), SURVIVED (it passed), or not judged here: the killer
skipped, or passed while saying (a line matching the mutant's `unjudged` pattern, a
`skip PART:`) that the part which catches this fault could not judge on this host (no
host steal to compare, for the steal mutants). A not-judged mutant is no kill and no
failure: it is counted apart, its reason in the table.

Each verdict is also kept in build-mutants/results.json (with the commit and date it ran
on); --write-doc rewrites the table in docs/HACKING.md between its markers from those
results, every mutant a row: one with no result stored here keeps the verdict its row had
(the table is the record across machines), one never run anywhere says "not run".

Exit 1 when a mutant survived or a baseline test did not pass, 2 on a usage or set-up
error. Root (the integration tests measure CPU 1; run under scripts/cpu1-lock, as make
mutants does). About 12 minutes.

  mutants.py [--only NAME[,NAME...]] [--keep] [--list] [--write-doc [--no-run]]

--list prints them, each with its killer, and exits 2 when one no longer applies.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "build-mutants")
RESULTS = os.path.join(OUT, "results.json")
DOC = os.path.join(ROOT, "docs", "HACKING.md")
BEGIN = "<!-- mutants table: tests/mutants/mutants.py --write-doc writes it -->"
END = "<!-- end of the mutants table -->"
EXIT_NOISE = 75  # EX_TEMPFAIL: a failure under the test's own noise gauge (run-tests.sh)
STEAL_UNJUDGED = r"^skip PART: steal floor: "

# name, what the fault breaks, file, the exact text, its replacement, the integration test
# that must catch it (killer), unit tests shown beside it, and unjudged: a regex of a line of
# the killer's passing log saying the part that catches the fault did not judge on this host
MUTANTS = [
    dict(name="steal-doubled",
         what="every steal increment given to the gaps twice",
         file="src/attrib/account.c",
         old="delta = js_host_steal_delta(r[k].steal_ns, r[k + 1].steal_ns);",
         new="delta = 2 * js_host_steal_delta(r[k].steal_ns, r[k + 1].steal_ns);",
         killer="attrib_cgroup.sh", units=["test_correlate"], unjudged=STEAL_UNJUDGED),
    dict(name="entry-tripled",
         what="the entry/exit bound three times what the rule gives",
         file="src/model/entry.c",
         old="return JS_MIN(b, entry_cap(m, k));",
         new="return 3 * JS_MIN(b, entry_cap(m, k));",
         killer="attrib_entry.sh", units=["test_entry"]),
    dict(name="ipi-sender-dropped",
         what="IPIs never matched with their sender",
         file="src/attrib/correlate.c",
         old="\tmatch_senders(sc, g, o);\n",
         new="\t(void)match_senders;\n",
         killer="attrib_ipi.sh", units=["test_correlate"]),
    dict(name="mark-dropped",
         what="every 50th mark of --marks dropped",
         file="src/measure/marks.c",
         old="\tpipe_push(ms->pl, &g, mk.label);\n}",
         new="\tif (number % 50)\n\t\tpipe_push(ms->pl, &g, mk.label);\n}",
         killer="app_preempt.sh"),
    dict(name="prom-bucket-shifted",
         what="every gap counted one Prometheus bucket too high",
         file="src/report/prom.c",
         old="c->count[cause][prom_bucket(g->gap.dur_ns)]++;",
         new="c->count[cause][JS_MIN(prom_bucket(g->gap.dur_ns) + 1, PROM_NB)]++;",
         killer="outputs_prom.sh", units=["test_out_prom"]),
    dict(name="write-error-ignored",
         what="a failed output write never noticed during the run",
         file="src/report/output.c",
         old="err = flush ? output_file_flush(out->stream) : output_file_error(out->stream);",
         new="err = 0;\n\t\t(void)(flush ? output_file_flush(out->stream) : "
             "output_file_error(out->stream));",
         killer="robust_failfast.sh"),
    dict(name="softirq-probe-not-attached",
         what="the softirq_entry program said attached but never attached",
         file="src/probes/probes.c",
         old="\tp->links[k] = bpf_program__attach(p->bprogs[k]);\n",
         new="\tif (!strcmp(pp->name, \"softirq_entry\")) {\n"
             "\t\tpp->state = PROBES_PROG_ACTIVE;\n\t\treturn 0;\n\t}\n"
             "\tp->links[k] = bpf_program__attach(p->bprogs[k]);\n",
         killer="attrib_softirq.sh"),
    # TEST-AUDIT-3 2b M1-M6
    dict(name="hold-lost-preempted",
         what="a followed thread lets go of its CPU once preempted: what preempts it and its "
              "waker are not recorded (M1)",
         file="bpf/follow_state.bpf.h",
         old="if (t->off_kind == JS_FOLLOW_PREEMPTED || t->off_kind == JS_FOLLOW_BLOCKED)",
         new="if (t->off_kind == JS_FOLLOW_BLOCKED)",
         killer="app_waker.sh"),
    dict(name="marks-wake-hold-off",
         what="--marks: a woken thread takes its CPU only at its switch in: what it waited "
              "for once woken is not recorded",
         file="bpf/follow_state.bpf.h",
         old="\ttake(t, task_cpu_of(p), now, now, 1);",
         new="\t(void)now;",
         killer="app_marks_wake.sh"),
    dict(name="wake-wait-unbounded",
         what="--marks: all of a woken thread's wait dropped, however long: the task it "
              "waited for is not recorded",
         file="include/js_follow_bh.h",
         old="return end < ran && end < h->held_at + JS_FOLLOW_WAKE_WAIT_NS ? JS_HOLD_WAIT : 0;",
         new="return end < ran ? JS_HOLD_WAIT : 0;",
         killer="app_marks_wake.sh", units=["test_follow_bh"]),
    dict(name="nested-hard-own",
         what="--pid: a hard IRQ inside the thread's own softirq counted as its own work, "
              "no gap (the rule before 2026-12-06)",
         file="include/js_follow_bh.h",
         old="\t} else if (s->own && !softirq && !s->nest_depth) {",
         new="\t} else if (0) {",
         killer="app_redis.sh", units=["test_follow_bh"]),
    dict(name="held-rule-off",
         what="--pid: what happens on a CPU no followed thread holds is recorded too",
         file="bpf/rec.bpf.h",
         old="\tif (!held_only)\n\t\treturn 0;\n\tif (!start)",
         new="\tif (1)\n\t\treturn 0;\n\tif (!start)",
         killer="app_redis.sh"),
    dict(name="lean-steal-dropped",
         what="--probes lean: the steal before an interruption read as the steal after it (M2)",
         file="bpf/rec.bpf.h",
         old="ev_fill(e, kind, cpu, id, addr, start, now, st0, st, flags);",
         new="ev_fill(e, kind, cpu, id, addr, start, now, ((void)st0, st), st, flags);",
         killer="attrib_lean.sh", unjudged=STEAL_UNJUDGED),
    dict(name="trial-inflated",
         what="--threshold auto's trial counts every gap three times (M3)",
         file="src/measure/sampler.c",
         old="s->trial_counts[k]++;",
         new="s->trial_counts[k] += 3;",
         killer="measure_threshold_auto.sh", units=["test_threshold"]),
    dict(name="plan-grubby-replaced",
         what="check --plan's grubby line sets the replaced parameters (M4)",
         file="src/audit/audit_plan_boot.c",
         old="fprintf(fp, \"grubby --update-kernel=ALL --args=\\\"%s\\\"\\n\", todo);",
         new="fprintf(fp, \"grubby --update-kernel=ALL --args=\\\"%s %s\\\"\\n\", todo, a->f.cmdline);",
         killer="check_plan.sh", units=["test_audit_plan"]),
    dict(name="plan-sysctl-unread",
         what="check --plan's sysctl file named so that sysctl --system skips it (M4)",
         file="src/audit/audit_plan.c",
         old="\"cat > /etc/sysctl.d/90-jitterscope.conf <<'EOF'\\n\"",
         new="\"cat > /etc/sysctl.d/90-jitterscope <<'EOF'\\n\"",
         killer="check_plan.sh", units=["test_audit"]),
    dict(name="arm64-ipi-twice",
         what="arm64: ipi_raise loaded beside ipi_send_cpumask, each IPI twice (M5)",
         file="src/probes/probes_arm64.c",
         old="return !strcmp(tp, \"ipi_raise\") && kbtf_has_tp(btf, \"ipi_send_cpumask\");",
         new="return ((void)btf, false);",
         killer="arm64_qemu.sh"),
    dict(name="waker-filter-off",
         what="sched_waking keeps every wake-up of a followed thread's CPU: only its cost "
              "changes (M6)",
         file="bpf/probes.bpf.c",
         old="if (unheld(tcpu, 0, 0, false)) /* no followed thread holds its CPU now */\n\t\treturn;",
         new="if (0)\n\t\treturn;",
         killer="app_waker_cost.sh"),
    dict(name="remainder-to-primary",
         what="what no event explains in a gap with events given to its largest part",
         file="src/attrib/correlate.c",
         old="\ta->unexplained_ns = corr_left(a, dur_ns);\n\tif (a->nparts) {\n",
         new="\tuint64_t rem = a->nparts ? corr_left(a, dur_ns) : 0;\n\n"
             "\ta->parts[0].net_ns += rem;\n\ta->covered_ns += rem;\n"
             "\ta->unexplained_ns = corr_left(a, dur_ns);\n\tif (a->nparts) {\n",
         killer="attrib_entry.sh", units=["test_correlate"]),
    dict(name="window-sheds-nothing",
         what="a sampler's full window drops its oldest quarter, other tasks' page faults "
              "never shed first: a fault storm's long gaps lose their tasks' runs",
         file="src/measure/drain.c",
         old="shed = c->ev_ring ? 0 : shed_points(c);",
         new="shed = 0;\n\t\t(void)shed_points;",
         killer="robust_overload.sh", units=["test_drain"]),
    dict(name="loss-flags-nothing",
         what="no gap is flagged for events lost or evicted over it: the answer calls the "
              "time of a stretch whose events the probes lost the host's",
         file="src/measure/drain.c",
         old="recs[i].attr.evidence_lost = recs[i].attr.unexplained_ns &&",
         new="recs[i].attr.evidence_lost = 0 && recs[i].attr.unexplained_ns &&",
         killer="robust_overload.sh", units=["test_drain"]),
]


def log(msg):
    print("mutants: " + msg, flush=True)


def tests_of(m):
    return [m["killer"]] + m.get("units", [])


def test_cmd(tree, test):
    """the command running one test in checkout tree"""
    if test.endswith(".sh"):
        return ["bash", os.path.join(tree, "tests", "integration", test)]
    return [os.path.join(tree, "build", "tests", test)]


def measuring(test):
    """does the test measure CPU 1 (run-tests.sh's MEASURING: integration scripts and
    JS_LOCKED_UNITS), so that its exit 75 is retried"""
    locked = os.environ.get("JS_LOCKED_UNITS", "test_probes_live").split()
    return test.endswith(".sh") or test in locked


def run_once(tree, test, path):
    """one run of a test of checkout tree, its output in path; its exit status"""
    env = dict(os.environ, JS_CPU1_LOCK_HELD="1", CMOCKA_MESSAGE_OUTPUT="stdout")
    env.pop("JS_BIN", None)
    with open(path, "w") as f:
        return subprocess.call(test_cmd(tree, test), cwd=tree, env=env, stdout=f,
                               stderr=subprocess.STDOUT)


def run_test(tree, test, logdir, tag=""):
    """run one test of checkout tree under the suite's retry policy: (verdict, log path),
    the verdict 'pass', 'skip' or 'fail' (', after a retry' when it ran twice); tag names
    a further run's log"""
    path = os.path.join(logdir, test + (".%s" % tag if tag else "") + ".log")
    t0 = time.monotonic()
    rc = run_once(tree, test, path)
    again = ""
    if rc == EXIT_NOISE and measuring(test):
        noise = [x for x in open(path) if x.startswith("noise: ")]
        log("  %-26s exit 75 (%s): once more" % (test, noise[0].strip() if noise else "no noise line"))
        os.replace(path, path + ".first")
        time.sleep(3)
        rc = run_once(tree, test, path)
        again = ", after a retry"
        if rc == 77:
            rc = 1  # a failure, then a skip: a failure
    verdict = "pass" if rc == 0 else "skip" if rc == 77 else "fail"
    log("  %-26s %s (exit %d%s, %.0f s; %s)" % (test, verdict, rc, again,
                                                time.monotonic() - t0, path))
    return verdict + again, path


def base_verdict(v):
    return v.split(",")[0]


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
    targets = ["all"] + [os.path.join("build", "tests", t) for t in m.get("units", [])]
    p = subprocess.run(["make", "-C", tree, "-j%d" % (os.cpu_count() or 1)] + targets,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        log("%s: the build failed:\n%s" % (m["name"], p.stdout[-2000:]))
    return p.returncode == 0


def copy_tree(dst):
    """the checkout with its builds (no .git, no other mutant, sanitizer or fuzz build) at dst"""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    skip = {".git", "build-mutants", "build-asan", "build-fuzz"}
    shutil.copytree(ROOT, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if d == ROOT and n in skip])


def judge(m, res, logs, base):
    """(verdict, why) of a mutant from its tests' verdicts res and logs"""
    k = m["killer"]
    v = base_verdict(res[k])
    if base.get(k) != "pass":
        return "baseline failed", "%s did not pass on the unmutated tree" % k
    if v == "fail":
        return "killed", ""
    if v == "skip":
        why = [x.strip() for x in open(logs[k]) if x.startswith("skip")]
        return "not judged here", why[-1] if why else "skipped"
    if v == "pass" and m.get("unjudged"):
        why = [x.strip() for x in open(logs[k]) if re.search(m["unjudged"], x)]
        if why:
            return "not judged here", why[0]
    return "SURVIVED", ""


def head_commit():
    p = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() or "unknown"


def load_results():
    try:
        with open(RESULTS) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def row(m, r):
    """a Markdown table row of mutant m from its stored result r (or None)"""
    fault = "%s (`%s`)" % (m["what"], m["file"])
    if not r:
        return "| %s | %s | `%s` | not run |" % (m["name"], fault, m["killer"])
    units = "; ".join("`%s` %s" % (t, "caught it" if base_verdict(v) == "fail" else v)
                      for t, v in r["units"].items())
    verdict = "**%s**" % r["verdict"] if r["verdict"] != "killed" else "killed"
    if r["why"]:
        verdict += ": " + r["why"].replace("|", "/")
    if "after a retry" in r["killer_verdict"]:
        verdict += " (after a retry)"
    return "| %s | %s | `%s` | %s%s (%s, %s) |" % (
        m["name"], fault, m["killer"], verdict, "; unit: " + units if units else "",
        r["commit"], r["date"])


def doc_verdicts(text):
    """the verdict cell of each mutant's row in the table of text (the doc as it is)"""
    _, _, rest = text.partition(BEGIN)
    table, _, _ = rest.partition(END)
    cells = [[c.strip() for c in ln.strip().strip("|").split("|")]
             for ln in table.splitlines() if ln.startswith("| ")]
    return {c[0]: c[-1] for c in cells if len(c) >= 4 and c[0] != "mutant"}


def verdict_of(cell):
    """the verdict a table cell states (None: not run)"""
    if cell.startswith("killed"):
        return "killed"
    if cell.startswith("**not judged here**"):
        return "not judged here"
    return None if cell == "not run" else "other"


def write_doc(results):
    """the table between BEGIN and END in docs/HACKING.md, from the stored results; a mutant
    with none stored (not run on this machine) keeps the verdict its row had"""
    with open(DOC) as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise SystemExit("mutants: %s has no single pair of table markers" % DOC)
    before = doc_verdicts(text)
    lines = [BEGIN, "",
             "| mutant | the fault (file) | killing test | verdict (unit tests; commit, date) |",
             "|---|---|---|---|"]
    n = []
    for m in MUTANTS:
        r = results.get(m["name"])
        kept = before.get(m["name"], "not run") if not r else None
        if kept:
            lines.append(row(m, None).rsplit("| not run |", 1)[0] + "| %s |" % kept)
            n.append(verdict_of(kept))
        else:
            lines.append(row(m, r))
            n.append(r["verdict"])
    other = len(n) - n.count("killed") - n.count("not judged here") - n.count(None)
    lines += ["", "%d mutants: %d killed, %d not judged here, %d not killed (survived, its "
              "killer failing on the unmutated tree, or no build), %d not run." % (
                  len(MUTANTS), n.count("killed"), n.count("not judged here"), other,
                  n.count(None)), "", END]
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    with open(DOC, "w") as f:
        f.write(head + "\n".join(lines) + tail)
    log("wrote the table into %s" % DOC)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="these mutants only (comma-separated names)")
    ap.add_argument("--keep", action="store_true", help="keep build-mutants/ afterwards")
    ap.add_argument("--list", action="store_true", help="print the mutants and exit")
    ap.add_argument("--write-doc", action="store_true",
                    help="then write the table of every stored result into docs/HACKING.md")
    ap.add_argument("--runs", type=int, default=3,
                    help="a kill is its killer failing this many runs in a row (default 3)")
    ap.add_argument("--no-run", action="store_true",
                    help="with --write-doc: run nothing, write the table from the stored results")
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
        stale = 0
        for m in ms:
            with open(os.path.join(ROOT, m["file"])) as f:
                n = f.read().count(m["old"])
            stale += n != 1
            print("%-28s %s (%s); killed by %s%s%s" % (
                m["name"], m["what"], m["file"], m["killer"],
                " (unit: %s)" % ", ".join(m["units"]) if m.get("units") else "",
                "" if n == 1 else "; DOES NOT APPLY: its text is there %d times" % n))
        return 2 if stale else 0
    if a.no_run:
        if not a.write_doc:
            ap.error("--no-run goes with --write-doc")
        write_doc(load_results())
        return 0
    if os.geteuid() != 0:
        print("mutants: needs root (the integration tests measure CPU 1)", file=sys.stderr)
        return 2
    if not os.access(os.path.join(ROOT, "build", "jitterscope"), os.X_OK):
        print("mutants: build first (make all and the unit tests)", file=sys.stderr)
        return 2
    os.makedirs(OUT, exist_ok=True)
    t0 = time.monotonic()
    tests = sorted({t for m in ms for t in tests_of(m)})
    log("baseline: %d tests on the unmutated tree" % len(tests))
    base_logs = os.path.join(OUT, "baseline")
    os.makedirs(base_logs, exist_ok=True)
    base = {t: base_verdict(run_test(ROOT, t, base_logs)[0]) for t in tests}
    results, rows = load_results(), []
    commit, date = head_commit(), datetime.date.today().isoformat()
    for m in ms:
        tree = os.path.join(OUT, m["name"])
        log("%s: %s (%s)" % (m["name"], m["what"], m["file"]))
        copy_tree(tree)
        apply(tree, m)
        logdir = os.path.join(tree, "mutant-logs")
        os.makedirs(logdir, exist_ok=True)
        if not build(tree, m):
            res = {t: "no build" for t in tests_of(m)}
            verdict, why = "no build", "the mutant does not build: update it"
        else:
            ran = {t: run_test(tree, t, logdir) for t in tests_of(m)}
            res = {t: v for t, (v, _) in ran.items()}
            verdict, why = judge(m, res, {t: p for t, (_, p) in ran.items()}, base)
            # a kill must hold: the killer fails its every run (a fault that fails a
            # test half the time turns CI red a quarter of the time); the first run
            # that passes ends it, a survivor
            k, n = m["killer"], 1
            while verdict == "killed" and n < a.runs:
                n += 1
                kv, kp = run_test(tree, k, logdir, "run%d" % n)
                verdict, why = judge(m, dict(res, **{k: kv}), {k: kp}, base)
                if verdict != "killed":
                    res[k] = kv
                    if verdict == "SURVIVED":
                        why = "its killer passed run %d of %d" % (n, a.runs)
            if verdict == "killed":
                why = "%d of %d runs" % (n, a.runs)
        rows.append((m, res, verdict, why))
        results[m["name"]] = dict(verdict=verdict, why=why, killer_verdict=res[m["killer"]],
                                  units={t: res[t] for t in m.get("units", [])},
                                  commit=commit, date=date)
        if not a.keep:
            keep_logs = os.path.join(OUT, m["name"] + "-logs")
            if os.path.exists(keep_logs):
                shutil.rmtree(keep_logs)
            shutil.move(logdir, keep_logs)
            shutil.rmtree(tree)
    with open(RESULTS, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    print()
    print("| mutant | what it breaks | killing test: verdict | unit tests | |")
    print("|---|---|---|---|---|")
    for m, res, verdict, why in rows:
        print("| %s | %s | %s: %s | %s | %s%s |" % (
            m["name"], m["what"], m["killer"], res[m["killer"]],
            ", ".join("%s: %s" % (t, res[t]) for t in m.get("units", [])) or "-",
            verdict, ": " + why if why else ""))
    bad = [t for t, v in base.items() if v != "pass"]
    for t in bad:
        print("baseline: %s did not pass on the unmutated tree (%s): its verdicts mean nothing"
              % (t, base[t]))
    verdicts = [v for _, _, v, _ in rows]
    survived = [m["name"] for m, _, v, _ in rows if v not in ("killed", "not judged here")]
    unjudged = [m["name"] for m, _, v, _ in rows if v == "not judged here"]
    print("%d mutants, %d killed by their integration test, %d not judged here%s, %d "
          "survived%s; %.0f s" % (
              len(rows), verdicts.count("killed"), len(unjudged),
              " (%s)" % ", ".join(unjudged) if unjudged else "", len(survived),
              (": " + ", ".join(survived)) if survived else "", time.monotonic() - t0))
    if a.write_doc:
        write_doc(results)
    return 1 if survived or bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
