#!/bin/bash
# layers_check.sh - src/ keeps the layering docs/LAYERS.md writes down, read from its
# #include lines and, once built (make unit builds them), its objects' calls by
# scripts/check-layers.py.
. "$(dirname "$0")/../lib/lib.bash"
need_cmd python3 python3
out=$(python3 "$ROOT/scripts/check-layers.py" --root "$ROOT" 2>&1) || fail "$out"
echo "$out"
# the library built: its objects are there, and their calls must have been read
if [ -e "$ROOT/build/libjitterscope.a" ]; then
	echo "$out" | grep -q "keep their rules (#include lines and the objects' calls)" ||
		fail "build/ holds the objects, yet their calls were not read: $out"
fi
