#!/bin/bash
# robust_soak_1min.sh - the one-minute version of `make soak`: a 60 s run with every output
# on and an IPI injector; jitterscope's VmRSS and VmHWM, sampled every 2 s, must not grow by
# 1 MiB or more after the first 10 s, and the outputs must be coherent (scripts/soak.sh).
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
JS_BIN=$JS "$ROOT/scripts/soak.sh" 60 10 1024 || fail "soak"
exit 0
