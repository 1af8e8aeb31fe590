#!/bin/bash
# layers_check.sh - src/ keeps the layering docs/LAYERS.md writes down, read from its
# #include lines by scripts/check-layers.py. A skip while src/ is still flat (before
# scripts/relayout.sh): there are no layer folders to check yet.
. "$(dirname "$0")/../integration/lib.bash"
need_cmd python3 python3
python3 "$ROOT/scripts/check-layers.py" --root "$ROOT"
