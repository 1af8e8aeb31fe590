#!/bin/bash
# cpu1_shield.sh - scripts/cpu1-shield (docs/HACKING.md, "The shield") on processes of its own
# (--only: nothing else on the machine is moved): a two-thread process that may run on CPUs 0
# and 1 loses CPU 1, one bound to CPU 1 alone and a kept one are left, every mask comes back
# with `off` and the file is removed, but not to a thread id reused since (its start time
# differs) nor from a file of an earlier boot; bad usage exits 2, a missing file 1. Needs
# root (another process's affinity) and 2 CPUs: a skip otherwise.
set -u
cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" = 0 ] || { echo "skip: not root (another process's affinity)"; exit 77; }
[ -d /sys/devices/system/cpu/cpu1 ] || { echo "skip: one CPU"; exit 77; }
tmp=$(mktemp -d /tmp/cpu1_shield.XXXXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
bad=0
ok() { echo "ok: $1"; }
no() { echo "FAIL: $1"; bad=1; }
# the CPUs thread TID may run on
cpus() { awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status"; }
same() { # same WHAT WANT GOT
	if [ "$2" = "$3" ]; then ok "$1: $3"; else no "$1: $3, want $2"; fi
}

taskset -c 0,1 /usr/bin/python3 -c 'import threading, time
threading.Thread(target=time.sleep, args=(60,), daemon=True).start(); time.sleep(60)' &
pids+=($!)
wide=$!
taskset -c 1 sleep 60 &
pids+=($!)
bound=$!
taskset -c 0,1 sleep 60 &
pids+=($!)
kept=$!
sleep 0.3
tids=$(ls "/proc/$wide/task")
[ "$(echo "$tids" | wc -w)" = 2 ] || no "the stand-in has 2 threads ($tids)"

out=$(scripts/cpu1-shield on "$tmp/m" --only "$wide" --only "$bound" --only "$kept" \
	--keep "$kept")
rc=$?
same "on: exit" 0 "$rc"
case $out in *"2 threads of other tasks kept off CPU 1"*) ok "on: $out" ;; *) no "on: $out" ;; esac
for t in $tids; do
	same "on: thread $t of the 0,1 process" 0 "$(cpus "$t")"
done
same "on: the process bound to CPU 1" 1 "$(cpus "$bound")"
same "on: the kept process" 0-1 "$(cpus "$kept")"
[ -s "$tmp/m" ] && ok "on: the masks written" || no "on: no masks in $tmp/m"

out=$(scripts/cpu1-shield off "$tmp/m")
same "off: exit" 0 "$?"
for t in $tids; do
	same "off: thread $t given CPU 1 back" 0-1 "$(cpus "$t")"
done
[ ! -e "$tmp/m" ] && ok "off: the file removed" || no "off: $tmp/m left"

# a file left by a killed run gives back to the threads it moved, no other: a thread id now
# another thread's (its start time differs) and a file of an earlier boot are passed over
taskset -pc 0 "$wide" >/dev/null
born=$(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$wide/stat")
printf 'boot %s\n%s %s 0,1\n' "$(cat /proc/sys/kernel/random/boot_id)" "$wide" \
	"$((born + 1))" >"$tmp/m"
out=$(scripts/cpu1-shield off "$tmp/m")
case $out in *"0 of 1 threads given their CPUs back"*) ok "off, a reused id: $out" ;;
*) no "off, a reused id: $out" ;; esac
same "off, a reused id: the other thread's mask" 0 "$(cpus "$wide")"
printf 'boot 00000000-0000-0000-0000-000000000000\n%s %s 0,1\n' "$wide" "$born" >"$tmp/m"
out=$(scripts/cpu1-shield off "$tmp/m")
case $out in *"of an earlier boot"*"nothing given back"*) ok "off, an earlier boot: $out" ;;
*) no "off, an earlier boot: $out" ;; esac
same "off, an earlier boot: the mask" 0 "$(cpus "$wide")"
[ ! -e "$tmp/m" ] && ok "off, an earlier boot: the file removed" || no "off: $tmp/m left"

scripts/cpu1-shield off "$tmp/none" 2>"$tmp/err"
same "off, no such file: exit" 1 "$?"
scripts/cpu1-shield sideways "$tmp/m" 2>"$tmp/err"
same "bad usage: exit" 2 "$?"
[ $bad = 0 ] && echo "cpu1_shield: all checks passed"
exit $bad
