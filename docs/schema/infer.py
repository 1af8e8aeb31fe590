#!/usr/bin/env python3
"""infer.py - a first draft of a JSON Schema from real jitterscope outputs, to review by hand.

    python3 docs/schema/infer.py DEPTH MAPKEYS FILE... > draft.json

Every key present in every sampled object is required; scalar leaves take their observed
type or null (many keys are null in some runs: docs/JSON.md); objects whose keys are not
identifiers, or named in MAPKEYS (comma-separated, e.g. by_cause), are maps. Below DEPTH
levels only the type is given. Sample several kinds of run (probes off, --pid, arrivals,
-T auto) so that a key one kind lacks is not made required."""
import json
import re
import sys

IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")


def tname(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


def infer(vals, depth, key, maps):
    types = {tname(v) for v in vals}
    objs = [v for v in vals if isinstance(v, dict)]
    arrs = [v for v in vals if isinstance(v, list)]
    if types <= {"number", "string", "boolean", "null"}:
        types.add("null")
    t = sorted(types)
    s = {"type": t[0] if len(t) == 1 else t}
    if depth <= 0:
        return s
    if objs:
        keysets = [set(o) for o in objs]
        union = set().union(*keysets)
        if key in maps or any(not IDENT.match(k) for k in union):
            allv = [x for o in objs for x in o.values()]
            s["additionalProperties"] = infer(allv, depth - 1, "*", maps) if allv else {}
        elif union:
            s["properties"] = {
                k: infer([o[k] for o in objs if k in o], depth - 1, k, maps) for k in sorted(union)
            }
            s["required"] = sorted(set.intersection(*keysets))
    items = [x for a in arrs for x in a]
    if items:
        s["items"] = infer(items, depth - 1, key, maps)
    return s


def main():
    depth, maps = int(sys.argv[1]), set(sys.argv[2].split(","))
    docs = [json.load(open(f)) for f in sys.argv[3:]]
    print(json.dumps(infer(docs, depth, "", maps), indent=2))


if __name__ == "__main__":
    main()
