#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sampler_hooks.py - the sampler's self-inflicted interference (--test-hook), counted by the kernel.

Commands (root; exit 0 pass, 1 fail, 77 skip):

  sampler_hooks.py fault --dir DIR
      jitterscope --test-hook fault on CPU 1: the housekeeping thread zaps the sampler's hook
      page every 10 ms and the sampler faults it back in. The faults are counted by the kernel,
      not by jitterscope: the sampler thread's own minflt + majflt (/proc/PID/task/TID/stat),
      read by this script every 20 ms while it runs. Every fault in the measuring window must be
      a gap naming a fault of the sampler, one to one (>= 99 % named, never more gaps than
      faults), and, where it is its gap's only large event, that gap's primary cause (>= 99 %):
      the gaps in which the kernel's own trace (attrib_lib.Witness: task switches, hard IRQs,
      local timer interrupts, softirqs on CPU 1) saw something else run are judged for naming
      only, and at least half the faults must stay judged. The zap's own TLB-shootdown IPI is
      in each such gap (the witness does not trace it); where the host held the vCPU inside
      its handler it outlasts the fault and may be the primary instead (in at most 5 % of
      the judged gaps; seen in 0 to 2 of about 380 here).

  sampler_hooks.py thp --dir DIR
      jitterscope --test-hook thp on CPU 1 (khugepaged tuned by attrib_sampler_thp.sh): the
      sampler reads a 4 MiB region of small pages advised MADV_HUGEPAGE once it measures, and
      khugepaged collapses it. The collapses are counted by the kernel: the region's
      AnonHugePages in /proc/PID/smaps (its VMA is the one advised `hg`; it was filled with
      small pages under MADV_NOHUGEPAGE, so each 2 MiB there is a collapse), read by this
      script every 50 ms, checked against /proc/vmstat thp_collapse_alloc. Every collapse must
      be named as the primary cause of its gap ("THP collapse (sampler)", counted from the
      top list's per-gap counts; a gap missing from the top list names nothing): >= 99 %, and
      never more than happened.

Neither count is excused from what jitterscope reports: a collapse or a fault while another task
held CPU 1 is still judged for naming (a quiet CPU 1 is a precondition, waited for as in attrib_lib.py; the
sampler's involuntary context switches, from /proc, are printed as the evidence).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attrib_lib as al  # noqa: E402  (tests/lib)

EXIT_PASS, EXIT_FAIL, EXIT_SKIP = 0, 1, 77
CPU = 1
HOUSEKEEPING = 0
THP_SYS = "/sys/kernel/mm/transparent_hugepage"
SAMPLER_TAG = "(sampler)"
THP_SAMPLER = "THP collapse (sampler)"


def read(path):
    with open(path) as f:
        return f.read()


def sampler_tid(pid):
    """the thread of @pid pinned to CPU 1 alone (the sampler pins itself there), or None"""
    try:
        for t in os.listdir("/proc/%d/task" % pid):
            st = read("/proc/%d/task/%s/status" % (pid, t))
            for line in st.splitlines():
                if line.startswith("Cpus_allowed_list:") and line.split()[1] == str(CPU):
                    return int(t)
    except OSError:
        pass
    return None


def thread_counters(pid, tid):
    """(minflt + majflt, majflt, nonvoluntary context switches) of one thread, or None"""
    try:
        v = read("/proc/%d/task/%d/stat" % (pid, tid)).rpartition(")")[2].split()
        st = read("/proc/%d/task/%d/status" % (pid, tid))
    except OSError:
        return None
    nvcsw = 0
    for line in st.splitlines():
        if line.startswith("nonvoluntary_ctxt_switches:"):
            nvcsw = int(line.split()[1])
    # fields 10 (minflt) and 12 (majflt) of stat; v[0] is field 3
    return int(v[7]) + int(v[9]), int(v[9]), nvcsw


def hg_huge_kb(pid):
    """AnonHugePages (KiB) summed over @pid's VMAs advised MADV_HUGEPAGE (VmFlags hg)"""
    kb = 0
    cur = 0
    for line in read("/proc/%d/smaps" % pid).splitlines():
        if line.startswith("AnonHugePages:"):
            cur = int(line.split()[1])
        elif line.startswith("VmFlags:"):
            if "hg" in line.split()[1:]:
                kb += cur
            cur = 0
    return kb


def vmstat(keys):
    out = dict.fromkeys(keys, 0)
    for line in read("/proc/vmstat").splitlines():
        k, _, v = line.partition(" ")
        if k in out:
            out[k] = int(v)
    return out


def full_scans():
    try:
        return int(read(THP_SYS + "/khugepaged/full_scans"))
    except (OSError, ValueError):
        return 0


def run_polled(d, args, poll_s, probe):
    """
    run jitterscope with @args (stderr in @d/js.err); while it runs, every @poll_s call probe(pid) and keep
    (t_before, t_after, value) with CLOCK_MONOTONIC ns around the call (the gaps' time base).
    This process runs on the housekeeping CPU meanwhile. Returns (rc, stderr, readings).
    """
    err = open(os.path.join(d, "js.err"), "w")
    p = subprocess.Popen([al.JS] + args, stdout=subprocess.DEVNULL, stderr=err)
    os.sched_setaffinity(0, {HOUSEKEEPING})   # after the spawn: jitterscope needs CPU 1
    readings = []
    try:
        while p.poll() is None:
            b = time.monotonic_ns()
            try:
                v = probe(p.pid)
            except OSError:
                v = None
            a = time.monotonic_ns()
            if v is not None:
                readings.append((b, a, v))
            time.sleep(poll_s)
    finally:
        if p.poll() is None:
            p.terminate()
        p.wait()
    err.close()
    return p.returncode, read(os.path.join(d, "js.err")).strip(), readings


def window(readings, run):
    """the first and last readings inside the run's measuring window"""
    c = run["cpus"][0]
    inside = [r for r in readings if r[0] >= c["start_ns"] and r[1] <= c["end_ns"]]
    return (inside[0], inside[-1]) if len(inside) >= 2 else (None, None)


def run_hook(d, hook, secs, extra, poll_s, probe):
    """
    jitterscope --test-hook @hook for @secs on CPU 1, polled (run_polled); returns
    (None, run JSON, gap rows, readings), or (exit status, ...) when there is nothing to judge
    """
    rc, err, rd = run_polled(d, ["--cpu", str(CPU), "--duration", str(secs), "--test-hook", hook,
                                 "--json", os.path.join(d, "run.json"),
                                 "--gaps", os.path.join(d, "gaps.csv"), "-q"] + extra,
                             poll_s, probe)
    if rc != 0:
        print("FAIL: %s-hook run exited %d: %s" % (hook, rc, err))
        return EXIT_FAIL, None, None, rd
    with open(os.path.join(d, "run.json")) as f:
        run = json.load(f)
    rows = al.gap_rows(os.path.join(d, "gaps.csv"))
    if not run["probes"]["enabled"]:
        # root with kernel BTF was checked before (live_missing): the probes must load
        print("FAIL: %s-hook run: probes did not load as root with BTF: %s"
              % (hook, run["probes"]["why_disabled"]))
        return EXIT_FAIL, run, rows, rd
    return None, run, rows, rd


def one_to_one(what, named, named_min, count):
    """
    the kernel counted @count; jitterscope named at most @named and at least @named_min
    (bounds where the count is ambiguous): >= 99 % named, never more than happened
    """
    ok = True
    if named < -(-99 * count // 100):
        print("FAIL: %d of %d %s named (need >= 99 %%)" % (named, count, what))
        ok = False
    if named_min > count:
        print("FAIL: %d %s named, the kernel counted %d" % (named_min, what, count))
        ok = False
    return ok


def own_ipi_outlasts_fault(row):
    """the primary is the zap's TLB-shootdown IPI (sent by jitterscope), with a net time above
    the sampler fault's in the same gap"""
    parts = al.parse_causes(row["causes"])
    fault = max((n for c, det, n in parts if c == "fault" and det.endswith(SAMPLER_TAG)),
                default=None)
    ipi = [n for c, det, n in parts
           if c == "ipi" and det == row["detail"] and "flush_tlb" in det and
           (" from jitterscope:" in det or " from js-" in det)]
    return (row["cause"] == "ipi" and fault is not None and bool(ipi) and
            max(ipi) > fault)


def sampler_fault(row):
    return any(c == "fault" and det.endswith(SAMPLER_TAG)
               for c, det, _ in al.parse_causes(row["causes"]))


def check_fault(d):
    tid = [None]

    def probe(pid):
        if tid[0] is None:
            tid[0] = sampler_tid(pid)
        return thread_counters(pid, tid[0]) if tid[0] else None

    wit = al.Witness(CPU)
    wit.start()
    try:
        st, run, rows, rd = run_hook(d, "fault", 4, [], 0.02, probe)
    finally:
        evs = wit.stop(os.path.join(d, "witness.csv"))
    if st is not None:
        return st
    r1, r2 = window(rd, run)
    if not r1:
        print("FAIL: the sampler thread's counters were not read inside the run (%d readings)"
              % len(rd))
        return EXIT_FAIL
    faults, majflt = r2[2][0] - r1[2][0], r2[2][1] - r1[2][1]
    named = [r for r in rows if sampler_fault(r)]
    # the kernel counts a fault when its handler ends, somewhere inside its gap: a gap that
    # overlaps a reading may fall on either side of it. The gaps touching the readings'
    # outer bounds (hi) and those wholly inside their inner bounds (lo) bracket the count
    def span(r):
        return int(r["start_ns"]), int(r["start_ns"]) + int(r["duration_ns"])

    inside = [r for r in named if span(r)[1] >= r1[0] and span(r)[0] <= r2[1]]
    hi = len(inside)
    lo = sum(1 for r in named if span(r)[0] >= r1[1] and span(r)[1] <= r2[0])
    # where the fault is its gap's only large event (the kernel saw nothing else run there),
    # it is that gap's primary cause too
    if evs is None:
        al.log_msg("note: %s: every fault's primary judged" % wit.why)
        foreign = {}
    else:
        foreign = al.foreign_gaps([al.Gap(r, n) for n, r in enumerate(inside)], evs, [])
    # and where the host's steal took at least half the gap, it is named steal (correlate.c)
    judged = [r for n, r in enumerate(inside) if n not in foreign and r["cause"] != "steal"]
    prim = sum(1 for r in judged if r["cause"] == "fault" and r["detail"].endswith(SAMPLER_TAG))
    # the zap's own TLB shootdown IPI (from jitterscope's housekeeping thread) is in every such
    # gap, and the witness does not trace it: where the host held the vCPU inside that
    # handler it outlasts the fault and is rightly the primary
    stretched = sum(1 for r in judged if own_ipi_outlasts_fault(r))
    print("sampler thread %d: %d faults in %.3f s (majflt %d; kernel counters, %d readings),"
          " gaps naming a sampler fault there %d (%d strictly inside); %d of them held nothing"
          " else (kernel witness), %d of those as the primary cause; involuntary switches %d;"
          " jitterscope's own zap count %d; primary its own TLB-shootdown IPI, longer than the"
          " fault, %d"
          % (tid[0], faults, (r2[1] - r1[0]) / 1e9, majflt, len(rd), hi, lo, len(judged), prim,
             r2[2][2] - r1[2][2], run["test_hook"]["actions"], stretched))
    ok = True
    if faults < 300:
        print("FAIL: only %d faults of the sampler in the window (one every 10 ms expected)"
              % faults)
        ok = False
    ok = one_to_one("sampler faults", hi, lo, faults) and ok
    if 2 * len(judged) < faults:
        print("FAIL: only %d of %d faults in gaps that held nothing else (CPU 1 too busy to judge"
              " the primary cause)" % (len(judged), faults))
        ok = False
    if 20 * stretched > len(judged):
        print("FAIL: in %d of %d gaps the zap's TLB-shootdown IPI outlasted its fault (more than"
              " 5 %%: not the host's rare stall)" % (stretched, len(judged)))
        ok = False
    ok = one_to_one("sampler faults alone in their gap (as its primary cause)", prim + stretched,
                    0, len(judged)) and ok
    return EXIT_PASS if ok else EXIT_FAIL


def check_thp(d):
    keys = ("thp_collapse_alloc", "thp_collapse_alloc_failed")
    tid = [None]

    def probe(pid):
        if tid[0] is None:
            tid[0] = sampler_tid(pid)
        cnt = thread_counters(pid, tid[0]) if tid[0] else None
        return hg_huge_kb(pid), vmstat(keys), full_scans(), cnt[2] if cnt else 0

    v0, scans0 = vmstat(keys), full_scans()
    st, run, rows, rd = run_hook(d, "thp", 6, ["--top", "1000"], 0.05, probe)
    if st is not None:
        return st
    if run["test_hook"]["actions"] != 1:
        print("FAIL: the THP hook region was never armed")
        return EXIT_FAIL
    r1, r2 = window(rd, run)
    if not r1:
        print("FAIL: the region was not read inside the run (%d readings)" % len(rd))
        return EXIT_FAIL
    kb, vm, scans, nvcsw = r2[2]
    collapses = kb // 2048
    allocs = vm["thp_collapse_alloc"] - v0["thp_collapse_alloc"]
    failed = vm["thp_collapse_alloc_failed"] - v0["thp_collapse_alloc_failed"]
    # the named collapses: gaps that ended before the last reading began, primary cause the
    # THP collapse of the sampler's memory, with their collapse counts from the top list
    top = {int(g["start_ns"]): g for g in run["cpus"][0]["top"]}
    named = gaps = missing = 0
    for r in rows:
        if r["cause"] != "thp" or not r["detail"].startswith(THP_SAMPLER):
            continue
        if int(r["start_ns"]) + int(r["duration_ns"]) > r2[0]:
            continue
        gaps += 1
        g = top.get(int(r["start_ns"]))
        if g is None:
            missing += 1
            continue
        named += sum(c["count"] for c in g["causes"]
                     if c["cause"] == "thp" and c["detail"].startswith(THP_SAMPLER))
    for r in rows:
        if "thp:" + THP_SAMPLER in r["causes"]:
            print("  gap %s ns: %s %s | %s" % (r["duration_ns"], r["cause"], r["detail"],
                                             r["causes"]))
    print("region: %d KiB of huge pages at the last reading inside the run (%d readings):"
          " %d collapses; vmstat thp_collapse_alloc +%d, alloc_failed +%d; khugepaged full"
          " scans %d; sampler involuntary switches %d; named as a gap's primary cause %d"
          " (%d gaps, %d missing from the top list); jitterscope's own figures: %d -> %d KiB"
          % (kb, len(rd), collapses, allocs, failed, scans - scans0,
             nvcsw - r1[2][3], named, gaps, missing,
             run["test_hook"]["huge_kb_at_arm"], run["test_hook"]["huge_kb_at_end"]))
    if collapses == 0 and scans == scans0:
        print("skip: khugepaged never completed a scan during the run")
        return EXIT_SKIP
    ok = True
    if collapses == 0:
        print("FAIL: khugepaged scanned (%d full scans) but never collapsed the region"
              % (scans - scans0))
        ok = False
    if allocs < collapses:
        print("FAIL: %d collapses in the region, vmstat counted %d" % (collapses, allocs))
        ok = False
    ok = one_to_one("collapses (as their gap's primary cause)", named, named, collapses) and ok
    return EXIT_PASS if ok else EXIT_FAIL


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hook", choices=("fault", "thp"))
    ap.add_argument("--dir", required=True, help="scratch directory for the outputs")
    a = ap.parse_args(argv)
    why = al.live_missing()
    if why:
        return al.required(why)
    if not os.access(al.JS, os.X_OK):
        print("FAIL: %s is not built: run make" % al.JS)
        return EXIT_FAIL
    if not al.wait_quiet(CPU, 30):
        al.log_msg("warning: CPU %d is still busy with other work; results may suffer" % CPU)
    return check_fault(a.dir) if a.hook == "fault" else check_thp(a.dir)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
