#!/usr/bin/env python3
"""markfeed.py FILE RATE - append RATE marks a second to FILE (jitterscope --marks) until
killed: every millisecond, one write of RATE/1000 lines, intervals of 20 us spread over the
millisecond before (CLOCK_MONOTONIC ns), as an application marking its iterations would.
bench/run.py's redis section feeds a followed redis-server's --marks file with it."""
import os
import sys
import time


def main():
    path, rate = sys.argv[1], int(sys.argv[2])
    per = max(1, rate // 1000)
    step = 1000000 // per
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    nxt = time.monotonic_ns()
    while True:
        now = time.monotonic_ns()
        base = now - 1000000
        os.write(fd, b''.join(b'%d,%d,feed\n' % (base + i * step, base + i * step + 20000)
                              for i in range(per)))
        nxt += 1000000
        delay = nxt - time.monotonic_ns()
        if delay > 0:
            time.sleep(delay / 1e9)
        else:
            nxt = time.monotonic_ns()   # late: no burst to catch up


if __name__ == '__main__':
    main()
