#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""vm.py - boot a Debian kernel package under QEMU and run a command in it (tests/vm/README.md).

  vm.py fetch KERNEL          fetch and unpack KERNEL's package (cache), print its directory
  vm.py run KERNEL [opts] -- CMD...
                              boot KERNEL with 2 vCPUs, the host's root read-only over 9p,
                              run CMD (a shell command line) in it from the current directory,
                              print its output; exit with CMD's status (124: timed out,
                              77: the VM cannot be had here, with one line saying why);
                              --disk MiB: a scratch ext4 disk whose IRQ may be steered,
                              mounted at $JS_VM_DISK
  vm.py list                  the kernels (tests/vm/kernels.py)
  vm.py prime                 fetch make check's kernels and build their initramfs (make
                              check runs it in the background as the tests start)

The packages are fetched with apt-get download through a private apt state in the cache
(JS_VM_CACHE, default /var/cache/jitterscope-vm), from the mirror the machine's apt already
uses; nothing is installed. A kernel of another architecture than the host's (deb13-arm64 on
x86-64, TCG) cannot run the host's /bin/sh: its guest runs CMD with that suite's
busybox-static of its architecture, fetched the same way, its applets first in PATH.
"""
import argparse
import contextlib
import fcntl
import glob
import gzip
import hashlib
import lzma
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cst  # noqa: E402
import kernels  # noqa: E402

EX_SKIP = 77
CACHE = os.environ.get("JS_VM_CACHE", "/var/cache/jitterscope-vm")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# the modules the initramfs loads to mount the host's root (with what they need), and ext4
# for the scratch disk of --disk
MODULES = ["virtio_pci", "9pnet_virtio", "9p", "virtio_blk", "virtio_mmio", "virtio_net", "ext4"]
QEMU = {"amd64": "qemu-system-x86_64", "arm64": "qemu-system-aarch64"}
# the host's Debian architecture: a kernel of another one (arm64 on x86-64) cannot run the
# host's /bin/sh, so its guest runs the command with its own busybox (foreign_busybox)
HOST_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


class Unavailable(Exception):
    """the VM cannot be had on this machine (a skip, with its reason)"""


def log(msg):
    print(f"vm: {msg}", file=sys.stderr, flush=True)


def host_mirror():
    """the Debian mirror of the machine's apt sources (deb822 or one-line)"""
    files = glob.glob("/etc/apt/sources.list.d/*.sources") + ["/etc/apt/sources.list"] + \
        glob.glob("/etc/apt/sources.list.d/*.list")
    for f in files:
        try:
            text = open(f).read()
        except OSError:
            continue
        for m in re.finditer(r"^\s*(?:URIs:\s*|deb\s+(?:\[[^\]]*\]\s+)?)(\S+)", text, re.M):
            uri = m.group(1).rstrip("/")
            if uri.endswith("/debian"):
                return uri
    return "http://deb.debian.org/debian"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def apt_state(suite, arch):
    """a private apt configuration for one suite and architecture: its apt-get options"""
    d = os.path.join(CACHE, "apt", f"{suite}-{arch}")
    os.makedirs(os.path.join(d, "state", "lists", "partial"), exist_ok=True)
    os.makedirs(os.path.join(d, "cache", "archives", "partial"), exist_ok=True)
    src = os.path.join(d, "sources.list")
    mirror = host_mirror()
    with open(src, "w") as f:
        f.write(f"deb [signed-by={KEYRING}] {mirror} {suite} main\n")
    opts = ["-o", f"Dir::Etc::SourceList={src}", "-o", "Dir::Etc::SourceParts=/nonexistent",
            "-o", f"Dir::State={d}/state", "-o", f"Dir::Cache={d}/cache",
            "-o", f"APT::Architecture={arch}", "-o", f"APT::Architectures={arch}",
            "-o", "Debug::NoLocking=1", "-o", "Acquire::Languages=none"]
    stamp = os.path.join(d, "updated")
    if not os.path.exists(stamp) or time.time() - os.path.getmtime(stamp) > 7 * 86400:
        log(f"apt-get update for {suite} ({arch}) from {mirror}")
        r = subprocess.run(["apt-get", "-q", "update"] + opts, capture_output=True, text=True)
        if r.returncode:
            raise Unavailable(f"apt-get update of {suite} failed: "
                              f"{(r.stderr.strip().splitlines() or ['?'])[-1]}")
        open(stamp, "w").close()
    return opts


