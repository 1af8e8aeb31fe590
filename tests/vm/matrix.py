#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""matrix.py - jitterscope on each kernel of the VM matrix (tests/vm/kernels.py), judged.

  matrix.py [--kernels a,b|--check] [--no-inject] [--write docs/KERNELS.md] [--keep DIR]

Boots each kernel (tests/vm/vm.py), runs tests/vm/guest.sh in it (the arm64 kernel:
tests/vm/arm64.sh, when it exists) and judges what it left:
  - the probes load with none refused by the verifier (Linux 5.12 and later; below, the run
    must measure and say why it has no probes);
  - on a tuned kernel (isolcpus= on its line), `jitterscope` and `jitterscope --cpu 1`
    measure CPU 1 from the shell the box gives (its affinity: the housekeeping CPUs);
  - on a nohz_full kernel, the tick on CPU 1 while the sampler spins alone there is at most
    2/s (/proc/interrupts' LOC over 3 s in the middle of a 6 s run, read by guest.sh with the
    uptime at each read) and the
    report says it stayed stopped;
  - `check` runs, and its verdict counts are reported;
  - on a tuned kernel, no boot parameter in force on its line is advised again: not by the
    runs' answer ("fix first:") or hints, `check`'s hints, nor the words `check --plan`'s
    planned line adds (repeats(): isolcpus=domain,1 under isolcpus=managed_irq,domain,1
    repeats it);
  - --deepest-idle-state 0 on CPU 1 (judge_idle; under --check on kernels.CHECK_ALL
    only): CPU 1's states deeper than 0 disabled
    while the runs a signal ends measure (SIGINT, SIGKILL; a run that ends by itself may be
    over before a guest starved by its host reads it), CPU 0's untouched, given back after a
    normal exit, a SIGINT and
    a failure, and after a SIGKILL by the next run's start, which says so; the JSON records
    them (without cpuidle states: one line says so, and the run measures);
  - with injection (tests/vm/inside.sh, when it exists; under --check on kernels.CHECK_ALL
    only), each injected kind is named.
