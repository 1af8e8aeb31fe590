#!/bin/bash
# skips_allowed.sh - the skips CI allows (tests/skips-allowed.txt, docs/HACKING.md "Tests and
# benchmarks"): every test the list names exists and HACKING.md's table is the one the list
# gives (scripts/skips-allowed.py check), a check that fails on a missing test, on a part no
# test prints and on a stale table; and scripts/run-tests.sh on stand-in tests with a stand-in list (JS_SKIPS_ALLOWED):
# under CI=true a skip the list does not allow fails its test (a whole skip, a passing
# script's "skip PART:" line, a unit binary's skipped case), a listed one does not; outside CI
# the same skips pass, listed and marked "(not on the CI list)".
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d /tmp/skips_allowed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
bad=0
ok() { echo "ok: $1"; }
no() { echo "FAIL: $1"; bad=1; }
check() { # check WHAT GREP-PATTERN FILE
	if grep -qE -- "$2" "$3"; then ok "$1"; else no "$1 (no '$2' in $3)"; cat "$3"; fi
}
absent() { # absent WHAT GREP-PATTERN FILE
	if grep -qE -- "$2" "$3"; then no "$1 ('$2' in $3)"; cat "$3"; else ok "$1"; fi
}

# the list and the doc of this tree
if scripts/skips-allowed.py check >"$tmp/check" 2>&1; then
	ok "tests/skips-allowed.txt: every test exists, docs/HACKING.md's table is current"
else
	no "scripts/skips-allowed.py check: $(cat "$tmp/check")"
fi
# ... and the check fails on a test that does not exist and on a stale table
printf '# a stand-in\ntests/integration/no_such_test.sh\t-\tgone$\ta test\n' >"$tmp/list"
{ echo "# doc"; sed -n '/^<!-- skips table: /p' docs/HACKING.md; echo "| stale |"
  sed -n '/^<!-- end of the skips table -->/p' docs/HACKING.md; } >"$tmp/doc.md"
JS_SKIPS_ALLOWED=$tmp/list scripts/skips-allowed.py --doc-file "$tmp/doc.md" check \
	>"$tmp/bad" 2>&1
st=$?
[ $st -eq 1 ] && ok "check: exit 1 on a bad list" || no "check: exit $st on a bad list, want 1"
check "check: a test that does not exist" 'no test tests/integration/no_such_test.sh' "$tmp/bad"
check "check: a stale table" 'its skips table is not what .* gives' "$tmp/bad"
JS_SKIPS_ALLOWED=$tmp/list scripts/skips-allowed.py --doc-file "$tmp/doc.md" doc --write
check "doc --write: the table from the list" '^\| `no_such_test.sh` \| `skip:` \| `gone\$` \| a test \|$' \
	"$tmp/doc.md"
absent "doc --write: the stale table gone" 'stale' "$tmp/doc.md"
# ... and on a part no test prints (its skip would fail CI whatever the list says)
printf 'tests/unit/test_smi.c\tnever\tprinted here$\tnothing\n' >"$tmp/list4"
JS_SKIPS_ALLOWED=$tmp/list4 scripts/skips-allowed.py check >"$tmp/bad4" 2>&1
st=$?
[ $st -eq 1 ] && ok "check: exit 1 on a part no test prints" ||
	no "check: exit $st on a part no test prints, want 1"
check "check: names the part no test prints" 'no test of it prints "skip never: printed here"' \
	"$tmp/bad4"
printf 'tests/unit/skips_allowed.sh -\tx\ty\n' >"$tmp/list3"
JS_SKIPS_ALLOWED=$tmp/list3 scripts/skips-allowed.py check >"$tmp/bad3" 2>&1
st=$?
[ $st -eq 64 ] && ok "a line without its four tab-separated fields is refused (64)" ||
	no "a line without its four tab-separated fields: exit $st, want 64"

