#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""make-fixtures.py - (re)generate the audit's sysroot fixture trees.

  tuned/        an 8-CPU bare-metal box tuned for CPU 3 (housekeeping 0-1, isolated 2-7):
                every check passes (smi is skipped: it cannot be read from a tree)
  badly-tuned/  the same box untuned: every check takes its fail (or warn) path
  malformed/    unreadable, truncated and garbage files: checks must skip, never crash
  cpus-*/       the files the default measured CPUs are chosen from (src/sys/cpus.c), one tree
                per isolation source and one with all three: isolcpus= (cpu/isolated), an
                isolated cpuset partition (cpuset.cpus.isolated at the cgroup v2 root that
                /proc/self/mounts names), nohz_full= (cpu/nohz_full)
  many-cpus/    a 64-CPU box with 1-63 isolated (isolcpus=, nohz_full=): one housekeeping CPU
                for 63 (the housekeeping.cpus check)
  tuned-6.12/   a 2-vCPU KVM guest on Debian 13's 6.12 kernel booted with isolcpus=managed_irq,
                domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0 (issue 36): 13 per-CPU
                workqueues' rescuers (kworker/R-*, PF_WQ_WORKER, PF_NO_SETAFFINITY) allowed on
                CPU 0-1 as the kernel binds them, the unbound ones' on CPU 0; workqueue masks
                as 6.12 shows them (cpumask 1, each WQ_SYSFS queue's as asked: 3). The audit
                must recommend none of the parameters set
  deb13-tuned-capture/  not written here: scripts/capture-sysroot.sh run inside that very box
                (Debian 13's 6.12.117 booted by tests/vm/vm.py run deb13-tuned)

Run from anywhere: python3 tests/data/sysroot/make-fixtures.py. The trees are committed;
tests/unit/test_audit.c and tests/unit/test_cpus.c read them.
"""
import gzip
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
PF_KTHREAD = 0x00200000
PF_WQ_WORKER = 0x00000020
PF_NO_SETAFFINITY = 0x04000000
# a workqueue worker's flags as 6.12 shows them (kworker/R-*, kworker/u*): PF_NOFREEZE too
WQ_FLAGS = PF_KTHREAD | PF_NO_SETAFFINITY | 0x8000 | 0x40 | PF_WQ_WORKER


def put(root, rel, content, mode="w"):
    path = os.path.join(root, rel.lstrip("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(content)


def stat_line(pid, comm, kthread, cpu, flags=None):
    # fields 1..52 of /proc/PID/stat; 9 = flags, 39 = processor
    f = ["0"] * 53
    f[1], f[2], f[3] = str(pid), "(%s)" % comm, "S"
    f[9] = str(flags if flags is not None else PF_KTHREAD | 0x40 if kthread else 0x400100)
    f[39] = str(cpu)
    return " ".join(f[1:]) + "\n"


def status(comm, pid, allowed):
    return ("Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nPid:\t%d\n"
            "Cpus_allowed:\tff\nCpus_allowed_list:\t%s\nMems_allowed_list:\t0-1\n"
            "voluntary_ctxt_switches:\t10\n" % (comm, pid, pid, allowed))


def task(root, pid, comm, kthread, allowed, cpu, tids=None, flags=None):
    for tid in tids or [pid]:
        base = "/proc/%d/task/%d/" % (pid, tid)
        put(root, base + "stat", stat_line(tid, comm, kthread, cpu, flags))
        put(root, base + "status", status(comm, tid, allowed))
    put(root, "/proc/%d/stat" % pid, stat_line(pid, comm, kthread, cpu, flags))
    put(root, "/proc/%d/comm" % pid, comm + "\n")


def config(root, lines):
    path = os.path.join(root, "proc/config.gz")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode())


FLAGS_GOOD = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat rdtscp lm "
              "constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni "
              "sse4_2 x2apic tsc_deadline_timer avx2")

IRQS = [  # irq, name, counts cpu0..7
    (0, "timer", [30, 0, 0, 0, 0, 0, 0, 0]),
    (9, "acpi", [0] * 8),
    (120, "eth0-TxRx-0", [9000, 0, 0, 0, 0, 0, 0, 0]),
    (121, "eth0-TxRx-1", [0, 8000, 0, 0, 0, 0, 0, 0]),
    (130, "nvme0q1", [500, 0, 0, 77, 0, 0, 0, 0]),
]


def interrupts(root, eff):
    hdr = " " * 11 + "".join("CPU%-8d" % c for c in range(8)).rstrip() + "\n"
    rows = []
    for irq, name, counts in IRQS:
        chip = "IO-APIC   2-edge     " if irq < 100 else "IR-PCI-MSI 524288-edge"
        rows.append("%4d: %s  %s      %s\n" % (irq, " ".join("%10d" % c for c in counts),
                                                 chip, name))
    for key, val, desc in [("NMI", 3, "Non-maskable interrupts"),
                           ("LOC", 1000, "Local timer interrupts"),
                           ("RES", 5, "Rescheduling interrupts"),
                           ("CAL", 7, "Function call interrupts"),
                           ("TLB", 2, "TLB shootdowns")]:
        rows.append("%4s: %s   %s\n" % (key, " ".join("%10d" % val for _ in range(8)), desc))
    rows.append(" ERR:          0\n MIS:          0\n")
    put(root, "/proc/interrupts", hdr + "".join(rows))
    sirq = " " * 20 + "".join("CPU%-8d" % c for c in range(8)).rstrip() + "\n"
    for key in ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
                "HRTIMER", "RCU"]:
        sirq += "%12s: %s\n" % (key, " ".join("%10d" % 10 for _ in range(8)))
    put(root, "/proc/softirqs", sirq)
    for irq, name, _ in IRQS:
        put(root, "/proc/irq/%d/smp_affinity_list" % irq, eff[irq][1] + "\n")
        put(root, "/proc/irq/%d/effective_affinity_list" % irq, eff[irq][0] + "\n")
        put(root, "/sys/kernel/irq/%d/actions" % irq, name + "\n")


def common(root):
    """What both the tuned and the badly tuned box share."""
    put(root, "/proc/sys/kernel/osrelease", "6.8.0-test\n")
    put(root, "/sys/devices/system/cpu/online", "0-7\n")
    put(root, "/sys/devices/system/cpu/possible", "0-7\n")
    put(root, "/sys/devices/system/cpu/smt/control", "off\n")
    put(root, "/sys/devices/system/node/node0/cpulist", "0-3\n")
    put(root, "/sys/devices/system/node/node1/cpulist", "4-7\n")
    put(root, "/sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n")
    put(root, "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
        "Mitigation: Enhanced / Automatic IBRS\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_driver", "intel_pstate\n")
    put(root, "/sys/devices/system/cpu/intel_pstate/status", "active\n")
    put(root, "/sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n")
    for k, (name, lat) in enumerate([("POLL", 0), ("C1", 2), ("C1E", 10), ("C6", 170)]):
        d = "/sys/devices/system/cpu/cpu3/cpuidle/state%d/" % k
        put(root, d + "name", name + "\n")
        put(root, d + "latency", "%d\n" % lat)
    put(root, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
        "tsc hpet acpi_pm \n")
    put(root, "/proc/sys/kernel/sched_rt_period_us", "1000000\n")
    put(root, "/proc/meminfo", "MemTotal:       65000000 kB\nHugePages_Total:     512\n"
        "HugePages_Free:      500\nHugepagesize:       2048 kB\n")
    put(root, "/sys/devices/virtual/workqueue/writeback/max_active", "256\n")
    for cpu in range(8):
        for n, comm in enumerate(["cpuhp/%d", "migration/%d", "ksoftirqd/%d", "kworker/%d:1"]):
            task(root, 10 + cpu * 10 + n, comm % cpu, True, str(cpu), cpu)


def tuned(root):
    common(root)
    put(root, "/proc/cmdline",
        "BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/sda1 ro quiet isolcpus=managed_irq,domain,2-7 "
        "nohz_full=2-7 rcu_nocbs=2-7 rcu_nocb_poll irqaffinity=0-1 nosoftlockup tsc=reliable "
        "skew_tick=1 rcupdate.rcu_normal_after_boot=1 rcutree.nohz_full_patience_delay=1000 "
        "audit=0 transparent_hugepage=never nmi_watchdog=0 mitigations=auto console=tty0\n")
    put(root, "/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Mon Jan  1 00:00:00 UTC 2024\n")
    config(root, ["CONFIG_HZ_1000=y", "CONFIG_HZ=1000", "CONFIG_NO_HZ_FULL=y",
                  "CONFIG_RCU_NOCB_CPU=y", "CONFIG_PREEMPT_DYNAMIC=y", "CONFIG_PREEMPT=y",
                  "# CONFIG_PREEMPT_NONE is not set"])
    put(root, "/sys/devices/system/cpu/isolated", "2-7\n")
    put(root, "/sys/devices/system/cpu/nohz_full", "2-7\n")
    put(root, "/sys/module/rcutree/parameters/nohz_full_patience_delay", "1000\n")
    put(root, "/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", "3\n")
    put(root, "/sys/devices/system/cpu/smt/active", "0\n")
    put(root, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: %s\n\n"
        % FLAGS_GOOD)
    for k in range(4):
        put(root, "/sys/devices/system/cpu/cpu3/cpuidle/state%d/disable" % k,
            "1\n" if k >= 2 else "0\n")
    put(root, "/sys/devices/system/cpu/cpu3/power/pm_qos_resume_latency_us", "0\n")
    put(root, "/dev/cpu_dma_latency", struct.pack("<i", 0), "wb")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_min_freq", "3000000\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_max_freq", "3000000\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/energy_performance_preference",
        "performance\n")
    put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n")
    put(root, "/sys/devices/system/machinecheck/machinecheck3/ignore_ce", "1\n")
    for k, v in [("timer_migration", 0), ("nmi_watchdog", 0), ("watchdog", 0),
                 ("soft_watchdog", 0), ("sched_rt_runtime_us", -1), ("numa_balancing", 0)]:
        put(root, "/proc/sys/kernel/" + k, "%d\n" % v)
    put(root, "/proc/sys/kernel/watchdog_cpumask", "0-1\n")
    for k, v in [("stat_interval", 10), ("swappiness", 10), ("zone_reclaim_mode", 0),
                 ("compaction_proactiveness", 0)]:
        put(root, "/proc/sys/vm/" + k, "%d\n" % v)
    put(root, "/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n")
    put(root, "/proc/irq/default_smp_affinity", "03\n")
    interrupts(root, {0: ("0", "0-1"), 9: ("0", "0-1"), 120: ("0", "0-1"), 121: ("1", "0-1"),
                      130: ("0", "0-1")})
    put(root, "/sys/devices/virtual/workqueue/cpumask", "03\n")
    put(root, "/sys/devices/virtual/workqueue/writeback/cpumask", "03\n")
    thp = "/sys/kernel/mm/transparent_hugepage/"
    put(root, thp + "enabled", "always madvise [never]\n")
    put(root, thp + "defrag", "always defer defer+madvise [madvise] never\n")
    put(root, thp + "khugepaged/defrag", "0\n")
    put(root, thp + "hugepages-2048kB/enabled", "always inherit madvise [never]\n")
    for node, nr, fr in [(0, 512, 500), (1, 0, 0)]:
        d = "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/" % node
        put(root, d + "nr_hugepages", "%d\n" % nr)
        put(root, d + "free_hugepages", "%d\n" % fr)
    put(root, "/sys/devices/system/node/node0/hugepages/hugepages-1048576kB/nr_hugepages", "4\n")
    put(root, "/sys/devices/system/node/node0/hugepages/hugepages-1048576kB/free_hugepages",
        "4\n")
    put(root, "/sys/kernel/mm/ksm/run", "0\n")
    put(root, "/etc/default/irqbalance", "# banned\nIRQBALANCE_BANNED_CPULIST=\"2-7\"\n")
    put(root, "/etc/tuned/active_profile", "cpu-partitioning\n")
    put(root, "/etc/tuned/cpu-partitioning-variables.conf", "# cores\nisolated_cores=2-7\n")
    task(root, 1, "systemd", False, "0-1", 0)
    task(root, 2, "kthreadd", True, "0-1", 0)
    task(root, 500, "irqbalance", False, "0-1", 1)
    task(root, 700, "sshd", False, "0-1", 0, tids=[700, 701])
    task(root, 3, "kworker/u16:0", True, "0-1", 0)
    task(root, 4, "rcu_preempt", True, "0-1", 1)
    for cpu in range(2, 8):
        task(root, 200 + cpu, "rcuop/%d" % cpu, True, "0-1", 0)


def badly_tuned(root):
    common(root)
    put(root, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro console=ttyS0,115200 "
        "isolcpus=nohz,5 mitigations=off -- single\n")
    put(root, "/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Mon Jan  1 00:00:00 UTC 2024\n")
    config(root, ["CONFIG_HZ_250=y", "CONFIG_HZ=250", "CONFIG_NO_HZ_FULL=y",
                  "CONFIG_RCU_NOCB_CPU=y", "CONFIG_PREEMPT_DYNAMIC=y",
                  "CONFIG_PREEMPT_VOLUNTARY=y"])
    put(root, "/sys/devices/system/cpu/isolated", "\n")
    put(root, "/sys/devices/system/cpu/nohz_full", "(null)\n")
    put(root, "/sys/module/rcutree/parameters/nohz_full_patience_delay", "0\n")
    put(root, "/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", "3,7\n")
    put(root, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: %s hypervisor\n\n"
        % FLAGS_GOOD.replace(" nonstop_tsc", ""))
    for k in range(4):
        put(root, "/sys/devices/system/cpu/cpu3/cpuidle/state%d/disable" % k, "0\n")
    put(root, "/sys/devices/system/cpu/cpu3/power/pm_qos_resume_latency_us", "0\n")
    put(root, "/dev/cpu_dma_latency", "2000000000\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_min_freq", "800000\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_max_freq", "4000000\n")
    put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n")
    put(root, "/sys/devices/system/machinecheck/machinecheck3/ignore_ce", "0\n")
    for k, v in [("timer_migration", 1), ("nmi_watchdog", 1), ("watchdog", 1),
                 ("soft_watchdog", 1), ("sched_rt_runtime_us", 950000), ("numa_balancing", 1)]:
        put(root, "/proc/sys/kernel/" + k, "%d\n" % v)
    put(root, "/proc/sys/kernel/watchdog_cpumask", "0-7\n")
    for k, v in [("stat_interval", 1), ("swappiness", 60), ("zone_reclaim_mode", 1),
                 ("compaction_proactiveness", 20)]:
        put(root, "/proc/sys/vm/" + k, "%d\n" % v)
    put(root, "/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
        "/dev/sda2                               partition\t8388604\t\t0\t\t-2\n")
    put(root, "/proc/irq/default_smp_affinity", "ff\n")
    interrupts(root, {0: ("0", "0-7"), 9: ("3", "0-7"), 120: ("3", "0-7"), 121: ("1", "0-7"),
                      130: ("3", "3")})
    put(root, "/sys/devices/virtual/workqueue/cpumask", "ff\n")
    put(root, "/sys/devices/virtual/workqueue/writeback/cpumask", "ff\n")
    thp = "/sys/kernel/mm/transparent_hugepage/"
    put(root, thp + "enabled", "[always] madvise never\n")
    put(root, thp + "defrag", "[always] defer defer+madvise madvise never\n")
    put(root, thp + "khugepaged/defrag", "1\n")
    put(root, thp + "hugepages-2048kB/enabled", "always [inherit] madvise never\n")
    for node, nr, fr in [(0, 0, 0), (1, 512, 512)]:
        d = "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/" % node
        put(root, d + "nr_hugepages", "%d\n" % nr)
        put(root, d + "free_hugepages", "%d\n" % fr)
    put(root, "/sys/kernel/mm/ksm/run", "1\n")
    put(root, "/etc/default/irqbalance", "#IRQBALANCE_BANNED_CPULIST=\n")
    put(root, "/etc/tuned/active_profile", "balanced\n")
    task(root, 1, "systemd", False, "0-7", 3)
    task(root, 2, "kthreadd", True, "0-7", 0)
    task(root, 500, "irqbalance", False, "0-7", 3)
    task(root, 700, "sshd", False, "0-7", 3, tids=[700, 701])
    task(root, 800, "app", False, "3", 3)
    task(root, 3, "kworker/u16:0", True, "0-7", 3)
    task(root, 4, "rcu_preempt", True, "0-7", 3)
    task(root, 5, "kauditd", True, "0-7", 0)


def malformed(root):
    """Every file the audit reads exists in a broken form, or is missing."""
    put(root, "/proc/cmdline", "\x01garbage isolcpus=3-1,x nohz_full= rcu_nocbs=zz "
        "irqaffinity=q console=\"unterminated\x00 after a NUL\n")
    put(root, "/proc/sys/kernel/osrelease", "")
    put(root, "/proc/sys/kernel/version", "\n")
    put(root, "/proc/config.gz", "not gzip at all\x00\x01\x02")
    put(root, "/sys/devices/system/cpu/online", "0-x\n")
    put(root, "/sys/devices/system/cpu/possible", "\n")
    put(root, "/sys/devices/system/cpu/isolated", "garbage\n")
    put(root, "/sys/devices/system/cpu/nohz_full", "1-\n")
    put(root, "/sys/module/rcutree/parameters/nohz_full_patience_delay", "soon\n")
    put(root, "/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", "three\n")
    put(root, "/sys/devices/system/cpu/smt/control", "")
    put(root, "/proc/cpuinfo", "flags")
    put(root, "/sys/devices/system/cpu/cpuidle/current_driver", "")
    put(root, "/sys/devices/system/cpu/cpu3/cpuidle/state0/latency", "x\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpuidle/state1/latency", "-5\n")
    put(root, "/sys/devices/system/cpu/cpu3/cpuidle/state1/disable", "maybe\n")
    put(root, "/sys/devices/system/cpu/cpu3/power/pm_qos_resume_latency_us", "lots\n")
    put(root, "/dev/cpu_dma_latency", "\x01\x02\x03", "w")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "")
    put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_min_freq", "fast\n")
    put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "")
    put(root, "/sys/devices/system/machinecheck/machinecheck3/ignore_ce", "yes\n")
    for k in ["timer_migration", "nmi_watchdog", "watchdog", "soft_watchdog",
              "sched_rt_runtime_us", "sched_rt_period_us", "numa_balancing"]:
        put(root, "/proc/sys/kernel/" + k, "abc\n")
    put(root, "/proc/sys/kernel/watchdog_cpumask", "0-99999\n")
    for k in ["stat_interval", "swappiness", "zone_reclaim_mode", "compaction_proactiveness"]:
        put(root, "/proc/sys/vm/" + k, "")
    put(root, "/proc/irq/default_smp_affinity", "zz\n")
    put(root, "/proc/interrupts", "no header here\n 12: 1 2\n")
    put(root, "/proc/softirqs", "")
    put(root, "/proc/irq/12/effective_affinity_list", "3-\n")
    put(root, "/proc/irq/12/smp_affinity_list", "\n")
    put(root, "/sys/kernel/irq/12/actions", "\n")
    put(root, "/proc/irq/13/effective_affinity_list", "3\n")
    put(root, "/sys/kernel/irq/13/actions", "dev13\n")
    put(root, "/proc/irq/notanumber/effective_affinity_list", "3\n")
    put(root, "/sys/devices/virtual/workqueue/cpumask", "xyz\n")
    put(root, "/sys/devices/virtual/workqueue/writeback/cpumask", "\n")
    thp = "/sys/kernel/mm/transparent_hugepage/"
    put(root, thp + "enabled", "always madvise never\n")
    put(root, thp + "defrag", "[unterminated\n")
    put(root, thp + "khugepaged/defrag", "2x\n")
    put(root, thp + "hugepages-64kB/enabled", "[]\n")
    put(root, "/sys/devices/system/node/node0/cpulist", "what\n")
    put(root, "/sys/devices/system/node/nodeX/cpulist", "3\n")
    put(root, "/proc/meminfo", "HugePages_Total: lots\n")
    put(root, "/proc/swaps", "")
    put(root, "/sys/kernel/mm/ksm/run", "\n")
    put(root, "/etc/default/irqbalance", "IRQBALANCE_BANNED_CPULIST=\"1-\n"
        "IRQBALANCE_BANNED_CPUS=zz\n")
    put(root, "/etc/tuned/active_profile", "")
    put(root, "/sys/devices/system/cpu/vulnerabilities/x", "")
    # tasks: truncated stat, stat without ')', status without the allowed list
    put(root, "/proc/10/task/10/stat", "10 (trunc")
    put(root, "/proc/11/task/11/stat", "11 (a) b)) S 0 0 0 0 0 0\n")
    put(root, "/proc/11/task/11/status", "Name:\tx\n")
    put(root, "/proc/12/task/12/stat", "")
    put(root, "/proc/12/task/12/status", "Cpus_allowed_list:\t0-x\n")
    put(root, "/proc/13/task/notatid/stat", "13 (x) S\n")
    put(root, "/proc/14/comm", "irqbalance\n")


MOUNTS_V2 = ("sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
             "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
             "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n")
MOUNTS_HYBRID = ("sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
                 "tmpfs /sys/fs/cgroup tmpfs ro,nosuid,nodev,noexec,mode=755 0 0\n"
                 "cgroup /sys/fs/cgroup/cpuset cgroup rw,nosuid,nodev,noexec,cpuset 0 0\n"
                 "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,nosuid,nodev,noexec 0 0\n")
MOUNTS_V1 = ("sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
             "tmpfs /sys/fs/cgroup tmpfs ro,nosuid,nodev,noexec,mode=755 0 0\n"
             "cgroup /sys/fs/cgroup/cpuset cgroup rw,nosuid,nodev,noexec,cpuset 0 0\n")


def cpus_tree(root, online, isolated, nohz_full, mounts, partition):
    """An 8-CPU box's CPU files; None leaves a file out (a kernel without it)."""
    put(root, "/sys/devices/system/cpu/online", online)
    put(root, "/sys/devices/system/cpu/possible", "0-7\n")
    if isolated is not None:
        put(root, "/sys/devices/system/cpu/isolated", isolated)
    if nohz_full is not None:
        put(root, "/sys/devices/system/cpu/nohz_full", nohz_full)
    put(root, "/proc/self/mounts", mounts)
    for path, content in partition:
        put(root, path, content)


def cpus_isolcpus(root):
    """isolcpus=2-3 alone; a cgroup v2 root without isolated partitions."""
    cpus_tree(root, "0-7\n", "2-3\n", "(null)\n", MOUNTS_V2,
              [("/sys/fs/cgroup/cpuset.cpus.isolated", "\n")])


def cpus_partition(root):
    """An isolated cpuset partition of 4-5 on a hybrid system (cgroup v2 at
    /sys/fs/cgroup/unified; a decoy file where a pure v2 root would be); no nohz_full file
    (a kernel without NO_HZ_FULL)."""
    cpus_tree(root, "0-7\n", "\n", None, MOUNTS_HYBRID,
              [("/sys/fs/cgroup/unified/cpuset.cpus.isolated", "4-5\n"),
               ("/sys/fs/cgroup/cpuset.cpus.isolated", "7\n")])


def cpus_nohz(root):
    """nohz_full=6-7 alone, cgroup v1 only (no v2 mount)."""
    cpus_tree(root, "0-7\n", "\n", "6-7\n", MOUNTS_V1, [])


def cpus_union(root):
    """All three, overlapping: isolcpus=2, nohz_full=2-3,7 (7 offline), partition 5."""
    cpus_tree(root, "0-6\n", "2\n", "2-3,7\n", MOUNTS_V2,
              [("/sys/fs/cgroup/cpuset.cpus.isolated", "5\n")])


def many_cpus(root):
    """64 CPUs, 1-63 isolated and nohz_full: CPU 0 alone keeps house."""
    put(root, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/sda1 ro "
        "isolcpus=managed_irq,domain,1-63 nohz_full=1-63 rcu_nocbs=1-63\n")
    put(root, "/sys/devices/system/cpu/online", "0-63\n")
    put(root, "/sys/devices/system/cpu/possible", "0-63\n")
    put(root, "/sys/devices/system/cpu/isolated", "1-63\n")
    put(root, "/sys/devices/system/cpu/nohz_full", "1-63\n")
    put(root, "/proc/self/mounts", MOUNTS_V2)


# the WQ_MEM_RECLAIM workqueues of a Debian 13 guest: per-CPU ones (their rescuers bound to
# every possible CPU, kthread_bind_mask(cpu_possible_mask)) and unbound ones (bound to the
# workqueue cpumask, since 6.9)
PERCPU_RESCUERS = ["rcu_gp", "slub_flushwq", "mm_percpu_wq", "inet_frag_wq", "kintegrityd",
                   "kblockd", "ata_sff", "md", "edac-poller", "devfreq_wq", "kthrotld", "mld",
                   "tpm_dev_wq"]
UNBOUND_RESCUERS = ["sync_wq", "netns", "writeback", "blkcg_punt_bio", "ipv6_addrconf",
                    "ext4-rsv-conversion"]


def tuned_612(root):
    rel = "6.12.43+deb13-amd64"
    put(root, "/proc/cmdline",
        "BOOT_IMAGE=/boot/vmlinuz-%s root=UUID=0b1c6a51-5c0f-4d6e-9a39-0d1f2e3c4b5a ro "
        "console=ttyS0,115200 isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 "
        "irqaffinity=0\n" % rel)
    put(root, "/proc/sys/kernel/osrelease", rel + "\n")
    put(root, "/proc/sys/kernel/version",
        "#1 SMP PREEMPT_DYNAMIC Debian 6.12.43-1 (2025-08-27)\n")
    # Debian has no /proc/config.gz: the audit falls back to /boot/config-RELEASE
    put(root, "/boot/config-" + rel, "CONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_NO_HZ_FULL=y\n"
        "CONFIG_RCU_NOCB_CPU=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_VOLUNTARY=y\n")
    c = "/sys/devices/system/cpu/"
    for f, v in [("online", "0-1"), ("possible", "0-1"), ("present", "0-1"), ("isolated", "1"),
                 ("nohz_full", "1"), ("smt/control", "notsupported"), ("smt/active", "0"),
                 ("cpu1/topology/thread_siblings_list", "1"),
                 ("cpuidle/current_driver", "haltpoll"),
                 ("vulnerabilities/meltdown", "Not affected"),
                 ("vulnerabilities/spectre_v2", "Mitigation: Retpolines")]:
        put(root, c + f, v + "\n")
    for k, (name, lat) in enumerate([("POLL", 0), ("haltpoll", 0)]):
        put(root, c + "cpu1/cpuidle/state%d/name" % k, name + "\n")
        put(root, c + "cpu1/cpuidle/state%d/latency" % k, "%d\n" % lat)
        put(root, c + "cpu1/cpuidle/state%d/disable" % k, "0\n")
    put(root, c + "cpu1/power/pm_qos_resume_latency_us", "0\n")
    put(root, "/sys/devices/system/node/node0/cpulist", "0-1\n")
    put(root, "/sys/module/rcutree/parameters/nohz_full_patience_delay", "0\n")
    put(root, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: %s "
        "hypervisor\n\n" % FLAGS_GOOD)
    put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n")
    put(root, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
        "kvm-clock tsc acpi_pm \n")
    # Debian's defaults; nohz_full=1 leaves the watchdog on the housekeeping CPU
    for k, v in [("timer_migration", "1"), ("nmi_watchdog", "0"), ("watchdog", "1"),
                 ("soft_watchdog", "1"), ("watchdog_cpumask", "0"),
                 ("sched_rt_runtime_us", "950000"), ("sched_rt_period_us", "1000000"),
                 ("numa_balancing", "0")]:
        put(root, "/proc/sys/kernel/" + k, v + "\n")
    for k, v in [("stat_interval", 1), ("swappiness", 60), ("zone_reclaim_mode", 0),
                 ("compaction_proactiveness", 20)]:
        put(root, "/proc/sys/vm/" + k, "%d\n" % v)
    put(root, "/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n")
    put(root, "/proc/meminfo", "MemTotal:        4000000 kB\nHugePages_Total:       0\n"
        "HugePages_Free:        0\nHugepagesize:       2048 kB\n")
    put(root, "/proc/irq/default_smp_affinity", "1\n")
    # virtio-blk's second queue vector: kernel-managed for vCPU 1 alone (no guest setting moves
    # it); the rest on CPU 0 (irqaffinity=0)
    irqs = [(0, "timer", "0", "0", [40, 0]), (4, "ttyS0", "0", "0", [120, 0]),
            (24, "virtio0-config", "0", "0", [0, 0]), (25, "virtio0-input.0", "0", "0", [900, 0]),
            (27, "virtio1-req.0", "0", "0", [3000, 0]), (28, "virtio1-req.1", "1", "1", [0, 210])]
    hdr = " " * 11 + "CPU0       CPU1\n"
    rows = "".join("%4d: %10d %10d   PCI-MSIX 1-edge      %s\n" % (n, a, b, name)
                   for n, name, _, _, (a, b) in irqs)
    rows += " LOC:       5000        250   Local timer interrupts\n"
    put(root, "/proc/interrupts", hdr + rows)
    put(root, "/proc/softirqs", " " * 20 + "CPU0       CPU1\n" + "".join(
        "%12s: %10d %10d\n" % (k, 10, 1) for k in ["HI", "TIMER", "NET_RX", "RCU"]))
    for n, name, eff, req, _ in irqs:
        put(root, "/proc/irq/%d/smp_affinity_list" % n, req + "\n")
        put(root, "/proc/irq/%d/effective_affinity_list" % n, eff + "\n")
        put(root, "/sys/kernel/irq/%d/actions" % n, name + "\n")
    # 6.12 shows a queue's cpumask as asked; it runs within the global one
    put(root, "/sys/devices/virtual/workqueue/cpumask", "1\n")
    for wq in ["writeback", "blkcg_punt_bio"]:
        put(root, "/sys/devices/virtual/workqueue/%s/cpumask" % wq, "3\n")
    thp = "/sys/kernel/mm/transparent_hugepage/"
    put(root, thp + "enabled", "always [madvise] never\n")
    put(root, thp + "defrag", "always defer defer+madvise [madvise] never\n")
    put(root, thp + "khugepaged/defrag", "1\n")
    put(root, "/sys/kernel/mm/ksm/run", "0\n")
    put(root, "/proc/self/mounts", MOUNTS_V2)
    # tasks: per-CPU kthreads, kthreadd and its children on CPU 0 (nohz_full: housekeeping
    # type KTHREAD), init's descendants on CPU 0 (isolcpus=domain), the rescuers
    for cpu in range(2):
        for n, comm in enumerate(["cpuhp/%d", "migration/%d", "ksoftirqd/%d", "kworker/%d:1"]):
            task(root, 10 + cpu * 10 + n, comm % cpu, True, str(cpu), cpu)
    task(root, 1, "systemd", False, "0", 0)
    task(root, 2, "kthreadd", True, "0", 0)
    task(root, 3, "kworker/u4:0", True, "0", 0, flags=WQ_FLAGS)
    task(root, 5, "rcu_preempt", True, "0", 0)
    task(root, 6, "rcuog/0", True, "0", 0)
    task(root, 7, "rcuop/1", True, "0", 0)
    task(root, 700, "sshd", False, "0", 0, tids=[700])
    for k, wq in enumerate(PERCPU_RESCUERS):
        task(root, 40 + k, "kworker/R-" + wq, True, "0-1", 0, flags=WQ_FLAGS)
    for k, wq in enumerate(UNBOUND_RESCUERS):
        task(root, 60 + k, "kworker/R-" + wq, True, "0", 0, flags=WQ_FLAGS)


def main():
    for name, fn in [("tuned", tuned), ("badly-tuned", badly_tuned), ("malformed", malformed),
                     ("cpus-isolcpus", cpus_isolcpus), ("cpus-partition", cpus_partition),
                     ("cpus-nohz", cpus_nohz), ("cpus-union", cpus_union),
                     ("many-cpus", many_cpus), ("tuned-6.12", tuned_612)]:
        root = os.path.join(HERE, name)
        shutil.rmtree(root, ignore_errors=True)
        fn(root)
        # an unreadable directory cannot be committed; tests create one themselves
    print("fixtures written under", HERE)


if __name__ == "__main__":
    main()