Prints one line per kernel and check, a table, and exits 1 when a check failed, 77 when no
kernel could be booted here (one line saying why).
--check: the kernels make check runs (kernels.py's check column), --deepest-idle-state and
inside.sh on kernels.CHECK_ALL alone.
--write FILE: rewrite FILE (docs/KERNELS.md) whole from this run.
"""
import argparse
import builtins
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernels  # noqa: E402
import plan_roundtrip  # noqa: E402
import vm  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
TICK_STOPPED_PER_S = 2.0  # = AUDIT_TICK_STOPPED_PER_S (src/audit/js_audit.h)
FLOOR = (5, 12)  # the probes' floor (docs/REQUIREMENTS.md)


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def release_tuple(rel):
    m = re.match(r"(\d+)\.(\d+)", rel or "")
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def refused(err_text):
    """the programs the verifier refused, from jitterscope's warnings"""
    return re.findall(r"probe (\S+) refused by this kernel's verifier", err_text)


def loc_rate(out):
    """CPU 1's local timer interrupts/s in the middle of the --cpu 1 run (guest.sh's loc1:
    /proc/interrupts, read apart from the product), or None"""
    try:
        a, ta, b, tb = read(os.path.join(out, "loc1")).split()
        return (int(b) - int(a)) / (float(tb) - float(ta))
    except (ValueError, ZeroDivisionError):
        return None


class Case:
    """one kernel's results: its checks (name, ok, text) and its table cells"""

    def __init__(self, k):
        self.k = k
        self.checks = []
        self.cells = {}
        self.skip = None  # why the kernel could not be booted here

    def check(self, name, ok, text):
        self.checks.append((name, ok, text))
        print(f"{'PASS' if ok else 'FAIL'}: {self.k.name}: {name}: {text}", flush=True)

    @property
    def ok(self):
        return all(ok for _, ok, _ in self.checks)


def params(line):
    """the words of a kernel command line (up to a lone "--") -> {NAME: VALUE} (a bare word:
    VALUE None)"""
    out = {}
    for w in line.split():
        if w == "--":
            break
        name, eq, val = w.partition("=")
        out[name] = val if eq else None
    return out


ADVICE = re.compile(r"boot with (.*?)(?=$| \(|\)|;|:| so | if | to | for | when )")


def repeats(force, text):
    """the boot parameters a text advises that are in force already: the words after "boot
    with" in its "fix first:" and "hint:" lines, and those check --plan's "planned:" line
    adds to its "running:" one, whose NAME is on the command line (force: params()) with
    every comma-separated part of VALUE among its own (isolcpus=domain,1 under
    isolcpus=managed_irq,domain,1 repeats it; a bare word, itself) -> ["LINE: WORD"]"""
    advised = []
    running = planned = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("# running: "):
            running = s[len("# running: "):]
        elif s.startswith("# planned: "):
            planned = s[len("# planned: "):]
        elif "fix first:" in s or s.startswith("hint:"):
            advised += [(s, w) for m in ADVICE.finditer(s) for w in m.group(1).split()]
    if running is not None and planned is not None:
        had = set(running.split(" -- ")[0].split())
        advised += [("planned", w) for w in planned.split(" -- ")[0].split() if w not in had]
    found = []
    for line, w in advised:
        name, eq, val = w.partition("=")
        if name not in force:
            continue
        have = force[name]
        if (not eq and have is None) or (eq and have is not None and
                                          set(val.split(",")) <= set(have.split(","))):
            found.append("%s: %s" % (line[:60], w))
    return found


def judge_x86(case, out, inject, full=True):
    k = case.k
    rel = read(os.path.join(out, "release")).strip()
    case.cells["release"] = rel
    below = release_tuple(rel) < FLOOR
    tuned = "isolcpus=" in k.cmdline
    nohz = "nohz_full=" in k.cmdline
    case.cells["affinity"] = read(os.path.join(out, "affinity")).strip()
    runs = {}
    for name in ("default", "cpu1"):
        rc = read(os.path.join(out, f"rc.{name}"), "?").strip()
        err = read(os.path.join(out, f"{name}.err"))
        run = load_json(os.path.join(out, f"{name}.json"))
        runs[name] = (rc, err, run)
    rc, err, run = runs["cpu1"]
    probes = (run or {}).get("probes") or {}
    ref = sorted(set(refused(err) + refused(runs["default"][1])))
    case.cells["refused"] = len(ref)
    case.cells["refused_names"] = ", ".join(ref)
    if below:
        why = probes.get("why_disabled") or ""
        case.check("below the floor", rc == "0" and not probes.get("enabled") and bool(why),
                   f"measured (exit {rc}), no probes: {why or '(no reason given)'}")
        case.cells["probes"] = "none (below 5.12)"
    else:
        case.check("probes", rc == "0" and probes.get("enabled") and not ref,
                   f"enabled={probes.get('enabled')}, {probes.get('events', 0)} events, "
                   f"refused {len(ref)}{': ' + ', '.join(ref) if ref else ''}")
        case.cells["probes"] = "loaded" if probes.get("enabled") and not ref else \
            f"{len(ref)} refused" if ref else "not loaded"
        # --pid --marks: the threads' programs load and follow a process on CPU 1, and
        # its marks (one a sleep of 10 ms, 2 s) are read
        frc = read(os.path.join(out, "rc.follow"), "?").strip()
        fpid = read(os.path.join(out, "follow.pid")).strip()
        fj = load_json(os.path.join(out, "follow.json")) or {}
        tids = [str(t.get("tid")) for t in fj.get("threads") or []]
        nmarks = (fj.get("marks_file") or {}).get("marks", 0)
        ferr = (read(os.path.join(out, "follow.err")).strip().splitlines() or [""])[-1]
        # the probes' programs that also do the follow programs' work (sched_switch_follow,
        # sched_waking_follow) load here too: none refused
        fref = refused(read(os.path.join(out, "follow.err")))
        case.check("--pid --marks follows a process", frc == "0" and fpid in tids and
                   nmarks >= 10 and not fref,
                   f"exit {frc}, its thread {'followed' if fpid in tids else 'not in the JSON'}"
                   f", {nmarks} marks read, refused {len(fref)}"
                   f"{': ' + ', '.join(fref) if fref else ''}"
                   + (f" ({ferr})" if frc != "0" and ferr else ""))
    for name in ("default", "cpu1"):
        rc, err, run = runs[name]
        cpus = [c.get("cpu") for c in (run or {}).get("cpus", [])]
        want = [1]
        what = "jitterscope" if name == "default" else "jitterscope --cpu 1"
        first = (err.strip().splitlines() or [""])[-1] if rc != "0" else ""
        case.check(f"{what} from a shell on CPUs {case.cells['affinity']}",
                   rc == "0" and cpus == want,
                   f"exit {rc}, measured CPUs {cpus}" + (f" ({first})" if first else ""))
        case.cells["measures_" + name] = "yes" if rc == "0" and cpus == want else "no"
    rate = loc_rate(out)
    case.cells["tick"] = "-" if rate is None else f"{rate:.1f}/s"
    if nohz:
        text = read(os.path.join(out, "cpu1.txt"))
        said = "the tick stayed stopped on CPU 1" in text
        case.check("nohz_full tick", rate is not None and rate <= TICK_STOPPED_PER_S and said,
                   f"{case.cells['tick']} local timer interrupts on CPU 1 (need <= "
                   f"{TICK_STOPPED_PER_S:.0f}/s), report says stopped: {said}")
    chk = load_json(os.path.join(out, "check.json"))
    summ = ((chk or {}).get("audit") or {}).get("summary") or {}
    case.cells["check"] = (f"{summ.get('pass', '?')} pass, {summ.get('warn', '?')} warn, "
                           f"{summ.get('fail', '?')} fail, {summ.get('skip', '?')} skip")
    case.check("check", chk is not None, case.cells["check"] if chk else "no check.json")
    if tuned and chk:
        fails = [c for c in chk["audit"].get("checks", []) if c.get("verdict") == "fail"]
        case.cells["check_fails"] = ", ".join(sorted({c.get("id", "?") for c in fails}))
    if tuned:
        # a tuned box: no answer, hint or plan line advises a boot parameter in force
        force = params(read(os.path.join(out, "cmdline")))
        texts = "\n".join(read(os.path.join(out, f)) for f in
                          ("cpu1.txt", "default.txt", "check.txt", "plan.txt"))
        rep = repeats(force, texts)
        case.check("nothing in force advised", bool(force) and "# planned: " in texts and
                   not rep, "; ".join(rep) or "the answer's, the hints' and the plan's boot "
                   "parameters: none in force already")
    if full:
        judge_idle(case, out)
    else:
        print(f"note: {k.name}: --deepest-idle-state and inside.sh not run here (make check "
              f"runs them on {kernels.CHECK_ALL}, make check-kernels on every kernel)",
              flush=True)
    if inject and below:
        print(f"SKIP: {k.name}: inject: below the {FLOOR[0]}.{FLOOR[1]} floor, no probes to "
              "name anything (guest.sh does not run inside.sh)", flush=True)
        case.cells["named"] = "- (below the floor)"
    elif inject:
        judge_inject(case, os.path.join(out, "inject"), read(os.path.join(out, "rc.inject"),
                                                              "").strip())


def idle_states(out):
    """guest.sh's idle.states: {(when, cpu): {state index: disable value}}"""
    snaps = {}
    for line in read(os.path.join(out, "idle.states")).splitlines():
        m = re.match(r"(\S+) cpu(\d+):(.*)$", line)
        if m:
            snaps[(m.group(1), int(m.group(2)))] = {
                int(k[5:]): v for k, _, v in (w.partition("=") for w in m.group(3).split())}
    return snaps


def judge_idle(case, out):
    """--deepest-idle-state 0 on CPU 1 (guest.sh's idle runs)"""
    snaps = idle_states(out)
    before0, before1 = snaps.get(("before", 0)), snaps.get(("before", 1))
    rc = {n: read(os.path.join(out, f"rc.{n}"), "?").strip()
          for n in ("idle", "idle_int", "idle_fail", "idle_kill")}
    err = read(os.path.join(out, "idle.err"))
    if before1 is None:
        case.check("deepest idle state", False, "no idle.states from guest.sh")
        return
    if not before1:  # no cpuidle states: one line says so, and the run measures
        said = "no cpuidle states on CPU 1" in err
        case.check("deepest idle state without cpuidle", rc["idle"] == "0" and said,
                   f"exit {rc['idle']}, said so: {said}")
        return
    deeper = sorted(k for k, v in before1.items() if k > 0 and v == "0")
    want1 = {k: ("1" if k in deeper else v) for k, v in before1.items()}
    if not deeper:
        case.check("deepest idle state", False,
                   f"CPU 1 has no enabled state deeper than 0 ({before1}): nothing to judge")
        return
    bad = []
    # read while measuring: the runs a signal ends (guest.sh: a run that ends by itself may
    # be over before a starved guest reads it); all four are judged after
    for run in ("idle_int", "idle_kill"):
        if snaps.get((f"{run}:during", 1)) != want1:
            bad.append(f"{run}: CPU 1 during {snaps.get((run + ':during', 1))}")
        if snaps.get((f"{run}:during", 0)) != before0:
            bad.append(f"{run}: CPU 0 during {snaps.get((run + ':during', 0))}")
    try:
        t0, t1 = (float(x) for x in read(os.path.join(out, "idle.uptime")).split())
        took = f" ({t1 - t0:.0f} s in all)"
    except ValueError:
        took = ""
    case.check("deepest idle state during the runs", not bad,
               "; ".join(bad) or f"CPU 1's states {deeper} disabled, CPU 0's untouched, "
               f"in the runs SIGINT and SIGKILL end{took}")
    bad = [f"{w}: CPU {c} {snaps.get((w, c))}" for w in
           ("idle:after", "idle_int:after", "idle_fail:after")
           for c, b in ((0, before0), (1, before1)) if snaps.get((w, c)) != b]
    exits = {"idle": "0", "idle_int": "0", "idle_fail": "1", "idle_kill": "137"}
    bad += [f"{n} exited {rc[n]} (want {w})" for n, w in exits.items() if rc[n] != w]
    case.check("deepest idle state given back", not bad,
               "; ".join(bad) or "after a normal exit, SIGINT, a failure (exit 1)")
    # the SIGKILL's run went first: the next (idle) gave its states back as it started, said
    # so before it disabled them again
    left = snaps.get(("idle_kill:after", 1)) == want1
    files = read(os.path.join(out, "idle.files")).split()
    lines = err.splitlines()
    at = [i for i, x in enumerate(lines) if "restored states left disabled by a previous run"
          in x]
    dis = [i for i, x in enumerate(lines) if "idle states deeper than 0 disabled" in x]
    said = bool(at) and bool(dis) and at[0] < dis[0]
    case.check("deepest idle state after SIGKILL", left and said and bool(files),
               f"left disabled by the kill: {left} (state file {' '.join(files) or 'none'}), "
               f"given back by the next run's start, which said so: {said}")
    run = load_json(os.path.join(out, "idle.json")) or {}
    rec = run.get("idle_states") or {}
    got = [(d.get("cpu"), d.get("state")) for d in rec.get("disabled", [])]
    ok = ((run.get("params") or {}).get("deepest_idle_state") == 0 and rec.get("deepest") == 0
          and got == [(1, k) for k in deeper] and rec.get("restored") is True)
    case.check("deepest idle state in the JSON", ok,
               f"params {(run.get('params') or {}).get('deepest_idle_state')}, disabled {got}, "
               f"restored {rec.get('restored')}")


def judge_inject(case, out, rc):
    """tests/vm/inside.sh's summary: key=value lines, NAME_named=n/N per injected kind"""
    summ = {}
    for line in read(os.path.join(out, "summary")).splitlines():
        if "=" in line:
            key, _, val = line.partition("=")
            summ[key.strip()] = val.strip()
    if not summ:
        case.check("inject", False, f"no summary from tests/vm/inside.sh (exit {rc or '?'})")
        return
    if "probes_ok" in summ:
        builds = [f"{b}: {summ.get(b + '_attached', '-')} attached, "
                  f"{summ.get(b + '_refused', '-')} refused" for b in ("tp_btf", "raw_tp")]
        case.check("both builds load", summ["probes_ok"] == "1", "; ".join(builds))
        case.cells["builds"] = " / ".join(
            f"{summ.get(b + '_refused', '-')}" for b in ("tp_btf", "raw_tp"))
    kinds = []
    for key, val in summ.items():
        m = re.match(r"(\w+)_named$", key)
        if not m:
            continue
        kind = m.group(1)
        ok = summ.get(f"{kind}_ok", "") in ("1", "pass", "PASS")
        skip = summ.get(f"{kind}_ok", "") in ("skip", "SKIP")
        kinds.append(f"{kind} {val}" + (" (skip)" if skip else ""))
        if skip:
            print(f"SKIP: {case.k.name}: {kind}: {summ.get(kind + '_why', '')}", flush=True)
            continue
        case.check(f"{kind} named", ok, val)
    case.cells["named"] = ", ".join(kinds) or "-"


def judge_arm64(case, out):
    """tests/vm/arm64.sh's key=value summary"""
    summ = {}
    for line in read(os.path.join(out, "summary")).splitlines():
        if "=" in line:
            key, _, val = line.partition("=")
            summ[key.strip()] = val.strip()
    case.cells["release"] = summ.get("release", "?")
    if not summ:
        case.check("arm64", False, "no summary from tests/vm/arm64.sh")
        return
    ref = summ.get("refused", "?")
    case.cells["refused"] = ref
    case.cells["probes"] = "loaded" if ref == "0" else f"{ref} refused"
    case.check("probes", ref == "0", f"refused {ref}")
    kinds = []
    for key, val in summ.items():
        m = re.match(r"(\w+)_named$", key)
        if m:
            ok = summ.get(f"{m.group(1)}_ok", "") in ("1", "pass", "PASS")
            case.check(f"{m.group(1)} named", ok, val)
            kinds.append(f"{m.group(1)} {val}")
    case.cells["named"] = ", ".join(kinds) or "-"
    live = summ.get("live_tests", "-")
    if live != "-":
        n, _, m = live.partition("/")
        case.check("live unit tests in the guest", n == m, f"{live} passed")
    case.check("arm64.sh", summ.get("result") == "pass", f"result={summ.get('result', '?')}")


def run_case(k, keep, inject, kinds=(), full=True):
    case = Case(k)
    inject = inject and full
    t0 = time.monotonic()
    out = os.path.join(keep, k.name) if keep else tempfile.mkdtemp(prefix=f"jsvm-{k.name}.")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    try:
        if k.arch == "arm64":
            script = os.path.join(HERE, "arm64.sh")
            if not os.path.exists(script):
                raise vm.Unavailable("no tests/vm/arm64.sh yet")
            r = subprocess.run(["sh", script, out], cwd=ROOT)
            if r.returncode == vm.EX_SKIP:
                raise vm.Unavailable("tests/vm/arm64.sh skipped")
            judge_arm64(case, out)
        else:
            cmd = ("sh tests/vm/guest.sh" + ("" if full else " noidle") +
                   (" inject " + " ".join(kinds) if inject else ""))
            # the scratch disk is the irq kind's (inside.sh): not booted without it
            disk = 256 if inject and (not kinds or "irq" in kinds) else 0
            status, log = vm.boot(k, cmd, timeout=1800, outdir=out, quiet=True, disk=disk)
            with open(os.path.join(out, "console.log"), "w") as f:
                f.write(log)
            if status != 0:
                case.check("boot", False, f"the guest's command ended {status} "
                           f"(console: {out}/console.log)")
            else:
                judge_x86(case, out, inject, full)
    except vm.Unavailable as e:
        case.skip = str(e)
        print(f"SKIP: {k.name}: {e}", flush=True)
    case.cells["seconds"] = f"{time.monotonic() - t0:.0f}"
    if not keep and case.ok:
        shutil.rmtree(out, ignore_errors=True)
    elif not case.ok:
        print(f"{k.name}: outputs kept in {out}", flush=True)
    return case


def table(cases):
    head = ("kernel", "release", "command line", "probes", "refused", "measures CPU 1 "
            "(default / --cpu 1)", "tick on CPU 1", "named", "check", "time")
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cases:
        x = c.cells
        if c.skip:
            rows.append(f"| {c.k.name} | | `{c.k.cmdline or '-'}` | skipped: {c.skip} |"
                        + " |" * (len(head) - 4))
            continue
        rows.append("| " + " | ".join([
            c.k.name + ("" if c.ok else " **FAIL**"), x.get("release", "?"),
            f"`{c.k.cmdline}`" if c.k.cmdline else "-",
            x.get("probes", "-"), str(x.get("refused", "-")),
            f"{x.get('measures_default', '-')} / {x.get('measures_cpu1', '-')}",
            x.get("tick", "-"), x.get("named", "-"), x.get("check", "-"),
            x.get("seconds", "?") + " s"]) + " |")
    return "\n".join(rows)


def write_doc(path, cases, started, elapsed, inject, plan=None, plan_lines=()):
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    acc = vm.accel()[1]
    fails = [f"- {c.k.name}: tuned-box `check` fails: {c.cells['check_fails']}"
             for c in cases if c.cells.get("check_fails")]
    text = f"""# Kernels: jitterscope booted on Debian's kernels

Written whole by `make check-kernels` (tests/vm/matrix.py) on {started} from commit
{commit}{' with uncommitted changes' if dirty else ''}, in {elapsed:.0f} s: every figure below
is that run's. Each kernel is Debian's own package, fetched with `apt-get download` (never
installed), booted under QEMU ({acc.upper()}, 2 vCPUs) with the host's root read-only over 9p
(tests/vm/README.md); the host was {platform.node() or '?'}, {os.cpu_count()} CPUs.

In each kernel, from the shell the box gives (on a tuned box its affinity is the
housekeeping CPU 0): `jitterscope -d 3`, `jitterscope --cpu 1` (until SIGINT), `jitterscope check`,
and{'' if inject else ' (not this run)'} the injected preemptions, IPIs, device IRQ and softirq of
tests/vm/inside.sh, each matched one to one with a gap that names it.

- **probes**: loaded, or how many programs the verifier refused (none may be, at or above
  the 5.12 floor; below it the run must measure and say why it has none).
- **tick on CPU 1**: local timer interrupts/s on CPU 1 while the sampler spins alone there
  (`/proc/interrupts`, 3 s in the middle of a 6 s run); on a `nohz_full=1` kernel at most
  {TICK_STOPPED_PER_S:.0f}/s, and the report must say the tick stayed stopped.
- **named**: each injected kind, actions named / actions. Emulated CPUs are slow and
  noisy: the naming is judged, not durations.
- **check**: `jitterscope check`'s verdict counts on that box.

{table(cases)}
"""
    if fails:
        text += "\nWhat `check` failed on the tuned boxes:\n\n" + "\n".join(fails) + "\n"
    refusals = [f"- {c.k.name}: {c.cells['refused_names']}" for c in cases
                if c.cells.get("refused_names")]
    if refusals:
        text += "\nPrograms the verifier refused:\n\n" + "\n".join(refusals) + "\n"
    if plan:
        text += (f"\n## `check --plan` round trip on {plan}\n\nBooted untuned, `check --plan "
                 "--cpu 1` taken there; booted again with its command line, its sysctl and "
                 "runtime sections applied with `sh`, then `check` again "
                 "(tests/vm/plan_roundtrip.py):\n\n```\n" + "\n".join(plan_lines) + "\n```\n")
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", help="comma-separated names (vm.py list); default: all")
    ap.add_argument("--check", action="store_true", help="make check's kernels (the idle "
                    "states and inside.sh on kernels.CHECK_ALL only)")
    ap.add_argument("--no-inject", action="store_true", help="skip tests/vm/inside.sh")
    ap.add_argument("--kinds", help="inside.sh's kinds, comma-separated (default: all; e.g. "
                    "probes,preempt,ipi)")
    ap.add_argument("--write", help="rewrite this file (docs/KERNELS.md) from the run")
    ap.add_argument("--keep", help="keep every kernel's outputs under this folder")
    ap.add_argument("--plan", metavar="KERNEL",
                    help="also the check --plan round trip on KERNEL (plan_roundtrip.py)")
    a = ap.parse_args()
    ks = kernels.KERNELS
    if a.check:
        ks = [k for k in ks if k.check]
    if a.kernels:
        try:
            ks = [kernels.by_name(n) for n in a.kernels.split(",")]
        except KeyError as e:
            print(f"matrix.py: {e.args[0]}", file=sys.stderr)
            return 64
    os.chdir(ROOT)  # the guest runs its command from here (tests/vm/guest.sh, build/)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    t0 = time.monotonic()
    inject = not a.no_inject and os.path.exists(os.path.join(HERE, "inside.sh"))
    kinds = a.kinds.split(",") if a.kinds else []
    cases = [run_case(k, a.keep, inject, kinds, not a.check or k.name == kernels.CHECK_ALL)
             for k in ks]
    plan_lines, plan_rc = [], None
    if a.plan:
        def say(*args, **kw):
            line = " ".join(str(x) for x in args)
            plan_lines.append(line)
            builtins.print(line, flush=True)
        plan_rc = plan_roundtrip.roundtrip(kernels.by_name(a.plan),
                                           os.path.join(a.keep, "plan") if a.keep else None,
                                           say)
    elapsed = time.monotonic() - t0
    print(table(cases))
    if a.write:
        write_doc(a.write, cases, started, elapsed, inject, a.plan, plan_lines)
        print(f"matrix: wrote {a.write}")
    ran = [c for c in cases if not c.skip]
    failed = [c.k.name for c in ran if not c.ok]
    print(f"matrix: {len(ran)} of {len(cases)} kernels ran in {elapsed:.0f} s; "
          f"failed: {', '.join(failed) or 'none'}")
    if plan_rc == 1:
        failed.append(f"plan round trip on {a.plan}")
        print(f"matrix: the plan round trip on {a.plan} failed")
    if not ran:
        return vm.EX_SKIP
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
