#!/bin/bash
# inject_selftest_irq.sh - verify jsinject's irq mode by itself, as inject_selftest.sh does the
# others: 2 s of preads on the disk whose IRQ it aims at CPU 1; the IRQ's count on CPU 1 covers
# the preads, and its BLOCK softirqs above the background (a timer-mode run of the same length)
# account for 90 % of them. Skips when the disk's IRQ is managed and aimed elsewhere (it cannot
# be steered). Root only. About 5 s.
# cpu1: after the lane - it injects the disk's IRQ and counts it: the lane's writes raise it too
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/inject_lib.bash"

busy
if run irq --period 5000; then
	at_least irq 5000
	check "irq: IRQ $(val irq irq) ($(val irq irq_name)) on CPU $CPU >= preads" \
	      "$(val irq irq_delta) >= $(val irq actions)"
fi
run timer --period 1000 || finish inject_selftest_irq	# the background
echo "== counts above the background (the timer-mode run)"
[ -s "$TMP/irq.out" ] && check "irq: BLOCK softirqs above background >= 90 % of preads" \
	"$(val irq block_delta) - $(min_other block_delta irq) >= $(val irq actions) * 9 / 10"
finish inject_selftest_irq
