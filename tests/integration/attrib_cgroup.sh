#!/bin/bash
# attrib_cgroup.sh - issue 17: a preempting task is named with its cgroup. jsinject preempt (a
# SCHED_FIFO task spinning 500 us every 10 ms on CPU 1) runs in a cgroup v2 child made for the
# test, jstest.slice/jsinject-test.scope under the v2 mount (/sys/fs/cgroup, or
# /sys/fs/cgroup/unified on a hybrid system); each spin's gap names the task with that cgroup
# (detail "jsinject:<tid> [jsinject-test.scope]", >= 99 % of the named spins) and the JSON gives
# its path /jstest.slice/jsinject-test.scope and a row in sources_by_cgroup. And no other task
# carries it: every part of any gap tagged [jsinject-test.scope] names a thread the kernel
# listed in the cgroup (its cgroup.threads, read while jsinject ran). The preemption itself
# (it was attrib_preempt.sh's, the same run): each spin is a gap whose primary cause is the task
# jsinject:<tid>, with the task's net time plus its share of the gap's steal within 10 % of the
# spin (>= 99 % of spins): the host's steal during the spin is the gap's, not the task's. Where
# cgroup v2 is not mounted or not writable, the preemption is judged without the cgroup and
# the cgroup part is a "skip cgroup:" line.
# Root only, about 10 s. Matching and figures: attrib_lib.py.
# cpu1: after the lane - its oracles judge attribution at 99 %: the lane's disk writes (their IRQ lands on CPU 1 here) and load would share its gaps
set -u
cd "$(dirname "$0")" || exit 1
TMP=$(mktemp -d /tmp/attrib_cgroup.XXXXXX)
# ATTRIB_KEEP=1 keeps the outputs (gaps CSV, JSON, injector log) for a look
trap '[ -n "${ATTRIB_KEEP:-}" ] && echo "outputs kept in $TMP" || rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
python3 ../lib/attrib_lib.py run --mode preempt --duration 5 --period 5000 --spin 500 --dir "$TMP" \
	--cgroup jstest.slice/jsinject-test.scope
