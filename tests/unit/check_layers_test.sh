#!/bin/bash
# check_layers_test.sh - scripts/check-layers.py on small trees made here: it passes a tree
# that keeps the rules, fails one with a planted violation (naming its file and line), fails a
# planted call across layers that no #include shows (read from the objects built here; one
# from model/ into audit/ under the project's own docs/LAYERS.md), fails
# a flat tree, refuses a rules table it cannot read (64); and the real rules table is readable.
. "$(dirname "$0")/../lib/lib.bash"
need_cmd python3 python3
need_cmd cc gcc
need_cmd nm binutils
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
# no build/ beside it: said, and the #include lines checked alone
echo "$out" | grep -q 'no objects in build/ (make builds them): calls not checked' ||
	fail "no objects not said: $out"

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

# calls: a small tree built into its build/ (an object named by its file alone, as the
# Makefile names them). The model calls the report's ok_fn, which js_ok.h (its row's
# exception) declares, and lib's util_fn: it keeps its rules
mkdir -p "$T/calls/src/lib" "$T/calls/src/model" "$T/calls/src/report" "$T/calls/build"
echo 'int util_fn(void) { return 1; }' >"$T/calls/src/lib/util.c"
echo 'int util_fn(void);' >"$T/calls/src/lib/js_util.h"
echo 'int ok_fn(void);' >"$T/calls/src/report/js_ok.h"
printf '#include "js_util.h"\nint ok_fn(void) { return util_fn(); }\n' >"$T/calls/src/report/ok.c"
printf '#include "js_util.h"\nint out_fn(void) { return util_fn(); }\n' >"$T/calls/src/report/out.c"
printf '#include "js_util.h"\n#include "js_ok.h"\n\nint hist_fn(void)\n{\n%s\n}\n' \
	'	return util_fn() + ok_fn();' >"$T/calls/src/model/hist.c"
printf 'int out_fn(void);\nint hist_fn(void);\nint main(void) { return out_fn() + hist_fn(); }\n' \
	>"$T/calls/src/main.c"
build() {
	(cd "$T/calls" && for c in src/*.c src/*/*.c; do
		o=build/$(basename "${c%.c}").o
		cc -c -Isrc/lib -Isrc/report "$c" -o "$o" || exit 1
	done) || fail "a small tree does not build"
}
calls() { python3 "$CL" --root "$T/calls" --rules "$T/tree/docs/LAYERS.md" "$@" 2>&1; }
build
out=$(calls) || fail "a tree whose calls keep their rules: $out"
echo "$out" | grep -q "keep their rules (#include lines and the objects' calls)" ||
	fail "the objects not read: $out"

# planted: the model calls the report's out_fn, declared by hand (no #include to see)
printf 'int out_fn(void);\n\nint hist_more(void)\n{\n\treturn out_fn();\n}\n' \
	>"$T/calls/src/model/more.c"
build
out=$(calls)
rc=$?
[ $rc -eq 1 ] || fail "a planted call: exit $rc, not 1: $out"
echo "$out" | grep -q '^src/model/more.c:5: model calls out_fn of report (src/report/out.c)' ||
	fail "the planted call not named with its caller, symbol and callee: $out"
[ "$(echo "$out" | grep -c ' calls ')" -eq 1 ] || fail "more than the planted call: $out"

# its object not built: said, and its call not seen; no objects at all: #include lines only
rm "$T/calls/build/more.o"
out=$(calls) || fail "an unbuilt source failed the check: $out"
echo "$out" | grep -q 'without an object in build/ (src/model/more.c)' ||
	fail "the source without an object not said: $out"
out=$(calls --objdir "$T/none") || fail "no objects failed the check: $out"
echo "$out" | grep -q 'keep their rules (#include lines only)' || fail "no objects: $out"

# the project's own rules: the model holds the audit's record and calls nothing of the audit;
# a call from model/ into audit/, declared by hand (no #include to see), fails them
mkdir -p "$T/real/src/model" "$T/real/src/audit" "$T/real/build"
printf 'void audit_free(void *a) { (void)a; }\nint audit_run(void) { return 0; }\n' \
	>"$T/real/src/audit/audit.c"
printf 'int audit_run(void);\n\nint run_record(void)\n{\n\treturn audit_run();\n}\n' \
	>"$T/real/src/model/planted.c"
(cd "$T/real" && for c in src/*/*.c; do cc -c "$c" -o "build/$(basename "${c%.c}").o" || exit 1; done) ||
	fail "the planted tree does not build"
out=$(python3 "$CL" --root "$T/real" --rules "$ROOT/docs/LAYERS.md" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "a planted model -> audit call under docs/LAYERS.md: exit $rc, not 1: $out"
echo "$out" | grep -q '^src/model/planted.c:5: model calls audit_run of audit (src/audit/audit.c)' ||
	fail "the planted model -> audit call not named: $out"

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
echo "check-layers: passes a kept tree, fails planted includes and calls, fails a flat one"
