# dist_lib.bash - what the tests of the static binary and its packages share (sourced by
# dist_*.sh after lib.bash): VERSION, and dist_make.
# VERSION - the Makefile's: the one --version prints and the archives are named after
VERSION=$(sed -n 's/^VERSION *:= *//p' "$ROOT/Makefile")
[ -n "$VERSION" ] || fail "no VERSION := line in the Makefile"
STATIC=$ROOT/build/static/jitterscope
# dist_make TARGET... - make the targets in ROOT (the test checks what `make TARGET` does:
# after make check's build only the links and archives are left to do). Run by make check,
# the test must not inherit make's jobserver (its descriptors are not ours).
dist_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ROOT" "$@" ||
		fail "make $* exited $?"
}
