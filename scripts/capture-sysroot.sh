#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# capture-sysroot.sh DIR - copy the /proc, /sys, /etc, /boot and /dev files the isolation
# audit reads into DIR, so that `jitterscope check --sysroot DIR --cpu LIST` audits this
# machine from anywhere (another host, a bug report, a CI fixture).
#
# Read-only and fast (< 1 s); it never writes a system setting. Files that cannot be read
# (some need root: /dev/cpu_dma_latency, debugfs) are left out and the audit reports those
# checks as skipped. Send it along with: tar czf capture.tar.gz -C DIR .
#
# Options: --no-tasks  leave out /proc/<pid> (task names and affinities)
set -u

usage() {
	echo "usage: $0 [--no-tasks] DIR" >&2
	exit 64
}

tasks=1
dir=""
for arg in "$@"; do
	case "$arg" in
	--no-tasks) tasks=0 ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) [ -z "$dir" ] || usage; dir=$arg ;;
	esac
done
[ -n "$dir" ] || usage
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd) || exit 1
files=()

# cap FILE... - queue each readable file for copying to DIR/FILE
cap() {
	local f
	for f in "$@"; do
		[ -f "$f" ] && [ -r "$f" ] && files+=("$f")
	done
}

shopt -s nullglob

cap /proc/cmdline /proc/cpuinfo /proc/meminfo /proc/swaps /proc/interrupts /proc/softirqs \
	/proc/config.gz
for k in osrelease version timer_migration nmi_watchdog watchdog soft_watchdog \
	watchdog_cpumask sched_rt_runtime_us sched_rt_period_us numa_balancing; do
	cap /proc/sys/kernel/$k
done
for k in stat_interval swappiness zone_reclaim_mode compaction_proactiveness; do
	cap /proc/sys/vm/$k
done
cap "/boot/config-$(uname -r)"
cap /sys/module/rcutree/parameters/nohz_full_patience_delay

# IRQs
cap /proc/irq/default_smp_affinity
for d in /proc/irq/[0-9]*; do
	cap "$d/smp_affinity_list" "$d/effective_affinity_list"
done
cap /sys/kernel/irq/[0-9]*/actions

# CPUs
c=/sys/devices/system/cpu
cap $c/online $c/possible $c/isolated $c/nohz_full $c/smt/control $c/smt/active \
	$c/cpuidle/current_driver $c/intel_pstate/status $c/intel_pstate/no_turbo \
	$c/vulnerabilities/*
for d in $c/cpu[0-9]*; do
	cap "$d/topology/thread_siblings_list" "$d/power/pm_qos_resume_latency_us"
	cap "$d"/cpufreq/{scaling_governor,scaling_driver,scaling_min_freq,scaling_max_freq}
	cap "$d/cpufreq/energy_performance_preference"
	cap "$d"/cpuidle/state*/{name,latency,disable}
done
cap /sys/devices/system/clocksource/clocksource0/{current,available}_clocksource
cap /sys/devices/system/machinecheck/machinecheck*/ignore_ce
cap /sys/devices/system/node/node*/cpulist
cap /sys/devices/system/node/node*/hugepages/hugepages-*/{nr,free}_hugepages

# workqueues, memory, kernel flavour, cgroup isolation, hypervisor
cap /sys/devices/virtual/workqueue/cpumask /sys/devices/virtual/workqueue/*/cpumask
t=/sys/kernel/mm/transparent_hugepage
cap $t/enabled $t/defrag $t/khugepaged/defrag $t/hugepages-*/enabled
cap /sys/kernel/mm/ksm/run /sys/kernel/realtime /sys/hypervisor/type
# a guest where no CPU flag says so (arm64, js_guest.h): the device tree and DMI names
cap /proc/device-tree/compatible /proc/device-tree/hypervisor/compatible \
	/sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name
cap /sys/kernel/debug/sched/preempt /sys/kernel/debug/sched/fair_server/cpu*/runtime
# isolated cpuset partitions: at the cgroup v2 root, wherever /proc/self/mounts has it (the
# mounts are copied below, so that the tree says where that is)
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts 2>/dev/null)
[ -n "$cg2" ] && cap "$cg2/cpuset.cpus.isolated"

# configuration files
cap /etc/default/irqbalance /etc/sysconfig/irqbalance /etc/tuned/active_profile \
	/etc/tuned/*-variables.conf

# tasks: names, kthread flags, last CPU and allowed CPUs of every thread
if [ "$tasks" = 1 ]; then
	for p in /proc/[0-9]*; do
		[ "$p" = "/proc/$$" ] && continue
		files+=("$p/comm" "$p"/task/[0-9]*/stat "$p"/task/[0-9]*/status)
	done
fi

# one cp for everything: content only; files that vanish or refuse a read are left out. The
# directories are made first: cp --parents would give them the modes of /proc's and /sys's
# (read-only), and a user but root could then write nothing more into them, nor delete them
printf '.%s\0' "${files[@]%/*}" | sort -zu | (cd "$dir" && xargs -0 mkdir -p --)
cp --parents -t "$dir" "${files[@]}" 2>/dev/null
# a failed read can leave an empty copy of a file that was not empty: drop those
find "$dir" -type f -empty -delete 2>/dev/null
find "$dir" -mindepth 1 -type d -empty -delete 2>/dev/null	# (a task that exited meanwhile)

# /proc/self is a link to the reader's own directory: its mounts are copied by content
mkdir -p "$dir/proc/self" && cat /proc/self/mounts >"$dir/proc/self/mounts" 2>/dev/null

# /dev/cpu_dma_latency holds a binary int32; store it as text (the audit reads both)
if [ -r /dev/cpu_dma_latency ]; then
	v=$(od -An -td4 -N4 /dev/cpu_dma_latency 2>/dev/null | tr -d ' ')
	[ -n "$v" ] && mkdir -p "$dir/dev" && echo "$v" >"$dir/dev/cpu_dma_latency"
fi
count=$(find "$dir" -type f ! -name CAPTURE-INFO | wc -l)

{
	echo "captured-by: jitterscope scripts/capture-sysroot.sh"
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host: $(uname -n)"
	echo "kernel: $(uname -r) $(uname -v)"
	echo "user: $(id -un)"
	echo "files: $count"
} >"$dir/CAPTURE-INFO"
echo "captured $count files into $dir (audit: jitterscope check --sysroot $dir --cpu LIST)"
