#!/usr/bin/env python3
"""attrib_entry.py - two oracles for the entry/exit rule (docs/ENTRY.md) that do not use the
bound it learns (TEST-AUDIT-2 F1): attrib_ipi.sh checks that the rule is applied, these
check that what it gives is right.

  causal  call-function IPIs to CPU 1 every PERIOD us, in on and off windows of 0.3-0.7 s in
          turn (jsinject --windows, its windows logged), one jitterscope run. Per adjacent
          pair of windows, the time CPU 1 lost per second to gaps under 200 us (raw durations
          only: host stalls above that are left out on both sides) rises by what the IPIs truly
          cost, host noise being in both windows (here an IPI's exit also absorbs host work
          that would have been a gap of its own: the rise is net of it); jitterscope's time
          for the injected IPIs' source (net + entry/exit, per second, above the off
          window's) over it, the pooled means' ratio, must be within RATIO_BAND (0.75-2.0x;
          measured here 0.84-1.74x within an hour: the host does work of its own in the IPI's
          exit that would otherwise have been a gap of its own, and how much moves with the
          host's load; docs/ENTRY.md). The
          true cost's 95 % bootstrap interval (pairs resampled) is printed; where host noise
          leaves it wider than +-40 % of its centre nothing can be judged: the part is
          skipped, saying so.
  stall   the sampler's --test-hook stall spins 250 us more inside every gap it sees, after the
          interruption returned: a stall no tracepoint sees, the IPI's lone gaps all holding it.
          In gaps whose one interruption is an injected IPI, the stall must stay unexplained
          (or steal), less what entry/exit may take: at most 20 VM exits of the cost measured
          apart (cpuid round trips; 2 us on bare metal) per IPI the kernel's trace saw in the
          gap (a private tracefs instance: one perf ioctl may send several), and less the
          time of an IPI's handler that the kernel's trace puts inside the stall (a gap
          opened by a host hiccup, the IPI landing in the stall), in >= 99 % of them: only
          that time, so a stall absorbed into the IPI's net time fails as one absorbed into
          its entry/exit does; entry/exit is never given more than the cap. Without the
          cap, the IPI's learned bound (the 90th percentile of its lone gaps, all holding the
          stall) would absorb it whole.

The bound, floor and cap of each kind are printed side by side. Root, kernel BTF, 2 CPUs;
about 30 s. Exit 0 pass, 1 fail, 77 skip.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attrib_lib as al  # noqa: E402

EXIT_PASS, EXIT_FAIL, EXIT_SKIP = 0, 1, 77
HOST_NS = 200000       # gaps at least this long are the host's: left out on both sides
EDGE_NS = 2000000      # a window's first and last 2 ms are left out (IPIs in flight)
MAX_HALF_WIDTH = 0.40  # the true cost's 95 % interval must be this narrow to judge against
RATIO_BAND = (0.75, 2.0)  # jitterscope's IPI time over the true cost (docs/ENTRY.md)
STALL_NS = 250000      # src/measure/js_sampler_hook.h SAMPLER_HOOK_STALL_NS
CAP_EXITS = 20         # src/model/js_entry.h ENTRY_CAP_EXITS
CAP_BARE_NS = 2000     # ENTRY_CAP_BARE_NS
CLOCK_NS = 2000        # the gaps' times (TSC) against the kernel trace's (CLOCK_MONOTONIC)
INTERRUPTS = ("timer", "ipi", "irq", "vector", "nmi")
NESTED = ("softirq", "hrtimer", "tlb")
IPI = ("ipi", "call_function_single")


def parse_entry(s):
    """the entry_causes column `class:detail=ns;...` -> [(class, detail, ns)]"""
    return al.parse_causes(s)


def call_function_ipis(text):
    """a tracefs trace of irq_vectors:call_function_single_entry/exit -> [(entry_ns, exit_ns,
    "cfs")], an IPI's handler as the kernel timed it (an entry without its exit: none)"""
    out, start = [], None
    for m in al.TRACE_RE.finditer(text):
        t = int(m.group(1)) * 10 ** 9 + int(m.group(2)) * 1000
        if m.group(3) == "call_function_single_entry":
            start = t
        elif m.group(3) == "call_function_single_exit" and start is not None:
            out.append((start, t, "cfs"))
            start = None
    return out


def inside(ivs, starts, lo, hi):
    """the time of the intervals ivs [(start, end, _)], sorted, inside [lo, hi]; starts: their
    starts"""
    i = max(0, next_le(starts, lo) - 1)
    n = 0
    while i < len(ivs) and ivs[i][0] <= hi:
        n += max(0, min(ivs[i][1], hi) - max(ivs[i][0], lo))
        i += 1
    return n


