#!/bin/bash
# inject_selftest_irq.sh - verify jsinject's irq mode by itself, as inject_selftest.sh does the
# others: 2 s of preads on the disk whose IRQ it aims at CPU 1; the IRQ's count on CPU 1 covers
# the preads, and its BLOCK softirqs above the background (a timer-mode run of the same length)
# account for 90 % of them. Skips when the disk's IRQ is managed and aimed elsewhere (it cannot
# be steered). Root only. About 5 s.
# cpu1: after the lane - it injects the disk's IRQ and counts it: the lane's writes raise it too
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat);
# and the background's own BLOCK softirqs: others' disk I/O (the suite's writes to /tmp) over a
# tenth of the preads during the timer-mode run makes the subtraction wrong: exit 75, run again
. "$(dirname "$0")/../lib/inject_lib.bash"

busy
if run irq --period 5000; then
	at_least irq 5000
	check "irq: IRQ $(val irq irq) ($(val irq irq_name)) on CPU $CPU >= preads" \
	      "$(val irq irq_delta) >= $(val irq actions)"
fi
run timer --period 1000 || finish inject_selftest_irq	# the background
echo "== counts above the background (the timer-mode run)"
if [ -s "$TMP/irq.out" ]; then
	BG=$(min_other block_delta irq)
	check "irq: BLOCK softirqs above background >= 90 % of preads" \
		"$(val irq block_delta) - $BG >= $(val irq actions) * 9 / 10"
	if [ "$FAILS" -ne 0 ] && [ "$BG" -gt $(($(val irq actions) / 10)) ]; then
		# seen in a suite run: 277 BLOCK softirqs in the 2 s background, against 391 preads
		echo "noise: the background run saw $BG BLOCK softirqs of others' disk I/O on CPU $CPU" \
			"(over a tenth of the $(val irq actions) preads): exit 75, to be run again"
		exit 75
	fi
fi
finish inject_selftest_irq
