# dist_lib.bash - what the tests of the static binary and its packages share (sourced by
# dist_*.sh after lib.bash): VERSION, and dist_make.
# VERSION - the Makefile's: the one --version prints and the archives are named after
VERSION=$(sed -n 's/^VERSION *:= *//p' "$ROOT/Makefile")
[ -n "$VERSION" ] || fail "no VERSION := line in the Makefile"
STATIC=$ROOT/build/static/jitterscope
# dist_make TARGET... - make the targets in ROOT (the test checks what `make TARGET` does:
# after make check's build only the links and archives are left to do; run alone after a
# source changed, it compiles what changed first, on every CPU). Run by make check, the test
# must not inherit make's jobserver (its descriptors are not ours).
dist_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j"$(nproc)" -C "$ROOT" "$@" ||
		fail "make $* exited $?"
}
# need_static_build - what make static links: each library's static archive (the -dev
# packages scripts/install-deps.sh installs), p11-kit's headers for the shim; else missing
need_static_build() {
	local l a pkg
	need_cmd pkg-config pkg-config
	for pc in libbpf numa libcpuid libmicrohttpd; do
		pkg-config --exists "$pc" || missing "$(static_pkg "$pc")" "no pkg-config $pc"
	done
	[ -r /usr/include/p11-kit-1/p11-kit/pin.h ] ||
		missing libp11-kit-dev "no p11-kit headers (packaging/static-shim.c)"
	for l in $(pkg-config --static --libs-only-l libbpf numa libcpuid libmicrohttpd) -lelf -lz; do
		l=${l#-l}
		[ "$l" = p11-kit ] && continue # the shim stands in for it
		a=$(${CC:-cc} -print-file-name="lib$l.a")
		[ "${a#/}" != "$a" ] && [ -r "$a" ] || missing "$(static_pkg "$l")" "no lib$l.a"
	done
}
# static_pkg NAME - the Debian package of library NAME's static archive
static_pkg() {
	case "$1" in
	bpf | libbpf) echo libbpf-dev ;;
	elf) echo libelf-dev ;;
	z) echo zlib1g-dev ;;
	numa) echo libnuma-dev ;;
	cpuid | libcpuid) echo libcpuid-dev ;;
	microhttpd | libmicrohttpd) echo libmicrohttpd-dev ;;
	gnutls) echo libgnutls28-dev ;;
	unistring) echo libunistring-dev ;;
	nettle | hogweed) echo nettle-dev ;;
	gmp) echo libgmp-dev ;;
	tasn1) echo libtasn1-6-dev ;;
	idn2) echo libidn2-dev ;;
	atomic) echo gcc ;;
	pthread | m | c | dl) echo libc6-dev ;;
	*) echo "lib$1-dev" ;;
	esac
}