def run(tmp, secs, js_extra, inj_extra, witness=None):
    """jitterscope on CPU 1 (for at most secs) with jsinject ipi for secs - 2 from its probes'
    attach to the injector's end; (ok, run JSON,
    gap rows, jsinject summary); a started al.Witness is stopped after the run, its events
    then in witness.events_seen (None: it could not record)"""
    gaps, jsn, err = (os.path.join(tmp, n) for n in ("gaps.csv", "run.json", "js.err"))
    if not al.wait_quiet(1, 30):
        al.log_msg("warning: CPU 1 is still busy with other work; results may suffer")
    js = inj = None
    if witness:
        witness.start()
    try:
        js = subprocess.Popen([al.JS, "--cpu", "1", "--duration", str(secs), "--gaps", gaps,
                               "--json", jsn, "-q"] + js_extra, stdout=subprocess.DEVNULL,
                              stderr=open(err, "w"))
        al.wait_sampling(js, 1, 10.0, settle=False)
        al.wait_attached(js, 60.0)
        inj = subprocess.Popen([al.INJ, "--mode", "ipi", "--cpu", "1", "--duration",
                                str(secs - 2)] + inj_extra, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        out, ierr = inj.communicate(timeout=secs + 20)
        # the run ends with the injector's (attrib_lib.py, RUN_TAIL_S)
        time.sleep(al.RUN_TAIL_S)
        if js.poll() is None:
            js.send_signal(signal.SIGINT)
        rc = js.wait(secs + 30)
    finally:
        al.stop_proc(inj)
        al.stop_proc(js)
        if witness:
            witness.events_seen = witness.stop(os.path.join(tmp, "witness.csv"))
    if inj.returncode != 0:
        print("FAIL: jsinject exited %d: %s" % (inj.returncode, ierr.strip()))
        return False, None, None, None
    if rc != 0:
        print("FAIL: jitterscope exited %d: %s" % (rc, al.read_file(err)))
        return False, None, None, None
    with open(jsn) as f:
        r = json.load(f)
    if not r["probes"]["enabled"]:
        print("FAIL: the probes did not load as root with BTF: %s" % r["probes"]["why_disabled"])
        return False, None, None, None
    return True, r, al.gap_rows(gaps, 1), al.summary(out)


def ipi_ns(row):
    """the injected IPIs' source in one gap: (net, entry/exit) ns"""
    net = sum(n for c, d, n in al.parse_causes(row["causes"])
              if c == IPI[0] and d.startswith(IPI[1]))
    ent = sum(n for c, d, n in parse_entry(row.get("entry_causes", ""))
              if c == IPI[0] and d.startswith(IPI[1]))
    return net, ent


def ae_count(v, lo, hi):
    """how many of the sorted values v lie in [lo, hi]"""
    return next_le(v, hi) - next_le(v, lo - 1)


def side_by_side(r):
    """the entry/exit rule's figures per kind, and the VM exit's cost"""
    c = r["cpus"][0]
    x = c.get("vm_exit") or {}
    ee = c.get("entry_exit") or {}
    print("entry/exit: VM exit %s, cap %s ns" % (
        "%.0f ns" % x["median_ns"] if x else "none (bare metal)", ee.get("cap_ns")))
    for k, v in sorted((ee.get("kinds") or {}).items()):
        print("  %-6s lone %6d  floor %6d  median %6d  learned p90 %6d  cap %6d  bound %6d ns"
              % (k, v["lone_gaps"], v.get("floor_ns", 0), v["median_ns"],
                 v.get("learned_ns", v["bound_ns"]), v.get("cap_ns", 0), v["bound_ns"]))


def windows(path):
    """jsinject's windows log -> [(on, start, end)]"""
    out = []
    with open(path) as f:
        head = f.readline().strip()
        if head != "state,start_ns,end_ns":
            raise ValueError("%s: unexpected header %r" % (path, head))
        for line in f:
            st, s, e = line.strip().split(",")
            out.append((st == "on", int(s), int(e)))
    return out


def per_window(wins, rows):
    """per window: (on, interior ns, raw lost ns, jitterscope's IPI ns) of the gaps under
    HOST_NS starting in its interior"""
    acc = [[on, max(0, e - s - 2 * EDGE_NS), 0, 0] for on, s, e in wins]
    starts = [s + EDGE_NS for _, s, _ in wins]
    for row in rows:
        t, dur = int(row["start_ns"]), int(row["duration_ns"])
        if dur >= HOST_NS:
            continue
        i = max(0, min(len(wins) - 1, next_le(starts, t)))
        _, s, e = wins[i]
        if not (s + EDGE_NS <= t < e - EDGE_NS):
            continue
        net, ent = ipi_ns(row)
        acc[i][2] += dur
        acc[i][3] += net + ent
    return [a for a in acc if a[1] > 0]


def next_le(v, x):
    """index of the last v[i] <= x (v sorted), -1 if none"""
    lo, hi = 0, len(v)
    while lo < hi:
        mid = (lo + hi) // 2
        if v[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def pairs(ws):
    """adjacent on/off windows -> [(true extra ns/s, jitterscope's extra ns/s)]"""
    out = []
    for i in range(0, len(ws) - 1, 2):
        a, b = ws[i], ws[i + 1]
        if a[0] == b[0]:
            continue
        on, off = (a, b) if a[0] else (b, a)
        rate = lambda w, k: w[k] * 1e9 / w[1]  # noqa: E731
        out.append((rate(on, 2) - rate(off, 2), rate(on, 3) - rate(off, 3)))
    return out


def bootstrap(ps, n=2000, seed=1):
    """95 % interval of the pooled true cost and of jitterscope's / true, resampling pairs"""
    rnd = random.Random(seed)
    ts, rs = [], []
    for _ in range(n):
        s = [ps[rnd.randrange(len(ps))] for _ in ps]
        t = sum(p[0] for p in s) / len(s)
        ts.append(t)
        rs.append(sum(p[1] for p in s) / len(s) / t if t > 0 else float("inf"))
    ts.sort()
    rs.sort()
    return (ts[int(0.025 * n)], ts[int(0.975 * n)]), (rs[int(0.025 * n)], rs[int(0.975 * n)])


def causal(tmp, secs, period, win_ms):
    """the causal oracle; True when it passes"""
    wl = os.path.join(tmp, "windows.csv")
    ok, r, rows, kv = run(tmp, secs, [], ["--period", str(period), "--windows", str(win_ms),
                                          "--windows-log", wl])
    if not ok:
        return False
    side_by_side(r)
    ws = per_window(windows(wl), rows)
    ps = pairs(ws)
    if len(ps) < 8:
        print("causal: FAIL (only %d window pairs)" % len(ps))
        return False
    t = sum(p[0] for p in ps) / len(ps)
    j = sum(p[1] for p in ps) / len(ps)
    (t_lo, t_hi), (r_lo, r_hi) = bootstrap(ps)
    on_s = sum(w[1] for w in ws if w[0]) / 1e9
    acts = int(kv.get("actions", 0))
    per = acts / on_s if on_s else 0
    ratio = j / t if t > 0 else float("inf")
    med = sorted(p[1] / p[0] for p in ps if p[0] > 0)
    print("causal: %d IPIs in %.1f s of on windows (%.0f/s), %d window pairs" % (acts, on_s, per,
                                                                               len(ps)))
    print("causal: time lost to them, from raw gaps: %.2f ms/s (95 %% %.2f-%.2f), %.2f us an IPI"
          % (t / 1e6, t_lo / 1e6, t_hi / 1e6, t / per / 1e3 if per else 0))
    print("causal: jitterscope gives them %.2f ms/s (net + entry/exit): %.3fx "
          "(95 %% %.3f-%.3f; median of the pairs %.3fx), need %.2f-%.2fx"
          % (j / 1e6, ratio, r_lo, r_hi, med[len(med) // 2] if med else float("nan"),
             *RATIO_BAND))
    if t <= 0 or (t_hi - t_lo) / 2 > MAX_HALF_WIDTH * t:
        print("skip causal: the host's own noise leaves the true cost unknown to +-%.0f %% "
              "(need +-%.0f %%): nothing to judge against"
              % (100 * (t_hi - t_lo) / 2 / t if t > 0 else float("inf"), 100 * MAX_HALF_WIDTH))
        return None
    ok = RATIO_BAND[0] <= ratio <= RATIO_BAND[1]
    print("causal: %s" % ("PASS" if ok else "FAIL"))
    return ok


def stall(tmp, secs, period):
    """the untraced-stall oracle; True when it passes, None when it cannot judge"""
    # the kernel's own count of call-function IPIs on CPU 1 (an ioctl may send more than one)
    wit = al.Witness(1, ("irq_vectors/call_function_single_entry",
                         "irq_vectors/call_function_single_exit"), call_function_ipis)
    ok, r, rows, kv = run(tmp, secs, ["--test-hook", "stall", "-T", "2us"],
                          ["--period", str(period)], wit)
    if not ok:
        return False
    if wit.events_seen is None:
        print("stall: FAIL (no kernel witness of the IPIs: %s)" % wit.why)
        return False
    ivs = sorted(wit.events_seen)
    ipis = [e[0] for e in ivs]
    side_by_side(r)
    c = r["cpus"][0]
    x = c.get("vm_exit")
    cap = CAP_EXITS * x["median_ns"] if x else CAP_BARE_NS
    if 2 * cap > STALL_NS:
        print("skip stall: a VM exit of %.0f ns: %d of them reach half the %d us stall"
              % (x["median_ns"], CAP_EXITS, STALL_NS // 1000))
        return None
    judged = kept = over = 0
    worst = []
    for row in rows:
        cs = al.parse_causes(row["causes"])
        ints = [p for p in cs if p[0] in INTERRUPTS]
        if len(ints) != 1 or ints[0][0] != IPI[0] or not ints[0][1].startswith(IPI[1]) or \
                any(p[0] not in INTERRUPTS + NESTED for p in cs):
            continue
        judged += 1
        dur, ent = int(row["duration_ns"]), int(row.get("entry_ns") or 0)
        left = int(row["unexplained_ns"]) + int(row["steal_ns"] or 0)
        # the call-function IPIs the kernel's trace saw in the gap: n of them may get n caps
        t0 = int(row["start_ns"])
        n = max(1, ae_count(ipis, t0, t0 + dur))
        if ent > n * cap + 100:  # the CSV's ns are rounded from cycles
            over += 1
            worst.append("over the cap: %s: %d ns, entry %d, %d IPIs in the kernel's trace" % (
                row["start_ns"], dur, ent, n))
        # an IPI may land inside the stall (the gap opened on a host hiccup): the time the
        # kernel's trace puts inside the stall (the gap's last 250 us, 2 us either side for
        # the two clocks) shares the stall's 250 us, which no tracepoint saw only outside
        # it; no more than that, and never more than the traced time jitterscope gave
        net = sum(p[2] for p in cs)
        seen = min(net, inside(ivs, ipis, t0 + dur - STALL_NS - CLOCK_NS, t0 + dur + CLOCK_NS))
        if left + seen >= STALL_NS - n * cap:
            kept += 1
        elif len(worst) < 3:
            worst.append("%s: %d ns, entry %d, net %d (%d of it inside the stall by the "
                         "kernel's trace), left %d" % (row["start_ns"], dur, ent, net, seen,
                                                       left))
    if judged < 200:
        print("stall: FAIL (only %d gaps whose one interruption is an injected IPI)" % judged)
        return False
    pct = 100.0 * kept / judged
    print("stall: %d gaps whose one interruption is an injected IPI, each holding the %d us "
          "stall: %d (%.2f %%) keep >= %.1f us of it (less what is traced in it) unexplained "
          "(need >= 99 %%); entry/exit "
          "above the cap (%.1f us = %s): %d"
          % (judged, STALL_NS // 1000, kept, pct, (STALL_NS - cap) / 1e3, cap / 1e3,
             "%d exits" % CAP_EXITS if x else "bare metal's", over))
    for w in worst:
        print("  " + w)
    ok = pct >= 99.0 and over == 0
    print("stall: %s" % ("PASS" if ok else "FAIL"))
    return ok


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("causal", "stall", "both"), default="both")
    ap.add_argument("--dir", required=True)
    ap.add_argument("--causal-secs", type=int, default=14)
    ap.add_argument("--window-ms", type=int, default=250)
    a = ap.parse_args(argv)
    why = al.live_missing()
    if why:
        return al.required(why)
    results = []
    if a.part in ("causal", "both"):
        d = os.path.join(a.dir, "causal")
        os.makedirs(d, exist_ok=True)
        results.append(causal(d, a.causal_secs, 250, a.window_ms))
    if a.part in ("stall", "both"):
        d = os.path.join(a.dir, "stall")
        os.makedirs(d, exist_ok=True)
        results.append(stall(d, 6, 2000))
    if any(x is False for x in results):
        return EXIT_FAIL
    if all(x is None for x in results):
        print("skip: no part could judge")
        return EXIT_SKIP
    return EXIT_PASS


if __name__ == "__main__":
    t0 = time.monotonic()
    rc = main(sys.argv[1:])
    al.log_msg("took %.1f s" % (time.monotonic() - t0))
    sys.exit(rc)