def resolve(k, opts):
    """the versioned image package behind the metapackage k.package (e.g. linux-image-amd64)"""
    r = subprocess.run(["apt-cache"] + opts + ["depends", k.package], capture_output=True,
                       text=True)
    for line in r.stdout.splitlines():
        m = re.match(r"\s*Depends:\s*(linux-image-\S+)", line)
        if m:
            return m.group(1)
    raise Unavailable(f"{k.package} in {k.suite}: no linux-image dependency found")


def fetch(k):
    """download and unpack k's image package; the unpacked tree (cached)"""
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        raise Unavailable("no apt-get/dpkg-deb to fetch Debian kernel packages")
    key = f"{k.suite}-{k.package}"  # kernels sharing a package share its tree
    done = os.path.join(CACHE, "kernels", key + ".dir")
    if os.path.exists(os.path.join(done, "ok")):
        return open(os.path.join(done, "ok")).read().strip()
    opts = apt_state(k.suite, k.arch)
    pkg = resolve(k, opts)
    debs = os.path.join(CACHE, "debs")
    os.makedirs(debs, exist_ok=True)
    log(f"apt-get download {pkg} ({k.suite}, {k.arch})")
    r = subprocess.run(["apt-get", "-q", "download"] + opts + [pkg], cwd=debs,
                       capture_output=True, text=True)
    if r.returncode:
        raise Unavailable(f"apt-get download {pkg} failed: "
                          f"{(r.stderr.strip().splitlines() or ['?'])[-1]}")
    deb = sorted(glob.glob(os.path.join(debs, f"{pkg}_*_{k.arch}.deb")), key=os.path.getmtime)[-1]
    root = os.path.join(CACHE, "kernels", key)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    run(["dpkg-deb", "-x", deb, root])
    os.makedirs(done, exist_ok=True)
    with open(os.path.join(done, "ok"), "w") as f:
        f.write(root + "\n")
    return root


