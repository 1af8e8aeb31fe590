#!/bin/sh
# valgrind-unit.sh TEST... - run unit test binaries under valgrind's memcheck: any invalid
# read/write, use of uninitialised memory or definite leak fails the test.
# Exit status: 0 when nothing failed.
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
pass=0 fail=0 failed=""
log=$(mktemp /tmp/jsvalgrind.XXXXXX)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
	start=$(date +%s)
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --track-origins=yes "./$t" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS: valgrind $t (${secs}s)"
	else
		fail=$((fail + 1)); failed="$failed $t"; echo "FAIL: valgrind $t (rc $rc, ${secs}s)"
		grep -E '^==[0-9]+==' "$log" | head -40
	fi
done
[ -n "$failed" ] && echo "failed (valgrind):$failed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