# the runner on stand-ins: S/NAME.sh prints LINES and exits RC
mkdir -p "$tmp/s"
stand_in() { # stand_in NAME RC LINE...
	local n=$1 rc=$2
	shift 2
	{ printf 'echo %q\n' "$@"; echo "exit $rc"; } >"$tmp/s/$n.sh"
}
stand_in whole_listed 77 "skip: no widget (a kernel without CONFIG_WIDGET)"
stand_in whole_unlisted 77 "skip: no gadget here"
stand_in part_listed 0 "ok: the rest" "skip PART: widget floor: the host gave 0 widgets"
stand_in part_unlisted 0 "ok: the rest" "skip PART: gadget floor: 0 gadgets"
stand_in part_listed_plain 0 "ok: the rest" "skip: no widget (a kernel without CONFIG_WIDGET)"
# a unit binary (cmocka's output) with a case skipped with its reason
unit() { # unit NAME REASON
	cat >"$tmp/s/$1" <<EOT
#!/bin/sh
printf '%s\n' '[==========] Running 2 test(s).' '[ RUN      ] test_a' 'skip: $2' \
	'[  SKIPPED ] test_a' '[ RUN      ] test_b' '[       OK ] test_b' \
	'[==========] 2 test(s) run.' '[  PASSED  ] 1 test(s).' \
	'[  SKIPPED ] 1 test(s), listed below:' '[  SKIPPED ] test_a'
EOT
	chmod +x "$tmp/s/$1"
}
unit test_listed "no widget (a kernel without CONFIG_WIDGET)"
unit test_unlisted "no gadget here"
printf '%s\t%s\t%s\t%s\n' \
	"tests/integration/whole_listed.sh tests/integration/part_listed_plain.sh" - \
	'no widget \(a kernel without CONFIG_WIDGET\)$' "a widget" \
	"tests/integration/part_*.sh" PART 'widget floor: ' "a widget floor" \
	"tests/unit/test_listed.c" - 'no widget ' "a widget" >"$tmp/list2"
run() { # run OUT CI TESTS... - the runner on the stand-ins; its exit status in OUT.rc
	local out=$1 ci=$2
	shift 2
	CI=$ci JS_SKIPS_ALLOWED="$tmp/list2" JS_TEST_LOGS="$tmp/logs" JS_CPU1_LOCK="$tmp/lock" \
		scripts/run-tests.sh unit "${@/#/$tmp/s/}" >"$out" 2>&1
	echo $? >"$out.rc"
}
run "$tmp/ci_listed" true whole_listed.sh part_listed.sh part_listed_plain.sh test_listed
check "CI=true: listed skips pass" '^0$' "$tmp/ci_listed.rc"
check "... counted as before" '^3 passed, 0 failed, 1 skipped; 3 case\(s\) skipped inside 3 passing' \
	"$tmp/ci_listed"
absent "... none marked" 'not on the CI list' "$tmp/ci_listed"
# the three unlisted kinds in one run each way: under CI each test fails (3 of 3, each with
# its FAIL line below), outside it each passes and is listed, marked
unlisted="whole_unlisted.sh part_unlisted.sh test_unlisted"
run "$tmp/ci_unlisted" true $unlisted
check "CI=true: unlisted skips fail the run" '^1$' "$tmp/ci_unlisted.rc"
check "... each test failed" '^0 passed, 3 failed, 0 skipped$' "$tmp/ci_unlisted"
run "$tmp/local_unlisted" false $unlisted
check "outside CI: they pass" '^0$' "$tmp/local_unlisted.rc"
for t in $unlisted; do
	check "... $t listed, marked" "^  .*/s/$t.*: .*gadget.* \(not on the CI list\)$" \
		"$tmp/local_unlisted"
done
check "whole skip: its FAIL line" \
	'^FAIL: .*/whole_unlisted.sh: skip not in .*/list2: no gadget here$' "$tmp/ci_unlisted"
check "... said again at the end" '^    FAIL: .*/whole_unlisted.sh: skip not in ' \
	"$tmp/ci_unlisted"
check "a passing script's part: its FAIL line" \
	'^FAIL: .*/part_unlisted.sh: skip not in .*/list2: PART: gadget floor: 0 gadgets$' \
	"$tmp/ci_unlisted"
check "a unit binary's skipped case: its FAIL line" \
	'^FAIL: .*/test_unlisted: skip not in .*/list2: no gadget here$' "$tmp/ci_unlisted"
# a listed reason under another test's name, and the listed part under another PART, are not
# allowed
stand_in other_test 77 "skip: no widget (a kernel without CONFIG_WIDGET)"
stand_in part_other 0 "skip cgroup: widget floor: the host gave 0 widgets"
run "$tmp/ci_other" true other_test.sh part_other.sh
check "CI=true: a reason listed for another test, or as another part, fails" \
	'^0 passed, 2 failed, 0 skipped$' "$tmp/ci_other"
exit $bad
