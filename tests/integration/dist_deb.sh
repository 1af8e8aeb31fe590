#!/bin/bash
# dist_deb.sh - issue 24: `make deb` writes build/jitterscope_VERSION_amd64.deb (dpkg-deb), and
# it installs, works and purges cleanly:
#  - control: Package jitterscope, Version VERSION, Architecture amd64, no Depends (the binary
#    is static), Built-Using naming the libraries linked in (libbpf, libmicrohttpd, glibc);
#  - contents: /usr/bin/jitterscope (identical to build/static/jitterscope),
#    /usr/bin/jitterscope-capture-sysroot, the man page gzipped in /usr/share/man/man8,
#    /usr/share/doc/jitterscope with copyright and FLEET.md, /lib/systemd/system/jitterscope.service
#    whose ExecStart (and Documentation) name the package's own paths;
#  - dpkg -i: jitterscope on the PATH is /usr/bin/jitterscope, --version says VERSION, a 1 s
#    --no-probes run on CPU 1 writes its JSON, man -w finds the page, systemd-analyze verify
#    passes on the installed unit without a warning (its ExecStart exists, its man: page
#    too; skipped without systemd-analyze), jitterscope-capture-sysroot
#    captures a sysroot that `jitterscope check --sysroot` reads;
#  - dpkg -P: the package is gone, and so is every file it installed and every directory it
#    created (dpkg-deb -c against the file system).
# It must not touch a jitterscope the machine already has: a jitterscope package installed, or
# any of the package's files present, skips. Root only (77 otherwise), about 10 s.
# cpu1: none - builds and installs the package; its 1 s run takes the CPU 1 lock itself
. "$(dirname "$0")/../lib/lib.bash"
. "$(dirname "$0")/../lib/dist_lib.bash"
need_root
need_cpu1
need_cmd dpkg-deb dpkg
need_cmd man man-db
need_cmd python3 python3
cd "$ROOT" || exit 1
need_static_build
dist_make deb
DEB=$ROOT/build/jitterscope_${VERSION}_amd64.deb
[ -s "$DEB" ] || fail "make deb wrote no $DEB"

