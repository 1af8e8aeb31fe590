#!/bin/bash
# measure_threshold_auto.sh - `--threshold auto` on CPU 1 judged against gap rates the test
# makes (tests/integration/threshold_auto.py says how): jsinject's timer on CPU 1 at a rate
# housekeeping drains (about 8 000 gaps/s: every injected gap recorded, the floor never raised
# over them) and at one it does not (about 30 000/s: the floor raised, the CSV's rate within
# 1.25 x the rule's maximum); each run also agrees with itself (floor = 8 x loop min, the
# report, the JSON, the hlog header and `report` of the saved run; nothing dropped). Never
# judged on the trial's own figures: they are printed. Exit 75 when a part failed while the
# host's own gap rate (jsloop, not jitterscope) left it no room. Root, kernel BTF, CPU 1
# (77 otherwise); about 12 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
python3 "$ROOT/tests/integration/threshold_auto.py" --dir "$TMP"
