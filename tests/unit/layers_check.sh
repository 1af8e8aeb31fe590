#!/bin/bash
# layers_check.sh - src/ keeps the layering docs/LAYERS.md writes down, read from its
# #include lines by scripts/check-layers.py.
. "$(dirname "$0")/../integration/lib.bash"
need_cmd python3 python3
python3 "$ROOT/scripts/check-layers.py" --root "$ROOT"
