#!/bin/bash
# check_layers_test.sh - scripts/check-layers.py on small trees made here: it passes a tree
# that keeps the rules, fails one with a planted violation (naming its file and line), fails a
# flat tree, refuses a rules table it cannot read (64); and the real rules table is readable.
. "$(dirname "$0")/../integration/lib.bash"
need_cmd python3 python3
CL="$ROOT/scripts/check-layers.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$T/tree/src/lib" "$T/tree/src/model" "$T/tree/src/report" "$T/tree/include" \
	"$T/tree/docs"
cat >"$T/tree/docs/LAYERS.md" <<'MD'
# rules of a small tree
## Rules
| folder | never includes | except |
|---|---|---|
| lib | front, model, report | - |
| model | front, report | js_ok.h |
| report | front | - |
| front | - | - |
MD
echo '#include "js_util.h"' >"$T/tree/src/lib/util.c"
touch "$T/tree/src/lib/js_util.h" "$T/tree/include/js_events.h"
printf '#include <stdio.h>\n#include "js_util.h"\n#include "js_events.h"\n#include "x.skel.h"\n' \
	>"$T/tree/src/model/hist.c"
touch "$T/tree/src/model/js_hist.h" "$T/tree/src/report/js_ok.h" "$T/tree/src/report/js_out.h"
echo '#include "js_hist.h"' >"$T/tree/src/report/out.c"
echo '#include "js_ok.h" /* the exception */' >>"$T/tree/src/model/hist.c"
echo '#include "js_out.h"' >"$T/tree/src/main.c"

out=$(python3 "$CL" --root "$T/tree" 2>&1) || fail "a tree keeping its rules: $out"

# planted: the model reaches the report, lib reaches the model
echo '#include "js_out.h"' >>"$T/tree/src/model/hist.c"
printf '\n#include "js_hist.h"\n' >>"$T/tree/src/lib/util.c"
out=$(python3 "$CL" --root "$T/tree" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "planted violations: exit $rc, not 1: $out"
echo "$out" | grep -q '^src/model/hist.c:6: model includes js_out.h of report' ||
	fail "the model's violation not named with its line: $out"
echo "$out" | grep -q '^src/lib/util.c:3: lib includes js_hist.h of model' ||
	fail "lib's violation not named: $out"

# a folder with no rule is refused, not passed
mkdir -p "$T/tree/src/extra" && touch "$T/tree/src/extra/x.c"
out=$(python3 "$CL" --root "$T/tree" 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -q 'src/extra/ has no rule' || fail "an unruled folder: $out"

# flat: only audit/ and report/ beside the files: a failure (the sources left their layers)
mkdir -p "$T/flat/src/report" "$T/flat/src/audit" "$T/flat/src/model"
echo "the model's README, before its files move in" >"$T/flat/src/model/README.md"
echo '#include "js_out.h"' >"$T/flat/src/pipeline.c"
out=$(python3 "$CL" --root "$T/flat" --rules "$T/tree/docs/LAYERS.md" 2>&1)
rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'src/ is flat' || fail "flat: exit $rc: $out"

# a rules table it cannot read
printf '## Rules\n| lib | front |\n' >"$T/bad.md"
python3 "$CL" --root "$T/tree" --rules "$T/bad.md" >/dev/null 2>&1
[ $? -eq 64 ] || fail "a two-cell rule was not refused with 64"
python3 "$CL" --root "$T/tree" --rules "$T/none.md" >/dev/null 2>&1
[ $? -eq 64 ] || fail "a missing rules file was not refused with 64"

# the project's own table reads (whatever the tree's shape)
python3 - "$ROOT/docs/LAYERS.md" "$CL" <<'PY' || fail "docs/LAYERS.md does not read"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("cl", sys.argv[2])
cl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cl)
rules = cl.read_rules(sys.argv[1])
want = {"front", "measure", "probes", "attrib", "model", "report", "diff", "audit", "sys", "lib"}
sys.exit(0 if set(rules) == want else f"folders {sorted(rules)}")
PY
echo "check-layers: passes a kept tree, fails planted violations, fails a flat one"
