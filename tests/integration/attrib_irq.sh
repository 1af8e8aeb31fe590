#!/bin/bash
# attrib_irq.sh - issue 3: O_DIRECT reads every 5 ms whose disk IRQ is delivered on
# CPU 1 (jsinject irq) are named one-to-one: each read's gap names irq:<name>:<irq>, and its
# primary cause is that IRQ or the BLOCK softirq it raised (>= 99 % of the reads). The
# completion is one action of two events: on virtio-blk (one queue) the request completes in
# the BLOCK softirq, about 10 us against the hard IRQ's 1-2 us, and jitterscope names the
# largest net cause primary. Skips when the disk's managed IRQ cannot be aimed at CPU 1.
# Root only (77 otherwise), about 9 s. Matching and figures: attrib_lib.py.
# cpu1: after the lane - it injects the disk's IRQ and counts it: the lane's writes raise it too
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_irq.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 ../lib/attrib_lib.py run --mode irq --duration 5 --period 2500 --count 1 --dir "$TMP"
