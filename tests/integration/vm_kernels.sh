#!/bin/bash
# vm_kernels.sh - issue 36: jitterscope on the box it is for. make check's kernels of the VM
# matrix (tests/vm/kernels.py, check column: Debian 12's 6.1 booted tuned, Debian 13's 6.12
# PREEMPT_RT booted tuned), each Debian's own package fetched with apt-get download (never
# installed, cached in /var/cache/jitterscope-vm) and booted under QEMU: no program refused
# by the verifier, CPU 1 measured from the housekeeping shell with no option and with
# --cpu 1, the tick stopped on the nohz_full CPU and said so, check runs, nothing in force
# advised again (issue 39: the answer, the hints, check --plan), the injected kinds named,
# and --deepest-idle-state 0 on CPU 1 (the guests' C1, tests/vm/cst.py: disabled on CPU 1
# alone while each run measures, given back after a normal exit, a SIGINT, a failure, and
# after a SIGKILL by the next run's start; about 12 s a kernel)
# (tests/vm/matrix.py says what each check is). Which checks run where:
#   deb12-tuned, deb13-rt   the probes of the kernel's pick load, none refused (on 6.1 the
#                           raw_tp build), CPU 1 measured with no option and with --cpu 1
#                           from the housekeeping shell, --pid --marks follows a process
#                           sleeping on CPU 1 and reads its marks (the threads' programs
#                           load, the wake-up's too), the nohz_full tick, check,
#                           nothing in force advised
#   deb13-rt only           both builds load (tp_btf and raw_tp: 6.1 has only raw_tp), and
#                           --deepest-idle-state's four paths (the same ACPI C1 under both
#                           kernels): kernels.CHECK_ALL; make check-kernels runs them on each
# A skip where qemu, busybox,
# kmod or the Debian mirror is missing; under CI (CI=true) a failure. About 1-3 minutes
# (TCG: no /dev/kvm here); make check-kernels runs the whole matrix.
# cpu1: none - measures inside QEMU guests only; QEMU runs where the lane puts it
# lane: beside the late tests - CPU load on CPU 0 at SCHED_IDLE, its guests' files on a tmpfs
# (no write to the disk, whose IRQ lands on CPU 1): every attrib_* test passed beside it
. "$(dirname "$0")/../lib/lib.bash"

need_cmd qemu-system-x86_64 qemu-system-x86
need_file /bin/busybox busybox-static
need_cmd depmod kmod
need_cmd cpio cpio
need_root
need_cpu1
# injected kinds take 4-6 minutes a kernel under TCG: make check judges the probes of both
# builds in each; make check-kernels names every kind
# the guests' run folders and scratch disks on a tmpfs where there is one (/dev/shm)
VM=$(mktemp -d /dev/shm/jsvm.XXXXXX 2>/dev/null) || VM=$TMP/vm
at_exit 'rm -rf "$VM"'
python3 "$ROOT/tests/vm/matrix.py" --check --kinds probes --keep "$VM" >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
case $rc in
0) ;;
77) required "$(grep -m1 '^SKIP' "$TMP/out" || echo 'no kernel could be booted')" ;;
*) fail "the VM matrix failed (tests/vm/matrix.py exited $rc)" ;;
esac
# a run that judged nothing must not pass: each kernel's probes and CPU 1 checks ran
for k in deb12-tuned deb13-rt; do
	grep -q "^PASS: $k: probes:" "$TMP/out" || fail "$k: the probes were not judged"
	grep -q "^PASS: $k: jitterscope from a shell on CPUs 0:" "$TMP/out" ||
		fail "$k: CPU 1 was not measured from the housekeeping shell"
	grep -q "^PASS: $k: nohz_full tick:" "$TMP/out" || fail "$k: the tick was not judged"
done
grep -q "^PASS: deb13-rt: both builds load:" "$TMP/out" ||
	fail "deb13-rt: the two builds were not judged"
for c in "during the runs" "given back" "after SIGKILL" "in the JSON"; do
	grep -q "^PASS: deb13-rt: deepest idle state $c:" "$TMP/out" ||
		fail "deb13-rt: --deepest-idle-state was not judged ($c)"
done
