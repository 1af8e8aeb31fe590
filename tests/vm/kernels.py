# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""kernels.py - the VM kernel matrix: which Debian kernel package, booted with what line.

One row a kernel: its name (what vm.py and make check-kernels call it), the Debian suite and
the metapackage whose linux-image dependency is fetched, the architecture, the command line
it boots with, and whether make check runs it (the rest run in make check-kernels).
"""
from collections import namedtuple

Kernel = namedtuple("Kernel", "name suite package arch cmdline check")

# the tuned box of a low-latency user: CPU 1 isolated from the scheduler's domains and from
# managed IRQs, its tick stopped, its RCU callbacks offloaded, every IRQ on CPU 0
TUNED = "isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0"

KERNELS = [
    Kernel("deb12", "bookworm", "linux-image-amd64", "amd64", "", False),
    Kernel("deb12-tuned", "bookworm", "linux-image-amd64", "amd64", TUNED, True),
    Kernel("deb12-rt", "bookworm", "linux-image-rt-amd64", "amd64", "", False),
    Kernel("deb13-tuned", "trixie", "linux-image-amd64", "amd64", TUNED, False),
    Kernel("deb13-rt", "trixie", "linux-image-rt-amd64", "amd64", TUNED, True),
    Kernel("deb11", "bullseye", "linux-image-amd64", "amd64", "", False),
    Kernel("deb13-arm64", "trixie", "linux-image-arm64", "arm64", "", False),
]

# the kernel make check runs everything on (matrix.py --check; make check-kernels runs
# everything on each). Its other kernels skip what this one proves for them and costs 15-25 s
# of TCG time a kernel: --deepest-idle-state's four paths (the guests' C1 is the same ACPI
# _CST under every kernel, tests/vm/cst.py) and inside.sh's census of both probe builds (on a
# kernel without the tp_btf build, as 6.1, the --cpu 1 run's probes check is the raw_tp
# build's already)
CHECK_ALL = "deb13-rt"


def by_name(name):
    for k in KERNELS:
        if k.name == name:
            return k
    raise KeyError(f"no kernel {name!r} (vm.py list)")
