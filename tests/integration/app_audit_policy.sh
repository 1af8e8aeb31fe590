#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# app_audit_policy.sh - the audit of a --pid run judges RT throttling for the followed
# process's own policy: a SCHED_FIFO application makes sched_rt_runtime_us (at the kernel
# default) a crit fail, a SCHED_OTHER one a low warn. Root, kernel BTF; about 4 s.
# Exit 0 pass, 77 skip, else fail.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_cmd chrt util-linux
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
[ "$rt" -ge 0 ] || skip "sched_rt_runtime_us is $rt here: no RT throttling to judge"

# sev POLICY PRIO - the severity and verdict of sched_rt_runtime_us in a --pid run's audit
sev() {
	chrt "$1" "$2" taskset -c 1 sh -c 'while :; do sleep 0.01; done' &
	app=$!
	sleep 0.2
	"$JS" --pid $app --duration 1 --json "$TMP/run.json" >/dev/null 2>"$TMP/err.txt"
	rc=$?
	kill $app 2>/dev/null
	wait $app 2>/dev/null
	[ $rc -eq 0 ] || fail "chrt $1: jitterscope exited $rc ($(cat "$TMP/err.txt"))"
	python3 - "$TMP/run.json" <<-'PY'
	import json, sys
	a = json.load(open(sys.argv[1]))["audit"]
	c = [c for c in a["checks"] if c["id"] == "sched_rt_runtime_us"][0]
	print(c["verdict"], c["severity"])
	PY
}
[ "$(sev -f 1)" = "fail crit" ] || fail "a SCHED_FIFO application: sched_rt_runtime_us $rt is not a crit fail"
[ "$(sev -o 0)" = "warn low" ] || fail "a SCHED_OTHER application: sched_rt_runtime_us $rt not a low warn"
echo "app_audit_policy: sched_rt_runtime_us $rt: crit for a FIFO application, low for SCHED_OTHER"
