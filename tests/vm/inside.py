#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""inside.py - inside one kernel of the VM matrix: the probes of both builds, and each injected
kind named one to one (tests/vm/inside.sh runs it; its header is the interface).

Run in the guest as root from the checkout, after make: `sh tests/vm/inside.sh [KIND...]`.

  1. probes: `jitterscope --cpu 1 -d 1 -v` twice, as the kernel picks (the tp_btf build where
     it loads: Linux 6.2 with its own BTF, else raw_tp, and says why) and forced to the raw_tp
     build (`--btf /sys/kernel/btf/vmlinux`: types from a file always take it; once where the
     kernel's pick is raw_tp already: that run is the raw_tp build's); from each
     one's messages: programs attached, refused by the verifier (by name), absent (their
     tracepoint not in this kernel). With JS_INSIDE_PICKED=DIR (tests/vm/guest.sh's outputs:
     its default run, `jitterscope -d 3 -v` on the box's isolated CPU, 1) the kernel's pick is
     read from DIR/default.err, default.json and rc.default instead of run again (under TCG
     a run's start is seconds of the verifier's).
  2. the kinds: tests/lib/attrib_lib.py run --mode KIND --naming-only for preempt, ipi,
     irq (on $JS_VM_DISK: vm.py run --disk) and softirq, each with jitterscope on CPU 1 for
     JS_INSIDE_DURATION seconds (default 8) and the injector inside it; named = actions whose
     gap names them, one to one (attrib_lib's matcher; --naming-only: why only the naming is
     judged under TCG). ipi also needs the kernel's own count of call-function IPIs on CPU 1
     (jsinject's cal_delta) at least its actions: an IPI that was never sent cannot be named.
  3. on PREEMPT_RT, the threads that carry interrupt work (src/model/causes.c's thread table),
     each run of one on CPU 1 in the kernel's trace (sched_switch, attrib_lib's witness) matched
     one to one with a gap naming it in its class: irq_thread (the injected disk IRQ's
     irq/N-NAME, class irq, from the irq run), ksoftirqd (ksoftirqd/1, class softirq, from the
     softirq run: RT before 6.10 defers the RPS IPI's NET_RX to it), backlog_napi
     (backlog_napi/1, class softirq, from the softirq run: since Linux 6.10 RT processes the
     steered packets there, without NET_RX; absent before), ktimers (ktimers/1, class timer: a
     run of its own, a SCHED_OTHER task on CPU 1 sleeping 10 ms at a time with
     kernel.timer_migration=0 so that its hrtimer, soft on RT, expires there, also on a
     nohz_full CPU, whose timers would otherwise go to a housekeeping CPU).
Each kind passes with >= 99 % of at least MIN_RUNS named; fewer actions or runs is a skip.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTLIB = os.path.join(ROOT, "tests", "lib")
sys.path.insert(0, TESTLIB)
import attrib_lib as al  # noqa: E402

JS = os.environ.get("JS_BIN") or os.path.join(ROOT, "build", "jitterscope")
CPU = 1
MIN_PCT = 99.0
MIN_RUNS = 20  # a thread's runs (or a kind's actions) below this: a skip, nothing to judge
US = 1000
# attrib_lib run's arguments per kind: periods long enough for an emulated CPU's slow IPIs
# and disk reads (the slots after a slow action are skipped)
KINDS = {
    "preempt": ["--period", "20000"],
    "ipi": ["--period", "50000", "--count", "1"],
    "irq": ["--period", "20000", "--count", "1"],
    "softirq": ["--period", "40000"],
}
# seconds more than JS_INSIDE_DURATION: an emulated IPI took a median 8.5 ms on a loaded host
# (the slots after a long one are skipped), and 47 of 120 slots acted, short of attrib_lib's 50
LONGER = {"ipi": 4}
RT_KINDS = ("irq_thread", "ksoftirqd", "backlog_napi", "ktimers")
TIMER_MIGRATION = "/proc/sys/kernel/timer_migration"


class Summary:
    """key=value lines in $JS_VM_OUT/summary, written as they come (a run cut short keeps
    what it had)"""

    def __init__(self, path):
        self.path = path
        self.kv = {}
        open(path, "w").close()

    def __setitem__(self, key, val):
        val = str(val).replace("\n", " ")
        self.kv[key] = val
        with open(self.path, "a") as f:
            f.write(f"{key}={val}\n")


def say(msg):
    print(f"inside: {msg}", flush=True)


def is_rt():
    try:
        if open("/sys/kernel/realtime").read().strip() == "1":
            return True
    except OSError:
        pass
    return "PREEMPT_RT" in os.uname().version


# ---- 1. the probes of both builds ----

def census(out, raw):
    """one jitterscope -v run on CPU 1: {build, why, attached, programs, refused, absent, ...}
    (the kernel's pick, not raw: JS_INSIDE_PICKED's run where it is given)"""
    name = "raw_tp" if raw else "tp_btf"
    picked = None if raw else os.environ.get("JS_INSIDE_PICKED")
    if picked:
        jsn = os.path.join(picked, "default.json")
        with open(os.path.join(picked, "default.err")) as f:
            err = f.read()
        with open(os.path.join(picked, "rc.default")) as f:
            rc = int(f.read().strip() or -1)
    else:
        jsn = os.path.join(out, f"probes_{name}.json")
        cmd = [JS, "--cpu", str(CPU), "-d", "1", "-v", "--json", jsn]
        if raw:
            cmd += ["--btf", "/sys/kernel/btf/vmlinux"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        err, rc = r.stderr, r.returncode
    with open(os.path.join(out, f"probes_{name}.err"), "w") as f:
        f.write(err)
    m = re.search(r"attached (\d+) of (\d+) probes", err)
    rawwhy = re.search(r"eBPF probes as raw tracepoints \((.*)\): the same events", err)
    refused = re.findall(r"probe (\S+) refused by this kernel's verifier", err)
    absent = re.findall(r"probe (\S+): (?:tracepoint not in this kernel|not this arch's)", err)
    try:
        probes = json.load(open(jsn))["probes"]
    except (OSError, ValueError, KeyError):
        probes = {}
    return dict(rc=rc, build="raw_tp" if rawwhy else "tp_btf",
                why=rawwhy.group(1) if rawwhy else "",
                attached=int(m.group(1)) if m else 0, programs=int(m.group(2)) if m else 0,
                refused=refused, absent=absent, enabled=bool(probes.get("enabled")),
                why_disabled=probes.get("why_disabled") or "")


def probes(out, summ):
    ok = True
    picked = None  # the kernel's pick, when it is raw_tp: the forced run would repeat it
    for raw in (False, True):
        name = "raw_tp" if raw else "tp_btf"
        c = picked or census(out, raw)
        got = c["build"]
        if got != name:  # the kernel cannot have the tp_btf build: its run is raw_tp's
            summ[f"{name}_attached"] = "-"
            summ[f"{name}_why"] = f"not loadable here: {c['why']}"
            say(f"probes {name}: not loadable here ({c['why']}); the kernel's pick is {got}, "
                "judged as raw_tp's run")
            picked = c
            continue
        good = c["rc"] == 0 and c["enabled"] and c["attached"] > 0 and not c["refused"]
        summ[f"{name}_attached"] = c["attached"]
        summ[f"{name}_programs"] = c["programs"]
        summ[f"{name}_refused"] = len(c["refused"])
        summ[f"{name}_refused_names"] = ",".join(c["refused"])
        summ[f"{name}_absent"] = len(c["absent"])
        if not good:
            summ[f"{name}_why"] = c["why_disabled"] or f"exit {c['rc']}"
        say(f"probes {name}: {c['attached']} attached of {c['programs']}, refused "
            f"{len(c['refused'])}{': ' + ','.join(c['refused']) if c['refused'] else ''}, "
            f"absent {len(c['absent'])} ({','.join(c['absent']) or '-'}): "
            f"{'PASS' if good else 'FAIL'}")
        ok = ok and good
    summ["probes_ok"] = int(ok)
    return ok


# ---- 2. the injected kinds ----

def attrib(kind, out, duration, disk):
    """attrib_lib.py run for one kind: (status, its output); the run's files in out/kind"""
    d = os.path.join(out, kind)
    os.makedirs(d, exist_ok=True)
    duration += LONGER.get(kind, 0)
    cmd = [sys.executable, os.path.join(TESTLIB, "attrib_lib.py"), "run", "--mode", kind,
           "--naming-only", "--duration", str(duration), "--dir", d] + KINDS[kind]
    if kind == "irq":
        cmd += ["--inject-dir", disk]
    if kind == "softirq" and rps_refused(CPU):
        cmd += ["--steer", "rfs"]
    r = subprocess.run(cmd, cwd=TESTLIB, capture_output=True, text=True,
                       timeout=duration * 10 + 120)
    text = r.stdout + r.stderr
    with open(os.path.join(d, "attrib.txt"), "w") as f:
        f.write(text)
    return r.returncode, text


def cpulist(path):
    """the CPUs of a sysfs cpulist file ("1,3-5"), empty when absent or none ("(null)", what
    nohz_full says on a kernel booted without it)"""
    try:
        text = open(path).read().strip()
    except OSError:
        return set()
    cpus = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        if lo.isdigit() and (hi.isdigit() or not hi):
            cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def rps_refused(cpu):
    """does the kernel keep @cpu out of rps_cpus: store_rps_map() keeps only housekeeping
    CPUs (HK_TYPE_DOMAIN, HK_TYPE_WQ: isolcpus=domain, nohz_full=; commit 07bbecb34106,
    Linux 5.9) and refuses a mask left empty (EINVAL). jsinject --steer rfs then: RFS steers
    a flow to the CPU its reader runs on, whatever rps_cpus says"""
    base = "/sys/devices/system/cpu/"
    return cpu in cpulist(base + "isolated") | cpulist(base + "nohz_full")


def named_of(kind, text):
    """(named, actions) from attrib_lib's "KIND: actions=N matched=M named=K" line"""
    m = re.search(r"^%s: actions=(\d+) matched=\d+ named=(\d+)" % kind, text, re.M)
    return (int(m.group(2)), int(m.group(1))) if m else (0, 0)


def injector(text):
    """jsinject's summary as attrib_lib logs it ("attrib: jsinject: k=v ...")"""
    m = re.search(r"^attrib: jsinject: (.*)$", text, re.M)
    return dict(x.split("=", 1) for x in m.group(1).split() if "=" in x) if m else {}


def verdict(summ, kind, ok, named, total, why="", extra=""):
    """a kind's keys and line; ok: True, False or None (skip)"""
    summ[f"{kind}_named"] = f"{named}/{total}"
    summ[f"{kind}_ok"] = "skip" if ok is None else int(ok)
    if why:
        summ[f"{kind}_why"] = why
    word = "SKIP" if ok is None else "PASS" if ok else "FAIL"
    say(f"{kind}: named {named}/{total} ({al.pct(named, total):.2f} %){extra}: {word}"
        + (f" ({why})" if why else ""))


def run_kind(kind, out, duration, disk, summ):
    if kind == "irq" and not disk:
        verdict(summ, kind, None, 0, 0, "no scratch disk: $JS_VM_DISK unset (vm.py run --disk MiB)")
        return None
    t0 = time.monotonic()
    rc, text = attrib(kind, out, duration, disk)
    summ[f"{kind}_seconds"] = f"{time.monotonic() - t0:.0f}"
    named, total = named_of(kind, text)
    inj = injector(text)
    extra, why = "", ""
    ok = rc == 0
    if rc == al.EXIT_SKIP:
        why = (re.findall(r"^skip: (.*)$", text, re.M) or ["skipped"])[0]
        ok = None
    elif not ok:
        why = "; ".join(l for l in text.splitlines() if "FAIL" in l)[:300] or f"exit {rc}"
    if kind == "ipi" and inj:
        # the kernel's witness that the IPIs were sent: its count on CPU 1 over the run
        cal, acts = int(inj.get("cal_delta", 0)), int(inj.get("actions", 0))
        summ["ipi_cal_delta"] = cal
        summ["ipi_actions"] = acts
        extra = f", the kernel counted {cal} call-function IPIs on CPU {CPU} for {acts}"
        if cal < acts and ok is not None:
            ok = False
            why = why or f"CAL rose {cal} for {acts} ioctls: IPIs not sent"
    if kind == "softirq" and inj:
        summ["softirq_steer"] = inj.get("steer", "?")
        extra = f", steered by {inj.get('steer', '?').upper()}"
    if kind == "irq" and inj:
        summ["irq_irq"] = f"{inj.get('irq_name', '?')}:{inj.get('irq', '?')}"
        extra = f", IRQ {summ.kv['irq_irq']} ({inj.get('irq_delta', '?')} interrupts)"
    if ok and total < MIN_RUNS:
        ok, why = None, f"only {total} actions judged (need >= {MIN_RUNS})"
    verdict(summ, kind, ok, named, total, why, extra)
    return ok


# ---- 3. PREEMPT_RT's interrupt threads ----

def window(run_json):
    with open(run_json) as f:
        c = [x for x in json.load(f)["cpus"] if x["cpu"] == CPU][0]
    return c["start_ns"], c["end_ns"]


def kthread_pid(comm):
    """the pid of the kernel thread named comm, or None"""
    for p in os.listdir("/proc"):
        try:
            if p.isdigit() and open(f"/proc/{p}/comm").read().strip() == comm:
                return int(p)
        except OSError:
            pass
    return None


def thread_runs(evs, prefix, lo, hi):
    """{COMM:PID: [(seq, start, end)]}: the runs in [lo, hi] of each task whose witness name
    starts with task:PREFIX (COMM:PID is the detail jitterscope gives its part)"""
    runs = {}
    for s, e, n in sorted(evs):
        if n.startswith("task:" + prefix) and lo <= s and e <= hi:
            name = n[len("task:"):]
            runs.setdefault(name, []).append((len(runs.get(name, [])), s, e))
    return runs


def match_thread(kind, d, prefix, cls, summ, few=""):
    """each run of the thread PREFIX* on CPU 1 in run folder d's witness, one to one with a
    gap naming it in class cls (attrib_lib's matcher); few: why it may not have run"""
    try:
        evs = al.load_witness(os.path.join(d, "witness.csv"))
        lo, hi = window(os.path.join(d, "run.json"))
    except (OSError, ValueError, KeyError, IndexError) as e:
        verdict(summ, kind, False, 0, 0, f"no run to read ({e})")
        return False
    runs = thread_runs(evs, prefix, lo, hi)
    total = sum(len(r) for r in runs.values())
    if total < MIN_RUNS:
        verdict(summ, kind, None, 0, total, f"{prefix}* ran {total} times on CPU {CPU} while"
                f" measured (need >= {MIN_RUNS}){few}")
        return None
    gaps = al.load_gaps(os.path.join(d, "gaps.csv"), CPU)
    res = []
    for name, acts in runs.items():  # its part: CLASS:COMM:PID[ SOFTIRQ]
        res += al.match(acts, gaps, dict(cause=(cls, name), before=100 * US, after=100 * US))
    named = len([r for r in res if r[2]])
    ok = al.pct(named, len(res)) >= MIN_PCT
    why = "" if ok else "; ".join(
        "run at %d (%s us): %s" % (r[0][1], al.fmt_us(r[0][2] - r[0][1]),
                                   f"gap {r[1].cause}:{r[1].detail}" if r[1] else "no gap")
        for r in res if not r[2])[:300]
    verdict(summ, kind, ok, named, len(res), why, f", {', '.join(sorted(runs))} as {cls}")
    return ok


def ktimers_run(out, duration, summ):
    """jitterscope on CPU 1 with a task there sleeping 10 ms at a time: its hrtimer (soft on
    RT) expires in ktimers/1; the kernel's trace of CPU 1's switches is the witness"""
    d = os.path.join(out, "ktimers")
    os.makedirs(d, exist_ok=True)
    old = None
    try:
        old = open(TIMER_MIGRATION).read().strip()
        with open(TIMER_MIGRATION, "w") as f:
            f.write("0")
    except OSError as e:
        say(f"note: cannot keep CPU {CPU}'s timers there ({TIMER_MIGRATION}: {e.strerror})")
    sleeper = subprocess.Popen([sys.executable, "-c", "import os, time\n"
                                f"os.sched_setaffinity(0, {{{CPU}}})\n"
                                "while True:\n    time.sleep(0.01)\n"])
    wit = al.Witness(CPU, events=("sched/sched_switch",))
    r = None
    try:
        wit.start()
        r = subprocess.run([JS, "--cpu", str(CPU), "-d", str(duration), "-q",
                            "--gaps", os.path.join(d, "gaps.csv"),
                            "--json", os.path.join(d, "run.json")],
                           capture_output=True, text=True, timeout=duration * 10 + 120)
        with open(os.path.join(d, "js.err"), "w") as f:
            f.write(r.stderr)
    finally:
        evs = wit.stop(os.path.join(d, "witness.csv"))
        sleeper.kill()
        sleeper.wait()
        if old is not None:
            with open(TIMER_MIGRATION, "w") as f:
                f.write(old)
    if r is None or r.returncode or evs is None:
        verdict(summ, "ktimers", False, 0, 0, f"jitterscope exit {r and r.returncode}"
                f"{'' if evs is not None else '; ' + str(wit.why)}")
        return False
    return match_thread("ktimers", d, "ktimers/%d:" % CPU, "timer", summ)


def main(argv):
    out = os.environ.get("JS_VM_OUT")
    if not out:
        print("inside.py: JS_VM_OUT is not set (run me through tests/vm/vm.py)", file=sys.stderr)
        return 64
    os.makedirs(out, exist_ok=True)
    duration = int(os.environ.get("JS_INSIDE_DURATION", "8"))
    disk = os.environ.get("JS_VM_DISK", "")
    t0 = time.monotonic()
    summ = Summary(os.path.join(out, "summary"))
    rt = is_rt()
    summ["release"] = os.uname().release
    summ["rt"] = int(rt)
    why = al.live_missing()
    if why:
        say(f"skip: {why}")
        summ["seconds"] = 0
        return al.EXIT_SKIP
    want = argv or list(KINDS) + (list(RT_KINDS) if rt else [])
    unknown = [k for k in want if k not in KINDS and k not in RT_KINDS + ("probes",)]
    if unknown:
        print(f"inside.py: no kind {', '.join(unknown)} (kinds: probes "
              f"{' '.join(KINDS)} {' '.join(RT_KINDS)})", file=sys.stderr)
        return 64
    summ["kinds"] = ",".join(want)
    results = []
    if not argv or "probes" in argv:
        results.append(probes(out, summ))
    for kind in KINDS:
        if kind in want:
            results.append(run_kind(kind, out, duration, disk, summ))
    if "irq_thread" in want:
        inj = injector(open(os.path.join(out, "irq", "attrib.txt")).read()) \
            if os.path.exists(os.path.join(out, "irq", "attrib.txt")) else {}
        if inj.get("irq"):
            results.append(match_thread("irq_thread", os.path.join(out, "irq"),
                                        "irq/%s-" % inj["irq"], "irq", summ))
        else:
            verdict(summ, "irq_thread", None, 0, 0, "no irq run to read it from")
    napi = kthread_pid("backlog_napi/%d" % CPU)
    for kind in ("ksoftirqd", "backlog_napi"):
        if kind not in want:
            continue
        if kind == "backlog_napi" and napi is None:
            verdict(summ, kind, None, 0, 0, f"no backlog_napi/{CPU} thread (before Linux 6.10,"
                    " or not PREEMPT_RT without thread_backlog_napi): NET_RX does its work")
        elif os.path.exists(os.path.join(out, "softirq", "witness.csv")):
            # ksoftirqd/1 runs a softirq raised in a hard IRQ on CPU 1: where backlog_napi/1
            # exists the steered packets go there, timers to ktimers/1, RCU to rcuc/1, and an
            # isolated CPU has no load balancing (SCHED): nothing injected reaches it
            few = (f": this kernel gives it no injected work (the packets: backlog_napi/{CPU})"
                   if kind == "ksoftirqd" and napi is not None else "")
            results.append(match_thread(kind, os.path.join(out, "softirq"),
                                        "%s/%d:" % (kind, CPU), "softirq", summ, few))
        else:
            verdict(summ, kind, None, 0, 0, "no softirq run to read it from")
    if "ktimers" in want:
        results.append(ktimers_run(out, duration, summ))
    elapsed = time.monotonic() - t0
    summ["seconds"] = f"{elapsed:.0f}"
    failed = [r for r in results if r is False]
    summ["ok"] = int(not failed)
    say(f"{len(results)} checks in {elapsed:.0f} s: {len(failed)} failed, "
        f"{len([r for r in results if r is None])} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
