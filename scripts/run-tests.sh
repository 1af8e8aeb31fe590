#!/bin/sh
# run-tests.sh KIND TEST... - run unit test binaries and integration scripts,
# print each result and a closing "N passed, N failed, N skipped" line.
# An integration script exits 0 (pass), 77 (skip: e.g. not root) or anything
# else (fail). Exit status: 0 when nothing failed.
# Integration scripts measure CPU 1 and need it to themselves: each runs under an exclusive
# lock (JS_CPU1_LOCK, default /tmp/jitterscope-cpu1.lock) that make bench and make soak take
# too, so two checkouts testing on one machine wait for each other instead of colliding.
kind=$1
shift
pass=0 fail=0 skip=0 failed=""
for t in "$@"; do
	[ -e "$t" ] || continue
	start=$(date +%s)
	case "$t" in
	*.sh) scripts/cpu1-lock bash "$t" ;;
	*) "./$t" ;;
	esac
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS: $t (${secs}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "SKIP: $t"
	else
		fail=$((fail + 1)); failed="$failed $t"; echo "FAIL: $t (rc $rc, ${secs}s)"
	fi
done
[ -n "$failed" ] && echo "failed ($kind):$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
