#!/bin/bash
# schemas.sh - docs/schema/*.schema.json against real outputs: the saved runs in
# tests/data/runs, those of an older schema (tests/data/runs-v1) re-emitted by report --json, a
# run re-emitted by report --json, a diff, and (root, CPU 1) a fresh 1 s run with its spike
# files (--stacks), one stopped by SIGINT with --probe-cost and one of -- CMD; each schema rejects a document that lost a
# key it requires; the schema number is the same in the code, the schemas, docs/JSON.md and
# the man page.
. "$(dirname "$0")/lib.bash"

python3 -c 'import jsonschema' 2>/dev/null || missing python3-jsonschema "no python3 jsonschema module"
SCHEMA=$ROOT/docs/schema

# validate KIND FILE... - each FILE is valid against KIND.schema.json, and every key the
# schema requires (at the top, and in the first measured CPU of a run) taken out of it
# makes it invalid
validate() {
	python3 - "$SCHEMA/$1.schema.json" "${@:2}" <<'PY'
import copy, json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
V = jsonschema.Draft202012Validator
V.check_schema(schema)
v = V(schema)
n = 0
for f in sys.argv[2:]:
    doc = json.load(open(f))
    errs = sorted(v.iter_errors(doc), key=str)
    if errs:
        sys.exit("%s: %s at %s" % (f, errs[0].message, list(errs[0].absolute_path)))
    # each required key, gone: invalid
    places = [((), schema)]
    if doc.get("cpus") and "items" in schema["properties"].get("cpus", {}):
        places.append((("cpus", 0), schema["properties"]["cpus"]["items"]))
    for path, sub in places:
        for key in sub.get("required", []):
            d = copy.deepcopy(doc)
            o = d
            for p in path:
                o = o[p]
            del o[key]
            if v.is_valid(d):
                sys.exit("%s without %s%s is still valid" % (f, "".join("%s." % p for p in path), key))
            n += 1
print("%d files valid, %d documents missing a required key rejected" % (len(sys.argv) - 2, n))
PY
}

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

# a fresh run, with spike files
if [ "$(id -u)" -ne 0 ] || [ "$(nproc)" -lt 2 ]; then
	echo "skip PART: fresh runs: need root and 2 CPUs"
	exit 0
fi
"$JS" --cpu 1 -d 1 -q --stacks --json "$TMP/run.json" --spike-dir "$TMP/spikes" --spike-threshold 1us \
	--spike-max 3 >/dev/null 2>"$TMP/err" || fail "the run exited $? ($(cat "$TMP/err"))"
out=$(validate run "$TMP/run.json") || fail "fresh run: $out"
spikes=("$TMP"/spikes/spike-*-cpu1.json)
[ -r "${spikes[0]}" ] || fail "no spike file in 1 s at a 1 us threshold"
out=$(validate spike "${spikes[@]}") || fail "spike files: $out"
echo "ok: a fresh run and its ${#spikes[@]} spike files valid: $out"
# a run that fills what a short quiet one leaves null or false: Ctrl-C (interrupted),
# --probe-cost (probes.cost)
"$JS" --cpu 1 -d 10 -q --probe-cost --json "$TMP/int.json" >/dev/null 2>"$TMP/err" &
pid=$!
sleep 2.5
kill -INT "$pid"
wait "$pid" || fail "the interrupted run exited $? ($(cat "$TMP/err"))"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
assert r["interrupted"] and r["probes"]["cost"], (r["interrupted"], r["probes"]["cost"])' \
	"$TMP/int.json" || fail "the interrupted run is not marked so, or has no probes.cost"
out=$(validate run "$TMP/int.json") || fail "interrupted run with --probe-cost: $out"
echo "ok: a run stopped by SIGINT, with --probe-cost, valid: $out"
# a run of -- CMD (command, follow, threads filled), and its command read back by report
"$JS" -q --json "$TMP/cmd.json" -- sh -c 'sleep 0.3; exit 3' >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 3 ] || fail "the run of -- CMD exited $rc, not CMD's 3 ($(cat "$TMP/err"))"
"$JS" report "$TMP/cmd.json" --json "$TMP/cmd2.json" >/dev/null || fail "report of -- CMD: $?"
python3 -c 'import json, sys; a, b = (json.load(open(f))["command"] for f in sys.argv[1:])
assert a == b and a["exit_status"] == 3 and a["mode"] == "follow", (a, b)' \
	"$TMP/cmd.json" "$TMP/cmd2.json" || fail "the command is not read back as written"
out=$(validate run "$TMP/cmd.json" "$TMP/cmd2.json") || fail "run of -- CMD: $out"
echo "ok: a run of -- CMD and its report --json valid: $out"
exit 0
