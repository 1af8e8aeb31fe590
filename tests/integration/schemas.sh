#!/bin/bash
# schemas.sh - docs/schema/*.schema.json against real outputs: the saved runs in
# tests/data/runs, those of an older schema (tests/data/runs-v1) re-emitted by report --json, a
# run re-emitted by report --json and a diff (fresh runs: schemas_live.sh); each schema
# rejects a document that lost a key it requires; the schema number is the same in the
# code, the schemas, docs/JSON.md and the man page; every key the sections' writers and
# readers share (their K_/JG_ macros, the table's rows, their field lists) is in the run
# schema.
# cpu1: none - the saved and re-emitted documents; schemas_live.sh measures the fresh ones
. "$(dirname "$0")/../lib/lib.bash"
. "$ROOT/tests/lib/schemas_lib.bash"

runs=("$ROOT"/tests/data/runs/*.json)
[ -r "${runs[0]}" ] || fail "no saved run in tests/data/runs"
out=$(validate run "${runs[@]}") || fail "saved runs: $out"
echo "ok: run schema, saved runs: $out"
# runs saved at an older schema (tests/data/runs-v1) are read by report, which re-emits them
# at the current one
for f in "$ROOT"/tests/data/runs-v1/*.json; do
	"$JS" report "$f" --json "$TMP/v1.json" >/dev/null || fail "report --json of $f exited $?"
	out=$(validate run "$TMP/v1.json") || fail "$f re-emitted: $out"
	echo "ok: run schema, $(basename "$f") re-emitted by report --json: $out"
done
"$JS" report "${runs[0]}" --json "$TMP/re.json" >/dev/null || fail "report --json exited $?"
out=$(validate run "$TMP/re.json") || fail "report --json: $out"
"$JS" diff "${runs[0]}" "$TMP/re.json" --json "$TMP/diff.json" >/dev/null || fail "diff exited $?"
out=$(validate diff "$TMP/diff.json") || fail "diff --json: $out"
echo "ok: report --json and diff --json valid: $out"

# one schema number: the code's, the schemas', docs/JSON.md's examples and the man page's
code=$(sed -n 's/^#define JS_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$ROOT/src/model/js_result.h")
[ -n "$code" ] || fail "no JS_SCHEMA_VERSION in src/model/js_result.h"
for k in run diff spike; do
	s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["properties"]["schema_version"]["const"])' "$SCHEMA/$k.schema.json")
	[ "$s" = "$code" ] || fail "$k.schema.json has schema_version $s, the code writes $code"
done
bad=$(grep -o '"schema_version": [0-9]*' "$ROOT/docs/JSON.md" | grep -v ": $code\$")
[ -z "$bad" ] && grep -q '"schema_version": ' "$ROOT/docs/JSON.md" || fail "docs/JSON.md: $bad (the code writes $code)"
grep -q "^(schema_version $code)" "$ROOT/docs/jitterscope.8" || fail "the man page does not say schema_version $code"
echo "ok: schema_version $code in the code, the schemas, docs/JSON.md and the man page"

# the keys of the saved run's sections (docs/DESIGN.md, "The saved run's sections") are in
# run.schema.json; UNDESCRIBED lists those it did not describe when this check came, so
# that a key added now comes with its schema (describe one, then take it off the list)
out=$(python3 - "$ROOT" <<'PY'
import json, re, sys
root = sys.argv[1]
UNDESCRIBED = set("""after attached_ns before bound_ns cgroup_id cgroup_name counter delay_ns
delta early gap_size_ns interruptions key kind label late learned_ns lone_gaps malformed
malformed_lines net_ns nominal_hz own_bh own_bh_ns path probability_observed programs
resumed_on_cpu step syscalls_traced test_hook touches_measured_cpu truncated type why
worst""".split())
def props(o, acc):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("properties", "patternProperties") and isinstance(v, dict):
                acc.update(v)
            props(v, acc)
    elif isinstance(o, list):
        for v in o:
            props(v, acc)
    return acc
schema = props(json.load(open(root + "/docs/schema/run.schema.json")), set())
keys = set()
for f in ("src/report/json_run.c", "src/report/json_cpu.c", "src/audit/audit_json.c",
          "src/report/js_json_gap.h", "src/report/json_gap.c"):
    s = open(root + "/" + f).read()
    keys.update(re.findall(r'^#define (?:K|JG)_\w+ "([a-z_0-9]+)"', s, re.M))
    keys.update(re.findall(r'^\t\{ "([a-z_0-9]+)", \w+, \w+ \},', s, re.M))
    keys.update(re.findall(r"JSON_FIELD\(struct \w+, (\w+),", s))
    keys.update(re.findall(r'JSON_FIELD_KEY\("([a-z_0-9]+)"', s))
if len(keys) < 200:
    sys.exit("only %d keys found in the sections' files: has their form changed?" % len(keys))
missing = sorted(keys - schema - UNDESCRIBED)
stale = sorted(UNDESCRIBED & schema)
if missing:
    sys.exit("not in run.schema.json: " + " ".join(missing))
if stale:
    sys.exit("described now, take off UNDESCRIBED: " + " ".join(stale))
print("%d keys, %d of them not described yet" % (len(keys), len(UNDESCRIBED & keys)))
PY
) || fail "section keys: $out"
echo "ok: the sections' keys are in run.schema.json: $out"
exit 0
