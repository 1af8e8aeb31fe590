#!/bin/bash
# mutants_apply.sh - every fault `make mutants` plants still applies: its text is in its file
# exactly once (tests/mutants/mutants.py --list; a fault whose code moved would otherwise
# survive unnoticed, as steal-doubled did when the steal delta got its own helper).
cd "$(dirname "$0")/../.." || exit 1
python3 tests/mutants/mutants.py --list || { echo "FAIL: a mutant no longer applies (above)"; exit 1; }
