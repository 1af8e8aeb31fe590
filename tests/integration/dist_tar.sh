#!/bin/bash
# dist_tar.sh - issue 24: `make dist` writes build/jitterscope-VERSION-x86_64.tar.gz, the
# static binary with its documents under one top directory jitterscope-VERSION/:
#  - every entry is under that directory, owned by 0:0, with no absolute or .. path;
#  - it holds exactly: the binary (jitterscope, 0755, identical to build/static/jitterscope),
#    README.md, CHANGELOG.md, copyright (the licences of the libraries linked in),
#    scripts/capture-sysroot.sh, and every file of docs/ (the man page docs/jitterscope.8
#    among them) and contrib/, each identical to the tree's;
#  - unpacked elsewhere, the binary runs: --version prints the Makefile's VERSION, it measures
#    CPU 1 for 1 s (--no-probes: dist_static.sh runs the probes) and its report subcommand
#    reads that run's JSON.
# Root for the 1 s run (without root that part is skipped), about 4 s.
# cpu1: none - builds and unpacks the tarball; its 1 s run takes the CPU 1 lock itself
. "$(dirname "$0")/../lib/lib.bash"
. "$(dirname "$0")/../lib/dist_lib.bash"
need_cmd tar tar
need_cmd python3 python3
cd "$ROOT" || exit 1
need_static_build
dist_make dist
TAR=$ROOT/build/jitterscope-$VERSION-x86_64.tar.gz
TOP=jitterscope-$VERSION
[ -s "$TAR" ] || fail "make dist wrote no $TAR"

tar -tzvf "$TAR" --numeric-owner >"$TMP/list" || fail "tar -t $TAR"
python3 - "$TMP/list" "$TOP" <<'PY' || fail "the tarball's entries"
import sys
top = sys.argv[2]
for line in open(sys.argv[1]):
    f = line.split(None, 5)
    mode, owner, name = f[0], f[1], f[5].rstrip("\n")
    assert owner == "0/0", "%s owned by %s" % (name, owner)
    assert name == top + "/" or name.startswith(top + "/"), "outside %s/: %s" % (top, name)
    assert "/../" not in "/" + name + "/", name
    assert mode[0] in "-d", "not a file or directory: %s" % line
PY
echo "ok: every entry under $TOP/, owned by 0:0"

# exactly these files, each the tree's
{
	printf '%s\n' jitterscope README.md copyright scripts/capture-sysroot.sh
	[ -f CHANGELOG.md ] && echo CHANGELOG.md
	for f in LICENSE* COPYING*; do [ -f "$f" ] && echo "$f"; done
	find docs contrib -type f
} | sort >"$TMP/want"
tar -tzf "$TAR" | sed -n "s|^$TOP/||p" | grep -v '/$' | grep . | sort >"$TMP/have"
if ! diff -u "$TMP/want" "$TMP/have" >"$TMP/diff"; then
	cat "$TMP/diff"
	fail "the tarball's files (- expected, + found)"
fi
grep -qx docs/jitterscope.8 "$TMP/have" || fail "no docs/jitterscope.8"
mkdir "$TMP/u" && tar -xzf "$TAR" -C "$TMP/u" || fail "tar -x"
U=$TMP/u/$TOP
cmp -s "$U/jitterscope" "$STATIC" || fail "jitterscope is not build/static/jitterscope"
[ "$(stat -c %a "$U/jitterscope")" = 755 ] || fail "jitterscope mode $(stat -c %a "$U/jitterscope")"
[ "$(stat -c %a "$U/scripts/capture-sysroot.sh")" = 755 ] || fail "capture-sysroot.sh not executable"
while read -r f; do
	case "$f" in
	jitterscope) ;;
	copyright) cmp -s "$U/$f" packaging/copyright || fail "$f differs from packaging/copyright" ;;
	*) cmp -s "$U/$f" "$f" || fail "$f differs from the tree's" ;;
	esac
done <"$TMP/want"
echo "ok: $(wc -l <"$TMP/have") files, as expected, identical to the tree's"

# the binary, from where it was unpacked
v=$("$U/jitterscope" --version) || fail "--version exited $?"
[ "$v" = "jitterscope $VERSION" ] || fail "--version: '$v'"
echo "ok: $TOP/jitterscope --version: $v"
if [ "$(id -u)" -eq 0 ] && [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	"$ROOT/scripts/cpu1-lock" "$U/jitterscope" --cpu 1 --duration 1 --no-probes -q --json "$TMP/run.json" >/dev/null \
		2>"$TMP/run.err" || fail "a 1 s --no-probes run exited $?: $(cat "$TMP/run.err")"
	"$U/jitterscope" report "$TMP/run.json" >"$TMP/report.txt" 2>&1 ||
		fail "report exited $?: $(head -n 3 "$TMP/report.txt")"
	grep -q '^CPU 1 ' "$TMP/report.txt" || fail "report: no CPU 1 section"
	echo "ok: a 1 s --no-probes run on CPU 1, and its report"
else
	echo "skip run: the 1 s run on CPU 1 needs root and 2 CPUs"
fi
echo "ok: $(stat -c %s "$TAR") bytes"