@contextlib.contextmanager
def cache_lock():
    """the cache to one process at a time: make check's `prime` runs in the background while
    the tests start, and a VM test fetching the same kernel then waits for it"""
    os.makedirs(CACHE, exist_ok=True)
    with open(os.path.join(CACHE, ".lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def cached(k):
    """k fetched and its initramfs built (cached): (unpacked tree, initramfs path)"""
    with cache_lock():
        root = fetch(k)
        return root, initramfs(k, root)


def foreign_busybox(k):
    """a static busybox for k.arch, not the host's (busybox-static:arm64 cannot be
    co-installed with the amd64 one): apt-get download of the suite's busybox-static through
    the private apt state, unpacked into the cache; its path"""
    d = os.path.join(CACHE, "busybox", f"{k.suite}-{k.arch}")
    path = os.path.join(d, "busybox")
    if os.path.exists(path):
        return path
    opts = apt_state(k.suite, k.arch)
    debs = os.path.join(CACHE, "debs")
    os.makedirs(debs, exist_ok=True)
    log(f"apt-get download busybox-static ({k.suite}, {k.arch})")
    r = subprocess.run(["apt-get", "-q", "download"] + opts + [f"busybox-static:{k.arch}"],
                       cwd=debs, capture_output=True, text=True)
    if r.returncode:
        raise Unavailable(f"apt-get download busybox-static:{k.arch} failed: "
                          f"{(r.stderr.strip().splitlines() or ['?'])[-1]}")
    deb = sorted(glob.glob(os.path.join(debs, f"busybox-static_*_{k.arch}.deb")),
                 key=os.path.getmtime)[-1]
    with tempfile.TemporaryDirectory() as x:
        run(["dpkg-deb", "-x", deb, x])
        found = [b for b in (os.path.join(x, "usr/bin/busybox"), os.path.join(x, "bin/busybox"))
                 if os.path.exists(b)]
        if not found:
            raise Unavailable(f"{os.path.basename(deb)}: no busybox in it")
        os.makedirs(d, exist_ok=True)
        shutil.copy(found[0], path + ".tmp")
        os.chmod(path + ".tmp", 0o755)
        os.replace(path + ".tmp", path)
    return path


def kernel_files(root):
    """(vmlinuz, release, modules directory) of an unpacked image package"""
    vmlinuz = sorted(glob.glob(os.path.join(root, "boot", "vmlinuz-*")))
    if not vmlinuz:
        raise Unavailable(f"{root}: no boot/vmlinuz-*")
    release = os.path.basename(vmlinuz[0])[len("vmlinuz-"):]
    for base in ("lib", "usr/lib"):  # Debian 13 keeps them in usr/lib/modules
        mdir = os.path.join(root, base, "modules", release)
        if os.path.isdir(mdir):
            return vmlinuz[0], release, mdir
    raise Unavailable(f"{root}: no modules for {release}")


def module_order(mdir, release):
    """the .ko files to insmod, dependencies first (depmod into the cache, then modprobe -n)"""
    base = os.path.dirname(os.path.dirname(mdir))  # .../lib/modules/REL -> .../
    basedir = os.path.dirname(base) if base.endswith("/lib") else base
    if not os.path.exists(os.path.join(mdir, "modules.dep.bin")):
        if not shutil.which("depmod"):
            raise Unavailable("no depmod (Debian package kmod)")
        run(["depmod", "-b", basedir, release], capture_output=True)
    order = []
    for m in MODULES:
        r = subprocess.run(["modprobe", "-d", basedir, "-S", release, "--show-depends", m],
                           capture_output=True, text=True)
        for line in r.stdout.splitlines():
            parts = line.split()
            if parts and parts[0] == "insmod" and parts[1] not in order:
                order.append(parts[1])
    return order


INIT = r"""#!/bin/busybox sh
# the VM's first process (tests/vm/vm.py): mount the host's root read-only and the run's
# folder read-write over 9p, then run the command there and power off
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /host /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules.list); do insmod "/mod/$m" 2>/dev/null; done
opt=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o "$opt,ro" hostroot /host || { echo "vm-init: cannot mount the host root"; reboot -f; }
for d in proc sys dev; do mount --bind "/$d" "/host/$d"; done
mount -t devpts devpts /host/dev/pts 2>/dev/null
mount -t tmpfs tmpfs /host/dev/shm 2>/dev/null
for d in tmp run var/tmp root; do mount -t tmpfs tmpfs "/host/$d"; done
sh=/bin/sh
if [ -e /foreign ]; then  # the host's /bin/sh is of another architecture: our busybox runs
	mkdir -p /host/run/jsvm/bin  # CMD, its applets first in PATH (JS_VM_BIN, run.sh)
	cp /bin/busybox /host/run/jsvm/busybox
	chroot /host /run/jsvm/busybox --install -s /run/jsvm/bin
	sh=/run/jsvm/bin/sh
	export JS_VM_BIN=/run/jsvm/bin
fi
out=$(cat /outdir)
mkdir -p "/host$out" 2>/dev/null
mount -t 9p -o "$opt" hostout "/host$out" || { echo "vm-init: cannot mount $out"; reboot -f; }
mount -t tracefs tracefs /host/sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /host/sys/kernel/debug 2>/dev/null
mount -t bpf bpf /host/sys/fs/bpf 2>/dev/null
mount -t cgroup2 cgroup2 /host/sys/fs/cgroup 2>/dev/null
ip link set lo up 2>/dev/null
echo "vm-init: up $(cut -d' ' -f1 /proc/uptime) s"
chroot /host $sh "$out/run.sh" </dev/null
echo $? > "/host$out/rc"
sync
reboot -f
"""


def initramfs(k, root):
    """the cached initramfs of k: busybox, the 9p modules (uncompressed), /init"""
    # named by what goes in it: two checkouts sharing the cache each get their own
    key = hashlib.sha1(repr((INIT, MODULES, k.arch)).encode()).hexdigest()[:10]
    path = f"{root}.initrd-{key}.gz"
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(__file__):
        return path
    foreign = k.arch != HOST_ARCH
    busybox = foreign_busybox(k) if foreign else "/bin/busybox"
    if not os.path.exists(busybox):
        raise Unavailable(f"no {busybox} (Debian package busybox-static)")
    _, release, mdir = kernel_files(root)
    with tempfile.TemporaryDirectory() as d:
        for sub in ("bin", "mod"):
            os.makedirs(os.path.join(d, sub))
        shutil.copy(busybox, os.path.join(d, "bin", "busybox"))
        names = []
        for ko in module_order(mdir, release):
            name = os.path.basename(ko)
            data = open(ko, "rb").read()
            if name.endswith(".xz"):
                data, name = lzma.decompress(data), name[:-3]
            elif name.endswith(".zst"):
                data = subprocess.run(["zstd", "-dc", ko], check=True,
                                      capture_output=True).stdout
                name = name[:-4]
            with open(os.path.join(d, "mod", name), "wb") as f:
                f.write(data)
            names.append(name)
        with open(os.path.join(d, "modules.list"), "w") as f:
            f.write("\n".join(names) + "\n")
        with open(os.path.join(d, "init"), "w") as f:
            f.write(INIT)
        if foreign:
            open(os.path.join(d, "foreign"), "w").close()
        os.chmod(os.path.join(d, "init"), 0o755)
        os.chmod(os.path.join(d, "bin", "busybox"), 0o755)
        files = subprocess.run("find . | sort", shell=True, cwd=d, check=True,
                               capture_output=True).stdout
        cpio = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet", "-R", "0:0"], cwd=d,
                              input=files, check=True, capture_output=True).stdout
    with gzip.open(path + ".tmp", "wb") as f:
        f.write(cpio)
    os.replace(path + ".tmp", path)
    return path


SMP = 2  # vCPUs


def accel():
    if os.access("/dev/kvm", os.R_OK | os.W_OK):
        return ["-accel", "kvm"], "kvm"
    return ["-accel", "tcg,thread=multi"], "tcg"


def qemu_cmd(k, vmlinuz, initrd, outdir, cmdline, mem, disk=None):
    acc, how = accel()
    if k.arch == "arm64":
        machine = ["-M", "virt", "-cpu", "max"]
        console = "ttyAMA0"
        if how == "kvm":  # an arm64 host's KVM; on x86 /dev/kvm cannot run arm64
            acc, how = ["-accel", "tcg,thread=multi"], "tcg"
    else:
        # a C1 for each CPU (tests/vm/cst.py): without it the guest has no cpuidle
        machine = ["-M", "q35", "-cpu", "max" if how == "tcg" else "host", "-acpitable",
                   "file=" + cst.write(os.path.join(outdir, "cst.aml"), SMP)]
        console = "ttyS0"
        if how == "tcg":
            # an emulated CPU's TSCs fail the kernel's sync check, and CLOCK_MONOTONIC then
            # comes from the HPET (an emulated device, read through an exit): against it
            # jitterscope's TSC timeline was off by up to 51 us (time_base's fit residual),
            # more than an IPI's gap, and events fell outside their gaps. A kernel that keeps
            # the TSC as its clocksource, as on KVM and bare metal, fits it within 50 ns
            console += " tsc=reliable"
    append = f"console={console} rdinit=/init panic=-1 quiet loglevel=4 {cmdline}".strip()
    return [QEMU[k.arch], *machine, *acc, "-smp", str(SMP), "-m", str(mem), "-nographic",
            "-no-reboot", "-nodefaults", "-serial", "stdio", "-kernel", vmlinuz,
            "-initrd", initrd, "-append", append,
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,"
            "multidevs=remap",
            "-virtfs", f"local,path={outdir},mount_tag=hostout,security_model=none,"
            "multidevs=remap", *disk_args(disk)], how


DISK_SERIAL = "jsdisk"
DISK_MOUNT = "/run/js-disk"


def make_disk(outdir, mib):
    """a sparse image of mib MiB in outdir with an ext4 made on the host (no journal: no
    commit writes of its own while a test counts the disk's interrupts); its path"""
    mkfs = shutil.which("mkfs.ext4") or shutil.which("mkfs.ext4", path="/usr/sbin:/sbin")
    if not mkfs:
        raise Unavailable("no mkfs.ext4 (Debian package e2fsprogs) for --disk")
    img = os.path.join(outdir, "disk.img")
    with open(img, "wb") as f:
        f.truncate(mib << 20)
    run([mkfs, "-q", "-F", "-O", "^has_journal", "-E", "nodiscard", "-L", DISK_SERIAL, img],
        capture_output=True)
    return img


def disk_args(img):
    """the scratch disk: virtio-blk with no MSI-X vector (vectors=0), so its queue interrupts
    on a legacy INTx line through the IOAPIC: not a managed IRQ, its affinity writable (an
    MSI-X queue vector of virtio-blk is managed: the kernel refuses to move it)"""
    if not img:
        return []
    return ["-drive", f"file={img},if=none,id={DISK_SERIAL},format=raw,cache=unsafe",
            "-device", f"virtio-blk-pci,drive={DISK_SERIAL},vectors=0,serial={DISK_SERIAL}"]


# run.sh's lines that mount the scratch disk (found by its serial) and say where
DISK_MOUNT_SH = f"""dev=
for b in /sys/block/vd*; do
\t[ "$(cat "$b/serial" 2>/dev/null)" = {DISK_SERIAL} ] && dev=/dev/${{b##*/}}
done
mkdir -p {DISK_MOUNT} && [ -n "$dev" ] && mount -t ext4 -o noatime "$dev" {DISK_MOUNT} ||
\t{{ echo "vm: cannot mount the scratch disk ($dev)"; exit 125; }}
export JS_VM_DISK={DISK_MOUNT}
"""


def boot(k, command, cmdline="", timeout=600, mem=2048, outdir=None, quiet=False, disk=0):
    """boot k and run command (a shell line) from the current directory; (status, output).
    disk: MiB of a scratch ext4 disk for the command, mounted at $JS_VM_DISK (0: none)"""
    if not shutil.which(QEMU[k.arch]):
        pkg = "qemu-system-arm" if k.arch == "arm64" else "qemu-system-x86"
        raise Unavailable(f"no {QEMU[k.arch]} (Debian package {pkg})")
    root, initrd = cached(k)
    vmlinuz, release, _ = kernel_files(root)
    own = outdir is None
    outdir = os.path.abspath(outdir or tempfile.mkdtemp(prefix="jsvm."))
    os.makedirs(outdir, exist_ok=True)
    img = make_disk(outdir, disk) if disk else None
    with open(os.path.join(outdir, "run.sh"), "w") as f:
        f.write((DISK_MOUNT_SH if img else "") +
                f"cd {shlex.quote(os.getcwd())} || exit 125\n"
                f"export JS_VM={shlex.quote(k.name)} JS_VM_OUT={shlex.quote(outdir)}\n"
                f"export PATH=${{JS_VM_BIN:+$JS_VM_BIN:}}"
                f"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
                f"{command}\n")
    rc = os.path.join(outdir, "rc")
    if os.path.exists(rc):
        os.unlink(rc)
    cmd, how = qemu_cmd(k, vmlinuz, initrd, outdir, cmdline or k.cmdline, mem, img)
    # the guest's /init reads its run folder from the initramfs: one small archive appended
    extra = os.path.join(outdir, "outdir.cpio")
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "outdir"), "w") as f:
            f.write(outdir + "\n")
        data = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet", "-R", "0:0"], cwd=d,
                              input=b"outdir\n", check=True, capture_output=True).stdout
    with open(extra, "wb") as f:
        f.write(open(initrd, "rb").read() + gzip.compress(data))
    cmd[cmd.index("-initrd") + 1] = extra
    if not quiet:
        log(f"booting {k.name} ({release}, {how}): {cmdline or k.cmdline}")
    t0 = time.monotonic()
    out = []
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    # the deadline kills QEMU whether or not the guest prints (a silent hang included):
    # its output then ends, and the read below with it
    watchdog = threading.Timer(timeout, p.kill)
    watchdog.start()
    try:
        for line in iter(p.stdout.readline, b""):
            text = line.decode(errors="replace").replace("\r", "")
            out.append(text)
            if not quiet:
                sys.stdout.write(text)
                sys.stdout.flush()
        p.wait()
    finally:
        watchdog.cancel()
        if img:  # what the command wrote there is not kept
            os.unlink(img)
    if time.monotonic() - t0 >= timeout:
        log(f"{k.name}: timed out after {timeout} s")
        if own:
            shutil.rmtree(outdir, ignore_errors=True)
        return 124, "".join(out)
    elapsed = time.monotonic() - t0
    try:
        status = int(open(rc).read().strip())
    except (OSError, ValueError):
        log(f"{k.name}: the command did not finish (qemu exit {p.returncode})")
        status = 125
    if not quiet:
        log(f"{k.name}: exit {status} after {elapsed:.1f} s")
    if own:
        shutil.rmtree(outdir, ignore_errors=True)
    return status, "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="verb", required=True)
    sub.add_parser("list")
    f = sub.add_parser("fetch")
    f.add_argument("kernel")
    sub.add_parser("prime", help="fetch make check's kernels and build their initramfs (the"
                   " cache), so that the suite's run writes nothing to the disk")
    r = sub.add_parser("run")
    r.add_argument("kernel")
    r.add_argument("--cmdline", default=None,
                   help="the kernel command line's extra (default: the kernel's own in kernels.py)")
    r.add_argument("--timeout", type=int, default=600)
    r.add_argument("--mem", type=int, default=2048, help="MiB")
    r.add_argument("--out", default=None, help="the run's folder (kept), shared read-write")
    r.add_argument("--disk", type=int, default=0, metavar="MiB",
                   help="a scratch ext4 disk of MiB (virtio-blk, a legacy INTx interrupt the"
                   " guest may steer), mounted at $JS_VM_DISK for CMD")
    argv = sys.argv[1:]
    command = []
    if "--" in argv:  # vm.py run KERNEL [opts] -- CMD: CMD is not parsed
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    a = ap.parse_args(argv)
    if a.verb == "list":
        for k in kernels.KERNELS:
            print(f"{k.name:16} {k.suite:9} {k.arch:5} {k.package:22} {k.cmdline}")
        return 0
    if a.verb == "prime":
        try:
            for k in kernels.KERNELS:
                if k.check:
                    cached(k)
                    log(f"{k.name}: cached")
        except Unavailable as e:
            print(f"vm.py prime: {e}", file=sys.stderr)
            return 77
        return 0
    try:
        k = kernels.by_name(a.kernel)
    except KeyError as e:
        print(f"vm.py: {e.args[0]}", file=sys.stderr)
        return 64
    try:
        if a.verb == "fetch":
            with cache_lock():
                print(fetch(k))
            return 0
        if not command:
            print("vm.py run: no command", file=sys.stderr)
            return 64
        status, _ = boot(k, " ".join(command), a.cmdline, a.timeout, a.mem, a.out,
                         disk=a.disk)
        return status
    except Unavailable as e:
        print(f"skip: {e}", file=sys.stderr)
        return EX_SKIP


if __name__ == "__main__":
    sys.exit(main())
