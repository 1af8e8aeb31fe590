# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""cst.py - an ACPI SSDT that gives QEMU's x86 CPUs a C1 state, so that a guest has cpuidle.

QEMU (q35, 7.2) declares its CPUs (\\_SB.CPUS.Cnnn) with no _CST and no P_BLK: the kernel's
acpi_idle finds no C-state and registers no cpuidle driver (no cpuN/cpuidle), and under TCG
cpuidle-haltpoll cannot load (no KVM). This table adds to each CPU a _CST of one C1 entered
with HLT (FFixedHW with bit offset 0: not the MWAIT hint the kernel's FFH probe wants, and
"C1 is a special case where FIXED_HARDWARE can be handled in non-MWAIT way": ACPI HLT), so
that each CPU has state0 POLL and state1 C1, and idles as it did (HLT), as --deepest-idle-state
needs (tests/vm/guest.sh). Built by hand (no iasl): the AML of

    DefinitionBlock ("", "SSDT", 2, "JSCOPE", "CST", 1) {
        Scope (\\_SB.CPUS.C000) {
            Name (_CST, Package () { 1, Package () {
                ResourceTemplate () { Register (FFixedHW, 0, 0, 0, 1) }, 1, 1, 1000 } })
        }
        ...  (each CPU)
    }

Passed as `-acpitable file=PATH` (vm.py's qemu_cmd).
"""
import struct


def pkg_length(n):
    """AML PkgLength of a body of n bytes (the encoding counts itself)"""
    if n + 1 < 0x40:
        return bytes([n + 1])
    for extra in (1, 2, 3):
        total = n + 1 + extra
        if total < 1 << (4 + 8 * extra):
            out = [(extra << 6) | (total & 0xF)]
            out += [(total >> (4 + 8 * i)) & 0xFF for i in range(extra)]
            return bytes(out)
    raise ValueError("AML package too long")


def integer(v):
    if v in (0, 1):
        return bytes([v])  # ZeroOp, OneOp
    if v < 0x100:
        return bytes([0x0A, v])  # BytePrefix
    return bytes([0x0B]) + struct.pack("<H", v)  # WordPrefix


def package(elems):
    body = bytes([len(elems)]) + b"".join(elems)
    return bytes([0x12]) + pkg_length(len(body)) + body  # PackageOp


def buffer(data):
    body = integer(len(data)) + data
    return bytes([0x11]) + pkg_length(len(body)) + body  # BufferOp


def c1_entry(latency_us=1, power_mw=1000):
    # Generic Register Descriptor: FFixedHW (0x7F), width 0, offset 0, access size 1,
    # address 0; then the end tag
    grd = bytes([0x82]) + struct.pack("<HBBBBQ", 12, 0x7F, 0, 0, 1, 0)
    return package([buffer(grd + bytes([0x79, 0x00])), integer(1), integer(latency_us),
                    integer(power_mw)])


def scope(cpu, body):
    path = b"\\" + bytes([0x2F, 3]) + b"_SB_" + b"CPUS" + f"C{cpu:03X}".encode()
    inner = path + body
    return bytes([0x10]) + pkg_length(len(inner)) + inner  # ScopeOp


def ssdt(ncpus):
    """the table's bytes for CPUs 0 .. ncpus - 1"""
    cst = bytes([0x08]) + b"_CST" + package([integer(1), c1_entry()])  # NameOp
    body = b"".join(scope(c, cst) for c in range(ncpus))
    head = struct.pack("<4sIBB6s8sI4sI", b"SSDT", 36 + len(body), 2, 0, b"JSCOPE",
                       b"CST\0\0\0\0\0", 1, b"JSCP", 1)
    table = bytearray(head + body)
    table[9] = (-sum(table)) & 0xFF
    return bytes(table)


def write(path, ncpus):
    with open(path, "wb") as f:
        f.write(ssdt(ncpus))
    return path