# ---- the control file
field() { dpkg-deb -f "$DEB" "$1"; }
[ "$(field Package)" = jitterscope ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$VERSION" ] || fail "Version: $(field Version), want $VERSION"
[ "$(field Architecture)" = amd64 ] || fail "Architecture: $(field Architecture)"
[ -z "$(field Depends)$(field Pre-Depends)" ] || fail "Depends: $(field Depends)$(field Pre-Depends)"
bu=$(field Built-Using)
for src in libbpf libmicrohttpd glibc; do
	echo "$bu" | grep -q "\b$src (= " || fail "Built-Using names no $src: $bu"
done
echo "ok: control: jitterscope $VERSION amd64, no Depends, Built-Using: $bu"

# ---- the contents
dpkg-deb -c "$DEB" | awk '{ print $1, $6 }' | sed 's| \./| /|; s|/$||' >"$TMP/contents"
# PATHS: every path in the package (/ itself left out); FILES: its files and links
awk '$2 != "" { print $2 }' "$TMP/contents" | sort >"$TMP/paths"
awk '$2 != "" && $1 !~ /^d/ { print $2 }' "$TMP/contents" | sort >"$TMP/files"
for f in /usr/bin/jitterscope /usr/bin/jitterscope-capture-sysroot \
	/usr/share/man/man8/jitterscope.8.gz /usr/share/doc/jitterscope/copyright \
	/usr/share/doc/jitterscope/FLEET.md /lib/systemd/system/jitterscope.service; do
	grep -qx "$f" "$TMP/files" || fail "the package has no $f"
done
mkdir "$TMP/x" && dpkg-deb -x "$DEB" "$TMP/x" || fail "dpkg-deb -x"
cmp -s "$TMP/x/usr/bin/jitterscope" "$STATIC" || fail "/usr/bin/jitterscope is not build/static/jitterscope"
gzip -t "$TMP/x/usr/share/man/man8/jitterscope.8.gz" || fail "the man page is not gzip"
unit=$TMP/x/lib/systemd/system/jitterscope.service
exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
[ "$exe" = /usr/bin/jitterscope ] || fail "the unit's ExecStart runs '$exe', not /usr/bin/jitterscope"
grep -q '/usr/local' "$unit" && fail "the unit names /usr/local: $(grep -n /usr/local "$unit")"
echo "ok: $(wc -l <"$TMP/files") files; the unit's ExecStart is $exe"

# ---- not over anything the machine has
if dpkg-query -W -f='${Status}' jitterscope 2>/dev/null | grep -q 'installed'; then
	skip "a jitterscope package is installed here already: not replacing it"
fi
while read -r f; do
	[ -e "$f" ] || [ -L "$f" ] && skip "$f exists (not from this test): not overwriting it"
done <"$TMP/files"
# the directories there before: the purge must leave them, and remove the others
while read -r p; do
	[ -d "$p" ] && echo "$p"
done <"$TMP/paths" >"$TMP/dirs_before"

INSTALLED=
cleanup() {
	[ -n "$INSTALLED" ] && dpkg -P jitterscope >/dev/null 2>&1
}
at_exit cleanup
trap 'exit 1' INT TERM

# ---- installed
INSTALLED=1
dpkg -i "$DEB" >"$TMP/dpkg-i.out" 2>&1 || fail "dpkg -i exited $?: $(cat "$TMP/dpkg-i.out")"
[ "$(command -v jitterscope)" = /usr/bin/jitterscope ] ||
	fail "jitterscope on the PATH is '$(command -v jitterscope)'"
v=$(jitterscope --version) || fail "--version exited $?"
[ "$v" = "jitterscope $VERSION" ] || fail "--version: '$v'"
"$ROOT/scripts/cpu1-lock" jitterscope --cpu 1 --duration 1 --no-probes -q --json "$TMP/run.json" \
	>/dev/null 2>"$TMP/run.err" ||
	fail "a 1 s run exited $?: $(cat "$TMP/run.err")"
json_check "$TMP/run.json" 'c["cpu"] == 1' "r[\"version\"] == \"$VERSION\""
echo "ok: installed: $v, a 1 s --no-probes run on CPU 1"
page=$(man -w jitterscope) || fail "man -w jitterscope found no page"
[ "$page" = /usr/share/man/man8/jitterscope.8.gz ] || fail "man -w jitterscope: $page"
man -P cat jitterscope 2>/dev/null | grep -q 'SYNOPSIS' || fail "man jitterscope shows no SYNOPSIS"
echo "ok: man -w jitterscope: $page"
if command -v systemd-analyze >/dev/null 2>&1; then
	# it exits 0 on a warning (a bad value, a missing man page): the output must be empty
	systemd-analyze verify /lib/systemd/system/jitterscope.service >"$TMP/verify" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$TMP/verify")"
	[ ! -s "$TMP/verify" ] || fail "systemd-analyze verify warned: $(cat "$TMP/verify")"
	echo "ok: systemd-analyze verify jitterscope.service"
else
	echo "skip verify: no systemd-analyze (Debian package systemd)"
fi
jitterscope-capture-sysroot --no-tasks "$TMP/sysroot" >/dev/null 2>"$TMP/capture.err" ||
	fail "jitterscope-capture-sysroot exited $?: $(cat "$TMP/capture.err")"
jitterscope check --cpu 1 --sysroot "$TMP/sysroot" --json "$TMP/check.json" >/dev/null 2>&1
rc=$?
[ $rc -le 2 ] && [ -s "$TMP/check.json" ] || fail "check --sysroot exited $rc"
echo "ok: jitterscope-capture-sysroot, then check --sysroot (exit $rc)"

# ---- purged: nothing left
dpkg -P jitterscope >"$TMP/dpkg-p.out" 2>&1 || fail "dpkg -P exited $?: $(cat "$TMP/dpkg-p.out")"
INSTALLED=
dpkg-query -W -f='${Status}' jitterscope 2>/dev/null | grep -q 'installed' &&
	fail "still installed after dpkg -P"
left=0
while read -r p; do
	if { [ -e "$p" ] || [ -L "$p" ]; } && ! grep -qx "$p" "$TMP/dirs_before"; then
		echo "left behind: $p"
		left=$((left + 1))
	fi
done <"$TMP/paths"
[ $left -eq 0 ] || fail "$left paths left behind by dpkg -P"
echo "ok: dpkg -P: $(wc -l <"$TMP/paths") paths checked, none left but the $(wc -l <"$TMP/dirs_before") directories there before"
