# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""bpfobjs.py - the kernel's own list of BPF programs and links, read with the bpf() system
call (no bpftool, which loads a program of its own at every call, and no jitterscope): the
integration tests judge attach, detach and leftovers from it, never from what jitterscope
says about itself. Root (CAP_SYS_ADMIN) only.

  python3 -m bpfobjs progs NAME...   the ids of the loaded programs named NAME (15 chars, as
                                     the kernel keeps them), one "ID NAME" a line
  python3 -m bpfobjs watch PID OUT [READY]
                                     until PID exits: every ~10 ms a line "T0 T1 LINKS RUNS"
                                     into OUT (CLOCK_MONOTONIC ns around the sample; the
                                     links of the kernel whose program PID loaded; the sum of
                                     those programs' run counts, with run-time stats enabled
                                     by this process), after a first line "progs ID...";
                                     READY (a file) is created once it is watching, so that
                                     PID can be held back until then
  python3 -m bpfobjs exist ID...     the ids of these programs that still exist, one a line
"""
import ctypes
import os
import sys
import time

NR_BPF = 321  # x86-64
PROG_GET_NEXT_ID, PROG_GET_FD_BY_ID, OBJ_GET_INFO_BY_FD = 11, 13, 15
LINK_GET_FD_BY_ID, LINK_GET_NEXT_ID, ENABLE_STATS = 30, 31, 32
STATS_RUN_TIME = 0
# struct bpf_prog_info (linux/bpf.h): name at 64, run_cnt at 200, 232 bytes in 6.x;
# struct bpf_link_info: type, id, prog_id at 0, 4, 8
PROG_INFO_LEN, LINK_INFO_LEN = 232, 48

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _bpf(cmd, attr):
    r = _libc.syscall(ctypes.c_long(NR_BPF), ctypes.c_long(cmd), ctypes.byref(attr),
                      ctypes.c_uint(ctypes.sizeof(attr)))
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


def _next_ids(cmd):
    ids, cur = [], 0
    while True:
        a = (ctypes.c_uint32 * 4)(cur, 0, 0, 0)
        try:
            _bpf(cmd, a)
        except OSError:  # ENOENT: the end of the list
            return ids
        cur = a[1]
        ids.append(cur)


def _fd_by_id(cmd, oid):
    """an fd on the object with this id, None when it is gone"""
    try:
        return _bpf(cmd, (ctypes.c_uint32 * 4)(oid, 0, 0, 0))
    except OSError:
        return None


def _info(fd, size):
    buf = ctypes.create_string_buffer(size)
    a = (ctypes.c_uint64 * 2)(fd | (size << 32), ctypes.addressof(buf))
    _bpf(OBJ_GET_INFO_BY_FD, a)
    return buf.raw


def prog_ids():
    """the ids of every BPF program the kernel holds"""
    return _next_ids(PROG_GET_NEXT_ID)


def prog_name_runs(fd):
    """(name, run_cnt) of the program behind fd"""
    raw = _info(fd, PROG_INFO_LEN)
    return (raw[64:80].split(b"\0", 1)[0].decode(),
            int.from_bytes(raw[200:208], "little"))


def progs_named(names):
    """{id: name} of the loaded programs whose (truncated) name is in names"""
    want = {n[:15] for n in names}
    out = {}
    for pid in prog_ids():
        fd = _fd_by_id(PROG_GET_FD_BY_ID, pid)
        if fd is None:
            continue
        try:
            name = prog_name_runs(fd)[0]
        finally:
            os.close(fd)
        if name in want:
            out[pid] = name
    return out


def link_prog_ids():
    """the program id of every BPF link the kernel holds (links being freed left out)"""
    out = []
    for lid in _next_ids(LINK_GET_NEXT_ID):
        fd = _fd_by_id(LINK_GET_FD_BY_ID, lid)
        if fd is None:
            continue
        try:
            raw = _info(fd, LINK_INFO_LEN)
        except OSError:
            continue
        finally:
            os.close(fd)
        out.append(int.from_bytes(raw[8:12], "little"))
    return out


def held_prog_ids(pid):
    """the ids of the programs a process holds fds on (its programs and links)"""
    ids = set()
    d = "/proc/%d/fdinfo" % pid
    try:
        fds = os.listdir(d)
    except OSError:
        return ids
    for fd in fds:
        try:
            with open(os.path.join(d, fd)) as f:
                for line in f:
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
        except (OSError, ValueError):
            pass  # closed meanwhile
    return ids


def prog_exists(oid):
    """the program with this id is still loaded"""
    fd = _fd_by_id(PROG_GET_FD_BY_ID, oid)
    if fd is None:
        return False
    os.close(fd)
    return True


def watch(pid, out, ready=None):
    """the watch command (module docstring); returns 1 when PID never linked a program"""
    stats = _bpf(ENABLE_STATS, (ctypes.c_uint32 * 2)(STATS_RUN_TIME, 0))
    if ready:
        open(ready, "w").close()
    mine = set()
    deadline = time.monotonic() + 30
    while os.path.exists("/proc/%d" % pid) and time.monotonic() < deadline:
        held = held_prog_ids(pid)
        if held & set(link_prog_ids()):  # attached: every program is loaded
            mine = held_prog_ids(pid) | held
            break
        time.sleep(0.005)
    if not mine:
        os.close(stats)
        return 1
    fds = {}
    for p in sorted(mine):
        fd = _fd_by_id(PROG_GET_FD_BY_ID, p)
        if fd is not None:
            fds[p] = fd
    with open(out, "w") as f:
        f.write("progs %s\n" % " ".join(map(str, sorted(mine))))
        while os.path.exists("/proc/%d" % pid):
            t0 = time.monotonic_ns()
            links = sum(1 for p in link_prog_ids() if p in mine)
            runs = sum(prog_name_runs(fd)[1] for fd in fds.values())
            t1 = time.monotonic_ns()
            f.write("%d %d %d %d\n" % (t0, t1, links, runs))
            time.sleep(0.01)
    for fd in fds.values():
        os.close(fd)
    os.close(stats)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "progs":
        for pid, name in sorted(progs_named(argv[1:]).items()):
            print(pid, name)
        return 0
    if len(argv) in (3, 4) and argv[0] == "watch":
        return watch(int(argv[1]), argv[2], argv[3] if len(argv) == 4 else None)
    if argv and argv[0] == "exist":
        for oid in argv[1:]:
            if prog_exists(int(oid)):
                print(oid)
        return 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
