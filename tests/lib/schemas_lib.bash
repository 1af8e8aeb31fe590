# schemas_lib.bash - validate(), for the scripts that check outputs against docs/schema
# (schemas.sh: the saved and re-emitted documents; schemas_live.sh: fresh runs). Sourced
# after tests/lib/lib.bash; skips (or fails under CI) without python3's jsonschema.
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
