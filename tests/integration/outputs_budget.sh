#!/bin/bash
# outputs_budget.sh - --budget end to end on real runs on CPU 1: a limit below the run's
# (gaps=0, max=1ns) exits 2 with an EXCEEDED line; one within it (max=3600s) exits 0 with an
# ok line.
. "$(dirname "$0")/lib.bash"
need_root
need_cpu1
note() { echo "outputs_budget: $*"; }

# --budget: a limit below the run's max must exit 2 (commands.c applies it: no "not wired yet"
# skip any more, it would pass whatever --budget does)
"$JS" --cpu 1 --duration 1 -q --budget 'gaps=0,max=1ns' >"$TMP/b.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--budget gaps=0,max=1ns exited $rc, want 2: $(tail -3 "$TMP/b.out")"
grep -q '^budget max=1ns on CPU 1: .*  EXCEEDED$' "$TMP/b.out" ||
	fail "no EXCEEDED line: $(grep '^budget' "$TMP/b.out")"
"$JS" --cpu 1 --duration 1 -q --budget 'max=3600s' >"$TMP/b2.out" 2>&1 ||
	fail "--budget max=3600s exited $? ($(tail -3 "$TMP/b2.out"))"
grep -q '^budget max=3600s on CPU 1: .*  ok$' "$TMP/b2.out" ||
	fail "no ok line: $(grep '^budget' "$TMP/b2.out")"
note "--budget: exit 2 on a violation, 0 within limits"
note "PASS"
exit 0
