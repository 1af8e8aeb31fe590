#!/bin/bash
# hdr_interop.sh - our .hlog decodes in the Java reference implementation
# (Debian libhdrhistogram-java 2.1.11, org.HdrHistogram.HistogramLogProcessor) and
# Java's figures equal ours: total count, max, 50/90/99th percentiles (accumulated,
# untagged and Tag=cpu3), the full .hgrm table (numerically; byte identity reported),
# and -listtags shows cpu3. The sample log and our own numbers come from
# build/tests/test_hlog (or $JS_TEST_HLOG) with JS_HLOG_OUT set.
# Skips without Java (a failure under CI=true: scripts/install-deps.sh installs it).
# cpu1: none - reads a saved .hlog with Java, measures nothing
. "$(dirname "$0")/../lib/lib.bash"
cd "$ROOT" || exit 1

JAR=/usr/share/java/hdrhistogram.jar
TEST_BIN=${JS_TEST_HLOG:-build/tests/test_hlog}

note() { echo "hdr_interop: $*"; }

need_cmd java default-jre-headless
need_file "$JAR" libhdrhistogram-java
if [ ! -x "$TEST_BIN" ]; then
	make -s "$TEST_BIN" >/dev/null || fail "cannot build $TEST_BIN"
fi

JS_HLOG_OUT=$TMP/s.hlog "$TEST_BIN" >"$TMP/unit.out" 2>&1 ||
	{ cat "$TMP/unit.out" >&2; fail "$TEST_BIN failed"; }
for f in s.hlog s.hlog.expect s.hlog.untagged.hgrm s.hlog.cpu3.hgrm; do
	[ -s "$TMP/$f" ] || fail "$TEST_BIN did not write $f"
done

# hlp NAME ARGS... - run HistogramLogProcessor, output to $TMP/NAME and $TMP/NAME.hgrm
hlp() {
	local name=$1 rc
	shift
	java -cp "$JAR" org.HdrHistogram.HistogramLogProcessor -i "$TMP/s.hlog" \
		-outputValueUnitRatio 1 -o "$TMP/$name" "$@" \
		>"$TMP/$name.stdout" 2>"$TMP/$name.stderr"
	rc=$?
	if [ $rc -ne 0 ]; then
		cat "$TMP/$name.stderr" >&2
		fail "HistogramLogProcessor $* exited $rc"
	fi
	if grep -q 'Exception' "$TMP/$name.stderr"; then
		cat "$TMP/$name.stderr" >&2
		fail "HistogramLogProcessor $* threw"
	fi
	[ -s "$TMP/$name.hgrm" ] || fail "HistogramLogProcessor $* wrote no .hgrm"
}

# expect KEY FIELD - a figure of our own from s.hlog.expect (e.g. expect cpu3 total)
expect() {
	awk -v k="$1" -v f="$2" '$1 == k { for (i = 2; i <= NF; i++) { split($i, a, "=");
		if (a[1] == f) print a[2] } }' "$TMP/s.hlog.expect"
}

# compare_hgrm JAVA OURS - numeric comparison (printf tie rounding: docs/DESIGN.md)
compare_hgrm() {
	sed '/^#\[Overall percentile distribution/d; /^#\[StartTime:/d' "$1" >"$1.body"
	if cmp -s "$1.body" "$2"; then
		note "$(basename "$2"): byte-identical to Java's"
		return 0
	fi
	note "$(basename "$2"): differs in bytes from Java's, comparing numerically"
	awk 'function abs(x) { return x < 0 ? -x : x }
	function nums(s, out) { gsub(/[^0-9.]+/, " ", s); return split(s, out) }
	function bad(n) { printf "line %d: java [%s] ours [%s]\n", n, j[n], $0; err = 1 }
	NR == FNR { j[FNR] = $0; nj = FNR; next }
	$0 == j[FNR] { next }
	/^#\[Mean/ {
		nums(j[FNR], a); nums($0, b)
		if (abs(a[1] - b[1]) > 0.0011 || abs(a[2] - b[2]) > 0.0011) bad(FNR)
		next
	}
	{
		split(j[FNR], a)
		if ($0 ~ /^#/ || NF < 3 || NF != length(a)) { bad(FNR); next }
		if (abs($1 - a[1]) > 0.0011 || abs($2 - a[2]) > 1.001e-12 || $3 != a[3]) bad(FNR)
		if (NF == 4 && abs($4 - a[4]) > 0.0101) bad(FNR)
	}
	END { if (FNR != nj) { print "line count differs"; err = 1 } exit err }' \
		"$1.body" "$2" || fail "$(basename "$2") differs from Java's"
}

# check_figures NAME KEY - Java's Total count/Max footer and T: percentiles equal ours
check_figures() {
	local name=$1 key=$2 total max got want
	local num='\([0-9]*\)\.000'
	total=$(expect "$key" total)
	max=$(expect "$key" max)
	if [ -z "$total" ] || [ -z "$max" ]; then
		fail "no expected figures for $key"
	fi
	got=$(sed -n 's/^#\[Max *= *\([0-9.]*\), Total count *= *\([0-9]*\)\]$/\1 \2/p' \
		"$TMP/$name.hgrm")
	[ "$got" = "$max.000 $total" ] || fail "$key: Java Max/Total '$got', ours '$max.000 $total'"
	# last interval line: T:count ( 50% 90% 99% 99.9% 99.99% Max )
	got=$(tail -n 1 "$TMP/$name" |
		sed -n "s/.*T:\([0-9]*\) ( $num $num $num .* $num )\$/\1 \2 \3 \4 \5/p")
	want="$total $(expect "$key" p50) $(expect "$key" p90) $(expect "$key" p99) $max"
	[ "$got" = "$want" ] ||
		fail "$key: Java accumulated 'count p50 p90 p99 max' = '$got', ours '$want'"
	note "$key: Java total=$total max=$max p50/p90/p99 equal ours"
}

hlp untagged
hlp cpu3 -tag cpu3
compare_hgrm "$TMP/untagged.hgrm" "$TMP/s.hlog.untagged.hgrm"
compare_hgrm "$TMP/cpu3.hgrm" "$TMP/s.hlog.cpu3.hgrm"
check_figures untagged untagged
check_figures cpu3 cpu3

java -cp "$JAR" org.HdrHistogram.HistogramLogProcessor -i "$TMP/s.hlog" -listtags \
	>"$TMP/tags" 2>&1 || fail "-listtags exited $?"
grep -qx 'cpu3' "$TMP/tags" || { cat "$TMP/tags" >&2; fail "-listtags does not show cpu3"; }
note "PASS ($(grep -c '^[0-9T]' "$TMP/s.hlog") intervals decoded by Java HdrHistogram)"
exit 0
