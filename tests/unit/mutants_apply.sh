#!/bin/bash
# mutants_apply.sh - every fault `make mutants` plants still applies: its text is in its file
# exactly once (tests/mutants/mutants.py --list; a fault whose code moved would otherwise
# survive unnoticed, as steal-doubled did when the steal delta got its own helper). And the
# table docs/HACKING.md keeps of their verdicts survives a --write-doc with no result stored
# on this machine (a copy of the doc rewritten from no results is the doc: every row keeps
# its verdict, where it once became "not run").
cd "$(dirname "$0")/../.." || exit 1
python3 tests/mutants/mutants.py --list || { echo "FAIL: a mutant no longer applies (above)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp docs/HACKING.md "$tmp/HACKING.md"
PYTHONPATH=tests/mutants python3 -c '
import sys, mutants
mutants.DOC = sys.argv[1]
mutants.log = lambda *a: None
mutants.write_doc({})' "$tmp/HACKING.md" || { echo "FAIL: --write-doc from no results"; exit 1; }
if ! diff -u docs/HACKING.md "$tmp/HACKING.md"; then
	echo "FAIL: --write-doc from no stored result changed the table (above)"
	exit 1
fi
echo "ok: the mutants' table kept whole by --write-doc without results"
