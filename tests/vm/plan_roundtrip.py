#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""plan_roundtrip.py - `check --plan` on a real kernel, applied as its user would (issue 36).

  plan_roundtrip.py [--kernel deb12] [--keep DIR]

1. Boots KERNEL untuned and takes `jitterscope check --plan --cpu 1` there.
2. Boots it again with the plan's kernel command line (its "# planned:" line), applies the
   plan's sysctl and runtime sections (2 and 3) with /bin/sh, /etc on a tmpfs copy (the
   host's root is read-only in the VM), then runs `jitterscope check --cpu 1 --json`.
3. Every check the plan's "# covers:" line names must then pass, or be skipped for what the
   VM lacks (no cpufreq, no tuned, no irqbalance: printed); before the plan most must not
   (else this could not fail).
Exit 0 pass, 1 fail, 77 when the VM cannot be had here (one line why).
"""
import argparse
import fnmatch
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernels  # noqa: E402
import vm  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
# what vm.py puts on every command line itself (qemu_cmd): not the plan's to keep
VM_LINE = ("console=", "rdinit=", "panic=", "quiet", "loglevel=")

APPLY = r"""set -u
out=$JS_VM_OUT
# /etc is the host's, read-only here: a writable copy in its place, as a box's own /etc is
cp -a /etc /tmp/etc && mount --bind /tmp/etc /etc
sed -n '/^# 2\. /,/^# 4\. /p' "$out/plan" | grep -v '^# 4\. ' >"$out/apply.sh"
sh -x "$out/apply.sh" >"$out/apply.log" 2>&1
echo $? >"$out/rc.apply"
build/jitterscope check --cpu 1 --json "$out/after.json" >"$out/after.txt" 2>&1
echo $? >"$out/rc.after"
"""


def covered(audit_json, covers):
    """(id, cpu, verdict, observed) of every check a covers pattern names"""
    rows = []
    for c in audit_json["audit"]["checks"]:
        if any(fnmatch.fnmatchcase(c["id"], p) for p in covers):
            rows.append((c["id"], c.get("cpu"), c["verdict"], c.get("observed", "")))
    return rows


def roundtrip(k, keep=None, say=print):
    """the round trip on kernel k: 0 pass, 1 fail, 77 skip; each line said through say"""
    print = say  # noqa: A001 (every line of the verdict goes to the caller)
    os.chdir(ROOT)
    out = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="jsplan.")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    ok = True
    try:
        before_dir, after_dir = os.path.join(out, "before"), os.path.join(out, "after")
        st, _ = vm.boot(k, "build/jitterscope check --cpu 1 --plan >$JS_VM_OUT/plan "
                        "2>$JS_VM_OUT/plan.err; build/jitterscope check --cpu 1 --json "
                        "$JS_VM_OUT/before.json >/dev/null 2>&1; true", cmdline=" ",
                        outdir=before_dir, quiet=True)
        plan = open(os.path.join(before_dir, "plan")).read() if st == 0 else ""
        planned = [ln[len("# planned: "):] for ln in plan.splitlines()
                   if ln.startswith("# planned: ")]
        cov = [ln[len("# covers: "):] for ln in plan.splitlines() if ln.startswith("# covers: ")]
        if not planned or not cov:
            print(f"FAIL: no plan from {k.name} (exit {st}): {plan[:300]!r}")
            return 1
        line = " ".join(t for t in planned[0].split() if not t.startswith(VM_LINE))
        covers = cov[0].split()
        print(f"plan: {k.name} boots with: {line}")
        print(f"plan: covers {len(covers)} checks: {' '.join(covers)}")
        os.makedirs(after_dir)
        shutil.copy(os.path.join(before_dir, "plan"), os.path.join(after_dir, "plan"))
        st, _ = vm.boot(k, APPLY, cmdline=line, outdir=after_dir,
                        quiet=True)
        if st != 0 or not os.path.exists(os.path.join(after_dir, "after.json")):
            print(f"FAIL: the second boot ended {st} without check's JSON")
            return 1
        rc_apply = open(os.path.join(after_dir, "rc.apply")).read().strip()
        print(f"plan: sections 2 and 3 applied by sh, exit {rc_apply} "
              f"(log: {after_dir}/apply.log)")
        before = covered(json.load(open(os.path.join(before_dir, "before.json"))), covers)
        after = covered(json.load(open(os.path.join(after_dir, "after.json"))), covers)
        nbad = sum(1 for r in before if r[2] not in ("pass", "skip"))
        print(f"plan: before, {nbad} of {len(before)} covered checks did not pass")
        if nbad * 2 < len(before):
            print("FAIL: most covered checks already passed before the plan: this proves "
                  "nothing")
            ok = False
        for cid, cpu, verdict, obs in after:
            if verdict == "pass":
                continue
            if verdict == "skip":
                print(f"skip: {cid} (cpu {cpu}): {obs}")
                continue
            print(f"FAIL: after the plan, {cid} (cpu {cpu}) is {verdict}: {obs}")
            ok = False
        npass = sum(1 for r in after if r[2] == "pass")
        print(f"plan: after, {npass} of {len(after)} covered checks pass")
    except vm.Unavailable as e:
        print(f"skip: {e}")
        return vm.EX_SKIP
    finally:
        if not keep and ok:
            shutil.rmtree(out, ignore_errors=True)
    if not ok:
        print(f"plan: outputs kept in {out}")
    print(f"plan round trip on {k.name}: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", default="deb12")
    ap.add_argument("--keep", help="keep the outputs in this folder")
    a = ap.parse_args()
    try:
        k = kernels.by_name(a.kernel)
    except KeyError as e:
        print(f"plan_roundtrip.py: {e.args[0]}", file=sys.stderr)
        return 64
    return roundtrip(k, a.keep)


if __name__ == "__main__":
    sys.exit(main())
