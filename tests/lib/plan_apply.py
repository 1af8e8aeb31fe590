# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""plan_apply.py - apply a `jitterscope check --plan` to a sysroot tree, as the machine would.

    python3 -m plan_apply ROOT PLAN   # rewrites ROOT; prints the covered check ids

What each line of the plan does to a live machine is done to the tree. Section 1 may hold
the steps of several boot methods (grubby, GRUB, systemd-boot, or a VMM's direct boot); each
must give the line the plan says it plans (`# planned:`: the same kernel parameters, but
BOOT_IMAGE= and initrd=, which a boot loader adds itself, and init's arguments after `--`
as they are): `grubby --args=...` merged into the running command line (proc/cmdline) as
grubby updates a boot entry (an argument replaces the one of its name, else is added before
`--`); `grub-mkconfig`/`grub2-mkconfig` builds the linux line from /etc/default/grub as
written by then (the boot loader's words of the running line, then GRUB_CMDLINE_LINUX and
GRUB_CMDLINE_LINUX_DEFAULT, the last assignment of each); `kernel-install add` boots
/etc/kernel/cmdline; `# vmm cmdline: LINE` is the VMM's new line. With "nothing to change",
the running line. A plan that changes the line with no such step is an error. That line
goes into proc/cmdline and its boot-time effects into sysfs (isolated, nohz_full, an
available clocksource; isolcpus=domain gives every task not pinned to one CPU the
housekeeping CPUs, as the kernel does for init and kthreadd at boot); `cat > FILE <<'EOF'` writes FILE; `sysctl --system`
applies the /etc/sysctl.d/*.conf files into proc/sys (it reads no other name); `echo V > F`
writes F (a choice file such as THP's keeps its choices and brackets V; an IRQ's
smp_affinity_list sets its effective affinity too, but the kernel refuses it, EIO, for a
line the plan marks kernel-managed); `echo 'L' >> F` appends; `taskset -pc CPUS $(pgrep -x
NAME)` gives the threads named NAME CPUS; `tuned-adm profile P` sets the active profile.
Any other command (systemctl, mkdir) changes nothing the audit reads. A line the
applier does not understand is an error: the plan and its test must stay in step.
"""
import os
import re
import shlex
import sys


def cpulist(text):
    out = set()
    for part in filter(None, text.strip().split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def fmt(cpus):
    cpus, parts, i = sorted(cpus), [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(parts)


class Tree:
    def __init__(self, root):
        self.root = root

    def path(self, p):
        return os.path.join(self.root, p.lstrip("/"))

    def read(self, p):
        with open(self.path(p)) as f:
            return f.read()

    def write(self, p, text):
        full = self.path(p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        old = open(full).read() if os.path.exists(full) else ""
        if "[" in old and "\n" not in text.strip():
            # a choice file: the kernel brackets the chosen word among its choices
            words = old.replace("[", "").replace("]", "").split()
            if text.strip() not in words:
                raise SystemExit("plan_apply: %s: '%s' is not one of %s" % (p, text.strip(), words))
            text = " ".join("[%s]" % w if w == text.strip() else w for w in words) + "\n"
        with open(full, "w") as f:
            f.write(text)


def boot(tree, cmdline):
    """the kernel's boot-time view of the planned command line"""
    tree.write("/proc/cmdline", cmdline + "\n")
    params = dict(w.partition("=")[::2] for w in kernel_words(cmdline))
    online = cpulist(tree.read("/sys/devices/system/cpu/online"))
    iso = set()
    if "isolcpus" in params:
        words = params["isolcpus"].split(",")
        flags = [w for w in words if re.fullmatch(r"[a-z_]+", w)]
        cpus = cpulist(",".join(w for w in words if w not in flags))
        if "domain" in flags or not flags:
            iso = cpus
        tree.write("/sys/devices/system/cpu/isolated", fmt(iso) + "\n")
    if "nohz_full" in params:
        tree.write("/sys/devices/system/cpu/nohz_full", fmt(cpulist(params["nohz_full"])) + "\n")
    if "transparent_hugepage" in params:
        tree.write("/sys/kernel/mm/transparent_hugepage/enabled", params["transparent_hugepage"])
    cs = "/sys/devices/system/clocksource/clocksource0/"
    if "clocksource" in params and os.path.exists(tree.path(cs + "available_clocksource")) and \
            params["clocksource"] in tree.read(cs + "available_clocksource").split():
        tree.write(cs + "current_clocksource", params["clocksource"] + "\n")
    if "nmi_watchdog" in params:
        tree.write("/proc/sys/kernel/nmi_watchdog", params["nmi_watchdog"] + "\n")
    # module parameters (rcutree.x=v) where the kernel shows them
    for key, val in params.items():
        mod, dot, name = key.partition(".")
        param = "/sys/module/%s/parameters/%s" % (mod, name)
        if dot and os.path.exists(tree.path(param)):
            tree.write(param, val + "\n")
    hk = online - iso
    if not iso:
        return
    # init and kthreadd start on the housekeeping CPUs: every task not pinned to one CPU
    for dirpath, _, files in os.walk(tree.path("/proc")):
        if "status" not in files or "/task/" not in dirpath + "/":
            continue
        st = os.path.join(dirpath, "status")
        text = open(st).read()
        m = re.search(r"^Cpus_allowed_list:\s*(\S+)", text, re.M)
        if not m:
            continue
        allowed = cpulist(m.group(1))
        if len(allowed) > 1 and allowed & iso:
            mask = "%x" % sum(1 << c for c in hk)
            text = re.sub(r"^Cpus_allowed_list:.*$", "Cpus_allowed_list:\t" + fmt(hk), text, flags=re.M)
            text = re.sub(r"^Cpus_allowed:.*$", "Cpus_allowed:\t" + mask, text, flags=re.M)
            open(st, "w").write(text)


TASKSET = re.compile(r"taskset -pc (\S+) \$\(pgrep -x (\S+)\)")


def taskset(tree, comm, cpus):
    """taskset -pc CPUS $(pgrep -x COMM): the threads named COMM get CPUS"""
    for dirpath, _, files in os.walk(tree.path("/proc")):
        if "status" not in files or "/task/" not in dirpath + "/":
            continue
        st = os.path.join(dirpath, "status")
        text = open(st).read()
        if not re.search(r"^Name:\s*%s$" % re.escape(comm), text, re.M):
            continue
        mask = "%x" % sum(1 << c for c in cpulist(cpus))
        text = re.sub(r"^Cpus_allowed_list:.*$", "Cpus_allowed_list:\t" + cpus, text, flags=re.M)
        text = re.sub(r"^Cpus_allowed:.*$", "Cpus_allowed:\t" + mask, text, flags=re.M)
        open(st, "w").write(text)


def kernel_words(cmdline):
    """a command line's kernel parameters: its words before `--`"""
    words = cmdline.split()
    return words[:words.index("--")] if "--" in words else words


def init_words(cmdline):
    """init's arguments: the words after a command line's `--`"""
    words = cmdline.split()
    return words[words.index("--") + 1:] if "--" in words else []


def join(kernel, init):
    return " ".join(kernel + (["--"] + init if init else []))


# what a boot loader adds to the line itself (GRUB: before GRUB_CMDLINE_LINUX)
LOADER = ("BOOT_IMAGE", "initrd")
GRUB_ADDS = LOADER + ("root", "ro", "rw")


def grubby_args(running, args):
    """grubby --update-kernel=ALL --args=ARGS on a boot entry whose line is running: each
    argument replaces the one of its name (key before `=`), else it is added before `--`"""
    words = kernel_words(running)
    for a in args.split():
        key = a.partition("=")[0]
        at = [i for i, w in enumerate(words) if w.partition("=")[0] == key]
        if at:
            words[at[0]] = a
            words = [w for i, w in enumerate(words) if i not in at[1:]]
        else:
            words.append(a)
    return join(words, init_words(running))


def grub_mkconfig(tree, running):
    """the linux line grub-mkconfig makes from /etc/default/grub (a shell file: the last
    assignment counts) for the kernel the running line booted"""
    var = {}
    for line in tree.read("/etc/default/grub").splitlines():
        m = re.match(r"\s*(GRUB_CMDLINE_LINUX(?:_DEFAULT)?)=(.*)$", line)
        if m:
            var[m.group(1)] = " ".join(shlex.split(m.group(2), comments=True))
    loader = [w for w in kernel_words(running) if w.partition("=")[0] in GRUB_ADDS]
    return " ".join(loader + [var.get("GRUB_CMDLINE_LINUX", ""),
                              var.get("GRUB_CMDLINE_LINUX_DEFAULT", "")])


def sysctl_system(tree):
    """sysctl --system: the /etc/sysctl.d/*.conf files, in name order (no other name)"""
    d = tree.path("/etc/sysctl.d")
    for name in sorted(n for n in os.listdir(d) if n.endswith(".conf")) if os.path.isdir(d) else []:
        for line in open(os.path.join(d, name)):
            line = line.split("#")[0].strip()
            if line:
                key, _, val = line.partition("=")
                tree.write("/proc/sys/" + key.strip().replace(".", "/"), val.strip() + "\n")


def boot_as_planned(tree, how, line, planned):
    """boot line, the one boot method how gives, which must be the planned line"""
    if planned is None:
        raise SystemExit("plan_apply: a boot line to apply, but no '# planned:' line")
    strip = lambda words: sorted(w for w in words if w.partition("=")[0] not in LOADER)
    if strip(kernel_words(line)) != strip(kernel_words(planned)) or \
            init_words(line) != init_words(planned):
        got, want = set(kernel_words(line)), set(kernel_words(planned))
        raise SystemExit("plan_apply: %s gives %r, the plan plans %r (not in the planned "
                         "line: %s; missing: %s; init's arguments %r, planned %r)" % (
                             how, line, planned, " ".join(sorted(got - want)),
                             " ".join(sorted(want - got)), init_words(line),
                             init_words(planned)))
    boot(tree, planned)


def apply(root, plan_text):
    tree, covers, lines, i = Tree(root), None, plan_text.splitlines(), 0
    running = tree.read("/proc/cmdline").strip()
    planned, booted = None, []
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line.startswith("# covers:"):
            covers = line.split(":", 1)[1].split()
        elif line.startswith("# planned:"):
            planned = line.split(":", 1)[1].strip()
        elif line.startswith("# nothing to change: the running command line"):
            boot_as_planned(tree, "the running line", running, planned)
            booted.append("running")
        elif line.startswith("# vmm cmdline: "):
            boot_as_planned(tree, "the VMM's line", line[len("# vmm cmdline: "):], planned)
            booted.append("vmm")
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"cat > (\S+) <<'EOF'", line)
        if m:
            body = []
            while lines[i] != "EOF":
                body.append(lines[i])
                i += 1
            i += 1
            tree.write(m.group(1), "\n".join(body) + "\n")
            continue
        if "(EIO:" in line:
            continue  # a kernel-managed IRQ: the kernel refuses the new affinity
        words = shlex.split(line, comments=True)
        if words[:2] == ["sysctl", "--system"]:
            sysctl_system(tree)
        elif words[:2] == ["tuned-adm", "profile"]:
            tree.write("/etc/tuned/active_profile", words[2] + "\n")
        elif words[0] == "echo" and len(words) == 4 and words[2] in (">", ">>"):
            val, op, path = words[1], words[2], words[3]
            if op == ">>":
                full = tree.path(path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "a") as f:
                    f.write(val + "\n")
                continue
            tree.write(path, val + "\n")
            m = re.fullmatch(r"/proc/irq/(\d+)/smp_affinity_list", path)
            if m:
                tree.write("/proc/irq/%s/effective_affinity_list" % m.group(1), val + "\n")
        elif TASKSET.fullmatch(line.split("  #")[0]):
            cpus, comm = TASKSET.fullmatch(line.split("  #")[0]).groups()
            taskset(tree, comm, cpus)
        elif words[:2] == ["grubby", "--update-kernel=ALL"] and len(words) == 3 and \
                words[2].startswith("--args="):
            boot_as_planned(tree, "grubby", grubby_args(running, words[2][len("--args="):]),
                            planned)
            booted.append("grubby")
        elif words[0] in ("grub-mkconfig", "grub2-mkconfig") and words[1:2] == ["-o"]:
            boot_as_planned(tree, words[0], grub_mkconfig(tree, running), planned)
            booted.append("grub")
        elif words[:2] == ["kernel-install", "add"]:
            boot_as_planned(tree, "kernel-install", tree.read("/etc/kernel/cmdline").strip(),
                            planned)
            booted.append("kernel-install")
        elif words[0] in ("systemctl", "mkdir"):
            pass
        else:
            raise SystemExit("plan_apply: a line it does not know: " + line)
    if covers is None:
        raise SystemExit("plan_apply: no '# covers:' line")
    if planned is not None and planned.split() != running.split() and not booted:
        raise SystemExit("plan_apply: the plan changes the command line, but no step does")
    return covers


if __name__ == "__main__":
    print(" ".join(apply(sys.argv[1], open(sys.argv[2]).read())))
