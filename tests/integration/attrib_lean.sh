#!/bin/bash
# attrib_lean.sh - issue 29: --probes lean runs one program per interruption (its exit) and
# still names each injected interruption by its class, with its entry/exit accounted. The
# injectors of attrib_ipi, attrib_cgroup, attrib_irq, attrib_softirq and
# attrib_timer under --probes lean, judged as those are (attrib_lib.py: >= 99 % of the
# actions named, the action's own event primary where the kernel's witness saw nothing
# else; the timer mode expects the local timer, lean naming no hrtimer callback), the
# injected IPIs' gaps with a median unexplained share <= 15 % (their entry/exit given), and
# every gap adding up (causes + entry/exit + steal + unexplained). Root only (77 otherwise),
# about 45 s. ATTRIB_KEEP=1 keeps the outputs.
# cpu1: after the lane - it injects the disk's IRQ and counts it: the lane's writes raise it too
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_lean.XXXXXX)
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
rc=0 ran=0
# run NAME ARG... - one mode under lean: its "skip:" line a part skipped, a failure fails; a
# failure under noise (75, its "noise:" line) stays 75 unless another mode failed outright
run() {
	local r
	mkdir -p "$TMP/$1"
	python3 attrib_lib.py run --probes lean --dir "$TMP/$1" "${@:2}"
	r=$?
	case $r in
	77) ;;
	0) ran=$((ran + 1)) ;;
	75)
		ran=$((ran + 1))
		[ $rc -eq 0 ] && rc=75
		;;
	*) ran=$((ran + 1)) rc=1 ;;
	esac
}
run ipi --mode ipi --duration 7 --period 2500 --count 1 --max-share 15
run preempt --mode preempt --duration 7 --period 5000 --spin 500
run irq --mode irq --duration 7 --period 2500 --count 1
run softirq --mode softirq --duration 7 --period 5000
run timer --mode timer --duration 7
[ $ran -eq 0 ] && exit 77 # every mode skipped: the last "skip:" line says why
exit $rc
