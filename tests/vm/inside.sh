#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# inside.sh - inside one kernel of the VM matrix: the probes of both builds load, and each
# injected kind is named one to one. Run in the guest as root, from the checkout, after make:
#
#   vm.py run KERNEL --disk 256 [--out DIR] -- sh tests/vm/inside.sh [KIND...]
#   (tests/vm/guest.sh runs it with JS_VM_OUT=$out/inject)
#
# KIND: probes preempt ipi irq softirq, and on PREEMPT_RT irq_thread ksoftirqd backlog_napi
# ktimers (default: all that apply; irq_thread, ksoftirqd and backlog_napi read the irq and
# softirq runs). What each checks: tests/vm/inside.py's docstring.
# Environment: JS_VM_OUT (required) where everything goes; JS_VM_DISK the scratch disk's mount
# (vm.py --disk; without it irq is a skip); JS_INSIDE_DURATION seconds of jitterscope per
# kind (default 8, ipi 4 more: 1.5-2.5 minutes in all under TCG here, 80-160 s with the
# boot); JS_INSIDE_PICKED a run of the kernel's pick already made (tests/vm/inside.py);
# JS_BIN, JSINJECT other builds.
# Writes:
#   $JS_VM_OUT/summary    key=value lines, written as they come:
#     release, rt (1 on PREEMPT_RT), kinds, seconds (wall time of the whole), ok (1: none failed)
#     tp_btf_attached raw_tp_attached   programs attached by each build ("-" where the kernel
#                                       cannot load the tp_btf build: tp_btf_why says why)
#     BUILD_programs BUILD_refused BUILD_refused_names BUILD_absent   of those runs: programs
#                                       in the object, refused by the verifier (how many, which),
#                                       left out for a tracepoint this kernel lacks
#     probes_ok                         1: both builds (that load here) attach, none refused
#     KIND_named=n/N                    N actions (or thread runs) judged, n named one to one
#     KIND_ok                           1 pass (>= 99 %), 0 fail, skip (too few, no disk, ...)
#     KIND_why                          why it failed or was skipped
#     KIND_seconds                      the kind's wall time
#     ipi_cal_delta ipi_actions         the kernel's count of call-function IPIs on CPU 1 over
#                                       the injector's run, and its ioctls (need cal >= actions)
#     irq_irq                           the injected IRQ (NAME:N)
#   $JS_VM_OUT/KIND/      each run's files (attrib.txt, gaps.csv, run.json, inject.csv,
#                         witness.csv); probes_BUILD.{json,err}
# Prints one line per check ("inside: ipi: named 75/75 (100.00 %), ...: PASS") and a total.
# Exit: 0 nothing failed (skips allowed), 1 a check failed, 77 not root / no BTF / 1 CPU,
# 64 usage.
exec python3 "$(dirname "$0")/inside.py" "$@"
