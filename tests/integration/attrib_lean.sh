#!/bin/bash
# attrib_lean.sh - issue 29: --probes lean runs one program per interruption (its exit) and
# still names each injected interruption by its class, with its entry/exit accounted. The
# injectors of attrib_ipi, attrib_cgroup, attrib_irq, attrib_softirq and
# attrib_timer under --probes lean, judged as those are (attrib_lib.py: >= 99 % of the
# actions named, the action's own event primary where the kernel's witness saw nothing
# else; the timer mode expects the local timer, lean naming no hrtimer callback), the
# injected IPIs' gaps with a median unexplained share <= 15 % (their entry/exit given), and
# every gap adding up (causes + entry/exit + steal + unexplained). Root only (77 otherwise),
# about 20 s (five phases of 3 s). ATTRIB_KEEP=1 keeps the outputs.
# cpu1: after the lane - it injects the disk's IRQ and counts it: the lane's writes raise it too
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_lean.XXXXXX)
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
# the five phases in one run (several oracles, one measured run: jitterscope's start and
# CPU 1's quiet are paid once); attrib_lib.py exits 75 under noise, 77 when every phase
# skipped (its "skip:" lines say why), and prints a phase's "skip:" line where one cannot run
python3 ../lib/attrib_lib.py run --probes lean --dir "$TMP" \
	--phase "ipi 3 period=2500 count=1 max-share=15" \
	--phase "preempt 3 period=5000 spin=500" \
	--phase "irq 3 period=2500 count=1" \
	--phase "softirq 3 period=5000" \
	--phase "timer 3"
