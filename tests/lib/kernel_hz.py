# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
"""kernel_hz.py - the kernel's tick rate (CONFIG_HZ) on this machine: the one place the bench
and the integration tests learn it, so that none of them assumes HZ=250.

The kernel's configuration says it (/boot/config-RELEASE, else /proc/config.gz); without
either, the rate at which jiffies advance over 0.4 s (/proc/timer_list, root) is rounded to
the nearest whole rate. A script elsewhere puts this folder on sys.path first; a shell test
runs `python3 -m kernel_hz [timer-period]` (tests/lib/lib.bash: tick_hz), which prints
the rate, or timer_period_us() of it.

The functions taking text or numbers are pure (tests/lib/test_kernel_hz.py).
"""
import gzip
import os
import re
import sys
import time

# the rates a kernel is built with (kernel/Kconfig.hz); a measured rate within 2 % of one of
# them is that one
KNOWN_HZ = (100, 250, 300, 1000)
JIFFIES_RE = re.compile(r"^jiffies: (\d+)$", re.M)


def config_hz(text):
    """CONFIG_HZ=N in a kernel configuration's text -> N, or None"""
    m = re.search(r"^CONFIG_HZ=(\d+)$", text, re.M)
    return int(m.group(1)) if m else None


def hz_from_jiffies(j0, t0, j1, t1):
    """the tick rate from two (jiffies, seconds) readings: the known rate within 2 % of the
    measured one, else the measured one rounded; None when the readings cannot say"""
    if t1 <= t0 or j1 <= j0:
        return None
    rate = (j1 - j0) / (t1 - t0)
    for hz in KNOWN_HZ:
        if abs(rate - hz) <= 0.02 * hz:
            return hz
    return int(round(rate))


def timer_period_us(hz, longest=1000):
    """the period of an injected timer that expires 4 times a tick or more, as a 1 ms one
    does at HZ=250 (its expiries then share the tick's interrupt 1 in 4 at most): longest,
    or a quarter of the tick when the tick is shorter than 4 of them"""
    return min(longest, 1000000 // hz // 4)


def read_config():
    """the running kernel's configuration text, or None"""
    try:
        with open("/boot/config-%s" % os.uname().release) as f:
            return f.read()
    except OSError:
        pass
    try:
        with gzip.open("/proc/config.gz", "rt") as f:
            return f.read()
    except OSError:
        return None


def jiffies():
    """(jiffies, CLOCK_MONOTONIC s) now, from /proc/timer_list; None when unreadable"""
    try:
        with open("/proc/timer_list") as f:
            m = JIFFIES_RE.search(f.read())
    except OSError:
        return None
    return (int(m.group(1)), time.monotonic()) if m else None


def measured_hz(secs=0.4):
    """the rate jiffies advance at over secs, or None"""
    a = jiffies()
    time.sleep(secs)
    b = jiffies()
    return hz_from_jiffies(a[0], a[1], b[0], b[1]) if a and b else None


def kernel_hz():
    """the tick rate: CONFIG_HZ from the configuration, else measured; None when neither"""
    text = read_config()
    return (config_hz(text) if text else None) or measured_hz()


if __name__ == "__main__":
    hz = kernel_hz()
    if not hz:
        sys.exit("kernel_hz: no kernel configuration and no /proc/timer_list: tick rate unknown")
    print(timer_period_us(hz) if sys.argv[1:] == ["timer-period"] else hz)
