#!/bin/bash
# schemas.sh - docs/schema/*.schema.json against real outputs: the saved runs in
# tests/data/runs, those of an older schema (tests/data/runs-v1) re-emitted by report --json, a
# run re-emitted by report --json and a diff (fresh runs: schemas_live.sh); each schema
# rejects a document that lost a key it requires; the schema number is the same in the
# code, the schemas, docs/JSON.md and the man page.
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
exit 0
